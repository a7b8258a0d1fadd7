"""Research themes: Louvain communities of the related-papers graph, labelled, stored, queried."""
from __future__ import annotations

from kg import schema
from kg.graph.io import read_json, write_graphml, write_json
from kg.store.querying import read_query
from kg.analysis.related import ConceptIndex, add_related_edges
from kg.store import Store, write_store
from kg.analysis.topics import add_topics, find_topics, topics_of
from tests.test_related import corpus_graph


def two_fields():
    """Six papers on speech, six on images, and twenty unrelated ones (so that neither field's
    concepts are held by over a fifth of the papers): two themes, plainly."""
    specs = {}
    for i in range(6):
        specs[f"s{i}"] = (f"Speech paper {i}", [("speech recognition", "Task"), ("hidden Markov models", "Method")], [])
        specs[f"v{i}"] = (f"Vision paper {i}", [("image segmentation", "Task"), ("pixel labelling", "Task")], [])
    for i in range(20):
        specs[f"x{i}"] = (f"Other paper {i}", [(f"topic{i} survey", "Task")], [])
    return corpus_graph(specs)


def test_two_fields_make_two_themes_named_by_their_concepts():
    g = two_fields()
    index = ConceptIndex.from_graph(g)
    topics = find_topics(g, index.related_all(10), index)
    assert len(topics) == 2
    by_paper = {p: t for t in topics for p in t.papers}
    assert len({by_paper[f"s{i}"].id for i in range(6)}) == 1 and len({by_paper[f"v{i}"].id for i in range(6)}) == 1
    speech = by_paper["s0"]
    assert any("speech" in c.lower() or "markov" in c.lower() for c in speech.concepts), speech
    assert not any("image" in c.lower() for c in speech.concepts)
    assert speech.label == " · ".join(speech.concepts)
    assert [t.id for t in topics] == [1, 2]
    assert find_topics(g, index.related_all(10), index) == topics  # seeded: the same themes every time


def test_papers_with_no_related_paper_get_no_theme():
    g = corpus_graph({"a": ("Alone", [("galaxy survey", "Dataset")], []),
                      "b": ("Also alone", [("protein folding", "Task")], [])})
    assert find_topics(g, ConceptIndex.from_graph(g).related_all(10)) == []


def test_themes_are_stored_on_papers_and_survive_every_format(tmp_path):
    g = two_fields()
    index = ConceptIndex.from_graph(g)
    related = index.related_all(10)
    add_related_edges(g, 5, related)
    add_topics(g, find_topics(g, related, index))
    assert {"topic", "topic_label"} <= set(schema.PAPER_PROPERTIES)
    assert sorted((t.id, t.papers) for t in topics_of(g)) == sorted(
        (t.id, tuple(sorted(t.papers))) for t in find_topics(g, related, index))
    write_json(g, tmp_path / "g.json")
    assert read_json(tmp_path / "g.json").nodes["s0"]["topic"] == g.nodes["s0"]["topic"]
    write_graphml(g, tmp_path / "g.graphml")
    write_store(g, tmp_path / "store")
    with Store(tmp_path / "store") as s:
        res = s.query(read_query("topics"))
    rows = [dict(zip(res.columns, r)) for r in res.rows]
    assert [(r["topic"], r["papers"]) for r in rows] == [(1, 6), (2, 6)]
    assert rows[0]["label"] == g.nodes[next(p for p in g if g.nodes[p].get("topic") == 1)]["topic_label"]
