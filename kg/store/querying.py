"""Cypher text and parameters as the user gives them: inline, from a file, NAME=VALUE."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg.errors import KgError

if TYPE_CHECKING:
    from kg.store import QueryResult, Store


# The ready queries, shipped with the package (kg/queries/; the repository's queries/ folder is a
# copy for users to read and edit, which tests/test_ready_queries.py holds equal):
# `kg query top_methods` finds them from any folder.
READY_QUERIES = Path(__file__).resolve().parent.parent / "queries"


def ready_queries() -> list[str]:
    """The ready queries' names (``top_methods``, ...)."""
    return sorted(p.stem for p in READY_QUERIES.glob("*.cypher"))


def _query_path(arg: str) -> Path | None:
    """The file ``arg`` names, or None when ``arg`` is Cypher text."""
    if "\n" in arg or len(arg) >= 4096:
        return None
    path = Path(arg)
    if path.is_file():
        return path
    if len(arg.split()) == 1 or arg.endswith(".cypher"):
        # One word is never a Cypher statement: a file, or a ready query by name
        # ("top_methods", "queries/top_methods.cypher" run from another folder).
        ready = READY_QUERIES / (path.stem + ".cypher")
        if ready.is_file() and path.suffix in ("", ".cypher") and str(path.parent) in (".", "queries"):
            return ready
        if path.is_dir():
            raise KgError(f"{arg}: is a directory, expected a .cypher file or a Cypher statement")
        names = ", ".join(ready_queries())
        raise KgError(f"{arg}: no such query file" + (f" (ready queries: {names})" if names else ""))
    return None


def is_ready_query(arg: str) -> bool:
    """Whether ``arg`` names one of the ready queries (whose limits the README states)."""
    path = _query_path(arg)
    if path is None:
        return False
    ready = READY_QUERIES / path.name
    # The packaged file, or a copy of it (queries/top_methods.cypher in the repository).
    return path.resolve().parent == READY_QUERIES or (ready.is_file() and ready.read_bytes() == path.read_bytes())


def read_query(arg: str) -> str:
    """The Cypher text of ``arg``: the file or ready query it names, else ``arg`` itself."""
    path = _query_path(arg)
    if path is not None:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise KgError(f"{arg}: cannot read query file ({exc})") from None
    else:
        text = arg
    text = text.strip().rstrip(";").strip()
    if not text:
        raise KgError("empty query")
    return text


def query_params(text: str) -> dict[str, str]:
    """Parameters a query file documents in lines like ``// param paper: id of the paper``."""
    out = {}
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("// param "):
            name, _, doc = line[len("// param "):].partition(":")
            out[name.strip()] = doc.strip()
    return out


def parse_params(items: list[str]) -> dict[str, Any]:
    """NAME=VALUE pairs; VALUE is read as JSON when it parses (numbers, lists), else as text.

    ``text_params`` gives the same pairs as text: kg query falls back to it when the JSON
    reading finds nothing, since an id such as 2410.01234 also parses as a number."""
    params: dict[str, Any] = {}
    for name, value in text_params(items).items():
        try:
            params[name] = json.loads(value)
        except ValueError:
            params[name] = value
    return params


def text_params(items: list[str]) -> dict[str, str]:
    params: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise KgError(f"--param {item!r}: expected NAME=VALUE")
        if name.strip() in params:
            raise KgError(f"--param {name.strip()} given twice; a query parameter has one value (a list: NAME='[1, 2]')")
        params[name.strip()] = value
    return params


