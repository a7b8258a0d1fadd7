"""kg query: run Cypher on a build's embedded store."""
from __future__ import annotations

from typing import Annotated

import typer

from kg.cli.app import app
from kg.cli.common import DbOption, Format, build_from, render
from kg.errors import KgError
from kg.querying import (final_limit, parse_params, query_params, read_query, statement_count, text_params,
                         used_params, writes_files)
from kg.store import Store


@app.command("query")
def query_command(
    query: Annotated[str, typer.Argument(help="A Cypher statement, the path of a .cypher file, or the name of a ready query in queries/ (top_methods, top_tasks, ...).", show_default=False)],
    db: DbOption = None,
    fmt: Annotated[Format, typer.Option("--format", "-f", help="Output format: table (cells cut at 60 characters), or json and csv (whole values).")] = Format.table,
    param: Annotated[list[str] | None, typer.Option("--param", "-p", help="Query parameter NAME=VALUE (repeatable). VALUE is read as JSON when it parses (5, [1, 2]), else as text; -p id='\"42\"' forces text.",
                                                    show_default=False)] = None,
    timeout: Annotated[float, typer.Option("--timeout", min=0, help="Stop the query after this many seconds (0: never).")] = 60,
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
    as_text = text_params(param or [])
    read_as_json = sorted(n for n in params if n in used and params[n] != as_text[n])
    with Store(b.store_path) as store:
        try:
            result = store.query(text, params, timeout=timeout)
        except KgError as exc:
            if not read_as_json or "--timeout" in str(exc):
                raise
            # "-p id=42" compared with a text property fails to convert: the text was meant.
            try:
                result = store.query(text, as_text, timeout=timeout)
            except KgError:
                n = read_as_json[0]
                raise KgError(f"{exc} (--param {n} was read as {params[n]!r}; for text write "
                              f"-p {n}='\"{as_text[n]}\"')") from None
        if not result.rows and read_as_json:
            # "-p paper=2410.01234" read as a number finds no paper; the text may.
            try:
                retry = store.query(text, as_text, timeout=timeout)
            except KgError:  # the number was meant (LIMIT $k)
                retry = result
            result = retry if retry.rows else result
    typer.echo(render(result.columns, result.rows, fmt))
    limit = final_limit(text)
    if limit is not None and limit > 0 and len(result.rows) == limit:
        typer.echo(f"kg: note: {limit} rows is the query's LIMIT {limit}; there may be more", err=True)
