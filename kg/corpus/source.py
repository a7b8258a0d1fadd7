"""A corpus file as every reader sees it: its bytes decoded, its lines as editors count them.

``decode`` reads the encodings spreadsheets and editors save and names, in one line, a file
that is no text at all. ``Source`` is what a format's ``sniff`` and ``read`` take: the text, the
file's name, and what more than one reader asks of it (its first line, its JSON), worked out
once. A reader yields ``(where, record)`` pairs: where is the record's first line, or "item N"
for the items of a JSON array; a record is a dict under any field names (``kg.corpus.papers``
maps them) or a ``Skip`` saying why an entry seen in the file could not be read.
"""
from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Union

from kg.errors import KgError

# Files that are no text at all, by their first bytes: what they are, and what to do.
_BINARY_KINDS = ((b"\x1f\x8b", "gzip-compressed: decompress it first (gunzip)"),
                 (b"PK\x03\x04", "a ZIP archive (or an Excel/Word file): unzip it, or save the sheet as CSV"),
                 (b"%PDF", "a PDF: kg reads abstracts as text (.txt, .jsonl, .csv, .bib, .ris, .nbib)"),
                 (b"\xd0\xcf\x11\xe0", "an old Excel/Word file: save it as CSV or text"))


@dataclass(frozen=True)
class Skip:
    """An entry seen in the file but not readable; ``why`` becomes the warning."""

    why: str


# (first line, or "item N") and the record found there.
Located = tuple[Union[int, str], object]


@dataclass
class Source:
    """A corpus file, decoded. ``raw`` is the text as the file has it; ``text`` has classic Mac
    line ends (CR alone) made LF, for the readers that go line by line."""

    path: Path
    raw: str

    @property
    def suffix(self) -> str:
        return self.path.suffix.lower()

    @cached_property
    def text(self) -> str:
        if self.raw.count("\r") > 2 * self.raw.count("\n"):  # classic Mac line ends (perhaps with a last LF)
            return self.raw.replace("\r\n", "\n").replace("\r", "\n")
        return self.raw

    @cached_property
    def head(self) -> str:
        """The text from its first non-blank character."""
        return self.text.lstrip()

    @property
    def first_line(self) -> str:
        return self.head.split("\n", 1)[0]

    @cached_property
    def json(self) -> object:
        """The whole text parsed as one JSON value, or the ``json.JSONDecodeError`` it raises
        (parsed once, though the sniffers and the reader all ask)."""
        try:
            return json.loads(self.text)
        except json.JSONDecodeError as exc:
            return exc


def read_source(path: Path) -> Source:
    """``path`` decoded, or a one-line KgError saying why it cannot be read."""
    if not path.exists():
        raise KgError(f"{path}: no such file")
    if path.is_dir():
        raise KgError(f"{path}: is a directory, expected a corpus file (.txt, .jsonl, .json, .csv, .bib, .ris or .nbib)")
    source = Source(path, decode(path, path.read_bytes()))
    if not source.head:
        raise KgError(f"{path}: file is empty")
    return source


def split_lines(text: str) -> list[str]:
    """The file's lines as editors count them: split at a newline only.

    ``str.splitlines`` also breaks at U+2028, U+0085, form feeds and other
    characters that JSON strings and CSV cells may hold raw, which would cut
    a record in two and number every later line wrongly.
    """
    return [line.removesuffix("\r") for line in text.split("\n")]


class LineIndex:
    """Line number of a character offset, by bisection over the line starts (files can be large)."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def __call__(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)


def decode(path: Path, raw: bytes) -> str:
    """The file's text: UTF-8, or UTF-16 (Excel's and Notepad's "Unicode"; its byte-order mark, or
    else its zero bytes, tell which)."""
    for magic, kind in _BINARY_KINDS:
        if raw.startswith(magic):
            raise KgError(f"{path}: is {kind}")
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError:
            raise KgError(f"{path}: not readable as the UTF-16 text its first bytes announce") from None
    head = raw[:4096]
    # UTF-16 without its mark: English text has a zero byte beside almost every letter, on one side
    # (a stray zero byte in UTF-8 text, or a tail of them left by a crash, is no reason).
    even, odd = head[0::2].count(0), head[1::2].count(0)
    encoding = ("utf-16-le" if odd > len(head) // 4 and even < len(head) // 16 else
                "utf-16-be" if even > len(head) // 4 and odd < len(head) // 16 else None)
    if encoding:
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            raise KgError(f"{path}: looks like UTF-16 text without its byte-order mark but does not decode as {encoding}") from None
    try:
        return raw.rstrip(b"\x00").decode("utf-8-sig")  # zero bytes at the end are padding, not text
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise KgError(f"{path}:{line}: not UTF-8 text (undecodable byte at offset {exc.start}; "
                      "save the file as UTF-8)") from None
