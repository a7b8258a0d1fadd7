"""`kg add`: new papers into a build equal a cold build of the union, and the add is atomic.

Most tests stand in a small deterministic extractor for the models (each capitalised word a
mention, typed by its first letter), so that entities merge across papers and related papers
exist; one test runs the real extractor on the seed list.
"""
from __future__ import annotations

import dataclasses
import functools
import json
import multiprocessing
import os
import re
import shutil
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kg.store import shards
from kg.builds.adding import add
from kg.builds import GRAPH_JSON, MANIFEST, RECORDS, VIEWS, Build, Manifest, page_name
from kg.cli.app import app
from kg.errors import KgError
from kg.builds.pipeline import BuildOptions, assemble, build
from kg.records import ENTITY_TYPES, Extraction, Mention, Relation
from kg.view import write_paper_view
from kg.view.pages import MENTION_TYPES, page_digests

WORDS = ("BERT", "Transformer", "ImageNet", "Accuracy", "GPT", "Parsing", "SQuAD", "BLEU", "ResNet", "Translation",
         "CoNLL", "F1", "LSTM", "Summarization", "WikiText", "Perplexity")


def fake_extract(corpus, options):
    out = []
    for p in corpus.papers:
        ms = []
        for w in p.text.replace(".", " ").split():
            if w[0].isupper() and w.isalnum() and w != "We":  # the names, not the sentence's first word
                start = p.text.index(w)
                # "BERT" read as a Task in one paper in three: resolution gives each entity one type.
                etype = "Task" if w == "BERT" and len(p.text) % 3 == 0 else ENTITY_TYPES[len(w) % 4]
                ms.append(Mention(w, etype, start, start + len(w), p.text, 0.5 + len(w) / 100))
        rels = (Relation(0, 1, "USED-FOR", 0.7),) if len(ms) > 1 else ()
        out.append(Extraction(p.id, tuple(ms), rels, tuple((w.lower(), 0.3) for w in p.text.split()[:2])))
    return out, len(out)


def records(n: int, first: int = 0) -> list[dict]:
    return [{"id": f"p{i}", "title": f"Paper {i}",
             # No "accuracy on X": the concept stage would read X as a dataset (kg.concepts.typer).
             "abstract": f"We study {WORDS[i % 16]} with {WORDS[(i * 3 + 1) % 16]} and {WORDS[(i * 5 + 2) % 16]} case {i}."}
            for i in range(first, first + n)]


