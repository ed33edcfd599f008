"""Review store: WAL mode, role checks, and an audit log no role (nor raw SQL) can rewrite."""

from __future__ import annotations

import sqlite3

import pytest

from dashboards.review_store import PermissionDenied, ReviewStore, User

RITA = User("rita", "reviewer")


def test_wal_mode(store: ReviewStore) -> None:
    assert store.journal_mode() == "wal"


def test_decision_updates_status_and_logs_previous_state(store: ReviewStore) -> None:
    store.decide("F1", "escalate", "needs a second look", RITA)
    store.decide("F1", "confirm", "same pattern in 40 more hands", User("adam", "admin"))
    assert store.status("F1") == "confirmed"
    log = store.audit_log("F1")
    assert [(e["actor"], e["action"], e["previous"]) for e in log] == [
        ("rita", "case.escalate", '{"status": "open"}'),
        ("adam", "case.confirm", '{"status": "escalated"}'),
    ]
    assert [d.decision for d in store.decisions("F1")] == ["escalate", "confirm"]


def test_viewer_cannot_decide(store: ReviewStore) -> None:
    with pytest.raises(PermissionDenied):
        store.decide("F1", "dismiss", "looks fine", User("vera", "viewer"))
    assert store.decisions("F1") == [] and store.audit_log() == []


@pytest.mark.parametrize("sql", [
    "UPDATE audit_log SET actor = 'mallory'",
    "DELETE FROM audit_log",
    "UPDATE decisions SET reason = 'edited'",
    "DELETE FROM decisions",
])
def test_append_only_tables_raise_on_update_and_delete(store: ReviewStore, sql: str) -> None:
    store.decide("F1", "dismiss", "benign", RITA)
    con = sqlite3.connect(store.path)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        con.execute(sql)
    con.close()
    assert len(store.audit_log()) == 1 and store.decisions("F1")[0].reason == "benign"


def test_workload(store: ReviewStore) -> None:
    store.assign("F2", "rita", User("adam", "admin"))
    store.decide("F1", "dismiss", "benign", RITA)
    assert store.workload() == {"rita": {"decisions": 1, "assigned_open": 1}}
