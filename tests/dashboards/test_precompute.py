"""Nightly summaries mean the same as the live queries; detector/rule output read in its real shape."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import polars as pl

from dashboards import data
from dashboards.observed import observed_metrics, split_citation
from dashboards.precompute import SUMMARIES
from rules.profiles import load_profile


def _without_summaries(snapshot: Path, tmp_path: Path) -> Path:
    bare = tmp_path / "bare.duckdb"
    shutil.copyfile(snapshot, bare)
    con = duckdb.connect(str(bare))
    for name in SUMMARIES:
        con.execute(f"DROP TABLE IF EXISTS {name}")
    con.close()
    return bare


def test_pages_read_the_same_from_summaries_and_from_the_raw_tables(snapshot: Path, tmp_path: Path) -> None:
    bare = _without_summaries(snapshot, tmp_path)
    for db in (snapshot, bare):
        q = data.queue(db)
        assert list(q["flag_id"]) == ["F-chip-001", "F-ring-002", "F-soft-003", "F-sqz-004"]
        # alice by hand: 1001 folds (0), 1002 wins 40.50 after putting in 20.00, 1003 loses her 1.50 BB+call
        [row] = data.player_summary(db, "alice")["stats"].to_dicts()
        assert (row["hands"], row["net"], row["tables"]) == (3, 1900, ["Alcor"])
        shared = data.shared_hands(db, ["alice", "bob"])
        assert shared.group_by("player").agg(pl.col("net").sum()).sort("player").rows() == [
            ("alice", 1900), ("bob", -1850)]
        by_rule = data.violations_summary(db, "rule")
        assert by_rule.select("rule", "violations", "errors", "house_decisions").rows() == [
            ("RAISE.MIN", 1, 1, 0), ("UNDERCALL.FULL_CALL", 0, 0, 1)]
        listing = data.violations_list(db, "RAISE.MIN")
        assert listing.select("hand_id", "action_seq", "player", "table_name").rows() == [
            ("pokerstars:1003", 2, "bob", "Alcor")]
    data.close_all()


def test_observed_metrics_read_the_detectors_json() -> None:
    # the shape detectors/run.py build_flags writes
    obs = ('{"hands_together": 222, "pair_score": 0.85, "z_checkdown": {"percentile": 100.0, '
           '"population_median": 0.0, "value": 5.857}, "hu_confrontations": {"percentile": 60.0, '
           '"population_median": 2.0, "value": 3.0}}')
    ms = observed_metrics(obs, ["A", "B"])
    assert [m["name"] for m in ms] == ["z_checkdown", "hu_confrontations"]  # most unusual first
    assert ms[0]["label"] == "heads-up check-downs between A and B (z against population rate)"
    assert (ms[0]["value"], ms[0]["population_median"], ms[0]["percentile"]) == (5.857, 0.0, 100.0)


def test_citation_is_split_from_the_checkers_message() -> None:
    prof = load_profile("CEP-2023")
    message = "bob raised to 150; the minimum was 200." + prof.cite("RAISE.MIN")
    text, seed, quote = split_citation(message)
    assert text == "bob raised to 150; the minimum was 200."
    assert seed == prof.seed_file and quote == prof.citations["RAISE.MIN"]
    assert split_citation("no citation here") == ("no citation here", None, None)


def test_every_summary_reads_the_same_inline_as_materialised(snapshot: Path, tmp_path: Path) -> None:
    """A snapshot without (or with stale) summaries is read through their definitions inline
    (``source``); each definition must parse there and give the rows the nightly table holds."""
    from dashboards.precompute import source

    bare = _without_summaries(snapshot, tmp_path)
    full, inline = duckdb.connect(str(snapshot), read_only=True), duckdb.connect(str(bare), read_only=True)
    try:
        compared = 0
        for name in SUMMARIES:
            try:
                sql = source(inline, name)
            except KeyError:  # its source tables are not in this snapshot
                continue
            got = sorted(map(str, inline.execute(f"SELECT * FROM {sql}").fetchall()))
            want = sorted(map(str, full.execute(f"SELECT * FROM {name}").fetchall()))
            assert got == want, name
            compared += 1
        assert compared >= 10, "too few summaries compared for the test to mean anything"
    finally:
        full.close()
        inline.close()
