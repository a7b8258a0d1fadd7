"""Related papers: rare shared concepts rank first, every neighbour is explained, the CLI serves it."""
from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from kg import schema
from kg.cli.app import app
from kg.errors import KgError
from kg.graph import build_graph
from kg.graph.io import write_json
from kg.analysis.related import (NOTE_NOTHING, NOTE_WORDING, ConceptIndex, add_related_edges, find_paper, rank_among, related,
                        related_all)
from kg.concepts.resolve import resolve
from tests.helpers import extraction, paper


def corpus_graph(specs: dict[str, tuple[str, list[tuple[str, str]], list[str]]]):
    """Graph of papers given as id -> (title, [(entity, type)], [key concepts]); text holds every surface."""
    papers, exs = [], []
    for pid, (title, ents, keys) in specs.items():
        text = f"{title}. " + ". ".join(s for s, _ in ents) + "."
        p = paper(pid, text, title=title)
        papers.append(p)
        exs.append(extraction(p, *ents, key_concepts=[(k, 0.5) for k in keys]))
    return build_graph(papers, exs, resolve(papers, exs))


def filler(n: int) -> dict:
    """Papers that all share one common concept, so its IDF is low."""
    return {f"f{i}": (f"Filler study {i}", [("language model", "Method"), (f"topic{i} analysis", "Task")], [])
            for i in range(n)}


@pytest.fixture
def graph():
    specs = {
        "a": ("Mirror descent for control", [("policy mirror descent", "Method"), ("language model", "Method"),
                                             ("robot control", "Task")], []),
        "d": ("Robots in kitchens", [("robot control", "Task")], []),
        "b": ("Faster mirror descent", [("Policy Mirror Descent", "Method")], []),
        "c": ("Another language model", [("language models", "Method")], []),
        "lonely": ("Unrelated astronomy", [("galaxy survey", "Dataset")], []),
    }
    specs.update(filler(8))
    return corpus_graph(specs)


def test_a_rare_shared_concept_outranks_a_common_one(graph):
    rows = related(graph, "a", k=3)
    assert rows[0].id == "b"
    assert rows[0].shared[0].name.lower() == "policy mirror descent"
    assert rows[0].shared[0].papers == 2
    # "language model(s)" is in 10 of the 12 papers (a, c and 8 fillers): too broad to explain a
    # link alone, so c, which shares nothing else with a, is no neighbour of a.
    assert all(r.id != "c" for r in rows)


def test_rarity_alone_breaks_an_otherwise_equal_overlap():
    # Both partners share one two-word concept with "a", built alike; only their rarity differs.
    specs = {
        "a": ("Query", [("quantum annealing", "Method"), ("graph coloring", "Task")], []),
        "b_common": ("Common partner", [("graph coloring", "Task")], []),
        "z_rare": ("Rare partner", [("quantum annealing", "Task")], []),
    }
    specs.update({f"f{i}": (f"Filler {i}", [("graph coloring", "Task")], []) for i in range(2)})
    rows = related(corpus_graph(specs), "a", k=10)
    assert rows[0].id == "z_rare"
    common = next(r for r in rows if r.id == "b_common")
    assert rows[0].score > common.score
    assert rows[0].shared[0].papers == 2 and common.shared[0].papers == 4


def test_every_neighbour_is_explained_and_strangers_never_listed(graph):
    for pid, rows in related_all(graph, k=50).items():
        assert all(r.shared for r in rows), pid
        assert all(r.id != pid for r in rows)
        assert all(0 < r.score <= 1.0 + 1e-9 for r in rows)
    assert related(graph, "lonely", k=10) == []
    assert all(r.id != "lonely" for rows in related_all(graph, 10).values() for r in rows)


def test_broader_concepts_link_specific_names():
    g = corpus_graph({
        "smt": ("Phrase tables", [("statistical machine translation", "Task")], []),
        "nmt": ("Attention", [("neural machine translation system", "Task")], []),
        "asr": ("Speech", [("speech recognition", "Task")], []),
    })
    rows = related(g, "smt", k=5)
    assert [r.id for r in rows] == ["nmt"]
    assert rows[0].shared[0].name == "machine translation"
    assert rows[0].shared[0].type == "Task"


