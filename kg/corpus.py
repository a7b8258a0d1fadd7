"""Read a corpus of abstracts into ``Paper`` records.

Formats, chosen by content rather than trusted file extensions:

* plain text: an optional header line, then one abstract per blank-line-separated
  paragraph (the seed list's format);
* JSON Lines or a JSON array of objects with ``abstract`` (or ``text``) and optional
  ``id``, ``title``, ``authors``, ``year``, ``venue``, ``url``, ``keywords``, or such objects
  written over several lines one after another (as ``jq`` prints them);
* SciERC JSON Lines (objects with ``sentences``; ids are the ``doc_key``);
* CSV (or TSV) with an ``abstract`` column and the same optional columns, whatever the
  file is called;
* plain text with one abstract per line and no blank lines (every line 40 words or more, or
  most of them, when every line could end an abstract: ``_ends_abstract``);
* BibTeX and RIS, as reference managers export them (``kg.bibliographic``);
* PubMed's MEDLINE format (``.nbib``) and Web of Science's plain-text and tab-delimited
  exports (``kg.tagged``).

Field names are also read under the names common exports give them (Zotero's "Abstract Note",
Scopus's "Source title", OpenReview's ``content`` values, Semantic Scholar's author objects and
``{"data": [...]}`` responses): see ``_FIELD_NAMES``.

Problems with the whole file raise ``KgError`` naming the file (and line);
problems with one record become warnings and the record is skipped, so a
report of ``read + skipped`` always adds up to the records in the file.
"""
from __future__ import annotations

import csv
import dataclasses
import hashlib
import io
import itertools
import json
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from kg.bibliographic import Skip, bibtex_records, looks_like_bibtex, looks_like_ris, ris_records
from kg.errors import KgError
from kg.jsonlines import json_lines, lines as file_lines, why as json_error
from kg.latex import clean_latex
from kg.records import ENTITY_TYPES, Paper
from kg.scierc import parse_scierc
from kg.tagged import looks_like_medline, looks_like_wos, medline_records, wos_records
from kg.textfile import decode
from kg.titles import clip, derive_title

MAX_WORDS = 20_000  # longer abstracts are truncated (with a warning): nothing real is this long
_HEADER_MAX_WORDS = 20
# A word broken at a line end: "archi- tecture" (the hyphen last on its line, the rest first on the next).
_BROKEN_WORD = re.compile(r"(\w+)-[ \t]*\r?\n[ \t]*(\w+)")
# Halves of compounds a line break leaves hyphenated ("self-" / "supervised", "model-" / "based").
_HYPHEN_PREFIXES = frozenset("""self non multi semi cross state well co pre post sub inter intra anti
    fine few zero one two three high low long short large small real end open closed top task
    model rule graph text image human domain label time sample""".split())
_HYPHEN_SUFFIXES = frozenset("""based aware driven free specific level scale wise like related dependent
    independent agnostic efficient oriented sensitive invariant guided supervised trained tuned tuning
    art shot step order term time world domain language modal""".split())
_SUSPENDED = frozenset("and or to nor versus vs".split())  # "pre- and post-training"
_LONG_ABSTRACT_WORDS = 1_000  # more: worth a warning (abstracts run to 300-600 words), still read
_MIN_WORDS = 5  # fewer: worth a warning (a title, a URL, a stray line), still read
_LIST_MARKER = re.compile(r"^(?:\[\d+\]|\(\d+\)|\d+[.)])\s+")  # "[1] ", "(2) ", "3. " before an abstract
# '[{' or '{"key":' open JSON records; '[[Draft notes]]', '["Under review"] We ...' are prose.
_JSON_OPENING = re.compile(r'\[\s*\{|\{\s*"[^"\n]*"\s*:')
_WHITESPACE = re.compile(r"\s*")
_SENTENCE_OR_LINK_END = re.compile(r"(?:[.?!…]|\.\.\.)[\"'”’»)\]]*$|\b(?:https?://|www\.)\S+$|\b[\w-]+\.[a-z]{2,}/\S*$")
_LINE_ABSTRACT_WORDS = 40  # every line at least this long: one abstract per line, not a wrapped paragraph
_SHORT_ABSTRACT_WORDS = 15  # ... or most lines, and at most a quarter shorter than this (a title is)
# The names these fields go by in common exports (Zotero and Scopus CSV, Semantic Scholar,
# OpenReview, arXiv dumps), compared in lower case without spaces, dashes or underscores.
_FIELD_NAMES = {  # the two-letter names last: Web of Science's tab-delimited columns
    "abstract": ("abstract", "abstractnote", "summary", "text", "ab"),
    "title": ("title", "articletitle", "papertitle", "ti"),
    "authors": ("authors", "author", "creators", "af", "au"),
    "year": ("year", "publicationyear", "pubyear", "date", "py"),
    "venue": ("venue", "publicationtitle", "sourcetitle", "journal", "booktitle", "conference", "so"),
    "url": ("url", "link"),
    "keywords": ("keywords", "authorkeywords", "manualtags", "tags", "de"),
    "id": ("id", "paperid", "key", "ut"),
}
_ABSTRACT_COLUMNS = frozenset(_FIELD_NAMES["abstract"])
# What databases write where an abstract is missing (Scopus: "[No abstract available]").
_NO_ABSTRACT = re.compile(r"[\[(]?\s*(?:no abstract(?: available)?|abstract not available|n/?a)\s*[\])]?\.?",
                          re.IGNORECASE)
