"""What a build holds, read back from it: counts, how entity resolution merged, the most used entities.

``kg build`` prints most of this when it finishes; ``kg stats`` (and a notebook) can ask again
later without rebuilding.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

import networkx as nx

from kg import schema
from kg.layout import Manifest
from kg.records import ENTITY_TYPES
from kg.graph import entities_of
from kg.schema import GENERIC


@dataclass(frozen=True)
class TopEntity:
    name: str
    papers: int  # papers that mention it
    aliases: int  # surface forms merged into it


@dataclass(frozen=True)
class TopRelation:
    head: str  # entity names
    type: str  # USED_FOR, ...
    tail: str
    papers: int  # papers stating it


@dataclass(frozen=True)
class BuildStats:
    name: str
    corpus: str
    created: str
    kg_version: str
    papers: int
    skipped: int
    merged_duplicates: int
    entities: dict[str, int]
    relationships: dict[str, int]
    resolution: str
    merged_entities: int  # entities with more than one surface form
    warnings: int
    top: dict[str, list[TopEntity]]  # per entity type, most papers first
    top_relations: list[TopRelation]  # relations between entities that most papers state

    def to_json(self) -> dict:
        return asdict(self)


def top_entities(g: nx.DiGraph, label: str, top: int = 5, everything: bool = False) -> list[TopEntity]:
    """The ``top`` entities of type ``label`` that most papers mention; generic concepts (level
    "generic", kg.concepts.specificity) only with ``everything``."""
    nodes = [g.nodes[n] for n in entities_of(g, label)]
    if not everything:
        nodes = [d for d in nodes if d.get("level") != GENERIC]
    nodes.sort(key=lambda d: (-d.get("papers", 0), d["name"].lower()))
    return [TopEntity(d["name"], d.get("papers", 0), len(d.get("aliases", ()))) for d in nodes[:top]]


def build_stats(g: nx.DiGraph, manifest: Manifest, top: int = 5, everything: bool = False) -> BuildStats:
    """What the build of ``g`` holds, with its ``manifest``'s counts; ``top`` entities per type
    (specific ones, unless ``everything``)."""
    tops = {label: top_entities(g, label, top, everything) for label in ENTITY_TYPES}
    return BuildStats(
        name=manifest.name,
        corpus=manifest.corpus,
        created=manifest.created,
        kg_version=manifest.kg_version,
        papers=manifest.papers,
        skipped=manifest.skipped,
        merged_duplicates=manifest.merged_duplicates,
        entities=manifest.entities,
        relationships=manifest.relationships,
        resolution=manifest.resolution,
        merged_entities=sum(len(g.nodes[n].get("aliases", ())) > 1 for n in entities_of(g)),
        warnings=len(manifest.warnings),
        top=tops,
        top_relations=_top_relations(g, top),
    )


def _top_relations(g: nx.DiGraph, top: int) -> list[TopRelation]:
    rels = [(u, v, d) for n in entities_of(g) for u, v, d in g.out_edges(n, data=True)
            if d.get("type") in schema.ENTITY_RELS]
    rels.sort(key=lambda r: (-r[2].get("papers", 0), -r[2].get("score", 0.0), r[0], r[2]["type"], r[1]))
    return [TopRelation(g.nodes[u].get("name") or u, d["type"], g.nodes[v].get("name") or v, d.get("papers", 0))
            for u, v, d in rels[:top]]
