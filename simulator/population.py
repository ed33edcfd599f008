"""Who plays: an honest population, a few collusion teams, and confounders that must not look
collusive (friends who sit together, very loose big losers, nits, a strong regular).

Why teams are a small minority: about 0.3% of the pairs that actually meet at a table should be
colluding pairs, as on a real site; ``team_count`` sizes the teams from the population.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from .collusion import CLASSIC, IMPLEMENTATIONS, family_of
from .engine import SimPlayer
from .policy import EquityKnobs
from .styles import ORDINARY_MIX, STYLES, Style
from .world import World

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
    implementation: str = ""
    intensity: float = 1.0  # share of shared hands in which the tactic fires


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


# -- a random world's population --------------------------------------------------------------
def jitter_style(style: Style, rng: random.Random, sd: float) -> Style:
    """The same style with each number scaled by a log-normal factor: no two players alike."""
    if sd <= 0:
        return style

    def f(x: float) -> float:
        return min(0.97, max(0.01, x * math.exp(rng.gauss(0.0, sd))))

    vpip = f(style.vpip)
    return replace(style, vpip=vpip, pfr=min(vpip, f(style.pfr)), agg=f(style.agg), call=f(style.call),
                   skill=f(style.skill), bluff=f(style.bluff))


def equity_knobs(style: Style, rng: random.Random) -> EquityKnobs:
    """Equity-model thresholds that keep the style's character (a station calls thinner)."""
    j = rng.gauss
    return EquityKnobs(
        margin=max(0.0, 0.02 + (1.0 - style.call) * 0.10 + j(0.0, 0.02)),
        value=min(0.9, max(0.5, 0.58 + (1.0 - style.agg) * 0.2 + j(0.0, 0.03))),
        open_eq=min(0.7, max(0.45, 0.66 - style.pfr * 0.4 + j(0.0, 0.02))),
        bluff=style.bluff,
        sizes=style.sizes,
    )


def set_honest(p: SimPlayer, world: World, rng: random.Random) -> None:
    """Draw the player's honest model (equity or style) and his session length."""
    if world.equity_share >= 1.0 or (world.equity_share > 0 and rng.random() < world.equity_share):
        p.knobs = equity_knobs(p.style, rng)
    if world.kind == "random":
        p.leave = min(0.5, 1.0 / (world.session_hands * math.exp(rng.gauss(0.0, 0.5))))


def _implementation(family: str, world: World, rng: random.Random) -> str:
    forced = world.implementation
    if forced is not None and family_of(forced) == family:
        return forced
    return CLASSIC[family] if world.kind == "classic" else rng.choice(list(IMPLEMENTATIONS[family]))


def apply_classic_knobs(pop: Population, world: World, seed: int) -> None:
    """Classic night: name each team's implementation and intensity, and apply forced knobs from a
    separate random stream so the night itself is drawn exactly as before."""
    rng = random.Random(f"floorman-classic-knobs:{seed}")
    for team in pop.teams:
        team.implementation = _implementation(team.family, world, rng)
        team.intensity = 1.0 if world.intensity is None else world.intensity
    by_name = pop.by_name()
    for team in pop.teams:
        for name in team.members:
            by_name[name].impl = team.implementation
    if world.equity_share > 0:
        for p in pop.players:
            set_honest(p, world, rng)


def _pair(a: SimPlayer, b: SimPlayer, kind: str, affinity: float) -> None:
    a.buddies, b.buddies = (b.name,), (a.name,)
    a.confounder = b.confounder = kind
    a.affinity = b.affinity = affinity


Take = Callable[[int], list[SimPlayer]]


def _confounders(world: World, take: Take, rng: random.Random) -> list[tuple[str, list[str]]]:
    """Friends and staking partners sit together (stakers only sometimes), loose losers, nits,
    strong regulars and regulars who multi-table the same games."""
    out: list[tuple[str, list[str]]] = []
    counts = world.confounders
    for kind, affinity in (("friends", 1.0), ("staking", 0.0)):
        for _ in range(counts.get(kind, 0)):
            a, b = take(2)
            _pair(a, b, kind, affinity if kind == "friends" else rng.uniform(0.3, 0.6))
            out.append((kind, [a.name, b.name]))
    for kind, style in (("loose_loser", "whale"), ("nit", "nit"), ("strong_regular", "shark")):
        for p in take(counts.get(kind, 0)):
            p.style = jitter_style(STYLES[style], rng, world.style_jitter)
            p.confounder = kind
            out.append((kind, [p.name]))
    for p in take(counts.get("multi_regular", 0)):
        base = STYLES["shark" if rng.random() < 0.4 else "tag"]
        p.style = replace(jitter_style(base, rng, world.style_jitter), max_tables=rng.randint(4, 8),
                          activity=base.activity * rng.uniform(2.0, 4.0))
        p.confounder = "multi_regular"
        p.stake = -1  # the game is chosen once the tables are open (run.Night.assign_regulars)
        out.append(("multi_regular", [p.name]))
    return out


def _teams(world: World, take: Take, rng: random.Random) -> list[Team]:
    teams: list[Team] = []
    offset = rng.randrange(len(FAMILIES))
    for t in range(world.teams):
        family = FAMILIES[(t + offset) % len(FAMILIES)]
        size = rng.choices((2, 3, 4), (0.75, 0.2, 0.05))[0]
        members = take(size)
        if len(members) < 2:
            break
        impl = _implementation(family, world, rng)
        intensity = world.intensity if world.intensity is not None else round(rng.uniform(0.1, 1.0), 3)
        team = Team(f"T{t + 1}", family, [m.name for m in members], implementation=impl, intensity=intensity)
        for k, m in enumerate(members):
            m.team, m.family, m.impl = t, family, impl
            m.partners = frozenset(x.name for x in members if x is not m)
            m.buddies = tuple(sorted(m.partners))
            if m.style.name in ("short", "maniac"):
                m.style = jitter_style(STYLES["tag"], rng, world.style_jitter)
            if family == "chip_dumping":
                m.role = "receiver" if k == 0 else "dumper"
            elif impl == "captain":
                m.role = "captain" if k == 0 else "member"
            if m.role:
                team.roles[m.name] = m.role
        teams.append(team)
    return teams


def make_world_population(world: World, rng: random.Random) -> Population:
    """A random world's players: jittered styles, a mix of honest models, drawn confounders."""
    names = _names(world.players, rng)
    styles = [s for s, _ in ORDINARY_MIX]
    weights = [w for _, w in ORDINARY_MIX]
    players = [SimPlayer(name, jitter_style(STYLES[rng.choices(styles, weights)[0]], rng, world.style_jitter))
               for name in names]
    pool = list(range(len(players)))
    rng.shuffle(pool)
    cursor = 0

    def take(k: int) -> list[SimPlayer]:
        nonlocal cursor
        got = [players[j] for j in pool[cursor : cursor + k]]
        cursor += len(got)
        return got

    teams = _teams(world, take, rng)
    confounders = _confounders(world, take, rng)
    for p in players:
        set_honest(p, world, rng)
    return Population(players, teams, confounders)
