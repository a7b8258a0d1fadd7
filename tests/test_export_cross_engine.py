"""The ready queries give the same answers on the embedded store and on a Bolt server after an export,
so a user's queries carry over to Neo4j unchanged.

The same graph goes into LadybugDB (kg.store.write_store) and, through the
Bolt exporter, into ArcadeDB (tests/arcadedb_server.py); every ``queries/*.cypher`` runs on both (over
Bolt with the neo4j driver, as a Neo4j user would run it) and the rows must
match. collect() order is unspecified in Cypher, so lists are compared as
sorted; floats to 9 decimals.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from neo4j import GraphDatabase

from kg.export.bolt_plan import BoltOptions, plan
from kg.export.neo4j_bolt import BoltTarget, export_bolt
from kg.export.rows import export_graph
from kg.store.querying import query_params, read_query
from kg.store import Store, write_store
from tests.arcadedb_server import arcadedb_server, bolt  # noqa: F401  (fixtures)
from tests.test_export_samples import sample_graph

pytestmark = pytest.mark.slow
QUERIES = sorted((Path(__file__).parent.parent / "queries").glob("*.cypher"))
# p1 shares concepts with p2 and p3 and has RELATED_TO edges; the filler papers, of two years, use PMD
# for reinforcement learning.
PARAMS = {"paper": "p1", "name": "PMD", "task": "reinforcement learning"}


def canonical(value):
    if isinstance(value, float):
        return round(value, 9)
    if isinstance(value, list):
        return sorted((canonical(v) for v in value), key=repr)
    if isinstance(value, dict):
        return {k: canonical(v) for k, v in value.items()}
    return value


def cells(rows: list[list]) -> list[list]:
    """Rows in their order (ORDER BY is part of the answer), each cell canonical."""
    return [[canonical(c) for c in row] for row in rows]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    path = tmp_path_factory.mktemp("store") / "store"
    write_store(sample_graph(extra_papers=6), path)
    with Store(path) as s:
        yield s


def test_there_are_queries_to_compare():
    assert len(QUERIES) >= 5


def test_every_ready_query_answers_the_same_on_both_engines(bolt, store):
    export_bolt(plan(export_graph(sample_graph(extra_papers=6)), BoltOptions()),
                BoltTarget(bolt.bolt_uri, *bolt.auth))
    compared = 0
    with GraphDatabase.driver(bolt.bolt_uri, auth=bolt.auth) as driver, driver.session() as session:
        for path in QUERIES:
            text = read_query(str(path))
            params = {name: PARAMS[name] for name in query_params(text)}
            embedded = store.query(text, params)
            result = session.execute_read(lambda tx: (lambda r: (r.keys(), [list(x.values()) for x in r]))(
                tx.run(text, params)))
            columns, rows = result
            assert list(columns) == embedded.columns, path.name
            assert rows, path.name  # an empty answer on both would prove nothing
            assert cells(rows) == cells(embedded.rows), (path.name, rows, embedded.rows)
            compared += 1
    assert compared == len(QUERIES)
