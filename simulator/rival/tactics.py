"""Collusion tactics: each one looks at a team member's spot and the honest answer, and may replace it.

Why "replace the honest answer": evidence is defined as a hand where the tactic changed a
decision, so every tactic starts from what the player would have done alone and the room logs the
hand only when the answer differs. Labels starting with "_" are supporting moves (entering a pot,
holding on) that set up the act; they are never logged as evidence on their own.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from simulator.rival.cards import TWO_PAIR, category, evaluate
from simulator.rival.engine import BET, CALL, CHECK, FOLD, RAISE, Decision, Player, Spot
from simulator.rival.strength import preflop_equity, preflop_pct

FAMILIES = ("soft_play", "chip_dumping", "squeeze", "card_sharing")
Move = tuple[Decision, str] | None


@dataclass
class Team:
    """A collusion ring: who, which tactics, how often it fires, and the evidence it left."""

    id: str
    family: str
    implementation: str
    intensity: float
    members: list[str]
    together: float  # share of sessions the members start together
    evidence: list[dict[str, object]] = field(default_factory=list)

    @property
    def tactics(self) -> list[str]:
        """Tactic names; a mixed team lists its dominant family's tactic first."""
        return self.implementation.removeprefix("mix:").split("+")


@dataclass
class Ctx:
    """What a tactic may look at: the spot, the honest answer, the team and this hand's plan."""

    spot: Spot
    honest: Decision
    team: Team
    tactic: str
    rng: random.Random
    redecide: Callable[[tuple[int, ...]], Decision]

    @property
    def me(self) -> Player:
        return self.spot.me

    def partners(self) -> list[Player]:
        """Team mates still holding cards."""
        return [q for q in self.spot.state.live() if q.name in self.team.members and q is not self.me]

    def outsiders(self) -> list[Player]:
        """Live players outside the team."""
        return [q for q in self.spot.state.live() if q.name not in self.team.members]

    def heads_up_partner(self) -> Player | None:
        """The one partner left when only the two of us hold cards."""
        live = self.spot.state.live()
        if len(live) == 2:
            other = live[0] if live[1] is self.me else live[1]
            if other.name in self.team.members:
                return other
        return None


def _aggressive(d: Decision) -> bool:
    return d.kind in (BET, RAISE)


def _passive(spot: Spot) -> Decision:
    return Decision(CALL if spot.to_call else CHECK)


def _strong_now(p: Player, board: list[int]) -> bool:
    """A captain's hand worth pumping: a premium pre-flop, two pair or better after."""
    if not board:
        return preflop_pct(p.hole) < 0.1
    return category(evaluate([*p.hole, *board])) >= TWO_PAIR


def _ahead(a: Player, b: Player, board: list[int]) -> bool:
    if not board:
        return preflop_equity(a.hole, 1) > preflop_equity(b.hole, 1)
    return evaluate([*a.hole, *board]) > evaluate([*b.hole, *board])


# ---------------------------------------------------------------- soft play
def check_down(c: Ctx) -> Move:
    """Only team mates left: never bet or raise into them, check it down."""
    if c.partners() and not c.outsiders() and _aggressive(c.honest):
        return _passive(c.spot), "check_down_vs_partner"
    return None


def fold_to_partner(c: Ctx) -> Move:
    """A partner's bet is respected far more than anyone else's: fold hands that would continue."""
    s = c.spot
    if s.to_call and s.state.aggressor in c.team.members and s.state.aggressor != c.me.name \
            and c.honest.kind in (CALL, RAISE) and len(c.outsiders()) <= 1:
        return Decision(FOLD), "fold_to_partner_bet"
    return None


def no_reraise_multiway(c: Ctx) -> Move:
    """With others still in, never raise over a partner's bet and never lead into a partner who checked."""
    s = c.spot
    if not c.partners() or not _aggressive(c.honest):
        return None
    if s.state.aggressor in c.team.members and s.state.aggressor != c.me.name:
        return Decision(CALL), "no_raise_over_partner"
    checked = any(st == s.state.street and n in c.team.members and k == CHECK for st, n, k, _ in s.state.log)
    if checked and s.to_call == 0:
        return Decision(CHECK), "no_bet_after_partner_check"
    return None


# ---------------------------------------------------------------- chip dumping
def _dump_roles(c: Ctx) -> tuple[bool, str]:
    """Donors are every member but the last; the last receives."""
    receiver = c.team.members[-1]
    return c.me.name != receiver, receiver


def _enter(c: Ctx, receiver: str) -> Move:
    """Pre-flop, a donor follows the receiver into the pot instead of folding."""
    s = c.spot
    r = next((q for q in s.state.live() if q.name == receiver), None)
    if s.state.street == 0 and r is not None and r.voluntary and c.honest.kind == FOLD \
            and s.to_call <= 0.12 * c.me.chips:
        return Decision(CALL), "_dump_enter"
    return None


