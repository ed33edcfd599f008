"""Who is using the dashboard and what their role allows.

Two ways in: the embedded default keeps users in a local JSON file with Argon2id hashes (works
offline, for a single host and the demo); for a real deployment, OpenID Connect through
``st.login`` (configure ``[auth]`` in ``.streamlit/secrets.toml``, see secrets.toml.example) with
roles assigned by e-mail in ``[floorman.roles]``. OIDC authenticates; the allow-list authorises.
Roles: viewer (read), reviewer (read + decide + export), admin (also users and settings).

Why Argon2id with rehash on login: the older salted scrypt hashes (N=2^14, below OWASP's minimum)
still verify, and each is replaced by an Argon2id hash the next time its owner logs in, so no
password reset is needed. Why the lockout lives in the review store: a restart must not hand an
attacker a fresh set of guesses.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import math
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from dashboards.review_store import ReviewStore, User

ROLES = ("viewer", "reviewer", "admin")
#: Argon2id, RFC 9106's low-memory profile (t=3, 64 MiB, p=4): above OWASP's minimum
HASHER = PasswordHasher()
ALGO = "argon2id"
#: the previous scheme: verified, then replaced by Argon2id on the next successful login
LEGACY_SCRYPT = {"n": 2**14, "r": 8, "p": 1, "dklen": 32}
LEGACY_ALGO = "scrypt-n16384-r8-p1"
#: who may build and download evidence bundles unless FLOORMAN_EXPORT_ROLES says otherwise
EXPORT_ROLES = ("reviewer", "admin")

#: wrong passwords for one user name, and from one client address, before a lockout
MAX_FAILURES = 5
MAX_CLIENT_FAILURES = 20
#: the first lockout; each further failure doubles it, up to LOCK_MAX
LOCK_BASE = 30.0
LOCK_MAX = 3600.0
#: a day without failures forgets the count
FORGET_AFTER = 86400.0
#: clock skew tolerated on an ID token's ``exp``
OIDC_LEEWAY = 60.0


def can(role: str, action: str, export_roles: tuple[str, ...] = EXPORT_ROLES) -> bool:
    """The permission table: read for all, decide for reviewer and admin, admin for admin,
    export for ``export_roles`` (configurable, see ``export_roles_from``)."""
    allowed = {"read": ROLES, "decide": ("reviewer", "admin"), "admin": ("admin",), "export": export_roles}
    return role in allowed.get(action, ())


def export_roles_from(value: str | None) -> tuple[str, ...]:
    """Roles named in FLOORMAN_EXPORT_ROLES (comma-separated); unset or empty: the default."""
    named = tuple(r.strip() for r in (value or "").split(",") if r.strip())
    unknown = [r for r in named if r not in ROLES]
    if unknown:
        raise ValueError(f"FLOORMAN_EXPORT_ROLES: unknown role(s) {', '.join(unknown)}; expected {', '.join(ROLES)}")
    return named or EXPORT_ROLES


def hash_password(password: str) -> str:
    """A new Argon2id hash (PHC string: algorithm, parameters, salt and hash in one)."""
    return HASHER.hash(password)


def _scrypt(password: str, salt: bytes) -> bytes:
    return hashlib.scrypt(password.encode("utf-8"), salt=salt, **LEGACY_SCRYPT)


@lru_cache(maxsize=1)
def _dummy_hash() -> str:
    return HASHER.hash("not a password")


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


#: the shortest password a person may set (NIST SP 800-63B's floor for chosen passwords)
MIN_PASSWORD_LENGTH = 8


def check_new_password(password: str) -> None:
    """Refuse a password a person is about to set that is too short to resist guessing.

    Why here and not in ``ensure_user``: the demo's and tests' fixed logins go through
    ``ensure_user``; the places where a person types a password (``floorman users add``, the admin
    page, the admin bootstrap from the environment) call this first."""
    if len(password) < MIN_PASSWORD_LENGTH:
        raise ValueError(f"password too short: {len(password)} characters, at least {MIN_PASSWORD_LENGTH} needed")


def ensure_user(users_file: Path | str, name: str, password: str, role: str) -> User:
    """Create the user or reset their password and role (idempotent bootstrap for CLI and demo)."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}; expected one of {', '.join(ROLES)}")
    if not name.strip() or not password:
        raise ValueError("user name and password must not be empty")
    users_file = Path(users_file)
    users = load_users(users_file)
    users[name] = {"role": role, "algo": ALGO, "hash": hash_password(password)}
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
    """The user when the password matches, else None; a legacy or outdated hash that matches is
    replaced by a fresh Argon2id one."""
    users_file = Path(users_file)
    entry = load_users(users_file).get(name)
    ok, stale = _verify(entry, password)
    if not ok or entry is None:
        return None
    if stale:
        _rehash(users_file, name, str(entry["hash"]), password)
    return User(name, str(entry["role"]))


