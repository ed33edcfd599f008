"""Ingest hand-history files into the warehouse: sniff, stream, reconcile, bulk load.

Why it is built this way:

* **Exactly once.** A file is identified by the SHA-256 of its bytes (``raw_files``): the same
  bytes are never loaded twice, and a hand seen in two files (``hand_id`` is namespaced by site)
  is stored once.
* **All or nothing per file.** A file's ``raw_files`` row is committed with its last rows. A big
  file is committed batch by batch (so memory stays flat, DuckDB holding no huge transaction)
  under an ``ingest_in_progress`` marker: if the ingest dies, the next run first deletes that
  file's rows, so no half-loaded file survives and the re-run completes the job.
* **Flat memory.** Hands are streamed and flushed in batches through Arrow (polars frames), never
  row by row.
* **Fast.** A format with a columnar fast path (the batching protocol, ``parsers.base.
  ChunkedFormat``: PokerStars text today) is read in chunks of a few MB of raw hands gathered
  across small files; every buffered hand has a batch key (``_hx``) so a duplicate is dropped
  from all its tables at once. Other formats stream ``Hand`` objects. This module knows formats
  only through ``parsers.base`` and the registry, never by name.
* **Bad input loses nothing.** A hand that cannot be read goes to ``quarantine`` with file, byte
  offset, raw text and reason; an unreadable or unrecognised file is reported by name and reason
  (empty, binary, its first line); a second copy of bytes read earlier in the same run is counted
  as a duplicate within the run, not re-read. A fault of the warehouse itself (a folder, read-only,
  disk full) stops the run as one ``WarehouseError``, and a warehouse the run created but stored
  nothing in is removed.
"""

from __future__ import annotations

import errno
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

from parsers.base import Chunk, ChunkedFormat, Piece
from parsers.model import Hand, Quarantined
from parsers.reading import SNIFF_BYTES, detect_encoding
from parsers.registry import sniff_format

from .db import connect
from .frames import TABLE_SCHEMAS, HandFrames, hands_to_frames
from .reconcile import reconcile_frames

#: raw hand text of a batching format gathered (across files) before one fast-path call (8 MB,
#: ~5,000 PokerStars hands: the fast path reads 6% more hands per CPU-second than at 4 MB, and
#: fewer at 12 MB, where its sorts outgrow the cache)
PIECE_CHUNK_BYTES = 8 << 20
#: hands buffered before a flush to DuckDB (bounds memory, amortises insert overhead)
DEFAULT_BATCH_HANDS = 20_000
#: DuckDB compression methods the ingest connection does not use (see ``_open_warehouse``)
INGEST_DISABLED_COMPRESSION = "fsst"
#: WAL size that makes DuckDB checkpoint at a commit, for the ingest connection (DuckDB's default is
#: 16MB). Why: the ingest commits every batch of whole files and every mid-file flush, and each
#: commit past 16MB of WAL rewrote the hands key index and the open row groups into the file: on
#: 200,000 simulated hands (444 files, one core) 19 commits cost 12 of the 29 s. With a larger
#: threshold the commits only append to the WAL (still durable), and one checkpoint at the end
#: writes the file (29.0 -> 24.5 s; peak RSS 0.72 -> 1.0 GB, bounded by the threshold)
INGEST_CHECKPOINT_THRESHOLD = "256MB"
#: files that are never hand histories (licences, docs, fpdb's expected outputs)
IGNORED_SUFFIXES = frozenset({".md", ".rst", ".py", ".pyc", ".hp", ".hands", ".gt", ".json_expected"})
_QUARANTINE_SCHEMA: dict[str, pl.DataType] = {
    "file_sha256": pl.String(), "source_file": pl.String(), "byte_offset": pl.Int64(), "format": pl.String(),
    "reason": pl.String(), "category": pl.String(), "raw_text": pl.String(), "quarantined_at": pl.Datetime("us"),
}  # fmt: skip
IGNORED_NAMES = frozenset({"LICENSE", "LICENSE.TXT", "LICENSE.txt", "README", "PROVENANCE.txt"})


