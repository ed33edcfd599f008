"""A floor ruling recorded against a rule finding (issue 13): append-only in the review store, one of
the finding's allowed outcomes or free text with a reason, and carried by the evidence export.

Real review store (SQLite), real warehouse snapshot of the dashboard tests, real bundle build.
"""

from __future__ import annotations

import io
import sqlite3
import zipfile
from pathlib import Path

import duckdb
import polars as pl
import pytest

from dashboards import evidence
from dashboards.review_store import PermissionDenied, ReviewStore, User, finding_key
from tests.dashboards.warehouse_fixture import build_warehouse

RITA = User("rita", "reviewer")
UNDER = "full_call|forfeit_undercall_and_fold"


@pytest.fixture
def store(tmp_path: Path) -> ReviewStore:
    return ReviewStore(tmp_path / "review.sqlite")


def test_key_names_one_rule_at_one_action() -> None:
    assert finding_key("cep:1", 6, "UNDERCALL.FULL_CALL") == "cep:1#6#UNDERCALL.FULL_CALL"
    assert finding_key("cep:1", None, "POT.CHIP_CONSERVATION") == "cep:1#-#POT.CHIP_CONSERVATION"


def test_ruling_from_the_allowed_outcomes_or_free_text_with_a_reason(store: ReviewStore) -> None:
    key = finding_key("cep:1", 6, "UNDERCALL.FULL_CALL")
    first = store.record_ruling(key, "full_call", RITA, UNDER)
    assert first.allowed and first.actor == "rita"
    with pytest.raises(ValueError, match="note"):
        store.record_ruling(key, "split the difference", RITA, UNDER)
    free = store.record_ruling(key, "split the difference", RITA, UNDER, note="dealer miscounted, agreed by both")
    assert not free.allowed
    assert [(r.ruling, r.allowed) for r in store.rulings([key])] == [("full_call", True),
                                                                      ("split the difference", False)]
    assert store.rulings(["other#1#X"]) == [] and store.rulings([]) == []
    assert [e["action"] for e in store.audit_log(key)] == ["finding.ruling", "finding.ruling"]


def test_viewers_may_not_rule_and_rulings_cannot_be_rewritten(store: ReviewStore) -> None:
    key = finding_key("cep:1", 2, "ACTION.ORDER")
    with pytest.raises(PermissionDenied):
        store.record_ruling(key, "action_binding", User("vera", "viewer"), "action_binding")
    store.record_ruling(key, "action_binding", RITA, "action_binding|action_binding_with_penalty")
    con = sqlite3.connect(store.path)
    try:
        for sql in ("UPDATE floor_rulings SET ruling = 'x'", "DELETE FROM floor_rulings"):
            with pytest.raises(sqlite3.DatabaseError, match="append-only"):
                con.execute(sql)
    finally:
        con.close()
    assert [r.ruling for r in store.rulings([key])] == ["action_binding"]


def test_evidence_bundle_carries_the_rulings_on_its_hands_findings(tmp_path: Path, store: ReviewStore) -> None:
    snap = build_warehouse(tmp_path / "snap.duckdb", tmp_path / "landing")
    case = "F-chip-001"
    hands = list(evidence.collect(snap, case, None).rows["violations"].iter_rows(named=True))
    assert hands, "the fixture's evidence hands carry rule findings"
    v = hands[0]
    key = finding_key(v["hand_id"], v["action_seq"], v["rule_id"])
    store.record_ruling(key, "raise stands as the minimum", RITA, v.get("allowed_outcomes"),
                        note="floor corrected the raise at the table")
    store.record_ruling(finding_key("pokerstars:9999", 1, "RAISE.MIN"), "x", RITA, note="not in this case")
    blob = evidence.build_bundle(snap, case, store)
    assert evidence.verify_bundle(blob) == []
    assert evidence.build_bundle(snap, case, store) == blob  # still byte-identical on rebuild
    with zipfile.ZipFile(io.BytesIO(blob)) as z:
        rulings = pl.read_csv(z.read("floor_rulings.csv"))
        html = z.read("report.html").decode()
    assert rulings["finding_key"].to_list() == [key]  # only the case's own findings
    assert rulings.row(0, named=True)["note"] == "floor corrected the raise at the table"
    assert "Floor rulings on rule findings" in html and "raise stands as the minimum" in html
    # without rulings the file is there, empty, so the bundle's layout does not depend on the store
    with zipfile.ZipFile(io.BytesIO(evidence.build_bundle(snap, case, None))) as z:
        assert pl.read_csv(z.read("floor_rulings.csv")).height == 0
    con = duckdb.connect(str(snap), read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM violations WHERE hand_id = ?", [v["hand_id"]]).fetchone()[0] >= 1
    finally:
        con.close()


def test_violations_export_carries_the_ruling_in_force(tmp_path: Path, store: ReviewStore,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """`floorman violations --review-store`: each finding with the floor's last ruling on it (Build item 3)."""
    import dataclasses
    import json

    from pipelines.cli_rules import RULING_FIELDS, main
    from tests.rules.test_severity import _undercall_facing_raise, _warehouse

    live = dataclasses.replace(_undercall_facing_raise(1000), hand_id="cep-room:1", site="cep-room", site_hand_no="1")
    db_path = tmp_path / "w.duckdb"
    _warehouse(db_path, [live])
    assert main(["check", "--db", str(db_path)]) == 0
    capsys.readouterr()
    key = finding_key("cep-room:1", 6, "UNDERCALL.FULL_CALL")
    store.record_ruling(key, "forfeit_undercall_and_fold", RITA, UNDER)
    store.record_ruling(key, "full_call", RITA, UNDER)  # the later ruling is the one in force
    assert main(["violations", "--db", str(db_path), "--review-store", str(store.path)]) == 0
    rows = json.loads(capsys.readouterr().out)
    (ruled,) = [r for r in rows if finding_key(r["hand_id"], r["action_seq"], r["rule_id"]) == key]
    assert (ruled["severity"], ruled["floor_ruling"], ruled["floor_ruling_allowed"], ruled["floor_ruled_by"]) == (
        "review", "full_call", True, "rita")
    assert all(r["floor_ruling"] is None for r in rows if r is not ruled)
    assert main(["violations", "--db", str(db_path), "--review-store", str(store.path), "--format", "csv"]) == 0
    header = capsys.readouterr().out.splitlines()[0].split(",")
    assert header[-len(RULING_FIELDS):] == list(RULING_FIELDS)
    assert main(["violations", "--db", str(db_path)]) == 0
    assert "floor_ruling" not in capsys.readouterr().out  # without a store, the export is unchanged
