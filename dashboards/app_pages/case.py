"""Case: who, family, explanation, population contrasts, evidence, chip flow, sessions, decisions."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import access, auth, data, evidence, ui
from dashboards.drawing import chip_flow_figure, percentile_figure, timeline_figure, to_svg
from dashboards.observed import observed_facts, observed_metrics
from dashboards.replay import money
from dashboards.review_store import DECISIONS, PermissionDenied, ReviewStore, User


def pick_case(db: str, q: pl.DataFrame) -> str:
    """The case the address names (full id, short form or unique prefix), else the last one
    opened, else the top of the queue; the choice is written back to the address."""
    ids = q["flag_id"].to_list()
    wanted = st.query_params.get("case")
    resolved = ui.resolve_case(db, wanted)
    if wanted and resolved is None:
        st.error(f"Case {wanted} is not in this snapshot.")
        st.page_link("app_pages/queue.py", label="← Review queue")
        st.stop()
    ui.from_url("case", "case_pick", resolved)
    if st.session_state.get("case_pick") not in ids:
        st.session_state["case_pick"] = st.session_state.get("case_id") if st.session_state.get("case_id") in ids \
            else ids[0]
    labels = dict(zip(ids, (f"{ui.short_case(db, i)} · {fam} · {', '.join(ps)}" for i, fam, ps in
                            zip(ids, q["family"].to_list(), q["players"].to_list(), strict=True)), strict=True))
    case_id = str(st.selectbox("Case", ids, format_func=labels.__getitem__, key="case_pick"))
    st.session_state["case_id"] = case_id
    ui.to_url(case=ui.short_case(db, case_id))
    ui.mark_url("case", "case_pick")
    return case_id


def player_links(players: list[str]) -> None:
    """Each player to their page, and the pair (or the first two of a ring) to the pair page."""
    cols = st.columns(min(len(players), 5) + 1)
    for i, p in enumerate(players):
        cols[i % (len(cols) - 1)].page_link("app_pages/player.py", label=p, query_params={"player": p})
    if len(players) >= 2:
        cols[-1].page_link("app_pages/pair.py", label=f"{players[0]} & {players[1]}",
                           query_params={"a": players[0], "b": players[1]})


def assignment(case_id: str, store: ReviewStore, me: User) -> None:
    """Who works the case, and notes: anyone reads them, reviewers and admins write them."""
    assignee = store.statuses().get(case_id, ("open", None))[1]
    st.write(f"**Assigned to:** {assignee or 'nobody'}")
    if auth.can(me.role, "decide"):
        people = ui.reviewers()
        with st.form("assign"):
            c1, c2 = st.columns([3, 1])
            if people:
                who = c1.selectbox("Assign to", people, index=people.index(me.name) if me.name in people else 0,
                                   key="assign_to")
            else:
                who = c1.text_input("Assign to (user name or e-mail)", value=me.name, key="assign_to")
            go = c2.form_submit_button("Assign")
        if go and who:
            store.assign(case_id, str(who), me)
            st.rerun()
    st.markdown("**Notes**")
    for actor, at, text in store.notes(case_id):
        st.markdown(f"{ui.md(at[:16].replace('T', ' '))} · **{ui.md(actor)}**: {ui.md(text)}")
    if not store.notes(case_id):
        st.caption("no notes yet")
    if auth.can(me.role, "decide"):
        with st.form("note", clear_on_submit=True):
            note = st.text_area("Add a note", key="note_text")
            add = st.form_submit_button("Add note")
        if add:
            if note.strip():
                store.add_note(case_id, note.strip(), me)
                st.rerun()
            st.error("A note cannot be empty.")


user = ui.require("read")
db = ui.snapshot()
q = ui.queue(str(db))
st.title("Case")
ui.snapshot_caption(db)
if q.is_empty():
    st.info("No flags in this snapshot.")
    st.stop()
case_id = pick_case(str(db), q)
short = ui.short_case(str(db), case_id)
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
long_id = f" (id {case_id})" if short != case_id else ""
st.caption(ui.md(f"case {short}{long_id} · mode: {f['mode']} · detector {f['detector_version']}"
                 f" · hands {f.get('first_hand_at')} → {f.get('last_hand_at')} UTC"))
st.write("**Players:** " + ", ".join(ui.md(p) for p in players))
player_links(players)
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
    st.caption("Replay an evidence hand (the replayer highlights this case's players):")
    for rank, hid in enumerate(ev, 1):
        st.page_link("app_pages/hand.py", label=f"#{rank} replay {hid}", query_params={"hand": hid, "case": short})
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

st.subheader("Assignment and notes")
assignment(case_id, store, user)

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
    st.session_state[ui.RUN_ACTION] = "export"  # the page timings keep this run apart from page views
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
