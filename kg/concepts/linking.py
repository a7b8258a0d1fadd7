"""Named concepts found wherever the corpus writes them, not only where the tagger saw them.

The tagger reads one abstract at a time and misses a name now and then ("SQuAD" in a list of
benchmarks, "GLUE" in a sentence it cut short). Once the corpus has made a named dataset or model a
concept (two papers or more, written as a name), every abstract that writes one of its names,
case and all, as whole words, mentions it: the stage adds those mentions. Only names count here
(name-shaped words: "SQuAD", "WikiText-103", "Penn Treebank" capitalised), never lower-case words,
so "the web" or "a parser" is never found this way.
"""
from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator

from kg.records import Mention, Paper
from kg.text.names import name_strength

# Concepts of these types are found wherever written.
LINKED_TYPES = ("Dataset", "Method")
MIN_PAPERS = 2  # a name one paper uses is not yet the corpus's
LINKED_SCORE = 0.5  # the confidence of a mention found this way
_MAX_TOKENS = 6
_TOKEN = re.compile(r"\w+|[^\w\s]")
_SENTENCE_END = re.compile(r"[.!?](?=\s+[A-Z0-9])")


def _tokens(text: str) -> list[re.Match]:
    return list(_TOKEN.finditer(text))


def tokens(form: str) -> tuple[str, ...]:
    """A name as the token sequence ``occurrences`` looks for."""
    return tuple(m.group(0) for m in _TOKEN.finditer(form))


def is_name(form: str) -> bool:
    """A form that only a name looks like: a name-shaped word in it ("GPT-2", "SQuAD"), or every
    word of two or more capitalised ("Penn Treebank")."""
    words = form.split()
    if any(name_strength(w) >= 2 for w in words):
        return True
    caps = [w for w in words if w[:1].isalpha()]
    return len(caps) > 1 and all(w[:1].isupper() for w in caps)


def names_to_link(entities: dict, papers_of: dict[str, int], types: tuple[str, ...] = LINKED_TYPES,
                  min_papers: int = MIN_PAPERS, shape=is_name) -> dict[tuple[str, ...], str]:
    """Token sequence of each name to its entity id, for the entities worth finding everywhere
    (of ``types``, in ``min_papers`` papers or more, forms of the ``shape`` of a name).
    A name two entities share is left out: it is not known which one a paper means."""
    out: dict[tuple[str, ...], str] = {}
    clash: set[tuple[str, ...]] = set()
    for eid, ent in entities.items():
        if ent.type not in types or papers_of.get(eid, 0) < min_papers:
            continue
        for form in {ent.name, *ent.aliases}:
            form = form.strip()
            if "(" in form or len(form) < 3 or not shape(form):
                continue
            toks = tokens(form)
            if len(toks) > _MAX_TOKENS:
                continue
            if out.setdefault(toks, eid) != eid:
                clash.add(toks)
    for toks in clash:
        del out[toks]
    return out


def _sentence(text: str, start: int, end: int) -> str:
    """The sentence around text[start:end], by full stops followed by a capital."""
    s = 0
    for m in _SENTENCE_END.finditer(text, 0, start):
        s = m.end()
    nxt = _SENTENCE_END.search(text, end)
    return text[s:nxt.end() if nxt else len(text)].strip()


def occurrences(text: str, names: dict[tuple[str, ...], str], firsts: dict[str, set[int]] | None = None,
                longest: bool = True) -> Iterator[tuple[int, int, str]]:
    """(start, end, entity id) of each name of ``names`` the text writes, case and all, as whole
    words; the longest name wins where names overlap, unless not ``longest`` ("CoNLL" is then
    found in "CoNLL 2018 Shared Task" too). ``firsts``: ``first_tokens(names)``, to share over
    many texts."""
    if firsts is None:
        firsts = first_tokens(names)
    toks = _tokens(text)
    covered = 0  # where the last name found ends: "York Times" inside "New York Times" is no name
    for i, t in enumerate(toks):
        lengths = firsts.get(t.group(0))
        if not lengths or t.start() < covered:
            continue
        for n in sorted(lengths, reverse=True):
            if i + n > len(toks):
                continue
            eid = names.get(tuple(x.group(0) for x in toks[i:i + n]))
            if eid is None:
                continue
            start, end = toks[i].start(), toks[i + n - 1].end()
            # Whole names only: not part of a longer hyphenated or slashed one ("X-SQuAD",
            # "CNN/Daily Mail" are other names). Inside a longer mention it counts: "the
            # competitive SQuAD dataset", "SQuAD 2.0" and "SQuAD reading comprehension" name SQuAD.
            if (start > 0 and text[start - 1] in "-_/") or text[end:end + 1] in ("-", "/", "_"):
                continue
            yield start, end, eid
            if longest:
                covered = end
                break


def first_tokens(names: dict[tuple[str, ...], str]) -> dict[str, set[int]]:
    """First token of each name -> the lengths of the names starting with it."""
    firsts: dict[str, set[int]] = defaultdict(set)
    for toks in names:
        firsts[toks[0]].add(len(toks))
    return firsts


def link_names(papers: Iterable[Paper], entity_of: dict[str, list[str | None]],
               names: dict[tuple[str, ...], str]) -> dict[str, list[tuple[Mention, str]]]:
    """Per paper, the (mention, entity id) of each named concept its text writes and its own
    mentions do not already resolve to; the first place each is written."""
    if not names:
        return {}
    firsts = first_tokens(names)
    found: dict[str, list[tuple[Mention, str]]] = {}
    for p in papers:
        have = set(entity_of.get(p.id, ()))
        text = p.text
        added: dict[str, tuple[Mention, str]] = {}
        for start, end, eid in occurrences(text, names, firsts):
            if eid not in have and eid not in added:
                added[eid] = (Mention(text[start:end], eid.split(":", 1)[0], start, end,
                                      _sentence(text, start, end), LINKED_SCORE, "corpus"), eid)
        if added:
            found[p.id] = list(added.values())
    return found
