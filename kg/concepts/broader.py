"""A paper naming a narrower concept names the broader one its last words are, too.

"Multilingual dependency parsing", "syntactic dependency parsing" and "temporal dependency
parsing" are each their own concept (kept apart, as "neural machine translation" is kept apart
from "machine translation"), but a paper writing one of them writes "dependency parsing" as well:
the stage links the paper to that concept too. Without it, a concept that papers mostly name with
a modifier ranks far below what the corpus's text names it ("dependency parsing" in 13 EMNLP 2020
abstracts, 5 of them alone).

Only where the broader concept is the corpus's own and the narrower one a kind of it: the broader
concept has two words or more, is not generic, and is named alone by at least ``MIN_PAPERS``
papers and by ``RATIO`` times as many papers as name the narrower one. A narrower concept named
nearly as often is a term of its own, whose last words are no concept of the paper's: "spoken
language understanding" is not a kind of "language understanding", nor "long short-term memory
network" of "memory network", nor "natural language processing" of "language processing"; nor
does "machine translation" take the papers of "neural machine translation". A name ("Stanford
Question Answering Dataset", "Multilingual Neural Machine Translation" capitalised) names itself,
not the concept its words spell.
"""
from __future__ import annotations

import re

from kg.concepts.linking import is_name
from kg.concepts.specificity import is_generic_name
from kg.records import Mention
from kg.text.normalize import normalize
from kg.text.words import GENERIC_HEADS

MIN_PAPERS = 2  # papers that must name the broader concept alone
RATIO = 2.0  # the broader concept is named alone by this many times the narrower one's papers
MIN_WORDS = 2  # a broader concept of one word ("parsing") is a class, not what the paper names
LINKED_SCORE = 0.5  # the confidence of a mention found this way (as kg.concepts.linking's)
_TOKEN = re.compile(r"\S+")


def broader_of(entities: dict, papers_of: dict[str, int]) -> dict[str, tuple[str, int]]:
    """Entity id -> (the id of the broader concept its last words name, how many of its words
    after that concept are generic heads), for every entity that has one (the module doc)."""
    by_key: dict[str, str] = {}
    for eid in entities:
        key = eid.split(":", 1)[1]
        if papers_of.get(eid, 0) > papers_of.get(by_key.get(key, ""), -1):
            by_key[key] = eid  # a key of two types: the one more papers name
    out: dict[str, tuple[str, int]] = {}
    for eid in entities:
        words = eid.split(":", 1)[1].split(" ")
        tail = 0
        while len(words) - tail > MIN_WORDS and words[len(words) - tail - 1] in GENERIC_HEADS:
            tail += 1  # "downstream information extraction task" names "information extraction"
        core = words[:len(words) - tail]
        for size in range(len(core) - 1, MIN_WORDS - 1, -1):
            other = by_key.get(" ".join(core[-size:]))
            if other is None or other == eid:
                continue
            if papers_of.get(other, 0) >= max(MIN_PAPERS, RATIO * papers_of.get(eid, 0)) \
                    and not eid.startswith("Dataset:") and not is_generic_name(other.split(":", 1)[1]):
                out[eid] = (other, tail)
            break  # the longest broader concept only: it names the shorter ones itself
    return out


def link_broader(extractions, mention_entity: dict[str, list[str | None]], entities: dict,
                 papers_of: dict[str, int]) -> dict[str, list[tuple[Mention, str]]]:
    """Per paper, the (mention, entity id) of each broader concept its narrower mentions name and
    its own mentions do not already resolve to: the mention is the broader concept's words inside
    the narrower mention."""
    broader = broader_of(entities, papers_of)
    if not broader:
        return {}
    found: dict[str, list[tuple[Mention, str]]] = {}
    for ex in extractions:
        ids = mention_entity.get(ex.paper_id, ())
        have = set(ids)
        added: dict[str, tuple[Mention, str]] = {}
        for m, eid in zip(ex.mentions, ids):
            if eid not in broader:
                continue
            other, tail = broader[eid]
            if other in have or other in added or is_name(m.text):
                continue
            size = len(other.split(":", 1)[1].split(" "))
            toks = list(_TOKEN.finditer(m.text))
            if len(toks) < size + tail:
                continue
            first, last = toks[len(toks) - tail - size], toks[len(toks) - tail - 1]
            text = m.text[first.start():last.end()]
            if normalize(text) != other.split(":", 1)[1]:
                continue  # the words do not line up with the key (brackets, a dropped word): leave it
            added[other] = (Mention(text, other.split(":", 1)[0], m.start + first.start(), m.start + last.end(),
                                    m.sentence, LINKED_SCORE, "broader"), other)
        if added:
            found[ex.paper_id] = list(added.values())
    return found
