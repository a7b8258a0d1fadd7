"""A build folder as a notebook holds it: ``Build`` (``kg.open_build``, ``kg.build``), whose methods
read, query and rank what a build holds, add papers to it and export it.

The folder's layout (file names, ``Manifest``, page names) is the contract kg.layout; where a
build is and how one is replaced whole, kg.builds.folder; both are re-exported here. The
modules of this package that write a build (pipeline, adding, shards, cache) import those two,
never this one, and ``Build``'s methods import the stages they call when called: opening a
build costs nothing of them, and no import runs in a circle.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg.builds.folder import (FolderChecks, built_from, check_replaceable, find_build, make_parent, output_path,
                              previous, recover, swap_in, swap_lock, writing)
from kg.errors import KgError
from kg.layout import (ASSET_FILE, BUILD_ENTRIES, DEFAULT_EXPORTS, GRAPH_JSON, GRAPH_ML, INDEX_HTML, MANIFEST,
                       MAP_HTML, NEO4J_IMPORT, NEO4J_SCRIPT, PAGE_DIGESTS, PAGE_FILE, RECORDS, STORE, THEMES_JS,
                       TRENDS_HTML, VIEWS, Manifest, is_build, page_name)

if TYPE_CHECKING:
    import networkx as nx

    from kg.analysis.related import RelatedPaper
    from kg.analysis.stats import BuildStats
    from kg.analysis.trends import Trends
    from kg.builds.adding import AddResult
    from kg.builds.options import BuildOptions
    from kg.builds.pipeline import BuildResult

__all__ = [
    "Build", "Found", "build", "open_build",
    # kg.layout
    "ASSET_FILE", "BUILD_ENTRIES", "DEFAULT_EXPORTS", "GRAPH_JSON", "GRAPH_ML", "INDEX_HTML", "MANIFEST", "MAP_HTML",
    "NEO4J_IMPORT", "NEO4J_SCRIPT", "PAGE_DIGESTS", "PAGE_FILE", "RECORDS", "STORE", "THEMES_JS", "TRENDS_HTML",
    "VIEWS", "Manifest", "is_build", "page_name",
    # kg.builds.folder
    "FolderChecks", "built_from", "check_replaceable", "find_build", "make_parent", "output_path", "previous",
    "recover", "swap_in", "swap_lock", "writing",
]


@dataclass(frozen=True)
class Found:
    """What ``Build.find`` found: a paper or a concept of the build, by its id."""

    kind: str  # "paper" or "concept"
    id: str
    name: str  # the paper's title, or the concept's name


@dataclass(frozen=True)
class Build:
    """A build folder on disk: what the commands read and what a notebook holds
    (``kg.open_build(path)``, or what ``kg.build(corpus)`` returns). Each call reads the folder afresh:
    another build or ``add`` may have replaced it meanwhile."""

    path: Path
    # What ``kg.build`` ran (the corpus read, the graph in memory, timings); None for a build opened.
    result: BuildResult | None = field(default=None, compare=False, repr=False)

    @property
    def manifest(self) -> Manifest:
        return Manifest.read(self.path)

    @property
    def store_path(self) -> Path:
        return self.path / STORE

    def graph(self) -> nx.MultiDiGraph:
        """The graph (NetworkX), as ``graph.json`` holds it."""
        from kg.graph.io import read_json

        return read_json(self.path / GRAPH_JSON)

    def query(self, cypher: str, **params: Any) -> list[dict[str, Any]]:
        """The rows of a read-only Cypher query on the build's embedded store, one dict a row (a
        list ``pandas.DataFrame`` takes as it is). ``cypher``: a statement, a ``.cypher`` file, or
        a ready query's name (``"top_methods"``); ``params`` fill its ``$names``."""
        from kg.store.querying import read_rows

        return read_rows(self.store_path, cypher, params).records()

    def find(self, text: str) -> list[Found]:
        """The paper and the concept ``text`` names, by the rules `kg related` and `kg view` use: a
        paper by its id, title words or a concept it names; a concept by its id, name or an alias.
        A KgError when it names neither (or several of one kind), saying why."""
        from kg.analysis.related import find_paper
        from kg.view.names import find_concept

        g = self.graph()
        found, errors = [], []
        for kind, lookup, attr in (("paper", find_paper, "title"), ("concept", find_concept, "name")):
            try:
                node = lookup(g, text)
            except KgError as exc:
                errors.append(str(exc))
            else:
                found.append(Found(kind, node, g.nodes[node].get(attr) or node))
        if not found:
            raise KgError("; ".join(errors))
        return found

    def related(self, paper: str, k: int = 10, by: str | None = None) -> list[RelatedPaper]:
        """The ``k`` papers sharing the most specific concepts with ``paper`` (an id, title words or
        a concept it names), each with its score and the concepts shared; ``by``: "method", "task"
        or "dataset", to compare that facet's concepts only (`kg related --by`)."""
        from kg.analysis.related import related_in_build

        return related_in_build(self, paper, k, by)[2]

    def stats(self, top: int = 5, everything: bool = False) -> BuildStats:
        """What the build holds (`kg stats`): counts, and the ``top`` entities of each type by papers;
        ``everything``: generic concepts too."""
        from kg.analysis.stats import build_stats

        return build_stats(self.graph(), self.manifest, top=top, everything=everything)

    def trends(self, type: str | None = None, top: int = 10, task: str | None = None, from_year: int | None = None,
               to_year: int | None = None, include_generic: bool = False) -> Trends:
        """Concepts rising, falling and emerging over the build's years (`kg trends`); a KgError
        says why when its papers do not span two years."""
        from kg.analysis.trends import trends

        return trends(self.graph(), type=type, top=top, task=task, from_year=from_year, to_year=to_year,
                      include_generic=include_generic)

    def add(self, corpus: Path | str, options: BuildOptions | None = None, **settings: Any) -> AddResult:
        """Add the papers of ``corpus`` the build lacks (`kg add`) and swap the new build in here.
        ``options``, or ``BuildOptions``' fields as keywords (``workers=1``), say how to extract."""
        from kg.builds.adding import add
        from kg.builds.options import BuildOptions

        options = dataclasses.replace(options or BuildOptions(), **settings)
        return add(corpus, self.path, options)

    def export(self, format: str, out: Path | str | None = None) -> Path:
        """Write the graph for Neo4j (`kg export`): ``format`` "cypher" (a script for cypher-shell)
        or "neo4j-import" (CSVs for neo4j-admin), to ``out`` (default: in the build folder, which
        the next build replaces). Returns what was written."""
        from kg.export import cypher_script, neo4j_import
        from kg.export.rows import export_graph

        writers = {"cypher": (NEO4J_SCRIPT, cypher_script.write_script),
                   "neo4j-import": (NEO4J_IMPORT, neo4j_import.write_import)}
        if format not in writers:
            raise KgError(f"unknown export format {format!r}; one of {', '.join(writers)}")
        default, write = writers[format]
        path = Path(out) if out is not None else self.path / default
        write(export_graph(self.graph()), path)
        return path


def open_build(path: Path | str | None = None, exports: Path = DEFAULT_EXPORTS) -> Build:
    """The build at ``path``, or the most recent build under ``exports`` (``kg.open_build``)."""
    return Build(find_build(path, exports))


def build(corpus: Path | str, options: BuildOptions | None = None, **settings: Any) -> Build:
    """Build the graph of ``corpus`` (`kg build`) and return the build written, holding the run's
    result (``.result``: the corpus read, the graph, timings). ``options``, or ``BuildOptions``'
    fields as keywords (``out="exports/mine"``, ``workers=1``), say how; the defaults are `kg build`'s."""
    from kg.builds.options import BuildOptions
    from kg.builds.pipeline import build as run

    if "out" in settings and settings["out"] is not None:
        settings["out"] = Path(settings["out"])
    result = run(corpus, dataclasses.replace(options or BuildOptions(), **settings))
    return Build(result.path, result)
