"""Evidence export limited by role (in the function the page calls, not only the page) and the
access log of case views and exports."""

from __future__ import annotations

from pathlib import Path

import pytest

from dashboards import access, evidence
from dashboards.review_store import PermissionDenied, ReviewStore, User

VERA, RITA, ADAM = User("vera", "viewer"), User("rita", "reviewer"), User("adam", "admin")


def test_viewer_cannot_build_the_bundle_and_the_refusal_is_logged(
    snapshot: Path, store: ReviewStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    def never(*args: object, **kwargs: object) -> bytes:
        raise AssertionError("the bundle must not be built for a refused role")

    monkeypatch.setattr(evidence, "build_bundle", never)
    with pytest.raises(PermissionDenied, match="vera"):
        access.export_case(VERA, snapshot, "F-chip-001", store)
    assert [(e["actor"], e["action"]) for e in store.access_log("F-chip-001")] == [("vera", "export.refused")]


def test_reviewer_export_is_logged_with_the_bundle_hash(snapshot: Path, store: ReviewStore) -> None:
    import hashlib

    blob = access.export_case(RITA, snapshot, "F-chip-001", store)
    assert blob[:2] == b"PK"
    [entry] = store.access_log("F-chip-001")
    assert (entry["actor"], entry["action"]) == ("rita", "export")
    assert hashlib.sha256(blob).hexdigest() in str(entry["detail"])


def test_export_roles_are_configurable(snapshot: Path, store: ReviewStore) -> None:
    assert access.may_export(RITA) and access.may_export(ADAM) and not access.may_export(VERA)
    with pytest.raises(PermissionDenied):
        access.export_case(RITA, snapshot, "F-chip-001", store, roles=("admin",))
    assert access.export_case(ADAM, snapshot, "F-chip-001", store, roles=("admin",))[:2] == b"PK"


def test_a_case_view_is_logged_once_per_arrival(store: ReviewStore) -> None:
    session: dict[str, object] = {}
    assert access.log_view(store, VERA, "F1", session)
    assert not access.log_view(store, VERA, "F1", session)  # a rerun of the same page
    assert access.log_view(store, VERA, "F2", session)
    assert access.log_view(store, VERA, "F1", session)  # back to F1: a new view
    assert [(e["actor"], e["action"], e["case_id"]) for e in store.access_log()] == [
        ("vera", "view", "F1"), ("vera", "view", "F2"), ("vera", "view", "F1"),
    ]
