"""Pair: two players' shared hands, net chip flow between them and their sessions together (money in
currency units).

Every figure is computed in the snapshot (``data.pair_overview``, ``group_flow``, ``group_sessions``)
and only the page of shared hands on screen is read out: two regulars can share a hundred
thousand hands at 1M, which as rows cost seconds per view.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import ui
from dashboards.charts import flow_chart, timeline_chart
from dashboards.replay import money

ui.require("read")
db = ui.snapshot()
st.title("Pair")
ui.snapshot_caption(db)
ui.from_url("a", "pair_a")
ui.from_url("b", "pair_b")
c1, c2 = st.columns(2)
typed_a = c1.text_input("Player A (any part of the name, any case)", key="pair_a").strip()
typed_b = c2.text_input("Player B (any part of the name, any case)", key="pair_b").strip()


def resolve(col: st.delta_generator.DeltaGenerator, typed: str, key: str) -> str:
    """The player ``typed`` names: itself when it is a player, else a pick among the matches."""
    found = ui.find_players(str(db), typed) if typed else []
    if not found:
        return typed
    if found[0] == typed or len(found) == 1:
        return found[0]
    return str(col.selectbox(f"{len(found)} players match {typed!r}", found, key=key))


a = resolve(c1, typed_a, "pair_a_match")
b = resolve(c2, typed_b, "pair_b_match")
if not a or not b or a == b:
    st.info("Enter two different players.")
    st.stop()
ui.to_url(a=a, b=b)
ui.mark_url("a", "pair_a")
ui.mark_url("b", "pair_b")
for col, p in ((c1, a), (c2, b)):
    col.page_link("app_pages/player.py", label=f"{p}'s player page", query_params={"player": p})
over = ui.pair_overview(str(db), a, b)
if over.is_empty():
    st.warning(f"{a} and {b} never sat at the same hand in this snapshot.")
    st.stop()
first = over.row(0, named=True)
ref = {"currency": first["currency"], "unit_scale": first["unit_scale"]}
cur = str(first["currency"] or "")


def fmt(v: int) -> str:
    return money(int(v), ref)


together = int(over.group_by("currency").agg(pl.col("hands").max())["hands"].sum())
st.metric("Hands together", together)
st.dataframe(
    over.select("player", "currency", "hands",
                pl.struct("net", "currency", "unit_scale").map_elements(
                    lambda r: money(int(r["net"]), r), return_dtype=pl.String).alias("net won together")),
    hide_index=True, key="pair_net")
flow, sess = ui.group_figures(str(db), (a, b))
st.altair_chart(flow_chart(flow, fmt), width="stretch")
st.subheader("Sessions together")
st.altair_chart(timeline_chart(sess.to_dicts()), width="stretch")
st.dataframe(ui.paginate(sess.drop("players"), "pair_sessions_page"), hide_index=True, key="pair_sessions")
st.subheader("Shared hands")
st.caption(f"Each player's net result in the hand, in {cur or 'currency units'}.")
offset, size = ui.page_window(together, "pair_page")
table = ui.shared_page(str(db), a, b, offset, size)
st.dataframe(
    table.with_columns(("hand?hand=" + pl.col("hand_id")).alias("replay")),
    hide_index=True,
    column_config={"replay": st.column_config.LinkColumn("replay", display_text=r"hand=(.*)$")},
    key="pair_hands",
)
