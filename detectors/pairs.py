"""Pair features for the detectors: the period's pair_stats summed, turned into contrasts.

Why z-scores: each decision contrast is (what A did against B − what A's own baseline in the same
spots predicts) / its binomial standard deviation, so a pair with 40 shared spots and one with
4,000 are on one scale, and a loose or passive *style* cancels out (it is in the baseline).
Unordered pairs carry both directions (``_ab`` for A against B and ``_ba``) with A < B by name.
"""

from __future__ import annotations

import duckdb
import polars as pl

from detectors.stats import GROUPS, MIN_HANDS

__all__ = ["MIN_HANDS", "directional", "summed_pair_stats", "unordered"]

_SUM_COLS_EXCLUDE = {"hand_date", "player_a", "player_b"}


def summed_pair_stats(con: duckdb.DuckDBPyConnection, table: str = "t_pair_stats",
                      rest: str | None = None) -> pl.DataFrame:
    """Ordered pair_stats summed over all days in the table (the additive period view).

    Pairs below ``MIN_HANDS`` are not in t_pair_stats; what their rows would have added to each
    player's totals comes from ``rest`` (t_pair_rest) as one row per player with player_b NULL:
    ``directional`` sums per player over all rows, and ``unordered`` (like any join on player_b)
    never keeps a NULL opponent."""
    cols = [r[0] for r in con.execute(f"DESCRIBE {table}").fetchall() if r[0] not in _SUM_COLS_EXCLUDE]
    sums = ", ".join(f"CAST(coalesce(sum({c}), 0) AS DOUBLE) AS {c}" for c in cols)
    source = table
    rest = rest or ("t_pair_rest" if table == "t_pair_stats" else None)
    if rest and con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = ?", [rest]).fetchone() != (0,):
        source = f"(SELECT * FROM {table} UNION ALL BY NAME SELECT *, NULL::VARCHAR AS player_b FROM {rest})"
    return con.execute(
        f"""SELECT player_a, player_b, {sums}, min(hand_date) AS first_date, max(hand_date) AS last_date
        FROM {source} GROUP BY player_a, player_b"""
    ).pl()


def _z(obs: pl.Expr, exp: pl.Expr, var: pl.Expr) -> pl.Expr:
    return (obs - exp) / (var + 1.0).sqrt()


def _hidden_card_z(frame: pl.DataFrame, prefix: str, act: str, sign: float) -> pl.Series:
    """z of A's excess (over A's own rate in the spot) when B holds the stronger hand, minus A's
    usual excess when someone else holds the stronger hand; an honest player cannot see B's cards."""
    n1, k1 = frame[f"{prefix}_b_stronger_n"], frame[f"{prefix}_b_stronger_{act}"]
    e1, v1 = frame[f"{prefix}_b_stronger_exp"], frame[f"{prefix}_b_stronger_var"]
    res = k1 - e1
    tot = frame.select("player_a", n=n1, r=res).group_by("player_a").agg(
        pl.col("n").sum().alias("t_n"), pl.col("r").sum().alias("t_r")
    )
    t = frame.select("player_a").join(tot, on="player_a", how="left", maintain_order="left")
    usual = (t["t_r"] - res) / (t["t_n"] - n1 + 10.0)
    return sign * (res - n1 * usual) / (v1 + 1.0).sqrt()


