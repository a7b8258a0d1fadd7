"""BibTeX, as reference managers (Zotero, Mendeley, JabRef, Google Scholar) export it.

Each entry becomes a record with kg's own field names (``abstract``, ``title``, ``authors``,
``year``, ``venue``, ``url``, ``keywords``, ``id``) and the line it starts on, for
``kg.corpus`` to read like any other record. An entry without an abstract stays a record
without one, so the corpus reader skips it with a warning that names its line; an entry the
parser could not read at all comes out as a ``Skip`` saying so, never silently lost.
"""
from __future__ import annotations

import logging
import re
import warnings
from collections import defaultdict, deque
from collections.abc import Iterator
from pathlib import Path

from kg.corpus.latex import accents_to_unicode, clean_latex
from kg.corpus.source import LineIndex, Located, Skip, Source
from kg.errors import KgError

SUFFIXES = (".bib",)

# An entry starts with "@type{" or "@type(" at the start of a line (bibtex itself is laxer,
# but every exporter writes it so).
_BIBTEX_ENTRY = re.compile(r"^[ \t]*@[ \t]*([A-Za-z]+)[ \t]*[{(][ \t]*([^,\s]*)", re.MULTILINE)
_NOT_ENTRIES = frozenset({"comment", "string", "preamble"})
# A field value that is a bare word: a @string macro (BibTeX allows letters, digits and a few symbols).
_BARE_VALUE = re.compile(r"=\s*([A-Za-z][\w:.+-]*)\s*(?=[,}#)])")
_CONCATENATED = re.compile(r"#\s*([A-Za-z][\w:.+-]*)")
_STRING_DEFINITION = re.compile(r'@\s*string\s*[{(]\s*([A-Za-z][\w:.+-]*)\s*=\s*(?:"([^"]*)"|\{([^{}]*)\})',
                                re.IGNORECASE)


def sniff(source: Source) -> bool:
    """Does the file open with an entry (after comments)? A ``.bib`` name decides on its own."""
    return source.suffix in SUFFIXES or bool(re.match(r"(?:%[^\n]*\n|\s)*@\s*[A-Za-z]+\s*[{(]", source.head))


def read(source: Source) -> Iterator[Located]:
    """(line, record or Skip) for each entry, in file order; the @string macros applied."""
    return _entries(source.path, source.text)


def _entries(path: Path, text: str) -> Iterator[Located]:
    with warnings.catch_warnings():
        # bibtexparser 1.x calls pyparsing by its old names; the warnings are for its authors.
        warnings.simplefilter("ignore", DeprecationWarning)
        import bibtexparser
        from bibtexparser.bibdatabase import UndefinedString
        from bibtexparser.bparser import BibTexParser

        parser = BibTexParser(common_strings=True, ignore_nonstandard_types=False, interpolate_strings=True)
        # A macro defined in another file ("booktitle = NeurIPS," with the @string in a strings
        # file of its own) reads as its name, not as a reason to reject the whole file.
        known = parser.bib_database.strings  # the months, and later the file's own @strings
        known.update({k: v for k, v in _bare_macros(text).items() if k not in known})
        # The file's @strings replace the values given above (the same ones, or names); not news.
        logger = logging.getLogger("bibtexparser")
        level = logger.level
        logger.setLevel(logging.ERROR)
        try:
            entries = bibtexparser.loads(text, parser).entries
        except UndefinedString as exc:  # a macro used in a way _bare_macros does not find
            raise KgError(f"{path}: BibTeX uses the @string macro {exc.args[0]!r}, defined nowhere in the file "
                          "(add its @string, or put the value in braces)") from None
        except Exception as exc:  # pyparsing's errors carry no common base worth naming
            raise KgError(f"{path}: malformed BibTeX ({exc})") from None
        finally:
            logger.setLevel(level)  # the caller's logging is the caller's
    line_of = LineIndex(text)
    starts = [(line_of(m.start()), m.group(2)) for m in _BIBTEX_ENTRY.finditer(text)
              if m.group(1).lower() not in _NOT_ENTRIES]
    if not entries and not starts:
        raise KgError(f"{path}: no BibTeX entries found")
    # Entries come out in file order; match each to its "@type{key" line, key by key.
    lines_by_key: dict[str, deque[int]] = defaultdict(deque)
    for line, key in starts:
        lines_by_key[key].append(line)
    found: list[tuple[int, dict | Skip]] = []
    for entry in entries:
        lines = lines_by_key.get(entry.get("ID", ""))
        found.append((lines.popleft() if lines else 1, _bibtex_record(entry)))
    for key, lines in lines_by_key.items():
        for line in lines:
            why = "BibTeX entry without a key" if not key else \
                f"BibTeX entry {key!r} could not be read (an unclosed brace or quote?)"
            found.append((line, Skip(why)))
    yield from sorted(found, key=lambda r: r[0])


def _bare_macros(text: str) -> dict[str, str]:
    """Macro names used as field values ("= NeurIPS," or "# ICML"), each read as itself.

    bibtexparser looks names up in lower case."""
    names = _BARE_VALUE.findall(text) + _CONCATENATED.findall(text)
    macros = {name.lower(): name for name in names}
    # A file's own simple @strings, also where they come after their use (`cat refs.bib strings.bib`).
    macros.update({name.lower(): quoted or braced for name, quoted, braced in _STRING_DEFINITION.findall(text)})
    return macros


def _bibtex_record(entry: dict) -> dict:
    authors, abstract = entry.get("author"), entry.get("abstract")
    return {
        "id": entry.get("ID") or None,
        "title": _plain(entry.get("title")),
        # The abstract stays raw but for its accents ("G\"odel" -> "Gödel"): the corpus reader cleans it.
        "abstract": accents_to_unicode(abstract) if abstract else abstract,
        "authors": [_plain(a) for a in split_bibtex_names(authors)] if authors else None,
        "year": entry.get("year"),
        "venue": _plain(entry.get("journal") or entry.get("booktitle")),
        "url": entry.get("url") or (f"https://doi.org/{entry['doi']}" if entry.get("doi") else None),
        "keywords": _plain(entry.get("keywords")),
    }


def split_bibtex_names(names: str) -> list[str]:
    """``author = {Doe, J. and {Barnes and Noble}}`` -> ["Doe, J.", "{Barnes and Noble}"]: split on
    "and" (any case) outside braces. "and others" is BibTeX's "et al.", not a name: dropped."""
    out, depth, start = [], 0, 0
    for m in re.finditer(r"[{}]|\s+and\s+", names, re.IGNORECASE):
        token = m.group(0)
        if token == "{":
            depth += 1
        elif token == "}":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(names[start:m.start()])
            start = m.end()
    out.append(names[start:])
    return [n.strip() for n in out if n.strip() and n.strip().lower() != "others"]


def _plain(value: str | None) -> str | None:
    # "{BERT}: Pre-training of {D}eep ..." -> "BERT: Pre-training of Deep ...". The cleaner reads the
    # accents itself: bibtexparser's latex_to_unicode would take the "\l" of "\lambda" for "ł".
    return clean_latex(value) if value else None
