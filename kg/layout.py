"""The build folder's layout: the contract between the stages that write a build and those that read it.

Layout of ``exports/<corpus name>/``::

    build.json      the manifest (``Manifest``): corpus, counts, kg version, time; written last
    graph.json      node-link JSON of the NetworkX graph (the source of truth)
    graph.graphml   the same graph as GraphML (lists as JSON text)
    store           the embedded LadybugDB database (one file)
    records/        the papers and their extractions as Parquet shards (kg.store.shards): what `kg add` adds to
    index.html      the overview: a labelled map of the most named concepts (kg.view.conceptmap)
    map.html        the corpus map: papers grouped by research theme
    trends.html     concepts rising and falling over the years (corpora of two years or more)
    views/          per-paper and per-concept pages (``page_name``), their scripts in views/lib/
    neo4j-import/, neo4j.cypher   exports kg writes there by default

It sits below the stages (kg.builds writes a folder; analyses, views and exports read one), so
it imports nothing of kg but ``kg.errors``. ``BuildFolder`` is what a reader of a build may ask
of it; ``kg.builds.Build`` is the one kg hands out.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from kg.errors import KgError

if TYPE_CHECKING:
    import networkx as nx

MANIFEST = "build.json"
GRAPH_JSON = "graph.json"
GRAPH_ML = "graph.graphml"
STORE = "store"
INDEX_HTML = "index.html"
MAP_HTML = "map.html"  # the corpus map: papers grouped by research theme
TRENDS_HTML = "trends.html"  # concepts rising and falling over the years (kg.view.trendspage)
VIEWS = "views"
PAGE_DIGESTS = "pages.json"  # in views/: what each page shows, as a digest (kg.view.write_views)
THEMES_JS = "themes.js"  # in views/: each paper's research theme, which the pages read (kg.view.write_themes)
NEO4J_IMPORT = "neo4j-import"
NEO4J_SCRIPT = "neo4j.cypher"
RECORDS = "records"  # the shards of kg.store.shards
DEFAULT_EXPORTS = Path("exports")
# What a build folder holds: its outputs and the exports kg writes into it by default.
BUILD_ENTRIES = frozenset({MANIFEST, GRAPH_JSON, GRAPH_ML, STORE, RECORDS, INDEX_HTML, MAP_HTML, TRENDS_HTML, VIEWS,
                           NEO4J_IMPORT, NEO4J_SCRIPT})


@dataclass(frozen=True)
class Manifest:
    """What ``build.json`` says about a build. Fields a manifest lacks (one written by an older
    kg, or by hand) read as empty."""

    name: str = ""  # the corpus's name, shown on the pages
    corpus: str = ""  # the corpus file, an absolute path (as typed, before 2026-12-03)
    created: str = ""  # ISO time, UTC
    kg_version: str = ""
    papers: int = 0
    skipped: int = 0  # records of the corpus not read (each has a warning)
    merged_duplicates: int = 0
    entities: dict[str, int] = field(default_factory=dict)  # per entity type
    relationships: dict[str, int] = field(default_factory=dict)  # per relationship type
    resolution: str = ""  # how entity resolution merged surface forms, in one line
    related_k: int = 0  # RELATED_TO links stored per paper
    model: str = ""  # the entity tagger: "shipped", or the folder given to --model
    known_datasets: str = ""  # the known dataset names: "shipped" (or "": before they were), or a file
    related_version: str | None = None  # the ranking that stored them (kg.analysis.related.ranking_version)
    keybert: bool = True  # whether key concepts were ranked with KeyBERT (`kg add` extracts as the build did)
    extractor: str = ""  # the extractor's version (kg.extract.Extractor.version); "" if not known
    added: list[str] = field(default_factory=list)  # corpora `kg add` added since the build, absolute paths
    warnings: list[str] = field(default_factory=list)  # every warning about the input
    timings: dict[str, float] = field(default_factory=dict)  # seconds per stage

    @classmethod
    def from_json(cls, data: object) -> Manifest:
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        return cls(**{f.name: data[f.name] for f in dataclasses.fields(cls) if f.name in data})

    def to_json(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def read(cls, build_dir: Path) -> Manifest:
        path = Path(build_dir) / MANIFEST
        try:
            return cls.from_json(json.loads(path.read_text(encoding="utf-8")))
        except (ValueError, TypeError) as exc:
            raise KgError(f"{path}: not a kg build manifest ({exc})") from None

    def write(self, build_dir: Path) -> None:
        text = json.dumps(self.to_json(), indent=2, ensure_ascii=False)
        (Path(build_dir) / MANIFEST).write_text(text, encoding="utf-8")


@lru_cache(maxsize=1 << 17)  # a build links each node from many pages
def page_name(kind: str, node_id: str) -> str:
    """A page's file name under views/: readable, filesystem-safe and unique, ``paper-<slug>-<hash>.html``
    (``kind`` is "paper" or "concept"). The hash keeps ids that slug alike ("A/B" and "A-B") apart."""
    slug = re.sub(r"[^a-z0-9]+", "-", node_id.lower()).strip("-")[:60] or "node"
    digest = hashlib.sha1(node_id.encode("utf-8")).hexdigest()[:8]
    return f"{kind}-{slug}-{digest}.html"


# The files under views/ that kg wrote: pages named by page_name (or being written, .tmp), their
# digests (PAGE_DIGESTS), the papers' themes (THEMES_JS), and scripts and styles in views/lib/.
PAGE_FILE = re.compile(r"(?:paper|concept)-[a-z0-9-]*-[0-9a-f]{8}\.html(?:\.tmp)?")
ASSET_FILE = re.compile(r"[\w.-]+\.(?:js|css)")


def is_build(path: Path) -> bool:
    """Whether ``path`` holds a complete build (the manifest is written last)."""
    return (path / MANIFEST).is_file() and (path / GRAPH_JSON).is_file()


class BuildFolder(Protocol):
    """A build folder as the analyses read it (``kg.builds.Build`` is one)."""

    path: Path

    @property
    def manifest(self) -> Manifest: ...

    @property
    def store_path(self) -> Path: ...

    def graph(self) -> nx.MultiDiGraph: ...
