"""The trends page and a concept page's timeline as a person sees them: in headless Chromium, from disk, offline.

Same requirements and conventions as tests/test_browser.py (Debian's chromium, Playwright; screenshots
under the pytest tmp dir, the path printed).
"""
from __future__ import annotations

import pytest

from kg.builds import TRENDS_HTML
from tests.test_browser import Opened, browser, check_clean  # noqa: F401  (browser: the fixture)
from tests.test_trends import field_graph, write_build

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from kg.view import write_views

    g = field_graph()
    out = write_build(g, tmp_path_factory.mktemp("trends-site") / "field")
    write_views(g, out)
    shots = tmp_path_factory.mktemp("screenshots")
    print(f"\nscreenshots: {shots}")
    return g, out, shots


def test_the_trends_page_loads_clean_and_its_cards_open_concept_pages(site, browser):  # noqa: F811
    g, out, shots = site
    page = browser.new_page()
    errors, requests = [], []
    page.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: requests.append(r.url))
    page.goto((out / TRENDS_HTML).as_uri())
    page.wait_for_load_state("load")
    assert errors == [] and all(u.startswith(("file:", "data:")) for u in requests), (errors, requests)
    page.screenshot(path=str(shots / "trends.png"), full_page=True)
    methods = page.locator("section#method")
    assert methods.locator(".card").count() == 2  # BERT rising, LSTM falling
    bert = methods.locator(".card a.name", has_text="BERT")
    assert bert.is_visible()
    box = methods.locator(".card svg.kg-bars").first.bounding_box()
    assert box["width"] > 100 and box["height"] > 40  # drawn, not collapsed
    bert.click()
    page.wait_for_load_state("load")
    url = page.url
    assert url.endswith(".html") and "/views/concept-method-bert-" in url
    page.close()

    v = Opened(browser, out / "views" / url.rsplit("/", 1)[1])
    check_clean(v)
    timeline = v.page.locator("#timeline svg.kg-bars")
    assert timeline.is_visible() and timeline.bounding_box()["height"] > 40
    v.page.screenshot(path=str(shots / "concept-timeline.png"))
    v.close()
