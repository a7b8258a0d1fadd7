"""The embedded Cypher store: the graph loaded into LadybugDB, queried with no server.

Tables follow kg.schema exactly: one node table per label, keyed by ``id``,
and one relationship table per relationship type (an entity-to-entity type has
every pair of entity labels as its FROM/TO pairs, loaded pair by pair). Loading uses the engine's
bulk ``COPY <table> FROM '<file>'`` from a Parquet file of the table's rows that kg writes beside
the store, so no text from the corpus is ever spliced into a statement.
"""
from __future__ import annotations

import os
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ladybug
import networkx as nx

from kg import schema
from kg.util.compat import batched
from kg.errors import KgError
from kg.util.signals import deferred_sigint

_BATCH = 20_000  # rows converted to Arrow at a time
# The engine's default buffer pool is most of the machine's memory and a bulk load fills
# what it is given, so writes get a pool sized to the graph: 512 MB up to ~25k papers, then
# 20 kB per paper (at 100k papers the COPY of RELATED_TO, a million rows with list properties,
# fails with 1.5 GB). Where that is still too small, the write is retried with twice the pool.
_WRITE_POOL_MIN = 512 * 1024 * 1024
_WRITE_POOL_PER_PAPER = 20 * 1024
_POOL_FULL = "buffer pool is full"


@dataclass(frozen=True)
class QueryResult:
    """A query's rows, each a list of values in the order of ``columns``."""

    columns: list[str]
    rows: list[list[Any]]

    def records(self) -> list[dict[str, Any]]:
        """The rows as dicts keyed by column, in the columns' order (``pandas.DataFrame`` takes the list)."""
        return [dict(zip(self.columns, row)) for row in self.rows]


class Store:
    """A LadybugDB database of one build; open read-only unless writing it."""

    def __init__(self, path: Path | str, read_only: bool = True, pool_bytes: int | None = None):
        self.path = Path(path)
        if read_only and not self.path.exists():
            raise KgError(f"{self.path}: no embedded store here (rebuild with `kg build`)")
        try:
            pool = {} if read_only else {"buffer_pool_size": pool_bytes or _WRITE_POOL_MIN}
            self._db = ladybug.Database(str(self.path), read_only=read_only, **pool)
            try:
                self._conn = ladybug.Connection(self._db)
            except BaseException:
                self._db.close()
                raise
        except RuntimeError as exc:
            raise KgError(_engine_message(self.path, exc)) from None

    def query(self, cypher: str, params: dict[str, Any] | None = None, timeout: float | None = None) -> QueryResult:
        """Run one Cypher statement; the engine's own message on any error.

        ``timeout`` (seconds) stops a query that runs longer, with an error saying so."""
        if timeout:
            self._conn.set_query_timeout(max(1, round(timeout * 1000)))
        try:
            result = self._conn.execute(cypher, params or {})
        except RuntimeError as exc:
            if timeout and str(exc).strip() == "Interrupted.":
                raise KgError(_timeout_message(cypher, timeout)) from None
            raise KgError(_engine_message(self.path, exc)) from None
        finally:
            if timeout:
                self._conn.set_query_timeout(0)
        if isinstance(result, list):  # several statements: the last one answers
            result = result[-1]
        columns = [_column_name(c) for c in result.get_column_names()]
        rows = []
        while result.has_next():
            rows.append([plain(v) for v in result.get_next()])
        return QueryResult(columns=columns, rows=rows)

    def execute(self, cypher: str, params: dict[str, Any] | None = None) -> None:
        self.query(cypher, params)

    def load(self, cypher: str) -> None:
        """Run a bulk statement (``COPY ... FROM '<file>'``), with no parameters: ``execute`` runs a
        statement without parameters as it stands, where one with them is prepared and kept in the
        connection's cache with its values until the store is closed (an Arrow table given as
        ``$rows`` stayed in memory for the whole write). Statements prepared by hand, which
        ladybug 0.22 deprecates, are not needed: the rows come from a file the engine reads."""
        try:
            self._conn.execute(cypher).close()
        except RuntimeError as exc:
            raise KgError(_engine_message(self.path, exc)) from None

    def close(self) -> None:
        try:
            self._conn.close()
        finally:
            self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def plain(value: Any) -> Any:
    """Engine values as plain data: nodes and relationships become their property maps."""
    if isinstance(value, dict):
        label = value.get("_LABEL", value.get("_label"))
        if label is not None:  # a node or relationship: its label and properties, no engine ids
            props = {k: plain(v) for k, v in value.items() if not k.startswith("_") and v is not None}
            return {"_label": label, **props}
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def write_store(g: nx.DiGraph, path: Path | str, cancelled: Callable[[], bool] | None = None) -> None:
    """Create a new store at ``path`` (which must not exist) holding graph ``g``. ``cancelled``:
    asked between statements; when it says True the write stops with ``StoreCancelled``."""
    path = Path(path)
    if path.exists():
        raise KgError(f"{path}: already exists; kg writes a new store and swaps it in")
    papers = sum(1 for _, label in g.nodes(data="label") if label == schema.PAPER)
    pool = max(_WRITE_POOL_MIN, papers * _WRITE_POOL_PER_PAPER)
    limit = _memory_bytes() // 2
    with _sigint_between_statements() as interrupted:
        def check() -> None:
            interrupted()
            if cancelled is not None and cancelled():
                raise StoreCancelled(str(path))

        while True:
            try:
                _write_tables(g, path, check, pool)
                return
            except KgError as exc:
                if _POOL_FULL not in str(exc) or pool * 2 > limit:
                    raise
            _remove_store(path)
            pool *= 2


