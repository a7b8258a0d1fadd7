"""Relations between entities: built from Extraction.relations, kept through the graph files and the store."""
from __future__ import annotations

import json
from collections import Counter

import networkx as nx
import pytest

from kg import schema
from kg.graph import build_graph
from kg.graph.io import read_json, write_graphml, write_json
from kg.records import RELATION_LABELS
from kg.concepts.resolve import resolve
from kg.store import Store, write_store
from tests.helpers import extraction, mention, paper, with_relations
from tests.test_export_samples import sample_graph

CRF = "Method:conditional random field"
NER = "Task:named entity recognition"
CONLL = "Dataset:conll"
LSTM = "Method:lstm"


def corpus():
    """Three papers on NER: CRF used for NER in two, evaluated on CoNLL, compared with an LSTM
    (once each way round), a relation between two mentions of one entity, and two types
    between one pair."""
    a = paper("a", "Conditional Random Field (CRF) is used for named entity recognition on CoNLL. "
                   "CRF beats LSTM.")
    b = paper("b", "We apply a conditional random field to named entity recognition. LSTM is compared with CRF.")
    c = paper("c", "LSTM is part of a conditional random field, and used for it.")
    ex_a = extraction(a, ("Conditional Random Field", "Method"), ("CRF", "Method"),
                      ("named entity recognition", "Task"), ("CoNLL", "Dataset"), ("LSTM", "Method"))
    ex_a = type(ex_a)(a.id, ex_a.mentions + (mention(a, "CRF", "Method", nth=1),))
    # a: CRF(0), CRF(1), NER(2), CoNLL(3), LSTM(4), CRF(5)
    ex_a = with_relations(ex_a, (0, 2, "USED-FOR", 0.6), (5, 2, "USED-FOR", 0.9), (3, 0, "EVALUATE-FOR", 0.8),
                          (0, 1, "CONJUNCTION"), (5, 4, "COMPARE", 0.7), (2, 2, "USED-FOR"),
                          (0, 9, "USED-FOR"), (0, 2, "NOT-A-LABEL"))
    ex_b = with_relations(extraction(b, ("conditional random field", "Method"), ("named entity recognition", "Task"),
                                     ("LSTM", "Method"), ("CRF", "Method")),
                          (0, 1, "USED-FOR", 0.5), (2, 3, "COMPARE", 0.4))
    ex_c = with_relations(extraction(c, ("LSTM", "Method"), ("conditional random field", "Method")),
                          (0, 1, "PART-OF", 0.8), (0, 1, "USED-FOR", 0.3))
    papers, exs = [a, b, c], [ex_a, ex_b, ex_c]
    return build_graph(papers, exs, resolve(papers, exs))


def relations(g) -> dict[tuple[str, str, str], dict]:
    return {(u, k, v): d for u, v, k, d in g.edges(keys=True, data=True) if k in schema.ENTITY_RELS}


@pytest.fixture(scope="module")
def graph():
    return corpus()


def test_every_relation_label_has_a_rule():
    assert set(schema.RELATION_RULES) == set(RELATION_LABELS)
    assert len(set(schema.ENTITY_RELS)) == len(schema.ENTITY_RELS)


def test_relations_run_in_the_rules_direction_and_gather_papers(graph):
    rels = relations(graph)
    used = rels[(CRF, "USED_FOR", NER)]
    # Two statements in paper a count once, with the sentence of the more confident one.
    assert used["papers"] == 2 and used["paper_ids"] == ["a", "b"]
    assert used["score"] == 0.9
    assert used["sentences"] == [graph.nodes["a"]["abstract"], graph.nodes["b"]["abstract"]]  # helpers: one sentence
    # "CoNLL EVALUATE-FOR CRF" reads: CRF is evaluated on CoNLL.
    assert (CRF, "EVALUATED_ON", CONLL) in rels and (CONLL, "EVALUATED_ON", CRF) not in rels


def test_a_symmetric_relation_stated_either_way_is_one_relationship(graph):
    compared = [k for k in relations(graph) if k[1] == "COMPARED_WITH"]
    assert compared == [(CRF, "COMPARED_WITH", LSTM)]  # the smaller id first
    assert relations(graph)[compared[0]]["paper_ids"] == ["a", "b"]


def test_relations_within_one_entity_or_unknown_are_dropped(graph):
    rels = relations(graph)
    assert all(u != v for u, _, v in rels)  # "Conditional Random Field (CRF)": CONJUNCTION with itself
    assert not any(k == "CONJUNCTION" for _, k, _ in rels)
    assert set(Counter(k for _, k, _ in rels)) <= set(schema.ENTITY_RELS)


