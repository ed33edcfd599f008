"""The room: population, teams, decoys, tables, sessions and the global clock.

Tables are driven by one event clock (a heap of next-hand times), so hand numbers rise
with time across all tables.  Players join tables, play sessions, rebuy or leave; team
members and friends try to sit where their partners sit.
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import combinations
from pathlib import Path
from typing import Any

from simulator.foreign.collusion import IMPLEMENTATIONS, Team, team_decision, team_seats
from simulator.foreign.names import table_names, unique_names
from simulator.foreign.players import Brain, Profile, honest, make_profile
from simulator.foreign.table import Decision, Hand, Seat, play_hand
from simulator.foreign.writer import money, render

STAKES: tuple[tuple[int, int], ...] = ((25, 50), (50, 100), (100, 200))
RAKE_PERCENT = 5
RAKE_CAP = 300
HONEST_STYLES = ("tag", "tag", "lag", "nit", "station", "weak_passive", "maniac", "tag", "lag", "weak_passive")


@dataclass
class Player:
    """A screen name and its habits."""

    idx: int
    name: str
    profile: Profile
    brain: Brain
    stakes: tuple[int, ...]
    max_tables: int
    activity: float
    session_mean: float
    cooldown_mean: float
    buyin_bb: int
    rebuy_p: float
    hopper: bool = False
    team: Team | None = None
    confounder: str | None = None
    links: list[tuple[int, float]] = field(default_factory=list)  # (partner idx, follow probability)
    tables: set[int] = field(default_factory=set)
    away_until: float = 0.0
    hands: int = 0
    net: int = 0


@dataclass
class TableState:
    """One table: its seats (seat number -> [player idx, stack]) and its text."""

    idx: int
    name: str
    max_seats: int
    stake: int
    seats: dict[int, list[int]] = field(default_factory=dict)
    button_seat: int = 0
    text: list[str] = field(default_factory=list)


@dataclass
class Room:
    """Everything the generator mutates while it runs."""

    rng: random.Random
    deck_rng: random.Random
    coin_rng: random.Random
    players: list[Player]
    tables: list[TableState]
    teams: list[Team]
    confounders: list[dict[str, Any]]
    operator_mode: bool
    start: datetime
    by_name: dict[str, Player] = field(default_factory=dict)
    pairs: set[int] = field(default_factory=set)
    ledger: list[tuple[int, int, int, int]] = field(default_factory=list)
    hands_played: int = 0


def _new_player(idx: int, name: str, style: str, rng: random.Random, decision_rng: random.Random,
                n_stakes: int) -> Player:
    """A player with a style, a model and session habits drawn at random."""
    model = "equity" if rng.random() < 0.5 else "style"
    if style in ("station", "weak_passive", "maniac") and rng.random() < 0.6:
        model = "style"
    profile = make_profile(style, model, rng)
    home = rng.randrange(n_stakes)
    stakes = (home,) if rng.random() < 0.8 or n_stakes == 1 else tuple(sorted({home, min(n_stakes - 1, home + 1)}))
    return Player(idx=idx, name=name, profile=profile, brain=Brain(profile, decision_rng), stakes=stakes,
                  max_tables=1 if rng.random() < 0.8 else rng.randint(2, 3), activity=rng.lognormvariate(0, 0.8),
                  session_mean=rng.uniform(40, 180), cooldown_mean=rng.uniform(3, 30) * 3600,
                  buyin_bb=rng.choice((100, 100, 100, 100, 80, 60, 50, 40)), rebuy_p=rng.uniform(0.4, 0.8),
                  hopper=rng.random() < 0.08)


Population = tuple[list[Player], list[Team], list[dict[str, Any]]]


def build_population(rng: random.Random, decision_rng: random.Random, n_players: int, n_teams: int,
                     families: tuple[str, ...], intensity: float) -> Population:
    """Players, colluding teams and honest decoy groups."""
    names = unique_names(rng, n_players)
    players = [_new_player(k, names[k], rng.choice(HONEST_STYLES), rng, decision_rng, len(STAKES))
               for k in range(n_players)]
    order = list(range(n_players))
    rng.shuffle(order)
    teams = _make_teams(rng, players, order, n_teams, families, intensity)
    confounders = _make_decoys(rng, players, order, decision_rng)
    return players, teams, confounders


def _link(players: list[Player], group: list[int], prob: float) -> None:
    """Make every member of ``group`` follow the others to tables with ``prob``."""
    for a in group:
        for b in group:
            if a != b:
                players[a].links.append((b, prob))


def _make_teams(rng: random.Random, players: list[Player], order: list[int], n_teams: int,
                families: tuple[str, ...], intensity: float) -> list[Team]:
    """Teams of 2-3 regular-looking players sharing a stake, families cycled."""
    teams: list[Team] = []
    for t in range(n_teams):
        size = 3 if rng.random() < 0.3 else 2
        group = [order.pop() for _ in range(size)]
        family = families[t % len(families)]
        team = Team(id=f"T{t + 1}", family=family, implementation=rng.choice(IMPLEMENTATIONS[family]),
                    intensity=intensity, members=[players[g].name for g in group])
        if family == "chip_dumping":
            team.roles = {team.members[0]: "receiver", **{m: "dumper" for m in team.members[1:]}}
        stake = rng.randrange(len(STAKES))
        for g in group:
            p = players[g]
            style = rng.choice(("tag", "lag", "tag", "weak_passive", "station"))
            p.profile = make_profile(style, rng.choice(("equity", "style")), rng)
            p.brain = Brain(p.profile, p.brain.rng)
            p.team, p.stakes = team, (stake,)
            p.activity = rng.uniform(1.5, 3.0)
            p.max_tables = rng.choice((1, 1, 2))
            p.session_mean, p.cooldown_mean = rng.uniform(120, 250), rng.uniform(3, 10) * 3600
        _link(players, group, 0.75)
        teams.append(team)
    return teams


def _make_decoys(rng: random.Random, players: list[Player], order: list[int],
                 decision_rng: random.Random) -> list[dict[str, Any]]:
    """Honest look-alikes: friends, staking partners, whales, nits and multi-table regulars."""
    n = len(players)
    out: list[dict[str, Any]] = []

    def group_of(size: int, kind: str, prob: float) -> None:
        if len(order) < size:
            return
        group = [order.pop() for _ in range(size)]
        stake = rng.randrange(len(STAKES))
        for g in group:
            players[g].confounder, players[g].stakes = kind, (stake,)
            players[g].activity = rng.uniform(1.5, 3.0)
        _link(players, group, prob)
        out.append({"kind": kind, "players": [players[g].name for g in group]})

    for _ in range(max(1, n // 40)):
        group_of(3 if rng.random() < 0.3 else 2, "friends", 0.7)
    for _ in range(max(1, n // 80)):
        group_of(2, "staking", 0.3)
    for kind, style, share in (("whale", "station", 0.04), ("nit", "nit", 0.06), ("regular", "tag", 0.08)):
        for _ in range(max(1, int(n * share))):
            if not order:
                break
            p = players[order.pop()]
            model = "style" if kind == "whale" else rng.choice(("equity", "style"))
            chosen = rng.choice(("whale", "whale", "maniac")) if kind == "whale" else style
            p.profile = make_profile(chosen, model, rng)
            p.brain = Brain(p.profile, decision_rng)
            p.confounder = kind
            if kind == "whale":
                p.rebuy_p, p.activity = 0.95, rng.uniform(1.0, 2.5)
                p.session_mean, p.cooldown_mean = rng.uniform(120, 300), rng.uniform(3, 10) * 3600
            if kind == "regular":
                p.max_tables, p.activity, p.session_mean = rng.randint(3, 4), rng.uniform(3.0, 5.0), 300.0
                p.stakes = tuple(range(len(STAKES)))
                p.cooldown_mean = 4 * 3600
            out.append({"kind": kind, "players": [p.name]})
    return out


def build_tables(rng: random.Random, n_players: int) -> list[TableState]:
    """About one table per seven players, 6-max and 9-max, spread over the stakes."""
    n = max(3, n_players // 7)
    names = table_names(rng, n)
    return [TableState(idx=k, name=names[k], max_seats=6 if rng.random() < 0.65 else 9,
                       stake=k % len(STAKES) if k < len(STAKES) else rng.choices((0, 1, 2), (0.45, 0.35, 0.2))[0])
            for k in range(n)]


def _available(room: Room, p: Player, table: TableState, now: float, follower: bool) -> bool:
    """Can ``p`` take a seat at ``table`` now."""
    if table.stake not in p.stakes or len(p.tables) >= p.max_tables or table.idx in p.tables:
        return False
    return follower or p.away_until <= now


def _seat(room: Room, p: Player, table: TableState, now: float) -> None:
    """Sit ``p`` in a random free seat with a buy-in."""
    free = [s for s in range(1, table.max_seats + 1) if s not in table.seats]
    seat_no = room.rng.choice(free)
    table.seats[seat_no] = [p.idx, p.buyin_bb * STAKES[table.stake][1]]
    p.tables.add(table.idx)


def fill_seats(room: Room, table: TableState, now: float) -> None:
    """Partners follow seated players; other empty seats fill from the lobby at random."""
    rng = room.rng
    seated = [room.players[v[0]] for v in table.seats.values()]
    for p in seated:
        for q_idx, prob in p.links:
            q = room.players[q_idx]
            room_left = len(table.seats) < table.max_seats
            if room_left and _available(room, q, table, now, True) and rng.random() < prob * 0.2:
                _seat(room, q, table, now)
    empty = table.max_seats - len(table.seats)
    fill_p = 0.6 if len(table.seats) < 3 else 0.12
    for _ in range(empty):
        if len(table.seats) >= table.max_seats or rng.random() >= fill_p:
            continue
        cands = [p for p in room.players if _available(room, p, table, now, False)]
        if not cands:
            return
        p = rng.choices(cands, [c.activity for c in cands])[0]
        _seat(room, p, table, now)
        _bring_partners(room, p, table, now)


def _bring_partners(room: Room, p: Player, table: TableState, now: float) -> None:
    """A player sitting down brings linked partners along (teams and friends most often)."""
    for q_idx, prob in p.links:
        q = room.players[q_idx]
        if len(table.seats) < table.max_seats and _available(room, q, table, now, True) and room.rng.random() < prob:
            _seat(room, q, table, now)


def _leave(room: Room, table: TableState, seat_no: int, now: float) -> None:
    """Stand up; a player with no table left goes away for a while."""
    idx = table.seats.pop(seat_no)[0]
    p = room.players[idx]
    p.tables.discard(table.idx)
    if not p.tables:
        away = 120.0 if p.hopper and room.rng.random() < 0.8 else room.rng.expovariate(1.0 / p.cooldown_mean)
        p.away_until = now + away


def after_hand(room: Room, table: TableState, now: float) -> None:
    """Rebuys, short-stack exits, session ends; partners tend to leave together."""
    rng = room.rng
    bb = STAKES[table.stake][1]
    leaving: list[int] = []
    for seat_no, entry in table.seats.items():
        p = room.players[entry[0]]
        buyin = p.buyin_bb * bb
        if entry[1] < max(bb * 20, buyin * 2 // 5):
            if rng.random() < p.rebuy_p:
                entry[1] = buyin
            else:
                leaving.append(seat_no)
                continue
        mean = 25.0 if p.hopper else p.session_mean
        if entry[1] > 3 * buyin:
            mean /= 2
        if rng.random() < 1.0 / mean:
            leaving.append(seat_no)
    names_leaving = {room.players[table.seats[s][0]].idx for s in leaving}
    for seat_no, entry in table.seats.items():
        p = room.players[entry[0]]
        together = max((prob for q, prob in p.links if q in names_leaving), default=0.0)
        if seat_no not in leaving and rng.random() < together * 0.8:
            leaving.append(seat_no)
    for seat_no in leaving:
        _leave(room, table, seat_no, now)


def _next_button(table: TableState) -> int:
    """Button moves to the next occupied seat clockwise."""
    occupied = sorted(table.seats)
    later = [s for s in occupied if s > table.button_seat]
    return later[0] if later else occupied[0]


def play_one(room: Room, table: TableState, hand_no: int, now: float, serial: int) -> int:
    """Deal and play one hand at ``table``, write it, update stacks; returns its action count."""
    sb, bb = STAKES[table.stake]
    table.button_seat = _next_button(table)
    order = sorted(table.seats)
    seats = [Seat(name=room.players[table.seats[s][0]].name, seat_no=s, stack=table.seats[s][1],
                  start=table.seats[s][1]) for s in order]
    deck = list(range(52))
    room.deck_rng.shuffle(deck)
    hand = Hand(seats=seats, button=order.index(table.button_seat), sb=sb, bb=bb, deck=deck, serial=serial)
    _start_teams(room, hand, hand_no)
    _count_pairs(room, hand)
    play_hand(hand, _decider(room), room.rng, RAKE_PERCENT, RAKE_CAP, room.operator_mode)
    before = sum(s.start for s in seats)
    after = sum(s.stack for s in seats)
    if before - after != hand.rake:
        raise AssertionError(f"chips not conserved in hand {hand_no}: {before} -> {after}, rake {hand.rake}")
    room.ledger.append((hand_no, before, after, hand.rake))
    for s in seats:
        table.seats[s.seat_no][1] = s.stack
        p = room.by_name[s.name]
        p.hands += 1
        p.net += s.stack - s.start
    when = room.start + timedelta(seconds=int(now))
    table.text.append(render(hand, hand_no, when, table.name, table.max_seats, room.operator_mode))
    for team in room.teams:
        team.firing = False
    return len(hand.history)


def _start_teams(room: Room, hand: Hand, hand_no: int) -> None:
    """Count team hands together and toss each team's intensity coin."""
    for team in room.teams:
        team.acts = set()
        team.firing = False
        if len(team_seats(hand, team)) >= 2:
            team.hands_together += 1
            team.hand_id = f"pokerstars:{hand_no}"
            team.firing = room.coin_rng.random() < team.intensity


