"""Local users file: salted scrypt hashes, no plaintext; role table; OIDC allow-list."""

from __future__ import annotations

import json
from pathlib import Path

from dashboards import auth
from dashboards.review_store import User


def test_users_file_holds_salted_hashes_only(tmp_path: Path) -> None:
    f = tmp_path / "users.json"
    auth.ensure_user(f, "a", "same-password", "viewer")
    auth.ensure_user(f, "b", "same-password", "reviewer")
    raw = f.read_text()
    assert "same-password" not in raw
    users = json.loads(raw)["users"]
    assert users["a"]["salt"] != users["b"]["salt"] and users["a"]["hash"] != users["b"]["hash"]
    assert f.stat().st_mode & 0o077 == 0
    assert auth.authenticate(f, "a", "same-password") == User("a", "viewer")
    assert auth.authenticate(f, "a", "wrong") is None
    assert auth.authenticate(f, "nobody", "same-password") is None


def test_env_bootstrap_creates_admin_once(tmp_path: Path) -> None:
    f = tmp_path / "users.json"
    assert auth.bootstrap_admin(f, {}) is None
    assert auth.bootstrap_admin(f, {"FLOORMAN_ADMIN_PASSWORD": "pw1"}) == User("admin", "admin")
    assert auth.bootstrap_admin(f, {"FLOORMAN_ADMIN_PASSWORD": "pw2"}) is None
    assert auth.authenticate(f, "admin", "pw1") == User("admin", "admin")


def test_permissions() -> None:
    assert [auth.can(r, "decide") for r in auth.ROLES] == [False, True, True]
    assert [auth.can(r, "admin") for r in auth.ROLES] == [False, False, True]
    assert all(auth.can(r, "read") for r in auth.ROLES)
    assert not auth.can("intruder", "read")


def test_oidc_allow_list() -> None:
    roles = {"Lead@Site.com": "admin", "@site.com": "viewer"}
    assert auth.oidc_role("lead@site.com", roles) == "admin"
    assert auth.oidc_role("someone@site.com", roles) == "viewer"
    assert auth.oidc_role("x@other.com", roles) is None
    assert auth.oidc_role(None, roles) is None