class StoreCancelled(Exception):
    """A store write stopped because its caller gave up (``write_store``'s ``cancelled``)."""


@contextmanager
def store_written_meanwhile(g: nx.DiGraph, path: Path | str, background: bool = True) -> Iterator[Callable[[], float]]:
    """Write the store of ``g`` at ``path`` in a thread while the block runs, and wait for it at
    the end of the block: the engine runs its statements outside the GIL, so a build writes its
    pages and graph files meanwhile. The block gets a function giving the write's seconds.

    An error of the write is raised at the end of the block. When the block itself fails (or
    is interrupted), the write is stopped at its next statement and waited for, so nothing is
    still writing into a folder the caller then removes. ``background=False`` writes the store
    first, in this thread: for a block that forks processes, which must not copy a process
    whose other thread is inside the engine."""
    seconds = [0.0]
    if not background:
        t = time.perf_counter()
        write_store(g, path)
        seconds[0] = time.perf_counter() - t
        yield lambda: seconds[0]
        return
    stop = threading.Event()
    errors: list[BaseException] = []

    def run() -> None:
        t = time.perf_counter()
        try:
            write_store(g, path, cancelled=stop.is_set)
        except BaseException as exc:  # raised again in the caller's thread
            errors.append(exc)
        seconds[0] = time.perf_counter() - t

    thread = threading.Thread(target=run, name="kg-store-writer", daemon=True)
    try:
        # A Ctrl-C while the thread starts is raised once it has: raised inside start(), it
        # would leave a writer that nothing waits for, still in the engine when Python exits.
        with _sigint_between_statements():
            thread.start()
        yield lambda: seconds[0]
        thread.join()
    except BaseException:
        stop.set()
        if thread.ident is not None:  # started
            # The writer stops after its statement; a second Ctrl-C meanwhile must not leave it
            # writing into a folder the caller removes (nor in the engine when Python exits).
            with _sigint_between_statements():
                thread.join()
        raise
    if errors:
        raise errors[0]


def _memory_bytes() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):  # pragma: no cover - not Linux
        return 8 * 1024**3


def _remove_store(path: Path) -> None:
    """A half-written store: the database file and the engine's side files (.wal, .shadow...)."""
    for p in [path, *path.parent.glob(path.name + ".*")]:
        if not p.exists():
            continue
        if p.is_dir():  # pragma: no cover - the engine writes files today
            shutil.rmtree(p)
        else:
            p.unlink()


