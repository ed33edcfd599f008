"""Rule violations by rule, table or rulebook; house decisions counted apart from violations."""

from __future__ import annotations

import streamlit as st

from dashboards import ui

ui.require("read")
db = ui.snapshot()
st.title("Rule violations")
ui.snapshot_caption(db)
by = st.radio("Group by", ["rule", "table", "rulebook"], horizontal=True, key="viol_by")
summary = ui.violations_summary(str(db), str(by))
if summary.is_empty():
    st.info("No rule findings in this snapshot.")
    st.stop()
st.dataframe(summary, hide_index=True)
rules = ui.violations_summary(str(db), "rule")["rule"].to_list()
rule = st.selectbox("Findings for rule", ["(all)", *rules], key="viol_rule")
listing = ui.violations_list(str(db), None if rule == "(all)" else str(rule))
st.dataframe(listing, hide_index=True)
if not listing.is_empty():
    pick = st.selectbox("Replay hand", listing["hand_id"].unique(maintain_order=True).to_list(), key="viol_hand")
    if st.button("Replay", key="viol_replay"):
        st.session_state["hand_id"] = pick
        st.switch_page("app_pages/hand.py")
