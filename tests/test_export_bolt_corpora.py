"""`kg export neo4j` of real builds, at full size and with the default batch settings, on ArcadeDB.

Two builds with the real extractor: the whole seed list (the run's shared build,
tests/conftest.py) and 400 SciERC abstracts (train then dev, from ../shared beside
the clone, built once per module). Every node and relationship is read back over Bolt with its
properties and must equal the graph; a second run changes nothing; --replace
clears kg's old nodes; and a server killed mid-load leaves whole batches, a
one-line error that counts them, and a re-run that finishes the load.
"""
from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import networkx as nx
import pytest
from neo4j import GraphDatabase

from kg.builds import open_build
from kg.errors import KgError
from kg.export.bolt_plan import BoltOptions, plan
from kg.export.neo4j_bolt import BoltTarget, export_bolt
from kg.export.rows import export_graph
from kg.builds.pipeline import BuildOptions, build
from tests.arcadedb_server import PASSWORD, USER, ArcadeServer, arcadedb_server, bolt, require_server, start_server  # noqa: F401

pytestmark = pytest.mark.slow
ROOT = Path(__file__).parent.parent
SCIERC = ROOT.parent / "shared" / "bench" / "scierc"


def scierc_400(folder: Path) -> Path:
    """SciERC's first 350 train and 50 dev abstracts as one corpus file (kg reads SciERC records)."""
    parts = [(SCIERC / "train.json", 350), (SCIERC / "dev.json", 50)]
    if not all(p.is_file() for p, _ in parts):
        reason = f"{SCIERC}: SciERC's train.json and dev.json not found beside the clone (../shared)"
        if os.environ.get("CI"):
            pytest.fail(reason + " -- and CI is set, so this must not skip")
        pytest.skip(reason)
    lines = []
    for path, n in parts:
        records = [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip()][:n]
        assert len(records) == n, f"{path} holds fewer than {n} abstracts"
        lines += records
    out = folder / "scierc400.jsonl"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


@pytest.fixture(scope="module", params=["seed", "scierc400"])
def corpus_build(request, tmp_path_factory) -> tuple[Path, nx.DiGraph]:
    """(build folder, graph): the seed list's is the run's shared build (tests/conftest.py: an export
    only reads it); SciERC's is built here, without the views, which play no part in an export."""
    require_server()  # no point in extracting when there is no server to export to
    if request.param == "seed":
        path = request.getfixturevalue("seed_build")
        return path, open_build(path).graph()
    folder = tmp_path_factory.mktemp(request.param)
    result = build(scierc_400(folder), BuildOptions(out=folder / "build", views=False, cache_dir=None))
    return result.path, result.graph


