"""A night on a site: tables open, players join and leave in sessions, hands are played and
written, and the ground truth is collected.

Why an event loop over table clocks: hand numbers must rise with time across all tables and a
player's multi-tabling (and a team's joining the same table) must be consistent at any moment.
"""

from __future__ import annotations

import heapq
import json
import random
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import accumulate, combinations
from pathlib import Path

from . import phh
from .engine import HandRecord, SimPlayer, TableInfo, play_hand
from .population import Population, apply_classic_knobs, make_population, make_world_population
from .stars import write_hand
from .world import CLASSIC_STAKES, World, make_world

STAKES = CLASSIC_STAKES
_TABLE_NAMES = ("Aludra", "Bellatrix", "Capella", "Deneb", "Electra", "Fomalhaut", "Gienah", "Hadar",
                "Izar", "Kochab", "Lesath", "Mirach", "Nashira", "Okul", "Phact", "Rigel", "Sabik",
                "Tania", "Unuk", "Vega", "Wezen", "Zaniah")
_ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV",
          "XV", "XVI", "XVII", "XVIII", "XIX", "XX")


@dataclass(slots=True)
class Config:
    hands: int
    seed: int
    tables: int | None = None
    players: int | None = None
    operator_mode: bool = False
    fmt: str = "pokerstars"
    start: datetime | None = None  # UTC, naive
    teams: int | None = None  # override the ~0.3%-of-pairs team count (tests want more evidence)
    world: str = "classic"  # classic: the fixed night, byte for byte; random: parameters drawn from the seed
    intensity: float | None = None  # share of shared hands where a team's tactic fires (forces the draw)
    implementation: str | None = None  # force one implementation on every team of its family
    honest_model: str | None = None  # equity | style | mixed
    table_size: int | None = None  # every table this many seats (2-10)

    def resolved_tables(self) -> int:
        return self.tables or max(1, round(self.hands / 450))

    def resolved_players(self) -> int:
        return self.players or max(24, self.hands // 70)


@dataclass(slots=True)
class Table:
    info: TableInfo
    seats: list[SimPlayer | None]
    stacks: list[int]
    button: int = -1
    hands: list[str] = field(default_factory=list)
    first_hand_at: datetime | None = None


@dataclass(slots=True)
class Result:
    """What a run produced: files, truth, and the hand records when asked to keep them."""

    files: list[Path]
    truth: dict[str, object]
    records: list[HandRecord]
    hands: int


def default_start(now: datetime | None = None) -> datetime:
    """Yesterday at 19:00 UTC: an evening session in Europe, afternoon in the US."""
    now = now or datetime.utcnow()
    day = (now - timedelta(days=1)).date()
    return datetime(day.year, day.month, day.day, 19, 0, 0)


def _buyin(p: SimPlayer, bb: int, rng: random.Random) -> int:
    depth = p.style.buyin_bb
    if depth >= 100:
        depth = 100 if rng.random() < 0.7 else rng.randint(60, 100)
    return depth * bb


class Night:
    def __init__(self, cfg: Config, keep_records: bool = False) -> None:
        self.cfg = cfg
        self.rng = random.Random(cfg.seed)
        self.world: World = make_world(cfg)
        if self.world.kind == "classic":
            self.pop: Population = make_population(self.world.players, self.rng, cfg.teams)
            apply_classic_knobs(self.pop, self.world, cfg.seed)
        else:
            self.pop = make_world_population(self.world, self.rng)
        #: per-hand coins for the teams' intensity, apart from the game's stream
        self.coins = random.Random(f"floorman-intensity:{cfg.seed}")
        self.intensity = [team.intensity for team in self.pop.teams]
        self.hoppers: list[SimPlayer] = []  # left a table, looking for another
        self.keep = keep_records
        self.records: list[HandRecord] = []
        self.seated: Counter[str] = Counter()
        self.evidence: dict[int, list[dict[str, object]]] = {}
        self.together: Counter[tuple[str, str]] = Counter()
        self.hand_no = 200_000_000_000 + (cfg.seed % 10_000) * 10_000_000
        self.weights = [p.style.activity for p in self.pop.players]
        self.cum_weights = list(accumulate(self.weights))  # as choices() would compute, once
        self.by_name = self.pop.by_name()

    # -- seating -------------------------------------------------------------------------------
    def _free(self, p: SimPlayer, table: Table) -> bool:
        limit = 1 if p.buddies else p.style.max_tables  # teams and friends play one table, together
        return self.seated[p.name] < limit and all(s is not p for s in table.seats)

    def _pick(self, table: Table) -> SimPlayer | None:
        rng = self.rng
        if self.hoppers and rng.random() < 0.8:
            hopper = self._hopper(table)
            if hopper is not None:
                return hopper
        for s in table.seats:
            if s is not None and s.buddies and rng.random() < 0.85 * s.affinity:
                for name in s.buddies:
                    b = self.by_name[name]
                    if self._free(b, table):
                        return b
        for _ in range(8):
            p = rng.choices(self.pop.players, cum_weights=self.cum_weights)[0]
            if p.stake and p.stake != table.info.bb:
                continue  # a regular who only plays his own game
            apart = any(self.seated[b] for b in p.buddies)
            if self._free(p, table) and not (apart and rng.random() < 0.9 * p.affinity):  # join your partner
                return p
        return None

    def _hopper(self, table: Table) -> SimPlayer | None:
        """The first player who left another table and may sit at this one."""
        for k, p in enumerate(self.hoppers):
            if self._free(p, table) and (not p.stake or p.stake == table.info.bb):
                return self.hoppers.pop(k)
        return None

    def _bring_buddy(self, table: Table, p: SimPlayer) -> None:
        """Teams and friends join together when there is room."""
        free = [k for k, s in enumerate(table.seats) if s is None]
        for name in p.buddies:
            b = self.by_name[name]
            if free and self._free(b, table) and self.rng.random() < 0.8 * p.affinity:
                self._sit(table, free.pop(self.rng.randrange(len(free))), b)

    def _sit(self, table: Table, k: int, p: SimPlayer) -> None:
        table.seats[k] = p
        table.stacks[k] = _buyin(p, table.info.bb, self.rng)
        self.seated[p.name] += 1

    def _leave(self, table: Table, k: int) -> None:
        p = table.seats[k]
        assert p is not None
        self.seated[p.name] -= 1
        table.seats[k] = None
        table.stacks[k] = 0

    def _churn(self, table: Table) -> None:
        rng, bb = self.rng, table.info.bb
        for k, p in enumerate(table.seats):
            if p is None:
                continue
            if table.stacks[k] < 2 * bb:
                if rng.random() < 0.7:
                    table.stacks[k] = _buyin(p, bb, rng)
                else:
                    self._leave(table, k)
            elif rng.random() < p.leave:
                self._leave(table, k)
                self._maybe_hop(p)
                for j, q in enumerate(table.seats):  # teams and friends tend to leave together
                    if q is not None and q.name in p.buddies and rng.random() < 0.9 * p.affinity:
                        self._leave(table, j)
        for k, p in enumerate(table.seats):
            if p is None and table.seats[k] is None and rng.random() < self.world.fill:
                q = self._pick(table)
                if q is not None:
                    self._sit(table, k, q)
                    self._bring_buddy(table, q)

    def _maybe_hop(self, p: SimPlayer) -> None:
        """Table hopping: some players who leave look for another table instead of going home."""
        hop = self.world.hop
        if hop and self.rng.random() < hop and len(self.hoppers) < 64:
            self.hoppers.append(p)

    def _quiet_teams(self, players: list[SimPlayer]) -> frozenset[int]:
        """Teams with two or more members in the hand whose intensity coin says: play honestly."""
        seen: Counter[int] = Counter(p.team for p in players if p.team is not None)
        quiet = [t for t, c in seen.items() if c >= 2 and self.intensity[t] < 1.0
                 and self.coins.random() >= self.intensity[t]]
        return frozenset(quiet)

    # -- hands ---------------------------------------------------------------------------------
    def _play(self, table: Table, when: datetime) -> None:
        occupied = [k for k, p in enumerate(table.seats) if p is not None]
        m = table.info.max_seats
        nxt = [(table.button + d) % m for d in range(1, m + 1)]
        button = next(k for k in nxt if table.seats[k] is not None)
        table.button = button
        after = [(button + d) % m for d in range(1, m + 1)]
        order = [k for k in after if table.seats[k] is not None]  # ends with the button
        if len(occupied) == 2:
            order = [button] + [k for k in order if k != button]
        self.hand_no += self.rng.randint(1, 60)
        players = [table.seats[k] for k in order]
        rec = HandRecord(
            hand_no=self.hand_no,
            table=table.info,
            started_at=when,
            button_seat=button + 1,
            seat_nos=[k + 1 for k in order],
            players=[p for p in players if p is not None],
            stacks=[table.stacks[k] for k in order],
            sb_i=0,
            bb_i=1,
            holes=[],
            board=[],
        )
        if self.pop.teams:
            rec.quiet = self._quiet_teams(rec.players)
        deck = self.rng.sample(range(52), 2 * len(order) + 5)
        play_hand(rec, deck, self.rng, fast=self.world.kind != "classic")
        for idx, k in enumerate(order):
            table.stacks[k] = rec.final[idx]
        if self.cfg.fmt == "phh":
            event = f"Floorman simulation seed {self.cfg.seed}"
            table.hands.append(phh.write_hand(rec, len(table.hands) + 1, event))
            hand_id = phh.hand_id(rec, event)
        else:
            table.hands.append(write_hand(rec, self.cfg.operator_mode))
            hand_id = f"pokerstars:{rec.hand_no}"
        if table.first_hand_at is None:
            table.first_hand_at = when
        names = sorted(p.name for p in rec.players)
        for a, b in combinations(names, 2):
            self.together[(a, b)] += 1
        for team, act, who in rec.acts:
            self.evidence.setdefault(team, []).append({"hand_id": hand_id, "act": act, "players": list(who)})
        if self.keep:
            self.records.append(rec)

    def run(self) -> list[Table]:
        cfg, rng = self.cfg, self.rng
        start = cfg.start or default_start()
        tables: list[Table] = []
        for t in range(self.world.tables):
            m, sb, bb = self._table_shape(rng)
            name = f"{_TABLE_NAMES[t % len(_TABLE_NAMES)]} {_ROMAN[(t // len(_TABLE_NAMES)) % len(_ROMAN)]}"
            if t >= len(_TABLE_NAMES) * len(_ROMAN):
                name += f" {t}"
            info = TableInfo(name, m, sb, bb, rake_cap=min(3 * bb, 300))
            tables.append(Table(info, [None] * m, [0] * m))
        self._assign_regulars(tables)
        heap = [(start + timedelta(seconds=rng.randint(0, 5400)), t) for t in range(len(tables))]
        heapq.heapify(heap)
        played = 0
        while played < cfg.hands:
            when, t = heapq.heappop(heap)
            table = tables[t]
            self._churn(table)
            if sum(1 for p in table.seats if p is not None) >= 2:
                self._play(table, when)
                played += 1
                m = table.info.max_seats
                gap = rng.randint(15, 45) if m <= 3 else rng.randint(25, 70) if m <= 6 else rng.randint(35, 95)
            else:
                gap = 60
            heapq.heappush(heap, (when + timedelta(seconds=gap), t))
        return tables

    def _table_shape(self, rng: random.Random) -> tuple[int, int, int]:
        """(max seats, sb, bb) of a new table: classic 6- or 9-max at three stakes, else the world's."""
        world = self.world
        if world.kind == "classic":
            m = 6 if rng.random() < 0.7 else 9
            sb, bb = rng.choice(STAKES)
            return self.cfg.table_size or m, sb, bb
        sizes = list(world.table_sizes)
        m = rng.choices(sizes, [world.table_sizes[k] for k in sizes])[0]
        sb, bb, _ = rng.choices(world.stakes, [w for _, _, w in world.stakes])[0]
        return m, sb, bb

    def _assign_regulars(self, tables: list[Table]) -> None:
        """Multi-tabling regulars pick one game (a big blind that has tables) and stay in it."""
        games = [t.info.bb for t in tables]
        for p in self.pop.players:
            if p.stake < 0:
                p.stake = self.rng.choice(games)

    def truth(self, tables: list[Table]) -> dict[str, object]:
        pop = self.pop
        colluding: set[tuple[str, ...]] = set()
        for team in pop.teams:
            colluding.update(tuple(sorted(pair)) for pair in combinations(team.members, 2))
        met = set(self.together)
        truth_teams = []
        for t, team in enumerate(pop.teams):
            entry: dict[str, object] = {"id": team.id, "family": team.family, "members": team.members,
                                        "implementation": team.implementation, "intensity": team.intensity}
            if team.roles:
                entry["roles"] = team.roles
            entry["evidence"] = self.evidence.get(t, [])
            pairs = combinations(sorted(team.members), 2)
            entry["hands_together"] = sum(self.together.get((a, b), 0) for a, b in pairs)
            truth_teams.append(entry)
        return {
            "seed": self.cfg.seed,
            "hands": self.cfg.hands,
            "format": self.cfg.fmt,
            "operator_mode": self.cfg.operator_mode,
            "site": "pokerstars" if self.cfg.fmt == "pokerstars" else "phh",
            "teams": truth_teams,
            "world": {**self.world.as_dict(), "tables_by_size": _by_size(tables)},
            "confounders": [{"kind": kind, "players": names} for kind, names in pop.confounders],
            "players": {
                p.name: {"style": p.style.name, "team": pop.teams[p.team].id if p.team is not None else None,
                         "confounder": p.confounder, "honest_model": "style" if p.knobs is None else "equity"}
                for p in pop.players
            },
            "stats": {
                "players": len(pop.players),
                "tables": len(tables),
                "candidate_pairs": len(met),
                "colluding_pairs": len(colluding),
                "colluding_pairs_met": len(colluding & met),
                "colluding_share": round(len(colluding & met) / max(len(met), 1), 5),
            },
        }


def _by_size(tables: list[Table]) -> dict[str, int]:
    """How many tables of each size the night actually opened."""
    return {str(m): c for m, c in sorted(Counter(t.info.max_seats for t in tables).items())}


def file_name(table: Table) -> str:
    info = table.info
    day = table.first_hand_at.strftime("%Y%m%d") if table.first_hand_at else "00000000"
    low = f"{info.sb // 100}.{info.sb % 100:02d}" if info.sb % 100 else f"{info.sb // 100}"
    high = f"{info.bb // 100}.{info.bb % 100:02d}" if info.bb % 100 or info.sb % 100 else f"{info.bb // 100}"
    return f"HH{day} {info.name} - ${low}-${high} - USD No Limit Hold'em.txt"


def simulate(cfg: Config, out: Path, truth_path: Path, keep_records: bool = False) -> Result:
    """Play ``cfg.hands`` hands, write one file per table into ``out`` and the truth JSON."""
    if cfg.fmt not in ("pokerstars", "phh"):
        raise ValueError(f"unknown output format {cfg.fmt!r} (pokerstars or phh)")
    night = Night(cfg, keep_records)
    tables = night.run()
    out.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    for table in tables:
        if not table.hands:
            continue
        name = file_name(table)
        if cfg.fmt == "phh":
            name = name.removesuffix(".txt").replace("$", "") + ".phhs"
        path = out / name
        with path.open("w", encoding="utf-8", newline="\n") as fh:
            sep = "\n\n" if cfg.fmt == "phh" else "\n\n\n"
            fh.write(sep.join(table.hands))
            fh.write(sep)
        files.append(path)
    truth = night.truth(tables)
    truth_path.parent.mkdir(parents=True, exist_ok=True)
    truth_path.write_text(json.dumps(truth, indent=1, sort_keys=True), encoding="utf-8")
    return Result(files, truth, night.records, cfg.hands)
