"""A record's fields under kg's names, whatever an export calls them.

Zotero's "Abstract Note", Scopus's "Source title", Web of Science's two-letter tags, OpenReview's
``content`` values and Semantic Scholar's author objects all come to ``abstract``, ``title``,
``authors``, ``year``, ``venue``, ``url``, ``keywords`` and ``id``. The JSON and CSV readers ask
these names too, to tell a record or a header from anything else.
"""
from __future__ import annotations

import re

# The names these fields go by in common exports (Zotero and Scopus CSV, Semantic Scholar,
# OpenReview, arXiv dumps), compared in lower case without spaces, dashes or underscores.
FIELD_NAMES = {  # the two-letter names last: Web of Science's tab-delimited columns
    "abstract": ("abstract", "abstractnote", "summary", "text", "ab"),
    "title": ("title", "articletitle", "papertitle", "ti"),
    "authors": ("authors", "author", "creators", "af", "au"),
    "year": ("year", "publicationyear", "pubyear", "date", "py"),
    "venue": ("venue", "publicationtitle", "sourcetitle", "journal", "booktitle", "conference", "so"),
    "url": ("url", "link"),
    "keywords": ("keywords", "authorkeywords", "manualtags", "tags", "de"),
    "id": ("id", "paperid", "key", "ut"),
}
ABSTRACT_COLUMNS = frozenset(FIELD_NAMES["abstract"])
_KNOWN_NAMES = frozenset(n for names in FIELD_NAMES.values() for n in names) | {"content"}
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)


def field_key(name: str) -> str:
    """A field or column name as compared: "Abstract Note" and "abstract_note" are "abstractnote"."""
    return re.sub(r"[\s_\-]+", "", name).lower()


def is_record(obj: dict) -> bool:
    """Whether a JSON object is a paper's record (any known field, or SciERC's ``sentences``)
    rather than an API response holding records."""
    return "sentences" in obj or any(field_key(str(k)) in _KNOWN_NAMES for k in obj)


def canonical_fields(rec: dict) -> dict:
    """The record under kg's field names: the first of each field's known names that is present.

    OpenReview's notes hold their fields under "content", each as {"value": ...}; Semantic
    Scholar's authors are objects with a "name"."""
    if isinstance(rec.get("content"), dict):  # the record's own fields first, then its content's
        rec = {**rec["content"], **{k: v for k, v in rec.items() if k != "content"}}
    by_key: dict[str, object] = {}
    for k, v in rec.items():
        by_key.setdefault(field_key(str(k)), v)
    out = {}
    for field_name, names in FIELD_NAMES.items():
        value = next((by_key[n] for n in names if by_key.get(n) not in (None, "")), None)
        if isinstance(value, dict) and "value" in value:
            value = value["value"]
        if field_name == "authors" and isinstance(value, list):
            value = [a.get("name") if isinstance(a, dict) else a for a in value]
        out[field_name] = value
    if "pt" in by_key and by_key.get("ut"):
        out["id"] = by_key["ut"]  # Web of Science: its "ID" column holds Keywords Plus, not an id
    doi = by_key.get("doi") or by_key.get("di")  # Scopus, Web of Science
    if out["url"] is None and isinstance(doi, str) and doi.strip():
        out["url"] = "https://doi.org/" + _DOI_PREFIX.sub("", doi.strip())
    return out
