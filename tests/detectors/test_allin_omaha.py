"""Omaha all-in EV is exact (issue 14): the numba enumerator against pokerkit's Omaha hands
(``OmahaHoldemHand``, ``OmahaEightOrBetterLowHand``: exactly two hole cards and three board
cards) dealt in plain Python, on random deals and hand-computed cases; and real Omaha all-ins
get an adjusted result that keeps every chip."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import duckdb
import numpy as np
import polars as pl
import pytest
from pokerkit import OmahaEightOrBetterLowHand, OmahaHoldemHand

from detectors import allin, allin_omaha, features
from tests.conftest import real_data
from warehouse.ingest import ingest_paths

NAMES = {v: k for k, v in allin.CARD_ID.items()}


def ids(text: str) -> list[int]:
    return [allin.CARD_ID[text[i:i + 2]] for i in range(0, len(text), 2)]


def board_shares(hands: list[str], board: str, hilo: bool) -> list[Fraction]:
    """Each player's share of one pot on a complete board, by pokerkit: the best high hand takes
    it, or half when someone has an 8-or-better low (the best low takes the other half)."""
    high = [OmahaHoldemHand.from_game(h, board) for h in hands]
    low = [OmahaEightOrBetterLowHand.from_game_or_none(h, board) if hilo else None for h in hands]
    halves = [high, low] if any(x is not None for x in low) else [high, high]
    share = [Fraction(0)] * len(hands)
    for half in halves:
        best = max(x for x in half if x is not None)
        won = [i for i, x in enumerate(half) if x is not None and x == best]
        for i in won:
            share[i] += Fraction(1, 2 * len(won))
    return share


def brute(hands: list[str], board: str, hilo: bool, dead: str = "") -> list[Fraction]:
    """Each player's equity over every run-out of the board, dealt in plain Python (``dead``:
    cards held by players not in this pot)."""
    known = {*ids(board), *ids(dead), *(c for h in hands for c in ids(h))}
    deck = [NAMES[c] for c in range(52) if c not in known]
    total = [Fraction(0)] * len(hands)
    n = 0
    for extra in itertools.combinations(deck, 5 - len(board) // 2):
        for i, s in enumerate(board_shares(hands, board + "".join(extra), hilo)):
            total[i] += s
        n += 1
    return [t / n for t in total]


def exact(hands: list[str], board: str, hilo: bool, elig: list[list[int]] | None = None) -> list[list[Fraction]]:
    """The enumerator's equity per (layer, player)."""
    out, runouts = allin_omaha.omaha_share_counts([ids(h) for h in hands], ids(board),
                                                  elig or [[1] * len(hands)], hilo)
    return [[Fraction(int(x), allin_omaha.POT_UNITS * runouts) for x in row] for row in out]


def deal(rng: random.Random, players: int, hole: int, board: int) -> tuple[list[str], str]:
    cards = [NAMES[c] for c in rng.sample(range(52), players * hole + board)]
    hands = ["".join(cards[p * hole:(p + 1) * hole]) for p in range(players)]
    return hands, "".join(cards[players * hole:])


@pytest.mark.parametrize(("hands", "board", "hilo", "want"), [
    # exactly two hole cards: one spade in hand with four on the board is no flush (let alone a
    # royal): Ts9h makes the king-high straight with KQJ, which beats trip deuces
    (["Ts9h8h7h", "2c2h3c4c"], "AsKsQsJs2d", False, [1, 0]),
    # the nut flush of hold'em is ace high in Omaha without two spades; a pair of queens wins
    (["As3h4h7c", "QhQd6c8c"], "2s5s9sJsKd", False, [0, 1]),
    # high to trip kings (KcAd + KsKd8h), low to 8-4-3-2-A over 8-5-3-2-A: half each
    (["Ah4s9c9d", "AdKc5h6h"], "2c3d8hKsKd", True, [Fraction(1, 2), Fraction(1, 2)]),
    # quartered: both hold 7-4-3-2-A, trip queens take the high: 1/4 and 3/4
    (["Ah4sKcJd", "Ad4cQcQh"], "2c3d7hKsQd", True, [Fraction(1, 4), Fraction(3, 4)]),
    # two low cards on the board: no low is possible, the high scoops
    (["Ah3s4c5d", "KhKd9s9c"], "2c7dKsQdJh", True, [0, 1]),
])
def test_hand_computed_showdowns(hands: list[str], board: str, hilo: bool, want: list[Fraction]) -> None:
    assert exact(hands, board, hilo)[0] == want
    assert board_shares(hands, board, hilo) == want  # the reference agrees with the hand count