_SURROGATE = re.compile("[\ud800-\udfff]")
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)
_KNOWN_NAMES = frozenset(n for names in _FIELD_NAMES.values() for n in names) | {"content"}
_ENGLISH_HINTS = frozenset(
    "the of and to in a is that for we on with as by are this an be from our which it these".split()
)


@dataclass
class Corpus:
    """The papers of one input file, and what was said about it while reading."""

    name: str
    path: Path
    papers: list[Paper] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # "file:line: message"
    skipped: int = 0  # records not turned into papers (each has a warning)
    merged: int = 0  # duplicate abstracts merged into an earlier paper


def read_corpus(path: str | Path) -> Corpus:
    """Read ``path`` into a Corpus; raises KgError when nothing usable is in it."""
    path = Path(path)
    if not path.exists():
        raise KgError(f"{path}: no such file")
    if path.is_dir():
        raise KgError(f"{path}: is a directory, expected a corpus file (.txt, .jsonl, .json, .csv, .bib, .ris or .nbib)")
    raw = decode(path, path.read_bytes())
    text = raw
    if text.count("\r") > 2 * text.count("\n"):  # classic Mac line ends (perhaps with a last LF), any format
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise KgError(f"{path}: file is empty")

    corpus = Corpus(name=_corpus_name(path), path=path)
    records = _records(path, text, raw)
    seen: dict[str, str] = {}  # normalized abstract -> paper id
    ids: set[str] = set()
    for line, rec in records:
        # A line number, or "item N" for the items of a JSON array (which have no lines of their own)
        where = f"{path}:{line}" if isinstance(line, int) else f"{path}, {line}"
        paper = _paper(rec, where, corpus)
        if paper is None:
            corpus.skipped += 1
            continue
        key = _normalized(paper.text)
        if key in seen:
            corpus.warnings.append(f"{where}: duplicate of paper {seen[key]}; merged")
            corpus.merged += 1
            continue
        if paper.id in ids:
            # Another abstract under an id already taken (two BibTeX entries with one key): kept.
            new_id = next(f"{paper.id}-{n}" for n in itertools.count(2) if f"{paper.id}-{n}" not in ids)
            corpus.warnings.append(f"{where}: id {paper.id!r} used twice; this paper kept as {new_id!r}")
            paper = dataclasses.replace(paper, id=new_id)
        seen[key] = paper.id
        ids.add(paper.id)
        corpus.papers.append(paper)
    if not corpus.papers:
        last = corpus.warnings[-1].removeprefix(str(path)).removesuffix("; skipped") if corpus.warnings else ""
        if corpus.skipped > 1:
            where, _, what = last.partition(": ")
            place = f"line {where[1:]}" if where.startswith(":") else where.removeprefix(", ")
            why = f" ({corpus.skipped} records skipped; the last, {place}: {what})"
        else:
            why = f" ({last.partition(': ')[2]})" if last else ""
        raise KgError(f"{path}: no abstracts found{why}")
    return corpus


