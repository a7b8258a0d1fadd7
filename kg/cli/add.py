"""kg add: new papers into an existing build (kg.builds.adding), swapped in as `kg build` does."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kg.builds import MANIFEST
from kg.cli.app import app
from kg.cli.build import DEFAULTS, CorpusFormat, _shown, _Warnings, cache_dir_of, cluster_of, summary, workers_option

SHOWN_PRESENT = 10  # papers already in the build named one by one; the rest counted


@app.command("add")
def add_command(
    corpus: Annotated[Path, typer.Argument(metavar="CORPUS", help="Abstracts to add, in any format `kg build` reads.",
                                           show_default=False)],
    db: Annotated[Path | None, typer.Option("--db", metavar="BUILD_DIR", help="The build to add to (default: the most recent build under exports/).",
                                            show_default=False)] = None,
    workers: Annotated[int, workers_option("Processes that parse the new abstracts and write the pages; "
                                           "1: everything in this process.")] = DEFAULTS.workers,
    cache: Annotated[Path | None, typer.Option("--cache", metavar="DIR", help="Extraction cache folder (default: $KG_CACHE_DIR or .kg-cache).",
                                               show_default=False)] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Extract the new papers afresh; read and write no cache.")] = False,
    cluster: Annotated[str | None, typer.Option("--cluster", metavar="ADDRESS|local", envvar="KG_DASK_SCHEDULER",
                                                help="Extract on a Dask cluster, as `kg build --cluster`.",
                                                show_default=False)] = None,
    views: Annotated[bool | None, typer.Option("--views/--no-views", help="Write the interactive HTML views (default: if the build has them).",
                                               show_default=False)] = None,
    all_pages: Annotated[bool, typer.Option("--all-pages", help="Write every page afresh; by default the pages the new papers leave as they were are kept, with the related-paper scores of the earlier build.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar; summary only.")] = False,
    fmt: Annotated[CorpusFormat | None, typer.Option("--format", "-f", help="Read CORPUS as this format (as `kg build --format`).",
                                                     show_default=False)] = None,
) -> None:
    """Add the new papers of CORPUS to a build: only they are extracted; papers the build already
    holds (the same abstract) are reported and skipped. The build is rewritten from its stored
    records and swapped in whole, as `kg build` does: readers see the old build or the new one.

    \b
    Example:
      kg add new_papers.jsonl                           # into the most recent build
      kg add more.bib --db exports/iclr2025_abstracts
    """
    from kg.builds.adding import add
    from kg.builds import INDEX_HTML, open_build
    from kg.builds.options import BuildOptions

    if views is None:
        views = (open_build(db).path / INDEX_HTML).exists()
    options = BuildOptions(views=views, workers=workers, cache_dir=cache_dir_of(cache, no_cache),
                           progress=not quiet, format=fmt.value if fmt else None, cluster=cluster_of(cluster))
    warnings = _Warnings()
    try:
        result = add(corpus, db, options, warn=warnings, all_pages=all_pages)
    except BaseException:
        warnings.close()
        raise
    warnings.close(manifest=result.build.path / MANIFEST if result.build else None)
    for item in result.present[:SHOWN_PRESENT]:
        typer.echo(f"kg: {item.paper.source}: already in the build as {item.build_id}; skipped", err=True)
    if len(result.present) > SHOWN_PRESENT:
        typer.echo(f"kg: ... and {len(result.present) - SHOWN_PRESENT} more already in the build; skipped", err=True)
    if result.build is None:
        typer.echo(f"Nothing to add: all {len(result.present)} papers of {corpus} are in the build already.")
        return
    typer.echo(f"Added {len(result.added)} papers ({len(result.present)} already there, skipped) to "
               f"{_shown(result.build.path)}/")
    typer.echo(summary(result.build))
