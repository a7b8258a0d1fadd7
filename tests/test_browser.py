"""The views as a person uses them: in headless Chromium, opened from disk, offline.

Needs Debian's chromium (/usr/bin/chromium) and Playwright for Python; the
browser is never downloaded. Screenshots of every view are saved under the
pytest tmp dir (the path is printed) for a person to look at.
"""
from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from kg.analysis.related import related
from kg.view import concept_page, paper_page, write_themes, write_views
from tests.helpers import HOSTILE, view_corpus
from tests.test_export_samples import sample_graph

CHROMIUM = "/usr/bin/chromium"
playwright = pytest.importorskip("playwright.sync_api", reason="playwright for Python is not installed")
if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
    pytest.skip(f"{CHROMIUM} not installed (apt-get install chromium)", allow_module_level=True)

pytestmark = pytest.mark.slow
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    g = view_corpus()
    out = tmp_path_factory.mktemp("site")
    write_views(g, out)
    shots = tmp_path_factory.mktemp("screenshots")
    print(f"\nscreenshots: {shots}")
    return g, out, shots


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    with playwright.sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=CHROMIUM, headless=True, args=ARGS,
            viewport={"width": 1400, "height": 860},
        )
        yield ctx
        ctx.close()


class Opened:
    """A page opened from disk, with what it logged and tried to fetch."""

    def __init__(self, ctx, path: Path):
        self.page = ctx.new_page()
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.goto(path.as_uri())
        self.wait_ready()

    def wait_ready(self, timeout: float = 60.0) -> None:
        # Polled from outside: the page's CSP forbids the eval that wait_for_function needs.
        t0 = time.monotonic()
        while not self.page.evaluate("() => !!(window.kgView && window.kgView.ready)"):
            assert time.monotonic() - t0 < timeout, f"{self.page.url}: layout never settled; errors {self.errors}"
            time.sleep(0.1)

    def js(self, expr: str):
        return self.page.evaluate(f"() => {expr}")

    def close(self):
        self.page.close()


def label_boxes(v: Opened) -> list[dict]:
    """Each drawn label's box on screen (page pixels), as vis-network measured it, and its font in px."""
    return v.js("""(() => {
        const net = kgView.network, s = net.getScale(), c = net.body.container.getBoundingClientRect();
        return kgView.nodes.getIds().map(id => {
            const m = net.body.nodes[id].labelModule, z = m.size;
            const a = net.canvasToDOM({x: z.left, y: z.top}), b = net.canvasToDOM({x: z.left + z.width, y: z.top + z.height});
            return {id: id, text: m.elementOptions.label, px: m.fontOptions.size * s,
                    left: c.left + a.x, top: c.top + a.y, right: c.left + b.x, bottom: c.top + b.y,
                    canvas: {left: c.left, top: c.top, right: c.right, bottom: c.bottom}};
        });
    })()""")


def check_clean(v: Opened) -> None:
    assert v.errors == [], v.errors
    assert v.dialogs == [], "a script from the corpus ran"
    assert all(u.startswith(("file:", "data:")) for u in v.requests), v.requests


def shared_concepts(g) -> list[str]:
    """What the overview of the five papers draws: every concept (the map has room for them all)."""
    return [n for n, d in g.nodes(data=True) if d["label"] != "Paper"]


def test_overview_loads_clean_and_draws_the_shared_concepts(site, browser):
    g, out, shots = site
    v = Opened(browser, out / "index.html")
    check_clean(v)
    assert sorted(v.js("kgView.nodes.getIds()")) == sorted(shared_concepts(g))
    assert v.js("kgView.network.physics.physicsEnabled") is False  # laid out by kg
    legend = v.page.locator("#legend-items .legend-item")
    assert legend.count() == len({g.nodes[n]["label"] for n in shared_concepts(g)})
    assert v.page.locator("#coloring").is_visible()  # by theme (this corpus has no years: no other)
    v.page.screenshot(path=str(shots / "overview.png"))
    v.close()


