"""kg query: run Cypher on a build's embedded store."""
from __future__ import annotations

from typing import Annotated

import typer

from kg.cli.app import app
from kg.cli.common import DbOption, Format, build_from, render
from kg.errors import KgError
from kg.querying import parse_params, query_params, read_query
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
    params = parse_params(param or [])
    missing = {n: doc for n, doc in query_params(text).items() if n not in params}
    if missing:
        name, doc = next(iter(missing.items()))
        raise KgError(f"{query}: needs --param {name}=VALUE ({doc})")
    b = build_from(db)
    with Store(b.store_path) as store:
        result = store.query(text, params)
    typer.echo(render(result.columns, result.rows, fmt))
