"""The room: tables at two or three stakes, players coming online, sitting down, switching tables
and leaving, one hand per table per minute or so; writes one PokerStars file per table.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from simulator.heldout.collusion import adjust
from simulator.heldout.engine import HandState, SeatState, play_hand
from simulator.heldout.policy import Decision, honest
from simulator.heldout.population import Player, Population, build
from simulator.heldout.writer import write_hand

#: (small blind, big blind, rake cap) in cents
STAKES = ((10, 25, 100), (25, 50, 125), (50, 100, 150))
_STARS = ("Alcyone", "Bellatrix", "Capella", "Deneb", "Electra", "Fomalhaut", "Gacrux", "Hadar", "Izar",
          "Jabbah", "Kochab", "Lesath", "Mirach", "Nashira", "Okul", "Phact", "Rasalas", "Sadr", "Tureis",
          "Unuk", "Vega", "Wezen", "Yildun", "Zaniah")
_ROMAN = ("", " II", " III", " IV", " V", " VI", " VII", " VIII", " IX", " X", " XI", " XII")
START = datetime(2026, 10, 5, 11, 0, 0, tzinfo=UTC)


@dataclass
class Table:
    name: str
    stake: int
    max_seats: int
    offset: int  # seconds into each minute its hands start
    seats: dict[int, Player] = field(default_factory=dict)
    joining: dict[int, Player] = field(default_factory=dict)
    button: int = 0  # seat number
    texts: list[str] = field(default_factory=list)

    def free(self) -> list[int]:
        return [k for k in range(1, self.max_seats + 1) if k not in self.seats and k not in self.joining]


class Room:
    def __init__(self, pop: Population, n_stakes: int, intensity: float, operator_mode: bool,
                 rng: random.Random) -> None:
        self.pop, self.rng = pop, rng
        self.n_stakes = n_stakes
        self.intensity, self.operator_mode = intensity, operator_mode
        self.tables: list[Table] = []
        self.all_tables: list[Table] = []
        self.names_used = 0
        self.team_of = {name: t for t in pop.teams for name in t.members}
        self.online: set[str] = set()
        self.by_name = {p.name: p for p in pop.players}
        self.hand_no = 259_000_000_000 + rng.randrange(10_000_000) * 1000
        self.hands = 0
        self.shared: dict[tuple[str, str], int] = {}

    # --- seating ---------------------------------------------------------------------------
    def _new_table(self, stake: int) -> Table:
        k = self.names_used
        self.names_used += 1
        name = _STARS[k % len(_STARS)] + _ROMAN[(k // len(_STARS)) % len(_ROMAN)]
        if k >= len(_STARS) * len(_ROMAN):
            name += f" {k}"
        t = Table(name, stake, 6 if self.rng.random() < 0.65 else 9, self.rng.randrange(0, 50))
        self.tables.append(t)
        self.all_tables.append(t)
        return t

    def _buyin(self, p: Player, stake: int) -> int:
        bb = STAKES[stake][1]
        deep = p.style.name in ("tag", "lag", "nit") or "regular" in p.roles
        return int(bb * (100 if deep and self.rng.random() < 0.8 else self.rng.uniform(40, 100)))

    def sit(self, p: Player, stake: int, prefer: Table | None = None, avoid: Table | None = None) -> None:
        cands = [t for t in self.tables if t.stake == stake and t.free() and t is not avoid]
        table = prefer if prefer is not None and prefer.free() else None
        if table is None and cands:
            weights = [1.0 + 3.0 * min(len(t.seats) + len(t.joining), t.max_seats - 1) for t in cands]
            if self.rng.random() < 0.9:
                table = self.rng.choices(cands, weights)[0]
        if table is None:
            table = self._new_table(stake)
        seat = self.rng.choice(table.free())
        table.joining[seat] = p
        p.table = table
        p.buyin = self._buyin(p, stake)
        p.stack = p.buyin
        p.session_left = max(10, int(self.rng.expovariate(1.0 / p.session_mean)))
        self.online.add(p.name)

    def _arrive(self, target: float) -> None:
        offline = [p for p in self.pop.players if p.name not in self.online]
        if not offline or len(self.online) >= target:
            return
        p = self.rng.choices(offline, [q.weight for q in offline])[0]
        stake = p.stake
        if self.rng.random() < 0.15:
            stake = max(0, min(self.n_stakes - 1, p.stake + self.rng.choice((-1, 1))))
        mates = self.pop.groups.get(p.group or "", [])
        seated = next((q.table for q in mates if q.name in self.online and q.table is not None
                       and q.table.stake == stake), None)
        self.sit(p, stake, prefer=seated if seated is not None and self.rng.random() < p.follow else None)
        for q in mates:
            if q is not p and q.name not in self.online and self.rng.random() < q.follow:
                self.sit(q, stake, prefer=p.table)

    def _leave(self, table: Table, seat: int, extra: list[str], switch: bool = False) -> None:
        p = table.seats.pop(seat)
        extra.append(f"{p.name} leaves the table")
        p.table = None
        if not switch:
            self.online.discard(p.name)
            return
        self.sit(p, table.stake, avoid=table)
        for q in self.pop.groups.get(p.group or "", []):
            if q is not p and q.table is table and self.rng.random() < q.follow:
                qs = next((k for k, v in table.seats.items() if v is q), None)
                if qs is None:  # still joining (not yet dealt in): no seat to leave, no line to write
                    table.joining = {k: v for k, v in table.joining.items() if v is not q}
                else:
                    table.seats.pop(qs)
                    extra.append(f"{q.name} leaves the table")
                q.table = None
                self.sit(q, table.stake, prefer=p.table)

    def _follow(self, table: Table, seat: int, p: Player, extra: list[str]) -> None:
        """Move to a table where a group mate sits (friends and teams follow each other)."""
        for q in self.pop.groups.get(p.group or "", []):
            t = q.table
            if q is not p and t is not None and t is not table and t.stake == table.stake and t.free():
                if any(m.table is table for m in self.pop.groups[p.group or ""] if m is not p):
                    return  # a mate is here already
                table.seats.pop(seat)
                extra.append(f"{p.name} leaves the table")
                left = p.session_left
                self.sit(p, table.stake, prefer=t)
                p.session_left = left
                return

    # --- one hand ----------------------------------------------------------------------------
    def _brain(self, hand_id: str, seated: Sequence[Player], active: set[str]) -> Any:
        rng = self.rng
        team_of = self.team_of
        styles = {p.name: p.style for p in seated}

        def decide(hand: HandState, i: int) -> Decision:
            name = hand.seats[i].name
            team = team_of.get(name)
            if team is None or team.id not in active:
                return honest(hand, i, styles[name], rng)
            dead: tuple[int, ...] = ()
            if team.family == "card_sharing":
                dead = tuple(c for s in hand.seats if s.name in team.members and s.name != name for c in s.hole)
            dec = honest(hand, i, styles[name], rng, dead)
            new, act, who = adjust(hand, i, team, dec, rng)
            if act is not None:
                players = sorted({name, *(hand.seats[k].name for k in who)})
                team.evidence.append({"hand_id": hand_id, "act": act, "players": players, "street": hand.street})
            return new

        return decide

    def play(self, table: Table, when: datetime) -> None:
        sb, bb, cap = STAKES[table.stake]
        order = sorted(table.seats)
        # the button moves to the next occupied seat
        nxt = [k for k in order if k > table.button]
        table.button = nxt[0] if nxt else order[0]
        bi = order.index(table.button)
        players = [table.seats[k] for k in order]
        seats = [SeatState(k, p.name, p.stack, (0, 0)) for k, p in zip(order, players, strict=True)]
        self.hand_no += self.rng.randint(1, 40)
        hand_id = f"pokerstars:{self.hand_no}"
        present: dict[str, int] = {}
        for p in players:
            team = self.team_of.get(p.name)
            if team is not None:
                present[team.id] = present.get(team.id, 0) + 1
        dedication = {t.id: t.dedication for t in self.pop.teams}
        active = {tid for tid, c in present.items()
                  if c >= 2 and self.rng.random() < min(1.0, self.intensity * dedication[tid])}
        hand = play_hand(seats, bi, sb, bb, cap, self._brain(hand_id, players, active), self.rng)
        extra = [f"{p.name} joins the table at seat #{k}" for k, p in table.joining.items()]
        for p, s in zip(players, seats, strict=True):
            p.stack = s.chips + s.won
            p.hands += 1
            p.session_left -= 1
        for a in range(len(players)):
            for b in range(a + 1, len(players)):
                key = (min(players[a].name, players[b].name), max(players[a].name, players[b].name))
                self.shared[key] = self.shared.get(key, 0) + 1
        for k, p in list(zip(order, players, strict=True)):
            if table.seats.get(k) is not p:
                continue  # left already, following a friend to another table
            if p.stack < bb * 2 or p.stack < 0.35 * p.buyin:
                if p.session_left > 0 and self.rng.random() < 0.75:
                    p.stack = max(p.stack, p.buyin)  # tops up between hands
                else:
                    self._leave(table, k, extra)
                    continue
            if p.session_left <= 0:
                for q in self.pop.groups.get(p.group or "", []):
                    if q is not p and q.table is table and self.rng.random() < q.follow * 0.6:
                        q.session_left = min(q.session_left, self.rng.randint(0, 5))  # they leave together
                self._leave(table, k, extra)
            elif self.rng.random() < 0.004 and len(table.seats) > 3:
                self._leave(table, k, extra, switch=True)
            elif p.group and self.rng.random() < 0.03 * p.follow:
                self._follow(table, k, p, extra)
        table.texts.append(write_hand(hand, self.hand_no, table.name, table.max_seats, when, self.operator_mode, extra))
        self.hands += 1
        table.seats.update(table.joining)
        table.joining.clear()

    def step(self, minute: int, target: float, budget: int) -> None:
        for _ in range(4):
            self._arrive(target)
        when0 = START + timedelta(minutes=minute)
        for table in sorted(self.tables, key=lambda t: t.offset):
            if self.hands >= budget:
                return
            if len(table.seats) < 3:
                table.seats.update(table.joining)
                table.joining.clear()
                if len(table.seats) < 3:
                    continue
            self.play(table, when0 + timedelta(seconds=table.offset))
        self._break_small_tables()

    def _break_small_tables(self) -> None:
        for t in list(self.tables):
            if not t.seats and not t.joining:
                self.tables.remove(t)
            elif len(t.seats) + len(t.joining) <= 2 and self.rng.random() < 0.2:
                for k in list(t.seats):
                    p = t.seats.pop(k)
                    others = [x for x in self.tables if x is not t and x.stake == t.stake and x.free()]
                    if others:
                        self.sit(p, t.stake, prefer=self.rng.choice(others))
                    else:
                        t.seats[k] = p


def generate(out: Path, truth_path: Path, *, hands: int, seed: int, intensity: float = 0.5,
             operator_mode: bool = True, players: int | None = None) -> dict[str, Any]:
    """Write a held-out room of ``hands`` PokerStars hands under ``out`` and its truth JSON."""
    rng = random.Random(seed)
    n_players = players if players is not None else max(30, round(hands / 125))
    n_stakes = 3 if n_players >= 120 else 2
    pop = build(n_players, n_stakes, rng)
    room = Room(pop, n_stakes, intensity, operator_mode, rng)
    concurrency = max(12.0, n_players * 0.12)
    minute = 0
    while room.hands < hands:
        target = concurrency * (1.0 + 0.3 * math.sin(2 * math.pi * minute / 1440))
        room.step(minute, target, hands)
        minute += 1
    out.mkdir(parents=True, exist_ok=True)
    day = START.strftime("%Y%m%d")
    files = 0
    for t in room.all_tables:
        if not t.texts:
            continue
        sb, bb, _ = STAKES[t.stake]
        stake = f"{sb / 100:.2f}-{bb / 100:.2f}"
        (out / f"HH{day} {t.name} - {stake} - USD No Limit Holdem.txt").write_text(
            "\n\n".join(t.texts) + "\n", encoding="utf-8")
        files += 1
    truth = {
        "generator": "heldout-1", "seed": seed, "hands": room.hands, "intensity": intensity,
        "operator_mode": operator_mode, "site": "pokerstars",
        "teams": [t.truth() for t in pop.teams],
        "confounders": pop.confounders,
        "players": {p.name: p.truth() for p in pop.players},
        "stakes": [f"${sb / 100:.2f}/${bb / 100:.2f}" for sb, bb, _ in STAKES[:n_stakes]],
    }
    truth_path.parent.mkdir(parents=True, exist_ok=True)
    truth_path.write_text(json.dumps(truth, indent=1), encoding="utf-8")
    pairs_together = sum(1 for v in room.shared.values() if v > 0)
    positive = {(min(a, b), max(a, b)) for t in pop.teams for a in t.members for b in t.members if a < b}
    return {"hands": room.hands, "files": files, "players": n_players, "teams": len(pop.teams),
            "evidence": sum(len(t.evidence) for t in pop.teams), "co_seated_pairs": pairs_together,
            "colluding_pairs_co_seated": sum(1 for p in positive if room.shared.get(p, 0) > 0),
            "minutes": minute}
