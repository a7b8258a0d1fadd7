"""BibTeX and RIS: what reference managers (Zotero, Mendeley, EndNote, Google Scholar) export.

Each entry becomes a record with kg's own field names (``abstract``, ``title``, ``authors``,
``year``, ``venue``, ``url``, ``keywords``, ``id``) and the line it starts on, for
``kg.corpus`` to read like any other record. An entry without an abstract stays a record
without one, so the corpus reader skips it with a warning that names its line.
"""
from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from pathlib import Path

from kg.errors import KgError
from kg.latex import clean_latex

_BIBTEX_START = re.compile(r"(?:%[^\n]*\n|\s)*@\s*[A-Za-z]+\s*[{(]")
_BIBTEX_ENTRY = re.compile(r"@\s*([A-Za-z]+)\s*[{(]\s*([^,\s]*)")


def looks_like_bibtex(text: str) -> bool:
    return bool(_BIBTEX_START.match(text))


def looks_like_ris(text: str) -> bool:
    first = next((line for line in text.splitlines() if line.strip()), "")
    return first.lstrip("\ufeff").startswith("TY  -")


def bibtex_records(path: Path, text: str) -> Iterator[tuple[int, dict]]:
    with warnings.catch_warnings():
        # bibtexparser 1.x calls pyparsing by its old names; the warnings are for its authors.
        warnings.simplefilter("ignore", DeprecationWarning)
        import bibtexparser
        from bibtexparser.bparser import BibTexParser

        parser = BibTexParser(common_strings=True, ignore_nonstandard_types=False, interpolate_strings=True)
        try:
            entries = bibtexparser.loads(text, parser).entries
        except Exception as exc:  # pyparsing's errors carry no common base worth naming
            raise KgError(f"{path}: malformed BibTeX ({exc})") from None
    if not entries:
        raise KgError(f"{path}: no complete BibTeX entries found (an unclosed brace hides every entry after it)")
    starts = _bibtex_entry_lines(text)
    for entry in entries:
        line = starts.get(entry.get("ID", ""), 1)
        yield line, {
            "id": entry.get("ID") or None,
            "title": _plain(entry.get("title")),
            "abstract": entry.get("abstract"),
            "authors": [_plain(a) for a in re.split(r"\s+and\s+", entry["author"]) if a.strip()]
            if entry.get("author") else None,
            "year": entry.get("year"),
            "venue": _plain(entry.get("journal") or entry.get("booktitle")),
            "url": entry.get("url") or (f"https://doi.org/{entry['doi']}" if entry.get("doi") else None),
            "keywords": entry.get("keywords"),
        }


def _bibtex_entry_lines(text: str) -> dict[str, int]:
    """Entry key -> line its ``@type{key`` is on (bibtexparser keeps no positions)."""
    lines: dict[str, int] = {}
    for m in _BIBTEX_ENTRY.finditer(text):
        if m.group(1).lower() not in ("comment", "string", "preamble"):
            lines.setdefault(m.group(2), text.count("\n", 0, m.start()) + 1)
    return lines


def _plain(value: str | None) -> str | None:
    # "{BERT}: Pre-training of {D}eep ..." -> "BERT: Pre-training of Deep ..."
    return clean_latex(value) if value else None


def ris_records(path: Path, text: str) -> Iterator[tuple[int, dict]]:
    import rispy

    try:
        entries = rispy.loads(text)
    except Exception as exc:  # rispy raises plain IOError/ValueError subclasses on bad input
        raise KgError(f"{path}: malformed RIS ({exc})") from None
    if not entries:
        raise KgError(f"{path}: no complete RIS entries found (each runs from a 'TY  -' line to an 'ER  -' line)")
    starts = [i for i, line in enumerate(text.splitlines(), 1) if line.lstrip("\ufeff").startswith("TY  -")]
    for i, entry in enumerate(entries):
        urls = entry.get("urls") or []
        doi = entry.get("doi")
        yield (starts[i] if i < len(starts) else 1), {
            "id": entry.get("id"),
            "title": entry.get("title") or entry.get("primary_title"),
            "abstract": entry.get("abstract") or entry.get("notes_abstract"),
            "authors": entry.get("authors") or entry.get("first_authors"),
            "year": _ris_year(entry.get("year") or entry.get("publication_year")),
            "venue": entry.get("secondary_title") or entry.get("journal_name"),
            "url": urls[0] if urls else (f"https://doi.org/{doi}" if doi else None),
            "keywords": entry.get("keywords"),
        }


def _ris_year(value: str | None) -> str | None:
    # RIS writes dates as "2017/05/17/" or "2017///".
    m = re.match(r"\s*(\d{4})\b", value or "")
    return m.group(1) if m else value
