"""`kg build` as a library call: corpus -> extraction -> resolution -> graph -> store and views.

``build`` runs the stages in that order and ``write_build`` writes the build folder, which
``kg.builds`` swaps in whole: an interrupted or failed build leaves the previous one as it was.
"""
from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import networkx as nx

from kg import __version__, layout, schema
from kg.builds import folder
from kg.store import shards
from kg.corpus import Corpus, read_corpus
from kg.graph import build_graph
from kg.graph.io import write_graphml, write_json
from kg.builds.options import BuildOptions
from kg.records import ENTITY_TYPES, Extraction, Paper
from kg.concepts import KnownDatasets, Resolution, find_concepts
from kg.store import store_written_meanwhile


@dataclass
class BuildResult:
    """What ``build`` made: the corpus read, the graph, how entities were resolved, timings."""

    path: Path
    corpus: Corpus
    graph: nx.MultiDiGraph
    resolution: Resolution
    seconds: float
    extracted: int = 0  # papers run through the extractor (the rest came from the cache)
    timings: dict[str, float] = field(default_factory=dict)
    extractions: list[Extraction] = field(default_factory=list)  # one per paper, in the corpus's order
    # Where the records (kg.store.shards) of ``corpus.papers[:kept]`` are already written: a build
    # being added to. ``write_build`` links those shards and writes only the papers after them.
    kept_records: Path | None = None
    kept: int = 0
    added: tuple[str, ...] = ()  # corpora added to the build since `kg build` (kg.builds.adding), absolute paths
    extractor: str = ""  # the Extractor's version that extracted the papers ("": not kg's extractor)

    @property
    def entity_counts(self) -> dict[str, int]:
        c = Counter(d["label"] for _, d in self.graph.nodes(data=True))
        return {t: c.get(t, 0) for t in ENTITY_TYPES}

    @property
    def relationship_counts(self) -> dict[str, int]:
        c = Counter(d["type"] for _, _, d in self.graph.edges(data=True))
        return {rel: c.get(rel, 0) for rel, _, _ in schema.relationship_types()}


def extractor_version(options: BuildOptions) -> str:
    """The version of the extractor ``options`` ask for (no model is loaded to tell it)."""
    from kg.extract import Extractor

    return Extractor(model=options.model, use_keybert=options.use_keybert).version


def extract_corpus(corpus: Corpus, options: BuildOptions, extractor=None) -> tuple[list[Extraction], int]:
    """Extractions for every paper, from the cache where the extractor's version matches.

    ``extractor``: one already made (``kg.extract.background``), else the ``options``' own."""
    from kg.builds.cache import ExtractionCache
    from kg.extract import Extractor

    if extractor is None:
        extractor = Extractor(model=options.model, use_keybert=options.use_keybert, workers=options.workers)
    cache = ExtractionCache(options.cache_dir, extractor.version) if options.cache_dir else None
    found = cache.get_many(corpus.papers) if cache else {}
    todo = [p for p in corpus.papers if p.id not in found]
    if todo and cache:
        cache.check_writable()
    if todo:
        if options.cluster:
            from kg.extract.distributed import extract_on_cluster

            extracted = extract_on_cluster(todo, options.cluster, model=options.model, use_keybert=options.use_keybert,
                                           progress=options.progress, workers=options.workers,
                                           expect_version=extractor.version)
        else:
            extracted = extractor.extract(todo, progress=options.progress)
        for paper, ex in zip(todo, extracted):
            # Stored as each one comes (the extractor yields a batch at a time), not after the
            # last: a Ctrl-C then costs only the batch under way, and a rerun extracts the rest.
            # Each entry is its own file, so writing one at a time costs no more than all at once.
            if cache:
                cache.put(paper, ex)
            found[ex.paper_id] = ex
    return [found[p.id] for p in corpus.papers], len(todo)


def build(
    corpus_path: Path | str,
    options: BuildOptions | None = None,
    extract: Callable[[Corpus, BuildOptions], tuple[list[Extraction], int]] = extract_corpus,
    warn: Callable[[str], None] | None = None,
) -> BuildResult:
    """Build the graph of a corpus and write it to ``options.out`` (atomically). ``kg.build`` runs it
    and returns the build written (``kg.Build``).

    ``warn`` is called with each warning about the input as soon as it is known (before the
    extraction); all of them are also in ``result.corpus.warnings``."""
    t0 = time.perf_counter()
    options = options or BuildOptions()  # made now: its defaults read the machine and $KG_CACHE_DIR
    timings: dict[str, float] = {}
    corpus = read_corpus(corpus_path, format=options.format)
    out = folder.output_path(options.out or layout.DEFAULT_EXPORTS / corpus.name)
    folder.check_replaceable(out, _kg_folders())  # before the work, not after it
    folder.make_parent(out)
    replaced = folder.built_from(out)
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

    g, resolution, related = assemble(corpus.papers, extractions, options, timings)
    result = BuildResult(path=out, corpus=corpus, graph=g, resolution=resolution, seconds=0.0, extracted=extracted,
                         timings=timings, extractions=extractions,
                         extractor=extractor_version(options) if extract is extract_corpus else "")
    t = time.perf_counter()
    write_build(result, options, related)
    timings["write"] = time.perf_counter() - t  # the sum of the write_* timings
    result.seconds = time.perf_counter() - t0
    return result


