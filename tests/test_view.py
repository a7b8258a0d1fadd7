"""The HTML views: self-contained, escaped, linked to each other, within the node budget."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kg.cli.app import app
from kg.errors import KgError
from kg.graph import entities_of, papers_of
from kg.graph.io import write_json
from kg.view import concept_page, find_concept, paper_page, write_views
from kg.view.pages import paged_nodes
from tests.helpers import HOSTILE, view_corpus

def page_data(path: Path) -> dict:
    html = path.read_text(encoding="utf-8")
    m = re.search(r'<script id="kg-data" type="application/json">(.*?)</script>', html, re.S)
    assert m, f"{path}: no data block"
    return json.loads(m.group(1))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    g = view_corpus()
    out = tmp_path_factory.mktemp("build")
    index = write_views(g, out)
    return g, out, index


def all_pages(out: Path) -> list[Path]:
    return [out / "index.html", *sorted((out / "views").glob("*.html"))]


def test_every_paper_and_concept_has_a_page(built):
    g, out, index = built
    assert index == out / "index.html" and index.is_file()
    for pid in papers_of(g):
        assert (out / "views" / paper_page(pid)).is_file()
    for eid in entities_of(g):
        assert (out / "views" / concept_page(eid)).is_file()


def test_pages_fetch_nothing_from_the_network(built):
    _, out, _ = built
    for page in all_pages(out):
        html = page.read_text(encoding="utf-8")
        # No script, style sheet, image or frame from anywhere but the page itself or views/lib.
        assert not re.search(r'(?:src|href)\s*=\s*["\']?\s*(?:https?:)?//', html, re.I), page
        assert not re.search(r"@import|url\(\s*['\"]?(?:https?:)?//", html, re.I), page
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "new vis.Network" in index
    assert len(index) > 400_000  # vis-network is inlined: the overview is one file
    for name in ("vis-network.min.js", "vis-network.min.css", "kg-view.js", "kg-view.css"):
        assert (out / "views" / "lib" / name).is_file()


def test_hostile_text_is_escaped_everywhere(built):
    _, out, _ = built
    for page in all_pages(out):
        html = page.read_text(encoding="utf-8")
        assert 'alert("pwned")</script>' not in html and "<img src=x" not in html, page
    data = page_data(out / "map.html")  # the overview draws concepts only; the map draws the papers
    evil = next(n for n in data["nodes"] if n["id"] == "evil")
    assert HOSTILE in evil["info"]["abstract"]  # kept as text, shown as text
    assert evil["info"]["url"] is None  # a javascript: URL never becomes a link


def test_overview_draws_the_shared_concepts_laid_out_and_shaped_by_type(built):
    g, out, _ = built
    data = page_data(out / "index.html")
    shared = {e for e in entities_of(g) if g.nodes[e]["papers"] > 1}
    drawn = [n["id"] for n in data["nodes"]]
    assert set(drawn) == set(entities_of(g))  # no paper; a corpus this small has room for every concept
    assert set(drawn[:len(shared)]) == shared and "Metric:bleu" in shared  # the most named first
    groups = data["options"]["groups"]
    assert len({groups[t]["shape"] for t in groups}) == len(groups)  # the shape says the type
    assert data["options"]["physics"] == {"enabled": False}  # laid out by kg, not by the browser
    assert all(isinstance(n["x"], float) and isinstance(n["y"], float) for n in data["nodes"])
    assert {x["type"] for x in data["legend"]} == {g.nodes[n]["label"] for n in drawn}


def test_links_between_pages_resolve(built):
    g, out, _ = built
    views = out / "views"
    paper = page_data(views / paper_page("mt"))
    hrefs = [n["info"]["href"] for n in paper["nodes"]]
    hrefs += [s["href"] for r in paper["related"]["mt"] for s in r["shared"] if s["href"]]
    assert any(h.startswith("concept-") for h in hrefs)
    for h in hrefs:
        assert (views / h).is_file(), h
    concept = page_data(views / concept_page("Metric:bleu"))
    users = concept["nodes"][0]["info"]["paperList"]
    assert {u["id"] for u in users} == {"mt", "mt2"}
    for n in concept["nodes"]:
        assert (views / n["info"]["href"]).is_file()
    index = page_data(out / "index.html")
    for n in index["nodes"]:
        assert (out / n["info"]["href"]).is_file()


def test_paper_page_lists_its_related_papers(built):
    g, out, _ = built
    data = page_data(out / "views" / paper_page("mt"))
    rows = data["related"]["mt"]
    assert rows[0]["id"] == "mt2"
    assert {s["name"] for s in rows[0]["shared"]} & {"BLEU", "machine translation"}
    assert "mt2" in {n["id"] for n in data["nodes"]}


def search_js(build: Path) -> list[dict]:
    """The overview's search beyond its drawn concepts (views/lib/search.js, a script defining KG_SEARCH)."""
    text = (build / "views" / "lib" / "search.js").read_text(encoding="utf-8")
    assert text.startswith("window.KG_SEARCH = ") and text.endswith(";\n")
    return json.loads(text[len("window.KG_SEARCH = "):-2])


