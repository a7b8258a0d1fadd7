"""kg trends: concepts rising, falling and emerging over the years, on hand-made graphs of known counts."""
from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

from kg import schema
from kg.analysis.trends import choose_periods, concept_years, log_likelihood, trends
from kg.errors import KgError

ROOT = Path(__file__).parent.parent


def make_graph(papers_per_year: dict[int | None, int], concepts: dict[tuple[str, str], dict[int, int]],
               levels: dict[str, str] | None = None) -> nx.MultiDiGraph:
    """Papers ``p<year>-<i>`` per year (``None``: without a year), and each (name, type) concept named
    by the first n papers of a year."""
    g = nx.MultiDiGraph()
    ids: dict[int | None, list[str]] = {}
    for y, n in papers_per_year.items():
        ids[y] = [f"p{y}-{i}" for i in range(n)]
        for p in ids[y]:
            g.add_node(p, label=schema.PAPER, id=p, title=p, abstract="An abstract.", year=y, authors=[], keywords=[],
                       key_concepts=[])
    for (name, etype), by_year in concepts.items():
        eid = entity_id(name, etype)
        g.add_node(eid, label=etype, id=eid, name=name, type=etype, aliases=[name], papers=0, mentions=0)
        if levels and name in levels:
            g.nodes[eid]["level"] = levels[name]
        rel = schema.MENTION_REL[etype]
        for y, n in by_year.items():
            for p in ids[y][:n]:
                g.add_edge(p, eid, rel, type=rel, mentions=1, score=1.0, surface=[name], span_starts=[0],
                           span_ends=[len(name)], sentences=["An abstract."])
                g.nodes[eid]["papers"] += 1
    return g


def entity_id(name: str, etype: str) -> str:
    return f"{etype}:{name.lower()}"


def used_for(g: nx.MultiDiGraph, method: str, task: str, papers: list[str]) -> None:
    g.add_edge(entity_id(method, "Method"), entity_id(task, "Task"), "USED_FOR", type="USED_FOR",
               papers=len(papers), paper_ids=papers, sentences=["x"] * len(papers), score=0.9)


def names(rows) -> list[str]:
    return [c.name for c in rows]


# A field over three years, 100 papers each: BERT appears, LSTM fades, "neural network" stays put.
FIELD = {
    ("BERT", "Method"): {2018: 5, 2019: 60},
    ("LSTM", "Method"): {2017: 50, 2018: 30, 2019: 10},
    ("neural network", "Method"): {2017: 30, 2018: 30, 2019: 31},
    ("SQuAD", "Dataset"): {2017: 2, 2018: 10, 2019: 25},
    ("machine translation", "Task"): {2017: 40, 2018: 40, 2019: 40},
    ("question answering", "Task"): {2017: 10, 2018: 20, 2019: 35},
}


def field_graph(**kw) -> nx.MultiDiGraph:
    return make_graph({2017: 100, 2018: 100, 2019: 100}, FIELD, **kw)


def test_a_shift_of_200_papers_outranks_one_of_2():
    g = make_graph({2017: 2000, 2019: 2000}, {
        ("big", "Method"): {2017: 20, 2019: 220},  # share x11
        ("small", "Method"): {2019: 2},  # share from 0: an infinite ratio, and two papers
    })
    t = trends(g, min_statistic=0)
    assert names(t.rising) == ["big", "small"]
    assert t.rising[0].statistic > 100 > 5 > t.rising[1].statistic
    assert names(trends(g).rising) == ["big"]  # two papers are no significant shift at all
    # The statistic is symmetric: the same shift reversed falls as far.
    assert log_likelihood(220, 2000, 20, 2000) == pytest.approx(-log_likelihood(20, 2000, 220, 2000))


def test_rising_falling_and_emerging():
    t = trends(field_graph())
    assert t.years == [2017, 2018, 2019]
    assert (t.periods.first, t.periods.last) == ((2017,), (2019,))
    assert names(t.rising) == ["BERT", "SQuAD", "question answering"]
    assert names(t.falling) == ["LSTM"]
    assert names(t.emerging) == ["BERT"]  # SQuAD had 2% of 2017's papers: not absent
    bert = t.rising[0]
    assert bert.papers_by_year == {2017: 0, 2018: 5, 2019: 60}
    assert bert.share_by_year == {2017: 0.0, 2018: 0.05, 2019: 0.6}
    assert (bert.first, bert.last, bert.type, bert.emerging) == (0, 60, "Method", True)
    assert bert.p_value < 1e-10
    assert "neural network" not in names(t.rising) + names(t.falling) + names(t.emerging)


