"""kg export neo4j | neo4j-import | cypher: the three routes into Neo4j."""
from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer
from tqdm import tqdm

from kg.builds import Build
from kg.cli.app import app
from kg.cli.common import DbOption, build_from
from kg.errors import KgError
from kg.export import cypher_script, neo4j_import
from kg.export.bolt_plan import DEFAULT_BATCH_BYTES, DEFAULT_BATCH_SIZE, DEFAULT_RETRY_SECONDS, BoltOptions, plan
from kg.export.rows import ExportGraph, export_graph

export_app = typer.Typer(
    help="Move a build's graph into Neo4j: live over Bolt, as neo4j-admin import CSVs, or as a Cypher script.\n\n"
         "\b\nExamples:\n"
         "  kg export neo4j --uri bolt://localhost:7687 --user neo4j --password secret\n"
         "  kg export neo4j-import --out neo4j-import\n"
         "  kg export cypher --out graph.cypher",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(export_app, name="export")

BuildArg = Annotated[
    Path | None,
    typer.Argument(metavar="BUILD_DIR", help="Build directory (same as --db; default: the most recent build).", show_default=False),
]


def _load(build_dir: Path | None, db: Path | None) -> tuple[Build, ExportGraph]:
    if build_dir is not None and db is not None and build_dir != db:
        raise KgError(f"two builds given: {build_dir} and --db {db}; pass one")
    build = build_from(build_dir or db)
    return build, export_graph(build.graph())


def _counts(title: str, counts: dict[str, int]) -> str:
    return f"{title}: " + ", ".join(f"{k} {v}" for k, v in counts.items())


@export_app.command("neo4j")
def neo4j_command(
    build_dir: BuildArg = None,
    db: DbOption = None,
    uri: Annotated[str, typer.Option(envvar="NEO4J_URI", metavar="URI", help="Bolt URI of the server.")] = "bolt://localhost:7687",
    user: Annotated[str, typer.Option(envvar="NEO4J_USER", metavar="NAME", help="User name.")] = "neo4j",
    password: Annotated[str | None, typer.Option(envvar="NEO4J_PASSWORD", metavar="TEXT", show_default=False,
                                                 help="Password (none: connect without authentication).")] = None,
    database: Annotated[str | None, typer.Option(envvar="NEO4J_DATABASE", metavar="NAME", show_default=False,
                                                 help="Database (default: the server's default).")] = None,
    batch_size: Annotated[int, typer.Option(metavar="ROWS", help="Rows per transaction, at most.")] = DEFAULT_BATCH_SIZE,
    batch_bytes: Annotated[int, typer.Option(metavar="BYTES", help="Encoded Bolt message bytes per transaction, at most.")]
    = DEFAULT_BATCH_BYTES,
    replace: Annotated[bool, typer.Option("--replace", help="First delete every node with one of kg's labels.")]
    = False,
    retry_time: Annotated[float, typer.Option(metavar="SECONDS", help="Seconds to keep retrying a batch after a lost connection.")]
    = DEFAULT_RETRY_SECONDS,
) -> None:
    """Load the graph into a running Neo4j over Bolt (idempotent: re-running adds no duplicates).

    \b
    Examples:
      kg export neo4j --uri bolt://localhost:7687 --user neo4j --password secret
      NEO4J_PASSWORD=secret kg export neo4j exports/iclr2025_abstracts --replace
    """
    from kg.export.neo4j_bolt import BoltTarget, export_bolt  # the driver loads only for this command

    build, eg = _load(build_dir, db)
    target = BoltTarget(uri=uri, user=user, password=password, database=database)
    options = BoltOptions(batch_size=batch_size, batch_bytes=batch_bytes, replace=replace, retry_seconds=retry_time)
    the_plan = plan(eg, options)  # a row over --batch-bytes is reported before connecting
    bars: list[tqdm] = []

    def advance(rows: int) -> None:
        # The bar starts with the first committed batch: a server that cannot be reached or refuses
        # the login leaves the error as the only line, with no empty bar before it.
        if not bars:
            bars.append(tqdm(total=the_plan.rows, unit="row", desc=f"export to {uri}", leave=False))
        bars[0].update(rows)

    try:
        report = export_bolt(the_plan, target, progress=advance)
    finally:
        for bar in bars:
            bar.close()
    typer.echo(f"exported {build.path} to {uri} ({report.server})")
    if report.deleted:
        typer.echo(f"--replace deleted {report.deleted} nodes first")
    for action in report.schema_actions:
        typer.echo(f"created {action}")
    typer.echo(f"{report.batches} batches committed, {report.rows} rows written")
    typer.echo(_counts("nodes in the database", report.nodes))
    typer.echo(_counts("relationships in the database", report.relationships))
    if report.nodes != eg.node_counts():
        typer.echo("note: the database holds other nodes with kg's labels too (use --replace to clear them)", err=True)


@export_app.command("neo4j-import")
def neo4j_import_command(
    build_dir: BuildArg = None,
    db: DbOption = None,
    out: Annotated[Path | None, typer.Option("--out", metavar="DIR", help="Folder to write (default: BUILD_DIR/neo4j-import, which the next kg build of BUILD_DIR replaces).",
                                             show_default=False)] = None,
    from_records: Annotated[bool, typer.Option("--from-records", help="Write from the build's records/ (Parquet shards), "
                                               "resolving entities as a group-by without loading the graph: the route "
                                               "for corpora too big for one machine (no RELATED_TO links; docs/neo4j.md).")]
    = False,
) -> None:
    """Write CSV files for `neo4j-admin database import full`, and a README with the exact command.

    \b
    Example:
      kg export neo4j-import --out neo4j-import
      kg export neo4j-import --from-records --out neo4j-import   # from the shards, graph never in memory
      neo4j-admin database import full ...   # the command printed and written to README.md
    """
    if from_records:
        from kg.builds import RECORDS
        from kg.export.shard_import import write_import_from_shards

        if build_dir is not None and db is not None and build_dir != db:
            raise KgError(f"two builds given: {build_dir} and --db {db}; pass one")
        build = build_from(build_dir or db)
        folder = out or build.path / "neo4j-import"
        written = write_import_from_shards(build.path / RECORDS, folder)
        typer.echo(f"wrote {len(written.files)} CSV files to {folder} from {build.path / RECORDS}")
        typer.echo(f"import with (Neo4j stopped): {written.command}")
        return
    build, eg = _load(build_dir, db)
    folder = out or build.path / "neo4j-import"
    written = neo4j_import.write_import(eg, folder)
    typer.echo(f"wrote {len(written.files)} CSV files to {folder}")
    typer.echo(_counts("nodes", eg.node_counts()))
    typer.echo(_counts("relationships", eg.relationship_counts()))
    typer.echo(f"import with (Neo4j stopped): {written.command}")


@export_app.command("cypher")
def cypher_command(
    build_dir: BuildArg = None,
    db: DbOption = None,
    out: Annotated[Path | None, typer.Option("--out", metavar="FILE", help="Script to write (default: BUILD_DIR/neo4j.cypher, which the next kg build of BUILD_DIR replaces).",
                                             show_default=False)] = None,
) -> None:
    """Write one .cypher script that recreates the graph: `cypher-shell -f FILE`.

    \b
    Example:
      kg export cypher --out graph.cypher
      cypher-shell -u neo4j -p secret -f graph.cypher
    """
    build, eg = _load(build_dir, db)
    path = out or build.path / "neo4j.cypher"
    statements = cypher_script.write_script(eg, path)
    typer.echo(f"wrote {path} ({statements} statements)")
    typer.echo(_counts("nodes", eg.node_counts()))
    typer.echo(_counts("relationships", eg.relationship_counts()))
    typer.echo(f"run with: cypher-shell -a bolt://localhost:7687 -u neo4j -p PASSWORD -f {shlex.quote(str(path))}")
