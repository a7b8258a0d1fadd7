"""Derive a display title for an abstract that came without one."""
from __future__ import annotations

import re

_INTRO = re.compile(r"\b(?:we|this paper|this work)\s+(?:propose|introduce|present|develop|design|call|name|dub)s?\b",
                    re.IGNORECASE)
# A name right after the verb: has a capital after its first letter or a digit, and ends at , : ( or "which".
_NAME = re.compile(r"\s+(?:the\s+)?([A-Za-z][\w\-+.]*?(?:[A-Z0-9][\w\-+.]*?)?)(?=\s*[,:(]|\s+(?:which|that)\b)")
_ACRONYM = re.compile(r"\(([A-Z][A-Za-z0-9\-]*[A-Z0-9][A-Za-z0-9\-]*)s?\)")
_MAX_WORDS = 12
# A short scene-setting phrase before the first comma ("In this paper", "Recently", "In recent years").
_OPENER = re.compile(r"(?:in|recently|here|currently|nowadays|today|traditionally|over|to date|so far)\b(?:\s+\S+){0,3}$",
                     re.IGNORECASE)
# A subordinate clause before the main one ("Because it is hard to specify rewards, agents ...",
# "To address this, we ..."): the main clause says what the paper is about.
_SUBORDINATE = re.compile(r"(?:because|since|although|though|given|despite|to|"
                          r"motivated by|inspired by)\b", re.IGNORECASE)
# The heading of a structured abstract ("BACKGROUND:", "Objective.", "Aims/hypothesis:", "Abstract—"):
# the same few words on every such paper, so a title taken from it would name none of them.
_LABEL_WORD = (r"(?:background|objectives?|aims?|purposes?|introduction|context|methods?|methodology|materials|"
               r"results?|findings|conclusions?|abstract|summary|motivation|rationale|importance|goals?|"
               r"hypothes[ie]s|significance|(?:study |research )?design|setting|problem|overview|highlights)")
_SECTION_LABEL = re.compile(rf"{_LABEL_WORD}(?:\s*(?:and|&|/)\s*{_LABEL_WORD})*\s*[:.\u2013\u2014]\s*",
                            re.IGNORECASE)
# Words whose period ends no sentence ("et al.", "Fig. 2", "vs."), compared in lower case.
# Not "ms", "sec" (units) nor "no", "etc.": they often end a sentence.
_ABBREVIATIONS = frozenset("al vs fig figs eq eqs approx cf resp ca viz incl esp dr prof vol pp".split())
# Dotted abbreviations ("e.g.", "i.e.", "U.S.", "a.k.a."); a capital initial ("J. Smith") is one
# unless a sentence starts after it.
_DOTTED = re.compile(r"(?:[A-Za-z]\.){2,}")
_INITIAL = re.compile(r"[A-Z]\.")
_SENTENCE_STARTS = frozenset("""it we this these that those the our in a an they here however thus
    to for as such both its there results further finally moreover also on by with experiments
    extensive experimental empirical numerical patients participants specifically code data
    overall additionally furthermore importantly notably consequently therefore then next using
    compared unlike while when although""".split())


def derive_title(text: str) -> str:
    """The named contribution ("LOL", "ThinK") if the abstract names one, else its first clause."""
    for intro in _INTRO.finditer(text):
        if re.match(r"\s+\w+ing\b", text[intro.end():]):
            continue  # "we propose utilizing Federated Learning (FL)": a means, not the contribution
        name = _NAME.match(text, intro.end())
        if name and _is_name(name.group(1)):
            return name.group(1).rstrip(".")
        window = text[intro.end(): intro.end() + 160]
        acro = _ACRONYM.search(window)
        if acro and "." not in window[: acro.start()]:
            return acro.group(1)
    body = without_section_label(text)
    # Never empty for a non-empty abstract ("." or "(1)" have no clause).
    return first_clause(body) or " ".join(body.split()[:_MAX_WORDS])


def without_section_label(text: str) -> str:
    """``text`` without the headings it opens with ("ABSTRACT: BACKGROUND: ..."), unless nothing follows them."""
    text = text.strip()
    while (label := _SECTION_LABEL.match(text)) and text[label.end():].strip():
        text = text[label.end():]
    return text


def _is_name(word: str) -> bool:
    # "ThinK", "InterpGN", "Layout-Your-3D", "Atomas": not a common lower-case word.
    return word[:1].isupper() and word.lower() not in {"a", "an", "the", "this", "it", "we"}


def first_clause(text: str) -> str:
    sentence = first_sentence(text)
    clauses = _clauses(sentence)
    if len(clauses) > 1 and (_OPENER.match(clauses[0]) or _SUBORDINATE.match(clauses[0])) \
            and len(clauses[1].split()) >= 3:
        clauses = clauses[1:]  # "In this paper, we ...": the opener names nothing
    clause = clauses[0]
    if clause.endswith(".") and not _is_abbreviation(clause, len(clause)):
        clause = clause[:-1]  # the full stop, not the one of "U.S."
    words = clause.split()
    return " ".join(words[:_MAX_WORDS]) + ("…" if len(words) > _MAX_WORDS else "")


def first_sentence(text: str) -> str:
    """``text`` up to its first full stop, ! or ?, read past the periods of abbreviations ("The U.S. Food")."""
    text = text.strip()
    for end in re.finditer(r"[.!?](?=\s)", text):
        if not _is_abbreviation(text, end.end()):
            return text[: end.end()]
    return text


def _clauses(sentence: str) -> list[str]:
    """``sentence`` split at , ; and : outside brackets and not right after an abbreviation:
    "Large models (e.g., GPT-4) fail" is one clause, not "Large models (e.g"."""
    clauses, start, depth = [], 0, 0
    for i, ch in enumerate(sentence):
        depth += (ch in "([{") - (ch in ")]}")
        if ch in ",;:" and depth <= 0 and sentence[i + 1: i + 2].isspace() \
                and not _is_abbreviation(sentence, i):
            clauses.append(sentence[start:i])
            start = i + 2
    return clauses + [sentence[start:]]


def _is_abbreviation(text: str, end: int) -> bool:
    """Whether the word ending at ``end`` is an abbreviation with its period ("e.g.", "et al.", "J.")."""
    start = end
    while start > 0 and not text[start - 1].isspace():
        start -= 1  # only this word is read: a long run of "J. J. J." stays linear
    word = text[start:end].lstrip("([{\"'")
    if _INITIAL.fullmatch(word):
        # "R. Sutton", "J. K. Rowling": an initial comes before a name; "vitamin D. It ..." and
        # "hepatitis B. The ..." end their sentence.
        after = text[end:].split(maxsplit=1)
        return bool(after) and after[0].lower() not in _SENTENCE_STARTS
    return word.endswith(".") and (bool(_DOTTED.fullmatch(word)) or word[:-1].lower() in _ABBREVIATIONS)


def clip(text: str | None, limit: int) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
