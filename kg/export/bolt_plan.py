"""What the Bolt exporter will send, worked out before it connects: statements and batches.

Batches are bounded by rows and by the encoded size of the Bolt RUN message,
so what one transaction asks of the server stays bounded however long the
abstracts are, and a row too large is reported before connecting. Labels,
types and property keys spliced into statements come from kg.schema, never
from the corpus; values always travel as parameters. No driver import here,
so the cypher-shell script and the lint test can share these statements.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from kg import schema
from kg.errors import KgError
from kg.export.packsize import packed_size, run_message_size
from kg.export.rows import ExportGraph, NodeGroup, RelGroup

DEFAULT_BATCH_SIZE = 1000
DEFAULT_BATCH_BYTES = 1_000_000
DEFAULT_RETRY_SECONDS = 30.0  # the neo4j driver's own default for managed transactions


@dataclass(frozen=True)
class BoltOptions:
    batch_size: int = DEFAULT_BATCH_SIZE  # rows per transaction, at most
    batch_bytes: int = DEFAULT_BATCH_BYTES  # encoded RUN message size per transaction, at most
    replace: bool = False  # delete every node with one of kg's labels first
    retry_seconds: float = DEFAULT_RETRY_SECONDS  # how long a failed batch is retried (lost connection...)


@dataclass(frozen=True)
class Batch:
    group: str  # "Paper" or "USES (Paper->Method)", for messages
    query: str
    rows: list[dict[str, Any]]
    size: int  # encoded bytes of the RUN message


# --- statements -------------------------------------------------------------

def node_merge(label: str, rows: str = "$rows") -> str:
    """``rows``: the parameter, or a list literal in the cypher-shell script."""
    return f"UNWIND {rows} AS row MERGE (n:{label} {{id: row.id}}) SET n += row.props"


def rel_merge(rel_type: str, start_label: str, end_label: str, rows: str = "$rows") -> str:
    return (
        f"UNWIND {rows} AS row MATCH (a:{start_label} {{id: row.start}}) MATCH (b:{end_label} {{id: row.end}}) "
        f"MERGE (a)-[r:{rel_type}]->(b) SET r += row.props"
    )


def unique_constraint(label: str) -> str:
    return f"CREATE CONSTRAINT kg_{label.lower()}_id IF NOT EXISTS FOR (n:{label}) REQUIRE n.id IS UNIQUE"


def delete_some(label: str) -> str:
    return f"MATCH (n:{label}) WITH n LIMIT $limit DETACH DELETE n RETURN count(*) AS deleted"


def count_nodes(label: str) -> str:
    return f"MATCH (n:{label}) RETURN count(n) AS n"


def count_relationships(rel_type: str) -> str:
    return f"MATCH ()-[r:{rel_type}]->() RETURN count(r) AS n"


COMPONENTS = "CALL dbms.components() YIELD name, versions, edition RETURN name, versions[0] AS version, edition"


@dataclass(frozen=True)
class BoltPlan:
    """Everything the exporter will send, computed before it connects."""

    batches: list[Batch]
    labels: tuple[str, ...]
    rel_types: tuple[str, ...]
    options: BoltOptions

    @property
    def rows(self) -> int:
        return sum(len(b.rows) for b in self.batches)

    def statements(self) -> dict[str, set[str]]:
        """Every statement text the exporter can send, with the parameters it declares."""
        out: dict[str, set[str]] = {COMPONENTS: set()}
        for b in self.batches:
            out[b.query] = {"rows"}
        for label in self.labels:
            out[unique_constraint(label)] = set()
            out[delete_some(label)] = {"limit"}
            out[count_nodes(label)] = set()
        for t in self.rel_types:
            out[count_relationships(t)] = set()
        return out


def plan(eg: ExportGraph, options: BoltOptions) -> BoltPlan:
    """Cut every group into batches within both bounds; nodes before the relationships that match them."""
    if options.batch_size < 1 or options.batch_bytes < 1:
        raise KgError("--batch-size and --batch-bytes must be positive")
    batches: list[Batch] = []
    for ng in eg.nodes:
        batches += _batches(ng.label, node_merge(ng.label), _node_rows(ng), options)
    for rg in eg.relationships:
        name = f"{rg.type} ({rg.start_label}->{rg.end_label})"
        batches += _batches(name, rel_merge(rg.type, rg.start_label, rg.end_label), _rel_rows(rg), options)
    rel_types = tuple(dict.fromkeys(t for t, _, _ in schema.relationship_types()))
    return BoltPlan(batches, schema.NODE_LABELS, rel_types, options)


def _node_rows(g: NodeGroup) -> Iterator[dict[str, Any]]:
    for r in g.rows:
        yield {"id": r.id, "props": r.props}


def _rel_rows(g: RelGroup) -> Iterator[dict[str, Any]]:
    for r in g.rows:
        yield {"start": r.start, "end": r.end, "props": r.props}


def _batches(group: str, query: str, rows: Iterator[dict[str, Any]], options: BoltOptions) -> list[Batch]:
    out: list[Batch] = []
    current: list[dict[str, Any]] = []
    # The rows list's length field grows by at most 4 bytes as rows are added: count it in up front.
    base = run_message_size(query, {"rows": []}) + 4
    size = base
    for row in rows:
        row_size = packed_size(row)
        if base + row_size > options.batch_bytes:
            ident = row.get("id") or f"{row.get('start')}->{row.get('end')}"
            raise KgError(
                f"{group} {ident!r}: one row takes {base + row_size} bytes, over --batch-bytes "
                f"{options.batch_bytes}; raise --batch-bytes (nothing was written)"
            )
        if current and (len(current) >= options.batch_size or size + row_size > options.batch_bytes):
            out.append(Batch(group, query, current, run_message_size(query, {"rows": current})))
            current, size = [], base
        current.append(row)
        size += row_size
    if current:
        out.append(Batch(group, query, current, run_message_size(query, {"rows": current})))
    return out

