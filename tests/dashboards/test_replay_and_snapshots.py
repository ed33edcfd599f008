"""Replay figures computed by hand from the hand text; snapshot publish under a running reader."""

from __future__ import annotations

from pathlib import Path

import duckdb
from streamlit.testing.v1 import AppTest

from dashboards import data
from dashboards.replay import HandReplay, build_replay, money
from dashboards.review_store import User
from pipelines.steps import publish_snapshot as publish  # the pipeline step: summaries, then publish
from tests.dashboards.warehouse_fixture import build_warehouse

APP = str(Path(__file__).resolve().parents[2] / "dashboards" / "app.py")


def test_replay_of_hand_1002_matches_hand_computation(snapshot: Path) -> None:
    r = build_replay(data.hand_rows(snapshot, ["pokerstars:1002"]), "pokerstars:1002")
    assert [v.name for v in r.streets] == ["preflop", "flop", "turn", "river"]
    assert [v.board for v in r.streets][-1] == ["Kh", "Kd", "4s", "9c", "Qh"]
    steps = {s.seq: s for v in r.streets for s in v.steps}
    # bob calls alice's raise to $3: $3 to call, pot $4.50 (0.50 + 1 + 3), legal raise-to $5 (3 + 2) to all-in
    assert (steps[3].to_call, steps[3].pot_before, steps[3].min_raise_to, steps[3].max_raise_to) == (
        300, 450, 500, 9950)
    # river: bob faces $30 into a $71.50 pot with $79.50 behind
    assert (steps[11].to_call, steps[11].pot_before, steps[11].stack_before) == (3000, 7150, 7950)
    # final stacks follow the next hand's written starting stacks ("Seat 1: alice ($120.50 ...")
    assert r.final_stacks == {"alice": 12050, "bob": 7950, "carol": 9650, "dave": 10250}
    assert [f["rule_id"] for f in steps[3].findings] == ["UNDERCALL.FULL_CALL"]
    assert money(-1234, r.hand) == "-$12.34"


def test_rule_engine_states_win_over_own_computation(snapshot: Path) -> None:
    r = build_replay(data.hand_rows(snapshot, ["pokerstars:1003"]), "pokerstars:1003")
    carol = next(s for v in r.streets for s in v.steps if s.seq == 3)
    assert carol.min_raise_to == 250  # from action_states (after the short raise to $1.50)


def test_dashboard_follows_a_new_snapshot_without_blocking_the_writer(
    tmp_path: Path, monkeypatch, users_file: Path
) -> None:
    build = build_warehouse(tmp_path / "build.duckdb", tmp_path / "landing")
    root = tmp_path / "published"
    first = publish(build, root)
    monkeypatch.setenv("FLOORMAN_PUBLISHED", str(root))
    monkeypatch.delenv("FLOORMAN_DB", raising=False)
    monkeypatch.setenv("FLOORMAN_REVIEW_DB", str(tmp_path / "review.sqlite"))
    monkeypatch.setenv("FLOORMAN_USERS", str(users_file))
    at = AppTest.from_file(APP, default_timeout=30)
    at.session_state["user"] = User("vera", "viewer")
    at.run()
    assert not at.exception and at.dataframe[0].value.shape[0] == 3  # cases (chip + ring are one)
    assert first.name in at.caption[0].value
    # while the dashboard session is live, the pipeline writes the build file and publishes again
    con = duckdb.connect(str(build))
    con.execute("UPDATE flags SET score = 0.99 WHERE flag_id = 'F-sqz-004'")
    con.close()
    second = publish(build, root)
    at.run()
    assert not at.exception
    assert second.name in at.caption[0].value
    assert at.dataframe[0].value["case_id"].iloc[0] == "F-sqz-004"
    # once the session moved on, the old snapshot can be opened read-write-exclusive: no reader holds it
    duckdb.connect(str(first)).close()


def test_stored_states_give_the_same_replay_as_rerunning_the_rule_engine(snapshot: Path) -> None:
    """The replayer reads the nightly rule check's rows; re-running the engine must agree with them."""
    from dashboards.replay import apply_rule_view

    for hand_id in ("pokerstars:1001", "pokerstars:1002", "pokerstars:1003"):
        rows = data.hand_rows(snapshot, [hand_id])
        stored = data.replay(snapshot, hand_id, rows)
        assert stored.source == "stored" and stored.rulebook
        view = data.rule_view(snapshot, hand_id, rows)
        assert view is not None
        rerun = apply_rule_view(build_replay(rows, hand_id), view)
        assert rerun.source == "rule-engine" and rerun.rulebook == stored.rulebook

        def facts(r: HandReplay) -> list[tuple[object, ...]]:
            # the fixture also holds a hand-typed finding under another rulebook (CEP-2023); the engine
            # re-run produces only the hand's own rulebook's findings
            return [(s.seq, s.position, s.to_call, s.pot_before, s.stack_before, s.min_raise_to, s.max_raise_to,
                     sorted(f["rule_id"] for f in s.findings if f["rulebook"] == r.rulebook))
                    for v in r.streets for s in v.steps]

        assert facts(stored) == facts(rerun), hand_id


def test_without_stored_states_the_rule_engine_replays_the_hand(snapshot: Path) -> None:
    rows = data.hand_rows(snapshot, ["pokerstars:1003"])
    rows = {k: v for k, v in rows.items() if k != "action_states"}
    r = data.replay(snapshot, "pokerstars:1003", rows)
    assert r.source == "rule-engine"
    assert [f["rule_id"] for v in r.streets for s in v.steps if s.seq == 2 for f in s.findings] == ["RAISE.MIN"]


def test_table_at_each_step_of_hand_1002(snapshot: Path) -> None:
    from dashboards.replay import all_steps, card_md, card_text, table_at

    r = data.replay(snapshot, "pokerstars:1002")
    assert len(all_steps(r)) == 13
    start = table_at(r, 0)
    assert (start.pot, start.street, start.board, start.last) == (0, "preflop", [], None)
    t = table_at(r, 4)  # blinds, alice raises to $3, bob calls
    seats = {s.player: s for s in t.seats}
    assert (t.pot, seats["alice"].stack, seats["bob"].street_bet, seats["bob"].acting) == (750, 9700, 300, True)
    t = table_at(r, 8)  # flop bet and call: new street, street bets start again
    assert (t.street, t.board, t.pot, {s.player: s.street_bet for s in t.seats}["alice"]) == (
        "flop", ["Kh", "Kd", "4s"], 1750, 500)
    assert {s.player for s in t.seats if s.folded} == {"carol", "dave"}
    end = table_at(r, 99)
    assert end.step == 13 and end.pot == 4150 and end.last is not None and end.last.kind == "uncalled_return"
    assert {s.player: s.position for s in end.seats} == {"alice": "CO", "bob": "BTN", "carol": "SB", "dave": "BB"}
    assert (card_text("Td"), card_text("Ah"), card_md("Kc")) == ("10♦", "A♥", ":green[**K♣**]")
