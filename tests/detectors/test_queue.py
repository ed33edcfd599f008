"""The queue by alert budget, seat labels that are not people, and one queue per warehouse.

A reviewer must get the same queue from the same data: the detectors run twice on one warehouse
and every flag, score, evidence list and pair score must be identical.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from detectors.families import FAMILIES
from detectors.identity import anonymous_sql, is_anonymous
from detectors.queue import DEFAULT_CAP_PER_1000_PLAYERS, Budget
from detectors.run import Params, detect, queue_budget

simulator = pytest.importorskip("simulator.run")

LABELS = ["Hero", "hero", "Big Blind", "Small Blind", "Dealer", "UTG+3", "UTG", "UTG1", "MP2", "CO", "BTN",
          "Player5", "Player0", "player 12", "Seat 3", "P7", "SB", "BB", "Cutoff", "Hijack"]
NAMES = ["Pluribus", "MrBlue", "BigBlindBandit", "heroic77", "Player_One_Fan", "DealerTom", "utgnit", "Copenhagen",
         "PokerCNN", "身轻如燕", "AceCard106", "Seat3Sam"]


def test_seat_labels_are_not_identities() -> None:
    assert [n for n in LABELS if not is_anonymous(n)] == []
    assert [n for n in NAMES if is_anonymous(n)] == []


def test_sql_and_python_agree_on_labels() -> None:
    con = duckdb.connect()
    rows = con.execute(f"SELECT n, {anonymous_sql('n')} FROM unnest(?) t(n)", [LABELS + NAMES]).fetchall()
    assert {n: bool(v) for n, v in rows} == {n: is_anonymous(n) for n in LABELS + NAMES}


def test_budget_size() -> None:
    assert Budget().size(14_061, 400) == 141  # 1% of the scored pairs
    assert Budget().size(300, 50) == 10  # never fewer than the minimum ...
    assert Budget().size(4, 5) == 4  # ... nor more than there are pairs
    assert Budget(share=0.0, per_1000_players=20).size(10_000, 2_500) == 50


def test_budget_cap_sizes_the_queue_to_the_population() -> None:
    # the 10M cluster night: 1% of 1.24M scored pairs was 12,448 flags for ~14,000 players
    assert Budget().size(1_244_800, 14_000) == 12_448
    assert Budget(cap_per_1000_players=20).size(1_244_800, 14_000) == 280
    assert Budget(cap_per_1000_players=1_000).size(14_061, 400) == 141  # a cap above the share changes nothing
    assert Budget(cap_per_1000_players=1).size(14_061, 400) == 10  # the minimum holds under the cap
    assert Budget(cap_per_1000_players=1).size(4, 5) == 4


def test_detect_cli_budget_options_set_the_queue(warehouse: Path) -> None:
    """``floorman detect --budget-share/--budget-cap-per-1000-players`` decide how many pairs are flagged."""
    out = subprocess.run(
        [sys.executable, "-m", "pipelines.cli", "detect", "--db", str(warehouse), "--json",
         "--budget-share", "0.5", "--budget-cap-per-1000-players", "300"],
        check=True, capture_output=True, text=True,
    )
    summary = json.loads(out.stdout)
    with duckdb.connect(str(warehouse), read_only=True) as con:
        flagged = con.execute("SELECT count(*) FROM pair_scores WHERE run_id = ? AND flagged",
                              [summary["run_id"]]).fetchone()
    assert flagged is not None
    uncapped = Budget(0.5).size(summary["pairs_scored"], summary["players"])
    capped = Budget(0.5, cap_per_1000_players=300).size(summary["pairs_scored"], summary["players"])
    assert capped < uncapped, "the cap must bind in this warehouse or the test proves nothing"
    assert flagged[0] == capped


def test_night_detector_step_takes_the_cap(warehouse: Path, tmp_path: Path) -> None:
    """The pipeline's ``collusion_flags`` step passes the resource's cap to the detectors."""
    import shutil

    from pipelines import steps

    build = tmp_path / "warehouse.duckdb"
    shutil.copyfile(warehouse, build)
    steps.run_detectors(build, tmp_path / "work", flag_cap_per_1000_players=7.5)
    with duckdb.connect(str(build), read_only=True) as con:
        row = con.execute("SELECT params FROM flags ORDER BY created_at DESC LIMIT 1").fetchone()
    assert row is not None
    assert json.loads(row[0])["budget_cap_per_1000_players"] == 7.5


def test_the_default_queue_is_capped_per_player(tmp_path: Path) -> None:
    """Out of the box a big night gets a queue sized to its population, a 400-player room is not cut,
    and the nightly job's resource and both CLIs carry the same default (0 turns the cap off)."""
    from pipelines.cli import build_parser
    from pipelines.resources import AuditResource

    default = queue_budget(Params())
    assert default.size(1_244_800, 5_000) == 2_000  # 1% would be 12,448
    assert default.size(14_061, 400) == 141  # the share, under the cap
    assert queue_budget(Params(budget_cap_per_1000_players=0)).size(1_244_800, 5_000) == 12_448
    parser = build_parser()
    db = tmp_path / "x.duckdb"
    with duckdb.connect(str(db)) as con:  # --db must name an existing warehouse with a hands table
        con.execute("CREATE TABLE hands (hand_id VARCHAR)")
    detect_args = parser.parse_args(["detect", "--db", str(db)])
    audit_args = parser.parse_args(["audit", "x", "--db", "w.duckdb"])
    assert detect_args.budget_cap_per_1000_players == DEFAULT_CAP_PER_1000_PLAYERS
    assert audit_args.flag_cap_per_1000_players == DEFAULT_CAP_PER_1000_PLAYERS
    assert AuditResource().flag_cap_per_1000_players == DEFAULT_CAP_PER_1000_PLAYERS


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from warehouse.ingest import ingest_paths

    base = tmp_path_factory.mktemp("queue")
    cfg = simulator.Config(hands=4000, seed=31, tables=4, players=40, operator_mode=True)
    simulator.simulate(cfg, base / "hh", base / "truth.json")
    db = base / "w.duckdb"
    ingest_paths([base / "hh"], db, progress=False)
    return db


