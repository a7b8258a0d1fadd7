"""kg build: run every stage on a corpus and write the build directory."""
from __future__ import annotations

import os
import shlex
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from kg.builds import MANIFEST
from kg.builds.folder import FolderError
from kg.builds.options import BuildOptions, default_cache_dir
from kg.cli.app import app
from kg.cli.common import relationship_lines
from kg.corpus.formats import FORMAT_NAMES, FORMATS
from kg.errors import KgError
from kg.builds.machine import default_workers

if TYPE_CHECKING:
    from kg.builds.pipeline import BuildResult


# The options' defaults are BuildOptions' (tests/test_api.py holds them equal): `kg build` and
# kg.build() in a notebook build alike.
DEFAULTS = BuildOptions(cache_dir=None)

CorpusFormat = Enum("CorpusFormat", {name: name for name in FORMAT_NAMES}, type=str)


def workers_option(help: str) -> typer.models.OptionInfo:
    """``--workers N``, which defaults to ``kg.builds.machine.default_workers()``: its help says what that picks."""
    return typer.Option("--workers", min=1, metavar="N", help=help,
                        show_default=f"the usable cores, while memory holds 1 GB for each: {default_workers()} here")


@app.command("build")
def build_command(
    corpus: Annotated[Path, typer.Argument(metavar="CORPUS", help="Abstracts: text (one per paragraph or per line), JSON Lines or a JSON array, CSV/TSV, SciERC JSON Lines, BibTeX, RIS, PubMed (MEDLINE) or Web of Science exports; read by content, whatever the file name ends in.",
                                           show_default=False)],
    out: Annotated[Path | None, typer.Option("--out", "-o", metavar="DIR", help="Build directory (default: exports/<corpus name>).",
                                             show_default=False)] = None,
    model: Annotated[Path | None, typer.Option("--model", metavar="TAGGER_DIR", help="An entity tagger trained by `kg train` (default: the one kg ships).",
                                               show_default=False)] = None,
    known_datasets: Annotated[Path | None, typer.Option("--known-datasets", metavar="FILE", help="Dataset names known beforehand, one a line: "
                                                        "where the abstracts write one as a dataset's name, it is a Dataset (default: the names "
                                                        "Papers with Code tags on ACL papers, which kg ships; an empty file: none).",
                                                        show_default=False)] = None,
    keybert: Annotated[bool, typer.Option("--keybert/--no-keybert", help="Rank key concepts with KeyBERT.")] = DEFAULTS.use_keybert,
    related_k: Annotated[int, typer.Option("--related-k", min=0, metavar="K", help="RELATED_TO links stored per paper (0: none).")] = DEFAULTS.related_k,
    views: Annotated[bool, typer.Option("--views/--no-views", help="Write the interactive HTML views.")] = DEFAULTS.views,
    workers: Annotated[int, workers_option("Processes that parse the abstracts and write the pages (2 on 2 cores build "
                                           "about 1.2x faster than 1 for a few hundred abstracts or more); "
                                           "1: everything in this process.")] = DEFAULTS.workers,
    cache: Annotated[Path | None, typer.Option("--cache", metavar="DIR", help="Extraction cache folder (default: $KG_CACHE_DIR or .kg-cache).",
                                               show_default=False)] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Extract everything afresh; read and write no cache.")] = False,
    cluster: Annotated[str | None, typer.Option("--cluster", metavar="ADDRESS|local", envvar="KG_DASK_SCHEDULER",
                                                help="Extract on a Dask cluster: a scheduler's address (tcp://host:8786), or "
                                                "`local` for one of --workers processes started on this machine (default: $KG_DASK_SCHEDULER; "
                                                "unset: in this process). Needs `pip install -e '.[dask]'`, on the workers too.",
                                                show_default=False)] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar; summary only.")] = False,
    fmt: Annotated[CorpusFormat | None, typer.Option(
        "--format", "-f", help="Read CORPUS as this format instead of telling it by name and content: "
        + "; ".join(f"{f.name}: {f.description}" for f in FORMATS) + ".", show_default=False)] = None,
) -> None:
    """Build the knowledge graph of CORPUS.

    \b
    Example:
      kg build seeds/iclr2025_abstracts.txt
      kg build papers.csv --out exports/my_list --workers 1   # one process
      kg build notes.txt --format lines        # one abstract per line, whatever the lines look like
      kg build papers.csv --model my-tagger     # a tagger from `kg train`
      kg build big.jsonl --cluster tcp://scheduler:8786   # extraction on a Dask cluster
    """
    from kg.extract.tagger import check_folder
    from kg.builds.pipeline import build

    if model is not None:
        check_folder(model)
    if known_datasets is not None:
        from kg.concepts import KnownDatasets

        KnownDatasets.read(known_datasets)  # one clear line now for a file that cannot be read, not after extraction
    options = BuildOptions(out=out, model=model, known_datasets=known_datasets, use_keybert=keybert, related_k=related_k, views=views,
                           workers=workers, cache_dir=cache_dir_of(cache, no_cache), progress=not quiet,
                           format=fmt.value if fmt else None, cluster=cluster_of(cluster))
    warnings = _Warnings()
    try:
        result = build(corpus, options, warn=warnings)
    except FolderError as exc:  # the library asks for another folder; here, --out names it
        warnings.close()
        raise KgError(f"{exc} (--out DIR)") from None
    except BaseException:
        warnings.close()
        raise
    warnings.close(manifest=result.path / MANIFEST)
    typer.echo(summary(result))