def test_two_types_between_one_pair_are_two_relationships(graph):
    assert graph.has_edge(LSTM, CRF, "PART_OF") and graph.has_edge(LSTM, CRF, "USED_FOR")
    assert graph.edges[LSTM, CRF, "PART_OF"]["type"] == "PART_OF"
    assert graph.number_of_edges(LSTM, CRF) == 2


def test_relation_attributes_are_the_schemas(graph):
    for _, _, d in graph.edges(data=True):
        assert set(d) - {"type"} <= set(schema.relationship_properties(d["type"]))
    for d in relations(graph).values():
        assert set(d) == {"type", *schema.ENTITY_REL_PROPERTIES}
        assert len(d["paper_ids"]) == len(d["sentences"]) == d["papers"]


def test_graph_files_keep_every_relationship(graph, tmp_path):
    write_json(graph, tmp_path / "g.json")
    back = read_json(tmp_path / "g.json")
    assert nx.utils.graphs_equal(back, graph)
    assert back.edges[LSTM, CRF, "PART_OF"] == graph.edges[LSTM, CRF, "PART_OF"]
    write_graphml(graph, tmp_path / "g.graphml")
    gm = nx.read_graphml(tmp_path / "g.graphml")
    assert gm.number_of_edges() == graph.number_of_edges()
    types = {d["type"] for _, _, d in gm.edges(LSTM, data=True)}
    assert types == {"PART_OF", "USED_FOR"}
    d = next(d for _, v, d in gm.edges(CRF, data=True) if d["type"] == "USED_FOR" and v == NER)
    assert json.loads(d["paper_ids"]) == ["a", "b"]


def test_a_graph_file_written_before_relations_reads_as_the_keyed_graph(tmp_path):
    old = nx.DiGraph()
    old.add_node("p", label="Paper")
    old.add_node("Method:m", label="Method")
    old.add_edge("p", "Method:m", type="USES", mentions=1)
    (tmp_path / "g.json").write_text(json.dumps(nx.node_link_data(old, edges="links")))
    back = read_json(tmp_path / "g.json")
    assert back.is_multigraph() and back.edges["p", "Method:m", "USES"]["mentions"] == 1


def test_store_holds_every_relationship_between_any_entity_types(tmp_path):
    g = sample_graph()
    write_store(g, tmp_path / "store")
    want = Counter(d["type"] for _, _, d in g.edges(data=True))
    with Store(tmp_path / "store") as s:
        for rel in schema.ENTITY_RELS:
            n = s.query(f"MATCH ()-[r:{rel}]->() RETURN count(r)").rows[0][0]
            assert n == want[rel], rel
        rows = s.query("MATCH (m:Method)-[r:USED_FOR]->(t:Task) RETURN m.name, t.name, r.papers, r.paper_ids, "
                       "r.score").rows
        assert rows == [["Policy Mirror Descent", "reinforcement learning", 2, ["p1", "p2"], 0.9]]
        rows = s.query("MATCH (a:Method)-[r]->(b:Method {name: 'Policy Mirror Descent'}) "
                       "RETURN label(r) AS t ORDER BY t").rows
        assert rows == [["COMPARED_WITH"], ["HYPONYM_OF"]]
        rows = s.query("MATCH (d:Dataset)-[r:USED_FOR]->(m:Method) RETURN d.name, m.name, r.sentences").rows
        assert rows[0][:2] == ["SQuAD", "BERT"] and rows[0][2][0] == g.nodes["p4"]["abstract"]


def test_store_loads_every_pair_of_a_relationship_type(tmp_path):
    """All 16 (from, to) pairs of one type, each loaded by its own COPY, load and read back."""
    from kg.records import ENTITY_TYPES

    texts = {t: f"x{t.lower()}" for t in ENTITY_TYPES}
    p = paper("p", " ".join(texts.values()) + ".")
    ex = extraction(p, *((s, t) for t, s in texts.items()))
    n = len(ENTITY_TYPES)
    ex = with_relations(ex, *((i, j, "USED-FOR") for i in range(n) for j in range(n) if i != j))
    g = build_graph([p], [ex], resolve([p], [ex]))
    write_store(g, tmp_path / "store")
    with Store(tmp_path / "store") as s:
        rows = s.query("MATCH (a)-[r:USED_FOR]->(b) RETURN label(a) AS x, label(b) AS y ORDER BY x, y").rows
    assert rows == sorted([a, b] for a in ENTITY_TYPES for b in ENTITY_TYPES if a != b)


