"""kg related: the papers sharing the most informative concepts with a paper."""
from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from kg.cli.app import app
from kg.cli.common import DbOption, Format, build_from, render
from kg.errors import KgError
from kg.analysis.related import NOTE_NOTHING, related_in_build


class Facet(str, Enum):
    method = "method"
    task = "task"
    dataset = "dataset"


def read_ids(path: Path) -> list[str]:
    """The paper ids of a reading-list file: one a line; blank lines and ``#`` comments skipped."""
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except OSError as exc:
        raise KgError(f"{path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise KgError(f"{path}: not UTF-8 text (give paper ids, one a line)") from None
    ids = [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
    if not ids:
        raise KgError(f"{path}: no paper ids (give one a line)")
    return ids


def _shared_cell(row) -> str:
    if not row.shared:
        return f"({row.note or NOTE_NOTHING})" if row.note else ""
    return "; ".join(f"{s.name} ({s.type}, {s.papers} papers)" for s in row.shared)


def _table(pid: str, title: str, rows, by: Facet | None = None) -> str:
    """One block per neighbour: rank, score, id and title, then the reasons in full (not cut to a cell)."""
    lines = [f"Related to {pid}{f' by {by.value}' if by else ''}: {title}", ""]
    if not rows:
        lines.append(f"(no paper shares a {by.value} concept with it)" if by else "(no paper shares a concept with it)")
    width = max((len(r.id) for r in rows), default=0)
    for i, r in enumerate(rows, 1):
        lines.append(f"{i:>3}. {r.score:.3f}  {r.id:<{width}}  {r.title}")
        lines.append(f"{'':>13}shared: {_shared_cell(r)}" if r.shared else f"{'':>13}{_shared_cell(r)}")
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
    by: Annotated[Facet | None, typer.Option(
        "--by", help="Reasons of one facet only (method, task or dataset). method and dataset also rank "
                     "by that facet's concepts and phrases; task ranks as with no facet.",
        show_default=False)] = None,
    among: Annotated[Path | None, typer.Option(
        "--among", metavar="FILE", help="Rank every paper listed in FILE (ids, one a line) against PAPER, "
                                        "with score and reasons; -k does not apply.", show_default=False)] = None,
) -> None:
    """List the papers closest to a paper: similar abstracts, and the rarest concepts they share.

    Each row gives a score (the abstracts' vector cosine fused with the shared
    concepts' IDF-weighted score; the concepts alone in a build without vectors)
    and the shared concepts behind it, each with its type and the number of
    papers that have it: the fewer, the more it counts. A neighbour sharing no
    specific concept is noted "similar wording", and listed only when its
    abstract's cosine is at least 0.45. docs/related.md has the formula.
    --by keeps one facet's concepts as the reasons (method, task or dataset);
    method and dataset rank by that facet too, task ranks as with no facet (in a
    build with vectors: ranking by task concepts did worse on CSFCube's
    background labels). --among ranks a reading list, every paper of it: one sharing no specific concept is noted
    "similar wording" or "nothing shared".

    \b
    Examples:
      kg related "Policy Mirror Descent"
      kg related FedBiscuit                    # the paper that names it
      kg related p5ed9111e12 -k 5 --format json
      kg related --all -k 5 > related.jsonl
      kg related --all -k 5 -f csv > related.csv
      kg related p5ed9111e12 --by method       # close in method, method reasons
      kg related p5ed9111e12 --by task         # the usual ranking, task reasons
      kg related p5ed9111e12 --among reading.txt -f json
    """
    if all_papers and paper:
        raise KgError("give either a paper or --all, not both")
    if not all_papers and not paper:
        raise KgError("name a paper (its id or title words), or pass --all")
    if all_papers and among:
        raise KgError("--among ranks a list against one paper: give a paper, not --all")
    facet = by.value if by else None
    if among:
        _among(paper, among, db, facet, by, fmt)
        return
    b = build_from(db)
    if all_papers:
        from kg.analysis.related import related_all

        ranked = related_all(b.graph(), k, facet)
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
        pid, title, rows = related_in_build(b, paper, k, facet)
    except KgError as exc:
        if str(exc).startswith("no paper matches"):  # the default build may not be the one meant
            raise KgError(f"{exc} (searched the build {b.path}; --db names another)") from None
        raise
    if fmt == Format.json:
        typer.echo(json.dumps([r.to_json() for r in rows], ensure_ascii=False, indent=2))
        return
    if fmt in (None, Format.table):
        typer.echo(_table(pid, title, rows, by))
        return
    columns = ["rank", "score", "id", "title", "shared concepts"]
    typer.echo(render(columns, [[i, round(r.score, 4), r.id, r.title, _shared_cell(r)] for i, r in enumerate(rows, 1)], fmt))


def _among(paper: str, among: Path, db, facet: str | None, by: Facet | None, fmt: Format | None) -> None:
    """``kg related PAPER --among FILE``: every listed paper, ranked against PAPER."""
    from kg.analysis.related import find_paper, rank_among

    ids = read_ids(among)  # a bad list fails before the build is read
    b = build_from(db)
    g = b.graph()
    pid = find_paper(g, paper)
    rows = rank_among(g, pid, ids, by=facet)
    if fmt == Format.json:
        typer.echo(json.dumps({"id": pid, **({"by": facet} if facet else {}), "related": [r.to_json() for r in rows]},
                              ensure_ascii=False, indent=2))
        return
    if fmt in (None, Format.table):
        typer.echo(_table(pid, g.nodes[pid].get("title") or pid, rows, by))
        return
    columns = ["rank", "score", "id", "title", "shared concepts", "note"]
    typer.echo(render(columns, [[i, round(r.score, 4), r.id, r.title, _shared_cell(r) if r.shared else "", r.note]
                                for i, r in enumerate(rows, 1)], fmt))

