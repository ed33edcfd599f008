"""Who plays in the room: styles, habits, honest confounders and colluding teams."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from .collusion import IMPLEMENTATIONS, Team
from .names import screen_names
from .policy import Params

#: model, vpip, pfr, aggression, bluff, stickiness, bet size (pot fraction)
STYLES: dict[str, tuple[str, float, float, float, float, float, float]] = {
    "reg": ("equity", 0.22, 0.17, 0.6, 0.10, 0.25, 0.66),
    "lag": ("equity", 0.30, 0.24, 0.75, 0.18, 0.30, 0.75),
    "multi_regular": ("equity", 0.19, 0.15, 0.55, 0.07, 0.20, 0.6),
    "rec": ("style", 0.38, 0.09, 0.35, 0.06, 0.55, 0.6),
    "weak_tight": ("style", 0.17, 0.07, 0.30, 0.03, 0.30, 0.5),
    "maniac": ("style", 0.55, 0.38, 0.90, 0.35, 0.40, 1.0),
    "loose_loser": ("style", 0.62, 0.05, 0.25, 0.04, 0.85, 0.55),
    "nit": ("style", 0.11, 0.08, 0.45, 0.02, 0.15, 0.6),
}
#: session start weight, tables at once, session minutes, buy-in in big blinds
HABITS: dict[str, tuple[float, tuple[int, int], tuple[int, int], int]] = {
    "reg": (1.6, (1, 3), (60, 240), 100),
    "lag": (1.4, (1, 3), (45, 180), 100),
    "multi_regular": (3.0, (4, 6), (240, 540), 100),
    "rec": (0.8, (1, 1), (20, 120), 60),
    "weak_tight": (0.9, (1, 2), (30, 150), 80),
    "maniac": (0.6, (1, 2), (15, 90), 100),
    "loose_loser": (0.9, (1, 1), (30, 150), 50),
    "nit": (1.2, (2, 4), (60, 200), 100),
}
FISH = frozenset({"rec", "loose_loser", "maniac"})
#: share of the unlabelled crowd in each style
CROWD_STYLES = ("reg", "lag", "rec", "weak_tight", "maniac")
CROWD_WEIGHTS = (0.30, 0.10, 0.40, 0.12, 0.08)
#: how likely a player joins a partner already seated, and starts a session when a partner does
FOLLOW = {"team": (0.75, 0.55), "friends": (0.7, 0.45), "staking": (0.6, 0.4)}


@dataclass
class Profile:
    name: str
    style: str
    params: Params
    activity: float
    tables: tuple[int, int]
    session: tuple[int, int]
    stakes: tuple[float, ...]
    six_max: float
    buyin_bb: int
    partners: list[str] = field(default_factory=list)
    follow: tuple[float, float] = (0.0, 0.0)


@dataclass
class Room:
    profiles: dict[str, Profile]
    teams: list[Team]
    confounders: list[dict[str, object]]


def _params(style: str, rng: random.Random) -> Params:
    model, *vals = STYLES[style]
    j = [min(v * rng.uniform(0.8, 1.2), 0.95) for v in vals]
    return Params(model, j[0], min(j[1], j[0]), j[2], j[3], j[4], vals[5] * rng.uniform(0.8, 1.25))


def _profile(name: str, style: str, rng: random.Random, stakes: tuple[float, ...] | None = None) -> Profile:
    activity, tables, session, buyin = HABITS[style]
    if stakes is None:
        low = style in FISH or style == "weak_tight"
        stakes = (0.5, 0.35, 0.15) if low else tuple(rng.choice(((0.2, 0.5, 0.3), (0.1, 0.3, 0.6), (0.6, 0.3, 0.1))))
    return Profile(name, style, _params(style, rng), activity * rng.uniform(0.6, 1.5), tables, session, stakes,
                   rng.uniform(0.25, 0.9), buyin)


def _link(group: list[Profile], kind: str) -> None:
    """Partners share stakes and table size and play more often (they arrange to meet)."""
    for p in group:
        p.activity *= 1.6
        p.partners = [q.name for q in group if q is not p]
        p.follow = FOLLOW[kind]
        p.stakes = group[0].stakes
        p.six_max = group[0].six_max


def _team_sizes(n_teams: int, rng: random.Random) -> list[int]:
    return [rng.choices((2, 3, 4), weights=(0.65, 0.28, 0.07))[0] for _ in range(n_teams)]


def build_room(players: int, intensity: float, rng: random.Random) -> Room:
    """The population: ~1 team per 40 players, ~15% labelled honest confounders, the rest a crowd."""
    names = screen_names(players, rng)
    pool = list(names)
    rng.shuffle(pool)
    n_teams = max(4, round(players / 40))
    families = [list(IMPLEMENTATIONS)[k % 4] for k in range(n_teams)]
    rng.shuffle(families)
    profiles: dict[str, Profile] = {}
    teams: list[Team] = []
    for k, (family, size) in enumerate(zip(families, _team_sizes(n_teams, rng), strict=True)):
        members = [pool.pop() for _ in range(size)]
        group = [_profile(m, rng.choice(("reg", "reg", "lag", "rec", "weak_tight")), rng) for m in members]
        _link(group, "team")
        profiles.update({p.name: p for p in group})
        spread = min(1.0, max(0.1, intensity * math.exp(rng.gauss(0.0, 0.3))))
        impl = rng.choice(sorted(IMPLEMENTATIONS[family]))
        account = members[0] if family == "chip_dumping" else ""
        teams.append(Team(f"T{k + 1:02d}", family, impl, round(spread, 3), sorted(members), account))
    confounders: list[dict[str, object]] = []
    for kind, count in (("friends", max(1, players // 50)), ("staking", max(1, players // 70))):
        for _ in range(count):
            group = [_profile(pool.pop(), rng.choice(("reg", "rec", "lag", "weak_tight")), rng) for _ in range(2)]
            _link(group, kind)
            profiles.update({p.name: p for p in group})
            confounders.append({"kind": kind, "players": sorted(p.name for p in group)})
    for style, share in (("loose_loser", 0.04), ("nit", 0.05), ("multi_regular", 0.04)):
        for _ in range(max(1, round(players * share))):
            p = _profile(pool.pop(), style, rng)
            profiles[p.name] = p
            confounders.append({"kind": style, "players": [p.name]})
    while pool:
        name = pool.pop()
        profiles[name] = _profile(name, rng.choices(CROWD_STYLES, weights=CROWD_WEIGHTS)[0], rng)
    return Room({n: profiles[n] for n in names}, teams, confounders)
