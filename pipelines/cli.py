"""The ``floorman`` command line: the same functions the Dagster assets run, without the UI.

Subcommands live with their area: this module defines ``ingest`` and ``merge`` and then imports
every ``pipelines/cli_*.py`` module, each of which adds its own subcommands through
``register(subparsers)``. Ctrl-C ends any command with one line, ``interrupted``, and exit code
130 (128 + SIGINT, as shells report it), not a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import json
import os
import pkgutil
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TextIO

from warehouse.ingest import (
    OTHER_SPECIFICS,
    IngestSummary,
    WarehouseError,
    ingest_paths,
    iter_input_files,
    remove_warehouse,
)

#: specifics shown under each quarantine reason group in the text summary
SPECIFICS_SHOWN = 5
#: characters of a specific shown on its line
SPECIFIC_WIDTH = 110
#: exit code after Ctrl-C
EXIT_INTERRUPTED = 130
#: the exit code when the reader of standard output went away (128 + SIGPIPE)
EXIT_BROKEN_PIPE = 141
#: what Dagster raises inside a run on SIGINT (matched by name: this module does not import Dagster)
DAGSTER_INTERRUPT = "DagsterExecutionInterruptedError"
#: how every line of Dagster's console logger starts after its timestamp
DAGSTER_RECORD = " - dagster - "


def _print_ingest_summary(summary: IngestSummary) -> None:
    """The details (quarantine reasons, formats, unrecognised and repeated files) first and the
    headline last: over a big folder the details run to hundreds of lines, and the counts an
    operator needs must be what is left on the screen."""
    if summary.quarantined_by_reason:
        print("quarantined, by reason:")
    for reason, count in sorted(summary.quarantined_by_reason.items(), key=lambda kv: -kv[1]):
        print(f"  {count:6d}  {reason}")
        _print_specifics(reason, summary.quarantined_specifics.get(reason, {}))
    if summary.formats:
        print("formats: " + ", ".join(f"{k} {v}" for k, v in sorted(summary.formats.items())))
    for path in summary.unrecognised:
        print(f"unrecognised: {path}: {summary.unrecognised_reasons.get(path, 'no supported format recognises it')}")
    for path, first in summary.duplicates_in_run.items():
        print(f"duplicate within this run: {path}: same bytes as {first}")
    print(
        f"files: {summary.files} read, {summary.files_duplicate_in_run} duplicates within this run, "
        f"{summary.files_already_ingested} already ingested, "
        f"{summary.files_unrecognised} unrecognised, {summary.files_failed} unreadable"
    )
    print(
        f"hands: {summary.hands} parsed, {summary.new_hands} new, {summary.duplicate_hands} duplicates, "
        f"{summary.unreconciled} unreconciled"
    )
    print(
        f"quarantined: {summary.quarantined} ({summary.quarantined_unsupported} unsupported games/layouts); "
        f"parse rate of supported hands {summary.parse_rate:.2%}"
    )
    print(f"{summary.seconds:.2f} s, {summary.hands_per_second:,.0f} hands/s")


def _print_specifics(group: str, specifics: dict[str, int]) -> None:
    """The real reasons behind a masked group, most frequent first; none when the group is its
    only specific (nothing was masked)."""
    if list(specifics) == [group]:
        return
    ranked = sorted(specifics.items(), key=lambda kv: (kv[0] == OTHER_SPECIFICS, -kv[1], kv[0]))
    for specific, count in ranked[:SPECIFICS_SHOWN]:
        shown = specific if len(specific) <= SPECIFIC_WIDTH else specific[: SPECIFIC_WIDTH - 1] + "…"
        print(f"          {count:6d}  {shown}")
    rest = ranked[SPECIFICS_SHOWN:]
    if rest:
        kinds = sum(1 for s, _ in rest if s != OTHER_SPECIFICS)
        more = f"{kinds}+" if any(s == OTHER_SPECIFICS for s, _ in rest) else str(kinds)
        print(f"                  and {more} more ({sum(c for _, c in rest)} hands)")


def cmd_ingest(args: argparse.Namespace) -> int:
    """Exit 1 only when nothing could be done; every bad input is one line naming it and why."""
    missing = [p for p in args.paths if not Path(p).exists()]
    present = [p for p in args.paths if Path(p).exists()]
    for p in missing:
        print(f"error: {p}: no such file or folder", file=sys.stderr)
    for p in present:
        if Path(p).is_dir() and next(iter(iter_input_files([p])), None) is None:
            print(f"error: {p}: no files to ingest in this folder", file=sys.stderr)
    summary, fatal = _run_ingest(present, Path(args.db), json_out=args.json) if present else (IngestSummary(), None)
    summary.errors = [f"{p}: no such file or folder" for p in missing] + summary.errors
    summary.files_failed += len(missing)
    if args.json:
        print(json.dumps({**summary.as_dict(), "fatal": fatal}, sort_keys=True))
    elif present and fatal is None:
        _print_ingest_summary(summary)
    if not args.json:
        for err in summary.errors[len(missing):]:
            print(f"error: {err}", file=sys.stderr)
    if fatal is not None:
        print(f"error: {fatal}", file=sys.stderr)
        return 1
    done = summary.files + summary.files_already_ingested + summary.files_duplicate_in_run
    return 0 if done else 1


def _run_ingest(paths: list[str], db: Path, *, json_out: bool) -> tuple[IngestSummary, str | None]:
    """Ingest into ``db``; a warehouse fault becomes one line, and a warehouse this run created
    holds something or is not left behind."""
    created = not db.exists()
    try:
        summary = ingest_paths(paths, db, progress=None if not json_out else False)
    except WarehouseError as exc:
        if db.is_dir():
            after = ""
        elif exc.stored:
            after = f"; the {exc.stored} files stored before it are kept, run again to load the rest"
        else:
            after = "; no warehouse written" if created else "; nothing from this run was stored"
        return exc.summary, f"--db {db}: {exc.reason}{after}"
    if created and summary.files == 0:
        remove_warehouse(db)  # nothing could be read: an empty warehouse would only mislead
    return summary, None


def cmd_merge(args: argparse.Namespace) -> int:
    from warehouse.merge import merge_warehouses

    result = merge_warehouses(args.db, args.parts)
    print(json.dumps(result, sort_keys=True) if args.json else "\n".join(f"{k}: {v}" for k, v in result.items()))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="floorman", description=__doc__.splitlines()[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("ingest", help="parse hand-history files or folders into the warehouse")
    p.add_argument("paths", nargs="+", help="files or folders (format sniffed from content)")
    p.add_argument("--db", required=True, help="warehouse DuckDB file (created if missing)")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.set_defaults(func=cmd_ingest)

    p = sub.add_parser("merge", help="combine partition warehouses built by other processes")
    p.add_argument("parts", nargs="+", help="partition DuckDB files")
    p.add_argument("--db", required=True, help="target warehouse")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_merge)

    import pipelines

    for info in sorted(pkgutil.iter_modules(pipelines.__path__), key=lambda i: i.name):
        if info.name.startswith("cli_"):
            module = importlib.import_module(f"pipelines.{info.name}")
            module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    def run() -> int:
        args = build_parser().parse_args(argv)
        return int(args.func(args) or 0)

    try:
        return interruptible(run)
    except BrokenPipeError:
        return reader_gone()


def reader_gone() -> int:
    """The reader of standard output went away (``floorman violations ... | head``): stop quietly with
    141 (128 + SIGPIPE, as shells report it), as other command-line tools do, not a traceback. Standard
    output is pointed at /dev/null so that flushing it at exit does not raise again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return EXIT_BROKEN_PIPE


