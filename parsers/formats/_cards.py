"""Strict reading of rank-first card tokens ('Ah', '10c', 'kd') as standard two-character cards.

Why shared: Full Tilt and PartyPoker write their cards the same way and must reject the same
malformed tokens; only how a card list is split into tokens differs between them.
"""

from __future__ import annotations

from collections.abc import Iterable

from parsers.model import ParseError


def rank_first_cards(tokens: Iterable[str]) -> str:
    """'Ah', '10c', 'kd' tokens -> 'AhTcKd'; anything else raises ParseError."""
    out = []
    for tok in tokens:
        rank, suit = tok[:-1].upper(), tok[-1:].lower()
        rank = "T" if rank == "10" else rank
        if len(rank) != 1 or rank not in "23456789TJQKA" or suit not in "shdc":
            raise ParseError(f"unreadable card {tok!r}")
        out.append(rank + suit)
    return "".join(out)