def test_a_word_only_ever_modifying_others_is_no_shared_concept():
    g = corpus_graph({
        "a": ("One", [("complex reasoning", "Task"), ("speech recognition", "Task")], []),
        "b": ("Two", [("complex planning", "Task"), ("speech synthesis", "Task")], []),
        "c": ("Three", [("spontaneous speech", "Dataset")], []),
    })
    shared = {s.name for s in related(g, "a", k=5)[0].shared}
    assert "speech" in shared  # a head in "spontaneous speech": a concept of its own
    assert "complex" not in shared  # only ever describes something else


def test_a_derived_word_is_not_the_word_it_comes_from():
    # Snowball stems "complexity" to "complex" and "objectives" to "object": different things.
    g = corpus_graph({
        "a": ("One", [("complex reasoning", "Task"), ("object detection", "Task")], []),
        "b": ("Two", [("sample complexity", "Metric"), ("training objectives", "Method")], []),
        "c": ("Three", [("query complexity", "Metric"), ("contrastive objectives", "Method")], []),
    })
    assert related(g, "a", k=5) == []
    (row,) = [r for r in related(g, "b", k=5) if r.id == "c"]
    assert {s.name.lower() for s in row.shared} == {"complexity", "objectives"}


def test_plural_forms_in_ics_are_one_concept():
    g = corpus_graph({
        "a": ("One", [("summary statistics", "Metric")], []),
        "b": ("Two", [("summary statistic", "Metric")], []),
    })
    (row,) = related(g, "a", k=5)  # Snowball alone: "statist" and "statistic"
    assert row.id == "b" and {s.name.lower() for s in row.shared} & {"summary statistic", "summary statistics"}


def test_key_concepts_and_aliases_count():
    g = corpus_graph({
        "p": ("Sparse attention", [], ["sparse attention kernels"]),
        "q": ("Kernels", [], ["sparse attention kernels"]),
        "r": ("Other", [], ["protein folding"]),
    })
    rows = related(g, "p", k=5)
    assert [r.id for r in rows] == ["q"]
    assert rows[0].shared[0].type == "Concept"


def test_the_all_papers_ranking_equals_the_one_paper_ranking():
    """`related_all` (sparse products, used by the build) ranks exactly as `related` does."""
    specs = filler(30)
    for i in range(30):  # overlapping families of concepts, with ties to break by id
        specs[f"g{i}"] = (f"Study {i}", [(f"method{i % 4}", "Method"), (f"task{i % 3}", "Task")], [f"idea{i % 5}"])
    g = corpus_graph(specs)
    everyone = related_all(g, k=7)
    for pid in everyone:
        one = related(g, pid, k=7)
        assert [(r.id, round(r.score, 9), r.shared) for r in everyone[pid]] == \
            [(r.id, round(r.score, 9), r.shared) for r in one]


def test_related_rows_serialise_as_documented(graph):
    row = related(graph, "a", k=1)[0].to_json()
    assert set(row) == {"id", "title", "score", "shared"}
    assert row["title"] == "Faster mirror descent"
    assert {"name", "type", "papers"} <= set(row["shared"][0])


def test_related_edges_follow_the_schema_and_are_idempotent(graph):
    n = add_related_edges(graph, k=2)
    again = add_related_edges(graph, k=2)
    edges = [(u, v, d) for u, v, d in graph.edges(data=True) if d["type"] == schema.RELATED_REL]
    assert n == again == len(edges)
    for u, v, d in edges:
        assert set(d) - {"type"} == set(schema.RELATED_PROPERTIES)
        assert isinstance(d["score"], float) and d["rank"] in (1, 2)
        assert d["shared"] and all(isinstance(s, str) for s in d["shared"])
    assert graph.edges["a", "b", schema.RELATED_REL]["rank"] == 1
    assert sum(1 for u, v, d in edges if u == "a") == 2
    assert not any(u == "lonely" for u, _, _ in edges)


def test_find_paper_by_id_or_title_words(graph):
    assert find_paper(graph, "b") == "b"
    assert find_paper(graph, "faster MIRROR") == "b"
    with pytest.raises(KgError, match="matches 2 papers"):
        find_paper(graph, "mirror descent")
    with pytest.raises(KgError, match="no paper matches"):
        find_paper(graph, "quantum gravity")


