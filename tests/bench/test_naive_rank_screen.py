"""The naive rank screen (issue 11 benchmark peer): parsing, flag shape, and ranking above chance on a small room."""

from __future__ import annotations

import math
from itertools import combinations
from pathlib import Path

import pytest

from bench.naive_rank_screen import parse_text, screen
from detectors.evaluate import score_flags
from simulator.foreign import generate

HAND = """PokerStars Hand #1:  Hold'em No Limit ($1/$2 USD) - 2026/11/02 09:03:33 ET
Table 'T' 6-max Seat #1 is the button
Seat 1: A ($200 in chips)
Seat 2: B ($200 in chips)
Seat 3: C ($200 in chips)
B: posts small blind $1
C: posts big blind $2
*** HOLE CARDS ***
Dealt to A [Jc As]
A: raises $4 to $6
B: folds
C: raises $12 to $18
A: calls $12
*** FLOP *** [2d 3d 5s]
C: bets $20
A: folds
Uncalled bet ($20) returned to C
C collected $36.50 from pot
*** SUMMARY ***
Total pot $37 | Rake $0.50
"""


def test_parse_net_chips_and_vpip() -> None:
    """Net chips must follow raises 'to' amounts and returned bets, or chip flow is wrong."""
    (h,) = parse_text(HAND)
    assert h.hid == "pokerstars:1" and h.players == ["A", "B", "C"]
    assert h.net == pytest.approx({"A": -9.0, "B": -0.5, "C": 9.25})
    assert h.vpip == {"A", "C"} and h.saw_flop == {"A", "C"}


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("room")
    truth = generate(out / "hh", out / "truth.json", hands=3000, seed=101, intensity=1.0, operator_mode=True,
                     players=60)
    return out / "hh", truth


def test_flags_rank_colluders_above_chance(room: tuple[Path, dict]) -> None:
    """On a small, intense room the colluding pairs must rank well above their prevalence among candidates."""
    path, truth = room
    cands, flags = screen([path])
    cset = set(cands)
    assert len(flags) == max(10, math.ceil(0.01 * len(cands)))
    for family, players, score, evidence in flags:
        assert family in {"soft_play", "chip_dumping", "squeeze", "card_sharing"}
        assert tuple(players) in cset and 0.0 < score <= 1.0
        assert all(e.startswith("pokerstars:") for e in evidence)
    positives = {p for t in truth["teams"] for p in combinations(sorted(t["members"]), 2)}
    metrics = score_flags(cands, flags, truth)
    prevalence = len(positives) / len(cset | positives)
    assert metrics["pair_ap"] > 5 * prevalence, metrics
