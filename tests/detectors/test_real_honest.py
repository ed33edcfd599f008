"""Real honest populations raise no high-severity flag.

Pluribus against five professionals (every hole card known) and the ACPC 2017 heads-up bots are
honest play by construction: nobody there colludes, so anything flagged high is a false positive.
The whole real sample (every site's hands and the tournament files) is honest as far as anyone
knows: no high flag there either, and the low and medium ones are counted per 1,000 players.
"""

from __future__ import annotations

import json

import duckdb
import pytest

from detectors.families import MECHANISM_SPOTS
from detectors.run import Params, detect
from tests.conftest import SHARED, real_data
from warehouse.ingest import ingest_paths

#: the flags of the runs made in one mode (a flag's own mode comes from its hands' data)
OF_MODE = "run_id IN (SELECT run_id FROM detector_runs WHERE mode = ?)"


@pytest.fixture(scope="module")
def honest_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    paths = [real_data("pluribus_raw_pkcore"), real_data("acpc2017_hunl_deepdonkey")]
    db = tmp_path_factory.mktemp("honest") / "w.duckdb"
    ingest_paths(paths, db, progress=False)
    for mode in ("operator", "player"):
        detect(db, Params(mode=mode))
    return str(db)


@pytest.mark.parametrize("mode", ["operator", "player"])
def test_no_high_severity_flags_on_honest_play(honest_db: str, mode: str) -> None:
    con = duckdb.connect(honest_db, read_only=True)
    try:
        players = con.execute("SELECT players FROM detector_runs WHERE mode = ?", [mode]).fetchone()
        high = con.execute(
            f"SELECT family, players, score FROM flags WHERE {OF_MODE} AND severity = 'high'", [mode]
        ).fetchall()
    finally:
        con.close()
    assert players is not None and players[0] >= 10  # the run saw the population
    assert high == []


def test_every_flag_explains_itself(honest_db: str) -> None:
    con = duckdb.connect(honest_db, read_only=True)
    try:
        rows = con.execute(
            "SELECT explanation, benign_explanation, overturn, observed, params, detector_version FROM flags"
        ).fetchall()
    finally:
        con.close()
    for row in rows:
        assert all(x for x in row)


@pytest.fixture(scope="module")
def whole_sample_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    paths = [real_data(), SHARED / "data" / "tournaments"]
    db = tmp_path_factory.mktemp("sample") / "w.duckdb"
    ingest_paths([p for p in paths if p.exists()], db, progress=False)
    for mode in ("operator", "player"):
        detect(db, Params(mode=mode))
    return str(db)


@pytest.mark.parametrize("mode", ["operator", "player"])
def test_whole_real_sample_has_no_high_flag(whole_sample_db: str, mode: str) -> None:
    con = duckdb.connect(whole_sample_db, read_only=True)
    try:
        players = con.execute("SELECT players FROM detector_runs WHERE mode = ?", [mode]).fetchone()
        by_severity = dict(con.execute(
            f"SELECT severity, count(*) FROM flags WHERE {OF_MODE} GROUP BY ALL", [mode]).fetchall())
        labels = con.execute(
            f"""SELECT DISTINCT p FROM (SELECT unnest(players) AS p FROM flags WHERE {OF_MODE})
            WHERE regexp_matches(p, '^(Hero|Big Blind|Small Blind|Dealer|UTG.*|Player ?[0-9]+)$', 'i')""",
            [mode]).fetchall()
    finally:
        con.close()
    assert players is not None and players[0] >= 1000  # the run saw the whole sample
    per_1000 = {k: round(1000 * v / players[0], 2) for k, v in by_severity.items()}
    print(f"{mode}: {players[0]} players, flags per 1,000 players {per_1000}")
    assert by_severity.get("high", 0) == 0, per_1000
    assert labels == []  # seat labels and placeholders are never a flagged "player"


def test_flag_mode_comes_from_the_hands_data(whole_sample_db: str) -> None:
    """An operator-mode run over public exports (the hero's and shown cards only) decides its flags
    without every hole card: those flags say player mode, and an operator flag names its coverage."""
    con = duckdb.connect(whole_sample_db, read_only=True)
    try:
        rows = con.execute(
            """SELECT f.mode, CAST(json_extract(f.observed, '$.operator_hand_share') AS DOUBLE)
            FROM flags f JOIN detector_runs r USING (run_id) WHERE r.mode = 'operator'"""
        ).fetchall()
        public_hands = con.execute("SELECT avg(CASE WHEN hole_cards_mode = 'player' THEN 1 ELSE 0 END) "
                                   "FROM hands").fetchone()
    finally:
        con.close()
    assert public_hands is not None and public_hands[0] > 0.1  # a fifth of the real sample: public exports
    assert rows, "the operator run flagged nothing to check"
    for mode, share in rows:  # no hand with every member dealt in (a ring): no coverage, player mode
        assert mode == ("operator" if share is not None and share >= 0.5 else "player"), (mode, share)
    assert any(mode == "player" for mode, _ in rows)


def test_a_flag_says_when_its_mechanism_never_occurred_between_the_pair(whole_sample_db: str) -> None:
    """On real exports the family model and the flagged partners can name a mechanism the two never
    had a chance to use together (a squeeze flag over 0 squeezes): such a flag says so in its
    explanation, and a flag whose mechanism did occur does not. Only a pair's leading flag (the one
    scored at the pair's score) may name such a mechanism: a second family flag needs a spot."""
    con = duckdb.connect(whole_sample_db, read_only=True)
    try:
        rows = con.execute(
            "SELECT family, explanation, observed, score FROM flags WHERE len(players) = 2 AND family IN ?",
            [list(MECHANISM_SPOTS)]).fetchall()
    finally:
        con.close()
    assert rows, "no pair flag to check"
    unseen = 0
    for family, explanation, observed, score in rows:
        facts = json.loads(observed)
        spots = facts["mechanism_spots"]
        assert set(spots) == set(MECHANISM_SPOTS)
        says_unseen = f"no {MECHANISM_SPOTS[family][1]} between" in explanation
        assert says_unseen == (spots[family] == 0), (family, spots, explanation)
        if says_unseen:
            assert abs(score - facts["pair_score"]) < 1e-3, (family, score, facts["pair_score"])
        unseen += says_unseen
    print(f"{unseen} of {len(rows)} pair flags name a mechanism that never occurred between the pair")
    assert unseen > 0, "no flag on the real sample names an unseen mechanism: the checks above ran on nothing"


def test_a_pair_that_only_played_each_other_is_told_so(whole_sample_db: str) -> None:
    """The ACPC heads-up bots played nobody else: their flags' "than against everyone else" has no
    one to mean, and the explanation says the comparison is with the population's norms."""
    con = duckdb.connect(whole_sample_db, read_only=True)
    try:
        rows = con.execute("SELECT players, explanation, observed FROM flags WHERE len(players) = 2 "
                           "AND family <> 'anomaly'").fetchall()
    finally:
        con.close()
    alone = 0
    for players, explanation, observed in rows:
        others = json.loads(observed)["pots_with_others"]
        says = "no pot with anyone but" in explanation
        assert says == (min(others.values()) == 0), (players, others, explanation)
        alone += says
    assert alone > 0, "no heads-up-only pair flagged: the check ran on nothing"