def test_find_paper_by_a_concept_it_names(graph):
    assert find_paper(graph, "galaxy survey") == "lonely"  # an entity, not in its title
    assert find_paper(graph, "GALAXY") == "lonely"  # a word of one of its concepts
    with pytest.raises(KgError, match="matches 2 papers"):  # several: listed, as for titles
        find_paper(graph, "robot control")



@pytest.fixture
def build_dir(tmp_path, graph):
    (tmp_path / "build.json").write_text(json.dumps({"corpus": "test"}), encoding="utf-8")
    write_json(graph, tmp_path / "graph.json")
    return tmp_path


def test_cli_json_rows(build_dir):
    res = CliRunner().invoke(app, ["related", "Mirror descent for control", "--db", str(build_dir), "-k", "2",
                                   "--format", "json"])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.output)
    assert rows[0]["id"] == "b" and rows[0]["shared"][0]["type"] == "Method"
    assert len(rows) == 2


def test_cli_table_names_the_paper_and_reasons(build_dir):
    res = CliRunner().invoke(app, ["related", "a", "--db", str(build_dir)])
    assert res.exit_code == 0, res.output
    assert res.output.startswith("Related to a: Mirror descent for control")
    first = res.output.split("\n  2.")[0]
    assert "1. " in first and " b " in first and "Faster mirror descent" in first
    assert "policy mirror descent (method, 2 papers)" in first.lower()


def test_cli_all_prints_one_json_line_per_paper(build_dir, graph):
    res = CliRunner().invoke(app, ["related", "--all", "-k", "3", "--db", str(build_dir)])
    assert res.exit_code == 0, res.output
    lines = [json.loads(line) for line in res.output.splitlines()]
    assert len(lines) == sum(1 for _, d in graph.nodes(data=True) if d["label"] == "Paper")
    first = next(x for x in lines if x["id"] == "a")
    assert first["related"][0]["id"] == "b" and first["related"][0]["shared"]
    assert set(first["related"][0]) == {"id", "score", "shared"}


def test_cli_all_as_csv_is_one_row_per_pair(build_dir, graph):
    res = CliRunner().invoke(app, ["related", "--all", "-k", "3", "--db", str(build_dir), "-f", "csv"])
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader(io.StringIO(res.output)))
    jsonl = CliRunner().invoke(app, ["related", "--all", "-k", "3", "--db", str(build_dir)]).output
    pairs = [(x["id"], r["id"]) for x in map(json.loads, jsonl.splitlines()) for r in x["related"]]
    assert [(r["paper"], r["related"]) for r in rows] == pairs
    first = next(r for r in rows if r["paper"] == "a")
    assert first["rank"] == "1" and first["related"] == "b" and "policy mirror descent" in first["shared concepts"].lower()


