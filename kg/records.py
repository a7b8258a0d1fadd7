"""Typed records passed between the pipeline stages.

Data flows one way: ``Paper`` (corpus) -> ``Extraction`` (extract) ->
``Entity`` (resolve) -> graph -> stores and views. Each stage takes the
records of the previous one and never reaches back.
"""
from __future__ import annotations

from dataclasses import dataclass, field

ENTITY_TYPES: tuple[str, ...] = ("Method", "Task", "Dataset", "Metric")


@dataclass(frozen=True)
class Paper:
    """One abstract of a corpus.

    ``abstract`` is the text as the user gave it; ``text`` is the cleaned text
    (LaTeX markup removed) that extraction reads and that mention spans index.
    """

    id: str
    title: str
    abstract: str
    text: str
    source: str = ""  # "file:line" where the paper starts, for messages
    authors: tuple[str, ...] = ()
    year: int | None = None
    venue: str | None = None
    url: str | None = None
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class Mention:
    """A typed entity mention found in ``Paper.text``.

    ``start``/``end`` are character offsets into ``Paper.text`` (end exclusive),
    ``sentence`` the sentence that holds it, ``score`` a confidence in [0, 1]
    and ``source`` which extractor component proposed it (for debugging).
    """

    text: str
    type: str
    start: int
    end: int
    sentence: str
    score: float
    source: str = ""


# SciERC's relation types, as the relation model predicts them: "<head> USED-FOR <tail>".
RELATION_LABELS: tuple[str, ...] = (
    "USED-FOR", "EVALUATE-FOR", "FEATURE-OF", "PART-OF", "HYPONYM-OF", "COMPARE", "CONJUNCTION",
)


@dataclass(frozen=True)
class Relation:
    """A relation one paper states between two of its mentions.

    ``head`` and ``tail`` index ``Extraction.mentions``; ``label`` is one of
    ``RELATION_LABELS``, read in SciERC's direction ("head USED-FOR tail": the
    head is used for the tail; "head EVALUATE-FOR tail": the head, a metric
    or dataset, evaluates the tail). ``score`` is the model's confidence in [0, 1].
    Both mentions lie in one sentence, ``Extraction.mentions[head].sentence``.
    """

    head: int
    tail: int
    label: str
    score: float


@dataclass(frozen=True)
class Extraction:
    """Everything extraction found in one paper."""

    paper_id: str
    mentions: tuple[Mention, ...] = ()
    relations: tuple[Relation, ...] = ()
    # KeyBERT key concepts of the abstract: (phrase, salience), best first.
    key_concepts: tuple[tuple[str, float], ...] = ()
    # The abstract's unit all-MiniLM-L6-v2 vector as float16 bytes (kg.graph.vectors, kg.extract.docvec);
    # empty when extracted without KeyBERT or by a kg before vectors were kept.
    embedding: bytes = field(default=b"", repr=False)


@dataclass
class Entity:
    """A canonical entity: one node per real-world method, task, dataset or metric."""

    id: str  # "<Type>:<canonical key>", stable across builds
    type: str
    name: str  # display name (most frequent surface form)
    aliases: list[str] = field(default_factory=list)
    level: str = "specific"  # kg.schema.LEVELS, decided by the concept stage
    specificity: float = 0.5  # 0..1