def _run_outputs(db: Path, run_id: str) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        flags = con.execute(
            """SELECT flag_id, family, players, score, severity, evidence_hands, evidence_families, observed FROM flags
            WHERE run_id = ? ORDER BY flag_id""", [run_id]).fetchall()
        scores = con.execute(
            "SELECT * EXCLUDE (run_id) FROM pair_scores WHERE run_id = ? ORDER BY player_a, player_b",
            [run_id]).fetchall()
    finally:
        con.close()
    return flags, scores


@pytest.mark.parametrize("mode", ["operator", "player"])
def test_same_warehouse_same_queue(warehouse: Path, mode: str) -> None:
    first = detect(warehouse, Params(mode=mode))
    second = detect(warehouse, Params(mode=mode))
    a, b = _run_outputs(warehouse, first.run_id), _run_outputs(warehouse, second.run_id)
    assert a[0], "no flags: the comparison would be vacuous"
    assert a == b


def test_resources_of_a_run_do_not_change_its_flags(warehouse: Path) -> None:
    """A worker bounded to a smaller memory and one thread finds the very same flags (every column
    but the run's id and time, params included), and only the run record says how it was resourced:
    ``make cluster-test`` compares a cluster night with a single-process night this way."""
    first = detect(warehouse, Params(mode="operator"))
    second = detect(warehouse, Params(mode="operator", memory_limit="3GB", threads=1))
    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        flags = [con.execute("SELECT * EXCLUDE (run_id, created_at) FROM flags WHERE run_id = ? ORDER BY flag_id",
                             [r]).fetchall() for r in (first.run_id, second.run_id)]
        runs = [json.loads(con.execute("SELECT params FROM detector_runs WHERE run_id = ?", [r]).fetchone()[0])
                for r in (first.run_id, second.run_id)]
    finally:
        con.close()
    assert flags[0], "no flags: the comparison would be vacuous"
    assert flags[0] == flags[1]
    assert (runs[0]["memory_limit"], runs[1]["memory_limit"], runs[1]["threads"]) == ("4GB", "3GB", 1)


