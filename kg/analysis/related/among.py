"""Triage a reading list: every paper of a list ranked against one (``kg related --among``)."""
from __future__ import annotations

from collections.abc import Iterable

import networkx as nx

from kg import schema
from kg.analysis.related.index import NOTE_WORDING, ConceptIndex, RelatedPaper, check_paper
from kg.errors import KgError
from kg.graph import paper_text, papers_of

# A listed paper that shares no specific concept is noted by how its wording compares: NOTE_WORDING
# when the TF-IDF cosine of the two abstracts is at least WORDING_MIN, else NOTE_NOTHING. 0.15: on
# EMNLP 2020 the pairs above it are in the same track 46% of the time, any pair 6% (docs/related.md).
NOTE_NOTHING = "nothing shared"
WORDING_MIN = 0.15


def rank_among(g: nx.DiGraph, paper_id: str, among: Iterable[str], by: str | None = None,
               max_shared: int = 8) -> list[RelatedPaper]:
    """Every paper of ``among`` ranked against ``paper_id`` (a reading list to triage), best first.

    Every paper has ``related``'s score, and its reasons where it shares a specific concept. One
    that does not carries a note: NOTE_WORDING when its abstract's TF-IDF cosine with the paper's
    is at least WORDING_MIN (``wording_similarity``), else NOTE_NOTHING. With the abstracts'
    vectors it keeps its fused score and place; without them it scores 0 and such papers come
    last, ordered by that cosine, then by id. Unknown ids raise a KgError naming the first.
    """
    check_paper(g, paper_id)
    among = list(dict.fromkeys(a.strip() for a in among if a.strip()))
    for other in among:
        if other not in g or g.nodes[other].get("label") != schema.PAPER:
            raise KgError(f"no paper with id {other!r} in the build")
    index = ConceptIndex.from_graph(g, by)
    rows = index.rank(paper_id, among, max_shared)
    unlinked = [r.id for r in rows if not r.shared]
    if not unlinked:
        return rows
    wording = wording_similarity(g, paper_id, unlinked)
    if index.dense is not None:
        return [r if r.shared else RelatedPaper(r.id, r.title, r.score, (), NOTE_WORDING if wording[r.id] >= WORDING_MIN
                                                else NOTE_NOTHING) for r in rows]
    linked = [r for r in rows if r.shared]
    rest = sorted((RelatedPaper(r.id, r.title, 0.0, (), NOTE_WORDING if wording[r.id] >= WORDING_MIN else NOTE_NOTHING)
                   for r in rows if not r.shared), key=lambda r: (-round(wording[r.id], 9), r.id))
    return linked + rest


def wording_similarity(g: nx.DiGraph, paper_id: str, others: Iterable[str]) -> dict[str, float]:
    """TF-IDF cosine of the title and abstract of ``paper_id`` with each of ``others``' (scikit-learn:
    English stop words, sublinear tf, IDF over every paper of ``g``)."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    pids = papers_of(g)
    at = {p: i for i, p in enumerate(pids)}

    def text(p: str) -> str:
        d = g.nodes[p]
        return f"{d.get('title') or ''}. {paper_text(d)}"

    x = TfidfVectorizer(stop_words="english", sublinear_tf=True).fit_transform([text(p) for p in pids])
    others = list(others)
    sims = (x[[at[o] for o in others]] @ x[at[paper_id]].T).toarray().ravel()
    return {o: float(v) for o, v in zip(others, sims)}