def kg_export(srv: ArcadeServer, build_dir: Path, *extra: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NEO4J_")}
    return subprocess.run([sys.executable, "-m", "kg", "export", "neo4j", str(build_dir), "--uri", srv.bolt_uri,
                           "--user", USER, "--password", PASSWORD, *extra],
                          capture_output=True, text=True, timeout=600, env=env)


def expected_counts(g: nx.DiGraph) -> tuple[dict[str, int], dict[str, int]]:
    nodes = Counter(d["label"] for _, d in g.nodes(data=True))
    rels = Counter(d["type"] for _, _, d in g.edges(data=True))
    return dict(nodes), dict(rels)


def counts(srv: ArcadeServer) -> tuple[dict[str, int], dict[str, int]]:
    return srv.counts()


def held(srv: ArcadeServer, g: nx.DiGraph) -> tuple[dict, dict]:
    """Every node's and relationship's properties as the server holds them, for kg's labels and types."""
    nodes, rels = {}, {}
    for label in sorted({d["label"] for _, d in g.nodes(data=True)}):
        for row in srv.run(f"MATCH (n:{label}) RETURN n.id AS id, properties(n) AS p"):
            nodes[row["id"]] = row["p"]
    for rtype in sorted({d["type"] for _, _, d in g.edges(data=True)}):
        for row in srv.run(f"MATCH (a)-[r:{rtype}]->(b) RETURN a.id AS a, b.id AS b, properties(r) AS p"):
            rels[(row["a"], rtype, row["b"])] = {"type": rtype, **row["p"]}
    return nodes, rels


def wanted(g: nx.DiGraph) -> tuple[dict, dict]:
    """The graph as a Neo4j server must hold it: label and type aside, None is "no property"."""
    nodes = {n: {"id": n, **{k: v for k, v in d.items() if k != "label" and v is not None}}
             for n, d in g.nodes(data=True)}
    # Keyed by type too: two entities can be linked by several relationship types.
    rels = {(u, d["type"], v): {k: x for k, x in d.items() if x is not None} for u, v, d in g.edges(data=True)}
    return nodes, rels


def assert_holds_the_graph(srv: ArcadeServer, g: nx.DiGraph, others: dict[str, int] | None = None) -> None:
    want_nodes, want_rels = expected_counts(g)
    assert counts(srv) == ({**want_nodes, **(others or {})}, want_rels)
    got_nodes, got_rels = held(srv, g)
    want_n, want_r = wanted(g)
    assert got_nodes.keys() == want_n.keys() and got_rels.keys() == want_r.keys()
    for n, props in want_n.items():
        assert got_nodes[n] == props, n
    for key, props in want_r.items():
        assert got_rels[key] == props, key


def test_a_build_arrives_whole_and_a_second_run_changes_nothing(bolt, corpus_build):
    build_dir, g = corpus_build
    r = kg_export(bolt, build_dir)
    assert r.returncode == 0, r.stderr
    with GraphDatabase.driver(bolt.bolt_uri, auth=bolt.auth) as driver:
        assert driver.get_server_info().agent in r.stdout  # the server as it announces itself
    assert_holds_the_graph(bolt, g)
    nodes, rels = expected_counts(g)
    assert f"Paper {nodes['Paper']}," in r.stdout and f"USES {rels['USES']}," in r.stdout

    again = kg_export(bolt, build_dir)
    assert again.returncode == 0, again.stderr
    assert "other nodes with kg's labels" not in again.stderr
    assert_holds_the_graph(bolt, g)


def test_replace_clears_kg_nodes_and_leaves_the_rest(bolt, corpus_build):
    build_dir, g = corpus_build
    assert kg_export(bolt, build_dir).returncode == 0
    bolt.run("CREATE (:Paper {id: 'stale'}), (:Other {id: 'mine'})")
    plain = kg_export(bolt, build_dir)
    assert plain.returncode == 0 and "other nodes with kg's labels" in plain.stderr
    assert counts(bolt)[0]["Paper"] == expected_counts(g)[0]["Paper"] + 1

    r = kg_export(bolt, build_dir, "--replace")
    assert r.returncode == 0, r.stderr
    assert f"--replace deleted {g.number_of_nodes() + 1} nodes first" in r.stdout
    assert_holds_the_graph(bolt, g, others={"Other": 1})  # only kg's labels are cleared


def test_a_server_killed_mid_load_leaves_whole_batches_and_a_rerun_finishes(corpus_build):
    """The server is killed (SIGKILL) right after a batch commits: the error is one line counting the
    committed batches, the restarted server holds exactly those, and the same command finishes the load."""
    build_dir, g = corpus_build
    the_plan = plan(export_graph(g), BoltOptions(retry_seconds=1))  # the defaults but a short retry
    total = len(the_plan.batches)
    assert total >= 3, "too few batches to stop in the middle"
    stop_after = total // 2
    srv = start_server()
    try:
        committed = []

        def progress(rows: int) -> None:
            committed.append(rows)
            if len(committed) == stop_after:
                srv.kill()

        with pytest.raises(KgError) as exc:
            export_bolt(the_plan, BoltTarget(srv.bolt_uri, USER, PASSWORD), progress)
        message = str(exc.value)
        assert "\n" not in message
        assert message.startswith(f"{srv.bolt_uri}: cannot reach the server")
        batch = the_plan.batches[stop_after]
        assert f" while writing batch {stop_after + 1} ({batch.group}, " in message
        assert message.endswith(f"; {stop_after} of {total} batches committed (re-run to finish: the load is idempotent)")

        srv = start_server(srv.workdir, (srv.http_port, srv.bolt_port))  # the same files and ports
        done_nodes, done_rels = Counter(), Counter()
        for b in the_plan.batches[:stop_after]:
            if b.group in the_plan.labels:
                done_nodes[b.group] += len(b.rows)
            else:
                done_rels[b.group.split(" ")[0]] += len(b.rows)
        assert counts(srv) == (dict(done_nodes), dict(done_rels))  # whole batches, nothing after them

        r = kg_export(srv, build_dir)
        assert r.returncode == 0, r.stderr
        assert_holds_the_graph(srv, g)
    finally:
        srv.stop()
