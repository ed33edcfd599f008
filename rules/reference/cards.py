"""Card codes → integer ids, and hand strength via phevaluator (lower rank value = stronger).

Why ids: phevaluator's C functions take ``rank * 4 + suit`` integers; converting once per hand keeps
showdown checks at a few microseconds.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from phevaluator import _pheval

RANKS = "23456789TJQKA"
SUITS = "cdhs"
_ID = {r + s: i * 4 + j for i, r in enumerate(RANKS) for j, s in enumerate(SUITS)}
_ID.update({r.lower() + s: v for r, s, v in ((k[0], k[1], v) for k, v in list(_ID.items()))})
_ID.update({"1" + "0" + s: _ID["T" + s] for s in SUITS})


def split_cards(text: str) -> list[str]:
    """'AhKd' → ['Ah', 'Kd'] (also accepts '10h'); unknown cards are '??'."""
    out: list[str] = []
    i = 0
    text = text.replace(" ", "")
    while i < len(text):
        step = 3 if text.startswith("10", i) else 2
        out.append(text[i : i + step])
        i += step
    return out


def card_ids(text: str | None) -> tuple[int | None, ...]:
    """Ids of the cards in a code string; None for unknown or invalid cards (cached: a hand's
    card strings recur across its hole cards, shows and boards, and across hands)."""
    if not text:
        return ()
    return _card_ids(text)


@lru_cache(maxsize=1 << 16)
def _card_ids(text: str) -> tuple[int | None, ...]:
    return tuple(_ID.get(c) for c in split_cards(text))


def best_high(hole: list[int], board: list[int], omaha: bool) -> int:
    """phevaluator rank of the best high hand (lower is better). Omaha: exactly two hole cards."""
    if not omaha:
        cards = hole + board
        n = len(cards)
        if n == 7:
            return int(_pheval.evaluate_7cards(*cards))
        if n == 6:
            return int(_pheval.evaluate_6cards(*cards))
        if n == 5:
            return int(_pheval.evaluate_5cards(*cards))
        return min(int(_pheval.evaluate_5cards(*c)) for c in combinations(cards, 5))
    if len(hole) == 4 and len(board) == 5:
        return int(_pheval.evaluate_omaha_cards(*board, *hole))
    return min(int(_pheval.evaluate_5cards(*h, *b)) for h in combinations(hole, 2) for b in combinations(board, 3))


def _low5(cards: tuple[int, ...]) -> tuple[int, ...] | None:
    """Eight-or-better low of exactly five cards (ace low), as descending ranks; None if none."""
    ranks = sorted({1 if c // 4 == 12 else c // 4 + 2 for c in cards}, reverse=True)
    if len(ranks) != 5 or ranks[0] > 8:
        return None
    return tuple(ranks)


def best_low(hole: list[int], board: list[int], omaha: bool) -> tuple[int, ...] | None:
    """Best qualifying eight-or-better low (smaller tuple is better), None when there is none."""
    combos = (
        (h + b for h in combinations(hole, 2) for b in combinations(board, 3))
        if omaha
        else combinations(hole + board, 5)
    )
    lows = [lo for c in combos if (lo := _low5(tuple(c))) is not None]
    return min(lows) if lows else None
