"""`kg add` as a library call: new papers into an existing build, swapped in as `kg build` does.

The build's own records (``records/``, kg.store.shards) give the papers it holds and their
extractions, so only the new papers are read from their corpus and extracted. Resolution, the
graph, the related-paper ranking, the graph files, the store and the pages are then made afresh
from all the records: every one of them depends on the whole corpus (entities merge across
papers, related-paper scores weigh a concept by how many papers share it, and every page shows
those scores), and remaking them is a small part of a cold build's cost, which is the
extraction. The previous build's shards are linked, not rewritten. The result is the build a
cold `kg build` of the union would write (``docs/BENCHMARKS.md``, "Incremental rebuild", says
where it may differ).
"""
from __future__ import annotations

import dataclasses
import itertools
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from kg import layout
from kg.builds import folder
from kg.store import shards
from kg.corpus import Corpus, read_corpus
from kg.corpus.papers import normalized
from kg.errors import KgError
from kg.builds.pipeline import BuildOptions, BuildResult, assemble, extract_corpus, extractor_version, write_build
from kg.records import Extraction, Paper

# kg.extract.Extractor parses fewer papers than this (twice its batch of 64) in one process, whatever
# its workers: an add of fewer is extracted by the process that loads the models beside the reading.
PARALLEL_PAPERS = 128


@dataclass(frozen=True)
class Present:
    """A paper of the added corpus that the build already holds (its text, normalized)."""

    paper: Paper
    build_id: str  # its id in the build


@dataclass
class AddResult:
    """What ``add`` did: the build it wrote (None when nothing was new), the papers added and skipped."""

    build: BuildResult | None
    corpus: Corpus  # the added corpus as read
    added: list[Paper] = field(default_factory=list)
    present: list[Present] = field(default_factory=list)
    seconds: float = 0.0


def options_of(manifest: layout.Manifest, base: BuildOptions) -> BuildOptions:
    """``base`` with the settings the build was made with: an add extracts and ranks as it did."""
    model = None if manifest.model in ("", "shipped") else Path(manifest.model)
    if model is not None and not model.is_dir():
        raise KgError(f"{model}: the tagger this build was made with is not there (from this folder); "
                      f"run `kg add` where `kg build --model` ran, or build again")
    known = None if manifest.known_datasets in ("", "shipped") else Path(manifest.known_datasets)
    if known is not None and not known.is_file():
        raise KgError(f"{known}: the known dataset names this build was made with are not there (from this folder); "
                      f"run `kg add` where `kg build --known-datasets` ran, or build again")
    return dataclasses.replace(base, model=model, known_datasets=known, use_keybert=manifest.keybert,
                               related_k=manifest.related_k)


