"""Rule violations by rule, table or rulebook; house decisions and export inconsistencies apart.

Violations are what a player or dealer did against the book (ERROR, WARNING); house decisions
(REVIEW) are the floor's to rule; DATA findings are the site's export contradicting itself (no one
acted) and INFO the remedies applied: counted in their own columns and listed only when asked for.

Counts come from the nightly ``dash_violations_by`` summary; each finding shows the rulebook
passage its message quotes. Dealer: the warehouse has no dealer column, so it cannot be grouped.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import ui
from dashboards.observed import split_citation

#: what the listing shows: violations apart from house decisions and from the export's inconsistencies
KINDS = {
    "violations": ["error", "warning"],
    "house decisions (review)": ["review"],
    "export inconsistencies (data)": ["data"],
    "info": ["info"],
    "all": ["error", "warning", "review", "data", "info"],
}


def _split(summary: pl.DataFrame) -> pl.DataFrame:
    """The nightly summary's ``violations`` (every finding not a house decision) split into the
    violations proper (errors + warnings) and the rest (info, data)."""
    if not {"violations", "errors", "warnings"} <= set(summary.columns):
        return summary
    proper = pl.col("errors") + pl.col("warnings")
    return summary.with_columns((pl.col("violations") - proper).alias("info + data"), proper.alias("violations"))


ui.require("read")
db = ui.snapshot()
st.title("Rule violations")
ui.snapshot_caption(db)
by = st.radio("Group by", ["rule", "table", "rulebook"], horizontal=True, key="viol_by")
summary = ui.violations_summary(str(db), str(by))
if summary.is_empty():
    st.info("No rule findings in this snapshot: every checked action followed its rulebook.")
    st.stop()
st.caption("violations = errors + warnings; house decisions are the floor's to rule (REVIEW), not violations; "
           "info + data = remedies applied and the export's own inconsistencies (no player acted). "
           "Dealer is not recorded in the hand histories, so findings cannot be grouped by dealer.")
st.dataframe(_split(summary), hide_index=True)
rules = ui.violations_summary(str(db), "rule")["rule"].to_list()
rule = st.selectbox("Findings for rule", ["(all)", *rules], key="viol_rule")
kind = st.radio("Show", list(KINDS), horizontal=True, key="viol_kind")
listing = ui.violations_list(str(db), None if rule == "(all)" else str(rule))
if not listing.is_empty():
    listing = listing.filter(pl.col("severity").is_in(KINDS[str(kind)]))
if not listing.is_empty():
    parts = [split_citation(m) for m in listing["message"].to_list()]
    shown = listing.with_columns(
        pl.Series("finding", [p[0] for p in parts], dtype=pl.String),
        pl.Series("rulebook passage", [f"«{p[2]}» ({p[1]})" if p[2] else "" for p in parts], dtype=pl.String),
    ).select("hand_id", "action_seq", "player", "table_name", "started_at", "rule_id", "rulebook", "severity",
             "house_decision", "expected", "actual", "finding", "rulebook passage")
    st.caption(f"{listing.height} findings shown (at most 500), ordered by rule, hand and action")
    st.dataframe(shown, hide_index=True)
    pick = st.selectbox("Replay hand", listing["hand_id"].unique(maintain_order=True).to_list(), key="viol_hand")
    first = listing.filter(pl.col("hand_id") == pick).row(0, named=True)
    ui.finding_box(first, f"{pick} #{first['action_seq']}: ")
    if st.button("Replay", key="viol_replay"):
        st.session_state["hand_id"] = pick
        st.switch_page("app_pages/hand.py")
