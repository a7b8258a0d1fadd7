"""Research themes: communities of the related-papers graph, each named by its distinctive concepts.

The papers and their ``RELATED_TO`` links (kg.analysis.related) make an undirected weighted graph
(a pair linked both ways weighs the sum of its two scores); NetworkX's Louvain method, with a
fixed seed so that a rebuild gives the same themes, splits it into communities. A community is
labelled by the concepts most *distinctive* of it: those its papers have far more often than
the corpus does, weighted by how many of its papers have them,

    distinct(c, T) = share(c, T) * ln(share(c, T) / share(c, corpus)),

(the term of a Kullback-Leibler divergence), among concepts at least two of its papers share
(one, in a theme of one paper). Themes are numbered by size, 1 the largest; papers with no
related paper form no theme (``topic`` is left unset).
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

import networkx as nx

from kg.concepts.specificity import is_generic_name
from kg.graph import papers_of
from kg.analysis.related import ConceptIndex, RelatedPaper

SEED = 7  # Louvain's random order: fixed, so that a rebuild finds the same themes
LABEL_CONCEPTS = 3  # concepts naming a theme
RESOLUTION = 1.0  # Louvain's resolution: above 1, more and smaller themes


@dataclass(frozen=True, slots=True)
class Topic:
    id: int  # 1 = the theme with the most papers
    label: str  # its most distinctive concepts, joined by " · "
    concepts: tuple[str, ...]  # the same, as a tuple
    papers: tuple[str, ...]  # paper ids, most central (most linked inside the theme) first


def related_graph(related: dict[str, list[RelatedPaper]]) -> nx.Graph:
    """Undirected graph of the related-paper links, weighted by score (both directions summed)."""
    h = nx.Graph()
    h.add_nodes_from(related)
    for pid, rows in related.items():
        for r in rows:
            w = h.edges[pid, r.id]["weight"] if h.has_edge(pid, r.id) else 0.0
            h.add_edge(pid, r.id, weight=w + max(r.score, 0.0))
    return h


def find_topics(g: nx.DiGraph, related: dict[str, list[RelatedPaper]], index: ConceptIndex | None = None,
                seed: int = SEED, resolution: float = RESOLUTION) -> list[Topic]:
    """The research themes of a graph's papers, given their related papers (``related_all``)."""
    h = related_graph({p: related.get(p, []) for p in papers_of(g)})
    h.remove_nodes_from([n for n in list(h) if h.degree(n) == 0])
    if h.number_of_edges() == 0:
        return []
    communities = nx.community.louvain_communities(h, weight="weight", resolution=resolution, seed=seed)
    index = index or ConceptIndex.from_graph(g)
    n = len(index.vectors)
    made = []
    for members in communities:
        inner = h.subgraph(members)
        order = sorted(members, key=lambda p: (-inner.degree(p, weight="weight"), p))
        made.append((order, _label(index, order, n)))
    made.sort(key=lambda t: (-len(t[0]), t[0][0]))
    return [Topic(i, " · ".join(names), tuple(names), tuple(order)) for i, (order, names) in enumerate(made, 1)]


def _label(index: ConceptIndex, papers: list[str], n: int) -> list[str]:
    have: Counter = Counter()
    for p in papers:
        have.update(index.vectors.get(p, {}).keys())
    floor = 2 if len(papers) > 1 else 1
    scored = []
    for c, k in have.items():
        # Broad concepts, and names made of generic words only ("language processing", "automatic",
        # kg.concepts.specificity), name no theme.
        if k < floor or c in index.broad or is_generic_name(index.names[c].lower()):
            continue
        share, base = k / len(papers), index.df[c] / max(n, 1)
        scored.append((-share * math.log(share / base), -k, index.names[c], c))
    scored.sort()
    names: list[str] = []
    keys: list[str] = []
    for _, _, name, c in scored:
        # "machine translation" says what "translation" would: one of the two is enough.
        if any(f" {c} " in f" {k} " or f" {k} " in f" {c} " for k in keys):
            continue
        names.append(name)
        keys.append(c)
        if len(names) == LABEL_CONCEPTS:
            break
    return names or [index.titles[papers[0]]]


def add_topics(g: nx.DiGraph, topics: list[Topic]) -> None:
    """Store each paper's theme on its node: ``topic`` (the theme's number) and ``topic_label``."""
    for p in papers_of(g):
        g.nodes[p].pop("topic", None)
        g.nodes[p].pop("topic_label", None)
    for t in topics:
        for p in t.papers:
            g.nodes[p]["topic"] = t.id
            g.nodes[p]["topic_label"] = t.label


def topics_of(g: nx.DiGraph) -> list[Topic]:
    """The themes stored on a graph's papers (``add_topics``), read back; most central paper order
    is not stored, so papers come in id order."""
    groups: dict[int, list[str]] = {}
    labels: dict[int, str] = {}
    for p in papers_of(g):
        t = g.nodes[p].get("topic")
        if t is not None:
            groups.setdefault(int(t), []).append(p)
            labels[int(t)] = g.nodes[p].get("topic_label") or ""
    return [Topic(t, labels[t], tuple(labels[t].split(" · ")), tuple(sorted(ps))) for t, ps in sorted(groups.items())]
