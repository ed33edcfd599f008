"""Reviewer state: case status, decisions, notes, an append-only audit log and access log.

Why SQLite in WAL mode: the dashboard (many sessions, threads) and the nightly pipeline (reads
reviewer labels) touch this store concurrently, which DuckDB's one-writer rule forbids; SQLite's
WAL gives many readers plus one writer across processes. Why triggers: the audit log, the decision
history and the floor's rulings on rule findings must survive any role, so UPDATE/DELETE on them
RAISE inside the database itself, not just in this module. Why a separate access log: case views
and exports are reads, logged for accountability, and kept out of the audit log that goes into
(byte-identical) evidence bundles.
Failed log-ins are counted here too, so a lockout survives a dashboard restart.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

ROLES = ("viewer", "reviewer", "admin")
DECISIONS = ("dismiss", "escalate", "confirm")
#: case status after each decision (a case never decided is "open")
STATUS_AFTER = {"dismiss": "dismissed", "escalate": "escalated", "confirm": "confirmed"}
STATUSES = ("open", "dismissed", "escalated", "confirmed")

SCHEMA = """
CREATE TABLE IF NOT EXISTS cases (
    case_id    TEXT PRIMARY KEY,
    status     TEXT NOT NULL,
    assignee   TEXT,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS decisions (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    case_id    TEXT NOT NULL,
    decision   TEXT NOT NULL CHECK (decision IN ('dismiss', 'escalate', 'confirm')),
    reason     TEXT NOT NULL CHECK (length(trim(reason)) > 0),
    actor      TEXT NOT NULL,
    at         TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS notes (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    case_id TEXT NOT NULL,
    actor   TEXT NOT NULL,
    at      TEXT NOT NULL,
    text    TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS audit_log (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    at       TEXT NOT NULL,
    actor    TEXT NOT NULL,
    action   TEXT NOT NULL,
    object   TEXT NOT NULL,
    previous TEXT,
    new      TEXT
);
CREATE TRIGGER IF NOT EXISTS audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS decisions_no_update BEFORE UPDATE ON decisions
BEGIN SELECT RAISE(ABORT, 'decisions are append-only'); END;
CREATE TRIGGER IF NOT EXISTS decisions_no_delete BEFORE DELETE ON decisions
BEGIN SELECT RAISE(ABORT, 'decisions are append-only'); END;
CREATE TRIGGER IF NOT EXISTS notes_no_update BEFORE UPDATE ON notes
BEGIN SELECT RAISE(ABORT, 'notes are append-only'); END;
CREATE TRIGGER IF NOT EXISTS notes_no_delete BEFORE DELETE ON notes
BEGIN SELECT RAISE(ABORT, 'notes are append-only'); END;
CREATE TABLE IF NOT EXISTS access_log (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    at      TEXT NOT NULL,
    actor   TEXT NOT NULL,
    action  TEXT NOT NULL CHECK (action IN ('view', 'export', 'export.refused')),
    case_id TEXT NOT NULL,
    detail  TEXT
);
CREATE TRIGGER IF NOT EXISTS access_log_no_update BEFORE UPDATE ON access_log
BEGIN SELECT RAISE(ABORT, 'access_log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS access_log_no_delete BEFORE DELETE ON access_log
BEGIN SELECT RAISE(ABORT, 'access_log is append-only'); END;
CREATE TABLE IF NOT EXISTS floor_rulings (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    finding_key TEXT NOT NULL,     -- rules finding: 'hand_id#action_seq#rule_id' (finding_key())
    ruling      TEXT NOT NULL CHECK (length(trim(ruling)) > 0),
    allowed     INTEGER NOT NULL CHECK (allowed IN (0, 1)),  -- 1: one of the finding's allowed_outcomes
    note        TEXT,
    actor       TEXT NOT NULL,
    at          TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS floor_rulings_no_update BEFORE UPDATE ON floor_rulings
BEGIN SELECT RAISE(ABORT, 'floor_rulings are append-only'); END;
CREATE TRIGGER IF NOT EXISTS floor_rulings_no_delete BEFORE DELETE ON floor_rulings
BEGIN SELECT RAISE(ABORT, 'floor_rulings are append-only'); END;
CREATE TABLE IF NOT EXISTS login_failures (
    key          TEXT PRIMARY KEY,  -- 'user:NAME' or 'client:ADDRESS'
    failures     INTEGER NOT NULL,
    last_at      REAL NOT NULL,     -- epoch seconds of the latest failure
    locked_until REAL NOT NULL      -- epoch seconds; attempts before it are refused unchecked
);
"""
ACCESS_ACTIONS = ("view", "export", "export.refused")

class PermissionDenied(Exception):
    """The acting user's role may not do this."""


@dataclass(frozen=True, slots=True)
class User:
    """The acting person and role (authenticated by ``dashboards.auth``)."""

    name: str
    role: str


@dataclass(frozen=True, slots=True)
class Decision:
    case_id: str
    decision: str
    reason: str
    actor: str
    at: str


@dataclass(frozen=True, slots=True)
class Ruling:
    """The floor's ruling on one rule finding (a house decision, or any finding the floor rules on)."""

    finding_key: str
    ruling: str
    allowed: bool  # one of the finding's allowed_outcomes (else free text)
    note: str | None
    actor: str
    at: str


def finding_key(hand_id: str, action_seq: int | None, rule_id: str) -> str:
    """The key a ruling is recorded under: a finding is one rule at one action of one hand
    (``-`` for a whole-hand finding), the same in every run of the checker."""
    return f"{hand_id}#{'-' if action_seq is None else action_seq}#{rule_id}"


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class ReviewStore:
    """One SQLite file; every call opens a short connection so threads never share one."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as con:
            con.execute("PRAGMA journal_mode=WAL")
            con.executescript(SCHEMA)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        con = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        try:
            con.execute("PRAGMA busy_timeout=10000")
            yield con
        finally:
            con.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """Write transaction taken up front (BEGIN IMMEDIATE) so read-then-write is atomic."""
        with self._connect() as con:
            con.execute("BEGIN IMMEDIATE")
            try:
                yield con
            except BaseException:
                con.execute("ROLLBACK")
                raise
            con.execute("COMMIT")

    def journal_mode(self) -> str:
        with self._connect() as con:
            return str(con.execute("PRAGMA journal_mode").fetchone()[0])

    # -- cases and decisions -------------------------------------------------------------------
    def statuses(self) -> dict[str, tuple[str, str | None]]:
        """case_id -> (status, assignee) for every case anyone has touched."""
        with self._connect() as con:
            rows = con.execute("SELECT case_id, status, assignee FROM cases").fetchall()
        return {c: (s, a) for c, s, a in rows}

    def status(self, case_id: str) -> str:
        with self._connect() as con:
            row = con.execute("SELECT status FROM cases WHERE case_id = ?", (case_id,)).fetchone()
        return "open" if row is None else str(row[0])

    def assign(self, case_id: str, assignee: str, actor: User) -> None:
        if actor.role not in ("reviewer", "admin"):
            raise PermissionDenied(f"{actor.name} ({actor.role}) may not assign cases")
        with self._tx() as con:
            row = con.execute("SELECT status, assignee FROM cases WHERE case_id = ?", (case_id,)).fetchone()
            status, prev = ("open", None) if row is None else row
            con.execute(
                "INSERT OR REPLACE INTO cases VALUES (?, ?, ?, ?)", (case_id, status, assignee, _now())
            )
            self._audit(
                con, actor.name, "case.assign", case_id, {"assignee": prev}, new={"assignee": assignee}
            )

    def records(self) -> dict[str, tuple[str, str | None, str | None]]:
        """case_id -> (status, assignee, updated_at) for every case anyone has touched."""
        with self._connect() as con:
            rows = con.execute("SELECT case_id, status, assignee, updated_at FROM cases").fetchall()
        return {c: (s, a, u) for c, s, a, u in rows}

    def decide(self, case_id: str, decision: str, reason: str, actor: User) -> Decision:
        """Record a decision; only reviewers and admins may, and a reason is mandatory."""
        return self.decide_many([case_id], decision, reason, actor)[0]

    def decide_many(self, case_ids: Sequence[str], decision: str, reason: str, actor: User,
                    *, bulk: bool = False) -> list[Decision]:
        """The same decision and reason on several cases in one transaction (a bulk dismiss): each
        case gets its own decision row and audit entry (``"bulk": "true"`` in it when ``bulk``), so a
        case's trail reads the same whether it was decided alone or in a batch."""
        if actor.role not in ("reviewer", "admin"):
            raise PermissionDenied(f"{actor.name} ({actor.role}) may not record decisions")
        if decision not in DECISIONS:
            raise ValueError(f"unknown decision {decision!r}; expected one of {DECISIONS}")
        if not reason.strip():
            raise ValueError("a decision needs a reason")
        ids = list(dict.fromkeys(case_ids))
        if not ids:
            return []
        at = _now()
        new_status = STATUS_AFTER[decision]
        out = []
        with self._tx() as con:
            for case_id in ids:
                row = con.execute("SELECT status, assignee FROM cases WHERE case_id = ?", (case_id,)).fetchone()
                prev_status, assignee = ("open", None) if row is None else row
                con.execute(
                    "INSERT INTO decisions (case_id, decision, reason, actor, at) VALUES (?, ?, ?, ?, ?)",
                    (case_id, decision, reason, actor.name, at),
                )
                con.execute(
                    "INSERT OR REPLACE INTO cases VALUES (?, ?, ?, ?)",
                    (case_id, new_status, assignee or actor.name, at),
                )
                new = {"status": new_status, "reason": reason}
                if bulk:
                    new["bulk"] = "true"
                self._audit(con, actor.name, f"case.{decision}", case_id, {"status": prev_status}, new=new, at=at)
                out.append(Decision(case_id, decision, reason, actor.name, at))
        return out

    def all_decisions(self) -> list[Decision]:
        """Every decision ever recorded, oldest first (the last per case is in force)."""
        with self._connect() as con:
            rows = con.execute("SELECT case_id, decision, reason, actor, at FROM decisions ORDER BY id").fetchall()
        return [Decision(*r) for r in rows]

    def decisions(self, case_id: str) -> list[Decision]:
        with self._connect() as con:
            rows = con.execute(
                "SELECT case_id, decision, reason, actor, at FROM decisions WHERE case_id = ? ORDER BY id",
                (case_id,),
            ).fetchall()
        return [Decision(*r) for r in rows]

    def add_note(self, case_id: str, text: str, actor: User) -> None:
        if actor.role not in ("reviewer", "admin"):
            raise PermissionDenied(f"{actor.name} ({actor.role}) may not add notes")
        with self._tx() as con:
            con.execute(
                "INSERT INTO notes (case_id, actor, at, text) VALUES (?, ?, ?, ?)",
                (case_id, actor.name, _now(), text),
            )

    def notes(self, case_id: str) -> list[tuple[str, str, str]]:
        with self._connect() as con:
            rows = con.execute(
                "SELECT actor, at, text FROM notes WHERE case_id = ? ORDER BY id", (case_id,)
            ).fetchall()
        return [(a, t, x) for a, t, x in rows]

    def workload(self) -> dict[str, dict[str, int]]:
        """Per reviewer: decisions recorded and cases currently assigned and still open/escalated."""
        out: dict[str, dict[str, int]] = {}
        with self._connect() as con:
            for actor, n in con.execute("SELECT actor, count(*) FROM decisions GROUP BY actor"):
                out.setdefault(actor, {"decisions": 0, "assigned_open": 0})["decisions"] = n
            for who, n in con.execute(
                "SELECT assignee, count(*) FROM cases WHERE assignee IS NOT NULL "
                "AND status IN ('open', 'escalated') GROUP BY assignee"
            ):
                out.setdefault(who, {"decisions": 0, "assigned_open": 0})["assigned_open"] = n
        return out

    # -- floor rulings on rule findings (append-only: a later ruling supersedes, none is erased) --
    def record_ruling(
        self, key: str, ruling: str, actor: User, allowed_outcomes: str | None = None, note: str | None = None
    ) -> Ruling:
        """Record the floor's ruling on the finding ``key`` (``finding_key``): one of the finding's
        ``allowed_outcomes`` ("|"-separated, as the checker stores them) or free text, which then needs
        a note saying why. Reviewers and admins only; audited."""
        if actor.role not in ("reviewer", "admin"):
            raise PermissionDenied(f"{actor.name} ({actor.role}) may not record floor rulings")
        ruling = ruling.strip()
        if not ruling:
            raise ValueError("a ruling is needed")
        allowed = ruling in (allowed_outcomes or "").split("|")
        if not allowed and not (note or "").strip():
            raise ValueError(f"{ruling!r} is not one of the allowed outcomes ({allowed_outcomes}): say why in a note")
        at = _now()
        with self._tx() as con:
            con.execute(
                "INSERT INTO floor_rulings (finding_key, ruling, allowed, note, actor, at) VALUES (?, ?, ?, ?, ?, ?)",
                (key, ruling, int(allowed), note, actor.name, at),
            )
            self._audit(con, actor.name, "finding.ruling", key, None,
                        new={"ruling": ruling, "allowed": str(allowed).lower(), "note": note or ""}, at=at)
        return Ruling(key, ruling, allowed, note, actor.name, at)

    def rulings(self, keys: Sequence[str] | None = None) -> list[Ruling]:
        """Every ruling (or those on ``keys``) in the order recorded; the last per key is in force."""
        q = "SELECT finding_key, ruling, allowed, note, actor, at FROM floor_rulings"
        args: tuple[str, ...] = ()
        if keys is not None:
            if not keys:
                return []
            q += f" WHERE finding_key IN ({','.join('?' * len(keys))})"
            args = tuple(keys)
        with self._connect() as con:
            rows = con.execute(q + " ORDER BY id", args).fetchall()
        return [Ruling(k, r, bool(a), n, who, at) for k, r, a, n, who, at in rows]

    # -- audit log -----------------------------------------------------------------------------
    def audit_log(self, case_id: str | None = None) -> list[dict[str, str | None]]:
        q = "SELECT at, actor, action, object, previous, new FROM audit_log"
        args: tuple[str, ...] = ()
        if case_id is not None:
            q += " WHERE object = ?"
            args = (case_id,)
        with self._connect() as con:
            rows = con.execute(q + " ORDER BY id", args).fetchall()
        keys = ("at", "actor", "action", "object", "previous", "new")
        return [dict(zip(keys, r, strict=True)) for r in rows]

    def log_event(self, actor: str, action: str, obj: str, detail: dict[str, str] | None = None) -> None:
        """Audit a non-mutating but sensitive act (e.g. an evidence export, a login)."""
        with self._tx() as con:
            self._audit(con, actor, action, obj, None, new=detail)

    # -- access log (reads: case views and exports) ---------------------------------------------
    def log_access(self, actor: str, action: str, case_id: str, detail: dict[str, str] | None = None) -> None:
        """Append who read what case and how; there is deliberately no way to edit or remove one."""
        if action not in ACCESS_ACTIONS:
            raise ValueError(f"unknown access action {action!r}; expected one of {ACCESS_ACTIONS}")
        with self._tx() as con:
            con.execute(
                "INSERT INTO access_log (at, actor, action, case_id, detail) VALUES (?, ?, ?, ?, ?)",
                (_now(), actor, action, case_id, None if detail is None else json.dumps(detail, sort_keys=True)),
            )

    def access_log(self, case_id: str | None = None) -> list[dict[str, str | None]]:
        q = "SELECT at, actor, action, case_id, detail FROM access_log"
        args: tuple[str, ...] = () if case_id is None else (case_id,)
        with self._connect() as con:
            rows = con.execute(q + (" WHERE case_id = ?" if args else "") + " ORDER BY id", args).fetchall()
        keys = ("at", "actor", "action", "case_id", "detail")
        return [dict(zip(keys, r, strict=True)) for r in rows]

    # -- login throttling ----------------------------------------------------------------------
    def login_locked_until(self, keys: Sequence[str], now: float) -> float | None:
        """The latest lockout end among ``keys`` still in the future, else None."""
        if not keys:
            return None
        marks = ",".join("?" * len(keys))
        with self._connect() as con:
            row = con.execute(
                f"SELECT max(locked_until) FROM login_failures WHERE key IN ({marks})", tuple(keys)
            ).fetchone()
        until = row[0] if row else None
        return float(until) if until is not None and until > now else None

    def record_login_failure(
        self, key: str, now: float, lock_seconds: Callable[[int], float], forget_after: float
    ) -> tuple[int, float]:
        """Count one failure for ``key`` (read-modify-write in one transaction, so concurrent
        attempts cannot lose a count); returns (failures, locked_until)."""
        with self._tx() as con:
            row = con.execute("SELECT failures, last_at FROM login_failures WHERE key = ?", (key,)).fetchone()
            failures = 1 if row is None or now - float(row[1]) > forget_after else int(row[0]) + 1
            until = now + lock_seconds(failures)
            con.execute("INSERT OR REPLACE INTO login_failures VALUES (?, ?, ?, ?)", (key, failures, now, until))
        return failures, until

    def clear_login_failures(self, keys: Sequence[str]) -> None:
        with self._tx() as con:
            con.executemany("DELETE FROM login_failures WHERE key = ?", [(k,) for k in keys])

    @staticmethod
    def _audit(
        con: sqlite3.Connection,
        actor: str,
        action: str,
        obj: str,
        previous: dict[str, str | None] | None,
        *,
        new: dict[str, str] | None,
        at: str | None = None,
    ) -> None:
        con.execute(
            "INSERT INTO audit_log (at, actor, action, object, previous, new) VALUES (?, ?, ?, ?, ?, ?)",
            (
                at or _now(),
                actor,
                action,
                obj,
                None if previous is None else json.dumps(previous, sort_keys=True),
                None if new is None else json.dumps(new, sort_keys=True),
            ),
        )