def _bet_then_fold(c: Ctx, size: Callable[[Spot], int], act: str, street_ok: bool = True) -> Move:
    donor, receiver = _dump_roles(c)
    s = c.spot
    partner = c.heads_up_partner()
    if partner is None:
        return _enter(c, receiver) if donor else None
    if donor:
        if s.state.aggressor == receiver and c.me.street_in > 0:
            return (Decision(FOLD), act) if c.honest.kind != FOLD else None
        if not street_ok:
            return (_passive(s), "_dump_call_down") if c.honest.kind == FOLD else None
        if s.to_call == 0 or s.state.aggressor == receiver:
            return Decision(BET if s.to_call == 0 else RAISE, size(s)), "_dump_bet"
        return None
    if s.to_call and s.state.aggressor == partner.name and s.can_raise and not partner.all_in:
        return Decision(RAISE, s.min_to if s.state.raises < 2 else int(s.state.level * 2.5)), "_dump_raise"
    if c.honest.kind == FOLD and s.to_call:
        return Decision(CALL), "_dump_hold"
    return None


def bet_fold(c: Ctx) -> Move:
    """Donor bets half to most of the pot, receiver raises, donor folds."""
    return _bet_then_fold(c, lambda s: max(s.min_to, int(s.state.pot * c.rng.choice((0.5, 0.66, 0.8)))),
                          "bet_fold_to_partner")


def min_bet_drip(c: Ctx) -> Move:
    """Many small transfers: donor min-bets, receiver min-raises, donor folds."""
    return _bet_then_fold(c, lambda s: s.min_to, "min_bet_fold_to_partner")


def river_overbet_fold(c: Ctx) -> Move:
    """Donor calls down, overbets the river, folds to the receiver's raise."""
    street_ok = c.spot.state.street == 3
    return _bet_then_fold(c, lambda s: min(s.max_to, max(s.min_to, int(s.state.pot * c.rng.choice((1.5, 2.0, 2.5))))),
                          "river_overbet_fold", street_ok)


def trash_call_shove(c: Ctx) -> Move:
    """The receiver shoves when ahead of the donor; the donor calls it off with trash."""
    donor, receiver = _dump_roles(c)
    s = c.spot
    partner = c.heads_up_partner()
    if partner is None:
        return _enter(c, receiver) if donor else None
    if donor:
        if partner.all_in and s.to_call and c.honest.kind == FOLD:
            return Decision(CALL), "call_partner_shove_with_trash"
        if s.to_call == 0 and _aggressive(c.honest):
            return Decision(CHECK), "_dump_check"
        return None
    if _ahead(c.me, partner, s.state.board) and s.can_raise and c.honest.kind != RAISE:
        return Decision(RAISE if s.to_call else BET, s.max_to), "_dump_shove"
    return None


# ---------------------------------------------------------------- squeeze
def _caught(c: Ctx) -> bool:
    """An outsider with chips behind is in the pot, so a raise can trap them."""
    return any(not q.all_in for q in c.outsiders())


def whipsaw(c: Ctx) -> Move:
    """Partner bet or raised and an outsider is caught between: re-raise over the partner."""
    s = c.spot
    agg = s.state.aggressor
    if not (c.partners() and _caught(c) and s.to_call and s.can_raise):
        return None
    if agg in c.team.members and agg != c.me.name and s.state.raises <= 3 and c.honest.kind != RAISE:
        return Decision(RAISE, int(s.state.level * 2.6)), "whipsaw_reraise"
    if agg in c.team.members and c.honest.kind == FOLD:
        return Decision(CALL), "_whipsaw_hold"
    return None


def lead_and_raise(c: Ctx) -> Move:
    """After the flop one partner leads, the other raises behind with an outsider in between."""
    s = c.spot
    if s.state.street == 0 or not (c.partners() and _caught(c)):
        return None
    if s.to_call == 0 and s.state.raises == 0 and not _aggressive(c.honest):
        return Decision(BET, int(s.state.pot * 0.55)), "_squeeze_lead"
    agg = s.state.aggressor
    if agg in c.team.members and agg != c.me.name and s.can_raise and s.state.raises == 1 \
            and c.honest.kind != RAISE:
        return Decision(RAISE, int(s.state.level * 3)), "lead_and_raise"
    if agg and agg not in c.team.members and c.me.street_in > 0 and c.honest.kind == FOLD:
        return Decision(CALL), "_squeeze_hold"
    return None