def _code(text: str) -> str:
    """``text`` with its string literals, quoted names and comments blanked out."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c in "'\"`":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" and c != "`" else 1
            out.append(" " * (min(j, n - 1) - i + 1))
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(" " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def statement_count(text: str) -> int:
    """How many statements ``text`` holds (``;`` outside strings and comments separates them)."""
    return sum(1 for part in _code(text).split(";") if part.strip())


def used_params(text: str) -> set[str]:
    """The ``$names`` a query uses (not those inside its strings or comments)."""
    return set(re.findall(r"\$([A-Za-z_]\w*)", _code(text)))


def final_limit(text: str, params: dict[str, Any] | None = None) -> int | None:
    """The ``LIMIT n`` (or ``LIMIT $k``) that ends a query, if any: a result of exactly n rows may
    have been cut short. None for a UNION, whose last LIMIT bounds only its last part."""
    code = _code(text)
    m = re.search(r"\bLIMIT\s+(\d+|\$([A-Za-z_]\w*))\s*;?\s*$", code, re.IGNORECASE)
    if not m or re.search(r"\bUNION\b", code, re.IGNORECASE):
        return None
    if m.group(2):
        value = (params or {}).get(m.group(2))
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    return int(m.group(1))


def writes_files(text: str) -> bool:
    """Whether a statement writes a file (``COPY (...) TO 'file'``, ``EXPORT DATABASE``)."""
    return bool(re.match(r"\s*(?:(?:PROFILE|EXPLAIN)\s+)?(?:COPY\s*\(|EXPORT\s+DATABASE\b)", _code(text),
                         re.IGNORECASE))


# --- running a query as the user gave it ---------------------------------------------------------

@dataclass(frozen=True)
class Query:
    """A query checked before it runs: one statement that writes no file, every parameter it uses
    given. ``params`` holds the values read as JSON where they parse (``-p k=5``); ``as_text``
    the same values as typed, tried when the JSON reading cannot be what was meant."""

    text: str
    params: dict[str, Any]
    as_text: dict[str, Any]
    unused: tuple[str, ...] = ()  # parameters given that the query does not use
    used: frozenset[str] = frozenset()


def prepare(query: str, param_items: list[str]) -> Query:
    """``query`` (Cypher, a .cypher file or a ready query's name) with ``NAME=VALUE`` parameters,
    checked: a KgError says what is wrong before anything runs."""
    text = read_query(query)
    if statement_count(text) > 1:
        raise KgError(f"{query}: holds {statement_count(text)} statements; kg query runs one at a time")
    if writes_files(text):
        raise KgError(f"{query}: kg query only reads; to save the rows, add --format csv (or json) > FILE")
    params = parse_params(param_items)
    used, documented = used_params(text), query_params(text)
    missing = sorted(used - set(params))
    unused = sorted(set(params) - used)
    if missing:
        doc = f" ({documented[missing[0]]})" if missing[0] in documented else ""
        also = f"; --param {unused[0]} is not one it uses" if unused else ""
        raise KgError(f"{query}: needs --param {missing[0]}=VALUE{doc}{also}")
    # The same values as text: "-p id=42" may mean the id "42", "-p ids=[1, 2]" the ids "1" and "2".
    as_text = {n: _text_of(params[n], v) for n, v in text_params(param_items).items()}
    return Query(text, params, as_text, tuple(unused), frozenset(used))


def run(store: Store, q: Query, timeout: float | None = None) -> QueryResult:
    """The rows of ``q``: with its parameters read as JSON, else, when that fails to convert or
    finds nothing, as the text typed ("-p paper=2410.01234" is an id, not a number)."""
    read_as_json = sorted(n for n in q.params if n in q.used and q.params[n] != q.as_text[n])
    try:
        result = store.query(q.text, q.params, timeout=timeout)
    except KgError as exc:
        if not read_as_json or not _CAST_ERROR.search(str(exc)):
            raise
        # "-p id=42" compared with a text property fails to convert: the text was meant.
        try:
            return store.query(q.text, q.as_text, timeout=timeout)
        except KgError:
            n = read_as_json[0]
            raise KgError(f"{exc} (--param {n} was read as {json.dumps(q.params[n])}, "
                          f"then as {json.dumps(q.as_text[n])}: neither fits)") from None
    if not result.rows and read_as_json:
        try:
            retry = store.query(q.text, q.as_text, timeout=timeout)
        except KgError:  # the number was meant (LIMIT $k)
            return result
        return retry if retry.rows else result
    return result


def paper_hint(store: Store, value: Any) -> str | None:
    """Why a query on ``$paper`` (the ready queries' name for a paper's id) may have found nothing:
    the value is no paper's id. Title words, which `kg related` and `kg view` accept, get the id to give."""
    from kg.corpus.titles import clip
    from kg.analysis.related import find_paper_in

    value = str(value)
    if store.query("MATCH (p:Paper {id: $id}) RETURN p.id", {"id": value}).rows:
        return None
    titles = dict(store.query("MATCH (p:Paper) RETURN p.id, p.title").rows)
    try:
        pid = find_paper_in(titles, value)
    except KgError:
        return f"no paper has the id {value!r}; $paper takes a paper's id (`kg related WORDS` finds it by title)"
    return f"no paper has the id {value!r}; $paper takes a paper's id: -p paper={pid} ({clip(titles[pid], 60)})"


# The engine's messages when a value cannot be converted to the type it is compared with.
_CAST_ERROR = re.compile(r"Conversion exception|Cast failed|not in \w+ range|implicit cast|Cannot compare", re.I)


def _text_of(value, raw: str):
    """A parameter as text: the text typed, or for a list its items as text ([1, 2] -> ["1", "2"])."""
    if isinstance(value, list):
        return [v if isinstance(v, str) else json.dumps(v) for v in value]
    return raw
