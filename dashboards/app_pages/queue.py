"""Queue: one case per suspected group, ranked, with filters, status, age, workload and bulk dismiss."""

from __future__ import annotations

import datetime as dt

import polars as pl
import streamlit as st

from dashboards import auth, ui
from dashboards.cases import age, case_status
from dashboards.review_store import STATUSES, PermissionDenied

user = ui.require("read")
db = ui.snapshot()
st.title("Review queue")
ui.snapshot_caption(db)
q = ui.cases(str(db))
if q.is_empty():
    st.info("No flags in this snapshot.")
    st.stop()
store = ui.store()
records = store.records()
now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
state = [case_status([c, *fs], records) for c, fs in zip(q["case_id"].to_list(), q["flags"].to_list(), strict=True)]
q = q.with_columns(
    pl.Series("status", [s for s, _ in state], dtype=pl.String),
    pl.Series("assignee", [a for _, a in state], dtype=pl.String),
    pl.Series("age", [age(t, now) for t in q["flagged_at"].to_list()], dtype=pl.String),
)

with st.expander("Filters", expanded=True):
    c1, c2, c3 = st.columns(3)
    families = c1.multiselect("Family", sorted({f for fs in q["families"].to_list() for f in fs}), key="f_family")
    status = c2.multiselect("Status", list(STATUSES), default=["open", "escalated"], key="f_status")
    min_score = c3.slider("Minimum score", 0.0, 1.0, 0.0, 0.05, key="f_score")
    c4, c5, c6 = st.columns(3)
    all_tables = sorted({t for ts in q["tables"].to_list() for t in ts})
    tables = c4.multiselect("Table", all_tables, key="f_table")
    player = c5.text_input("Player (any part of the name, any case)", key="f_player").strip()
    last = q["last_hand_at"].drop_nulls()
    if len(last):
        lo, hi = last.min().date(), last.max().date()  # type: ignore[union-attr]
        dates = c6.date_input("Last hand between", (lo, hi), key="f_dates")
    else:
        dates = ()

view = q.filter(pl.col("score") >= min_score)
if families:
    view = view.filter(pl.col("families").list.eval(pl.element().is_in(families)).list.any())
if status:
    view = view.filter(pl.col("status").is_in(status))
if tables:
    view = view.filter(pl.col("tables").list.eval(pl.element().is_in(tables)).list.any())
if player:
    view = view.filter(pl.col("players").list.eval(
        pl.element().str.to_lowercase().str.contains(player.lower(), literal=True)).list.any())
if isinstance(dates, tuple) and len(dates) == 2:
    start, end = dates
    view = view.filter(
        pl.col("last_hand_at").is_null()
        | pl.col("last_hand_at").is_between(
            dt.datetime.combine(start, dt.time.min), dt.datetime.combine(end, dt.time.max)
        )
    )

st.write(f"{view.height} of {q.height} cases ({int(q['n_flags'].sum())} flags grouped by suspected group)")
shorts = ui.case_short_ids(str(db))
page = ui.paginate(view, "queue_page").with_columns(
    pl.col("case_id").replace_strict(shorts, default=pl.col("case_id")).alias("short"),
).with_columns(
    ("case?case=" + pl.col("short")).alias("case"),
    pl.when(pl.col("players").list.len() >= 2)
    .then("pair?a=" + pl.col("players").list.get(0, null_on_oob=True)
          + "&b=" + pl.col("players").list.get(1, null_on_oob=True))
    .alias("pair"),
    pl.col("score").round(2),
    pl.col("strength").round(1),
)
st.caption("One row per suspected group: its flags (families, both hole-card modes) combined. Ranked by score, "
           "then by evidence strength (z of the evidence under the room's honest null) where scores tie. "
           "Click a row to open its case.")
picked = st.dataframe(
    page.select("rank", "case", "score", "strength", "families", "players", "snippet", "status", "assignee",
                "age", "severity", "n_flags", "n_evidence", "pair", "tables", "last_hand_at", "case_id"),
    hide_index=True,
    width="stretch",
    column_config={
        "case": st.column_config.LinkColumn("case", display_text=r"case=(.*)$", help="open the case"),
        "strength": st.column_config.NumberColumn("evidence z", help="orders cases whose scores tie", format="%.1f"),
        "snippet": st.column_config.TextColumn("why", width="large"),
        "pair": st.column_config.LinkColumn("pair", display_text="pair page", help="the first two players' pair page"),
        "n_flags": st.column_config.NumberColumn("flags"),
        "n_evidence": st.column_config.NumberColumn("evidence hands"),
        "case_id": st.column_config.TextColumn("case id (stable key)"),
    },
    on_select="rerun",
    selection_mode="single-row",
    key="queue_table",
)
rows = picked.selection.rows if picked is not None else []
if rows:
    chosen = str(page["case_id"][rows[0]])
    st.session_state["case_id"] = chosen
    st.switch_page("app_pages/case.py", query_params={"case": shorts.get(chosen, chosen)})
ids = view["case_id"].to_list()
who = dict(zip(ids, (", ".join(p) for p in view["players"].to_list()), strict=True))
if ids:
    pick = st.selectbox("Open case", ids, format_func=lambda i: f"{shorts.get(i, i)} · {who[i]}", key="queue_pick")
    if st.button("Open case", key="open_case"):
        st.session_state["case_id"] = pick
        st.switch_page("app_pages/case.py", query_params={"case": shorts.get(pick, pick)})

if ids and auth.can(user.role, "decide"):
    with st.expander("Bulk dismiss"):
        st.caption("Dismiss several cases with one reason; each case's audit trail records the decision.")
        with st.form("bulk_dismiss"):
            chosen_ids = st.multiselect("Cases", ids, format_func=lambda i: f"{shorts.get(i, i)} · {who[i]}",
                                        key="bulk_cases")
            every = st.checkbox(f"all {len(ids)} cases shown by the filters", key="bulk_all")
            reason = st.text_input("Reason (required)", key="bulk_reason")
            go = st.form_submit_button("Dismiss")
        if go:
            targets = ids if every else list(chosen_ids)
            if not targets:
                st.error("Pick at least one case.")
            else:
                try:
                    done = store.decide_many(targets, "dismiss", reason, user, bulk=True)
                except (ValueError, PermissionDenied) as exc:
                    st.error(str(exc))
                else:
                    st.session_state["bulk_done"] = len(done)
                    st.rerun()
    if st.session_state.get("bulk_done"):
        st.success(f"Dismissed {st.session_state.pop('bulk_done')} cases.")

st.subheader("Reviewer workload")
decided = store.workload()
people = sorted({a for a in q["assignee"].drop_nulls().to_list()} | set(decided) | set(ui.reviewers()))
if people:
    wl = []
    for name in people:
        mine = q.filter(pl.col("assignee") == name)
        wl.append({
            "reviewer": name,
            "assigned open": mine.filter(pl.col("status") == "open").height,
            "assigned escalated": mine.filter(pl.col("status") == "escalated").height,
            "oldest assigned": age(min(waiting), now) if (waiting := mine.filter(
                pl.col("status").is_in(["open", "escalated"]))["flagged_at"].drop_nulls().to_list()) else "",
            "decisions recorded": decided.get(name, {}).get("decisions", 0),
        })
    st.dataframe(pl.DataFrame(wl), hide_index=True)
else:
    st.caption("No decisions or assignments yet.")
