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

Those are the classic implementations (``CLASSIC``); a random world gives each team one of
several implementations of its family (``IMPLEMENTATIONS``), so a detector cannot learn one
script per family.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import TYPE_CHECKING

from .cards import EVAL
from .policy import CALL, CHECK, FOLD, RAISE, View

if TYPE_CHECKING:
    from .engine import HandSim

Decision = tuple[str, int]
Tactic = Callable[["HandSim", int, View, Decision, list[int], list[int]], Decision]


def override(sim: HandSim, i: int, v: View, honest: Decision) -> Decision:
    """The colluder's decision given the honest one; logs evidence when it differs."""
    me = sim.rec.players[i]
    players = sim.rec.players
    partners = [j for j in range(sim.n) if j != i and not sim.folded[j] and players[j].name in me.partners]
    if not partners:
        return honest
    outsiders = [j for j in range(sim.n) if j != i and not sim.folded[j] and j not in partners]
    family = me.family
    if family is None:
        return honest
    tactic = IMPLEMENTATIONS[family][me.impl or CLASSIC[family]]
    return tactic(sim, i, v, honest, partners, outsiders)


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


def _sharing(sim: HandSim, i: int, v: View, honest: Decision, partners: list[int], outsiders: list[int]) -> Decision:
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


# -- helpers shared by the world implementations ----------------------------------------------
def _passive(v: View) -> Decision:
    """Check when free, else call: take part without fighting."""
    return (CALL, 0) if v.to_call else (CHECK, 0)


def _heads_up_partner(sim: HandSim, i: int, partners: list[int], outsiders: list[int]) -> list[int]:
    """Chip dumping heads-up: the partners on the other side of the transfer (receiver <-> dumper),
    none while an outsider is still in the hand (these tactics only play out heads-up)."""
    if outsiders:
        return []
    me = sim.rec.players[i]
    players = sim.rec.players
    return [j for j in partners if (players[j].role == "receiver") != (me.role == "receiver")]


def _acts_after(sim: HandSim, i: int, j: int) -> bool:
    """Whether ``j`` acts after ``i`` in the current betting order."""
    if sim.street == 0:
        return (j - (sim.rec.bb_i + 1)) % sim.n > (i - (sim.rec.bb_i + 1)) % sim.n
    return (j - sim.post_first) % sim.n > (i - sim.post_first) % sim.n


def _no_contest(sim: HandSim, i: int, v: View, honest: Decision, partners: list[int], act: str) -> Decision:
    """Only the team is left: fold to a partner's bet, never bet into him."""
    if v.to_call > 0:
        if honest[0] != FOLD:
            _log(sim, i, act, partners)
        return FOLD, 0
    return (CHECK, 0) if honest[0] == RAISE else honest


# -- soft play --------------------------------------------------------------------------------
def _soft_checkdown(
    sim: HandSim, i: int, v: View, honest: Decision, partners: list[int], outsiders: list[int]
) -> Decision:
    """Heads-up with a partner: never bet or raise him (check, or call instead of raising)."""
    if outsiders or honest[0] != RAISE:
        return honest
    _log(sim, i, "check_down" if v.to_call == 0 else "call_instead_of_raise", partners)
    return _passive(v)


def _soft_fold(sim: HandSim, i: int, v: View, honest: Decision, partners: list[int], outsiders: list[int]) -> Decision:
    """Check it down heads-up, and give up to a partner's bet anywhere instead of contesting."""
    if v.to_call > 0 and sim.aggressor in partners and honest[0] != FOLD:
        _log(sim, i, "soft_fold", partners)
        return FOLD, 0
    if not outsiders and v.to_call == 0 and honest[0] == RAISE:
        _log(sim, i, "check_down", partners)
        return CHECK, 0
    return honest


def _soft_multiway(
    sim: HandSim, i: int, v: View, honest: Decision, partners: list[int], outsiders: list[int]
) -> Decision:
    """In multiway pots never raise a partner's bet (just call); heads-up play is honest."""
    if outsiders and honest[0] == RAISE and v.to_call > 0 and sim.aggressor in partners:
        _log(sim, i, "no_raise_multiway", partners)
        return CALL, 0
    return honest


