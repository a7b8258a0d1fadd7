"""How specific each concept is: a score in [0, 1] and a level a reader can filter on.

Levels (``kg.schema.LEVELS``), tried in this order:

* **generic**: the name of a whole field ("natural language processing", ``FIELD_NAMES``), a
  name made only of the words of general scientific writing ("training", "neural networks",
  "pre-trained", ``kg.text.words.GENERIC_SCIENCE``), or one lower-case word the corpus writes far
  more often than its papers name it as a concept (keyphraseness below ``KEYPHRASENESS_MIN``:
  "network" is in a quarter of the abstracts and tagged in 1% of them);
* **artifact**: a name, as the corpus writes it: a name-shaped word ("BERT", "SQuAD", "GPT-2") or
  capitalised words where no sentence starts ("the Transformer", "Penn Treebank"), in at least
  half of its mentions;
* **broad**: one word ("parsing", "attention"), or a phrase named by more than ``BROAD_SHARE``
  of the papers ("language models" in a corpus of NLP);
* **specific**: the rest ("knowledge distillation", "relation extraction").

The score averages three figures of the same evidence, each in [0, 1]: the share of the name's
words that are not generic, the share of its mentions written as a name, and its keyphraseness
(the share of the papers writing its words that name it as a concept, doubled and capped at 1).
Generic concepts stay in the graph and its records; top lists, reasons and labels leave them out
unless asked for everything.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace

from kg.records import Extraction, Paper
from kg.schema import ARTIFACT, BROAD, GENERIC, SPECIFIC
from kg.text.names import name_strength, written_as_name
from kg.text.normalize import singular
from kg.text.words import FIELD_NAMES, FUNCTION_WORDS as _FUNCTION, GENERIC_SCIENCE

KEYPHRASENESS_MIN = 0.05  # a word its papers name as a concept less often than this is generic
KEYPHRASENESS_DF = 20  # ... when this many papers write it, so that the share means something
BROAD_SHARE = 0.02  # a phrase more papers name than this share is a broad class
NAMED_SHARE = 0.5  # mentions written as a name that make a concept an artifact
_WORDS = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*")


def content_words(key: str) -> list[str]:
    """The words of a concept's key that carry meaning, singular."""
    return [singular(w) for w in _WORDS.findall(key.lower()) if w not in _FUNCTION]


def generic_word(word: str) -> bool:
    """A word of general scientific writing, or a compound of such words ("encoder-decoder")."""
    return word in GENERIC_SCIENCE or all(p in GENERIC_SCIENCE or p in _FUNCTION for p in word.split("-"))


def is_generic_name(key: str) -> bool:
    """A field's name, or words of general scientific writing only; an acronym in brackets says
    nothing more ("natural language processing (NLP) tasks")."""
    key = re.sub(r"\s*\([^()]*\)", "", key)
    words = content_words(key)
    # A field's name with generic words after it ("NLP systems", "NLP applications") names the field.
    while words and " ".join(words) not in FIELD_NAMES and generic_word(words[-1]):
        words = words[:-1]
    name = " ".join(words)
    if name in FIELD_NAMES or any(f.endswith(f" {name}") for f in FIELD_NAMES):  # "language processing"
        return True
    words = content_words(key)
    return bool(words) and all(generic_word(w) for w in words)


def word_papers(papers: Iterable[Paper]) -> Counter[str]:
    """How many papers write each (lower-case, singular) word."""
    df: Counter[str] = Counter()
    for p in papers:
        df.update({singular(w) for w in re.findall(r"[a-z][a-z\-]+", p.text.lower())})
    return df


def rate(resolution, papers: list[Paper], extractions: list[Extraction]):
    """``resolution`` with every entity's ``level`` and ``specificity`` set."""
    docs: dict[str, set[str]] = {}
    as_name: Counter[str] = Counter()
    mentions: Counter[str] = Counter()
    for ex in extractions:
        for m, eid in zip(ex.mentions, resolution.mention_entity.get(ex.paper_id, ())):
            if eid is None:
                continue
            docs.setdefault(eid, set()).add(ex.paper_id)
            mentions[eid] += 1
            as_name[eid] += written_as_name(m.text, m.sentence)
    for pid, found in resolution.linked.items():
        for m, eid in found:
            docs.setdefault(eid, set()).add(pid)
            mentions[eid] += 1
            # Names found wherever written are names; a broader concept's words inside a narrower
            # mention are as the mention writes them (kg.concepts.broader).
            as_name[eid] += written_as_name(m.text, m.sentence) if m.source == "broader" else 1
    n_papers = max(1, len(papers))
    df = word_papers(papers)

    entities = {}
    for eid, ent in resolution.entities.items():
        key = eid.split(":", 1)[1]
        words = content_words(key)
        named = as_name[eid] / mentions[eid] if mentions[eid] else float(_looks_named(ent.name))
        text_df = df.get(words[0], 0) if len(words) == 1 else 0
        level, score = level_of(key, named, len(docs.get(eid, ())), n_papers, text_df)
        entities[eid] = replace(ent, level=level, specificity=score)
    return replace(resolution, entities=entities)


def level_of(key: str, named: float, papers: int, corpus_papers: int, text_papers: int = 0) -> tuple[str, float]:
    """(level, specificity) of the concept keyed ``key``: ``named`` of its mentions written as a
    name, named by ``papers`` of the corpus's ``corpus_papers``; ``text_papers``: the papers writing
    its one word at all (0: not counted, as for a phrase)."""
    words = content_words(key)
    keyphraseness = min(1.0, papers / text_papers) if text_papers else 1.0
    plain = 1 - sum(map(generic_word, words)) / len(words) if words else 0.0
    score = round((plain + named + min(1.0, 2 * keyphraseness)) / 3, 4)
    if is_generic_name(key) or (len(words) == 1 and named < NAMED_SHARE and text_papers >= KEYPHRASENESS_DF
                                and keyphraseness < KEYPHRASENESS_MIN):
        return GENERIC, score
    if named >= NAMED_SHARE:
        return ARTIFACT, score
    if len(words) == 1 or papers > BROAD_SHARE * max(1, corpus_papers):
        return BROAD, score
    return SPECIFIC, score


def _looks_named(name: str) -> bool:
    return any(name_strength(w) > 0 for w in name.split())
