"""Each family detected on a small simulated table, each confounder left alone.

The table: 30 players on 4 tables for 8,000 hands, one colluding team per family (chip dumping,
soft play, squeeze, card sharing) and the simulator's confounders (friends who sit together,
loose big losers, nits, a strong regular). Truth comes from the simulator, not from us; the
pair model was trained on other seeds (see detectors/models/*.json), including 30-player pools like
this one (seeds 21-28, never this test's seed 5): on such a pool every pair sits together, so the
co-presence signals learnt on a site-sized pool carry nothing and the model needs that regime too.
"""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path
from typing import Any

import duckdb
import pytest

from detectors.run import Params, detect

simulator = pytest.importorskip("simulator.run")


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    from warehouse.ingest import ingest_paths

    base = tmp_path_factory.mktemp("sim")
    cfg = simulator.Config(hands=8000, seed=5, tables=4, players=30, operator_mode=True)
    simulator.simulate(cfg, base / "hh", base / "truth.json")
    db = base / "w.duckdb"
    ingest_paths([base / "hh"], db, progress=False)
    truth = json.loads((base / "truth.json").read_text())
    detect(db, Params(mode="operator"))
    detect(db, Params(mode="player"))
    return db, truth


def _flags(db: Path, mode: str) -> list[tuple[str, list[str], float, str, list[str]]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(
            """SELECT family, players, score, severity, evidence_hands FROM flags
            WHERE run_id IN (SELECT run_id FROM detector_runs WHERE mode = ?) ORDER BY score DESC""",
            [mode],
        ).fetchall()
    finally:
        con.close()


def _pair_best(flags: list[Any], a: str, b: str) -> tuple[str, float] | None:
    for fam, players, score, _, _ in flags:  # sorted by score
        if len(players) == 2 and {a, b} == set(players):
            return fam, score
    return None


@pytest.mark.parametrize("family", ["chip_dumping", "soft_play", "squeeze", "card_sharing"])
def test_family_detected_operator_mode(table: tuple[Path, dict[str, Any]], family: str) -> None:
    db, truth = table
    flags = _flags(db, "operator")
    team = next(t for t in truth["teams"] if t["family"] == family)
    for a, b in combinations(team["members"], 2):
        best = _pair_best(flags, a, b)
        assert best is not None, f"{family} pair {a}/{b} not flagged"
        assert best[0] == family, f"{a}/{b} flagged as {best[0]}, truth {family}"
        assert best[1] >= 0.05  # a flag; probabilities run lower on a 30-player pool than on the training site
        # ranked among the top pairs of the table (4 colluding pairs of ~430)
        pair_scores = sorted({(tuple(sorted(p)), s) for _, p, s, _, _ in flags if len(p) == 2},
                             key=lambda x: -x[1])
        top = [p for p, _ in pair_scores[:10]]
        assert tuple(sorted((a, b))) in top


def test_evidence_hands_are_shared_hands_of_the_pair(table: tuple[Path, dict[str, Any]]) -> None:
    db, _truth = table
    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = con.execute(
            """WITH e AS (SELECT flag_id, players, unnest(evidence_hands) AS hand_id FROM flags
                       WHERE len(players) = 2)
            SELECT e.flag_id, e.hand_id, count(s.player) FROM e
            LEFT JOIN seats s ON s.hand_id = e.hand_id AND list_contains(e.players, s.player)
            GROUP BY ALL"""
        ).fetchall()
    finally:
        con.close()
    assert rows and all(n == 2 for _, _, n in rows)


def test_confounders_left_alone(table: tuple[Path, dict[str, Any]]) -> None:
    db, truth = table
    colluders = {m for t in truth["teams"] for m in t["members"]}
    for mode in ("operator", "player"):
        flags = _flags(db, mode)
        for conf in truth["confounders"]:
            for fam, players, score, severity, _ in flags:
                if set(players) & colluders and len(set(players) - colluders) == 0:
                    continue
                if conf["kind"] == "friends":
                    assert not (set(conf["players"]) <= set(players) and severity != "low"), (mode, conf, fam, score)
                else:
                    assert not (set(conf["players"]) & set(players) and severity == "high"), (mode, conf, fam, score)


@pytest.mark.parametrize("family", ["soft_play", "squeeze"])
def test_player_mode_degrades_gracefully(table: tuple[Path, dict[str, Any]], family: str) -> None:
    """Player mode runs on the same hands with only shown cards, says so, and still finds the
    families that do not need hidden cards (soft play, squeeze)."""
    db, truth = table
    flags = _flags(db, "player")
    assert flags
    team = next(t for t in truth["teams"] if t["family"] == family)
    a, b = team["members"][:2]
    assert _pair_best(flags, a, b) is not None
    con = duckdb.connect(str(db), read_only=True)
    try:
        modes = con.execute("SELECT DISTINCT mode FROM detector_runs ORDER BY 1").fetchall()
    finally:
        con.close()
    assert modes == [("operator",), ("player",)]


@pytest.mark.parametrize("family", ["squeeze", "card_sharing", "chip_dumping"])
def test_evidence_leads_with_the_family_s_own_act(table: tuple[Path, dict[str, Any]], family: str) -> None:
    """The top evidence hands of a team's pair flag are hands where the simulator logged a collusive
    act by that pair (its truth, not ours): the family's own act ranks first (squeeze: a re-raise over
    a caller in between; card sharing: a fold while the partner held the stronger hand; chip dumping:
    the dumper's fold to the receiver after building the pot)."""
    db, truth = table
    flags = _flags(db, "operator")
    team = next(t for t in truth["teams"] if t["family"] == family)
    precisions = []
    for a, b in combinations(team["members"], 2):
        logged = {e["hand_id"] for e in team["evidence"] if a in e["players"] and b in e["players"]}
        if len(logged) < 5:
            continue
        ev = next((e for fam, p, _, _, e in flags if fam == family and set(p) == {a, b}), None)
        assert ev, f"{family} pair {a}/{b} has no flag with evidence"
        precisions.append(len(set(ev[:5]) & logged) / 5)
    assert precisions, f"no {family} pair with 5 logged acts on this table"
    assert max(precisions) >= 0.6, precisions
