"""Hand replayer: the table at any step, every action as text, rule findings at their action.

Address: ``/hand?hand=HAND_ID`` (``&case=ID`` adds the way back to that case and highlights its
players). The search takes the full id, the site's hand number without the ``site:`` prefix, or
part of an id, in any case. States and findings are the nightly rule check's stored rows (see
``dashboards/replay.py``); nothing is re-run per view unless a hand has none stored.
"""

from __future__ import annotations

import html

import streamlit as st

from dashboards import ui
from dashboards.replay import (
    HandReplay,
    Step,
    TableAt,
    all_steps,
    award_line,
    card_html,
    card_md,
    money,
    split_cards,
    step_label,
    table_at,
)

SOURCES = {
    "stored": "positions, legal ranges and findings as the nightly rule check recorded them under {rb}",
    "rule-engine": "no stored rule-check states: replayed now by the rule engine under {rb}",
    "walk": "the rule engine could not replay this hand: positions and ranges derived by the dashboard",
}


def seat_rows(t: TableAt, r: HandReplay, marked: set[str]) -> str:
    """The table at a step as HTML rows: seat, position, player, stack, street bet, cards."""
    rows = []
    for s in t.seats:
        style = ["background:#fff3cd" if s.player in marked else "",
                 "color:#999;text-decoration:line-through" if s.folded else "",
                 "font-weight:700;outline:2px solid #f0a030" if s.acting else ""]
        cards = "".join(card_html(c) for c in split_cards(r.hole_cards.get(s.player)))
        rows.append(
            f"<tr style='{';'.join(x for x in style if x)}'><td>{s.seat_no}</td><td>{html.escape(s.position)}</td>"
            f"<td>{html.escape(s.player)}{' &#9733;' if s.player in marked else ''}</td>"
            f"<td style='text-align:right'>{html.escape(money(s.stack, r.hand))}</td>"
            f"<td style='text-align:right'>{html.escape(money(s.street_bet, r.hand)) if s.street_bet else ''}</td>"
            f"<td>{cards}</td></tr>"
        )
    return "".join(rows)


def table_html(t: TableAt, r: HandReplay, marked: set[str]) -> str:
    board = "".join(card_html(c) for c in t.board) or "<i>no board yet</i>"
    last = (f"#{t.last.seq} {html.escape(t.last.player)}: {html.escape(step_label(t.last, r.hand))}"
            if t.last is not None else "before the blinds")
    head = "".join(f"<th style='text-align:left;padding:2px 8px'>{h}</th>"
                   for h in ("Seat", "Pos", "Player", "Stack", "In this street", "Cards"))
    return (
        f"<div style='font-size:1.05rem'><b>{t.street.capitalize()}</b> &middot; board {board} &middot; "
        f"pot <b>{html.escape(money(t.pot, r.hand))}</b> &middot; last action: {last}</div>"
        f"<table style='border-collapse:collapse;margin-top:6px'><tr>{head}</tr>{seat_rows(t, r, marked)}</table>"
    )


def action_line(s: Step, r: HandReplay, marked: set[str]) -> str:
    """One action as a markdown line a reviewer reads: who, what, and what they faced."""
    h = r.hand
    who = f"**{ui.md(s.player)}**"
    if s.player in marked:
        who = f":orange-background[{who}]"
    facts = [f"stack {money(s.stack_before, h)}", f"pot {money(s.pot_before, h)}"]
    if s.to_call:
        facts.append(f"to call {money(s.to_call, h)}")
    if s.min_raise_to is not None and s.max_raise_to is not None:
        verb = "could bet" if not s.to_call and s.kind in ("check", "bet") else "could raise to"
        facts.append(f"{verb} {money(s.min_raise_to, h)}–{money(s.max_raise_to, h)}")
    pos = f"{ui.md(s.position)} " if s.position else ""
    return f"`#{s.seq}` {pos}{who}: {ui.md(step_label(s, h))}  ·  {ui.md(', '.join(facts))}"


def show_actions(r: HandReplay, marked: set[str]) -> None:
    """Every action of every street as text, each finding right after the action it is about."""
    for view in r.streets:
        board = " ".join(card_md(c) for c in view.board)
        start = view.steps[0].pot_before if view.steps else view.pot_after
        st.markdown(f"#### {view.name.capitalize()} {board}")
        st.caption(ui.md(f"pot {money(start, r.hand)} at the start, {money(view.pot_after, r.hand)} after"))
        lines: list[str] = []
        for s in view.steps:
            lines.append(action_line(s, r, marked))
            if s.findings:
                st.markdown("  \n".join(lines))
                lines = []
                for f in s.findings:
                    ui.finding_box(f, f"#{s.seq} {s.player}: ")
        if lines:
            st.markdown("  \n".join(lines))