def test_search_focuses_the_node_and_shows_it(site, browser):
    g, out, shots = site
    v = Opened(browser, out / "index.html")
    v.page.fill("#search", "bleu")
    v.page.press("#search", "Enter")
    assert v.js("kgView.network.getSelectedNodes()") == ["Metric:bleu"]
    assert v.page.locator("#details h2").inner_text() == "BLEU"
    offset = """(() => { const n = kgView.network, c = n.getViewPosition(),
                          p = n.getPositions(["Metric:bleu"])["Metric:bleu"];
                          return Math.hypot(c.x - p.x, c.y - p.y); })()"""
    t0 = time.monotonic()  # the focus animation zooms in on it and centres it
    while (v.js(offset) > 5 or abs(v.js("kgView.network.getScale()") - 1.3) > 0.05) and time.monotonic() - t0 < 10:
        time.sleep(0.1)
    assert v.js("kgView.network.getScale()") == pytest.approx(1.3, rel=0.05)
    assert v.js(offset) < 5
    v.page.screenshot(path=str(shots / "overview-search.png"))
    check_clean(v)
    v.close()


def test_search_finds_what_the_overview_does_not_draw(site, browser):
    g, out, _ = site
    v = Opened(browser, out / "index.html")
    assert v.js("kgView.searchLoaded()") is False  # views/lib/search.js waits for the first search
    for query, page in (("We analyse Policy Mirror", paper_page("pmd2")), ("Statistical machine translation",
                                                                         concept_page("Task:statistical machine translation"))):
        v.page.fill("#search", query)
        v.page.press("#search", "Enter")
        status = v.page.locator("#search-status")
        if page.startswith("paper-"):  # a paper: never drawn, found in views/lib/search.js
            status.locator("a").wait_for(timeout=5000)
            assert "not drawn here" in status.inner_text()
            assert status.locator("a").get_attribute("href") == "views/" + page
            status.locator("a").click()
            v.page.wait_for_load_state()
            assert v.page.url.endswith(page)
            check_clean(v)
            v.page.go_back()
            v.wait_ready()
        else:  # a drawn concept of that name comes before the paper of that title
            assert v.js("kgView.network.getSelectedNodes()") == ["Task:statistical machine translation"]
    check_clean(v)
    v.close()


def node_on_screen(v: Opened, node_id: str) -> tuple[float, float]:
    box = v.page.locator("#network canvas").bounding_box()
    pos = v.js(f"kgView.network.canvasToDOM(kgView.network.getPositions([{node_id!r}])[{node_id!r}])")
    return box["x"] + pos["x"], box["y"] + pos["y"]


def test_hover_shows_a_concept_summary_and_a_click_opens_its_page(site, browser):
    g, out, shots = site
    v = Opened(browser, out / "index.html")
    v.page.mouse.move(*node_on_screen(v, "Metric:bleu"))
    tip = v.page.locator("div.vis-tooltip")
    tip.wait_for(state="visible", timeout=5000)
    assert "BLEU" in tip.inner_text() and "in 2 papers" in tip.inner_text() and "click to open it" in tip.inner_text()
    v.page.screenshot(path=str(shots / "overview-tooltip.png"))
    check_clean(v)
    with v.page.expect_navigation(timeout=5000):
        v.page.mouse.click(*node_on_screen(v, "Metric:bleu"))
    assert v.page.url.endswith(concept_page("Metric:bleu"))  # one click from the map to its papers
    v.wait_ready()
    titles = v.page.locator("#details ul li a").all_inner_texts()
    assert sorted(titles) == sorted(g.nodes[p]["title"] for p in ("mt", "mt2"))
    v.close()


def test_type_filter_hides_and_shows_a_type(site, browser):
    g, out, _ = site
    v = Opened(browser, out / "index.html")
    drawn = shared_concepts(g)
    n_methods = sum(1 for n in drawn if g.nodes[n]["label"] == "Method")
    assert n_methods
    visible = "kgView.nodes.get({filter: n => !n.hidden}).length"
    v.page.uncheck('#legend-items input[data-type="Method"]')
    assert v.js(visible) == len(drawn) - n_methods
    v.page.check('#legend-items input[data-type="Method"]')
    assert v.js(visible) == len(drawn)
    v.close()


def test_hostile_abstract_shows_as_text(site, browser):
    g, out, shots = site
    v = Opened(browser, out / "map.html")
    v.js('kgView.showDetails("evil")')
    assert HOSTILE in v.page.locator("#details .abstract").inner_text()
    assert v.page.locator("#details img").count() == 0
    assert v.page.locator('#details a[href^="javascript"]').count() == 0
    check_clean(v)
    v = Opened(browser, out / "index.html")
    v.page.fill("#search", "Reinforcement learning on MinAtar")  # evil's title holds the payload: search.js
    v.page.press("#search", "Enter")
    v.page.fill("#search", HOSTILE)
    v.page.press("#search", "Enter")
    v.page.locator("#search-status a").wait_for(timeout=5000)
    assert v.page.locator("#search-status img").count() == 0
    check_clean(v)
    v = Opened(browser, out / "views" / paper_page("evil"))
    check_clean(v)
    v.close()


