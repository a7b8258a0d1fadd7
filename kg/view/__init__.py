"""Interactive HTML views of a build: the overview and one page per paper and per concept.

Layout inside a build directory (kg.builds)::

    index.html                      overview, self-contained (scripts inlined)
    views/lib/                      vis-network (pyvis's copy) and kg's script and style
    views/paper-<slug>-<hash>.html  one paper: its concepts and related papers
    views/concept-<slug>-<hash>.html one concept: the papers using it, what co-occurs

Nothing is fetched from the network: the pages open from disk offline.
"""
from __future__ import annotations

import json
from pathlib import Path

import networkx as nx

from kg.builds import INDEX_HTML, MANIFEST, VIEWS
from kg.graph import entities_of, papers_of
from kg.related import RelatedPaper, related_all
from kg.view.names import concept_page, find_concept, page_name, paper_page
from kg.view.pages import NODE_BUDGET, concept_view, overview, paper_view
from kg.view.render import Page, copy_assets, render

__all__ = [
    "write_views", "write_overview", "write_paper_view", "write_concept_view", "find_concept",
    "page_name", "paper_page", "concept_page", "NODE_BUDGET",
]
RELATED_K = 10  # related papers listed per paper on the pages


def _corpus(build_dir: Path, corpus: str | None = None) -> str:
    """The corpus name shown on the pages: given, else the build manifest's, else the folder's."""
    if corpus:
        return corpus
    try:
        return str(json.loads((Path(build_dir) / MANIFEST).read_text(encoding="utf-8"))["name"])
    except (OSError, ValueError, KeyError, TypeError):
        return Path(build_dir).resolve().name


def _write(path: Path, html: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(html, encoding="utf-8")
    tmp.replace(path)  # a reader never sees half a page
    return path


def _view_html(page: Page) -> str:
    return render(page, inline=False, asset_prefix="lib/", home_href=f"../{INDEX_HTML}")


def write_overview(g: nx.DiGraph, build_dir: Path, related: dict[str, list[RelatedPaper]] | None = None,
                   budget: int = NODE_BUDGET, corpus: str | None = None) -> Path:
    related = related_all(g, RELATED_K) if related is None else related
    page = overview(g, _corpus(build_dir, corpus), related, budget=budget)
    return _write(Path(build_dir) / INDEX_HTML, render(page, inline=True, home_href=INDEX_HTML))


def write_paper_view(g: nx.DiGraph, build_dir: Path, paper_id: str,
                     related: dict[str, list[RelatedPaper]] | None = None) -> Path:
    related = related_all(g, RELATED_K) if related is None else related
    views = Path(build_dir) / VIEWS
    copy_assets(views / "lib")
    page = paper_view(g, _corpus(build_dir), paper_id, related)
    return _write(views / paper_page(paper_id), _view_html(page))


def write_concept_view(g: nx.DiGraph, build_dir: Path, entity_id: str) -> Path:
    views = Path(build_dir) / VIEWS
    copy_assets(views / "lib")
    page = concept_view(g, _corpus(build_dir), entity_id)
    return _write(views / concept_page(entity_id), _view_html(page))


def write_views(g: nx.DiGraph, build_dir: Path, budget: int = NODE_BUDGET, corpus: str | None = None,
                related: dict[str, list[RelatedPaper]] | None = None) -> Path:
    """Write the overview and every paper and concept page of a build; returns index.html's path.

    ``corpus`` names the corpus on the pages (default: the build manifest's name, else the folder's);
    ``related`` is a precomputed ``related_all(g, RELATED_K)``.
    """
    build_dir = Path(build_dir)
    related = related_all(g, RELATED_K) if related is None else related
    corpus = _corpus(build_dir, corpus)
    views = build_dir / VIEWS
    copy_assets(views / "lib")
    for pid in papers_of(g):
        _write(views / paper_page(pid), _view_html(paper_view(g, corpus, pid, related)))
    for eid in entities_of(g):
        _write(views / concept_page(eid), _view_html(concept_view(g, corpus, eid)))
    return write_overview(g, build_dir, related, budget=budget, corpus=corpus)