def test_queue_is_the_budget_and_scores_list_every_pair(warehouse: Path) -> None:
    summary = detect(warehouse, Params(mode="operator", budget_share=0.05, budget_min=3))
    out = subprocess.run(
        [sys.executable, "-m", "pipelines.cli", "scores", "--db", str(warehouse), "--format", "json",
         "--run-id", summary.run_id],
        check=True, capture_output=True, text=True,
    )
    rows = json.loads(out.stdout)
    assert len(rows) == summary.pairs_scored
    assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1))
    flagged = [r for r in rows if r["flagged"]]
    assert len(flagged) == Budget(0.05, None, 3, DEFAULT_CAP_PER_1000_PLAYERS).size(len(rows), summary.players)
    assert all(r["flagged"] for r in rows[: len(flagged)])
    scores = [r["score"] for r in rows]
    assert scores == sorted(scores, reverse=True)
    for r in rows[:5]:
        dist = [r[f"f_{f}"] for f in ("soft_play", "chip_dumping", "squeeze", "card_sharing")]
        assert abs(sum(dist) - 1.0) < 1e-6
    assert all(0.0 <= r["team_support"] <= 1.0 for r in rows)
    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        pairs = con.execute(
            """SELECT DISTINCT list_sort(players) FROM flags
            WHERE run_id = ? AND len(players) = 2 AND family <> 'anomaly'""",
            [summary.run_id]).fetchall()
    finally:
        con.close()
    # the score rows name the players as the flags do (screen names beside the site-scoped keys)
    flagged_pairs = {tuple(sorted([r["name_a"], r["name_b"]])) for r in flagged}
    assert {tuple(p[0]) for p in pairs} == flagged_pairs
    assert all(r["player_a"] == f"{r['player_a'].split(':', 1)[0]}:{r['name_a']}" for r in rows)


def test_scores_that_match_no_pair_say_so(warehouse: Path) -> None:
    """An analyst's --player that matches nobody gets the CSV header and a line on stderr naming the
    run, not an empty screen that reads like a failure."""
    detect(warehouse, Params(mode="operator"))
    out = subprocess.run(
        [sys.executable, "-m", "pipelines.cli", "scores", "--db", str(warehouse), "--player", "nobody-by-this-name"],
        check=True, capture_output=True, text=True,
    )
    assert out.stdout.splitlines()[0].startswith("run_id,player_a,player_b,rank,flagged,score")
    assert len(out.stdout.splitlines()) == 1
    assert "no scored pair involving 'nobody-by-this-name'" in out.stderr
    unknown = subprocess.run(
        [sys.executable, "-m", "pipelines.cli", "scores", "--db", str(warehouse), "--run-id", "no-such-run"],
        check=False, capture_output=True, text=True,
    )
    assert unknown.returncode == 2 and unknown.stdout == ""
    assert "no detector run 'no-such-run'" in unknown.stderr