def assemble(papers: list[Paper], extractions: list[Extraction], options: BuildOptions,
             timings: dict[str, float]) -> tuple[nx.MultiDiGraph, Resolution, dict | None]:
    """The stages after extraction: the concepts (kg.concepts), the graph, the related-paper ranking
    (stored as RELATED_TO edges when ``options.related_k``) and the themes; the ranking is returned
    for the pages."""
    t = time.perf_counter()
    known = KnownDatasets.read(options.known_datasets) if options.known_datasets else None
    resolution = find_concepts(papers, extractions, known=known)
    timings["concepts"] = time.perf_counter() - t
    t = time.perf_counter()
    g = build_graph(papers, extractions, resolution)
    timings["graph"] = time.perf_counter() - t

    t = time.perf_counter()
    related = None
    if options.related_k > 0 or options.views:
        from kg.analysis.related import LISTED_K, ConceptIndex, add_related_edges
        from kg.analysis.topics import add_topics, find_topics

        # One ranking serves the stored RELATED_TO edges, the pages' lists and the map's themes.
        index = ConceptIndex.from_graph(g)
        related = index.related_all(max(options.related_k, LISTED_K))
        if options.related_k > 0:
            add_related_edges(g, k=options.related_k, related=related)
        timings["related"] = time.perf_counter() - t
        t = time.perf_counter()
        add_topics(g, find_topics(g, related, index))
        timings["topics"] = time.perf_counter() - t
    else:
        timings["related"] = time.perf_counter() - t
    return g, resolution, related


def write_build(result: BuildResult, options: BuildOptions, related: dict | None = None,
                check: Callable[[Path], None] | None = None,
                keep_pages_from: Path | None = None) -> None:
    """Write ``result`` to ``result.path`` as a build folder: the records (``kg.store.shards``), graph
    files, store, views (unless ``options.views`` is off) and the manifest, swapped in whole
    (``kg.folder.writing``; ``check`` is called on the folder being replaced just before the swap).
    ``keep_pages_from``: an earlier build's views/ folder, whose pages that would be written the
    same are linked rather than written (``kg.view.write_views``'s ``keep_from``).

    ``related``: the ranking the views list (``kg.analysis.related.related_all``), ranked afresh if None."""
    from kg.analysis.related import ranking_version

    timings = result.timings
    with folder.writing(result.path, _kg_folders(), check=check) as tmp:
        t = time.perf_counter()
        if result.extractions:  # a result made by hand may have none: then it cannot be added to
            _write_records(result, tmp / shards.RECORDS)
        timings["write_records"] = time.perf_counter() - t
        forked = False
        if options.views:
            from kg.view import forks_pages

            forked = forks_pages(result.graph, options.workers)
        # The store is written beside the graph files and the pages (its statements run outside
        # the GIL; its timing is its own, overlapping theirs), unless page workers are forked.
        with store_written_meanwhile(result.graph, tmp / layout.STORE, background=not forked) as store_seconds:
            t = time.perf_counter()
            write_json(result.graph, tmp / layout.GRAPH_JSON)
            write_graphml(result.graph, tmp / layout.GRAPH_ML)
            timings["write_graph_files"] = time.perf_counter() - t
            if options.views:
                from kg.view import write_views

                t = time.perf_counter()
                write_views(result.graph, tmp, corpus=result.corpus.name, related=related, fresh=True,
                            workers=options.workers, keep_from=keep_pages_from)
                timings["write_views"] = time.perf_counter() - t
        timings["write_store"] = store_seconds()
        # The manifest is written last: a folder without one is never taken for a build.
        layout.Manifest(
            kg_version=__version__,
            name=result.corpus.name,
            corpus=str(result.corpus.path.resolve()),
            created=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            papers=len(result.corpus.papers),
            skipped=result.corpus.skipped,
            merged_duplicates=result.corpus.merged,
            entities=result.entity_counts,
            relationships=result.relationship_counts,
            resolution=result.resolution.summary,
            related_k=options.related_k,
            model=str(options.model) if options.model else "shipped",
            known_datasets=str(Path(options.known_datasets).resolve()) if options.known_datasets else "shipped",
            related_version=ranking_version(),
            keybert=options.use_keybert,
            extractor=result.extractor,
            added=list(result.added),
            warnings=result.corpus.warnings,
            # Seconds per stage so far (the manifest itself is the last thing written).
            timings={k: round(v, 2) for k, v in timings.items()},
        ).write(tmp)


def _write_records(result: BuildResult, folder: Path) -> None:
    """The papers and extractions as shards: the kept ones linked, the others written."""
    first = shards.copy_shards(result.kept_records, folder) if result.kept_records else 0
    papers = result.corpus.papers[result.kept:]
    shards.write_shards(folder, papers, result.extractions[result.kept:], first=first)


def _kg_folders() -> folder.FolderChecks:
    """kg's own subfolders of a build, and how to tell that they hold only kg's files."""
    from kg.export.neo4j_import import is_import_folder

    return {layout.NEO4J_IMPORT: is_import_folder, shards.RECORDS: shards.is_records_folder}
