"""Statistics that mean the same in any population: each pair statistic against the room's own null.

Why: a contrast's spread depends on the site (pool size, styles, how long pairs sit together, how
well the baseline fits), so a threshold or a model learned on one room misreads another. Almost
every pair in a room is honest, so the room's own distribution of a statistic over its scored pairs
is its null: a robust z (distance from the median in units of the spread, ``MAD`` scaled to a
normal's sigma) says "this far out among the pairs of this room", whatever the room.

A second, stricter null is the player's own: how the same player's statistic against this partner
compares with the same statistic against every other opponent they shared tables with (permuting
the partner label among the player's table-mates). ``own_null`` gives that for directional columns.
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


def _spread(x: pl.Expr) -> pl.Expr:
    """MAD as sigma; where more than half the pairs share one value (sparse counts), the mean
    absolute deviation; never below a small floor, so a constant column gives z = 0, not inf."""
    med = x.median()
    mad = (x - med).abs().median() * MAD_SIGMA
    mean_ad = (x - med).abs().mean() * MEAN_AD_SIGMA
    return pl.when(mad > 1e-9).then(mad).when(mean_ad > 1e-9).then(mean_ad).otherwise(1.0)


def robust_z(x: pl.Expr) -> pl.Expr:
    """(x - median) / robust spread over the frame, clipped to ±Z_CAP."""
    return ((x - x.median()) / _spread(x)).clip(-Z_CAP, Z_CAP)


#: fewer scored pairs than this and a room has no null of its own (a heads-up match, one table)
MIN_POPULATION = 30


def population_z(u: pl.DataFrame, columns: list[str], prefix: str = "cz_") -> pl.DataFrame:
    """Add ``<prefix><column>``: each column's robust z among this room's scored pairs (0 for every
    pair of a room too small to have a null: nothing there is "far out" by its own standard)."""
    present = [c for c in columns if c in u.columns]
    if u.height < MIN_POPULATION:
        return u.with_columns([pl.lit(0.0).alias(f"{prefix}{c}") for c in present])
    return u.with_columns(
        [robust_z(pl.col(c).cast(pl.Float64).fill_null(0.0).fill_nan(0.0)).alias(f"{prefix}{c}") for c in present]
    )


def own_null(u: pl.DataFrame, column_ab: str, column_ba: str) -> pl.DataFrame:
    """Add ``oz_<column_ab>`` / ``oz_<column_ba>``: A's statistic against B among A's statistics
    against all of A's scored opponents (and B's against A among B's), as robust z.

    Each ordered statistic is stacked per actor, standardised within the actor's opponents, and
    joined back; an actor with fewer than 5 scored opponents gets the room's spread instead."""
    a = u.select(pl.col("player_a").alias("actor"), pl.col("player_b").alias("other"), pl.col(column_ab).alias("v"))
    b = u.select(pl.col("player_b").alias("actor"), pl.col("player_a").alias("other"), pl.col(column_ba).alias("v"))
    long = pl.concat([a, b]).with_columns(pl.col("v").cast(pl.Float64).fill_null(0.0).fill_nan(0.0))
    room = long.select(_spread(pl.col("v")).alias("s")).item()
    long = long.with_columns(
        pl.len().over("actor").alias("n"),
        pl.col("v").median().over("actor").alias("med"),
        ((pl.col("v") - pl.col("v").median().over("actor")).abs().median().over("actor") * MAD_SIGMA).alias("mad"),
    ).with_columns(
        pl.when((pl.col("n") >= 5) & (pl.col("mad") > 1e-9)).then(pl.max_horizontal("mad", pl.lit(0.5 * room)))
        .otherwise(pl.lit(room)).alias("scale"),
        pl.when(pl.col("n") >= 5).then(pl.col("med")).otherwise(pl.lit(0.0)).alias("centre"),
    ).with_columns(((pl.col("v") - pl.col("centre")) / pl.col("scale")).clip(-Z_CAP, Z_CAP).alias("oz"))
    ab = long.select(pl.col("actor").alias("player_a"), pl.col("other").alias("player_b"),
                     pl.col("oz").alias(f"oz_{column_ab}"))
    ba = long.select(pl.col("other").alias("player_a"), pl.col("actor").alias("player_b"),
                     pl.col("oz").alias(f"oz_{column_ba}"))
    return u.join(ab, on=["player_a", "player_b"], how="left").join(ba, on=["player_a", "player_b"], how="left")


def tail_probability(z: float) -> float:
    """One-sided normal tail of a robust z: how often an honest pair of this room gets this far."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))
