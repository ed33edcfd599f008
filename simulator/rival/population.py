"""Who plays in the room: honest archetypes, look-alike confounders and the collusion rings.

Why confounders are first-class: friends who follow each other, staked players sitting with their
backer, loose big losers, nits and multi-tabling regulars all *look* like collusion in shared-hand
statistics, yet are honest; an evaluator needs them to measure false positives.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from simulator.rival.brains import Mood, Profile
from simulator.rival.names import screen_names
from simulator.rival.tactics import ROSTER, Team

#: archetype -> (vpip, pfr, 3-bet, aggression, bluff, sticky, buy-in in big blinds, tilt proneness)
ARCHETYPES: dict[str, tuple[float, float, float, float, float, float, int, float]] = {
    "tag_reg": (0.22, 0.18, 0.07, 0.6, 0.15, 0.0, 100, 0.08),
    "lag_reg": (0.30, 0.25, 0.10, 0.75, 0.25, 0.0, 100, 0.12),
    "nit": (0.12, 0.09, 0.03, 0.3, 0.04, -0.06, 100, 0.02),
    "calling_station": (0.45, 0.07, 0.02, 0.2, 0.05, 0.15, 60, 0.2),
    "maniac": (0.55, 0.35, 0.15, 0.9, 0.45, 0.05, 100, 0.3),
    "loose_loser": (0.55, 0.12, 0.03, 0.35, 0.15, 0.18, 100, 0.5),
    "weak_tight": (0.18, 0.08, 0.03, 0.25, 0.05, -0.03, 80, 0.1),
    "short_stacker": (0.20, 0.16, 0.08, 0.6, 0.1, 0.0, 30, 0.05),
    "recreational": (0.35, 0.12, 0.04, 0.4, 0.12, 0.05, 80, 0.3),
}
_HONEST_MIX = (("tag_reg", 0.2), ("lag_reg", 0.1), ("nit", 0.06), ("calling_station", 0.1), ("maniac", 0.03),
               ("weak_tight", 0.14), ("short_stacker", 0.05), ("recreational", 0.32))
STAKE_WEIGHTS = (0.25, 0.25, 0.22, 0.17, 0.11)


@dataclass
class Group:
    """People who tend to arrive together (friends, a backer and horse, a collusion ring)."""

    kind: str
    members: list[str]
    together: float


@dataclass
class Person:
    """A room member and the state that outlives one hand."""

    name: str
    profile: Profile
    stake: int
    tables_wanted: int
    session_min: float
    online_share: float
    mood: Mood = field(default_factory=Mood)
    group: Group | None = None
    team: Team | None = None
    online_until: float = -1.0
    next_online: float = 0.0
    hands: int = 0


def _jitter(rng: random.Random, value: float, width: float = 0.15) -> float:
    return max(0.0, value * (1 + rng.uniform(-width, width)))


def make_profile(rng: random.Random, style: str, model: str | None = None) -> Profile:
    """An archetype with personal noise; the decision model is a coin flip unless forced."""
    vpip, pfr, tb, agg, bluff, sticky, buyin, tilt = ARCHETYPES[style]
    chosen = model or ("equity" if rng.random() < 0.5 else "style")
    return Profile(style, chosen, _jitter(rng, vpip), min(_jitter(rng, pfr), vpip), _jitter(rng, tb),
                   min(1.0, _jitter(rng, agg)), _jitter(rng, bluff), sticky + rng.uniform(-0.02, 0.02),
                   int(buyin * rng.choice((0.8, 1.0, 1.0, 1.0))), tilt)


def _pick_style(rng: random.Random) -> str:
    r = rng.random()
    for style, w in _HONEST_MIX:
        r -= w
        if r < 0:
            return style
    return "recreational"


@dataclass
class Population:
    """Everyone in the room plus the truth-side bookkeeping."""

    people: dict[str, Person]
    teams: list[Team]
    confounders: list[dict[str, object]]
    groups: list[Group]


def _person(rng: random.Random, name: str, style: str, stake: int, model: str | None = None) -> Person:
    reg = style in ("tag_reg", "lag_reg", "nit", "short_stacker")
    return Person(name, make_profile(rng, style, model), stake, 1, rng.uniform(45, 150),
                  rng.uniform(0.3, 0.55) if reg else rng.uniform(0.12, 0.35))


def build(rng: random.Random, players: int, intensity: float) -> Population:
    """The room: ``players`` people, ten rings, and a proportional share of each confounder."""
    names = screen_names(rng, players)
    stakes = rng.choices(range(len(STAKE_WEIGHTS)), weights=STAKE_WEIGHTS, k=players)
    people: dict[str, Person] = {}
    cursor = 0
    teams: list[Team] = []
    groups: list[Group] = []
    for k, (family, impl, size, factor, together) in enumerate(ROSTER):
        members = names[cursor:cursor + size]
        cursor += size
        stake = stakes[cursor]
        model = "equity" if "dead_cards" in impl else None
        team = Team(f"ring{k + 1:02d}", family, impl, round(min(1.0, intensity * factor), 3), members, together)
        teams.append(team)
        group = Group("team", members, together)
        groups.append(group)
        for m in members:
            p = _person(rng, m, rng.choice(("lag_reg", "lag_reg", "recreational")), stake, model)
            p.team, p.group = team, group
            p.online_share = rng.uniform(0.4, 0.6)
            people[m] = p
    scale = players / 400
    confounders: list[dict[str, object]] = []
    cursor = _confounders(rng, names, stakes, cursor, scale, people, groups, confounders)
    for name, stake in zip(names[cursor:], stakes[cursor:], strict=True):
        people[name] = _person(rng, name, _pick_style(rng), stake)
    return Population(people, teams, confounders, groups)


def _confounders(rng: random.Random, names: list[str], stakes: list[int], cursor: int, scale: float,
                 people: dict[str, Person], groups: list[Group], out: list[dict[str, object]]) -> int:
    """Friends, staking pairs, loose losers, nits, multi-tablers and tilters (all honest)."""
    for _ in range(max(2, round(8 * scale))):
        size = rng.choice((2, 2, 3))
        members = names[cursor:cursor + size]
        stake = stakes[cursor]
        cursor += size
        group = Group("friends", members, 0.7)
        for m in members:
            people[m] = _person(rng, m, rng.choice(("recreational", "calling_station", "weak_tight")), stake)
            people[m].group = group
        groups.append(group)
        out.append({"kind": "friends", "players": sorted(members)})
    for _ in range(max(2, round(5 * scale))):
        backer, horse = names[cursor], names[cursor + 1]
        stake = stakes[cursor]
        cursor += 2
        group = Group("staking", [backer, horse], 0.4)
        for m in (backer, horse):
            people[m] = _person(rng, m, rng.choice(("tag_reg", "lag_reg")), stake)
            people[m].group = group
        groups.append(group)
        out.append({"kind": "staking", "players": sorted([backer, horse])})
    for kind, style, count in (("loose_loser", "loose_loser", 12), ("nit", "nit", 14), ("tilter", "maniac", 6)):
        for _ in range(max(1, round(count * scale))):
            name = names[cursor]
            people[name] = _person(rng, name, style, stakes[cursor])
            if kind == "tilter":
                people[name].profile.tilt_prone = 0.8
            cursor += 1
            out.append({"kind": kind, "players": [name]})
    for _ in range(max(2, round(15 * scale))):
        name = names[cursor]
        p = _person(rng, name, rng.choice(("tag_reg", "tag_reg", "lag_reg")), stakes[cursor])
        p.tables_wanted = rng.choice((2, 3, 3, 4))
        p.online_share = rng.uniform(0.45, 0.65)
        people[name] = p
        cursor += 1
        out.append({"kind": "multi_tabler", "players": [name]})
    return cursor
