"""Live load into a Neo4j (or other Bolt) server with the official ``neo4j`` driver.

The graph goes in as ``UNWIND $rows AS row MERGE ...`` statements, one managed
transaction (``execute_write``) per batch, so a failure leaves only whole
batches behind and a re-run (MERGE on ``id``) completes the load without
duplicates. Batches are bounded by rows and by the encoded size of the Bolt
message, because some Bolt servers (FalkorDB 4.16) crash on large messages.

Every statement text is built by ``BoltPlan`` before the first write, so the
lint test sees exactly what is sent. Labels, types and property keys spliced
into statements come from kg.schema, never from the corpus; values always
travel as parameters.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import neo4j
from neo4j import GraphDatabase
from neo4j.exceptions import AuthError, DriverError, Neo4jError, ServiceUnavailable

from kg import schema
from kg.errors import KgError
from kg.export.packsize import packed_size, run_message_size
from kg.export.rows import ExportGraph, NodeGroup, RelGroup

DEFAULT_BATCH_SIZE = 1000
DEFAULT_BATCH_BYTES = 1_000_000


@dataclass(frozen=True)
class BoltTarget:
    uri: str
    user: str | None = None
    password: str | None = None
    database: str | None = None  # None: the server's default database

    @property
    def auth(self) -> tuple[str, str] | None:
        # No password at all means "no auth" (Neo4j with NEO4J_AUTH=none, FalkorDB).
        if self.password is None:
            return None
        return (self.user or "neo4j", self.password)


@dataclass(frozen=True)
class BoltOptions:
    batch_size: int = DEFAULT_BATCH_SIZE  # rows per transaction, at most
    batch_bytes: int = DEFAULT_BATCH_BYTES  # encoded RUN message size per transaction, at most
    replace: bool = False  # delete every node with one of kg's labels first


@dataclass(frozen=True)
class Batch:
    group: str  # "Paper" or "USES (Paper->Method)", for messages
    query: str
    rows: list[dict[str, Any]]
    size: int  # encoded bytes of the RUN message


@dataclass(frozen=True)
class ServerProfile:
    agent: str  # what the server announces in its Bolt HELLO
    neo4j: bool  # dbms.components() answered as Neo4j: constraint DDL is available
    product: str

    def describe(self) -> str:
        return self.product if self.product == self.agent else f"{self.product} (announces {self.agent})"


@dataclass
class BoltReport:
    server: str
    schema_actions: list[str] = field(default_factory=list)
    deleted: int = 0
    batches: int = 0
    rows: int = 0
    nodes: dict[str, int] = field(default_factory=dict)  # read back from the server
    relationships: dict[str, int] = field(default_factory=dict)


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


def plain_index(label: str) -> str:
    # The older, unnamed form that servers without constraint DDL (FalkorDB) accept.
    return f"CREATE INDEX FOR (n:{label}) ON (n.id)"


def delete_some(label: str) -> str:
    return f"MATCH (n:{label}) WITH n LIMIT $limit DETACH DELETE n RETURN count(*) AS deleted"


def count_nodes(label: str) -> str:
    return f"MATCH (n:{label}) RETURN count(n) AS n"


def count_relationships(rel_type: str) -> str:
    return f"MATCH ()-[r:{rel_type}]->() RETURN count(r) AS n"


COMPONENTS = "CALL dbms.components() YIELD name, versions, edition RETURN name, versions[0] AS version, edition"
INDEXES = "CALL db.indexes() YIELD label, properties RETURN label, properties"


@dataclass(frozen=True)
class BoltPlan:
    """Everything the exporter will send, computed before it connects."""

    batches: list[Batch]
    labels: tuple[str, ...]
    rel_types: tuple[str, ...]

    @property
    def rows(self) -> int:
        return sum(len(b.rows) for b in self.batches)

    def statements(self) -> dict[str, set[str]]:
        """Every statement text the exporter can send, with the parameters it declares."""
        out: dict[str, set[str]] = {COMPONENTS: set(), INDEXES: set()}
        for b in self.batches:
            out[b.query] = {"rows"}
        for label in self.labels:
            out[unique_constraint(label)] = set()
            out[plain_index(label)] = set()
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
    return BoltPlan(batches, schema.NODE_LABELS, rel_types)


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


# --- running it -------------------------------------------------------------

def export_bolt(
    the_plan: BoltPlan,
    target: BoltTarget,
    options: BoltOptions = BoltOptions(),
    progress: Callable[[int], None] = lambda rows: None,
) -> BoltReport:
    """Run ``the_plan`` (from ``plan``, so size errors come before connecting) against ``target``.

    Any failure is a KgError naming the URI, the cause and how many batches were committed.
    """
    report = BoltReport(server="?")
    step = "connecting"  # what was under way, for the error message
    try:
        driver = GraphDatabase.driver(target.uri, auth=target.auth)
    except (ValueError, DriverError) as exc:  # a malformed URI
        raise KgError(f"{target.uri}: {_cause(exc)}") from None
    try:
        with driver:
            driver.verify_connectivity()
            with driver.session(database=target.database) as session:
                step = "asking the server what it is"
                profile = detect(driver, session)
                report.server = profile.describe()
                if options.replace:
                    step = "deleting kg's nodes (--replace)"
                    report.deleted = _delete_all(session, the_plan.labels, options.batch_size)
                step = "creating constraints"
                report.schema_actions = _ensure_keys(session, profile, the_plan.labels)
                for i, batch in enumerate(the_plan.batches, 1):
                    step = f"writing batch {i} ({batch.group}, {len(batch.rows)} rows, {batch.size} bytes)"
                    session.execute_write(_run_batch, batch)
                    report.batches += 1
                    report.rows += len(batch.rows)
                    progress(len(batch.rows))
                step = "counting what the database holds"
                report.nodes = {lb: _count(session, count_nodes(lb)) for lb in the_plan.labels}
                report.relationships = {t: _count(session, count_relationships(t)) for t in the_plan.rel_types}
    except (Neo4jError, DriverError, OSError) as exc:
        done = f"{report.batches} of {len(the_plan.batches)} batches committed"
        if report.batches:
            done += " (re-run to finish: the load is idempotent)"
        raise KgError(f"{target.uri}: {_cause(exc, target)} while {step}; {done}") from None
    return report


def detect(driver: neo4j.Driver, session: neo4j.Session) -> ServerProfile:
    """Neo4j answers dbms.components(); other Bolt servers may announce "Neo4j/x" but do not."""
    agent = driver.get_server_info().agent
    try:
        rows = session.execute_read(lambda tx: tx.run(COMPONENTS).data())
    except Neo4jError:
        rows = []
    kernel = [r for r in rows if str(r.get("name", "")).startswith("Neo4j")]
    if kernel:
        r = kernel[0]
        return ServerProfile(agent, True, f"Neo4j {r.get('version')} {r.get('edition', '')}".strip())
    return ServerProfile(agent, False, "a Bolt server that is not Neo4j")


def _ensure_keys(session: neo4j.Session, profile: ServerProfile, labels: tuple[str, ...]) -> list[str]:
    """Uniqueness constraints on Neo4j; a plain index on ``id`` where only that exists; else nothing."""
    if profile.neo4j:
        for label in labels:
            session.execute_write(lambda tx, q=unique_constraint(label): tx.run(q).consume())
        return [f"unique constraint on :{label}(id)" for label in labels]
    try:
        indexed = {r["label"] for r in session.execute_read(lambda tx: tx.run(INDEXES).data()) if r["properties"] == ["id"]}
    except Neo4jError:
        return ["no index (the server lists none and supports no constraints)"]
    actions = []
    for label in labels:
        if label in indexed:
            continue
        try:
            session.execute_write(lambda tx, q=plain_index(label): tx.run(q).consume())
            actions.append(f"index on :{label}(id)")
        except Neo4jError:
            actions.append(f"no index on :{label}(id) (server refused)")
    return actions


def _run_batch(tx: neo4j.ManagedTransaction, batch: Batch) -> None:
    tx.run(batch.query, rows=batch.rows).consume()


def _delete_all(session: neo4j.Session, labels: tuple[str, ...], limit: int) -> int:
    """Delete kg's nodes (and their relationships) a batch per transaction, to bound memory."""
    total = 0
    for label in labels:
        while True:
            n = session.execute_write(lambda tx, q=delete_some(label): tx.run(q, limit=limit).single()["deleted"])
            total += n
            if n == 0:
                break
    return total


def _count(session: neo4j.Session, query: str) -> int:
    return session.execute_read(lambda tx: tx.run(query).single()["n"])


def _cause(exc: Exception, target: BoltTarget | None = None) -> str:
    """One line a user can act on, from a driver or server exception."""
    if isinstance(exc, AuthError):
        who = target.user if target and target.user else "neo4j"
        hint = "" if target is None or target.password is not None else " (no password given: --password or NEO4J_PASSWORD)"
        return f"authentication failed for user {who!r}{hint}"
    if isinstance(exc, ServiceUnavailable):
        return "cannot reach the server (is it running, and is this the Bolt port?): " + _first_line(exc)
    if isinstance(exc, Neo4jError):
        return f"the server answered {exc.code}: {_first_line(exc.message or exc)}"
    return f"{type(exc).__name__}: {_first_line(exc)}"


def _first_line(exc: object) -> str:
    text = " ".join(str(exc).split("\n")[:1]).strip()
    return text[:300] or type(exc).__name__