@dataclass
class IngestSummary:
    """What an ingest run did; printed by the CLI and stored in run reports."""

    files: int = 0  # files read (new content)
    files_already_ingested: int = 0  # stored by an earlier run
    files_duplicate_in_run: int = 0  # the same bytes as a file read earlier in this run
    files_unrecognised: int = 0
    files_failed: int = 0
    hands: int = 0  # hands parsed
    new_hands: int = 0  # hands stored for the first time
    duplicate_hands: int = 0
    quarantined: int = 0
    quarantined_unsupported: int = 0  # games or converter outputs we deliberately do not read
    quarantined_by_reason: dict[str, int] = field(default_factory=dict)
    # group -> the real reasons in it (names, amounts) -> hands; see SPECIFICS_KEPT
    quarantined_specifics: dict[str, dict[str, int]] = field(default_factory=dict)
    unreconciled: int = 0
    formats: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    unrecognised: list[str] = field(default_factory=list)
    duplicates_in_run: dict[str, str] = field(default_factory=dict)  # path -> the path read instead
    unrecognised_reasons: dict[str, str] = field(default_factory=dict)  # path -> why no format took it
    seconds: float = 0.0

    @property
    def parse_rate(self) -> float:
        """Parsed share of the hands of supported formats and variants (issue 2: ≥ 99.5%)."""
        readable = self.hands + self.quarantined - self.quarantined_unsupported
        return self.hands / readable if readable else 1.0

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else 0.0

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["hands_per_second"] = round(self.hands_per_second, 1)
        out["parse_rate"] = round(self.parse_rate, 5)
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


#: reasons that mean "a game or a file layout Floorman deliberately does not read", not damage
UNSUPPORTED_MARKERS = ("unsupported variant", "not PokerStars output", "is not PokerStars layout")


def quarantine_category(reason: str) -> str:
    return "unsupported" if any(m in reason for m in UNSUPPORTED_MARKERS) else "unreadable"


def _reason_key(reason: str) -> str:
    """Group quarantine reasons for the summary: drop line numbers, quoted text and numbers."""
    text = _NUMBER.sub("N", _QUOTED.sub("'…'", _reason_specific(reason)))
    return text[:90]


def _reason_specific(reason: str) -> str:
    """A reason as shown under its group: the real names and amounts, without the line number
    (which differs from hand to hand and would make every reason unique)."""
    text = reason.split(": ", 1)[1] if reason.startswith("line ") else reason
    return text[:160]


