"""Cypher as a user gives it: inline, from a file, or a ready query by name; checked and read from a build's store.

`kg query`'s parsing of ``--param NAME=VALUE`` strings, and its retries with them, are kg.cli.query's."""
from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg.errors import KgError

if TYPE_CHECKING:
    from kg.store import QueryResult


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


# --- a query of a build, from the library ------------------------------------------------------

def check_reads(text: str, name: str = "query") -> None:
    """A KgError unless ``text`` is one statement that writes no file: a build's store is read, not changed."""
    if statement_count(text) > 1:
        raise KgError(f"{name}: holds {statement_count(text)} statements; give one at a time")
    if writes_files(text):
        raise KgError(f"{name}: writes a file; a build's store is only read (take the rows, and save them)")


def read_rows(store_path: Path, query: str, params: dict[str, Any] | None = None,
              timeout: float | None = None) -> QueryResult:
    """The rows of ``query`` (Cypher, a .cypher file or a ready query's name) on a build's store,
    opened read-only; every ``$name`` it uses must be in ``params``."""
    from kg.store import Store

    text = read_query(query)
    check_reads(text, query if _query_path(query) else "query")
    params = params or {}
    missing = sorted(used_params(text) - set(params))
    if missing:
        documented = query_params(text)
        doc = f" ({documented[missing[0]]})" if missing[0] in documented else ""
        raise KgError(f"{query if _query_path(query) else 'query'}: needs the parameter {missing[0]}{doc}")
    with Store(store_path) as store:
        return store.query(text, params, timeout=timeout)
