"""Local users file: Argon2id hashes (legacy scrypt rehashed on login), no plaintext; login throttling;
role table; OIDC allow-list and token checks."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from dashboards import auth
from dashboards.review_store import ReviewStore, User


def test_users_file_holds_salted_hashes_only(tmp_path: Path) -> None:
    f = tmp_path / "users.json"
    auth.ensure_user(f, "a", "same-password", "viewer")
    auth.ensure_user(f, "b", "same-password", "reviewer")
    raw = f.read_text()
    assert "same-password" not in raw
    users = json.loads(raw)["users"]
    assert users["a"]["algo"] == "argon2id" and users["a"]["hash"].startswith("$argon2id$")
    assert users["a"]["hash"] != users["b"]["hash"]  # each PHC string carries its own salt
    assert f.stat().st_mode & 0o077 == 0
    assert auth.authenticate(f, "a", "same-password") == User("a", "viewer")
    assert auth.authenticate(f, "a", "wrong") is None
    assert auth.authenticate(f, "nobody", "same-password") is None


def test_env_bootstrap_creates_admin_once(tmp_path: Path) -> None:
    f = tmp_path / "users.json"
    assert auth.bootstrap_admin(f, {}) is None
    with pytest.raises(ValueError, match="too short"):
        auth.bootstrap_admin(f, {"FLOORMAN_ADMIN_PASSWORD": "pw1"})
    assert auth.load_users(f) == {}
    assert auth.bootstrap_admin(f, {"FLOORMAN_ADMIN_PASSWORD": "first-admin-pw"}) == User("admin", "admin")
    assert auth.bootstrap_admin(f, {"FLOORMAN_ADMIN_PASSWORD": "second-admin-pw"}) is None
    assert auth.authenticate(f, "admin", "first-admin-pw") == User("admin", "admin")


def test_permissions() -> None:
    assert [auth.can(r, "decide") for r in auth.ROLES] == [False, True, True]
    assert [auth.can(r, "admin") for r in auth.ROLES] == [False, False, True]
    assert [auth.can(r, "export") for r in auth.ROLES] == [False, True, True]
    assert all(auth.can(r, "read") for r in auth.ROLES)
    assert not auth.can("intruder", "read")


def test_export_roles_are_configurable() -> None:
    assert auth.export_roles_from(None) == auth.export_roles_from("") == ("reviewer", "admin")
    assert auth.export_roles_from(" admin ") == ("admin",)
    assert [auth.can(r, "export", ("admin",)) for r in auth.ROLES] == [False, False, True]
    with pytest.raises(ValueError, match="reviewr"):
        auth.export_roles_from("reviewr,admin")


def _legacy_entry(password: str, role: str) -> dict[str, str]:
    """A users-file entry as the previous scrypt scheme wrote it."""
    salt = os.urandom(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=2**14, r=8, p=1, dklen=32)
    return {"role": role, "algo": "scrypt-n16384-r8-p1", "salt": salt.hex(), "hash": digest.hex()}


def test_legacy_scrypt_hash_verifies_and_is_replaced_by_argon2id_on_login(tmp_path: Path) -> None:
    f = tmp_path / "users.json"
    f.write_text(json.dumps({"users": {"old": _legacy_entry("old-pw", "reviewer")}}))
    assert auth.authenticate(f, "old", "wrong") is None
    assert auth.load_users(f)["old"]["algo"] == "scrypt-n16384-r8-p1"  # a failure rewrites nothing
    assert auth.authenticate(f, "old", "old-pw") == User("old", "reviewer")
    entry = auth.load_users(f)["old"]
    assert entry["algo"] == "argon2id" and entry["hash"].startswith("$argon2id$") and "salt" not in entry
    assert f.stat().st_mode & 0o077 == 0
    assert auth.authenticate(f, "old", "old-pw") == User("old", "reviewer")
    assert auth.authenticate(f, "old", "wrong") is None


def test_weaker_argon2_parameters_are_upgraded_on_login(tmp_path: Path) -> None:
    from argon2 import PasswordHasher

    f = tmp_path / "users.json"
    weak = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1).hash("pw")
    f.write_text(json.dumps({"users": {"u": {"role": "viewer", "algo": "argon2id", "hash": weak}}}))
    assert auth.authenticate(f, "u", "pw") == User("u", "viewer")
    upgraded = auth.load_users(f)["u"]["hash"]
    assert upgraded != weak and not auth.HASHER.check_needs_rehash(upgraded)


@pytest.fixture
def one_user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """One user, hashed with cheap Argon2id parameters: these tests count attempts, not cost."""
    from argon2 import PasswordHasher

    monkeypatch.setattr(auth, "HASHER", PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    auth._dummy_hash.cache_clear()
    f = tmp_path / "users.json"
    auth.ensure_user(f, "rita", "right-pw", "reviewer")
    yield f
    auth._dummy_hash.cache_clear()  # the next test gets a dummy hash at the real cost again


def test_five_wrong_passwords_lock_the_user_out_and_the_message_says_when(one_user: Path, tmp_path: Path) -> None:
    store, t0 = ReviewStore(tmp_path / "review.sqlite"), 1_000_000.0
    results = [auth.login(one_user, store, "rita", f"guess-{i}", now=t0 + i) for i in range(5)]
    assert [r.retry_at is None for r in results] == [True, True, True, True, False]
    assert results[0].message() == "Unknown user or wrong password."
    locked_until = t0 + 4 + 30
    assert results[4].retry_at == locked_until
    # the right password is refused (not even checked) while locked; the message names the wait
    refused = auth.login(one_user, store, "rita", "right-pw", now=t0 + 10)
    assert refused.user is None and refused.retry_at == locked_until
    assert refused.message(now=t0 + 10) == "Too many failed log-ins: try again in 24 s (at 13:47:14 UTC)."
    # a restart (a new store object on the same file) keeps the lockout
    assert auth.login(one_user, ReviewStore(store.path), "rita", "right-pw", now=t0 + 20).user is None
    # another user is not affected by rita's lockout
    auth.ensure_user(one_user, "adam", "adam-pw", "admin")
    assert auth.login(one_user, store, "adam", "adam-pw", now=t0 + 20).user == User("adam", "admin")
    # after the lockout: one more wrong password locks again at once, for twice as long
    again = auth.login(one_user, store, "rita", "guess-5", now=locked_until + 1)
    assert again.retry_at == locked_until + 1 + 60
    ok = auth.login(one_user, store, "rita", "right-pw", now=locked_until + 62)
    assert ok.user == User("rita", "reviewer")
    # a successful login resets the count: four wrong passwords later there is still no lock
    later = [auth.login(one_user, store, "rita", "nope", now=locked_until + 70 + i) for i in range(4)]
    assert all(r.retry_at is None for r in later)
    actions = [e["action"] for e in store.audit_log() if e["object"] == "rita"]
    assert actions.count("login.failed") == 10 and actions.count("login.refused") == 2 and actions.count("login") == 1


def test_lockout_back_off_doubles_and_is_capped() -> None:
    assert [auth.lock_seconds(n) for n in (1, 4, 5, 6, 7)] == [0, 0, 30, 60, 120]
    assert auth.lock_seconds(30) == auth.LOCK_MAX


def test_one_client_guessing_many_names_is_locked_out(one_user: Path, tmp_path: Path) -> None:
    store, t0 = ReviewStore(tmp_path / "review.sqlite"), 2_000_000.0
    for i in range(auth.MAX_CLIENT_FAILURES):
        auth.login(one_user, store, f"name-{i}", "x", client="203.0.113.9", now=t0 + i)
    assert auth.login(one_user, store, "rita", "right-pw", client="203.0.113.9", now=t0 + 30).user is None
    assert auth.login(one_user, store, "rita", "right-pw", client="198.51.100.1", now=t0 + 30).user is not None


def test_oidc_allow_list() -> None:
    roles = {"Lead@Site.com": "admin", "@site.com": "viewer"}
    assert auth.oidc_role("lead@site.com", roles) == "admin"
    assert auth.oidc_role("someone@site.com", roles) == "viewer"
    assert auth.oidc_role("x@other.com", roles) is None
    assert auth.oidc_role(None, roles) is None


def test_oidc_token_expiry_and_verified_email() -> None:
    roles = {"@site.com": "reviewer"}
    now = 1_700_000_000.0
    good = {"email": "rita@site.com", "email_verified": True, "exp": now + 600}
    assert auth.oidc_user(good, roles, now=now) == (User("rita@site.com", "reviewer"), "")
    assert auth.oidc_user({**good, "exp": now - 30}, roles, now=now)[0] is not None  # within the leeway
    user, why = auth.oidc_user({**good, "exp": now - 120}, roles, now=now)
    assert user is None and "expired" in why
    assert auth.oidc_user({k: v for k, v in good.items() if k != "exp"}, roles, now=now)[0] is None
    for unverified in (False, "false"):
        user, why = auth.oidc_user({**good, "email_verified": unverified}, roles, now=now)
        assert user is None and "not verified" in why
    # providers that do not send the claim at all are not refused for it
    assert auth.oidc_user({k: v for k, v in good.items() if k != "email_verified"}, roles, now=now)[0] is not None
    assert auth.oidc_user({**good, "email": "x@other.com"}, roles, now=now)[1].endswith("ask an admin.")


def test_session_cookie_is_signed_expiring_and_revocable(tmp_path: Path) -> None:
    users = tmp_path / "users.json"
    auth.ensure_user(users, "rita", "pw-rita-1", "reviewer")
    secret = auth.session_secret(tmp_path, env={})
    assert (tmp_path / "session.key").stat().st_mode & 0o077 == 0
    assert auth.session_secret(tmp_path, env={}) == secret  # kept: sessions survive a restart
    revoked = auth.Revocations(tmp_path / "sessions.sqlite")
    token = auth.issue_session(secret, "rita", now=1000.0, ttl=60)
    assert auth.restore_session(users, secret, revoked, token, now=1010.0) == User("rita", "reviewer")
    assert auth.restore_session(users, secret, revoked, token, now=1061.0) is None  # expired
    other = auth.session_secret(tmp_path / "elsewhere", env={})
    assert auth.restore_session(users, other, revoked, token, now=1010.0) is None  # another server's key
    parts = token.split(".")
    forged = ".".join([parts[0], auth._b64(b"adam"), *parts[2:]])
    assert auth.restore_session(users, secret, revoked, forged, now=1010.0) is None
    longer = ".".join([*parts[:2], "99999999", *parts[3:]])
    assert auth.restore_session(users, secret, revoked, longer, now=1010.0) is None
    assert auth.restore_session(users, secret, revoked, "garbage", now=1010.0) is None
    # the role comes from the users file now, not from when the cookie was issued
    auth.ensure_user(users, "rita", "pw-rita-1", "viewer")
    assert auth.restore_session(users, secret, revoked, token, now=1010.0) == User("rita", "viewer")
    read = auth.read_session(secret, token, now=1010.0)
    assert read is not None
    revoked.revoke(read, now=1010.0)
    assert auth.restore_session(users, secret, revoked, token, now=1010.0) is None  # logged out
    fresh = auth.issue_session(secret, "rita", now=1010.0, ttl=60)
    assert auth.restore_session(users, secret, revoked, fresh, now=1011.0) == User("rita", "viewer")
    auth.remove_user(users, "rita")
    assert auth.restore_session(users, secret, revoked, fresh, now=1011.0) is None


def test_session_secret_from_the_environment(tmp_path: Path) -> None:
    assert auth.session_secret(tmp_path, env={"FLOORMAN_SESSION_SECRET": "s3"}) == b"s3"
    assert not (tmp_path / "session.key").exists()
