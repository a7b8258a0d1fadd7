"""Dataset names the tagger did not see, found by the way papers write a dataset's name.

A paper introducing a dataset or reporting results on one writes its name in a few set ways:
"the DROP dataset", "JuICe, a corpus of 1.5 million examples", "a new dataset, called WiC",
"three datasets: FB15k-237, WN18 and WN18RR", "the bAbI, SQuAD and CBT datasets". The tagger,
reading one abstract at a time, misses a new name now and then (an upper-case word it takes for
an ordinary one, a name it types a Method). These patterns propose names; each is then judged as
a known dataset name is (kg.concepts.known): over every place the corpus writes it, as data, not
as a model, a source or an event, and not written as ordinary words elsewhere. Only name-shaped
words are proposed ("SQuAD", "DROP", "WN18RR"; never "the English dataset" or "the news
corpus"), and a name the corpus gives another concept ("NER", the acronym of a task) stays that
concept's.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from kg.concepts.typer import APPOSITIVE_DATA, is_language
from kg.records import Paper
from kg.text.names import name_strength

_NAME = r"[A-Za-z][\w\-+.]*[\w+]"
_NOUN = r"(?:dataset|corpus|benchmark|treebank|data\s+set)"
_NOUNS = r"(?:datasets|corpora|benchmarks|treebanks|data\s+sets)"
# Where a proposed name ends: not where more of a longer name follows ("the AI2 Reasoning
# Challenge", "AI2's Reasoning Challenge", "Video-and-Language Event Prediction").
_END = r"(?=\s*(?:[.,;:()]|$|and\b|(?:with|for|to|in|on)\b))"
# "the DROP dataset", "on the SCAN benchmark": a name right before a data noun (singular: "NER
# datasets" are datasets for a task as often as a named collection).
_BEFORE_NOUN = re.compile(rf"\b(?:the|on|of|and|in)\s+({_NAME})\s+{_NOUN}\b(?!\s*(?:of|for)\b)")
# "a new dataset, called WiC", "a dataset which we call SpoT", "our dataset, dubbed XNLI".
_CALLED = re.compile(rf"\b{_NOUN},?\s+(?:called|named|dubbed|coined|which\s+we\s+call|we\s+call)\s+({_NAME}){_END}")
# "three datasets: FB15k-237, WN18 and WN18RR", "two datasets, namely X and Y".
_LIST_AFTER = re.compile(rf"\b{_NOUNS}\s*(?::|,?\s+(?:namely|viz\.,?|i\.e\.,?))\s+"
                         rf"((?:{_NAME}\s*,\s*)*{_NAME}(?:\s*,?\s*and\s+{_NAME})?){_END}")
# "the bAbI, SQuAD, CBT and Who-did-What datasets".
_LIST_BEFORE = re.compile(rf"\bthe\s+((?:{_NAME}\s*,\s*)+{_NAME}\s*,?\s*and\s+{_NAME})\s+{_NOUNS}\b")
_ITEM = re.compile(r"(?:,|\band\b)\s*")
_TOKEN = re.compile(_NAME)
_APPOSED = re.compile(rf"(?:^|(?<=[\s(]))({_NAME})(?=\s*(?:\([^()]{{0,40}}\)\s*)?,)")


def _named(word: str, strength: int) -> bool:
    return name_strength(word) >= strength and not is_language(word)


def proposed_names(papers: Iterable[Paper]) -> set[str]:
    """Name-shaped words the corpus writes the way a dataset's name is written (module doc)."""
    found: set[str] = set()
    for p in papers:
        text = p.text
        # A name of the strongest shape only where nothing but the words after it says data.
        found.update(m.group(1) for m in _BEFORE_NOUN.finditer(text) if _named(m.group(1), 2))
        for pattern in (_LIST_AFTER, _LIST_BEFORE):
            for m in pattern.finditer(text):
                items = [x.strip() for x in _ITEM.split(m.group(1)) if x.strip()]
                found.update(x for x in items if _TOKEN.fullmatch(x) and _named(x, 2))
        # Introduced as data ("X, a new corpus of ...", "a dataset called X"): a short acronym too.
        found.update(m.group(1) for m in _CALLED.finditer(text) if _named(m.group(1), 1))
        for m in _APPOSED.finditer(text):
            # Not the last word of a longer name ("Social IQa, the first benchmark ...").
            before = text[:m.start()].rstrip().rsplit(None, 1)
            if before and before[-1][:1].isupper() and not before[-1].endswith((".", ":")):
                continue
            if _named(m.group(1), 1) and APPOSITIVE_DATA.match(text, m.end()):
                found.add(m.group(1))
    return found
