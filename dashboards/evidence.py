"""Evidence bundle for one case: a zip a disqualification decision can rest on.

Contents: report.html and report.pdf (summary, explanation, statistics, figures, every evidence
hand replayed, rule findings, decision log), figures/*.svg, raw/*.txt (the bytes the site wrote,
cut from hands.source_file at byte_offset/byte_length after checking the file's SHA-256 against
hands.file_sha256), canonical/*.csv (warehouse rows), decisions.csv and manifest.json (SHA-256
of every file and of each source file). Why deterministic: the same inputs must give the same
bytes, so anyone can rebuild the bundle and compare hashes; hence fixed zip timestamps and
permissions, sorted entries, no build time anywhere, and a PDF with no dates.
"""

from __future__ import annotations

import csv
import hashlib
import html
import io
import json
import re
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

import polars as pl

from dashboards import data
from dashboards.drawing import chip_flow_figure, percentile_figure, timeline_figure, to_svg
from dashboards.observed import observed_facts, observed_metrics, split_citation
from dashboards.pdf import PdfDocument
from dashboards.replay import HandReplay, money, replay_lines, steps_frame
from dashboards.review_store import ReviewStore

ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)
BUNDLE_VERSION = "floorman-evidence/1"
READ_EVENTS = frozenset({"case.export", "login"})


class EvidenceError(Exception):
    """The evidence cannot be built faithfully (missing case, source file changed or missing)."""


@dataclass(slots=True)
class SourceCheck:
    path: str
    expected_sha256: str
    actual_sha256: str | None
    hands: list[str] = field(default_factory=list)

    @property
    def verified(self) -> bool:
        return self.actual_sha256 == self.expected_sha256


def _sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _resolve(source: str, source_root: Path | None) -> Path:
    p = Path(source)
    if not p.is_absolute() and source_root is not None:
        p = source_root / p
    return p


def raw_hand_texts(
    hands: pl.DataFrame, source_root: Path | None = None, allow_unverified: bool = False
) -> tuple[dict[str, bytes], list[SourceCheck]]:
    """Exact bytes of each hand, read from its source file once that file's hash is checked."""
    checks: dict[tuple[str, str], SourceCheck] = {}
    raw: dict[str, bytes] = {}
    for h in hands.sort("hand_id").iter_rows(named=True):
        key = (h["source_file"], h["file_sha256"])
        if key not in checks:
            path = _resolve(h["source_file"], source_root)
            actual = _sha256_file(path) if path.is_file() else None
            checks[key] = SourceCheck(h["source_file"], h["file_sha256"], actual)
        check = checks[key]
        check.hands.append(h["hand_id"])
        if not check.verified:
            if allow_unverified:
                continue
            why = "is missing" if check.actual_sha256 is None else f"has sha256 {check.actual_sha256}"
            raise EvidenceError(
                f"source file {check.path} for {h['hand_id']} {why}, expected {check.expected_sha256}"
            )
        with _resolve(h["source_file"], source_root).open("rb") as f:
            f.seek(h["byte_offset"])
            raw[h["hand_id"]] = f.read(h["byte_length"])
    return raw, sorted(checks.values(), key=lambda c: (c.path, c.expected_sha256))


def _cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, datetime | date):
        return v.isoformat()
    if isinstance(v, list | dict):
        return json.dumps(v, sort_keys=True, default=str)
    return str(v)


def to_csv(df: pl.DataFrame) -> bytes:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(df.columns)
    for row in df.iter_rows():
        w.writerow([_cell(v) for v in row])
    return buf.getvalue().encode("utf-8")


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name)


@dataclass(slots=True)
class CaseEvidence:
    flag: dict[str, Any]
    metrics: list[dict[str, Any]]
    rows: dict[str, pl.DataFrame]
    flow: dict[tuple[str, str], int]
    sessions: list[dict[str, Any]]
    decisions: list[dict[str, str]]
    audit: list[dict[str, str | None]]
    facts: dict[str, Any] = field(default_factory=dict)
    replays: dict[str, HandReplay] = field(default_factory=dict)


