"""`kg build` as a library call: corpus -> extraction -> graph -> stores and views.

Everything is written into a fresh sibling folder first and swapped in only
when complete, so an interrupted or failed build leaves the previous build
as it was.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import networkx as nx

from kg import __version__, builds, schema
from kg.corpus import Corpus, read_corpus
from kg.graph import build_graph
from kg.graphio import write_graphml, write_json
from kg.records import ENTITY_TYPES, Extraction
from kg.resolve import Resolution, resolve
from kg.store import write_store


@dataclass(frozen=True)
class BuildOptions:
    out: Path | None = None  # default: exports/<corpus name>
    use_keybert: bool = True
    related_k: int = 10  # RELATED_TO edges stored per paper; `kg related -k K<=this` reads them
    views: bool = True
    workers: int = 1
    cache_dir: Path | None = None  # extraction cache; None disables it
    progress: bool = False
    format: str | None = None  # the corpus's format (kg.corpus.FORMAT_NAMES); None: told by name and content


@dataclass
class BuildResult:
    path: Path
    corpus: Corpus
    graph: nx.DiGraph
    resolution: Resolution
    seconds: float
    extracted: int = 0  # papers run through the extractor (the rest came from the cache)
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def entity_counts(self) -> dict[str, int]:
        c = Counter(d["label"] for _, d in self.graph.nodes(data=True))
        return {t: c.get(t, 0) for t in ENTITY_TYPES}

    @property
    def relationship_counts(self) -> dict[str, int]:
        c = Counter(d["type"] for _, _, d in self.graph.edges(data=True))
        return {rel: c.get(rel, 0) for rel, _, _ in schema.relationship_types()}


def extract_corpus(corpus: Corpus, options: BuildOptions) -> tuple[list[Extraction], int]:
    """Extractions for every paper, from the cache where the extractor's version matches."""
    from kg.cache import ExtractionCache
    from kg.extract import Extractor

    extractor = Extractor(use_keybert=options.use_keybert, workers=options.workers)
    cache = ExtractionCache(options.cache_dir, extractor.version) if options.cache_dir else None
    found = cache.get_many(corpus.papers) if cache else {}
    todo = [p for p in corpus.papers if p.id not in found]
    if todo and cache:
        cache.check_writable()
    if todo:
        for paper, ex in zip(todo, extractor.extract(todo, progress=options.progress)):
            # Stored as each one comes (the extractor yields a batch at a time), not after the
            # last: a Ctrl-C then costs only the batch under way, and a rerun extracts the rest.
            # Each entry is its own file, so writing one at a time costs no more than all at once.
            if cache:
                cache.put(paper, ex)
            found[ex.paper_id] = ex
    return [found[p.id] for p in corpus.papers], len(todo)


def build(
    corpus_path: Path | str,
    options: BuildOptions = BuildOptions(),
    extract: Callable[[Corpus, BuildOptions], tuple[list[Extraction], int]] = extract_corpus,
    warn: Callable[[str], None] | None = None,
) -> BuildResult:
    """Build the graph of a corpus and write it to ``options.out`` (atomically).

    ``warn`` is called with each warning about the input as soon as it is known (before the
    extraction); all of them are also in ``result.corpus.warnings``."""
    t0 = time.perf_counter()
    timings: dict[str, float] = {}
    corpus = read_corpus(corpus_path, format=options.format)
    out = builds.output_path(options.out or builds.DEFAULT_EXPORTS / corpus.name)
    builds.check_replaceable(out)  # before the work, not after it
    builds.make_parent(out)
    replaced = _built_from(out)
    if replaced and replaced != str(corpus.path.resolve()):
        keep = "give another --out to keep both" if options.out else "give --out to keep both"
        # First: a long list of warnings about the input must not hide it.
        corpus.warnings.insert(0, f"{out}: replacing the build of {replaced} ({keep})")
    for w in corpus.warnings if warn else ():
        warn(w)
    timings["read"] = time.perf_counter() - t0

    t = time.perf_counter()
    extractions, extracted = extract(corpus, options)
    timings["extract"] = time.perf_counter() - t

    t = time.perf_counter()
    resolution = resolve(corpus.papers, extractions)
    g = build_graph(corpus.papers, extractions, resolution)
    timings["graph"] = time.perf_counter() - t

    t = time.perf_counter()
    related = None
    if options.related_k > 0 or options.views:
        from kg.related import add_related_edges, related_all
        from kg.view import RELATED_K

        # One ranking serves the stored RELATED_TO edges and the pages' lists.
        related = related_all(g, max(options.related_k, RELATED_K))
        if options.related_k > 0:
            add_related_edges(g, k=options.related_k, related=related)
    timings["related"] = time.perf_counter() - t

    result = BuildResult(
        path=out, corpus=corpus, graph=g, resolution=resolution, seconds=0.0, extracted=extracted, timings=timings
    )
    t = time.perf_counter()
    write_build(result, options, related)
    timings["write"] = time.perf_counter() - t  # the sum of the write_* timings
    result.seconds = time.perf_counter() - t0
    return result


