"""The overview's concept map and the map's colours by year, on synthetic fields of known structure."""
from __future__ import annotations

import json
import math
import random
import time
from pathlib import Path

import networkx as nx
import pytest

from kg import schema
from kg.graph import entities_of, papers_of
from kg.view import write_map, write_overview
from kg.view.colors import NO_THEME, THEME_COLORS, YEAR_STOPS, year_color
from kg.corpus.titles import clip
from kg.view.conceptmap import LABEL_CHARS, LIMIT, concept_map, overlaps
from kg.view.pages import overview
from tests.test_view import page_data, search_js

TYPES = ("Method", "Task", "Dataset", "Metric")
WORDS = ("neural", "graph", "semantic", "adversarial", "contrastive", "multilingual", "sparse", "latent",
         "hierarchical", "Bayesian", "low-resource", "cross-lingual", "end-to-end", "retrieval", "BERT-based")
NOUNS = ("parsing", "translation", "embeddings", "attention", "tagging", "summarization", "retrieval", "decoding",
         "alignment", "question answering", "entity linking", "dialogue", "F1", "corpus", "treebank")


def field(n_papers: int, themes: int = 8, per_theme: int = 40, years: tuple[int, ...] = (2017, 2018, 2019),
          seed: int = 1) -> nx.MultiDiGraph:
    """A field of ``n_papers`` in ``themes`` themes: each paper names four concepts of its theme
    (the theme's first concepts most often), sometimes one of another theme, and the generic
    "model" (most papers name it); years in turn. Theme ``k``'s concepts are ``c<k>-<i>``."""
    rng = random.Random(seed)
    g = nx.MultiDiGraph()
    concepts = [[f"c{k}-{i}" for i in range(per_theme)] for k in range(themes)]
    for k, ids in enumerate(concepts):
        for i, eid in enumerate(ids):
            name = f"{WORDS[(k + i) % len(WORDS)]} {NOUNS[(3 * k + i) % len(NOUNS)]} {k}.{i}"
            g.add_node(eid, label=TYPES[i % 4], id=eid, name=name, aliases=[name], papers=0, level=schema.SPECIFIC)
    g.add_node("model", label="Method", id="model", name="model", aliases=["model"], papers=0, level=schema.GENERIC)
    weights = [1 / (i + 1) for i in range(per_theme)]
    for n in range(n_papers):
        k, p = n % themes, f"p{n}"
        g.add_node(p, label=schema.PAPER, id=p, title=f"Paper {n}", abstract="An abstract.",
                   year=years[(n // themes) % len(years)] if years else None, topic=k + 1, topic_label=f"theme {k}")
        named = set(rng.choices(concepts[k], weights, k=4)) | {"model"}
        if rng.random() < 0.2:
            named.add(rng.choice(concepts[rng.randrange(themes)]))
        for eid in named:
            rel = schema.MENTION_REL[g.nodes[eid]["label"]]
            g.add_edge(p, eid, rel, type=rel, mentions=1)
            g.nodes[eid]["papers"] += 1
    g.remove_nodes_from([e for e in entities_of(g) if g.nodes[e]["papers"] == 0])
    return g


def users(g: nx.MultiDiGraph) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for p, e in g.edges():
        out.setdefault(e, []).append(p)
    return out


@pytest.fixture(scope="module")
def field_400():
    return field(400)


def test_the_map_draws_the_most_named_specific_concepts_and_no_generic_one(field_400, tmp_path):
    g = field_400
    write_overview(g, tmp_path)
    data = page_data(tmp_path / "index.html")
    drawn = {n["id"] for n in data["nodes"]}
    assert "model" not in drawn  # named by every paper, and generic
    assert not drawn & set(papers_of(g))
    left = [e for e in entities_of(g) if e not in drawn and e != "model"]
    assert 20 <= len(drawn) <= LIMIT and left
    assert min(g.nodes[e]["papers"] for e in drawn) >= max(g.nodes[e]["papers"] for e in left)
    # Bigger by papers: the label font and the dot grow with the papers naming the concept.
    by_papers = sorted(data["nodes"], key=lambda n: g.nodes[n["id"]]["papers"])
    assert by_papers[-1]["font"]["size"] > by_papers[0]["font"]["size"]
    assert by_papers[-1]["size"] > by_papers[0]["size"]
    # Labelled, no hover needed; a long name clipped (the tooltip and the page have it whole).
    assert all(n["label"] == clip(g.nodes[n["id"]]["name"], LABEL_CHARS) for n in data["nodes"])
    assert any(n["label"] != g.nodes[n["id"]]["name"] for n in data["nodes"])


def test_labels_never_overlap_and_the_layout_is_the_same_every_time(field_400):
    g = field_400
    one, two = concept_map(g, users(g)), concept_map(g, users(g))
    assert one == two
    assert len(one.spots) >= 20 and overlaps(one.spots) == []
    # The test can fail: two spots at one place overlap.
    moved = [one.spots[0], type(one.spots[1])(**{**one.spots[1].__dict__, "x": one.spots[0].x, "y": one.spots[0].y})]
    assert overlaps(moved) == [(one.spots[0].id, one.spots[1].id)]


def test_labels_never_overlap_even_where_the_pushes_fall_short(field_400, monkeypatch):
    import kg.view.conceptmap

    monkeypatch.setattr(kg.view.conceptmap, "_separate", lambda centres, boxes: centres)  # no push at all
    spots = concept_map(field_400, users(field_400)).spots
    assert len(spots) >= 20 and overlaps(spots) == []


def test_a_map_that_packs_badly_draws_fewer_concepts_to_stay_legible(monkeypatch):
    import kg.view.conceptmap as cm

    g = field(19, themes=19, per_theme=12)  # a paper a theme: cliques of concepts of one paper
    chosen, _ = cm.choose(g)
    spots = cm.concept_map(g, users(g)).spots
    assert len(spots) < len(chosen) and cm._zoom(spots) >= cm.MIN_ZOOM
    monkeypatch.setattr(cm, "MIN_ZOOM", 0.0)  # the test can fail: all of them do not fit
    assert cm._zoom(cm.concept_map(g, users(g)).spots) < 0.55


def test_concepts_named_together_sit_together(field_400):
    g = field_400
    spots = concept_map(g, users(g)).spots
    theme = {s.id: s.id.split("-")[0] for s in spots}
    within, across = [], []
    for i, a in enumerate(spots):
        for b in spots[i + 1:]:
            (within if theme[a.id] == theme[b.id] else across).append(math.hypot(a.x - b.x, a.y - b.y))
    assert within and across
    assert sum(within) / len(within) < 0.6 * sum(across) / len(across)


def test_concepts_are_coloured_by_theme_and_by_the_average_year_of_their_papers(tmp_path):
    g = field(240, themes=3, years=(2017, 2018, 2019))
    # Theme 0's first concept named only in 2019, theme 1's only in 2017.
    for p, e, rel in list(g.edges(keys=True)):
        if (e == "c0-0" and g.nodes[p]["year"] != 2019) or (e == "c1-0" and g.nodes[p]["year"] != 2017):
            g.remove_edge(p, e, rel)
            g.nodes[e]["papers"] -= 1
    write_overview(g, tmp_path)
    data = page_data(tmp_path / "index.html")
    node = {n["id"]: n for n in data["nodes"]}
    assert [c["key"] for c in data["colorings"]] == ["theme", "year"]
    assert node["c0-0"]["info"]["colors"] == {"theme": THEME_COLORS[0], "year": YEAR_STOPS[-1]}
    assert node["c1-0"]["info"]["colors"] == {"theme": THEME_COLORS[1], "year": YEAR_STOPS[0]}
    assert node["c0-0"]["info"]["meanYear"] == 2019 and node["c1-0"]["info"]["meanYear"] == 2017
    assert node["c0-0"]["color"]["background"] == THEME_COLORS[0]  # drawn by theme first
    themes = data["colorings"][0]["legend"]
    assert [t["label"] for t in themes] == ["theme 0", "theme 1", "theme 2"]
    assert sum(t["count"] for t in themes) == len(node)
    assert [k["label"] for k in data["colorings"][1]["legend"]] == ["2017", "2018", "2019"]
    assert all(n["info"]["meanYear"] for n in data["nodes"])  # every concept dated: no "no year" in the key


def test_a_corpus_of_one_year_is_coloured_by_theme_only(tmp_path):
    g = field(120, themes=12, years=(2020,))
    write_overview(g, tmp_path)
    data = page_data(tmp_path / "index.html")
    assert [c["key"] for c in data["colorings"]] == ["theme"]
    # Themes past the palette share one grey, which the key names.
    legend = data["colorings"][0]["legend"]
    assert legend[-1]["color"] == NO_THEME and legend[-1]["label"] == "other themes"
    assert len(legend) == len(THEME_COLORS) + 1


def test_the_map_can_colour_its_papers_by_year(tmp_path):
    g = field(90, themes=3, years=(2017, 2019))
    g.nodes["p0"]["year"] = None  # an undated paper: grey, and the key says so
    write_map(g, tmp_path, related={})
    data = page_data(tmp_path / "map.html")
    papers = [n for n in data["nodes"] if n["group"] == "Paper"]
    assert len(papers) == 90
    for n in papers:
        year = g.nodes[n["id"]]["year"]
        assert n["info"]["colors"]["year"] == year_color(year, 2017, 2019)
        assert n["info"]["colors"]["theme"] == n["color"]["background"]  # drawn by theme first
    assert {year_color(2017, 2017, 2019), year_color(2019, 2017, 2019), NO_THEME} == \
        {n["info"]["colors"]["year"] for n in papers}
    year = data["colorings"][1]
    assert year["key"] == "year" and [k["label"] for k in year["legend"]][-1] == "no year"


def test_the_average_years_scale_spans_the_averages_not_the_corpus():
    from kg.view.colors import mean_year_scale, year_key

    assert mean_year_scale([2018.23, 2019.61, 2018.9], 2017, 2022) == (2018.2, 2019.7)
    assert mean_year_scale([2019.0, 2019.0], 2017, 2022) == (2017, 2022)  # one average: the corpus's years
    assert [k["label"] for k in year_key(2018.2, 2019.7)] == ["2018.2", "2018.6", "2019.0", "2019.3", "2019.7"]
    assert [k["label"] for k in year_key(2017, 2019)] == ["2017", "2018", "2019"]


def test_year_colours_run_from_the_first_year_to_the_last():
    assert year_color(2017, 2017, 2022) == YEAR_STOPS[0] and year_color(2022, 2017, 2022) == YEAR_STOPS[-1]
    mid = year_color(2019.5, 2017, 2022)
    assert mid not in (YEAR_STOPS[0], YEAR_STOPS[-1]) and mid.startswith("#") and len(mid) == 7
    assert year_color(None, 2017, 2022) == year_color(2020, 2020, 2020) == NO_THEME


def test_the_search_finds_every_paper_and_concept_the_map_leaves_out(field_400, tmp_path):
    g = field_400
    write_overview(g, tmp_path)
    data = page_data(tmp_path / "index.html")
    drawn = {s["id"] for s in data["search"]}
    assert drawn == {n["id"] for n in data["nodes"]}
    rest = search_js(tmp_path)
    assert {s["id"] for s in rest} == (set(papers_of(g)) | set(entities_of(g))) - drawn
    assert all(s["href"].startswith("views/") for s in rest)


@pytest.mark.parametrize("papers, limit_mb", [(1_250, 2), (10_000, 5)])
def test_the_overview_stays_small_at_scale(papers, limit_mb, tmp_path):
    g = field(papers, themes=40, per_theme=120)
    t = time.perf_counter()
    index = write_overview(g, tmp_path)
    took = time.perf_counter() - t
    size = index.stat().st_size
    assert size <= limit_mb * 1_000_000, f"index.html of {papers:,} papers: {size:,} bytes"
    assert len(page_data(index)["nodes"]) <= LIMIT
    assert took < 20, f"{took:.1f} s"


def test_overview_page_of_an_empty_graph_draws_nothing_and_says_so():
    page = overview(nx.MultiDiGraph(), "empty")
    assert page.nodes == [] and page.kind == "overview"
    assert page.note.startswith("Nothing to draw: no specific concept is named by a paper.")
    assert page.subtitle == "0 papers · 0 relationships"
    assert json.dumps(page.colorings)  # a plain theme key, empty


def test_pages_of_the_map_and_overview_are_not_the_paper_pages_defaults(field_400, tmp_path):
    # The paper and concept pages carry no colourings (kept pages of `kg add` stay byte-identical).
    from kg.view import write_paper_view

    g = field_400
    page = write_paper_view(g, tmp_path, "p1", related={"p1": []})
    assert "colorings" not in page_data(Path(page))
