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
    # Never empty for a non-empty abstract ("." or "(1)" have no clause).
    return first_clause(text) or " ".join(text.split()[:_MAX_WORDS])


def _is_name(word: str) -> bool:
    # "ThinK", "InterpGN", "Layout-Your-3D", "Atomas": not a common lower-case word.
    return word[:1].isupper() and word.lower() not in {"a", "an", "the", "this", "it", "we"}


def first_clause(text: str) -> str:
    sentence = re.split(r"(?<=[.!?])\s", text.strip(), maxsplit=1)[0]
    clauses = re.split(r"[,;:]\s", sentence)
    if len(clauses) > 1 and (_OPENER.match(clauses[0]) or _SUBORDINATE.match(clauses[0])) \
            and len(clauses[1].split()) >= 3:
        clauses = clauses[1:]  # "In this paper, we ...": the opener names nothing
    clause = clauses[0].rstrip(".")
    words = clause.split()
    return " ".join(words[:_MAX_WORDS]) + ("…" if len(words) > _MAX_WORDS else "")


def clip(text: str | None, limit: int) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
