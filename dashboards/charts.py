"""The case and pair figures as interactive Altair charts for the dashboard (tooltips, zoom, pan).

Why beside ``drawing``: a reviewer wants to hover a session or a metric and zoom into a night,
which a static picture cannot do; the evidence export keeps ``drawing``'s deterministic SVG/PDF,
because a bundle must rebuild byte-identically. Both are built from the same rows, so the page
and the export show the same figures. Text is set at 13 px and up so it reads on a laptop screen.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import altair as alt
import polars as pl

#: smallest text on a chart (axis labels, titles), in pixels
FONT = 13


#: what the builders return (Altair's configured top-level charts)
Figure = alt.Chart | alt.LayerChart | alt.FacetChart


def _style(chart: Figure) -> Figure:
    """Readable text sizes on every axis and title."""
    return cast(Figure, chart.configure_axis(labelFontSize=FONT, titleFontSize=FONT).configure_title(fontSize=FONT + 2))


def percentile_chart(metrics: list[dict[str, Any]]) -> Figure:
    """Where the case sits among the scored pairs, one row per metric: red beyond p5 / p95."""
    rows = [{"metric": str(m.get("label") or m.get("name", "?")), "percentile": float(m["percentile"]),
             "value": str(m.get("value", "")), "population median": str(m.get("population_median", "")),
             "outside": "beyond p5/p95" if m["percentile"] >= 95 or m["percentile"] <= 5 else "within"}
            for m in metrics if isinstance(m.get("percentile"), int | float)]
    data = pl.DataFrame(rows, schema={"metric": pl.String, "percentile": pl.Float64, "value": pl.String,
                                      "population median": pl.String, "outside": pl.String})
    y = alt.Y("metric:N", title=None, sort=None, axis=alt.Axis(labelLimit=420))
    band = alt.Chart(pl.DataFrame({"lo": [5.0], "hi": [95.0]})).mark_rect(color="#eeeeee").encode(
        x=alt.X("lo:Q", scale=alt.Scale(domain=[0, 100]), title="percentile among scored pairs"), x2="hi:Q")
    points = alt.Chart(data).mark_circle(size=140, stroke="black").encode(
        x=alt.X("percentile:Q", scale=alt.Scale(domain=[0, 100])), y=y,
        color=alt.Color("outside:N", scale=alt.Scale(domain=["within", "beyond p5/p95"],
                                                     range=["#1f77b4", "#d62728"]), title=None),
        tooltip=["metric", "value", alt.Tooltip("percentile:Q", format=".1f"), "population median"],
    )
    return _style(alt.layer(band, points).properties(title="Observed behaviour vs population",
                                                     height=max(60, 34 * len(rows))).interactive())


def flow_chart(flow: dict[tuple[str, str], int], fmt: Callable[[int], str]) -> Figure:
    """Net chip flow per pair of case players, one bar per direction (loser -> winner)."""
    rows = [{"from": a, "to": b, "transfer": f"{a} → {b}", "amount": int(v), "shown": fmt(int(v))}
            for (a, b), v in sorted(flow.items(), key=lambda kv: -kv[1])]
    data = pl.DataFrame(rows, schema={"from": pl.String, "to": pl.String, "transfer": pl.String,
                                      "amount": pl.Int64, "shown": pl.String})
    bars = alt.Chart(data).mark_bar(color="#d62728").encode(
        x=alt.X("amount:Q", title="net transfer (smallest unit)"),
        y=alt.Y("transfer:N", sort=None, title=None, axis=alt.Axis(labelLimit=360)),
        tooltip=["from", "to", alt.Tooltip("shown:N", title="net")],
    )
    return _style(bars.properties(title="Net chip flow (loser → winner)", height=max(60, 34 * len(rows))))


def timeline_chart(sessions: list[dict[str, Any]]) -> Figure:
    """Sessions played together: a bar per session on its table's row; zoom and pan along time."""
    data = pl.DataFrame(sessions).select("table_name", "start", "end", *(
        c for c in ("hands",) if sessions and c in sessions[0])) if sessions else pl.DataFrame(
        schema={"table_name": pl.String, "start": pl.Datetime, "end": pl.Datetime})
    tooltip = ["table_name", alt.Tooltip("start:T", format="%Y-%m-%d %H:%M"),
               alt.Tooltip("end:T", format="%Y-%m-%d %H:%M"), *(["hands"] if "hands" in data.columns else [])]
    bars = alt.Chart(data).mark_bar(height=14).encode(
        x=alt.X("start:T", title="time (UTC)"), x2="end:T", y=alt.Y("table_name:N", title=None),
        tooltip=tooltip,
    )
    return _style(bars.properties(title="Sessions together", height=max(60, 30 * data["table_name"].n_unique()))
                  .interactive(bind_y=False))