# -- chip dumping -----------------------------------------------------------------------------
def _dump_trash_call(
    sim: HandSim, i: int, v: View, honest: Decision, partners: list[int], outsiders: list[int]
) -> Decision:
    """Heads-up: the receiver shoves strong hands, the dumper calls the shove with anything."""
    partners = _heads_up_partner(sim, i, partners, outsiders)
    if not partners:
        return honest
    partner = partners[0]
    if sim.rec.players[i].role == "receiver":
        if v.can_raise and v.strength >= (0.9 if v.street == 0 else 0.8):
            return RAISE, v.max_to
        return honest
    shoved = sim.aggressor == partner and (sim.allin[partner] or v.max_to <= v.cur_bet)
    if v.to_call > 0 and shoved:
        if honest[0] != CALL:
            _log(sim, i, "dump_call_allin", partners)
        return CALL, 0
    return honest


def _dump_river_overbet(
    sim: HandSim, i: int, v: View, honest: Decision, partners: list[int], outsiders: list[int]
) -> Decision:
    """Heads-up: both go quietly to the river, the dumper overbets it and folds to the raise."""
    partners = _heads_up_partner(sim, i, partners, outsiders)
    if not partners:
        return honest
    partner = partners[0]
    if sim.rec.players[i].role == "receiver":
        if v.street < 3:
            return _passive(v) if (not v.to_call or sim.aggressor == partner) else honest
        if v.to_call > 0 and sim.aggressor == partner and v.can_raise:
            return RAISE, max(v.min_to, v.cur_bet * 2 + v.to_call)
        return (CHECK, 0) if not v.to_call else (CALL, 0)
    if v.street < 3:
        return _passive(v) if (not v.to_call or sim.aggressor == partner) else honest
    if v.to_call == 0 and v.can_raise:  # an overbet that still leaves the receiver room to raise
        return RAISE, max(v.min_to, min(v.pot * 3 // 2, v.max_to // 2))
    if v.to_call > 0 and sim.aggressor == partner and _bet_this_street(sim, i):
        if honest[0] != FOLD:
            _log(sim, i, "overbet_fold", partners)
        return FOLD, 0
    return honest


def _bet_this_street(sim: HandSim, i: int) -> bool:
    return any(j == i and kind == RAISE for j, kind, _ in sim.street_log)


def _dump_small(sim: HandSim, i: int, v: View, honest: Decision, partners: list[int], outsiders: list[int]) -> Decision:
    """Heads-up: the dumper makes small bets, the receiver min-raises, the dumper folds: many
    small transfers instead of one big one."""
    partners = _heads_up_partner(sim, i, partners, outsiders)
    if not partners:
        return honest
    partner = partners[0]
    if sim.rec.players[i].role == "receiver":
        if v.to_call > 0 and sim.aggressor == partner and v.can_raise:
            return RAISE, v.min_to
        return (CHECK, 0) if not v.to_call else honest
    if v.to_call > 0 and sim.aggressor == partner and _bet_this_street(sim, i):
        if honest[0] != FOLD:
            _log(sim, i, "small_dump_fold", partners)
        return FOLD, 0
    if v.can_raise and not _bet_this_street(sim, i):
        size = 3 * v.bb if v.street == 0 else max(v.bb, v.pot // 3)
        return RAISE, max(v.min_to, min(size, v.max_to))
    return honest


# -- squeeze ----------------------------------------------------------------------------------
def _squeeze_lead_raise(
    sim: HandSim, i: int, v: View, honest: Decision, partners: list[int], outsiders: list[int]
) -> Decision:
    """Postflop with a third player in: one partner leads, the other raises over the lead."""
    if not outsiders:
        return _no_contest(sim, i, v, honest, partners, "no_contest_fold")
    if v.street == 0 or not v.can_raise:
        return honest
    if v.to_call == 0 and any(_acts_after(sim, i, j) and not sim.allin[j] for j in partners):
        if honest[0] != RAISE:
            _log(sim, i, "lead_for_partner", partners)
        return RAISE, max(v.min_to, v.pot * 2 // 3)
    if v.to_call > 0 and sim.aggressor in partners and _bet_this_street(sim, i):
        return (CALL, 0) if honest[0] == RAISE else honest  # the partner raised our lead: no war
    if v.to_call > 0 and sim.aggressor in partners:
        if honest[0] != RAISE:
            _log(sim, i, "lead_raise", partners)
        return RAISE, max(v.min_to, min(v.max_to, v.cur_bet * 3 + v.pot // 2))
    return honest


def _squeeze_isolation(
    sim: HandSim, i: int, v: View, honest: Decision, partners: list[int], outsiders: list[int]
) -> Decision:
    """Preflop: raise big over an outsider's limp or open; the partner folds to isolate him."""
    if not outsiders:
        return _no_contest(sim, i, v, honest, partners, "no_contest_fold")
    if v.street != 0:
        return honest
    if v.to_call > 0 and sim.aggressor in partners:
        if honest[0] != FOLD:
            _log(sim, i, "iso_fold", partners)
        return FOLD, 0
    entered = [j for j, kind, _ in sim.street_log if j in outsiders and kind in (CALL, RAISE)]
    if entered and v.raises <= 2 and v.can_raise:
        if honest[0] != RAISE:
            _log(sim, i, "iso_raise", partners)
        return RAISE, max(v.min_to, min(v.max_to, v.cur_bet * 4 + v.pot // 2))
    return honest


# -- card sharing -----------------------------------------------------------------------------
def _share_captain(
    sim: HandSim, i: int, v: View, honest: Decision, partners: list[int], outsiders: list[int]
) -> Decision:
    """Members get out of the captain's way: fold to any bet, never bet, while he is in."""
    players = sim.rec.players
    if players[i].role == "captain" or not any(players[j].role == "captain" for j in partners):
        return honest
    if v.to_call > 0:
        if honest[0] != FOLD:
            _log(sim, i, "fold_to_captain", partners)
        return FOLD, 0
    return (CHECK, 0) if honest[0] == RAISE else honest


def _beaten_share(hole: tuple[int, int], board: list[int], dead: set[int]) -> float:
    """Exact share of opponent holdings (ties half) our hand beats, ``dead`` cards excluded."""
    ev = EVAL[len(board) + 2]
    mine = ev(hole[0], hole[1], *board)
    rest = [c for c in range(52) if c not in dead and c not in hole and c not in board]
    score, total = 0.0, 0
    for a, b in combinations(rest, 2):
        theirs = ev(a, b, *board)
        score += 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
        total += 1
    return score / max(total, 1)


def _share_dead_cards(
    sim: HandSim, i: int, v: View, honest: Decision, partners: list[int], outsiders: list[int]
) -> Decision:
    """Postflop: re-decide knowing the partners' cards are out of the opponents' hands."""
    if v.street == 0 or not outsiders or sim.replay_state is None:
        return honest
    hole, board = sim.rec.holes[i], sim.rec.board[: 2 + sim.street]
    dead = {c for j in partners for c in sim.rec.holes[j]}
    delta = _beaten_share(hole, board, dead) - _beaten_share(hole, board, set())
    if abs(delta) < 0.005:
        return honest
    after = sim.rng.getstate()
    sim.rng.setstate(sim.replay_state)  # type: ignore[arg-type]  # same noise as the honest decision
    knowing = sim.honest(i, v, delta)
    sim.rng.setstate(after)
    if knowing[0] != honest[0]:
        _log(sim, i, _DEAD_ACT[knowing[0]], partners)
    return knowing


_DEAD_ACT = {RAISE: "dead_card_raise", CALL: "dead_card_call", CHECK: "dead_card_check", FOLD: "dead_card_fold"}


CLASSIC: dict[str, str] = {
    "chip_dumping": "bet_fold", "soft_play": "checkdown_fold", "squeeze": "sandwich",
    "card_sharing": "fold_to_stronger",
}

#: family -> implementation name -> tactic; the classic one first
IMPLEMENTATIONS: dict[str, dict[str, Tactic]] = {
    "chip_dumping": {"bet_fold": _dumping, "trash_call": _dump_trash_call, "river_overbet": _dump_river_overbet,
                     "small_transfers": _dump_small},
    "soft_play": {"checkdown_fold": _soft, "checkdown": _soft_checkdown, "fold_to_partner": _soft_fold,
                  "multiway_no_raise": _soft_multiway},
    "squeeze": {"sandwich": _squeeze, "lead_raise": _squeeze_lead_raise, "isolation": _squeeze_isolation},
    "card_sharing": {"fold_to_stronger": _sharing, "captain": _share_captain, "dead_cards": _share_dead_cards},
}


def family_of(implementation: str) -> str:
    """The family an implementation name belongs to (names are unique across families)."""
    for family, impls in IMPLEMENTATIONS.items():
        if implementation in impls:
            return family
    raise ValueError(f"unknown implementation {implementation!r}")
