"""Facets (``--by method|task|dataset``): which papers' concepts a faceted ranking compares, and the
facet vectors it adds (kg.analysis.related)."""
from __future__ import annotations

from collections.abc import Iterable

import networkx as nx

from kg.errors import KgError

# ``--by`` facets: the entity type whose concepts a faceted ranking compares.
FACETS: dict[str, str] = {"method": "Method", "task": "Task", "dataset": "Dataset"}
# The facets ranked by their own terms: the facet's concepts and the facet vectors' cosine (weight
# FACET_WEIGHT, kg.analysis.related.index). The others rank, with vectors, as no facet does (every
# concept, no facet vectors) and give only their reasons. ``task`` (CSFCube's background facet):
# chosen on half A of its pools among per-facet weights, task-sentence vectors and specific task
# concepts, where no facet ranked best (81.3 against 76.8 for the method facet's terms); on half B
# 70.2 against 68.8 (bench/related_task_facet.py, docs/related.md). ``dataset``, chosen with no
# labels, ranks as ``method`` does; on ACL 2017-2019's Papers with Code dataset tags, which no weight
# was chosen on, it ranks the papers sharing a dataset best (bench/related_datasets.py: P@5 0.341,
# no facet 0.324, dense MiniLM 0.311).
RANKED_BY_FACET = frozenset({"method", "dataset"})


def facet_type(by: str | None) -> str | None:
    """The entity type of facet ``by`` (None: every type); a KgError names the facets otherwise."""
    if by is None:
        return None
    facet = FACETS.get(by.strip().lower())
    if facet is None:
        raise KgError(f"no facet {by!r}: give one of {', '.join(FACETS)}")
    return facet


def ranks_by_facet(by: str) -> bool:
    """Whether facet ``by`` ranks by its own terms (RANKED_BY_FACET) or as no facet."""
    return by.strip().lower() in RANKED_BY_FACET


def facet_vectors(g: nx.DiGraph, pids: Iterable[str], rel: str):
    """Each paper's facet vector, in ``pids``' order: the normalised mean of the static phrase vectors
    (kg.graph.vectors.static_vectors, the ones KeyBERT ranks the phrases with) of the
    surfaces of its mentions of type ``rel``; a zero row for a paper with none."""
    import numpy as np

    from kg.graph.vectors import static_vectors

    pids = list(pids)
    surfaces = [sorted({s for _, _, d in g.out_edges(p, data=True) if d.get("type") == rel
                        for s in d.get("surface") or ()}) for p in pids]
    phrases = sorted({s for ss in surfaces for s in ss})
    vec = dict(zip(phrases, static_vectors(phrases))) if phrases else {}
    dim = len(next(iter(vec.values()))) if vec else 1
    out = np.zeros((len(pids), dim), np.float32)
    for i, ss in enumerate(surfaces):
        if ss:
            v = np.mean([vec[s] for s in ss], axis=0)
            out[i] = v / (np.linalg.norm(v) or 1.0)
    return out
