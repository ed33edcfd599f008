"""Ingest hand-history files into the warehouse: sniff, stream, reconcile, bulk load.

Why it is built this way:

* **Exactly once.** A file is identified by the SHA-256 of its bytes (``raw_files``): the same
  bytes are never loaded twice, and a hand seen in two files (``hand_id`` is namespaced by site)
  is stored once.
* **All or nothing per file.** Rows of a file and its ``raw_files`` row are committed in the same
  transaction, so an ingest killed midway leaves no half-loaded file and a re-run completes it.
* **Flat memory.** Hands are streamed and flushed in batches through Arrow (polars frames), never
  row by row; a big file flushes several times inside its transaction.
* **Bad input loses nothing.** A hand that cannot be read goes to ``quarantine`` with file, byte
  offset, raw text and reason; an unreadable or unrecognised file is reported by name and reason.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from parsers.model import Hand, Quarantined
from parsers.reading import detect_encoding
from parsers.registry import sniff_format

from .db import connect
from .frames import TABLE_SCHEMAS, hands_to_frames
from .reconcile import reconcile_frames

#: hands buffered before a flush to DuckDB (bounds memory, amortises insert overhead)
DEFAULT_BATCH_HANDS = 20_000
#: files that are never hand histories (licences, docs, fpdb's expected outputs)
IGNORED_SUFFIXES = frozenset({".md", ".rst", ".py", ".pyc", ".hp", ".hands", ".gt", ".json_expected"})
IGNORED_NAMES = frozenset({"LICENSE", "LICENSE.TXT", "LICENSE.txt", "README", "PROVENANCE.txt"})


@dataclass
class IngestSummary:
    """What an ingest run did; printed by the CLI and stored in run reports."""

    files: int = 0  # files read (new content)
    files_already_ingested: int = 0
    files_unrecognised: int = 0
    files_failed: int = 0
    hands: int = 0  # hands parsed
    new_hands: int = 0  # hands stored for the first time
    duplicate_hands: int = 0
    quarantined: int = 0
    quarantined_by_reason: dict[str, int] = field(default_factory=dict)
    unreconciled: int = 0
    formats: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    unrecognised: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else 0.0

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["hands_per_second"] = round(self.hands_per_second, 1)
        out["seconds"] = round(self.seconds, 3)
        return out


def iter_input_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Files named directly, and every file under named folders (sorted, hidden skipped)."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in sorted(files):
                    candidate = Path(root) / name
                    if not name.startswith(".") and not _ignored(candidate):
                        yield candidate
        else:
            yield path


def _ignored(path: Path) -> bool:
    return path.name in IGNORED_NAMES or path.suffix.lower() in IGNORED_SUFFIXES


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_NUMBER = re.compile(r"\d[\d.,]*")


def _reason_key(reason: str) -> str:
    """Group quarantine reasons for the summary: drop line numbers, quoted text and numbers."""
    text = reason.split(": ", 1)[1] if reason.startswith("line ") else reason
    text = _NUMBER.sub("N", _QUOTED.sub("'…'", text))
    return text[:90]


@dataclass
class _PendingFile:
    sha256: str
    path: Path
    size: int
    format: str | None
    encoding: str | None
    hands: int = 0
    new_hands: int = 0
    quarantined: int = 0
    first_hand_at: datetime | None = None


class _Loader:
    """Buffers parsed hands and quarantine records and flushes them in bulk."""

    def __init__(self, con: duckdb.DuckDBPyConnection, summary: IngestSummary, batch_hands: int) -> None:
        self.con = con
        self.summary = summary
        self.batch_hands = batch_hands
        self.hands: list[Hand] = []
        self.hand_files: list[str] = []
        self.quarantine: list[tuple[object, ...]] = []
        self.seen_in_batch: set[str] = set()
        self.pending: dict[str, _PendingFile] = {}

    def add_hand(self, hand: Hand, pending: _PendingFile) -> None:
        self.summary.hands += 1
        pending.hands += 1
        if pending.first_hand_at is None and hand.started_at is not None:
            pending.first_hand_at = hand.started_at
        if hand.hand_id in self.seen_in_batch:
            self.summary.duplicate_hands += 1
            return
        self.seen_in_batch.add(hand.hand_id)
        self.hands.append(hand)
        self.hand_files.append(pending.sha256)
        if len(self.hands) >= self.batch_hands:
            self.flush()

    def add_quarantine(self, q: Quarantined, pending: _PendingFile) -> None:
        pending.quarantined += 1
        self.summary.quarantined += 1
        key = _reason_key(q.reason)
        self.summary.quarantined_by_reason[key] = self.summary.quarantined_by_reason.get(key, 0) + 1
        now = datetime.now(UTC).replace(tzinfo=None)
        self.quarantine.append((pending.sha256, q.source_file, q.byte_offset, q.format, q.reason, q.raw_text, now))

    def flush(self) -> None:
        """Insert the buffered rows (inside the caller's open transaction)."""
        con = self.con
        if self.hands:
            frames = hands_to_frames(self.hands)
            frames.tables["hands"] = frames["hands"].with_columns(
                pl.Series("file_sha256", self.hand_files, dtype=pl.String)
            )
            batch_ids = frames["hands"].select("hand_id")
            con.register("batch_ids", batch_ids.to_arrow())
            new_ids = con.execute(
                "SELECT b.hand_id FROM batch_ids b ANTI JOIN hands h ON h.hand_id = b.hand_id"
            ).pl()
            con.unregister("batch_ids")
            new_set = new_ids["hand_id"]
            self.summary.duplicate_hands += len(self.hands) - len(new_set)
            self.summary.new_hands += len(new_set)
            recon = reconcile_frames(frames)
            tables = {name: frames[name] for name in TABLE_SCHEMAS}
            tables["reconciliation"] = recon
            for name, frame in tables.items():
                subset = frame.filter(pl.col("hand_id").is_in(new_set.implode()))
                if subset.height == 0:
                    continue
                con.register("batch_rows", subset.to_arrow())
                if name == "hands":
                    con.execute(
                        "INSERT INTO hands BY NAME SELECT *, CAST(started_at AS DATE) AS hand_date FROM batch_rows"
                    )
                else:
                    con.execute(f"INSERT INTO {name} BY NAME SELECT * FROM batch_rows")
                con.unregister("batch_rows")
            unreconciled = recon.filter(
                pl.col("hand_id").is_in(new_set.implode()) & (pl.col("status") == "mismatch")
            ).height
            self.summary.unreconciled += unreconciled
            per_file = (
                frames["hands"].filter(pl.col("hand_id").is_in(new_set.implode()))
                .group_by("file_sha256").len()
            )
            for sha, count in per_file.iter_rows():
                self.pending[sha].new_hands += count
        if self.quarantine:
            con.executemany("INSERT INTO quarantine VALUES (?, ?, ?, ?, ?, ?, ?)", self.quarantine)
        self.hands.clear()
        self.hand_files.clear()
        self.quarantine.clear()
        self.seen_in_batch.clear()

    def commit_files(self) -> None:
        """Flush, record the pending files in raw_files and commit them all at once."""
        self.flush()
        now = datetime.now(UTC).replace(tzinfo=None)
        rows = [
            (
                p.sha256, str(p.path), p.size, p.format, p.encoding, p.hands, p.new_hands,
                p.quarantined, now, p.first_hand_at.date().isoformat() if p.first_hand_at else None,
            )
            for p in self.pending.values()
        ]  # fmt: skip
        if rows:
            self.con.executemany("INSERT INTO raw_files VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        self.con.execute("COMMIT")
        self.pending.clear()
        self.con.execute("BEGIN TRANSACTION")


def ingest_paths(
    paths: Sequence[str | Path],
    db_path: str | Path,
    *,
    batch_hands: int = DEFAULT_BATCH_HANDS,
    progress: bool | None = None,
) -> IngestSummary:
    """Ingest files and folders into the warehouse at ``db_path``; see the module docstring."""
    started = time.perf_counter()
    summary = IngestSummary()
    batch_hands = int(os.environ.get("FLOORMAN_INGEST_BATCH", batch_hands))
    files = list(iter_input_files(paths))
    con = connect(db_path)
    try:
        known = {row[0] for row in con.execute("SELECT sha256 FROM raw_files").fetchall()}
        loader = _Loader(con, summary, batch_hands)
        show = sys.stderr.isatty() if progress is None else progress
        bar = _progress(files, show)
        con.execute("BEGIN TRANSACTION")
        for path in bar:
            _ingest_one(path, known, loader, summary)
            if sum(p.hands for p in loader.pending.values()) >= batch_hands:
                loader.commit_files()
        loader.commit_files()
        con.execute("COMMIT")
    finally:
        con.close()
    summary.seconds = time.perf_counter() - started
    return summary


def _progress(files: list[Path], show: bool) -> Iterable[Path]:
    if not show or len(files) < 2:
        return files
    from tqdm import tqdm

    bar: Iterable[Path] = tqdm(files, unit="file", desc="ingest", file=sys.stderr)
    return bar


def _ingest_one(path: Path, known: set[str], loader: _Loader, summary: IngestSummary) -> None:
    try:
        if not path.is_file():
            raise FileNotFoundError("no such file")
        sha = file_sha256(path)
        size = path.stat().st_size
    except OSError as exc:
        summary.files_failed += 1
        summary.errors.append(f"{path}: cannot read: {exc.strerror or exc}")
        return
    if sha in known or sha in loader.pending:
        summary.files_already_ingested += 1
        return
    try:
        fmt = sniff_format(path)
        with path.open("rb") as fh:
            encoding, _ = detect_encoding(fh.read(8192))
    except OSError as exc:
        summary.files_failed += 1
        summary.errors.append(f"{path}: cannot read: {exc}")
        return
    if fmt is None:
        summary.files_unrecognised += 1
        summary.unrecognised.append(str(path))
        return
    pending = _PendingFile(sha, path, size, fmt.name, encoding)
    loader.pending[sha] = pending
    summary.files += 1
    summary.formats[fmt.name] = summary.formats.get(fmt.name, 0) + 1
    try:
        for item in fmt.parse(path):
            if isinstance(item, Hand):
                loader.add_hand(item, pending)
            else:
                loader.add_quarantine(item, pending)
    except Exception as exc:
        loader.add_quarantine(
            Quarantined(str(path), 0, "", f"parser failed on the file: {type(exc).__name__}: {exc}", fmt.name),
            pending,
        )
        summary.errors.append(f"{path}: parser failed: {type(exc).__name__}: {exc}")


def quarantine_counts(con: duckdb.DuckDBPyConnection) -> Counter[str]:
    return Counter(dict(con.execute("SELECT reason, count(*) FROM quarantine GROUP BY 1").fetchall()))
