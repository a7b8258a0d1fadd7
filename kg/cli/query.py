"""kg query: run Cypher on a build's embedded store."""
from __future__ import annotations

import json
import re
from typing import Annotated

import typer

from kg.cli.app import app
from kg.cli.common import DbOption, Format, build_from, render
from kg.errors import KgError
from kg.querying import (final_limit, is_ready_query, parse_params, query_params, read_query, statement_count,
                         text_params, used_params, writes_files)
from kg.store import Store
from kg.corpus.titles import clip


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
    text = read_query(query)
    if statement_count(text) > 1:
        raise KgError(f"{query}: holds {statement_count(text)} statements; kg query runs one at a time")
    if writes_files(text):
        raise KgError(f"{query}: kg query only reads; to save the rows, add --format csv (or json) > FILE")
    params = parse_params(param or [])
    used, documented = used_params(text), query_params(text)
    missing = sorted(used - set(params))
    unused = sorted(set(params) - used)
    if missing:
        doc = f" ({documented[missing[0]]})" if missing[0] in documented else ""
        also = f"; --param {unused[0]} is not one it uses" if unused else ""
        raise KgError(f"{query}: needs --param {missing[0]}=VALUE{doc}{also}")
    if unused:  # a warning: one -p list may serve several queries in a script
        uses = ", ".join(f"${n}" for n in sorted(used)) or "no parameters"
        typer.echo(f"kg: warning: --param {', '.join(unused)}: not used by the query (it uses {uses})", err=True)
    b = build_from(db)
    # The same values as text: "-p id=42" may mean the id "42", "-p ids=[1, 2]" the ids "1" and "2".
    as_text = {n: _text_of(params[n], v) for n, v in text_params(param or []).items()}
    read_as_json = sorted(n for n in params if n in used and params[n] != as_text[n])
    with Store(b.store_path) as store:
        try:
            result = store.query(text, params, timeout=timeout)
        except KgError as exc:
            if not read_as_json or not _CAST_ERROR.search(str(exc)):
                raise
            # "-p id=42" compared with a text property fails to convert: the text was meant.
            try:
                result = store.query(text, as_text, timeout=timeout)
            except KgError:
                n = read_as_json[0]
                raise KgError(f"{exc} (--param {n} was read as {json.dumps(params[n])}, "
                              f"then as {json.dumps(as_text[n])}: neither fits)") from None
        if not result.rows and read_as_json:
            # "-p paper=2410.01234" read as a number finds no paper; the text may.
            try:
                retry = store.query(text, as_text, timeout=timeout)
            except KgError:  # the number was meant (LIMIT $k)
                retry = result
            result = retry if retry.rows else result
        hint = _paper_hint(store, params["paper"]) if not result.rows and "paper" in used else None
    typer.echo(render(result.columns, result.rows, fmt))
    if hint:
        typer.echo(f"kg: note: {hint}", err=True)
    limit = final_limit(text, params)
    # The ready queries are "top 20"s and "first 50"s by design (README); a query of one's own may be
    # cut short unawares.
    if limit is not None and limit > 1 and len(result.rows) == limit and not is_ready_query(query):
        typer.echo(f"kg: note: {limit} rows, the query's LIMIT; there may be more", err=True)


# The engine's messages when a value cannot be converted to the type it is compared with.
_CAST_ERROR = re.compile(r"Conversion exception|Cast failed|not in \w+ range|implicit cast|Cannot compare", re.I)


def _paper_hint(store: Store, value) -> str | None:
    """Why a query on ``$paper`` (the ready queries' name for a paper's id) may have found nothing:
    the value is no paper's id. Title words, which `kg related` and `kg view` accept, get the id to give."""
    from kg.related import find_paper_in

    value = str(value)
    if store.query("MATCH (p:Paper {id: $id}) RETURN p.id", {"id": value}).rows:
        return None
    titles = dict(store.query("MATCH (p:Paper) RETURN p.id, p.title").rows)
    try:
        pid = find_paper_in(titles, value)
    except KgError:
        return f"no paper has the id {value!r}; $paper takes a paper's id (`kg related WORDS` finds it by title)"
    return f"no paper has the id {value!r}; $paper takes a paper's id: -p paper={pid} ({clip(titles[pid], 60)})"


def _text_of(value, raw: str):
    """A parameter as text: the text typed, or for a list its items as text ([1, 2] -> ["1", "2"])."""
    if isinstance(value, list):
        return [v if isinstance(v, str) else json.dumps(v) for v in value]
    return raw
