"""The nightly audit's steps as plain functions: what Dagster assets and ``floorman audit`` run.

Why plain functions: the same code runs under the Dagster UI, in ``floorman audit`` for people
without it, and in tests, and each step is idempotent (a partition is rebuilt from scratch, the
combined warehouse is rebuilt from its partitions), so re-running a night gives identical results.

Layout of a night's working folder (``work``)::

    work/staging/<partition>.duckdb  a partition's parsed hands (``partition_hands``)
    work/parts/<partition>.duckdb    a published partition: parsed and rule-checked, only ever
                                     renamed into place whole (``partition_rule_findings``)
    work/warehouse.duckdb            the combined build of parts/ (one writer: the combine step)
    work/published/CURRENT           pointer to the read-only snapshot the dashboard reads

Why staging and a rename: ``warehouse`` may attach ``parts/*.duckdb`` at any time, so a partition
is written to a temporary file beside its final name and ``os.replace``d (atomic on one file
system); a reader sees the old file or the new one, never half of one. A partition whose ingest
failed its blocking parse-rate check stays in staging and is never renamed into parts/.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from detectors.queue import DEFAULT_CAP_PER_1000_PLAYERS
from warehouse.db import connect, memory_limit, table_exists
from warehouse.ingest import IngestSummary, ingest_paths, iter_input_files
from warehouse.merge import merge_warehouses
from warehouse.snapshot import publish

#: parse rate below which the night's ingest check fails (issue 2: at least 99.5%)
MIN_PARSE_RATE = 0.995

RUN_REPORTS_DDL = """
CREATE TABLE IF NOT EXISTS run_reports (
    run_id        VARCHAR PRIMARY KEY,
    started_at    TIMESTAMP NOT NULL,
    finished_at   TIMESTAMP NOT NULL,
    partitions    VARCHAR NOT NULL,   -- JSON list of partition keys
    hands         BIGINT NOT NULL,
    new_hands     BIGINT NOT NULL,
    quarantined   BIGINT NOT NULL,
    unreconciled  BIGINT NOT NULL,
    violations    VARCHAR NOT NULL,   -- JSON: findings by rule and by table
    flags         VARCHAR NOT NULL,   -- JSON: flags new / updated / by family
    quarantined_files VARCHAR NOT NULL, -- JSON list
    checks        VARCHAR NOT NULL,   -- JSON list of {name, passed, severity, detail}
    report        VARCHAR NOT NULL    -- the full report as JSON
);
"""


@dataclass
class CheckOutcome:
    """One audit check's result, as stored in the run report and shown in Dagster."""

    name: str
    passed: bool
    severity: str  # "warn" or "error"
    detail: str
    metadata: dict[str, Any] = field(default_factory=dict)


def partition_db(work: Path, partition: str) -> Path:
    """The published partition file that ``warehouse`` combines."""
    return work / "parts" / f"{partition}.duckdb"


def staging_db(work: Path, partition: str) -> Path:
    """The partition's parsed hands before its checks and rule replay let it into parts/."""
    return work / "staging" / f"{partition}.duckdb"


def landing_files(landing: Path, partition: str, shard: int = 0, n_shards: int = 1) -> list[Path]:
    """Files landed for a partition: ``landing/<YYYY-MM-DD>/`` (how site exports are dropped),
    the slice of them in ``shard`` when the day is split into ``n_shards``."""
    from pipelines.partitions import shard_of

    folder = landing / partition
    if not folder.exists():
        return []
    files = sorted(iter_input_files([folder]))
    return [f for f in files if shard_of(_relative(f, folder), n_shards) == shard]


def _relative(path: Path, folder: Path) -> str:
    try:
        return path.relative_to(folder).as_posix()
    except ValueError:
        return path.as_posix()