@pytest.mark.slow
def test_cli_unknown_paper_is_one_line_exit_2(build_dir):
    proc = subprocess.run([sys.executable, "-m", "kg", "related", "no such title words", "--db", str(build_dir)],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "no paper matches" in proc.stderr
    assert f"searched the build {build_dir}" in proc.stderr  # which build, when the default was not the one meant
    assert "Traceback" not in proc.stderr


def test_a_phrase_and_the_phrase_without_its_generic_tail_are_one_concept():
    g = corpus_graph({
        "a": ("One", [("machine translation systems", "Method")], []),
        "b": ("Two", [("machine translation system", "Method")], ["machine translation"]),
    })
    (row,) = related(g, "a", k=5)
    # One reason, shown by the name of the graph's node, as the concept stage chose it.
    (node,) = [d["name"] for _, d in g.nodes(data=True) if d.get("label") == "Method"]
    assert [s.name for s in row.shared if "machine translation" in s.name.lower()] == [node]


def test_an_entity_written_several_ways_is_one_shared_concept():
    g = corpus_graph({
        "a": ("Caching for Large Language Models (LLMs)", [("Large Language Models", "Method"), ("LLMs", "Method"),
                                  ("key-value cache", "Method")], []),
        "b": ("Pruning LLMs", [("LLMs", "Method"), ("channel pruning", "Method")], []),
        "c": ("Scaling", [("large language models", "Method"), ("scaling laws", "Task")], []),
    })
    ents = [n for n, d in g.nodes(data=True) if d["label"] == "Method" and "LLMs" in (d.get("aliases") or [])]
    assert len(ents) == 1 and g.nodes[ents[0]]["papers"] == 3  # one entity: a's acronym definition, case
    for other in ("b", "c"):
        rows = related(g, "a", k=5)
        row = next(r for r in rows if r.id == other)
        assert len(row.shared) == 1, row.shared  # not "large language models" and "LLMs" again
        assert row.shared[0].entity == ents[0] and row.shared[0].papers == 3


def test_a_concept_is_not_listed_beside_a_more_specific_one_containing_it():
    # "forests" is the larger contribution (a typed entity in both papers), "random forests" the
    # more specific reason; it is listed once, in the first place, as the specific one.
    g = corpus_graph({
        "a": ("One", [("forests", "Method"), ("pruning", "Method")], ["random forests"]),
        "b": ("Two", [("forests", "Method"), ("random forests", "Method")], []),  # each written apart
        "c": ("Three", [("forests", "Method"), ("parsing", "Task")], []),
        # unrelated papers, so that both concepts are rare enough to count
        "d": ("Four", [("parsing", "Task"), ("tagging", "Task")], []),
        "e": ("Five", [("tagging", "Task"), ("lexicons", "Dataset")], []),
        "f": ("Six", [("lexicons", "Dataset"), ("pruning", "Method")], []),
    })
    index = ConceptIndex.from_graph(g)
    contrib = {index.names[c]: v for c, v in _contributions(index, "a", "b").items()}
    assert contrib["forests"] > contrib["random forests"]  # the case this test is about
    row = next(r for r in related(g, "a", k=5) if r.id == "b")
    assert [s.name for s in row.shared] == ["random forests"]


def _contributions(index, a, b):
    va, vb = index.vectors[a], index.vectors[b]
    return {c: x * vb[c] / (index.norms[a] * index.norms[b]) for c, x in va.items() if c in vb}


# --- facets (--by) and ranking a given list (--among) ----------------------------------------

@pytest.fixture
def facet_graph():
    specs = {
        "a": ("Mirror descent for control", [("policy mirror descent", "Method"), ("robot control", "Task"),
                                             ("MuJoCo", "Dataset")], ["policy mirror descent"]),
        "m": ("Faster mirror descent", [("Policy Mirror Descent", "Method"), ("image captioning", "Task")], []),
        "t": ("Robots in kitchens", [("robot control", "Task"), ("graph search", "Method")], []),
        "w": ("Mirror descent for control of robots", [], []),  # the wording of a, no concept
        "lonely": ("Unrelated astronomy", [("galaxy survey", "Dataset")], []),
    }
    specs.update(filler(8))
    return corpus_graph(specs)


def test_a_facet_ranks_and_explains_by_its_concepts_only(facet_graph):
    by_method = related(facet_graph, "a", k=5, by="method")
    assert [r.id for r in by_method] == ["m"]
    assert {s.type for r in by_method for s in r.shared} == {"Method"}
    by_task = related(facet_graph, "a", k=5, by="task")
    assert [r.id for r in by_task] == ["t"]
    assert [s.name for s in by_task[0].shared] == ["robot control"]
    assert {r.id for r in related(facet_graph, "a", k=5)} == {"m", "t"}  # no facet: both
    assert related_all(facet_graph, k=3, by="task")["t"][0].id == "a"


def test_a_key_phrase_counts_in_a_facet_where_it_names_a_concept_of_it(facet_graph):
    index = ConceptIndex.from_graph(facet_graph, by="task")
    assert not any("mirror" in c for c in index.vectors["a"])  # a's key phrase names a method
    index = ConceptIndex.from_graph(facet_graph, by="method")
    assert any("mirror" in c for c in index.vectors["a"])


def test_a_facets_reasons_are_concepts_of_its_type():
    # "question answering datasets" (a Dataset) implies the task "question answering", which the
    # key phrases of a and b name: the task the Task entities name is no reason of the dataset facet.
    qa = ("question answering", "Task")
    g = corpus_graph({
        "a": ("One", [qa, ("SQuAD", "Dataset")], ["question answering"]),
        "b": ("Two", [qa, ("SQuAD", "Dataset")], ["question answering"]),
        "c": ("Three", [qa, ("question answering datasets", "Dataset")], []),
        "d": ("Four", [qa], []),
        **filler(20),
    })
    (row, *_) = related(g, "a", k=3, by="dataset")
    assert row.id == "b" and [(s.name, s.type) for s in row.shared] == [("SQuAD", "Dataset")]


def test_an_unknown_facet_is_one_clear_error(facet_graph):
    with pytest.raises(KgError, match="no facet 'author'.*method, task, dataset"):
        related(facet_graph, "a", by="author")


def test_score_is_the_score_related_ranks_by_for_any_pair(facet_graph):
    index = ConceptIndex.from_graph(facet_graph)
    top = index.related("a", k=3)
    for row in top:
        assert index.score("a", row.id) == pytest.approx(row.score)
        assert index.score(row.id, "a") == pytest.approx(row.score)
    assert index.score("a", "lonely") == 0.0
    assert index.score("a", "f1") == 0.0  # shares only a broad concept: no link, as in related()


def test_rank_among_lists_every_paper_with_score_reasons_or_a_note(facet_graph):
    rows = rank_among(facet_graph, "a", ["lonely", "w", "t", "m", "a", "m"])
    assert [r.id for r in rows] == ["m", "t", "w", "lonely"]  # once each, not the paper itself
    assert rows[0].score > rows[1].score > 0 and rows[0].shared and rows[1].shared
    assert rows[0].score == pytest.approx(ConceptIndex.from_graph(facet_graph).score("a", "m"))
    assert (rows[2].score, rows[2].shared, rows[2].note) == (0.0, (), NOTE_WORDING)
    assert (rows[3].score, rows[3].shared, rows[3].note) == (0.0, (), NOTE_NOTHING)
    assert rows[2].to_json()["note"] == "similar wording" and "note" not in rows[0].to_json()


def test_rank_among_with_a_facet(facet_graph):
    rows = rank_among(facet_graph, "a", ["t", "m"], by="task")
    assert [r.id for r in rows] == ["t", "m"]
    assert rows[0].shared[0].type == "Task" and rows[1].score == 0.0 and rows[1].note


def test_rank_among_names_an_unknown_id(facet_graph):
    with pytest.raises(KgError, match="no paper with id 'nope' in the build"):
        rank_among(facet_graph, "a", ["m", "nope"])


@pytest.fixture
def facet_build(tmp_path, facet_graph):
    (tmp_path / "build.json").write_text(json.dumps({"corpus": "test"}), encoding="utf-8")
    write_json(facet_graph, tmp_path / "graph.json")
    return tmp_path


def test_cli_among_json_is_every_listed_paper_in_rank_order(facet_build, tmp_path):
    listed = tmp_path / "reading.txt"
    listed.write_text("# to read\nlonely\nw\n\nm\nt\n", encoding="utf-8")
    res = CliRunner().invoke(app, ["related", "Mirror descent for control", "--among", str(listed),
                                   "--db", str(facet_build), "-f", "json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["id"] == "a"
    assert [r["id"] for r in out["related"]] == ["m", "t", "w", "lonely"]
    assert {"id", "score", "shared"} <= set(out["related"][0]) and out["related"][0]["shared"]
    assert [r.get("note") for r in out["related"]] == [None, None, "similar wording", "nothing shared"]


def test_cli_among_by_task_table(facet_build, tmp_path):
    listed = tmp_path / "reading.txt"
    listed.write_text("m\nt\n", encoding="utf-8")
    res = CliRunner().invoke(app, ["related", "a", "--among", str(listed), "--by", "task", "--db", str(facet_build)])
    assert res.exit_code == 0, res.output
    assert res.output.startswith("Related to a by task: Mirror descent for control")
    assert "robot control (Task, 2 papers)" in res.output
    assert "(similar wording)" in res.output  # m shares no task, but "mirror descent" in its wording


def test_cli_by_method(facet_build):
    res = CliRunner().invoke(app, ["related", "a", "--by", "method", "--db", str(facet_build), "-f", "json"])
    assert res.exit_code == 0, res.output
    assert [r["id"] for r in json.loads(res.output)] == ["m"]


@pytest.mark.slow
def test_cli_among_unknown_id_is_one_line_exit_2(facet_build, tmp_path):
    listed = tmp_path / "reading.txt"
    listed.write_text("m\nno-such-id\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "kg", "related", "a", "--among", str(listed),
                           "--db", str(facet_build)], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "'no-such-id'" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_concept_written_only_inside_a_longer_mention_counts_once():
    # The concept stage links "m" to "dependency parsing", the words inside its "multilingual
    # dependency parsing" (kg.concepts.broader); the ranking derives that concept from the longer
    # phrase itself, so the link must not count it a second time.
    from kg.concepts import find_concepts

    specs = {f"p{i}": f"We study dependency parsing of treebank {i}." for i in range(4)}
    specs["m"] = "Multilingual dependency parsing with one model."
    papers = [paper(pid, text) for pid, text in specs.items()]
    exs = [extraction(p, ("Multilingual dependency parsing" if p.id == "m" else "dependency parsing", "Task"))
           for p in papers]
    g = build_graph(papers, exs, find_concepts(papers, exs))
    assert g.has_edge("m", "Task:dependency parsing")  # the stage's link, which the graph shows
    linked = ConceptIndex.from_graph(g, dense=False).vectors["m"]
    g.remove_edge("m", "Task:dependency parsing")
    assert ConceptIndex.from_graph(g, dense=False).vectors["m"] == linked


def test_a_reason_is_shown_by_the_name_and_type_of_its_node():
    # Key phrases spell BERT out in lower case more often than the papers write "BERT"; the reason
    # is still the node's name, as the concept stage chose it.
    long_form = "bidirectional encoder representations from transformers"
    texts = {"a": "Bidirectional Encoder Representations from Transformers (BERT) for tagging.",
             "b": "We probe BERT on parsing.", "c": "We distil BERT for search.", "d": "Galaxy surveys.",
             "e": "Encoders for search engines."}
    papers = [paper(pid, t) for pid, t in texts.items()]
    exs = [extraction(papers[0], ("Bidirectional Encoder Representations from Transformers", "Method"), ("BERT", "Method"),
                      key_concepts=[(long_form, 0.5)]),
           extraction(papers[1], ("BERT", "Method"), key_concepts=[(long_form, 0.5)]),
           extraction(papers[2], ("BERT", "Method"), key_concepts=[(long_form, 0.5)]),
           extraction(papers[3], ("Galaxy surveys", "Dataset")),
           extraction(papers[4], ("search engines", "Task"), key_concepts=[(long_form, 0.5)])]
    g = build_graph(papers, exs, resolve(papers, exs))
    row = next(r for r in related(g, "b", k=5) if r.id == "c")
    assert (row.shared[0].name, row.shared[0].type) == ("BERT", "Method")
    assert long_form not in [s.name.lower() for s in row.shared]


def test_a_hyphenated_or_bracketed_spelling_is_the_concept_written_plainly():
    from kg.analysis.related.phrases import concept_key

    # "fact-checking systems" names fact checking, as "fact checking systems" does; an acronym in
    # brackets is an alias, not a word of the concept.
    assert concept_key("fact-checking systems") == concept_key("fact checking systems") == concept_key("fact checking")
    assert concept_key("natural language processing (NLP) tasks") == concept_key("natural language processing tasks")
    assert concept_key("(NLP)") == concept_key("NLP")  # brackets alone: their words


def test_an_alias_only_generic_entities_share_explains_no_link():
    # Two generic entities (kg.concepts.specificity) both have "natural language processing" among
    # their aliases; the alias stays its own concept, and a generic one: no reason, no link.
    g = corpus_graph({
        "a": ("One", [("natural language processing (NLP) tasks", "Task"), ("NLP", "Task"),
                      ("parsing", "Task")], []),
        "b": ("Two", [("natural language processing (NLP) tasks", "Task"), ("galaxy survey", "Dataset")], []),
        "c": ("Three", [("robot control", "Task")], []), "d": ("Four", [("image retrieval", "Task")], []),
        "e": ("Five", [("speech synthesis", "Task")], []),
    })
    for eid, d in g.nodes(data=True):
        if d.get("label") == "Task" and "natural language processing" in " ".join(d.get("aliases") or ()).lower():
            d["level"] = "generic"  # as the concept stage rates a field's name
            d.setdefault("aliases", []).append("natural language processing")
    assert related(g, "a", k=5) == []


def test_describing_words_name_no_concept():
    # "previous models", "downstream tasks" and "new datasets" say how a paper writes, not what it
    # is about: two papers whose key phrases share only those are not related.
    writing = ["previous models", "downstream tasks", "new datasets"]
    g = corpus_graph({
        "a": ("One", [("galaxy survey", "Dataset")], writing),
        "b": ("Two", [("robot control", "Task")], writing),
        "c": ("Three", [("speech synthesis", "Task")], []),
    })
    assert related(g, "a", k=5) == []


def test_a_name_cut_to_its_modifier_is_not_the_name_of_the_shared_concept():
    # "large-scale real-world scenarios" without its generic words is "large-scale", the concept
    # every "large-scale ..." phrase implies; a link resting on it must not read as scenarios.
    g = corpus_graph({
        "a": ("One", [("large-scale real-world scenarios", "Task")], []),
        "b": ("Two", [("large-scale pretraining", "Method")], []),
        "c": ("Three", [("large-scale parsing", "Task")], []),
        "d": ("Four", [("galaxy survey", "Dataset")], []),
    })
    (row, _) = related(g, "a", k=5)
    assert [s.name for s in row.shared] == ["large-scale"]


def test_a_concept_most_papers_only_modify_with_is_named_by_its_own_words():
    # One paper's "task-oriented evaluation" keys "task-oriented" (its generic word off); the other
    # papers write "task-oriented" only before another word. What b and c share is "task-oriented",
    # not that paper's evaluation.
    g = corpus_graph({
        "a": ("One", [("task-oriented evaluation", "Task")], []),
        "b": ("Two", [("task-oriented parsing", "Task")], []),
        "c": ("Three", [("task-oriented dialogue", "Task")], []),
        "d": ("Four", [("galaxy survey", "Dataset")], []), "e": ("Five", [("robot control", "Task")], []),
        "f": ("Six", [("speech synthesis", "Task")], []),
    })
    row = next(r for r in related(g, "b", k=5) if r.id == "c")
    assert [(s.name, s.entity) for s in row.shared] == [("task-oriented", None)]


def _alias(g, name: str, *aliases: str) -> None:
    """Give the entity named ``name`` more aliases, as resolution would have."""
    for _, d in g.nodes(data=True):
        if d.get("name") == name:
            d["aliases"] = [*(d.get("aliases") or ()), *aliases]


def test_an_alias_keying_another_entitys_name_leaves_that_concept_to_it():
    # "NMT training" has the alias "neural machine translation training", which keys "neural machine
    # translation" (its generic word off): the concept stays the NMT node's, for every paper naming it.
    g = corpus_graph({
        "a": ("One", [("neural machine translation", "Task")], []),
        "b": ("Two", [("neural machine translation", "Task")], []),
        "c": ("Three", [("NMT training", "Method")], []),
        "d": ("Four", [("galaxy survey", "Dataset")], []), "e": ("Five", [("robot control", "Task")], []),
        "f": ("Six", [("speech synthesis", "Task")], []),
    })
    _alias(g, "NMT training", "neural machine translation training")
    (row, *_) = related(g, "a", k=5)
    assert row.id == "b" and [s.name for s in row.shared] == ["neural machine translation"]


def test_an_alias_keying_a_rarer_entitys_name_takes_it():
    # BERT's alias "BERT-based models" keys "BERT-base", the node of one paper against BERT's ten:
    # that paper is a BERT paper.
    g = corpus_graph({
        **{f"b{i}": (f"Paper {i}", [("BERT", "Method")], []) for i in range(10)},
        "c": ("Three", [("BERT-base", "Method")], []),
        **filler(45),  # so that ten papers are no broad share
    })
    _alias(g, "BERT", "BERT-based models")
    row = next(r for r in related(g, "c", k=5) if r.id == "b0")
    assert [s.name for s in row.shared] == ["BERT"]


def test_a_long_form_cut_short_is_no_second_reason_beside_its_node():
    # KeyBERT cuts BERT's long form to "bidirectional encoder representations": beside BERT it says
    # nothing more. "question answering", inside SQuAD's long form but not its start, is a concept
    # of its own (the task), and stays.
    ents = [("BERT", "Method"), ("SQuAD", "Dataset"), ("question answering", "Task")]
    g = corpus_graph({
        "a": ("One", ents, ["bidirectional encoder representations"]),
        "b": ("Two", ents, ["bidirectional encoder representations"]),
        "c": ("Three", [("galaxy survey", "Dataset")], []), "d": ("Four", [("robot control", "Task")], []),
        **filler(20),
    })
    _alias(g, "BERT", "Bidirectional Encoder Representations from Transformers")
    _alias(g, "SQuAD", "Stanford Question Answering Dataset")
    (row, *_) = related(g, "a", k=5)
    names = {s.name.lower() for s in row.shared}
    assert row.id == "b" and {"bert", "squad", "question answering"} <= names
    assert not any(n.startswith("bidirectional") for n in names)


def test_an_alias_two_entities_share_links_neither():
    # Two papers each defined "ED": one as encoder-decoder, one as event detection.
    g = corpus_graph({
        "a": ("One", [("encoder-decoder", "Method")], []),
        "b": ("Two", [("event detection", "Task")], []),
        "c": ("Three", [("galaxy survey", "Dataset")], []), "d": ("Four", [("robot control", "Task")], []),
    })
    _alias(g, "encoder-decoder", "ED")
    _alias(g, "event detection", "ED")
    assert related(g, "a", k=5) == []


def test_a_concept_is_listed_once_whatever_generic_head_it_is_written_with():
    g = corpus_graph({
        "a": ("One", [("summarization systems", "Method"), ("summarization models", "Method")], []),
        "b": ("Two", [("summarization systems", "Method"), ("summarization models", "Method")], []),
        "c": ("Three", [("galaxy survey", "Dataset")], []), "d": ("Four", [("robot control", "Task")], []),
        "e": ("Five", [("speech synthesis", "Task")], []),
    })
    (row,) = related(g, "a", k=5)
    assert len(row.shared) == 1 and row.shared[0].name.startswith("summarization")


def test_a_node_few_of_a_concepts_papers_state_does_not_name_it():
    # One paper's "Adversarial" (typed a Dataset) keys the concept 25 papers' "adversarial ..."
    # phrases imply: the reason is not that paper's Dataset.
    specs = {f"p{i}": (f"Paper {i}", [(f"adversarial topic{i} attacks", "Method")], []) for i in range(24)}
    specs["x"] = ("Odd", [("Adversarial", "Dataset"), ("adversarial attacks", "Method")], [])
    specs.update(filler(100))
    g = corpus_graph(specs)
    names = {(s.name.lower(), s.type) for r in related(g, "x", k=30) for s in r.shared}
    assert ("adversarial", "Dataset") not in names


def test_an_adverb_is_no_concept_alone():
    # The tagger cut "Distantly" from "Distantly supervised relation extraction": an adverb names
    # nothing two papers could share.
    g = corpus_graph({
        "a": ("One", [("Distantly", "Task"), ("galaxy survey", "Dataset")], []),
        "b": ("Two", [("Distantly", "Task"), ("robot control", "Task")], ["jointly"]),
        "c": ("Three", [("speech synthesis", "Task")], ["jointly"]),
    })
    assert related(g, "a", k=5) == [] and related(g, "b", k=5) == []


def test_acronyms_and_words_in_ization_keep_their_letters():
    from kg.analysis.related.phrases import concept_key

    # Snowball would read "EDS" (Elementary Dependency Structures) as the plural of "ED", and
    # "visualization" as "visual".
    assert concept_key("EDS") != concept_key("ED")
    assert concept_key("visualization") != concept_key("visual")
    assert concept_key("BERT-BASE") == concept_key("BERT-base")


def test_a_concept_few_papers_name_by_a_generic_word_alone_is_no_generic_concept():
    # "multi-task" alone is rated generic (an adjective alone); "multi-task learning", which four
    # papers name, keys the same concept without its generic word: that concept is no generic one.
    g = corpus_graph({
        **{p: (f"Paper {p}", [("multi-task learning", "Method")], []) for p in "abcd"},
        "e": ("Five", [("multi-task", "Method"), ("robot control", "Task")], []),
        **filler(30),  # so that five papers of the corpus are not a broad share
    })
    for _, d in g.nodes(data=True):
        if d.get("name") == "multi-task":
            d["level"] = "generic"
    names = {s.name for r in related(g, "a", k=5) for s in r.shared}
    assert "multi-task learning" in names
