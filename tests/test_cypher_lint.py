"""Every Cypher text kg ships or generates passes Neo4j's own front end (npm @neo4j-cypher/language-support).

Linted: each ``queries/*.cypher`` file, every statement the Bolt exporter can
send, and the generated cypher-shell script, with kg's labels, relationship
types, property keys and each statement's parameters declared. An error
diagnostic fails; so does a warning that a label, type or property is unknown,
since kg.schema is the whole schema and such a name can only be a typo.
Needs Node 24 (>= 24.11.1, which the package asks for) and ``npm ci --prefix tests/cypher_lint``;
.ci/run installs both.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from kg import schema
from kg.export.bolt_plan import BoltOptions, plan
from kg.export.cypher_script import render
from kg.export.rows import export_graph
from tests.test_export_samples import sample_graph

HERE = Path(__file__).parent
LINT = HERE / "cypher_lint"
REPO = HERE.parent
PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
# Sample values, so the front end knows each parameter's type.
PARAM_VALUES = {"rows": [{"id": "", "props": {}}], "limit": 1}


def kg_schema() -> dict:
    props = set()
    for d in (schema.PAPER_PROPERTIES, schema.ENTITY_PROPERTIES, schema.MENTION_PROPERTIES, schema.RELATED_PROPERTIES,
              schema.ENTITY_REL_PROPERTIES):
        props |= set(d)
    return {
        "labels": list(schema.NODE_LABELS),
        "relationshipTypes": sorted({t for t, _, _ in schema.relationship_types()}),
        "propertyKeys": sorted(props),
    }


def lint(queries: list[dict]) -> dict[str, list[dict]]:
    node = shutil.which("node")
    installed = (LINT / "node_modules" / "@neo4j-cypher" / "language-support").is_dir()
    if node is None or not installed:
        reason = ("Node 24 and `npm ci --prefix tests/cypher_lint` are needed for the Cypher lint "
                  f"(node: {node or 'missing'}, package installed: {installed})")
        if os.environ.get("CI"):
            pytest.fail(reason + " -- and CI is set, so this must not skip")
        pytest.skip(reason)
    payload = json.dumps({"schema": kg_schema(), "queries": queries})
    r = subprocess.run([node, str(LINT / "lint.mjs")], input=payload, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return {item["name"]: item["diagnostics"] for item in json.loads(r.stdout)}


def problems(diagnostics: list[dict]) -> list[str]:
    return [
        f"{d['line']}:{d['column']} {d['message']}"
        for d in diagnostics
        if d["severity"] == 1 or "not present in the database" in d["message"]
    ]


def params_of(text: str) -> dict:
    return {name: PARAM_VALUES.get(name, "x") for name in PARAM.findall(text)}


def query_files() -> list[Path]:
    return sorted((REPO / "queries").glob("*.cypher"))


# Keys of the exporter's row maps (row.id, row.start, row.end, row.props): map keys, not properties.
ROW_KEYS = ["id", "start", "end", "props"]
GUARDS = [  # the lint must report each of these
    {"name": "guard: syntax", "query": "MATCH (p:Paper) RETURN p.title LIMIT", "parameters": {}},
    {"name": "guard: undeclared parameter", "query": "MATCH (p:Paper {id: $paper}) RETURN p.title", "parameters": {}},
    {"name": "guard: misspelt property", "query": "MATCH (p:Paper) RETURN p.titel", "parameters": {}},
]
ESCAPES = {"name": "escapes", "query": "RETURN '\\u0001\\u2028 it\\'s \\\\ \\n'", "parameters": {}}


@pytest.fixture(scope="module")
def linted() -> dict[str, list[dict]]:
    """Everything linted in one Node run (its start-up dominates)."""
    queries = [{"name": p.name, "query": (text := p.read_text(encoding="utf-8")), "parameters": params_of(text)}
               for p in query_files()]
    for q, params in plan(export_graph(sample_graph()), BoltOptions()).statements().items():
        queries.append({"name": "bolt: " + q, "query": q, "parameters": {p: PARAM_VALUES[p] for p in params},
                        "mapKeys": ROW_KEYS})
    text, _ = render(export_graph(sample_graph()))
    queries.append({"name": "script", "query": text, "parameters": {}, "mapKeys": ROW_KEYS})
    return lint(queries + GUARDS + [ESCAPES])


def test_the_repo_ships_queries():
    assert len(query_files()) >= 5


@pytest.mark.slow
def test_shipped_queries_pass_neo4js_front_end(linted):
    names = [p.name for p in query_files()]
    bad = {n: problems(linted[n]) for n in names if problems(linted[n])}
    assert not bad, bad


@pytest.mark.slow
def test_every_statement_the_bolt_exporter_sends_passes(linted):
    statements = plan(export_graph(sample_graph()), BoltOptions()).statements()
    assert len(statements) > 15
    bad = {q: problems(linted["bolt: " + q]) for q in statements if problems(linted["bolt: " + q])}
    assert not bad, bad
    # The declared parameters are exactly the ones each statement uses.
    for q, params in statements.items():
        assert set(PARAM.findall(q)) == params, q


@pytest.mark.slow
def test_the_generated_script_passes(linted):
    assert not problems(linted["script"]), problems(linted["script"])


@pytest.mark.slow
def test_the_lint_catches_what_it_should(linted):
    """Guards the guard: each planted mistake is reported; Neo4j's string escapes are not."""
    for g in GUARDS:
        assert problems(linted[g["name"]]), g
    assert not problems(linted["escapes"])
