"""How each node type looks: one colour and one shape per type, shared by every page.

Colours are from the Okabe-Ito palette, which stays distinguishable for
colour-blind readers; the shape says the type a second time for them and
for print. Shapes are ones vis-network scales by ``value`` (size by degree).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TypeStyle:
    color: str
    shape: str  # vis-network shape
    glyph: str  # the same shape as a character, for the legend


STYLES: dict[str, TypeStyle] = {
    "Paper": TypeStyle("#0072B2", "square", "■"),
    "Method": TypeStyle("#E69F00", "dot", "●"),
    "Task": TypeStyle("#009E73", "triangle", "▲"),
    "Dataset": TypeStyle("#CC79A7", "diamond", "◆"),
    "Metric": TypeStyle("#D55E00", "star", "★"),
}
OTHER = TypeStyle("#999999", "hexagon", "⬢")


def style_of(node_type: str) -> TypeStyle:
    return STYLES.get(node_type, OTHER)