def _verify(entry: Mapping[str, Any] | None, password: str) -> tuple[bool, bool]:
    """(matches, needs a new hash). Unknown names pay one Argon2id check too, so timing does not
    tell which names exist."""
    algo = None if entry is None else entry.get("algo")
    if entry is not None and algo == ALGO:
        try:
            HASHER.verify(str(entry["hash"]), password)
        except (VerificationError, InvalidHashError):
            return False, False
        return True, HASHER.check_needs_rehash(str(entry["hash"]))
    if entry is not None and algo == LEGACY_ALGO:
        ok = hmac.compare_digest(_scrypt(password, bytes.fromhex(entry["salt"])), bytes.fromhex(entry["hash"]))
        return ok, ok
    with contextlib.suppress(VerificationError):
        HASHER.verify(_dummy_hash(), password)
    return False, False


def _rehash(users_file: Path, name: str, old_hash: str, password: str) -> None:
    """Swap in an Argon2id hash unless the entry changed meanwhile (e.g. an admin reset it)."""
    new_hash = hash_password(password)
    users = load_users(users_file)
    entry = users.get(name)
    if entry is None or entry.get("hash") != old_hash:
        return
    users[name] = {"role": entry["role"], "algo": ALGO, "hash": new_hash}
    _save_users(users_file, users)


@dataclass(frozen=True, slots=True)
class LoginResult:
    """A login attempt's outcome: the user, or why not (and until when attempts are refused)."""

    user: User | None
    retry_at: float | None = None  # epoch seconds; set while this name or client is locked out

    def message(self, now: float | None = None) -> str:
        if self.user is not None:
            return ""
        if self.retry_at is None:
            return "Unknown user or wrong password."
        now = time.time() if now is None else now
        wait = max(1, math.ceil(self.retry_at - now))
        at = datetime.fromtimestamp(self.retry_at, UTC).strftime("%H:%M:%S UTC")
        return f"Too many failed log-ins: try again in {wait} s (at {at})."


def lock_seconds(failures: int, threshold: int = MAX_FAILURES) -> float:
    """No lock below ``threshold`` failures; then 30 s, doubling per further failure, at most an hour."""
    if failures < threshold:
        return 0.0
    return min(LOCK_BASE * 2.0 ** (failures - threshold), LOCK_MAX)


def login(
    users_file: Path | str,
    store: ReviewStore,
    name: str,
    password: str,
    client: str | None = None,
    now: float | None = None,
) -> LoginResult:
    """``authenticate`` behind a persisted throttle: while the name (or the client address) is
    locked out the password is not even checked; a success clears the name's and client's count."""
    now = time.time() if now is None else now
    keys = [f"user:{name}"] + ([f"client:{client}"] if client else [])
    locked = store.login_locked_until(keys, now)
    if locked is not None:
        store.log_event(name, "login.refused", name, {"client": client or "", "until": _iso(locked)})
        return LoginResult(None, locked)
    user = authenticate(users_file, name, password)
    if user is not None:
        store.clear_login_failures(keys)
        store.log_event(user.name, "login", user.name)
        return LoginResult(user)
    thresholds = {keys[0]: MAX_FAILURES, **({keys[1]: MAX_CLIENT_FAILURES} if client else {})}
    until = max(
        store.record_login_failure(k, now, partial(lock_seconds, threshold=t), FORGET_AFTER)[1]
        for k, t in thresholds.items()
    )
    store.log_event(name, "login.failed", name, {"client": client or ""})
    return LoginResult(None, until if until > now else None)


