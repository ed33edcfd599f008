"""Audit runs: nightly reports and their checks."""

from __future__ import annotations

import json

import streamlit as st

from dashboards import ui

ui.require("read")
db = ui.snapshot()
st.title("Audit runs")
ui.snapshot_caption(db)
reports = ui.run_reports(str(db))
if reports.is_empty():
    st.info("No run reports in this snapshot.")
    st.stop()
st.dataframe(reports.drop([c for c in ("report", "checks") if c in reports.columns]), hide_index=True)
for r in reports.iter_rows(named=True):
    checks = json.loads(r.get("checks") or "[]")
    failed = [c for c in checks if not c.get("passed")]
    label = f"{r['run_id']} · {len(checks) - len(failed)}/{len(checks)} checks passed"
    with st.expander(label, expanded=bool(failed)):
        for c in checks:
            (st.success if c.get("passed") else st.error)(f"{c.get('name')}: {c.get('detail')}")
