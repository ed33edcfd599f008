"""Player: hands, result, tables, flags and rule findings for one player."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import ui
from dashboards.replay import money

ui.require("read")
db = ui.snapshot()
st.title("Player")
ui.snapshot_caption(db)
ui.from_url("player", "player_input")
if "player_input" not in st.session_state:
    st.session_state["player_input"] = st.session_state.get("player", "")
player = st.text_input("Player", key="player_input").strip()
if not player:
    st.info("Enter a player name.")
    st.stop()
st.session_state["player"] = player
ui.to_url(player=player)
ui.mark_url("player", "player_input")
s = ui.player_summary(str(db), player)
stats = s["stats"]
if stats.is_empty():
    st.warning(f"No hands for {player} in this snapshot.")
    st.stop()
for row in stats.iter_rows(named=True):
    ref = {"currency": row["currency"], "unit_scale": row["unit_scale"]}
    c1, c2, c3 = st.columns(3)
    c1.metric(f"Hands ({row['currency']})", f"{row['hands']:,}")
    c2.metric("Net result", money(row["net"], ref))
    c3.metric("Tables", f"{row['n_tables']:,}")
    st.caption(f"{row['first_hand']} → {row['last_hand']} UTC · tables: {', '.join(row['tables'])}")
st.subheader("Flags involving this player")
if s["flags"].is_empty():
    st.caption("none")
else:
    flags = s["flags"]
    if "flag_id" in flags.columns:
        shorts = ui.case_short_ids(str(db))
        flags = flags.with_columns(
            ("case?case=" + pl.col("flag_id").replace_strict(shorts, default=pl.col("flag_id"))).alias("case"))
        flags = flags.select("case", pl.exclude("case"))
    st.dataframe(flags, hide_index=True, column_config={
        "case": st.column_config.LinkColumn("case", display_text=r"case=(.*)$")})
st.subheader("Rule findings at this player's actions")
if s["violations"].is_empty():
    st.caption("none")
else:
    st.dataframe(s["violations"], hide_index=True)
