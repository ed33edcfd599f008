"""The player page's figures: HUD statistics under PokerTracker 4's names, the results graph's
series and the player's sessions (issue 14, build item 6).

Why here and not in the page: the definitions are the detectors' (``detectors/stats.py`` counts
each statistic and its PokerTracker 4 opportunity, per day); this module only sums a period's days
and divides, so every figure is one ratio of two sums, with both counts shown beside it.
"""

from __future__ import annotations

from typing import Any

import polars as pl

#: (PokerTracker 4 name, numerator column, denominator columns (summed), kind) in PT4's HUD order;
#: kind "pct" is a percentage, "ratio" a plain ratio (AF), "bb100" big blinds won per 100 hands
HUD: tuple[tuple[str, str, tuple[str, ...], str], ...] = (
    ("VPIP", "vpip", ("vpip_opp",), "pct"),
    ("PFR", "pfr", ("pfr_opp",), "pct"),
    ("3Bet PF", "threebet", ("threebet_opp",), "pct"),
    ("4Bet PF", "fourbet", ("fourbet_opp",), "pct"),
    ("Fold to PF 3Bet", "fold_to_3bet", ("fold_to_3bet_opp",), "pct"),
    ("Fold to PF 4Bet", "fold_to_4bet", ("fold_to_4bet_opp",), "pct"),
    ("Attempt to Steal", "steal", ("steal_opp",), "pct"),
    ("Fold to Steal", "fold_to_steal", ("fold_to_steal_opp",), "pct"),
    ("CBet F", "cbet", ("cbet_opp",), "pct"),
    ("Fold to F CBet", "fold_to_cbet", ("fold_to_cbet_opp",), "pct"),
    ("Check Raise F", "flop_check_raise", ("flop_check_raise_opp",), "pct"),
    ("Postflop Agg (AF)", "post_aggr", ("post_calls",), "ratio"),
    ("Postflop Agg% (AFq)", "post_aggr", ("post_aggr", "post_calls", "post_folds"), "pct"),
    ("WTSD%", "wtsd", ("saw_flop",), "pct"),
    ("W$SD%", "wsd", ("wtsd",), "pct"),
    ("WWSF%", "wwsf", ("saw_flop",), "pct"),
    ("bb/100", "net_cbb", ("hands",), "bb100"),
    ("All-in adj bb/100", "allin_adj_net_cbb", ("hands",), "bb100"),
)


def _sum(days: pl.DataFrame, col: str) -> int | None:
    if col not in days.columns or days[col].null_count() == days.height:
        return None
    return int(days[col].fill_null(0).sum())


def hud_rows(days: pl.DataFrame) -> list[dict[str, Any]]:
    """One row per statistic: name, value (display text), count, opportunities; a statistic whose
    counts the run did not store (older runs) or that had no opportunity shows '–'."""
    out = []
    for name, num, dens, kind in HUD:
        n = _sum(days, num)
        parts = [_sum(days, d) for d in dens]
        d = None if any(p is None for p in parts) else sum(p for p in parts if p is not None)
        if n is None or d is None or d == 0:
            value = "–"
        elif kind == "pct":
            value = f"{100 * n / d:.1f}"
        elif kind == "ratio":
            value = f"{n / d:.2f}"
        else:
            value = f"{n / d:.2f}"  # hundredths of a big blind per hand = big blinds per 100 hands
        out.append({"statistic": name, "value": value,
                    "count": "" if kind == "bb100" or n is None else f"{n:,}",
                    "opportunities": "" if d is None else f"{d:,}"})
    return out


def units(col: pl.Expr | str, scale: pl.Expr | str = "unit_scale") -> pl.Expr:
    """Integer amounts as currency units (e.g. cents / 100 = dollars)."""
    c = pl.col(col) if isinstance(col, str) else col
    s = pl.col(scale) if isinstance(scale, str) else scale
    return c.cast(pl.Float64) / s.cast(pl.Float64)


#: points of the results graph's net-won line per currency (see ``results_series``)
MAX_POINTS = 2000


