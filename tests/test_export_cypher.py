"""`kg export cypher`: one script that recreates the graph, checked by running it.

No cypher-shell here, so the script's statements are run one by one over Bolt
on ArcadeDB (tests/arcadedb_server.py), as cypher-shell would send them;
tests/test_cypher_lint.py parses the whole file with Neo4j's own front end.
"""
from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from neo4j import GraphDatabase

from kg.export.cypher_script import literal, render
from kg.export.rows import export_graph
from tests.arcadedb_server import ArcadeServer, arcadedb_server, bolt  # noqa: F401  (fixtures)
from tests.test_export_bolt import counts, expected_counts
from tests.test_export_samples import AWKWARD, sample_graph, write_build

pytestmark = pytest.mark.slow


def statements(script: str) -> list[str]:
    """The statements of a generated script: every line that is not a // comment, without its ';'."""
    lines = [x for x in script.split("\n") if x and not x.startswith("//")]
    assert all(x.endswith(";") for x in lines)
    return [x[:-1] for x in lines]


def run_script(srv: ArcadeServer, script: str) -> None:
    with GraphDatabase.driver(srv.bolt_uri, auth=srv.auth) as driver, driver.session() as session:
        for s in statements(script):
            session.run(s).consume()


@pytest.fixture
def script(tmp_path) -> str:
    build = write_build(sample_graph(extra_papers=700), tmp_path / "b")
    out = tmp_path / "graph.cypher"
    r = subprocess.run([sys.executable, "-m", "kg", "export", "cypher", "--db", str(build), "--out", str(out)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert f"wrote {out}" in r.stdout and "cypher-shell" in r.stdout
    return out.read_text(encoding="utf-8")


def test_script_recreates_the_graph_and_rerunning_it_changes_nothing(bolt, script):
    g = sample_graph(extra_papers=700)
    run_script(bolt, script)
    assert counts(bolt) == expected_counts(g)
    run_script(bolt, script)
    assert counts(bolt) == expected_counts(g)

    (p,) = bolt.run("MATCH (p:Paper {id: 'p4'}) RETURN properties(p) AS p")
    assert p["p"] == {"id": "p4", **{k: v for k, v in g.nodes["p4"].items() if k != "label" and v is not None}}
    assert p["p"]["abstract"].startswith(AWKWARD)
    (r,) = bolt.run("MATCH (:Paper {id: 'p1'})-[r:RELATED_TO]->(:Paper {id: 'p2'}) RETURN properties(r) AS p")
    assert r["p"] == {k: v for k, v in g.edges["p1", "p2", "RELATED_TO"].items() if k != "type"}


def test_script_is_one_statement_per_line_in_bounded_statements(script):
    eg = export_graph(sample_graph(extra_papers=700))
    stmts = statements(script)
    constraints = [s for s in stmts if s.startswith("CREATE CONSTRAINT")]
    assert len(constraints) == len(eg.nodes)
    assert stmts[: len(constraints)] == constraints  # keys exist before the first MERGE
    assert len(stmts) > len(constraints) + len(eg.nodes) + len(eg.relationships)  # big groups were split
    assert max(len(s) for s in stmts) < 250_000


def test_render_counts_its_statements():
    text, n = render(export_graph(sample_graph()))
    assert n == len(statements(text))


# Any text but lone surrogates (not encodable as UTF-8 at all).
any_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
cypher_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**63), max_value=2**63 - 1), st.floats(), any_text),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.from_regex(r"[A-Za-z_][A-Za-z0-9_ ]{0,8}", fullmatch=True),
                                                                inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=cypher_values)
def test_a_literal_reads_back_as_its_value(arcadedb_server, value):
    (row,) = arcadedb_server.run(f"RETURN {literal(value)} AS v")
    assert _same(row["v"], value), (row["v"], value)


def _same(got, want) -> bool:
    """Equal and of the same type, NaN included."""
    if isinstance(want, float) and isinstance(got, float) and math.isnan(want):
        return math.isnan(got)
    if isinstance(want, dict):
        return isinstance(got, dict) and list(got) == list(want) and all(_same(got[k], want[k]) for k in want)
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(map(_same, got, want))
    return type(got) is type(want) and got == want


def test_literals_use_neo4j_escapes_and_never_break_a_line():
    assert literal("It's a\\b\n\x01\u2028") == "'It\\'s a\\\\b\\n\\u0001\\u2028'"
    assert literal(1e16) == "1e16" and literal(2.0) == "2.0"
    assert literal({"odd key": [1, None]}) == "{`odd key`: [1, null]}"


def test_out_must_be_a_file_path(tmp_path):
    build = write_build(sample_graph(), tmp_path / "b")
    r = subprocess.run([sys.executable, "-m", "kg", "export", "cypher", str(build), "--out", str(tmp_path)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "is a folder" in r.stderr and "Traceback" not in r.stderr
    assert not any(Path(tmp_path).glob(".*cypher*"))


def test_a_file_kg_did_not_write_is_not_overwritten(tmp_path):
    build = write_build(sample_graph(), tmp_path / "b")
    mine = tmp_path / "notes.cypher"
    mine.write_text("MATCH (n) RETURN n;  // my own query\n")
    r = subprocess.run([sys.executable, "-m", "kg", "export", "cypher", str(build), "--out", str(mine)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "not a script kg wrote" in r.stderr and "Traceback" not in r.stderr
    assert mine.read_text() == "MATCH (n) RETURN n;  // my own query\n"
    ours = tmp_path / "graph.cypher"
    for _ in range(2):  # an earlier export is replaced
        r = subprocess.run([sys.executable, "-m", "kg", "export", "cypher", str(build), "--out", str(ours)],
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr


def test_without_db_the_latest_build_is_exported_next_to_it(tmp_path):
    import os
    import time

    old = write_build(sample_graph(), tmp_path / "exports" / "old")
    time.sleep(0.01)
    new = write_build(sample_graph(extra_papers=2), tmp_path / "exports" / "new")
    os.utime(old / "build.json", (time.time() - 60, time.time() - 60))
    r = subprocess.run([sys.executable, "-m", "kg", "export", "cypher"], cwd=tmp_path, capture_output=True, text=True,
                       timeout=300, env={**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)})
    assert r.returncode == 0, r.stderr
    assert (new / "neo4j.cypher").is_file() and not (old / "neo4j.cypher").exists()
    assert render(export_graph(sample_graph(extra_papers=2)))[0] == (new / "neo4j.cypher").read_text(encoding="utf-8")
