"""`kg export neo4j` against a real Bolt server on loopback (ArcadeDB, see tests/arcadedb_server.py).

What a Neo4j user relies on: every node and relationship arrives with its
properties, a second run changes nothing, --replace clears kg's old nodes,
batches stay inside the bounds given, and failures are one line naming the
URI, the cause and how many batches were committed. These use small hand-made
graphs; tests/test_export_bolt_corpora.py exports real builds at full size.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from kg import schema
from kg.errors import KgError
from kg.export.bolt_plan import BoltOptions, plan
from kg.export.neo4j_bolt import BoltTarget, export_bolt
from kg.export.packsize import run_message_size
from kg.export.rows import export_graph
from tests.arcadedb_server import PASSWORD, USER, ArcadeServer, arcadedb_server, bolt, start_server  # noqa: F401
from tests.test_export_samples import AWKWARD, sample_graph, write_build

pytestmark = pytest.mark.slow


def kg(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("NEO4J_")}
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-m", "kg", *args], capture_output=True, text=True, timeout=300,
                          env=full_env)


def export(srv: ArcadeServer, build: Path, *extra: str) -> subprocess.CompletedProcess:
    return kg("export", "neo4j", "--db", str(build), "--uri", srv.bolt_uri, "--user", USER, "--password", PASSWORD,
              *extra)


def counts(srv: ArcadeServer) -> tuple[dict[str, int], dict[str, int]]:
    return srv.counts()


def properties(srv: ArcadeServer, query: str, **params) -> list[dict]:
    """The ``p`` column of each row: a node's or relationship's properties."""
    return [row["p"] for row in srv.run(query, **params)]


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

    # Property values of a sample, read back over Bolt.
    (p,) = properties(bolt, "MATCH (p:Paper {id: 'p4'}) RETURN properties(p) AS p")
    want = {k: v for k, v in g.nodes["p4"].items() if k != "label" and v is not None}
    assert p == {"id": "p4", **want}
    assert p["abstract"].startswith(AWKWARD)
    (p1,) = properties(bolt, "MATCH (p:Paper {id: 'p1'}) RETURN properties(p) AS p")
    assert "year" not in p1 and "venue" not in p1  # None is "no property", as in Neo4j
    for u, v, d in g.edges(data=True):
        if u == "p4" or d["type"] == schema.RELATED_REL or d["type"] in schema.ENTITY_RELS:
            start = g.nodes[u]["label"]
            rows = properties(bolt, f"MATCH (a:{start} {{id: $u}})-[r:{d['type']}]->(b {{id: $v}}) RETURN properties(r) AS p",
                              u=u, v=v)
            assert rows == [{k: x for k, x in d.items() if k != "type"}]
    # Named "PMD", the form 41 of its 42 papers write (kg.concepts.resolve.display_name).
    (m,) = properties(bolt, "MATCH (m:Method) WHERE m.id = 'Method:policy mirror descent' RETURN properties(m) AS p")
    assert m["name"] == "PMD" and m["aliases"] == ["PMD", "Policy Mirror Descent"] and m["type"] == "Method"
    assert m["level"] == g.nodes["Method:policy mirror descent"]["level"]  # the concept stage's properties too
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


def load(srv: ArcadeServer, g, **options) -> None:
    """The library route, in process, for set-up steps (the CLI runs are what the tests assert on)."""
    export_bolt(plan(export_graph(g), BoltOptions(**options)), BoltTarget(srv.bolt_uri, USER, PASSWORD))


def test_replace_clears_kg_nodes_but_a_plain_rerun_keeps_them(bolt, build, tmp_path):
    load(bolt, sample_graph(extra_papers=40))
    bolt.run("CREATE (:Paper {id: 'stale'}), (:Other {id: 'mine'})")
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


# Any text but lone surrogates (not encodable as UTF-8 at all).
any_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(any_text, min_size=1, max_size=8))
@example(texts=["a NUL \x00 inside", "It's \\ a \"quote\" \t\u2028 😀", ""])
def test_any_text_arrives_unchanged(arcadedb_server, texts):
    g = nx.DiGraph()
    for i, t in enumerate(texts):
        g.add_node(f"p{i}", label="Paper", title=t, abstract=t + "'\\", text=t, source="", authors=[t, "'"],
                   year=None, venue=None, url=None, keywords=[], key_concepts=[])
    arcadedb_server.clear()
    load(arcadedb_server, g)
    rows = arcadedb_server.run("MATCH (p:Paper) RETURN p.id AS id, p.title AS t, p.abstract AS a, p.authors AS au")
    got = {r["id"]: (r["t"], r["a"], r["au"]) for r in rows}
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
    with pytest.raises(KgError, match=r"Paper 'p4': one row takes \d+ bytes, over --batch-bytes 400"):
        plan(eg, BoltOptions(batch_bytes=400))


def test_connection_refused_is_one_line_with_uri_and_exit_2(build):
    r = kg("export", "neo4j", str(build), "--uri", "bolt://127.0.0.1:9")
    assert r.returncode == 2
    (line,) = r.stderr.strip().splitlines()  # the whole of stderr: no empty progress bar before it
    assert line.startswith("kg: error: bolt://127.0.0.1:9: cannot reach the server")
    # the driver's reason follows (its wording is the driver's and the OS's: not checked here)
    assert line.partition("Bolt port?): ")[2].strip() and "0 of " in line and "Traceback" not in r.stderr


def test_a_routing_failure_is_reported_once_in_kgs_words(build):
    r = kg("export", "neo4j", str(build), "--uri", "neo4j://127.0.0.1:9")
    assert r.returncode == 2
    (line,) = r.stderr.strip().splitlines()  # kg's line, and not the driver's log too
    assert line.startswith("kg: error: neo4j://127.0.0.1:9: cannot reach the server"), r.stderr


def test_a_uri_that_is_not_bolt_is_one_line(build):
    r = kg("export", "neo4j", str(build), "--uri", "http://localhost:7474")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip() == (  # the whole of stderr: no progress bar drawn before it
        "kg: error: http://localhost:7474: not a Bolt URI; use one of bolt://, bolt+s://, bolt+ssc://, neo4j://, "
        "neo4j+s://, neo4j+ssc:// (e.g. bolt://localhost:7687)")


def test_env_vars_name_the_server(bolt, build):
    r = kg("export", "neo4j", str(build),
           env={"NEO4J_URI": bolt.bolt_uri, "NEO4J_USER": USER, "NEO4J_PASSWORD": PASSWORD, "NEO4J_DATABASE": "kg"})
    assert r.returncode == 0, r.stderr
    assert f"to {bolt.bolt_uri}" in r.stdout
    assert counts(bolt) == expected_counts(sample_graph(extra_papers=40))


def test_a_login_the_server_refuses_is_one_line(bolt, build):
    r = kg("export", "neo4j", str(build), "--uri", bolt.bolt_uri, "--user", USER, "--password", "wrong")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert line == f"kg: error: {bolt.bolt_uri}: authentication failed for user 'root' while connecting; 0 of " \
                   f"{len(plan(export_graph(sample_graph(extra_papers=40)), BoltOptions()).batches)} batches committed"


def test_a_server_killed_mid_load_is_one_line_and_the_same_command_finishes(tmp_path):
    """Killed while `kg export neo4j` runs (a batch per row, so it is mid-load): one line counting the
    committed batches, exactly those in the database after a restart, and a re-run completes it."""
    g = sample_graph(extra_papers=200)
    build = write_build(g, tmp_path / "b")
    srv = start_server()
    try:
        command = [sys.executable, "-m", "kg", "export", "neo4j", str(build), "--uri", srv.bolt_uri, "--user", USER,
                   "--password", PASSWORD, "--batch-size", "1", "--retry-time", "1"]
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        while srv.run("MATCH (n) RETURN count(n) AS n")[0]["n"] < 50:
            assert proc.poll() is None, "the load ended before the server was killed"
            time.sleep(0.05)
        srv.kill()
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 2 and "Traceback" not in err
        (line,) = [x for x in err.splitlines() if x.startswith("kg: error:")]
        total = len(plan(export_graph(g), BoltOptions(batch_size=1)).batches)
        m = re.fullmatch(rf"kg: error: {re.escape(srv.bolt_uri)}: cannot reach the server .* while writing batch "
                         rf"(\d+) \(.*\); (\d+) of {total} batches committed \(re-run to finish: the load is idempotent\)",
                         line)
        assert m, line
        done = int(m.group(2))
        assert int(m.group(1)) == done + 1 and 50 <= done < total

        srv = start_server(srv.workdir, (srv.http_port, srv.bolt_port))
        nodes, rels = counts(srv)
        # One row a batch: whole batches only, every acknowledged one, and perhaps the batch in flight,
        # whose commit the server can make durable in the instant before it dies, unacknowledged.
        assert done <= sum(nodes.values()) + sum(rels.values()) <= done + 1

        r = kg("export", "neo4j", str(build), "--uri", srv.bolt_uri, "--user", USER, "--password", PASSWORD)
        assert r.returncode == 0, r.stderr
        assert counts(srv) == expected_counts(g)
    finally:
        srv.stop()


def test_the_server_is_named_as_it_names_itself():
    from kg.export.neo4j_bolt import ServerProfile

    assert ServerProfile("Neo4j/5.26.0", "Neo4j 5.26.0 enterprise").describe() == "Neo4j 5.26.0 enterprise"
    arcade = ServerProfile("Neo4j/5.26.0 compatible (ArcadeDB 26.10.2)", "Neo4j 5.26.0 community")
    assert arcade.describe() == "Neo4j/5.26.0 compatible (ArcadeDB 26.10.2), answering as Neo4j 5.26.0 community"
    assert ServerProfile("Memgraph/2.19", None).describe() == "Memgraph/2.19"
