"""A whole room: a population, daily sessions, tables that open and close, and the truth file.

Why: detectors see patterns across many tables and days, so the room must look like a site:
players arrive and leave in sessions, friends and stakers follow each other, regulars
multi-table, tables open when a waiting list fills and close when they empty.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from simulator.outsider.engine import Hand, Seat, Table, money, normalise, play_hand
from simulator.outsider.models import LOOSE_LOSER, MODELS, MULTI_REG, NIT, STYLES, Action, Style
from simulator.outsider.names import aliases
from simulator.outsider.tactics import FAMILIES, TACTICS, Team

STAKES = ((10, 25, 75), (25, 50, 125), (50, 100, 200))  # sb, bb, rake cap in cents
SIZES = (6, 9)
GAMES = tuple((st, size) for st in range(3) for size in SIZES)
TABLE_WORDS = ("Ariadne", "Bellatrix", "Cassiopeia", "Deneb", "Eunomia", "Fortuna", "Galatea", "Hesperia",
               "Iduna", "Juno", "Kalliope", "Leda", "Metis", "Nemesis", "Oriana", "Pallas", "Quaoar",
               "Rhea", "Sappho", "Thisbe", "Urania", "Vesta", "Wega", "Xanthe", "Zelinda")
ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV",
         "XVI", "XVII", "XVIII", "XIX", "XX")
START = datetime(2026, 11, 2, 12, 0, 0)


@dataclass(eq=False)
class Person:
    """A screen name with a style, a home game and a session rhythm."""

    name: str
    style: Style
    label: str
    game: int
    tables: int = 1
    team: Team | None = None
    buddies: list[Person] = field(default_factory=list)
    follow: float = 0.0
    hands: int = 0
    tilt: float = 0.0
    left: int = 0
    seated: list[Run] = field(default_factory=list)
    avoid: list[Run] = field(default_factory=list)


@dataclass(eq=False)
class Run:
    """One table from opening to closing; its hands go to one file."""

    table: Table
    game: int
    seats: dict[int, list[object]]  # seat number -> [Person, stack]
    button: int = 0
    lines: list[str] = field(default_factory=list)
    first: datetime = START


@dataclass
class Plan:
    """The room's size knobs, derived once from the arguments."""

    hands: int
    players: int
    session: int
    gap: float
    day_ticks: int
    step: int


