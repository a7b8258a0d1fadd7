"""RIS, as reference managers (Zotero, Mendeley, EndNote) and publishers export it.

Each entry ("TY  -" to "ER  -") becomes a record with kg's own field names and the line it
starts on; an entry rispy cannot read comes out as a ``Skip`` naming its line.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from kg.corpus.source import LineIndex, Located, Skip, Source
from kg.errors import KgError

SUFFIXES = (".ris",)
_RIS_START = re.compile(r"^\ufeff?TY  -", re.MULTILINE)
_RIS_END = re.compile(r"^ER  -", re.MULTILINE)


def sniff(source: Source) -> bool:
    """A ``.ris`` name, or a first line "TY  - ..."."""
    return source.suffix in SUFFIXES or source.first_line.lstrip("\ufeff").startswith("TY  -")


def read(source: Source) -> Iterator[Located]:
    """Each "TY  -" line starts an entry, read on its own: an entry missing its "ER  -" cannot
    swallow the next one, and every entry keeps its own line number."""
    import rispy

    path, text = source.path, source.text
    line_of = LineIndex(text)
    starts = [m.start() for m in _RIS_START.finditer(text)]
    if not starts:
        raise KgError(f"{path}: no RIS entries found (each starts with a 'TY  -' line)")
    for begin, end in zip(starts, starts[1:] + [len(text)]):
        chunk = text[begin:end].lstrip("\ufeff")
        end_tag = _RIS_END.search(chunk)
        chunk = chunk[:end_tag.end()] if end_tag else chunk.rstrip() + "\nER  - \n"
        line = line_of(begin)
        try:
            # Abstracts split over several AB (or N2) lines are kept whole.
            (entry,) = rispy.loads(chunk, list_tags=[*rispy.LIST_TYPE_TAGS, "AB", "N2"])
        except Exception as exc:  # rispy's errors are plain ValueErrors and the like
            yield line, Skip(f"RIS entry could not be read ({exc})")
            continue
        yield line, _ris_record(entry)


def _ris_record(entry: dict) -> dict:
    urls = entry.get("urls") or []
    doi = entry.get("doi")
    abstract = entry.get("abstract") or entry.get("notes_abstract")
    return {
        "id": entry.get("id"),
        "title": entry.get("title") or entry.get("primary_title"),
        # One line per AB line, as in the file: the corpus reader mends words broken across them.
        "abstract": "\n".join(abstract) if isinstance(abstract, list) else abstract,
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
