"""Pair: two players' shared hands, net chip flow between them and their sessions together (money in
currency units)."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import data, ui
from dashboards.drawing import chip_flow_figure, timeline_figure, to_svg
from dashboards.hud import units
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
shared = ui.shared_hands(str(db), (a, b))
if shared.is_empty():
    st.warning(f"{a} and {b} never sat at the same hand in this snapshot.")
    st.stop()
both = shared.filter(pl.col("player").is_in([a, b]))
ids = tuple(both["hand_id"].unique().sort().to_list())
money_of = ui.hand_rows(str(db), ids[:1], ("hands",))["hands"]
ref = money_of.row(0, named=True) if not money_of.is_empty() else {"currency": "", "unit_scale": 1}
cur = str(ref.get("currency") or "")


def fmt(v: int) -> str:
    return money(int(v), ref)


st.metric("Hands together", both["hand_id"].n_unique())
net = both.group_by("player").agg(pl.col("net").sum()).sort("player")
st.dataframe(net.select("player", pl.col("net").map_elements(fmt, return_dtype=pl.String).alias("net won together")),
             hide_index=True, key="pair_net")
flow = data.chip_flow(shared, [a, b])
st.image(to_svg(chip_flow_figure(flow, [a, b], fmt)))
sess = data.sessions(both)
st.subheader("Sessions together")
st.image(to_svg(timeline_figure(sess.to_dicts())))
st.dataframe(ui.paginate(sess.drop("players"), "pair_sessions_page"), hide_index=True, key="pair_sessions")
st.subheader("Shared hands")
st.caption(f"Each player's net result in the hand, in {cur or 'currency units'}.")
table = (both.with_columns(units("net", pl.lit(int(str(ref.get("unit_scale") or 1)))).alias("net"))
         .pivot(on="player", index=["hand_id", "table_name", "started_at"], values="net").sort("started_at"))
st.dataframe(
    ui.paginate(table, "pair_page").with_columns(("hand?hand=" + pl.col("hand_id")).alias("replay")),
    hide_index=True,
    column_config={"replay": st.column_config.LinkColumn("replay", display_text=r"hand=(.*)$")},
    key="pair_hands",
)
