"""The world a night is played in: pool, tables, stakes, sessions, honest models, collusion knobs.

Why a world and not constants: detectors trained on one fixed night overfit it (every team at
full strength, one script per family, the same honest styles). ``classic`` is the fixed night the
tests and trained models were built on, byte for byte; ``random`` draws every parameter from the
seed, and any knob given on the command line overrides its draw.
"""

from __future__ import annotations

import math
import random
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .run import Config

#: the classic night's stakes (sb, bb in cents); a duplicate doubles the weight of $0.50/$1
CLASSIC_STAKES = ((25, 50), (50, 100), (50, 100), (100, 200))
#: a random world draws a window of this ladder
LADDER = ((1, 2), (2, 5), (5, 10), (10, 20), (10, 25), (25, 50), (50, 100), (100, 200), (200, 400),
          (300, 600), (500, 1000), (1000, 2000))
#: PHH has no currency: readers take a hand whose amounts are all whole as chips, so a PHH night
#: keeps a small blind with cents (every hand then reads as dollars)
PHH_LADDER = tuple(level for level in LADDER if level[0] % 100)
HONEST_MODELS = ("equity", "style", "mixed")
WORLDS = ("classic", "random")
CONFOUNDER_KINDS = ("friends", "staking", "loose_loser", "nit", "strong_regular", "multi_regular")


@dataclass(slots=True)
class World:
    """Every parameter of a night; ``as_dict`` goes into the truth file."""

    kind: str
    players: int
    tables: int
    table_sizes: dict[int, float]  # max seats -> weight
    stakes: list[tuple[int, int, float]]  # (sb, bb, weight)
    honest_model: str  # equity | style | mixed
    equity_share: float  # share of players deciding by the equity model
    style_jitter: float  # sd of the log-normal factor on each player's style numbers
    session_hands: float  # mean session length in hands (leave chance 1 / session per hand)
    hop: float  # chance a player leaving a table sits down at another soon after
    fill: float  # chance per hand that an empty seat is taken
    teams: int
    intensity: float | None  # forced share of shared hands where tactics fire (None: drawn per team)
    implementation: str | None  # forced implementation for its family's teams
    confounders: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, object]:
        d = asdict(self)
        d["table_sizes"] = {str(k): w for k, w in self.table_sizes.items()}
        d["stakes"] = [list(s) for s in self.stakes]
        return d


