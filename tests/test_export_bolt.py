"""`kg export neo4j` against a real Bolt server on loopback (FalkorDB, see tests/falkordb_server.py).

What a Neo4j user relies on: every node and relationship arrives with its
properties, a second run changes nothing, --replace clears kg's old nodes,
batches stay inside the bounds given, and failures are one line naming the
URI, the cause and how many batches were committed.
"""
from __future__ import annotations

import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from neo4j import GraphDatabase

from kg import schema
from kg.errors import KgError
from kg.export.bolt_plan import BoltOptions, node_merge, plan
from kg.export.neo4j_bolt import BoltTarget, export_bolt
from kg.export.packsize import run_message_size
from kg.export.rows import export_graph
from tests.falkordb_server import FalkorServer, bolt, falkordb_server, start_server  # noqa: F401  (fixtures)
from tests.test_export_samples import AWKWARD, sample_graph, write_build

pytestmark = pytest.mark.slow
# FalkorDB 4.16's Bolt endpoint dies on a message over 4 KB (test below records it).
BATCH_BYTES = "3000"


def kg(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    import os

    full_env = {k: v for k, v in os.environ.items() if not k.startswith("NEO4J_")}
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-m", "kg", *args], capture_output=True, text=True, timeout=300,
                          env=full_env)


def export(srv: FalkorServer, build: Path, *extra: str) -> subprocess.CompletedProcess:
    r = kg("export", "neo4j", "--db", str(build), "--uri", srv.bolt_uri, "--batch-bytes", BATCH_BYTES, *extra)
    srv.settle()
    return r


def counts(srv: FalkorServer) -> tuple[dict[str, int], dict[str, int]]:
    g = srv.graph()
    nodes = Counter()
    for (labels, n) in g.query("MATCH (n) RETURN labels(n), count(n)").result_set:
        nodes["/".join(labels)] += n
    rels = dict(g.query("MATCH ()-[r]->() RETURN type(r), count(r)").result_set)
    return dict(nodes), rels


def expected_counts(g) -> tuple[dict[str, int], dict[str, int]]:
    eg = export_graph(g)
    return ({k: v for k, v in eg.node_counts().items() if v}, eg.relationship_counts())


@pytest.fixture
def build(tmp_path):
    return write_build(sample_graph(extra_papers=40), tmp_path / "build")


def test_export_writes_every_node_relationship_and_property(bolt, build):
    r = export(bolt, build)
    assert r.returncode == 0, r.stderr
    g = sample_graph(extra_papers=40)
    assert counts(bolt) == expected_counts(g)

    # Property values of a sample, read back through the server's own client.
    db = bolt.graph()
    (p,) = db.query("MATCH (p:Paper {id: 'p4'}) RETURN properties(p)").result_set[0]
    want = {k: v for k, v in g.nodes["p4"].items() if k != "label" and v is not None}
    assert p == {"id": "p4", **want}
    assert p["abstract"].startswith(AWKWARD)
    (p1,) = db.query("MATCH (p:Paper {id: 'p1'}) RETURN properties(p)").result_set[0]
    assert "year" not in p1 and "venue" not in p1  # None is "no property", as in Neo4j
    for u, v, d in g.edges(data=True):
        if u == "p4" or d["type"] == schema.RELATED_REL:
            rows = db.query(f"MATCH (a:Paper {{id: $u}})-[r:{d['type']}]->(b {{id: $v}}) RETURN properties(r)",
                            {"u": u, "v": v}).result_set
            assert [row[0] for row in rows] == [{k: x for k, x in d.items() if k != "type"}]
    (m,) = db.query("MATCH (m:Method) WHERE m.name = 'Policy Mirror Descent' RETURN properties(m)").result_set[0]
    assert m["aliases"] == ["PMD", "Policy Mirror Descent"] and m["type"] == "Method"
    assert m["papers"] == g.nodes["Method:policy mirror descent"]["papers"] > 40

    # What the user is told: batches committed and the counts read back.
    assert "batches committed" in r.stdout
    want_nodes, want_rels = expected_counts(g)
    assert f"Paper {want_nodes['Paper']}," in r.stdout and f"USES {want_rels['USES']}," in r.stdout