def test_random_complete_boards_rank_as_pokerkit_does() -> None:
    """4, 5 and 6 hole cards, 2 to 4 players, high and hi/lo, on 150 random complete boards."""
    rng = random.Random(14)
    for i in range(150):
        hands, board = deal(rng, rng.randint(2, 4), (4, 5, 6)[i % 3], 5)
        hilo = i % 2 == 1
        assert exact(hands, board, hilo)[0] == board_shares(hands, board, hilo), (hands, board, hilo)


def test_random_turn_and_flop_equities_equal_plain_enumeration() -> None:
    """Every river (turn all-ins) and every turn and river (flop all-ins) of random deals."""
    rng = random.Random(2024)
    for i in range(12):
        hands, board = deal(rng, rng.randint(2, 3), (4, 5, 6)[i % 3], 4)
        assert exact(hands, board, i % 2 == 0)[0] == brute(hands, board, i % 2 == 0), (hands, board)
    for hilo in (False, True):
        hands, board = deal(rng, 2, 4, 3)
        assert exact(hands, board, hilo)[0] == brute(hands, board, hilo), (hands, board)


@pytest.mark.parametrize("hilo", [False, True])
def test_preflop_walks_every_board(hilo: bool) -> None:
    """Preflop against the plain deal where it is affordable: nine five-card hands leave a 7-card
    deck (21 boards); with Courchevel's first board card known (the dealing walk, three levels of
    combinations before the last card), 15 boards; and a matchup mirrored in suits is exactly
    even over all 1,086,008 boards of heads-up four-card Omaha."""
    rng = random.Random(5 + hilo)
    hands, _ = deal(rng, 9, 5, 0)
    assert exact(hands, "", hilo)[0] == brute(hands, "", hilo)
    hands, first = deal(rng, 9, 5, 1)
    assert exact(hands, first, hilo)[0] == brute(hands, first, hilo)
    out, runouts = allin_omaha.omaha_share_counts([ids("AhKhQdJd"), ids("AsKsQcJc")], [], [[1, 1]], hilo)
    assert runouts == 1_086_008 and out[0, 0] == out[0, 1]


def test_preflop_rank_patterns_equal_dealing_every_board() -> None:
    """Preflop, counting by rank pattern (flush boards walked apart) gives, to the share unit,
    what dealing each board gives: random deals of 4, 5 and 6 cards, 2 to 5 players, high and
    hi/lo (fixed seed), with a side pot the first player cannot win."""
    nxt, values, flush = allin._tables()
    low_bit, low_value = allin_omaha._LOW
    rng = random.Random(88)
    for players, hole, hilo in ((2, 4, False), (2, 4, True), (3, 4, True), (5, 4, False), (2, 5, True),
                                (3, 6, True), (2, 6, False)):
        cards = rng.sample(range(52), players * hole)
        hands = np.array(cards, dtype=np.int64).reshape(players, hole)
        elig = np.array([[1] * players, [0] + [1] * (players - 1)] if players > 2 else [[1, 1]], dtype=np.int64)
        counted, runouts = allin_omaha._omaha_preflop(hands, elig, hilo, nxt, values, flush, low_bit, low_value,
                                                      allin._BINOM)
        dealt, boards = allin_omaha._omaha_counts(hands, np.zeros(0, dtype=np.int64), elig, hilo, nxt, values,
                                                  flush, low_bit, low_value)
        assert runouts == boards == math.comb(52 - players * hole, 5)
        assert (counted == dealt).all(), (hands.tolist(), hilo)


def test_side_pots_go_to_the_players_eligible_for_them() -> None:
    """A short stack's main pot among three, the side pot between the two covering players: the
    side pot's equity is the two players' with the short stack's cards dead."""
    hands, board = ["AhAd2c3c", "KsKdQsJs", "9h8h7c6c"], "Ks7h2d4c"
    main, side = exact(hands, board, True, [[1, 1, 1], [0, 1, 1]])
    assert main == brute(hands, board, True)
    assert side[0] == 0 and side[1:] == brute(hands[1:], board, True, dead=hands[0])