@contextmanager
def _sigint_between_statements() -> Iterator[Callable[[], None]]:
    """Ctrl-C while the store is written: finish the statement, then raise KeyboardInterrupt
    (at the next ``check()``, or when the block ends).

    ladybug swallows a KeyboardInterrupt that lands while it checks the SIGINT handler
    before a statement (it prints "Exception ignored ..." and goes on), so a Ctrl-C at
    that instant would be lost. Here the signal is only recorded, and raised between
    statements (each is at most one COPY batch).
    """
    with deferred_sigint() as interrupted:
        def check() -> None:
            if interrupted():
                raise KeyboardInterrupt

        yield check
    check()


def _write_tables(g: nx.DiGraph, path: Path, check: Callable[[], None], pool: int) -> None:
    # The rows of each table pass through a Parquet file in a folder beside the store (``_copy``).
    with tempfile.TemporaryDirectory(prefix=f"{path.name}.rows-", dir=path.parent) as scratch:
        _copy_tables(g, path, check, pool, Path(scratch))


def _copy_tables(g: nx.DiGraph, path: Path, check: Callable[[], None], pool: int, scratch: Path) -> None:
    store = Store(path, read_only=False, pool_bytes=pool)
    tables = _rel_tables()
    try:
        check()  # inside: a store left open when the write stops aborts the process at exit
        for label in schema.NODE_LABELS:
            props = schema.node_properties(label)
            cols = ", ".join(f"{name} {typ}" for name, typ in props.items())
            store.execute(f"CREATE NODE TABLE {label}({cols}, PRIMARY KEY(id))")
            check()
        for rel, pairs in tables.items():
            props = schema.relationship_properties(rel)
            ends = ", ".join(f"FROM {src} TO {dst}" for src, dst in pairs)
            cols = "".join(f", {name} {typ}" for name, typ in props.items())
            store.execute(f"CREATE REL TABLE {rel}({ends}{cols})")
            check()

        for label in schema.NODE_LABELS:
            props = schema.node_properties(label)
            rows = (
                {"id": n, **{p: d.get(p) for p in props if p != "id"}}
                for n, d in g.nodes(data=True)
                if d["label"] == label
            )
            _copy(store, label, dict(props), rows, check, scratch)
        entity_rels = _entity_relationship_rows(g)
        for rel, pairs in tables.items():
            props = schema.relationship_properties(rel)
            columns = {"_from": "STRING", "_to": "STRING", **props}
            if rel not in schema.ENTITY_RELS:
                rows = (
                    {"_from": u, "_to": v, **{p: d.get(p) for p in props}}
                    for u, v, d in g.edges(data=True)
                    if d["type"] == rel
                )
                _copy(store, rel, columns, rows, check, scratch)
                continue
            for pair in pairs:
                # A table of several (FROM, TO) pairs is loaded one pair at a time, the pair named.
                _copy(store, rel, columns, entity_rels.get((rel, *pair), []), check, scratch, pair=pair)
    finally:
        store.close()


def _rel_tables() -> dict[str, list[tuple[str, str]]]:
    """Relationship type -> its (from label, to label) pairs, in schema order."""
    tables: dict[str, list[tuple[str, str]]] = {}
    for rel, src, dst in schema.relationship_types():
        tables.setdefault(rel, []).append((src, dst))
    return tables


def _entity_relationship_rows(g: nx.DiGraph) -> dict[tuple[str, str, str], list[dict]]:
    """(type, from label, to label) -> rows of the entity-to-entity edges: read from the entities'
    own out-edges, which are few, rather than from every paper's mentions."""
    props = schema.ENTITY_REL_PROPERTIES
    out: dict[tuple[str, str, str], list[dict]] = {}
    for u, label in g.nodes(data="label"):
        if label == schema.PAPER:
            continue
        for _, v, d in g.out_edges(u, data=True):
            if d["type"] in schema.ENTITY_RELS:
                row = {"_from": u, "_to": v, **{p: d.get(p) for p in props}}
                out.setdefault((d["type"], label, g.nodes[v]["label"]), []).append(row)
    return out


