"""The fast detector features give the same tables as the pre-speed-round code (issue 5).

Independent reference: ``tests/detectors/frozen`` is the feature code as it stood before the speed
round, run on the same warehouse in the same process; every feature, statistics and evidence
table and the scored unordered pairs must match row for row (floats within a relative 1e-9).
Since round 2 (pairs filtered early) the per-pair tables (t_pair_stats, pdec) hold only the pairs
that shared at least MIN_HANDS hands: the frozen tables are cut to those pairs (read off the frozen
t_pair_stats) and must then match; every other table, the scored pairs, and each player's totals
against everyone (checked below from the frozen tables) must match in full.
Warehouses: a small seeded simulation (teams injected, so the pair tables are populated), in
both modes, and the real Pluribus sessions (every hole card known). The 20k-hand snapshot saved
before the change is compared too when it is cached under var/bench/detspeed (bench/detect_equiv.py).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import duckdb
import polars as pl
import pytest

from detectors import pairs as live_pairs
from detectors import snapshot
from detectors.stats import MIN_HANDS, REST_COLUMNS
from tests.conftest import ROOT, real_data
from tests.detectors.frozen import allin, features, pairs, stats
from warehouse.ingest import ingest_paths

FROZEN = (features, allin, stats, pairs)


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from simulator.run import Config, simulate

    tmp = tmp_path_factory.mktemp("speed_equiv")
    simulate(Config(hands=3000, seed=11, operator_mode=True, teams=3, start=datetime(2026, 11, 29, 23)),
             tmp / "hh", tmp / "truth.json")
    db = tmp / "w.duckdb"
    ingest_paths([tmp / "hh"], db, progress=False)
    return db


def _both(db: Path, mode: str) -> list[str]:
    snaps = []
    for frozen in (True, False):
        con = duckdb.connect(str(db), read_only=True)
        u = snapshot.run_all(con, mode, FROZEN if frozen else None)
        snaps.append(snapshot.snapshot(con, u))
        con.close()
    old, new = snaps
    assert old["t_pair_stats"].height > 100 and old["pdec"].height > 1000 and old["unordered"].height > 10
    return snapshot.differences(snapshot.scored_pairs_only(old, MIN_HANDS), new)


@pytest.mark.parametrize("mode", ["operator", "player"])
def test_simulated_tables_identical(simulated: Path, mode: str) -> None:
    assert _both(simulated, mode) == []


def test_simulated_spans_two_days(simulated: Path) -> None:
    """The run starts at 23:00, so per-day statistics are exercised across a date boundary."""
    con = duckdb.connect(str(simulated), read_only=True)
    row = con.execute("SELECT count(DISTINCT CAST(started_at AS DATE)) FROM hands").fetchone()
    con.close()
    assert row is not None and row[0] >= 2


def test_real_pluribus_tables_identical(tmp_path: Path) -> None:
    src = real_data("pluribus_raw_pkcore")
    db = tmp_path / "w.duckdb"
    ingest_paths([src], db, progress=False)
    assert _both(db, "operator") == []


def test_saved_20k_snapshot_identical() -> None:
    """Against the outputs saved before the change (skips unless cached by bench/detect_equiv.py)."""
    folder = ROOT / "var" / "bench" / "detspeed"
    if not (folder / "s7.duckdb").exists() or not (folder / "before").exists():
        pytest.skip("20k snapshot not cached (bench/detect_equiv.py --save var/bench/detspeed/before)")
    con = duckdb.connect(str(folder / "s7.duckdb"), read_only=True)
    u = snapshot.run_all(con)
    diffs = snapshot.differences(snapshot.scored_pairs_only(snapshot.load(folder / "before"), MIN_HANDS),
                                 snapshot.snapshot(con, u))
    con.close()
    assert diffs == []


def test_player_totals_count_dropped_pairs(simulated: Path) -> None:
    """Pairs below MIN_HANDS are dropped from the pair tables, but each player's sums against
    everyone (what the leave-B-out baselines use) equal the frozen code's sums over all pairs."""
    con = duckdb.connect(str(simulated), read_only=True)
    snapshot.run_all(con, "operator", FROZEN)
    old = pairs.summed_pair_stats(con)
    snapshot.run_all(con, "operator")
    new = live_pairs.summed_pair_stats(con)
    con.close()
    dropped = old.filter(pl.col("hands_together") < MIN_HANDS)
    assert dropped.height > 50  # the filter is exercised
    kept = new.filter(pl.col("player_b").is_not_null())
    assert kept.height and kept.filter(pl.col("hands_together") < MIN_HANDS).is_empty()
    cols = list(REST_COLUMNS)
    tot_old = old.group_by("player_a").agg(pl.col(cols).sum()).sort("player_a")
    tot_new = new.group_by("player_a").agg(pl.col(cols).sum()).sort("player_a")
    assert tot_old["player_a"].to_list() == tot_new["player_a"].to_list()
    for c in cols:
        diff = (tot_old[c] - tot_new[c]).abs() / tot_old[c].abs().clip(lower_bound=1.0)
        assert (diff < 1e-9).all(), c


def test_vectorised_ranks_match_frozen_evaluator() -> None:
    """evaluate_frame (card ids parsed by polars) gives the frozen evaluate_many's rank for every
    dealt hand and board prefix of a seeded deck, and None for the same malformed records."""
    import random

    from detectors.cards import evaluate_frame
    from tests.detectors.frozen.cards import RANKS, evaluate_many

    deck = [r + s for r in RANKS for s in "cdhs"]
    rng = random.Random(5)
    rows = []
    for _ in range(3000):
        d = rng.sample(deck, 7)
        rows += [("".join(d[:2]), "".join(d[2:2 + k])) for k in (3, 4, 5)]
    rows += [("AsAs", "KdQdJd"), ("AsK", "QdJdTd"), ("AsKs", "QdJdXx"), ("AsKs", "Qd"), ("AsKs", ""),
             ("AsKs", "QdJdTd9d8d7d"), ("AsKs", "AsJdTd"), ("??Ks", "QdJdTd")]
    want = evaluate_many(rows)
    got = evaluate_frame(pl.Series([r[0] for r in rows]), pl.Series([r[1] for r in rows])).to_list()
    assert got == want
    assert sum(w is None for w in want) == 8 and len(set(want)) > 1000
