"""Collusion rings: who is in a team and how its tactic bends an honest decision.

Why: a team plays honestly most of the time; only in a share of the hands its members share
(its intensity), and only when the situation allows, does the tactic replace the honest action.
Each tactic returns the replacement (or None) plus a few words for the evidence log.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from simulator.outsider.cards import category, evaluate, preflop_equity
from simulator.outsider.engine import Hand, blind_seats
from simulator.outsider.models import Action

Tactic = Callable[["Team", Hand, int, Action, random.Random], "tuple[Action, str] | None"]


@dataclass
class Team:
    """A colluding team; ``members[0]`` is the receiver for chip dumping."""

    id: str
    family: str
    implementation: str
    intensity: float
    members: list[str]
    evidence: list[dict[str, object]] = field(default_factory=list)

    def seats_of(self, hand: Hand) -> list[int]:
        """Indices of members dealt into ``hand``."""
        return [i for i, s in enumerate(hand.seats) if s.name in self.members]


def _partners_live(team: Team, hand: Hand, i: int) -> list[int]:
    """Other members still holding cards."""
    return [j for j in team.seats_of(hand) if j != i and not hand.seats[j].folded]


def _outsiders_live(team: Team, hand: Hand) -> list[int]:
    """Live players who are not in the team."""
    return [j for j in hand.live() if hand.seats[j].name not in team.members]


def _strength(hand: Hand, j: int) -> float:
    """Comparable hand strength: preflop class equity, later the made hand."""
    s = hand.seats[j]
    if not hand.board:
        return preflop_equity(s.hole, 1)
    return float(evaluate([*s.hole, *hand.board]))


def _facing_partner(team: Team, hand: Hand, i: int) -> bool:
    """The last bet or raise on this street came from a team-mate."""
    a = hand.aggressor
    return a >= 0 and a != i and hand.seats[a].name in team.members and hand.cur_bet > hand.seats[i].street_in


def _pot_bet(hand: Hand, i: int, share: float) -> Action:
    """A bet or raise worth ``share`` of the pot on top of any call."""
    sp = hand.spot(i)
    return Action("raise", sp.cur_bet + int((sp.pot + sp.to_call) * share))


# --- soft play -------------------------------------------------------------------------------

def truce_no_reraise(team: Team, hand: Hand, i: int, honest: Action, rng: random.Random) -> tuple[Action, str] | None:
    """Never re-raise a team-mate and never bet into one heads-up: flat-call or check instead."""
    if honest.kind != "raise":
        return None
    if _facing_partner(team, hand, i):
        return Action("call"), "flat-called instead of re-raising a team-mate"
    if hand.cur_bet == 0 and not _outsiders_live(team, hand) and _partners_live(team, hand, i):
        return Action("check"), "checked instead of betting into a team-mate heads-up"
    return None


def checkdown_pact(team: Team, hand: Hand, i: int, honest: Action, rng: random.Random) -> tuple[Action, str] | None:
    """Once only team-mates are left, check it down: no bets, no raises, no folds."""
    if _outsiders_live(team, hand) or not _partners_live(team, hand, i):
        return None
    if honest.kind == "raise":
        return (Action("check") if hand.spot(i).to_call == 0 else Action("call")), "checked it down with a team-mate"
    if honest.kind == "fold" and hand.spot(i).to_call <= hand.table.bb:
        return Action("call"), "completed instead of folding with only a team-mate left"
    return None


def _near_nuts(hand: Hand, i: int) -> bool:
    """Too good to give up even for a team-mate: trips or better, or aces/kings preflop."""
    if hand.board:
        return category(evaluate([*hand.seats[i].hole, *hand.board])) >= 3
    return preflop_equity(hand.seats[i].hole, 1) > 0.8


def yield_to_partner(team: Team, hand: Hand, i: int, honest: Action, rng: random.Random) -> tuple[Action, str] | None:
    """Never contest a team-mate's pot: facing a bet, on any street, while a live team-mate has
    called, bet or raised, fold instead of calling or raising; never open-raise into a team-mate's
    big blind either. Near-nut hands still play."""
    if honest.kind == "fold" or hand.spot(i).to_call == 0 or _near_nuts(hand, i):
        return None
    partners = _partners_live(team, hand, i)
    if _facing_partner(team, hand, i):
        return Action("fold"), "folded to a team-mate's bet"
    if any(j in hand.entered for j in partners):
        return Action("fold"), "folded to stay out of a team-mate's pot"
    if (not hand.board and not hand.entered and honest.kind == "raise"
            and blind_seats(hand)[1] in partners):
        return Action("fold"), "folded rather than open into a team-mate's big blind"
    return None


# --- chip dumping ----------------------------------------------------------------------------

def _roles(team: Team, hand: Hand, i: int) -> tuple[bool, list[int]]:
    """(is ``i`` the receiver, the other live members)."""
    return hand.seats[i].name == team.members[0], _partners_live(team, hand, i)


def bet_fold_leak(team: Team, hand: Hand, i: int, honest: Action, rng: random.Random) -> tuple[Action, str] | None:
    """Dumper bets into the receiver, the receiver raises, the dumper folds."""
    receiver, partners = _roles(team, hand, i)
    if not hand.board or not partners:
        return None
    if not receiver and team.members[0] not in [hand.seats[j].name for j in partners]:
        return None
    sp = hand.spot(i)
    if receiver and _facing_partner(team, hand, i) and honest.kind != "raise" and sp.can_raise:
        return Action("raise", sp.cur_bet * 3), "raised the dumper's bet"
    if not receiver and sp.to_call == 0 and honest.kind != "raise":
        return _pot_bet(hand, i, rng.uniform(0.6, 0.9)), "bet into the receiver to fold later"
    if not receiver and _facing_partner(team, hand, i) and honest.kind != "fold":
        return Action("fold"), "folded to the receiver's raise after betting"
    return None


def loose_calloff(team: Team, hand: Hand, i: int, honest: Action, rng: random.Random) -> tuple[Action, str] | None:
    """Whenever the receiver bets or raises into a dumper (any street, outsiders in or not), the
    dumper calls when behind and folds when ahead; heads-up post-flop the receiver bets any hand."""
    receiver, partners = _roles(team, hand, i)
    if not partners:
        return None
    sp = hand.spot(i)
    if receiver:
        if hand.board and sp.to_call == 0 and honest.kind != "raise" and not _outsiders_live(team, hand):
            return _pot_bet(hand, i, rng.uniform(0.6, 1.1)), "bet at the dumper with any hand"
        return None
    r = next((j for j in partners if hand.seats[j].name == team.members[0]), -1)
    if r < 0 or hand.aggressor != r or sp.to_call == 0:
        return None
    behind = _strength(hand, i) < _strength(hand, r)
    if behind and honest.kind == "fold":
        return Action("call"), "called off a losing hand to the receiver"
    if not behind and honest.kind != "fold":
        return Action("fold"), "folded a winning hand to the receiver"
    return None


def drip_transfer(team: Team, hand: Hand, i: int, honest: Action, rng: random.Random) -> tuple[Action, str] | None:
    """Small preflop gifts: dumper opens, receiver re-raises, dumper folds."""
    receiver, partners = _roles(team, hand, i)
    if hand.board or not partners:
        return None
    names = [hand.seats[j].name for j in partners]
    sp = hand.spot(i)
    if not receiver and team.members[0] in names:
        if hand.raises == 0 and honest.kind != "raise" and sp.can_raise:
            return Action("raise", int(hand.table.bb * rng.uniform(2.2, 3.0))), "opened to feed the receiver"
        if _facing_partner(team, hand, i) and honest.kind != "fold":
            return Action("fold"), "folded the open to the receiver's re-raise"
    if receiver and _facing_partner(team, hand, i) and hand.raises == 1 and honest.kind != "raise" and sp.can_raise:
        return Action("raise", sp.cur_bet * 3), "re-raised the dumper's open"
    return None


# --- squeeze / whipsaw -----------------------------------------------------------------------

def _outsider_called_partner(team: Team, hand: Hand, i: int) -> bool:
    """On this street a team-mate bet and an outsider then called it."""
    seen_partner_bet = False
    for j, kind, _ in hand.street_log:
        name = hand.seats[j].name
        if kind == "raise":
            seen_partner_bet = name in team.members and j != i
        elif kind == "call" and seen_partner_bet and name not in team.members:
            return True
    return False


def _end_war(team: Team, hand: Hand, i: int, honest: Action) -> tuple[Action, str] | None:
    """With no outsider left, the weaker team-mate folds to the other's raise."""
    partners = _partners_live(team, hand, i)
    if _outsiders_live(team, hand) or not partners or not _facing_partner(team, hand, i):
        return None
    if honest.kind != "fold" and _strength(hand, i) < max(_strength(hand, j) for j in partners):
        return Action("fold"), "folded the weaker hand once the outsider had left"
    return None


