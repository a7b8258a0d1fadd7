"""The corpus formats kg reads, in the order they are tried: the registry.

A format is a ``sniff`` (does this file look like mine?) and a ``read`` (its records, each with
the line it starts on), both taking a ``kg.corpus.source.Source``. A file is read by the format
its name claims (``.csv``, ``.json``, ... in ``claims``), else by the first whose ``sniff``
says yes, so a format that recognises its files surely goes before one that guesses: plain
text, which takes anything, is last. ``kg build --format NAME`` skips the sniffing.

To add a format: a module in ``kg/corpus/`` with ``sniff`` and ``read``, a ``Format`` line
below, and a test file ``tests/test_corpus_<name>.py``.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from kg.corpus import bibtex, csvfile, jsonfile, lines, plaintext, ris, scierc, tagged
from kg.corpus.source import Located, Source
from kg.errors import KgError


@dataclass(frozen=True)
class Format:
    """One input format: how to recognise its files and how to read their records."""

    name: str  # as --format takes it
    description: str  # one line, for --help and error messages
    sniff: Callable[[Source], bool]
    read: Callable[[Source], Iterable[Located]]
    claims: tuple[str, ...] = ()  # file name endings that decide without looking


FORMATS: tuple[Format, ...] = (
    Format("scierc", "SciERC JSON Lines (ids are the doc_key)", scierc.sniff, scierc.read),
    Format("json", "a JSON array, JSON Lines, or one object (an API response)", jsonfile.sniff, jsonfile.read,
           claims=jsonfile.SUFFIXES),
    Format("bibtex", "BibTeX (.bib)", bibtex.sniff, bibtex.read),
    Format("ris", "RIS (.ris)", ris.sniff, ris.read),
    Format("medline", "PubMed's MEDLINE format (.nbib)", tagged.sniff_medline, tagged.read_medline),
    Format("wos", "Web of Science plain text", tagged.sniff_wos, tagged.read_wos),
    Format("csv", "CSV or TSV with an abstract column", csvfile.sniff, csvfile.read, claims=csvfile.SUFFIXES),
    Format("lines", "one abstract per line", lines.sniff, lines.read),
    Format("text", "one abstract per paragraph (or per line), an optional header first",
           plaintext.sniff, plaintext.read),
)
FORMAT_NAMES: tuple[str, ...] = tuple(f.name for f in FORMATS)


def format_named(name: str) -> Format:
    """The format called ``name`` (``--format``), or a KgError listing the names."""
    for fmt in FORMATS:
        if fmt.name == name:
            return fmt
    raise KgError(f"--format {name}: no such format (one of {', '.join(FORMAT_NAMES)})")


def detect(source: Source) -> Format:
    """The format ``source`` is read as: the one its name claims, else the first that sniffs it."""
    for fmt in FORMATS:
        if source.suffix in fmt.claims:
            return fmt
    return next(fmt for fmt in FORMATS if fmt.sniff(source))
