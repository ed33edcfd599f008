"""Team support: a pair whose two players share a third partner that the room also ranks on top.

Why: collusion is done by teams, and a team of three is three suspicious pairs that close a
triangle, while two friends who follow each other to tables, or one pair of players whose noise
happens to look like collusion, close none. A pair's support is how far into the room's top
share (``TOP_SHARE`` of the pairs by the queue's base order) the weaker of its two links to the
best common third player reaches: 1 when both links are at the very top, 0 when either is outside
the top share. The queue adds ``TEAM_BONUS`` log-odds times the support (``detectors.run``).

Measured on the first generator's dev rooms only (seeds 31-35 x 0.2/0.5/1.0, queue-emulated
PairAP from the stored pair scores): 0.797 -> 0.834 (operator) and 0.802 -> 0.836 (player); in
operator mode no room lost, in player mode one (0.57 -> 0.53). Of the bonuses tried (1, 2, 3, 5,
10 and 20 log-odds, each on a top share of 1% and of 5%), 1 log-odds on the top 1% was the one no
operator room lost on; 2 and 3 gained a little more on average and lost more on single rooms, 5 and
more lost on average.
"""

from __future__ import annotations

import polars as pl

#: the share of the room's pairs whose links count as suspicious for a triangle
TOP_SHARE = 0.01
#: log-odds the queue adds for full team support
TEAM_BONUS = 1.0


def support(pairs: pl.DataFrame, base: pl.Series, top_share: float = TOP_SHARE) -> pl.Series:
    """``team_support`` (0..1) of each row of ``pairs`` (player_a, player_b; one row per unordered
    pair) given its base order ``base`` (bigger is more suspicious), in the same row order."""
    n = pairs.height
    if n == 0:
        return pl.Series("team_support", [], dtype=pl.Float64)
    pct = base.rank("average").cast(pl.Float64) / n
    edges = pairs.select("player_a", "player_b").with_columns(pct.alias("pct")).with_row_index("i")
    # both directions: each player's links to every partner k
    links = pl.concat([
        edges.select(pl.col("player_a").alias("p"), pl.col("player_b").alias("k"), "pct"),
        edges.select(pl.col("player_b").alias("p"), pl.col("player_a").alias("k"), "pct"),
    ]).filter(pl.col("pct") >= 1.0 - top_share)  # only top links can make a triangle count
    tri = (
        edges.select("i", "player_a", "player_b")
        .join(links.rename({"p": "player_a", "pct": "pct_a"}), on="player_a")
        .join(links.rename({"p": "player_b", "pct": "pct_b"}), on=["player_b", "k"])
        .group_by("i").agg(pl.min_horizontal("pct_a", "pct_b").max().alias("tri"))
    )
    out = edges.select("i").join(tri, on="i", how="left", maintain_order="left")["tri"].fill_null(0.0)
    return ((out - (1.0 - top_share)) / top_share).clip(0.0, 1.0).alias("team_support")
