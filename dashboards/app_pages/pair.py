"""Pair: two players' shared hands, net chip flow between them and their sessions together."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import data, ui
from dashboards.drawing import chip_flow_figure, timeline_figure, to_svg

ui.require("read")
db = ui.snapshot()
st.title("Pair")
ui.snapshot_caption(db)
ui.from_url("a", "pair_a")
ui.from_url("b", "pair_b")
c1, c2 = st.columns(2)
a = c1.text_input("Player A", key="pair_a").strip()
b = c2.text_input("Player B", key="pair_b").strip()
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
st.metric("Hands together", both["hand_id"].n_unique())
net = both.group_by("player").agg(pl.col("net").sum()).sort("player")
st.dataframe(net, hide_index=True)
flow = data.chip_flow(shared, [a, b])
st.image(to_svg(chip_flow_figure(flow, [a, b])))
st.image(to_svg(timeline_figure(data.sessions(both).to_dicts())))
st.subheader("Shared hands")
st.dataframe(
    ui.paginate(both.pivot(on="player", index=["hand_id", "table_name", "started_at"], values="net")
                .sort("started_at"), "pair_page"),
    hide_index=True,
)
