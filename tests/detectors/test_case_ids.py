"""Cases keep their id across nightly runs, and a screen name is only an identity on one site.

A small simulated site is detected twice: the same (mode, family, players) must come back under
the same flag_id (the review queue keeps one case, the run report can say new vs updated). Then
every hand is copied onto a second site with the same screen names: the copies must give
separate players ("site:name"), no pair across sites, and cases with ids of their own.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from detectors.run import Params, apply_schema, detect, plain_name, stable_flag_id

simulator = pytest.importorskip("simulator.run")

LOW = Params(mode="operator", budget_share=0.3)  # many flags, so the comparison is not vacuous


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from warehouse.ingest import ingest_paths

    base = tmp_path_factory.mktemp("ids")
    cfg = simulator.Config(hands=3000, seed=11, tables=2, players=14, operator_mode=True)
    simulator.simulate(cfg, base / "hh", base / "truth.json")
    db = base / "w.duckdb"
    ingest_paths([base / "hh"], db, progress=False)
    return db


def _run_flags(con: duckdb.DuckDBPyConnection, run_id: str) -> dict[tuple[str, tuple[str, ...]], str]:
    rows = con.execute(
        "SELECT family, CAST(observed->'$.player_keys' AS VARCHAR[]), flag_id FROM flags WHERE run_id = ?",
        [run_id],
    ).fetchall()
    return {(fam, tuple(sorted(keys))): fid for fam, keys, fid in rows}


def test_flag_ids_are_stable_across_runs(site: Path) -> None:
    first = detect(site, LOW)
    second = detect(site, LOW)
    con = duckdb.connect(str(site), read_only=True)
    try:
        a, b = _run_flags(con, first.run_id), _run_flags(con, second.run_id)
        shown = con.execute("SELECT players, CAST(observed->'$.player_keys' AS VARCHAR[]) FROM flags WHERE run_id = ?",
                            [first.run_id]).fetchall()
    finally:
        con.close()
    assert len(a) >= 5 and first.run_id != second.run_id
    assert a == b  # same cases, same ids
    assert len(set(a.values())) == len(a)  # one id per case
    # the id is the hash of what defines the case, not of the run
    for (fam, keys), fid in a.items():
        assert fid == stable_flag_id("operator", fam, list(keys))
    # flags show screen names; the keys carry the site
    for players, keys in shown:
        assert all(":" not in p for p in players) and all(":" in k for k in keys)


def test_same_name_on_two_sites_is_two_players(site: Path, tmp_path: Path) -> None:
    db = tmp_path / "two_sites.duckdb"
    con = duckdb.connect(str(db))
    try:
        con.execute(f"ATTACH '{site}' AS src (READ_ONLY)")
        for t in ("hands", "seats", "actions", "hole_cards", "boards", "awards"):
            con.execute(f"CREATE TABLE {t} AS SELECT * FROM src.{t}")
            con.execute(f"INSERT INTO {t} SELECT * REPLACE ('other' || hand_id AS hand_id) FROM src.{t}")
        con.execute("UPDATE hands SET site = 'othersite' WHERE hand_id LIKE 'other%'")
        con.execute("DETACH src")
        sites = con.execute("SELECT DISTINCT site FROM hands ORDER BY 1").fetchall()
        assert len(sites) == 2
        run = detect("", LOW, con=con)
        names = con.execute("SELECT count(DISTINCT player) FROM seats").fetchone()
        keys = con.execute(
            "SELECT count(DISTINCT player), count(DISTINCT split_part(player, ':', 1)) FROM player_stats "
            "WHERE run_id = ?", [run.run_id]).fetchone()
        mixed = con.execute(
            "SELECT count(*) FROM pair_stats WHERE run_id = ? "
            "AND split_part(player_a, ':', 1) <> split_part(player_b, ':', 1)", [run.run_id]).fetchone()
        flags = _run_flags(con, run.run_id)
    finally:
        con.close()
    assert names is not None and keys is not None and mixed is not None
    assert keys == (2 * names[0], 2)  # every screen name twice, once per site
    assert mixed[0] == 0  # nobody shares a hand across sites
    by_site: dict[str, set[tuple[str, tuple[str, ...]]]] = {}
    for fam, ks in flags:
        by_site.setdefault(ks[0].split(":", 1)[0], set()).add((fam, tuple(plain_name(k) for k in ks)))
    assert len(by_site) == 2  # the copied site has its own cases, under their own ids
    assert len(set(flags.values())) == len(flags)


def test_plain_name_keeps_colons_in_screen_names() -> None:
    assert plain_name("pokerstars:Hero") == "Hero"
    assert plain_name("ipoker:a:b") == "a:b"
    ab = stable_flag_id("operator", "squeeze", ["s:a", "s:b"])
    assert ab == stable_flag_id("operator", "squeeze", ["s:b", "s:a"])
    assert ab != stable_flag_id("operator", "squeeze", ["t:a", "t:b"])
    assert ab != stable_flag_id("player", "squeeze", ["s:a", "s:b"])


def test_old_flags_table_is_rekeyed_with_rows_kept() -> None:
    """A warehouse from before stable ids (flags keyed on flag_id alone) takes a second night."""
    con = duckdb.connect()
    con.execute("CREATE TABLE flags (flag_id VARCHAR PRIMARY KEY, run_id VARCHAR NOT NULL, family VARCHAR NOT NULL, "
                "players VARCHAR[] NOT NULL, score DOUBLE NOT NULL, severity VARCHAR NOT NULL, mode VARCHAR NOT NULL, "
                "explanation VARCHAR NOT NULL, evidence_hands VARCHAR[] NOT NULL, observed JSON, "
                "benign_explanation VARCHAR, overturn VARCHAR, detector_version VARCHAR NOT NULL, params JSON, "
                "created_at TIMESTAMP NOT NULL, first_hand_at TIMESTAMP, last_hand_at TIMESTAMP)")
    row = ("INSERT INTO flags (flag_id, run_id, family, players, score, severity, mode, explanation, evidence_hands, "
           "detector_version, created_at) "
           "VALUES ('f', ?, 'squeeze', ['a', 'b'], 0.5, 'low', 'operator', '', [], '1', now())")
    con.execute(row, ["night1"])
    apply_schema(con)
    con.execute(row, ["night2"])
    assert con.execute("SELECT run_id FROM flags ORDER BY 1").fetchall() == [("night1",), ("night2",)]
    with pytest.raises(duckdb.ConstraintException):
        con.execute(row, ["night2"])
