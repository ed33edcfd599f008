"""Checker round 4: PokerStars CAP games (a capped player is all-in) and Split Hold'em (two boards
by design, not run it twice), each on hand-written hands, both sides of the boundary, and on the
fast path (rules.columnar + rules.kernel must hand both to the Python engine or agree with it).

The CAP hand is pokerstars:133974380110 (hhsmithy RunItTwice2.txt) in cents, 3 of its 6 players:
"Gamz11: raises $72 to $80 and has reached the $80 cap", "Garnerus: calls $72 and has reached the
$80 cap", both boards run, "Total pot $164 | Rake $2.80", four collections of $40.30: 4 x 4,030 + 280 = 16,400 = 8,000 +
8,000 + the big blind's 400.
"""

from __future__ import annotations

from typing import Any

import pytest

from parsers.model import Hand
from rules.check import check_batches, check_hand
from rules.columnar import as_checked, check_columnar
from rules.profiles import PROFILE_NAMES, load_profile
from rules.replay import replay
from rules.store import column_windows, hand_batches
from tests.rules.builder import make_hand
from warehouse.db import connect
from warehouse.frames import hands_to_frames

ONLINE = "online-standard"


def _cap_hand(betting: str = "CAP", flagged: bool = True, hand_id: str = "test:cap", once: bool = False) -> Hand:
    players = [("Gamz11", 43306), ("bob", 10294), ("Garnerus", 15639)]  # SB, BB, button
    script = [
        ("preflop", "Gamz11", "post_sb", 200),
        ("preflop", "bob", "post_bb", 400),
        ("preflop", "Garnerus", "raise", 800),
        ("preflop", "Gamz11", "raise", 8000),  # "and has reached the $80 cap"
        ("preflop", "bob", "fold", None),
        ("preflop", "Garnerus", "call", 7200),  # "and has reached the $80 cap"
    ]
    hand = make_hand(
        players, script, sb=200, bb=400, betting=betting, hand_id=hand_id,
        hole={"Gamz11": "AdKs", "Garnerus": "KhAc"}, boards=["QdQs4hTs7s", "6s8h6hTd6c"],
        awards=[("Gamz11", 4030), ("Garnerus", 4030), ("Gamz11", 4030), ("Garnerus", 4030)], rake=280,
    )  # fmt: skip
    if once:  # run once: the first board only, both play AKQQT and chop (16,400 - 280) / 2 = 8,060
        hand.boards = hand.boards[:1]
        hand.awards = [hand.awards[0]._replace(amount=8060), hand.awards[1]._replace(amount=8060)]
    if flagged:  # the parser writes "has reached the $X cap" as the site's all-in flag
        for k in (3, 5):
            hand.actions[k] = hand.actions[k]._replace(all_in=True)
    return hand


def _errors(hand: Hand, book: str = ONLINE) -> list[tuple[str, str]]:
    return sorted((f.rule_id, f.actual) for f in check_hand(hand, load_profile(book)).findings if f.severity == "error")


def test_capped_players_are_all_in_and_may_run_it_twice() -> None:
    hc = check_hand(_cap_hand(), load_profile(ONLINE))
    assert [(s.player, s.kind, s.all_in) for s in hc.replay.states] == [
        ("Garnerus", "raise", False),
        ("Gamz11", "raise", True),  # 8,000 in, 35,306 behind, but capped
        ("bob", "fold", False),
        ("Garnerus", "call", True),
    ]
    assert [f.rule_id for f in hc.findings] == []


@pytest.mark.parametrize(("betting", "flagged"), [("NL", True), ("CAP", False)])
def test_without_the_cap_chips_behind_mean_not_all_in(betting: str, flagged: bool) -> None:
    # no-limit with a stray flag, or a CAP game where nobody reached the cap: both players have chips
    # behind, so running the board twice happened before the betting was complete
    assert _errors(_cap_hand(betting, flagged)) == [("RUN_TWICE.TIMING", "no player all-in")]


