"""The ranking a build stores: RELATED_TO links, the version that says whether they are still this
kg's ranking, and reading them back from a build on disk."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import networkx as nx

from kg import schema
from kg.analysis.related.facets import facet_type
from kg.analysis.related.find import find_paper, find_paper_in
from kg.analysis.related.index import NOTE_WORDING, RelatedPaper, SharedConcept, related, related_all

if TYPE_CHECKING:
    from kg.layout import BuildFolder as Build

LISTED_K = 10  # related papers the views list per paper: a build ranks at least this many


def add_related_edges(g: nx.DiGraph, k: int = 5, related: dict[str, list[RelatedPaper]] | None = None) -> int:
    """Add RELATED_TO {score, rank, shared} edges to every paper's top ``k``; returns how many.

    ``related`` is a precomputed ``related_all`` of at least ``k`` rows per paper (it must be
    computed before any RELATED_TO edge exists). Existing RELATED_TO edges are replaced, so
    running it twice gives the same graph.
    """
    old = [(u, v, schema.RELATED_REL) for u, v, t in g.edges(data="type") if t == schema.RELATED_REL]
    g.remove_edges_from(old)
    related = related_all(g, k) if related is None else related
    added = 0
    for pid, rows in related.items():
        for rank, row in enumerate(rows[:k], 1):
            g.add_edge(
                pid, row.id, schema.RELATED_REL, type=schema.RELATED_REL, score=round(row.score, 4), rank=rank,
                shared=[s.name for s in row.shared], shared_types=[s.type for s in row.shared],
                shared_papers=[s.papers for s in row.shared],
            )
            added += 1
    return added


def ranking_version() -> str:
    """Digest of this package's modules and of kg.text.normalize and kg.text.words (the plural rules
    and the generic words make the concepts): a build's stored RELATED_TO links are its ranking
    only if it matches."""
    import hashlib

    import kg.text.normalize
    import kg.text.words

    h = hashlib.sha256()
    for module in sorted(Path(__file__).parent.glob("*.py")):
        h.update(module.read_bytes())
    for module in (kg.text.normalize, kg.text.words):  # the plural rules and the generic words
        h.update(Path(module.__file__).read_bytes())
    return h.hexdigest()[:12]


def related_in_build(build: Build, paper: str, k: int = 10,
                     by: str | None = None) -> tuple[str, str, list[RelatedPaper]]:
    """(id, title, top ``k`` related papers) of the paper ``paper`` names (an id or title words)
    in a build on disk; ``by``: one facet's concepts (``related``).

    Read from the RELATED_TO links the build stored when it stored ``k`` or more with today's
    ranking (and no facet is asked for): a few rows from the embedded store, milliseconds at any
    corpus size. Otherwise ranked from the build's graph, which takes seconds once the corpus is large."""
    facet_type(by)  # a bad facet fails before the build is read
    found = _stored_related(build, paper, k) if by is None else None
    if found is not None:
        return found
    g = build.graph()
    pid = find_paper(g, paper)
    return pid, g.nodes[pid].get("title") or pid, related(g, pid, k, by)


def _stored_related(build: Build, paper: str, k: int) -> tuple[str, str, list[RelatedPaper]] | None:
    from kg.store import Store

    manifest = build.manifest
    # Links stored by another version of the ranking would disagree with a fresh one (-k above them).
    if k > int(manifest.related_k or 0) or manifest.related_version != ranking_version():
        return None
    with Store(build.store_path) as store:
        hit = store.query("MATCH (p:Paper {id: $id}) RETURN p.id, p.title", {"id": paper.strip()}).rows
        titles = dict(hit or store.query("MATCH (p:Paper) RETURN p.id, p.title").rows)

        def concepts() -> dict[str, list[str]]:
            out: dict[str, list[str]] = {p: list(kc or ()) for p, kc in store.query(
                "MATCH (p:Paper) RETURN p.id, p.key_concepts").rows}
            for label, rel in schema.MENTION_REL.items():
                for p, name, aliases in store.query(
                        f"MATCH (p:Paper)-[:{rel}]->(e:{label}) RETURN p.id, e.name, e.aliases").rows:
                    out.setdefault(p, []).extend([name or "", *(aliases or ())])
            return out

        pid = find_paper_in(titles, paper, concepts)
        rows = store.query(
            "MATCH (a:Paper {id: $id})-[r:RELATED_TO]->(b:Paper) "
            "RETURN b.id, b.title, r.score, r.shared, r.shared_types, r.shared_papers ORDER BY r.rank LIMIT $k",
            {"id": pid, "k": k},
        ).rows
    return pid, titles[pid] or pid, [
        RelatedPaper(oid, otitle or oid, score, tuple(SharedConcept(n, t, c) for n, t, c in zip(names, types, counts)),
                     "" if names else NOTE_WORDING)
        for oid, otitle, score, names, types, counts in rows
    ]
