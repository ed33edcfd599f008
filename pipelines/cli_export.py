"""``floorman export``, ``floorman serve`` and ``floorman users``: the dashboard's command line.

Why here: the main CLI imports every ``pipelines/cli_*.py`` and calls ``register``; these
commands reuse exactly the functions the dashboard uses (same bundle bytes from the page button
and from the command line).
"""

from __future__ import annotations

import argparse
import getpass
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _snapshot(args: argparse.Namespace) -> Path:
    if args.db:
        return Path(args.db)
    from warehouse.snapshot import current_snapshot

    return current_snapshot(args.root)


def cmd_export(args: argparse.Namespace) -> int:
    from dashboards import evidence
    from dashboards.review_store import ReviewStore

    store = ReviewStore(args.review_db) if args.review_db and Path(args.review_db).exists() else None
    try:
        blob = evidence.build_bundle(
            _snapshot(args), args.case_id, store,
            Path(args.source_root) if args.source_root else None, allow_unverified=args.allow_unverified,
        )
    except (evidence.EvidenceError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    out = Path(args.out)
    if out.is_dir():
        out = out / f"evidence-{args.case_id}.zip"
    out.write_bytes(blob)
    problems = evidence.verify_bundle(blob, Path(args.source_root) if args.source_root else None)
    import hashlib

    digest = hashlib.sha256(blob).hexdigest()
    if store is not None:  # the operator's shell account: the CLI has no dashboard login
        store.log_access(f"cli:{os.environ.get('USER', 'unknown')}", "export", args.case_id,
                         {"out": str(out), "sha256": digest})
    print(f"{out}  sha256 {digest}  {len(blob):,} bytes")
    for p in problems:
        print(f"warning: {p}", file=sys.stderr)
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    from dashboards import evidence

    problems = evidence.verify_bundle(Path(args.zip).read_bytes(), check_sources=not args.no_sources)
    for p in problems:
        print(p)
    print("verified" if not problems else f"{len(problems)} problem(s)")
    return 0 if not problems else 1


def cmd_serve(args: argparse.Namespace) -> int:
    """Become the Streamlit server (exec), so a SIGTERM or Ctrl-C to ``floorman serve`` reaches
    Streamlit itself and no orphaned server is left behind."""
    env = dict(os.environ)
    if args.db:
        env["FLOORMAN_DB"] = str(Path(args.db).resolve())
    else:
        env["FLOORMAN_PUBLISHED"] = str(Path(args.root).resolve())
    for key, value in (("FLOORMAN_USERS", args.users), ("FLOORMAN_REVIEW_DB", args.review_db)):
        if value:
            env[key] = str(Path(value).resolve())
    cmd = [
        sys.executable, "-m", "streamlit", "run", str(ROOT / "dashboards" / "app.py"),
        "--server.port", str(args.port), "--server.address", args.address, "--server.headless", "true",
        "--browser.gatherUsageStats", "false",
    ]
    if os.name == "posix":
        sys.stdout.flush()
        sys.stderr.flush()
        os.chdir(ROOT)
        os.execve(sys.executable, cmd, env)  # does not return: this process is now Streamlit
    return _run_forwarding_signals(cmd, env)


def _run_forwarding_signals(cmd: list[str], env: dict[str, str]) -> int:
    """Where exec cannot replace the process (Windows): run Streamlit as a child and pass our
    SIGTERM/SIGINT on to it, then wait for it to stop."""
    import signal

    child = subprocess.Popen(cmd, env=env, cwd=ROOT)

    def forward(signum: int, _frame: object) -> None:
        child.send_signal(signum)

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, forward)
    return child.wait()


def cmd_users_add(args: argparse.Namespace) -> int:
    from dashboards.auth import check_new_password, ensure_user

    password = os.environ.get("FLOORMAN_NEW_PASSWORD") or getpass.getpass(f"password for {args.name}: ")
    try:
        check_new_password(password)
        user = ensure_user(args.users, args.name, password, args.role)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"saved {user.name} ({user.role}) in {args.users}")
    return 0


def cmd_users_list(args: argparse.Namespace) -> int:
    from dashboards.auth import load_users

    for name, u in sorted(load_users(Path(args.users)).items()):
        print(f"{name}\t{u['role']}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    default_users = os.environ.get("FLOORMAN_USERS", "var/users.json")
    default_review = os.environ.get("FLOORMAN_REVIEW_DB", "var/review.sqlite")

    p = subparsers.add_parser("export", help="write a case's evidence bundle (zip: PDF, HTML, raw hands, manifest)")
    p.add_argument("case_id")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--db", help="warehouse snapshot file")
    src.add_argument("--root", help="published folder (reads its CURRENT pointer)")
    p.add_argument("--out", required=True, help="zip file, or a folder for evidence-CASE.zip")
    p.add_argument("--review-db", default=default_review, help="review store (decision log)")
    p.add_argument("--source-root", help="base folder for relative hands.source_file paths")
    p.add_argument("--allow-unverified", action="store_true",
                   help="still export when a source file is missing or changed (raw text left out)")
    p.set_defaults(func=cmd_export)

    p = subparsers.add_parser("verify-export", help="recompute every hash of an evidence bundle")
    p.add_argument("zip")
    p.add_argument("--no-sources", action="store_true", help="do not re-hash the original source files")
    p.set_defaults(func=cmd_verify)

    p = subparsers.add_parser("serve", help="run the review dashboard on a snapshot")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--root", help="published folder: follows CURRENT as new snapshots are published")
    src.add_argument("--db", help="a fixed snapshot file")
    p.add_argument("--port", type=int, default=8501)
    p.add_argument("--address", default="127.0.0.1")
    p.add_argument("--users", default=None, help=f"users file (default {default_users})")
    p.add_argument("--review-db", default=None, help=f"review store (default {default_review})")
    p.set_defaults(func=cmd_serve)

    p = subparsers.add_parser("users", help="manage dashboard users (local users file)")
    users = p.add_subparsers(dest="users_command", required=True)
    a = users.add_parser("add", help="create a user or reset password and role (password from FLOORMAN_NEW_PASSWORD "
                                     "or prompted)")
    a.add_argument("name")
    a.add_argument("--role", required=True, choices=("viewer", "reviewer", "admin"))
    a.add_argument("--users", default=default_users)
    a.set_defaults(func=cmd_users_add)
    ls = users.add_parser("list")
    ls.add_argument("--users", default=default_users)
    ls.set_defaults(func=cmd_users_list)
