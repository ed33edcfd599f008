"""The output itself: deterministic, parses with the real PokerStars parser, reconciles, and every
hand replays legally in pokerkit (an independent NLHE engine) with the same winners."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from pokerkit import Automation, Mode, NoLimitTexasHoldem

from parsers.model import DECISIONS, Hand, Kind
from simulator.run import Config, simulate
from tests.simulator.conftest import START, Night
from warehouse.reconcile import reconcile_hands

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


def _run(tmp: Path, seed: int, hands: int = 1500) -> dict[str, bytes]:
    out = tmp / f"s{seed}"
    simulate(Config(hands=hands, seed=seed, players=40, start=START), out / "hh", out / "truth.json")
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def test_same_seed_same_bytes(tmp_path: Path) -> None:
    a = _run(tmp_path / "a", 5)
    b = _run(tmp_path / "b", 5)
    assert a.keys() == b.keys() and len(a) >= 3
    assert a == b
    c = _run(tmp_path / "c", 6)
    assert c != a


def test_every_hand_parses_and_reconciles(night: Night) -> None:
    assert night.quarantined == []
    assert len(night.hands) == 10000
    frame = reconcile_hands(night.hands)
    bad = frame.filter(frame["status"] != "ok")
    assert bad.height == 0, bad.head(5)
    ids = [h.hand_id for h in night.hands]
    assert len(set(ids)) == len(ids)
    assert all(h.hole_cards_mode == "operator" for h in night.hands)


def test_hands_spread_over_one_night_in_number_order(night: Night) -> None:
    ordered = sorted(night.hands, key=lambda h: int(h.site_hand_no))
    times = [h.started_at for h in ordered]
    assert all(t is not None for t in times)
    assert times == sorted(times)  # type: ignore[type-var]
    span = times[-1] - times[0]  # type: ignore[operator]
    assert timedelta(hours=2) < span < timedelta(hours=14)
    assert times[0] is not None and times[0] >= START


def test_table_sizes_side_pots_and_rake_present(night: Night) -> None:
    """The night must exercise the hard parts: 6- and 9-max, heads-up, side pots, split pots."""
    assert {h.max_seats for h in night.hands} == {6, 9}
    assert any(len(h.seats) == 2 for h in night.hands)
    assert any({a.pot_no for a in h.awards} - {0} for h in night.hands)
    assert any(len({a.player for a in h.awards if a.pot_no == 0}) > 1 for h in night.hands)
    raked = [h for h in night.hands if h.site_rake]
    assert raked and all(len(h.boards) and len(h.boards[0].cards) >= 6 for h in raked)
    for h in raked:  # 5%, rounded down, capped
        assert h.site_rake == min(h.site_total_pot * 5 // 100, 3 * h.bb, 300)  # type: ignore[operator]


def _pk_order(hand: Hand) -> list[str]:
    """pokerkit's player order: small blind first, button last (heads-up: big blind first)."""
    seats = sorted(hand.seats, key=lambda s: s.seat_no)
    k = next(i for i, s in enumerate(seats) if s.seat_no == hand.button_seat)
    rotated = seats[k + 1 :] + seats[: k + 1]
    return [s.player for s in rotated]


def replay(hand: Hand) -> list[int]:
    """Replay the parsed hand in pokerkit without rake; return pokerkit's final stacks."""
    order = _pk_order(hand)
    stacks = {s.player: s.stack for s in hand.seats}
    state = NoLimitTexasHoldem.create_state(
        AUTOMATIONS, True, 0, (hand.sb, hand.bb), hand.bb, [stacks[p] for p in order], len(order),
        mode=Mode.CASH_GAME,
    )
    holes = {h.player: h.cards for h in hand.hole_cards}
    for p in order:
        state.deal_hole(holes[p])
    board = hand.boards[0].cards if hand.boards else ""
    dealt = 0
    for a in hand.actions:
        if a.kind not in DECISIONS:
            continue
        while state.can_deal_board():
            take = 6 if dealt == 0 else 2
            state.deal_board(board[dealt : dealt + take])
            dealt += take
        assert state.actor_index is not None and order[state.actor_index] == a.player, (hand.hand_id, a)
        if a.kind is Kind.FOLD:
            state.fold()
        elif a.kind in (Kind.CHECK, Kind.CALL):
            state.check_or_call()
        else:
            assert a.raise_to is not None
            assert state.can_complete_bet_or_raise_to(a.raise_to), (hand.hand_id, a)
            state.complete_bet_or_raise_to(a.raise_to)
    while state.can_deal_board():
        take = 6 if dealt == 0 else 2
        state.deal_board(board[dealt : dealt + take])
        dealt += take
    assert not state.status, hand.hand_id
    return list(state.stacks)


@pytest.mark.filterwarnings("ignore:A card being dealt")  # pokerkit's random burn cards may be our board
def test_every_action_legal_and_pots_awarded_as_pokerkit_does(night: Night) -> None:
    sample = night.hands[:: max(1, len(night.hands) // 400)]
    for hand in sample:
        order = _pk_order(hand)
        pk_final = dict(zip(order, replay(hand), strict=True))
        rake = hand.site_rake or 0
        gap = 0
        for s in hand.seats:
            put = sum(a.contribution for a in hand.actions if a.player == s.player)
            won = sum(a.amount for a in hand.awards if a.player == s.player)
            ours = s.stack - put + won
            diff = pk_final[s.player] - ours  # pokerkit rakes nothing here
            assert 0 <= diff <= rake, (hand.hand_id, s.player, diff, rake)
            assert (won > 0) == (pk_final[s.player] > s.stack - put), (hand.hand_id, s.player)
            gap += diff
        assert gap == rake, hand.hand_id