def test_over_budget_overview_keeps_the_most_named_and_finds_the_rest(tmp_path):
    g = view_corpus()
    write_views(g, tmp_path, budget=2)
    data = page_data(tmp_path / "index.html")
    drawn = {n["id"] for n in data["nodes"]}
    assert len(drawn) == 2 and "Dataset:europarl" not in drawn
    assert "concepts named by the most papers" in data_note(tmp_path / "index.html")
    rest = {s["id"] for s in search_js(tmp_path)}
    assert rest == (set(papers_of(g)) | set(entities_of(g))) - drawn  # everything else is findable
    assert data["searchSrc"] == "views/lib/search.js"


def data_note(index: Path) -> str:
    m = re.search(r'<p id="note" class="note">(.*?)</p>', index.read_text(encoding="utf-8"), re.S)
    assert m, "no note"
    return m.group(1)


def test_find_concept_by_name_alias_or_id():
    g = view_corpus()
    assert find_concept(g, "bleu") == "Metric:bleu"
    assert find_concept(g, "Metric:bleu") == "Metric:bleu"
    assert find_concept(g, "metric: BLEU") == "Metric:bleu"  # an id typed loosely
    assert find_concept(g, "PMD") == "Method:policy mirror descent"
    with pytest.raises(KgError, match="no concept named"):
        find_concept(g, "quantum gravity")
    with pytest.raises(KgError, match="entities containing it: 'Neural machine translation', 'Statistical machine"):
        find_concept(g, "machine translation")  # a word of longer names: they are named


def test_cli_view_prints_the_page_it_wrote(tmp_path):
    g = view_corpus()
    (tmp_path / "build.json").write_text("{}", encoding="utf-8")
    write_json(g, tmp_path / "graph.json")
    runner = CliRunner()
    res = runner.invoke(app, ["view", str(tmp_path), "--paper", "mt2"])
    assert res.exit_code == 0, res.output
    assert Path(res.output.strip()) == (tmp_path / "views" / paper_page("mt2")).resolve()
    res = runner.invoke(app, ["view", "--db", str(tmp_path), "--concept", "bleu"])
    assert Path(res.output.strip()).name == concept_page("Metric:bleu")
    res = runner.invoke(app, ["view", str(tmp_path)])
    assert Path(res.output.strip()) == (tmp_path / "index.html").resolve()
    res = runner.invoke(app, ["view", str(tmp_path), "--concept", "nothing like it"])
    assert isinstance(res.exception, KgError)


def test_one_page_of_a_build_without_views_gets_an_overview_linking_only_to_pages_written(tmp_path):
    g = view_corpus()
    (tmp_path / "build.json").write_text("{}", encoding="utf-8")
    write_json(g, tmp_path / "graph.json")
    res = CliRunner().invoke(app, ["view", str(tmp_path), "--paper", "mt2"])
    assert res.exit_code == 0, res.output
    data = page_data(tmp_path / "index.html")  # the page's "overview" link opens something
    assert data["nodes"] == []  # no concept has a page yet: the map draws none, and says why
    note = data_note(tmp_path / "index.html")
    assert "no specific concept has a page yet" in note and "kg view --concept NAME" in note
    assert [s["href"] for s in search_js(tmp_path)] == ["views/" + paper_page("mt2")]
    assert (tmp_path / "views" / paper_page("mt2")).is_file()


def test_pages_name_the_corpus(tmp_path):
    g = view_corpus()
    write_views(g, tmp_path / "a", corpus="ICLR 2025")
    assert "ICLR 2025" in (tmp_path / "a" / "index.html").read_text(encoding="utf-8")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "build.json").write_text(json.dumps({"name": "from-manifest"}), encoding="utf-8")
    write_views(g, tmp_path / "b")
    page = (tmp_path / "b" / "views" / paper_page("mt")).read_text(encoding="utf-8")
    assert '<span class="crumb">from-manifest</span>' in page


def _hrefs(data: dict, paper_ids) -> list[str]:
    hrefs = [n["info"].get("href") for n in data["nodes"]] + [s.get("href") for s in data["search"]]
    hrefs += list(data.get("pages", {}).values())
    for pid in paper_ids:
        for row in data.get("related", {}).get(pid, []):
            hrefs += [s.get("href") for s in row["shared"]]
    return [h for h in hrefs if h]


def test_a_build_over_the_page_limit_writes_pages_for_drawn_nodes_and_links_only_to_them(tmp_path):
    g = view_corpus()
    write_views(g, tmp_path, budget=8, page_limit=5)
    index = page_data(tmp_path / "index.html")
    drawn = {n["id"] for n in index["nodes"]}
    papers, ents = paged_nodes(g, 8)
    written = sorted(p.name for p in (tmp_path / "views").glob("*.html"))
    assert written == sorted([paper_page(p) for p in papers] + [concept_page(e) for e in ents])
    assert drawn <= set(ents)  # the map draws only concepts that have a page
    for h in _hrefs(index, index.get("related", {})) + [s["href"] for s in search_js(tmp_path)]:
        assert (tmp_path / h).is_file(), h
    for page in (tmp_path / "views").glob("*.html"):
        data = page_data(page)
        for h in _hrefs(data, data.get("related", {})):
            assert (tmp_path / "views" / h).is_file(), (page.name, h)
    assert "kg view --paper ID" in (tmp_path / "index.html").read_text(encoding="utf-8")