#: distinct specifics kept per reason group (the summary shows the first few; the rest are counted)
SPECIFICS_KEPT = 50
#: the specific under which the hands of a group's further specifics are counted
OTHER_SPECIFICS = "(other specifics, not kept)"


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
    """Buffers parsed hands (columnar chunks from a batching format's fast path, or Hand objects) and
    quarantine records, and flushes them in bulk. Every buffered hand has a batch-unique key
    (``_hx``) so a duplicate can be dropped from all its tables at once."""

    def __init__(self, con: duckdb.DuckDBPyConnection, summary: IngestSummary, batch_hands: int) -> None:
        self.con = con
        self.summary = summary
        self.batch_hands = batch_hands
        self.parts: list[dict[str, pl.DataFrame]] = []
        self.hands: list[Hand] = []
        self.hand_keys: list[int] = []
        self.hand_files: list[str] = []
        self.buffered = 0
        self.next_key = 0
        self.quarantine: list[tuple[object, ...]] = []
        self.seen_in_batch: set[str] = set()
        self.pending: dict[str, _PendingFile] = {}
        self.pieces: list[Piece] = []
        self.piece_format: ChunkedFormat | None = None  # the format of the buffered pieces
        self.piece_files: list[_PendingFile] = []
        self.piece_bytes = 0
        self.committed_files = 0  # files whose raw_files rows are committed in this run

    def _admit(self, hand_id: str, started_at: datetime | None, pending: _PendingFile) -> bool:
        """Count a parsed hand; False when it repeats a hand already buffered in this batch."""
        self.summary.hands += 1
        pending.hands += 1
        if pending.first_hand_at is None and started_at is not None:
            pending.first_hand_at = started_at
        if hand_id in self.seen_in_batch:
            self.summary.duplicate_hands += 1
            return False
        self.seen_in_batch.add(hand_id)
        self.buffered += 1
        return True

    def add_hand(self, hand: Hand, pending: _PendingFile) -> None:
        if self._admit(hand.hand_id, hand.started_at, pending):
            self.hands.append(hand)
            self.hand_keys.append(self.next_key)
            self.hand_files.append(pending.sha256)
        self.next_key += 1
        if self.buffered >= self.batch_hands:
            self.flush()

    def add_pieces(self, fmt: ChunkedFormat, pieces: list[Piece], pending: _PendingFile) -> None:
        """Raw hands of a batching format: gathered across files (a fast-path call has a fixed
        cost of a few tens of ms, too much for one 200-hand table file) and read a chunk at a
        time. Pieces of another format first read what is gathered (a chunk has one format)."""
        if self.piece_format is not fmt:
            self.run_pieces()
            self.piece_format = fmt
        self.pieces.extend(pieces)
        self.piece_files.extend([pending] * len(pieces))
        self.piece_bytes += sum(len(data) for _, _, data in pieces)
        if self.piece_bytes >= PIECE_CHUNK_BYTES:
            self.run_pieces()

    def run_pieces(self) -> None:
        """Read the gathered pieces as one chunk (``read_chunk`` never raises for a parser bug:
        the format's exact parser then reads every piece)."""
        if not self.pieces or self.piece_format is None:
            return
        pieces, files = self.pieces, self.piece_files
        self.pieces, self.piece_files, self.piece_bytes = [], [], 0
        self.add_chunk(self.piece_format.read_chunk(pieces), files)

    def add_chunk(self, chunk: Chunk, pending: _PendingFile | list[_PendingFile]) -> None:
        """A columnar chunk: its fast-path frames and its parser-read hands, in file order
        (``pending``: the file, or the file of each hand of the chunk)."""
        files = pending if isinstance(pending, list) else [pending] * chunk.n_hands
        base = self.next_key
        self.next_key += chunk.n_hands
        fast = chunk.tables["hands"]
        # (key, hand_id, row of the fast frame or the parser's Hand); start times are turned into
        # Python datetimes only for a file's first dated hand
        keys, ids = fast["_hx"].to_list(), fast["hand_id"].to_list()
        order: list[tuple[int, str, int | Hand]] = [
            (k, hid, row) for row, (k, hid) in enumerate(zip(keys, ids, strict=True))
        ]
        for k, item in chunk.items:
            if isinstance(item, Hand):
                order.append((k, item.hand_id, item))
            else:
                self.add_quarantine(item, files[k])
        order.sort(key=lambda row: row[0])
        started = fast["started_at"]
        dropped: list[int] = []
        for k, hand_id, src in order:
            hand = src if isinstance(src, Hand) else None
            started_at = None
            if files[k].first_hand_at is None:
                started_at = src.started_at if isinstance(src, Hand) else started[src]
            if not self._admit(hand_id, started_at, files[k]):
                if hand is None:
                    dropped.append(k)
            elif hand is not None:
                self.hands.append(hand)
                self.hand_keys.append(base + k)
                self.hand_files.append(files[k].sha256)
        tables = chunk.tables
        if dropped:
            keep = ~pl.col("_hx").is_in(pl.Series(dropped, dtype=pl.Int64).implode())
            tables = {name: frame.filter(keep) for name, frame in tables.items()}
        shifted = {name: frame.with_columns(pl.col("_hx") + base) for name, frame in tables.items()}
        hands = shifted["hands"]
        if isinstance(pending, list):
            shas = pl.Series("file_sha256", [f.sha256 for f in files], dtype=pl.String)
            hands = hands.with_columns(shas.gather(hands["_hx"] - base))
        else:
            hands = hands.with_columns(pl.lit(pending.sha256).alias("file_sha256"))
        shifted["hands"] = hands
        self.parts.append(shifted)
        if self.buffered >= self.batch_hands:
            self.flush()

    def add_quarantine(self, q: Quarantined, pending: _PendingFile) -> None:
        pending.quarantined += 1
        self.summary.quarantined += 1
        category = quarantine_category(q.reason)
        if category == "unsupported":
            self.summary.quarantined_unsupported += 1
        key = _reason_key(q.reason)
        self.summary.quarantined_by_reason[key] = self.summary.quarantined_by_reason.get(key, 0) + 1
        specifics = self.summary.quarantined_specifics.setdefault(key, {})
        specific = _reason_specific(q.reason)
        if specific not in specifics and len(specifics) >= SPECIFICS_KEPT:
            specific = OTHER_SPECIFICS
        specifics[specific] = specifics.get(specific, 0) + 1
        now = datetime.now(UTC).replace(tzinfo=None)
        self.quarantine.append(
            (pending.sha256, q.source_file, q.byte_offset, q.format, q.reason, category, q.raw_text, now)
        )

    def _batch_frames(self) -> HandFrames:
        parts = list(self.parts)
        if self.hands:
            frames = hands_to_frames(self.hands, index=self.hand_keys)
            frames.tables["hands"] = frames["hands"].with_columns(
                pl.Series("file_sha256", self.hand_files, dtype=pl.String)
            )
            parts.append(frames.tables)
        return HandFrames({name: pl.concat([p[name] for p in parts]).drop("_hx") for name in TABLE_SCHEMAS})

    def flush(self, mid_file: bool = True) -> None:
        """Insert the buffered rows; a flush forced by the batch size inside a file commits them
        under in-progress markers (see ``_checkpoint``)."""
        con = self.con
        if self.parts or self.hands:
            frames = self._batch_frames()
            batch_ids = frames["hands"].select("hand_id")
            con.register("batch_ids", batch_ids.to_arrow())
            new_ids = con.execute(
                "SELECT b.hand_id FROM batch_ids b ANTI JOIN hands h ON h.hand_id = b.hand_id"
            ).pl()
            con.unregister("batch_ids")
            new_set = new_ids["hand_id"]
            n_batch = frames["hands"].height
            self.summary.duplicate_hands += n_batch - len(new_set)
            self.summary.new_hands += len(new_set)
            recon = reconcile_frames(frames)
            tables = {name: frames[name] for name in TABLE_SCHEMAS}
            tables["reconciliation"] = recon
            all_new = len(new_set) == n_batch
            for name, frame in tables.items():
                subset = frame if all_new else frame.filter(pl.col("hand_id").is_in(new_set.implode()))
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
            stored = recon if all_new else recon.filter(pl.col("hand_id").is_in(new_set.implode()))
            self.summary.unreconciled += stored.filter(pl.col("status") == "mismatch").height
            stored_hands = frames["hands"]
            if not all_new:
                stored_hands = stored_hands.filter(pl.col("hand_id").is_in(new_set.implode()))
            for sha, count in stored_hands.group_by("file_sha256").len().iter_rows():
                self.pending[sha].new_hands += count
        if self.quarantine:
            rows = pl.DataFrame(self.quarantine, schema=_QUARANTINE_SCHEMA, orient="row")
            con.register("batch_rows", rows.to_arrow())
            con.execute("INSERT INTO quarantine BY NAME SELECT * FROM batch_rows")
            con.unregister("batch_rows")
        self.parts.clear()
        self.hands.clear()
        self.hand_keys.clear()
        self.hand_files.clear()
        self.quarantine.clear()
        self.seen_in_batch.clear()
        self.buffered = 0
        self.next_key = 0
        if self.pending and mid_file:
            self._checkpoint()

    def _checkpoint(self) -> None:
        """Commit what is flushed so far under in-progress markers for the files still open."""
        now = datetime.now(UTC).replace(tzinfo=None)
        self.con.executemany(
            "INSERT OR IGNORE INTO ingest_in_progress VALUES (?, ?, ?)",
            [(p.sha256, str(p.path), now) for p in self.pending.values()],
        )
        self.con.execute("COMMIT")
        self.con.execute("BEGIN TRANSACTION")

    def commit_files(self) -> None:
        """Flush, record the pending files in raw_files and commit them all at once."""
        self.run_pieces()
        self.flush(mid_file=False)
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
            self.con.executemany("DELETE FROM ingest_in_progress WHERE sha256 = ?", [(r[0],) for r in rows])
        self.con.execute("COMMIT")
        self.committed_files += len(rows)
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
    db = Path(db_path)
    created = not db.exists()
    loader: _Loader | None = None
    try:
        con = _open_warehouse(db)
        try:
            loader = _Loader(con, summary, batch_hands)
            show = sys.stderr.isatty() if progress is None else progress
            _ingest_files(_progress(files, show), con, loader, summary)
        finally:
            con.close()
    except (OSError, duckdb.Error) as exc:
        if not is_warehouse_failure(exc):
            raise
        stored = loader.committed_files if loader else 0
        if created and stored == 0:
            remove_warehouse(db)  # no half-made warehouse is left behind
        summary.seconds = time.perf_counter() - started
        raise WarehouseError(db, warehouse_reason(exc), summary, stored) from exc
    summary.seconds = time.perf_counter() - started
    return summary