def test_odd_chips_of_a_quartered_pot_stay_in_the_hand() -> None:
    """101 chips quartered on the river (the general path: pot layers, exact shares, whole chips
    by the largest remainder): 25.25 and 75.75 become 25 and 76, every chip paid out."""
    cand = pl.DataFrame({
        "hand_id": ["q"], "variant": ["omaha_hilo"], "ps": [["a", "b"]], "cs": [["Ah4sKcJd", "Ad4cQcQh"]],
        "puts": [[50, 50]], "dead": [[1]], "pot": [101], "board_then": ["2c3d7hKsQd"],
    }, schema_overrides={"puts": pl.List(pl.Int64), "dead": pl.List(pl.Int64), "pot": pl.Int64})
    got = allin._multiway_ev(cand)
    assert got["ev_net"].to_list() == [25 - 50, 76 - 50]


@pytest.fixture(scope="module")
def omaha_warehouse(tmp_path_factory: pytest.TempPathFactory) -> duckdb.DuckDBPyConnection:
    """Real Omaha all-ins, every live hand shown: a PLO flop all-in (PokerTracker's Microgaming
    export), a PLO8 flop all-in (Full Tilt), a four-way PLO preflop all-in with side pots
    (PokerStars), a quartered five-card PLO8 pot (KingsClub) and six-card PLO (PokerStars)."""
    flop = ("fpdb3_regression", "regression-test-files", "cash")
    files = [
        real_data(*flop, "PokerTracker", "Flop", "PLO-EUR-0.25-0.50-201601.all.in.call.txt"),
        real_data("hhsmithy_sample_hh", "HandHistories.Parser.UnitTests", "SampleHandHistories", "FullTilt",
                  "CashGame", "PlayerTests", "OmahaHiLoShowdown.txt"),
        real_data(*flop, "Stars", "Flop", "PLO-FR-USD-0.01-0.02-201006.sidepots.txt"),
        real_data(*flop, "KingsClub", "Flop", "5-Card-PLO8-USD-11-22-202010.quartered.txt"),
        real_data(*flop, "Stars", "Flop", "6-Card-PLO-6max-USD-0.10-0.25-202208.empty.turncard.txt"),
    ]
    db = tmp_path_factory.mktemp("omaha") / "w.duckdb"
    ingest_paths(files, db, progress=False)
    con = duckdb.connect(str(db))
    features.build(con, "player")
    allin.build_allin_ev(con)
    return con


def _adjusted(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    return con.execute(
        """SELECT h.variant, a.hand_id, a.player, a.ev_net, hp.net FROM allin_ev a
        JOIN hp USING (hand_id, player) JOIN hh h USING (hand_id) ORDER BY a.hand_id, a.player"""
    ).pl()


def test_real_omaha_allins_are_adjusted_and_keep_every_chip(omaha_warehouse: duckdb.DuckDBPyConnection) -> None:
    """Every Omaha variant of the files gets all-in EV; each hand's adjusted results move chips
    between its players but add up to the real ones (the EV adjustments sum to 0 chips)."""
    got = _adjusted(omaha_warehouse)
    assert {"omaha", "omaha_hilo", "omaha5_hilo", "omaha6"} <= set(got["variant"])
    per_hand = got.group_by("hand_id").agg(
        adjust=(pl.col("ev_net") - pl.col("net")).sum(), moved=(pl.col("ev_net") - pl.col("net")).abs().sum())
    assert per_hand["adjust"].to_list() == [0] * per_hand.height
    for hand in ("microgaming:5870377181", "fulltilt:33730957082", "pokerstars:22865231671", "kingsclub:37580510"):
        assert per_hand.filter(pl.col("hand_id") == hand)["moved"].item() > 0, hand


@pytest.mark.parametrize(("hand", "hilo"), [("microgaming:5870377181", False), ("fulltilt:33730957082", True)])
def test_real_flop_allin_equals_pokerkit(omaha_warehouse: duckdb.DuckDBPyConnection, hand: str, hilo: bool) -> None:
    """Heads-up flop all-ins with equal stacks: each player's adjusted winnings are the pot
    (what was paid out, dead money and rake included) times pokerkit's equity, to the chip."""
    cand = allin._candidates(omaha_warehouse).filter(pl.col("hand_id") == hand).row(0, named=True)
    assert len(cand["board_then"]) == 6 and cand["puts"][0] == cand["puts"][1]
    eq = brute(cand["cs"], cand["board_then"], hilo)
    got = _adjusted(omaha_warehouse).filter(pl.col("hand_id") == hand)
    for player, e, paid in zip(cand["ps"], eq, cand["puts"], strict=True):
        ev_net = got.filter(pl.col("player") == player)["ev_net"].item()
        assert abs(ev_net + paid - float(e * cand["pot"])) <= 1
