"""`kg export neo4j-import`: CSVs that neo4j-admin reads back into the same graph.

No neo4j-admin here, so a reader written from the import tool's documented
rules (RFC 4180 fields, ``name:type`` headers, ``:ID``/``:LABEL``/``:START_ID``/
``:END_ID``/``:TYPE``, arrays split on the --array-delimiter, an empty unquoted
field meaning "no property") rebuilds the graph from the files and the README's
command, and the result must equal the graph that was exported.
"""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

from kg.export.neo4j_import import write_import
from kg.export.rows import export_graph
from tests.test_export_samples import AWKWARD, sample_graph, write_build

_CONVERT = {"string": str, "long": int, "double": float, "boolean": lambda s: s == "true"}


def fields(text: str) -> list[list[tuple[str, bool]]]:
    """RFC 4180 records as (value, was_quoted) pairs; quoted fields may hold commas, quotes ("") and newlines."""
    records, record, i, n = [], [], 0, len(text)
    while i < n:
        if text[i] == '"':
            j, buf = i + 1, []
            while True:
                k = text.index('"', j)
                buf.append(text[j:k])
                if k + 1 < n and text[k + 1] == '"':
                    buf.append('"')
                    j = k + 2
                    continue
                i = k + 1
                break
            record.append(("".join(buf), True))
        else:
            m = re.compile(r"[^,\n]*").match(text, i)
            record.append((m.group(0), False))
            i = m.end()
        if i >= n or text[i] == "\n":
            records.append(record)
            record = []
        i += 1
    return records


def read_file(path: Path, array_delimiter: str) -> list[dict]:
    records = fields(path.read_text(encoding="utf-8"))
    header = [name for name, _ in records[0]]
    rows = []
    for rec in records[1:]:
        assert len(rec) == len(header), (path.name, rec)
        row = {}
        for column, (value, quoted) in zip(header, rec):
            name, _, typ = column.partition(":")
            if not value and not quoted:
                continue  # no property
            if typ in ("ID", "START_ID", "END_ID", "LABEL", "TYPE"):
                row[":" + typ] = value
                if typ == "ID" and name:
                    row[name] = value  # a named ID column is stored as that property too
            elif typ.endswith("[]"):
                row[name] = [_CONVERT[typ[:-2]](v) for v in value.split(array_delimiter)] if value else []
            else:
                row[name] = _CONVERT[typ](value)
        rows.append(row)
    return rows


def graph_from_command(command: str) -> nx.MultiDiGraph:
    """The graph neo4j-admin would build from the files the command names."""
    args = shlex.split(command)
    assert args[:5] == ["neo4j-admin", "database", "import", "full", "neo4j"]
    opts = dict(a[2:].split("=", 1) for a in args[5:] if "=" in a)
    assert opts["array-delimiter"].startswith("U+")
    delim = chr(int(opts["array-delimiter"][2:], 16))
    assert opts["multiline-fields"] == "true" and opts["id-type"] == "string"
    g = nx.MultiDiGraph()
    for a in args[5:]:
        kind, _, path = a[2:].partition("=")
        if kind == "nodes":
            for row in read_file(Path(path), delim):
                node = row.pop(":ID")
                g.add_node(node, label=row.pop(":LABEL"), **{k: v for k, v in row.items() if k != "id"})
        elif kind == "relationships":
            for row in read_file(Path(path), delim):
                rtype = row.pop(":TYPE")
                g.add_edge(row.pop(":START_ID"), row.pop(":END_ID"), rtype, type=rtype, **row)
    return g


def without_nulls(g: nx.MultiDiGraph) -> nx.MultiDiGraph:
    h = nx.MultiDiGraph()
    h.add_nodes_from((n, {k: v for k, v in d.items() if v is not None}) for n, d in g.nodes(data=True))
    h.add_edges_from((u, v, key, {k: x for k, x in d.items() if x is not None})
                     for u, v, key, d in g.edges(keys=True, data=True))
    return h


@pytest.mark.slow
def test_cli_writes_files_that_rebuild_the_graph(tmp_path):
    g = sample_graph(extra_papers=5)
    build = write_build(g, tmp_path / "b")
    out = tmp_path / "import"
    r = subprocess.run([sys.executable, "-m", "kg", "export", "neo4j-import", str(build), "--out", str(out)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    command = r.stdout.strip().splitlines()[-1].split(": ", 1)[1]
    readme = (out / "README.md").read_text(encoding="utf-8")
    assert command in readme  # the exact command, ready to copy
    back = graph_from_command(command)
    assert nx.utils.graphs_equal(back, without_nulls(g))
    assert back.nodes["p4"]["abstract"].startswith(AWKWARD)
    named = {Path(a.split("=", 1)[1]).name for a in shlex.split(command) if a.startswith(("--nodes=", "--relationships="))}
    assert named == {p.name for p in out.glob("*.csv")}


def test_headers_name_every_schema_property_with_its_import_type(tmp_path):
    files = write_import(export_graph(sample_graph()), tmp_path / "imp")
    paper = (tmp_path / "imp" / "nodes_Paper.csv").read_text(encoding="utf-8").split("\n", 1)[0]
    assert paper.startswith("id:ID,:LABEL,")
    assert "year:long" in paper and "authors:string[]" in paper and "title:string" in paper
    uses = (tmp_path / "imp" / "relationships_USES_Paper_Method.csv").read_text(encoding="utf-8").split("\n", 1)[0]
    assert uses.startswith(":START_ID,:END_ID,:TYPE,") and "score:double" in uses and "span_starts:long[]" in uses
    assert len(files.files) == len(list((tmp_path / "imp").glob("*.csv")))


def test_rewriting_replaces_the_folder_whole(tmp_path):
    out = tmp_path / "imp"
    write_import(export_graph(sample_graph(extra_papers=3)), out)
    (out / "nodes_Gone.csv").write_text("x")  # a label the new graph no longer has
    write_import(export_graph(sample_graph()), out)
    assert not (out / "nodes_Gone.csv").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["imp"]  # no temporary folders left behind


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["user files", "a build"])
def test_a_folder_kg_did_not_write_is_never_replaced(tmp_path, kind):
    build = write_build(sample_graph(), tmp_path / "b")
    if kind == "user files":
        out = tmp_path / "project"
        (out / "src").mkdir(parents=True)
        (out / "thesis.tex").write_text("important")
    else:
        out = build
    before = sorted(str(p.relative_to(out)) for p in out.rglob("*"))
    r = subprocess.run([sys.executable, "-m", "kg", "export", "neo4j-import", str(build), "--out", str(out)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "did not write" in r.stderr and "Traceback" not in r.stderr
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*")) == before


def test_a_value_holding_the_array_delimiter_is_refused(tmp_path):
    from kg.errors import KgError

    g = sample_graph()
    g.nodes["p1"]["authors"] = ["A\x1fB"]
    with pytest.raises(KgError, match=r"Paper 'p1'\.authors"):
        write_import(export_graph(g), tmp_path / "imp")
    assert not (tmp_path / "imp").exists()
