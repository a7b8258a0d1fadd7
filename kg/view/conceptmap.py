"""The overview's concept map: which concepts it draws, where, and how big.

A term map in the manner of VOSviewer: the specific concepts named by the most papers (generic
ones, ``level == "generic"``, say nothing about a field and are left out), placed by a seeded
spring layout of their association strength (papers naming both, over what chance would give:
concepts of one line of work sit together, and hubs named with everything do not all pile up
in the middle). Everything is computed here, not by the browser's physics, so that the page
opens laid out and no two labels overlap: each concept takes a box holding its dot and its label
(font sized by papers), and overlapping boxes are pushed apart until none overlap.

A screen holds a few dozen legible labels, not hundreds: the map draws the most named concepts
whose boxes fit ``LABEL_AREA``, at most ``limit``. A corpus of 10,000 papers gets a map of the
same size as one of 1,000; its other concepts are left to the search box and their pages (a
concept's page lists what it is named with).
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import networkx as nx
import numpy as np

from kg import schema
from kg.graph import entities_of

SEED = 7
LIMIT = 80  # concepts drawn at most
MIN_DRAWN = 20  # concepts drawn even when their labels need more than LABEL_AREA
# Canvas units² the concepts' boxes may cover. With the room the layout leaves between them (the
# boxes cover about a third of the map), the map opens at about zoom 0.6 on a SCREEN-sized
# canvas (a 1280-pixel-wide window less the side panels), where the labels are 9 to 15 px.
LABEL_AREA = 520_000.0
SCREEN = (790.0, 700.0)
MIN_ZOOM = 0.55  # a map that would open smaller than this draws fewer concepts
DENSITY = 0.5  # the share the boxes cover before they are pushed apart (which spreads them)
ASPECT = 1.2  # width over height of the layout before separation: screens are wider than tall
FONT = (14.0, 24.0)  # label size of the least and the most named concept, px at zoom 1
DOT = (5.0, 20.0)  # their dot radius, likewise
# Glyph widths of the sans-serif label font, in font sizes (DejaVu Sans, the widest common one).
CHAR_WIDTH, CAPITAL, NARROW, WIDE = 0.6, 0.72, 0.34, 0.9
LABEL_CHARS = 30  # longer names are clipped on the map (the tooltip and the page have them whole)
PAD = 6.0  # between boxes
LINKS_PER_CONCEPT = 2  # co-occurrence lines drawn from each concept (its strongest)


@dataclass(frozen=True)
class Spot:
    """One concept on the map: its position (the dot's centre), dot radius and label size."""

    id: str
    x: float
    y: float
    radius: float
    font: float
    label: str


@dataclass(frozen=True)
class ConceptMap:
    spots: list[Spot]  # most named first
    links: list[tuple[str, str, float]]  # (concept, concept, association strength 0..1), strongest first
    candidates: int  # specific concepts named by a paper, drawn or not


def choose(g: nx.DiGraph, limit: int = LIMIT,
           has_page: Callable[[str], bool] | None = None) -> tuple[list[str], int]:
    """The concepts worth drawing, most named first, as many as fit LABEL_AREA; and how many
    qualified: the specific concepts (not ``generic``) any paper names. Among concepts named by
    one paper (which only a small corpus reaches), the most mentioned and most specific first."""
    ents = [e for e in entities_of(g) if g.nodes[e].get("level") != schema.GENERIC
            and g.nodes[e].get("papers", 0) > 0 and (has_page is None or has_page(e))]
    d = g.nodes
    pool = sorted(ents, key=lambda e: (-d[e].get("papers", 0), -d[e].get("mentions", 0), -d[e].get("specificity", 0),
                                       d[e].get("name") or e, e))
    top = g.nodes[pool[0]].get("papers", 1) if pool else 1
    chosen: list[str] = []
    area = 0.0
    for e in pool[:limit]:
        w, h = _box(_label(g, e), _scale(g.nodes[e].get("papers", 1), top))
        area += w * h
        if area > LABEL_AREA and len(chosen) >= MIN_DRAWN:
            break
        chosen.append(e)
    return chosen, len(pool)


def concept_map(g: nx.DiGraph, papers_of_concept: dict[str, list[str]], limit: int = LIMIT,
                has_page: Callable[[str], bool] | None = None) -> ConceptMap:
    """Choose and place the concepts; ``papers_of_concept``: each concept's papers (the mention edges).

    When the placed map would open below MIN_ZOOM on a SCREEN-sized canvas (a layout that packs
    badly: the concepts of one paper each, in a small corpus, form tight cliques), the least named
    concepts are dropped and the rest placed again."""
    chosen, candidates = choose(g, limit, has_page)
    spots: list[Spot] = []
    links: dict[tuple[str, str], float] = {}
    while chosen:
        links = cooccurrence(chosen, papers_of_concept)
        spots = _place(g, chosen, links)
        if _zoom(spots) >= MIN_ZOOM or len(chosen) <= MIN_DRAWN:
            break
        chosen = chosen[:max(MIN_DRAWN, int(len(chosen) * 0.85))]
    return ConceptMap(spots, _strongest(links, LINKS_PER_CONCEPT), candidates)


def _place(g: nx.DiGraph, chosen: list[str], links: dict[tuple[str, str], float]) -> list[Spot]:
    top = g.nodes[chosen[0]].get("papers", 1)
    labels = {e: _label(g, e) for e in chosen}
    sizes = [_scale(g.nodes[e].get("papers", 1), top) for e in chosen]
    boxes = np.array([_box(labels[e], s) for e, s in zip(chosen, sizes)])
    dots = np.array([_dot(s) for s in sizes])
    pos = _spring(chosen, links)
    # Spread the layout over the area its boxes need (a landscape), then push overlapping boxes apart.
    xy = np.array([pos[e] for e in chosen], dtype=float)
    xy -= xy.mean(axis=0)
    xy /= np.abs(xy).max(axis=0) + 1e-9
    side = math.sqrt(float((boxes[:, 0] * boxes[:, 1]).sum()) / DENSITY)
    xy *= np.array([side * math.sqrt(ASPECT), side / math.sqrt(ASPECT)]) / 2
    # A box's centre is below the dot's: vis-network draws a dot's label under it.
    offset = np.column_stack([np.zeros(len(chosen)), boxes[:, 1] / 2 - dots])
    centres = _separate(xy + offset, boxes)
    # Should the pushes not have cleared every pair, spreading the map out does, surely if slowly.
    while _overlapping(centres, boxes):
        centres = centres.mean(axis=0) + (centres - centres.mean(axis=0)) * 1.1
    xy = centres - offset
    return [Spot(e, round(float(x), 1), round(float(y), 1), round(float(r), 1), _font(s), labels[e])
            for e, (x, y), r, s in zip(chosen, xy, dots, sizes)]


def _zoom(spots: list[Spot]) -> float:
    """The zoom at which the spots' boxes fit a SCREEN-sized canvas (the browser's fit)."""
    left = min(s.x - _box_of(s.label, s.font, s.radius)[0] / 2 for s in spots)
    right = max(s.x + _box_of(s.label, s.font, s.radius)[0] / 2 for s in spots)
    top = min(s.y - s.radius for s in spots)
    bottom = max(s.y - s.radius + _box_of(s.label, s.font, s.radius)[1] for s in spots)
    return min(SCREEN[0] / max(right - left, 1.0), SCREEN[1] / max(bottom - top, 1.0))


def cooccurrence(concepts: list[str], papers_of_concept: dict[str, list[str]]) -> dict[tuple[str, str], float]:
    """(a, b) -> the association strength of two concepts named together at least once (a before b
    in ``concepts``): the papers naming both over the number chance would give, as VOSviewer
    weighs its term maps, scaled so that the strongest pair is 1."""
    order = {e: i for i, e in enumerate(concepts)}
    of_paper: dict[str, list[str]] = {}
    for e in concepts:
        for p in set(papers_of_concept.get(e, ())):
            of_paper.setdefault(p, []).append(e)
    together: Counter = Counter()
    for names in of_paper.values():
        names.sort(key=order.__getitem__)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                together[a, b] += 1
    n = {e: max(1, len(set(papers_of_concept.get(e, ())))) for e in concepts}
    total = max(1, len(of_paper))
    lift = {(a, b): c * total / (n[a] * n[b]) for (a, b), c in together.items()}
    top = max(lift.values(), default=1.0)
    return {k: v / top for k, v in lift.items()}


def _spring(concepts: list[str], links: dict[tuple[str, str], float]) -> dict[str, tuple[float, float]]:
    if len(concepts) == 1:
        return {concepts[0]: (0.0, 0.0)}
    h = nx.Graph()
    h.add_nodes_from(concepts)
    h.add_weighted_edges_from((a, b, w) for (a, b), w in links.items())
    # k: the spacing the layout aims at; a little wider than the default keeps clusters apart.
    pos = nx.spring_layout(h, seed=SEED, weight="weight", k=1.6 / math.sqrt(len(concepts)), iterations=200)
    return {e: (float(pos[e][0]), float(pos[e][1])) for e in concepts}


def _separate(centres: np.ndarray, boxes: np.ndarray, rounds: int = 3000) -> np.ndarray:
    """Move boxes (centre x, y; width, height) apart until no two overlap: each round, every
    overlapping pair is pushed apart, half each."""
    xy = centres.copy()
    n = len(xy)
    if n < 2:
        return xy
    half_w, half_h = (boxes[:, 0] + PAD) / 2, (boxes[:, 1] + PAD) / 2
    need_x = half_w[:, None] + half_w[None, :]
    need_y = half_h[:, None] + half_h[None, :]
    eye = np.eye(n, dtype=bool)
    # Boxes at one spot would not know which way to go: a fixed jitter parts them.
    xy += np.random.default_rng(SEED).normal(scale=1e-3, size=xy.shape)
    for _ in range(rounds):
        dx = xy[:, None, 0] - xy[None, :, 0]
        dy = xy[:, None, 1] - xy[None, :, 1]
        over_x, over_y = need_x - np.abs(dx), need_y - np.abs(dy)
        hit = (over_x > 0) & (over_y > 0) & ~eye
        if not hit.any():
            break
        # Apart along the line between their centres, each half the way that clears them (and a
        # hair): the map keeps the layout's shape. Horizontal moves count ASPECT times cheaper, as
        # labels are wide and screens wider than tall.
        dist = np.hypot(dx, dy) + 1e-9
        ux, uy = dx / dist, dy / dist
        way = np.minimum(over_x / (np.abs(ux) * ASPECT + 1e-9), over_y / (np.abs(uy) + 1e-9))
        way = np.where(hit, way / 2 + 0.5, 0.0)
        push_x, push_y = (way * ux).sum(axis=1), (way * uy).sum(axis=1)
        # Damped: a box overlapped by several at once would be pushed past where it clears them.
        crowd = np.sqrt(np.maximum(1, hit.sum(axis=1)))
        xy[:, 0] += push_x / crowd
        xy[:, 1] += push_y / crowd
    return xy


def _overlapping(centres: np.ndarray, boxes: np.ndarray) -> bool:
    dx = np.abs(centres[:, None, 0] - centres[None, :, 0])
    dy = np.abs(centres[:, None, 1] - centres[None, :, 1])
    hit = (dx < (boxes[:, None, 0] + boxes[None, :, 0]) / 2) & (dy < (boxes[:, None, 1] + boxes[None, :, 1]) / 2)
    np.fill_diagonal(hit, False)
    return bool(hit.any())


def overlaps(spots: list[Spot]) -> list[tuple[str, str]]:
    """Pairs of spots whose boxes (dot and label) overlap: none, in a map ``concept_map`` made."""
    boxes = []
    for s in spots:
        w, h = _box_of(s.label, s.font, s.radius)
        boxes.append((s.id, s.x, s.y - s.radius + h / 2, w, h))
    return [(a[0], b[0]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
            if abs(a[1] - b[1]) < (a[3] + b[3]) / 2 - 0.5 and abs(a[2] - b[2]) < (a[4] + b[4]) / 2 - 0.5]


def _strongest(links: dict[tuple[str, str], float], per_concept: int) -> list[tuple[str, str, float]]:
    """Each concept's ``per_concept`` strongest links (a link kept by either end), strongest first."""
    by: dict[str, list[tuple[float, str, str]]] = {}
    for (a, b), w in links.items():
        by.setdefault(a, []).append((w, a, b))
        by.setdefault(b, []).append((w, a, b))
    kept = {(a, b): w for rows in by.values()
            for w, a, b in sorted(rows, key=lambda r: (-r[0], r[1], r[2]))[:per_concept]}
    return sorted(((a, b, w) for (a, b), w in kept.items()), key=lambda t: (-t[2], t[0], t[1]))


def _scale(papers: int, top: int) -> float:
    """0..1: a concept's size on the map, by the square root of its papers (area reads as count)."""
    return math.sqrt(max(papers, 1) / max(top, 1))


def _label(g: nx.DiGraph, e: str) -> str:
    from kg.corpus.titles import clip

    return clip(g.nodes[e].get("name") or e, LABEL_CHARS)


def _font(size: float) -> float:
    return round(FONT[0] + (FONT[1] - FONT[0]) * size, 1)


def _dot(size: float) -> float:
    return DOT[0] + (DOT[1] - DOT[0]) * size


def _box(label: str, size: float) -> tuple[float, float]:
    """Width and height of a concept's dot with its label under it, in canvas units (``size``: 0..1)."""
    return _box_of(label, _font(size), _dot(size))


def _box_of(label: str, font: float, radius: float) -> tuple[float, float]:
    return max(text_width(label, font), 2 * radius), 2 * radius + 4 + font * 1.2


def text_width(text: str, font: float) -> float:
    """About how wide ``text`` is in a sans-serif font of size ``font`` (capitals and digits are
    wider than lower case, "i" and "l" narrower): generous, since an underestimate makes overlaps."""
    return font * sum(NARROW if c in "ijlt.,:;'!|()- " else WIDE if c in "mwMW" else
                      CAPITAL if c.isupper() or c.isdigit() else CHAR_WIDTH for c in text)
