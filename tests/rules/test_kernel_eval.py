"""The kernel's direct best-of-n evaluator (``rules.kernel.best_any5``) against plain enumeration.

Why: the showdown check scores a hold'em player's best five of seven from rank counts and suit
masks instead of 21 five-card evaluations; it must give exactly the score the enumeration of
``eval5`` gives (the equivalence test only sees the hands that reach a showdown), for every category,
any card count, and refuse (-1) cards that are not all distinct so the caller enumerates them.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from rules.kernel import best_any5, best_high, eval5


def _enumerated(cards: list[int]) -> int:
    cnt = np.zeros(32, np.int64)
    return max(eval5(np.array(five, np.int64), cnt) for five in combinations(cards, 5))


def _direct(cards: list[int]) -> int:
    return int(best_any5(np.array(cards, np.int64), len(cards), np.zeros(32, np.int64)))


def _ids(text: str) -> list[int]:
    ranks, suits = "23456789TJQKA", "cdhs"
    return [ranks.index(text[i]) * 4 + suits.index(text[i + 1]) for i in range(0, len(text), 2)]


def test_random_hands_score_as_enumeration() -> None:
    rng = np.random.default_rng(11)
    for m in (5, 6, 7, 7, 7, 8, 9):
        for _ in range(400):
            cards = [int(c) for c in rng.permutation(52)[:m]]
            assert _direct(cards) == _enumerated(cards), cards


def test_every_category_scores_as_enumeration() -> None:
    """Hands written to hit each category and the tie-break corners (wheel, three pairs, two trips,
    quads with a pair, flush beside a straight, flush beside trips, a six-card flush, straight flush)."""
    hands = [
        "AcKdQh9s7c5d2h",  # high card
        "AcAdQh9s7c5d2h",  # pair
        "AcAdQhQs7c7d2h",  # three pairs: the third pair is the kicker
        "AcAdAhQs7c5d2h",  # trips
        "AcAdAhQsQc5d2h",  # full house
        "AcAdAhQsQcQd2h",  # two trips: full house, aces over queens
        "AcAdAhAsQcQd2h",  # quads with a pair: the kicker is a queen
        "Ac2d3h4s5c9dKh",  # wheel
        "6c2d3h4s5cAdKh",  # six-high straight beats the wheel
        "Ac2c3c4c5cKdKh",  # steel wheel (straight flush)
        "9h8h7h6h5h4h2c",  # seven-card straight flush
        "AhKh9h6h2h3c4d",  # flush beside a straight
        "AhKh9h6h2hAsAd",  # flush beside trips
        "AhKh9h6h2h3hQd",  # six of a suit: the top five
        "TsJsQsKsAsAdAh",  # royal flush beside trips
    ]
    for text in hands:
        cards = _ids(text)
        assert _direct(cards) == _enumerated(cards), text


def test_repeated_card_is_refused_and_enumerated() -> None:
    """A card listed twice (a malformed hand) is not scored directly; ``best_high`` enumerates it."""
    cards = _ids("AcAcKdQh9s7c5d")
    assert _direct(cards) == -1
    hole = np.array(cards[:2], np.int64)
    board = np.array(cards[2:], np.int64)
    assert best_high(hole, 2, board, 5, False) == _enumerated(cards)
