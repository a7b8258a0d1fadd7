"""CSV and TSV corpora: a header naming an ``abstract`` column (or "Abstract Note", "summary",
"text", Web of Science's "AB"), one paper a row, whatever the file is called.

The delimiter is the one the header uses (a comma, a tab, or the ";" Excel writes in many locales).
"""
from __future__ import annotations

import csv
import io
import itertools
from collections.abc import Iterator
from pathlib import Path

from kg.corpus.fields import ABSTRACT_COLUMNS, field_key
from kg.corpus.source import Located, Source
from kg.errors import KgError

SUFFIXES = (".csv", ".tsv")


def sniff(source: Source) -> bool:
    """A table saved under another name: its first line names the columns, and most of the next
    rows have about as many cells."""
    delimiter = table_header(source.first_line)
    return delimiter is not None and _rows_fit_header(source.head, delimiter)


def read(source: Source) -> Iterator[Located]:
    """(first line, row as a dict of lower-cased column names) for each row."""
    # A tab-separated file is often named .csv.
    delimiter = table_header(source.first_line, strict=False) or ("\t" if source.suffix == ".tsv" else ",")
    # The file as it is, not ``source.text``: the csv module ends rows at CR, LF and CRLF itself,
    # and a quoted cell's line breaks are the cell's own.
    return _rows(source.path, source.raw, delimiter)


def table_header(line: str, strict: bool = True) -> str | None:
    """The delimiter if ``line`` is a CSV or TSV header naming an abstract column, else None.

    Column names are short: in a file of any name (``strict``) every cell has at most four words
    and the line ends no sentence, so that "We embed images, text, and audio into one" is prose;
    in a file named .csv or .tsv one longer name is allowed ("Title;Abstract;Why I saved this?")."""
    for delimiter in ("\t", ",", ";"):
        raw = [c.strip().strip('"') for c in line.split(delimiter)]
        long_cells = sum(len(c.split()) > 4 for c in raw)
        if strict:
            looks_like_names = long_cells == 0 and not line.rstrip().endswith((".", "?", "!"))
        else:
            looks_like_names = long_cells <= 1 and all(len(c.split()) <= 10 for c in raw)
        if len(raw) > 1 and looks_like_names and ABSTRACT_COLUMNS & {field_key(c) for c in raw}:
            return delimiter
    return None


def _rows_fit_header(text: str, delimiter: str, rows: int = 20) -> bool:
    """Do most of the first rows have about the header's number of cells? A wrapped paragraph whose
    first line reads like column names ("Text, images, audio and video are") has one cell on most
    lines; a table's rows may have one cell more (a trailing tab, as Web of Science writes) and, in
    a tab-separated file, one fewer (a last column left off)."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        header = len(next(reader))
        widths = [len(row) for row in itertools.islice(reader, rows) if any(c.strip() for c in row)]
    except csv.Error:
        return True  # malformed: the CSV reader names the line
    # Prose has commas and semicolons, seldom tabs: only a tab-separated row may lack its last cell.
    fewest = max(2, header - 1 if delimiter == "\t" else header)
    fits = sum(fewest <= w <= header + 1 for w in widths)
    return not widths or fits * 5 >= len(widths) * 4


def _rows(path: Path, text: str, delimiter: str) -> Iterator[Located]:
    csv.field_size_limit(2**31 - 1)  # long abstracts are data, not an attack on the reader
    # newline="" as the csv module asks: quoted cells keep their line breaks, and only
    # CR, LF and CRLF end a row (not U+2028 and the like, as splitlines would).
    # strict: an unclosed quote is an error, not a cell running to the end of the file.
    reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    columns = [c.strip().lower() for c in (reader.fieldnames or [])]
    if not ABSTRACT_COLUMNS & {field_key(c) for c in columns}:
        raise KgError(f"{path}:1: CSV has no 'abstract' column (nor 'Abstract Note', 'summary' or 'text'; "
                      f"columns: {', '.join(columns) or 'none'})")
    try:
        start = reader.line_num + 1
        for row in reader:
            yield start, {(k or "").strip().lower(): v for k, v in row.items()}
            start = reader.line_num + 1  # a quoted cell can span lines: the next row starts after them
    except csv.Error as exc:
        raise KgError(f"{path}:{reader.reader.line_num}: malformed CSV ({exc})") from None
