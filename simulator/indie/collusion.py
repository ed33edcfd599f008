"""Colluding teams: four families, three implementations each.

A tactic sees the honest action its player was about to take and may replace it; the brain
records an evidence act only when the replacement really differs. Tactics return
``(action, act, partners)`` or ``None`` to let the honest action stand.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from .cards import dead_card_equity, monte_carlo
from .engine import Action, Hand
from .policy import EquitySource, percentile, rank_any, sized

Move = tuple[Action, str, tuple[str, ...]] | None


def changed(a: Action, b: Action) -> bool:
    """A different kind of action, or a bet/raise of a clearly different size."""
    if a.kind != b.kind:
        return True
    return a.kind in ("bet", "raise") and abs(a.to - b.to) > 0.25 * max(a.to, b.to)


@dataclass
class Team:
    id: str
    family: str
    implementation: str
    intensity: float
    members: list[str]
    account: str = ""  # chip dumping: the member who receives
    memo: dict[str, str] = field(default_factory=dict)  # per-hand notes (who isolated, who pumped)


@dataclass
class Ctx:
    """What a tactic may look at: the hand, its player, the team and the honest plan."""

    hand: Hand
    i: int
    team: Team
    honest: Action
    rng: random.Random
    eq: EquitySource
    fish: frozenset[str]

    @property
    def me(self) -> str:
        return self.hand.seats[self.i].name

    @property
    def owe(self) -> int:
        return self.hand.to_call(self.i)

    def mates(self, live: bool = True) -> list[int]:
        return [j for j, s in enumerate(self.hand.seats)
                if j != self.i and s.name in self.team.members and (not live or not s.folded)]

    def outsiders(self) -> list[int]:
        return [j for j in self.hand.live() if self.hand.seats[j].name not in self.team.members]

    def aggressor(self) -> str:
        return self.hand.seats[self.hand.aggressor].name if self.hand.aggressor >= 0 else ""

    def names(self, idx: list[int]) -> tuple[str, ...]:
        return (self.me, *sorted(self.hand.seats[j].name for j in idx))

    def strength(self, j: int) -> float:
        """How strong seat ``j``'s cards are (higher is better) — only card sharers may ask for a mate."""
        s = self.hand.seats[j]
        if self.hand.street == 0:
            return -percentile(self.hand, j)
        return -float(rank_any((*s.cards, *self.hand.board)))


def _passive(c: Ctx) -> Action:
    return Action("check") if c.owe == 0 else Action("call")


# ---- soft play -------------------------------------------------------------------------------

def soft_check_down(c: Ctx) -> Move:
    """Once only partners can still bet (the others folded or all-in), the hand is checked down."""
    mates = c.mates()
    if any(not c.hand.seats[j].allin for j in c.outsiders()) or not mates or c.honest.kind not in ("bet", "raise"):
        return None
    return _passive(c), "soft_check" if c.owe == 0 else "soft_call", c.names(mates)


def soft_no_reraise(c: Ctx) -> Move:
    """Never raise once a partner has put money in on this street (his open, his limp, his call),
    in any pot; never bet or raise when only partners are left to win it."""
    mates = c.mates()
    if not mates or c.honest.kind not in ("bet", "raise"):
        return None
    partner_in = any(c.hand.seats[j].name in c.team.members and kind in ("call", "bet", "raise")
                     for j, kind in c.hand.street_actions)
    if c.outsiders() and not (c.owe and partner_in):
        return None
    return _passive(c), "soft_check" if c.owe == 0 else "soft_call", c.names(mates)


def soft_fold_to_partner(c: Ctx) -> Move:
    """Heads-up with a partner: check, and give the pot up rather than fight a partner's bet (or,
    preflop, his blind)."""
    mates = c.mates()
    if not mates or c.outsiders():
        return None
    if c.owe == 0 and c.honest.kind == "bet":
        return Action("check"), "soft_check", c.names(mates)
    if c.owe > 0 and (c.aggressor() in c.team.members or c.hand.street == 0) and c.honest.kind in ("call", "raise"):
        return Action("fold"), "soft_fold", c.names(mates)
    return None


# ---- chip dumping ----------------------------------------------------------------------------

def _dump_pair(c: Ctx) -> tuple[bool, list[int]] | None:
    """(am I the account, partner seats) when the account and a dumper are alone in the pot."""
    mates = c.mates()
    account_in = c.me == c.team.account or any(c.hand.seats[j].name == c.team.account for j in mates)
    if not mates or not account_in:
        return None
    return c.me == c.team.account, mates


