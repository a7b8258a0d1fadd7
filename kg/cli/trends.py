"""kg trends: the concepts rising, falling and emerging over a build's years."""
from __future__ import annotations

import json
from enum import Enum
from typing import TYPE_CHECKING, Annotated

import typer

from kg.cli.app import app
from kg.cli.common import DbOption, Format, build_from, render

if TYPE_CHECKING:
    from kg.analysis.trends import ConceptTrend, Trends

SECTIONS = ("rising", "falling", "emerging")
YEAR_COLUMNS = 8  # up to this many years get a column each in the table; more share one cell


class EntityType(str, Enum):
    Method = "Method"
    Task = "Task"
    Dataset = "Dataset"
    Metric = "Metric"


@app.command("trends")
def trends_command(
    db: DbOption = None,
    etype: Annotated[EntityType | None, typer.Option("--type", "-t", help="Only concepts of this type [default: all; Method with --task].",
                                                     show_default=False)] = None,
    top: Annotated[int, typer.Option("--top", "-n", min=1, metavar="N", help="Concepts to list per section.")] = 10,
    task: Annotated[str | None, typer.Option("--task", metavar="NAME", show_default=False,
                                             help="The methods used for this task, among its papers.")] = None,
    from_year: Annotated[int | None, typer.Option("--from", metavar="YEAR", show_default=False,
                                                  help="First year to compare [default: the first with papers].")] = None,
    to_year: Annotated[int | None, typer.Option("--to", metavar="YEAR", show_default=False,
                                                help="Last year to compare [default: the last with papers].")] = None,
    include_generic: Annotated[bool, typer.Option("--all", help="Keep the concepts the concept stage marks generic.")] = False,
    fmt: Annotated[Format, typer.Option("--format", "-f", help="A table per section, one JSON object, or CSV rows.")] = Format.table,
) -> None:
    """List the concepts rising, falling and emerging between the first and last
    years, with the papers naming each per year and its share of each year's papers.

    Concepts are ranked by the log-likelihood ratio G of their share in the first
    period against the last (G >= 3.84, p < 0.05, listed): it grows with the
    evidence, so a shift of two papers never outranks one of two hundred.
    "Emerging": (nearly) absent in the first period, present in the last. When a
    year has few papers, the periods widen to several years (the table's header
    says which). The papers need a year (kg build reads it from JSON, CSV, BibTeX...).

    \b
    Examples:
      kg trends --type Method --top 15
      kg trends --task "machine translation"       # the methods used for a task
      kg trends --from 2018 --to 2022 --format json
      kg trends --type Dataset --format csv > datasets.csv
    """
    b = build_from(db)
    t = b.trends(type=etype.value if etype else None, top=top, task=task, from_year=from_year, to_year=to_year,
                 include_generic=include_generic)
    if fmt == Format.json:
        typer.echo(json.dumps(t.to_json(), ensure_ascii=False, indent=2))
    elif fmt == Format.csv:
        typer.echo(_csv(t))
    else:
        typer.echo(_tables(t, str(b.path)))


def _period(years: tuple[int, ...]) -> str:
    return str(years[0]) if len(years) == 1 else f"{years[0]}-{years[-1]}"


def _tables(t: Trends, where: str) -> str:
    p = t.periods
    what = (f"{t.type or 'concept'}s used for {t.task!r}" if t.task else f"{t.type or 'concept'}s")
    head = [f"Trends of {what} in {where}/: {_period(p.first)} ({p.first_papers:,} papers"
            f"{' of the task' if t.task else ''}) against {_period(p.last)} ({p.last_papers:,})"
            + (f"; {t.undated:,} papers without a year left out" if t.undated else "")]
    wide = len(t.years) > YEAR_COLUMNS
    columns = ["#", "name", "type", *(["papers by year"] if wide else [str(y) for y in t.years]),
               f"share {_period(p.first)} -> {_period(p.last)}", "G"]
    out = head
    for section in SECTIONS:
        rows = getattr(t, section)
        out += ["", section.capitalize() + ("" if rows else ": none significant (G >= 3.84)")]
        if rows:
            out.append(render(columns, [_row(i, c, t.years, wide) for i, c in enumerate(rows, 1)], Format.table))
    return "\n".join(out)


def _row(i: int, c: ConceptTrend, years: list[int], wide: bool) -> list:
    counts = [c.papers_by_year[y] for y in years]
    return [i, c.name, c.type, *([" ".join(map(str, counts))] if wide else counts),
            f"{c.first_share:.1%} -> {c.last_share:.1%}", f"{c.statistic:+.1f}"]


def _csv(t: Trends) -> str:
    columns = ["trend", "rank", "name", "type", "statistic", "p_value", "first", "last", "first_share", "last_share",
               "emerging", "level", *(f"papers_{y}" for y in t.years), *(f"share_{y}" for y in t.years)]
    rows = []
    for section in SECTIONS:
        for i, c in enumerate(getattr(t, section), 1):
            j = c.to_json()
            rows.append([section, i, c.name, c.type, j["statistic"], j["p_value"], c.first, c.last, j["first_share"],
                         j["last_share"], c.emerging, c.level or "", *(c.papers_by_year[y] for y in t.years),
                         *(j["share_by_year"][str(y)] for y in t.years)])
    return render(columns, rows, Format.csv)
