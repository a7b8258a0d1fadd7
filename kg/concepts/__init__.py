"""The concept stage: from every paper's mentions to the corpus's concepts, the graph's nodes.

It decides, once for the whole corpus, which mentions are one concept (spelling, plurals,
acronyms defined anywhere: ``resolve``), the type of each concept (a Dataset is a named dataset:
``typer``), and how specific it is (``specificity``); the graph, related papers, themes, views
and exports read its decisions.
"""
from __future__ import annotations

from collections.abc import Iterable

from kg.concepts.known import KnownDatasets
from kg.concepts.resolve import Resolution, renamed, resolve
from kg.records import Extraction, Paper

__all__ = ["KnownDatasets", "Resolution", "find_concepts", "resolve"]


def find_concepts(papers: Iterable[Paper], extractions: Iterable[Extraction],
                  known: KnownDatasets | None = None) -> Resolution:
    """The concepts of a corpus: its mentions resolved to entities, each typed and rated.
    ``known``: dataset names known beforehand (kg.concepts.known; None: the ones kg ships)."""
    from dataclasses import replace

    from kg.concepts.broader import link_broader
    from kg.concepts.datasets import merge_data_heads, merge_dataset_parts
    from kg.concepts.discover import proposed_names
    from kg.concepts.known import link_known, shipped
    from kg.concepts.linking import link_names, names_to_link
    from kg.concepts.specificity import rate
    from kg.concepts.typer import retype

    known = shipped() if known is None else known
    papers, extractions = list(papers), list(extractions)
    # The names known beforehand and those the corpus writes as a dataset's are judged alike.
    names = known.names | proposed_names(papers)
    resolution = retype(resolve(papers, extractions), papers, extractions, known=names)
    resolution = merge_dataset_parts(merge_data_heads(resolution))
    papers_of: dict[str, int] = {}
    for ids in resolution.mention_entity.values():
        for eid in set(ids) - {None}:
            papers_of[eid] = papers_of.get(eid, 0) + 1
    linked = link_names(papers, resolution.mention_entity, names_to_link(resolution.entities, papers_of))
    for pid, pairs in link_broader(extractions, resolution.mention_entity, resolution.entities, papers_of).items():
        have = {eid for _, eid in linked.get(pid, ())}
        linked.setdefault(pid, []).extend((m, eid) for m, eid in pairs if eid not in have)
    resolution = replace(resolution, linked=linked)
    new, found = link_known(papers, resolution, names)
    if found:
        for pid, pairs in found.items():
            have = {eid for _, eid in linked.get(pid, ())}
            linked.setdefault(pid, []).extend((m, eid) for m, eid in pairs if eid not in have)
        resolution = replace(resolution, entities={**resolution.entities, **new}, linked=linked)
    return rate(renamed(resolution, extractions, papers), papers, extractions)