def _iso(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def bootstrap_admin(users_file: Path | str, env: dict[str, str] | None = None) -> User | None:
    """Demo bootstrap: FLOORMAN_ADMIN_PASSWORD creates user 'admin' when no admin exists yet."""
    env = dict(os.environ) if env is None else env
    password = env.get("FLOORMAN_ADMIN_PASSWORD")
    if not password:
        return None
    users = load_users(Path(users_file))
    if any(u.get("role") == "admin" for u in users.values()):
        return None
    try:
        check_new_password(password)
    except ValueError as exc:
        raise ValueError(f"FLOORMAN_ADMIN_PASSWORD: {exc}; no admin was created") from exc
    return ensure_user(users_file, env.get("FLOORMAN_ADMIN_USER", "admin"), password, "admin")


def oidc_role(email: str | None, roles: dict[str, str]) -> str | None:
    """Role for an OIDC identity from the allow-list (exact e-mail, else '@domain'); None: no access."""
    if not email:
        return None
    email = email.lower()
    lowered = {k.lower(): v for k, v in roles.items()}
    role = lowered.get(email) or lowered.get("@" + email.rsplit("@", 1)[-1])
    return role if role in ROLES else None


def oidc_user(
    claims: Mapping[str, Any], roles: dict[str, str], now: float | None = None, leeway: float = OIDC_LEEWAY
) -> tuple[User | None, str]:
    """The user for an OIDC identity's ID-token claims, or None and why.

    Why check here although the library validated the token at sign-in: the claims live on in a
    30-day cookie, so an expired token (``exp``, with a little clock skew allowed) must be refused
    on every run; an address the provider says is unverified (``email_verified`` false) could be
    anyone's, and the allow-list is keyed by address.
    """
    now = time.time() if now is None else now
    verified = claims.get("email_verified")
    if verified is False or (isinstance(verified, str) and verified.strip().lower() == "false"):
        return None, "Your e-mail address is not verified by the identity provider."
    try:
        exp = float(claims["exp"])
    except (KeyError, TypeError, ValueError):
        return None, "The sign-in token has no valid expiry; sign in again."
    if now > exp + leeway:
        return None, "Your sign-in has expired; sign in again."
    email = claims.get("email")
    role = oidc_role(str(email) if email else None, roles)
    if role is None:
        return None, "Your account is not on the reviewers' allow-list; ask an admin."
    return User(str(email), role), ""


# -- sessions: a signed, expiring cookie ---------------------------------------------------------
#
# Why a cookie of our own: Streamlit keeps ``st.session_state`` per websocket, so a reload or a new
# tab is a new, anonymous session. The browser keeps ``floorman_session`` (set by the page, read back
# through ``st.context.cookies`` on the next connection); it names the user and an expiry, signed
# with HMAC-SHA256 under a server-side secret, so it cannot be forged or extended. The role is not
# in it: it is looked up in the users file on every restore, so a removed user or a changed role
# takes effect on the next page load. Logout revokes the token's id server-side (a copied cookie
# stops working too), then deletes the cookie.

SESSION_COOKIE = "floorman_session"
#: a working day and a bit: a reviewer logs in once per shift
SESSION_TTL = 12 * 3600.0
_SESSION_VERSION = "v1"


def session_secret(folder: Path | str, env: Mapping[str, str] | None = None) -> bytes:
    """FLOORMAN_SESSION_SECRET, else a random key kept in ``folder/session.key`` (created 0600 once).

    Why the file: the demo and single-host setups need no configuration, and the key survives a
    restart (sessions stay valid); deleting the file logs everyone out.
    """
    env = os.environ if env is None else env
    if env.get("FLOORMAN_SESSION_SECRET"):
        return env["FLOORMAN_SESSION_SECRET"].encode("utf-8")
    path = Path(folder) / "session.key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".session.key.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(os.urandom(32).hex())
        with contextlib.suppress(FileExistsError):
            os.link(tmp, path)  # first writer wins; a racing process reads the winner's key
        tmp.unlink()
    return path.read_text(encoding="utf-8").strip().encode("utf-8")


def _b64(raw: bytes) -> str:
    import base64

    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    import base64

    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _sign(secret: bytes, body: str) -> str:
    return _b64(hmac.new(secret, body.encode("ascii"), hashlib.sha256).digest())


@dataclass(frozen=True, slots=True)
class SessionToken:
    """What a valid cookie says: who, its id (for revocation) and when it expires (epoch s)."""

    name: str
    token_id: str
    expires: float


def issue_session(secret: bytes, name: str, now: float | None = None, ttl: float = SESSION_TTL) -> str:
    """A cookie value: ``v1.<name>.<expires>.<id>.<hmac>`` (base64url parts, cookie-safe)."""
    now = time.time() if now is None else now
    body = ".".join((_SESSION_VERSION, _b64(name.encode("utf-8")), str(int(now + ttl)), _b64(os.urandom(12))))
    return f"{body}.{_sign(secret, body)}"


def read_session(secret: bytes, value: str | None, now: float | None = None) -> SessionToken | None:
    """The token's claims when the signature holds and it has not expired; else None."""
    if not value:
        return None
    parts = value.split(".")
    if len(parts) != 5 or parts[0] != _SESSION_VERSION:
        return None
    body, sig = ".".join(parts[:4]), parts[4]
    if not hmac.compare_digest(_sign(secret, body), sig):
        return None
    try:
        name, expires = _unb64(parts[1]).decode("utf-8"), float(parts[2])
    except (ValueError, UnicodeDecodeError):
        return None
    now = time.time() if now is None else now
    return SessionToken(name, parts[3], expires) if now < expires else None


class Revocations:
    """Ids of logged-out tokens until they would have expired anyway (SQLite, next to the key).

    Why not the review store: revocations are session plumbing, not reviewer records, and are
    pruned; the review store's tables are append-only evidence.
    """

    def __init__(self, path: Path | str) -> None:
        import sqlite3

        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._sqlite = sqlite3
        with self._con() as con:
            con.execute("CREATE TABLE IF NOT EXISTS revoked (token_id TEXT PRIMARY KEY, expires REAL NOT NULL)")

    @contextlib.contextmanager
    def _con(self) -> Any:
        con = self._sqlite.connect(self.path, timeout=10, isolation_level=None)
        try:
            yield con
        finally:
            con.close()

    def revoke(self, token: SessionToken, now: float | None = None) -> None:
        now = time.time() if now is None else now
        with self._con() as con:
            con.execute("DELETE FROM revoked WHERE expires < ?", (now,))
            con.execute("INSERT OR REPLACE INTO revoked VALUES (?, ?)", (token.token_id, token.expires))

    def is_revoked(self, token: SessionToken) -> bool:
        with self._con() as con:
            row = con.execute("SELECT 1 FROM revoked WHERE token_id = ?", (token.token_id,)).fetchone()
        return row is not None


def restore_session(
    users_file: Path | str, secret: bytes, revocations: Revocations, value: str | None, now: float | None = None
) -> User | None:
    """The user a session cookie names, if it is valid, not revoked and the user still exists
    (with the role the users file gives them now)."""
    token = read_session(secret, value, now)
    if token is None or revocations.is_revoked(token):
        return None
    entry = load_users(Path(users_file)).get(token.name)
    if entry is None or entry.get("role") not in ROLES:
        return None
    return User(token.name, str(entry["role"]))
