"""PokerStars lines that move no chips and show no cards: both PokerStars readers skip them.

Why one module: the exact line parser (``pokerstars.py``) and the columnar fast path
(``pokerstars_fast.py``) must skip exactly the same lines, or they would read a hand differently.
"""

from __future__ import annotations

#: verbs of "name: verb" lines that carry nothing
IGNORED_VERBS = ("is sitting out", "sits out", "is back", "is away", "doesn't show hand")
#: endings of lines without "name: " that carry nothing (table chatter, seating)
IGNORED_SUFFIXES = (
    " leaves the table",
    " is disconnected",
    " is connected",
    " has timed out",
    " has timed out while disconnected",
    " has timed out while being disconnected",
    " has returned",
    " will be allowed to play after the button",
    " was removed from the table for failing to post",
    " is sitting out",
    " sits out",
)
#: whole lines that carry nothing
IGNORED_LINES = ("No low hand qualified", "Betting is capped")
#: pieces of tournament lines that carry nothing for the hand
IGNORED_PARTS = (
    " joins the table at seat #",
    " finished the tournament",
    " wins the tournament",
    " re-buys and receives ",
    " takes the add-on and receives ",
    " bounty for eliminating ",
    " for eliminating ",  # progressive knockouts: "wins $19.90 for eliminating X and their own bounty ..."
    " for splitting the elimination of ",
    " wins an entry to tournament #",
)
