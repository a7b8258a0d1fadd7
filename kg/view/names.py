"""Where each page lives (``kg.builds.page_name``) and how a user names a concept on the command line."""
from __future__ import annotations

import re

import networkx as nx

from kg.layout import page_name  # the build folder's layout names the pages
from kg.errors import KgError
from kg.graph import entities_of
from kg.concepts.resolve import normalize


def paper_page(paper_id: str) -> str:
    return page_name("paper", paper_id)


def concept_page(entity_id: str) -> str:
    return page_name("concept", entity_id)


def find_concept(g: nx.DiGraph, name: str) -> str:
    """The entity id named by ``name``: an id ("Method:lol"), a name or an alias (case and plural folded)."""
    name = name.strip()
    if not name:
        raise KgError("empty concept name: give an entity name such as 'machine translation' or an id such as 'Task:machine translation'")
    ents = entities_of(g)
    if name in ents:
        return name
    label, sep, rest = name.partition(":")
    typed = {e.lower(): e for e in ents}.get(f"{label.strip()}:{rest.strip()}".lower()) if sep else None
    if typed is not None:  # an id typed loosely: "task:reinforcement learning"
        return typed
    key = normalize(name)
    hits = [e for e in ents
            if normalize(g.nodes[e].get("name") or "") == key
            or any(normalize(a) == key for a in g.nodes[e].get("aliases") or ())]
    if not hits:
        # A word of a longer name, or a concept kg related shares that is no entity (a key phrase):
        # name the entities that contain it, which do have pages.
        word = re.compile(r"(?<!\w)" + re.escape(key) + r"(?!\w)")
        near = sorted((g.nodes[e].get("name") or e for e in ents if word.search(normalize(g.nodes[e].get("name") or ""))),
                      key=lambda n: (len(n), n))
        hint = (f"entities containing it: {', '.join(repr(n) for n in near[:5])}" if near else
                "`kg query 'MATCH (e) WHERE e.type IS NOT NULL RETURN e.type, e.name'` lists every entity")
        raise KgError(f"no concept named {name!r} in the graph ({hint})")
    if len(hits) > 1:
        raise KgError(f"{name!r} names {len(hits)} concepts: {', '.join(sorted(hits))}; give one of these ids")
    return hits[0]