def test_type_and_top():
    t = trends(field_graph(), type="Task")
    assert names(t.rising) == ["question answering"] and not t.falling and t.type == "Task"
    assert names(trends(field_graph(), top=1).rising) == ["BERT"]
    with pytest.raises(KgError, match="unknown type"):
        trends(field_graph(), type="Material")


def test_task_gives_the_methods_of_its_papers_and_those_stated_used_for_it():
    g = make_graph({2017: 100, 2019: 100}, {
        ("machine translation", "Task"): {2017: 40, 2019: 40},
        ("parsing", "Task"): {2017: 0, 2019: 0},
        ("Transformer", "Method"): {2019: 30},  # p2019-0..29: all machine translation papers
        ("RNN", "Method"): {2017: 30, 2019: 2},
        ("CKY", "Method"): {},
    })
    # Papers 60-69 of 2019 address no task but state "CKY used for machine translation".
    used_for(g, "CKY", "machine translation", [f"p2019-{i}" for i in range(60, 70)])
    t = trends(g, task="Machine Translation")  # any case
    assert t.task == "machine translation" and t.type == "Method"
    assert t.papers_by_year == {2017: 40, 2019: 50}  # the task's papers, the stating ones among them
    assert names(t.rising) == ["Transformer", "CKY"] and names(t.falling) == ["RNN"]
    assert t.rising[0].share_by_year[2019] == pytest.approx(30 / 50)
    with pytest.raises(KgError, match="no task named 'machine translaton'.*'machine translation'"):
        trends(g, task="machine translaton")


def test_generic_concepts_are_left_out_unless_asked_for():
    levels = {"BERT": "specific", "LSTM": "generic", "SQuAD": "artifact"}  # the others have no level
    t = trends(field_graph(levels=levels))
    assert "LSTM" not in names(t.falling) and names(t.rising) == ["BERT", "SQuAD", "question answering"]
    assert t.rising[0].level == "specific" and t.rising[2].level is None
    assert names(trends(field_graph(levels=levels), include_generic=True).falling) == ["LSTM"]


def test_from_and_to_choose_the_years():
    t = trends(field_graph(), from_year=2018)
    assert t.years == [2018, 2019] and t.rising[0].papers_by_year == {2018: 5, 2019: 60}
    assert "BERT" not in names(t.emerging)  # five papers of 2018 named it
    with pytest.raises(KgError, match="from two years or more"):
        trends(field_graph(), from_year=2019)
    with pytest.raises(KgError, match="must come before"):
        trends(field_graph(), from_year=2019, to_year=2017)


def test_periods_widen_when_years_hold_few_papers():
    per_year = {y: 10 for y in range(2010, 2020)}
    p = choose_periods(per_year)
    assert p.first == (2010, 2011, 2012, 2013, 2014) and p.last == (2015, 2016, 2017, 2018, 2019)
    p = choose_periods({2017: 20, 2018: 20, 2019: 20})  # too few however cut: the halves, 2018 in neither
    assert (p.first, p.last, p.first_papers, p.last_papers) == ((2017,), (2019,), 20, 20)
    p = choose_periods({2015: 10, 2016: 10, 2017: 10, 2018: 300})
    assert (p.first, p.last) == ((2015, 2016), (2017, 2018))
    assert choose_periods({2017: 2000, 2018: 2000, 2019: 2000}).last == (2019,)


def test_no_years_or_one_year_is_said_plainly():
    with pytest.raises(KgError, match="none of the 5 papers has one"):
        trends(make_graph({None: 5}, {("x", "Method"): {None: 3}}))
    with pytest.raises(KgError, match="all 4 with a year are from 2019 \\(1 have none\\)"):
        trends(make_graph({2019: 4, None: 1}, {}))


def test_concept_years():
    g = field_graph()
    assert concept_years(g, entity_id("BERT", "Method")) == {2017: 0, 2018: 5, 2019: 60}


# --- the command ---------------------------------------------------------------------------------

def kg(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "kg", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)


