"""Statistics that mean the same in any population: each pair statistic against the room's own null.

Why: a contrast's spread depends on the site (pool size, styles, how long pairs sit together, how
well the baseline fits), so a threshold or a model learned on one room misreads another. Almost
every pair in a room is honest, so the room's own distribution of a statistic over its scored pairs
is its null: a robust z (distance from the median in units of the spread, ``MAD`` scaled to a
normal's sigma) says "this far out among the pairs of this room", whatever the room.

The pair statistics themselves already hold the player's own null: each contrast compares A's
decisions against B with A's decisions in the same spots against everyone else (``stats``).
"""

from __future__ import annotations

import math

import polars as pl

#: scale of a median absolute deviation that equals one standard deviation of a normal
MAD_SIGMA = 1.4826
#: scale of a mean absolute deviation that equals one standard deviation of a normal
MEAN_AD_SIGMA = math.sqrt(math.pi / 2)
#: robust z is clipped here: beyond it a pair is "as unlikely as it gets" and one huge count
#: should not outweigh every other statistic in a combination
Z_CAP = 1000.0


def _spread(x: pl.Expr, floor: float) -> pl.Expr:
    """MAD as sigma; where more than half the pairs share one value (sparse counts), the mean
    absolute deviation; never below ``floor`` (a constant column gives z = 0, not inf)."""
    med = x.median()
    mad = (x - med).abs().median() * MAD_SIGMA
    mean_ad = (x - med).abs().mean() * MEAN_AD_SIGMA
    spread = pl.when(mad > 1e-9).then(mad).when(mean_ad > 1e-9).then(mean_ad).otherwise(1.0)
    return pl.max_horizontal(spread, pl.lit(floor))


def robust_z(x: pl.Expr, floor: float = 1e-9) -> pl.Expr:
    """(x - median) / robust spread over the frame, clipped to ±Z_CAP. ``floor``: the smallest
    spread allowed, for a statistic whose own honest spread is known (see ``population_z``)."""
    return ((x - x.median()) / _spread(x, floor)).clip(-Z_CAP, Z_CAP)


#: fewer scored pairs than this and a room has no null of its own (a heads-up match, one table)
MIN_POPULATION = 30


def population_z(u: pl.DataFrame, columns: list[str], prefix: str = "cz_", floor: float = 1e-9) -> pl.DataFrame:
    """Add ``<prefix><column>``: each column's robust z among this room's scored pairs (0 for every
    pair of a room too small to have a null: nothing there is "far out" by its own standard).

    ``floor`` is the smallest spread allowed. A statistic already in z units (a binomial contrast)
    has spread 1 under honest play with enough spots; a room where most pairs share only a few
    spots has most of them near 0 and a spread far below 1, and dividing by that spread made
    one lost pot on four shared confrontations "12 sigma". With ``floor = 1`` the room can widen
    the null (a baseline that fits its players badly) but never narrow it below the statistic's own."""
    present = [c for c in columns if c in u.columns]
    if u.height < MIN_POPULATION:
        return u.with_columns([pl.lit(0.0).alias(f"{prefix}{c}") for c in present])
    return u.with_columns(
        [robust_z(pl.col(c).cast(pl.Float64).fill_null(0.0).fill_nan(0.0), floor).alias(f"{prefix}{c}")
         for c in present]
    )


def tail_probability(z: float) -> float:
    """One-sided normal tail of a robust z: how often an honest pair of this room gets this far."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))
