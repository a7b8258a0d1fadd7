"""The overview's concept map and the map's year colours as a person sees them, on a synthetic field of
1,250 papers over three years: in headless Chromium, from disk, offline.

Same requirements and conventions as tests/test_browser.py (Debian's chromium, Playwright; screenshots
under the pytest tmp dir, the path printed).
"""
from __future__ import annotations

import io

import pytest

from tests.test_browser import (Opened, browser, check_clean, label_boxes,  # noqa: F401  (browser: the fixture)
                                labels_apart_and_on_screen)
from tests.test_view_overview import field

pytestmark = pytest.mark.slow
Image = pytest.importorskip("PIL.Image", reason="Pillow is not installed")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from kg.view import write_map, write_overview

    g = field(1_250, themes=12, per_theme=60)
    out = tmp_path_factory.mktemp("overview-site")
    write_map(g, out, related={})
    write_overview(g, out)
    shots = tmp_path_factory.mktemp("screenshots")
    print(f"\nscreenshots: {shots}")
    return g, out, shots


def dark_share(png: bytes, box: dict) -> float:
    """The share of a label's box that is drawn in dark ink (its text)."""
    im = Image.open(io.BytesIO(png)).convert("L")
    crop = im.crop((int(box["left"]), int(box["top"]), int(box["right"]) + 1, int(box["bottom"]) + 1))
    counts = crop.histogram()  # 256 grey levels
    return sum(counts[:110]) / max(1, sum(counts))


def test_the_concept_map_shows_every_label_legible_and_apart(site, browser):  # noqa: F811
    g, out, shots = site
    v = Opened(browser, out / "index.html")
    check_clean(v)
    boxes = label_boxes(v)
    assert len(boxes) >= 20 and all(b["right"] - b["left"] > 10 for b in boxes)  # measured, as drawn
    png = v.page.screenshot(path=str(shots / "overview-1250.png"))
    labels_apart_and_on_screen(boxes)  # readable at the first zoom, without hovering or zooming in
    # The labels are drawn: dark text fills part of each box, and none of the empty canvas.
    for b in sorted(boxes, key=lambda b: -b["px"])[:8]:
        assert dark_share(png, b) > 0.04, b
    c = boxes[0]["canvas"]
    corner = {"left": c["right"] - 40, "top": c["bottom"] - 20, "right": c["right"] - 2, "bottom": c["bottom"] - 2}
    assert dark_share(png, corner) == 0.0
    v.close()


def test_the_concept_map_colours_by_average_year_on_request(site, browser):  # noqa: F811
    g, out, shots = site
    v = Opened(browser, out / "index.html")
    by_theme = v.js("Object.fromEntries(kgView.nodes.get().map(n => [n.id, n.color.background]))")
    v.page.locator("#coloring-items label", has_text="average year").click()
    by_year = v.js("Object.fromEntries(kgView.nodes.get().map(n => [n.id, n.color.background]))")
    data = v.js("JSON.parse(document.getElementById('kg-data').textContent).nodes")
    assert by_year == {n["id"]: n["info"]["colors"]["year"] for n in data} != by_theme
    key = [float(y) for y in v.page.locator("#coloring-key").inner_text().split()]
    assert key == sorted(key) and 2017 <= key[0] < key[-1] <= 2019  # the range of the concepts' averages
    v.page.screenshot(path=str(shots / "overview-1250-by-year.png"))
    v.page.locator("#coloring-items label", has_text="research theme").click()
    assert v.js("Object.fromEntries(kgView.nodes.get().map(n => [n.id, n.color.background]))") == by_theme
    from kg.view.colors import darker

    borders = v.js("Object.fromEntries(kgView.nodes.get().map(n => [n.id, n.color.border]))")
    assert borders == {n: darker(c) for n, c in by_theme.items()}  # as kg drew them at first
    check_clean(v)
    v.close()


def test_the_map_colours_its_papers_by_year_on_request(site, browser):  # noqa: F811
    g, out, shots = site
    v = Opened(browser, out / "map.html")
    check_clean(v)
    v.page.locator("#coloring-items label", has_text="year").last.click()
    colours = v.js("Object.fromEntries(kgView.nodes.get({filter: n => n.group === 'Paper'}).map(n => [n.id, n.color.background]))")
    assert len(colours) == 1_250
    by_year: dict[int, set[str]] = {}
    for p, colour in colours.items():
        by_year.setdefault(g.nodes[p]["year"], set()).add(colour)
    assert all(len(c) == 1 for c in by_year.values()) and len(set.union(*by_year.values())) == 3  # one a year
    v.page.screenshot(path=str(shots / "map-1250-by-year.png"))
    check_clean(v)
    v.close()


def test_search_suggests_a_few_matches_from_everything_once_loaded(site, browser):  # noqa: F811
    g, out, _ = site
    v = Opened(browser, out / "index.html")
    v.page.focus("#search")  # loads views/lib/search.js: every paper and concept
    for _ in range(50):  # polled: the page's CSP forbids the eval that wait_for_function needs
        if v.js("kgView.searchLoaded()"):
            break
        v.page.wait_for_timeout(100)
    v.page.fill("#search", "Paper 12")
    options = v.page.locator("#search-list option").evaluate_all("os => os.map(o => o.value)")
    assert 10 < len(options) <= 40 and all("Paper 12" in o for o in options)  # titles "Paper 12", "Paper 120"...
    v.page.press("#search", "Enter")
    assert "not drawn here" in v.page.inner_text("#search-status")
    check_clean(v)
    v.close()
