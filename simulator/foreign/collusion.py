"""Colluding teams and their tactics, applied on top of the honest decision.

Each team has one family and one implementation.  In a hand where two or more members
are dealt in, the team's coin fires with probability ``intensity``; only then do tactics
override the honest decision.  Every act that happens is written to ``evidence``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from simulator.foreign.cards import evaluate, mc_equity, preflop_pct
from simulator.foreign.players import Brain, bet_to, honest, postflop_equity
from simulator.foreign.table import Decision, Hand

IMPLEMENTATIONS: dict[str, tuple[str, ...]] = {
    "soft_play": ("checkdown", "fold_to_partner", "no_raise_multiway"),
    "chip_dumping": ("bet_fold", "call_shove", "river_overbet", "small_transfers"),
    "squeeze": ("sandwich", "lead_raise", "isolation"),
    "card_sharing": ("fold_to_captain", "dead_cards"),
}


@dataclass
class Team:
    """A colluding team and what it did."""

    id: str
    family: str
    implementation: str
    intensity: float
    members: list[str]
    roles: dict[str, str] = field(default_factory=dict)
    evidence: list[dict[str, Any]] = field(default_factory=list)
    hands_together: int = 0
    firing: bool = False
    hand_id: str = ""
    acts: set[str] = field(default_factory=set)

    def receiver(self) -> str:
        """Chip-dumping receiver (first member)."""
        return self.members[0]

    def record(self, act: str, actor: str, partners: list[str]) -> None:
        """One evidence entry per act per hand."""
        if act in self.acts:
            return
        self.acts.add(act)
        self.evidence.append({"hand_id": self.hand_id, "act": act, "players": [actor, *partners]})


@dataclass
class Ctx:
    """What a tactic sees about the current decision."""

    hand: Hand
    i: int
    can_raise: bool
    brain: Brain
    team: Team
    honest: Decision
    mates: list[int]  # partner seat indices still in the hand
    outsiders: list[int]  # non-team seat indices still in the hand

    @property
    def name(self) -> str:
        """Actor's screen name."""
        return self.hand.seats[self.i].name

    def mate_names(self) -> list[str]:
        """Screen names of partners in the hand."""
        return [self.hand.seats[j].name for j in self.mates]

    def owe(self) -> int:
        """Chips to call."""
        return self.hand.to_call(self.i)

    def facing_mate(self) -> bool:
        """The bet we face was made by a partner."""
        return self.owe() > 0 and self.hand.aggressor in self.mates


def team_seats(hand: Hand, team: Team) -> list[int]:
    """Seat indices of team members dealt into this hand."""
    return [k for k, s in enumerate(hand.seats) if s.name in team.members]


def decide(ctx: Ctx) -> Decision:
    """Team decision: tactic override if one applies, else the honest decision."""
    fn = _TACTICS[ctx.team.implementation]
    out = fn(ctx)
    return ctx.honest if out is None else out


def _deviates(ctx: Ctx, dec: Decision) -> bool:
    """The collusive action differs from what the player would have done honestly."""
    return dec.kind != ctx.honest.kind and not (dec.kind in ("check", "call") and ctx.honest.kind in ("check", "call"))


def _partners_only(ctx: Ctx) -> bool:
    """Only team members are left in the hand."""
    return bool(ctx.mates) and not ctx.outsiders


# ---- soft play -------------------------------------------------------------------------------

def _checkdown(ctx: Ctx) -> Decision | None:
    """Heads-up (or only partners left): never bet into the partner, just check and call."""
    if not _partners_only(ctx):
        return None
    dec = Decision("call") if ctx.owe() > 0 else Decision("check")
    if ctx.hand.street != "preflop" or _deviates(ctx, dec) or ctx.honest.kind == "raise":
        ctx.team.record("checkdown", ctx.name, ctx.mate_names())
    return dec


def _fold_to_partner(ctx: Ctx) -> Decision | None:
    """Check it down, and also fold to a partner's bet even holding a hand worth a call or raise."""
    if ctx.facing_mate() and ctx.honest.kind in ("call", "raise"):
        ctx.team.record("fold_to_partner", ctx.name, ctx.mate_names())
        return Decision("fold")
    return _checkdown(ctx)


