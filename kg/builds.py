"""A build directory: what `kg build` writes and every other command reads.

Layout of ``exports/<corpus name>/``::

    build.json      manifest: corpus, counts, kg version, time
    graph.json      node-link JSON of the NetworkX graph (the source of truth)
    graph.graphml   the same graph as GraphML (lists as JSON text)
    store/          the embedded LadybugDB database
    index.html      the interactive overview (pyvis)
    views/          per-paper and per-concept pages
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kg.errors import KgError

if TYPE_CHECKING:
    import networkx as nx

MANIFEST = "build.json"
GRAPH_JSON = "graph.json"
GRAPH_ML = "graph.graphml"
STORE = "store"
INDEX_HTML = "index.html"
VIEWS = "views"
DEFAULT_EXPORTS = Path("exports")


@dataclass(frozen=True)
class Build:
    path: Path

    @property
    def manifest(self) -> dict:
        return json.loads((self.path / MANIFEST).read_text(encoding="utf-8"))

    @property
    def store_path(self) -> Path:
        return self.path / STORE

    def graph(self) -> nx.DiGraph:
        from kg.graphio import read_json

        return read_json(self.path / GRAPH_JSON)


def is_build(path: Path) -> bool:
    return (path / MANIFEST).is_file() and (path / GRAPH_JSON).is_file()


def open_build(path: Path | str | None = None, exports: Path = DEFAULT_EXPORTS) -> Build:
    """The build at ``path``, or the most recent build under ``exports``."""
    if path is not None:
        path = Path(path)
        _recover(path)
        if not is_build(path):
            raise KgError(f"{path}: not a kg build directory (run `kg build CORPUS --out {path}`)")
        return Build(path)
    if exports.is_dir():
        for old in exports.glob(".*.old"):
            _recover(old.with_name(old.name[1:-4]))
    candidates = [p for p in exports.iterdir() if p.is_dir() and is_build(p)] if exports.is_dir() else []
    if not candidates:
        raise KgError(f"no build found under {exports}/ (run `kg build CORPUS` first, or pass --db BUILD_DIR)")
    return Build(max(candidates, key=lambda p: (p / MANIFEST).stat().st_mtime))


def _recover(path: Path) -> None:
    """Put back the previous build if a swap was cut between its two renames."""
    old = path.with_name(f".{path.name}.old")
    if not path.exists() and is_build(old):
        old.rename(path)
