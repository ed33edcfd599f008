"""The lobby: sessions, tables opening and closing, who sits where.

Everything here draws from the lobby's own RNG and never looks at chips, so the sequence of
who is dealt into which hand does not depend on how hands are played: two rooms that differ
only in collusion intensity seat the same people at the same hands.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from .population import Profile, Room
from .writer import TableInfo

STAKES = ((25, 50), (50, 100), (100, 200))
_BASES = ("Wezen", "Alcor", "Mizar", "Vega", "Deneb", "Rigel", "Hadar", "Merak", "Nunki", "Izar", "Ankaa", "Sabik",
          "Kochab", "Alphard", "Menkar", "Diphda", "Markab", "Tarazed", "Zosma", "Algol", "Caph", "Naos", "Atria",
          "Enif", "Gienah", "Mirfak", "Saiph", "Shaula", "Avior", "Elnath", "Hamal", "Lesath", "Pherkad", "Thuban")
_ROMAN = (("X", 10), ("IX", 9), ("V", 5), ("IV", 4), ("I", 1))


def roman(n: int) -> str:
    out = ""
    for sym, val in _ROMAN:
        while n >= val:
            out, n = out + sym, n - val
    return out


@dataclass
class Table:
    tid: int
    info: TableInfo
    stake: int
    opened: float
    seats: dict[int, str] = field(default_factory=dict)
    stacks: dict[str, int] = field(default_factory=dict)
    fresh: set[str] = field(default_factory=set)
    button: int = -1
    lonely_since: float = -1.0
    closed: bool = False

    def free(self) -> list[int]:
        return [s for s in range(1, self.info.max_seats + 1) if s not in self.seats]


class Lobby:
    def __init__(self, room: Room, rng: random.Random) -> None:
        self.room = room
        self.rng = rng
        self.tables: dict[int, Table] = {}
        self.at: dict[str, list[int]] = {n: [] for n in room.profiles}
        self.until: dict[str, float] = {}
        self.session_stake: dict[str, int] = {}
        self.opened: list[Table] = []  # tables opened since last asked, for the scheduler
        self.closing: list[Table] = []
        self._name_uses: dict[str, int] = {}
        self.left: dict[tuple[str, int], tuple[float, int]] = {}  # (player, table) -> when, stack
        self.games = 2 if len(room.profiles) < 250 else 3  # a small room spreads over fewer stakes

    def target_seats(self, t: float) -> float:
        """Busy evenings, quiet mornings: a day-long swell around half the room seated."""
        return len(self.room.profiles) * 0.5 * (0.8 + 0.2 * math.sin(2 * math.pi * (t / 86400.0 + 0.1)))

    def seated_total(self) -> int:
        return sum(len(t.seats) for t in self.tables.values())

    def tick(self, t: float) -> None:
        for name in [n for n, end in self.until.items() if end <= t]:
            self.end_session(name, t)
        idle = [n for n in self.room.profiles if n not in self.until]
        while idle and self.seated_total() < self.target_seats(t):
            weights = [self.room.profiles[n].activity for n in idle]
            name = self.rng.choices(idle, weights=weights)[0]
            self.start_session(name, t)
            idle = [n for n in idle if n not in self.until]
        self._regroup(t)
        self._tidy(t)

    def _regroup(self, t: float) -> None:
        """Partners split across tables drift together: a seat by a partner is taken when one is free."""
        for name in list(self.until):
            p = self.room.profiles[name]
            if not p.partners or self.rng.random() >= p.follow[0] * 0.25:
                continue
            mine = self.at[name]
            near = sorted({tid for q in p.partners for tid in self.at[q]} - set(mine))
            near = [tid for tid in near if self.tables[tid].free()]
            if not near:
                continue
            if len(mine) >= p.tables[1]:
                apart = [tid for tid in mine if not set(self.tables[tid].seats.values()) & set(p.partners)]
                if not apart:
                    continue
                self.leave(name, self.tables[apart[0]], t)
            self.sit(name, self.tables[self.rng.choice(near)], t)

    def _tidy(self, t: float) -> None:
        """Empty tables close; a table stuck short-handed breaks up and its players move on."""
        for table in list(self.tables.values()):
            if len(table.seats) > 2:
                table.lonely_since = -1.0
                continue
            if table.lonely_since < 0:
                table.lonely_since = t
            patience = 180 if len(table.seats) < 2 else 420
            if not table.seats or t - table.lonely_since > patience:
                for name in list(table.seats.values()):
                    self.leave(name, table, t)
                    if name in self.until:
                        self.sit_somewhere(name, t, exclude=table.tid)
                self.close(table)

    def start_session(self, name: str, t: float) -> None:
        p = self.room.profiles[name]
        self.until[name] = t + 60 * self.rng.uniform(*p.session)
        self.session_stake[name] = self.rng.choices(range(self.games), weights=p.stakes[: self.games])[0]
        followers = [q for q in p.partners if q not in self.until and self.rng.random() < p.follow[1]]
        for k in range(self.rng.randint(*p.tables)):
            self.sit_somewhere(name, t, room_for=1 + (len(followers) if k == 0 else 0))
        for partner in followers:
            if partner not in self.until:
                self.start_session(partner, t)

    def end_session(self, name: str, t: float) -> None:
        for tid in list(self.at[name]):
            self.leave(name, self.tables[tid], t)
        del self.until[name]

    def sit_somewhere(self, name: str, t: float, exclude: int = -1, room_for: int = 1) -> None:
        table = self._choose(self.room.profiles[name], t, exclude, room_for)
        if table is not None:
            self.sit(name, table, t)

    def _choose(self, p: Profile, t: float, exclude: int, room_for: int) -> Table | None:
        """A partner's table if he follows; else a table of his game, fuller ones preferred."""
        mine = set(self.at[p.name]) | {exclude}
        if p.partners and self.rng.random() < p.follow[0]:
            near = sorted({tid for q in p.partners for tid in self.at[q]} - mine)
            near = [tid for tid in near if self.tables[tid].free()]
            if near:
                return self.tables[self.rng.choice(near)]
        stake = self.session_stake[p.name]
        size = 6 if self.rng.random() < p.six_max else 9
        options = [tb for tb in self.tables.values()
                   if tb.stake == stake and tb.info.max_seats == size and len(tb.free()) >= room_for
                   and tb.tid not in mine]
        if not any(len(tb.free()) > 1 for tb in options) or self.rng.random() < 0.02:
            return self.open(stake, size, t)
        weights = [(len(tb.seats) + 1) ** 2 for tb in options]
        return self.rng.choices(options, weights=weights)[0]

    def open(self, stake: int, size: int, t: float) -> Table:
        base = self.rng.choice(_BASES)
        self._name_uses[base] = self._name_uses.get(base, 0) + 1
        sb, bb = STAKES[stake]
        tid = sum(self._name_uses.values())
        table = Table(tid, TableInfo(f"{base} {roman(self._name_uses[base])}", size, sb, bb), stake, t)
        self.tables[tid] = table
        self.opened.append(table)
        return table

    def close(self, table: Table) -> None:
        table.closed = True
        del self.tables[table.tid]
        self.closing.append(table)

    def sit(self, name: str, table: Table, t: float) -> None:
        """Take a free seat and buy in; back within the hour, at least with what he left with."""
        seat = self.rng.choice(table.free())
        table.seats[seat] = name
        p = self.room.profiles[name]
        table.stacks[name] = int(table.info.bb * p.buyin_bb * self.rng.uniform(0.7, 1.0))
        when, stack = self.left.get((name, table.tid), (-1e9, 0))
        if t - when < 3600:
            table.stacks[name] = max(table.stacks[name], stack)
        table.fresh.add(name)
        self.at[name].append(table.tid)

    def leave(self, name: str, table: Table, t: float) -> None:
        seat = next(s for s, n in table.seats.items() if n == name)
        del table.seats[seat]
        self.left[(name, table.tid)] = (t, table.stacks.pop(name))
        table.fresh.discard(name)
        self.at[name].remove(table.tid)