def test_stats_count_relations_apart_and_list_the_most_stated(tmp_path):
    from typer.testing import CliRunner

    from kg.builds import MANIFEST
    from kg.cli.app import app
    from kg.builds.pipeline import BuildResult
    from tests.test_export_samples import write_build

    g = sample_graph()
    counts = BuildResult(tmp_path, None, g, None, 0.0).relationship_counts  # what kg build writes
    b = write_build(g, tmp_path / "b")
    manifest = json.loads((b / MANIFEST).read_text())
    (b / MANIFEST).write_text(json.dumps({**manifest, "relationships": counts}))
    out = CliRunner().invoke(app, ["stats", "--db", str(b), "--top", "2"]).output.splitlines()
    assert "  relationships 5 USES, 2 ADDRESSES, 3 EVALUATES_ON, 1 MEASURES, 3 RELATED_TO" in out
    assert ("  relations     2 USED_FOR, 3 EVALUATED_ON, 1 COMPARED_WITH, 1 CONJUNCTION, 1 PART_OF, "
            "1 FEATURE_OF, 1 HYPONYM_OF (between entities)") in out
    top = next(line for line in out if line.startswith("  top relations "))
    assert top.startswith("  top relations Policy Mirror Descent USED_FOR reinforcement learning (2); ")


def test_a_whole_build_carries_the_relations_to_every_output(tmp_path):
    """kg's pipeline with a stand-in extractor that states relations: the graph files, the store
    (a ready query), the manifest, the concept page and the cypher-shell script all have them."""
    from kg.builds import GRAPH_JSON, MANIFEST, STORE
    from kg.export.cypher_script import render
    from kg.export.rows import export_graph
    from kg.builds.pipeline import BuildOptions, build
    from kg.store.querying import read_query
    from kg.view import concept_page
    from tests.test_view import page_data

    corpus = tmp_path / "ner.txt"
    corpus.write_text("A conditional random field is used for named entity recognition on CoNLL.\n\n"
                      "We apply a conditional random field to named entity recognition and compare it with LSTM.\n",
                      encoding="utf-8")
    known = [("conditional random field", "Method"), ("named entity recognition", "Task"), ("CoNLL", "Dataset"),
             ("LSTM", "Method")]

    def extract(c, options):
        out = []
        for p in c.papers:
            ex = extraction(p, *((s, t) for s, t in known if s in p.text))
            idx = {m.text: i for i, m in enumerate(ex.mentions)}
            rels = [(idx["conditional random field"], idx["named entity recognition"], "USED-FOR", 0.9)]
            if "CoNLL" in idx:
                rels.append((idx["CoNLL"], idx["conditional random field"], "EVALUATE-FOR", 0.8))
            if "LSTM" in idx:
                rels.append((idx["LSTM"], idx["conditional random field"], "COMPARE", 0.6))
            out.append(with_relations(ex, *rels))
        return out, len(out)

    result = build(corpus, BuildOptions(out=tmp_path / "b", use_keybert=False, cache_dir=None), extract=extract)
    g = result.graph
    assert g.edges[CRF, NER, "USED_FOR"]["papers"] == 2
    assert nx.utils.graphs_equal(read_json(result.path / GRAPH_JSON), g)
    manifest = json.loads((result.path / MANIFEST).read_text())
    assert manifest["relationships"]["USED_FOR"] == 1 and manifest["relationships"]["COMPARED_WITH"] == 1
    with Store(result.path / STORE) as s:
        assert s.query(read_query("methods_for_task")).rows == [
            ["named entity recognition", "conditional random field", 2, 0.9]]
        assert s.query(read_query("method_task_dataset")).rows[0][:4] == [
            "conditional random field", "named entity recognition", "CoNLL", 1]
        assert [r[:2] for r in s.query(read_query("compared_methods")).rows] == [
            ["LSTM", "conditional random field"], ["conditional random field", "LSTM"]]
    page = page_data(result.path / "views" / concept_page(CRF))
    phrases = [grp["phrase"] for grp in page["nodes"][0]["info"]["relations"]]
    assert phrases == ["used for", "evaluated on", "compared with"]
    script, _ = render(export_graph(g))
    assert "MERGE (a)-[r:USED_FOR]->(b)" in script and "MATCH (a:Method {id: row.start}) MATCH (b:Task" in script
