"""The kinds of page, as ``Page`` records: the overview (a concept map), the map of themes, one
paper, one concept.

Each builder picks the nodes and edges worth drawing, lets pyvis hold them,
and adds what the side panel needs (abstracts, related papers, links). The overview, the map and
a paper's page are placed here (kg.view.conceptmap, kg.view.maplayout, kg.view.paperlayout); a
concept's page is laid out by the browser's physics.
"""
from __future__ import annotations

import math

from collections import Counter
from collections.abc import Callable

import networkx as nx
from pyvis.network import Network

from kg import schema
from kg.analysis.trends import paper_years
from kg.graph import entities_of, mention_edge, paper_text, papers_of
from kg.analysis.related import NOTE_WORDING, RelatedPaper
from kg.corpus.titles import clip
from kg.view.names import concept_page, paper_page
from kg.view.render import Page
from kg.view.colors import NO_THEME, THEME_COLORS, darker, mean_year_scale, year_color, year_key
from kg.view.style import STYLES, style_of

NODE_BUDGET = 1500  # above this the map draws each theme's most linked papers, and huge builds page fewer nodes
MENTION_TYPES = frozenset(schema.MENTION_REL.values())
# How a concept page reads each entity relationship: (from the start, from the end), in the
# order the page lists them ("CRF: used for NER"; on NER's page: "uses CRF").
RELATION_PHRASES: dict[str, tuple[str, str]] = {
    "USED_FOR": ("used for", "uses"),
    "EVALUATED_ON": ("evaluated on", "evaluates"),
    "COMPARED_WITH": ("compared with", "compared with"),
    "CONJUNCTION": ("named together with", "named together with"),
    "PART_OF": ("part of", "has part"),
    "FEATURE_OF": ("feature of", "has feature"),
    "HYPONYM_OF": ("a kind of", "has kinds"),
}


def _safe_url(url: str | None) -> str | None:
    # Only web links leave the page: a "javascript:" URL in a corpus must not become a link.
    return url if isinstance(url, str) and url.lower().startswith(("http://", "https://")) else None


class _Builder:
    """Collects nodes and edges in a pyvis Network, with links relative to the page."""

    def __init__(self, g: nx.DiGraph, prefix: str, has_page: Callable[[str], bool] | None = None):
        self.g = g
        self.prefix = prefix  # path from the page to views/ ("" inside views/, "views/" from index.html)
        self.has_page = has_page  # None: every node has a page (builds under the page limit)
        # directed: pyvis checks undirected edges for duplicates in O(edges) each; arrows are off anyway.
        self.net = Network(directed=True)

    def href(self, node_id: str) -> str | None:
        if self.has_page is not None and not self.has_page(node_id):
            return None  # never link to a page that was not written
        if self.g.nodes[node_id]["label"] == schema.PAPER:
            return self.prefix + paper_page(node_id)
        return self.prefix + concept_page(node_id)

    def node(self, nid: str, value: float, label: str | None = None, **extra) -> None:
        d = self.g.nodes[nid]
        label_type = d["label"]
        st = style_of(label_type)
        if label_type == schema.PAPER:
            # The cleaned text reads better than the raw one ("$2.8\times$" -> "2.8×"); same words.
            info = {"type": "Paper", "id": nid, "title": d.get("title") or nid,
                    "abstract": paper_text(d),
                    "authors": list(d.get("authors") or []), "year": d.get("year"), "venue": d.get("venue"),
                    "url": _safe_url(d.get("url")), "href": self.href(nid)}
            shown = clip(d.get("title") or nid, 42)
        else:
            info = {"type": label_type, "id": nid, "name": d.get("name") or nid,
                    "aliases": list(d.get("aliases") or []), "papers": d.get("papers", 0), "href": self.href(nid)}
            shown = clip(d.get("name") or nid, 40)
        info.update(extra.pop("info", {}))
        self.net.add_node(nid, label=shown if label is None else label, shape=st.shape, color=st.color, value=value, group=label_type,
                          info=info, **extra)

    def edge(self, u: str, v: str, **opts) -> None:
        self.net.add_edge(u, v, **opts)
        self.net.edges[-1].pop("arrows", None)  # pyvis adds arrows to directed edges; kg's are undirected here

    def legend(self) -> list[dict]:
        counts = Counter(n["group"] for n in self.net.nodes)
        order = [t for t in STYLES if t in counts] + sorted(t for t in counts if t not in STYLES)
        return [{"type": t, "count": counts[t]} for t in order]

    def search(self) -> list[dict]:
        return [{"id": n["id"], "label": n["info"].get("title") or n["info"].get("name"), "href": n["info"]["href"]}
                for n in self.net.nodes]