def test_second_run_changes_nothing(bolt, build):
    load(bolt, sample_graph(extra_papers=40))
    first = counts(bolt)
    r = export(bolt, build)
    assert r.returncode == 0, r.stderr
    assert counts(bolt) == first == expected_counts(sample_graph(extra_papers=40))


def load(srv: FalkorServer, g, **options) -> None:
    """The library route, in process, for set-up steps (the CLI runs are what the tests assert on)."""
    export_bolt(plan(export_graph(g), BoltOptions(batch_bytes=int(BATCH_BYTES), **options)), BoltTarget(srv.bolt_uri))
    srv.settle()


def test_replace_clears_kg_nodes_but_a_plain_rerun_keeps_them(bolt, build, tmp_path):
    load(bolt, sample_graph(extra_papers=40))
    bolt.graph().query("CREATE (:Paper {id: 'stale'}), (:Other {id: 'mine'})")
    r = export(bolt, build)
    assert r.returncode == 0 and "other nodes with kg's labels" in r.stderr
    assert counts(bolt)[0]["Paper"] == 45

    r = export(bolt, build, "--replace")
    assert r.returncode == 0, r.stderr
    nodes, rels = counts(bolt)
    want_nodes, want_rels = expected_counts(sample_graph(extra_papers=40))
    assert nodes == {**want_nodes, "Other": 1}  # only kg's labels are cleared
    assert rels == want_rels

    smaller = sample_graph()
    load(bolt, smaller, replace=True)
    assert counts(bolt) == ({**expected_counts(smaller)[0], "Other": 1}, expected_counts(smaller)[1])


# Any text but NUL (FalkorDB, which pastes parameters into its query text, ends a string there;
# Neo4j does not) and lone surrogates (not encodable as UTF-8 at all).
any_text = st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), max_size=40)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(any_text, min_size=1, max_size=8))
def test_any_text_arrives_unchanged(falkordb_server, texts):
    g = nx.DiGraph()
    for i, t in enumerate(texts):
        g.add_node(f"p{i}", label="Paper", title=t, abstract=t + "'\\", text=t, source="", authors=[t, "'"],
                   year=None, venue=None, url=None, keywords=[], key_concepts=[])
    falkordb_server.clear()
    load(falkordb_server, g)
    rows = falkordb_server.graph().query("MATCH (p:Paper) RETURN p.id, p.title, p.abstract, p.authors").result_set
    got = {pid: (title, abstract, authors) for pid, title, abstract, authors in rows}
    assert got == {f"p{i}": (t, t + "'\\", [t, "'"]) for i, t in enumerate(texts)}


def test_batches_respect_both_bounds():
    eg = export_graph(sample_graph(extra_papers=300))
    for size, limit in ((1000, 3000), (7, 1_000_000), (50, 1500)):
        p = plan(eg, BoltOptions(batch_size=size, batch_bytes=limit))
        assert p.rows == sum(eg.node_counts().values()) + sum(eg.relationship_counts().values())
        for b in p.batches:
            assert len(b.rows) <= size
            assert b.size == run_message_size(b.query, {"rows": b.rows}) <= limit
        assert len(p.batches) > len(eg.nodes) + len(eg.relationships)  # bounds actually cut groups


def test_a_row_over_batch_bytes_is_refused_before_connecting():
    eg = export_graph(sample_graph())
    with pytest.raises(KgError, match=r"Paper 'p4': one row takes \d+ bytes, over --batch-bytes 500"):
        plan(eg, BoltOptions(batch_bytes=500))


def test_falkordb_bolt_message_limit_is_about_4_kb():
    """Records why the tests pass --batch-bytes 3000: a 4,094-byte RUN message is fine, 4,096 kills the
    server. If this starts failing, the server was fixed and the limit can go."""
    def send(abstract_len: int) -> tuple[int, bool]:
        """(RUN message bytes, whether the server survived it)."""
        srv = start_server()
        rows = [{"id": "x", "props": {"abstract": "a" * abstract_len}}]
        size = run_message_size(node_merge("Paper"), {"rows": rows})
        try:
            with GraphDatabase.driver(srv.bolt_uri, auth=None, max_transaction_retry_time=0) as d:
                with d.session() as s:
                    s.execute_write(lambda tx: tx.run(node_merge("Paper"), rows=rows).consume())
        except Exception:
            pass
        finally:
            time.sleep(0.3)
            survived = srv.alive()
            srv.stop()
        return size, survived

    assert send(3990) == (4094, True)
    assert send(3992) == (4096, False)


