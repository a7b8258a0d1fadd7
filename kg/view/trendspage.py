"""The trends page (``trends.html``): small multiples of the concepts rising and falling most, per type.

One card per concept: its share of each year's papers as bars (kg.view.timeline), the change
between the periods compared and its statistic (kg.analysis.trends), a link to its concept page.
Shares rather than counts, so that a corpus growing year on year does not make everything rise.
The page has no script and fetches nothing.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import jinja2
import networkx as nx

from kg.analysis.trends import ConceptTrend, Trends, trends
from kg.errors import KgError
from kg.records import ENTITY_TYPES
from kg.view.names import concept_page
from kg.view.render import TEMPLATES
from kg.view.style import STYLES
from kg.view.timeline import year_bars

TOP = 12  # cards per column: two rows of a wide screen's grid, enough to see a field move


@lru_cache(maxsize=1)
def _template() -> jinja2.Template:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                             undefined=jinja2.StrictUndefined)
    return env.get_template("trends.html")


def _period(years: tuple[int, ...]) -> str:
    return str(years[0]) if len(years) == 1 else f"{years[0]}–{years[-1]}"


def _card(c: ConceptTrend, t: Trends, href: str | None) -> dict:
    years = t.years
    shares = [c.share_by_year[y] for y in years]
    tips = [f"{c.name}, {y}: {c.papers_by_year[y]:,} of {t.papers_by_year[y]:,} papers ({c.share_by_year[y]:.1%})"
            for y in years]
    chart = year_bars(years, shares, tips, color=STYLES[c.type].color, top_label=f"max {max(shares):.1%} of papers",
                      label=f"{c.name}: share of papers per year, {years[0]} to {years[-1]}")
    papers = "paper" if c.last == 1 else "papers"
    change = f"{c.first_share:.1%} → {c.last_share:.1%} · {c.first:,} → {c.last:,} {papers} · G {c.statistic:+.0f}"
    return {"name": c.name, "href": href, "change": change, "emerging": c.emerging, "chart": chart}


def trends_page(g: nx.DiGraph, corpus: str, has_page: Callable[[str], bool] | None = None, prefix: str = "views/",
                home_href: str = "index.html", map_href: str = "", top: int = TOP) -> str | None:
    """The page's HTML, or None when the papers do not span two years. ``has_page``: whether a concept's
    page was written (None: every concept's was); ``prefix``: the path from the page to views/."""
    per_type: dict[str, Trends] = {}
    for etype in ENTITY_TYPES:
        try:
            per_type[etype] = trends(g, type=etype, top=top)
        except KgError:  # no years, or one: no trends to show
            return None
    any_t = per_type[ENTITY_TYPES[0]]
    p = any_t.periods

    def href(eid: str) -> str | None:
        return prefix + concept_page(eid) if has_page is None or has_page(eid) else None

    sections = []
    for etype, t in per_type.items():
        columns = [{"title": f"Rising ({_period(p.first)} → {_period(p.last)})",
                    "cards": [_card(c, t, href(c.id)) for c in t.rising]},
                   {"title": "Falling", "cards": [_card(c, t, href(c.id)) for c in t.falling]}]
        sections.append({"type": etype, "title": etype + "s", "color": STYLES[etype].color,
                         "glyph": STYLES[etype].glyph, "columns": columns})
    years = any_t.years
    counts = [any_t.papers_by_year[y] for y in years]
    corpus_chart = year_bars(years, counts, [f"{y}: {n:,} papers" for y, n in zip(years, counts)], color=STYLES["Paper"].color,
                             width=160, top_label=f"max {max(counts):,} papers", label="papers per year")
    subtitle = (f"{sum(counts):,} papers from {years[0]} to {years[-1]}"
                + (f" ({any_t.undated:,} without a year left out)" if any_t.undated else "")
                + f"; {_period(p.first)} ({p.first_papers:,} papers) compared with {_period(p.last)} ({p.last_papers:,}).")
    how = ("Each card: the concept's share of each year's papers, its share and papers in the two periods, and the "
           "log-likelihood ratio G of the change (3.84 is p = 0.05), by which the cards are ranked: it grows with the "
           "evidence, so a shift of a few papers ranks below one of hundreds. \"new\": (nearly) absent at first. "
           "Concepts the concept stage marks generic are left out. `kg trends` lists the same, and more.")
    return _template().render(corpus=corpus, subtitle=subtitle, how=how, corpus_chart=corpus_chart, sections=sections,
                              home_href=home_href, map_href=map_href)