class WarehouseError(Exception):
    """The warehouse file cannot be opened or written (a folder, read-only, disk full): the run
    stops, and the caller gets one line of why plus what was stored before (``stored`` files)."""

    def __init__(self, db_path: Path, reason: str, summary: IngestSummary, stored: int) -> None:
        super().__init__(f"{db_path}: {reason}")
        self.db_path, self.reason, self.summary, self.stored = db_path, reason, summary, stored


def _open_warehouse(db: Path) -> duckdb.DuckDBPyConnection:
    """Connect, refusing a folder up front (DuckDB's own error for it reads like a bug)."""
    if db.is_dir():
        raise IsADirectoryError(errno.EISDIR, "Is a directory", str(db))
    con = connect(db)  # with the deployment's DuckDB settings (threads, memory: warehouse.db)
    # FSST string compression costs a fifth of the load's DuckDB time (50k hands: 1.45 -> 1.15
    # CPU-s) for a file a fifth smaller; ingest is the night's bottleneck, so strings the ingest
    # writes are dictionary-compressed or plain
    con.execute(f"SET disabled_compression_methods = '{INGEST_DISABLED_COMPRESSION}'")
    con.execute(f"SET checkpoint_threshold = '{INGEST_CHECKPOINT_THRESHOLD}'")
    return con


