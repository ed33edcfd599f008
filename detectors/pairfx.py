"""Effect sizes per shared hand: how much a pair deviates, not only how surely.

Why beside the z-scores of ``pairs``: a z-score grows with the square root of the sample, so a
pair that sits together all night (friends, regulars of one table) turns a tiny, honest bias of
the baseline into a large z. Colluders deviate by a large *amount* per spot; friends deviate by
nearly nothing however long they sit together. Rates per opportunity (shrunk towards zero with a
small pseudo-count) let the pair model contrast a pair's behaviour against its own co-presence.
All expressions are vectorised polars over the summed ordered pair statistics (no Python loops).
"""

from __future__ import annotations

import polars as pl

from detectors.stats import GROUPS

#: pseudo-count of opportunities pulling a rate towards "no deviation"
PSEUDO = 3.0


def _rate(num: pl.Expr, den: pl.Expr) -> pl.Expr:
    return num / (den + PSEUDO)


def ordered_features(summed: pl.DataFrame) -> pl.DataFrame:
    """Per ordered pair (A against B): deviation per opportunity and per shared hand."""
    c = pl.col
    exprs: list[pl.Expr] = []
    for g in GROUPS:
        for m in ("aggr", "fold"):
            exprs.append(_rate(c(f"{g}_{m}_obs") - c(f"{g}_{m}_exp"), c(f"{g}_n")).alias(f"e_{g}_{m}"))
    hands = c("hands_together")
    conf = c("confrontations")
    exprs += [
        # A's fold rate against its own expectation when B (live) holds the stronger hand, minus the
        # same when B holds the weaker one: only someone who sees B's cards can make it positive
        (_rate(c("cs_b_stronger_fold") - c("cs_b_stronger_exp"), c("cs_b_stronger_n"))
         - _rate(c("cs_b_weaker_fold") - c("cs_b_weaker_exp"), c("cs_b_weaker_n"))).alias("e_cs"),
        (_rate(c("csn_b_weaker_aggr") - c("csn_b_weaker_exp"), c("csn_b_weaker_n"))
         - _rate(c("csn_b_stronger_aggr") - c("csn_b_stronger_exp"), c("csn_b_stronger_n"))).alias("e_csn"),
        _rate(c("flow_cbb"), conf).alias("e_flow"),
        _rate(c("flow_fold_cbb"), conf).alias("e_flow_fold"),
        _rate(c("flow_beaten_cbb"), conf).alias("e_flow_beaten"),
        (c("squeezes") / (hands + 20.0)).alias("e_squeeze"),
        (c("callers_squeezed") / (hands + 20.0)).alias("e_callers_squeezed"),
        (c("whipsaw_folds") / (hands + 20.0)).alias("e_whipsaw"),
        _rate(c("hu_post_strong_aggr"), c("hu_post_strong_n")).alias("e_hu_strong_aggr"),
        _rate(c("face_pre_strong_aggr"), c("face_pre_strong_n")).alias("e_face_strong_aggr"),
    ]
    return summed.select("player_a", "player_b", *exprs)


ORDERED = [*(f"e_{g}_{m}" for g in GROUPS for m in ("aggr", "fold")), "e_cs", "e_csn", "e_flow",
           "e_flow_fold", "e_flow_beaten", "e_squeeze", "e_callers_squeezed", "e_whipsaw", "e_hu_strong_aggr",
           "e_face_strong_aggr"]

#: columns the pair model sees (both directions, plus the pair's heads-up check-down rate)
FEATURES = [*(f"{f}_{d}" for f in ORDERED for d in ("ab", "ba")), "e_checkdown"]


def add(u: pl.DataFrame, summed: pl.DataFrame) -> pl.DataFrame:
    """Join both directions' effect sizes onto the unordered pair frame (A < B by key)."""
    o = ordered_features(summed)
    ab = o.rename({f: f"{f}_ab" for f in ORDERED})
    ba = o.select(pl.col("player_b").alias("player_a"), pl.col("player_a").alias("player_b"),
                  *[pl.col(f).alias(f"{f}_ba") for f in ORDERED])
    u = u.drop([c for c in FEATURES if c in u.columns])
    out = u.join(ab, on=["player_a", "player_b"], how="left").join(ba, on=["player_a", "player_b"], how="left")
    return out.with_columns(
        [pl.col(f"{f}_{d}").fill_null(0.0) for f in ORDERED for d in ("ab", "ba")]
    ).with_columns(
        _rate(pl.col("hu_checkdowns"), pl.col("hu_confrontations")).alias("e_checkdown"),
    )
