"""Fixtures for dashboard tests: a hand-checked warehouse snapshot and a review store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Keep each phase's report on the test item, so fixtures (the e2e browser) know a test failed."""
    outcome: Any = yield
    rep = outcome.get_result()
    setattr(item, f"rep_{rep.when}", rep)
