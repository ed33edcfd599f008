"""Rule violations by rule, table or rulebook; house decisions counted apart from violations.

Counts come from the nightly ``dash_violations_by`` summary; each finding shows the rulebook
passage its message quotes. Dealer: the warehouse has no dealer column, so it cannot be grouped.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import ui
from dashboards.observed import split_citation

ui.require("read")
db = ui.snapshot()
st.title("Rule violations")
ui.snapshot_caption(db)
by = st.radio("Group by", ["rule", "table", "rulebook"], horizontal=True, key="viol_by")
summary = ui.violations_summary(str(db), str(by))
if summary.is_empty():
    st.info("No rule findings in this snapshot: every checked action followed its rulebook.")
    st.stop()
st.caption("violations = errors + warnings + info; house decisions are the floor's discretion, not violations. "
           "Dealer is not recorded in the hand histories, so findings cannot be grouped by dealer.")
st.dataframe(summary, hide_index=True)
rules = ui.violations_summary(str(db), "rule")["rule"].to_list()
rule = st.selectbox("Findings for rule", ["(all)", *rules], key="viol_rule")
listing = ui.violations_list(str(db), None if rule == "(all)" else str(rule))
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
