"""Evidence bundle for one case: a zip a disqualification decision can rest on.

A case groups every flag on one suspected group (dashboards/cases.py); the bundle carries all of
them: each flag's family, score and explanation, and the evidence hands of every flag (the lead
flag's first), each marked with the flags it supports. A decision rests on the whole case, so an
export of the lead flag alone would hide part of what the reviewer saw.

Contents: report.html and report.pdf (summary, the flags combined, explanation, statistics,
figures, every evidence hand replayed, rule findings, decision log; appendices with the detector's parameters, the raw
hand text and the software that built it), figures/*.svg, raw/*.txt (the bytes the site wrote,
cut from hands.source_file at byte_offset/byte_length after checking the file's SHA-256 against
hands.file_sha256, shown decoded with the encoding ingest recorded in raw_files), canonical/*.csv
(warehouse rows), decisions.csv, floor_rulings.csv (the floor's rulings on the rule findings) and
manifest.json (SHA-256 of every file and of each source file, software versions, SHA-256 of the
detector models). Why deterministic: the same inputs must give
the same bytes, so anyone can rebuild the bundle and compare hashes; hence fixed zip timestamps
and permissions, sorted entries, no build time anywhere, and a PDF dated by the case itself.
"""

from __future__ import annotations

import codecs
import csv
import hashlib
import html
import io
import json
import platform
import re
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import polars as pl

from dashboards import data
from dashboards.cases import build_cases
from dashboards.drawing import Drawing, chip_flow_figure, percentile_figure, timeline_figure, to_svg
from dashboards.observed import observed_facts, observed_metrics, split_citation
from dashboards.pdf import PdfDocument
from dashboards.replay import HandReplay, money, replay_lines, steps_frame
from dashboards.review_store import ReviewStore, finding_key
from dashboards.why import evidence_with_families

ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)
BUNDLE_VERSION = "floorman-evidence/2"
READ_EVENTS = frozenset({"case.export", "login"})
#: distributions whose versions go into the manifest: what read, scored and wrote the evidence
SOFTWARE = ("floorman", "duckdb", "polars", "pyarrow", "numpy", "scikit-learn", "fpdf2", "fonttools",
            "noto-cjk-sans-otc")
MODEL_DIR = Path(__file__).resolve().parents[1] / "detectors" / "models"
#: the PDF's date when a case has no created_at (a fixed value, never the clock)
EPOCH = datetime(1980, 1, 1)


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


def file_encodings(db: str | Path, file_shas: Sequence[str]) -> dict[str, str]:
    """The encoding ingest recorded for each source file (``raw_files.encoding``, by SHA-256).

    Why from the warehouse: the raw bytes of one hand carry no BOM (only the file's start does),
    so a Full Tilt hand cut from a UTF-16 file cannot be told from its own bytes reliably."""
    shas = sorted(set(file_shas))
    with data.connect(db) as con:
        if not shas or not data.has_table(con, "raw_files"):
            return {}
        rows = con.execute(
            "SELECT sha256, encoding FROM raw_files WHERE sha256 IN (SELECT unnest(?::VARCHAR[]))", [shas]
        ).fetchall()
    return {sha: enc for sha, enc in rows if enc}


def decode_raw(blob: bytes, encoding: str | None) -> str:
    """Text of a hand's raw bytes in its file's encoding (UTF-8 when none was recorded or it is
    unknown); a BOM is dropped and undecodable bytes show as U+FFFD, never silently."""
    name = encoding or "utf-8"
    try:
        codecs.lookup(name)
    except LookupError:
        name = "utf-8"
    return blob.decode(name, errors="replace").removeprefix("\ufeff")


def software_versions() -> dict[str, str]:
    """Python and the installed versions of the distributions in ``SOFTWARE``."""
    out = {"python": platform.python_version()}
    for name in SOFTWARE:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def model_hashes(model_dir: Path = MODEL_DIR) -> dict[str, str]:
    """SHA-256 of each detector model file (``detectors/models/*.pkl``) present at export time."""
    return {p.name: _sha256_file(p) for p in sorted(model_dir.glob("*.pkl"))}


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
    #: the lead flag (the strongest of the case): its explanation, metrics and parameters head the report
    flag: dict[str, Any]
    metrics: list[dict[str, Any]]
    rows: dict[str, pl.DataFrame]
    flow: dict[tuple[str, str], int]
    sessions: list[dict[str, Any]]
    decisions: list[dict[str, str]]
    audit: list[dict[str, str | None]]
    facts: dict[str, Any] = field(default_factory=dict)
    replays: dict[str, HandReplay] = field(default_factory=dict)
    #: source file SHA-256 -> encoding recorded at ingest
    encodings: dict[str, str] = field(default_factory=dict)
    #: the floor's rulings on the evidence hands' rule findings (review store), in the order recorded
    rulings: list[dict[str, str]] = field(default_factory=list)
    #: the case's id (stable: its founding flag's), every member flag (lead first) and their players
    case_id: str = ""
    members: list[dict[str, Any]] = field(default_factory=list)
    players: list[str] = field(default_factory=list)
    #: every member flag's evidence hands, the lead's first, and the flags each hand supports
    evidence: list[str] = field(default_factory=list)
    evidence_of: dict[str, list[str]] = field(default_factory=dict)