def test_connection_refused_is_one_line_with_uri_and_exit_2(build):
    r = kg("export", "neo4j", str(build), "--uri", "bolt://127.0.0.1:9", "--batch-bytes", BATCH_BYTES)
    assert r.returncode == 2
    (line,) = r.stderr.strip().splitlines()  # the whole of stderr: no empty progress bar before it
    assert line.startswith("kg: error: bolt://127.0.0.1:9: cannot reach the server")
    assert "Connection refused" in line and "0 of " in line and "Traceback" not in r.stderr


def test_a_routing_failure_is_reported_once_in_kgs_words(build):
    r = kg("export", "neo4j", str(build), "--uri", "neo4j://127.0.0.1:9", "--batch-bytes", BATCH_BYTES)
    assert r.returncode == 2
    assert r.stderr.count("Unable to retrieve routing information") == 1, r.stderr  # not the driver's log too
    assert r.stderr.strip().splitlines()[-1].startswith("kg: error: neo4j://127.0.0.1:9: cannot reach the server")


def test_a_uri_that_is_not_bolt_is_one_line(build):
    r = kg("export", "neo4j", str(build), "--uri", "http://localhost:7474")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip() == (  # the whole of stderr: no progress bar drawn before it
        "kg: error: http://localhost:7474: not a Bolt URI; use one of bolt://, bolt+s://, bolt+ssc://, neo4j://, "
        "neo4j+s://, neo4j+ssc:// (e.g. bolt://localhost:7687)")


def test_env_vars_name_the_server(bolt, build):
    r = kg("export", "neo4j", str(build), "--batch-bytes", BATCH_BYTES, env={"NEO4J_URI": bolt.bolt_uri})
    bolt.settle()
    assert r.returncode == 0, r.stderr
    assert f"to {bolt.bolt_uri}" in r.stdout


def test_a_login_the_server_refuses_is_one_line(bolt, build):
    # This server refuses any password (it has no users); Neo4j says "authentication failed" instead.
    r = kg("export", "neo4j", str(build), "--uri", bolt.bolt_uri, "--password", "wrong", "--batch-bytes", BATCH_BYTES)
    bolt.settle()
    assert r.returncode == 2
    (line,) = [x for x in r.stderr.splitlines() if x.startswith("kg: error:")]
    assert line.startswith(f"kg: error: {bolt.bolt_uri}: ") and "while connecting; 0 of " in line


def test_a_failure_mid_load_reports_committed_batches_and_a_rerun_finishes(tmp_path):
    """The server dies on one batch (a relationship sentence over its 4 KB limit): the message says how
    many batches were committed; nothing after them is half-written; a re-run on a fresh server works."""
    g = sample_graph()
    u, v = next((u, v) for u, v, d in g.edges(data=True) if d["type"] == "USES")
    g.edges[u, v]["sentences"] = ["x" * 4500] + g.edges[u, v]["sentences"][1:]
    build = write_build(g, tmp_path / "b")
    srv = start_server()
    try:
        r = kg("export", "neo4j", str(build), "--uri", srv.bolt_uri, "--batch-bytes", "10000", "--retry-time", "1")
        assert r.returncode == 2
        (line,) = [x for x in r.stderr.splitlines() if x.startswith("kg: error:")]
        batches = plan(export_graph(g), BoltOptions(batch_bytes=10000)).batches
        failing = next(i for i, b in enumerate(batches) if any("x" * 4500 in r["props"].get("sentences", [])
                                                              for r in b.rows))
        assert failing > 0
        assert f"; {failing} of {len(batches)} batches committed (re-run to finish" in line
        assert f"writing batch {failing + 1} (USES" in line
        # Whole batches only: everything before the failing batch is there, nothing after it.
        nodes, rels = counts(srv) if srv.alive() else (None, None)
        assert nodes is None or rels.get("USES", 0) == 0
    finally:
        srv.stop()
