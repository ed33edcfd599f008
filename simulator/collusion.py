"""Collusive overrides: what a team member does instead of the honest decision.

Why an override: colluders play normally (``policy.decide``) and only deviate when a partner
is in the hand, so the deviation is rare, episodic and attributable. Every deviation that
changes what happened is logged on the hand record as evidence (team, act, players).

Families:
* chip_dumping: the dumper bets big heads-up against the receiver and folds to the receiver's
  raise; the receiver raises the dumper's bets and shoves strong hands, which the dumper calls
  with anything.
* soft_play: no betting or raising into a partner when heads-up (checked down), and folding
  instead of raising a partner's bet.
* squeeze: a partner re-raises when a third player has called between them; once the third
  player folds they don't contest each other.
* card_sharing: partners see each other's hole cards; the weaker folds (even strong hands) when
  a partner holds the stronger hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .policy import CALL, CHECK, FOLD, RAISE, View

if TYPE_CHECKING:
    from .engine import HandSim

Decision = tuple[str, int]


def override(sim: HandSim, i: int, v: View, honest: Decision) -> Decision:
    """The colluder's decision given the honest one; logs evidence when it differs."""
    me = sim.rec.players[i]
    players = sim.rec.players
    partners = [j for j in range(sim.n) if j != i and not sim.folded[j] and players[j].name in me.partners]
    if not partners:
        return honest
    outsiders = [j for j in range(sim.n) if j != i and not sim.folded[j] and j not in partners]
    family = me.family
    if family == "chip_dumping":
        return _dumping(sim, i, v, honest, partners, outsiders)
    if family == "soft_play":
        return _soft(sim, i, v, honest, partners, outsiders)
    if family == "squeeze":
        return _squeeze(sim, i, v, honest, partners, outsiders)
    if family == "card_sharing":
        return _sharing(sim, i, v, honest, partners)
    return honest


def _log(sim: HandSim, i: int, act: str, partners: list[int]) -> None:
    me = sim.rec.players[i]
    assert me.team is not None
    who = (me.name, *(sim.rec.players[j].name for j in partners))
    sim.rec.acts.append((me.team, act, who))


def _bet_this_hand(sim: HandSim, i: int) -> bool:
    return any(a[1] == i and a[2] in ("bet", "raise") for a in sim.rec.actions)


def _dumping(sim: HandSim, i: int, v: View, honest: Decision, partners: list[int], outsiders: list[int]) -> Decision:
    me = sim.rec.players[i]
    players = sim.rec.players
    # dumpers only dump to the receiver, never to each other
    partners = [j for j in partners if (players[j].role == "receiver") != (me.role == "receiver")]
    if not partners:
        return honest
    partner = partners[0]
    if outsiders:
        # with others in the pot: never fight the partner (fold to his bets, never raise him)
        if me.role == "dumper" and v.to_call > 0 and sim.aggressor == partner:
            if sim.contrib[i] >= 4 * v.bb and honest[0] != FOLD:
                _log(sim, i, "dump_fold", partners)
            return FOLD, 0
        if me.role == "receiver" and v.to_call > 0 and sim.aggressor == partner and honest[0] == FOLD:
            return CALL, 0  # never give the dumper a pot
        if honest[0] == RAISE and (sim.aggressor == partner or me.role == "dumper"):
            return (CALL, 0) if v.to_call else (CHECK, 0)
        return honest
    if me.role == "dumper":
        if v.to_call > 0 and sim.aggressor == partner:
            if sim.allin[partner] and v.strength < 0.5:  # he shoved a premium hand: call with trash
                if honest[0] != CALL:
                    _log(sim, i, "dump_call_allin", partners)
                return CALL, 0
            if _bet_this_hand(sim, i):  # bet big, then folded to the receiver
                _log(sim, i, "dump_fold", partners)
            return FOLD, 0
        if v.can_raise:  # a big bet that still leaves the receiver room to raise
            half = v.cur_bet - v.to_call + (v.max_to - v.cur_bet + v.to_call) // 2
            target = min(v.pot + v.to_call * 2, half)
            if target >= v.min_to:
                return RAISE, target
        return (CHECK, 0) if v.to_call == 0 else honest
    # receiver: raise the dumper's bets (he folds), shove premium hands (he calls), else check
    if v.to_call > 0 and sim.aggressor == partner and not v.can_raise:
        return CALL, 0
    if v.to_call > 0 and sim.aggressor == partner and v.can_raise:
        if v.strength >= (0.97 if v.street == 0 else 0.95):
            return RAISE, v.max_to
        return RAISE, max(v.min_to, v.cur_bet * 2 + v.to_call)
    if v.to_call == 0 and v.street > 0:
        return CHECK, 0
    return honest