def _count_pairs(room: Room, hand: Hand) -> None:
    """Remember every pair of players dealt in together (for candidate_pairs)."""
    n = len(room.players)
    idxs = sorted(room.by_name[s.name].idx for s in hand.seats)
    room.pairs.update(a * n + b for a, b in combinations(idxs, 2))


def _decider(room: Room) -> Any:
    """Decision callback: team tactics for firing team members, honest play otherwise."""

    def decide(hand: Hand, i: int, can_raise: bool) -> Decision:
        p = room.by_name[hand.seats[i].name]
        if p.team is not None and p.team.firing:
            return team_decision(hand, i, can_raise, p.brain, p.team)
        return honest(hand, i, can_raise, p.brain)

    return decide


def run(room: Room, hands: int, hand_base: int) -> None:
    """Main loop: always play the table whose next hand is earliest."""
    rng = room.rng
    heap = [(rng.uniform(0, 600), t.idx) for t in room.tables]
    heapq.heapify(heap)
    hand_no = hand_base
    while room.hands_played < hands:
        now, t_idx = heapq.heappop(heap)
        table = room.tables[t_idx]
        fill_seats(room, table, now)
        if len(table.seats) < 2:
            heapq.heappush(heap, (now + rng.uniform(120, 900), t_idx))
            continue
        hand_no += rng.randint(1, 30)
        actions = play_one(room, table, hand_no, now, room.hands_played)
        room.hands_played += 1
        after_hand(room, table, now)
        heapq.heappush(heap, (now + 20 + 5 * actions + rng.uniform(0, 20), t_idx))