def jsonl(path: Path, recs: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return path


def graph_of(build_dir: Path) -> dict:
    """graph.json with the papers' `source` (file:line, which names the file read) left out."""
    data = json.loads((build_dir / GRAPH_JSON).read_text())
    for node in data["nodes"]:
        node.pop("source", None)
    return data


def pages_of(build_dir: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in (build_dir / VIEWS).glob("*.html")}


def inodes_of(build_dir: Path) -> dict[str, int]:
    return {p.name: p.stat().st_ino for p in (build_dir / VIEWS).glob("*.html")}


def related_of(build_dir: Path) -> dict:
    """The related-paper lists a build's pages show, ranked again from its records."""
    papers, extractions = shards.read_records(build_dir / RECORDS)
    return assemble(papers, extractions, BuildOptions(), {})[2]


def assert_pages_as_cold(added_dir: Path, cold_dir: Path, inodes_before: dict[str, int],
                         related_before: dict, tmp_path: Path) -> set[str]:
    """Every page is there; those the add wrote are the cold build's. The others, kept from the
    earlier build (the same file), are the pages of the new graph but for the figures documented
    to lag (docs/BENCHMARKS.md): a kept paper page lists the earlier build's related papers (in
    its order, with its shared concepts and scores), and numbers (scores, paper counts) may
    differ. Returns the kept pages."""
    added, cold = pages_of(added_dir), pages_of(cold_dir)
    assert added.keys() == cold.keys()
    kept = {n for n in added if inodes_before.get(n) == (added_dir / VIEWS / n).stat().st_ino}
    g = Build(added_dir).graph()
    scratch = tmp_path / "scratch" / added_dir.name
    shutil.copytree(added_dir, scratch)
    for n in added:
        if n not in kept:
            assert added[n] == cold[n], n
            continue
        expected = cold[n]
        pid = next((p for p in related_before if page_name("paper", p) == n), None)
        if pid is not None:
            expected = write_paper_view(g, scratch, pid, related={pid: related_before[pid]}).read_text()
        assert re.sub(r"\d+", "0", added[n]) == re.sub(r"\d+", "0", expected), n
    return kept


@pytest.mark.slow
def test_add_equals_a_cold_build_of_the_union(tmp_path):
    old, new = records(30), records(6, first=30)
    jsonl(tmp_path / "in" / "corpus.jsonl", old)
    build(tmp_path / "in" / "corpus.jsonl", BuildOptions(out=tmp_path / "added"), extract=fake_extract)
    inodes, related_before = inodes_of(tmp_path / "added"), related_of(tmp_path / "added")
    result = add(jsonl(tmp_path / "in" / "new.jsonl", old[:3] + new), tmp_path / "added", BuildOptions(),
                 extract=fake_extract)
    assert [p.id for p in result.added] == [r["id"] for r in new]
    assert [(x.paper.id, x.build_id) for x in result.present] == [("p0", "p0"), ("p1", "p1"), ("p2", "p2")]
    assert result.build.extracted == 6

    # A cold build of the union, under the same folder name (the pages show it).
    jsonl(tmp_path / "cold" / "corpus.jsonl", old + new)
    build(tmp_path / "cold" / "corpus.jsonl", BuildOptions(out=tmp_path / "cold" / "added"), extract=fake_extract)
    assert graph_of(tmp_path / "added") == graph_of(tmp_path / "cold" / "added")
    kept = assert_pages_as_cold(tmp_path / "added", tmp_path / "cold" / "added", inodes, related_before, tmp_path)
    assert kept and len(kept) < len(pages_of(tmp_path / "added"))
    assert (tmp_path / "added" / "index.html").read_text() == (tmp_path / "cold" / "added" / "index.html").read_text()
    a, c = Manifest.read(tmp_path / "added"), Manifest.read(tmp_path / "cold" / "added")
    assert (a.papers, a.entities, a.relationships, a.resolution) == (c.papers, c.entities, c.relationships, c.resolution)
    assert a.added == [str((tmp_path / "in" / "new.jsonl").resolve())]
    # The records: the build's shard kept (linked), one more for the added papers, relations carried.
    parts = shards.shard_paths(tmp_path / "added" / RECORDS)
    assert [p.name for p in parts] == ["part-00000.parquet", "part-00001.parquet"]
    papers, extractions = shards.read_records(tmp_path / "added" / RECORDS)
    assert [p.id for p in papers] == [r["id"] for r in old + new]
    assert extractions[-1].relations == (Relation(0, 1, "USED-FOR", 0.7),)


@pytest.mark.slow
def test_with_all_pages_every_page_equals_the_cold_builds(tmp_path):
    old, new = records(30), records(6, first=30)
    build(jsonl(tmp_path / "in" / "corpus.jsonl", old), BuildOptions(out=tmp_path / "added"), extract=fake_extract)
    add(jsonl(tmp_path / "in" / "new.jsonl", new), tmp_path / "added", BuildOptions(), extract=fake_extract,
        all_pages=True)
    build(jsonl(tmp_path / "cold" / "corpus.jsonl", old + new), BuildOptions(out=tmp_path / "cold" / "added"),
          extract=fake_extract)
    assert pages_of(tmp_path / "added") == pages_of(tmp_path / "cold" / "added")


@pytest.mark.slow
def test_kept_pages_link_only_to_pages_that_exist(tmp_path):
    import re

    build(jsonl(tmp_path / "in" / "corpus.jsonl", records(30)), BuildOptions(out=tmp_path / "b"), extract=fake_extract)
    # A new paper defines an acronym: "BERT" of earlier papers becomes another entity.
    acro = [{"id": "n1", "abstract": "We study Bidirectional Encoder Representations (BERT) with GPT on SQuAD."}]
    add(jsonl(tmp_path / "in" / "new.jsonl", acro), tmp_path / "b", BuildOptions(), extract=fake_extract)
    views = tmp_path / "b" / VIEWS
    names = {p.name for p in views.glob("*.html")}
    for page in views.glob("*.html"):
        for target in re.findall(r'(?:paper|concept)-[a-z0-9-]*-[0-9a-f]{8}\.html', page.read_text()):
            assert target in names, (page.name, target)


def phrase_extract(corpus, options):
    """Each run of capitalised words a mention ("Recurrent Networks"), so that a long form an
    abstract defines can be an entity of its own."""
    out = []
    for p in corpus.papers:
        ms = tuple(Mention(m.group(), "Method", m.start(), m.end(), p.text, 0.6)
                   for m in re.finditer(r"[A-Z][A-Za-z0-9]*(?: [A-Z][A-Za-z0-9]*)*", p.text) if m.group() != "We")
        out.append(Extraction(p.id, ms, (), ()))
    return out, len(out)


def test_a_page_whose_concept_merges_into_another_is_written_again(tmp_path):
    # "RN" of one earlier paper and "Recurrent Networks" of another are two entities, until a
    # new paper defines the one as the other: the first paper's page must then show the merged
    # entity, not link to the page of one that is gone.
    old = [{"id": f"p{i}", "abstract": text} for i, text in enumerate([
        "We study RN with SQuAD and GPT.", "We study Recurrent Networks with BLEU and GPT.",
        "We study Transformer with SQuAD.", "We study ResNet with ImageNet and BLEU."])]
    new = [{"id": "n1", "abstract": "We study Recurrent Networks (RN) with ImageNet."}]
    build(jsonl(tmp_path / "in" / "corpus.jsonl", old), BuildOptions(out=tmp_path / "b"), extract=phrase_extract)
    inodes, related_before = inodes_of(tmp_path / "b"), related_of(tmp_path / "b")
    add(jsonl(tmp_path / "in" / "new.jsonl", new), tmp_path / "b", BuildOptions(), extract=phrase_extract)
    build(jsonl(tmp_path / "cold" / "corpus.jsonl", old + new), BuildOptions(out=tmp_path / "cold" / "b"),
          extract=phrase_extract)
    nodes = {n["id"] for n in graph_of(tmp_path / "b")["nodes"]}
    assert "Method:rn" not in nodes and "Method:recurrent network" in nodes  # the merge happened
    kept = assert_pages_as_cold(tmp_path / "b", tmp_path / "cold" / "b", inodes, related_before, tmp_path)
    assert kept  # pages the new paper does not touch (the Transformer paper's) are kept


def test_a_page_digest_changes_with_what_the_page_shows_and_only_with_it(tmp_path):
    build(jsonl(tmp_path / "corpus.jsonl", records(30)), BuildOptions(out=tmp_path / "b"), extract=fake_extract)
    g, related = Build(tmp_path / "b").graph(), related_of(tmp_path / "b")
    before = page_digests(g, "corpus", related)
    papers = [n for n in g if g.nodes[n]["label"] == "Paper"]
    concepts_of = {p: {v for _, v, t in g.out_edges(p, data="type") if t in MENTION_TYPES} for p in papers}
    e = max((c for p in papers for c in concepts_of[p]), key=lambda c: g.nodes[c]["papers"])

    # A concept's new name or aliases: its page, its papers' pages, and the pages of the
    # concepts named with it in a paper or in a relationship.
    users = {p for p in papers if e in concepts_of[p]}
    shows_it = {e} | users | {c for p in users for c in concepts_of[p]} | set(g.predecessors(e)) | set(g.successors(e))
    for change in ({"name": "Renamed"}, {"aliases": ["Renamed", *g.nodes[e]["aliases"]]}):
        g2 = g.copy()
        g2.nodes[e].update(change)
        after = page_digests(g2, "corpus", related)
        assert {n for n in before if after[n] != before[n]} == shows_it, change

    # What is documented to lag on a kept page moves no digest: the concepts' paper counts, the
    # papers' themes (not on their pages), and the related papers' scores, order and reasons.
    g3 = g.copy()
    for n, d in g3.nodes(data=True):
        if "papers" in d:
            d["papers"] += 1
        if "topic_label" in d:
            d["topic_label"] = "another theme"
    reranked = {p: [dataclasses.replace(r, score=r.score / 2, shared=r.shared[:1]) for r in reversed(rows)]
                for p, rows in related.items()}
    assert page_digests(g3, "corpus", reranked) == before
    # But a paper joining or leaving a related list does.
    p = next(p for p in papers if related.get(p))
    shorter = {**related, p: related[p][:-1]}
    assert {n for n in before if page_digests(g, "corpus", shorter)[n] != before[n]} == {p}


@pytest.mark.slow
def test_the_store_holds_the_added_papers(tmp_path):
    from kg.store import Store

    build(jsonl(tmp_path / "a.jsonl", records(10)), BuildOptions(out=tmp_path / "b", views=False), extract=fake_extract)
    add(jsonl(tmp_path / "n.jsonl", records(4, first=10)), tmp_path / "b", BuildOptions(views=False),
        extract=fake_extract)
    with Store(tmp_path / "b" / "store") as store:
        assert store.query("MATCH (p:Paper) RETURN count(p)").rows == [[14]]
        assert store.query("MATCH (p:Paper {id: 'p13'})-[r]->() RETURN count(r) > 0").rows == [[True]]


def test_nothing_new_leaves_the_build_untouched(tmp_path):
    corpus = jsonl(tmp_path / "a.jsonl", records(5))
    build(corpus, BuildOptions(out=tmp_path / "b", views=False), extract=fake_extract)
    before = os.stat(tmp_path / "b" / MANIFEST).st_ino

    def must_not_extract(corpus, options):
        raise AssertionError("nothing was new")

    result = add(corpus, tmp_path / "b", BuildOptions(views=False), extract=must_not_extract)
    assert result.build is None and len(result.present) == 5
    assert os.stat(tmp_path / "b" / MANIFEST).st_ino == before


def test_an_id_taken_by_another_abstract_is_renamed(tmp_path):
    build(jsonl(tmp_path / "a.jsonl", records(3)), BuildOptions(out=tmp_path / "b", views=False), extract=fake_extract)
    other = [{"id": "p1", "abstract": "Another abstract entirely, about GPT and BLEU."}]
    result = add(jsonl(tmp_path / "n.jsonl", other), tmp_path / "b", BuildOptions(views=False), extract=fake_extract)
    assert [p.id for p in result.added] == ["p1-2"]
    assert any("'p1' is taken" in w for w in result.corpus.warnings)


def test_an_interrupted_add_leaves_the_build_as_it_was(tmp_path):
    build(jsonl(tmp_path / "a.jsonl", records(5)), BuildOptions(out=tmp_path / "b", views=False), extract=fake_extract)
    before = graph_of(tmp_path / "b")

    def interrupted(corpus, options):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        add(jsonl(tmp_path / "n.jsonl", records(2, first=5)), tmp_path / "b", BuildOptions(views=False),
            extract=interrupted)
    assert graph_of(tmp_path / "b") == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == [".b.lock"]


@pytest.mark.slow
def test_an_add_whose_build_was_replaced_meanwhile_is_refused(tmp_path):
    corpus = jsonl(tmp_path / "a.jsonl", records(5))
    build(corpus, BuildOptions(out=tmp_path / "b", views=False), extract=fake_extract)

    def rebuilt_meanwhile(c, options):  # another build swaps in while this add extracts
        build(corpus, BuildOptions(out=tmp_path / "b", views=False), extract=fake_extract)
        return fake_extract(c, options)

    with pytest.raises(KgError, match="replaced this build meanwhile"):
        add(jsonl(tmp_path / "n.jsonl", records(2, first=5)), tmp_path / "b", BuildOptions(views=False),
            extract=rebuilt_meanwhile)
    assert Manifest.read(tmp_path / "b").papers == 5


def test_a_build_without_records_is_refused_in_one_line(tmp_path):
    build(jsonl(tmp_path / "a.jsonl", records(3)), BuildOptions(out=tmp_path / "b", views=False), extract=fake_extract)
    for p in (tmp_path / "b" / RECORDS).iterdir():
        p.unlink()
    (tmp_path / "b" / RECORDS).rmdir()
    with pytest.raises(KgError, match="build it again with `kg build`"):
        add(jsonl(tmp_path / "n.jsonl", records(2, first=3)), tmp_path / "b", BuildOptions(views=False),
            extract=fake_extract)


def test_kg_add_reports_papers_already_there(tmp_path, monkeypatch):
    import kg.builds.adding

    build(jsonl(tmp_path / "a.jsonl", records(3)), BuildOptions(out=tmp_path / "b", views=False), extract=fake_extract)
    monkeypatch.setattr(kg.builds.adding, "add", functools.partial(kg.builds.adding.add, extract=fake_extract))
    corpus = jsonl(tmp_path / "n.jsonl", records(4))
    res = CliRunner().invoke(app, ["add", str(corpus), "--db", str(tmp_path / "b"), "--no-cache"])
    assert res.exit_code == 0, res.output
    assert not (tmp_path / "b" / "index.html").exists()  # a build without views stays without
    assert "already in the build as p0; skipped" in res.output
    assert "Added 1 papers (3 already there, skipped)" in res.output
    res = CliRunner().invoke(app, ["add", str(corpus), "--db", str(tmp_path / "b"), "--no-cache"])
    assert "Nothing to add: all 4 papers" in res.output


def test_with_nothing_new_the_add_does_not_wait_for_the_models(tmp_path, monkeypatch):
    """The models start loading in another process before the add knows whether anything is new;
    with nothing new that process is ended, not waited for."""
    corpus = jsonl(tmp_path / "a.jsonl", records(3))
    build(corpus, BuildOptions(out=tmp_path / "b", views=False), extract=fake_extract)

    def slow_load(self):
        time.sleep(120)

    monkeypatch.setattr("kg.extract.Extractor.load", slow_load)
    t = time.perf_counter()
    result = add(corpus, tmp_path / "b", BuildOptions(views=False))
    assert result.build is None and len(result.present) == 3
    assert time.perf_counter() - t < 60
    assert not multiprocessing.active_children()


@pytest.mark.slow
def test_add_with_the_real_extractor_equals_a_cold_build(tmp_path, extractor):
    """The seed list, its last four abstracts added to a build of the others: the add extracts
    them as `kg add` does (in the process that loaded the models while the build was read), the
    builds extract in this process."""
    from kg.corpus import read_corpus

    def real(corpus, options):
        return list(extractor.extract(corpus.papers)), len(corpus.papers)

    papers = read_corpus(Path(__file__).parent.parent / "seeds" / "iclr2025_abstracts.txt").papers
    recs = [{"id": p.id, "title": p.title, "abstract": p.abstract} for p in papers]
    build(jsonl(tmp_path / "in" / "a.jsonl", recs[:-4]), BuildOptions(out=tmp_path / "b"), extract=real)
    add(jsonl(tmp_path / "in" / "n.jsonl", recs[-4:]), tmp_path / "b", BuildOptions(), all_pages=True)
    build(jsonl(tmp_path / "cold" / "a.jsonl", recs), BuildOptions(out=tmp_path / "cold" / "b"), extract=real)
    assert graph_of(tmp_path / "b") == graph_of(tmp_path / "cold" / "b")
    assert pages_of(tmp_path / "b") == pages_of(tmp_path / "cold" / "b")


def test_an_add_uses_the_known_dataset_names_the_build_was_made_with(tmp_path):
    from kg.builds.adding import options_of

    names = tmp_path / "names.txt"
    names.write_text("FewRel\n")
    kept = options_of(Manifest(known_datasets=str(names)), BuildOptions())
    assert kept.known_datasets == names
    assert options_of(Manifest(known_datasets="shipped"), BuildOptions()).known_datasets is None
    names.unlink()
    with pytest.raises(KgError, match="known dataset names this build was made with"):
        options_of(Manifest(known_datasets=str(names)), BuildOptions())
