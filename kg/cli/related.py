"""kg related: the papers sharing the most informative concepts with a paper."""
from __future__ import annotations

import json
from typing import Annotated

import typer

from kg.cli.app import app
from kg.cli.common import DbOption, Format, build_from, render
from kg.errors import KgError
from kg.graph import papers_of
from kg.related import ConceptIndex, find_paper


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
    paper: Annotated[str | None, typer.Argument(help="A paper id, or words of its title.", show_default=False)] = None,
    db: DbOption = None,
    k: Annotated[int, typer.Option("-k", "--top", min=1, help="How many related papers to list.")] = 10,
    fmt: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.table,
    all_papers: Annotated[bool, typer.Option("--all", help="Every paper's top k, one JSON line per paper.")] = False,
) -> None:
    """List the papers that share the rarest, most specific concepts with a paper.

    Each row gives a score (cosine of IDF-weighted concept vectors, 0..1) and the
    shared concepts behind it, each with its type and the number of papers that
    have it: the fewer, the more it counts. docs/related.md has the formula.

    \b
    Examples:
      kg related "Policy Mirror Descent"
      kg related p5ed9111e12 -k 5 --format json
      kg related --all -k 5 > related.jsonl
    """
    if all_papers and paper:
        raise KgError("give either a paper or --all, not both")
    if not all_papers and not paper:
        raise KgError("name a paper (its id or title words), or pass --all")
    g = build_from(db).graph()
    index = ConceptIndex.from_graph(g)
    if all_papers:
        for pid in papers_of(g):
            rows = [r.to_json() for r in index.related(pid, k)]
            for r in rows:
                r.pop("title")
            typer.echo(json.dumps({"id": pid, "related": rows}, ensure_ascii=False))
        return
    pid = find_paper(g, paper)
    rows = index.related(pid, k)
    if fmt == Format.json:
        typer.echo(json.dumps([r.to_json() for r in rows], ensure_ascii=False, indent=2))
        return
    if fmt == Format.table:
        typer.echo(_table(pid, g.nodes[pid].get("title") or pid, rows))
        return
    columns = ["rank", "score", "id", "title", "shared concepts"]
    typer.echo(render(columns, [[i, round(r.score, 4), r.id, r.title, _shared_cell(r)] for i, r in enumerate(rows, 1)], fmt))
