"""kg query: run Cypher on a build's embedded store (the checks and retries: kg.store.querying)."""
from __future__ import annotations

from typing import Annotated

import typer

from kg.cli.app import app
from kg.cli.common import DbOption, Format, build_from, render
from kg.store.querying import final_limit, is_ready_query, paper_hint, prepare, run
from kg.store import Store


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