def _no_raise_multiway(ctx: Ctx) -> Decision | None:
    """Never raise a partner's bet (multiway or heads-up), only call; never bet into a lone partner."""
    if not ctx.mates or ctx.honest.kind != "raise":
        return None
    if ctx.facing_mate() or (_partners_only(ctx) and ctx.owe() == 0):
        ctx.team.record("no_raise", ctx.name, ctx.mate_names())
        return Decision("call") if ctx.owe() > 0 else Decision("check")
    return None


# ---- chip dumping ----------------------------------------------------------------------------

def _roles(ctx: Ctx) -> tuple[bool, int | None]:
    """(am I the receiver, receiver's seat index if in the hand)."""
    recv = ctx.team.receiver()
    idx = next((j for j in ctx.mates if ctx.hand.seats[j].name == recv), None)
    return ctx.name == recv, idx


def _dumper_folds(ctx: Ctx, act: str) -> Decision:
    """Dumper gives up the chips already in the pot; evidence only if chips were in."""
    if ctx.hand.seats[ctx.i].total_in > 0:
        ctx.team.record(act, ctx.name, [ctx.team.receiver()])
    return Decision("fold")


def _bet_fold(ctx: Ctx) -> Decision | None:
    """Dumper bets big into the receiver, the receiver raises, the dumper folds."""
    hand = ctx.hand
    is_recv, recv_idx = _roles(ctx)
    if is_recv:
        dumpers = [j for j in ctx.mates]
        if ctx.owe() > 0 and hand.aggressor in dumpers and ctx.can_raise:
            return Decision("raise", hand.current_bet * 3)
        return None
    if recv_idx is None:
        return None
    if ctx.owe() > 0 and hand.aggressor == recv_idx:
        return _dumper_folds(ctx, "bet_fold")
    opening = ctx.owe() == 0 or (hand.street == "preflop" and hand.raises == 0)
    if opening and ctx.can_raise and len(ctx.outsiders) <= 1:
        size = hand.bb * 4 if hand.street == "preflop" else bet_to(hand, ctx.i, 1.0)
        return Decision("raise", size)
    return None


def _call_shove(ctx: Ctx) -> Decision | None:
    """Receiver shoves a decent hand; the dumper calls the shove with anything."""
    hand = ctx.hand
    is_recv, recv_idx = _roles(ctx)
    me = hand.seats[ctx.i]
    if is_recv:
        strong = (preflop_pct(me.hole) >= 0.55 if hand.street == "preflop"
                  else ctx.brain.equity(hand, ctx.i) >= 0.55)
        if ctx.can_raise and strong and len(ctx.outsiders) <= 1:
            return Decision("raise", me.stack + me.street_in)
        return None
    if recv_idx is None:
        return None
    if ctx.owe() > 0 and hand.aggressor == recv_idx and hand.seats[recv_idx].allin:
        if ctx.honest.kind == "fold":
            ctx.team.record("call_shove", ctx.name, [ctx.team.receiver()])
        return Decision("call")
    if hand.street == "preflop" and hand.raises == 0:
        return Decision("call")  # limp in and wait for the receiver's shove
    return None


def _river_overbet(ctx: Ctx) -> Decision | None:
    """Reach the river passively heads-up, dumper overbets, receiver raises, dumper folds."""
    hand = ctx.hand
    is_recv, recv_idx = _roles(ctx)
    if ctx.outsiders and hand.street != "preflop":
        return None
    if is_recv:
        if hand.street == "river" and ctx.facing_mate() and ctx.can_raise:
            return Decision("raise", hand.current_bet * 2 + hand.bb)
        if hand.street == "preflop":
            if hand.raises == 0 and ctx.can_raise and len(ctx.outsiders) <= 2:
                return Decision("raise", int(hand.bb * 2.5))
            return None
        return Decision("call") if ctx.owe() > 0 else Decision("check")
    if recv_idx is None:
        return None
    if hand.street == "preflop":
        if ctx.owe() > 0 and hand.aggressor == recv_idx and hand.current_bet <= hand.bb * 10:
            return Decision("call")
        return None
    if hand.street != "river":
        return Decision("call") if ctx.owe() > 0 else Decision("check")
    if ctx.owe() > 0 and hand.aggressor == recv_idx:
        return _dumper_folds(ctx, "river_overbet")
    if ctx.owe() == 0 and ctx.can_raise:
        return Decision("raise", bet_to(hand, ctx.i, ctx.brain.rng.choice((1.5, 1.8, 2.0))))
    return None