def test_paper_view_shows_related_papers_and_links_to_them(site, browser):
    g, out, shots = site
    expected = related(g, "mt", k=10)
    v = Opened(browser, out / "views" / paper_page("mt"))
    check_clean(v)
    items = v.page.locator("#details li.related-paper")
    assert items.count() == len(expected) > 0
    assert items.first.get_attribute("data-id") == expected[0].id == "mt2"
    assert "BLEU" in items.first.inner_text()
    ids = set(v.js("kgView.nodes.getIds()"))
    assert {"mt"} | {r.id for r in expected} | {"Metric:bleu"} <= ids
    v.page.screenshot(path=str(shots / "paper-mt.png"))
    items.first.locator("a").first.click()
    v.page.wait_for_load_state()
    assert v.page.url.endswith(paper_page("mt2"))
    v.wait_ready()
    check_clean(v)
    v.close()


def test_concept_view_lists_its_papers_and_links_back(site, browser):
    g, out, shots = site
    v = Opened(browser, out / "views" / concept_page("Metric:bleu"))
    check_clean(v)
    assert v.js("kgView.nodes.length") == 1 + 2 + 3  # BLEU, its two papers, their three other concepts
    links = v.page.locator("#details ul li a")
    assert sorted(links.all_inner_texts()) == sorted(g.nodes[p]["title"] for p in ("mt", "mt2"))
    v.page.screenshot(path=str(shots / "concept-bleu.png"))
    v.page.click("text=← overview")
    v.page.wait_for_load_state()
    assert v.page.url.endswith("/index.html")
    v.close()


def test_over_budget_overview_says_what_it_draws_and_still_finds_the_rest(tmp_path, browser):
    g = view_corpus()
    write_views(g, tmp_path, budget=2)
    v = Opened(browser, tmp_path / "index.html")
    check_clean(v)
    assert v.js("kgView.nodes.length") == 2
    note = v.page.locator("#note")
    assert note.is_visible() and "draws the 2 concepts named by the most papers" in note.inner_text()
    v.page.fill("#search", "europarl")  # a concept of one paper: not drawn
    v.page.press("#search", "Enter")
    status = v.page.locator("#search-status")
    status.locator("a").wait_for(timeout=5000)
    assert "not drawn here" in status.inner_text()
    status.locator("a").click()
    v.page.wait_for_load_state()
    assert v.page.url.endswith(concept_page("Dataset:europarl"))
    v.close()


# A concept page's relations (used for, evaluated on...), each linked to its concept and papers.
@pytest.fixture(scope="module")
def relations_site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    write_views(sample_graph(), out)  # relations of every type
    shots = tmp_path_factory.mktemp("screenshots")
    print(f"\nscreenshots: {shots}")
    return out, shots


def test_concept_page_lists_what_is_stated_and_links_to_it(relations_site, browser):
    out, shots = relations_site
    v = Opened(browser, out / "views" / concept_page("Method:policy mirror descent"))
    check_clean(v)
    headings = v.page.locator("#details h3.relation").all_inner_texts()
    assert [h.lower() for h in headings] == ["used for", "evaluated on", "compared with", "has kinds"]
    used = v.page.locator("#details ul.relations").first.locator(":scope > li").first
    text = used.inner_text()
    assert "reinforcement learning" in text and "2 papers" in text and "We propose Policy Mirror Descent" in text
    v.page.screenshot(path=str(shots / "concept-pmd.png"), full_page=True)
    used.locator("ul.statements a").first.click()
    v.page.wait_for_load_state()
    assert v.page.url.endswith(paper_page("p1"))
    v.wait_ready()
    check_clean(v)
    v.close()
    v = Opened(browser, out / "views" / concept_page("Method:policy mirror descent"))
    v.page.locator("#details ul.relations a.concept", has_text="reinforcement learning").click()
    v.page.wait_for_load_state()
    assert v.page.url.endswith(concept_page("Task:reinforcement learning"))
    v.wait_ready()
    check_clean(v)
    assert "uses" in [h.lower() for h in v.page.locator("#details h3.relation").all_inner_texts()]
    v.close()