def fingerprint(files: Sequence[Path]) -> str:
    """What a launch is deduplicated on: the files' paths, sizes and modification times."""
    digest = hashlib.sha1(usedforsecurity=False)
    for f in sorted(files):
        st = f.stat()
        digest.update(f"{f.as_posix()}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def _temp_beside(final: Path) -> Path:
    final.parent.mkdir(parents=True, exist_ok=True)
    return final.with_name(f"{final.name}.tmp-{uuid.uuid4().hex[:8]}")


def _remove_db(path: Path) -> None:
    for suffix in ("", ".wal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def _replace_db(tmp: Path, final: Path) -> None:
    """Fold the temporary file's WAL into it, then rename it over ``final`` in one step."""
    _checkpoint(tmp)
    Path(f"{tmp}.wal").unlink(missing_ok=True)
    os.replace(tmp, final)
    Path(f"{final}.wal").unlink(missing_ok=True)  # a WAL of the file that was replaced


def build_partition_hands(files: Sequence[Path], staged: Path) -> IngestSummary:
    """Parse a partition's files into a fresh file renamed over ``staged`` (idempotent)."""
    tmp = _temp_beside(staged)
    try:
        summary = ingest_paths(list(files), tmp, progress=False)
        if not tmp.exists():
            connect(tmp).close()
        _replace_db(tmp, staged)
    finally:
        _remove_db(tmp)
    return summary


def publish_partition(staged: Path, part: Path, rulebook: str | None = None,
                      detector_out: Path | None = None) -> StepResult:
    """Rule-check a copy of the staged partition and rename it over ``part`` (atomic); with
    ``detector_out``, build the partition's detector tables from that copy first."""
    tmp = _temp_beside(part)
    try:
        _checkpoint(staged)
        shutil.copyfile(staged, tmp)
        result = run_rule_checks(tmp, rulebook)
        if detector_out is not None:
            _checkpoint(tmp)  # the token is taken from the file exactly as it is renamed
            result.metadata["detector_tables_seconds"] = build_detector_tables(tmp, detector_out)
        _replace_db(tmp, part)
    finally:
        _remove_db(tmp)
    return result


#: the hole-card mode of the night's detector run (``run_detectors``) and of its partition tables
DETECT_MODE = "operator"


def detector_db(work: Path, partition: str) -> Path:
    """A partition's detector tables (``detectors.partial``), beside parts/ and not in it: the
    combined warehouse is built from parts/*.duckdb."""
    return work / "detect_parts" / f"{partition}.duckdb"


def build_detector_tables(part: Path, out: Path) -> float:
    """The partition's per-hand features, player statistics and pair rows into ``out`` (written
    beside it and renamed in whole), tied to ``part`` as it is now; returns the seconds."""
    from detectors import partial

    t0 = time.perf_counter()
    tmp = _temp_beside(out)
    try:
        partial.build(part, tmp, DETECT_MODE, part_token=partial.token(part))
        os.replace(tmp, out)
    finally:
        _remove_db(tmp)
    return elapsed(t0)


def ingest_checks(summary: IngestSummary) -> list[CheckOutcome]:
    """Parse rate and reconciliation checks for one partition's ingest."""
    rate = summary.parse_rate
    readable = summary.hands + summary.quarantined - summary.quarantined_unsupported
    return [
        CheckOutcome(
            "parse_rate",
            rate >= MIN_PARSE_RATE,
            "error",  # blocking: a partition that fails it is not published
            f"{summary.hands} of {readable} hands of supported formats parsed ({rate:.2%}); "
            f"{summary.quarantined_unsupported} more are unsupported games or layouts; quarantined by reason: "
            f"{json.dumps(summary.quarantined_by_reason, sort_keys=True)}",
            {"parse_rate": rate, "quarantined": summary.quarantined,
             "quarantined_unsupported": summary.quarantined_unsupported},
        ),
        CheckOutcome(
            "unreconciled_hands",
            summary.unreconciled == 0,
            "warn",
            f"{summary.unreconciled} hands whose chips do not reconcile",
            {"unreconciled": summary.unreconciled},
        ),
    ]


def combine_partitions(parts: Sequence[Path], build: Path) -> dict[str, int]:
    """Rebuild the combined warehouse from partition files (deterministic: sorted, from scratch).

    Why start from a file copy of the first partition: merging a partition into an empty
    warehouse inserts every row of it (its hand ids and file hashes are unique within it), so a
    byte copy gives the same rows at disk speed instead of re-inserting millions of them; the
    other partitions are folded in with the exactly-once rules of ``merge_warehouses``.
    """
    for suffix in ("", ".wal", ".parts.json"):
        Path(f"{build}{suffix}").unlink(missing_ok=True)
    ordered = sorted(parts)
    if not ordered:
        connect(build).close()
        return {}
    first = ordered[0]
    _checkpoint(first)  # fold a leftover WAL into the file before copying it
    _record_combined(build, ordered)
    shutil.copyfile(first, build)
    con = connect(build)  # applies the schema (idempotent) to the copy
    try:
        added = {t: _scalar(con, f'SELECT count(*) FROM "{t}"') for (t,) in con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1"
        ).fetchall()}
    finally:
        con.close()
    for table, rows in merge_warehouses(build, ordered[1:]).items():
        added[table] = added.get(table, 0) + rows
    return added


def _record_combined(build: Path, parts: Sequence[Path]) -> None:
    """Which partition files (name and token) the build is made of: the detector step uses a
    partition's detector tables only when they were built from exactly the file combined."""
    from detectors.partial import token

    for part in parts[1:]:
        _checkpoint(part)
    record = {p.stem: token(p) for p in parts}
    Path(f"{build}.parts.json").write_text(json.dumps(record, sort_keys=True), encoding="utf-8")


def combined_detector_tables(build: Path, work: Path) -> list[tuple[Path, str]]:
    """(detector file, token of the partition file combined) for every partition of the build."""
    record = Path(f"{build}.parts.json")
    if not record.exists():
        return []
    parts = json.loads(record.read_text(encoding="utf-8"))
    return [(detector_db(work, name), tok) for name, tok in sorted(parts.items())]


def _checkpoint(db: Path) -> None:
    if Path(f"{db}.wal").exists():
        con = connect(db)
        try:
            con.execute("CHECKPOINT")
        finally:
            con.close()


@dataclass
class StepResult:
    """What a rule or detector step reports back: one check outcome plus metadata."""

    check: CheckOutcome
    metadata: dict[str, Any] = field(default_factory=dict)


def run_rule_checks(db: Path, rulebook: str | None = None) -> StepResult:
    """Replay every hand in ``db`` under its rulebook (writes action_states and violations)."""
    from rules.runner import check_warehouse

    t0 = time.perf_counter()
    summary = check_warehouse(db, rulebook)
    con = connect(db)
    try:
        errors = con.execute(
            "SELECT h.table_name, count(*) FROM violations v JOIN hands h USING (hand_id) "
            "WHERE v.severity = 'error' AND NOT v.house_decision GROUP BY 1 ORDER BY 2 DESC"
        ).fetchall()
    finally:
        con.close()
    detail = "; ".join(f"{t}: {n}" for t, n in errors[:20]) or "no error-level violations"
    check = CheckOutcome("error_violations_per_table", not errors, "warn", detail,
                         {"tables_with_errors": len(errors), "error_violations": sum(n for _, n in errors)})
    meta = {k: v for k, v in summary.items() if isinstance(v, int | float | str)}
    meta["seconds"] = elapsed(t0)
    return StepResult(check, meta)


DETECT_MEMORY = "5GB"


def run_detectors(build: Path, work: Path,
                  flag_cap_per_1000_players: float | None = DEFAULT_CAP_PER_1000_PLAYERS) -> StepResult:
    """Player/pair statistics, detectors and flags over the combined warehouse (the queue at most
    ``flag_cap_per_1000_players`` flags per 1,000 active players, if given)."""
    from detectors.api import detect_warehouse

    t0 = time.perf_counter()
    con = connect(build)
    try:
        # 5 GB for DuckDB: with each stage's intermediate tables released (detectors.run.release)
        # a 1M-hand night runs in 83.7 s at a peak RSS of 7.2 GB, inside the detectors' 8 GB;
        # 6 GB was no faster (82.5 s) and peaked at 8.2 GB (bench/detect.py, 2026-12-02, idle)
        summary = detect_warehouse(con, mode=DETECT_MODE, memory_limit=memory_limit(DETECT_MEMORY),
                                   budget_cap_per_1000_players=flag_cap_per_1000_players,
                                   partials=combined_detector_tables(build, work))
        total = int((con.execute("SELECT count(*) FROM flags").fetchone() or (0,))[0])
    finally:
        con.close()
    history = _flag_volume_history(work)
    baseline = sorted(history)[len(history) // 2] if history else None
    passed = baseline is None or total <= max(3 * baseline, baseline + 10)
    detail = f"{total} flags tonight; recent median {baseline if baseline is not None else 'n/a'}"
    meta = {k: v for k, v in summary.items() if isinstance(v, int | float | str)}
    meta.update({"flags": total, "seconds": elapsed(t0)})
    check = CheckOutcome("flag_volume", passed, "warn", detail, {"flags": total})
    out = work / "checks" / "night.detect.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps([check.__dict__], sort_keys=True, default=str), encoding="utf-8")
    return StepResult(check, meta)


def _flag_volume_history(work: Path, nights: int = 14) -> list[int]:
    hist = work / "history.duckdb"
    if not hist.exists():
        return []
    con = connect(hist)
    try:
        con.execute(RUN_REPORTS_DDL)
        rows = con.execute(
            "SELECT flags FROM run_reports ORDER BY finished_at DESC LIMIT ?", [nights]
        ).fetchall()
    finally:
        con.close()
    return [int(json.loads(r[0]).get("total", 0)) for r in rows]


def collect_outcomes(work: Path) -> list[CheckOutcome]:
    """Check outcomes saved by the partition steps of this night."""
    outcomes: list[CheckOutcome] = []
    for path in sorted((work / "checks").glob("*.json")):
        partition = ".".join(path.name.split(".")[:-2])  # <partition>.<stage>.json
        for row in json.loads(path.read_text(encoding="utf-8")):
            row["name"] = f"{row['name']}[{partition}]"
            outcomes.append(CheckOutcome(**row))
    return outcomes


def write_run_report(
    build: Path,
    work: Path,
    started_at: datetime,
    checks: Sequence[CheckOutcome],
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Summarise the night from the combined warehouse and store it in ``run_reports``.

    Reports accumulate in ``work/history.duckdb`` (the warehouse itself is rebuilt every night)
    and the whole history is copied into the warehouse so the published snapshot carries it.
    """
    con = connect(build)
    try:
        con.execute(RUN_REPORTS_DDL)
        hands = _scalar(con, "SELECT count(*) FROM hands")
        quarantined = _scalar(con, "SELECT count(*) FROM quarantine")
        unreconciled = _scalar(con, "SELECT count(*) FROM reconciliation WHERE status = 'mismatch'")
        new_hands = _new_hands(con, work)
        qfiles = [r[0] for r in con.execute("SELECT DISTINCT source_file FROM quarantine ORDER BY 1").fetchall()]
        partitions = [r[0] for r in con.execute(
            "SELECT DISTINCT CAST(hand_date AS VARCHAR) FROM hands WHERE hand_date IS NOT NULL ORDER BY 1"
        ).fetchall()]
        violations = _violations_summary(con)
        flags = _flags_summary(con, work)
    finally:
        con.close()
    run_id = f"run-{started_at:%Y%m%dT%H%M%S}-{uuid.uuid4().hex[:6]}"
    report: dict[str, Any] = {
        "run_id": run_id,
        "partitions": partitions,
        "hands": hands,
        "new_hands": new_hands,
        "quarantined": quarantined,
        "unreconciled": unreconciled,
        "violations": violations,
        "flags": flags,
        "quarantined_files": qfiles,
        "checks": [c.__dict__ for c in checks],
        **(extra or {}),
    }
    row = [
        run_id, started_at, now_utc(), json.dumps(partitions), hands, new_hands, quarantined,
        unreconciled, json.dumps(violations, sort_keys=True), json.dumps(flags, sort_keys=True),
        json.dumps(qfiles), json.dumps(report["checks"], sort_keys=True, default=str),
        json.dumps(report, sort_keys=True, default=str),
    ]  # fmt: skip
    hist = connect(work / "history.duckdb")
    try:
        hist.execute(RUN_REPORTS_DDL)
        hist.execute("INSERT INTO run_reports VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
        _save_flag_history(hist, build)
    finally:
        hist.close()
    con = connect(build)
    try:
        con.execute(RUN_REPORTS_DDL)
        con.execute("DELETE FROM run_reports")
        con.execute(f"INSERT INTO run_reports SELECT * FROM read_parquet('{_export_reports(work)}')")
    finally:
        con.close()
    _save_reported_hands(work, build)
    return report


def _scalar(con: Any, sql: str) -> int:
    row = con.execute(sql).fetchone()
    return int(row[0]) if row else 0


def _export_reports(work: Path) -> Path:
    out = work / "run_reports.parquet"
    hist = connect(work / "history.duckdb")
    try:
        hist.execute(f"COPY (SELECT * FROM run_reports ORDER BY started_at) TO '{out}' (FORMAT parquet)")
    finally:
        hist.close()
    return out


#: the hand ids (as 64-bit hashes) of the warehouse the last report described
_REPORTED_HANDS_DDL = "CREATE TABLE IF NOT EXISTS reported_hands (h UBIGINT)"


def _new_hands(con: Any, work: Path) -> int:
    """Hands that were not in the warehouse of the last night that wrote a report (hand ids
    compared as 64-bit hashes: a collision among ten million hands has odds of about 3 in a million).

    Why not the ingest's own count: every partition is rebuilt from scratch, so its ingest calls
    all of its hands new, and a re-run night reported the whole warehouse as new. The first night
    (and the first after upgrading from a history without ``reported_hands``) counts every hand."""
    hist_path = work / "history.duckdb"
    if not hist_path.exists():
        return _scalar(con, "SELECT count(*) FROM hands")
    con.execute(f"ATTACH '{hist_path}' AS hist (READ_ONLY)")
    try:
        if not table_exists(con, "reported_hands", catalog="hist"):
            return _scalar(con, "SELECT count(*) FROM hands")
        return _scalar(con, "SELECT count(*) FROM hands ANTI JOIN hist.reported_hands r ON r.h = hash(hands.hand_id)")
    finally:
        con.execute("DETACH hist")


def _save_reported_hands(work: Path, build: Path) -> None:
    """Remember the hands tonight's report described, so the next night can count its new ones.
    Written last, after the report is in both files, so a report that failed half-way and is
    retried still counts tonight's hands against the previous night."""
    hist = connect(work / "history.duckdb")
    try:
        hist.execute(_REPORTED_HANDS_DDL)
        hist.execute(f"ATTACH '{build}' AS b (READ_ONLY)")
        try:
            hist.execute("DELETE FROM reported_hands")
            hist.execute("INSERT INTO reported_hands SELECT hash(hand_id) FROM b.hands")
        finally:
            hist.execute("DETACH b")
    finally:
        hist.close()


def _save_flag_history(hist: Any, build: Path) -> None:
    """Remember tonight's flags (id, score) so tomorrow can tell new from updated."""
    hist.execute(
        "CREATE TABLE IF NOT EXISTS flag_history (flag_id VARCHAR PRIMARY KEY, score DOUBLE, seen_at TIMESTAMP)"
    )
    hist.execute(f"ATTACH '{build}' AS b (READ_ONLY)")
    try:
        if table_exists(hist, "flags", catalog="b"):
            hist.execute(
                "INSERT OR REPLACE INTO flag_history SELECT flag_id, score, now() FROM b.flags"
            )
    finally:
        hist.execute("DETACH b")


def _violations_summary(con: Any) -> dict[str, Any]:
    if not table_exists(con, "violations"):
        return {"available": False}
    by_rule = con.execute(
        "SELECT rule_id, severity, count(*) FROM violations GROUP BY 1, 2 ORDER BY 3 DESC"
    ).fetchall()
    by_table = con.execute(
        "SELECT h.table_name, count(*) FROM violations v JOIN hands h USING (hand_id) "
        "WHERE v.severity = 'error' GROUP BY 1 ORDER BY 2 DESC LIMIT 50"
    ).fetchall()
    return {
        "available": True,
        "by_rule": [{"rule_id": r, "severity": s, "count": n} for r, s, n in by_rule],
        "errors_by_table": {t: n for t, n in by_table},
    }


def _flags_summary(con: Any, work: Path) -> dict[str, Any]:
    if not table_exists(con, "flags"):
        return {"available": False, "total": 0}
    by_family = dict(con.execute("SELECT family, count(*) FROM flags GROUP BY 1").fetchall())
    by_severity = dict(con.execute("SELECT severity, count(*) FROM flags GROUP BY 1").fetchall())
    new = updated = 0
    hist_path = work / "history.duckdb"
    if hist_path.exists():
        con.execute(f"ATTACH '{hist_path}' AS hist (READ_ONLY)")
        try:
            if table_exists(con, "flag_history", catalog="hist"):
                new, updated = con.execute(
                    "SELECT count(*) FILTER (WHERE h.flag_id IS NULL), "
                    "count(*) FILTER (WHERE h.flag_id IS NOT NULL AND h.score <> f.score) "
                    "FROM flags f LEFT JOIN hist.flag_history h USING (flag_id)"
                ).fetchone() or (0, 0)
            else:
                new = sum(by_family.values())
        finally:
            con.execute("DETACH hist")
    else:
        new = sum(by_family.values())
    return {"available": True, "total": sum(by_family.values()), "new": int(new), "updated": int(updated),
            "by_family": by_family, "by_severity": by_severity}


def publish_snapshot(build: Path, serve_root: Path, timings: dict[str, float] | None = None) -> Path:
    """Build the dashboard's summaries into the closed warehouse, then publish a copy of it."""
    from dashboards.precompute import refresh_summaries

    t0 = time.perf_counter()
    refresh_summaries(build)  # the dashboard's dash_* tables, built once per night in the build file
    if timings is not None:
        timings["summaries"] = elapsed(t0)
    return publish(build, serve_root)


def now_utc() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def elapsed(t0: float) -> float:
    return round(time.perf_counter() - t0, 3)
