"""Player: hands, result, tables, flags and rule findings for one player."""

from __future__ import annotations

import streamlit as st

from dashboards import ui
from dashboards.replay import money

ui.require("read")
db = ui.snapshot()
st.title("Player")
ui.snapshot_caption(db)
player = st.text_input("Player", value=st.session_state.get("player", ""), key="player_input").strip()
if not player:
    st.info("Enter a player name.")
    st.stop()
st.session_state["player"] = player
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
    st.dataframe(s["flags"], hide_index=True)
st.subheader("Rule findings at this player's actions")
if s["violations"].is_empty():
    st.caption("none")
else:
    st.dataframe(s["violations"], hide_index=True)
