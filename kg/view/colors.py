"""The colours the map and the overview paint with: one per research theme, and a scale of years.

Both are colour-blind safe: the themes take Okabe-Ito's colours (less its yellow, unreadable on
white) and darker companions; the years a viridis scale, cut before its palest yellow (a dot
must show on white), dark purple for the first year to green-yellow for the last.
"""
from __future__ import annotations

THEME_COLORS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#7A5195", "#8C6D31",
                "#3F7F5F", "#B5475D")
NO_THEME = "#8c959f"  # papers of no theme, themes past the palette on the overview, undated papers
# viridis at 0, 0.2, 0.4, 0.6, 0.8, 0.9
YEAR_STOPS = ("#440154", "#414487", "#2a788e", "#22a884", "#7ad151", "#bddf26")


def darker(color: str, f: float = 0.7) -> str:
    r, g, b = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return "#%02x%02x%02x" % (int(r * f), int(g * f), int(b * f))


def year_color(year: float | None, first: int, last: int) -> str:
    """The colour of ``year`` (a mean year may fall between two) on the scale from ``first`` to ``last``."""
    if year is None or last <= first:
        return NO_THEME
    t = min(1.0, max(0.0, (year - first) / (last - first))) * (len(YEAR_STOPS) - 1)
    i = min(int(t), len(YEAR_STOPS) - 2)
    a, b = YEAR_STOPS[i], YEAR_STOPS[i + 1]
    f = t - i
    mix = (round(int(a[k:k + 2], 16) * (1 - f) + int(b[k:k + 2], 16) * f) for k in (1, 3, 5))
    return "#%02x%02x%02x" % tuple(mix)


def year_key(first: int, last: int, steps: int = 5) -> list[dict]:
    """A legend of the year scale: a few years from ``first`` to ``last`` with their colours."""
    span = last - first
    years = sorted({round(first + span * i / (steps - 1)) for i in range(steps)}) if span > 0 else [first]
    return [{"color": year_color(y, first, last), "label": str(y)} for y in years]