def _options(n_nodes: int) -> dict:
    # Stabilise off screen, then kg-view.js switches physics off: the layout settles and stays.
    iterations = max(150, min(600, 250_000 // max(n_nodes, 1)))
    # Big graphs are seen zoomed out: hub labels must be large to stay readable; small ones are not.
    label_max = 18 if n_nodes <= 60 else 28 if n_nodes <= 300 else 40
    return {
        "autoResize": True,
        "nodes": {"borderWidth": 1, "font": {"size": 13, "face": "system-ui, sans-serif", "strokeWidth": 3},
                  "scaling": {"min": 8, "max": 36,
                              "label": {"enabled": True, "min": 12, "max": label_max, "drawThreshold": 5}}},
        "edges": {"color": {"color": "#c3cad1", "highlight": "#0969da", "hover": "#57606a"},
                  "smooth": False, "width": 1, "arrows": {"to": {"enabled": False}},
                  "selectionWidth": 2},
        "interaction": {"hover": True, "tooltipDelay": 120, "hideEdgesOnDrag": n_nodes > 400,
                        "hideEdgesOnZoom": n_nodes > 400, "multiselect": False},
        # Colour and shape by type; pyvis drops a node's colour when it has a group.
        "groups": {t: {"shape": s.shape, "color": {"background": s.color, "border": darker(s.color),
                                                   "highlight": {"background": s.color, "border": "#1f2328"},
                                                   "hover": {"background": s.color, "border": "#1f2328"}}}
                   for t, s in STYLES.items()},
        "layout": {"improvedLayout": n_nodes <= 120, "randomSeed": 7},
        "physics": {"enabled": n_nodes > 1, "solver": "forceAtlas2Based",
                    "forceAtlas2Based": {"gravitationalConstant": -55, "centralGravity": 0.012,
                                         "springLength": 95, "springConstant": 0.07, "avoidOverlap": 0.4},
                    "stabilization": {"enabled": True, "iterations": iterations, "updateInterval": 50, "fit": True},
                    "minVelocity": 1.5, "timestep": 0.4},
    }


def _mention_edge(b: _Builder, u: str, v: str) -> None:
    d = mention_edge(b.g, u, v)
    b.edge(u, v, title=f"{d['type']} ({d.get('mentions', 1)}× in the abstract)", width=1)


def _related_edge(b: _Builder, u: str, row: RelatedPaper, faint: bool = False) -> None:
    names = ", ".join(s.name for s in row.shared[:4]) or row.note or NOTE_WORDING
    # Faint in the overview, where hundreds of them would drown the paper-concept edges.
    b.edge(u, row.id, dashes=True, width=(1 if faint else 1 + 4 * min(row.score, 1.0)),
           color={"color": "#6ea8d8", "opacity": 0.35 if faint else 0.8},
           title=f"related, score {row.score:.3f}: {names}")


def related_json(g: nx.DiGraph, rows: list[RelatedPaper], prefix: str,
                 has_page: Callable[[str], bool] | None = None) -> list[dict]:
    """Related rows for the side panel, with links to the papers' and concepts' pages."""
    out = []
    for r in rows:
        row = r.to_json()
        for s, js in zip(r.shared, row["shared"]):
            linked = s.entity and s.entity in g and (has_page is None or has_page(s.entity))
            js["href"] = prefix + concept_page(s.entity) if linked else None
        out.append(row)
    return out


def _entities_of_paper(g: nx.DiGraph, pid: str) -> list[str]:
    return [v for _, v, t in g.out_edges(pid, data="type") if t in MENTION_TYPES]


def _concept_chips(b: _Builder, eids: list[str]) -> list[dict]:
    g = b.g
    return [{"name": g.nodes[e].get("name"), "type": g.nodes[e]["label"], "papers": g.nodes[e].get("papers", 0),
             "href": b.href(e)} for e in eids]


def paged_nodes(g: nx.DiGraph, budget: int = NODE_BUDGET) -> tuple[list[str], list[str]]:
    """The papers and concepts a build too large for a page per node writes pages for: the
    most connected, within ``budget`` (every concept the overview can draw among them)."""
    papers = papers_of(g)
    degree = {n: sum(1 for _, _, t in g.out_edges(n, data="type") if t in MENTION_TYPES) for n in papers}
    ents = sorted(entities_of(g), key=lambda e: (-g.nodes[e].get("papers", 0), g.nodes[e].get("name") or e))
    keep_papers = sorted(papers, key=lambda p: (-degree[p], p))[: max(budget // 2, budget - len(ents))]
    room = max(0, budget - len(keep_papers))
    if len(ents) > room:
        # Over budget, a concept of one paper is a leaf that only adds clutter, and a generic one
        # ("training", kg.concepts.specificity) a hub that says nothing: their paper pages show them.
        ents_shared = [e for e in ents if g.nodes[e].get("papers", 0) > 1 and g.nodes[e].get("level") != schema.GENERIC]
        keep_ents = ents_shared[:room]
    else:
        keep_ents = ents
    return keep_papers, keep_ents


def _papers_of_concepts(g: nx.DiGraph) -> dict[str, list[str]]:
    users: dict[str, list[str]] = {}
    for u, v, t in g.edges(data="type"):
        if t in MENTION_TYPES:
            users.setdefault(v, []).append(u)
    return users


def overview(g: nx.DiGraph, corpus: str, budget: int = NODE_BUDGET,
             has_page: Callable[[str], bool] | None = None) -> Page:
    """The overview: a labelled map of the concepts most papers name (kg.view.conceptmap), placed by
    co-occurrence, sized by papers, coloured by research theme or by the average year of their
    papers; a click opens a concept's page, which lists its papers. Its search finds the drawn
    concepts; ``overview_search`` lists everything else, which the page loads when searched."""
    from kg.analysis.topics import topics_of
    from kg.view.conceptmap import LIMIT, concept_map

    b = _Builder(g, prefix="views/", has_page=has_page)
    papers, ents = papers_of(g), entities_of(g)
    users = _papers_of_concepts(g)
    cmap = concept_map(g, users, limit=min(budget, LIMIT), has_page=has_page)
    themes = {t.id: t for t in topics_of(g)}
    theme_of = {p: t.id for t in themes.values() for p in t.papers}
    # map.html's colour order (largest theme first): the top themes have one colour on both pages.
    color_of = {tid: THEME_COLORS[i] if i < len(THEME_COLORS) else NO_THEME for i, tid in enumerate(themes)}
    years = paper_years(g)
    span = year_span(years)
    means: dict[str, float] = {}
    for s in cmap.spots:
        dated = [years[p] for p in users.get(s.id, []) if p in years]
        if dated:
            means[s.id] = sum(dated) / len(dated)
    if span is not None:
        low, high = mean_year_scale(list(means.values()), span.start, span.stop - 1)
    shown_themes: Counter = Counter()
    for s in cmap.spots:
        # A concept's theme: the one most of its papers are in (ties: the larger theme).
        counts = Counter(theme_of[p] for p in users.get(s.id, []) if p in theme_of)
        tid = min(counts, key=lambda i: (-counts[i], i)) if counts else None
        mean = means.get(s.id)
        colors = {"theme": color_of.get(tid, NO_THEME)}
        if span is not None:
            colors["year"] = year_color(mean, low, high)
        shown_themes[tid if colors["theme"] != NO_THEME else None] += 1
        b.node(s.id, value=1, label=s.label,
               info={"colors": colors, "theme": themes[tid].label if tid is not None else None,
                     "meanYear": round(mean, 1) if mean is not None and span is not None else None})
        node = b.net.nodes[-1]
        node.pop("value", None)  # sized here, by papers: the dot and the label the layout made room for
        node.update(x=s.x, y=s.y, size=s.radius, physics=False,
                    color={"background": colors["theme"], "border": darker(colors["theme"])},
                    font={"size": s.font, "color": "#1f2328", "strokeWidth": 4, "strokeColor": "#ffffff"})
    for a, c, w in cmap.links:
        b.edge(a, c, width=round(0.5 + 2.5 * w, 2), color={"color": "#8c959f", "opacity": round(0.2 + 0.5 * w, 2)})
    key = [{"color": color_of[tid], "label": themes[tid].label, "count": shown_themes[tid]}
           for tid in themes if shown_themes[tid]]
    if shown_themes[None]:
        key.append({"color": NO_THEME, "label": "other themes" if themes else "no theme",
                    "count": shown_themes[None]})
    colorings = [{"key": "theme", "name": "research theme", "legend": key}]
    if span is not None:
        year_legend = year_key(low, high)
        if len(means) < len(cmap.spots):
            year_legend.append({"color": NO_THEME, "label": "no year"})
        colorings.append({"key": "year", "name": "average year of its papers", "legend": year_legend})
    drawn = [s.id for s in cmap.spots]
    floor = g.nodes[drawn[-1]].get("papers", 0) if drawn else 0
    note = (f"The map draws the {len(drawn):,} concepts named by the most papers (each by ≥ {floor}) of "
            f"{cmap.candidates:,} specific concepts; generic ones (\u201cmodel\u201d, "
            f"\u201ctraining\u201d) are left out. Concepts named together sit together. "
            f"Search finds every paper and concept and opens its page.")
    if not drawn:
        note = (f"Nothing to draw: no specific concept {'has a page yet' if has_page is not None else 'is named by a paper'}. "
                f"Search finds every paper and concept and opens its page.")
    if has_page is not None:
        note = note.replace("Search finds every paper and concept and opens its page.",
                            "This build has pages only for some of its nodes; "
                            "`kg view --paper ID` or `kg view --concept NAME` writes any other.")
    counts = Counter(g.nodes[n]["label"] for n in papers + ents)
    subtitle = " · ".join([f"{len(papers):,} papers"]
                          + [f"{counts[t]:,} {t.lower()}s" for t in STYLES if t != schema.PAPER and counts[t]]
                          + [f"{g.number_of_edges():,} relationships"])
    legend = b.legend()
    for item in legend:
        item["total"] = counts[item["type"]]
    options = _options(len(drawn))
    options["physics"] = {"enabled": False}
    options["layout"] = {"randomSeed": 7}
    options["interaction"].update(hideEdgesOnDrag=False, hideEdgesOnZoom=False)
    return Page(kind="overview", heading=f"Concept map of {corpus}", subtitle=subtitle, corpus=corpus,
                nodes=b.net.nodes, edges=b.net.edges, options=options, legend=legend, search=b.search(),
                note=note, colorings=colorings)


def overview_search(g: nx.DiGraph, drawn: set[str], has_page: Callable[[str], bool] | None = None) -> list[dict]:
    """What the overview's search finds besides its drawn concepts: every paper and concept with a
    page, as ``{"id", "label", "href"}`` (kg.view writes it to views/lib/search.js, loaded on demand)."""
    b = _Builder(g, prefix="views/", has_page=has_page)
    out = []
    for n in papers_of(g) + entities_of(g):
        if n not in drawn and (has_page is None or has_page(n)):
            d = g.nodes[n]
            out.append({"id": n, "label": d.get("title") or d.get("name") or n, "href": b.href(n)})
    return out


def paper_view(g: nx.DiGraph, corpus: str, pid: str, related: dict[str, list[RelatedPaper]],
               has_page: Callable[[str], bool] | None = None) -> Page:
    b = _Builder(g, prefix="", has_page=has_page)
    mine = _entities_of_paper(g, pid)
    rows = related.get(pid, [])
    statements = paper_statements(b, pid, mine)
    b.node(pid, value=40, borderWidth=3, info={"concepts": _concept_chips(b, mine), "statements": statements})
    for e in mine:
        b.node(e, value=g.nodes[e].get("papers", 1))
        _mention_edge(b, pid, e)
    said: dict[tuple[str, str], list[str]] = {}  # one edge per pair of concepts, every phrase on it
    for st in statements:
        said.setdefault((st["head"]["id"], st["tail"]["id"]), []).append(st["phrase"])
    for (u, v), phrases in said.items():
        _statement_edge(b, u, v, phrases)
    mine_set = set(mine)
    for rank, row in enumerate(rows, 1):
        # The rank heads the title: the column reads as the list in the side panel.
        b.node(row.id, value=8 + 20 * row.score, label=f"{rank}. {clip(g.nodes[row.id].get('title') or row.id, 42)}")
        _related_edge(b, pid, row)
        for e in _entities_of_paper(g, row.id):
            if e in mine_set:
                _mention_edge(b, row.id, e)
    _place_paper_page(b, pid, mine, rows)
    title = g.nodes[pid].get("title") or pid
    d = g.nodes[pid]
    meta = [x for x in (", ".join(d.get("authors") or []), d.get("venue"), d.get("year") and str(d.get("year"))) if x]
    subtitle = " · ".join(meta + [f"id {pid}", f"{len(mine)} concepts", f"{len(rows)} related papers"])
    options = _options(len(b.net.nodes))
    options["physics"] = {"enabled": False}  # placed by kg.view.paperlayout
    return Page(kind="paper", heading=title, subtitle=subtitle, corpus=corpus, nodes=b.net.nodes,
                edges=b.net.edges, options=options, legend=b.legend(), search=b.search(),
                related={pid: related_json(g, rows, "", has_page)}, pages={r.id: b.href(r.id) for r in rows}, focus=pid)


def _place_paper_page(b: _Builder, pid: str, mine: list[str], rows: list[RelatedPaper]) -> None:
    """Fixed places (kg.view.paperlayout) and sizes that fit its rows; what the abstract states between
    two of its concepts, which stand in one column, is drawn as an arc beside the column."""
    from kg.view.paperlayout import ROW, layout

    g = b.g
    mine_set = set(mine)
    shares = {r.id: [e for e in _entities_of_paper(g, r.id) if e in mine_set] for r in rows}
    placed = layout(pid, mine, [r.id for r in rows], shares)
    score = {r.id: r.score for r in rows}
    biggest = ROW / 2 - 12  # a node and the label under it stay inside their row
    for node in b.net.nodes:
        at = placed.get(node["id"])
        if at is None:
            continue
        node.pop("value", None)
        if node["id"] == pid:
            size = biggest + 4
        elif node["id"] in score:
            size = 8 + (biggest - 8) * min(max(score[node["id"]], 0.0), 1.0)
        else:
            size = min(biggest, 6 + 2.5 * math.log2(1 + g.nodes[node["id"]].get("papers", 1)))
        node.update(x=at.x, y=at.y, size=round(size, 1), physics=False)
    for edge in b.net.edges:
        if edge["from"] in mine_set and edge["to"] in mine_set:
            down = placed[edge["from"]].y < placed[edge["to"]].y
            edge["smooth"] = {"enabled": True, "type": "curvedCW" if down else "curvedCCW", "roundness": 0.5}


def paper_statements(b: _Builder, pid: str, mine: list[str]) -> list[dict]:
    """What one abstract states between its concepts ("PMD used for reinforcement learning"), in
    the order of its sentences: the entity relationships among ``mine`` (the paper's concepts) that
    carry the paper among their papers, each with the sentence of this paper that states it."""
    g = b.g
    text = paper_text(g.nodes[pid])
    out = []
    for u in mine:
        for v in mine:
            for rel, d in (g.succ[u].get(v) or {}).items():
                phrases = RELATION_PHRASES.get(rel)
                ids = d.get("paper_ids") or []
                if phrases is None or pid not in ids:
                    continue
                sentences = d.get("sentences") or []
                k = ids.index(pid)
                sentence = sentences[k] if k < len(sentences) else ""
                head, tail = _concept_chips(b, [u, v])
                out.append({"head": {"id": u, **head}, "phrase": phrases[0], "tail": {"id": v, **tail},
                            "sentence": sentence})
    at = {st["sentence"]: text.find(st["sentence"]) if st["sentence"] else -1 for st in out}
    order = [pair[0] for pair in RELATION_PHRASES.values()]
    return sorted(out, key=lambda st: (at[st["sentence"]] if at[st["sentence"]] >= 0 else len(text),
                                       st["head"]["name"].lower(), st["tail"]["name"].lower(),
                                       order.index(st["phrase"])))


def _statement_edge(b: _Builder, u: str, v: str, phrases: list[str], papers: int = 1, title: str | None = None) -> None:
    """An edge between two concepts for what the abstracts state between them, labelled with it."""
    b.edge(u, v, label=", ".join(phrases), width=1 + min(papers, 5), color={"color": "#cc79a7"},
           font={"size": 10, "color": "#8a3b6b", "strokeWidth": 3}, title=title or ", ".join(phrases))


def concept_relations(b: _Builder, eid: str, max_related: int = 30, max_statements: int = 5) -> list[dict]:
    """What the abstracts state about a concept: per phrase ("used for", "evaluated on", ...), the
    other concepts (most papers first, at most ``max_related``), each with the papers stating it
    and their sentences (at most ``max_statements``), linked to their pages."""
    g = b.g
    groups: dict[str, list[dict]] = {}
    ends = [(v, d, 0) for _, v, d in g.out_edges(eid, data=True)] + [(u, d, 1) for u, _, d in g.in_edges(eid, data=True)]
    for other, d, side in ends:
        phrases = RELATION_PHRASES.get(d["type"])
        if phrases is None:
            continue
        ids, sentences = d.get("paper_ids") or [], d.get("sentences") or []
        statements = [{"id": p, "title": (g.nodes[p].get("title") or p) if p in g else p,
                       "href": b.href(p) if p in g else None, "sentence": s}
                      for p, s in list(zip(ids, sentences))[:max_statements]]
        groups.setdefault(phrases[side], []).append({
            "id": other, "name": g.nodes[other].get("name") or other, "type": g.nodes[other]["label"],
            "papers": d.get("papers", len(ids)), "score": d.get("score"), "href": b.href(other),
            "statements": statements})
    order = [ph for pair in RELATION_PHRASES.values() for ph in pair]
    out = []
    for phrase in sorted(groups, key=order.index):
        items = sorted(groups[phrase], key=lambda i: (-i["papers"], -(i["score"] or 0), i["name"].lower()))
        out.append({"phrase": phrase, "items": items[:max_related], "total": len(items)})
    return out


def concept_view(g: nx.DiGraph, corpus: str, eid: str, max_papers: int = 150, max_cooccurring: int = 30,
                 has_page: Callable[[str], bool] | None = None, years: dict[str, int] | None = None) -> Page:
    """One concept's page. ``years``: each dated paper's year (``kg.analysis.trends.paper_years``),
    read once for all the pages of a build; found here if not given."""
    b = _Builder(g, prefix="", has_page=has_page)
    users = sorted((u for u, _, t in g.in_edges(eid, data="type") if t in MENTION_TYPES),
                   key=lambda p: (-mention_edge(g, p, eid).get("mentions", 1), p))
    ents_of = {p: _entities_of_paper(g, p) for p in users}  # read once: each is used three times below
    co: Counter = Counter()
    for p in users:
        co.update(e for e in ents_of[p] if e != eid)
    top = [e for e, _ in sorted(co.items(), key=lambda kv: (-kv[1], g.nodes[kv[0]].get("name") or kv[0]))
           [:max_cooccurring]]
    shown_users = users[:max_papers]
    paper_list = [{"id": p, "title": g.nodes[p].get("title") or p} for p in users]
    chips = _concept_chips(b, top)
    for c, e in zip(chips, top):
        c["name"] = f"{c['name']} ({co[e]})"
    relations = concept_relations(b, eid, max_related=max_cooccurring)
    b.node(eid, value=40, borderWidth=3, info={"paperList": paper_list, "cooccurs": chips, "relations": relations})
    stated: dict[str, list[tuple[str, dict]]] = {}  # other concept -> its (phrase, item)s: one edge each
    for group in relations:
        for item in group["items"]:
            stated.setdefault(item["id"], []).append((group["phrase"], item))
    for other, said in stated.items():
        if other not in b.net.node_ids:
            b.node(other, value=max(i["papers"] for _, i in said))
        _statement_edge(b, eid, other, [ph for ph, _ in said], papers=max(i["papers"] for _, i in said),
                        title="; ".join(f"{ph} {i['name']} ({i['papers']} paper{'s' if i['papers'] != 1 else ''})"
                                        for ph, i in said))
    for p in shown_users:
        b.node(p, value=4 + len(ents_of[p]))
        _mention_edge(b, p, eid)
    top_set = set(top)
    for e in top:
        b.node(e, value=co[e])
    for p in shown_users:
        for e in ents_of[p]:
            if e in top_set:
                _mention_edge(b, p, e)
    d = g.nodes[eid]
    note = (f"Drawn: {len(shown_users)} of {len(users)} papers (those mentioning it most)."
            if len(users) > len(shown_users) else "")
    aliases = [a for a in d.get("aliases") or [] if a != d.get("name")]
    subtitle = " · ".join([d["label"], f"in {len(users)} paper{'s' if len(users) != 1 else ''}"]
                          + ([f"also written {', '.join(aliases[:6])}"] if aliases else []))
    return Page(kind="concept", heading=d.get("name") or eid, subtitle=subtitle, corpus=corpus, nodes=b.net.nodes,
                edges=b.net.edges, options=_options(len(b.net.nodes)), legend=b.legend(), search=b.search(),
                pages={p: b.href(p) for p in users}, focus=eid, note=note,
                timeline=concept_timeline(users, paper_years(g) if years is None else years, d["label"]))


def year_span(years: dict[str, int]) -> range | None:
    """Every year from the corpus's first to its last (gaps included), or None under two years."""
    if not years:
        return None
    first, last = min(years.values()), max(years.values())
    return range(first, last + 1) if last > first else None


def concept_timeline(users: list[str], years: dict[str, int], label: str) -> str:
    """A concept's papers per year as small SVG bars over the corpus's years ("" without two years).
    Counts, not shares: a share moves with every paper added, and `kg add` keeps unchanged pages."""
    from kg.view.timeline import year_bars

    span = year_span(years)
    if span is None:
        return ""
    counts = Counter(years[p] for p in users if p in years)
    values = [counts[y] for y in span]
    tips = [f"{y}: {n:,} paper{'s' if n != 1 else ''}" for y, n in zip(span, values)]
    undated = sum(1 for p in users if p not in years)
    return year_bars(list(span), values, tips, color=style_of(label).color, top_label=f"max {max(values):,}"
                     + (f" · {undated:,} undated" if undated else ""), label="papers per year")


MAP_THEMES = 40  # themes drawn with a label; smaller ones are pooled into one unlabelled group


def map_view(g: nx.DiGraph, corpus: str, related: dict[str, list[RelatedPaper]],
             budget: int = NODE_BUDGET, has_page: Callable[[str], bool] | None = None) -> Page:
    """The corpus map: papers grouped by research theme (``topic``), related papers close together,
    each theme labelled by its most distinctive concepts (kg.analysis.topics, kg.view.maplayout)."""
    from kg.analysis.topics import find_topics, related_graph, topics_of
    from kg.view.maplayout import layout

    b = _Builder(g, prefix="views/", has_page=has_page)
    links = related_graph(related)
    # A build stores its themes; a graph from elsewhere (an older build) gets them found here.
    themes = topics_of(g) or find_topics(g, related)
    theme_of = {p: t for t in themes for p in t.papers}
    loose = [p for p in papers_of(g) if p not in theme_of]
    groups: list[tuple[tuple[str, ...], list[str], int | None]] = [
        (t.concepts, list(t.papers), t.id) for t in themes[:MAP_THEMES]]
    rest = [p for t in themes[MAP_THEMES:] for p in t.papers] + loose
    if rest:
        groups.append(((f"{len(rest)} papers in smaller themes or unlinked",), rest, None))
    total = sum(len(ps) for _, ps, _ in groups)
    drawn_groups = []
    for concepts, papers, tid in groups:
        # Over budget, each theme keeps its share, its most linked papers first.
        keep = max(1, round(len(papers) * min(1.0, budget / max(total, 1))))
        papers = sorted(papers, key=lambda p: (-links.degree(p, weight="weight") if p in links else 0, p))[:keep]
        drawn_groups.append((concepts, papers, tid))
    label_papers = total <= 40  # a few dozen titles fit; above that the themes are what one reads
    placed = layout([(c, ps) for c, ps, _ in drawn_groups], links, pad=80.0 if label_papers else 0.0)
    drawn: set[str] = set()
    years = paper_years(g)
    span = year_span(years)  # a corpus of two years or more: the papers can be coloured by year
    for i, ((concepts, papers, tid), pl) in enumerate(zip(drawn_groups, placed)):
        color = THEME_COLORS[i % len(THEME_COLORS)] if tid is not None else NO_THEME
        label = "\n".join(pl.label_lines)
        for p in papers:
            x, y = pl.papers[p]
            mine = _entities_of_paper(g, p)
            b.node(p, value=1, label=clip(g.nodes[p].get("title") or p, 26) if label_papers else " ",
                   info={"concepts": _concept_chips(b, mine), "conceptIds": mine,
                         "topicLabel": theme_of[p].label if p in theme_of else None,
                         **({"colors": {"theme": color, "year": year_color(years.get(p), span.start, span.stop - 1)}}
                            if span is not None else {})})
            b.net.nodes[-1].update(x=round(x, 1), y=round(y, 1), physics=False, shape="dot", size=pl.dot,
                                   color={"background": color, "border": darker(color)})
            b.net.nodes[-1].pop("value", None)  # one size: the map shows themes, not degrees
            drawn.add(p)
        theme_id = f"theme:{tid if tid is not None else 'rest'}"
        b.net.nodes.append({
            "id": theme_id, "label": label, "shape": "text", "group": "Theme", "physics": False,
            "x": round(pl.label_xy[0], 1), "y": round(pl.label_xy[1], 1),
            "font": {"size": 18, "color": darker(color, 0.75), "face": "system-ui, sans-serif",
                     "strokeWidth": 5, "strokeColor": "#ffffff", "multi": False},
            "info": {"type": "Theme", "id": theme_id, "name": " · ".join(concepts), "papers": len(papers),
                     "aliases": [], "href": None,
                     "paperList": [{"id": p, "title": g.nodes[p].get("title") or p} for p in papers]},
        })
    for p in drawn:
        for row in related.get(p, [])[:2]:
            if row.id in drawn and theme_of.get(row.id) == theme_of.get(p) and row.id != p:
                _related_edge(b, p, row, faint=True)
    search = b.search()
    for s in search:
        if s["id"] in g and g.nodes[s["id"]].get("label") == schema.PAPER:
            s["terms"] = paper_terms(g, s["id"])
    note = ""
    if total > len(drawn):
        note = (f"The map draws {len(drawn):,} of {total:,} papers (budget {budget:,}): each theme's most "
                f"linked papers, in proportion to its size.")
    options = {
        "autoResize": True, "physics": {"enabled": False},
        "nodes": {"font": {"size": 12, "face": "system-ui, sans-serif", "strokeWidth": 3}},
        "edges": {"color": {"color": "#c3cad1", "highlight": "#0969da"}, "smooth": False, "width": 1,
                  "arrows": {"to": {"enabled": False}}},
        "interaction": {"hover": True, "tooltipDelay": 120, "multiselect": True,
                        "hideEdgesOnDrag": len(drawn) > 400, "hideEdgesOnZoom": len(drawn) > 400},
        "layout": {"randomSeed": 7},
    }
    n_themes = len(themes)
    subtitle = (f"{len(papers_of(g)):,} papers in {n_themes} research theme{'s' if n_themes != 1 else ''}: "
                f"communities of the related-papers graph, each named by its most distinctive concepts")
    colorings = []
    if span is not None:
        year_legend = year_key(span.start, span.stop - 1)
        if any(p not in years for p in drawn):
            year_legend.append({"color": NO_THEME, "label": "no year"})
        colorings = [{"key": "theme", "name": "research theme (named on the map)", "legend": []},
                     {"key": "year", "name": "year", "legend": year_legend}]
    return Page(kind="map", heading=f"Map of {corpus}", subtitle=subtitle, corpus=corpus, nodes=b.net.nodes,
                edges=b.net.edges, options=options, colorings=colorings,
                legend=[{"type": "Paper", "count": len(drawn)}, {"type": "Theme", "count": len(groups)}],
                search=search, related={p: related_json(g, related.get(p, []), "views/", has_page) for p in drawn},
                pages={p: b.href(p) for p in drawn}, note=note)


def paper_terms(g: nx.DiGraph, pid: str) -> list[str]:
    """What a user may remember a paper by besides its title: its concepts' names and key phrases."""
    names = [g.nodes[e].get("name") or e for e in _entities_of_paper(g, pid)]
    return sorted({*names, *(g.nodes[pid].get("key_concepts") or ())})


# What each page shows, as a digest: `kg add` keeps an earlier build's page (links the file)
# when its digest is unchanged, and writes it afresh otherwise. It covers everything
# paper_view and concept_view read from the graph, less what weighs a concept by how rare it
# is in the corpus, which a few added papers move a little everywhere: the related papers'
# scores, their order and the concepts each is said to share (the digest holds which papers
# are related, so a page is written again when a paper joins or leaves its list), and the
# paper counts of concepts. A paper's theme is not on its page (views/themes.js). Keep this in
# step with the views: tests/test_add.py compares every kept page with the page the new
# graph gives.
def page_digests(g: nx.DiGraph, corpus: str, related: dict[str, list[RelatedPaper]]) -> dict[str, str]:
    """node id -> digest of what its page shows (every paper and concept of ``g``; ``corpus``
    names the corpus on the pages)."""
    import hashlib

    import orjson

    def digest(item: object) -> str:
        return hashlib.blake2b(orjson.dumps(item), digest_size=12).hexdigest()

    # Each node as other pages show it: a paper's title, abstract and bibliography; a concept's
    # name, aliases and type.
    shown: dict[str, str] = {}
    for n, d in g.nodes(data=True):
        if d["label"] == schema.PAPER:
            shown[n] = digest((n, d.get("title"), paper_text(d), d.get("authors"), d.get("year"), d.get("venue"),
                               d.get("url")))
        else:
            shown[n] = digest((n, d.get("name"), d.get("aliases"), d["label"]))
    # Each paper's concepts, with how it mentions them (the edges' titles, the order of a
    # concept's papers); and the relationships between concepts that it states.
    mentions: dict[str, list[tuple[str, str, int]]] = {}
    stated: dict[str, list] = {}
    around: dict[str, list] = {}  # concept -> what its page lists of the relationships at it
    for u, v, rel, d in g.edges(keys=True, data=True):
        if rel in MENTION_TYPES:
            mentions.setdefault(u, []).append((v, rel, d.get("mentions", 1)))
        elif rel in RELATION_PHRASES:
            ids, sentences = d.get("paper_ids") or [], d.get("sentences") or []
            for k, p in enumerate(ids):
                stated.setdefault(p, []).append((u, v, rel, sentences[k] if k < len(sentences) else ""))
            said = [(p, shown.get(p), s) for p, s in list(zip(ids, sentences))[:5]]
            around.setdefault(u, []).append((v, 0, rel, shown[v], d.get("papers"), d.get("score"), said))
            around.setdefault(v, []).append((u, 1, rel, shown[u], d.get("papers"), d.get("score"), said))
    concepts = {p: digest([(e, shown[e]) for e, _, _ in ms]) for p, ms in mentions.items()}

    out: dict[str, str] = {}
    users: dict[str, list] = {}
    for p in papers_of(g):
        ms = mentions.get(p, [])
        count = {e: n for e, _, n in ms}
        for e, _, n in ms:
            users.setdefault(e, []).append((p, shown[p], n, concepts.get(p)))
        out[p] = digest((
            corpus, shown[p], [(e, shown[e], t, n) for e, t, n in ms], sorted(stated.get(p, ())),
            sorted((r.id, shown[r.id], [(e, n) for e, _, n in mentions.get(r.id, ()) if e in count])
                   for r in related.get(p, ())),
        ))
    # A concept's timeline spans the corpus's years: a paper of a new year redraws every one.
    span = year_span(paper_years(g))
    span_key = (span.start, span.stop) if span else None
    for e in entities_of(g):
        out[e] = digest((corpus, shown[e], sorted(users.get(e, ())), sorted(around.get(e, ()), key=repr), span_key))
    return out