def sandwich_reraise(team: Team, hand: Hand, i: int, honest: Action, rng: random.Random) -> tuple[Action, str] | None:
    """An outsider who called a team-mate gets raised from behind, then re-raised by the first."""
    done = _end_war(team, hand, i, honest)
    if done:
        return done
    if honest.kind == "raise" or not _outsiders_live(team, hand) or not hand.spot(i).can_raise or hand.raises >= 4:
        return None
    if _outsider_called_partner(team, hand, i):
        return _pot_bet(hand, i, rng.uniform(0.8, 1.2)), "raised an outsider caught between team-mates"
    return None


def whipsaw_cap(team: Team, hand: Hand, i: int, honest: Action, rng: random.Random) -> tuple[Action, str] | None:
    """Post-flop: an outsider's bet is raised by one member and cold re-raised by the next."""
    done = _end_war(team, hand, i, honest)
    if done:
        return done
    if not hand.board or honest.kind == "raise" or not hand.spot(i).can_raise or hand.raises >= 4:
        return None
    a = hand.aggressor
    if a < 0 or not _partners_live(team, hand, i) or not _outsiders_live(team, hand):
        return None
    if hand.seats[a].name not in team.members:
        return _pot_bet(hand, i, rng.uniform(0.7, 1.0)), "raised an outsider's bet with a team-mate behind"
    if any(hand.seats[j].name not in team.members and not hand.seats[j].folded for j, _, _ in hand.street_log):
        return _pot_bet(hand, i, rng.uniform(0.7, 1.0)), "cold re-raised over a team-mate's raise"
    return None