def cache_dir_of(cache: Path | None, no_cache: bool) -> Path | None:
    """The extraction cache folder --cache and --no-cache ask for: by default BuildOptions'."""
    if cache is not None and no_cache:  # one of the two would be ignored without a word
        raise KgError("give --cache DIR or --no-cache, not both")
    return None if no_cache else (cache or default_cache_dir())


def cluster_of(cluster: str | None) -> str | None:
    """--cluster's value checked now, in one line, rather than after the corpus is read."""
    if not cluster or not cluster.strip():  # an empty KG_DASK_SCHEDULER is unset
        return None
    from kg.extract.distributed import check_available

    check_available()
    return cluster.strip()


class _Warnings:
    """Prints the first warnings about the input and counts the rest: a bibliography exported
    without abstracts would otherwise print one line per entry."""

    LIMIT = 20

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, warning: str) -> None:
        self.count += 1
        if self.count <= self.LIMIT:
            typer.echo(f"kg: warning: {warning}", err=True)

    def close(self, manifest: Path | None = None) -> None:
        hidden = self.count - self.LIMIT
        if hidden > 0:
            where = f"; {manifest} lists them all under \"warnings\"" if manifest else ""
            typer.echo(f"kg: warning: ... and {hidden} more like these{where}", err=True)


def _papers(n: int) -> str:
    return f"{n} paper" if n == 1 else f"{n} papers"


def _name_of(paper, papers) -> str:
    """The paper's title if `kg related` finds this paper by it (its own rule: case ignored,
    title words), else its id."""
    from kg.analysis.related import find_paper_in

    try:
        found = find_paper_in({p.id: p.title for p in papers}, paper.title)
    except KgError:  # no title, or one that matches several papers
        return paper.id
    return paper.title if found == paper.id else paper.id


def _shown(path: Path) -> Path:
    """``path`` (absolute) as the user reads it best: relative if it is below the current folder.
    A build of "." or ".." has replaced the current folder, so only its absolute path still works."""
    try:
        rel = Path(os.path.relpath(path))
    except (OSError, ValueError):  # the current folder was the build just replaced; another drive
        return path
    return path if not rel.parts or rel.parts[0] == ".." else rel


def related_hint(paper: str, db: Path) -> str:
    """The `kg related` command for ``paper``, as it can be pasted into a shell."""
    if paper.startswith("-"):
        # "-omics ..." would be read as options; after "--" nothing is, so --db goes before it.
        return f"kg related --db {_shell_path(db)} -- {shlex.quote(paper)}"
    return f"kg related {shlex.quote(paper)} --db {_shell_path(db)}"


def _shell_path(path: Path) -> str:
    """``path`` quoted for a shell, and as "./-name" if it starts with "-", which `open` would take for options."""
    text = str(path)
    return shlex.quote(f"./{text}" if text.startswith("-") else text)


def summary(result: BuildResult) -> str:
    ents = result.entity_counts
    rels = result.relationship_counts
    c = result.corpus
    path = _shown(result.path)
    lines = [
        f"Built {path}/ in {result.seconds:.1f}s",
        f"  papers        {len(c.papers)}" + (f"  ({c.skipped} skipped, {c.merged} duplicates merged)" if c.skipped or c.merged else ""),
        "  entities      " + ", ".join(f"{n} {t}" for t, n in ents.items()),
        *relationship_lines(rels),
        f"  resolution    {result.resolution.summary}",
        f"  extracted     {_papers(result.extracted)} ({len(c.papers) - result.extracted} from cache)",
        "Next:",
        f"  kg query top_methods --db {_shell_path(path)}",
        "  " + related_hint(_name_of(c.papers[0], c.papers), path),
    ]
    if (result.path / "index.html").exists():
        lines.append(f"  open {_shell_path(path / 'index.html')}   (interactive graph, works offline)")
    if (result.path / "map.html").exists():
        lines.append(f"  open {_shell_path(path / 'map.html')}     (the papers grouped by research theme)")
    return "\n".join(lines)