def _json_kind(value) -> str:
    """How a JSON reader would name a value's kind: null, a number, a list, ..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "text"


def _corpus_name(path: Path) -> str:
    name = re.sub(r"[^\w.-]+", "_", path.stem).strip("._")
    return name or "corpus"


def _normalized(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).lower().split())


def paper_id(text: str) -> str:
    """A stable short id for an abstract: a hash of its normalized text."""
    return "p" + hashlib.sha1(_normalized(text).encode("utf-8")).hexdigest()[:10]


# --- records ---------------------------------------------------------------------------------

def _records(path: Path, text: str, raw: str) -> Iterator[tuple[int | str, dict]]:
    """(line number or "item N", record) for each record, by the file's content.

    ``text`` has classic Mac line ends made LF for the line-based readers; the CSV reader takes
    the file as it is (``raw``): it ends rows at CR, LF or CRLF itself, and a quoted cell's line
    breaks are the cell's."""
    stripped = text.lstrip()
    suffix = path.suffix.lower()
    json_file = suffix in (".json", ".jsonl", ".ndjson")
    if suffix in (".csv", ".tsv"):
        # Excel writes ";" in many locales, and a tab-separated file is often named .csv.
        first = stripped.split("\n", 1)[0]
        return _csv_records(path, raw, _table_header(first, strict=False) or ("\t" if suffix == ".tsv" else ","))
    # "[1] A numbered list" or "[ICLR 2025] abstracts" in a text file is text, not broken JSON;
    # "[{" opens JSON whatever the file is called.
    if stripped.startswith("["):
        try:
            return _json_array_records(path, json.loads(text))
        except json.JSONDecodeError as exc:
            if json_file or _JSON_OPENING.match(stripped):
                raise KgError(f"{path}:{exc.lineno}: malformed JSON ({json_error(exc)})") from None
    if stripped.startswith("{"):
        try:
            whole = json.loads(text)
        except ValueError:
            whole = None  # JSON Lines (several objects), or broken
        if isinstance(whole, dict):
            return _json_object_records(path, whole)
        # JSON Lines under any name, even when one of its first lines is broken (that line is reported).
        if any(_is_object(line) for line in stripped.split("\n", 5)[:5]):
            return json_lines(path, text)
        # Objects written over several lines one after another, as jq prints them.
        if json_file or _JSON_OPENING.match(stripped):
            return _json_sequence_records(path, text)
    if json_file:  # "null", a bare string: JSON, but not records
        raise KgError(f"{path}: expected a JSON array of objects or one JSON object per line")
    # A reference manager's file may open with a header of its own: its name decides.
    if suffix == ".bib" or looks_like_bibtex(stripped):
        return bibtex_records(path, text)
    if suffix == ".ris" or looks_like_ris(stripped):
        return ris_records(path, text)
    if suffix == ".nbib" or looks_like_medline(stripped):
        return medline_records(text)
    if looks_like_wos(stripped):
        return wos_records(text)
    delimiter = _table_header(stripped.split("\n", 1)[0])
    if delimiter and _rows_fit_header(stripped, delimiter):  # a CSV or TSV saved under another name
        return _csv_records(path, raw, delimiter)
    return _text_records(text)


def _json_object_records(path: Path, data: dict) -> Iterator[tuple[int, dict]]:
    """One JSON object: a record itself, or an API response holding one list of records
    ({"data": [...]} from Semantic Scholar, {"notes": [...]} from OpenReview)."""
    if "sentences" in data or any(_field_key(str(k)) in _KNOWN_NAMES for k in data):
        return iter([(1, data)])
    lists = {k: v for k, v in data.items() if isinstance(v, list) and all(isinstance(x, dict) for x in v)}
    if len(lists) == 1:
        return _json_array_records(path, next(iter(lists.values())))
    found = f"lists {', '.join(map(repr, lists))}" if lists else f"keys {', '.join(map(repr, list(data)[:8]))}"
    raise KgError(f"{path}: a JSON object that is neither a record (no 'abstract') nor a response holding "
                  f"one list of records (found {found})")


def _json_sequence_records(path: Path, text: str) -> Iterator[tuple[int, object]]:
    """(line, value) for JSON values written one after another, each over any number of lines."""
    decoder, found = json.JSONDecoder(), []
    at, line, counted = 0, 1, 0  # lines are counted as the reading moves on, not from the start each time
    while (gap := _WHITESPACE.match(text, at)) and gap.end() < len(text):
        at = gap.end()
        line += text.count("\n", counted, at)
        counted = at
        try:
            value, at = decoder.raw_decode(text, at)
        except json.JSONDecodeError as exc:
            raise KgError(f"{path}:{exc.lineno}: malformed JSON ({json_error(exc)})") from None
        found.append((line, value))
    return iter(found)


