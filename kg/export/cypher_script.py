"""One ``.cypher`` file that recreates the graph: ``cypher-shell -f FILE``.

The same MERGE statements as the Bolt route (kg.export.neo4j_bolt), with the
rows written as list literals, one statement per line, each ending in ``;``.
Strings are escaped so no literal spans a line, which keeps the file safe to
split on line ends. Re-running the script is idempotent.
"""
from __future__ import annotations

import math
import os
import re
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from kg.errors import KgError
from kg.export.bolt_plan import node_merge, rel_merge, unique_constraint
from kg.export.rows import ExportGraph

ROWS_PER_STATEMENT = 500
CHARS_PER_STATEMENT = 200_000  # keeps each line a size editors and cypher-shell handle well
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ESCAPES = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def literal(value: Any) -> str:
    """``value`` as a Cypher literal."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "(0.0 / 0.0)"
        if math.isinf(value):
            return "(1.0 / 0.0)" if value > 0 else "(-1.0 / 0.0)"
        text = repr(value).replace("e+", "e")  # Cypher exponents take no "+"
        return text if any(c in text for c in ".e") else text + ".0"
    if isinstance(value, str):
        return "'" + "".join(_escape(c) for c in value) + "'"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_key(k)}: {literal(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    raise KgError(f"no Cypher literal for a {type(value).__name__} value")


def _escape(c: str) -> str:
    if c in _ESCAPES:
        return _ESCAPES[c]
    if ord(c) < 0x20 or c in "\u2028\u2029\x85\x7f":  # control characters and Unicode line breaks
        return f"\\u{ord(c):04x}"
    return c


def _key(k: str) -> str:
    return k if _IDENT.fullmatch(k) else "`" + k.replace("`", "``") + "`"


def script_statements(eg: ExportGraph) -> Iterator[str]:
    """Each statement of the script, without its ``;``: constraints, then nodes, then relationships."""
    for ng in eg.nodes:
        yield unique_constraint(ng.label)
    for ng in eg.nodes:
        rows = ({"id": r.id, "props": r.props} for r in ng.rows)
        for chunk in _chunks(rows):
            yield node_merge(ng.label, rows=chunk)
    for rg in eg.relationships:
        rows = ({"start": r.start, "end": r.end, "props": r.props} for r in rg.rows)
        for chunk in _chunks(rows):
            yield rel_merge(rg.type, rg.start_label, rg.end_label, rows=chunk)


def _chunks(rows: Iterator[dict]) -> Iterator[str]:
    current: list[str] = []
    size = 0
    for row in rows:
        text = literal(row)
        if current and (len(current) >= ROWS_PER_STATEMENT or size + len(text) > CHARS_PER_STATEMENT):
            yield "[" + ", ".join(current) + "]"
            current, size = [], 0
        current.append(text)
        size += len(text) + 2
    if current:
        yield "[" + ", ".join(current) + "]"


SCRIPT_TITLE = "// kg knowledge graph for Neo4j."  # how a script kg wrote is recognised


def render(eg: ExportGraph) -> tuple[str, int]:
    """The script's text and its number of statements."""
    nodes = ", ".join(f"{k} {v}" for k, v in eg.node_counts().items())
    rels = ", ".join(f"{k} {v}" for k, v in eg.relationship_counts().items())
    lines = [
        f"{SCRIPT_TITLE} Run: cypher-shell -a bolt://localhost:7687 -u neo4j -f THIS_FILE",
        f"// nodes: {nodes}",
        f"// relationships: {rels}",
        "// Idempotent (MERGE on id): re-running adds no duplicates. To start clean first:",
        "//   MATCH (n) WHERE n:Paper OR n:Method OR n:Task OR n:Dataset OR n:Metric DETACH DELETE n;",
    ]
    statements = list(script_statements(eg))
    lines += [s + ";" for s in statements]
    return "\n".join(lines) + "\n", len(statements)


def _is_script(path: Path) -> bool:
    try:
        with path.open(encoding="utf-8") as f:
            return f.readline().startswith(SCRIPT_TITLE)
    except (OSError, UnicodeDecodeError):
        return False


def write_script(eg: ExportGraph, path: Path) -> int:
    """Write the script atomically (a failed run leaves any previous file as it was); its statement count."""
    text, count = render(eg)
    path = Path(path)
    if path.is_dir():
        raise KgError(f"{path}: is a folder; --out takes the path of the .cypher file to write")
    if not path.parent.is_dir():
        raise KgError(f"{path.parent}: no such folder for --out")
    if path.exists() and not _is_script(path):
        raise KgError(f"{path}: exists and is not a script kg wrote; give a new file, or delete it first")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.chmod(tmp, 0o644)  # mkstemp makes it owner-only
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return count