def _ingest_files(
    files: Iterable[Path], con: duckdb.DuckDBPyConnection, loader: _Loader, summary: IngestSummary
) -> None:
    """Read every file into the open warehouse, committing whole files a batch at a time."""
    recover_interrupted(con)
    known = {row[0] for row in con.execute("SELECT sha256 FROM raw_files").fetchall()}
    # files read in this run by content; kept apart from ``known`` (earlier runs) and outliving
    # a batch commit, so a later copy of the same bytes is neither re-read nor re-inserted
    read_this_run: dict[str, Path] = {}
    con.execute("BEGIN TRANSACTION")
    for path in files:
        _ingest_one(path, known, read_this_run, loader, summary)
        if sum(p.hands for p in loader.pending.values()) >= loader.batch_hands:
            loader.commit_files()
    loader.commit_files()
    con.execute("COMMIT")
    con.execute("CHECKPOINT")  # the file holds everything, and the next reader replays no WAL


def is_warehouse_failure(exc: BaseException) -> bool:
    """True for a fault of the warehouse file or its disk, not of Floorman's own SQL."""
    if isinstance(exc, (OSError, duckdb.IOException, duckdb.PermissionException)):
        return True
    text = str(exc)
    return isinstance(exc, (duckdb.TransactionException, duckdb.FatalException)) and any(
        marker in text for marker in ("Could not write", "No space left", "Failed to commit", "invalidated")
    )


#: what the OS or DuckDB says, and how the warehouse error line says it
_WAREHOUSE_REASONS = (
    ("Is a directory", "is a folder, not a warehouse file (give a file path, e.g. FOLDER/warehouse.duckdb)"),
    ("No space left on device", "cannot write the warehouse: disk full (no space left on device)"),
    ("Read-only file system", "cannot write the warehouse: read-only file system"),
    ("Permission denied", "cannot write the warehouse: permission denied"),
    ("not a valid DuckDB database", "is not a DuckDB warehouse file"),
)


def warehouse_reason(exc: BaseException) -> str:
    text = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    for marker, reason in _WAREHOUSE_REASONS:
        if marker in text or marker in str(exc):
            return reason
    return f"cannot open or write the warehouse: {text.splitlines()[0] if text else type(exc).__name__}"


def remove_warehouse(db: Path) -> None:
    """Delete a warehouse file this run created (and its WAL)."""
    for suffix in ("", ".wal"):
        candidate = Path(f"{db}{suffix}")
        if candidate.is_file():
            candidate.unlink(missing_ok=True)


