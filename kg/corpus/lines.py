"""One abstract per line, no blank lines between: how the plain-text reader tells such a list from
wrapped paragraphs, and the ``lines`` format that reads every non-blank line as an abstract
(``kg build --format lines``) when the guess would be wrong.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from kg.corpus.source import Located, Source, split_lines

_SENTENCE_OR_LINK_END = re.compile(r"(?:[.?!…]|\.\.\.)[\"'”’»)\]]*$|\b(?:https?://|www\.)\S+$|\b[\w-]+\.[a-z]{2,}/\S*$")
_LINE_ABSTRACT_WORDS = 40  # every line at least this long: one abstract per line, not a wrapped paragraph
_SHORT_ABSTRACT_WORDS = 15  # ... or most lines, and at most a quarter shorter than this (a title is)


def sniff(source: Source) -> bool:
    """Never on its own: the plain-text reader tells a list of lines paragraph by paragraph."""
    return False


def read(source: Source) -> Iterator[Located]:
    """(line, record) for every non-blank line."""
    for i, line in enumerate(split_lines(source.text), 1):
        if line.strip():
            yield i, {"abstract": line.strip()}


def one_per_line(lines: list[str]) -> bool:
    """One abstract per line, no blank lines between? A wrapped paragraph has short lines and
    breaks inside sentences; a list of abstracts has long lines, each ending a sentence."""
    lengths = sorted(len(line.split()) for line in lines)
    if lengths[0] >= _LINE_ABSTRACT_WORDS:
        return True
    # A short abstract among long ones must not merge the whole list into one paper; a title or a
    # "Code: URL" line above an abstract is no abstract of its own.
    short = sum(n < _SHORT_ABSTRACT_WORDS for n in lengths)
    return (short * 4 <= len(lengths) and lengths[len(lengths) // 2] >= _LINE_ABSTRACT_WORDS
            and all(_ends_abstract(line) for line in lines))


def _ends_abstract(line: str) -> bool:
    """Could an abstract end here? At a sentence's end or a link ("Code: github.com/x/y"); a line
    of 40 words or more anywhere but after a colon, comma, semicolon or dash, where a paragraph
    ("... as follows:") goes on."""
    if _SENTENCE_OR_LINK_END.search(line):
        return True
    return len(line.split()) >= _LINE_ABSTRACT_WORDS and not line.rstrip().endswith((":", ",", ";", "-", "–", "—"))
