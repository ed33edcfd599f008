"""Fixtures for dashboard tests: a hand-checked warehouse snapshot and a review store."""

from __future__ import annotations

from pathlib import Path

import pytest

from dashboards.auth import ensure_user
from dashboards.review_store import ReviewStore
from tests.dashboards.warehouse_fixture import build_warehouse


@pytest.fixture(scope="session")
def warehouse_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("wh")
    build_warehouse(root / "snap-1.duckdb", root / "landing")
    return root


@pytest.fixture
def snapshot(warehouse_dir: Path) -> Path:
    return warehouse_dir / "snap-1.duckdb"


USERS = {"vera": ("viewer", "viewer-pw"), "rita": ("reviewer", "reviewer-pw"), "adam": ("admin", "admin-pw")}


@pytest.fixture
def store(tmp_path: Path) -> ReviewStore:
    return ReviewStore(tmp_path / "review.sqlite")


@pytest.fixture(scope="session")
def users_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("users") / "users.json"
    for name, (role, pw) in USERS.items():
        ensure_user(path, name, pw, role)
    return path