def _soft(sim: HandSim, i: int, v: View, honest: Decision, partners: list[int], outsiders: list[int]) -> Decision:
    kind = honest[0]
    if not outsiders:
        if kind == RAISE:
            _log(sim, i, "check_down" if v.to_call == 0 else "fold_instead_of_raise", partners)
            return (CHECK, 0) if v.to_call == 0 else (FOLD, 0)
        return honest
    if kind == RAISE and v.to_call > 0 and sim.aggressor in partners:
        _log(sim, i, "fold_instead_of_raise", partners)
        return FOLD, 0
    return honest


def _squeeze(sim: HandSim, i: int, v: View, honest: Decision, partners: list[int], outsiders: list[int]) -> Decision:
    if not outsiders:  # only the team is left: don't contest each other
        if v.to_call > 0:
            if honest[0] != FOLD:
                _log(sim, i, "no_contest_fold", partners)
            return FOLD, 0
        if honest[0] == RAISE:
            return CHECK, 0
        return honest
    if v.street == 0 and v.raises <= 1 and honest[0] != FOLD and v.can_raise:
        # open so the partner can re-raise over whoever calls in between
        pos = {j: (j - sim.post_first) % sim.n for j in (i, *partners, *outsiders)}
        if any(pos[j] > pos[i] for j in partners) and any(pos[i] < pos[o] for o in outsiders):
            return RAISE, max(v.min_to, 3 * v.bb)
    if sim.aggressor in partners and v.can_raise:
        # a third player acted between the partner's raise and us: squeeze him
        log = sim.street_log
        k = max(idx for idx, (j, kind, _) in enumerate(log) if j == sim.aggressor and kind == RAISE)
        between = [j for j, kind, _ in log[k + 1 :] if j in outsiders and kind == CALL]
        if between:
            _log(sim, i, "squeeze_reraise", partners)
            return RAISE, max(v.min_to, min(v.max_to, v.cur_bet * 4 + v.pot))
    last = sim.street_log[-1] if sim.street_log else None
    called = any(j in outsiders and kind == CALL for j, kind, _ in sim.street_log)
    whipsaw = v.to_call > 0 and v.can_raise and last is not None and last[0] in partners and last[1] == RAISE
    if whipsaw and called and sim.rng.random() < 0.5:  # the partner re-raised over a caller: once more
        _log(sim, i, "whipsaw_reraise", partners)
        return RAISE, max(v.min_to, min(v.max_to, v.cur_bet * 2 + v.pot // 3))
    return honest


def _sharing(sim: HandSim, i: int, v: View, honest: Decision, partners: list[int]) -> Decision:
    mine = sim.strength(i)
    best_partner = max(sim.strength(j) for j in partners)
    if best_partner > mine:
        if v.to_call > 0:
            if honest[0] != FOLD:
                strong = mine >= (0.75 if v.street == 0 else 0.6)
                _log(sim, i, "fold_strong_to_partner" if strong else "fold_to_partner", partners)
            return FOLD, 0
        if honest[0] == RAISE:
            return CHECK, 0
    return honest
