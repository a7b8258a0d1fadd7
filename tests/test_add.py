"""`kg add`: new papers into a build equal a cold build of the union, and the add is atomic.

Most tests stand in a small deterministic extractor for the models (each capitalised word a
mention, typed by its first letter), so that entities merge across papers and related papers
exist; one test runs the real extractor on the seed list.
"""
from __future__ import annotations

import functools
import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kg import shards
from kg.adding import add
from kg.builds import GRAPH_JSON, MANIFEST, RECORDS, VIEWS, Manifest
from kg.cli.app import app
from kg.errors import KgError
from kg.pipeline import BuildOptions, build
from kg.records import ENTITY_TYPES, Extraction, Mention, Relation

WORDS = ("BERT", "Transformer", "ImageNet", "Accuracy", "GPT", "Parsing", "SQuAD", "BLEU", "ResNet", "Translation",
         "CoNLL", "F1", "LSTM", "Summarization", "WikiText", "Perplexity")


def fake_extract(corpus, options):
    out = []
    for p in corpus.papers:
        ms = []
        for w in p.text.replace(".", " ").split():
            if w[0].isupper() and w.isalnum():
                start = p.text.index(w)
                # "BERT" read as a Task in one paper in three: resolution gives each entity one type.
                etype = "Task" if w == "BERT" and len(p.text) % 3 == 0 else ENTITY_TYPES[len(w) % 4]
                ms.append(Mention(w, etype, start, start + len(w), p.text, 0.5 + len(w) / 100))
        rels = (Relation(0, 1, "USED-FOR", 0.7),) if len(ms) > 1 else ()
        out.append(Extraction(p.id, tuple(ms), rels, tuple((w.lower(), 0.3) for w in p.text.split()[:2])))
    return out, len(out)


def records(n: int, first: int = 0) -> list[dict]:
    return [{"id": f"p{i}", "title": f"Paper {i}",
             "abstract": f"We study {WORDS[i % 16]} with {WORDS[(i * 3 + 1) % 16]} on {WORDS[(i * 5 + 2) % 16]} case {i}."}
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


def test_add_equals_a_cold_build_of_the_union(tmp_path):
    old, new = records(30), records(6, first=30)
    jsonl(tmp_path / "in" / "corpus.jsonl", old)
    build(tmp_path / "in" / "corpus.jsonl", BuildOptions(out=tmp_path / "added"), extract=fake_extract)
    inodes = {p.name: p.stat().st_ino for p in (tmp_path / "added" / VIEWS).glob("*.html")}
    result = add(jsonl(tmp_path / "in" / "new.jsonl", old[:3] + new), tmp_path / "added", BuildOptions(),
                 extract=fake_extract)
    assert [p.id for p in result.added] == [r["id"] for r in new]
    assert [(x.paper.id, x.build_id) for x in result.present] == [("p0", "p0"), ("p1", "p1"), ("p2", "p2")]
    assert result.build.extracted == 6

    # A cold build of the union, under the same folder name (the pages show it).
    jsonl(tmp_path / "cold" / "corpus.jsonl", old + new)
    build(tmp_path / "cold" / "corpus.jsonl", BuildOptions(out=tmp_path / "cold" / "added"), extract=fake_extract)
    assert graph_of(tmp_path / "added") == graph_of(tmp_path / "cold" / "added")
    # Every page is there; those the add wrote are the cold build's; the others (kept from the
    # earlier build) differ at most in scores and counts.
    added, cold = pages_of(tmp_path / "added"), pages_of(tmp_path / "cold" / "added")
    assert added.keys() == cold.keys()
    kept = {n for n in added if inodes.get(n) == (tmp_path / "added" / VIEWS / n).stat().st_ino}
    assert kept and len(kept) < len(added)
    assert all(added[n] == cold[n] for n in added.keys() - kept)
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


def test_with_all_pages_every_page_equals_the_cold_builds(tmp_path):
    old, new = records(30), records(6, first=30)
    build(jsonl(tmp_path / "in" / "corpus.jsonl", old), BuildOptions(out=tmp_path / "added"), extract=fake_extract)
    add(jsonl(tmp_path / "in" / "new.jsonl", new), tmp_path / "added", BuildOptions(), extract=fake_extract,
        all_pages=True)
    build(jsonl(tmp_path / "cold" / "corpus.jsonl", old + new), BuildOptions(out=tmp_path / "cold" / "added"),
          extract=fake_extract)
    assert pages_of(tmp_path / "added") == pages_of(tmp_path / "cold" / "added")


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
    import kg.adding

    build(jsonl(tmp_path / "a.jsonl", records(3)), BuildOptions(out=tmp_path / "b", views=False), extract=fake_extract)
    monkeypatch.setattr(kg.adding, "add", functools.partial(kg.adding.add, extract=fake_extract))
    corpus = jsonl(tmp_path / "n.jsonl", records(4))
    res = CliRunner().invoke(app, ["add", str(corpus), "--db", str(tmp_path / "b"), "--no-cache"])
    assert res.exit_code == 0, res.output
    assert not (tmp_path / "b" / "index.html").exists()  # a build without views stays without
    assert "already in the build as p0; skipped" in res.output
    assert "Added 1 papers (3 already there, skipped)" in res.output
    res = CliRunner().invoke(app, ["add", str(corpus), "--db", str(tmp_path / "b"), "--no-cache"])
    assert "Nothing to add: all 4 papers" in res.output


@pytest.mark.slow
def test_add_with_the_real_extractor_equals_a_cold_build(tmp_path, extractor):
    """The seed list, its last four abstracts added to a build of the others."""
    from kg.corpus import read_corpus

    def real(corpus, options):
        return list(extractor.extract(corpus.papers)), len(corpus.papers)

    papers = read_corpus(Path(__file__).parent.parent / "seeds" / "iclr2025_abstracts.txt").papers
    recs = [{"id": p.id, "title": p.title, "abstract": p.abstract} for p in papers]
    build(jsonl(tmp_path / "in" / "a.jsonl", recs[:-4]), BuildOptions(out=tmp_path / "b"), extract=real)
    add(jsonl(tmp_path / "in" / "n.jsonl", recs[-4:]), tmp_path / "b", BuildOptions(), extract=real, all_pages=True)
    build(jsonl(tmp_path / "cold" / "a.jsonl", recs), BuildOptions(out=tmp_path / "cold" / "b"), extract=real)
    assert graph_of(tmp_path / "b") == graph_of(tmp_path / "cold" / "b")
    assert pages_of(tmp_path / "b") == pages_of(tmp_path / "cold" / "b")
