"""Acronyms an abstract defines, in the forms abstracts write them.

    Long Form (LF)        LF (Long Form)        LF, or Long Form
    LF, which stands for Long Form              Long Form, LF,

``definitions(text)`` finds each, with the long form cut to the words the acronym's letters
stand for: every word of the long form but a short function word ("of", "for", "from") gives
the acronym the letter it starts with, in order (Schwartz & Hearst's matching, made strict so
that a long form never reaches further back than its letters do). Entity resolution
(kg/concepts/resolve.py) merges an acronym with its long form through these.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from kg.text.words import FUNCTION_WORDS as _FUNCTION_WORDS  # noqa: E402  (the one list)
# An acronym: 2-12 characters, a letter first, a capital among them, maybe a plural "s".
_ACRO = r"[A-Za-z][A-Za-z0-9\-.+/&]{0,10}[A-Za-z0-9+]s?"
_WORDS = r"[A-Za-z0-9][\w\-\u2010\u2011\u2013']*(?:\s+[A-Za-z0-9][\w\-\u2010\u2011\u2013']*){0,9}"
_FORMS = (
    # Long Form (LF)
    ("before", re.compile(r"(?P<long>" + _WORDS + r")\s*\(\s*(?P<acro>" + _ACRO + r")\s*[),;]")),
    # LF (Long Form)
    ("after", re.compile(r"\b(?P<acro>" + _ACRO + r")\s*\(\s*(?P<long>" + _WORDS + r")\s*\)")),
    # LF, or Long Form / LF, which stands for Long Form / LF (short for Long Form)
    ("after", re.compile(r"\b(?P<acro>" + _ACRO + r")\s*(?:,\s*or|,?\s*which\s+stands\s+for|,\s*short\s+for|"
                         r"\(\s*short\s+for|\(\s*stands\s+for)\s+(?P<long>" + _WORDS + r")")),
    # Long Form, LF,
    ("before", re.compile(r"(?P<long>" + _WORDS + r"),\s*(?P<acro>" + _ACRO + r")\s*[,)]")),
)


# The part of each "before" form after its long form. Found first, the long form is then read
# backwards from it (``_long_before``): the same matches as the whole patterns give, without
# trying a ten-word long form at every character of the text (most of the time resolution took).
_ANCHORS = (
    re.compile(r"\s*\(\s*(?P<acro>" + _ACRO + r")\s*[),;]"),
    re.compile(r",\s*(?P<acro>" + _ACRO + r")\s*[,)]"),
)
_MAX_WORDS = 10  # _WORDS's limit


def _in_word(c: str) -> bool:
    """A character _WORDS allows inside a word: \\w, a hyphen or dash, an apostrophe."""
    return c.isalnum() or c in "_-\u2010\u2011\u2013'"


def _ascii_alnum(c: str) -> bool:
    return c.isascii() and c.isalnum()


def _long_before(text: str, end: int, floor: int) -> int | None:
    """Where the leftmost run of _WORDS that ends at ``end`` (and starts at ``floor`` or later)
    starts, as a search with the whole pattern finds it; None if no word ends there."""
    best = None
    i, words = end, 0
    while words < _MAX_WORDS:
        j = i
        while j > floor and _in_word(text[j - 1]):
            j -= 1
        if j == i:
            break
        words += 1
        # The leftmost character of the word that may start the run: a letter or digit (ASCII).
        first = next((k for k in range(j, i) if _ascii_alnum(text[k])), None)
        if first is not None:
            best = first
        if first != j:  # a word not starting with one can only be the run's first
            break
        k = j
        while k > floor and text[k - 1].isspace():
            k -= 1
        if k == j:
            break
        i = k
    return best


def _before_matches(anchor: re.Pattern, text: str):
    """(long start, long end, acronym start, acronym end) of each "before" definition, in order."""
    pos = floor = 0
    while True:
        m = anchor.search(text, pos)
        if m is None:
            return
        start = _long_before(text, m.start(), floor)
        if start is None:
            pos = m.start() + 1  # the whole pattern may still match from inside this anchor
            continue
        yield start, m.start(), m.start("acro"), m.end("acro")
        pos = floor = m.end()


@dataclass(frozen=True)
class Definition:
    acronym: str  # without a plural "s": "LLMs" defines "LLM"
    long_form: str
    acronym_span: tuple[int, int]
    long_span: tuple[int, int]


def acronym_singular(word: str) -> str:
    """An acronym without its plural "s" ("LLMs" is LLM, "PLMs" PLM, "BiLSTMs" BiLSTM); any other
    word as it is. The one rule for it: definitions, resolution, name shapes and ``singular``."""
    return word[:-1] if len(word) > 2 and word.endswith("s") and word[-2].isupper() else word


def _is_acronym(word: str) -> bool:
    core = acronym_singular(word)
    return sum(c.isupper() for c in core) >= 2 or (core[:1].isupper() and any(c.isupper() for c in core[1:])) \
        or (sum(c.isupper() for c in core) >= 1 and sum(c.isalpha() for c in core) <= 5 and not core.istitle())


def _parts(words: list[str]) -> list[str]:
    """Words split at hyphens: "Low-Rank" gives "Low" and "Rank" their letters."""
    return [p for w in words for p in re.split(r"[\-\u2010\u2011\u2013]", w) if p]


def _optional(words: list[str]) -> list[bool]:
    """For each part of ``_parts(words)``: may it give no letter? Short function words may, and so
    may the later parts of a hyphenated word ("Pre-trained" gives GPT only its P)."""
    out = []
    for w in words:
        parts = [p for p in re.split(r"[\-\u2010\u2011\u2013]", w) if p]
        out += [i > 0 or p.lower() in _FUNCTION_WORDS for i, p in enumerate(parts)]
    return out


_SOUNDS = {"2": "t", "4": "f"}
_WORD_OF = {"2": "to", "4": "for"}


def stands_for(acro: str, words: list[str]) -> bool:
    """Do the acronym's letters, in order, start every word of ``words`` (short function words and
    the later parts of hyphenated words may give none), with any other letters drawn from inside
    those words?"""
    parts = _parts(words)
    letters = [c.lower() for c in acronym_singular(acro) if c.isalnum()]
    # "Seq2Seq" is sequence-to-sequence, "B4" before: a 2 or a 4 sounds its word.
    lower_parts = {p.lower() for p in parts}
    letters = [_SOUNDS[c] if c in _SOUNDS and _WORD_OF[c] in lower_parts else c for c in letters]
    optional = _optional(words)
    if not letters or not parts or parts[0][0].lower() != letters[0]:
        return False

    def match(li: int, pi: int, ci: int) -> bool:
        # letters[li:] against parts[pi:], where ci letters of parts[pi] are already passed
        if pi == len(parts):
            return li == len(letters)
        part = parts[pi].lower()
        if ci == 0:  # a word's first letter: it must give the next letter, unless a function word
            if li < len(letters) and part[0] == letters[li] and match(li + 1, pi, 1):
                return True
            return optional[pi] and match(li, pi + 1, 0)
        # inside a word: skip to the next word, or take a later letter of this one
        if match(li, pi + 1, 0):
            return True
        if li < len(letters):
            k = part.find(letters[li], ci)
            return k >= 0 and match(li + 1, pi, k + 1)
        return False

    return match(0, 0, 0)


def _span_words(acro: str, words: list[str], from_end: bool) -> int | None:
    """How many words, counted from the end (long form before the acronym) or the start (after it),
    the acronym stands for. Before it, the fewest that use all its letters (the first letter fixes
    where the long form starts); after it, the most (a later letter may come from inside a word,
    "LoRA (Low-Rank Adaptation)", so the fewest would stop at "Low-Rank")."""
    n_letters = sum(c.isalnum() for c in acro)
    sizes = range(1, min(len(words), n_letters + 3) + 1)
    for n in (sizes if from_end else reversed(sizes)):
        chunk = words[-n:] if from_end else words[:n]
        if chunk[0].lower() in _FUNCTION_WORDS or chunk[-1].lower() in _FUNCTION_WORDS:
            continue
        if stands_for(acro, chunk):
            return n
    return None


def definitions(text: str) -> list[Definition]:
    """Every acronym the text defines, with its long form, in text order."""
    out: dict[tuple[int, int], Definition] = {}
    for side, found in _found(text):
        for long_start, long_end, acro_start, acro_end in found:
            acro = text[acro_start:acro_end]
            if not _is_acronym(acro):
                continue
            long = text[long_start:long_end]
            spans = [(w.start(), w.end()) for w in re.finditer(r"\S+", long)]
            words = [long[s:e] for s, e in spans]
            n = _span_words(acro, words, from_end=(side == "before"))
            if n is None or (n == 1 and len(_parts(words[-n:] if side == "before" else words[:n])) == 1):
                continue  # a long form is several words
            chosen = spans[-n:] if side == "before" else spans[:n]
            ls, le = long_start + chosen[0][0], long_start + chosen[-1][1]
            while le > ls and not text[le - 1].isalnum():
                le -= 1
            a_span = (acro_start, acro_end)
            if a_span not in out:
                out[a_span] = Definition(acronym_singular(acro), text[ls:le], a_span, (ls, le))
    return [out[k] for k in sorted(out)]


def _found(text: str):
    """(side, the spans of each match) per form of _FORMS, the "before" ones found from their anchors."""
    anchors = iter(_ANCHORS)
    for side, pattern in _FORMS:
        if side == "before":
            yield side, _before_matches(next(anchors), text)
        else:
            yield side, ((m.start("long"), m.end("long"), m.start("acro"), m.end("acro"))
                         for m in pattern.finditer(text))
