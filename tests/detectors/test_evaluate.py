"""The evaluation metrics on cases small enough to compute by hand."""

from __future__ import annotations

import math

import duckdb
import pytest

from detectors.evaluate import ap_at_k, evaluate, truth_pairs
from detectors.run import apply_schema


def test_ap_at_5_by_hand() -> None:
    # relevant {h1, h3}; ranked h1 h2 h3: P@1 = 1, P@3 = 2/3 → (1 + 2/3) / 2
    assert ap_at_k(["h1", "h2", "h3"], {"h1", "h3"}) == pytest.approx((1 + 2 / 3) / 2)
    # more than 5 relevant: the denominator is 5
    assert ap_at_k(["a", "b", "c", "d", "e"], set("abcdefg")) == 1.0
    assert ap_at_k([], {"x"}) == 0.0
    # a hit at rank 6 does not count
    assert ap_at_k(["x1", "x2", "x3", "x4", "x5", "h"], {"h"}) == 0.0


def test_truth_pairs_split_teams_and_evidence() -> None:
    truth = {"teams": [{"family": "soft_play", "members": ["c", "a", "b"], "evidence": [
        {"hand_id": "h1", "players": ["a", "b"]}, {"hand_id": "h2", "players": ["c", "a"]},
        {"hand_id": "h1", "players": ["b", "a"]},
    ]}]}
    fam, ev = truth_pairs(truth)
    assert fam == {("a", "b"): "soft_play", ("a", "c"): "soft_play", ("b", "c"): "soft_play"}
    assert ev == {("a", "b"): ["h1"], ("a", "c"): ["h2"], ("b", "c"): []}


def test_composite_on_a_hand_built_run() -> None:
    """Four candidate pairs, one colluding; our flag ranks it second → AP = 1/2."""
    con = duckdb.connect()
    apply_schema(con)
    con.execute("INSERT INTO detector_runs (run_id, started_at, mode) VALUES ('r', now(), 'operator')")
    for a, b in [("a", "b"), ("a", "c"), ("b", "c"), ("c", "d")]:
        # statistics key players "site:name", flags and truth use the screen name
        con.execute("INSERT INTO pair_stats (run_id, player_a, player_b, hands_together) VALUES ('r', ?, ?, 50)",
                    [f"sim:{a}", f"sim:{b}"])
    flag = ("INSERT INTO flags (flag_id, run_id, family, players, score, severity, mode, explanation, "
            "evidence_hands, detector_version, created_at) VALUES (?, 'r', ?, ?, ?, 'low', 'operator', '', ?, "
            "'1', now())")
    con.execute(flag, ["f1", "squeeze", ["c", "d"], 0.9, ["x"]])
    con.execute(flag, ["f2", "soft_play", ["a", "b"], 0.8, ["h9", "h1"]])
    truth = {"teams": [{"family": "soft_play", "members": ["a", "b"],
                        "evidence": [{"hand_id": "h1", "players": ["a", "b"]}]}]}
    r = evaluate(con, truth, "r", min_hands=20)
    assert r["pair_ap"] == pytest.approx(0.5)
    assert r["evidence_map5"] == pytest.approx(0.5)  # h1 at rank 2 of 1 relevant
    assert r["family_map"] == pytest.approx(1.0)  # the only soft_play flag is the true pair
    assert r["composite"] == pytest.approx(0.7 * 0.5 + 0.2 * 0.5 + 0.1 * 1.0)
    assert not math.isnan(r["composite"])