def _dump_enter(c: Ctx) -> Move:
    """Preflop, a dumper does not fold while the account is still in: he wants the pot together."""
    pair = _dump_pair(c)
    if pair is None or pair[0] or c.hand.street or c.honest.kind != "fold" or c.owe > 4 * c.hand.bb:
        return None
    return Action("call"), "dump_call", c.names(pair[1])


def dump_bet_fold(c: Ctx) -> Move:
    """Dumper bets big, the account raises, the dumper folds."""
    pair = _dump_pair(c)
    if pair is None or c.outsiders():
        return _dump_enter(c)
    account, mates = pair
    if account:
        if c.owe and c.aggressor() in c.team.members:
            return sized(c.hand, c.i, 0.6), "dump_raise", c.names(mates)
        return (Action("check"), "dump_check", c.names(mates)) if c.owe == 0 else None
    if c.owe == 0:
        return sized(c.hand, c.i, 1.0), "dump_bet", c.names(mates)
    if c.aggressor() == c.team.account:
        return Action("fold"), "dump_fold", c.names(mates)
    return None


def dump_junk_call(c: Ctx) -> Move:
    """The account shoves his good hands at the dumper, who calls with whatever he holds."""
    pair = _dump_pair(c)
    if pair is None or c.outsiders():
        return _dump_enter(c)
    account, mates = pair
    if account:
        good = percentile(c.hand, c.i) < 0.2 if c.hand.street == 0 else c.eq(c.hand, c.i) > 0.6
        return (Action("raise" if c.owe else "bet", 10**9), "dump_shove", c.names(mates)) if good else None
    if c.owe and c.aggressor() == c.team.account:
        return Action("call"), "dump_call", c.names(mates)
    return (Action("check"), "dump_check", c.names(mates)) if c.owe == 0 else None


def dump_river_overbet(c: Ctx) -> Move:
    """Dumper calls along to the river, overbets it with nothing, folds to the account's raise."""
    pair = _dump_pair(c)
    if pair is None or c.outsiders():
        return _dump_enter(c)
    account, mates = pair
    river = c.hand.street == 3
    if account:
        if river and c.owe and c.aggressor() in c.team.members:
            return Action("raise", 0), "dump_raise", c.names(mates)
        return None
    if not river:
        return (Action("call"), "dump_call", c.names(mates)) if c.owe else (Action("check"), "dump_check",
                                                                            c.names(mates))
    if c.owe == 0:
        return sized(c.hand, c.i, 1.6), "dump_overbet", c.names(mates)
    return Action("fold"), "dump_fold", c.names(mates)


# ---- squeeze / whipsaw -----------------------------------------------------------------------

def _team_raises(c: Ctx) -> int:
    return sum(1 for j, kind in c.hand.street_actions
               if kind in ("bet", "raise") and c.hand.seats[j].name in c.team.members)


def _check_down(c: Ctx, mates: list[int]) -> Move:
    """With the victim gone the partners stop: no bets or raises between them."""
    if c.honest.kind not in ("bet", "raise"):
        return None
    return _passive(c), "squeeze_check" if c.owe == 0 else "squeeze_call", c.names(mates)


def squeeze_whipsaw(c: Ctx) -> Move:
    """Partners re-raise each other around a caught victim, then check down once he is gone."""
    mates, victims = c.mates(), c.outsiders()
    if not mates:
        return None
    if not victims:
        return _check_down(c, mates)
    if c.aggressor() in c.team.members and _team_raises(c) < 3:
        return sized(c.hand, c.i, 0.9), "squeeze_raise", c.names(mates)
    if c.aggressor() in c.team.members and c.honest.kind == "fold":
        return Action("call"), "squeeze_call", c.names(mates)
    return None


def squeeze_lead_raise(c: Ctx) -> Move:
    """One partner leads (or opens), the victim calls, the partner behind raises: the victim pays
    twice or folds his equity away. Preflop this is the classic squeeze of an opener's caller."""
    mates, victims = c.mates(), c.outsiders()
    if not mates or not victims:
        return None
    if c.aggressor() in c.team.members:
        victim_called = any(kind == "call" and c.hand.seats[j].name not in c.team.members
                            for j, kind in c.hand.street_actions)
        if victim_called and _team_raises(c) < 2:
            return sized(c.hand, c.i, 1.0), "squeeze_raise", c.names(mates)
        if c.honest.kind == "fold":
            return Action("call"), "squeeze_call", c.names(mates)
        return None
    if c.hand.street and c.owe == 0:
        return sized(c.hand, c.i, 0.5), "lead_bet", c.names(mates)
    return None