def write_files(room: Room, out: Path) -> int:
    """One PokerStars file per table that dealt at least one hand; returns the count."""
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for table in room.tables:
        if not table.text:
            continue
        sb, bb = STAKES[table.stake]
        fname = f"HH{room.start:%Y%m%d} {table.name} - {money(sb)}-{money(bb)} - USD No Limit Hold'em.txt"
        (out / fname).write_text("".join(table.text), encoding="utf-8")
        count += 1
    return count


def truth(room: Room, seed: int, hands: int, intensity: float, tables_used: int) -> dict[str, Any]:
    """Ground-truth dictionary in the evaluator's shape."""
    n = len(room.players)
    team_pairs = [(room.by_name[a].idx, room.by_name[b].idx) for t in room.teams for a, b in combinations(t.members, 2)]
    met = sum(1 for a, b in team_pairs if min(a, b) * n + max(a, b) in room.pairs)
    return {
        "generator": "foreign-1", "seed": seed, "hands": hands, "intensity": intensity,
        "operator_mode": room.operator_mode, "site": "pokerstars",
        "teams": [{"id": t.id, "family": t.family, "implementation": t.implementation, "intensity": t.intensity,
                   "members": t.members, "roles": t.roles, "evidence": t.evidence,
                   "hands_together": t.hands_together} for t in room.teams],
        "confounders": room.confounders,
        "players": {p.name: {"style": p.profile.style, "model": p.profile.model,
                             "team": p.team.id if p.team else None, "confounder": p.confounder,
                             "hands": p.hands, "net_cents": p.net}
                    for p in room.players},
        "stats": {"players": n, "tables": tables_used, "candidate_pairs": len(room.pairs),
                  "colluding_pairs": len(team_pairs), "colluding_pairs_met": met,
                  "colluding_share": round(met / max(1, len(room.pairs)), 6),
                  "rake_total": sum(r for *_, r in room.ledger)},
    }
