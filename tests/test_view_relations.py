"""A concept's page shows what the abstracts state about it: used for, evaluated on, compared with..."""
from __future__ import annotations

import pytest

from kg.view import concept_page, paper_page, write_views
from tests.test_export_samples import sample_graph
from tests.test_view import page_data

PMD = "Method:policy mirror descent"


@pytest.fixture(scope="module")
def views(tmp_path_factory):
    out = tmp_path_factory.mktemp("build")
    write_views(sample_graph(), out)
    return out / "views"


def relations_of(views, eid) -> dict[str, dict[str, dict]]:
    data = page_data(views / concept_page(eid))
    focus = next(n for n in data["nodes"] if n["id"] == eid)
    return data, {g["phrase"]: {i["name"]: i for i in g["items"]} for g in focus["info"]["relations"]}


def test_a_method_page_reads_each_relation_from_its_side(views):
    _, rels = relations_of(views, PMD)
    assert list(rels) == ["used for", "evaluated on", "compared with", "has kinds"]
    used = rels["used for"]["reinforcement learning"]
    assert used["papers"] == 2 and used["type"] == "Task"
    assert [s["id"] for s in used["statements"]] == ["p1", "p2"]
    assert used["statements"][0]["sentence"].startswith("We propose Policy Mirror Descent")
    assert set(rels["evaluated on"]) == {"MinAtar"}
    assert set(rels["compared with"]) == {"Natural Policy Gradient"}  # stated the other way round
    assert set(rels["has kinds"]) == {"Natural Policy Gradient"}


def test_the_other_end_reads_the_relation_backwards(views):
    _, rels = relations_of(views, "Task:reinforcement learning")
    assert set(rels["uses"]) == {"Policy Mirror Descent"}
    assert set(rels["evaluated on"]) == {"MinAtar"}
    _, rels = relations_of(views, "Dataset:minatar")
    assert set(rels["evaluates"]) == {"Policy Mirror Descent", "reinforcement learning"}


def test_relations_link_to_the_concepts_and_papers_and_are_drawn(views):
    data, rels = relations_of(views, PMD)
    used = rels["used for"]["reinforcement learning"]
    assert used["href"] == concept_page("Task:reinforcement learning")
    assert [s["href"] for s in used["statements"]] == [paper_page("p1"), paper_page("p2")]
    for item in (i for group in rels.values() for i in group.values()):
        assert (views / item["href"]).is_file()
        assert all((views / s["href"]).is_file() for s in item["statements"])
    labels = {(e["to"], e.get("label")) for e in data["edges"] if e["from"] == PMD}
    assert ("Task:reinforcement learning", "used for") in labels
    assert ("Method:natural policy gradient", "compared with, has kinds") in labels  # one edge, both said


def test_a_metric_and_a_method_of_a_dataset_read_their_side(views):
    _, rels = relations_of(views, "Metric:accuracy")
    assert set(rels) == {"evaluates", "feature of"}
    data = page_data(views / concept_page("Method:bert"))
    assert data["nodes"][0]["info"]["relations"][0]["phrase"] == "uses"


def test_a_paper_page_lists_what_its_own_abstract_states_and_draws_it(views):
    data = page_data(views / paper_page("p1"))
    focus = next(n for n in data["nodes"] if n["id"] == "p1")
    statements = focus["info"]["statements"]
    assert sorted((s["head"]["name"], s["phrase"], s["tail"]["name"]) for s in statements) == [
        ("Policy Mirror Descent", "evaluated on", "MinAtar"),
        ("Policy Mirror Descent", "used for", "reinforcement learning"),
        ("reinforcement learning", "evaluated on", "MinAtar"),
    ]
    # p2 states "PMD used for reinforcement learning" too: p1's page quotes p1's sentence.
    assert {s["sentence"] for s in statements} == {
        "We propose Policy Mirror Descent (PMD) for reinforcement learning on MinAtar."}
    assert all((views / s[end]["href"]).is_file() for s in statements for end in ("head", "tail"))
    labels = {(e["from"], e["to"], e.get("label")) for e in data["edges"]}
    assert (PMD, "Task:reinforcement learning", "used for") in labels
    assert ("Task:reinforcement learning", "Dataset:minatar", "evaluated on") in labels


def test_a_paper_page_reads_symmetric_and_reversed_statements_once(views):
    data = page_data(views / paper_page("p2"))
    focus = next(n for n in data["nodes"] if n["id"] == "p2")
    said = sorted((s["head"]["name"], s["phrase"], s["tail"]["name"]) for s in focus["info"]["statements"])
    assert said == [("Natural Policy Gradient", "a kind of", "Policy Mirror Descent"),
                    ("Natural Policy Gradient", "compared with", "Policy Mirror Descent"),
                    ("Policy Mirror Descent", "used for", "reinforcement learning")]
    labels = {(e["from"], e["to"], e.get("label")) for e in data["edges"]}
    assert ("Method:natural policy gradient", PMD, "compared with, a kind of") in labels
