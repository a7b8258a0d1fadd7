"""Tagged-field exports of the literature databases: PubMed's MEDLINE and Web of Science's plain text.

Both write one field per tag at the start of a line and continue long values on indented
lines; MEDLINE ends a record with a blank line (``PMID- `` starts one), Web of Science with
``ER``. Each record becomes a dict with kg's own field names and the line it starts on, for
``kg.corpus`` to read like any other record. (Web of Science's tab-delimited export is a table:
``kg.corpus.csvfile`` reads it.)
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from kg.corpus.source import Located, Source, split_lines as file_lines

MEDLINE_SUFFIXES = (".nbib",)

# "PMID- 123", "TI  - Title", "LID - 10.1/x [doi]": a tag of up to four capitals, padded to four.
_MEDLINE_TAG = re.compile(r"^([A-Z][A-Z0-9]{1,3}) *- (.*)$")
_MEDLINE_FIRST = re.compile(r"^\ufeff?PMID- ")
# "AB Abstract", "PY 2024": two characters and a space; "ER" ends a record, "EF" the file.
_WOS_TAG = re.compile(r"^([A-Z][A-Z0-9]) (.*)$")

_MEDLINE_FIELDS = {"TI": "title", "AB": "abstract", "JT": "venue", "PMID": "id"}
_WOS_FIELDS = {"TI": "title", "AB": "abstract", "SO": "venue", "PY": "year", "UT": "id"}


def sniff_medline(source: Source) -> bool:
    """A ``.nbib`` name, or a first line "PMID- ..."."""
    first = next((line for line in file_lines(source.head) if line.strip()), "")
    return source.suffix in MEDLINE_SUFFIXES or bool(_MEDLINE_FIRST.match(first))


def sniff_wos(source: Source) -> bool:
    """Web of Science's header: "FN ..." then "VR ..." in the first lines."""
    lines = [line for line in file_lines(source.head)[:3] if line.strip()]
    return bool(lines) and lines[0].lstrip("\ufeff").startswith("FN ") and any(
        line.startswith("VR ") for line in lines)


def _fields(lines: list[tuple[int, str]], tag: re.Pattern, indent: str) -> Iterator[tuple[int, str, str]]:
    """(line, tag, value) per field; continuation lines (``indent``) joined to their field."""
    current: list = []
    for i, line in lines:
        if line.startswith(indent) and current:
            # Web of Science lists one author per line; any other value just wraps.
            current[2] += ("\n" if current[1] in ("AU", "AF") else " ") + line.strip()
            continue
        m = tag.match(line)
        if m:
            if current:
                yield tuple(current)
            current = [i, m.group(1), m.group(2).strip()]
    if current:
        yield tuple(current)


def _record(fields: list[tuple[int, str, str]], names: dict[str, str], authors: tuple[str, str],
            doi: tuple[str, ...]) -> dict:
    """kg's fields from a record's tagged fields; ``authors``: the tags of full names and of short
    ones ("Smith, John" / "Smith J"), the full ones used when the record has them."""
    rec: dict = {}
    names_by_tag: dict[str, list[str]] = {}
    for _, tag, value in fields:
        if tag in names and names[tag] not in rec:
            rec[names[tag]] = value
        elif tag in authors:
            names_by_tag.setdefault(tag, []).extend(a.strip() for a in value.split("\n") if a.strip())
        elif tag in ("OT", "DE"):  # MEDLINE's other terms, Web of Science's author keywords
            rec.setdefault("keywords", []).extend(k.strip() for k in value.split(";") if k.strip())
        elif tag in doi and "[doi]" in value and "url" not in rec:
            rec["url"] = "https://doi.org/" + value.replace("[doi]", "").strip()
        elif tag == "DI" and "url" not in rec:
            rec["url"] = "https://doi.org/" + value
        elif tag == "DP" and "year" not in rec:
            rec["year"] = value[:4]
    found = names_by_tag.get(authors[0]) or names_by_tag.get(authors[1])
    if found:
        rec["authors"] = found
    return rec


def read_medline(source: Source) -> Iterator[Located]:
    """PubMed's "PubMed" (MEDLINE) format, as saved to ``.nbib`` or ``.txt``."""
    text = source.text
    block: list[tuple[int, str]] = []
    for i, line in enumerate(file_lines(text), 1):
        if _MEDLINE_FIRST.match(line) and block:
            yield from _medline_block(block)
            block = []
        if line.strip():
            block.append((i, line.lstrip("\ufeff")))
    if block:
        yield from _medline_block(block)


def _medline_block(block: list[tuple[int, str]]) -> Iterator[tuple[int, dict]]:
    fields = list(_fields(block, _MEDLINE_TAG, "      "))
    if fields:
        yield fields[0][0], _record(fields, _MEDLINE_FIELDS, ("FAU", "AU"), ("LID", "AID"))


def read_wos(source: Source) -> Iterator[Located]:
    """Web of Science's plain-text export ("FN Clarivate ...", records "PT" to "ER")."""
    text = source.text
    block: list[tuple[int, str]] = []
    for i, line in enumerate(file_lines(text), 1):
        if line.startswith("ER"):
            fields = list(_fields(block, _WOS_TAG, "   "))
            if fields:
                yield fields[0][0], _record(fields, _WOS_FIELDS, ("AF", "AU"), ())
            block = []
        elif not line.startswith(("FN ", "VR ", "EF", "\ufeffFN ")) and line.strip():
            block.append((i, line))
    fields = list(_fields(block, _WOS_TAG, "   "))
    if fields:  # a last record without its "ER"
        yield fields[0][0], _record(fields, _WOS_FIELDS, ("AF", "AU"), ())
