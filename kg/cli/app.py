"""The Typer application every command module registers itself on."""
from typing import Annotated

import typer

TOUR = """\
kg turns a list of paper abstracts into a typed knowledge graph
(papers -> methods, tasks, datasets, metrics, and what the abstracts state
between them) you can query with Cypher, browse as HTML, and mine for
related papers.

A five-minute tour:

\b
  kg build seeds/iclr2025_abstracts.txt      # extract, build, write exports/iclr2025_abstracts/
  kg query queries/top_methods.cypher         # Cypher on the embedded store, no server
  kg query 'MATCH (p:Paper)-[:USES]->(m:Method) RETURN m.name, count(p) AS n ORDER BY n DESC'
  kg query methods_for_task                   # what the abstracts say each method is used for
  kg related "Policy Mirror Descent"          # papers sharing concepts, with the reasons
  kg trends --type Method                     # methods rising and falling over the years
  kg view                                     # write and name the interactive HTML views
  kg add new_papers.jsonl                     # add papers to the build: only the new ones are extracted
  kg export neo4j --uri bolt://localhost:7687 --user neo4j --password secret

\b
Every command takes --help. Commands that read a build take --db BUILD_DIR
(default: the most recent build under exports/).
"""

app = typer.Typer(
    name="kg",
    help=TOUR,  # "\b" keeps click from rewrapping the example lines
    no_args_is_help=False,
    add_completion=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _print_version(wanted: bool) -> None:
    if wanted:
        from importlib.metadata import version

        typer.echo(f"kg {version('kg')}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def _root(ctx: typer.Context,
          _version: Annotated[bool, typer.Option("--version", is_eager=True, callback=_print_version,
                                                 help="Print kg's version and exit.")] = False) -> None:
    if ctx.invoked_subcommand is None:
        typer.echo(TOUR.replace("\b\n", ""))