def _copy(store: Store, table: str, columns: dict[str, str], rows: Iterable[dict],
          check: Callable[[], None], scratch: Path, pair: tuple[str, str] | None = None) -> None:
    """One bulk COPY per table, from a Parquet file of its rows written batch by batch in ``scratch``.

    The engine reads the file itself, so this process never holds a whole table: copied from an
    Arrow table given as a parameter, the table stayed in memory for the whole copy (at 100k
    papers the copy of RELATED_TO, a million rows with three list properties, peaked 0.45 GB
    higher, and took 76 s instead of 59). Several COPY statements into one relationship table
    are slow: each merges into what the table holds (100k papers' RELATED_TO in chunks of 200k
    rows ran over 8 minutes, against 66 s in one; given their rows as a parameter, through the
    connection's statement cache, they crashed ladybug 0.22; from files, with no parameter, six
    COPYs of 200k rows into one table land). The statement names the file: kg's own path,
    quoted, never text from the corpus.
    """
    import pyarrow as pa  # here, not at the top: commands that only read the store skip its import
    import pyarrow.parquet as pq

    arrow = {"STRING": pa.string(), "INT64": pa.int64(), "DOUBLE": pa.float64(),
             "STRING[]": pa.list_(pa.string()), "INT64[]": pa.list_(pa.int64())}
    schema = pa.schema([(name, arrow[typ]) for name, typ in columns.items()])
    file = scratch / f"{table}{'-' + '-'.join(pair) if pair else ''}.parquet"
    written = 0
    with pq.ParquetWriter(file, schema) as writer:
        for batch in batched(rows, _BATCH):
            writer.write_batch(pa.RecordBatch.from_pylist(batch, schema=schema))
            written += len(batch)
    check()
    if written:
        ends = f" (from='{pair[0]}', to='{pair[1]}')" if pair else ""
        store.load(f"COPY {table} FROM {_string_literal(str(file))}{ends}")
        check()
    file.unlink()


def _string_literal(text: str) -> str:
    """``text`` as a Cypher string literal."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _column_name(name: str) -> str:
    """An unnamed column as written: the engine names ``count(p)`` "COUNT(p._ID)" and ``label(r)``
    "LABEL(r._ID,[,,USES,...])" after its internal ids."""
    name = re.sub(r"\b(LABEL\(\w+)\._ID,\[[^\]]*\]\)", r"\1)", name)
    # not a bare "p._ID": that is what id(p) is called
    return re.sub(r"\(((?:DISTINCT\s+)?\w+)\._ID\)", r"(\1)", name)


# Neo4j habits the embedded engine spells otherwise: said with the engine's error.
_DIALECT_HINTS = (
    (re.compile(r"function TYPE does not exist", re.I), "a relationship's type is label(r) here"),
    (re.compile(r"function (SHORTESTPATH|ALLSHORTESTPATHS) does not exist|shortestPath", re.I),
     "shortest paths are written MATCH p = (a)-[* SHORTEST 1..5]-(b)"),
    (re.compile(r"function APOC\.|<CALL apoc\.", re.I),
     "APOC procedures exist only in Neo4j (export with `kg export`)"),
)


def _timeout_message(cypher: str, timeout: float) -> str:
    msg = f"the query ran longer than {timeout:g} s and was stopped (--timeout)"
    if re.search(r"-\s*\[[^\]]*\*", cypher):  # a relationship pattern, not [x IN l | x*2]
        # The engine follows every walk, edges repeated, up to 30 hops: the count explodes.
        msg += "; a variable-length pattern follows every walk, so keep its bound small, e.g. [*1..3]"
    return msg


def _engine_message(path: Path, exc: RuntimeError) -> str:
    msg = " ".join(str(exc).split())
    if "lock" in msg.lower():
        return f"{path}: the store is busy (another kg process is writing it); try again when it finishes"
    if "read-only database" in msg:
        return (f"{msg} (kg opens a build's store read-only: change the corpus and rebuild, "
                "or export the graph to Neo4j to edit it)")
    if "may be checkpointing" in msg:  # what a truncated store file says too
        return f"{path}: the store cannot be read (being written, or damaged); if this persists, rebuild with `kg build`"
    if "not a valid" in msg.lower() and "database file" in msg.lower():
        return f"{path}: not a LadybugDB store kg can read (damaged or from another program); rebuild with `kg build`"
    hints = [hint for pattern, hint in _DIALECT_HINTS if pattern.search(msg)]
    if hints:
        msg += f" (LadybugDB's Cypher: {'; '.join(hints)}; see README, \"Cypher on the embedded store\")"
    return msg
