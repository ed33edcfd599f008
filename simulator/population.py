"""Who plays: an honest population, a few collusion teams, and confounders that must not look
collusive (friends who sit together, very loose big losers, nits, a strong regular).

Why teams are a small minority: about 0.3% of the pairs that actually meet at a table should be
colluding pairs, as on a real site; ``team_count`` sizes the teams from the population.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .engine import SimPlayer
from .styles import ORDINARY_MIX, STYLES

FAMILIES = ("chip_dumping", "soft_play", "squeeze", "card_sharing")
_PARTS_A = ("Ace", "Blue", "Cold", "Dark", "Easy", "Fast", "Grim", "Hot", "Iron", "Jolly", "Keen",
            "Lucky", "Mad", "Nice", "Old", "Pale", "Quiet", "Red", "Sly", "Tall", "Wild", "Zen")
_PARTS_B = ("Bear", "Card", "Deck", "Eagle", "Fox", "Gambit", "Hawk", "Jack", "King", "Lion",
            "Moose", "Nut", "Otter", "Pike", "River", "Shark", "Tiger", "Wolf", "Queen", "Rook")


@dataclass(slots=True)
class Team:
    id: str
    family: str
    members: list[str]
    roles: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True)
class Population:
    players: list[SimPlayer]
    teams: list[Team]
    confounders: list[tuple[str, list[str]]]  # (kind, players)

    def by_name(self) -> dict[str, SimPlayer]:
        return {p.name: p for p in self.players}


def _names(n: int, rng: random.Random) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    while len(out) < n:
        name = f"{rng.choice(_PARTS_A)}{rng.choice(_PARTS_B)}{rng.randint(1, 999)}"
        if rng.random() < 0.3:
            name = name.lower()
        if name not in seen:
            seen.add(name)
            out.append(name)
    return out


def team_count(n_players: int) -> int:
    """Teams so that colluding pairs are about 0.3% of the pairs that meet (each player meets
    roughly 40-80 others in a night), with at least one team per family."""
    meeting_pairs = n_players * 30
    return max(len(FAMILIES), round(0.003 * meeting_pairs / 1.3))


def make_population(n_players: int, rng: random.Random, n_teams: int | None = None) -> Population:
    names = _names(n_players, rng)
    styles = [s for s, _ in ORDINARY_MIX]
    weights = [w for _, w in ORDINARY_MIX]
    players = [SimPlayer(name, STYLES[rng.choices(styles, weights)[0]]) for name in names]
    pool = list(range(n_players))
    rng.shuffle(pool)
    cursor = 0

    def take(k: int) -> list[SimPlayer]:
        nonlocal cursor
        got = [players[j] for j in pool[cursor : cursor + k]]
        cursor += k
        return got

    confounders: list[tuple[str, list[str]]] = []
    for _ in range(max(3, n_players // 40)):
        a, b = take(2)
        a.buddies, b.buddies = (b.name,), (a.name,)
        a.confounder = b.confounder = "friends"
        confounders.append(("friends", [a.name, b.name]))
    for kind, style, count in (
        ("loose_loser", "whale", max(2, n_players // 50)),
        ("nit", "nit", max(2, n_players // 50)),
        ("strong_regular", "shark", max(1, n_players // 150)),
    ):
        for p in take(count):
            p.style = STYLES[style]
            p.confounder = kind
            confounders.append((kind, [p.name]))
    teams: list[Team] = []
    for t in range(n_teams if n_teams is not None else team_count(n_players)):
        family = FAMILIES[t % len(FAMILIES)]
        size = 3 if rng.random() < 0.25 else 2
        members = take(size)
        team = Team(f"T{t + 1}", family, [m.name for m in members])
        for k, m in enumerate(members):
            m.team = t
            m.family = family
            m.partners = frozenset(x.name for x in members if x is not m)
            m.buddies = tuple(sorted(m.partners))
            if m.style.name in ("short", "maniac"):
                m.style = STYLES["tag"]  # teams play full stacks
            if family == "chip_dumping":
                m.role = "receiver" if k == 0 else "dumper"
                team.roles[m.name] = m.role
        teams.append(team)
    return Population(players, teams, confounders)
