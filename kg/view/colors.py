"""The colours the map and the overview paint with: one per research theme, and a scale of years.

Both are colour-blind safe: the themes take Okabe-Ito's colours (less its yellow, unreadable on
white) and darker companions; the years a viridis scale, cut before its palest yellow (a dot
must show on white), dark purple for the first year to green-yellow for the last.
"""
from __future__ import annotations

import math

THEME_COLORS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#7A5195", "#8C6D31",
                "#3F7F5F", "#B5475D")
NO_THEME = "#8c959f"  # papers of no theme, themes past the palette on the overview, undated papers
# viridis at 0, 0.2, 0.4, 0.6, 0.8, 0.9
YEAR_STOPS = ("#440154", "#414487", "#2a788e", "#22a884", "#7ad151", "#bddf26")


def darker(color: str, f: float = 0.7) -> str:
    r, g, b = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return "#%02x%02x%02x" % (int(r * f), int(g * f), int(b * f))


def year_color(year: float | None, first: float, last: float) -> str:
    """The colour of ``year`` (a mean year may fall between two) on the scale from ``first`` to ``last``."""
    if year is None or last <= first:
        return NO_THEME
    t = min(1.0, max(0.0, (year - first) / (last - first))) * (len(YEAR_STOPS) - 1)
    i = min(int(t), len(YEAR_STOPS) - 2)
    a, b = YEAR_STOPS[i], YEAR_STOPS[i + 1]
    f = t - i
    mix = (round(int(a[k:k + 2], 16) * (1 - f) + int(b[k:k + 2], 16) * f) for k in (1, 3, 5))
    return "#%02x%02x%02x" % tuple(mix)


def year_key(first: float, last: float, steps: int = 5) -> list[dict]:
    """A legend of the year scale: a few years from ``first`` to ``last`` with their colours (whole
    years for a scale of whole years, else to a tenth: a scale of average years)."""
    whole = float(first).is_integer() and float(last).is_integer()
    span = last - first
    if span <= 0:
        years = [first]
    elif whole:
        years = sorted({round(first + span * i / (steps - 1)) for i in range(steps)})
    else:
        years = sorted({round(first + span * i / (steps - 1), 1) for i in range(steps)})
    return [{"color": year_color(y, first, last), "label": str(int(y)) if whole else f"{y:.1f}"} for y in years]


def mean_year_scale(means: list[float], first: int, last: int) -> tuple[float, float]:
    """The ends of the colour scale of average years: the range the averages span (to a tenth), as
    VOSviewer scales its overlay. An average over years mixes them toward the middle, so the
    corpus's first and last years would leave every concept a middling colour. The corpus's
    years when the averages are all one."""
    lo, hi = math.floor(min(means, default=first) * 10) / 10, math.ceil(max(means, default=last) * 10) / 10
    return (lo, hi) if hi > lo else (first, last)
