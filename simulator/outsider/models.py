"""Honest decision models: how a player who is not cheating chooses an action.

Why: detectors must separate collusion from ordinary play, so ordinary play has to vary. Two
models of different design are here: ``EquityModel`` weighs simulated equity against pot odds;
``FeelModel`` reads a hand-category chart and board texture, never simulating anything. A
``Style`` tunes either of them (loose/tight, passive/aggressive, sticky, tilting, short stacks).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal, Protocol

from simulator.outsider.cards import category, equity, evaluate, preflop_equity

Kind = Literal["fold", "check", "call", "raise"]


@dataclass(frozen=True)
class Action:
    """A decision; ``to`` is the street total a raise or bet goes to (0 otherwise)."""

    kind: Kind
    to: int = 0


@dataclass(frozen=True)
class Style:
    """Knobs of an honest player; every number lies in 0..1 except ``buyin_bb``."""

    label: str
    loose: float
    aggr: float
    bluff: float
    sticky: float
    tilt: float
    buyin_bb: int
    model: str  # "equity" or "feel"


@dataclass(frozen=True)
class Spot:
    """What a player can see when it is their turn (their cards, board and the price)."""

    street: int
    hole: tuple[int, int]
    board: tuple[int, ...]
    pot: int
    to_call: int
    cur_bet: int
    min_to: int
    max_to: int
    street_in: int
    opponents: int
    bb: int
    raises: int
    late: bool
    can_raise: bool
    dead: tuple[int, ...] = ()

    def pot_odds(self) -> float:
        """Share of the final pot a call pays for."""
        return self.to_call / (self.pot + self.to_call) if self.to_call else 0.0

    def raise_to(self, size: float) -> Action:
        """A legal raise or bet to about ``size``, or the all-in when that is all we have."""
        to = round(size / 5.0) * 5
        to = max(self.min_to, min(self.max_to, to))
        if not self.can_raise or to <= self.cur_bet:
            return self.passive()
        return Action("raise", to)

    def passive(self) -> Action:
        """Check if free, else call."""
        return Action("check") if self.to_call == 0 else Action("call")

    def give_up(self) -> Action:
        """Check if free, else fold."""
        return Action("check") if self.to_call == 0 else Action("fold")


class Model(Protocol):
    def decide(self, spot: Spot, style: Style, rng: random.Random, tilt: float) -> Action: ...


def _open_size(spot: Spot, rng: random.Random) -> float:
    """Preflop opening size: 2.2-3.5 bb plus a bb per limper."""
    limpers = max(0, spot.pot - int(1.5 * spot.bb)) // max(1, spot.bb)
    return spot.bb * (rng.uniform(2.2, 3.5) + limpers)


def _reraise_size(spot: Spot, rng: random.Random) -> float:
    """A re-raise of about three times the bet faced, in position a little less."""
    return spot.cur_bet * rng.uniform(2.6 if spot.late else 3.0, 3.6)


def _bet_size(spot: Spot, rng: random.Random, scale: float) -> float:
    """A post-flop bet or raise as a share of the pot."""
    if spot.to_call:
        return spot.cur_bet + (spot.pot + spot.to_call) * rng.uniform(0.6, 1.0) * scale
    return spot.pot * rng.uniform(0.4, 0.85) * scale


class EquityModel:
    """Equity against the live opponents compared with the price, shaded by style."""

    def decide(self, spot: Spot, style: Style, rng: random.Random, tilt: float) -> Action:
        loose = min(1.0, style.loose + tilt * 0.3)
        aggr = min(1.0, style.aggr + tilt * 0.25)
        if spot.street == 0:
            return self._preflop(spot, style, loose, aggr, rng)
        eq = equity(spot.hole, spot.board, spot.opponents, rng, spot.dead)
        return self._postflop(spot, style, eq, loose, aggr, rng)

    def _preflop(self, spot: Spot, style: Style, loose: float, aggr: float, rng: random.Random) -> Action:
        eq = preflop_equity(spot.hole, spot.opponents)
        base = 1.0 / (spot.opponents + 1)
        edge = eq - base + (0.08 if spot.late else 0.0) + (loose - 0.4) * 0.22
        short = style.buyin_bb <= 40
        if short and spot.max_to <= 45 * spot.bb:
            if edge > 0.12 - aggr * 0.05 or (spot.to_call == 0 and edge > 0.06):
                return spot.raise_to(spot.max_to)
            return spot.give_up()
        if spot.to_call <= spot.bb - spot.street_in and spot.raises == 0:
            if edge > 0.10 - aggr * 0.06:
                return spot.raise_to(_open_size(spot, rng))
            if edge > 0.05 - loose * 0.08 and rng.random() > aggr:
                return spot.passive()
            return spot.give_up()
        price = spot.pot_odds()
        if edge > 0.22 - aggr * 0.06 and spot.raises < 4:
            return spot.raise_to(_reraise_size(spot, rng))
        if eq + loose * 0.12 > price + 0.08 + spot.raises * 0.03 and edge > -0.02 - loose * 0.06:
            return spot.passive()
        return spot.give_up()

    def _postflop(self, spot: Spot, style: Style, eq: float, loose: float, aggr: float,
                  rng: random.Random) -> Action:
        price = spot.pot_odds()
        if spot.to_call == 0:
            if eq > 0.72 - aggr * 0.12 or (rng.random() < style.bluff * 0.5 and spot.opponents <= 2):
                return spot.raise_to(_bet_size(spot, rng, 1.0))
            return Action("check")
        if eq > 0.86 - aggr * 0.1 and spot.raises < 3:
            return spot.raise_to(_bet_size(spot, rng, 1.0))
        if eq + style.sticky * 0.12 + loose * 0.05 > price + 0.03:
            return Action("call")
        if rng.random() < style.bluff * 0.06 and spot.raises < 2:
            return spot.raise_to(_bet_size(spot, rng, 1.2))
        return Action("fold")


def chart_score(hole: tuple[int, int]) -> float:
    """A 0..1 preflop rating: high cards, pairs, suitedness and gaps (my own chart)."""
    a, b = hole[0] >> 2, hole[1] >> 2
    hi, lo = max(a, b), min(a, b)
    score = hi / 12 * 0.45 + lo / 12 * 0.25
    if hi == lo:
        score += 0.30 + lo / 12 * 0.15
    if (hole[0] & 3) == (hole[1] & 3):
        score += 0.07
    gap = hi - lo
    score += 0.06 if gap == 1 else 0.03 if gap == 2 else -0.04 * min(gap - 2, 4) if gap else 0.0
    return max(0.0, min(1.0, score))


def made_strength(hole: tuple[int, int], board: tuple[int, ...]) -> float:
    """Post-flop feel: how much the hole cards improve on the board, 0 (air) .. 1 (nuts-ish)."""
    mine = evaluate([*hole, *board])
    cat = category(mine)
    board_cat = category(evaluate(board)) if len(board) >= 5 else _board_cat(board)
    top = max(c >> 2 for c in board)
    if cat >= 4:
        return 0.8 + 0.025 * min(cat, 8) - (0.15 if cat == board_cat else 0.0)
    if cat == 3:
        return 0.78 if cat > board_cat else 0.35
    if cat == 2:
        return 0.68 if board_cat < 1 else 0.5
    if cat == 1 and board_cat == 0:
        pair_rank = (mine >> 16) & 15
        if pair_rank >= top:
            return 0.55 + 0.05 * (max(hole[0] >> 2, hole[1] >> 2) >= 9)
        return 0.38
    return 0.15 + _draw_bonus(hole, board)


def _board_cat(board: tuple[int, ...]) -> int:
    """Pair structure of a flop or turn board: 0 none, 1 paired, 3 trips."""
    ranks = [c >> 2 for c in board]
    most = max(ranks.count(r) for r in ranks)
    return 0 if most == 1 else 1 if most == 2 else 3


def _draw_bonus(hole: tuple[int, int], board: tuple[int, ...]) -> float:
    """Extra value for four to a flush or an open straight draw, before the river."""
    if len(board) >= 5:
        return 0.0
    cards = [*hole, *board]
    suits = [c & 3 for c in cards]
    bonus = 0.0
    if max(suits.count(s) for s in range(4)) == 4:
        bonus += 0.25
    mask = 0
    for c in cards:
        mask |= 1 << (c >> 2)
    if any(mask >> lo & 0b1111 == 0b1111 for lo in range(0, 10)):
        bonus += 0.15
    return bonus


class FeelModel:
    """A chart player: preflop ratings, post-flop made-hand categories, no simulation."""

    def decide(self, spot: Spot, style: Style, rng: random.Random, tilt: float) -> Action:
        loose = min(1.0, style.loose + tilt * 0.35)
        aggr = min(1.0, style.aggr + tilt * 0.3)
        if spot.street == 0:
            return self._preflop(spot, style, chart_score(spot.hole), loose, aggr, rng)
        return self._postflop(spot, style, made_strength(spot.hole, spot.board), aggr, rng)

    def _preflop(self, spot: Spot, style: Style, score: float, loose: float, aggr: float,
                 rng: random.Random) -> Action:
        need = 0.72 - loose * 0.35 - (0.06 if spot.late else 0.0)
        short = style.buyin_bb <= 40
        if short and score > need + 0.08 and spot.max_to <= 45 * spot.bb:
            return spot.raise_to(spot.max_to)
        if spot.raises == 0 and spot.to_call <= spot.bb - spot.street_in:
            if score > need + 0.05 - aggr * 0.05:
                return spot.raise_to(_open_size(spot, rng)) if rng.random() < 0.35 + aggr * 0.6 else spot.passive()
            return spot.passive() if score > need - 0.1 * loose else spot.give_up()
        if score > 0.88 - aggr * 0.08 and spot.raises < 4:
            return spot.raise_to(_reraise_size(spot, rng))
        if score > need + 0.04 * spot.raises - style.sticky * 0.06 and spot.to_call < spot.max_to * (0.2 + loose):
            return Action("call")
        return spot.give_up()

    def _postflop(self, spot: Spot, style: Style, strength: float, aggr: float, rng: random.Random) -> Action:
        if spot.to_call == 0:
            if strength > 0.62 - aggr * 0.1 or rng.random() < style.bluff * 0.35:
                return spot.raise_to(_bet_size(spot, rng, 0.9))
            return Action("check")
        if strength > 0.8 - aggr * 0.06 and spot.raises < 3:
            return spot.raise_to(_bet_size(spot, rng, 1.0))
        threshold = 0.5 - style.sticky * 0.25 + spot.pot_odds() * 0.4
        if strength > threshold:
            return Action("call")
        return Action("fold")


MODELS: dict[str, Model] = {"equity": EquityModel(), "feel": FeelModel()}

#: honest style families: (label, loose, aggr, bluff, sticky, tilt, buyin_bb, model)
STYLES: tuple[Style, ...] = (
    Style("tight_aggressive_reg", 0.35, 0.70, 0.25, 0.20, 0.05, 100, "equity"),
    Style("loose_aggressive_reg", 0.60, 0.80, 0.45, 0.25, 0.10, 100, "equity"),
    Style("weak_tight", 0.25, 0.25, 0.05, 0.20, 0.05, 80, "feel"),
    Style("calling_station", 0.75, 0.15, 0.05, 0.85, 0.10, 60, "feel"),
    Style("recreational", 0.60, 0.40, 0.20, 0.50, 0.30, 50, "feel"),
    Style("short_stacker", 0.35, 0.75, 0.10, 0.10, 0.05, 30, "equity"),
    Style("tilter", 0.45, 0.55, 0.30, 0.40, 0.90, 100, "equity"),
    Style("maniac", 0.85, 0.90, 0.65, 0.50, 0.40, 100, "feel"),
    Style("solid_abc", 0.40, 0.50, 0.15, 0.35, 0.10, 100, "feel"),
)
NIT = Style("nit", 0.10, 0.35, 0.02, 0.10, 0.0, 100, "equity")
LOOSE_LOSER = Style("loose_loser", 0.95, 0.35, 0.25, 0.95, 0.5, 100, "feel")
MULTI_REG = Style("multi_table_reg", 0.38, 0.62, 0.2, 0.2, 0.05, 100, "equity")