def pick_hand(db: str) -> str:
    """The hand the address or the search box names; stops the page with a choice or a message."""
    ui.from_url("hand", "hand_input")
    pending = st.session_state.pop("hand_id", None)  # pages that switch here without an address (violations)
    if pending and "hand" not in st.query_params:
        st.session_state["hand_input"] = pending
    text = st.text_input("Hand: id, site hand number or part of one (any case)", key="hand_input")
    if not text.strip():
        st.info("Enter a hand (e.g. 1002 or pokerstars:1002), or open one from a case's evidence hands.")
        st.stop()
    hits = ui.find_hands(db, text)
    if not hits:
        st.error(f"No hand matches {text.strip()!r} in this snapshot.")
        st.stop()
    if len(hits) > 1:
        st.write(f"{len(hits)} hands match {text.strip()!r}{' (first 20)' if len(hits) >= 20 else ''}:")
        keep = {k: v for k in ("case",) if (v := st.query_params.get(k))}
        for h in hits:
            st.page_link("app_pages/hand.py", label=h, query_params={"hand": h, **keep})
        st.stop()
    return hits[0]


def step_controls(r: HandReplay) -> int:
    """Step-through: a slider over the hand's actions with back/next buttons (starts at the end)."""
    n = len(all_steps(r))
    if st.session_state.get("_step_hand") != r.hand["hand_id"]:
        st.session_state["_step_hand"] = r.hand["hand_id"]
        st.session_state["hand_step"] = n

    def move(d: int) -> None:
        st.session_state["hand_step"] = max(0, min(n, int(st.session_state.get("hand_step", n)) + d))

    c1, c2, c3 = st.columns([1, 1, 8])
    c1.button("◀ Back", key="step_back", on_click=move, args=(-1,))
    c2.button("Next ▶", key="step_next", on_click=move, args=(1,))
    return int(c3.slider("Step through the hand (actions done)", 0, max(n, 1), key="hand_step",
                         label_visibility="collapsed"))


ui.require("read")
db = ui.snapshot()
st.title("Hand replayer")
ui.snapshot_caption(db)
hand_id = pick_hand(str(db))
ui.to_url(hand=hand_id)
ui.mark_url("hand", "hand_input")
try:
    r = ui.replay(str(db), hand_id)
except KeyError:
    st.error(f"Hand {hand_id} is not in this snapshot.")
    st.stop()
case_id = ui.resolve_case(str(db), st.query_params.get("case"))
marked = set(ui.case_players(str(db), case_id)) if case_id else set()
if case_id:
    short = ui.short_case(str(db), case_id)
    st.page_link("app_pages/case.py", label=f"← Back to case {short}", query_params={"case": short})

h = r.hand
st.markdown(ui.md(f"{h['hand_id']} · {h['variant']} {h['betting']} · table {h['table_name']} · "
                  f"blinds {money(h['sb'], h)}/{money(h['bb'], h)} · {h['started_at']} UTC · "
                  f"{h['hole_cards_mode']} mode"))
st.caption(SOURCES[r.source].format(rb=r.rulebook or "?")
           + ("  ·  ★ highlighted: the case's players" if marked else ""))
cols = st.columns(min(len(r.seats), 6) or 1)
for i, s in enumerate(r.seats):
    p = s["player"]
    cols[i % len(cols)].page_link("app_pages/player.py", label=("★ " if p in marked else "") + p,
                                  query_params={"player": p})

st.subheader("Table")
k = step_controls(r)
st.html(table_html(table_at(r, k), r, marked))

st.subheader("Actions")
show_actions(r, marked)

st.subheader("Result")
for w in r.awards:
    st.markdown(ui.md(award_line(w, r)))
finals = ", ".join(f"{s['player']} {money(r.final_stacks.get(s['player']), h)}" for s in r.seats)
st.caption(ui.md(f"stacks after the hand: {finals}"))
for finding in r.findings_unplaced:
    ui.finding_box(finding, "whole hand: ")
rec = h.get("reconciliation_status")
if rec:
    st.caption(f"chip reconciliation: {rec}")
