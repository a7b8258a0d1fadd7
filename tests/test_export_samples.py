"""Graphs the export tests share, built from hand-made records (no models), and a check that
they cover every label, relationship type and property kind the exports must carry."""
from __future__ import annotations

from dataclasses import replace

import json
from pathlib import Path

import networkx as nx

from kg import schema
from kg.builds import GRAPH_JSON, MANIFEST
from kg.graph import build_graph
from kg.graph.io import write_json
from kg.records import Paper
from kg.concepts.resolve import resolve
from tests.helpers import extraction, paper, small_corpus, with_relations

# Text a Cypher literal, a CSV field or a Bolt string must carry unchanged.
AWKWARD = 'It\'s a "quoted" back\\slash, a tab\there;\nnew line, é ü 中文 😀, $param, {brace}, // not a comment; MATCH'


def sample_graph(extra_papers: int = 0) -> nx.DiGraph:
    """small_corpus plus a paper with every optional field and awkward text, RELATED_TO edges,
    relations of every type between entities (two types between one pair), and ``extra_papers``
    filler papers (to make many batches)."""
    papers, extractions = small_corpus()
    # p1: PMD(0), PMD(1), RL(2), MinAtar(3); p2: PMD(0), RL(1), NPG(2), NPG(3); p3: LLMs(0, 1), MinAtar, accuracy
    extractions[0] = with_relations(extractions[0], (0, 2, "USED-FOR", 0.9), (3, 2, "EVALUATE-FOR"),
                                    (3, 1, "EVALUATE-FOR", 0.6), (0, 1, "USED-FOR"))  # the last: one entity, dropped
    extractions[1] = with_relations(extractions[1], (0, 1, "USED-FOR", 0.8), (2, 0, "HYPONYM-OF"),
                                    (0, 3, "COMPARE", 0.5))
    extractions[2] = with_relations(extractions[2], (3, 1, "EVALUATE-FOR"), (3, 2, "FEATURE-OF"),
                                    (2, 0, "PART-OF"), (0, 2, "CONJUNCTION"))
    rich = Paper(
        id="p4", title="A title with 'quotes'", abstract=AWKWARD + " We use BERT on SQuAD.",
        text=AWKWARD + " We use BERT on SQuAD.", source="test:p4", authors=("Ada Lovelace", "Алан Тьюринг"),
        year=2025, venue="ICLR", url="https://example.org/p4?a=1&b=2", keywords=("graphs", "a;b"),
    )
    papers.append(rich)
    extractions.append(with_relations(extraction(rich, ("BERT", "Method"), ("SQuAD", "Dataset"),
                                                 key_concepts=[("bert", 0.9), ("squad", 0.5)]),
                                      (1, 0, "USED-FOR", 0.75)))
    for i in range(extra_papers):
        # Two years, so that the trends queries have something to answer.
        p = replace(paper(f"x{i:04d}", f"Filler paper {i} applies PMD to reinforcement learning on MinAtar."),
                    year=2020 + i % 2)
        papers.append(p)
        extractions.append(extraction(p, ("PMD", "Method"), ("reinforcement learning", "Task"), ("MinAtar", "Dataset")))
    g = build_graph(papers, extractions, resolve(papers, extractions))
    g.add_edge("p1", "p2", schema.RELATED_REL, type=schema.RELATED_REL, score=0.75, rank=1, shared=["policy mirror descent", "MinAtar"],
               shared_types=["Method", "Dataset"], shared_papers=[2, 2])
    g.add_edge("p2", "p1", schema.RELATED_REL, type=schema.RELATED_REL, score=0.75, rank=1, shared=["policy mirror descent"],
               shared_types=["Method"], shared_papers=[2])
    g.add_edge("p3", "p1", schema.RELATED_REL, type=schema.RELATED_REL, score=0.125, rank=2, shared=[], shared_types=[],
               shared_papers=[])
    # Research themes as kg.analysis.topics stores them; p4 and the fillers have none (no related paper).
    for pid, topic, label in (("p1", 1, "policy mirror descent · MinAtar"), ("p2", 1, "policy mirror descent · MinAtar"),
                              ("p3", 2, "machine translation")):
        g.nodes[pid].update(topic=topic, topic_label=label)
    return g


def write_build(g: nx.DiGraph, path: Path) -> Path:
    """A build directory the CLI accepts: graph.json and a build.json manifest (kg.builds)."""
    path.mkdir(parents=True, exist_ok=True)
    write_json(g, path / GRAPH_JSON)
    (path / MANIFEST).write_text(json.dumps({"corpus": "export-test", "papers": len(g)}), encoding="utf-8")
    return path


def test_sample_covers_every_label_type_and_property_kind():
    g = sample_graph()
    labels = {d["label"] for _, d in g.nodes(data=True)}
    types = {d["type"] for _, _, d in g.edges(data=True)}
    assert labels == set(schema.NODE_LABELS)
    assert types == {t for t, _, _ in schema.relationship_types()}
    rich = g.nodes["p4"]
    assert rich["year"] == 2025 and rich["authors"] and rich["venue"] and rich["key_concepts"]
    assert g.nodes["p1"]["year"] is None  # an absent value the exports must leave out


def test_write_build_is_a_build(tmp_path):
    from kg.builds import open_build

    b = open_build(write_build(sample_graph(), tmp_path / "b"))
    assert nx.utils.graphs_equal(b.graph(), sample_graph())