def squeeze_isolate(c: Ctx) -> Move:
    """One partner raises a limper or a known weak player big to clear the field; the other partner
    stays in with the weak player, and the raiser gives way after the flop."""
    mates, victims = c.mates(), c.outsiders()
    if not mates:
        return None
    isolator = c.team.memo.get("isolator")
    if c.hand.street == 0 and not isolator:
        entered = {j for j, kind in c.hand.street_actions if kind in ("call", "raise")}
        weak = [j for j in victims if (j in entered and c.hand.raises == 0)
                or (c.hand.seats[j].name in c.fish and c.hand.seats[j].total)]
        if weak and c.honest.kind != "raise":
            c.team.memo["isolator"] = c.me
            return Action("raise", c.hand.current_bet * 4 + c.hand.bb), "isolation_raise", c.names(mates)
    if c.hand.street == 0 and isolator and isolator != c.me and c.aggressor() == isolator:
        return Action("call"), "iso_call", c.names(mates)
    if isolator == c.me and c.hand.street > 0:
        if c.owe:
            return Action("fold"), "iso_fold", c.names(mates)
        return Action("check"), "iso_check", c.names(mates)
    return None


# ---- card sharing ----------------------------------------------------------------------------

def share_captain(c: Ctx) -> Move:
    """Whoever holds the weaker cards gives way: folds to any bet and never bets himself."""
    mates = c.mates()
    stronger = [j for j in mates if c.strength(j) > c.strength(c.i)]
    if not stronger:
        return None
    if c.owe:
        return Action("fold"), "shared_fold", c.names(stronger)
    return Action("check"), "shared_check", c.names(stronger)


def share_dead_cards(c: Ctx) -> Move:
    """Postflop, shift aggression by what the partners' known cards do to the equity: bet or raise
    when they are the outsiders' outs, check or fold when they were this player's own outs. A
    partner still in the pot is no threat either, so then only the outsiders count as opponents."""
    dealt, outsiders = c.mates(live=False), c.outsiders()
    if not dealt or not outsiders or c.hand.street == 0:
        return None
    dead = tuple(card for j in dealt for card in c.hand.seats[j].cards)
    hole, board = c.hand.seats[c.i].cards, tuple(c.hand.board)
    if c.mates():
        blind = monte_carlo(hole, board, min(len(c.hand.live()) - 1, 3), (), c.rng, 120)
        informed = monte_carlo(hole, board, min(len(outsiders), 3), dead, c.rng, 120)
        margin = 0.08
    else:
        blind, informed = dead_card_equity(hole, board, min(len(outsiders), 3), dead, c.rng, 200)
        margin = 0.04
    who = c.names(dealt)
    if informed - blind > margin:
        if c.owe == 0:
            return sized(c.hand, c.i, 0.75), "informed_bet", who
        return (sized(c.hand, c.i, 0.8), "informed_raise", who) if informed > 0.55 else (Action("call"),
                                                                                          "informed_call", who)
    if blind - informed > margin:
        return (Action("check"), "informed_check", who) if c.owe == 0 else (Action("fold"), "informed_fold", who)
    return None


def share_pump(c: Ctx) -> Move:
    """The partner with the team's best hand stays quiet; the other pumps the pot, then drops out."""
    mates, victims = c.mates(), c.outsiders()
    if not mates:
        return None
    best = max(mates, key=c.strength)
    if c.strength(best) < c.strength(c.i):
        return None
    pumped = c.team.memo.get("pump")
    if victims and pumped != f"{c.hand.street}" and c.strength(best) > (-0.12 if c.hand.street == 0 else -2467):
        c.team.memo["pump"] = f"{c.hand.street}"
        return sized(c.hand, c.i, 1.0), "pump_raise", c.names([best])
    if c.owe and pumped is not None and pumped != f"{c.hand.street}":
        return Action("fold"), "shared_fold", c.names([best])
    return None


Tactic = Callable[[Ctx], Move]

IMPLEMENTATIONS: dict[str, dict[str, Tactic]] = {
    "soft_play": {"check_down": soft_check_down, "no_reraise": soft_no_reraise,
                  "fold_to_partner": soft_fold_to_partner},
    "chip_dumping": {"bet_fold": dump_bet_fold, "junk_call": dump_junk_call, "river_overbet": dump_river_overbet},
    "squeeze": {"whipsaw": squeeze_whipsaw, "lead_and_raise": squeeze_lead_raise, "isolate": squeeze_isolate},
    "card_sharing": {"captain": share_captain, "dead_cards": share_dead_cards, "pump": share_pump},
}
