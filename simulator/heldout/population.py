"""Who plays: screen names, styles, activity, home stakes, colluding teams and honest look-alikes.

Honest look-alikes (``confounders`` in the truth file) are there to be mistaken for teams:
``friends`` who come online together and follow each other to tables, a ``staking`` backer and
horse who often sit together, ``spewer``s who lose to everyone, ``nit``s who almost never bet.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from simulator.heldout.collusion import FAMILIES, Team
from simulator.heldout.styles import Style, make_style, random_archetype

_WORDS = ("river", "ace", "fox", "blue", "tilt", "nuts", "donk", "lucky", "shark", "moon", "king", "jack",
          "stone", "wolf", "bear", "maple", "storm", "pixel", "viper", "ghost", "mango", "rocket", "tiger",
          "cobra", "delta", "echo", "frost", "grind", "hero", "iron", "jazz", "karma", "lemon", "metro",
          "nova", "orbit", "pilot", "quake", "raven", "salsa", "turbo", "ultra", "vegas", "whale", "xeno",
          "yeti", "zen", "flop", "turn", "chip", "stack", "bluff", "muck", "rail", "felt", "kicker", "nit",
          "gambit", "oak", "sparrow", "bishop", "comet", "dune", "ember", "fjord", "gecko", "harbor")


def screen_names(n: int, rng: random.Random) -> list[str]:
    """``n`` distinct plausible screen names."""
    out: list[str] = []
    seen: set[str] = set()
    while len(out) < n:
        a, b = rng.choice(_WORDS), rng.choice(_WORDS)
        form = rng.randrange(6)
        if form == 0:
            name = f"{a}{b}{rng.randrange(10, 99)}"
        elif form == 1:
            name = f"{a.capitalize()}{b.capitalize()}"
        elif form == 2:
            name = f"{a}_{b}"
        elif form == 3:
            name = f"{a.upper()}{rng.randrange(1, 9999)}"
        elif form == 4:
            name = f"{a.capitalize()}.{b}{rng.randrange(1, 99)}"
        else:
            name = f"x{a}{b}x"
        if name.lower() not in seen:
            seen.add(name.lower())
            out.append(name)
    return out


@dataclass
class Player:
    name: str
    style: Style
    stake: int  # home stake index
    weight: float  # how often online
    session_mean: int  # hands per session
    group: str | None = None  # team or confounder group id
    follow: float = 0.0  # chance to come online and sit with the group
    roles: list[str] = field(default_factory=list)
    # live state
    table: Any = None
    stack: int = 0
    buyin: int = 0
    session_left: int = 0
    hands: int = 0

    def truth(self) -> dict[str, Any]:
        return {"style": self.style.name, "params": self.style.as_dict(), "home_stake": self.stake,
                "roles": self.roles, "group": self.group, "hands": self.hands}


@dataclass
class Population:
    players: list[Player]
    teams: list[Team]
    confounders: list[dict[str, Any]]
    groups: dict[str, list[Player]]


def build(n_players: int, n_stakes: int, rng: random.Random) -> Population:
    """Players with styles and activity; about one team per 40 players (pairs and trios)."""
    names = screen_names(n_players, rng)
    players = []
    for name in names:
        arch = random_archetype(rng)
        reg = arch in ("tag", "lag", "nit", "weak_tight") and rng.random() < 0.6
        home = rng.choices(range(n_stakes), (0.45, 0.35, 0.2)[:n_stakes])[0]
        players.append(Player(name, make_style(arch, rng), home,
                              rng.lognormvariate(0.0, 0.8) * (1.8 if reg else 1.0),
                              int(rng.uniform(120, 320) if reg else rng.uniform(40, 150)),
                              roles=["regular"] if reg else []))
    pool = players[:]
    rng.shuffle(pool)
    groups: dict[str, list[Player]] = {}

    def take(k: int) -> list[Player]:
        got = [pool.pop() for _ in range(k)]
        return got

    n_teams = max(4, round(n_players / 40))
    fams = list(FAMILIES) * (n_teams // len(FAMILIES) + 1)
    fams = fams[:n_teams]
    rng.shuffle(fams)
    teams: list[Team] = []
    for t, fam in enumerate(fams):
        size = 3 if rng.random() < 0.3 else 2
        members = take(size)
        home = rng.randrange(n_stakes)
        team = Team(f"T{t + 1:02d}", fam, [p.name for p in members], rng.uniform(0.75, 1.0))
        if fam == "chip_dumping":
            dumper = rng.choice(members)
            team.dumper, team.mode = dumper.name, rng.choice(("drip", "big"))
            dumper.style = make_style(rng.choice(("recreational", "loose_passive")), rng)
        for p in members:
            p.stake, p.group, p.follow = home, team.id, rng.uniform(0.7, 0.95)
            p.weight = rng.lognormvariate(0.3, 0.5)
            p.roles.append(f"colluder:{fam}")
        groups[team.id] = members
        teams.append(team)

    confounders: list[dict[str, Any]] = []
    for g in range(max(2, n_players // 45)):
        members = take(3 if rng.random() < 0.35 else 2)
        home = rng.randrange(n_stakes)
        for p in members:
            p.stake, p.group, p.follow = home, f"F{g + 1:02d}", rng.uniform(0.7, 0.95)
            p.weight = rng.lognormvariate(0.3, 0.5)
            p.roles.append("friends")
        groups[f"F{g + 1:02d}"] = members
        confounders.append({"kind": "friends", "players": [p.name for p in members]})
    for g in range(max(1, n_players // 130)):
        backer, horse = take(2)
        backer.style, horse.style = make_style("tag", rng), make_style(rng.choice(("tag", "lag")), rng)
        home = rng.randrange(n_stakes)
        for p, role in ((backer, "backer"), (horse, "horse")):
            p.stake, p.group, p.follow = home, f"S{g + 1:02d}", rng.uniform(0.3, 0.5)
            p.weight = rng.lognormvariate(0.4, 0.4)
            p.roles.append(role)
        groups[f"S{g + 1:02d}"] = [backer, horse]
        confounders.append({"kind": "staking", "players": [backer.name, horse.name]})
    for _ in range(max(1, n_players // 60)):
        (p,) = take(1)
        p.style = make_style("maniac", rng)
        p.roles.append("spewer")
        p.weight *= 1.5
        confounders.append({"kind": "spewer", "players": [p.name]})
    for _ in range(max(1, n_players // 60)):
        (p,) = take(1)
        p.style = make_style("nit", rng)
        p.roles.append("nit")
        p.weight *= 1.5
        confounders.append({"kind": "nit", "players": [p.name]})
    return Population(players, teams, confounders, groups)
