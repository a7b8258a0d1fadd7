"""Small inline SVG charts of values per year, written by kg: no charting library, nothing fetched.

Bars rather than a line: a corpus spans a few years, and a bar per year reads at a glance (a gap
year is an empty slot, not an interpolated slope). Each bar carries a ``<title>``, which the
browser shows on hover.
"""
from __future__ import annotations

from html import escape

from markupsafe import Markup


def year_bars(years: list[int], values: list[float], tips: list[str], *, color: str, width: int = 220,
              height: int = 64, top_label: str = "", label: str = "") -> Markup:
    """Bars of ``values`` (one per year of ``years``, 0 allowed), each with its ``tips`` text on hover;
    the first and last years under the axis and ``top_label`` (the scale, "max 60") above it.
    ``label``: what the chart shows, for screen readers."""
    n = len(years)
    axis_h, top_h = 13, 12  # the year labels under the bars; the scale above them
    plot_h = height - axis_h - top_h
    slot = width / max(n, 1)
    bar_w = max(1.0, slot * (0.72 if n <= 12 else 0.86))
    peak = max(values, default=0) or 1
    parts = [f'<svg class="kg-bars" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(label)}">']
    baseline = top_h + plot_h
    parts.append(f'<line x1="0" y1="{baseline + 0.5}" x2="{width}" y2="{baseline + 0.5}" stroke="#d0d7de"/>')
    for i, (v, tip) in enumerate(zip(values, tips)):
        h = plot_h * v / peak
        if v > 0:
            h = max(h, 1.5)  # a year with any papers shows a sliver, not nothing
        x = i * slot + (slot - bar_w) / 2
        # The hover target is the whole slot, so a zero year has a tooltip too.
        parts.append(f'<g><title>{escape(tip)}</title>'
                     f'<rect x="{i * slot:.1f}" y="{top_h}" width="{slot:.1f}" height="{plot_h}" fill="transparent"/>'
                     f'<rect x="{x:.1f}" y="{baseline - h:.1f}" width="{bar_w:.1f}" height="{h:.1f}" '
                     f'fill="{escape(color)}"/></g>')
    font = 'font-size="10" fill="#57606a" font-family="system-ui, sans-serif"'
    if n and slot >= 30:  # room for every year under its bar
        for i, y in enumerate(years):
            parts.append(f'<text x="{(i + 0.5) * slot:.1f}" y="{height - 2}" text-anchor="middle" {font}>{y}</text>')
    elif n:  # the first and last years at the ends
        parts.append(f'<text x="0" y="{height - 2}" {font}>{years[0]}</text>')
        if n > 1:
            parts.append(f'<text x="{width}" y="{height - 2}" text-anchor="end" {font}>{years[-1]}</text>')
    if top_label:
        parts.append(f'<text x="0" y="{top_h - 3}" {font}>{escape(top_label)}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))