def add(
    corpus_path: Path | str,
    db: Path | str | None = None,
    options: BuildOptions | None = None,
    extract: Callable[[Corpus, BuildOptions], tuple[list[Extraction], int]] = extract_corpus,
    warn: Callable[[str], None] | None = None,
    all_pages: bool = False,
) -> AddResult:
    """Add the papers of ``corpus_path`` that ``db`` (a build folder; default: the most recent
    build under exports/) lacks, and swap the new build in. ``options`` gives how to extract
    (workers, cache, cluster, views); the model, KeyBERT and ``related_k`` are the build's own.
    ``all_pages``: write every page afresh, not only those the new papers change (a page whose
    digest is unchanged is linked from the earlier build: ``kg.view.write_views``)."""
    t0 = time.perf_counter()
    options = options or BuildOptions()
    found = folder.find_build(db)
    path = folder.output_path(found)
    if path.name.startswith(".") and path.name.endswith(".old"):
        # A swap was cut between its renames (or is under way): a writer puts the build back
        # first, under the swap lock, so as not to undo a swap that is under way.
        path = path.with_name(path.name[1:-4])
        with folder.swap_lock(path):
            folder.recover(path)
        found = folder.find_build(path)
    # The stamp first: if another build is swapped in while this one reads the manifest and the
    # records, the check before the swap sees it.
    stamp = _stamp(found)
    manifest = layout.Manifest.read(found)
    records = found / shards.RECORDS
    if not shards.shard_paths(records):
        raise KgError(f"{path}: has no {shards.RECORDS}/ (built before `kg add` existed, or written by hand); "
                      f"build it again with `kg build` to add to it")
    options = options_of(manifest, options)
    # The models start loading in another process while the build and the corpus are read.
    with _extractor_ahead(options, extract) as ahead:
        old_papers, old_extractions = shards.read_records(records)

        corpus = read_corpus(corpus_path, format=options.format)
        new, present = _new_papers(corpus, old_papers)
        version = extractor_version(options) if extract is extract_corpus else ""
        if new and manifest.extractor and version and version != manifest.extractor:
            corpus.warnings.append(f"{path}: the new papers are extracted by another extractor than the build's "
                                   f"(kg or its models changed since); `kg build` of all the papers gives one "
                                   f"extractor's output throughout")
        for w in corpus.warnings if warn else ():
            warn(w)
        result = AddResult(build=None, corpus=corpus, added=new, present=present)
        if not new:
            result.seconds = time.perf_counter() - t0
            return result

        timings: dict[str, float] = {"read": time.perf_counter() - t0}
        t = time.perf_counter()
        fresh = Corpus(name=corpus.name, path=corpus.path, papers=new)
        # Enough new papers for --workers processes to parse: this process extracts, forking them.
        parallel = options.workers > 1 and len(new) >= PARALLEL_PAPERS
        new_extractions, extracted = (ahead if ahead and not parallel else extract)(fresh, options)
        timings["extract"] = time.perf_counter() - t

    papers = old_papers + new
    extractions = old_extractions + new_extractions
    g, resolution, related = assemble(papers, extractions, options, timings)
    union = Corpus(
        name=manifest.name, path=Path(manifest.corpus), papers=papers,
        warnings=manifest.warnings + corpus.warnings,
        skipped=manifest.skipped + corpus.skipped,
        merged=manifest.merged_duplicates + corpus.merged + len(present),
    )
    out = BuildResult(path=path, corpus=union, graph=g, resolution=resolution, seconds=0.0, extracted=extracted,
                      timings=timings, extractions=extractions, kept_records=records, kept=len(old_papers),
                      added=(*manifest.added, str(corpus.path.resolve())), extractor=manifest.extractor)
    t = time.perf_counter()
    try:
        write_build(out, dataclasses.replace(options, out=path), related, check=lambda _: _unchanged(path, stamp),
                    keep_pages_from=None if all_pages else found / layout.VIEWS)
    except OSError:
        _unchanged(path, stamp)  # the build's files went from under the add: say why, in one line
        raise
    timings["write"] = time.perf_counter() - t
    out.seconds = result.seconds = time.perf_counter() - t0
    result.build = out
    return result


def _new_papers(corpus: Corpus, held: list[Paper]) -> tuple[list[Paper], list[Present]]:
    """The papers of ``corpus`` whose text the build lacks (an id the build already uses for
    another text is renamed ``ID-2``, ... as `kg build` does, with a warning), and those it has."""
    by_text = {normalized(p.text): p.id for p in held}
    ids = {p.id for p in held}
    new, present = [], []
    for p in corpus.papers:
        there = by_text.get(normalized(p.text))
        if there is not None:
            present.append(Present(p, there))
            continue
        if p.id in ids:
            new_id = next(f"{p.id}-{n}" for n in itertools.count(2) if f"{p.id}-{n}" not in ids)
            corpus.warnings.append(f"{p.source}: id {p.id!r} is taken in the build by another abstract; "
                                   f"this paper added as {new_id!r}")
            p = dataclasses.replace(p, id=new_id)
        ids.add(p.id)
        new.append(p)
    return new, present


def _stamp(build_dir: Path) -> tuple[int, int]:
    """Tells one build from the next in its folder: a swap puts in a new manifest file."""
    st = os.stat(build_dir / layout.MANIFEST)
    return st.st_ino, st.st_mtime_ns


def _unchanged(path: Path, stamp: tuple[int, int]) -> None:
    """Cancel the swap if another build or add replaced the build while this one was made:
    swapping in would drop that one's papers."""
    try:
        same = _stamp(path) == stamp
    except OSError:
        same = False
    if not same:
        raise KgError(f"{path}: another `kg build` or `kg add` replaced this build meanwhile; nothing was "
                      f"changed by this add: run it again")


@contextmanager
def _extractor_ahead(options: BuildOptions, extract: Callable) -> Iterator[Callable | None]:
    """``extract_corpus`` with an extractor whose models start loading now, in a forked process
    (``kg.extract.background``), ended when the block ends; None where kg's own extraction in
    this process is not what runs (a caller's function, a Dask cluster)."""
    if extract is not extract_corpus or options.cluster:
        yield None
        return
    from kg.extract import Extractor
    from kg.extract.background import background_extractor

    with background_extractor(Extractor(model=options.model, use_keybert=options.use_keybert)) as early:
        yield None if early is None else partial(extract_corpus, extractor=early)
