"""kg query: run Cypher on a build's embedded store."""
from __future__ import annotations

from typing import Annotated

import typer

from kg.cli.app import app
from kg.cli.common import DbOption, Format, build_from, render
from kg.errors import KgError
from kg.querying import parse_params, query_params, read_query, statement_count, text_params, used_params
from kg.store import Store


@app.command("query")
def query_command(
    query: Annotated[str, typer.Argument(help="A Cypher statement, the path of a .cypher file, or the name of a ready query in queries/ (top_methods, top_tasks, ...).", show_default=False)],
    db: DbOption = None,
    fmt: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.table,
    param: Annotated[list[str] | None, typer.Option("--param", "-p", help="Query parameter NAME=VALUE (repeatable).",
                                                    show_default=False)] = None,
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
    with Store(b.store_path) as store:
        result = store.query(text, params)
        as_text = text_params(param or [])
        if not result.rows and any(params[n] != as_text[n] for n in params):
            # "-p paper=2410.01234" read as a number finds no paper; the text may.
            try:
                retry = store.query(text, as_text)
            except KgError:  # the number was meant (LIMIT $k)
                retry = result
            result = retry if retry.rows else result
    typer.echo(render(result.columns, result.rows, fmt))
