"""The extraction shards (kg.store.shards) and the neo4j-admin import files written from them without
the graph in memory (kg.export.shard_import)."""
from __future__ import annotations

import pytest

from kg import schema

from kg.store import shards
from kg.builds import RECORDS
from kg.errors import KgError
from kg.export.neo4j_import import write_import
from kg.export.rows import export_graph
from kg.export.shard_import import write_import_from_shards
from kg.graph.io import read_json
from kg.builds.pipeline import BuildOptions, build
from kg.records import Extraction, Mention, Paper, Relation
from tests.test_add import fake_extract, jsonl, records


def test_records_come_back_as_written(tmp_path):
    papers = [Paper("a", "Title é", "Abstract $x$", "Abstract x", "f:1", ("Ann", "Bo"), 2024, "ICLR", "https://x", ("k",)),
              Paper("b", "", "Plain", "Plain")]
    exs = [Extraction("a", (Mention("x", "Method", 9, 10, "Abstract x", 0.123456789, "tagger"),
                            Mention("Abstract", "Task", 0, 8, "Abstract x", 0.5)),
                      (Relation(0, 1, "USED-FOR", 0.25),), (("abstract x", 0.75),)),
           Extraction("b")]
    shards.write_shards(tmp_path, papers, exs, rows=1)
    assert [p.name for p in shards.shard_paths(tmp_path)] == ["part-00000.parquet", "part-00001.parquet"]
    assert shards.read_records(tmp_path) == (papers, exs)


def test_mismatched_papers_and_extractions_are_refused(tmp_path):
    with pytest.raises(ValueError):
        shards.write_shards(tmp_path, [Paper("a", "", "x", "x")], [Extraction("b")])


def test_a_build_keeps_its_records(tmp_path):
    result = build(jsonl(tmp_path / "c.jsonl", records(12)), BuildOptions(out=tmp_path / "b", views=False),
                   extract=fake_extract)
    papers, exs = shards.read_records(tmp_path / "b" / RECORDS)
    assert papers == result.corpus.papers and exs == result.extractions


def csv_lines(folder):
    """Each CSV's lines, as a set (the two routes write rows in different orders)."""
    return {p.name: set(p.read_text(encoding="utf-8").splitlines()) for p in folder.glob("*.csv")}


@pytest.mark.parametrize("buckets", [1, 5])
def test_import_files_from_shards_equal_those_from_the_graph(tmp_path, buckets):
    # No known dataset names: the shard route does not read them (docs/neo4j.md), and the corpus
    # writes "SQuAD" and "CoNLL", which the shipped list holds.
    (tmp_path / "no-names.txt").write_text("")
    build(jsonl(tmp_path / "c.jsonl", records(40)),
          BuildOptions(out=tmp_path / "b", views=False, related_k=0, known_datasets=tmp_path / "no-names.txt"),
          extract=fake_extract)
    graph = write_import(export_graph(read_json(tmp_path / "b" / "graph.json")), tmp_path / "from-graph")
    sharded = write_import_from_shards(tmp_path / "b" / RECORDS, tmp_path / "from-shards", buckets=buckets)
    # The relations between entities are the one thing the shard route leaves out on this corpus,
    # which gives the concept stage nothing to retype or link (docs/neo4j.md): everything else
    # holds the same lines, the levels of the entities too.
    from_graph = csv_lines(tmp_path / "from-graph")
    between = {name for name in from_graph if any(name.startswith(f"relationships_{t}_") for t in schema.ENTITY_RELS)}
    assert between  # the corpus states relations, so the comparison means something
    assert csv_lines(tmp_path / "from-shards") == {k: v for k, v in from_graph.items() if k not in between}
    assert sorted(p.name for p in sharded.files) == sorted(p.name for p in graph.files if p.name not in between)
    # The README's command names every file.
    readme = (tmp_path / "from-shards" / "README.md").read_text()
    assert all(p.name in readme for p in sharded.files)


def test_no_shards_is_one_line(tmp_path):
    with pytest.raises(KgError, match="no extraction shards"):
        write_import_from_shards(tmp_path, tmp_path / "out")


def test_kg_export_neo4j_import_from_records(tmp_path):
    from typer.testing import CliRunner

    from kg.cli.app import app

    build(jsonl(tmp_path / "c.jsonl", records(6)), BuildOptions(out=tmp_path / "b", views=False), extract=fake_extract)
    res = CliRunner().invoke(app, ["export", "neo4j-import", str(tmp_path / "b"), "--from-records"])
    assert res.exit_code == 0, res.output
    assert "neo4j-admin database import full" in res.output
    assert (tmp_path / "b" / "neo4j-import" / "nodes_Paper.csv").read_text().count("\n") == 7  # header + 6
