"""Case figures as plain shape lists, rendered to SVG (page, HTML) and to PDF (report).

Why not matplotlib: it is not installed in the project environment, and a figure that is a list
of shapes renders byte-identically every time in both formats with no font or backend state.
The three figures reviewers need are simple: percentile contrasts, a chip-flow graph and a
timeline of sessions together.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from xml.sax.saxutils import escape

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf", "#7f7f7f")


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str
    stroke: str | None = None


@dataclass(frozen=True, slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = "#333333"
    width: float = 1.0


@dataclass(frozen=True, slots=True)
class Circle:
    cx: float
    cy: float
    r: float
    fill: str
    stroke: str | None = None


@dataclass(frozen=True, slots=True)
class Text:
    x: float
    y: float
    text: str
    size: float = 10.0
    anchor: str = "start"  # start | middle | end
    fill: str = "#000000"


Shape = Rect | Line | Circle | Text


@dataclass(slots=True)
class Drawing:
    """A figure in points, origin top-left (SVG convention; the PDF renderer flips y)."""

    title: str
    width: float
    height: float
    shapes: list[Shape] = field(default_factory=list)


def _n(v: float) -> str:
    """Fixed, locale-free number formatting so output bytes never vary."""
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def to_svg(d: Drawing) -> str:
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(d.width)}" height="{_n(d.height)}" '
        f'viewBox="0 0 {_n(d.width)} {_n(d.height)}" font-family="Helvetica, Arial, sans-serif">',
        f"<title>{escape(d.title)}</title>",
        f'<rect x="0" y="0" width="{_n(d.width)}" height="{_n(d.height)}" fill="#ffffff"/>',
    ]
    for s in d.shapes:
        if isinstance(s, Rect):
            stroke = f' stroke="{s.stroke}"' if s.stroke else ""
            out.append(
                f'<rect x="{_n(s.x)}" y="{_n(s.y)}" width="{_n(s.w)}" height="{_n(s.h)}" fill="{s.fill}"{stroke}/>'
            )
        elif isinstance(s, Line):
            out.append(
                f'<line x1="{_n(s.x1)}" y1="{_n(s.y1)}" x2="{_n(s.x2)}" y2="{_n(s.y2)}" '
                f'stroke="{s.stroke}" stroke-width="{_n(s.width)}"/>'
            )
        elif isinstance(s, Circle):
            stroke = f' stroke="{s.stroke}"' if s.stroke else ""
            out.append(f'<circle cx="{_n(s.cx)}" cy="{_n(s.cy)}" r="{_n(s.r)}" fill="{s.fill}"{stroke}/>')
        else:
            out.append(
                f'<text x="{_n(s.x)}" y="{_n(s.y)}" font-size="{_n(s.size)}" text-anchor="{s.anchor}" '
                f'fill="{s.fill}">{escape(s.text)}</text>'
            )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.3g}"
    return str(v)


def percentile_figure(metrics: list[dict[str, Any]]) -> Drawing:
    """One track per metric on a 0-100 percentile axis: where the case sits in the population."""
    row_h, left, right = 42.0, 10.0, 430.0
    d = Drawing("Observed vs population (percentile)", 640, 40 + row_h * max(1, len(metrics)))
    d.shapes.append(Text(10, 16, "Observed behaviour vs population (percentile among scored pairs)", 11))
    for i, m in enumerate(metrics):
        y = 44 + i * row_h
        d.shapes.append(Text(left, y, str(m.get("label") or m.get("name", "?"))[:110], 9))
        bar = y + 12
        d.shapes.append(Rect(left, bar - 4, right - left, 8, "#eeeeee", "#bbbbbb"))
        for q in (5.0, 50.0, 95.0):
            x = left + (right - left) * q / 100
            d.shapes.append(Line(x, bar - 7, x, bar + 7, "#999999", 1))
            d.shapes.append(Text(x, bar + 16, f"p{int(q)}", 7, "middle", "#666666"))
        pct = m.get("percentile")
        if isinstance(pct, int | float):
            x = left + (right - left) * max(0.0, min(100.0, float(pct))) / 100
            colour = PALETTE[1] if pct >= 95 or pct <= 5 else PALETTE[0]
            d.shapes.append(Circle(x, bar, 5, colour, "#000000"))
            label = f"value {_fmt(m.get('value', ''))} at p{_fmt(float(pct))}"
            median = m.get("population_median", m.get("population_p50"))
            if median is not None:
                label += f"; population median {_fmt(median)}"
            d.shapes.append(Text(right + 10, bar + 3, label, 8, "start", colour))
    return d


def chip_flow_figure(flow: dict[tuple[str, str], int], players: list[str], fmt: Any = str) -> Drawing:
    """Players on a circle; an arrow loser -> winner per pair, thickness by amount."""
    size = 360.0
    d = Drawing("Net chip flow between case players", size + 160, size)
    d.shapes.append(Text(10, 16, "Net chip flow (loser -> winner) over hands played together", 11))
    names = sorted(set(players) | {p for pair in flow for p in pair})
    cx, cy, radius = (size + 160) / 2, size / 2 + 10, size / 2 - 60
    pos = {
        p: (cx + radius * math.cos(2 * math.pi * i / len(names) - math.pi / 2),
            cy + radius * math.sin(2 * math.pi * i / len(names) - math.pi / 2))
        for i, p in enumerate(names)
    }
    biggest = max(flow.values(), default=1) or 1
    for (a, b), v in flow.items():
        (x1, y1), (x2, y2) = pos[a], pos[b]
        length = math.hypot(x2 - x1, y2 - y1) or 1
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        sx, sy, ex, ey = x1 + ux * 22, y1 + uy * 22, x2 - ux * 24, y2 - uy * 24
        width = 1 + 6 * v / biggest
        d.shapes.append(Line(sx, sy, ex, ey, PALETTE[1], width))
        for sign in (1, -1):  # arrow head
            hx = ex - ux * 10 + sign * uy * 6
            hy = ey - uy * 10 - sign * ux * 6
            d.shapes.append(Line(ex, ey, hx, hy, PALETTE[1], width))
        d.shapes.append(Text((sx + ex) / 2, (sy + ey) / 2 - 6, fmt(v), 9, "middle", "#333333"))
    for p, (x, y) in pos.items():
        d.shapes.append(Circle(x, y, 20, "#dde8f5", PALETTE[0]))
        d.shapes.append(Text(x, y + 4, p[:14], 9, "middle"))
    if not flow:
        d.shapes.append(Text(cx, size - 10, "no net transfer between these players", 9, "middle", "#666666"))
    return d


#: sessions per table row that get their own "N hands" label in the timeline
LABELLED_SESSIONS = 30


def timeline_figure(sessions: list[dict[str, Any]]) -> Drawing:
    """Sessions played together: one row per table, one bar per session, time on x."""
    tables = sorted({s["table_name"] for s in sessions})
    row_h, left, right = 26.0, 120.0, 500.0
    d = Drawing("Sessions together", 520, 50 + row_h * max(1, len(tables)))
    d.shapes.append(Text(10, 16, "Sessions together (hands with >= 2 case players at one table)", 11))
    if not sessions:
        d.shapes.append(Text(10, 40, "no shared sessions", 9, "start", "#666666"))
        return d
    t0 = min(s["start"] for s in sessions)
    t1 = max(s["end"] for s in sessions)
    span = max((t1 - t0).total_seconds(), 60.0)

    def x_of(t: datetime) -> float:
        return float(left + (right - left) * (t - t0).total_seconds() / span)

    for i, table in enumerate(tables):
        y = 36 + i * row_h
        d.shapes.append(Text(10, y + 12, table[:18], 9))
        d.shapes.append(Line(left, y + 16, right, y + 16, "#dddddd", 1))
        mine = [s for s in sessions if s["table_name"] == table]
        for s in mine:
            x1, x2 = x_of(s["start"]), x_of(s["end"])
            d.shapes.append(Rect(x1, y + 6, max(3.0, x2 - x1), 12, PALETTE[0]))
            if len(mine) <= LABELLED_SESSIONS:  # beyond that the labels only overprint each other
                d.shapes.append(Text(x1, y + 4, f"{s['hands']} hands", 7, "start", "#333333"))
        if len(mine) > LABELLED_SESSIONS:
            d.shapes.append(Text(right, y + 4, f"{len(mine):,} sessions, {sum(s['hands'] for s in mine):,} hands",
                                 7, "end", "#333333"))
    y = 40 + row_h * len(tables)
    d.shapes.append(Text(left, y, t0.strftime("%Y-%m-%d %H:%M"), 8, "start", "#666666"))
    d.shapes.append(Text(right, y, t1.strftime("%Y-%m-%d %H:%M") + " UTC", 8, "end", "#666666"))
    return d
