"""kg stats: what a build holds, without rebuilding it."""
from __future__ import annotations

import json
from typing import Annotated

import typer

from kg.cli.app import app
from kg.cli.common import DbOption, Format, build_from, relationship_lines, render


@app.command("stats")
def stats_command(
    db: DbOption = None,
    top: Annotated[int, typer.Option("--top", min=0, metavar="N", help="Most used entities to list per type.")] = 5,
    fmt: Annotated[Format, typer.Option("--format", "-f", help="A text report, one JSON object, or CSV of the most used "
                                        "entities and relations, one a row (a relation's head in name).")] = Format.table,
    everything: Annotated[bool, typer.Option("--all", help="List generic concepts too (\"training\", \"neural "
                                             "networks\"), which the top lists leave out (docs/schema.md).")] = False,
) -> None:
    """Summarize a build: papers, entities and relationships, how resolution merged
    surface forms, and the specific entities most papers mention (generic ones with --all).

    \b
    Examples:
      kg stats
      kg stats --db exports/my_list --top 10
      kg stats --format json
      kg stats --top 20 --format csv > top.csv
      kg stats --top 30 --all                 # generic concepts listed too
    """
    from kg.analysis.stats import build_stats

    b = build_from(db)
    s = build_stats(b.graph(), b.manifest, top=top, everything=everything)
    if fmt == Format.json:
        typer.echo(json.dumps(s.to_json(), ensure_ascii=False, indent=2))
        return
    if fmt == Format.csv:
        typer.echo(_top_csv(s))
        return
    lines = [
        f"{b.path}/  ({s.name}, built {s.created[:19].replace('T', ' ')} by kg {s.kg_version})",
        f"  corpus        {s.corpus}",
        f"  papers        {s.papers}" + (f"  ({s.skipped} skipped, {s.merged_duplicates} duplicates merged)"
                                         if s.skipped or s.merged_duplicates else ""),
        "  entities      " + ", ".join(f"{n} {t}" for t, n in s.entities.items()),
        *relationship_lines(s.relationships),
        f"  resolution    {s.resolution}; {s.merged_entities} entities merge several forms"
        " (kg query merged_entities)",
    ]
    if s.warnings:
        lines.append(f"  warnings      {s.warnings} (listed in build.json)")
    for etype, rows in s.top.items():
        if rows:
            lines.append(f"  top {etype.lower() + 's':<9} " + "; ".join(f"{e.name} ({e.papers})" for e in rows))
    if s.top_relations:
        lines.append("  top relations " + "; ".join(f"{r.head} {r.type} {r.tail} ({r.papers})" for r in s.top_relations))
    typer.echo("\n".join(lines))


def _top_csv(s) -> str:
    """The most used entities (per type) and relations of ``s`` (kg.analysis.stats.BuildStats), one a row."""
    rows = [["entity", etype, e.name, "", e.papers] for etype, top in s.top.items() for e in top]
    rows += [["relation", r.type, r.head, r.tail, r.papers] for r in s.top_relations]
    return render(["kind", "type", "name", "tail", "papers"], rows, Format.csv)
