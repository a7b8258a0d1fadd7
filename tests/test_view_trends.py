"""The trends page (trends.html) and the concept pages' timelines, read as files (tests/test_browser_trends.py
opens them in Chromium)."""
from __future__ import annotations

import re

import pytest

from kg.builds import TRENDS_HTML, check_replaceable
from kg.view import concept_page, write_views
from kg.view.pages import page_digests
from tests.helpers import HOSTILE
from tests.test_trends import entity_id, field_graph, make_graph, write_build


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    g = field_graph()
    out = write_build(g, tmp_path_factory.mktemp("trends-site") / "field")
    write_views(g, out)
    return g, out


def test_the_trends_page_shows_rising_and_falling_concepts_linked_to_their_pages(site):
    g, out = site
    html = (out / TRENDS_HTML).read_text(encoding="utf-8")
    # No script, nothing fetched: the charts are inline SVG.
    assert "<script" not in html and not re.search(r"""(?:src|href)=["']https?:""", html)
    methods = html[html.index('id="method"'):html.index('id="task"')]
    rising, falling = methods.split("Falling")
    assert ">BERT<" in rising and "SQuAD" not in methods  # a Dataset: in its own section
    assert ">LSTM<" in falling and ">BERT<" not in falling and "neural network" not in methods
    assert 'class="new"' in rising  # BERT emerges
    for href in re.findall(r'href="(views/concept-[^"]+)"', html):
        assert (out / href).is_file(), href
    assert f'href="views/{concept_page(entity_id("BERT", "Method"))}"' in html
    assert html.count('<svg class="kg-bars"') == 1 + len(re.findall(r'class="card"', html))  # the corpus's + one a card
    # Each bar says what it shows on hover.
    assert "BERT, 2019: 60 of 100 papers (60.0%)" in html
    assert 'href="trends.html"' in (out / "index.html").read_text(encoding="utf-8")
    assert 'href="trends.html"' in (out / "map.html").read_text(encoding="utf-8")


def test_concept_pages_show_their_papers_per_year(site):
    g, out = site
    html = (out / "views" / concept_page(entity_id("LSTM", "Method"))).read_text(encoding="utf-8")
    figure = html[html.index('<figure id="timeline"'):html.index("</figure>")]
    assert "Papers per year" in figure and "2017: 50 papers" in figure and "2019: 10 papers" in figure
    assert figure.count("<rect") == 2 * 3  # a hover target and a bar per year


def test_a_corpus_without_two_years_gets_no_trends_page_nor_timelines(tmp_path):
    g = make_graph({None: 4, 2019: 3}, {("BERT", "Method"): {None: 2, 2019: 3}})
    out = write_build(g, tmp_path / "undated")
    (out / TRENDS_HTML).write_text("an earlier build's", encoding="utf-8")
    write_views(g, out)
    assert not (out / TRENDS_HTML).exists()
    assert 'href="trends.html"' not in (out / "index.html").read_text(encoding="utf-8")
    assert 'id="timeline"' not in (out / "views" / concept_page(entity_id("BERT", "Method"))).read_text(encoding="utf-8")


def test_a_hostile_concept_name_is_text(tmp_path):
    g = make_graph({2017: 60, 2019: 60}, {(HOSTILE, "Method"): {2019: 30}})
    out = write_build(g, tmp_path / "hostile")
    write_views(g, out)
    html = (out / TRENDS_HTML).read_text(encoding="utf-8")
    assert "<script" not in html and "<img" not in html.lower()


def test_a_new_year_redraws_the_concept_pages(site):
    g, _ = site
    before = page_digests(g, "c", {})
    g2 = g.copy()
    g2.add_node("p2020-0", **{**g.nodes["p2019-99"], "id": "p2020-0", "year": 2020})
    after = page_digests(g2, "c", {})
    assert before[entity_id("LSTM", "Method")] != after[entity_id("LSTM", "Method")]


def test_a_build_with_a_trends_page_can_be_rebuilt_in_place(site):
    _, out = site
    check_replaceable(out)  # trends.html is kg's own file, not a user's


@pytest.mark.slow
def test_kg_add_of_a_new_year_gives_the_cold_builds_pages_and_trends(tmp_path):
    # The pipeline with test_add's stand-in extractor: no models, but slow-ish (three builds).
    from kg.builds.adding import add
    from kg.builds.pipeline import BuildOptions, build
    from tests.test_add import assert_pages_as_cold, fake_extract, inodes_of, jsonl, records, related_of

    def dated(recs, year_of):
        return [{**r, "year": year_of(i)} for i, r in enumerate(recs)]

    old = dated(records(60), lambda i: 2017 + i % 2)
    new = dated(records(12, first=60), lambda i: 2019)  # a year the build had not seen
    build(jsonl(tmp_path / "in" / "corpus.jsonl", old), BuildOptions(out=tmp_path / "b"), extract=fake_extract)
    assert (tmp_path / "b" / TRENDS_HTML).is_file()
    inodes, related_before = inodes_of(tmp_path / "b"), related_of(tmp_path / "b")
    add(jsonl(tmp_path / "in" / "new.jsonl", new), tmp_path / "b", BuildOptions(), extract=fake_extract)
    build(jsonl(tmp_path / "cold" / "corpus.jsonl", old + new), BuildOptions(out=tmp_path / "cold" / "b"),
          extract=fake_extract)
    kept = assert_pages_as_cold(tmp_path / "b", tmp_path / "cold" / "b", inodes, related_before, tmp_path)
    assert not any(n.startswith("concept-") for n in kept)  # each timeline now reaches 2019
    assert (tmp_path / "b" / TRENDS_HTML).read_text() == (tmp_path / "cold" / "b" / TRENDS_HTML).read_text()