@dataclass(slots=True)
class _Case:
    case_id: str
    lead: str
    flags: list[str]
    players: list[str]


def _case(db: str | Path, wanted: str) -> _Case:
    """The case ``wanted`` names (its id or any member flag's id); a flag outside the queue
    summary (an older snapshot) is a case of its own."""
    for c in build_cases(data.queue(db)).iter_rows(named=True):
        if wanted == c["case_id"] or wanted in c["flags"]:
            return _Case(str(c["case_id"]), str(c["lead"]), [str(x) for x in c["flags"]],
                         [str(p) for p in c["players"]])
    f = data.flag(db, wanted)
    if f is None:
        raise EvidenceError(f"case {wanted} is not a flag in snapshot {db}")
    return _Case(wanted, wanted, [wanted], [str(p) for p in f.get("players") or []])


def _members(db: str | Path, case: _Case) -> list[dict[str, Any]]:
    """Every member flag's row, the lead first, then in the case's order."""
    order = [case.lead, *(x for x in case.flags if x != case.lead)]
    found = [data.flag(db, x) for x in order]
    if found[0] is None:
        raise EvidenceError(f"case {case.case_id}: lead flag {case.lead} is not in snapshot {db}")
    return [m for m in found if m is not None]


def _evidence_of(members: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Evidence hand -> the flags it supports, hands in the order first listed (lead first)."""
    out: dict[str, list[str]] = {}
    for m in members:
        for h in m.get("evidence_hands") or []:
            out.setdefault(str(h), []).append(str(m["flag_id"]))
    return out


def _decisions(store: ReviewStore | None, ids: Sequence[str]) -> list[dict[str, str]]:
    """Decisions recorded on the case under any of its ids (earlier records used the lead flag's)."""
    if store is None:
        return []
    rows = [d for i in dict.fromkeys(ids) for d in store.decisions(i)]
    return [{"at": d.at, "actor": d.actor, "decision": d.decision, "reason": d.reason}
            for d in sorted(rows, key=lambda d: d.at)]


def _audit(store: ReviewStore | None, ids: Sequence[str]) -> list[dict[str, str | None]]:
    """State changes on the case under any of its ids; reads such as earlier exports are left out,
    so they cannot change the next export's bytes."""
    if store is None:
        return []
    rows = [e for i in dict.fromkeys(ids) for e in store.audit_log(i) if e["action"] not in READ_EVENTS]
    return sorted(rows, key=lambda e: str(e.get("at") or ""))


def collect(db: str | Path, case_id: str, store: ReviewStore | None) -> CaseEvidence:
    case = _case(db, case_id)
    members = _members(db, case)
    f = members[0]
    evidence_of = _evidence_of(members)
    evidence = list(evidence_of)
    players = case.players
    shared = data.shared_hands(db, players)
    ids = [case.case_id, *case.flags]
    decisions = _decisions(store, ids)
    audit = _audit(store, ids)
    rows = data.hand_rows(db, evidence)
    replays: dict[str, HandReplay] = {}
    for hand_id in evidence:
        try:
            replays[hand_id] = data.replay(db, hand_id, rows)
        except KeyError:
            continue
    return CaseEvidence(
        flag=f,
        case_id=case.case_id,
        members=members,
        players=players,
        evidence=evidence,
        evidence_of=evidence_of,
        metrics=observed_metrics(f.get("observed"), list(f.get("players") or [])),
        facts=observed_facts(f.get("observed")),
        replays=replays,
        rows=rows,
        flow=data.chip_flow(shared, players),
        sessions=data.sessions(shared).to_dicts(),
        decisions=decisions,
        audit=audit,
        encodings=file_encodings(db, rows["hands"]["file_sha256"].drop_nulls().to_list()),
        rulings=_rulings(rows, store),
    )


RULING_FIELDS = ("finding_key", "ruling", "allowed", "note", "actor", "at")


def _rulings(rows: dict[str, pl.DataFrame], store: ReviewStore | None) -> list[dict[str, str]]:
    """Floor rulings recorded against the rule findings of the evidence hands."""
    viol = rows.get("violations")
    if store is None or viol is None or viol.is_empty():
        return []
    keys = sorted({finding_key(v["hand_id"], v["action_seq"], v["rule_id"]) for v in viol.iter_rows(named=True)})
    return [{"finding_key": r.finding_key, "ruling": r.ruling, "allowed": "yes" if r.allowed else "no (free text)",
             "note": r.note or "", "actor": r.actor, "at": r.at} for r in store.rulings(keys)]


def _units_fmt(rows: dict[str, pl.DataFrame]) -> Any:
    hands = rows["hands"]
    if hands.is_empty():
        return str
    ref = hands.row(0, named=True)
    if hands["currency"].n_unique() == 1 and hands["unit_scale"].n_unique() == 1:
        return lambda v: money(int(v), ref)
    return lambda v: f"{v} units"


def _when(v: Any) -> str:
    return f"{v:%Y-%m-%d %H:%M:%S} UTC" if isinstance(v, datetime) else _cell(v)


def parameter_rows(params: Any) -> list[tuple[str, str]]:
    """The detector's parameters as (name, value) rows: nested keys dotted, lists comma-joined,
    sorted by name, so the appendix reads as a table rather than a JSON dump."""
    if isinstance(params, str):
        try:
            params = json.loads(params) if params.strip() else {}
        except json.JSONDecodeError:
            return [("(unparsed)", params)]
    rows: list[tuple[str, str]] = []

    def walk(prefix: str, v: Any) -> None:
        if isinstance(v, dict):
            for k in sorted(v):
                walk(f"{prefix}.{k}" if prefix else str(k), v[k])
        elif isinstance(v, list):
            rows.append((prefix, ", ".join(_cell(x) for x in v)))
        else:
            rows.append((prefix, json.dumps(v) if isinstance(v, bool) or v is None else _cell(v)))

    walk("", params if params is not None else {})
    return rows


def summary_rows(ev: CaseEvidence) -> list[tuple[str, str]]:
    """The case at a glance (page 1 of the PDF, the head of the HTML): the case, then its lead flag."""
    f = ev.flag
    n = len(parameter_rows(f.get("params")))
    families = list(dict.fromkeys(str(m["family"]) for m in ev.members)) or [str(f["family"])]
    return [
        ("Case", ev.case_id or str(f["flag_id"])),
        ("Flags", f"{max(1, len(ev.members))} ({', '.join(families)}), all listed under Flags in this case"),
        ("Players", ", ".join(map(str, ev.players or f.get("players") or []))),
        ("Lead flag", f"{f['flag_id']} ({f['family']})"),
        ("Score", _cell(f.get("score"))),
        ("Severity", _cell(f.get("severity"))),
        ("Mode", _cell(f.get("mode"))),
        ("Hands", f"{_when(f.get('first_hand_at'))} to {_when(f.get('last_hand_at'))}"),
        ("Evidence hands", f"{len(ev.evidence)} from all flags of the case"),
        ("Detector", _cell(f.get("detector_version"))),
        ("Run", _cell(f.get("run_id"))),
        ("Parameters", f"{n} value(s), Appendix A" if n else "the detector's defaults (none recorded)"),
    ]


MEMBER_HEADER = ("flag", "family", "mode", "players", "score", "severity", "evidence hands")


def member_rows(ev: CaseEvidence) -> list[list[str]]:
    """One row per flag of the case (lead first): what each flag says and how many hands back it."""
    return [[str(m["flag_id"]), str(m["family"]), _cell(m.get("mode")), ", ".join(map(str, m.get("players") or [])),
             _cell(m.get("score")), _cell(m.get("severity")), str(len(m.get("evidence_hands") or []))]
            for m in ev.members]


def supports(ev: CaseEvidence, hand_id: str) -> str:
    """Which of the case's flags an evidence hand supports, each with the family it was picked for
    there (a pair's lead flag pools every family's hands), for its heading."""
    picked = {str(m["flag_id"]): dict(evidence_with_families(m)) for m in ev.members}
    return "; ".join(f"{x} ({picked.get(x, {}).get(hand_id, '?')})" for x in ev.evidence_of.get(hand_id, []))


def _hand_encodings(ev: CaseEvidence) -> dict[str, str | None]:
    return {h["hand_id"]: ev.encodings.get(h["file_sha256"])
            for h in ev.rows["hands"].select("hand_id", "file_sha256").iter_rows(named=True)}


def _shown(v: Any) -> str:
    """A report value: as in the CSVs, except that a negative zero reads as 0.0, not "-0.0"."""
    return "0.0" if isinstance(v, float) and v == 0 else _cell(v)


def _metric_rows(ev: CaseEvidence) -> list[list[str]]:
    return [[f"{m.get('label')} [{m.get('name')}]", _shown(m.get("value")), _shown(m.get("population_median")),
             _shown(m.get("percentile"))] for m in ev.metrics]


def software_rows(software: dict[str, str], models: dict[str, str]) -> list[tuple[str, str]]:
    return [*software.items(), *((f"model {name}", f"sha256 {d}") for name, d in models.items())]


def _table_html(rows: Sequence[Sequence[str]], header: Sequence[str] | None = None) -> str:
    e = html.escape
    out = ["<table>"]
    if header:
        out.append("<tr>" + "".join(f"<th>{e(h)}</th>" for h in header) + "</tr>")
    out += ["<tr>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>" for r in rows]
    return "\n".join([*out, "</table>"])


def build_html(ev: CaseEvidence, drawings: dict[str, Drawing], raw: dict[str, bytes],
               software: dict[str, str], models: dict[str, str]) -> str:
    f = ev.flag
    e = html.escape
    enc = _hand_encodings(ev)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Floorman evidence {e(ev.case_id)}</title>",
        "<style>body{font-family:'Noto Sans CJK SC','Noto Sans',Helvetica,Arial,sans-serif;max-width:960px;"
        "margin:auto}table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;padding:2px 6px;"
        "text-align:left}pre{background:#f6f6f6;padding:8px;white-space:pre-wrap}.finding{color:#b00}</style>",
        "</head><body>",
        f"<h1>Case {e(ev.case_id)}: {e(' + '.join(dict.fromkeys(str(m['family']) for m in ev.members)))}</h1>",
        _table_html([(k, v.replace("Appendix A", "appendix A below")) for k, v in summary_rows(ev)]),
        "<h2>Flags in this case</h2>",
        _table_html(member_rows(ev), MEMBER_HEADER),
        *(f"<p><b>{e(str(m['flag_id']))} ({e(str(m['family']))}):</b> {e(str(m.get('explanation') or ''))}</p>"
          for m in ev.members[1:]),
        f"<h2>Explanation (lead flag {e(str(f['flag_id']))})</h2><p>{e(str(f.get('explanation') or ''))}</p>",
        f"<p><b>Benign explanation considered:</b> {e(str(f.get('benign_explanation') or ''))}</p>",
        f"<p><b>What would overturn it:</b> {e(str(f.get('overturn') or ''))}</p>",
        "<h2>Statistics against the population</h2>",
        _table_html([(k, _cell(v)) for k, v in ev.facts.items()]) if ev.facts else "",
        _table_html(_metric_rows(ev), ["metric", "value", "population median", "percentile"]),
        "<h2>Figures</h2>",
    ]
    for name in sorted(drawings):
        parts.append(f"<figure>{to_svg(drawings[name])}<figcaption>{e(drawings[name].title)}</figcaption></figure>")
    parts.append("<h2>Evidence hands</h2>")
    for hand_id in ev.evidence:
        parts.append(f"<h3>{e(hand_id)}</h3><p>Evidence for: {e(supports(ev, hand_id))}</p>")
        r = ev.replays.get(hand_id)
        if r is None:
            parts.append("<p class='finding'>hand not in this snapshot</p>")
            continue
        if r.rulebook:
            parts.append(f"<p>Legal ranges and findings from the rule engine under {e(r.rulebook)}.</p>")
        for view in r.streets:
            sf = steps_frame(view, r.hand)
            parts.append(f"<h4>{e(view.name)} {e(' '.join(view.board))}</h4>")
            parts.append(_table_html([[_cell(v) for v in row] for row in sf.iter_rows()], sf.columns))
        for w in r.awards:
            parts.append(f"<p>{e(w['player'])} collects {e(money(w['amount'], r.hand))}</p>")
        if hand_id in raw:
            parts.append(
                f"<p>Raw text as the site wrote it ({e(enc.get(hand_id) or 'utf-8')}; bytes in "
                f"raw/{e(_safe(hand_id))}.txt):</p><pre>{e(decode_raw(raw[hand_id], enc.get(hand_id)))}</pre>"
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
    if ev.rulings:
        parts.append("<h2>Floor rulings on rule findings</h2>")
        parts.append(_table_html([[r[k] for k in RULING_FIELDS] for r in ev.rulings],
                                 ["finding", "ruling", "allowed outcome", "note", "by", "at (UTC)"]))
    parts.append("<h2>Decision log</h2>")
    if not ev.decisions:
        parts.append("<p>No decision recorded.</p>")
    else:
        parts.append(_table_html([[d[k] for k in ("at", "actor", "decision", "reason")] for d in ev.decisions],
                                 ["at (UTC)", "reviewer", "decision", "reason"]))
    params = parameter_rows(f.get("params"))
    parts += [
        "<h2>Appendix A: detector parameters</h2>",
        _table_html(params, ["parameter", "value"]) if params else "<p>None recorded (the detector's defaults).</p>",
        "<h2>Appendix B: software and models at export</h2>",
        _table_html(software_rows(software, models), ["component", "version"]),
        "</body></html>\n",
    ]
    return "\n".join(p for p in parts if p)


def build_pdf(ev: CaseEvidence, drawings: Sequence[Drawing], raw: dict[str, bytes],
              software: dict[str, str], models: dict[str, str]) -> bytes:
    f = ev.flag
    stamp = f.get("created_at")
    created = stamp if isinstance(stamp, datetime) else EPOCH
    doc = PdfDocument(f"Floorman evidence report: case {ev.case_id}", created,
                      f"Floorman {software.get('floorman', '')}".strip())
    doc.heading(f"Floorman evidence report: case {ev.case_id}", 16)
    doc.table(summary_rows(ev), widths=(1, 4))
    doc.heading("Flags in this case")
    doc.table(member_rows(ev), list(MEMBER_HEADER), widths=(2.2, 1.6, 1, 2.6, 1, 1, 1))
    for m in ev.members[1:]:
        doc.paragraph(f"{m['flag_id']} ({m['family']}): {m.get('explanation') or ''}")
    doc.heading(f"Explanation (lead flag {f['flag_id']})")
    doc.paragraph(str(f.get("explanation") or ""))
    doc.paragraph(f"Benign explanation considered: {f.get('benign_explanation') or ''}")
    doc.paragraph(f"What would overturn it: {f.get('overturn') or ''}")
    doc.heading("Statistics against the population")
    if ev.facts:
        doc.table([(k, _cell(v)) for k, v in ev.facts.items()], widths=(2, 3))
    if ev.metrics:
        doc.table(_metric_rows(ev), ["metric", "value", "population median", "percentile"], widths=(6, 1.3, 1.6, 1.3))
    doc.heading("Figures", keep=drawings[0].height * min(1.0, doc.width / drawings[0].width) if drawings else 0)
    for d in drawings:
        doc.figure(d)
    doc.heading("Evidence hands")
    for hand_id in ev.evidence:
        r = ev.replays.get(hand_id)
        doc.paragraph(f"{hand_id}: evidence for {supports(ev, hand_id)}", 8.5)
        if r is None:
            doc.paragraph(f"{hand_id}: not in this snapshot")
        else:
            doc.verbatim(replay_lines(r))
    doc.heading("Rule findings")
    viol = ev.rows.get("violations")
    if viol is None or viol.is_empty():
        doc.paragraph("No rule findings on the evidence hands.")
    else:
        for v in viol.iter_rows(named=True):
            kind = ("house decision" if v.get("house_decision") else
                    "export inconsistency" if v.get("severity") == "data" else "violation")
            text, seed, quote = split_citation(v.get("message"))
            doc.paragraph(
                f"{v['hand_id']} action {v['action_seq']}: {v['rule_id']} ({v['rulebook']}, {v['severity']}, "
                f"{kind}) expected {v.get('expected')}, actual {v.get('actual')}. {text}"
            )
            if quote:
                doc.paragraph(f"Rulebook passage ({seed}): \u00ab{quote}\u00bb")
    for ru in ev.rulings:
        doc.paragraph(f"Floor ruling on {ru['finding_key']}: {ru['ruling']} (allowed outcome: {ru['allowed']})"
                      f" by {ru['actor']} at {ru['at']}" + (f". {ru['note']}" if ru["note"] else ""))
    doc.heading("Decision log")
    if not ev.decisions:
        doc.paragraph("No decision recorded.")
    else:
        doc.table([[d[k] for k in ("at", "actor", "decision", "reason")] for d in ev.decisions],
                  ["at (UTC)", "reviewer", "decision", "reason"], widths=(2, 1.2, 1.2, 4))
    doc.heading("Appendix A: detector parameters")
    params = parameter_rows(f.get("params"))
    if params:
        doc.table(params, ["parameter", "value"], widths=(2, 3))
    else:
        doc.paragraph("None recorded (the detector's defaults).")
    doc.heading("Appendix B: raw hand text as the site wrote it")
    enc = _hand_encodings(ev)
    for hand_id in ev.evidence:
        if hand_id in raw:
            doc.paragraph(f"{hand_id} ({enc.get(hand_id) or 'utf-8'}, {len(raw[hand_id]):,} bytes, "
                          f"sha256 {hashlib.sha256(raw[hand_id]).hexdigest()})", 8.5)
            doc.verbatim(decode_raw(raw[hand_id], enc.get(hand_id)).rstrip().splitlines(), 7)
        else:
            doc.paragraph(f"{hand_id}: raw text not included (source file missing or changed)", 8.5)
    doc.heading("Appendix C: software and models at export")
    doc.table(software_rows(software, models), ["component", "version"], widths=(2, 5))
    if doc.missing:
        doc.paragraph("Characters the embedded font cannot show, printed as '?' (raw/ and report.html keep them): "
                      + ", ".join(f"U+{ord(c):04X}" for c in sorted(doc.missing)), 8.5)
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
        "chip_flow.svg": chip_flow_figure(ev.flow, ev.players, fmt),
        "timeline.svg": timeline_figure(ev.sessions),
    }
    raw, checks = raw_hand_texts(ev.rows["hands"], source_root, allow_unverified)
    software, models = software_versions(), model_hashes()
    files: dict[str, bytes] = {}
    files["report.html"] = build_html(ev, drawings, raw, software, models).encode("utf-8")
    files["report.pdf"] = build_pdf(ev, [drawings[k] for k in sorted(drawings)], raw, software, models)
    for name, d in drawings.items():
        files[f"figures/{name}"] = to_svg(d).encode("utf-8")
    for hand_id, blob in raw.items():
        files[f"raw/{_safe(hand_id)}.txt"] = blob
    for table, df in ev.rows.items():
        files[f"canonical/{table}.csv"] = to_csv(df)
    # the lead flag's row as before, plus the case's id, players and every member flag's row
    flag_row: dict[str, Any] = {k: _cell(v) for k, v in sorted(ev.flag.items())}
    flag_row["case"] = {"case_id": ev.case_id, "players": ev.players,
                        "flags": [{k: _cell(v) for k, v in sorted(m.items())} for m in ev.members]}
    files["case.json"] = (json.dumps(flag_row, indent=2, sort_keys=True) + "\n").encode("utf-8")
    files["decisions.csv"] = to_csv(
        pl.DataFrame(ev.decisions, schema=["at", "actor", "decision", "reason"], orient="row")
        if ev.decisions else pl.DataFrame(schema=dict.fromkeys(["at", "actor", "decision", "reason"], pl.String))
    )
    files["floor_rulings.csv"] = to_csv(
        pl.DataFrame(ev.rulings, schema=list(RULING_FIELDS), orient="row") if ev.rulings
        else pl.DataFrame(schema=dict.fromkeys(RULING_FIELDS, pl.String))
    )
    files["audit_log.csv"] = to_csv(
        pl.DataFrame(ev.audit) if ev.audit
        else pl.DataFrame(schema=dict.fromkeys(["at", "actor", "action", "object", "previous", "new"], pl.String))
    )
    enc = _hand_encodings(ev)
    manifest = {
        "bundle": BUNDLE_VERSION,
        "case_id": ev.case_id,
        "flags": [str(m["flag_id"]) for m in ev.members],
        "files": {name: hashlib.sha256(blob).hexdigest() for name, blob in sorted(files.items())},
        "source_files": [
            {"path": c.path, "sha256": c.expected_sha256, "verified": c.verified, "hands": sorted(c.hands),
             "encoding": ev.encodings.get(c.expected_sha256)}
            for c in checks
        ],
        "raw_hands": {
            hand_id: {"sha256": hashlib.sha256(blob).hexdigest(), "bytes": len(blob), "encoding": enc.get(hand_id)}
            for hand_id, blob in sorted(raw.items())
        },
        "software": software,
        "detector_models": {name: {"sha256": digest} for name, digest in models.items()},
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
