"""Live load into a Neo4j (or other Bolt) server with the official ``neo4j`` driver.

Runs a kg.export.bolt_plan.BoltPlan: ``UNWIND $rows AS row MERGE ...``, one
managed transaction (``execute_write``) per batch, so a failure leaves only
whole batches behind and a re-run (MERGE on ``id``) completes the load
without duplicates. Managed transactions also honour the session's database
where a server's auto-commit path may not.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

import neo4j
from neo4j import GraphDatabase
from neo4j.exceptions import AuthError, DriverError, Neo4jError, ServiceUnavailable

from kg.errors import KgError
from kg.export.bolt_plan import (
    COMPONENTS, Batch, BoltPlan, count_nodes, count_relationships, delete_some, unique_constraint,
)


# The driver logs its failures (routing, retries) before raising them; kg reports each failure
# once, in its own words, so the driver's records go nowhere unless an application configures
# the "neo4j" logger itself (a handler stops Python printing them as a last resort).
logging.getLogger("neo4j").addHandler(logging.NullHandler())

BOLT_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")


@dataclass(frozen=True)
class BoltTarget:
    uri: str
    user: str | None = None
    password: str | None = None
    database: str | None = None  # None: the server's default database

    def __post_init__(self) -> None:
        # Checked on creation, so a wrong --uri is reported before any work or progress bar.
        scheme = self.uri.split("://", 1)[0] if "://" in self.uri else ""
        if scheme not in BOLT_SCHEMES:
            raise KgError(f"{self.uri}: not a Bolt URI; use one of {', '.join(s + '://' for s in BOLT_SCHEMES)}"
                          " (e.g. bolt://localhost:7687)")

    @property
    def auth(self) -> tuple[str, str] | None:
        # No password at all means "no auth" (Neo4j with NEO4J_AUTH=none).
        if self.password is None:
            return None
        return (self.user or "neo4j", self.password)


@dataclass(frozen=True)
class ServerProfile:
    agent: str  # what the server announces in its Bolt HELLO
    product: str | None  # the Neo4j kernel dbms.components() names, if it answers

    def describe(self) -> str:
        # Neo4j announces just "Neo4j/5.26.0"; other servers speaking Bolt say more ("Neo4j/5.26.0
        # compatible (ArcadeDB 26.10.2)"), and some answer dbms.components() as a Neo4j kernel too.
        if self.product is None:
            return self.agent
        if self.agent.startswith("Neo4j/") and " " not in self.agent:
            return self.product
        return f"{self.agent}, answering as {self.product}"


@dataclass
class BoltReport:
    server: str
    schema_actions: list[str] = field(default_factory=list)
    deleted: int = 0
    batches: int = 0
    rows: int = 0
    nodes: dict[str, int] = field(default_factory=dict)  # read back from the server
    relationships: dict[str, int] = field(default_factory=dict)


# --- running it -------------------------------------------------------------

def export_bolt(
    the_plan: BoltPlan,
    target: BoltTarget,
    progress: Callable[[int], None] = lambda rows: None,
) -> BoltReport:
    """Run ``the_plan`` (from ``plan``, so size errors come before connecting) against ``target``.

    Any failure is a KgError naming the URI, the cause and how many batches were committed.
    """
    options = the_plan.options
    report = BoltReport(server="?")
    step = "connecting"  # what was under way, for the error message
    try:
        driver = GraphDatabase.driver(target.uri, auth=target.auth, max_transaction_retry_time=options.retry_seconds)
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
                report.schema_actions = _ensure_keys(session, the_plan.labels)
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
    """What the server announces, and what dbms.components() says it is (where it answers)."""
    agent = driver.get_server_info().agent
    try:
        rows = session.execute_read(lambda tx: tx.run(COMPONENTS).data())
    except Neo4jError:
        rows = []
    kernel = [r for r in rows if str(r.get("name", "")).startswith("Neo4j")]
    if kernel:
        r = kernel[0]
        return ServerProfile(agent, f"Neo4j {r.get('version')} {r.get('edition', '')}".strip())
    return ServerProfile(agent, None)


def _ensure_keys(session: neo4j.Session, labels: tuple[str, ...]) -> list[str]:
    """A uniqueness constraint on ``id`` per label (Neo4j 5's DDL, IF NOT EXISTS): MERGE then uses its index."""
    for label in labels:
        session.execute_write(lambda tx, q=unique_constraint(label): tx.run(q).consume())
    return [f"unique constraint on :{label}(id)" for label in labels]


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
        no_password = target is not None and target.password is None
        hint = " (no password given: --password or NEO4J_PASSWORD)" if no_password else ""
        return f"authentication failed for user {who!r}{hint}"
    if isinstance(exc, ServiceUnavailable):
        return "cannot reach the server (is it running, and is this the Bolt port?): " + _one_line(exc)
    if isinstance(exc, Neo4jError):
        return f"the server answered {exc.code}: {_one_line(exc.message or exc)}"
    return f"{type(exc).__name__}: {_one_line(exc)}"


def _one_line(exc: object) -> str:
    """The message on one line (the driver puts the actual reason on its second line)."""
    text = " ".join(str(exc).split())
    return (text[:400] + "...") if len(text) > 400 else text or type(exc).__name__
