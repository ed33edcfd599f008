"""Queue: flags ranked by score with filters, case status and reviewer workload."""

from __future__ import annotations

import datetime as dt

import polars as pl
import streamlit as st

from dashboards import ui
from dashboards.review_store import STATUSES

user = ui.require("read")
db = ui.snapshot()
st.title("Review queue")
ui.snapshot_caption(db)
q = ui.queue(str(db))
if q.is_empty():
    st.info("No flags in this snapshot.")
    st.stop()
store = ui.store()
statuses = store.statuses()
known = pl.DataFrame(
    {"flag_id": list(statuses), "status": [v[0] for v in statuses.values()],
     "assignee": [v[1] for v in statuses.values()]},
    schema={"flag_id": pl.String, "status": pl.String, "assignee": pl.String},
)
q = q.join(known, on="flag_id", how="left", maintain_order="left").with_columns(pl.col("status").fill_null("open"))

with st.expander("Filters", expanded=True):
    c1, c2, c3 = st.columns(3)
    families = c1.multiselect("Family", sorted(q["family"].unique().to_list()), key="f_family")
    status = c2.multiselect("Status", list(STATUSES), default=["open", "escalated"], key="f_status")
    min_score = c3.slider("Minimum score", 0.0, 1.0, 0.0, 0.05, key="f_score")
    c4, c5, c6 = st.columns(3)
    all_tables = sorted({t for ts in q["tables"].to_list() for t in ts})
    tables = c4.multiselect("Table", all_tables, key="f_table")
    player = c5.text_input("Player", key="f_player").strip()
    last = q["last_hand_at"].drop_nulls()
    if len(last):
        lo, hi = last.min().date(), last.max().date()  # type: ignore[union-attr]
        dates = c6.date_input("Last hand between", (lo, hi), key="f_dates")
    else:
        dates = ()

view = q.filter(pl.col("score") >= min_score)
if families:
    view = view.filter(pl.col("family").is_in(families))
if status:
    view = view.filter(pl.col("status").is_in(status))
if tables:
    view = view.filter(pl.col("tables").list.eval(pl.element().is_in(tables)).list.any())
if player:
    view = view.filter(pl.col("players").list.contains(player))
if isinstance(dates, tuple) and len(dates) == 2:
    start, end = dates
    view = view.filter(
        pl.col("last_hand_at").is_null()
        | pl.col("last_hand_at").is_between(
            dt.datetime.combine(start, dt.time.min), dt.datetime.combine(end, dt.time.max)
        )
    )

st.write(f"{view.height} of {q.height} flags")
shorts = ui.case_short_ids(str(db))
page = ui.paginate(view, "queue_page").with_columns(
    pl.col("flag_id").replace_strict(shorts, default=pl.col("flag_id")).alias("short"),
).with_columns(
    ("case?case=" + pl.col("short")).alias("case"),
    pl.when(pl.col("players").list.len() >= 2)
    .then("pair?a=" + pl.col("players").list.get(0, null_on_oob=True)
          + "&b=" + pl.col("players").list.get(1, null_on_oob=True))
    .alias("pair"),
)
st.caption("Click a row to open its case here (the case link opens it in a new tab).")
picked = st.dataframe(
    page.select("case", "score", "severity", "family", "players", "pair", "status", "assignee", "tables",
                "n_evidence", "last_hand_at", "mode", "flag_id"),
    hide_index=True,
    width="stretch",
    column_config={
        "case": st.column_config.LinkColumn("case", display_text=r"case=(.*)$", help="open the case"),
        "pair": st.column_config.LinkColumn("pair", display_text="pair page", help="the first two players' pair page"),
        "flag_id": st.column_config.TextColumn("flag id (stable key)"),
    },
    on_select="rerun",
    selection_mode="single-row",
    key="queue_table",
)
rows = picked.selection.rows if picked is not None else []
if rows:
    chosen = str(page["flag_id"][rows[0]])
    st.session_state["case_id"] = chosen
    st.switch_page("app_pages/case.py", query_params={"case": shorts.get(chosen, chosen)})
if view.height:
    ids = view["flag_id"].to_list()
    who = dict(zip(ids, (", ".join(p) for p in view["players"].to_list()), strict=True))
    pick = st.selectbox("Open case", ids, format_func=lambda i: f"{shorts.get(i, i)} · {who[i]}", key="queue_pick")
    if st.button("Open case", key="open_case"):
        st.session_state["case_id"] = pick
        st.switch_page("app_pages/case.py", query_params={"case": shorts.get(pick, pick)})

st.subheader("Reviewer workload")
wl = store.workload()
if wl:
    st.dataframe(
        pl.DataFrame([{"reviewer": k, **v} for k, v in sorted(wl.items())]), hide_index=True
    )
else:
    st.caption("No decisions or assignments yet.")
