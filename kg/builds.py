"""A build directory: what `kg build` writes and every other command reads.

Layout of ``exports/<corpus name>/``::

    build.json      manifest: corpus, counts, kg version, time
    graph.json      node-link JSON of the NetworkX graph (the source of truth)
    graph.graphml   the same graph as GraphML (lists as JSON text)
    store           the embedded LadybugDB database (one file)
    index.html      the interactive overview (pyvis)
    views/          per-paper and per-concept pages
"""
from __future__ import annotations

import json
import os
import re
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
        if not path.exists() and is_build(previous(path)):
            # A build's swap was cut, or is under way this instant: read the previous build
            # where it is. Readers never rename; the next build puts it back (recover()).
            return Build(previous(path))
        if not is_build(path):
            if not path.exists():
                raise KgError(f"{path}: no such build folder (make one with `kg build CORPUS --out {path}`)")
            raise KgError(f"{path}: not a kg build folder (no {MANIFEST} and {GRAPH_JSON}); --db takes the "
                          f"folder `kg build` wrote, such as {DEFAULT_EXPORTS}/NAME")
        return Build(path)
    # Hidden folders are builds under way or killed (.NAME.new-*) or kept during a swap
    # (.NAME.old): never a build of their own. A cut swap's .old is found through NAME.
    builds = []
    if exports.is_dir():
        names = {p.name for p in exports.iterdir() if not p.name.startswith(".")}
        names |= {p.name[1:-4] for p in exports.glob(".*.old")}
        builds = [b for b in (_readable(exports / n) for n in sorted(names)) if b is not None]
    if not builds:
        raise KgError(f"no build found under {exports}/ (run `kg build CORPUS` first, or pass --db BUILD_DIR)")
    return max(builds, key=lambda b: (b.path / MANIFEST).stat().st_mtime)


def _readable(path: Path) -> Build | None:
    if is_build(path):
        return Build(path)
    if not path.exists() and is_build(previous(path)):
        return Build(previous(path))
    return None


# What a build folder holds: its outputs and the exports kg writes into it by default.
BUILD_ENTRIES = frozenset({MANIFEST, GRAPH_JSON, GRAPH_ML, STORE, INDEX_HTML, VIEWS, "neo4j-import", "neo4j.cypher"})


def output_path(path: Path | str) -> Path:
    """``path`` made absolute and without "." or "..": a build is written beside its folder
    (``.NAME.new-*``, ``.NAME.lock``), which needs the folder's real name, and "." has none."""
    return Path(os.path.abspath(path))


def make_parent(path: Path) -> None:
    """Create the folder the build folder goes in, or say in one line why it cannot be."""
    try:
        file = next((p for p in reversed(path.parents) if p.exists() and not p.is_dir()), None)
    except PermissionError:  # a folder on the way cannot be entered
        raise KgError(f"{path.parent}: cannot hold the build folder (Permission denied); give another --out") from None
    if file is not None:
        raise KgError(f"{file}: is a file, so it cannot hold the build folder; give another --out")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise KgError(f"{path.parent}: cannot hold the build folder ({e.strerror or e}); give another --out") from None
    if not os.access(path.parent, os.W_OK | os.X_OK):  # else found only at the end, after the extraction
        raise KgError(f"{path.parent}: cannot hold the build folder (Permission denied); give another --out")


def check_replaceable(path: Path) -> None:
    """Refuse to write a build over anything but a kg build or an empty folder: a build
    replaces its folder whole, and a user's own files there would be deleted with it."""
    try:
        _check_replaceable(path)
    except PermissionError:  # a folder on the way cannot be entered: stat itself fails
        raise KgError(f"{path}: cannot be reached (Permission denied); give another --out") from None


def _check_replaceable(path: Path) -> None:
    if path.is_symlink():  # the swap would replace the link, not the folder it names
        raise KgError(f"{path}: is a symbolic link; give the folder it points to as --out")
    if path.exists() and not path.is_dir():
        raise KgError(f"{path}: is a file; --out takes a folder (a new one, or an earlier kg build)")
    if path.is_dir() and not is_build(path) and any(path.iterdir()):
        raise KgError(f"{path}: is a folder that is not a kg build; kg replaces its --out folder whole, "
                      f"so give a new or empty folder, or an earlier build's")
    if is_build(path):
        foreign = _foreign_files(path)
        if foreign:
            raise KgError(f"{path}: the build folder also holds {', '.join(foreign[:3])}"
                          f"{' and more' if len(foreign) > 3 else ''}, which the new build would delete; "
                          f"move them out first, or give another --out")


# The names kg.view writes under views/ (kg.view.names.page_name, kg.view.render.ASSETS), kept here
# as patterns so that checking a folder does not import pyvis.
_PAGE = re.compile(r"(?:paper|concept)-[a-z0-9-]*-[0-9a-f]{8}\.html(?:\.tmp)?")
_ASSET = re.compile(r"[\w.-]+\.(?:js|css)")


def _foreign_files(build: Path) -> list[str]:
    """Paths in a build folder that kg did not write, relative to it."""
    from kg.export.neo4j_import import is_import_folder

    # The store's engine may leave files beside it; macOS leaves .DS_Store anywhere.
    known = BUILD_ENTRIES | {f"{STORE}.{x}" for x in ("wal", "lock", "shadow", "tmp")} | {".DS_Store"}
    out = [p.name for p in build.iterdir() if p.name not in known]
    views = build / VIEWS
    if views.is_dir():
        for p in views.iterdir():
            if p.name == "lib" and p.is_dir():
                out += [f"{VIEWS}/lib/{q.name}" for q in p.iterdir() if not _ASSET.fullmatch(q.name)]
            elif not (_PAGE.fullmatch(p.name) and p.is_file()) and p.name != ".DS_Store":
                out.append(f"{VIEWS}/{p.name}")
    imports = build / "neo4j-import"
    if imports.is_dir() and any(imports.iterdir()) and not is_import_folder(imports):
        out.append("neo4j-import/ (files kg did not write)")
    return sorted(out)


def previous(path: Path) -> Path:
    """Where a build's swap keeps the previous build until the new one is in place."""
    return path.with_name(f".{path.name}.old")


def recover(path: Path) -> None:
    """Put the previous build back if a swap was cut between its two renames (writers only)."""
    old = previous(path)
    if not path.exists() and is_build(old):
        old.rename(path)