def isolation(c: Ctx) -> Move:
    """Pre-flop a big raise clears the outsiders for a strong partner; afterwards give the pot up."""
    s = c.spot
    partners = c.partners()
    if not partners:
        return None
    strong = [q for q in partners if q.voluntary and preflop_pct(q.hole) < 0.15]
    if s.state.street == 0 and strong and c.outsiders() and s.can_raise and s.state.raises <= 2 \
            and c.honest.kind != RAISE:
        return Decision(RAISE, int(max(s.state.level, s.state.stake.bb) * 4.5)), "isolation_raise"
    if s.state.street == 0 and not c.outsiders() and s.to_call and c.honest.kind == FOLD:
        return Decision(CALL), "_iso_hold"
    if s.state.street > 0 and not c.outsiders():
        if preflop_pct(c.me.hole) >= 0.15 and c.honest.kind != FOLD and s.to_call:
            return Decision(FOLD), "fold_to_isolated_partner"
        if s.to_call == 0 and _aggressive(c.honest) and preflop_pct(c.me.hole) >= 0.15:
            return Decision(CHECK), "_iso_check"
    return None


# ---------------------------------------------------------------- card sharing
def weaker_folds(c: Ctx) -> Move:
    """Seeing a partner's cards, the weaker hand gets out of the stronger one's way."""
    s = c.spot
    board = s.state.board
    stronger = [q for q in c.partners() if _ahead(q, c.me, board)]
    if not stronger or c.honest.kind == FOLD:
        return None
    if s.to_call:
        return Decision(FOLD), "fold_weaker_to_partner"
    if _aggressive(c.honest):
        return Decision(CHECK), "check_weaker_for_partner"
    return None


def dead_cards(c: Ctx) -> Move:
    """Partners' hole cards are out of the deck: re-think the equity without them."""
    s = c.spot
    if s.state.street == 0:
        return None
    dead = tuple(sorted(card for q in s.state.players if q.name in c.team.members and q is not c.me
                        for card in q.hole))
    if not dead:
        return None
    informed = c.redecide(dead)
    if informed.kind != c.honest.kind:
        return informed, f"dead_card_{informed.kind}"
    return None


def captain_pump(c: Ctx) -> Move:
    """The captain plays; the others raise to build the pot when the captain holds a monster."""
    s = c.spot
    captain = c.team.members[0]
    if c.me.name == captain:
        return None
    cap = next((q for q in c.partners() if q.name == captain), None)
    if cap is None or not c.outsiders():
        return None
    if _strong_now(cap, s.state.board):
        if s.can_raise and s.state.raises < 3 and not _aggressive(c.honest) and not cap.all_in:
            to = int(max(s.state.level, s.state.stake.bb) * 3) if s.state.level else int(s.state.pot * 0.7)
            return Decision(RAISE if s.to_call else BET, to), "pump_for_captain"
        if c.honest.kind == FOLD and s.to_call:
            return Decision(CALL), "_pump_hold"
    elif c.honest.kind != FOLD and s.to_call and not _ahead(c.me, cap, s.state.board):
        return Decision(FOLD), "fold_for_captain"
    return None


TACTICS: dict[str, Callable[[Ctx], Move]] = {
    "check_down": check_down,
    "fold_to_partner": fold_to_partner,
    "no_reraise_multiway": no_reraise_multiway,
    "bet_fold": bet_fold,
    "min_bet_drip": min_bet_drip,
    "river_overbet_fold": river_overbet_fold,
    "trash_call_shove": trash_call_shove,
    "whipsaw": whipsaw,
    "lead_and_raise": lead_and_raise,
    "isolation": isolation,
    "weaker_folds": weaker_folds,
    "dead_cards": dead_cards,
    "captain_pump": captain_pump,
}

#: the room's rings: (family, implementation, size, intensity factor, share of sessions together)
ROSTER: tuple[tuple[str, str, int, float, float], ...] = (
    ("soft_play", "check_down", 2, 1.0, 0.7),
    ("soft_play", "fold_to_partner+no_reraise_multiway", 2, 0.8, 0.6),
    ("chip_dumping", "bet_fold+min_bet_drip", 3, 0.7, 0.6),
    ("chip_dumping", "trash_call_shove+river_overbet_fold", 2, 0.9, 0.55),
    ("squeeze", "whipsaw", 2, 1.0, 0.65),
    ("squeeze", "lead_and_raise+isolation", 3, 0.8, 0.6),
    ("card_sharing", "weaker_folds+dead_cards", 2, 1.0, 0.7),
    ("card_sharing", "captain_pump", 3, 0.9, 0.6),
    ("soft_play", "mix:check_down+min_bet_drip", 2, 0.9, 0.65),
    ("squeeze", "whipsaw+isolation", 2, 0.6, 0.5),
)
