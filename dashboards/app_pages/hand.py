"""Hand replayer: street by street with cards, stacks, pot, to-call, legal range, rule findings.

The rule engine's replay (``rules.view.render_hand``) supplies positions, legal ranges and the
findings at each action; the dashboard's own walk over the rows is the fallback (see replay.py).
"""

from __future__ import annotations

import streamlit as st

from dashboards import data, ui
from dashboards.replay import money, split_cards, steps_frame

ui.require("read")
db = ui.snapshot()
st.title("Hand replayer")
ui.snapshot_caption(db)
default = st.session_state.get("hand_id") or st.query_params.get("hand") or ""
hand_id = st.text_input("Hand id", value=default, key="hand_input").strip()
if not hand_id:
    st.info("Enter a hand id (e.g. from a case's evidence hands).")
    st.stop()
st.session_state["hand_id"] = hand_id
try:
    r = ui.replay(str(db), hand_id)
except KeyError:
    st.error(f"Hand {hand_id} is not in this snapshot.")
    near = data.hand_ids_like(db, hand_id[: max(1, len(hand_id) - 3)], 10)
    if near:
        st.caption("Similar ids: " + ", ".join(near))
    st.stop()
h = r.hand
st.write(
    f"**{h['hand_id']}** · {h['variant']} {h['betting']} · table {h['table_name']} · "
    f"blinds {money(h['sb'], h)}/{money(h['bb'], h)} · {h['started_at']} UTC · {h['hole_cards_mode']} mode"
)
st.caption(
    f"legal ranges and findings from the rule engine under {r.rulebook}" if r.rulebook
    else "the rule engine could not replay this hand: positions and ranges derived by the dashboard"
)
st.dataframe(
    [{"seat": s["seat_no"], "player": s["player"], "stack": money(s["stack"], h),
      "cards": " ".join(split_cards(r.hole_cards.get(s["player"]))),
      "final": money(r.final_stacks.get(s["player"]), h)} for s in r.seats],
    hide_index=True,
)
for view in r.streets:
    st.subheader(f"{view.name.capitalize()} {' '.join(view.board)}")
    st.caption(f"pot after {view.name}: {money(view.pot_after, h)}")
    st.dataframe(steps_frame(view, h), hide_index=True)
    for step in view.steps:
        for finding in step.findings:
            ui.finding_box(finding, f"#{step.seq} {step.player}: ")
st.subheader("Result")
for w in r.awards:
    st.write(f"{w['player']} collects {money(w['amount'], h)} (pot {w['pot_no']}, board {w['board_no']})")
for finding in r.findings_unplaced:
    ui.finding_box(finding, "whole hand: ")
rec = r.hand.get("reconciliation_status")
if rec:
    st.caption(f"chip reconciliation: {rec}")
