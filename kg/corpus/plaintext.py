"""Plain text: an optional header line, then one abstract per blank-line-separated paragraph (the
seed list's format). A paragraph of long lines each ending an abstract is one abstract a line
(``kg.corpus.lines``). Any text no other format claims is read so.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from kg.corpus.lines import one_per_line
from kg.corpus.source import Located, Skip, Source, split_lines
from kg.corpus.titles import clip

_HEADER_MAX_WORDS = 20
LIST_MARKER = re.compile(r"^(?:\[\d+\]|\(\d+\)|\d+[.)])\s+")  # "[1] ", "(2) ", "3. " before an abstract


def sniff(source: Source) -> bool:
    """Always: plain text is the last resort, tried after every other format."""
    return True


def read(source: Source) -> Iterator[Located]:
    """(first line, record) per paragraph, or per line of a paragraph of one abstract a line; a
    header taken for one comes out as a Skip saying so."""
    paragraphs: list[tuple[int, list[str]]] = []
    current: list[str] = []
    start = 1
    for i, line in enumerate(split_lines(source.text), 1):
        if line.strip():
            if not current:
                start = i
            current.append(line.strip())
        elif current:
            paragraphs.append((start, current))
            current = []
    if current:
        paragraphs.append((start, current))
    # A first paragraph of a few short lines ending in no sentence is the list's header
    # ("ICLR 2025 papers", "My reading list / Autumn 2024"); said, so a short first abstract is not lost unseen.
    if len(paragraphs) > 1:
        start, first = paragraphs[0]
        joined = " ".join(first)
        ends_sentence = joined.rstrip("\"')]»”’").endswith((".", "?", "!", "。", "？", "！"))
        cjk = sum(c >= "\u2e80" for c in joined)  # a line of Chinese is one "word", however long
        if len(first) <= 3 and len(joined.split()) <= _HEADER_MAX_WORDS and cjk < 20 and not ends_sentence:
            paragraphs = paragraphs[1:]
            yield start, Skip(f"{clip(joined, 60)!r} taken for the list's header, not an abstract")
    for start, lines in paragraphs:
        if len(lines) > 1 and one_per_line(lines):
            for i, line in enumerate(lines):
                yield start + i, {"abstract": LIST_MARKER.sub("", line, count=1)}
        else:
            # The line breaks stay in the abstract (ids fold white space): the cleaner reads them.
            yield start, {"abstract": LIST_MARKER.sub("", "\n".join(lines), count=1)}
