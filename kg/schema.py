"""The graph schema: labels, relationship types and typed properties.

One source of truth for NetworkX (node attribute ``label``, edge attribute
``type``, which is also the edge's key in the MultiDiGraph), the embedded
LadybugDB store and every Neo4j export route.
docs/schema.md describes the same schema for people; keep them in step
(tests/test_schema.py checks that the doc names every property listed here).

Property types use the embedded store's names; ``[]`` marks a homogeneous
list, which Neo4j stores natively as well.
"""
from __future__ import annotations

from dataclasses import dataclass

from kg.records import ENTITY_TYPES

PAPER = "Paper"

# Relationship type from a paper to an entity of each type.
MENTION_REL: dict[str, str] = {
    "Method": "USES",
    "Task": "ADDRESSES",
    "Dataset": "EVALUATES_ON",
    "Metric": "MEASURES",
}
RELATED_REL = "RELATED_TO"


@dataclass(frozen=True)
class RelationRule:
    """How a relation label of the extractor (SciERC's) becomes an entity-to-entity relationship.

    ``reverse``: the relationship runs from the relation's tail to its head (SciERC writes
    "metric EVALUATE-FOR method"; the graph says (method)-[:EVALUATED_ON]->(metric)).
    ``symmetric``: the statement has no direction ("A compared with B" is "B compared with A"),
    so the relationship runs from the smaller entity id to the larger, and papers stating it
    either way count on one relationship.
    """

    type: str
    reverse: bool = False
    symmetric: bool = False


# SciERC relation label -> the relationship between the two mentions' entities.
RELATION_RULES: dict[str, RelationRule] = {
    "USED-FOR": RelationRule("USED_FOR"),
    "EVALUATE-FOR": RelationRule("EVALUATED_ON", reverse=True),
    "COMPARE": RelationRule("COMPARED_WITH", symmetric=True),
    "CONJUNCTION": RelationRule("CONJUNCTION", symmetric=True),
    "PART-OF": RelationRule("PART_OF"),
    "FEATURE-OF": RelationRule("FEATURE_OF"),
    "HYPONYM-OF": RelationRule("HYPONYM_OF"),
}
ENTITY_RELS: tuple[str, ...] = tuple(r.type for r in RELATION_RULES.values())

PAPER_PROPERTIES: dict[str, str] = {
    "id": "STRING",
    "title": "STRING",
    "abstract": "STRING",  # as given
    "text": "STRING",  # the cleaned abstract, only where cleaning changed it; mention spans index it
    "source": "STRING",
    "authors": "STRING[]",
    "year": "INT64",
    "venue": "STRING",
    "url": "STRING",
    "keywords": "STRING[]",
    "key_concepts": "STRING[]",  # KeyBERT key phrases, most salient first
    "topic": "INT64",  # research theme (kg.analysis.topics): 1 = the theme with the most papers; unset without links
    "topic_label": "STRING",  # the theme's most distinctive concepts, joined by " · "
}

ENTITY_PROPERTIES: dict[str, str] = {
    "id": "STRING",  # "<Type>:<canonical key>"
    "name": "STRING",
    "type": "STRING",  # the label again, as a property queries can return
    "aliases": "STRING[]",
    "papers": "INT64",  # number of papers that mention it
    "mentions": "INT64",  # number of mentions over the corpus
    "level": "STRING",  # how specific: one of LEVELS (kg.concepts.specificity)
    "specificity": "DOUBLE",  # 0..1, the score the level is cut from
}

# How specific a concept is, most specific first: a named artifact ("BERT", "GLUE"), a specific
# technique or task ("knowledge distillation"), a broad class ("language models"), a generic word
# ("training"). Top lists, reasons and labels leave GENERIC out unless asked for everything.
ARTIFACT, SPECIFIC, BROAD, GENERIC = "artifact", "specific", "broad", "generic"
LEVELS: tuple[str, ...] = (ARTIFACT, SPECIFIC, BROAD, GENERIC)

MENTION_PROPERTIES: dict[str, str] = {
    "mentions": "INT64",  # mentions of the entity in this paper
    "score": "DOUBLE",  # best extraction confidence, 0..1
    "surface": "STRING[]",  # distinct surface forms, as written
    "span_starts": "INT64[]",  # character offsets into Paper.text, or abstract where there is no text
    "span_ends": "INT64[]",
    "sentences": "STRING[]",  # the sentence of each span, same order
}

RELATED_PROPERTIES: dict[str, str] = {
    "score": "DOUBLE",
    "rank": "INT64",  # 1 = most related
    "shared": "STRING[]",  # names of the shared concepts, most informative first
    "shared_types": "STRING[]",  # type of each shared concept (Method, ..., or Concept for key phrases)
    "shared_papers": "INT64[]",  # papers of the corpus having each shared concept: the fewer, the rarer
}

ENTITY_REL_PROPERTIES: dict[str, str] = {
    "papers": "INT64",  # papers stating it
    "paper_ids": "STRING[]",  # those papers, in corpus order
    "sentences": "STRING[]",  # per paper, the sentence of its most confident statement (same order)
    "score": "DOUBLE",  # best confidence of the relation model over the statements, 0..1
}

NODE_LABELS: tuple[str, ...] = (PAPER, *ENTITY_TYPES)


def node_properties(label: str) -> dict[str, str]:
    return PAPER_PROPERTIES if label == PAPER else ENTITY_PROPERTIES


def relationship_types() -> list[tuple[str, str, str]]:
    """(type, from label, to label) for every relationship type."""
    rels = [(MENTION_REL[t], PAPER, t) for t in ENTITY_TYPES]
    rels.append((RELATED_REL, PAPER, PAPER))
    # Any entity type may stand on either side (the relation model's arguments are typed
    # independently, and resolution may retype an entity), so each entity relationship type
    # has every (from, to) pair of entity labels.
    rels += [(t, a, b) for t in ENTITY_RELS for a in ENTITY_TYPES for b in ENTITY_TYPES]
    return rels


def relationship_properties(rel_type: str) -> dict[str, str]:
    if rel_type == RELATED_REL:
        return RELATED_PROPERTIES
    return ENTITY_REL_PROPERTIES if rel_type in ENTITY_RELS else MENTION_PROPERTIES
