"""kg view: write the interactive HTML views of a build and print where they are."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kg.cli.app import app
from kg.cli.common import DbOption, build_from
from kg.errors import KgError


@app.command("view")
def view_command(
    build_dir: Annotated[Path | None, typer.Argument(metavar="BUILD_DIR", help="Build directory (default: the most recent build).",
                                                     show_default=False)] = None,
    db: DbOption = None,
    paper: Annotated[str | None, typer.Option("--paper", metavar="PAPER", help="Write this paper's page (id or title words).",
                                              show_default=False)] = None,
    concept: Annotated[str | None, typer.Option("--concept", metavar="NAME", help="Write this concept's page (name, alias or id).",
                                                show_default=False)] = None,
    budget: Annotated[int | None, typer.Option("--budget", min=10, metavar="NODES", help="Papers drawn on the map of themes, and nodes given pages in a very large build (default: 1500); the overview draws at most 80 concepts.",
                                               show_default=False)] = None,
) -> None:
    """Write the HTML views (they work offline) and print the path of the page to open.

    \b
    Examples:
      kg view                                  # overview + every paper and concept page
      kg view --paper "Policy Mirror Descent"  # one paper: its concepts, what it states, related papers
      kg view --concept "large language models"  # one concept: its papers, what is stated about it
    """
    if build_dir is not None and db is not None and build_dir != db:
        raise KgError(f"two builds given: {build_dir} and --db {db}; pass one")
    if paper and concept:
        raise KgError("give --paper or --concept, not both")
    for option, value in (("--paper", paper), ("--concept", concept)):
        if value is not None and not value.strip():
            raise KgError(f"{option} needs a value (an id, a name or title words)")
    # Imported here: pyvis pulls in IPython, which every other kg command would pay for.
    from kg.builds import INDEX_HTML
    from kg.analysis.related import find_paper
    from kg.view import (NODE_BUDGET, find_concept, pages_on_disk, write_concept_view, write_overview,
                         write_paper_view, write_views)

    b = build_from(build_dir or db)
    g = b.graph()
    if paper:
        path = write_paper_view(g, b.path, find_paper(g, paper))
    elif concept:
        path = write_concept_view(g, b.path, find_concept(g, concept))
    else:
        path = write_views(g, b.path, budget=budget or NODE_BUDGET)
    if not (b.path / INDEX_HTML).exists():
        # A --no-views build: the page's "overview" link needs something to open, which links
        # only to the pages written so far.
        write_overview(g, b.path, budget=budget or NODE_BUDGET, has_page=pages_on_disk(g, b.path))
    typer.echo(str(path.resolve()))