def interruptible(run: Callable[[], int]) -> int:
    """``run()``, but Ctrl-C prints ``interrupted`` and returns 130 instead of a traceback."""
    with _InterruptWatch() as watch:
        try:
            with _without_dagster_interrupt_logs(watch):
                return run()
        except BaseException as exc:
            if not (is_interrupt(exc) or watch.seen()):
                raise
            print("interrupted", file=sys.stderr)
            return EXIT_INTERRUPTED


def is_interrupt(exc: BaseException | None) -> bool:
    """A KeyboardInterrupt, or Dagster's stand-in for one, anywhere in the exception's chain."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt) or type(exc).__name__ == DAGSTER_INTERRUPT:
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


class _InterruptWatch:
    """Notices a SIGINT even while Dagster's own handler is installed (the multiprocess executor
    turns one into a plain failed run): the interpreter writes each signal's number to the wakeup
    fd before any Python-level handler runs. Main thread only; elsewhere it never reports one."""

    def __init__(self) -> None:
        self._fds: tuple[int, int] | None = None
        self._old = -1
        self._seen = False

    def __enter__(self) -> _InterruptWatch:
        if threading.current_thread() is threading.main_thread():
            r, w = os.pipe()
            os.set_blocking(r, False)
            os.set_blocking(w, False)
            self._fds = (r, w)
            self._old = signal.set_wakeup_fd(w, warn_on_full_buffer=False)
        return self

    def seen(self) -> bool:
        if not self._seen and self._fds is not None:
            with contextlib.suppress(BlockingIOError):
                self._seen = signal.SIGINT in os.read(self._fds[0], 4096)
        return self._seen

    def __exit__(self, *exc: object) -> None:
        if self._fds is not None:
            signal.set_wakeup_fd(self._old)
            for fd in self._fds:
                os.close(fd)


class _DropInterruptRecords(io.TextIOBase):
    """stderr, minus Dagster's log records about an interruption: on Ctrl-C a run logs a
    STEP_FAILURE and a RUN_FAILURE, each with a stack trace, which say nothing but "you pressed
    Ctrl-C". Dagster's console handler writes each record with one ``write`` to whatever
    ``sys.stderr`` is at that moment, so those records are recognised whole and dropped (and,
    once a SIGINT has arrived, every further Dagster record)."""

    def __init__(self, stream: TextIO, watch: _InterruptWatch) -> None:
        self._stream = stream
        self._watch = watch

    def write(self, text: str) -> int:
        if DAGSTER_INTERRUPT in text or (DAGSTER_RECORD in text and self._watch.seen()):
            return len(text)
        return self._stream.write(text)

    def flush(self) -> None:
        self._stream.flush()

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


@contextlib.contextmanager
def _without_dagster_interrupt_logs(watch: _InterruptWatch) -> Iterator[None]:
    saved = sys.stderr
    sys.stderr = _DropInterruptRecords(saved, watch)
    try:
        yield
    finally:
        sys.stderr = saved


if __name__ == "__main__":
    raise SystemExit(main())
