"""Where the dashboard finds its snapshot, review store and users file (environment driven).

Why re-read on every page run: a nightly publish flips ``published/CURRENT``; resolving the
pointer per run (and using the snapshot path as the cache key) moves every session to the new
snapshot on its next interaction, with no restart and no connection to the old file kept open.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dashboards.auth import EXPORT_ROLES, SESSION_TTL, export_roles_from
from warehouse.snapshot import current_snapshot


@dataclass(frozen=True, slots=True)
class Settings:
    published: Path | None  # folder holding CURRENT (FLOORMAN_PUBLISHED)
    db: Path | None  # a fixed snapshot file (FLOORMAN_DB), wins over published
    review_db: Path
    users_file: Path
    source_root: Path | None  # base for relative hands.source_file paths
    auth_mode: str  # "local" or "oidc"
    export_roles: tuple[str, ...] = EXPORT_ROLES  # who may export evidence (FLOORMAN_EXPORT_ROLES)
    session_dir: Path | None = None  # session key and revocations (FLOORMAN_SESSION_DIR; default: review db's folder)
    session_hours: float = SESSION_TTL / 3600  # how long a login lasts (FLOORMAN_SESSION_HOURS)

    def sessions_folder(self) -> Path:
        return self.session_dir if self.session_dir is not None else self.review_db.parent

    def snapshot(self) -> Path:
        """The snapshot to read now (follows the pointer file on every call)."""
        if self.db is not None:
            return self.db
        if self.published is None:
            raise FileNotFoundError("set FLOORMAN_PUBLISHED (folder with CURRENT) or FLOORMAN_DB")
        return current_snapshot(self.published)


def load(env: dict[str, str] | None = None) -> Settings:
    env = dict(os.environ) if env is None else env
    var = Path(env.get("FLOORMAN_VAR", "var"))

    def opt(name: str) -> Path | None:
        return Path(env[name]) if env.get(name) else None

    return Settings(
        published=opt("FLOORMAN_PUBLISHED"),
        db=opt("FLOORMAN_DB"),
        review_db=opt("FLOORMAN_REVIEW_DB") or var / "review.sqlite",
        users_file=opt("FLOORMAN_USERS") or var / "users.json",
        source_root=opt("FLOORMAN_SOURCE_ROOT"),
        auth_mode=env.get("FLOORMAN_AUTH", "local"),
        export_roles=export_roles_from(env.get("FLOORMAN_EXPORT_ROLES")),
        session_dir=opt("FLOORMAN_SESSION_DIR"),
        session_hours=float(env.get("FLOORMAN_SESSION_HOURS") or SESSION_TTL / 3600),
    )