def collect(db: str | Path, case_id: str, store: ReviewStore | None) -> CaseEvidence:
    f = data.flag(db, case_id)
    if f is None:
        raise EvidenceError(f"case {case_id} is not a flag in snapshot {db}")
    evidence = list(f.get("evidence_hands") or [])
    players = list(f.get("players") or [])
    shared = data.shared_hands(db, players)
    decisions = [
        {"at": d.at, "actor": d.actor, "decision": d.decision, "reason": d.reason}
        for d in (store.decisions(case_id) if store else [])
    ]
    # state changes only: reads such as earlier exports must not change the next export's bytes
    audit = [e for e in (store.audit_log(case_id) if store else []) if e["action"] not in READ_EVENTS]
    rows = data.hand_rows(db, evidence)
    replays: dict[str, HandReplay] = {}
    for hand_id in evidence:
        try:
            replays[hand_id] = data.replay(db, hand_id, rows)
        except KeyError:
            continue
    return CaseEvidence(
        flag=f,
        metrics=observed_metrics(f.get("observed"), players),
        facts=observed_facts(f.get("observed")),
        replays=replays,
        rows=rows,
        flow=data.chip_flow(shared, players),
        sessions=data.sessions(shared).to_dicts(),
        decisions=decisions,
        audit=audit,
    )


def _units_fmt(rows: dict[str, pl.DataFrame]) -> Any:
    hands = rows["hands"]
    if hands.is_empty():
        return str
    ref = hands.row(0, named=True)
    if hands["currency"].n_unique() == 1 and hands["unit_scale"].n_unique() == 1:
        return lambda v: money(int(v), ref)
    return lambda v: f"{v} units"


