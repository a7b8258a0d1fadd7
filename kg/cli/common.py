"""Options and output helpers shared by the command modules."""
from __future__ import annotations

import csv
import io
import json
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer

from kg.builds import Build, open_build
from kg.errors import KgError


class Format(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"


class ReportFormat(str, Enum):
    """For one report rather than rows: a text table or one JSON object."""

    table = "table"
    json = "json"


DbOption = Annotated[
    Path | None,
    typer.Option("--db", metavar="BUILD_DIR", help="Build directory to read (default: the most recent build under exports/).",
                 show_default=False),
]


def build_from(db: Path | None) -> Build:
    """The build --db names, or the most recent one; the library's message says what --db is for."""
    try:
        return open_build(db)
    except KgError as exc:
        raise KgError(f"{exc}; --db BUILD_DIR names the build to read" if db is None else str(exc)) from None


def render(columns: list[str], rows: list[list[Any]], fmt: Format) -> str:
    """Rows as an aligned text table, JSON (a list of objects) or CSV."""
    columns = _unique(columns)
    if fmt == Format.json:
        return json.dumps([dict(zip(columns, r)) for r in rows], ensure_ascii=False, indent=2, default=str)
    if fmt == Format.csv:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow([spreadsheet_safe(c) for c in columns])
        for r in rows:
            w.writerow([spreadsheet_safe(json.dumps(v, ensure_ascii=False) if isinstance(v, (list, dict)) else v)
                        for v in r])
        return buf.getvalue().rstrip("\n")
    cells = [[_cell(v) for v in r] for r in rows]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells]
    lines.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(lines)


# What makes a spreadsheet read a cell as a formula rather than text (OWASP, "CSV Injection").
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: Any) -> Any:
    """A CSV cell that a spreadsheet shows as text: text starting with ``= + - @``, a tab or a
    carriage return gets a leading ``'``. A paper titled ``=HYPERLINK("http://...","click")``
    would otherwise be a formula that Excel, LibreOffice or Google Sheets runs when the file is
    opened (OWASP's "CSV Injection"). Numbers stay numbers, negative ones too: only ``str`` cells
    are changed. The neo4j-admin import files (kg.export) are read by Neo4j, not a spreadsheet,
    and keep their text as it is."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def _unique(columns: list[str]) -> list[str]:
    """Column names made distinct ("id", "id_2"): a JSON object would keep only one of two."""
    seen: dict[str, int] = {}
    out = []
    for c in columns:
        seen[c] = seen.get(c, 0) + 1
        out.append(c if seen[c] == 1 else f"{c}_{seen[c]}")
    return out


def _cell(v: Any, limit: int = 60) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        s = f"{v:.3f}"
    elif isinstance(v, (list, tuple)):
        s = ", ".join(_cell(x, limit) for x in v)
    else:
        s = str(v)
    s = " ".join(s.split())
    return s if len(s) <= limit else s[: limit - 1] + "…"


def relationship_lines(counts: dict[str, int]) -> list[str]:
    """A summary's relationship counts: those of papers on one line, those between entities
    (what the abstracts state: USED_FOR, ...) on the next, nonzero ones only."""
    from kg.schema import ENTITY_RELS

    of_papers = ", ".join(f"{n} {t}" for t, n in counts.items() if t not in ENTITY_RELS)
    between = ", ".join(f"{n} {t}" for t, n in counts.items() if t in ENTITY_RELS and n)
    return ["  relationships " + of_papers, "  relations     " + (between or "none stated") + " (between entities)"]

