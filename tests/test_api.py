"""The Python API a notebook holds: ``kg.build`` and ``kg.open_build`` give a ``Build`` whose methods
answer what the commands answer; settings are ``BuildOptions``', whose defaults the commands share.

A small deterministic extractor stands in for the models (the words of ``TYPES`` are its mentions), so that the unit tier builds in a second; the papers span four years, for trends.
"""
from __future__ import annotations

import functools
import inspect
import json
from pathlib import Path

import pytest

import kg
from kg.builds import pipeline
from kg.builds.options import BuildOptions
from kg.records import Extraction, Mention

TYPES = {"BERT": "Method", "Transformer": "Method", "GPT": "Method", "ResNet": "Method", "Parsing": "Task",
         "Translation": "Task", "Summarization": "Task", "ImageNet": "Dataset", "SQuAD": "Dataset", "BLEU": "Metric",
         # More names than a paper's four, so that each is in a few of the 16 papers, not a broad share.
         "ELMo": "Method", "LSTM": "Method", "Tagging": "Task", "Retrieval": "Task", "Captioning": "Task",
         "MNLI": "Dataset", "COCO": "Dataset", "WMT": "Dataset", "ROUGE": "Metric", "METEOR": "Metric"}
WORDS = tuple(TYPES)


def fake_extract(corpus, options):
    out = []
    for p in corpus.papers:
        ms = [Mention(w, TYPES[w], p.text.index(w), p.text.index(w) + len(w), p.text, 0.8)
              for w in p.text.replace(".", " ").replace(",", " ").split() if w in TYPES]
        out.append(Extraction(p.id, tuple(ms), (), ()))
    return out, len(out)


def write_corpus(path: Path, n: int = 16, first: int = 0) -> Path:
    path.write_text("".join(json.dumps({
        "id": f"p{i}", "title": f"Paper {i}", "year": 2019 + i % 4,
        "abstract": f"We study {WORDS[i % 20]}, {WORDS[(i + 1) % 20]}, {WORDS[(i * 3 + 2) % 20]} and "
                    f"{WORDS[(i * 7 + 3) % 20]} in case {i}.",
    }) + "\n" for i in range(first, first + n)))
    return path


@pytest.fixture(scope="module")
def fake_models():
    """kg.build and Build.add run with the stand-in extractor."""
    from kg.builds import adding

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pipeline, "build", functools.partial(pipeline.build, extract=fake_extract))
        mp.setattr(adding, "add", functools.partial(adding.add, extract=fake_extract))
        yield


def build_in(folder: Path) -> kg.Build:
    folder.mkdir(parents=True, exist_ok=True)
    return kg.build(write_corpus(folder / "papers.jsonl"), out=folder / "b", views=False, workers=1, cache_dir=None)


@pytest.fixture(scope="module")
def b(tmp_path_factory, fake_models) -> kg.Build:
    """One build for the tests that only read it."""
    return build_in(tmp_path_factory.mktemp("api"))


def test_the_public_names_resolve():
    for name in kg.__all__:
        assert getattr(kg, name) is not None


def test_build_returns_the_build_written_holding_the_run(b):
    assert b.path.name == "b" and (b.path / "build.json").is_file()
    assert b.manifest.papers == 16
    assert len(b.result.corpus.papers) == 16 and b.result.extracted == 16
    assert kg.open_build(b.path) == b  # the same folder, whether built here or opened
    assert b.graph().number_of_nodes() == b.result.graph.number_of_nodes()


def test_query_gives_rows_as_dicts_from_cypher_or_a_ready_query(b):
    rows = b.query("MATCH (p:Paper) WHERE p.year >= $year RETURN p.id AS id, p.year AS year ORDER BY id", year=2021)
    assert rows and all(set(r) == {"id", "year"} and r["year"] >= 2021 for r in rows)
    top = b.query("top_methods")
    assert top and "papers" in top[0]


def test_query_only_reads_and_names_a_missing_parameter(b):
    with pytest.raises(kg.KgError, match="writes a file"):
        b.query("COPY (MATCH (p:Paper) RETURN p.id) TO 'out.csv'")
    with pytest.raises(kg.KgError, match="needs the parameter paper"):
        b.query("papers_sharing_concepts")
    assert b.query("papers_sharing_concepts", paper="p0")


def test_find_names_papers_and_concepts_as_the_commands_do(b):
    assert b.find("p3") == [kg.Found("paper", "p3", "Paper 3")]
    concept = b.find("imagenet")  # a concept's name, case folded; and the paper naming it, if only one does
    assert any(f.kind == "concept" and f.name == "ImageNet" for f in concept)
    with pytest.raises(kg.KgError, match="no paper matches 'Zebra'.*no concept named 'Zebra'"):
        b.find("Zebra")


def test_related_ranks_papers_with_reasons_and_by_one_facet(b):
    rows = b.related("p3", k=3)
    assert len(rows) == 3 and all(r.shared for r in rows)
    assert [r.score for r in rows] == sorted((r.score for r in rows), reverse=True)
    assert {s.type for r in rows for s in r.shared} > {"Task"}  # reasons of several types
    by_task = b.related("p3", k=3, by="task")
    assert by_task and all(s.type == "Task" for r in by_task for s in r.shared)
    with pytest.raises(kg.KgError, match="no facet 'colour'"):
        b.related("p3", by="colour")


def test_stats_and_trends(b):
    s = b.stats(top=2)
    assert s.papers == 16 and all(len(top) <= 2 for top in s.top.values())
    t = b.trends(top=3)
    assert t.years == [2019, 2020, 2021, 2022]


def test_add_puts_new_papers_into_the_build(tmp_path, fake_models):
    b = build_in(tmp_path)
    result = b.add(write_corpus(tmp_path / "more.jsonl", n=2, first=16), views=False, workers=1, cache_dir=None)
    assert [p.id for p in result.added] == ["p16", "p17"]
    assert b.manifest.papers == 18  # the same folder, read afresh


def test_export_writes_the_script_or_the_import_files(b, tmp_path):
    script = b.export("cypher", tmp_path / "graph.cypher")
    assert "MERGE" in script.read_text() or "CREATE" in script.read_text()
    folder = b.export("neo4j-import", tmp_path / "import")
    assert (folder / "README.md").is_file() and list(folder.glob("nodes_*.csv"))
    with pytest.raises(kg.KgError, match="one of cypher, neo4j-import"):
        b.export("graphml")


def test_kg_build_and_the_commands_default_to_the_same_settings(monkeypatch, tmp_path):
    """BuildOptions declares the settings once: `kg build` and `kg add` show its defaults, and the
    extraction cache is on in both (a notebook's rebuild extracts only new abstracts too)."""
    from kg.cli.add import add_command
    from kg.cli.build import build_command, cache_dir_of

    defaults = BuildOptions()
    flags = inspect.signature(build_command).parameters
    for flag, setting in [("keybert", "use_keybert"), ("related_k", "related_k"), ("views", "views"),
                          ("workers", "workers"), ("out", "out"), ("model", "model"), ("cluster", "cluster"),
                          ("fmt", "format")]:
        assert flags[flag].default == getattr(defaults, setting), flag
    assert inspect.signature(add_command).parameters["workers"].default == defaults.workers
    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path / "cache"))
    assert BuildOptions().cache_dir == cache_dir_of(None, no_cache=False) == tmp_path / "cache"
    monkeypatch.delenv("KG_CACHE_DIR")
    assert BuildOptions().cache_dir == cache_dir_of(None, no_cache=False) == Path(".kg-cache")
