"""Replay figures computed by hand from the hand text; snapshot publish under a running reader."""

from __future__ import annotations

from pathlib import Path

import duckdb
from streamlit.testing.v1 import AppTest

from dashboards import data
from dashboards.replay import build_replay, money
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
    assert not at.exception and at.dataframe[0].value.shape[0] == 4
    assert first.name in at.caption[0].value
    # while the dashboard session is live, the pipeline writes the build file and publishes again
    con = duckdb.connect(str(build))
    con.execute("UPDATE flags SET score = 0.99 WHERE flag_id = 'F-sqz-004'")
    con.close()
    second = publish(build, root)
    at.run()
    assert not at.exception
    assert second.name in at.caption[0].value
    assert at.dataframe[0].value["flag_id"].iloc[0] == "F-sqz-004"
    # once the session moved on, the old snapshot can be opened read-write-exclusive: no reader holds it
    duckdb.connect(str(first)).close()
