"""Normalising surface forms: the key two spellings of one name share.

Case, Unicode form, white space, hyphen spacing, a leading determiner, a plural last word and a
trailing "(LF)" do not make another name. Entity resolution (kg/concepts/) keys entities by
``normalize``; related papers (kg/analysis/related/phrases.py) fold words by ``singular``.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from kg.text.acronyms import acronym_singular
from kg.text.words import DETERMINERS

# Words ending in "s" whose singular is themselves.
_KEEP_S = ("ss", "us", "is", "ys", "ics", "ous", "sis", "xis")
# Nouns ending in "s" that are the same in the singular, and plurals no suffix rule gets.
_INVARIANT = frozenset("series species bias gas news means lens canvas atlas physics".split())
# Plurals of "-ic" nouns, which the "-ics" of fields ("physics", "robotics") would keep.
_ICS_PLURALS = frozenset("""metrics topics heuristics characteristics clinics critics logics mosaics
    statistics diagnostics""".split())
# "-uses" is "-use" plural more often ("causes", "houses", "uses") than "-us" plural.
_US_PLURALS = frozenset("""viruses buses bonuses campuses corpuses statuses focuses consensuses censuses
    syllabuses apparatuses nexuses""".split())
# Latin and Greek plurals that scientific writing keeps.
_IRREGULAR = {"matrices": "matrix", "indices": "index", "vertices": "vertex", "simplices": "simplex",
              "appendices": "appendix", "criteria": "criterion", "phenomena": "phenomenon",
              "automata": "automaton", "schemata": "schema", "formulae": "formula", "corpora": "corpus"}

@lru_cache(maxsize=1 << 17)  # resolution folds every key's words, over and over
def singular(word: str) -> str:
    """The singular of a plural noun, by suffix rules and a short list of irregular plurals
    (no full lexicon, so predictable)."""
    head, _, last = word.rpartition("-")
    if head and last.isalpha() and last.islower() and len(last) > 3:
        # A compound's last part is its noun: "time-series", "meta-analyses" (not "GPT-4s").
        return f"{head}-{singular(last)}"
    low = word.lower()
    if low in _IRREGULAR:
        return _match_case(_IRREGULAR[low], word)
    if low in _ICS_PLURALS:
        return word[:-1]
    if acronym_singular(word) != word:
        return acronym_singular(word)  # "LLMs", "LMs", "BiLSTMs"
    if any(c.isupper() for c in word[1:]) and word[-2:-1].islower():
        return word  # a name with capitals inside ends as written: "WinoBias", "DeepBank"
    if len(word) <= 3 or not word.endswith("s") or word.endswith(_KEEP_S) or low in _INVARIANT:
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("yses", "theses")) or (word.endswith("noses") and len(word) > 6):
        return word[:-2] + "is"  # "analyses", "hypotheses", "diagnoses"
    if word.endswith("es") and (word[:-2].lower() in _INVARIANT or low in _US_PLURALS):
        return word[:-2]  # "biases", "atlases", "viruses" (but "causes", "houses")
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    return word[:-1]


def _match_case(word: str, like: str) -> str:
    return word.upper() if like.isupper() else word.capitalize() if like[:1].isupper() else word


_TRAILING_PARENS = re.compile(r"^(.*\S)\s*\(([^()]+)\)$")
# Hyphen-like dashes (hyphen, non-breaking hyphen, figure dash, en dash, minus); not the em dash,
# which separates clauses rather than joining a name's words.
_DASHES = re.compile("[\u2010\u2011\u2012\u2013\u2212]")

_POSSESSIVE = re.compile(r"['\u2019]s?$")

@lru_cache(maxsize=1 << 16)  # a corpus repeats its surface forms: resolution asks for each many times
def normalize(text: str) -> str:
    """The comparison key of a surface form (case, spacing, determiner, plural, "(LF)" folded)."""
    text = unicodedata.normalize("NFKC", text).strip()
    # "Large Language Models (LLMs)" is the long form with its acronym attached.
    inner = _TRAILING_PARENS.match(text)
    if inner:
        text = inner.group(1)
    text = _DASHES.sub("-", text)  # "Karush–Kuhn–Tucker" typed with hyphens is the same name
    text = re.sub(r"\s*-\s*", "-", text)
    text = re.sub(r"\s+", " ", text)
    text = _POSSESSIVE.sub("", text)  # "BERT's" is BERT
    words = text.split(" ")
    if len(words) > 1 and words[0].lower() in DETERMINERS:
        words = words[1:]
    words[-1] = singular(words[-1])
    return " ".join(words).lower().strip(" .,;:'\"")
