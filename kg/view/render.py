"""Render a page: the network pyvis built, through kg's own template.

pyvis's template links Bootstrap and tom-select from CDNs even with
``cdn_resources="in_line"``, so pages use ``templates/page.html`` instead and
take vis-network from the copy pyvis ships. A page either inlines the
scripts (``index.html``: one file that can be mailed around) or loads them
from ``views/lib/`` next to it (per-paper and per-concept pages, which would
otherwise repeat 700 kB each).
"""
from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import jinja2
import orjson
import pyvis
from markupsafe import Markup

from kg.view.style import OTHER, STYLES

TEMPLATES = Path(__file__).parent / "templates"
VIS_DIR = Path(pyvis.__file__).parent / "lib" / "vis-9.1.2"
ASSETS = {  # file name under views/lib -> source
    "vis-network.min.js": VIS_DIR / "vis-network.min.js",
    "vis-network.min.css": VIS_DIR / "vis-network.css",
    "kg-view.js": TEMPLATES / "kg-view.js",
    "kg-view.css": TEMPLATES / "kg-view.css",
}

_INLINE_VARS = {"vis_js": "vis-network.min.js", "vis_css": "vis-network.min.css",
                "kg_js": "kg-view.js", "kg_css": "kg-view.css"}


@dataclass
class Page:
    """Everything one HTML page shows; ``nodes``/``edges`` are pyvis's node and edge dicts."""

    kind: str  # overview | paper | concept | map
    heading: str
    subtitle: str
    corpus: str
    nodes: list[dict]
    edges: list[dict]
    options: dict
    legend: list[dict]  # [{"type", "count"}] in display order
    search: list[dict]  # [{"id", "label", "href"}]: everything findable from this page
    related: dict[str, list[dict]] = field(default_factory=dict)  # paper id -> related rows
    pages: dict[str, str] = field(default_factory=dict)  # node id -> href of its page
    focus: str | None = None
    note: str = ""
    timeline: str = ""  # a concept's papers per year, inline SVG (kg.view.timeline), shown as is
    # Ways to colour the nodes, the first as drawn: [{"key", "name", "legend": [{"color", "label"}]}];
    # each node's info["colors"][key] holds its colour in each (the overview, the map).
    colorings: list[dict] = field(default_factory=list)
    search_src: str = ""  # a script defining KG_SEARCH, the rest of what the search finds, loaded when searched


@lru_cache(maxsize=1)
def _template() -> jinja2.Template:
    # Compiled once: a build renders thousands of pages from it.
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True, undefined=jinja2.StrictUndefined
    )
    return env.get_template("page.html")


def render(page: Page, *, inline: bool, asset_prefix: str = "", home_href: str = "index.html",
           map_href: str = "", themes_src: str = "", trends_href: str = "") -> str:
    """The page's HTML. ``themes_src``: the build's script of paper themes (``kg.view.THEMES_JS``),
    which a page not inlined loads rather than holding its paper's theme."""
    styles = {t: {"color": s.color, "glyph": s.glyph} for t, s in STYLES.items()}
    styles["_other"] = {"color": OTHER.color, "glyph": OTHER.glyph}
    data = {
        "kind": page.kind, "nodes": page.nodes, "edges": page.edges, "options": page.options,
        "legend": page.legend, "search": page.search, "related": page.related, "pages": page.pages,
        "focus": page.focus, "styles": styles,
    }
    if page.colorings:  # only on the pages that have them: the paper and concept pages stay as they were
        data["colorings"] = page.colorings
    if page.search_src:
        data["searchSrc"] = page.search_src
    ctx = dict(
        kind=page.kind, title=page.heading, heading=page.heading, subtitle=page.subtitle, corpus=page.corpus,
        note=page.note, timeline=Markup(page.timeline), node_count=len(page.nodes), data_json=page_json(data),
        inline=inline, asset_prefix=asset_prefix,
        home_href=home_href, map_href=map_href, themes_src=themes_src, trends_href=trends_href,
    )
    if inline:
        ctx.update({var: _read(ASSETS[name]) for var, name in _INLINE_VARS.items()})
    return _template().render(**ctx)


def page_json(data: dict) -> Markup:
    """``data`` as JSON safe inside a ``<script>`` element: what jinja's ``tojson`` gives.

    orjson rather than ``tojson``'s ``json.dumps``: serialising was a third of the time a
    build spends on its pages (a 2,000-paper build writes ~150 MB of them).
    """
    text = orjson.dumps(data).decode("utf-8")
    for char, escape in _HTML_SAFE:
        text = text.replace(char, escape)
    return Markup(text)


# The escapes of jinja's htmlsafe_json_dumps: no "</script>" or "<!--" can end the element early.
_HTML_SAFE = (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"), ("'", "\\u0027"))


def _read(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    # An inlined script or style must not close its own element early.
    return text.replace("</script", "<\\/script").replace("</style", "<\\/style")


def copy_assets(lib_dir: Path) -> None:
    lib_dir.mkdir(parents=True, exist_ok=True)
    for name, src in ASSETS.items():
        shutil.copyfile(src, lib_dir / name)