def _return_hand(betting: str, stack: int, flagged: bool) -> Hand:
    # the button raises to 8,000, both blinds fold, 7,600 comes back uncalled (8,000 - 400)
    players = [("SB", 50_000), ("BB", 50_000), ("BTN", stack)]
    script = [
        ("preflop", "SB", "post_sb", 200),
        ("preflop", "BB", "post_bb", 400),
        ("preflop", "BTN", "raise", 8000),
        ("preflop", "SB", "fold", None),
        ("preflop", "BB", "fold", None),
        ("preflop", "BTN", "uncalled_return", 7600),
    ]
    hand = make_hand(players, script, sb=200, bb=400, betting=betting, awards=[("BTN", 1000)])
    if flagged:
        hand.actions[2] = hand.actions[2]._replace(all_in=True)
    return hand


def test_an_uncalled_return_does_not_undo_the_cap() -> None:
    rp = replay(_return_hand("CAP", 50_000, flagged=True), load_profile(ONLINE))
    assert rp.all_in == [False, False, True]


def test_an_uncalled_return_still_undoes_a_real_all_in() -> None:
    # all-in for the whole 8,000 stack (CAP game or not): 7,600 back, 7,600 behind, not all-in
    for betting in ("CAP", "NL"):
        rp = replay(_return_hand(betting, 8000, flagged=True), load_profile(ONLINE))
        assert rp.all_in == [False, False, False], betting


def _split_hand(variant: str, hand_id: str = "test:split") -> Hand:
    # Split Hold'em: two boards from the flop on, betting after both flops; nobody is all-in
    players = [("A", 200_000), ("B", 200_000)]
    script = [
        ("preflop", "B", "post_sb", 100),
        ("preflop", "A", "post_bb", 200),
        ("preflop", "B", "call", 100),
        ("preflop", "A", "check", None),
        ("flop", "A", "bet", 400),
        ("flop", "B", "call", 400),
    ]
    return make_hand(players, script, sb=100, bb=200, button=2, variant=variant, hand_id=hand_id,
                     boards=["2c7d9h4s3d", "Kc8dJh5s6c"])  # fmt: skip


@pytest.mark.parametrize("book", PROFILE_NAMES)
def test_split_holdem_boards_are_not_run_it_twice(book: str) -> None:
    found = [f.rule_id for f in check_hand(_split_hand("holdem_split"), load_profile(book)).findings]
    assert not [r for r in found if r.startswith("RUN_TWICE")]


def test_two_boards_in_plain_holdem_are_still_run_it_twice() -> None:
    assert ("RUN_TWICE.TIMING", "no player all-in") in _errors(_split_hand("holdem"))


def _both_engines(hands: list[Hand], book: str) -> tuple[Any, Any, int]:
    con = connect(":memory:")
    for name, frame in hands_to_frames(hands).tables.items():
        con.register("_f", frame.to_arrow())
        con.execute(f"INSERT INTO {name} BY NAME SELECT * FROM _f")
        con.unregister("_f")
    py = list(check_batches(list(hand_batches(con.cursor(), 100)), rulebook=book))
    fast = list(check_columnar(list(column_windows(con.cursor(), 100)), rulebook=book))
    con.close()

    def rows(batches: list[Any]) -> tuple[list[Any], list[Any]]:
        return (sorted((tuple(s) for b in batches for s in b.states), key=repr),
                sorted(((*f, bk) for b in batches for f, bk in b.findings), key=repr))  # fmt: skip

    return rows(py), rows([as_checked(b) for b in fast]), sum(b.fallback for b in fast)


@pytest.mark.parametrize("book", [ONLINE, "PKR-cash"])
def test_fast_path_agrees_on_cap_and_split_hands(book: str) -> None:
    hands = [
        _cap_hand(hand_id="test:1"), _cap_hand("NL", hand_id="test:2"), _split_hand("holdem_split", "test:3"),
        _split_hand("holdem", "test:4"), _cap_hand(hand_id="test:5", once=True),
        _cap_hand("NL", hand_id="test:6", once=True),
    ]  # fmt: skip
    py, fast, fallback = _both_engines(hands, book)
    assert fast == py
    assert len(py[0]) == 6 * 4  # every decision's state row was compared
    assert ("test:5", 3, "Gamz11", True) in {(s[0], s[1], s[2], s[-1]) for s in py[0]}  # capped: all-in
    assert fallback == 5  # all but the plain one-board NL hand go to Python (CAP, split, two boards)
