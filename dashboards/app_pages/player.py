"""Player: HUD statistics (PokerTracker 4 names), results graph, frequent opponents, sessions, flags
and rule findings for one player. Money in currency units throughout."""

from __future__ import annotations

import altair as alt
import polars as pl
import streamlit as st

from dashboards import ui
from dashboards.hud import hud_rows, results_from
from dashboards.replay import money

ui.require("read")
db = ui.snapshot()
st.title("Player")
ui.snapshot_caption(db)
ui.from_url("player", "player_input")
if "player_input" not in st.session_state:
    st.session_state["player_input"] = st.session_state.get("player", "")
typed = st.text_input("Player (any part of the name, any case)", key="player_input").strip()
if not typed:
    st.info("Enter a player name.")
    st.stop()
matches = ui.find_players(str(db), typed)
if not matches:
    st.warning(f"No player matching {typed!r} in this snapshot.")
    st.stop()
if len(matches) > 1 and matches[0] != typed:
    player = str(st.selectbox(f"{len(matches)} players match", matches, key="player_match"))
else:
    player = matches[0]
st.session_state["player"] = player
ui.to_url(player=player)
ui.mark_url("player", "player_input")
s = ui.player_summary(str(db), player)
stats = s["stats"]
if stats.is_empty():
    st.warning(f"No hands for {player} in this snapshot.")
    st.stop()
st.subheader(player)
for row in stats.iter_rows(named=True):
    ref = {"currency": row["currency"], "unit_scale": row["unit_scale"]}
    c1, c2, c3 = st.columns(3)
    c1.metric(f"Hands ({row['currency']})", f"{row['hands']:,}")
    c2.metric("Net result", money(row["net"], ref))
    c3.metric("Tables", f"{row['n_tables']:,}")
    st.caption(f"{row['first_hand']} → {row['last_hand']} UTC · tables: {', '.join(row['tables'])}")

days = ui.player_days(str(db), player)
st.subheader("HUD statistics")
if days.is_empty():
    st.caption("No detector run in this snapshot has statistics for this player.")
else:
    span = days["hand_date"].to_list()
    st.caption(f"PokerTracker 4 definitions (detectors/stats.py) over the latest detector run: "
               f"{int(days['hands'].sum()):,} hands, {min(span)} → {max(span)}. "
               "Percentages except AF (a ratio) and bb/100.")
    st.dataframe(pl.DataFrame(hud_rows(days)), hide_index=True, key="hud")

line, ends = ui.player_line(str(db), player)
st.subheader("Results")
series = results_from(line, ends, days)
for cur in series["currency"].unique().sort().to_list():
    part = series.filter(pl.col("currency") == cur).to_pandas()
    chart = alt.Chart(part).mark_line(point=alt.OverlayMarkDef(size=12)).encode(
        x=alt.X("hand:Q", title="hands played"),
        y=alt.Y("amount:Q", title=f"cumulative result ({cur})"),
        color=alt.Color("series:N", title=None),
        tooltip=["series", "hand", alt.Tooltip("amount:Q", format=",.2f", title=cur)],
    ).interactive()
    st.altair_chart(chart, width="stretch")
if "all-in adjusted (EV)" not in set(series["series"].to_list()):
    st.caption("No all-in adjusted result stored for this player (the detectors store it per day).")
else:
    st.caption("All-in adjusted: net won with each all-in showdown credited at the player's equity "
               "(the detectors' per-day figure, converted with the day's big blind).")

st.subheader("Frequent opponents")
opp = ui.opponents(str(db), player)
if opp.is_empty():
    st.caption("No pair statistics for this player (the detectors keep pairs with enough hands together).")
else:
    st.dataframe(
        opp.with_columns(("pair?a=" + pl.lit(player) + "&b=" + pl.col("opponent")).alias("pair")),
        hide_index=True,
        column_config={"pair": st.column_config.LinkColumn("pair", display_text="pair page")},
        key="opponents",
    )

st.subheader("Sessions")
sess = ui.player_sessions(str(db), player)
st.caption("Consecutive hands at one table with no gap over 30 minutes; net in currency units.")
st.dataframe(ui.paginate(sess.sort("start", descending=True), "player_sessions_page"), hide_index=True,
             key="sessions")

st.subheader("Flags involving this player")
if s["flags"].is_empty():
    st.caption("none")
else:
    flags = s["flags"]
    if "flag_id" in flags.columns:
        shorts = ui.case_short_ids(str(db))
        case_of = ui.case_of(str(db))
        flags = flags.with_columns(
            ("case?case=" + pl.col("flag_id").replace_strict(case_of, default=pl.col("flag_id"))
             .replace_strict(shorts, default=pl.col("flag_id")) + "&flag=" + pl.col("flag_id")).alias("case"))
        flags = flags.select("case", pl.exclude("case"))
    st.dataframe(flags, hide_index=True, column_config={
        "case": st.column_config.LinkColumn("case", display_text=r"case=([^&]*)")})
st.subheader("Rule findings at this player's actions")
if s["violations"].is_empty():
    st.caption("none")
else:
    st.dataframe(s["violations"], hide_index=True)
