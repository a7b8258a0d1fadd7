"""Interactive HTML views of a build: the overview and one page per paper and per concept.

Layout inside a build directory (kg.builds)::

    index.html                      overview: a labelled map of the most named concepts (scripts inlined)
    trends.html                     concepts rising and falling over the years (corpora of 2+ years; no script)
    views/lib/                      vis-network (pyvis's copy) and kg's script and style
    views/paper-<slug>-<hash>.html  one paper: its concepts, what it states between them, related papers
    views/concept-<slug>-<hash>.html one concept: the papers using it, what is stated about it, what co-occurs
    views/pages.json                what each page shows, as a digest (kg add keeps the unchanged pages)
    views/themes.js                 each paper's research theme, which the paper pages read
    views/lib/search.js             every paper and concept the overview does not draw, for its search

Nothing is fetched from the network: the pages open from disk offline.
"""
from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import orjson

from kg.util import forks
from kg.util.compat import batched
from kg.layout import INDEX_HTML, MAP_HTML, PAGE_DIGESTS, THEMES_JS, TRENDS_HTML, VIEWS, Manifest
from kg.errors import KgError
from kg.analysis.trends import paper_years
from kg.graph import entities_of, papers_of
from kg.analysis.related import LISTED_K, RelatedPaper, related_all
from kg.analysis.related import related as related_one
from kg.schema import PAPER
from kg.view.names import concept_page, find_concept, page_name, paper_page
from kg.view.pages import (NODE_BUDGET, concept_view, map_view, overview, overview_search, page_digests,
                           paged_nodes, paper_view)
from kg.view.render import Page, copy_assets, render
from kg.view.trendspage import trends_page

__all__ = [
    "write_views", "write_overview", "write_map", "write_trends", "write_themes", "pages_on_disk", "write_paper_view", "write_concept_view", "find_concept",
    "page_name", "paper_page", "concept_page", "NODE_BUDGET",
]
# A build writes a page for every node up to this many nodes; above it (tens of thousands of
# papers) only for the most connected (kg.view.pages.paged_nodes), and `kg view --paper/--concept`
# writes others.
PAGE_LIMIT = 20_000
# Below this many pages forking costs more than it saves.
MIN_PARALLEL_PAGES = 200
PAGES_PER_TASK = 50
# In views/lib/ (with the scripts a build may hold there): what the overview's search finds
# besides the drawn concepts.
SEARCH_JS = "lib/search.js"


def _corpus(build_dir: Path, corpus: str | None = None) -> str:
    """The corpus name shown on the pages: given, else the build manifest's, else the folder's."""
    if corpus:
        return corpus
    try:
        name = Manifest.read(Path(build_dir)).name
    except (OSError, KgError):
        name = ""
    return str(name or Path(build_dir).resolve().name)


def _write(path: Path, html: str, atomic: bool = True) -> Path:
    if not atomic:  # a folder no reader sees yet (a build being written), made by the caller
        path.write_text(html, encoding="utf-8")
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(html, encoding="utf-8")
    tmp.replace(path)  # a reader never sees half a page
    return path


def _view_html(page: Page, map_href: str = "") -> str:
    return render(page, inline=False, asset_prefix="lib/", home_href=f"../{INDEX_HTML}", map_href=map_href,
                  themes_src=THEMES_JS)


def write_themes(g: nx.DiGraph, views: Path) -> Path:
    """Write views/themes.js: each paper's research theme (``topic_label``), which the pages
    read rather than hold, so that a page `kg add` keeps shows the theme of the build it is in
    (adding a few papers renames many themes)."""
    labels: dict[str, int] = {}
    of = {}
    for n, d in g.nodes(data=True):
        if d["label"] == PAPER and d.get("topic_label"):
            of[n] = labels.setdefault(d["topic_label"], len(labels))
    data = orjson.dumps({"labels": list(labels), "of": of}).decode("utf-8")
    return _write(views / THEMES_JS, f"window.KG_THEMES = {data};\n")


def _map_links(page: Page, to_map: str) -> str:
    """Point a paper or concept page into the map (``to_map``: its path from the page); the nav link."""
    from urllib.parse import quote

    for n in page.nodes:
        info = n.get("info") or {}
        if n["id"] != page.focus:
            continue
        if info.get("type") == "Paper":
            info["mapHref"] = f"{to_map}#{quote(n['id'], safe='')}"
        else:
            info["mapHref"] = f"{to_map}#concept={quote(n['id'], safe='')}"
    return to_map


def _page_of(g: nx.DiGraph, node_id: str) -> str:
    return paper_page(node_id) if g.nodes[node_id]["label"] == PAPER else concept_page(node_id)


def _existing_pages(g: nx.DiGraph, views: Path, also: str) -> Callable[[str], bool]:
    """Link only to pages on disk (a large build has pages only for its most connected nodes)."""
    return lambda n: n == also or (views / _page_of(g, n)).exists()


