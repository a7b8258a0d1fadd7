"""kg query: run Cypher on a build's embedded store. The query's checks and reading are
kg.store.querying's; the ``--param NAME=VALUE`` strings, read here, are the command line's."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Annotated, Any

import typer

from kg.cli.app import app
from kg.cli.common import DbOption, Format, build_from, render
from kg.errors import KgError
from kg.store import QueryResult, Store
from kg.store.querying import (final_limit, is_ready_query, query_params, read_query, statement_count, used_params,
                               writes_files)


@app.command("query")
def query_command(
    query: Annotated[str, typer.Argument(metavar="QUERY", help="A Cypher statement, the path of a .cypher file, or the name of a ready query in queries/ (top_methods, top_tasks, ...).", show_default=False)],
    db: DbOption = None,
    fmt: Annotated[Format, typer.Option("--format", "-f", help="Output format: table (cells cut at 60 characters), or json and csv (whole values).")] = Format.table,
    param: Annotated[list[str] | None, typer.Option("--param", "-p", metavar="NAME=VALUE", help="Query parameter NAME=VALUE (repeatable). VALUE is read as JSON when it parses (5, [1, 2]), else as text; -p id='\"42\"' forces text.",
                                                    show_default=False)] = None,
    timeout: Annotated[float, typer.Option("--timeout", min=0, max=86400, metavar="SECONDS", help="Stop the query after this many seconds (0: never).")] = 60,
) -> None:
    """Run a Cypher query on the embedded store (no server needed).

    \b
    Examples:
      kg query queries/top_methods.cypher
      kg query top_tasks                       # a ready query by name, from any folder
      kg query 'MATCH (p:Paper)-[:USES]->(m:Method) RETURN m.name AS method, count(p) AS papers ORDER BY papers DESC LIMIT 10'
      kg query queries/papers_sharing_concepts.cypher -p paper=p5ed9111e12 --format json
    """
    q = prepare(query, param or [])
    if q.unused:  # a warning: one -p list may serve several queries in a script
        uses = ", ".join(f"${n}" for n in sorted(q.used)) or "no parameters"
        typer.echo(f"kg: warning: --param {', '.join(q.unused)}: not used by the query (it uses {uses})", err=True)
    b = build_from(db)
    with Store(b.store_path) as store:
        result = run(store, q, timeout=timeout)
        hint = paper_hint(store, q.params["paper"]) if not result.rows and "paper" in q.used else None
    typer.echo(render(result.columns, result.rows, fmt))
    if hint:
        typer.echo(f"kg: note: {hint}", err=True)
    limit = final_limit(q.text, q.params)
    # The ready queries are "top 20"s and "first 50"s by design (README); a query of one's own may be
    # cut short unawares.
    if limit is not None and limit > 1 and len(result.rows) == limit and not is_ready_query(query):
        typer.echo(f"kg: note: {limit} rows, the query's LIMIT; there may be more", err=True)


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
