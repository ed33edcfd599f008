"""Who is using the dashboard and what their role allows.

Two ways in: the embedded default keeps users in a local JSON file with salted scrypt hashes
(works offline, for a single host and the demo); for a real deployment, OpenID Connect through
``st.login`` (configure ``[auth]`` in ``.streamlit/secrets.toml``, see secrets.toml.example) with
roles assigned by e-mail in ``[floorman.roles]``. OIDC authenticates; the allow-list authorises.
Roles: viewer (read), reviewer (read + decide), admin (also users and settings).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from pathlib import Path
from typing import Any

from dashboards.review_store import User

ROLES = ("viewer", "reviewer", "admin")
#: scrypt parameters (~16 MiB, tens of ms per check: slow for guessing, fine for a login form)
SCRYPT = {"n": 2**14, "r": 8, "p": 1, "dklen": 32}
ALGO = "scrypt-n16384-r8-p1"


def can(role: str, action: str) -> bool:
    """The permission table: read for all, decide for reviewer and admin, admin for admin."""
    allowed = {"read": ROLES, "decide": ("reviewer", "admin"), "admin": ("admin",)}
    return role in allowed.get(action, ())


def hash_password(password: str, salt: bytes) -> bytes:
    return hashlib.scrypt(password.encode("utf-8"), salt=salt, **SCRYPT)


def load_users(users_file: Path) -> dict[str, dict[str, Any]]:
    if not users_file.exists():
        return {}
    data = json.loads(users_file.read_text(encoding="utf-8"))
    return dict(data.get("users", {}))


def _save_users(users_file: Path, users: dict[str, dict[str, Any]]) -> None:
    """Atomic replace, owner-only permissions (the file holds password hashes)."""
    users_file.parent.mkdir(parents=True, exist_ok=True)
    tmp = users_file.with_name(f".{users_file.name}.tmp")
    tmp.write_text(json.dumps({"users": users}, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    tmp.chmod(0o600)
    os.replace(tmp, users_file)


def ensure_user(users_file: Path | str, name: str, password: str, role: str) -> User:
    """Create the user or reset their password and role (idempotent bootstrap for CLI and demo)."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}; expected one of {', '.join(ROLES)}")
    if not name.strip() or not password:
        raise ValueError("user name and password must not be empty")
    users_file = Path(users_file)
    users = load_users(users_file)
    salt = os.urandom(16)
    users[name] = {"role": role, "algo": ALGO, "salt": salt.hex(), "hash": hash_password(password, salt).hex()}
    _save_users(users_file, users)
    return User(name, role)


def remove_user(users_file: Path | str, name: str) -> bool:
    users_file = Path(users_file)
    users = load_users(users_file)
    if name not in users:
        return False
    del users[name]
    _save_users(users_file, users)
    return True


def authenticate(users_file: Path | str, name: str, password: str) -> User | None:
    """The user when the password matches (constant-time compare), else None."""
    entry = load_users(Path(users_file)).get(name)
    if entry is None or entry.get("algo") != ALGO:
        hash_password(password, b"\0" * 16)  # same cost whether or not the name exists
        return None
    if hmac.compare_digest(hash_password(password, bytes.fromhex(entry["salt"])), bytes.fromhex(entry["hash"])):
        return User(name, str(entry["role"]))
    return None


def bootstrap_admin(users_file: Path | str, env: dict[str, str] | None = None) -> User | None:
    """Demo bootstrap: FLOORMAN_ADMIN_PASSWORD creates user 'admin' when no admin exists yet."""
    env = dict(os.environ) if env is None else env
    password = env.get("FLOORMAN_ADMIN_PASSWORD")
    if not password:
        return None
    users = load_users(Path(users_file))
    if any(u.get("role") == "admin" for u in users.values()):
        return None
    return ensure_user(users_file, env.get("FLOORMAN_ADMIN_USER", "admin"), password, "admin")


def oidc_role(email: str | None, roles: dict[str, str]) -> str | None:
    """Role for an OIDC identity from the allow-list (exact e-mail, else '@domain'); None: no access."""
    if not email:
        return None
    email = email.lower()
    lowered = {k.lower(): v for k, v in roles.items()}
    role = lowered.get(email) or lowered.get("@" + email.rsplit("@", 1)[-1])
    return role if role in ROLES else None