def _is_object(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except ValueError:
        return False


def _table_header(line: str, strict: bool = True) -> str | None:
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
        if len(raw) > 1 and looks_like_names and _ABSTRACT_COLUMNS & {_field_key(c) for c in raw}:
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


def _text_records(text: str) -> Iterator[tuple[int, dict | Skip]]:
    paragraphs: list[tuple[int, list[str]]] = []
    current: list[str] = []
    start = 1
    for i, line in enumerate(file_lines(text), 1):
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
        if len(lines) > 1 and _one_per_line(lines):
            for i, line in enumerate(lines):
                yield start + i, {"abstract": _LIST_MARKER.sub("", line, count=1)}
        else:
            # The line breaks stay in the abstract (ids fold white space): the cleaner reads them.
            yield start, {"abstract": _LIST_MARKER.sub("", "\n".join(lines), count=1)}


def rejoin_broken_words(text: str) -> str:
    """Words broken at a line end, as text copied from a PDF has them, whole again:
    "archi-\\ntecture" -> "architecture". Only at a line break: a hyphen typed before a space
    ("encoder- only") is the author's. The hyphen stays where it is the word's own: after a
    single letter ("T-cell"), in a compound ("state-of-the-art", "end-to-end"), after a listed
    first part ("self-supervised") or before a listed second one ("data-driven"), or where the
    text writes the word with it elsewhere; a suspended one stays apart ("pre- and post-training").
    Without a lexicon "in-context" broken at its hyphen reads "incontext": whether the second part
    is a word says little ("under-standing", "trans-former")."""
    if "\n" not in text:
        return text
    hyphenated = set(re.findall(r"[a-z]+-[a-z]+", text.lower()))

    def join(m: re.Match) -> str:
        first, rest = m.group(1), m.group(2)
        after = m.string[m.end():m.end() + 1]
        if rest.lower() in _SUSPENDED and after != "-":
            return f"{first}- {rest}"
        keep = (not first.isalpha() or not rest.isalpha() or not rest.islower() or len(first) == 1
                or m.string[max(0, m.start() - 1):m.start()] == "-" or after == "-"
                or first.lower() in _HYPHEN_PREFIXES or rest.lower() in _HYPHEN_SUFFIXES
                or f"{first}-{rest}".lower() in hyphenated)
        return f"{first}{'-' if keep else ''}{rest}"

    return _BROKEN_WORD.sub(join, text)


def _one_per_line(lines: list[str]) -> bool:
    """One abstract per line, no blank lines between? A wrapped paragraph has short lines and
    breaks inside sentences; a list of abstracts has long lines, each ending a sentence."""
    lengths = sorted(len(line.split()) for line in lines)
    if lengths[0] >= _LINE_ABSTRACT_WORDS:
        return True
    # A short abstract among long ones must not merge the whole list into one paper; a title or a
    # "Code: URL" line above an abstract is no abstract of its own.
    short = sum(n < _SHORT_ABSTRACT_WORDS for n in lengths)
    return (short * 4 <= len(lengths) and lengths[len(lengths) // 2] >= _LINE_ABSTRACT_WORDS
            and all(_ends_abstract(line) for line in lines))


def _ends_abstract(line: str) -> bool:
    """Could an abstract end here? At a sentence's end or a link ("Code: github.com/x/y"); a line
    of 40 words or more anywhere but after a colon, comma, semicolon or dash, where a paragraph
    ("... as follows:") goes on."""
    if _SENTENCE_OR_LINK_END.search(line):
        return True
    return len(line.split()) >= _LINE_ABSTRACT_WORDS and not line.rstrip().endswith((":", ",", ";", "-", "–", "—"))


def _json_array_records(path: Path, data: object) -> Iterator[tuple[str, object]]:
    if not isinstance(data, list):
        raise KgError(f"{path}: expected a JSON array of objects")
    # The array's items have no line numbers of their own: they are named by their position.
    return ((f"item {i}", rec) for i, rec in enumerate(data, 1))


def _csv_records(path: Path, text: str, delimiter: str = ",") -> Iterator[tuple[int, dict]]:
    csv.field_size_limit(2**31 - 1)  # long abstracts are data, not an attack on the reader
    # newline="" as the csv module asks: quoted cells keep their line breaks, and only
    # CR, LF and CRLF end a row (not U+2028 and the like, as splitlines would).
    # strict: an unclosed quote is an error, not a cell running to the end of the file.
    reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    columns = [c.strip().lower() for c in (reader.fieldnames or [])]
    if not _ABSTRACT_COLUMNS & {_field_key(c) for c in columns}:
        raise KgError(f"{path}:1: CSV has no 'abstract' column (nor 'Abstract Note', 'summary' or 'text'; "
                      f"columns: {', '.join(columns) or 'none'})")
    try:
        start = reader.line_num + 1
        for row in reader:
            yield start, {(k or "").strip().lower(): v for k, v in row.items()}
            start = reader.line_num + 1  # a quoted cell can span lines: the next row starts after them
    except csv.Error as exc:
        raise KgError(f"{path}:{reader.reader.line_num}: malformed CSV ({exc})") from None


# --- papers ----------------------------------------------------------------------------------

def _paper(rec: object, where: str, corpus: Corpus) -> Paper | None:
    warn = corpus.warnings.append
    if isinstance(rec, Skip):
        warn(f"{where}: {rec.why}; skipped")
        return None
    if not isinstance(rec, dict):
        warn(f"{where}: expected an object with an 'abstract', got {_json_kind(rec)}; skipped")
        return None
    if _has_surrogates(rec):
        # JSON can spell half of a UTF-16 pair ("\\ud83d"), which no file or store can hold.
        warn(f"{where}: broken characters (lone UTF-16 surrogates) replaced by \ufffd")
        rec = _without_surrogates(rec)
    if "sentences" in rec and "abstract" not in rec:
        return _scierc_paper(rec, where, warn)
    rec = _canonical_fields(rec)
    abstract = rec.get("abstract")
    if not isinstance(abstract, str):
        what = "no abstract" if abstract is None else f"'abstract' is {_json_kind(abstract)}, not text"
        warn(f"{where}: {what}; skipped")
        return None
    abstract = abstract.strip()
    if not abstract or _NO_ABSTRACT.fullmatch(abstract):
        warn(f"{where}: empty abstract; skipped")
        return None
    words = abstract.split()
    if len(words) > MAX_WORDS:
        warn(f"{where}: abstract has {len(words):,} words; truncated to the first {MAX_WORDS:,}")
        abstract = " ".join(words[:MAX_WORDS])
    text = clean_latex(rejoin_broken_words(abstract))
    if not text:
        warn(f"{where}: abstract is only markup (no text left after removing LaTeX/HTML); skipped")
        return None
    n_words = len(text.split())
    if not _looks_english(text):
        warn(f"{where}: abstract does not look like English; extraction may find little")
    elif n_words < _MIN_WORDS:
        warn(f"{where}: abstract has only {n_words} word{'s' if n_words > 1 else ''}; is it an abstract?")
    elif n_words > _LONG_ABSTRACT_WORDS and len(words) <= MAX_WORDS:  # (a truncated one was said)
        warn(f"{where}: abstract has {n_words:,} words; several abstracts run together? "
             "(one abstract per paragraph, or per line)")
    given_id = _text_field(rec.get("id"))
    if given_id and given_id.partition(":")[0] in ENTITY_TYPES:
        # Papers and entities share one graph; entity ids are "Type:name".
        warn(f"{where}: id {given_id!r} has the form of a kg entity id (Type:name); skipped")
        return None
    title = _one_line(_text_field(rec.get("title"))) or derive_title(text)
    year = _year(rec.get("year"))
    if year is None and rec.get("year") not in (None, ""):
        warn(f"{where}: year {rec.get('year')!r} is not a four-digit year; left out")
    return Paper(
        id=given_id or paper_id(abstract),
        title=title,
        abstract=abstract,
        text=text,
        source=where,
        authors=_authors(rec.get("authors")),
        year=year,
        venue=_text_field(rec.get("venue")),
        url=_text_field(rec.get("url")),
        keywords=_list_field(rec.get("keywords")),
    )


def _has_surrogates(value: object) -> bool:
    if isinstance(value, str):
        return bool(_SURROGATE.search(value))
    if isinstance(value, dict):
        return any(_has_surrogates(k) or _has_surrogates(v) for k, v in value.items())
    return isinstance(value, list) and any(_has_surrogates(v) for v in value)


def _without_surrogates(value):
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {_without_surrogates(k): _without_surrogates(v) for k, v in value.items()}
    return [_without_surrogates(v) for v in value] if isinstance(value, list) else value


def _field_key(name: str) -> str:
    return re.sub(r"[\s_\-]+", "", name).lower()


def _canonical_fields(rec: dict) -> dict:
    """The record under kg's field names: the first of each field's known names that is present.

    OpenReview's notes hold their fields under "content", each as {"value": ...}; Semantic
    Scholar's authors are objects with a "name"."""
    if isinstance(rec.get("content"), dict):  # the record's own fields first, then its content's
        rec = {**rec["content"], **{k: v for k, v in rec.items() if k != "content"}}
    by_key: dict[str, object] = {}
    for k, v in rec.items():
        by_key.setdefault(_field_key(str(k)), v)
    out = {}
    for field_name, names in _FIELD_NAMES.items():
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


def _scierc_paper(rec: dict, where: str, warn) -> Paper | None:
    try:
        doc = parse_scierc(rec, where)
    except (KeyError, TypeError, ValueError) as exc:
        warn(f"{where}: malformed SciERC record ({exc}); skipped")
        return None
    if not doc.text.strip():
        warn(f"{where}: empty abstract; skipped")
        return None
    return Paper(
        id=doc.doc_key, title=derive_title(doc.text), abstract=doc.text, text=doc.text, source=where,
        venue=_scierc_venue(doc.doc_key),
    )


def _scierc_venue(doc_key: str) -> str:
    prefix = doc_key.split("_", 1)[0]
    return prefix if prefix.isalpha() and prefix.isupper() else "ACL"


def _text_field(v: object) -> str | None:
    if v is None or isinstance(v, (dict, list)):
        return None
    s = str(v).strip()
    return s or None


def _one_line(s: str | None) -> str | None:
    # Titles are shown in one-line tables and messages: fold line breaks and runs of space.
    return " ".join(s.split()) or None if s else None


def _list_field(v: object) -> tuple[str, ...]:
    if v is None:
        return ()
    if isinstance(v, str):
        parts = re.split(r"\s*[;|]\s*" if (";" in v or "|" in v) else r"\s*,\s*", v)
    elif isinstance(v, list):
        parts = [str(x) for x in v if isinstance(x, (str, int, float))]
    else:
        return ()
    return tuple(p.strip() for p in parts if p.strip())


def _authors(v: object) -> tuple[str, ...]:
    # "Doe, Jane" alone is one author written surname first (Zotero's CSV), not two.
    if isinstance(v, str) and ";" not in v and "|" not in v and re.fullmatch(r"\s*[^,\s]+,\s*[^,\s]+\s*", v):
        return (" ".join(v.split()),)
    return _list_field(v)


def _year(v: object) -> int | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v if 1000 <= v <= 2999 else None
    # "2024", "2024.0" (a spreadsheet's number), "2024-05" or "2024-05-17" (a date)
    m = re.fullmatch(r"\s*(\d{4})(?:\.0|-\d{2}(?:-\d{2})?)?\s*", str(v)) if v is not None else None
    if m:
        return int(m.group(1)) if 1000 <= int(m.group(1)) <= 2999 else None  # not "0000", "9999"
    # A date as people write it ("5/17/2024", "May 2024"): its one year, if it has one.
    years = re.findall(r"(?<!\d)(1[89]\d\d|20\d\d)(?!\d)", str(v)) if isinstance(v, str) else []
    return int(years[0]) if len(years) == 1 else None


def _looks_english(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    # Chinese, Japanese and Korean run words together: judged by their characters, not by "words".
    if letters and sum(c >= "\u2e80" for c in letters) > len(letters) / 3:
        return False
    words = re.findall(r"[^\W\d_]+", text.lower())
    if len(words) < 8:
        return True  # too short to judge
    return sum(w in _ENGLISH_HINTS for w in words) / len(words) >= 0.05