def _built_from(out: Path) -> str | None:
    """The corpus (an absolute path) an earlier build in ``out`` was made from, if known."""
    try:
        corpus = json.loads((out / builds.MANIFEST).read_text(encoding="utf-8")).get("corpus")
    except (OSError, ValueError, AttributeError):
        return None
    # Manifests before 2026-12-03 kept the path as typed, relative to a folder now unknown.
    return corpus if isinstance(corpus, str) and Path(corpus).is_absolute() else None


def write_build(result: BuildResult, options: BuildOptions, related: dict | None = None) -> None:
    from kg.related import ranking_version

    out = builds.output_path(result.path)
    builds.make_parent(out)
    _remove_dead_builds(out)
    # The writer's pid in the name tells a later build whether this folder is still being written.
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-{os.getpid()}-", dir=out.parent))
    tmp.chmod(0o777 & ~_umask())  # mkdtemp makes it 0700; a build folder is as readable as any other
    timings = result.timings
    try:
        t = time.perf_counter()
        write_json(result.graph, tmp / builds.GRAPH_JSON)
        write_graphml(result.graph, tmp / builds.GRAPH_ML)
        timings["write_graph_files"] = time.perf_counter() - t
        t = time.perf_counter()
        write_store(result.graph, tmp / builds.STORE)
        timings["write_store"] = time.perf_counter() - t
        if options.views:
            from kg.view import write_views

            t = time.perf_counter()
            write_views(result.graph, tmp, corpus=result.corpus.name, related=related, fresh=True,
                        workers=options.workers)
            timings["write_views"] = time.perf_counter() - t
        manifest = {
            "kg_version": __version__,
            "name": result.corpus.name,
            "corpus": str(result.corpus.path.resolve()),
            "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "papers": len(result.corpus.papers),
            "skipped": result.corpus.skipped,
            "merged_duplicates": result.corpus.merged,
            "entities": result.entity_counts,
            "relationships": result.relationship_counts,
            "resolution": result.resolution.summary,
            "related_k": options.related_k,
            "related_version": ranking_version(),
            "warnings": result.corpus.warnings,
            # Seconds per stage so far (the manifest itself is the last thing written).
            "timings": {k: round(v, 2) for k, v in result.timings.items()},
        }
        # The manifest is written last: a folder without one is never taken for a build.
        (tmp / builds.MANIFEST).write_text(json.dumps(manifest, indent=2, ensure_ascii=False), encoding="utf-8")
        with _swap_lock(out):
            builds.check_replaceable(out)  # again: something may have appeared there meanwhile
            swap_in(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


@contextmanager
def _swap_lock(out: Path) -> Iterator[None]:
    """One swap into ``out`` at a time: two builds into one folder take turns at the end
    (interleaved, one's rename back of .NAME.old would break the other's)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX; swaps are not serialised there
        yield
        return
    with open(out.parent / f".{out.name}.lock", "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _remove_dead_builds(out: Path) -> None:
    """Delete the temporary folders of builds into ``out`` whose process is gone (killed hard:
    SIGKILL or a power cut leave no chance to clean up). Folders of live builds stay."""
    for d in out.parent.glob(f".{out.name}.new-*"):
        pid = d.name[len(out.name) + 6:].split("-", 1)[0]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(d, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def swap_in(new: Path, out: Path) -> None:
    """Replace ``out`` by ``new``; at every instant one complete build is on disk."""
    old = builds.previous(out)
    # A swap cut earlier may have left the previous build only at .old: put it back
    # before anything is deleted, or a second cut swap would leave no build at all.
    builds.recover(out)
    if old.exists():
        shutil.rmtree(old)
    if out.exists():
        os.replace(out, old)
    os.replace(new, out)
    shutil.rmtree(old, ignore_errors=True)
