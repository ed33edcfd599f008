"""Case: who, family, explanation, population contrasts, evidence, chip flow, sessions, decisions."""

from __future__ import annotations

from typing import Any

import polars as pl
import streamlit as st

from dashboards import access, auth, evidence, ui
from dashboards.charts import flow_chart, percentile_chart, timeline_chart
from dashboards.observed import observed_facts, observed_metrics
from dashboards.replay import money
from dashboards.review_store import DECISIONS, PermissionDenied, ReviewStore, User
from dashboards.why import case_direction, directed_explanation, evidence_with_families, ordered, why_hand

#: evidence hands listed on the page (the lead flag's first; each costs a located read of four tables)
EVIDENCE_SHOWN = 10


def pick_case(db: str, q: pl.DataFrame) -> str:
    """The case the address names (case id, any of its flags' ids, short form or unique prefix),
    else the last one opened, else the top of the queue; the choice is written back to the address."""
    ids = q["case_id"].to_list()
    wanted = st.query_params.get("case")
    resolved = ui.resolve_case(db, wanted)
    if wanted and resolved is None:
        st.error(f"Case {wanted} is not in this snapshot.")
        st.page_link("app_pages/queue.py", label="← Review queue")
        st.stop()
    ui.from_url("case", "case_pick", resolved)
    if st.session_state.get("case_pick") not in ids:
        remembered = ui.case_of(db).get(str(st.session_state.get("case_id")))
        st.session_state["case_pick"] = remembered if remembered in ids else ids[0]
    labels = dict(zip(ids, (f"{ui.short_case(db, i)} · {' + '.join(fam)} · {', '.join(ps)}" for i, fam, ps in
                            zip(ids, q["families"].to_list(), q["players"].to_list(), strict=True)), strict=True))
    case_id = str(st.selectbox("Case", ids, format_func=labels.__getitem__, key="case_pick"))
    st.session_state["case_id"] = case_id
    ui.to_url(case=ui.short_case(db, case_id))
    ui.mark_url("case", "case_pick")
    return case_id


def followed_flag(members: list[dict[str, Any]], lead: str) -> dict[str, Any] | None:
    """The member flag the address names (``?flag=``: a player page's flag list links each flag to
    its case) when it is not the flag heading the page, so a reviewer who followed a pair's flag
    into the ring around it is told where that flag is; a flag of another case is dropped from
    the address."""
    wanted = st.query_params.get("flag")
    if not wanted:
        return None
    match = next((m for m in members if str(m["flag_id"]).lower() == wanted.lower()), None)
    if match is None:
        del st.query_params["flag"]
        return None
    return None if match["flag_id"] == lead else match


def followed_note(m: dict[str, Any], lead: dict[str, Any], n_flags: int) -> str:
    """Where the followed flag is: which case it joined and which flag heads the page."""
    return (f"You followed flag {m['flag_id']} ({m['family']}, {m['mode']}: {', '.join(m['players'])}). "
            f"It is one of this case's {n_flags} flags, listed under 'Flags combined in this case'; the page "
            f"is headed by the strongest, {lead['flag_id']} ({lead['family']}: {', '.join(lead['players'])}). "
            f"The followed flag says: {m.get('explanation') or ''}")


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
q = ui.cases(str(db))
st.title("Case")
ui.snapshot_caption(db)
if q.is_empty():
    st.info("No flags in this snapshot.")
    st.stop()
case_id = pick_case(str(db), q)
short = ui.short_case(str(db), case_id)
case = q.filter(pl.col("case_id") == case_id).row(0, named=True)
f = ui.flag(str(db), str(case["lead"]))  # the strongest flag's explanation heads the page
if f is None:
    st.error(f"Case {case_id} is not in this snapshot.")
    st.stop()
store = ui.store()
access.log_view(store, user, case_id, st.session_state)
status, _ = ui.case_status(str(db), case_id, store.records())
members = [m for m in (ui.flag(str(db), fid) for fid in case["flags"]) if m is not None]
players = list(case["players"] or [])
flag_players = list(f.get("players") or [])
followed = followed_flag(members, str(f["flag_id"]))
if followed is not None:
    st.info(ui.md(followed_note(followed, f, len(members))))

c1, c2, c3, c4, c5 = st.columns(5)
c1.metric("Score", f"{case['score']:.2f}", help="the highest score among the case's flags")
c2.metric("Evidence z", f"{case['strength']:.1f}", help="robust z of the strongest flag's evidence in this room")
c3.metric("Severity", str(case["severity"]))
c4.metric("Families", " + ".join(case["families"]))
c5.metric("Status", status)
long_id = f" (id {case_id})" if short != case_id else ""
st.caption(ui.md(f"case {short}{long_id} · queue rank {case['rank']} · {case['n_flags']} flags · "
                 f"mode: {', '.join(case['modes'])} · detector {f['detector_version']}"
                 f" · hands {case.get('first_hand_at')} → {case.get('last_hand_at')} UTC"))
st.write("**Players:** " + ", ".join(ui.md(p) for p in players))
player_links(players)

# chip flow and sessions are computed in the snapshot: a case's players can share 100k+ hands
flow_all, sess = ui.group_figures(str(db), tuple(players))
same = sorted(set(flag_players)) == sorted(set(players))
flow_pair = flow_all if same else ui.group_figures(str(db), tuple(flag_players))[0]
direction = case_direction(flow_pair, flag_players)