def write_build(g: nx.MultiDiGraph, out: Path, store: bool = False) -> Path:
    from kg.builds import Manifest
    from kg.graph.io import write_json

    out.mkdir(parents=True)
    write_json(g, out / "graph.json")
    if store:
        from kg.store import write_store

        write_store(g, out / "store")
    Manifest(name=out.name, papers=sum(d["label"] == schema.PAPER for _, d in g.nodes(data=True))).write(out)
    return out


@pytest.fixture(scope="module")
def field_build(tmp_path_factory) -> Path:
    g = field_graph()
    used_for(g, "BERT", "question answering", ["p2019-0", "p2019-1"])
    return write_build(g, tmp_path_factory.mktemp("trends") / "field", store=True)


@pytest.mark.slow
def test_json_shape(field_build):
    proc = kg("trends", "--db", str(field_build), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["years"] == [2017, 2018, 2019]
    assert {"rising", "falling", "emerging"} <= set(out)
    bert = out["rising"][0]
    assert {"name", "type", "papers_by_year", "share_by_year", "statistic", "p_value", "emerging"} <= set(bert)
    assert (bert["name"], bert["type"], bert["papers_by_year"]) == ("BERT", "Method", {"2017": 0, "2018": 5, "2019": 60})
    assert bert["share_by_year"]["2019"] == 0.6 and bert["statistic"] > 0
    assert out["falling"][0]["name"] == "LSTM" and out["falling"][0]["statistic"] < 0
    assert [c["name"] for c in out["emerging"]] == ["BERT"]


@pytest.mark.slow
def test_table_csv_type_and_task(field_build):
    table = kg("trends", "--db", str(field_build), "--type", "Method").stdout
    assert "2017 (100 papers) against 2019 (100)" in table and "Rising" in table and "Falling" in table
    assert "BERT" in table and "LSTM" in table and "SQuAD" not in table
    rows = list(csv.DictReader(io.StringIO(kg("trends", "--db", str(field_build), "-f", "csv").stdout)))
    assert [(r["trend"], r["name"]) for r in rows if r["rank"] == "1"] == [
        ("rising", "BERT"), ("falling", "LSTM"), ("emerging", "BERT")]
    assert rows[0]["papers_2019"] == "60"
    out = json.loads(kg("trends", "--db", str(field_build), "--task", "question answering", "-f", "json").stdout)
    assert out["task"] == "question answering" and out["papers_by_year"]["2019"] == 35
    assert all(c["type"] == "Method" for c in out["rising"] + out["falling"])


@pytest.mark.slow
def test_a_build_without_years_gets_one_line_and_exit_2(tmp_path):
    build = write_build(make_graph({None: 3}, {("x", "Method"): {None: 2}}), tmp_path / "undated")
    proc = kg("trends", "--db", str(build))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("kg: error: trends need papers with a year")
    assert len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_bad_input_is_one_line(field_build):
    for args, says in ((["--task", "nothing like it"], "no task named"), (["--from", "2019", "--to", "2018"], "before"),
                       (["--type", "Material"], "Material")):
        proc = kg("trends", "--db", str(field_build), *args)
        assert proc.returncode == 2 and says in proc.stderr and "Traceback" not in proc.stderr, (args, proc.stderr)


@pytest.mark.slow
def test_the_ready_queries_run_on_the_store(field_build):
    rows = json.loads(kg("query", "trends", "--db", str(field_build), "--param", "name=bert", "-f", "json").stdout)
    assert [(r["year"], r["papers"], r["share"]) for r in rows] == [(2017, 0, 0.0), (2018, 5, 0.05), (2019, 60, 0.6)]
    proc = kg("query", "rising_methods_for_task", "--db", str(field_build), "--param", "task=Question Answering",
              "-f", "json")
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)
    # Question answering's papers are p<year>-0..n: BERT names 0 of 10 in 2017, 35 of 35 in 2019.
    assert rows[0]["method"] == "BERT" and (rows[0]["first_papers"], rows[0]["last_papers"]) == (0, 35)
    assert rows[0]["z"] > 0 > rows[-1]["z"] and rows[-1]["method"] == "LSTM"


@pytest.mark.slow
def test_the_seed_build_has_no_years(seed_build):  # tests/conftest.py: the seed list, built once per run
    proc = kg("trends", "--db", str(seed_build))
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    assert "none of the 19 papers has one" in proc.stderr