def results_series(hands: pl.DataFrame, days: pl.DataFrame) -> pl.DataFrame:
    """The results graph in currency units, per currency, from the player's hands (one row each:
    ``data.player_hands``); the page gets the same two inputs of ``results_from`` computed in the
    snapshot instead (``data.player_line``)."""
    if hands.is_empty():
        return results_from(pl.DataFrame(), pl.DataFrame(), days)
    h = hands.sort(["started_at", "hr"]).with_columns(
        pl.int_range(1, pl.len() + 1).over("currency").alias("hand"),
        (units("net").cum_sum().over("currency")).alias("net_won"),
        pl.col("started_at").dt.date().alias("hand_date"),
    )
    # at most about MAX_POINTS points per currency (every k-th hand and the last): a regular's
    # hundreds of thousands of hands would otherwise all be sent to the browser on every view
    k = pl.max_horizontal(pl.lit(1), (pl.len().over("currency") / MAX_POINTS).ceil().cast(pl.Int64))
    line = h.filter(((pl.col("hand") - 1) % k == 0) | (pl.col("hand") == pl.len().over("currency")))
    ends = h.group_by(["currency", "hand_date"]).agg(
        pl.col("hand").max(), pl.col("net_won").last(),
        (pl.col("bb").cast(pl.Float64) / pl.col("unit_scale")).median().alias("bb_units"))
    return results_from(line.select("currency", "hand", "net_won"), ends, days)


def results_from(line: pl.DataFrame, ends: pl.DataFrame, days: pl.DataFrame) -> pl.DataFrame:
    """The graph's rows (currency, hand, series, amount): cumulative net won after each hand of
    ``line``, and (where the detectors stored it) the all-in adjusted result at the end of each day:
    net won plus the equity difference of the day's all-in showdowns, converted from big blinds
    with the day's median big blind (exact when the player played one stake that day)."""
    schema = {"currency": pl.String, "hand": pl.Int64, "series": pl.String, "amount": pl.Float64}
    if line.is_empty():
        return pl.DataFrame(schema=schema)
    out = [line.select(pl.col("currency").cast(pl.String), pl.col("hand").cast(pl.Int64),
                       pl.lit("net won").alias("series"), pl.col("net_won").cast(pl.Float64).alias("amount"))]
    stored = {"allin_adj_net_cbb", "net_cbb", "hand_date"} <= set(days.columns)
    if stored and not days.is_empty() and not ends.is_empty():
        diff = days.group_by("hand_date").agg(
            (pl.col("allin_adj_net_cbb").fill_null(0) - pl.col("net_cbb").fill_null(0)).sum().alias("diff_cbb"))
        adj = ends.join(diff, on="hand_date", how="left").sort(["currency", "hand"]).with_columns(
            (pl.col("diff_cbb").fill_null(0) / 100 * pl.col("bb_units")).cum_sum().over("currency").alias("adj"))
        out.append(adj.select(pl.col("currency").cast(pl.String), pl.col("hand").cast(pl.Int64),
                              pl.lit("all-in adjusted (EV)").alias("series"),
                              (pl.col("net_won") + pl.col("adj")).cast(pl.Float64).alias("amount")))
    return pl.concat(out).sort(["currency", "series", "hand"])


def player_sessions(hands: pl.DataFrame, gap_minutes: int = 30) -> pl.DataFrame:
    """The player's sessions: consecutive hands at one table with no gap over ``gap_minutes``,
    with hands and net result in currency units."""
    if hands.is_empty():
        return pl.DataFrame()
    h = hands.sort(["table_name", "started_at", "hr"]).with_columns(
        ((pl.col("started_at").diff().over("table_name") > pl.duration(minutes=gap_minutes))
         .fill_null(True).cum_sum().over("table_name")).alias("session"))
    return (
        h.group_by(["table_name", "session", "currency"])
        .agg(pl.col("started_at").min().alias("start"), pl.col("started_at").max().alias("end"),
             pl.len().alias("hands"), units(pl.col("net").sum(), pl.col("unit_scale").first()).alias("net"))
        .sort(["start", "table_name"]).drop("session")
        .select("table_name", "start", "end", "hands", "currency", "net")
    )