def test_paper_page_lists_what_its_abstract_states(relations_site, browser):
    out, shots = relations_site
    v = Opened(browser, out / "views" / paper_page("p1"))
    check_clean(v)
    assert "what it states" in [h.lower() for h in v.page.locator("#details h3").all_inner_texts()]  # CSS capitals
    stated = v.page.locator("#details ul.said .stated").all_inner_texts()
    assert len(stated) == 3 and any("used for" in i and "reinforcement learning" in i for i in stated)
    # The three come from one sentence, quoted once beneath them.
    assert v.page.locator("#details ul.said > li").count() == 1
    assert v.page.locator("#details ul.said q").all_inner_texts() == [
        "We propose Policy Mirror Descent (PMD) for reinforcement learning on MinAtar."]
    v.page.screenshot(path=str(shots / "paper-p1.png"), full_page=True)
    v.page.locator("#details ul.said a.concept", has_text="MinAtar").first.click()
    v.page.wait_for_load_state()
    assert v.page.url.endswith(concept_page("Dataset:minatar"))
    v.close()


def theme_label_boxes(v: Opened) -> list[dict]:
    """Screen boxes (DOM pixels) and rendered font size of every theme label on an opened map."""
    return v.js("""kgView.nodes.get({filter: n => n.group === "Theme"}).map(n => {
        const b = kgView.network.getBoundingBox(n.id), s = kgView.network.getScale();
        const a = kgView.network.canvasToDOM({x: b.left, y: b.top}), z = kgView.network.canvasToDOM({x: b.right, y: b.bottom});
        return {id: n.id, left: a.x, top: a.y, right: z.x, bottom: z.y, px: n.font.size * s};
    })""")


def check_legible(v: Opened, boxes: list[dict]) -> None:
    width, height = v.js("[kgView.network.body.container.clientWidth, kgView.network.body.container.clientHeight]")
    for b in boxes:
        assert b["px"] >= 12, b  # readable at the first zoom, without zooming in
        assert b["left"] >= -1 and b["top"] >= -1 and b["right"] <= width + 1 and b["bottom"] <= height + 1, b
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            overlap = a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]
            assert not overlap, (a, b)


def test_map_groups_related_papers_by_theme_with_legible_labels(site, browser):
    g, out, shots = site
    v = Opened(browser, out / "map.html")
    check_clean(v)
    papers = [n for n, d in g.nodes(data=True) if d["label"] == "Paper"]
    assert sorted(v.js("kgView.nodes.get({filter: n => n.group === 'Paper'}).map(n => n.id)")) == sorted(papers)
    colour = v.js("Object.fromEntries(kgView.nodes.get({filter: n => n.group === 'Paper'}).map(n => [n.id, n.color.background]))")
    assert colour["pmd"] == colour["pmd2"] and colour["mt"] == colour["mt2"] != colour["pmd"]  # one colour a theme
    boxes = theme_label_boxes(v)
    assert len(boxes) >= 2
    check_legible(v, boxes)
    v.page.fill("#search", "Europarl")  # a concept of mt2, which the map draws as no node of its own
    v.page.press("#search", "Enter")
    assert v.js("kgView.network.getSelectedNodes()") == ["mt2"]
    v.page.screenshot(path=str(shots / "map.png"))
    v.close()


def test_paper_and_concept_pages_link_into_the_map(site, browser):
    g, out, shots = site
    v = Opened(browser, out / "views" / paper_page("mt"))
    v.page.click("#details a.map-link")
    v.page.wait_for_load_state()
    v.wait_ready()
    assert v.page.url.split("/")[-1] == "map.html#mt"
    assert v.js("kgView.network.getSelectedNodes()") == ["mt"]
    check_clean(v)
    v = Opened(browser, out / "views" / concept_page("Metric:bleu"))
    v.page.click("#details a.map-link")
    v.page.wait_for_load_state()
    v.wait_ready()
    assert sorted(v.js("kgView.network.getSelectedNodes()")) == ["mt", "mt2"]  # the papers using BLEU
    v.page.screenshot(path=str(shots / "map-bleu.png"))
    check_clean(v)
    v.close()


def test_paper_page_shows_the_theme_the_build_gives_it(tmp_path, browser):
    # The theme comes from views/themes.js, which each build writes afresh: a page `kg add`
    # keeps shows the theme of the build it is in.
    g = view_corpus()
    g.nodes["mt"]["topic_label"] = "translation · BLEU"
    write_views(g, tmp_path)
    v = Opened(browser, tmp_path / "views" / paper_page("mt"))
    assert "Theme: translation · BLEU" in v.page.inner_text("#details")
    g.nodes["mt"]["topic_label"] = "machine translation"
    write_themes(g, tmp_path / "views")
    v.page.reload()
    v.wait_ready()
    assert "Theme: machine translation" in v.page.inner_text("#details")
    check_clean(v)
    v.close()


