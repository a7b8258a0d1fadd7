"""Where a paper's page draws its nodes: the paper at the top, its concepts in a column on the left,
its related papers in a column on the right in rank order, so that no two labels meet.

The browser's physics, which the page used before, piled the labels of a paper's 25 nodes on top of
one another (labels are wider than the nodes the simulation keeps apart). In columns every label
has a row of its own, and the links between the columns (a related paper naming one of the paper's
concepts) cross little: each concept sits at the mean row of the related papers naming it.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

ROW = 56.0  # between two rows of a column: a node, its label under it, a gap
COLUMN_X = 280.0  # each column's distance from the middle: a 40- and a 42-character label fit side by side
TOP_GAP = 110.0  # from the paper (and its label) to the first row


@dataclass(frozen=True, slots=True)
class Placed:
    x: float
    y: float


def layout(paper: str, concepts: Iterable[str], related: Iterable[str],
           shares: Mapping[str, Iterable[str]]) -> dict[str, Placed]:
    """Positions of the page's nodes: ``concepts`` (the paper's), ``related`` (best first) and
    ``shares`` (related paper -> the paper's concepts it names). A concept no related paper names
    comes after those that are named, in the order given."""
    concepts, related = list(concepts), list(related)
    rows_of: dict[str, list[int]] = {c: [] for c in concepts}
    for rank, other in enumerate(related):
        for c in shares.get(other, ()):
            if c in rows_of:
                rows_of[c].append(rank)
    order = sorted(range(len(concepts)), key=lambda i: (not rows_of[concepts[i]],
                                                       sum(rows_of[concepts[i]]) / max(1, len(rows_of[concepts[i]])), i))
    left = [concepts[i] for i in order]
    rows = max(len(left), len(related), 1)
    top = -(rows - 1) * ROW / 2
    out = {paper: Placed(0.0, round(top - TOP_GAP, 1))}
    for x, column in ((-COLUMN_X, left), (COLUMN_X, related)):
        first = -(len(column) - 1) * ROW / 2  # each column centred on the middle row
        for i, node in enumerate(column):
            out.setdefault(node, Placed(x, round(first + i * ROW, 1)))
    return out
