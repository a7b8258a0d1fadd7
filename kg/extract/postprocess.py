"""Steps after the tagger: each a named function from one abstract's mentions to its mentions.

The tagger's spans are the mentions; a step may only drop or change them. A step stays in
``DEFAULT_STEPS`` only while it gains on held-out folds of the training data
(``python bench/extraction_folds.py``, docs/extraction.md), never for a gain on dev alone.
``STEPS`` is the registry: an Extractor applies the steps named in its ``steps``, in the
registry's order.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from kg.records import Mention
from kg.text.words import NOT_A_MENTION



def drop_generic(doc, mentions: list[Mention]) -> list[Mention]:
    """No mention made only of generic words: "downstream tasks", "our method", "applications"."""
    return [m for m in mentions if not is_generic(m.text)]


def is_generic(text: str) -> bool:
    """Is every word of the phrase a generic one (``kg.text.words.NOT_A_MENTION``, plurals included)?"""
    words = re.findall(r"[A-Za-z][A-Za-z\-]*", text)
    return bool(words) and len(words) == len(text.split()) and all(w.lower() in NOT_A_MENTION for w in words)


_TRAILING_WORD = re.compile(r"\s+(?:of|for|and|or|with|to|in|on|by|from|the|a|an|via)$", re.IGNORECASE)


def tidy_edges(doc, mentions: list[Mention]) -> list[Mention]:
    """A span cut off inside a phrase is mended at its edges: a bracket without its partner comes
    off ("state space model (" -> "state space model", "isPPA)" -> "isPPA", "LLM) pre-training"
    -> "pre-training"), and so does a last short word ("fusion of" -> "fusion"); a span that ends
    on a hyphen, half of a word ("image-", "pre-"), is dropped."""
    out = []
    text = doc.text
    for m in mentions:
        s, e = m.start, m.end
        for _ in range(3):
            s, e = _unbracketed(text, s, e)
            trailing = _TRAILING_WORD.search(text[s:e])
            if trailing:
                e = s + trailing.start()
            while s < e and (text[s].isspace() or text[s] in ",;:"):
                s += 1
            while e > s and (text[e - 1].isspace() or text[e - 1] in ",;:"):
                e -= 1
        seg = text[s:e]
        if not any(c.isalnum() for c in seg) or seg.endswith("-"):
            continue
        out.append(m if (s, e) == (m.start, m.end) else Mention(seg, m.type, s, e, m.sentence, m.score,
                                                                m.source + "+tidy"))
    return out


def _unbracketed(text: str, s: int, e: int) -> tuple[int, int]:
    """(s, e) without a parenthesis that has no partner inside it, nor what it cuts off: the words
    before an unmatched ")" (or the ")" alone at the end), the words from an unmatched "(" on."""
    opened: list[int] = []
    closed: list[int] = []
    for i in range(s, e):
        if text[i] == "(":
            opened.append(i)
        elif text[i] == ")":
            if opened:
                opened.pop()
            else:
                closed.append(i)
    if closed:
        k = closed[-1]
        if text[k + 1:e].strip():
            s = k + 1
        else:
            e = k
    if opened:
        k = opened[0]
        if text[s:k].strip():
            e = k
        else:
            s = k + 1
    return s, e


def drop_lone_adjectives(doc, mentions: list[Mention]) -> list[Mention]:
    """No mention that is one word spaCy tags as an adjective ("fundamental", "robust"): the
    tagger takes some for a method or a task, where annotators mark a named thing."""
    out = []
    for m in mentions:
        span = doc.char_span(m.start, m.end, alignment_mode="expand")
        if span is not None and len(span) == 1 and span[0].pos_ == "ADJ":
            continue
        out.append(m)
    return out


def bound_by_acronyms(doc, mentions: list[Mention]) -> list[Mention]:
    """A mention that ends where the long form of an acronym the abstract defines ends starts where
    the acronym's letters say the long form starts ("inexact stochastic proximal point algorithm
    (isPPA)": the tagger's "stochastic proximal point algorithm" becomes the whole long form, which
    resolution then joins with "isPPA"); mentions left inside it, fragments of it, go."""
    from kg.text.acronyms import definitions

    starts = {d.long_span[1]: d.long_span[0] for d in definitions(doc.text)}
    if not starts:
        return mentions
    out, grown = [], []
    for m in mentions:
        s = starts.get(m.end)
        if s is None or s == m.start:
            out.append(m)
            continue
        out.append(Mention(doc.text[s:m.end], m.type, s, m.end, m.sentence, m.score, m.source + "+acronym"))
        grown.append((s, m.end))
    return [m for m in out if not any(s <= m.start and m.end <= e and (m.start, m.end) != (s, e) for s, e in grown)]


Step = Callable[[object, list[Mention]], list[Mention]]
STEPS: dict[str, Step] = {
    "tidy_edges": tidy_edges,
    "drop_generic": drop_generic,
    "drop_lone_adjectives": drop_lone_adjectives,
    "bound_by_acronyms": bound_by_acronyms,
}
DEFAULT_STEPS: tuple[str, ...] = ("tidy_edges", "drop_generic", "drop_lone_adjectives", "bound_by_acronyms")
