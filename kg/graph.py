"""Build the NetworkX knowledge graph from papers, extractions and their resolution.

Node keys are the ``id`` property; the node attribute ``label`` holds the
store label (Paper, Method, Task, Dataset, Metric) and the edge attribute
``type`` the relationship type (kg.schema). Every other attribute is a
schema property, so the stores and exports can copy them verbatim.
"""
from __future__ import annotations

from collections.abc import Iterable

import networkx as nx

from kg import schema
from kg.records import Extraction, Paper
from kg.resolve import Resolution


def paper_text(attrs: dict) -> str:
    """The text a paper's mention spans index: ``text`` where cleaning changed the abstract, else ``abstract``."""
    text = attrs.get("text")
    return text if text is not None else attrs.get("abstract") or ""


def build_graph(
    papers: Iterable[Paper], extractions: Iterable[Extraction], resolution: Resolution
) -> nx.DiGraph:
    """The knowledge graph: a Paper node per paper (its fields and key concepts), a node per
    resolved entity, and an edge from each paper to each entity it mentions (USES, ADDRESSES,
    EVALUATES_ON, MEASURES by the entity's type; ``kg.schema``) holding the mentions' spans."""
    papers = list(papers)
    by_id = {ex.paper_id: ex for ex in extractions}
    g = nx.DiGraph()
    for p in papers:
        ex = by_id.get(p.id, Extraction(p.id))
        g.add_node(
            p.id,
            label=schema.PAPER,
            title=p.title,
            abstract=p.abstract,
            # Stored once: the cleaned text only where cleaning changed the abstract.
            text=p.text if p.text != p.abstract else None,
            source=p.source,
            authors=list(p.authors),
            year=p.year,
            venue=p.venue,
            url=p.url,
            keywords=list(p.keywords),
            key_concepts=[phrase for phrase, _ in ex.key_concepts],
        )
    for eid, ent in resolution.entities.items():
        g.add_node(
            eid, label=ent.type, name=ent.name, type=ent.type, aliases=list(ent.aliases),
            papers=0, mentions=0,
        )
    for p in papers:
        ex = by_id.get(p.id)
        if ex is None:
            continue
        for m, eid in zip(ex.mentions, resolution.mention_entity.get(p.id, ())):
            if not g.has_edge(p.id, eid):
                # The entity's type, which resolution may have unified across papers, not the mention's.
                g.add_edge(
                    p.id, eid, type=schema.MENTION_REL[resolution.entities[eid].type], mentions=0, score=0.0,
                    surface=[], span_starts=[], span_ends=[], sentences=[],
                )
                g.nodes[eid]["papers"] += 1
            e = g.edges[p.id, eid]
            e["mentions"] += 1
            e["score"] = max(e["score"], round(float(m.score), 4))
            if m.text not in e["surface"]:
                e["surface"].append(m.text)
            e["span_starts"].append(m.start)
            e["span_ends"].append(m.end)
            e["sentences"].append(m.sentence)
            g.nodes[eid]["mentions"] += 1
    return g


def papers_of(g: nx.DiGraph) -> list[str]:
    """The ids of the graph's Paper nodes."""
    return [n for n, d in g.nodes(data=True) if d["label"] == schema.PAPER]


def entities_of(g: nx.DiGraph, label: str | None = None) -> list[str]:
    """The ids of the graph's entity nodes, of one ``label`` (Method, Task, ...) if given."""
    return [
        n for n, d in g.nodes(data=True)
        if d["label"] != schema.PAPER and (label is None or d["label"] == label)
    ]
