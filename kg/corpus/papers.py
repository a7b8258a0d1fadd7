"""One record as a ``Paper``: its fields checked and cleaned, or a warning saying why it is skipped.

Every reader's records come here, whatever the format: the abstract is kept as given and
cleaned for extraction (words a PDF broke at line ends rejoined, LaTeX and HTML removed); an id,
a title, a year and lists of authors and keywords are taken where the record has them sensibly.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Callable

from kg.corpus import scierc
from kg.corpus.fields import canonical_fields
from kg.corpus.latex import clean_latex
from kg.corpus.source import Skip
from kg.corpus.titles import derive_title
from kg.records import ENTITY_TYPES, Paper

MAX_WORDS = 20_000  # longer abstracts are truncated (with a warning): nothing real is this long
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
# What databases write where an abstract is missing (Scopus: "[No abstract available]").
_NO_ABSTRACT = re.compile(r"[\[(]?\s*(?:no abstract(?: available)?|abstract not available|n/?a)\s*[\])]?\.?",
                          re.IGNORECASE)
_SURROGATE = re.compile("[\ud800-\udfff]")
_ENGLISH_HINTS = frozenset(
    "the of and to in a is that for we on with as by are this an be from our which it these".split()
)


def normalized(text: str) -> str:
    """``text`` as compared for duplicates and hashed for ids: NFKC, lower case, white space folded."""
    return " ".join(unicodedata.normalize("NFKC", text).lower().split())


def paper_id(text: str) -> str:
    """A stable short id for an abstract: a hash of its normalized text."""
    return "p" + hashlib.sha1(normalized(text).encode("utf-8")).hexdigest()[:10]


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


def to_paper(rec: object, where: str, warn: Callable[[str], None]) -> Paper | None:
    """The record found at ``where`` as a Paper, or None after ``warn``ing why it is skipped."""
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
    if scierc.is_scierc(rec):
        return scierc.to_paper(rec, where, warn)
    rec = canonical_fields(rec)
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
    # Chinese, Japanese and Korean run words together: judged by their characters, not by "words".
    # (Counted only where such a character can be: the loop over every character was half the
    # time of reading a corpus.)
    if text and max(text) >= "\u2e80":
        letters = [c for c in text if c.isalpha()]
        if letters and sum(c >= "\u2e80" for c in letters) > len(letters) / 3:
            return False
    words = re.findall(r"[^\W\d_]+", text.lower())
    if len(words) < 8:
        return True  # too short to judge
    return sum(w in _ENGLISH_HINTS for w in words) / len(words) >= 0.05
