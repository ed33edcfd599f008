"""The room: a lobby with waiting lists, tables that open and close, sessions, and hand dealing.

Why a clock: sessions, table-hopping and groups arriving together only look real when people
come and go in time; every minute the lobby seats arrivals, lets leavers go, and each running
table deals roughly one hand (9-max tables a little slower).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import TextIO

from simulator.rival import brains
from simulator.rival.engine import BET, CALL, CHECK, FOLD, RAISE, Deal, Decision, Result, Spot, play
from simulator.rival.money import STAKES, usd
from simulator.rival.names import table_names
from simulator.rival.population import Person, Population
from simulator.rival.tactics import TACTICS, Ctx, Team

START = datetime(2025, 1, 13, 17, 0, 0)  # ET; CET is six hours ahead in January
TICK = 60.0


@dataclass
class SeatInfo:
    """An occupied seat: chips on the table and whether the player still waits for the big blind."""

    name: str
    chips: int
    buyin: int
    waiting: bool = True


@dataclass
class Table:
    """A running table and its history file."""

    name: str
    stake: int
    size: int
    fh: TextIO
    seats: dict[int, SeatInfo] = field(default_factory=dict)
    button: int = 0

    def free(self) -> list[int]:
        """Empty seat numbers."""
        return [s for s in range(1, self.size + 1) if s not in self.seats]

    def names(self) -> list[str]:
        """Who sits here."""
        return [info.name for info in self.seats.values()]


@dataclass
class Request:
    """A player waiting for a seat at a stake, maybe wanting to sit with group mates."""

    name: str
    stake: int
    prefer: list[str]
    since: float


class Room:
    """Runs the simulation; ``run`` deals ``hands`` hands into ``out``."""

    def __init__(self, pop: Population, rng: random.Random, out: Path, seed: int, operator_mode: bool) -> None:
        self.pop = pop
        self.rng = rng
        self.out = out
        self.operator_mode = operator_mode
        self.tables: list[Table] = []
        self.queue: list[Request] = []
        self.table_pool = table_names(rng)
        self.hand_no = 230_000_000_000 + seed * 10_000_000
        self.now = 0.0
        self.played = 0
        self.plan: dict[str, str] = {}
        self.dealt: list[str] = []
        self.snap: object = None
        self.evidence_seen: set[tuple[str, str, str]] = set()
        self.left: dict[tuple[str, str], tuple[float, int]] = {}  # (table, player) -> (when, chips)
        self._first_schedule()

    # ------------------------------------------------------------ sessions
    def _first_schedule(self) -> None:
        for p in self.pop.people.values():
            p.next_online = self.rng.uniform(0, 3600 * 3) * (1 - p.online_share)

    def _offline_gap(self, p: Person) -> float:
        share = p.online_share
        return self.rng.expovariate(1.0 / (p.session_min * 60 * (1 - share) / share))

    def _arrive(self, p: Person, until: float | None = None, prefer: list[str] | None = None,
                stake: int | None = None) -> int:
        """``p`` comes online and asks for seats; returns the stake chosen (group mates follow it)."""
        p.online_until = until if until is not None else self.now + self.rng.expovariate(1.0 / (p.session_min * 60))
        if stake is None:
            shift = 0 if self.rng.random() < 0.85 else self.rng.choice((-1, 1))
            stake = max(0, min(len(STAKES) - 1, p.stake + shift))
        for _ in range(p.tables_wanted):
            self.queue.append(Request(p.name, stake, prefer or [], self.now))
        return stake

    def _arrivals(self) -> None:
        for p in self.pop.people.values():
            if p.online_until < 0 <= p.next_online <= self.now:
                group = p.group
                if group is not None and self.rng.random() < group.together:
                    stake = self._arrive(p, prefer=group.members)
                    for m in group.members:
                        q = self.pop.people[m]
                        if q is not p and q.online_until < 0:
                            self._arrive(q, p.online_until, group.members, stake)
                else:
                    self._arrive(p, prefer=group.members if group is not None else None)

    def _departures(self) -> None:
        for p in self.pop.people.values():
            if p.online_until >= 0 and p.online_until <= self.now:
                self._leave_all(p)

    def _leave_all(self, p: Person) -> None:
        for t in self.tables:
            for s, info in list(t.seats.items()):
                if info.name == p.name:
                    self._unseat(t, s)
        self.queue = [r for r in self.queue if r.name != p.name]
        p.online_until = -1.0
        p.next_online = self.now + self._offline_gap(p)

    # ------------------------------------------------------------ seating
    def _seat_queue(self) -> None:
        waiting: list[Request] = []
        for req in self.queue:
            if not self._seat(req):
                waiting.append(req)
        self.queue = waiting
        self._open_tables()

    def _seat(self, req: Request) -> bool:
        options = [t for t in self.tables if t.stake == req.stake and t.free() and req.name not in t.names()]
        if not options:
            return False
        mates = [t for t in options if any(n in req.prefer for n in t.names() if n != req.name)]
        if req.prefer and not mates and self.now - req.since < 4 * TICK and self._mate_seated(req):
            return False  # wait a little for a seat next to the group
        pool = mates or options
        best = max(pool, key=lambda t: (len(t.seats) if len(t.seats) < t.size - 1 else 0, self.rng.random()))
        self._sit(best, req.name)
        return True

    def _mate_seated(self, req: Request) -> bool:
        return any(n in req.prefer and n != req.name for t in self.tables if t.stake == req.stake for n in t.names())

    def _unseat(self, t: Table, seat: int) -> None:
        """Free a seat, remembering the stack: coming back within the hour needs at least as much."""
        info = t.seats.pop(seat)
        self.left[(t.name, info.name)] = (self.now, info.chips)

    def _sit(self, t: Table, name: str) -> None:
        p = self.pop.people[name]
        bb = STAKES[t.stake].bb
        buyin = p.profile.buyin_bb * bb
        when, chips = self.left.get((t.name, name), (-1e9, 0))
        if self.now - when < 3600:
            buyin = max(buyin, chips)  # no ratholing
        seat = self.rng.choice(t.free())
        t.seats[seat] = SeatInfo(name, buyin, buyin, waiting=len(t.seats) >= 2)

    def _open_tables(self) -> None:
        for stake in range(len(STAKES)):
            reqs = [r for r in self.queue if r.stake == stake]
            distinct = list(dict.fromkeys(r.name for r in reqs))
            if len(distinct) < 3:
                continue
            size = 9 if self.rng.random() < (0.25 if stake < 2 else 0.4) else 6
            t = self._new_table(stake, size)
            for name in distinct[:size]:
                self._sit(t, name)
                req = next(r for r in self.queue if r.name == name and r.stake == stake)
                self.queue.remove(req)

    def _new_table(self, stake: int, size: int) -> Table:
        name = self.table_pool.pop()
        when = START + timedelta(seconds=self.now)
        s = STAKES[stake]
        path = self.out / f"HH{when:%Y%m%d} {name} - {s.file_label} - USD No Limit Hold'em.txt"
        t = Table(name, stake, size, path.open("a", encoding="utf-8", newline="\n"))
        self.tables.append(t)
        return t

    def _close_tables(self) -> None:
        keep: list[Table] = []
        for t in self.tables:
            if len(t.seats) < 2:
                for info in t.seats.values():
                    self.queue.append(Request(info.name, t.stake, [], self.now))
                t.fh.close()
            else:
                keep.append(t)
        self.tables = keep

    # ------------------------------------------------------------ hands
    def run(self, hands: int) -> None:
        """Tick the clock until ``hands`` hands are written."""
        while self.played < hands:
            self.now += TICK
            self._departures()
            self._arrivals()
            self._seat_queue()
            for t in list(self.tables):
                if self.played >= hands:
                    break
                if self.rng.random() < (0.12 if t.size == 6 else 0.3):
                    continue
                self._hand(t)
            self._close_tables()
        for t in self.tables:
            t.fh.close()

    def _lineup(self, t: Table) -> tuple[list[int], int] | None:
        """Seats dealt in and the button seat: the button moves on, a newcomer plays from the big blind."""
        bb = STAKES[t.stake].bb
        for info in t.seats.values():
            if info.chips < 2 * bb:
                info.chips = info.buyin  # a rebuy between hands
        active = sorted(s for s, i in t.seats.items() if not i.waiting)
        if len(active) <= 2:
            for i in t.seats.values():
                i.waiting = False
            active = sorted(t.seats)
        if len(active) < 2:
            return None
        button = next((s for s in active if s > t.button), active[0])
        ring = sorted(t.seats)
        after = ring[ring.index(button) + 1:] + ring[:ring.index(button)]
        sb = next(s for s in after if s in active) if len(active) > 2 else button
        after_sb = ring[ring.index(sb) + 1:] + ring[:ring.index(sb)]
        bb_seat = next(s for s in after_sb if s != button or len(active) == 2)
        t.seats[bb_seat].waiting = False
        dealt = sorted(s for s, i in t.seats.items() if not i.waiting)
        return dealt, button

    def _hand(self, t: Table) -> None:
        lineup = self._lineup(t)
        if lineup is None:
            return
        dealt, button = lineup
        t.button = button
        stake = STAKES[t.stake]
        self.hand_no += self.rng.randint(1, 8)
        when = START + timedelta(seconds=self.now + self.rng.uniform(0, 50))
        header = (f"PokerStars Hand #{self.hand_no}:  Hold'em No Limit ({stake.label}) - "
                  f"{when + timedelta(hours=6):%Y/%m/%d %H:%M:%S} CET [{when:%Y/%m/%d %H:%M:%S} ET]")
        deal = Deal(self.hand_no, stake, header, f"Table '{t.name}' {t.size}-max Seat #{button} is the button",
                    [(s, t.seats[s].name, t.seats[s].chips) for s in dealt],
                    [(s, i.name, i.chips) for s, i in t.seats.items() if i.waiting],
                    dealt.index(button), self.operator_mode)
        self.dealt = [t.seats[s].name for s in dealt]
        self._plan_teams()
        result = play(deal, self._decide, self.rng)
        t.fh.write("\n".join(result.lines) + "\n\n\n")
        self.played += 1
        self._after_hand(t, result)

    def _after_hand(self, t: Table, result: Result) -> None:
        bb = STAKES[t.stake].bb
        for s, info in list(t.seats.items()):
            if info.name not in result.final:
                continue
            info.chips = result.final[info.name]
            p = self.pop.people[info.name]
            p.hands += 1
            p.mood.tilt = max(0, p.mood.tilt - 1)
            if result.net[info.name] <= -40 * bb and self.rng.random() < p.profile.tilt_prone:
                p.mood.tilt = self.rng.randint(15, 60)
            if info.chips < 2 * bb and self.rng.random() < 0.35:
                self._leave_all(p)  # busted and done for now
            elif self.rng.random() < 0.004:
                self._unseat(t, s)  # table-hop
                self.queue.append(Request(p.name, t.stake, [], self.now))

    # ------------------------------------------------------------ decisions
    def _plan_teams(self) -> None:
        """Each ring with two or more members dealt in fires in a share of hands equal to its intensity."""
        self.plan = {}
        for team in self.pop.teams:
            if sum(1 for m in team.members if m in self.dealt) >= 2 and self.rng.random() < team.intensity:
                tactics = team.tactics
                weights = [0.65] + [0.35 / (len(tactics) - 1)] * (len(tactics) - 1) if len(tactics) > 1 else [1.0]
                self.plan[team.id] = self.rng.choices(tactics, weights=weights)[0]

    def _decide(self, spot: Spot) -> Decision:
        p = self.pop.people[spot.me.name]
        team = p.team
        tactic = self.plan.get(team.id) if team is not None else None
        if team is None or tactic is None:
            return brains.decide(spot, p.profile, p.mood, self.rng)
        snap = self.rng.getstate() if tactic == "dead_cards" else None
        honest = brains.decide(spot, p.profile, p.mood, self.rng)

        def redecide(dead: tuple[int, ...]) -> Decision:
            if snap is not None:
                self.rng.setstate(snap)
            return brains.decide(spot, p.profile, p.mood, self.rng, dead)

        move = TACTICS[tactic](Ctx(spot, honest, team, tactic, self.rng, redecide))
        if move is None:
            return self._follow(spot, honest, team)
        decision, act = move
        if not act.startswith("_") and _effective(spot, decision) != _effective(spot, honest):
            self._record(team, act)
        return decision

    def _follow(self, spot: Spot, honest: Decision, team: Team) -> Decision:
        """An active ring member follows a partner into a cheap pot (sets up the tactic; not evidence)."""
        state = spot.state
        if state.street or honest.kind != FOLD or spot.to_call > 3 * state.stake.bb:
            return honest
        partner_in = any(q.voluntary for q in state.live() if q.name in team.members and q is not spot.me)
        return Decision(CALL) if partner_in and self.rng.random() < 0.5 else honest

    def _record(self, team: Team, act: str) -> None:
        hand_id = f"pokerstars:{self.hand_no}"
        key = (team.id, hand_id, act)
        if key in self.evidence_seen:
            return
        self.evidence_seen.add(key)
        involved = sorted(m for m in team.members if m in self.dealt)
        team.evidence.append({"hand_id": hand_id, "act": act, "players": involved})


def _effective(spot: Spot, d: Decision) -> str:
    """What the engine will actually do with ``d`` (so a no-op change is not logged as evidence)."""
    kind = d.kind
    if kind in (BET, RAISE):
        if spot.can_raise and spot.max_to > spot.state.level:
            return "aggress"
        kind = CALL
    if kind in (CALL, CHECK, FOLD) and not spot.to_call:
        return CHECK
    return FOLD if kind in (FOLD, CHECK) else CALL


__all__ = ["Room", "usd"]
