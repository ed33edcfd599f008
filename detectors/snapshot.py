"""Snapshots of the detector feature tables, to prove a faster implementation means the same.

Why: the feature and statistics tables feed the learned pair model and the evidence queries; a
speed change that alters a single count silently changes flags. ``snapshot`` reads every table
the later stages use (sorted, so row order does not matter) and ``differences`` names each
table, column and row count that differs (floats within a relative 1e-9: sums in another order
round differently in the last bits).
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import duckdb
import polars as pl

from detectors.families import rule_scores

#: temp tables the statistics, scoring, evidence and run report read
TABLES = ("hh", "cards", "hp", "strength", "dec", "allin_ev", "t_player_stats",
          "pdec", "pflow", "psq", "pcs", "t_pair_stats")

_FLOATS = (pl.Float32, pl.Float64)


def canonical(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` in the canonical order snapshots use (columns and rows sorted)."""
    return _sorted(frame)


def _sorted(frame: pl.DataFrame) -> pl.DataFrame:
    """Rows in a canonical order: exact columns first, floats last (they only break ties)."""
    cols = sorted(frame.columns)
    exact = [c for c in cols if frame.schema[c] not in _FLOATS]
    floats = [c for c in cols if frame.schema[c] in _FLOATS]
    order = exact + floats
    return frame.select(order).sort(order, nulls_last=True)


def run_all(con: duckdb.DuckDBPyConnection, mode: str = "operator",
            impl: tuple[ModuleType, ModuleType, ModuleType, ModuleType] | None = None) -> pl.DataFrame:
    """Features, all-in equity, player and pair statistics and the scored unordered pairs, with
    the live modules or another implementation's (features, allin, stats, pairs)."""
    if impl is None:
        from detectors import allin, features, pairs, stats

        impl = (features, allin, stats, pairs)
    features_m, allin_m, stats_m, pairs_m = impl
    features_m.build(con, mode)
    allin_m.build_allin_ev(con)
    stats_m.player_stats(con)
    stats_m.pair_stats(con)
    return scored_pairs(con, pairs_m)


def scored_pairs(con: duckdb.DuckDBPyConnection, pairs_m: ModuleType | None = None) -> pl.DataFrame:
    """The scored unordered pairs from the statistics tables already built on ``con``."""
    from detectors import pairs

    impl = pairs_m or pairs
    u: pl.DataFrame = impl.unordered(impl.directional(impl.summed_pair_stats(con)))
    return rule_scores(u)


def snapshot(con: duckdb.DuckDBPyConnection, unordered: pl.DataFrame | None = None,
             tables: tuple[str, ...] = TABLES) -> dict[str, pl.DataFrame]:
    """Every feature table (and the scored unordered pairs, when given) in canonical order."""
    out = {t: _sorted(con.execute(f"SELECT * FROM {t}").pl()) for t in tables}
    if unordered is not None:
        out["unordered"] = _sorted(unordered)
    return out


def scored_pairs_only(snap: dict[str, pl.DataFrame], min_hands: int) -> dict[str, pl.DataFrame]:
    """A snapshot with its per-pair tables (t_pair_stats, pdec) cut to the pairs that shared at
    least ``min_hands`` hands over the snapshot's window, as the live code now stores them; the
    pairs are read off the snapshot's own t_pair_stats, not from the code under test."""
    tps = snap["t_pair_stats"]
    keep = tps.group_by("player_a", "player_b").agg(pl.col("hands_together").sum()).filter(
        pl.col("hands_together") >= min_hands).select("player_a", "player_b")
    out = dict(snap)
    out["t_pair_stats"] = tps.join(keep, on=["player_a", "player_b"], how="semi", maintain_order="left")
    if "pdec" in snap:
        out["pdec"] = snap["pdec"].join(keep.rename({"player_a": "a", "player_b": "b"}), on=["a", "b"],
                                        how="semi", maintain_order="left")
    return out


def save(snap: dict[str, pl.DataFrame], folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, frame in snap.items():
        frame.write_parquet(folder / f"{name}.parquet")


def load(folder: Path) -> dict[str, pl.DataFrame]:
    return {p.stem: pl.read_parquet(p) for p in sorted(folder.glob("*.parquet"))}


def _column_diff(name: str, col: str, a: pl.Series, b: pl.Series, rel: float) -> str | None:
    if a.dtype in _FLOATS or b.dtype in _FLOATS:
        x, y = a.cast(pl.Float64), b.cast(pl.Float64)
        if not (x.is_null() == y.is_null()).all():
            return f"{name}.{col}: nulls differ"
        frame = pl.DataFrame({"x": x, "y": y}).drop_nulls()
        tol = (pl.max_horizontal(pl.col("x").abs(), pl.col("y").abs(), pl.lit(1.0)) * rel)
        bad = frame.filter(((pl.col("x") - pl.col("y")).abs() > tol)
                           & ~(pl.col("x").is_nan() & pl.col("y").is_nan()))
        return f"{name}.{col}: {bad.height} values differ, e.g. {bad.head(3).rows()}" if bad.height else None
    if a.dtype != b.dtype:
        return f"{name}.{col}: dtype {a.dtype} != {b.dtype}"
    same = (a == b) | (a.is_null() & b.is_null())
    n = int((~same.fill_null(False)).sum())
    return f"{name}.{col}: {n} values differ" if n else None


def differences(old: dict[str, pl.DataFrame], new: dict[str, pl.DataFrame], rel: float = 1e-9) -> list[str]:
    """Human-readable differences between two snapshots (empty: identical)."""
    out: list[str] = []
    for name in sorted(set(old) | set(new)):
        if name not in old or name not in new:
            out.append(f"{name}: only in {'new' if name in new else 'old'}")
            continue
        a, b = old[name], new[name]
        if set(a.columns) != set(b.columns):
            out.append(f"{name}: columns {sorted(set(a.columns) ^ set(b.columns))} differ")
            continue
        if a.height != b.height:
            out.append(f"{name}: {a.height} rows != {b.height} rows")
            continue
        for col in a.columns:
            msg = _column_diff(name, col, a[col], b[col], rel)
            if msg:
                out.append(msg)
    return out
