"""Steps after the tagger: each a named function from one abstract's mentions to its mentions.

The tagger's spans are the mentions; these steps only cut, drop or retype them. A step stays in
``DEFAULT_STEPS`` only while it gains on held-out folds of the training data
(``python bench/extraction_folds.py``, docs/extraction.md), never for a gain on dev alone.
``STEPS`` is the registry: an Extractor applies the steps named in its ``steps``, in the
registry's order.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from kg.records import Mention

_FINITE_VERB = {"VBZ", "VBD", "VBP", "MD"}
_SIZE = re.compile(r"[\d.]+[KMBT]?(?:/[\d.]+[KMBT]?)*", re.IGNORECASE)

# Words that name no entity on their own: a mention made only of these ("downstream tasks", "our
# method", "general-purpose models", "real-world applications") is what SciERC calls Generic.
GENERIC_WORDS = frozenset("""
    a an the this these that those our its their his her my your such each every any some all both other
    another same several many multiple various different diverse numerous few new novel proposed existing
    previous prior traditional conventional standard current recent popular common typical general
    general-purpose generic specific particular given downstream upstream real-world practical
    real large small simple effective efficient powerful strong robust wide broad range variety set
    method methods approach approaches model models technique techniques algorithm algorithms framework
    frameworks system systems task tasks problem problems application applications setting settings
    scenario scenarios domain domains work works solution solutions tool tools strategy strategies scheme
    schemes baseline baselines component components module modules procedure procedures process processes
    dataset datasets data benchmark benchmarks experiment experiments result results evaluation evaluations
    study studies analysis paper way ways one ones they it them we
""".split())


def trim(doc, mentions: list[Mention]) -> list[Mention]:
    """A mention without a clause it ran into ("REDS facilitates generalization" -> "REDS"), a verb
    or preposition it starts on, a preposition, determiner or conjunction it stops on; a bare
    model size ("8B/405B") is dropped."""
    out = []
    for m in mentions:
        span = doc.char_span(m.start, m.end, alignment_mode="expand")
        if span is None or not len(span):
            out.append(m)
            continue
        start, end = span.start, span.end
        for i in range(start + 1, end):
            if doc[i].tag_ in _FINITE_VERB:
                end = i
                break
        while end - start > 1 and doc[start].tag_ in _FINITE_VERB:
            start += 1
        while end - start > 1 and doc[start].pos_ in ("ADP", "PART", "CCONJ") and doc[start].whitespace_:
            start += 1
        while end - start > 1 and doc[end - 1].pos_ in ("ADP", "CCONJ", "DET", "PART", "SCONJ"):
            end -= 1
        s, e = doc[start].idx, doc[end - 1].idx + len(doc[end - 1])
        if _SIZE.fullmatch(doc.text[s:e]):
            continue
        out.append(m if (s, e) == (m.start, m.end) else _moved(m, s, e, doc.text, "+trim"))
    return out


def drop_generic(doc, mentions: list[Mention]) -> list[Mention]:
    """No mention made only of generic words: "downstream tasks", "our method", "applications"."""
    return [m for m in mentions if not is_generic(m.text)]


def is_generic(text: str) -> bool:
    """Is every word of the phrase a generic one (``GENERIC_WORDS``, plurals included)?"""
    words = re.findall(r"[A-Za-z][A-Za-z\-]*", text)
    return bool(words) and len(words) == len(text.split()) and all(w.lower() in GENERIC_WORDS for w in words)


def one_type_per_form(doc, mentions: list[Mention]) -> list[Mention]:
    """One surface form keeps one type in one abstract: the type with the highest total score."""
    votes: dict[str, dict[str, float]] = {}
    for m in mentions:
        v = votes.setdefault(m.text.lower(), {})
        v[m.type] = v.get(m.type, 0.0) + m.score
    out = []
    for m in mentions:
        v = votes[m.text.lower()]
        best = max(v, key=lambda t: (v[t], t))
        out.append(m if best == m.type else
                   Mention(m.text, best, m.start, m.end, m.sentence, m.score, m.source + "+unified"))
    return out


def type_by_head(doc, mentions: list[Mention]) -> list[Mention]:
    """A Method, Task or Dataset whose head noun names a kind of entity takes that type: "...
    detection" is a Task, "... corpus" a Dataset (heads right for under 80% of train.json's spans,
    such as "learning", are not used)."""
    from kg.extract import rules

    out = []
    for m in mentions:
        head = rules.phrase_type(m.text) if m.type in ("Method", "Task", "Dataset") else None
        if head in ("Method", "Task", "Dataset") and head != m.type and \
                rules.head_word(m.text) not in rules.UNRELIABLE_HEADS:
            m = Mention(m.text, head, m.start, m.end, m.sentence, m.score, m.source + "+head")
        out.append(m)
    return out


def _moved(m: Mention, start: int, end: int, text: str, why: str) -> Mention:
    return Mention(text[start:end], m.type, start, end, m.sentence, m.score, m.source + why)


Step = Callable[[object, list[Mention]], list[Mention]]
STEPS: dict[str, Step] = {
    "trim": trim,
    "drop_generic": drop_generic,
    "one_type_per_form": one_type_per_form,
    "type_by_head": type_by_head,
}
DEFAULT_STEPS: tuple[str, ...] = ("trim", "drop_generic", "one_type_per_form")
