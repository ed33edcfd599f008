"""Canonical hand model: what every parser produces and the warehouse stores.

Why this shape: parsers must be fast and exact, so a hand is one slotted dataclass holding
plain tuples (NamedTuples) for its child rows. Converting a batch of hands to columns is then
a zip, and every amount is an ``int`` in the hand's smallest unit (``unit_scale`` units make
one ``currency`` unit: 100 for cents, 1 for tournament or play chips).

Conventions every parser follows (the replay engine and reconciliation rely on them):

* ``Action.amount`` is the amount *as the site wrote it* (a call of 4 is 4, "raises 4 to 6"
  has amount 4 and ``raise_to`` 6; a bet has ``raise_to`` equal to the bet).
* ``Action.contribution`` is the chips that moved from the player's stack into the pot by this
  action, derived from what was written: a raise-to minus what the player already had in on
  that street, a call's amount, a post's amount; an uncalled return is negative; fold, check,
  show and muck are 0. Summing ``contribution`` per player gives what they put in.
* Posts: live blinds (``post_sb``, ``post_bb``, ``post_straddle``) count towards the player's
  bet on the street; ``post_ante``, ``post_bb_ante`` and ``post_dead`` are dead money and do not.
  "posts small & big blinds" is two rows: ``post_bb`` (live) then ``post_dead`` (the small blind).
* ``Award`` rows are what the site says each player collected, per pot and per board (run it
  twice gives one row per board). ``Pot`` rows are the pot sizes the site wrote, when it did.
* Nothing is ever patched to make a hand balance: reconciliation reports the difference.

Stud and draw games (issue 12) use the same rows plus a little more, so hold'em/omaha hands never
see a difference: their own streets (``third``..``seventh`` in stud, 5 card stud's second to fifth
street kept as ``third``..``sixth`` since the bring-in round is third street in every stud game;
``predraw`` and ``draw1``..``draw3`` in draw games: the betting after each draw), a ``bring_in`` post
(live: it counts towards the bet on third street), a ``complete`` (the bring-in raised to the full
small bet: ``raise_to`` is the bet), ``discard`` (``amount`` = cards thrown, ``cards`` when written)
and ``stand_pat`` actions, and ``StreetCards`` rows: the cards each player was seen to receive on
each street (stud up/down cards; a draw's new cards). ``HoleCards`` of such a hand are the player's
cards at the end of it (all seven stud cards when known, the five cards after the last draw).
``game_family(variant)`` says which family a hand is; ``Hand.mix`` names the rotation a hand was
dealt in ("8-Game", "HORSE").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import NamedTuple


class Street(StrEnum):
    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"
    SHOWDOWN = "showdown"
    # stud: betting rounds named by the card just dealt
    THIRD = "third"
    FOURTH = "fourth"
    FIFTH = "fifth"
    SIXTH = "sixth"
    SEVENTH = "seventh"
    # draw games: the betting before the first draw, then after each draw
    PREDRAW = "predraw"
    DRAW1 = "draw1"
    DRAW2 = "draw2"
    DRAW3 = "draw3"


class Kind(StrEnum):
    POST_SB = "post_sb"
    POST_BB = "post_bb"
    POST_ANTE = "post_ante"
    POST_BB_ANTE = "post_bb_ante"
    POST_STRADDLE = "post_straddle"
    POST_DEAD = "post_dead"
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    UNCALLED_RETURN = "uncalled_return"
    SHOW = "show"
    MUCK = "muck"
    CASH_OUT = "cash_out"
    # stud and draw games only (after CASH_OUT: the flop-game codes keep their order)
    BRING_IN = "bring_in"  # stud's forced opening bet, live (counts towards the third-street bet)
    COMPLETE = "complete"  # the bring-in raised to the full small bet (raise_to = the bet)
    DISCARD = "discard"  # amount: how many cards were thrown; cards: which, when written
    STAND_PAT = "stand_pat"


#: kinds that put live chips towards the player's bet on the current street
LIVE_POSTS = frozenset({Kind.POST_SB, Kind.POST_BB, Kind.POST_STRADDLE, Kind.BRING_IN})
#: kinds that are dead money (never count towards a bet)
DEAD_POSTS = frozenset({Kind.POST_ANTE, Kind.POST_BB_ANTE, Kind.POST_DEAD})
POSTS = LIVE_POSTS | DEAD_POSTS
#: voluntary betting decisions (what the rule checker replays)
DECISIONS = frozenset({Kind.FOLD, Kind.CHECK, Kind.CALL, Kind.BET, Kind.RAISE})

#: canonical variants of the stud and draw families (every other variant is a flop game)
#: ``razz27``: 2-7 razz (deuce-to-seven low: aces high, straights and flushes count against a hand)
STUD_VARIANTS = frozenset({"stud", "stud_hilo", "razz", "stud5", "razz27"})
#: ``badeucey`` / ``badacey``: triple draw, the pot split between the best badugi and the best 2-7 /
#: A-5 low; ``drawa5_single``: A-5 low with one draw
DRAW_VARIANTS = frozenset(
    {"draw27_triple", "draw27_single", "draw5", "badugi", "drawa5_triple", "drawa5_single", "badeucey", "badacey"}
)
#: the variants whose betting the flop-game replay does not model (rules.money checks their money only)
NON_FLOP_VARIANTS = STUD_VARIANTS | DRAW_VARIANTS
STUD_STREETS = (Street.THIRD, Street.FOURTH, Street.FIFTH, Street.SIXTH, Street.SEVENTH)
DRAW_STREETS = (Street.PREDRAW, Street.DRAW1, Street.DRAW2, Street.DRAW3)


def game_family(variant: str) -> str:
    """'stud', 'draw' or 'flop' (hold'em and omaha families: everything with a board)."""
    if variant in STUD_VARIANTS:
        return "stud"
    if variant in DRAW_VARIANTS:
        return "draw"
    return "flop"


class Provenance(StrEnum):
    DEALT = "dealt"  # dealt to the file's owner (hero)
    SHOWN = "shown"  # shown or mucked face up at showdown / summary
    OPERATOR = "operator"  # the export carries every player's cards (operator mode)


class Seat(NamedTuple):
    seat_no: int
    player: str
    stack: int
    sitting_out: bool = False
    #: final stack as the site wrote it (PHH finishing_stacks, ACPC payoffs), else None
    final_stack: int | None = None


class Action(NamedTuple):
    seq: int
    street: Street
    player: str
    kind: Kind
    amount: int | None = None
    raise_to: int | None = None
    all_in: bool = False
    contribution: int = 0
    cards: str | None = None  # for show / muck, e.g. "AhKd"
    #: when the site logged the action (UTC, naive, like ``Hand.started_at``), for formats that write a
    #: time per action (PokerNow ``at``, Merge ``timestamp``); None elsewhere. The CLOCK checks read it.
    acted_at: datetime | None = None
    #: a fold the site made because the player left the table mid-hand (BetOnline "X has left the table",
    #: written where it happened, often while another player is due): not a decision taken in turn, so the
    #: checker does not judge its order. False for every other action.
    left_table: bool = False


class HoleCards(NamedTuple):
    player: str
    cards: str  # concatenated, e.g. "AhKd" or "AhKdQsJc" (unknown cards as "??")
    provenance: Provenance


class Board(NamedTuple):
    board_no: int  # 1, or 1 and 2 (run it twice)
    cards: str  # concatenated, up to 5 cards, e.g. "Js9hJhQs2d"


class StreetCards(NamedTuple):
    """Cards a player was seen to receive on one street of a stud or draw hand."""

    player: str
    street: Street  # stud: third..seventh; draw: predraw (the deal), draw1..draw3 (cards drawn)
    cards: str  # concatenated as dealt, "??" for a card dealt but not shown
    face_up: bool  # stud up-cards; down cards and every draw card are False


#: the ``Hand.cancel_reason`` a check reads (a log may write others, e.g. "misdeal": kept, not judged)
CANCEL_MISSING_CARD = "missing_card"


class Pot(NamedTuple):
    pot_no: int  # 0 main pot, 1.. side pots
    amount: int  # as the site wrote it (may be before or after rake: the formats differ)
    #: the rake the house took from this pot, where the record writes it per pot (a live dealer's log);
    #: None where only the hand's rake is known (``Hand.site_rake``: every site export). The checker's
    #: RAKE.PER_POT_PROPORTIONAL reads it against the pot sizes the replay builds, not ``amount``.
    rake: int | None = None


class Award(NamedTuple):
    player: str
    amount: int
    pot_no: int = 0
    board_no: int = 1


@dataclass(slots=True)
class Hand:
    """One hand as the site wrote it, with every amount an integer in the smallest unit."""

    hand_id: str  # "<site>:<site hand number>", unique across sites
    site: str
    site_hand_no: str
    format: str  # parser name, e.g. "pokerstars"
    variant: str  # "holdem", "omaha", "omaha_hilo", "omaha5", "omaha5_hilo", "omaha6", "courchevel", ...
    betting: str  # "NL", "PL", "FL", "CAP"
    game_type: str  # "cash" or "tournament"
    table_name: str
    sb: int  # the small blind as posted (fixed limit too: the blinds, not the bet sizes)
    bb: int  # the big blind as posted; in fixed limit the small bet equals bb, the big bet 2 * bb
    currency: str  # ISO code, "CHIPS" (tournament / play) or "PLAY"
    unit_scale: int  # smallest units per currency unit (100 = cents)
    source_file: str
    byte_offset: int
    byte_length: int
    started_at: datetime | None = None  # UTC, naive
    tournament_id: str | None = None
    tournament_level: str | None = None
    max_seats: int | None = None
    button_seat: int | None = None
    ante: int = 0
    bb_ante: int = 0
    straddle: int = 0
    hero: str | None = None
    #: the site's own totals, as written (None when the format does not write them)
    site_total_pot: int | None = None
    site_rake: int | None = None
    site_fees: int | None = None  # jackpot / other drops the site takes beside the rake
    site_added: int | None = None  # money the site puts into the pot (GGPoker "Cash Drop")
    cancelled: bool = False
    seats: list[Seat] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    hole_cards: list[HoleCards] = field(default_factory=list)
    boards: list[Board] = field(default_factory=list)
    pots: list[Pot] = field(default_factory=list)
    awards: list[Award] = field(default_factory=list)
    # stud/draw games and mixed rotations (issue 12), after every older field: readers build a Hand
    # positionally (rules.store), so these come last and default to a flop game's values
    street_cards: list[StreetCards] = field(default_factory=list)
    #: the mixed-game rotation the hand was dealt in ("8-Game", "HORSE"), None outside one
    mix: str | None = None
    #: stud: the bring-in posted (0 elsewhere); fixed-limit bet sizes of stud/draw hands (None for
    #: flop games, whose FL small bet is ``bb``)
    bring_in: int = 0
    small_bet: int | None = None
    big_bet: int | None = None
    # issue 13: records the T1 rules need that no site export writes (a live dealer's or floor's log);
    # after every older field, each defaulting to "not written"
    #: board cards the dealer revealed after the hand ended, beyond those dealt (concatenated like
    #: ``Board.cards``), e.g. "Qs" for a river shown once everyone had folded; None when none were shown.
    #: Not a run-it-twice board (those are ``boards`` 2, 3). BOARD.RABBIT_HUNT reads it.
    rabbit_cards: str | None = None
    #: why a cancelled hand was voided, where the floor's log writes it, free text
    #: (``CANCEL_MISSING_CARD``: cards found missing from the deck); None when unstated (every export).
    #: DECK.MISSING_CARD reads it.
    cancel_reason: str | None = None
    #: the ``hand_id`` of the cancelled hand (a misdeal) this hand redeals; None for a hand that is no
    #: redeal. MISDEAL.REDEAL pairs the two (rules.sequence).
    redeal_of: str | None = None
    #: the players who declined to run the board more than once, where the log records the agreement;
    #: None when not written (every export). RUN_TWICE.DISSENTER reads it on a hand with several boards.
    rit_declined: list[str] | None = None

    @property
    def hole_cards_mode(self) -> str:
        """'operator' when every dealt-in player's cards are known, else 'player'."""
        if any(h.provenance is Provenance.OPERATOR for h in self.hole_cards):
            return "operator"
        return "player"


class ParseError(Exception):
    """A hand that cannot be read exactly. ``line`` is the 1-based line within the hand."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(reason if line is None else f"line {line}: {reason}")
        self.reason = reason
        self.line = line


@dataclass(slots=True)
class Quarantined:
    """A hand (or a piece of a file) that could not be parsed: kept with where and why."""

    source_file: str
    byte_offset: int
    raw_text: str
    reason: str
    format: str
