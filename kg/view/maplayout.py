"""Where the map puts each paper and theme label: themes as discs packed in rows, related papers
close together inside each disc.

Computed here rather than by the browser's physics so that labels never overlap: each theme
gets a box as wide as its disc or its label, whichever is wider, boxes are packed in rows
(largest theme first), the label sits above its disc, and inside a disc the papers are placed
by a seeded spring layout of their related-paper links (strong links pull closer; papers drawn
with their titles go evenly round a circle in that layout's order). The whole
map is scaled to about one screen of canvas units, so that it is read at zoom 1, where label
font sizes are what they say.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import networkx as nx

SEED = 7
TARGET_AREA = 800.0 * 700.0  # canvas units the papers' discs share: about one screen at zoom 1
LABEL_FONT = 18  # px at zoom 1
LINE_CHARS = 24  # a label wraps at concept boundaries beyond this many characters
CHAR_WIDTH = 0.58  # average glyph width of the sans-serif label font, in font sizes
GAP = 28.0  # between boxes
MAX_EXTENT = 900.0  # the map's width and height at most, in canvas units (about zoom 1)


@dataclass(frozen=True)
class Placed:
    """A theme's place on the map: its label's lines and centre, and each paper's position."""

    label_lines: tuple[str, ...]
    label_xy: tuple[float, float]
    centre: tuple[float, float]
    radius: float
    dot: float  # the papers' radius: a fraction of their spacing, so that neighbours do not overlap
    papers: dict[str, tuple[float, float]]


def wrap(concepts: tuple[str, ...], width: int = LINE_CHARS) -> tuple[str, ...]:
    """Concept names joined by " · ", broken into lines at concept boundaries."""
    lines: list[str] = []
    for c in concepts:
        if lines and len(lines[-1]) + 3 + len(c) <= width:
            lines[-1] += " · " + c
        else:
            lines.append(c)
    return tuple(lines)


def layout(groups: list[tuple[tuple[str, ...], list[str]]], links: nx.Graph, pad: float = 0.0) -> list[Placed]:
    """Place ``groups`` (label concepts, paper ids), given the related-paper graph ``links``; ``pad``
    widens each box on both sides (room for the papers' own labels).

    The discs shrink until the whole map fits in MAX_EXTENT units, so that the browser's fit shows
    it at about zoom 1, where theme labels are LABEL_FONT pixels: legible at the first zoom."""
    n = sum(len(ps) for _, ps in groups) or 1
    # Each paper gets about the same area; small corpora are not blown up past readable spacing.
    unit = min(70.0, max(6.0, math.sqrt(TARGET_AREA / (math.pi * n))))
    # Papers drawn with their titles (``pad``) need room for them more than the map needs zoom 1.
    floor = 40.0 if pad else 6.0
    for _ in range(12):
        boxes, width, height = _pack(groups, unit, pad)
        if max(width, height) <= MAX_EXTENT or unit <= floor:
            break
        unit = max(floor, unit * 0.85)
    dot = min(7.0, unit * 0.4)
    return [Placed(lines, (x + w / 2, y + label_h / 2), (x + w / 2, y + label_h + 8 + r), r, dot,
                   _inside(papers, links, x + w / 2, y + label_h + 8 + r, r, even=pad > 0))
            for x, y, w, r, lines, label_h, papers in boxes]


def _pack(groups, unit: float, pad: float):
    """Boxes (x, y, width, disc radius, label lines, label height, papers) in rows, and the extent."""
    boxes = []
    for concepts, papers in groups:
        r = unit * math.sqrt(len(papers)) * 1.15
        lines = wrap(concepts)
        label_w = max((len(s) for s in lines), default=0) * LABEL_FONT * CHAR_WIDTH
        label_h = len(lines) * LABEL_FONT * 1.25
        boxes.append((max(2 * r + 2 * pad, label_w), 2 * r + label_h + 8 + pad / 3, r, lines, label_h, papers))
    # Rows about as wide as the map is tall: the canvas between the side panels is near square.
    # (rows leave gaps at their ends, hence wider than the square root of the boxes' area).
    row_width = max(max(b[0] for b in boxes), 1.3 * math.sqrt(sum((b[0] + GAP) * (b[1] + GAP) for b in boxes)))
    out, x, y, row_h, width = [], 0.0, 0.0, 0.0, 0.0
    for w, h, r, lines, label_h, papers in boxes:
        if x > 0 and x + w > row_width:
            x, y, row_h = 0.0, y + row_h + GAP, 0.0
        out.append((x, y, w, r, lines, label_h, papers))
        x += w + GAP
        width = max(width, x - GAP)
        row_h = max(row_h, h)
    return out, width, y + row_h


def _inside(papers: list[str], links: nx.Graph, cx: float, cy: float, r: float,
            even: bool = False) -> dict[str, tuple[float, float]]:
    """Positions of a theme's papers in its disc; ``even``: on a circle, evenly spaced, in the
    spring layout's angular order (titled papers need the room more than exact distances)."""
    if len(papers) == 1:
        return {papers[0]: (cx, cy)}
    sub = nx.Graph()
    sub.add_nodes_from(papers)  # a paper with no related paper is placed all the same
    sub.add_edges_from(links.subgraph(papers).edges(data=True))
    pos = nx.spring_layout(sub, seed=SEED, weight="weight", k=1.2 / math.sqrt(len(papers)), iterations=80)
    if even:
        order = sorted(papers, key=lambda p: (math.atan2(pos[p][1], pos[p][0]), p))
        step = 2 * math.pi / len(order)
        return {p: (cx + r * 0.85 * math.cos(i * step - math.pi / 2), cy + r * 0.85 * math.sin(i * step - math.pi / 2))
                for i, p in enumerate(order)}
    far = max(math.hypot(x, y) for x, y in pos.values()) or 1.0
    s = (r * 0.9) / far
    return {p: (float(cx + pos[p][0] * s), float(cy + pos[p][1] * s)) for p in papers}
