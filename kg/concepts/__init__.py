"""The concept stage: from every paper's mentions to the corpus's concepts, the graph's nodes.

It decides, once for the whole corpus, which mentions are one concept (spelling, plurals,
acronyms defined anywhere: ``resolve``), the type of each concept (a Dataset is a named dataset:
``typer``), and how specific it is (``specificity``); the graph, related papers, themes, views
and exports read its decisions.
"""
from __future__ import annotations

from collections.abc import Iterable

from kg.concepts.resolve import Resolution, merge_data_heads, resolve
from kg.records import Extraction, Paper

__all__ = ["Resolution", "find_concepts", "resolve"]


def find_concepts(papers: Iterable[Paper], extractions: Iterable[Extraction]) -> Resolution:
    """The concepts of a corpus: its mentions resolved to entities, each typed and rated."""
    from dataclasses import replace

    from kg.concepts.linking import link_names, names_to_link
    from kg.concepts.specificity import rate
    from kg.concepts.typer import retype

    papers, extractions = list(papers), list(extractions)
    resolution = merge_data_heads(retype(resolve(papers, extractions), papers, extractions))
    papers_of: dict[str, int] = {}
    for ids in resolution.mention_entity.values():
        for eid in set(ids) - {None}:
            papers_of[eid] = papers_of.get(eid, 0) + 1
    linked = link_names(papers, resolution.mention_entity, names_to_link(resolution.entities, papers_of))
    return rate(replace(resolution, linked=linked), papers, extractions)