def pages_on_disk(g: nx.DiGraph, build_dir: Path) -> Callable[[str], bool]:
    """Whether a node's page has been written (a build without views, pages written one by one)."""
    views = Path(build_dir) / VIEWS
    return lambda n: (views / _page_of(g, n)).exists()


def write_overview(g: nx.DiGraph, build_dir: Path, budget: int = NODE_BUDGET, corpus: str | None = None,
                   has_page: Callable[[str], bool] | None = None) -> Path:
    """Write ``index.html``, the concept map (at most ``budget`` concepts, and no more than fit
    legibly: kg.view.conceptmap), and views/lib/search.js, what its search finds besides; its path."""
    build_dir = Path(build_dir)
    page = overview(g, _corpus(build_dir, corpus), budget=budget, has_page=has_page)
    rest = overview_search(g, {n["id"] for n in page.nodes}, has_page)
    # A script, not JSON: a page opened from disk may load a script but not fetch a file.
    _write(build_dir / VIEWS / SEARCH_JS, f"window.KG_SEARCH = {orjson.dumps(rest).decode('utf-8')};\n")
    page.search_src = f"{VIEWS}/{SEARCH_JS}"
    map_href = MAP_HTML if (build_dir / MAP_HTML).exists() else ""
    return _write(build_dir / INDEX_HTML, render(page, inline=True, home_href=INDEX_HTML, map_href=map_href,
                                                 trends_href=_trends_href(build_dir)))


def write_map(g: nx.DiGraph, build_dir: Path, related: dict[str, list[RelatedPaper]] | None = None,
              budget: int = NODE_BUDGET, corpus: str | None = None,
              has_page: Callable[[str], bool] | None = None) -> Path:
    """Write ``map.html``: the papers grouped by research theme (their ``topic``); its path."""
    related = related_all(g, LISTED_K) if related is None else related
    page = map_view(g, _corpus(build_dir, corpus), related, budget=budget, has_page=has_page)
    return _write(Path(build_dir) / MAP_HTML, render(page, inline=True, home_href=INDEX_HTML, map_href=MAP_HTML,
                                                     trends_href=_trends_href(build_dir)))


def _trends_href(build_dir: Path) -> str:
    return TRENDS_HTML if (Path(build_dir) / TRENDS_HTML).exists() else ""


def write_trends(g: nx.DiGraph, build_dir: Path, corpus: str | None = None,
                 has_page: Callable[[str], bool] | None = None) -> Path | None:
    """Write ``trends.html``, the concepts rising and falling most per type; its path. None, and no
    page (an earlier one removed), when the papers do not span two years."""
    path = Path(build_dir) / TRENDS_HTML
    html = trends_page(g, _corpus(build_dir, corpus), has_page=has_page, map_href=MAP_HTML)
    if html is None:
        path.unlink(missing_ok=True)
        return None
    return _write(path, html)


def write_paper_view(g: nx.DiGraph, build_dir: Path, paper_id: str,
                     related: dict[str, list[RelatedPaper]] | None = None) -> Path:
    """Write one paper's page (its concepts, what it states, related papers) under views/; its path."""
    # One paper's ranking, not the corpus's: on demand in a large build this is the fast path.
    related = {paper_id: related_one(g, paper_id, LISTED_K)} if related is None else related
    views = Path(build_dir) / VIEWS
    copy_assets(views / "lib")
    if not (views / THEMES_JS).exists():  # a build written without views
        write_themes(g, views)
    page = paper_view(g, _corpus(build_dir), paper_id, related, has_page=_existing_pages(g, views, paper_id))
    to_map = _map_links(page, f"../{MAP_HTML}") if (Path(build_dir) / MAP_HTML).exists() else ""
    return _write(views / paper_page(paper_id), _view_html(page, to_map))


def write_concept_view(g: nx.DiGraph, build_dir: Path, entity_id: str) -> Path:
    """Write one concept's page (the papers using it, what co-occurs) under views/; its path."""
    views = Path(build_dir) / VIEWS
    copy_assets(views / "lib")
    page = concept_view(g, _corpus(build_dir), entity_id, has_page=_existing_pages(g, views, entity_id))
    to_map = _map_links(page, f"../{MAP_HTML}") if (Path(build_dir) / MAP_HTML).exists() else ""
    return _write(views / concept_page(entity_id), _view_html(page, to_map))


