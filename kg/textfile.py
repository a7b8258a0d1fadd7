"""A file's bytes as text, for every reader of kg: the encodings spreadsheets and editors save,
and a one-line error naming what a file is when it is no text at all."""
from __future__ import annotations

from pathlib import Path

from kg.errors import KgError

# Files that are no text at all, by their first bytes: what they are, and what to do.
_BINARY_KINDS = ((b"\x1f\x8b", "gzip-compressed: decompress it first (gunzip)"),
                 (b"PK\x03\x04", "a ZIP archive (or an Excel/Word file): unzip it, or save the sheet as CSV"),
                 (b"%PDF", "a PDF: kg reads abstracts as text (.txt, .jsonl, .csv, .bib, .ris, .nbib)"),
                 (b"\xd0\xcf\x11\xe0", "an old Excel/Word file: save it as CSV or text"))


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