def _small_transfers(ctx: Ctx) -> Decision | None:
    """Many small gifts: dumper calls small raises and min-bets, then folds to the receiver."""
    hand = ctx.hand
    is_recv, recv_idx = _roles(ctx)
    if is_recv:
        if ctx.facing_mate() and ctx.can_raise and hand.street != "preflop":
            return Decision("raise", hand.current_bet * 3)
        return None
    if recv_idx is None:
        return None
    if hand.street == "preflop":
        if ctx.owe() > 0 and hand.current_bet <= hand.bb * 5:
            return Decision("call")
        return None
    if ctx.owe() > 0 and hand.aggressor == recv_idx:
        return _dumper_folds(ctx, "small_transfer")
    if ctx.owe() == 0 and ctx.can_raise:
        return Decision("raise", hand.bb)
    return None


# ---- squeeze / whipsaw -----------------------------------------------------------------------

def _outsider_called(ctx: Ctx) -> bool:
    """Some outsider has put in the full current bet."""
    hand = ctx.hand
    return any(hand.seats[j].street_in == hand.current_bet for j in ctx.outsiders)


def _no_contest(ctx: Ctx) -> Decision | None:
    """Once outsiders are gone, partners do not fight: check, and fold to a partner's bet."""
    if not _partners_only(ctx):
        return None
    dec = Decision("fold") if ctx.facing_mate() else Decision("check") if ctx.owe() == 0 else None
    if dec is not None and _deviates(ctx, dec):
        ctx.team.record("no_contest", ctx.name, ctx.mate_names())
    return dec


def _sandwich(ctx: Ctx) -> Decision | None:
    """Preflop: one partner opens, an outsider calls, the other partner squeezes the caller out."""
    hand = ctx.hand
    if hand.street != "preflop":
        return _no_contest(ctx)
    if not ctx.mates:
        return None
    pct = preflop_pct(hand.seats[ctx.i].hole)
    if hand.raises == 0 and ctx.can_raise and pct >= 0.35 and ctx.outsiders:
        return Decision("raise", hand.bb * 3)
    if hand.raises == 1 and hand.aggressor in ctx.mates and _outsider_called(ctx) and ctx.can_raise:
        callers = sum(1 for j in ctx.outsiders if hand.seats[j].street_in == hand.current_bet)
        ctx.team.record("squeeze", ctx.name, ctx.mate_names())
        return Decision("raise", hand.current_bet * 4 + hand.current_bet * callers)
    if hand.raises >= 2 and ctx.facing_mate():
        return Decision("fold")
    return None


def _lead_raise(ctx: Ctx) -> Decision | None:
    """Postflop whipsaw: a partner leads, an outsider calls, the other partner raises."""
    hand = ctx.hand
    if hand.street == "preflop" or not ctx.mates:
        return None
    if not ctx.outsiders:
        return _no_contest(ctx)
    if ctx.owe() == 0 and ctx.can_raise and hand.raises == 0:
        return Decision("raise", bet_to(hand, ctx.i, 0.6))
    sandwich = _outsider_called(ctx) or ctx.brain.rng.random() < 0.5
    if ctx.facing_mate() and hand.raises == 1 and sandwich and ctx.can_raise:
        ctx.team.record("lead_raise", ctx.name, ctx.mate_names())
        return Decision("raise", hand.current_bet * 3)
    if ctx.facing_mate():
        return Decision("call")
    return None