def log_uniform(rng: random.Random, lo: float, hi: float) -> float:
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def classic_confounders(n_players: int) -> dict[str, int]:
    """The classic population's confounder counts (``population.make_population``)."""
    return {"friends": max(3, n_players // 40), "staking": 0, "loose_loser": max(2, n_players // 50),
            "nit": max(2, n_players // 50), "strong_regular": max(1, n_players // 150), "multi_regular": 0}


def classic_world(cfg: Config) -> World:
    """Today's night, with any knob the caller forced."""
    from .population import team_count

    players = cfg.resolved_players()
    model = cfg.honest_model or "style"
    return World(
        kind="classic", players=players, tables=cfg.resolved_tables(),
        table_sizes={cfg.table_size: 1.0} if cfg.table_size else {6: 0.7, 9: 0.3},
        stakes=[(25, 50, 0.25), (50, 100, 0.5), (100, 200, 0.25)],
        honest_model=model, equity_share={"style": 0.0, "equity": 1.0, "mixed": 0.5}[model], style_jitter=0.0,
        session_hands=70.0, hop=0.0, fill=0.35,
        teams=cfg.teams if cfg.teams is not None else team_count(players),
        intensity=cfg.intensity, implementation=cfg.implementation, confounders=classic_confounders(players),
    )


def _pool(cfg: Config, rng: random.Random) -> int:
    """30 to 5,000 players, log-uniform, but at most hands / 5 so that pairs still meet."""
    hi = min(5000, max(30, cfg.hands // 5))
    return round(log_uniform(rng, min(30, hi), hi))


def _table_sizes(rng: random.Random) -> dict[int, float]:
    """2- to 10-max; 6- and 9-max usual, heads-up tables rare."""
    raw = {2: rng.uniform(0.0, 0.04)}
    for m in range(3, 11):
        raw[m] = rng.random() ** 2 * (4.0 if m in (6, 9) else 1.5 if m in (8, 10) else 0.4)
    total = sum(raw.values())
    return {m: round(w / total, 4) for m, w in raw.items() if w / total >= 0.0005}


def _stakes(rng: random.Random, ladder: tuple[tuple[int, int], ...]) -> list[tuple[int, int, float]]:
    """A window of two to five neighbouring levels of the ladder, random weights."""
    width = rng.randint(2, 5)
    lo = rng.randrange(len(ladder) - width + 1)
    return [(sb, bb, round(rng.uniform(0.2, 1.0), 3)) for sb, bb in ladder[lo : lo + width]]


def _tables(cfg: Config, players: int, sizes: dict[int, float], rng: random.Random) -> int:
    """As many tables as the hands want (200-900 hands each) and the pool can fill."""
    seats = sum(m * w for m, w in sizes.items()) / max(sum(sizes.values()), 1e-9)
    by_hands = cfg.hands / log_uniform(rng, 200, 900)
    by_pool = players * rng.uniform(0.6, 1.1) / seats
    return max(1, round(min(by_hands, by_pool)))


def _confounders(players: int, teams: int, rng: random.Random) -> dict[str, int]:
    """Counts per kind, shrunk when the pool is small so teams and honest players remain."""
    share = {"friends": (0.005, 0.04), "staking": (0.0, 0.02), "loose_loser": (0.005, 0.04),
             "nit": (0.005, 0.04), "strong_regular": (0.002, 0.015), "multi_regular": (0.005, 0.03)}
    counts = {k: max(1, round(players * rng.uniform(lo, hi))) for k, (lo, hi) in share.items()}
    used = 2 * (counts["friends"] + counts["staking"]) + sum(
        v for k, v in counts.items() if k not in ("friends", "staking"))
    room = max(0, int(players * 0.6) - 3 * teams)
    if used > room:
        scale = room / used
        counts = {k: int(v * scale) for k, v in counts.items()}
    return counts


def random_world(cfg: Config) -> World:
    """Draw every parameter from the seed; forced knobs replace their draws afterwards (the draws
    still happen, so forcing one knob leaves the others as they were)."""
    from .population import team_count

    rng = random.Random(f"floorman-world:{cfg.seed}")
    players = _pool(cfg, rng)
    sizes = _table_sizes(rng)
    stakes = _stakes(rng, PHH_LADDER if cfg.fmt == "phh" else LADDER)
    model = rng.choices(HONEST_MODELS, (0.2, 0.2, 0.6))[0]
    share = rng.uniform(0.2, 0.8)
    jitter, session, hop, fill = rng.uniform(0.05, 0.25), log_uniform(rng, 25, 250), rng.uniform(0, 0.5), \
        rng.uniform(0.2, 0.5)
    teams = max(4, round(team_count(players) * rng.uniform(0.5, 1.8)))
    players = cfg.players or players
    sizes = {cfg.table_size: 1.0} if cfg.table_size else sizes
    tables = _tables(cfg, players, sizes, rng)
    teams = cfg.teams if cfg.teams is not None else teams
    model = cfg.honest_model or model
    return World(
        kind="random", players=players, tables=cfg.tables or tables, table_sizes=sizes, stakes=stakes,
        honest_model=model,
        equity_share={"style": 0.0, "equity": 1.0}.get(model, round(share, 3)),
        style_jitter=round(jitter, 3), session_hands=round(session, 1), hop=round(hop, 3), fill=round(fill, 3),
        teams=teams, intensity=cfg.intensity, implementation=cfg.implementation,
        confounders=_confounders(players, teams, rng),
    )


def make_world(cfg: Config) -> World:
    if cfg.world not in WORLDS:
        raise ValueError(f"unknown world {cfg.world!r} (classic or random)")
    if cfg.honest_model is not None and cfg.honest_model not in HONEST_MODELS:
        raise ValueError(f"unknown honest model {cfg.honest_model!r} ({', '.join(HONEST_MODELS)})")
    if cfg.intensity is not None and not 0.0 <= cfg.intensity <= 1.0:
        raise ValueError("intensity must be between 0 and 1")
    if cfg.table_size is not None and not 2 <= cfg.table_size <= 10:
        raise ValueError("table size must be 2 to 10")
    return classic_world(cfg) if cfg.world == "classic" else random_world(cfg)