def test_pages_written_by_two_worker_processes_are_the_pages_one_process_writes(tmp_path, monkeypatch):
    import kg.view

    g = view_corpus()
    write_views(g, tmp_path / "one", corpus="c")
    monkeypatch.setattr(kg.view, "MIN_PARALLEL_PAGES", 0)  # five papers are too few to fork for otherwise
    monkeypatch.setattr(kg.view, "PAGES_PER_TASK", 2)
    write_views(g, tmp_path / "two", corpus="c", workers=2)
    one, two = (sorted(p.relative_to(d) for p in d.rglob("*.html")) for d in (tmp_path / "one", tmp_path / "two"))
    assert one == two and len(one) == 2 + len(papers_of(g)) + len(entities_of(g))  # index.html, map.html
    for rel in one:
        assert (tmp_path / "two" / rel).read_bytes() == (tmp_path / "one" / rel).read_bytes(), rel


def test_past_the_page_limit_the_few_pages_are_written_without_forking(tmp_path, monkeypatch):
    # Forked from a large build, each worker would copy much of its process to write a few pages.
    import kg.view
    from kg.view import forks_pages

    g = view_corpus()
    monkeypatch.setattr(kg.view, "MIN_PARALLEL_PAGES", 0)
    nodes = len(papers_of(g)) + len(entities_of(g))
    assert forks_pages(g, 2) and not forks_pages(g, 1) and not forks_pages(g, 2, page_limit=nodes - 1)

    def forked(*args, **kwargs):
        raise AssertionError("pages forked past the page limit")

    monkeypatch.setattr(kg.view.forks, "run", forked)
    write_views(g, tmp_path, corpus="c", workers=2, budget=4, page_limit=nodes - 1)
    assert 0 < len(list((tmp_path / "views").rglob("*.html"))) < nodes


def test_a_failing_page_worker_fails_the_views_in_the_main_process(tmp_path, monkeypatch):
    import kg.view

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(kg.view, "MIN_PARALLEL_PAGES", 0)
    monkeypatch.setattr(kg.view, "concept_view", broken)  # the workers fork with it in place
    with pytest.raises(OSError, match="No space left"):
        write_views(view_corpus(), tmp_path, corpus="c", workers=2)


def test_a_page_worker_that_dies_fails_the_views_instead_of_hanging(tmp_path, monkeypatch):
    import os

    import kg.view

    def killed(*args, **kwargs):
        os._exit(137)  # what the kernel's OOM killer leaves behind, as far as the pool can tell

    monkeypatch.setattr(kg.view, "MIN_PARALLEL_PAGES", 0)
    monkeypatch.setattr(kg.view, "concept_view", killed)
    with pytest.raises(KgError, match="a worker process died"):
        write_views(view_corpus(), tmp_path, corpus="c", workers=2)


def test_a_neighbour_related_by_wording_alone_says_so_on_the_pages():
    import networkx as nx

    from kg.analysis.related import NOTE_WORDING, RelatedPaper
    from kg.view.pages import related_json

    row = RelatedPaper(id="p2", title="Another paper", score=0.41, shared=(), note=NOTE_WORDING)
    [js] = related_json(nx.DiGraph(), [row], prefix="views/")
    assert js["shared"] == [] and js["note"] == NOTE_WORDING
    script = (Path(__file__).resolve().parent.parent / "kg/view/templates/kg-view.js").read_text(encoding="utf-8")
    assert "r.note ||" in script  # the panel shows the note where the shared concepts would be


def test_a_paper_page_places_its_concepts_left_and_related_papers_right_in_rank_order():
    from kg.view.paperlayout import ROW, layout

    concepts = ["c-late", "c-first", "c-none", "c-mid"]
    related = ["r1", "r2", "r3"]
    shares = {"r1": ["c-first"], "r2": ["c-first", "c-mid"], "r3": ["c-late", "c-mid"]}
    at = layout("p", concepts, related, shares)
    assert set(at) == {"p", *concepts, *related}
    assert all(at[c].x < 0 for c in concepts) and all(at[r].x > 0 for r in related)
    assert [at[r].y for r in related] == sorted(at[r].y for r in related)  # rank order, top down
    # Each concept at the mean rank of the related papers naming it; one none names comes last.
    assert sorted(concepts, key=lambda c: at[c].y) == ["c-first", "c-mid", "c-late", "c-none"]
    ys = sorted(at[c].y for c in concepts)
    assert all(b - a == pytest.approx(ROW) for a, b in zip(ys, ys[1:]))  # a row each: no two labels meet
    assert all(at["p"].y < p.y for n, p in at.items() if n != "p")  # the paper above both columns
    assert list(layout("p", [], [], {})) == ["p"]  # a paper with no concept and no related paper: itself
