"""Related papers: papers ranked by how close their abstracts are and the specific concepts they
share, each with those concepts as its reasons (docs/related.md).

The package, in the order data flows through it:

* ``phrases``: the concepts an entity or key phrase implies (its key, broader concepts, domain words);
* ``facets``: ``--by method|task|dataset``, and the facet vectors a faceted ranking adds;
* ``reading``: every paper's concepts read from the graph, with their strengths, names and types;
* ``index``: ``ConceptIndex``, the ranking over those concepts and the abstracts' vectors, and its reasons;
* ``among``: ranking a given list against one paper (a reading list to triage);
* ``find``: which paper a query names (an id, title words, a concept);
* ``stored``: the RELATED_TO links a build stores, and reading them back from a build on disk.
"""
from kg.analysis.related.among import NOTE_NOTHING, WORDING_MIN, rank_among, wording_similarity
from kg.analysis.related.facets import FACETS, RANKED_BY_FACET
from kg.analysis.related.find import find_paper, find_paper_in, paper_concepts
from kg.analysis.related.index import (CONCEPT_WEIGHT, FACET_WEIGHT, NOTE_WORDING, WORDING_COSINE_MIN, ConceptIndex,
                                       RelatedPaper, SharedConcept, Weights, fuse, related, related_all)
from kg.analysis.related.reading import idf
from kg.analysis.related.stored import LISTED_K, add_related_edges, ranking_version, related_in_build

__all__ = [
    "CONCEPT_WEIGHT", "FACETS", "FACET_WEIGHT", "LISTED_K", "NOTE_NOTHING", "NOTE_WORDING", "RANKED_BY_FACET",
    "WORDING_COSINE_MIN", "WORDING_MIN", "ConceptIndex", "RelatedPaper", "SharedConcept", "Weights",
    "add_related_edges", "find_paper", "find_paper_in", "fuse", "idf", "paper_concepts", "rank_among",
    "ranking_version", "related", "related_all", "related_in_build", "wording_similarity",
]
