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


def test_access_log_records_views_and_exports(store: ReviewStore) -> None:
    store.log_access("vera", "view", "F1")
    store.log_access("rita", "export", "F1", {"sha256": "ab12"})
    store.log_access("rita", "view", "F2")
    log = store.access_log("F1")
    assert [(e["actor"], e["action"], e["case_id"], e["detail"]) for e in log] == [
        ("vera", "view", "F1", None),
        ("rita", "export", "F1", '{"sha256": "ab12"}'),
    ]
    assert all(e["at"] and str(e["at"]).endswith("Z") for e in log)
    assert len(store.access_log()) == 3
    assert store.audit_log() == []  # reads stay out of the audit log that evidence bundles carry
    with pytest.raises(ValueError, match="unknown access action"):
        store.log_access("rita", "edit", "F1")


def test_access_log_cannot_be_rewritten_through_the_store_or_sql(store: ReviewStore) -> None:
    store.log_access("vera", "view", "F1")
    public = [m for m in dir(store) if not m.startswith("_")]
    assert not [m for m in public if any(w in m for w in ("delete", "update", "remove", "clear_access", "edit"))]
    con = sqlite3.connect(store.path)
    for sql in ("UPDATE access_log SET actor = 'mallory'", "DELETE FROM access_log"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            con.execute(sql)
    con.close()
    assert [e["actor"] for e in store.access_log()] == ["vera"]


def test_login_failures_persist_and_clear(store: ReviewStore) -> None:
    def lock(n: int) -> float:
        return 30.0 if n >= 2 else 0.0

    assert store.record_login_failure("user:rita", 100.0, lock, 3600) == (1, 100.0)
    assert store.login_locked_until(["user:rita"], 100.0) is None
    assert store.record_login_failure("user:rita", 101.0, lock, 3600) == (2, 131.0)
    assert ReviewStore(store.path).login_locked_until(["user:rita", "client:x"], 110.0) == 131.0
    assert store.login_locked_until(["user:rita"], 131.5) is None
    assert store.record_login_failure("user:rita", 10_000.0, lock, 3600) == (1, 10_000.0)  # forgotten
    store.clear_login_failures(["user:rita"])
    assert store.record_login_failure("user:rita", 10_001.0, lock, 3600) == (1, 10_001.0)