st.subheader("Explanation")
text, turned = directed_explanation(str(f["family"]), str(f.get("explanation") or ""), flag_players, direction)
st.write(text)
if turned:
    st.caption("Players named the way the chips went between them over their shared hands (the stored text "
               "names the pair in key order).")
st.write(f"**Benign explanation considered:** {f.get('benign_explanation') or ''}")
st.write(f"**What would overturn it:** {f.get('overturn') or ''}")
if len(members) > 1:
    st.markdown("**Flags combined in this case**")
    st.dataframe(
        pl.DataFrame([{"flag_id": m["flag_id"], "family": m["family"], "mode": m["mode"],
                       "players": ", ".join(m["players"]), "score": round(float(m["score"]), 4),
                       "severity": m["severity"], "explanation": m["explanation"]} for m in members]),
        hide_index=True, width="stretch",
    )

metrics = observed_metrics(f.get("observed"), flag_players)
facts = observed_facts(f.get("observed"))
st.subheader("Against the population")
if facts:
    st.write("  ·  ".join(f"**{k}:** {v}" for k, v in facts.items()))
if metrics:
    st.caption("Each bar: where this pair sits among all scored pairs (percentile); red beyond p5/p95.")
    st.altair_chart(percentile_chart(metrics), width="stretch")
    with st.expander("Metric values"):
        st.dataframe(pl.DataFrame(metrics).drop("name"), hide_index=True)
else:
    st.caption("The detector recorded no population metrics for this flag.")

st.subheader("Evidence hands (ranked)")
# the lead flag's evidence first, then the other flags' hands not yet listed, each with its flag and
# the family it was picked for (a pair's lead flag pools every family's hands; before detectors
# 1.11 a flag did not record it, and its own family stands in)
ev_of: dict[str, dict[str, object]] = {}
fam_picked: dict[str, str] = {}
for m in [f, *(m for m in members if m["flag_id"] != f["flag_id"])]:
    for h, fam in evidence_with_families(m):
        if h not in ev_of:
            ev_of[h], fam_picked[h] = m, fam
ev = list(ev_of)[:EVIDENCE_SHOWN]
needs_cards = any(fam_picked[h] == "card_sharing" for h in ev)  # only its line shows hole cards
rows = ui.hand_rows(str(db), tuple(ev), ("hands", "actions", "awards", *(("hole_cards",) if needs_cards else ()),
                                         "violations"))
hands = rows["hands"]
viol = rows.get("violations")
if not hands.is_empty():
    refs = {r["hand_id"]: r for r in hands.iter_rows(named=True)}
    whys = []
    for h in ev:
        if h not in refs:
            continue
        m = ev_of[h]
        mp = [str(p) for p in m.get("players") or []]  # type: ignore[attr-defined]

        def fmt_hand(v: int, r: dict[str, object] = refs[h]) -> str:
            return money(int(v), r)

        whys.append((why_hand(fam_picked[h], mp, rows, h, fmt_hand,
                              direction if mp[:2] == flag_players[:2] else None), fam_picked[h]))
    order = ordered([w for w, _ in whys])
    fam_of = {w.hand_id: fam for w, fam in whys}
    n_find = dict(viol.group_by("hand_id").len().iter_rows()) if viol is not None and not viol.is_empty() else {}
    shorts = short
    table = pl.DataFrame([
        {"rank": i, "hand": f"hand?hand={w.hand_id}&case={shorts}", "family": fam_of[w.hand_id],
         "why this hand": w.line, "table": refs[w.hand_id]["table_name"],
         "started_at": refs[w.hand_id]["started_at"], "findings": n_find.get(w.hand_id, 0)}
        for i, w in enumerate(order, 1)
    ])
    against = sum(not w.consistent for w in order)
    if against:
        st.warning(f"{against} of {len(order)} evidence hands moved money against the case's direction "
                   f"({direction[0] if direction else '?'} → {direction[1] if direction else '?'}); "
                   "they are listed last.")
    st.dataframe(table, hide_index=True, width="stretch", column_config={
        "hand": st.column_config.LinkColumn("hand", display_text=r"hand=([^&]*)", help="replay the hand"),
        "why this hand": st.column_config.TextColumn("why this hand", width="large"),
    })
    for i, w in enumerate(order, 1):
        st.markdown(f"**#{i}** {ui.md(w.line)}")
    st.caption("Replay an evidence hand (the replayer highlights this case's players):")
    for i, w in enumerate(order, 1):
        st.page_link("app_pages/hand.py", label=f"#{i} replay {w.hand_id}",
                     query_params={"hand": w.hand_id, "case": short})
if viol is not None and not viol.is_empty():
    st.subheader("Rule findings on the evidence hands")
    for v in viol.iter_rows(named=True):
        ui.finding_box(v, f"{v['hand_id']} #{v['action_seq']}: " if v.get("action_seq") is not None
                       else f"{v['hand_id']}: ")

ref = hands.row(0, named=True) if not hands.is_empty() else {"unit_scale": 1, "currency": ""}


def fmt(v: int) -> str:
    return money(int(v), ref)

col_a, col_b = st.columns(2)
with col_a:
    st.subheader("Chip flow")
    st.altair_chart(flow_chart(flow_all, fmt), width="stretch")
with col_b:
    st.subheader("Sessions together")
    st.altair_chart(timeline_chart(sess.to_dicts()), width="stretch")
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