def directional(ordered: pl.DataFrame) -> pl.DataFrame:
    """Per ordered pair: z-scores and rates describing how A acts against B."""
    exprs: list[pl.Expr] = []
    for g in GROUPS:
        for m in ("aggr", "fold"):
            exprs.append(_z(pl.col(f"{g}_{m}_obs"), pl.col(f"{g}_{m}_exp"), pl.col(f"{g}_{m}_var"))
                         .alias(f"z_{g}_{m}"))
    # card sharing: A's fold rate facing a bet when B (live) holds the better hand, minus when B
    # holds the worse one, against the same difference for A with everyone else; and likewise
    # A's bet/raise rate when not facing a bet (a partner with the better hand is not bet into)
    frame0 = ordered.with_columns(exprs)
    for prefix, act, name, sign in (("cs", "fold", "z_cs", 1.0), ("csn", "aggr", "z_csn", -1.0)):
        frame0 = frame0.with_columns(_hidden_card_z(frame0, prefix, act, sign).alias(name))
    frame = frame0
    # chip flow against A's own flow to everyone else, per confrontation (leave-B-out)
    per_a = frame.group_by("player_a").agg(
        pl.col("flow_beaten_cbb").sum().alias("_beaten_tot"), pl.col("flow_fold_cbb").sum().alias("_fold_tot"),
        pl.col("flow_cbb").sum().alias("_flow_tot"),
        pl.col("confrontations").sum().alias("_conf_tot"),
        pl.col("squeezes").sum().alias("_sq_tot"),
        pl.col("hands_together").sum().alias("_hands_tot"),
    )
    frame = frame.join(per_a, on="player_a", how="left")
    out_conf = (pl.col("_conf_tot") - pl.col("confrontations") + 5.0)
    for name, tot in (("beaten", "_beaten_tot"), ("fold", "_fold_tot"), ("flow", "_flow_tot")):
        col = "flow_cbb" if name == "flow" else f"flow_{name}_cbb"
        rate = (pl.col(tot) - pl.col(col)) / out_conf
        exp = pl.col("confrontations") * rate
        typical = (pl.col("_flow_tot") - pl.col("flow_cbb")).abs() / out_conf + 200.0  # A's usual loss per pot
        scale = (pl.col("confrontations") + 1.0).sqrt() * typical
        frame = frame.with_columns(((pl.col(col) - exp) / scale).alias(f"x_{name}"))
    sq_rate = (pl.col("_sq_tot") - pl.col("squeezes") + 0.5) / (
        pl.col("_hands_tot") - pl.col("hands_together") + 50
    )
    sq_exp = pl.col("hands_together") * sq_rate
    frame = frame.with_columns(((pl.col("squeezes") - sq_exp) / (sq_exp + 1.0).sqrt()).alias("x_squeeze"))
    # A's pots with anyone but B: with none, "against everyone else" has nobody to mean (run.py says so)
    frame = frame.with_columns((pl.col("_conf_tot") - pl.col("confrontations")).alias("field_conf"))
    return frame.drop([c for c in frame.columns if c.startswith("_")])


DIRECTIONAL_FEATURES = (
    [f"z_{g}_{m}" for g in GROUPS for m in ("aggr", "fold")]
    + ["z_cs", "z_csn", "x_beaten", "x_fold", "x_flow", "x_squeeze"]
)


def unordered(directed: pl.DataFrame, min_hands: int = MIN_HANDS) -> pl.DataFrame:
    """One row per unordered pair (player_a < player_b) with both directions side by side."""
    ab = directed.filter(pl.col("player_a") < pl.col("player_b"))
    ba = directed.filter(pl.col("player_a") > pl.col("player_b")).select(
        pl.col("player_b").alias("player_a"), pl.col("player_a").alias("player_b"),
        *[pl.col(c).alias(f"{c}_ba") for c in [*DIRECTIONAL_FEATURES, "flow_cbb", "whipsaw_folds",
                                                "squeezes", "hu_checkdowns", "cs_b_stronger_n", "field_conf"]],
    )
    ab = ab.rename({c: f"{c}_ab" for c in [*DIRECTIONAL_FEATURES, "flow_cbb", "whipsaw_folds", "squeezes",
                                            "field_conf"]})
    frame = ab.join(ba, on=["player_a", "player_b"], how="left").fill_null(0.0)
    frame = frame.filter(pl.col("hands_together") >= min_hands)
    hu = pl.col("hu_confrontations")
    cd_rate_pop = (float(frame["hu_checkdowns"].sum()) + 1.0) / (float(frame["hu_confrontations"].sum()) + 10.0)
    exprs = [
        ((pl.col("hu_checkdowns") - hu * cd_rate_pop) / (hu * cd_rate_pop + 1.0).sqrt()).alias("z_checkdown"),
        (pl.col("flow_cbb_ab") - pl.col("flow_cbb_ba")).alias("net_flow_cbb"),
    ]
    return copresence(frame.with_columns(exprs))


def copresence(u: pl.DataFrame) -> pl.DataFrame:
    """conc_ab / conc_ba: hands together relative to each player's average table-mate (scored
    pairs). Scale-free, so a small pool where everyone meets often does not look like a team."""
    long = pl.concat([
        u.select(pl.col("player_a").alias("p"), "hands_together"),
        u.select(pl.col("player_b").alias("p"), "hands_together"),
    ])
    mean = long.group_by("p").agg(pl.col("hands_together").mean().alias("m"))
    u = u.drop([c for c in ("conc_ab", "conc_ba") if c in u.columns])
    u = u.join(mean.rename({"p": "player_a", "m": "_ma"}), on="player_a", how="left")
    u = u.join(mean.rename({"p": "player_b", "m": "_mb"}), on="player_b", how="left")
    return u.with_columns(
        (pl.col("hands_together") / pl.col("_ma")).alias("conc_ab"),
        (pl.col("hands_together") / pl.col("_mb")).alias("conc_ba"),
    ).drop("_ma", "_mb")


def feature_columns() -> list[str]:
    cols = [f"{c}_{d}" for c in DIRECTIONAL_FEATURES for d in ("ab", "ba")]
    return [*cols, "z_checkdown"]
