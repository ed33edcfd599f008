"""All-in EV is exact (issue 14, build item 6): the numba enumerator and the shipped preflop table
against plain-Python enumerations with phevaluator, on known matchups, side pots and ties."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import numpy as np
import pytest
from phevaluator import _pheval

from detectors import allin

ev7 = _pheval.evaluate_7cards  # lower is stronger


def ids(text: str) -> list[int]:
    return [allin.CARD_ID[text[i:i + 2]] for i in range(0, len(text), 2)]


def brute(hands: list[str], board: str, dead: str = "") -> list[Fraction]:
    """Each player's equity (ties split) over every run-out, dealt in plain Python (``dead``: cards
    out of the deck held by players not in this pot)."""
    hole = [ids(h) for h in hands]
    known = ids(board)
    deck = [c for c in range(52) if c not in {*known, *ids(dead), *(c for h in hole for c in h)}]
    share = [Fraction(0)] * len(hands)
    n = 0
    for extra in itertools.combinations(deck, 5 - len(known)):
        full = (*known, *extra)
        ranks = [ev7(*h, *full) for h in hole]
        best = min(ranks)
        winners = [i for i, r in enumerate(ranks) if r == best]
        for i in winners:
            share[i] += Fraction(1, len(winners))
        n += 1
    return [s / n for s in share]


def exact(hands: list[str], board: str) -> list[Fraction]:
    out, runouts = allin.share_counts([ids(h) for h in hands], ids(board), [[1] * len(hands)])
    return [Fraction(int(x), allin.SHARE_UNITS * runouts) for x in out[0]]


def test_evaluator_orders_hands_as_phevaluator_does() -> None:
    nxt, values, flush = allin._tables()
    rng = random.Random(14)

    def value(cards: list[int]) -> int:
        s = 0
        for c in cards:
            s = int(nxt[s, c // 4])
        for suit in range(4):
            mine = [c // 4 for c in cards if c % 4 == suit]
            if len(mine) >= 5:
                return int(flush[sum(1 << r for r in mine)])
        return int(values[s])

    for _ in range(20_000):
        cs = rng.sample(range(52), 9)
        a, b = cs[:7], cs[2:]
        assert np.sign(value(a) - value(b)) == np.sign(ev7(*b) - ev7(*a))


@pytest.mark.parametrize(("hands", "board"), [
    (["AhAd", "KsKc"], "Qs7h2c"),              # flop: 990 run-outs
    (["AsKs", "QhQd"], "Js9s2h"),              # flop, flush and straight draws
    (["7c7d", "AhKh", "QsJs"], "Th9h2s"),     # three-way flop
    (["AhAd", "KsKc"], "Qs7h2c5d"),            # turn: 44 run-outs
    (["AcKd", "AhKs"], "QsJh2c9d"),            # turn, mostly a split pot
    (["2c2d", "3h3s"], "AhAdAsKc"),            # turn, the board plays unless a 2 or 3 falls
])
def test_flop_and_turn_equity_equals_plain_enumeration(hands: list[str], board: str) -> None:
    assert exact(hands, board) == brute(hands, board)


def test_aces_against_kings_preflop_is_exact() -> None:
    """AhAd vs KsKc over all 1,712,304 boards equals a plain-Python deal of the same boards
    (81.26%: kings of two other suits keep both their flushes); the table gives the same figure
    in either seat order, and AA against KK over all 36 suit combinations is the textbook
    81.9% / 18.1%."""
    got = exact(["AhAd", "KsKc"], "")
    assert got == brute(["AhAd", "KsKc"], "")
    assert sum(got) == 1 and round(float(got[0]), 4) == 0.8126
    table = allin.preflop_headsup_equity(np.array([ids("AhAdKsKc"), ids("KsKcAhAd")]))
    if table is None:
        pytest.fail("the preflop table detectors/models/allin_preflop_headsup.json is missing")
    assert table[0] == pytest.approx(float(got[0]), abs=1e-12)
    assert table[1] == pytest.approx(float(got[1]), abs=1e-12)  # the seat order is honoured
    batch = allin._headsup_batch(np.array([ids("AhAdKsKc")]), np.full((1, 5), -1), np.array([0]), *allin._tables())
    assert batch[0] == pytest.approx(float(got[0]), abs=1e-12)  # the path taken without the table
    aces = itertools.combinations([c for c in range(52) if c // 4 == 12], 2)
    kings = list(itertools.combinations([c for c in range(52) if c // 4 == 11], 2))
    combos = np.array([[*a, *k] for a in aces for k in kings])
    eq = allin.preflop_headsup_equity(combos)
    assert eq is not None and len(eq) == 36
    assert (round(float(eq.mean()), 3), round(1 - float(eq.mean()), 3)) == (0.819, 0.181)


def test_preflop_table_entries_equal_the_enumerator() -> None:
    """Sampled entries of the shipped table, recomputed; and every suit relabeling of a matchup
    finds the same entry."""
    table = allin.preflop_table()
    assert table is not None and len(table[0]) == 47_008
    keys, halves = table
    rng = random.Random(7)
    for at in rng.sample(range(len(keys)), 12):
        out, runouts = allin.share_counts(allin._unpack(int(keys[at])), [], [[1, 1]])
        assert runouts == allin.PREFLOP_RUNOUTS and out[0, 0] * 2 // allin.SHARE_UNITS == halves[at]
    base = ids("AsKs") + ids("QhJd")
    variants = np.array([[c // 4 * 4 + perm[c % 4] for c in base] for perm in itertools.permutations(range(4))])
    eq = allin.preflop_headsup_equity(variants)
    assert eq is not None and np.ptp(eq) == 0


def test_preflop_rank_patterns_equal_dealing_every_board() -> None:
    """Preflop, counting by rank pattern with the flush boards walked apart gives, to the share
    unit, what dealing each of the boards gives: random 2- to 9-way deals (fixed seed), with a
    side pot the first player cannot win."""
    nxt, values, flush = allin._tables()
    rng = random.Random(41)
    for n in (2, 3, 3, 4, 5, 6, 9):
        cards = rng.sample(range(52), 2 * n)
        hole = np.array(cards, dtype=np.int64).reshape(n, 2)
        elig = np.array([[1] * n, [0] + [1] * (n - 1)] if n > 2 else [[1, 1]], dtype=np.int64)
        counted, runouts = allin._preflop_counts(hole, elig, nxt, values, flush, allin._BINOM)
        dealt, boards = allin._share_counts(hole, np.zeros(0, dtype=np.int64), elig, nxt, values, flush)
        assert runouts == boards == math.comb(52 - 2 * n, 5)
        assert (counted == dealt).all(), hole.tolist()


def test_side_pots_go_to_the_players_eligible_for_them() -> None:
    """A short stack all-in for 100 against two covering players who put in 300 each, plus 50
    dead from a folder: main pot 350 among three, side pot 400 between the two."""
    amounts, elig = allin.pot_layers([100, 300, 300], [50])
    assert amounts == [350, 400] and elig == [[1, 1, 1], [0, 1, 1]]
    assert allin.pot_layers([300, 100], []) == ([200, 200], [[1, 1], [1, 0]])  # the excess comes back
    # the shortest stack holds the nuts on the flop: it wins the main pot; the side pot is a race
    hands, board = ["AhKh", "2c2d", "7s8s"], "QhJhTh"
    out, runouts = allin.share_counts([ids(h) for h in hands], ids(board), [[1, 1, 1], [0, 1, 1]])
    main = [Fraction(int(x), allin.SHARE_UNITS * runouts) for x in out[0]]
    side = [Fraction(int(x), allin.SHARE_UNITS * runouts) for x in out[1]]
    assert main == [1, 0, 0]
    assert side[0] == 0 and side[1:] == brute(hands[1:], board, dead=hands[0])


def test_apportion_keeps_the_pot_whole() -> None:
    """Whole chips summing to what was paid out (largest remainder; rake scales every share)."""
    assert allin.apportion([33.5, 33.5, 33.0], 100) == [34, 33, 33]
    assert allin.apportion([50.0, 50.0], 95) == [48, 47]
    assert sum(allin.apportion([0.3, 0.3, 0.4], 1)) == 1


def test_vectorised_headsup_path_equals_the_general_one() -> None:
    """Heads-up candidates (preflop from the table, flop and turn enumerated; dead money, a deeper
    stack's excess, rake) give what the general side-pot path gives, to the chip, and each hand's
    results add up to what was paid out."""
    import polars as pl

    cand = pl.DataFrame({
        "hand_id": ["h1", "h2", "h3", "h4"],
        "variant": ["holdem"] * 4,
        "ps": [["a", "b"], ["a", "b"], ["c", "d"], ["c", "d"]],
        "cs": [["AhAd", "KsKc"], ["AsKs", "QhQd"], ["7c7d", "AhKh"], ["2c2d", "3h3s"]],
        "puts": [[1000, 1000], [500, 1200], [800, 300], [400, 400]],
        "dead": [[], [50, 20], [100], [600]],
        "pot": [1950, 1050, 1180, 1400],
        "board_then": ["", "Js9s2h", "Th9h2s", "AhAdAsKc"],
    }, schema_overrides={"puts": pl.List(pl.Int64), "dead": pl.List(pl.Int64), "pot": pl.Int64})
    fast = allin._headsup_ev(cand).sort("hand_id", "player")
    general = allin._multiway_ev(cand).sort("hand_id", "player")
    assert fast.select("hand_id", "player").equals(general.select("hand_id", "player"))
    assert (fast["ev_net"] - general["ev_net"]).abs().max() <= 1  # a half-chip tie may round either way
    paid = {h: sum(p) for h, p in zip(cand["hand_id"], cand["puts"], strict=True)}
    pot = dict(zip(cand["hand_id"], cand["pot"], strict=True))
    for h, total in fast.group_by("hand_id").agg(pl.col("ev_net").sum()).iter_rows():
        assert total == pot[h] - paid[h]
