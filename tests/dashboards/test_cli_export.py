"""``floorman export`` / ``verify-export`` / ``users`` through the real CLI entry point."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from dashboards.auth import authenticate
from dashboards.review_store import User
from pipelines.cli import main


def test_export_twice_gives_identical_verified_zip(snapshot: Path, tmp_path: Path, capsys) -> None:
    a, b = tmp_path / "a.zip", tmp_path / "b.zip"
    review = tmp_path / "none.sqlite"
    assert main(["export", "F-chip-001", "--db", str(snapshot), "--out", str(a), "--review-db", str(review)]) == 0
    assert main(["export", "F-chip-001", "--db", str(snapshot), "--out", str(b), "--review-db", str(review)]) == 0
    assert a.read_bytes() == b.read_bytes()
    assert hashlib.sha256(a.read_bytes()).hexdigest() in capsys.readouterr().out
    assert main(["verify-export", str(a)]) == 0


def test_export_unknown_case_fails(snapshot: Path, tmp_path: Path, capsys) -> None:
    assert main(["export", "nope", "--db", str(snapshot), "--out", str(tmp_path)]) == 1
    assert "case nope is not a flag" in capsys.readouterr().err


def test_users_add(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    f = tmp_path / "users.json"
    monkeypatch.setenv("FLOORMAN_NEW_PASSWORD", "pw-123456")
    assert main(["users", "add", "rita", "--role", "reviewer", "--users", str(f)]) == 0
    assert authenticate(f, "rita", "pw-123456") == User("rita", "reviewer")


def test_users_add_refuses_a_short_password(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    f = tmp_path / "users.json"
    monkeypatch.setenv("FLOORMAN_NEW_PASSWORD", "abcde")
    assert main(["users", "add", "rita", "--role", "reviewer", "--users", str(f)]) == 1
    assert "password too short: 5 characters, at least 8 needed" in capsys.readouterr().err
    assert not f.exists()  # nobody was saved


def test_cli_export_goes_to_the_access_log(snapshot: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dashboards.review_store import ReviewStore

    store = ReviewStore(tmp_path / "review.sqlite")
    monkeypatch.setenv("USER", "ops")
    assert main(["export", "F-chip-001", "--db", str(snapshot), "--out", str(tmp_path), "--review-db",
                 str(store.path)]) == 0
    [entry] = store.access_log("F-chip-001")
    assert (entry["actor"], entry["action"]) == ("cli:ops", "export")
    assert store.audit_log("F-chip-001") == []


def test_users_add_writes_argon2id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dashboards.auth import load_users

    f = tmp_path / "users.json"
    monkeypatch.setenv("FLOORMAN_NEW_PASSWORD", "pw-123456")
    assert main(["users", "add", "nina", "--role", "viewer", "--users", str(f)]) == 0
    assert load_users(f)["nina"]["hash"].startswith("$argon2id$")


def test_export_of_a_case_with_chinese_names(tmp_path: Path, capsys) -> None:
    """The Done-when line of issue 14: the names are in the PDF's text and a rebuild is identical."""
    import zipfile

    from tests.dashboards.real_fixture import CASE, NAMES, build_real_warehouse, pdf_text

    db, _ = build_real_warehouse(tmp_path / "real.duckdb")
    a, b = tmp_path / "a.zip", tmp_path / "b.zip"
    review = tmp_path / "none.sqlite"
    for out in (a, b):
        assert main(["export", CASE, "--db", str(db), "--out", str(out), "--review-db", str(review)]) == 0
    assert a.read_bytes() == b.read_bytes()
    assert main(["verify-export", str(a)]) == 0
    text = pdf_text(zipfile.ZipFile(a).read("report.pdf"), tmp_path)
    assert all(name in text for name in NAMES)
