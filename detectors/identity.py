"""Which screen names are people: seat labels and anonymising aliases are not identities.

Why: some exports (Bovada/Ignition, anonymised research sets, PokerTracker re-exports, hero-only
downloads) write a position or a placeholder instead of the account name: "Big Blind", "Dealer",
"UTG+3", "Player5", "Hero". The same label is a different person in every hand or every file, so
a pair of labels is a pair of seats, not of people, and pair detection must skip it. The label
still counts as an opponent in everyone else's baselines (someone did sit there).
"""

from __future__ import annotations

import re

#: whole-name patterns (case-insensitive) that name a seat, a position or a placeholder
ANONYMOUS_PATTERNS: tuple[str, ...] = (
    r"hero",
    r"you",
    r"me",
    r"unknown",
    r"dealer",
    r"button",
    r"btn",
    r"small ?blind",
    r"big ?blind",
    r"sb",
    r"bb",
    r"utg ?(\+ ?\d+)?",
    r"utg ?\d+",
    r"ep ?\d*",
    r"mp ?(\+ ?\d+|\d+)?",
    r"lj",
    r"hj",
    r"hi-?jack",
    r"co",
    r"cut ?off",
    r"straddle",
    r"player ?\d+",
    r"seat ?\d+",
    r"p\d+",
    r"position ?\d+",
)

_ANONYMOUS = re.compile("^(?:" + "|".join(ANONYMOUS_PATTERNS) + ")$", re.IGNORECASE)


def is_anonymous(name: str) -> bool:
    """True when ``name`` is a seat label or placeholder rather than an account name."""
    return bool(_ANONYMOUS.match(name.strip()))


def anonymous_sql(column: str) -> str:
    """The same test as a DuckDB boolean expression over ``column`` (one regex, vectorised)."""
    pattern = "^(" + "|".join(ANONYMOUS_PATTERNS) + ")$"
    return f"regexp_matches(trim({column}), '{pattern}', 'i')"