def test_seat_label_pairs_are_never_scored(tmp_path: Path) -> None:
    """A hero-only export where two seats are written as position labels: the labels sit in every
    hand together, yet they are no pair."""
    from warehouse.ingest import ingest_paths

    cfg = simulator.Config(hands=1500, seed=32, tables=1, players=6, operator_mode=False)
    simulator.simulate(cfg, tmp_path / "hh", tmp_path / "truth.json")
    truth = json.loads((tmp_path / "truth.json").read_text())
    names = sorted(truth["players"])[:2]
    for f in (tmp_path / "hh").iterdir():
        text = f.read_text(encoding="utf-8")
        f.write_text(text.replace(names[0], "Big Blind").replace(names[1], "Hero"), encoding="utf-8")
    db = tmp_path / "w.duckdb"
    ingest_paths([tmp_path / "hh"], db, progress=False)
    summary = detect(db, Params(mode="player"))
    con = duckdb.connect(str(db), read_only=True)
    try:
        keys = con.execute("SELECT player_a, player_b FROM pair_scores WHERE run_id = ?",
                           [summary.run_id]).fetchall()
    finally:
        con.close()
    assert keys, "no pair scored at all: the check would be vacuous"
    assert not [k for k in keys if {"pokerstars:Big Blind", "pokerstars:Hero"} & set(k)]


def test_robust_z_is_the_rooms_own_scale() -> None:
    """Scaling a room's statistic (a site where contrasts run twice as wide) leaves its robust z
    unchanged, a constant statistic is never "far out", and a room too small for a null gives 0."""
    import polars as pl

    from detectors.calibrate import MIN_POPULATION, population_z

    values = [float(i % 7) for i in range(200)] + [40.0]
    room = pl.DataFrame({"s": values, "c": [3.0] * len(values)})
    wide = room.with_columns(pl.col("s") * 2 + 5)
    z, z_wide = population_z(room, ["s", "c"]), population_z(wide, ["s", "c"])
    assert z["cz_s"].to_list() == pytest.approx(z_wide["cz_s"].to_list())
    assert z["cz_s"][-1] > 10  # the outlier is far out ...
    assert abs(z["cz_s"].median()) < 1e-9  # ... the bulk is not
    assert set(z["cz_c"].to_list()) == {0.0}
    tiny = population_z(room.head(MIN_POPULATION - 1), ["s"])
    assert set(tiny["cz_s"].to_list()) == {0.0}


def test_family_z_is_never_narrower_than_the_statistic_itself() -> None:
    """A room where most pairs share a few spots has rule scores bunched near 0: their spread is
    far below the unit spread of a z-scored contrast. One lost pot (rule score 1.8) there must
    stay about 1.8 sigma, not become 12 sigma, while a real outlier stays far out."""
    import polars as pl

    from detectors.queue import MEDIUM_Z, family_statistics

    bunched = [0.01 * ((i % 11) - 5) for i in range(2000)]
    room = pl.DataFrame({f"r_{f}": [*bunched, 1.8, 9.0] for f in FAMILIES})
    t = family_statistics(room)
    lost_pot, outlier = t["t_chip_dumping"][-2], t["t_chip_dumping"][-1]
    assert lost_pot == pytest.approx(1.8, abs=0.01) and lost_pot < MEDIUM_Z
    assert outlier == pytest.approx(9.0, abs=0.01)
    wide = pl.DataFrame({f"r_{f}": [3.0 * x / 0.05 for x in bunched] + [1.8, 9.0] for f in FAMILIES})
    assert family_statistics(wide)["t_soft_play"][-1] < 9.0  # a wider honest spread still widens the null


def test_severity_needs_evidence_not_rank() -> None:
    from detectors.queue import Evidence, severity

    strong = Evidence(z=8.0, exposure=40, rule=3.0, model_p=0.9, population=5000)
    kw = {"high_min_exposure": 10, "high_min_rule": 2.0}
    assert severity(strong, **kw) == "high"
    assert severity(Evidence(8.0, 40, 3.0, 0.9, population=50), **kw) == "medium"  # no null of its own
    assert severity(Evidence(8.0, 4, 3.0, 0.9, 5000), **kw) == "medium"  # too few spots
    assert severity(Evidence(8.0, 40, 3.0, 0.2, 5000), **kw) == "medium"  # the model disagrees
    assert severity(Evidence(2.0, 40, 3.0, 0.9, 5000), **kw) == "low"  # inside the budget, weak evidence