def _isolation(ctx: Ctx) -> Decision | None:
    """Raise big to push the one outsider out; once he folds the partners never contest."""
    hand = ctx.hand
    if not ctx.mates:
        return None
    if not ctx.outsiders:
        return _no_contest(ctx)
    if len(ctx.outsiders) > 2 or not ctx.can_raise or hand.raises >= 3:
        return None
    facing_outsider = hand.aggressor in ctx.outsiders or hand.aggressor is None
    if facing_outsider and (hand.street != "preflop" or preflop_pct(hand.seats[ctx.i].hole) >= 0.3):
        dec = Decision("raise", max(hand.current_bet * 3 + hand.bb, bet_to(hand, ctx.i, 1.0)))
        if ctx.honest.kind != "raise":
            ctx.team.record("isolate", ctx.name, ctx.mate_names())
        return dec
    return None


# ---- card sharing ----------------------------------------------------------------------------

def _known_strength(hand: Hand, j: int) -> float:
    """Comparable strength of a hand whose cards the team knows (higher is better)."""
    hole = hand.seats[j].hole
    if hand.street == "preflop":
        return preflop_pct(hole)
    return -float(evaluate([*hole, *hand.board]))


def _fold_to_captain(ctx: Ctx) -> Decision | None:
    """The partner with the weaker hand gets out of the captain's way."""
    if not ctx.mates:
        return None
    mine = _known_strength(ctx.hand, ctx.i)
    if all(_known_strength(ctx.hand, j) <= mine for j in ctx.mates):
        return None
    dec = Decision("fold") if ctx.owe() > 0 else Decision("check")
    if _deviates(ctx, dec) or ctx.honest.kind == "raise":
        ctx.team.record("fold_to_captain", ctx.name, ctx.mate_names())
    return dec


def _dead_cards(ctx: Ctx) -> Decision | None:
    """Use the partner's hole cards as dead cards: press when they help, fold when they kill outs."""
    if not ctx.mates or not ctx.outsiders:
        return None
    hand, brain = ctx.hand, ctx.brain
    dead = tuple(c for j in ctx.mates for c in hand.seats[j].hole)
    opp = len(ctx.outsiders)
    me = hand.seats[ctx.i]
    plain = mc_equity(me.hole, hand.board, opp, (), brain.rng, 24)
    known = mc_equity(me.hole, hand.board, opp, dead, brain.rng, 24)
    edge = known - plain
    eq = min(1.0, max(0.0, known + edge))
    if hand.street == "preflop":
        owe = ctx.owe()
        if edge > 0.04 and ctx.can_raise:
            dec = Decision("raise", max(hand.bb * 3, hand.current_bet * 3))
        elif edge < -0.04 and owe > 0:
            dec = Decision("fold")
        else:
            return None
    else:
        dec = postflop_equity(hand, ctx.i, ctx.can_raise, brain, eq)
    if _deviates(ctx, dec):
        ctx.team.record("dead_cards", ctx.name, ctx.mate_names())
    return dec


_TACTICS = {
    "checkdown": _checkdown,
    "fold_to_partner": _fold_to_partner,
    "no_raise_multiway": _no_raise_multiway,
    "bet_fold": _bet_fold,
    "call_shove": _call_shove,
    "river_overbet": _river_overbet,
    "small_transfers": _small_transfers,
    "sandwich": _sandwich,
    "lead_raise": _lead_raise,
    "isolation": _isolation,
    "fold_to_captain": _fold_to_captain,
    "dead_cards": _dead_cards,
}


def team_decision(hand: Hand, i: int, can_raise: bool, brain: Brain, team: Team) -> Decision:
    """Decision of a team member: honest unless the team's coin fired for this hand."""
    base = honest(hand, i, can_raise, brain)
    if not team.firing:
        return base
    seats = team_seats(hand, team)
    mates = [j for j in seats if j != i and not hand.seats[j].folded]
    outsiders = [j for j in hand.active() if j not in seats]
    return decide(Ctx(hand, i, can_raise, brain, team, base, mates, outsiders))
