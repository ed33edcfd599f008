"""Detector work per partition (``detectors.partial``): a night whose per-hand features, player
statistics and pair rows were built in the partitions gives exactly what one detector run over
the combined warehouse gives, table by table and flag by flag.

The night is split so that every table's hands are in both partitions (each table file cut in
two), so one table, day and pair is seen by both and its counts must be added, not repeated.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest

from detectors import partial, snapshot, stats
from detectors.run import Params, detect
from pipelines import steps

simulator = pytest.importorskip("simulator.run")

HAND_START = re.compile(r"^(?=PokerStars Hand #)", re.MULTILINE)


def _split_night(hh: Path, out: Path) -> list[list[Path]]:
    """Two partitions' files: the first and second half of every table file's hands."""
    halves: list[list[Path]] = [[], []]
    for f in sorted(hh.rglob("*.txt")):
        hands = [h for h in HAND_START.split(f.read_text(encoding="utf-8")) if h.strip()]
        cut = len(hands) // 2
        for k, chunk in enumerate((hands[:cut], hands[cut:])):
            target = out / f"p{k}" / f.name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text("".join(chunk), encoding="utf-8")
            halves[k].append(target)
    return halves


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """(work folder, combined warehouse, a byte copy of it taken before any detector run)."""
    base = tmp_path_factory.mktemp("partial")
    cfg = simulator.Config(hands=4000, seed=31, tables=4, players=40, operator_mode=True)
    simulator.simulate(cfg, base / "hh", base / "truth.json")
    work = base / "work"
    for k, files in enumerate(_split_night(base / "hh", base / "split")):
        name = f"2026-11-29.{k}"
        staged = steps.staging_db(work, name)
        steps.build_partition_hands(files, staged)
        steps.publish_partition(staged, steps.partition_db(work, name), detector_out=steps.detector_db(work, name))
    build = work / "warehouse.duckdb"
    steps.combine_partitions(sorted((work / "parts").glob("*.duckdb")), build)
    whole = base / "whole.duckdb"
    shutil.copyfile(build, whole)
    return work, build, whole


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    calls: list[bool] = []
    real: Callable[..., bool] = partial.load

    def load(*args: Any, **kwargs: Any) -> bool:
        calls.append(real(*args, **kwargs))
        return calls[-1]

    monkeypatch.setattr(partial, "load", load)
    return calls


def _outputs(db: Path, run_id: str) -> dict[str, pl.DataFrame]:
    """The run's stored rows, sorted (floats compared within 1e-9 relative by ``snapshot``:
    DuckDB's parallel sums differ in the last bits from run to run, in one go too)."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        queries = {
            "flags": "SELECT flag_id, family, players, score, severity, mode, evidence_hands, evidence_families, "
                     "observed, "
                     "first_hand_at, last_hand_at FROM flags WHERE run_id = $r",
            "pair_scores": "SELECT * EXCLUDE (run_id) FROM pair_scores WHERE run_id = $r",
            "pair_stats": "SELECT * EXCLUDE (run_id) FROM pair_stats WHERE run_id = $r",
            "player_stats": "SELECT * EXCLUDE (run_id) FROM player_stats WHERE run_id = $r",
            "run": "SELECT hands, players, pairs_scored, flags FROM detector_runs WHERE run_id = $r",
        }
        return {k: snapshot.canonical(con.execute(q, {"r": run_id}).pl()) for k, q in queries.items()}
    finally:
        con.close()


def test_partition_night_equals_one_detector_run(night: tuple[Path, Path, Path],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Pair statistics, player statistics, every pair's scores and rank, and every flag (score,
    severity, evidence, observed facts) are identical whether built per partition or in one go."""
    work, build, whole = night
    calls = _spy(monkeypatch)
    via_parts = detect(build, Params(), partials=steps.combined_detector_tables(build, work))
    assert calls == [True], "the partitions' detector tables were not used"
    one_go = detect(whole, Params())
    a, b = _outputs(build, via_parts.run_id), _outputs(whole, one_go.run_id)
    assert a["flags"].height, "no flags: the comparison would be vacuous"
    assert a["pair_stats"].height > 100
    assert snapshot.differences(b, a) == []
    # the queue itself exactly: same flags, scores (rounded when stored), evidence, observed facts
    assert a["flags"].rows() == b["flags"].rows()


def test_partition_tables_equal_one_run_tables(night: tuple[Path, Path, Path]) -> None:
    """Every feature and statistics table the later stages read (bench/detect_equiv.py's snapshot)."""
    work, build, whole = night
    loaded = duckdb.connect(str(whole), read_only=True)
    assert partial.load(loaded, steps.combined_detector_tables(build, work), "operator", tables=partial.STORED)
    stats.pair_stats(loaded, loaded=True)
    via_parts = snapshot.snapshot(loaded, snapshot.scored_pairs(loaded))
    one_go = duckdb.connect(str(whole), read_only=True)
    alone = snapshot.snapshot(one_go, snapshot.run_all(one_go))
    assert snapshot.differences(alone, via_parts) == []


def test_stale_or_overlapping_partitions_are_not_used(night: tuple[Path, Path, Path]) -> None:
    """A detector file not built from the partition file that was combined, or partitions sharing
    a hand, fall back to the one-go run (a hand in two partitions is one hand in the warehouse)."""
    work, build, whole = night
    pairs = steps.combined_detector_tables(build, work)
    con = duckdb.connect(str(whole), read_only=True)
    assert not partial.load(con, [(pairs[0][0], "0:0"), pairs[1]], "operator")
    assert not partial.load(con, pairs, "player")
    assert not partial.load(con, [pairs[0]], "operator")  # half the warehouse's hands
    assert not partial.load(con, [pairs[0], pairs[0], pairs[1]], "operator")  # a partition twice
    assert con.execute("SELECT count(*) FROM duckdb_tables() WHERE temporary").fetchone() == (0,)