class Room:
    """Holds the population and the clock, and plays tick after tick until enough hands exist."""

    def __init__(self, *, hands: int, seed: int, intensity: float, operator_mode: bool, players: int) -> None:
        self.rng = random.Random(seed)
        self.seed, self.intensity, self.operator_mode = seed, intensity, operator_mode
        self.plan = _plan(hands, players)
        self.people: list[Person] = []
        self.teams: list[Team] = []
        self.confounders: list[dict[str, object]] = []
        self.by_name: dict[str, Person] = {}
        self.runs: list[Run] = []
        self.open: list[Run] = []
        self.waiting: dict[int, list[Person]] = {g: [] for g in range(len(GAMES))}
        self.starts: dict[int, list[Person]] = {}
        self.stale: dict[int, int] = {g: 0 for g in range(len(GAMES))}
        self.hand_no = 260_000_000_000 + seed * 7_919_000
        self.written = 0
        self.table_names = 0
        self.team_on: dict[str, bool] = {}
        _populate(self)

    # --- schedule ---------------------------------------------------------------------------
    def schedule(self, p: Person, now: int, first: bool = False) -> None:
        """Book the next session start after a gap (exponential, so arrivals look random)."""
        gap = self.rng.uniform(0, self.plan.gap + self.plan.session) if first else self.rng.expovariate(
            1 / self.plan.gap)
        self.starts.setdefault(now + 1 + int(gap), []).append(p)

    def begin(self, p: Person, tick: int, with_table: Run | None = None) -> None:
        """Start a session: seek a seat at one or more tables of the home game."""
        if p.left > 0:
            return
        p.left = max(8, int(self.plan.session * self.rng.uniform(0.4, 1.6)))
        for _ in range(p.tables):
            self.seek(p, with_table)
        for b in p.buddies:
            if b.left <= 0 and self.rng.random() < b.follow:
                b.left = max(8, int(p.left * self.rng.uniform(0.7, 1.1)))
                self.seek(b, p.seated[0] if p.seated else None, game=p.game)

    def end(self, p: Person, tick: int) -> None:
        """Leave every table and book the next session."""
        for run in list(p.seated):
            self.stand(p, run)
            p.avoid.append(run)
        p.left = 0
        if p in self.waiting[p.game]:
            self.waiting[p.game] = [q for q in self.waiting[p.game] if q is not p]
        self.schedule(p, tick)

    # --- seating ----------------------------------------------------------------------------
    def seek(self, p: Person, prefer: Run | None, game: int | None = None, avoid: Run | None = None) -> None:
        """Sit at the preferred table, a buddy's table or the fullest free one; else wait."""
        g = p.game if game is None else game
        if avoid is not None:
            p.avoid.append(avoid)
        free = [r for r in self.open if r.game == g and r not in p.avoid and p not in _people(r)
                and len(r.seats) < r.table.max_seats]
        if prefer is not None and prefer in free:
            self.sit(p, prefer)
            return
        friendly = [r for r in free if any(b in _people(r) for b in p.buddies)]
        if friendly and self.rng.random() < 0.9:
            self.sit(p, friendly[0])
            return
        if free:
            most = max(len(r.seats) for r in free)
            self.sit(p, self.rng.choice([r for r in free if len(r.seats) == most]))
            return
        self.waiting[g].append(p)

    def sit(self, p: Person, run: Run) -> None:
        """Take a random empty seat with a fresh buy-in."""
        empty = [k for k in range(1, run.table.max_seats + 1) if k not in run.seats]
        seat = self.rng.choice(empty)
        buyin = int(p.style.buyin_bb * run.table.bb * self.rng.uniform(0.75, 1.0)) // 5 * 5
        run.seats[seat] = [p, max(buyin, 20 * run.table.bb)]
        p.seated.append(run)

    def stand(self, p: Person, run: Run) -> None:
        """Leave a table (its stack goes with the player)."""
        run.seats = {k: v for k, v in run.seats.items() if v[0] is not p}
        p.seated = [r for r in p.seated if r is not run]

    def open_tables(self, tick: int) -> None:
        """Seat waiting players in free seats; open a table for four waiting, or two who waited long."""
        for g in range(len(GAMES)):
            queue, self.waiting[g] = self.waiting[g], []
            for p in queue:
                if p.left > 0:
                    self.seek(p, None, game=g)
            queue, self.waiting[g] = self.waiting[g], []
            self.stale[g] = self.stale[g] + 1 if queue else 0
            while len({id(p) for p in queue}) >= (2 if self.stale[g] >= 12 else 4):
                self.stale[g] = 0
                run = self.new_table(g)
                rest: list[Person] = []
                for p in queue:
                    if len(run.seats) < run.table.max_seats and p not in _people(run) and run not in p.avoid:
                        self.sit(p, run)
                    else:
                        rest.append(p)
                queue = rest
            self.waiting[g] = queue

    def new_table(self, g: int) -> Run:
        """A freshly named table of game ``g``."""
        st, size = GAMES[g]
        sb, bb, cap = STAKES[st]
        word = TABLE_WORDS[self.table_names % len(TABLE_WORDS)]
        num = ROMAN[(self.table_names // len(TABLE_WORDS)) % len(ROMAN)]
        suffix = "" if self.table_names < len(TABLE_WORDS) * len(ROMAN) else f" {self.table_names}"
        self.table_names += 1
        run = Run(Table(f"{word} {num}{suffix}", size, sb, bb, cap), g, {})
        self.runs.append(run)
        self.open.append(run)
        return run

    def close(self, run: Run) -> None:
        """Close a table; its last player goes back to the waiting list."""
        self.open = [r for r in self.open if r is not run]
        for q in self.people:
            if run in q.avoid:
                q.avoid = [r for r in q.avoid if r is not run]
        for p in _people(run):
            self.stand(p, run)
            if p.left > 0:
                self.waiting[run.game].append(p)

    # --- play -------------------------------------------------------------------------------
    def tick(self, tick: int) -> None:
        """One round of hands across every open table, with arrivals and departures."""
        if tick and tick % self.plan.day_ticks == 0:
            for p in self.people:
                if p.left > 0 or p.seated:
                    self.end(p, tick + self.plan.day_ticks // 8)
        for p in self.starts.pop(tick, []):
            self.begin(p, tick)
        self.open_tables(tick)
        day, slot = divmod(tick, self.plan.day_ticks)
        base = START + timedelta(days=day, seconds=slot * self.plan.step)
        tables = list(self.open)
        for k, run in enumerate(tables):
            if len(run.seats) < 2 or (len(run.seats) == 2 and self.rng.random() < 0.1):
                self.close(run)
                continue
            when = base + timedelta(seconds=k * self.plan.step // (len(tables) + 1))
            self.play(run, when)
            if self.written >= self.plan.hands:
                return
        for p in self.people:
            if p.left > 0:
                p.left -= 1
                if p.left == 0:
                    self.end(p, tick)

    def play(self, run: Run, when: datetime) -> None:
        """Deal one hand at ``run`` and carry the stacks over."""
        order = sorted(run.seats)
        run.button = next((k for k in order if k > run.button), order[0])
        self.hand_no += self.rng.randint(1, 6)
        seats = [Seat(_person(run, k).name, k, _stack(run, k)) for k in order]
        hand = Hand(self.hand_no, run.table, seats, order.index(run.button), self.operator_mode)
        self.arm_teams(hand)
        play_hand(hand, when, self.rng, self.choose)
        if not run.lines:
            run.first = when
        run.lines.append("\n".join(hand.lines))
        self.written += 1
        for k, s in zip(order, hand.seats, strict=True):
            p = _person(run, k)
            p.hands += 1
            net = s.stack - _stack(run, k)
            p.tilt = p.style.tilt if net < -40 * run.table.bb else p.tilt * 0.93
            run.seats[k][1] = s.stack
            self.after_hand(p, run, s.stack)

    def after_hand(self, p: Person, run: Run, stack: int) -> None:
        """Busted players rebuy elsewhere; a few change tables."""
        if stack < run.table.bb:
            self.stand(p, run)
            p.avoid.append(run)
            if p.left > 10:
                self.seek(p, None, game=run.game, avoid=run)
        elif self.rng.random() < 0.003:
            self.stand(p, run)
            self.seek(p, None, game=run.game, avoid=run)

    def arm_teams(self, hand: Hand) -> None:
        """Decide, for each team with two members dealt in, whether it colludes this hand."""
        self.team_on = {}
        for team in self.teams:
            if len(team.seats_of(hand)) >= 2:
                self.team_on[team.id] = self.rng.random() < team.intensity

    def choose(self, hand: Hand, i: int) -> Action:
        """The honest decision, replaced by the team's tactic when it fires."""
        p = self.by_name[hand.seats[i].name]
        honest = MODELS[p.style.model].decide(hand.spot(i), p.style, self.rng, p.tilt)
        team = p.team
        if team is None or not self.team_on.get(team.id):
            return honest
        alt = TACTICS[team.implementation](team, hand, i, honest, self.rng)
        if alt is None:
            return honest
        wish, legal = normalise(hand, i, alt[0]), normalise(hand, i, honest)
        if wish.kind == legal.kind:
            return honest
        self.log(team, hand, i, alt[1])
        return wish

    def log(self, team: Team, hand: Hand, i: int, act: str) -> None:
        """One evidence row per hand and team, naming the members dealt in."""
        hid = f"pokerstars:{hand.hand_id}"
        names = [hand.seats[j].name for j in team.seats_of(hand)]
        if team.evidence and team.evidence[-1]["hand_id"] == hid:
            return
        team.evidence.append({"hand_id": hid, "act": act, "players": names})

    # --- output -----------------------------------------------------------------------------
    def write(self, out: Path, truth: Path) -> None:
        """One file per table run, and the truth JSON."""
        out.mkdir(parents=True, exist_ok=True)
        for run in self.runs:
            if not run.lines:
                continue
            t = run.table
            name = f"HH{run.first:%Y%m%d} {t.name} - {money(t.sb)}-{money(t.bb)} - USD No Limit Hold'em.txt"
            (out / name).write_text("\n\n\n".join(run.lines) + "\n\n\n", encoding="utf-8")
        truth.parent.mkdir(parents=True, exist_ok=True)
        truth.write_text(json.dumps(self.truth(), indent=1), encoding="utf-8")

    def truth(self) -> dict[str, object]:
        """The answer key in the agreed schema."""
        return {
            "generator": "outsider", "seed": self.seed, "hands": self.written, "intensity": self.intensity,
            "operator_mode": self.operator_mode, "site": "pokerstars",
            "teams": [{"id": t.id, "family": t.family, "implementation": t.implementation,
                       "intensity": round(t.intensity, 4), "members": t.members, "evidence": t.evidence}
                      for t in self.teams],
            "confounders": self.confounders,
            "players": {p.name: {"style": p.label, "hands": p.hands} for p in self.people},
        }


def _people(run: Run) -> list[Person]:
    """Players seated at a table."""
    return [_person(run, k) for k in sorted(run.seats)]


def _person(run: Run, k: int) -> Person:
    """The player in seat ``k``."""
    p = run.seats[k][0]
    assert isinstance(p, Person)
    return p


def _stack(run: Run, k: int) -> int:
    """The stack in seat ``k``."""
    s = run.seats[k][1]
    assert isinstance(s, int)
    return s


def _plan(hands: int, players: int) -> Plan:
    """Sizes that give about ``hands`` hands over a few days with most players appearing."""
    seats = max(14.0, players * 0.14)
    ticks = hands / (seats / 5.2)
    online = seats / (players * 1.15)
    session = int(max(25, min(220, ticks * online / 3)))
    days = max(2, min(10, round(hands / 6000)))
    day_ticks = max(60, math.ceil(ticks / days))
    step = max(35, min(150, 43_200 // day_ticks))
    return Plan(hands, players, session, session * (1 - online) / online, day_ticks, step)


def _populate(room: Room) -> None:
    """Names, styles, teams and look-alike groups."""
    rng = room.rng
    names = aliases(room.plan.players, rng)
    pool = list(names)
    rng.shuffle(pool)

    def home() -> int:
        return rng.choices(range(len(GAMES)), weights=(27, 18, 21, 14, 12, 8))[0]

    def add(name: str, style: Style, label: str, game: int) -> Person:
        p = Person(name, style, label, game)
        room.people.append(p)
        room.by_name[name] = p
        return p

    regs = [s for s in STYLES if s.label in ("tight_aggressive_reg", "loose_aggressive_reg", "solid_abc",
                                                "recreational", "tilter")]
    k = 0
    for family, impls in FAMILIES.items():
        for impl, _ in impls:
            k += 1
            size = 3 if rng.random() < 0.35 else 2
            members = [pool.pop() for _ in range(size)]
            team = Team(f"t{k}", family, impl, _team_intensity(room.intensity, rng), members)
            room.teams.append(team)
            g = home()
            people = [add(m, rng.choice(regs), rng.choice(regs).label, g) for m in members]
            for p in people:
                p.label = p.style.label
                p.team = team
                p.buddies = [q for q in people if q is not p]
                p.follow = 0.55
    _lookalikes(room, pool, home, add)
    for name in pool:
        style = rng.choice(STYLES)
        add(name, style, style.label, home())
    for p in room.people:
        room.schedule(p, -1, first=True)


def _team_intensity(intensity: float, rng: random.Random) -> float:
    """Around the room's intensity: uniform in [0.8x, 1.2x], clipped to [0.05, 1]."""
    return min(1.0, max(0.05, intensity * rng.uniform(0.8, 1.2)))


def _lookalikes(room: Room, pool: list[str], home: object, add: object) -> None:
    """Friends, staking pairs, loose losers, nits and multi-tablers: honest but suspicious-looking."""
    rng = room.rng
    assert callable(home) and callable(add)
    for kind, groups, size, follow in (("friends", 4, (2, 3), 0.8), ("staking", 3, (2, 2), 0.65)):
        for _ in range(groups):
            n = rng.choice(size)
            g = home()
            people: list[Person] = []
            for _m in range(n):
                style = rng.choice(STYLES)
                people.append(add(pool.pop(), style, style.label, g))
            for p in people:
                p.buddies = [q for q in people if q is not p]
                p.follow = follow
            room.confounders.append({"kind": kind, "players": [p.name for p in people]})
    n = len(pool)
    for kind, style, share in (("loose_loser", LOOSE_LOSER, 0.04), ("nit", NIT, 0.05),
                               ("multi_tabler", MULTI_REG, 0.04)):
        for _ in range(max(2, int(n * share))):
            p = add(pool.pop(), style, style.label, home())
            if kind == "multi_tabler":
                p.tables = rng.randint(2, 4)
            room.confounders.append({"kind": kind, "players": [p.name]})


def generate(out: Path, truth: Path, *, hands: int = 50_000, seed: int = 0, intensity: float = 0.5,
             operator_mode: bool = True, players: int = 400) -> None:
    """Write one room of PokerStars hand histories into ``out`` and its answer key into ``truth``."""
    if players < 60:
        raise ValueError("a room needs at least 60 players")
    room = Room(hands=hands, seed=seed, intensity=intensity, operator_mode=operator_mode, players=players)
    tick = 0
    while room.written < hands:
        room.tick(tick)
        tick += 1
    room.write(Path(out), Path(truth))