def recover_interrupted(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Delete every row of files whose ingest died midway, so they load again from scratch."""
    interrupted = [r[0] for r in con.execute("SELECT sha256 FROM ingest_in_progress").fetchall()]
    if not interrupted:
        return []
    tables = [
        r[0] for r in con.execute(
            "SELECT DISTINCT table_name FROM information_schema.columns "
            "WHERE column_name = 'hand_id' AND table_name <> 'hands'"
        ).fetchall()
    ]
    con.execute("BEGIN TRANSACTION")
    for sha in interrupted:
        ids = "SELECT hand_id FROM hands WHERE file_sha256 = ?"
        for table in tables:
            con.execute(f"DELETE FROM {table} WHERE hand_id IN ({ids})", [sha])
        con.execute("DELETE FROM hands WHERE file_sha256 = ?", [sha])
        con.execute("DELETE FROM quarantine WHERE file_sha256 = ?", [sha])
        con.execute("DELETE FROM ingest_in_progress WHERE sha256 = ?", [sha])
    con.execute("COMMIT")
    return interrupted


def _progress(files: list[Path], show: bool) -> Iterable[Path]:
    if not show or len(files) < 2:
        return files
    from tqdm import tqdm

    bar: Iterable[Path] = tqdm(files, unit="file", desc="ingest", file=sys.stderr)
    return bar


def _ingest_one(
    path: Path, known: set[str], read_this_run: dict[str, Path], loader: _Loader, summary: IngestSummary
) -> None:
    try:
        if not path.is_file():
            raise FileNotFoundError("no such file")
        sha = file_sha256(path)
        size = path.stat().st_size
    except OSError as exc:
        summary.files_failed += 1
        summary.errors.append(f"{path}: cannot read: {exc.strerror or exc}")
        return
    if sha in known:
        summary.files_already_ingested += 1
        return
    if sha in read_this_run:
        summary.files_duplicate_in_run += 1
        summary.duplicates_in_run[str(path)] = str(read_this_run[sha])
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
        summary.unrecognised_reasons[str(path)] = unrecognised_reason(path, size)
        return
    pending = _PendingFile(sha, path, size, fmt.name, encoding)
    loader.pending[sha] = pending
    read_this_run[sha] = path
    summary.files += 1
    summary.formats[fmt.name] = summary.formats.get(fmt.name, 0) + 1
    try:
        items = fmt.iter_pieces(path) if isinstance(fmt, ChunkedFormat) else fmt.parse(path)
        for item in items:
            if isinstance(item, list):
                assert isinstance(fmt, ChunkedFormat)  # only the batching protocol yields pieces
                loader.add_pieces(fmt, item, pending)
            elif isinstance(item, Hand):
                loader.add_hand(item, pending)
            else:
                loader.add_quarantine(item, pending)
    except duckdb.Error:
        raise  # the warehouse failed while flushing, not the parser: the run stops (WarehouseError)
    except Exception as exc:
        loader.add_quarantine(
            Quarantined(str(path), 0, "", f"parser failed on the file: {type(exc).__name__}: {exc}", fmt.name),
            pending,
        )
        summary.errors.append(f"{path}: parser failed: {type(exc).__name__}: {exc}")


#: control characters that do not occur in text (tab, newline, form feed and carriage return do)
_BINARY_BYTES = bytes(b for b in range(32) if b not in (9, 10, 12, 13))


def unrecognised_reason(path: Path, size: int) -> str:
    """Why no format recognised a file, in words a user can act on (empty, binary, or what it
    starts with)."""
    if size == 0:
        return "empty file"
    try:
        with path.open("rb") as fh:
            head = fh.read(SNIFF_BYTES)
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
    encoding, bom = detect_encoding(head)
    if not encoding.startswith("utf-16") and _looks_binary(head):
        return "binary content, not a text hand history"
    text = head[bom:].decode(encoding, errors="replace").strip()
    if not text:
        return "only blank space"
    first = text.splitlines()[0][:60]
    return f"no supported format recognises its content (first line: {first!r})"


def _looks_binary(head: bytes) -> bool:
    """More than 1 in 100 bytes a control character no text uses (NUL among them)."""
    controls = len(head) - len(head.translate(None, _BINARY_BYTES))
    return controls * 100 > len(head)


def quarantine_counts(con: duckdb.DuckDBPyConnection) -> Counter[str]:
    return Counter(dict(con.execute("SELECT reason, count(*) FROM quarantine GROUP BY 1").fetchall()))
