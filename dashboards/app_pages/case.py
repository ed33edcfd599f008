"""Case: who, family, explanation, population contrasts, evidence, chip flow, sessions, decisions."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import access, auth, data, evidence, ui
from dashboards.drawing import chip_flow_figure, percentile_figure, timeline_figure, to_svg
from dashboards.observed import observed_facts, observed_metrics
from dashboards.replay import money
from dashboards.review_store import DECISIONS, PermissionDenied

user = ui.require("read")
db = ui.snapshot()
q = ui.queue(str(db))
st.title("Case")
ui.snapshot_caption(db)
if q.is_empty():
    st.info("No flags in this snapshot.")
    st.stop()
ids = q["flag_id"].to_list()
wanted = st.session_state.get("case_id") or st.query_params.get("case")
case_id = st.selectbox("Case", ids, index=ids.index(wanted) if wanted in ids else 0, key="case_pick")
st.session_state["case_id"] = case_id
f = ui.flag(str(db), case_id)
if f is None:
    st.error(f"Case {case_id} is not in this snapshot.")
    st.stop()
store = ui.store()
access.log_view(store, user, case_id, st.session_state)
players = list(f.get("players") or [])

c1, c2, c3, c4 = st.columns(4)
c1.metric("Score", f"{f['score']:.2f}")
c2.metric("Severity", str(f["severity"]))
c3.metric("Family", str(f["family"]))
c4.metric("Status", store.status(case_id))
st.write("**Players:** " + ", ".join(players) + f"  ·  mode: {f['mode']}  ·  detector {f['detector_version']}"
         + f"  ·  hands {f.get('first_hand_at')} → {f.get('last_hand_at')} UTC")
st.subheader("Explanation")
st.write(f.get("explanation") or "")
st.write(f"**Benign explanation considered:** {f.get('benign_explanation') or ''}")
st.write(f"**What would overturn it:** {f.get('overturn') or ''}")

metrics = observed_metrics(f.get("observed"), players)
facts = observed_facts(f.get("observed"))
st.subheader("Against the population")
if facts:
    st.write("  ·  ".join(f"**{k}:** {v}" for k, v in facts.items()))
if metrics:
    st.caption("Each bar: where this pair sits among all scored pairs (percentile); red beyond p5/p95.")
    st.image(to_svg(percentile_figure(metrics)))
    with st.expander("Metric values"):
        st.dataframe(pl.DataFrame(metrics).drop("name"), hide_index=True)
else:
    st.caption("The detector recorded no population metrics for this flag.")

st.subheader("Evidence hands (ranked)")
ev = list(f.get("evidence_hands") or [])
rows = ui.hand_rows(str(db), tuple(ev), ("hands", "violations"))
hands = rows["hands"]
viol = rows.get("violations")
if not hands.is_empty():
    n_find = (viol.group_by("hand_id").len().rename({"len": "findings"}) if viol is not None and not viol.is_empty()
              else pl.DataFrame(schema={"hand_id": pl.String, "findings": pl.UInt32}))
    st.dataframe(
        hands.select("hand_id", "table_name", "started_at", "n_players")
        .with_columns(pl.col("hand_id").map_elements(lambda h: ev.index(h) + 1, return_dtype=pl.Int64).alias("rank"))
        .join(n_find, on="hand_id", how="left").with_columns(pl.col("findings").fill_null(0))
        .sort("rank").select("rank", "hand_id", "table_name", "started_at", "n_players", "findings"),
        hide_index=True,
    )
    pick = st.selectbox("Replay hand", ev, key="case_hand_pick")
    if st.button("Replay", key="replay_hand"):
        st.session_state["hand_id"] = pick
        st.switch_page("app_pages/hand.py")
if viol is not None and not viol.is_empty():
    st.subheader("Rule findings on the evidence hands")
    for v in viol.iter_rows(named=True):
        ui.finding_box(v, f"{v['hand_id']} #{v['action_seq']}: " if v.get("action_seq") is not None
                       else f"{v['hand_id']}: ")

shared = ui.shared_hands(str(db), tuple(players))
ref = hands.row(0, named=True) if not hands.is_empty() else {"unit_scale": 1, "currency": ""}


def fmt(v: int) -> str:
    return money(int(v), ref)

col_a, col_b = st.columns(2)
with col_a:
    st.subheader("Chip flow")
    st.image(to_svg(chip_flow_figure(data.chip_flow(shared, players), players, fmt)))
with col_b:
    st.subheader("Sessions together")
    sess = data.sessions(shared)
    st.image(to_svg(timeline_figure(sess.to_dicts())))
    st.dataframe(sess, hide_index=True)

st.subheader("Decision")
history = store.decisions(case_id)
if history:
    st.dataframe(
        pl.DataFrame([{"at": d.at, "actor": d.actor, "decision": d.decision, "reason": d.reason} for d in history]),
        hide_index=True,
    )
if auth.can(user.role, "decide"):
    with st.form("decide"):
        decision = st.radio("Decision", DECISIONS, horizontal=True, key="decision")
        reason = st.text_area("Reason (required)", key="reason")
        submitted = st.form_submit_button("Record decision")
    if submitted:
        try:
            store.decide(case_id, str(decision), reason, user)
        except (ValueError, PermissionDenied) as exc:
            st.error(str(exc))
        else:
            st.success(f"Recorded: {decision}")
            st.rerun()
else:
    st.info("Viewers can read cases but cannot record decisions.")

st.subheader("Evidence export")
export_roles = ui.config().export_roles
if not access.may_export(user, export_roles):
    st.info(f"Evidence export is limited to: {', '.join(export_roles)}.")
elif st.button("Build evidence export", key="build_export"):
    try:
        blob = access.export_case(user, db, case_id, store, ui.config().source_root, export_roles)
    except evidence.EvidenceError as exc:
        st.error(f"Cannot build a faithful export: {exc}")
    except PermissionDenied as exc:
        st.error(str(exc))
    else:
        st.session_state["export"] = (case_id, blob)
exp = st.session_state.get("export")
if exp and exp[0] == case_id and access.may_export(user, export_roles):
    st.download_button(
        "Download evidence zip", exp[1], file_name=f"evidence-{case_id}.zip", mime="application/zip",
        key="download_export",
    )

with st.expander("Audit log for this case"):
    log = store.audit_log(case_id)
    if log:
        st.dataframe(pl.DataFrame(log), hide_index=True)
    else:
        st.caption("empty")
    reads = store.access_log(case_id)
    if reads:
        st.caption("Views and exports (access log)")
        st.dataframe(pl.DataFrame(reads), hide_index=True)
