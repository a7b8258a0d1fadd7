"""kg related: the papers sharing the most informative concepts with a paper."""
from __future__ import annotations

import json
from typing import Annotated

import typer

from kg.cli.app import app
from kg.cli.common import DbOption, Format, build_from, render
from kg.errors import KgError
from kg.related import related_in_build


def _shared_cell(row) -> str:
    return "; ".join(f"{s.name} ({s.type}, {s.papers} papers)" for s in row.shared)


def _table(pid: str, title: str, rows) -> str:
    """One block per neighbour: rank, score, id and title, then the reasons in full (not cut to a cell)."""
    lines = [f"Related to {pid}: {title}", ""]
    if not rows:
        lines.append("(no paper shares a concept with it)")
    width = max((len(r.id) for r in rows), default=0)
    for i, r in enumerate(rows, 1):
        lines.append(f"{i:>3}. {r.score:.3f}  {r.id:<{width}}  {r.title}")
        lines.append(f"{'':>13}shared: {_shared_cell(r)}")
    return "\n".join(lines)


@app.command("related")
def related_command(
    paper: Annotated[str | None, typer.Argument(metavar="PAPER", help="A paper id, words of its title, or a concept it names.", show_default=False)] = None,
    db: DbOption = None,
    k: Annotated[int, typer.Option("-k", "--top", min=1, metavar="K", help="How many related papers to list.")] = 10,
    fmt: Annotated[Format | None, typer.Option(
        "--format", "-f", help="Output format [default: table; with --all, JSON Lines].", show_default=False)] = None,
    all_papers: Annotated[bool, typer.Option(
        "--all", help="Every paper's top k: one JSON line per paper, or one row per pair with -f table/csv.")] = False,
) -> None:
    """List the papers that share the rarest, most specific concepts with a paper.

    Each row gives a score (cosine of IDF-weighted concept vectors, 0..1) and the
    shared concepts behind it, each with its type and the number of papers that
    have it: the fewer, the more it counts. docs/related.md has the formula.

    \b
    Examples:
      kg related "Policy Mirror Descent"
      kg related FedBiscuit                    # the paper that names it
      kg related p5ed9111e12 -k 5 --format json
      kg related --all -k 5 > related.jsonl
      kg related --all -k 5 -f csv > related.csv
    """
    if all_papers and paper:
        raise KgError("give either a paper or --all, not both")
    if not all_papers and not paper:
        raise KgError("name a paper (its id or title words), or pass --all")
    b = build_from(db)
    if all_papers:
        from kg.related import related_all

        ranked = related_all(b.graph(), k)
        if fmt in (None, Format.json):
            for pid, related in ranked.items():
                rows = [r.to_json() for r in related]
                for r in rows:
                    r.pop("title")
                typer.echo(json.dumps({"id": pid, "related": rows}, ensure_ascii=False))
            return
        columns = ["paper", "rank", "related", "score", "shared concepts"]
        typer.echo(render(columns, [[pid, i, r.id, round(r.score, 4), _shared_cell(r)]
                                    for pid, related in ranked.items() for i, r in enumerate(related, 1)], fmt))
        return
    try:
        pid, title, rows = related_in_build(b, paper, k)
    except KgError as exc:
        if str(exc).startswith("no paper matches"):  # the default build may not be the one meant
            raise KgError(f"{exc} (searched the build {b.path}; --db names another)") from None
        raise
    if fmt == Format.json:
        typer.echo(json.dumps([r.to_json() for r in rows], ensure_ascii=False, indent=2))
        return
    if fmt in (None, Format.table):
        typer.echo(_table(pid, title, rows))
        return
    columns = ["rank", "score", "id", "title", "shared concepts"]
    typer.echo(render(columns, [[i, round(r.score, 4), r.id, r.title, _shared_cell(r)] for i, r in enumerate(rows, 1)], fmt))