# --- card sharing ----------------------------------------------------------------------------

def dead_card_fold(team: Team, hand: Hand, i: int, honest: Action, rng: random.Random) -> tuple[Action, str] | None:
    """Team-mates see each other's cards: the worse hand gets out of the partner's way."""
    partners = _partners_live(team, hand, i)
    if honest.kind == "fold" or not partners or not _outsiders_live(team, hand):
        return None
    if hand.spot(i).to_call == 0:
        return None
    if _strength(hand, i) < max(_strength(hand, j) for j in partners):
        return Action("fold"), "folded knowing a team-mate held the better hand"
    return None


def partner_pump(team: Team, hand: Hand, i: int, honest: Action, rng: random.Random) -> tuple[Action, str] | None:
    """When a team-mate holds a monster, a member with any cards builds the pot for them."""
    partners = _partners_live(team, hand, i)
    if honest.kind == "raise" or not partners or not _outsiders_live(team, hand) or hand.raises >= 3:
        return None
    sp = hand.spot(i)
    if not sp.can_raise or sp.to_call > sp.max_to // 3:
        return None
    best = max(partners, key=lambda j: _strength(hand, j))
    strong = (not hand.board and preflop_equity(hand.seats[best].hole, 1) >= 0.72) or (
        bool(hand.board) and category(evaluate([*hand.seats[best].hole, *hand.board])) >= 3)
    if strong and _strength(hand, i) < _strength(hand, best):
        return _pot_bet(hand, i, rng.uniform(0.6, 1.0)), "pumped the pot for a team-mate's strong hand"
    return None


#: family -> implementations, in the order teams are made
FAMILIES: dict[str, list[tuple[str, Tactic]]] = {
    "soft_play": [("truce_no_reraise", truce_no_reraise), ("checkdown_pact", checkdown_pact),
                  ("yield_to_partner", yield_to_partner)],
    "chip_dumping": [("bet_fold_leak", bet_fold_leak), ("loose_calloff", loose_calloff),
                     ("drip_transfer", drip_transfer)],
    "squeeze": [("sandwich_reraise", sandwich_reraise), ("whipsaw_cap", whipsaw_cap)],
    "card_sharing": [("dead_card_fold", dead_card_fold), ("partner_pump", partner_pump)],
}
TACTICS: dict[str, Tactic] = {name: fn for impls in FAMILIES.values() for name, fn in impls}
