"""The room clock: lobby ticks and table hands in time order, and the files they end up in."""

from __future__ import annotations

import heapq
import random
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path

from .brain import Brain
from .engine import Hand, Seat, play
from .lobby import Lobby, Table
from .writer import hand_text, money

START = datetime(2026, 3, 2, 10, 0, 0)
TOPS_UP = frozenset({"reg", "lag", "multi_regular", "nit"})


def _after(seats: list[int], prev: int) -> int:
    return next((s for s in seats if s > prev), seats[0])


def positions(seats: dict[int, str], fresh: set[str], prev: int, rng: random.Random
              ) -> tuple[list[int], int, int, int, list[int]]:
    """Dealt seats, button, small blind, big blind and newcomers posting a big blind.

    A newcomer is not dealt in on the button or in the small blind (he waits a hand, as on the
    site); elsewhere he posts a big blind. When fewer than two players were already playing,
    a new game starts and nobody owes anything.
    """
    occupied = sorted(seats)
    if sum(1 for s in occupied if seats[s] not in fresh) < 2:
        fresh = set()
    dealt = occupied
    while True:
        button = _after(dealt, prev) if prev >= 0 else rng.choice(dealt)
        sb = button if len(dealt) == 2 else _after(dealt, button)
        bb = _after(dealt, sb)
        waiting = {s for s in (button, sb) if seats[s] in fresh}
        if not waiting:
            break
        dealt = [s for s in dealt if s not in waiting]
    return dealt, button, sb, bb, [s for s in dealt if seats[s] in fresh and s != bb]


class Dealer:
    """Deals every table's hands and keeps each table's text until the table closes."""

    def __init__(self, out: Path, lobby: Lobby, brain: Brain, seed: int, operator_mode: bool) -> None:
        self.out, self.lobby, self.brain, self.seed = out, lobby, brain, seed
        self.operator_mode = operator_mode
        self.number = 230_000_000_000 + seed % 500 * 100_000_000  # one range per seed: rooms can share a warehouse
        self.count = 0
        self.hands_of: Counter[str] = Counter()
        self.heroes: dict[int, str] = {}
        self.buffers: dict[int, dict[str, list[str]]] = {}

    def _top_up(self, table: Table) -> None:
        """Rebuys between hands: everybody when broke, regulars whenever short of a full stack."""
        for name in table.seats.values():
            p = self.lobby.room.profiles[name]
            full = p.buyin_bb * table.info.bb
            if table.stacks[name] < 2 * table.info.bb or (p.style in TOPS_UP and table.stacks[name] < full * 0.6):
                table.stacks[name] = max(table.stacks[name], full)

    def deal(self, table: Table, t: float) -> bool:
        if len(table.seats) < 2:
            return False
        self._top_up(table)
        dealt, button, sb, bb, posters = positions(table.seats, table.fresh, table.button, self.lobby.rng)
        idx = {s: k for k, s in enumerate(dealt)}
        self.number += self.lobby.rng.randint(40, 1400)
        seats = [Seat(s, table.seats[s], table.stacks[table.seats[s]]) for s in dealt]
        hand = Hand(self.number, table.info.bb, seats, idx[button], idx[sb], idx[bb], [idx[s] for s in posters])
        rng = random.Random(self.seed * 1_000_003 + self.number)
        self.brain.new_hand(hand, rng)
        play(hand, rng, self.brain.decide, self.brain.muck)
        for seat in hand.seats:
            table.stacks[seat.name] = seat.stack
            table.fresh.discard(seat.name)
            self.hands_of[seat.name] += 1
        table.button = button
        self._write(table, hand, START + timedelta(seconds=t))
        self.count += 1
        return True

    def _write(self, table: Table, hand: Hand, when: datetime) -> None:
        info = table.info
        opened = START + timedelta(seconds=table.opened)
        path = f"HH{opened:%Y%m%d} {info.name} - {money(info.sb)}-{money(info.bb)} - USD No Limit Hold'em"
        if self.operator_mode:
            visible = set(range(len(hand.seats)))
        else:
            names = [s.name for s in hand.seats]
            hero = self.heroes.get(table.tid)
            if hero not in names:
                hero = self.lobby.rng.choice(sorted(names))
                self.heroes[table.tid] = hero
            visible = {names.index(hero)}
            path += f" - {hero}"
        self.buffers.setdefault(table.tid, {}).setdefault(path + ".txt", []).append(
            hand_text(hand, info, when, visible))

    def flush(self, table: Table) -> None:
        for path, texts in self.buffers.pop(table.tid, {}).items():
            (self.out / path).write_text("".join(texts), encoding="utf-8")


def run(dealer: Dealer, hands: int) -> None:
    """Lobby ticks every minute; each table deals again 30–90 s after its last hand."""
    lobby = dealer.lobby
    queue: list[tuple[float, int, int]] = [(0.0, 0, -1)]  # (time, order, table id; -1 = lobby tick)
    order = 1
    while dealer.count < hands:
        t, _, tid = heapq.heappop(queue)
        if tid < 0:
            lobby.tick(t)
            for table in lobby.opened:
                heapq.heappush(queue, (t + lobby.rng.uniform(15, 45), order, table.tid))
                order += 1
            lobby.opened.clear()
            for table in lobby.closing:
                dealer.flush(table)
            lobby.closing.clear()
            heapq.heappush(queue, (t + 60.0, order, -1))
        elif tid in lobby.tables:
            table = lobby.tables[tid]
            played = dealer.deal(table, t)
            n = len(table.seats)
            wait = 14 + 7 * n + lobby.rng.uniform(-6, 24) if played else 30.0
            heapq.heappush(queue, (t + wait, order, tid))
        order += 1
    for table in list(lobby.tables.values()) + lobby.closing:
        dealer.flush(table)
