"""Which paper a user means: an id, words of its title, or a concept it names."""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

import networkx as nx

from kg import schema
from kg.corpus.titles import clip
from kg.errors import KgError
from kg.graph import papers_of


def find_paper(g: nx.DiGraph, query: str) -> str:
    """The id of the paper named by ``query``: an exact id, else title words (all must match),
    else a concept the paper names (an entity, one of its aliases, or a key phrase)."""
    return find_paper_in({p: g.nodes[p].get("title") or "" for p in papers_of(g)}, query,
                         lambda: paper_concepts(g))


def paper_concepts(g: nx.DiGraph) -> dict[str, list[str]]:
    """Paper id -> the phrases naming its concepts: its entities' names and aliases, its key phrases."""
    mention_types = set(schema.MENTION_REL.values())
    out: dict[str, list[str]] = {}
    for pid in papers_of(g):
        names = list(g.nodes[pid].get("key_concepts") or ())
        for _, eid, t in g.out_edges(pid, data="type"):
            if t in mention_types:
                ent = g.nodes[eid]
                names += [ent.get("name") or "", *(ent.get("aliases") or ())]
        out[pid] = names
    return out


def _fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).lower().split())


def find_paper_in(titles: dict[str, str], query: str,
                  concepts: Callable[[], dict[str, list[str]]] | None = None) -> str:
    """``find_paper`` over a mapping of paper id -> title (as read from a store); ``concepts``
    gives paper id -> concept phrases, asked for only when no id or title matches."""
    query = query.strip()
    if not query:
        raise KgError("empty paper query: give a paper id, words of its title or a concept it names")
    if query in titles:
        return query
    words = query.lower().split()

    def matches(pid: str) -> bool:
        hay = f"{pid} {titles[pid] or ''}".lower()
        return all(w in hay for w in words)

    hits = [p for p in titles if matches(p)]
    if len(hits) > 1:
        exact = [p for p in hits if (titles[p] or "").strip().lower() == query.lower()]
        hits = exact or hits
    if not hits and concepts is not None:
        # What a user remembers of a paper is often the name it introduces ("FedBiscuit"): a
        # paper naming that concept exactly, else one of whose concepts holds every query word.
        phrases = {p: [_fold(c) for c in cs if c] for p, cs in concepts().items() if p in titles}
        q = _fold(query)
        hits = [p for p, cs in phrases.items() if q in cs]
        if not hits:
            pattern = [re.compile(rf"(?<!\w){re.escape(w)}(?!\w)") for w in q.split()]
            hits = [p for p, cs in phrases.items() if any(all(r.search(c) for r in pattern) for c in cs)]
    if not hits:
        raise KgError(f"no paper matches {query!r} (give a paper id, words of its title or a concept it names; "
                      f"`kg query 'MATCH (p:Paper) RETURN p.id, p.title'` lists them)")
    if len(hits) > 1:
        shown = "; ".join(f"{p} ({clip(titles[p], 60)})" for p in sorted(hits)[:5])
        more = f" and {len(hits) - 5} more" if len(hits) > 5 else ""
        raise KgError(f"{query!r} matches {len(hits)} papers: {shown}{more}; give the id or more title words")
    return hits[0]