def write_views(g: nx.DiGraph, build_dir: Path, budget: int = NODE_BUDGET, corpus: str | None = None,
                related: dict[str, list[RelatedPaper]] | None = None, page_limit: int = PAGE_LIMIT,
                fresh: bool = False, workers: int = 1, keep_from: Path | None = None) -> Path:
    """Write the overview and the paper and concept pages of a build; returns index.html's path.

    ``corpus`` names the corpus on the pages (default: the build manifest's name, else the folder's);
    ``related`` is a precomputed ``related_all(g, LISTED_K)``. Up to ``page_limit`` nodes every
    node gets a page, and views/pages.json the digest of what each shows (``page_digests``); above
    it only the ``budget`` most connected nodes do (``paged_nodes``). ``fresh``: ``build_dir`` is a folder no one reads yet,
    so pages are written in place rather than each swapped in. ``workers`` > 1: pages are built
    and written by that many forked processes. ``keep_from``: the views/ folder of an earlier
    build (``kg add``): its pages whose digest is unchanged are linked, not written again.
    """
    build_dir = Path(build_dir)
    related = related_all(g, LISTED_K) if related is None else related
    corpus = _corpus(build_dir, corpus)
    views = build_dir / VIEWS
    copy_assets(views / "lib")
    papers, ents = papers_of(g), entities_of(g)
    has_page = None
    if len(papers) + len(ents) > page_limit:
        keep_papers, keep_ents = paged_nodes(g, budget)
        paged = set(keep_papers) | set(keep_ents)
        papers, ents = keep_papers, keep_ents
        has_page = paged.__contains__
    # The trends, the map and the themes first: the map and the overview link to the trends, every
    # page links into the map and reads the themes.
    write_trends(g, build_dir, corpus=corpus, has_page=has_page)
    write_map(g, build_dir, related, budget=budget, corpus=corpus, has_page=has_page)
    write_themes(g, views)
    job = _PageJob(g, views, corpus, related, has_page, atomic=not fresh, years=paper_years(g))
    nodes = [(True, p) for p in papers] + [(False, e) for e in ents]
    if has_page is None:
        digests = page_digests(g, corpus, related)
        if keep_from is not None:
            earlier = _read_digests(keep_from)
            kept = {n for _, n in nodes if earlier.get(n) == digests[n]
                    and _link(keep_from / _page_of(g, n), views / _page_of(g, n))}
            nodes = [(is_paper, n) for is_paper, n in nodes if n not in kept]
        _write(views / PAGE_DIGESTS, orjson.dumps(digests).decode("utf-8"), atomic=not fresh)
    if len(nodes) >= MIN_PARALLEL_PAGES and forks_pages(g, workers, page_limit):
        forks.run(job, list(batched(nodes, PAGES_PER_TASK)), workers)
    else:
        job(nodes)
    return write_overview(g, build_dir, budget=budget, corpus=corpus, has_page=has_page)


def forks_pages(g: nx.DiGraph, workers: int, page_limit: int = PAGE_LIMIT) -> bool:
    """Whether ``write_views`` writes the pages of ``g`` in ``workers`` forked processes: only where
    every node gets a page (at most ``page_limit`` nodes). Past that only the budget's pages are
    written, and each forked worker would copy much of the large process it inherits as it reads
    the graph (1.6 GB each at 100,000 papers, bench/stages.py, to save at most 20 s of the pages'
    47): they are written in this process."""
    nodes = len(papers_of(g)) + len(entities_of(g))
    return workers > 1 and MIN_PARALLEL_PAGES <= nodes <= page_limit and forks.can_fork()


def _read_digests(views: Path) -> dict[str, str]:
    """The page digests an earlier build wrote ({} if it wrote none: then no page is kept)."""
    try:
        digests = orjson.loads((views / PAGE_DIGESTS).read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return {}
    return digests if isinstance(digests, dict) else {}


def _link(src: Path, dst: Path) -> bool:
    """Put an earlier build's page in the new folder; False if it has none."""
    try:
        os.link(src, dst)  # the earlier build's file is never written again: sharing it is safe
    except FileNotFoundError:
        return False
    except OSError:  # another file system, or no hard links there
        try:
            shutil.copy2(src, dst)
        except FileNotFoundError:
            return False
    return True


@dataclass
class _PageJob:
    """Writes the pages of a list of (is_paper, node id); run in forked workers, which inherit it."""

    g: nx.DiGraph
    views: Path
    corpus: str
    related: dict[str, list[RelatedPaper]]
    has_page: Callable[[str], bool] | None
    atomic: bool
    years: dict[str, int] | None = None  # each dated paper's year, for the concept pages' timelines

    def __call__(self, nodes: list[tuple[bool, str]]) -> int:
        g, corpus, has_page = self.g, self.corpus, self.has_page
        to_map = f"../{MAP_HTML}"
        for is_paper, n in nodes:
            if is_paper:
                page = paper_view(g, corpus, n, self.related, has_page)
                _write(self.views / paper_page(n), _view_html(page, _map_links(page, to_map)), self.atomic)
            else:
                page = concept_view(g, corpus, n, has_page=has_page, years=self.years)
                _write(self.views / concept_page(n), _view_html(page, _map_links(page, to_map)), self.atomic)
        return len(nodes)
