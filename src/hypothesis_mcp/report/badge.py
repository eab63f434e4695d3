"""A README badge: a flat shields-style SVG, and the shields.io endpoint JSON for the same text.

A capped grade reads `C (capped)` rather than a score, so the badge never shows a percentage that
seems to contradict its letter; the SVG title carries the reason.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape, quoteattr

from hypothesis_mcp.report.issues import cap_line, partial_line, percent
from hypothesis_mcp.results import Report

LABEL = "mcp grade"
COLORS = {"A": ("#4c1", "brightgreen"), "B": ("#97ca00", "green"), "C": ("#dfb317", "yellow"),
          "D": ("#fe7d37", "orange"), "F": ("#e05d44", "red")}
UNKNOWN_COLOR = ("#9f9f9f", "lightgrey")
# Approximate advance widths of Verdana 11px, the shields font; other characters use the defaults.
_WIDTHS = {" ": 3.9, "i": 3.1, "l": 3.1, "j": 3.4, "f": 3.9, "t": 4.3, "r": 4.7, "(": 4.5, ")": 4.5,
           ".": 3.9, ":": 4.5, "-": 4.5, "m": 10.7, "w": 9.0, "%": 11.9, "M": 9.8, "W": 11.0}


def badge_message(report: Report) -> str:
    """`B (86%)`, `C (capped)`; a partial run says so in grey, its grade not being final."""
    message = f"{report.grade} (capped)" if report.grade_cap.capped else f"{report.grade} ({percent(report.score)})"
    return f"PARTIAL {message}" if report.partial else message


def _color(report: Report) -> tuple[str, str]:
    return UNKNOWN_COLOR if report.partial else COLORS.get(report.grade, UNKNOWN_COLOR)


def render_badge_json(report: Report) -> dict[str, Any]:
    """The shields.io endpoint schema: https://shields.io/badges/endpoint-badge."""
    return {"schemaVersion": 1, "label": LABEL, "message": badge_message(report), "color": _color(report)[1]}


def render_badge_svg(report: Report) -> str:
    message = badge_message(report)
    color = _color(report)[0]
    title = f"{LABEL}: {message}"
    for line in (partial_line(report), cap_line(report.grade_cap)):
        if line:
            title += f" — {line}"
    if waived := report.waived():
        title += f" — {len(waived)} waived: " + ", ".join(f"{r.rule} on {r.tool or 'server'}" for r in waived)
    label_w, value_w = _text_width(LABEL) + 10, _text_width(message) + 10
    width = label_w + value_w
    label_x, value_x = label_w / 2, label_w + value_w / 2
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="20" role="img" '
        f'aria-label={quoteattr(f"{LABEL}: {message}")}>'
        f"<title>{escape(title)}</title>"
        '<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/>'
        '<stop offset="1" stop-opacity=".1"/></linearGradient>'
        f'<clipPath id="r"><rect width="{width}" height="20" rx="3" fill="#fff"/></clipPath>'
        f'<g clip-path="url(#r)"><rect width="{label_w}" height="20" fill="#555"/>'
        f'<rect x="{label_w}" width="{value_w}" height="20" fill="{color}"/>'
        f'<rect width="{width}" height="20" fill="url(#s)"/></g>'
        '<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" '
        'font-size="11">'
        f"{_shadowed(label_x, LABEL)}{_shadowed(value_x, message)}</g></svg>\n"
    )


def _shadowed(x: float, text: str) -> str:
    return (f'<text x="{x:g}" y="15" fill="#010101" fill-opacity=".3">{escape(text)}</text>'
            f'<text x="{x:g}" y="14">{escape(text)}</text>')


def _text_width(text: str) -> int:
    return round(sum(_WIDTHS.get(c, 7.6 if c.isupper() else 7.0 if c.isdigit() else 6.6) for c in text))