def build_html(ev: CaseEvidence, svgs: dict[str, str], raw: dict[str, bytes]) -> str:
    f = ev.flag
    e = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Floorman evidence {e(f['flag_id'])}</title>",
        "<style>body{font-family:Helvetica,Arial,sans-serif;max-width:960px;margin:auto}"
        "table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;padding:2px 6px}"
        "pre{background:#f6f6f6;padding:8px;white-space:pre-wrap}.finding{color:#b00}</style>",
        "</head><body>",
        f"<h1>Case {e(f['flag_id'])}: {e(str(f['family']))}</h1>",
        "<table>",
    ]
    for label, key in [
        ("Players", "players"), ("Score", "score"), ("Severity", "severity"), ("Mode", "mode"),
        ("Detector", "detector_version"), ("Parameters", "params"), ("Run", "run_id"),
        ("First hand", "first_hand_at"), ("Last hand", "last_hand_at"),
    ]:
        parts.append(f"<tr><th>{label}</th><td>{e(_cell(f.get(key)))}</td></tr>")
    parts += [
        "</table>",
        f"<h2>Explanation</h2><p>{e(str(f.get('explanation') or ''))}</p>",
        f"<p><b>Benign explanation considered:</b> {e(str(f.get('benign_explanation') or ''))}</p>",
        f"<p><b>What would overturn it:</b> {e(str(f.get('overturn') or ''))}</p>",
        "<h2>Statistics against the population</h2>",
        "<p>" + "; ".join(f"{e(k)}: {e(_cell(v))}" for k, v in ev.facts.items()) + "</p>",
        "<table><tr><th>metric</th><th>what it measures</th><th>value</th>"
        "<th>population median</th><th>percentile</th></tr>",
    ]
    for m in ev.metrics:
        parts.append(
            "<tr>" + "".join(
                f"<td>{e(_cell(m.get(k)))}</td>"
                for k in ("name", "label", "value", "population_median", "percentile")
            ) + "</tr>"
        )
    parts.append("</table><h2>Figures</h2>")
    for name in sorted(svgs):
        parts.append(f'<figure>{svgs[name]}<figcaption>figures/{e(name)}</figcaption></figure>')
    parts.append("<h2>Evidence hands</h2>")
    for hand_id in f.get("evidence_hands") or []:
        parts.append(f"<h3>{e(hand_id)}</h3>")
        r = ev.replays.get(hand_id)
        if r is None:
            parts.append("<p class='finding'>hand not in this snapshot</p>")
            continue
        if r.rulebook:
            parts.append(f"<p>Legal ranges and findings from the rule engine under {e(r.rulebook)}.</p>")
        for view in r.streets:
            parts.append(f"<h4>{e(view.name)} {e(' '.join(view.board))}</h4><table><tr>")
            sf = steps_frame(view, r.hand)
            parts.append("".join(f"<th>{e(c)}</th>" for c in sf.columns) + "</tr>")
            for row in sf.iter_rows():
                parts.append("<tr>" + "".join(f"<td>{e(_cell(v))}</td>" for v in row) + "</tr>")
            parts.append("</table>")
        for w in r.awards:
            parts.append(f"<p>{e(w['player'])} collects {e(money(w['amount'], r.hand))}</p>")
        if hand_id in raw:
            parts.append(
                f"<p>Raw text as the site wrote it (raw/{e(_safe(hand_id))}.txt):</p>"
                f"<pre>{e(raw[hand_id].decode('utf-8', errors='replace'))}</pre>"
            )
    parts.append("<h2>Rule findings</h2>")
    viol = ev.rows.get("violations")
    if viol is None or viol.is_empty():
        parts.append("<p>No rule findings on the evidence hands.</p>")
    else:
        parts.append("<table><tr><th>hand</th><th>action</th><th>rule</th><th>rulebook</th><th>severity</th>"
                     "<th>house decision</th><th>expected</th><th>actual</th><th>finding</th>"
                     "<th>rulebook passage</th></tr>")
        for v in viol.iter_rows(named=True):
            text, seed, quote = split_citation(v.get("message"))
            cite = f"<blockquote>«{e(quote)}»<br>— {e(str(seed))}</blockquote>" if quote else ""
            parts.append("<tr>" + "".join(f"<td>{e(_cell(v.get(k)))}</td>" for k in (
                "hand_id", "action_seq", "rule_id", "rulebook", "severity", "house_decision", "expected",
                "actual")) + f"<td>{e(text)}</td><td>{cite}</td></tr>")
        parts.append("</table>")
    parts.append("<h2>Decision log</h2>")
    if not ev.decisions:
        parts.append("<p>No decision recorded.</p>")
    else:
        parts.append("<table><tr><th>at (UTC)</th><th>reviewer</th><th>decision</th><th>reason</th></tr>")
        for d in ev.decisions:
            parts.append("<tr>" + "".join(f"<td>{e(d[k])}</td>" for k in ("at", "actor", "decision", "reason"))
                         + "</tr>")
        parts.append("</table>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


def build_pdf(ev: CaseEvidence, drawings: Sequence[Any]) -> bytes:
    f = ev.flag
    doc = PdfDocument()
    doc.heading(f"Floorman evidence report: case {f['flag_id']}", 16)
    doc.paragraph(
        f"Family: {f['family']}   Players: {', '.join(f.get('players') or [])}   Score: {f['score']}   "
        f"Severity: {f['severity']}   Mode: {f['mode']}"
    )
    doc.paragraph(
        f"Detector {f.get('detector_version')} with parameters {f.get('params')}; run {f.get('run_id')}; "
        f"hands from {_cell(f.get('first_hand_at'))} to {_cell(f.get('last_hand_at'))} UTC."
    )
    doc.heading("Explanation")
    doc.paragraph(str(f.get("explanation") or ""))
    doc.paragraph(f"Benign explanation considered: {f.get('benign_explanation') or ''}")
    doc.paragraph(f"What would overturn it: {f.get('overturn') or ''}")
    doc.heading("Statistics against the population")
    if ev.facts:
        doc.paragraph("; ".join(f"{k}: {_cell(v)}" for k, v in ev.facts.items()))
    for m in ev.metrics:
        doc.paragraph(
            f"{m.get('label')} [{m.get('name')}]: {_cell(m.get('value'))} (percentile {_cell(m.get('percentile'))}; "
            f"population median {_cell(m.get('population_median'))})"
        )
    doc.heading("Figures")
    for d in drawings:
        doc.figure(d)
    doc.heading("Evidence hands")
    for hand_id in f.get("evidence_hands") or []:
        r = ev.replays.get(hand_id)
        if r is None:
            doc.paragraph(f"{hand_id}: not in this snapshot")
        else:
            doc.mono(replay_lines(r))
    doc.heading("Rule findings")
    viol = ev.rows.get("violations")
    if viol is None or viol.is_empty():
        doc.paragraph("No rule findings on the evidence hands.")
    else:
        for v in viol.iter_rows(named=True):
            kind = "house decision" if v.get("house_decision") else "violation"
            text, seed, quote = split_citation(v.get("message"))
            doc.paragraph(
                f"{v['hand_id']} action {v['action_seq']}: {v['rule_id']} ({v['rulebook']}, {v['severity']}, "
                f"{kind}) expected {v.get('expected')}, actual {v.get('actual')}. {text}"
            )
            if quote:
                doc.paragraph(f"Rulebook passage ({seed}): \u00ab{quote}\u00bb")
    doc.heading("Decision log")
    if not ev.decisions:
        doc.paragraph("No decision recorded.")
    for d in ev.decisions:
        doc.paragraph(f"{d['at']} {d['actor']}: {d['decision']} - {d['reason']}")
    return doc.to_bytes()


def build_bundle(
    db: str | Path,
    case_id: str,
    store: ReviewStore | None = None,
    source_root: Path | None = None,
    allow_unverified: bool = False,
) -> bytes:
    """The zip bytes for ``case_id``: identical bytes for identical inputs."""
    ev = collect(db, case_id, store)
    fmt = _units_fmt(ev.rows)
    drawings = {
        "percentiles.svg": percentile_figure(ev.metrics),
        "chip_flow.svg": chip_flow_figure(ev.flow, list(ev.flag.get("players") or []), fmt),
        "timeline.svg": timeline_figure(ev.sessions),
    }
    svgs = {k: to_svg(v) for k, v in drawings.items()}
    raw, checks = raw_hand_texts(ev.rows["hands"], source_root, allow_unverified)
    files: dict[str, bytes] = {}
    files["report.html"] = build_html(ev, svgs, raw).encode("utf-8")
    files["report.pdf"] = build_pdf(ev, [drawings[k] for k in sorted(drawings)])
    for name, svg in svgs.items():
        files[f"figures/{name}"] = svg.encode("utf-8")
    for hand_id, blob in raw.items():
        files[f"raw/{_safe(hand_id)}.txt"] = blob
    for table, df in ev.rows.items():
        files[f"canonical/{table}.csv"] = to_csv(df)
    flag_row = {k: _cell(v) for k, v in sorted(ev.flag.items())}
    files["case.json"] = (json.dumps(flag_row, indent=2, sort_keys=True) + "\n").encode("utf-8")
    files["decisions.csv"] = to_csv(
        pl.DataFrame(ev.decisions, schema=["at", "actor", "decision", "reason"], orient="row")
        if ev.decisions else pl.DataFrame(schema=dict.fromkeys(["at", "actor", "decision", "reason"], pl.String))
    )
    files["audit_log.csv"] = to_csv(
        pl.DataFrame(ev.audit) if ev.audit
        else pl.DataFrame(schema=dict.fromkeys(["at", "actor", "action", "object", "previous", "new"], pl.String))
    )
    manifest = {
        "bundle": BUNDLE_VERSION,
        "case_id": case_id,
        "files": {name: hashlib.sha256(blob).hexdigest() for name, blob in sorted(files.items())},
        "source_files": [
            {"path": c.path, "sha256": c.expected_sha256, "verified": c.verified, "hands": sorted(c.hands)}
            for c in checks
        ],
        "raw_hands": {
            hand_id: {"sha256": hashlib.sha256(blob).hexdigest(), "bytes": len(blob)}
            for hand_id, blob in sorted(raw.items())
        },
    }
    files["manifest.json"] = (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode("utf-8")
    return deterministic_zip(files)


def deterministic_zip(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=ZIP_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3
            info.external_attr = 0o100644 << 16
            z.writestr(info, files[name], compresslevel=9)
    return buf.getvalue()


def verify_bundle(blob: bytes, source_root: Path | None = None, check_sources: bool = True) -> list[str]:
    """Recompute every hash in the manifest; return the problems (empty list: bundle verified)."""
    problems: list[str] = []
    with zipfile.ZipFile(io.BytesIO(blob)) as z:
        names = set(z.namelist())
        manifest = json.loads(z.read("manifest.json"))
        listed = set(manifest["files"])
        for extra in sorted(names - listed - {"manifest.json"}):
            problems.append(f"{extra}: in the zip but not in the manifest")
        for name, digest in sorted(manifest["files"].items()):
            if name not in names:
                problems.append(f"{name}: listed but missing")
            elif hashlib.sha256(z.read(name)).hexdigest() != digest:
                problems.append(f"{name}: sha256 differs from the manifest")
        for hand_id, info in manifest["raw_hands"].items():
            blob_name = f"raw/{_safe(hand_id)}.txt"
            if blob_name in names and hashlib.sha256(z.read(blob_name)).hexdigest() != info["sha256"]:
                problems.append(f"{blob_name}: raw hand hash differs")
    if check_sources:
        for src in manifest["source_files"]:
            path = _resolve(src["path"], source_root)
            if not path.is_file():
                problems.append(f"source {src['path']}: not found")
            elif _sha256_file(path) != src["sha256"]:
                problems.append(f"source {src['path']}: sha256 differs")
    return problems