def test_map_of_four_hundred_papers_keeps_theme_labels_legible(tmp_path, browser):
    import random

    from kg.graph import build_graph
    from kg.concepts.resolve import resolve
    from tests.helpers import extraction, paper

    rng = random.Random(3)
    fields = [[f"{w} {x}" for x in ("parsing", "tagging", "alignment", "retrieval", "segmentation", "decoding")]
              for w in ("speech", "image", "graph", "protein", "market", "robot", "music", "legal")]
    papers, exs = [], []
    for i in range(400):
        own = rng.sample(fields[i % len(fields)], 3)
        p = paper(f"p{i}", f"Paper {i} about " + ", ".join(own) + ".", title=f"Paper {i} on {own[0]}")
        papers.append(p)
        exs.append(extraction(p, *[(c, "Task") for c in own]))
    g = build_graph(papers, exs, resolve(papers, exs))
    write_views(g, tmp_path)
    v = Opened(browser, tmp_path / "map.html")
    check_clean(v)
    boxes = theme_label_boxes(v)
    assert len(boxes) >= 4
    check_legible(v, boxes)
    v.page.screenshot(path=str(tmp_path / "map-400.png"))
    v.close()


def labels_apart_and_on_screen(boxes: list[dict], min_px: float = 9) -> None:
    """Every label readable at the first zoom, on screen, and clear of every other."""
    for b in boxes:
        assert b["px"] >= min_px, b
        c = b["canvas"]
        assert b["left"] >= c["left"] - 1 and b["right"] <= c["right"] + 1, b
        assert b["top"] >= c["top"] - 1 and b["bottom"] <= c["bottom"] + 1, b
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = a["right"] <= b["left"] or b["right"] <= a["left"] or a["bottom"] <= b["top"] or b["bottom"] <= a["top"]
            assert apart, (a["text"], b["text"])


def test_a_paper_page_shows_its_concepts_and_related_papers_in_legible_columns(tmp_path, browser):
    # A paper naming twelve concepts with long names, and ten related papers with long titles: the
    # physics layout piled such labels on one another.
    from kg.concepts.resolve import resolve
    from kg.graph import build_graph
    from kg.view import write_paper_view
    from tests.helpers import extraction, paper

    names = [f"{w} representation learning for {t}" for w, t in zip(
        ("contrastive", "hierarchical", "multilingual", "graph-based", "sparse", "adversarial", "curriculum",
         "federated", "causal", "symbolic", "continual", "multimodal"),
        ("dialogue", "parsing", "retrieval", "summarisation", "tagging", "translation", "inference", "coreference",
         "generation", "entailment", "segmentation", "alignment"))]
    specs = {"focus": ("A unified study of representation learning across many language tasks", names)}
    for i in range(10):
        specs[f"r{i}"] = (f"Related work number {i} on representation learning with a very long descriptive title",
                          [names[i], names[(i + 3) % 12]])
    for i in range(6):
        specs[f"f{i}"] = (f"Unrelated filler {i}", [f"galaxy survey {i}", f"protein folding {i}"])
    papers, exs = [], []
    for pid, (title, ents) in specs.items():
        p = paper(pid, f"{title}. " + ". ".join(ents) + ".", title=title)
        papers.append(p)
        exs.append(extraction(p, *[(e, "Method") for e in ents]))
    g = build_graph(papers, exs, resolve(papers, exs))
    v = Opened(browser, write_paper_view(g, tmp_path, "focus"))
    check_clean(v)
    assert len(v.js("kgView.nodes.getIds()")) == 1 + 12 + 10
    boxes = label_boxes(v)
    labels_apart_and_on_screen(boxes)
    # The related papers' column reads top down in rank order, as the side panel lists them.
    listed = [e.get_attribute("data-id") for e in v.page.locator("#details li.related-paper").all()]
    ys = v.js("Object.fromEntries(kgView.nodes.getIds().map(id => [id, kgView.network.getPositions([id])[id].y]))")
    assert len(listed) == 10 and [ys[p] for p in listed] == sorted(ys[p] for p in listed)
    assert all(ys["focus"] < y for n, y in ys.items() if n != "focus")  # the paper above both columns
    v.page.screenshot(path=str(tmp_path / "paper-columns.png"))
    v.close()
