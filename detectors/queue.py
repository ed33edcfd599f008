"""The review queue by alert budget: rank every scored pair, flag the top of the ranking.

Why a budget and not a probability cut: a probability learned on one simulator is not a
probability on another site (the shipped cut of 0.05 dropped 7 of 20 true pairs in a room nobody
here wrote, although their ranking was good). An integrity team has a fixed review capacity, so
the queue is the top ``budget`` pairs of the ranking, and how alarming a flag is (severity) comes
from how unlikely its evidence is under the room's own null (``calibrate``), not from its rank.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import polars as pl

from detectors.calibrate import population_z
from detectors.families import FAMILIES

#: robust z of a family statistic a reader calls "far out" (medium) or "beyond honest play" (high)
MEDIUM_Z = 3.5
HIGH_Z = 6.0
#: honest spread of a rule score (each is a sum of binomial contrasts scaled to unit variance)
RULE_SCORE_SIGMA = 1.0
#: family z beyond which the softmax attribution no longer changes (keeps exp() finite)
Z_SOFT = 30.0


#: the default cap, flags per 1,000 active players. 1% of the pairs stays under it while players
#: meet up to about 80 scored partners each (pairs per player <= 40: a 400-player room of up to
#: 16,000 pairs is not cut); a night of 5,000 players and a million hands (240 pairs per player)
#: gets 2,000 flags instead of 11,999 (``bench/audit.py``), and the flag step stops growing with it
DEFAULT_CAP_PER_1000_PLAYERS = 400.0


@dataclass(frozen=True)
class Budget:
    """How many pairs become flags: a share of the scored pairs, or per 1,000 active players,
    at most ``cap_per_1000_players`` per 1,000 active players.

    Why a cap: the share of pairs grows with the pairs each player makes, which grows with the
    length and size of the night; at ten million hands 1% of the scored pairs was 12,448 flags, a
    queue no team reviews. The cap sizes the queue to the team and the population instead; the
    minimum still holds under it."""

    share: float = 0.01
    per_1000_players: float | None = None
    minimum: int = 10
    cap_per_1000_players: float | None = None  # None or 0: no cap

    def size(self, pairs: int, players: int) -> int:
        by_share = math.ceil(self.share * pairs)
        by_players = math.ceil(self.per_1000_players * players / 1000) if self.per_1000_players else 0
        wanted = max(self.minimum, by_share, by_players)
        if self.cap_per_1000_players:
            wanted = min(wanted, max(self.minimum, math.ceil(self.cap_per_1000_players * players / 1000)))
        return min(pairs, wanted)


def family_statistics(u: pl.DataFrame) -> pl.DataFrame:
    """Add t_<family>: each family's rule score as a robust z among this room's pairs, and
    t_max (the strongest family's), the evidence strength that decides severity. The rule
    scores are in z units, so the room's spread is floored at 1 (``calibrate.population_z``)."""
    u = population_z(u, [f"r_{f}" for f in FAMILIES], prefix="t_", floor=RULE_SCORE_SIGMA)
    u = u.rename({f"t_r_{f}": f"t_{f}" for f in FAMILIES})
    return u.with_columns(pl.max_horizontal([f"t_{f}" for f in FAMILIES]).alias("t_max"))


def family_distribution(u: pl.DataFrame, learned: bool) -> pl.DataFrame:
    """Add f_<family> (sums to 1 per pair) and ``family`` (its arg max).

    With the family model's q_<family> columns (``detectors.attribution``), those; else with a pair
    model, its class probabilities normalised over the families; without either, a softmax of the
    families' robust z (each family judged by its own mechanism's statistic)."""
    source = "q" if all(f"q_{f}" in u.columns for f in FAMILIES) else "p" if learned else None
    if source is not None:
        tot = pl.sum_horizontal([pl.col(f"{source}_{f}") for f in FAMILIES]) + 1e-12
        u = u.with_columns([(pl.col(f"{source}_{f}") / tot).alias(f"f_{f}") for f in FAMILIES])
    else:
        ex = [(pl.col(f"t_{f}").clip(-Z_SOFT, Z_SOFT)).exp() for f in FAMILIES]
        tot = pl.sum_horizontal(ex)
        u = u.with_columns([(e / tot).alias(f"f_{f}") for e, f in zip(ex, FAMILIES, strict=True)])
    return with_leading_family(u)


def with_leading_family(u: pl.DataFrame) -> pl.DataFrame:
    """``family``: the arg max of f_<family> (ties to the first of ``FAMILIES``)."""
    best = pl.concat_list([pl.col(f"f_{f}") for f in FAMILIES]).list.arg_max()
    return u.with_columns(best.replace_strict(dict(enumerate(FAMILIES)), return_dtype=pl.String).alias("family"))


def rank_and_select(u: pl.DataFrame, budget: Budget, players: int) -> pl.DataFrame:
    """Add ``rank`` (1 = most suspicious, ties broken by pair key) and ``flagged`` (top budget)."""
    n = budget.size(u.height, players) if u.height else 0
    ranked = u.sort(["score", "player_a", "player_b"], descending=[True, False, False])
    return ranked.with_columns(
        pl.int_range(1, ranked.height + 1, dtype=pl.Int64).alias("rank"),
    ).with_columns((pl.col("rank") <= n).alias("flagged"))


#: a room with fewer scored pairs gives no high flag: its null is too thin to call anything
#: "beyond honest play" (a single table, a heads-up match)
HIGH_MIN_POPULATION = 100


@dataclass(frozen=True)
class Evidence:
    """What decides one flag's severity."""

    z: float  # the family statistic's robust z in this room
    exposure: float  # heads-up spots and squeezes the pair shared
    rule: float  # the family's own behavioural contrast (rule score, z units)
    model_p: float | None  # the pair model's probability that the pair colludes, any family (None without)
    population: int  # scored pairs in the room


def severity(e: Evidence, *, high_min_exposure: float, high_min_rule: float) -> str:
    """high: beyond honest play in this room (robust z ≥ HIGH_Z) on enough spots in a room big
    enough to have a null, with a strong own contrast, and the pair model agrees it is collusion
    (which family is the family model's call, ``detectors.attribution``); medium: far out
    (z ≥ MEDIUM_Z); else low."""
    agrees = e.model_p is None or e.model_p >= 0.5
    if (e.z >= HIGH_Z and e.exposure >= high_min_exposure and e.rule >= high_min_rule and agrees
            and e.population >= HIGH_MIN_POPULATION):
        return "high"
    return "medium" if e.z >= MEDIUM_Z else "low"
