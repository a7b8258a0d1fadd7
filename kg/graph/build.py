"""Build the NetworkX knowledge graph from papers, extractions and their resolution.

Node keys are the ``id`` property; the node attribute ``label`` holds the
store label (Paper, Method, Task, Dataset, Metric) and the edge attribute
``type`` the relationship type (kg.schema). Every other attribute is a
schema property, so the stores and exports can copy them verbatim.

The graph is a MultiDiGraph whose edge keys are the relationship types: two
entities can be linked by several types ("A USED_FOR B" and "A PART_OF B"),
and there is at most one edge of each type from one node to another, found as
``g.edges[u, v, type]``. Everything that walks the edges reads ``type``.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterable

import networkx as nx

from kg import schema
from kg.graph import vectors
from kg.records import Extraction, Paper, Relation
from kg.concepts.resolve import Resolution


def paper_text(attrs: dict) -> str:
    """The text a paper's mention spans index: ``text`` where cleaning changed the abstract, else ``abstract``."""
    text = attrs.get("text")
    return text if text is not None else attrs.get("abstract") or ""


def build_graph(
    papers: Iterable[Paper], extractions: Iterable[Extraction], resolution: Resolution
) -> nx.MultiDiGraph:
    """The knowledge graph: a Paper node per paper (its fields and key concepts), a node per
    resolved entity, an edge from each paper to each entity it mentions (USES, ADDRESSES,
    EVALUATES_ON, MEASURES by the entity's type; ``kg.schema``) holding the mentions' spans,
    and an edge between two entities for each relation type the papers state between them."""
    papers = list(papers)
    by_id = {ex.paper_id: ex for ex in extractions}
    g = nx.MultiDiGraph()
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
            papers=0, mentions=0, level=ent.level, specificity=round(ent.specificity, 4),
        )
    for p in papers:
        ex = by_id.get(p.id)
        if ex is None:
            continue
        # Gathered per paper, then added once each: cheaper than looking the edges up in the graph.
        edges: dict[str, dict] = {}
        found = zip(ex.mentions, resolution.mention_entity.get(p.id, ()))
        for m, eid in itertools.chain(found, resolution.linked.get(p.id, ())):
            if eid is None:  # a mention the concept stage made no node of ("English" as a dataset)
                continue
            e = edges.get(eid)
            if e is None:
                # The entity's type, which resolution may have unified across papers, not the mention's.
                e = edges[eid] = dict(type=schema.MENTION_REL[resolution.entities[eid].type], mentions=0, score=0.0,
                                      surface=[], span_starts=[], span_ends=[], sentences=[])
                g.nodes[eid]["papers"] += 1
            e["mentions"] += 1
            e["score"] = max(e["score"], round(float(m.score), 4))
            if m.text not in e["surface"]:
                e["surface"].append(m.text)
            e["span_starts"].append(m.start)
            e["span_ends"].append(m.end)
            e["sentences"].append(m.sentence)
            g.nodes[eid]["mentions"] += 1
        for eid, e in edges.items():
            g.add_edge(p.id, eid, e["type"], **e)  # not add_edges_from: it looks each edge up again
        _add_relations(g, ex, resolution.mention_entity.get(p.id, []))
    # The abstracts' vectors, for the related-paper ranking: one graph attribute, not node properties,
    # so the store and the exports stay as they were (kg.graph.vectors).
    vectors.attach(g, vectors.PaperVectors.from_embeddings(
        {p.id: by_id[p.id].embedding for p in papers if p.id in by_id}))
    return g


def _add_relations(g: nx.MultiDiGraph, ex: Extraction, entity_of: list[str]) -> None:
    """The relations one paper states, as entity-to-entity edges (``kg.schema.RELATION_RULES``).

    Each edge counts a paper once however often it states the relation, and keeps the sentence
    of the paper's most confident statement. A relation between two mentions of one entity
    ("Policy Mirror Descent (PMD)") says nothing and is dropped, as is one whose label or
    mention index the graph does not know (an extraction cached by another relation model)."""
    best: dict[tuple[str, str, str], Relation] = {}
    for r in ex.relations:
        rule = schema.RELATION_RULES.get(r.label)
        if rule is None or not (0 <= r.head < len(entity_of) and 0 <= r.tail < len(entity_of)):
            continue
        head, tail = entity_of[r.head], entity_of[r.tail]
        if head == tail or head is None or tail is None:
            continue
        if rule.reverse or (rule.symmetric and tail < head):
            head, tail = tail, head
        key = (head, tail, rule.type)
        if key not in best or r.score > best[key].score:
            best[key] = r
    for (head, tail, rel), r in best.items():
        if not g.has_edge(head, tail, rel):
            g.add_edge(head, tail, rel, type=rel, papers=0, paper_ids=[], sentences=[], score=0.0)
        e = g.edges[head, tail, rel]
        e["papers"] += 1
        e["paper_ids"].append(ex.paper_id)
        e["sentences"].append(ex.mentions[r.head].sentence)
        e["score"] = max(e["score"], round(float(r.score), 4))


def mention_edge(g: nx.MultiDiGraph, paper_id: str, entity_id: str) -> dict:
    """The attributes of the edge from a paper to an entity it mentions."""
    return g.edges[paper_id, entity_id, schema.MENTION_REL[g.nodes[entity_id]["label"]]]


def papers_of(g: nx.DiGraph) -> list[str]:
    """The ids of the graph's Paper nodes."""
    return [n for n, d in g.nodes(data=True) if d["label"] == schema.PAPER]


def entities_of(g: nx.DiGraph, label: str | None = None) -> list[str]:
    """The ids of the graph's entity nodes, of one ``label`` (Method, Task, ...) if given."""
    return [
        n for n, d in g.nodes(data=True)
        if d["label"] != schema.PAPER and (label is None or d["label"] == label)
    ]
