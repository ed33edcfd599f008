"""Reviewers' decisions as labels the detectors' evaluation reads (issue 14, build item 4).

    floorman labels --db SNAPSHOT [--review-db FILE] --out labels.json
    floorman evaluate --db WAREHOUSE --truth labels.json

What a label is: the decision in force on a case (the last one recorded), given to every pair of
the case's players (a case is one suspected group: dashboards/cases.py). ``confirm`` is a positive
(1), ``dismiss`` a negative (0), ``escalate`` undecided (null: still with someone senior, never
counted). Players are named as the flags name them (the screen name, as the simulator's truth does).

The file has the simulator truth's shape (``teams``: each confirmed case a team with its members
and family) plus the per-pair ``pairs`` list, so ``detectors.evaluate`` reads it unchanged. Scored
as labels (``evaluate_labels``; ``floorman evaluate`` does this when given a labels file), only the
reviewed pairs are candidates: a pair nobody reviewed is neither a hit nor a false alarm, whereas
simulator truth calls every pair outside a team honest.
"""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path
from typing import Any

import duckdb

from dashboards import data
from dashboards.cases import build_cases
from dashboards.review_store import ReviewStore

KIND = "floorman-review-labels"
VERSION = 1
LABEL = {"confirm": 1, "dismiss": 0, "escalate": None}


def _flag_rows(db: str | Path) -> dict[str, dict[str, Any]]:
    """flag id -> players, family (latest run's row) for every flag in the snapshot."""
    with data.connect(db) as con:
        if not data.has_table(con, "flags"):
            return {}
        rows = con.execute(
            "SELECT flag_id, players, family FROM flags"
            " QUALIFY row_number() OVER (PARTITION BY flag_id ORDER BY created_at DESC, run_id DESC) = 1"
        ).fetchall()
    return {str(f): {"players": list(p), "family": str(fam)} for f, p, fam in rows}


def build_labels(db: str | Path, store: ReviewStore) -> dict[str, Any]:
    """The labels document for the decisions in ``store`` on the cases of snapshot ``db``."""
    cases = build_cases(data.queue(db))
    group: dict[str, dict[str, Any]] = {}
    for c in cases.iter_rows(named=True):
        for fid in c["flags"]:
            group[fid] = c
    flags = _flag_rows(db)
    last: dict[str, Any] = {}
    for d in store.all_decisions():
        last[d.case_id] = d
    pairs: dict[tuple[str, str], dict[str, Any]] = {}
    teams: list[dict[str, Any]] = []
    unknown: list[str] = []
    for case_id, d in sorted(last.items()):
        found = group.get(case_id)
        if found is not None:
            players, families = list(found["players"]), list(found["families"])
        elif case_id in flags:
            players, families = flags[case_id]["players"], [flags[case_id]["family"]]
        else:
            unknown.append(case_id)
            continue
        label = LABEL[d.decision]
        for a, b in combinations(sorted(set(players)), 2):
            prev = pairs.get((a, b))
            if prev is not None and prev["decided_at"] > d.at:
                continue  # a pair in two cases: the later decision holds
            pairs[(a, b)] = {"a": a, "b": b, "label": label, "decision": d.decision, "case_id": case_id,
                             "families": families, "decided_at": d.at, "actor": d.actor, "reason": d.reason}
        if label == 1:
            teams.append({"case_id": case_id, "members": sorted(set(players)), "family": families[0],
                          "families": families, "evidence": []})
    return {
        "kind": KIND, "version": VERSION, "snapshot": Path(db).name,
        "pairs": [pairs[k] for k in sorted(pairs)], "teams": teams,
        "counts": {"cases": len(last) - len(unknown), "pairs": len(pairs),
                   "positive": sum(p["label"] == 1 for p in pairs.values()),
                   "negative": sum(p["label"] == 0 for p in pairs.values()),
                   "undecided": sum(p["label"] is None for p in pairs.values())},
        "cases_not_in_snapshot": unknown,
    }


def write_labels(db: str | Path, store: ReviewStore, out: str | Path) -> dict[str, Any]:
    doc = build_labels(db, store)
    Path(out).write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return doc


def is_labels(doc: dict[str, Any]) -> bool:
    return doc.get("kind") == KIND


def load_labels(path: str | Path) -> dict[str, Any]:
    doc = dict(json.loads(Path(path).read_text(encoding="utf-8")))
    if not is_labels(doc):
        raise ValueError(f"{path} is not a labels file (kind {doc.get('kind')!r})")
    return doc


def score_labels(flags: list[tuple[str, list[str], float, list[str]]], doc: dict[str, Any]) -> dict[str, Any]:
    """The evaluation metrics over the reviewed pairs only (undecided ones left out)."""
    from detectors.evaluate import score_flags  # read only: the same metrics as against simulator truth

    decided = [p for p in doc["pairs"] if p["label"] is not None]
    cands = [(p["a"], p["b"]) if p["a"] < p["b"] else (p["b"], p["a"]) for p in decided]
    truth = {"teams": [{"members": [p["a"], p["b"]], "family": p["families"][0], "evidence": []}
                       for p in decided if p["label"] == 1]}
    out = score_flags(cands, flags, truth)
    out["labels"] = {"reviewed_pairs": len(decided), "confirmed": len(truth["teams"]),
                     "dismissed": len(decided) - len(truth["teams"])}
    return out


def evaluate_labels(db: str | Path, labels: str | Path | dict[str, Any], run_id: str | None = None) -> dict[str, Any]:
    """``floorman evaluate`` against reviewers' labels: the latest (or given) run's flags scored on
    the pairs reviewers decided."""
    doc = labels if isinstance(labels, dict) else load_labels(labels)
    con = duckdb.connect(str(db), read_only=True)
    try:
        if run_id is None:
            row = con.execute("SELECT run_id FROM detector_runs ORDER BY started_at DESC LIMIT 1").fetchone()
            if row is None:
                raise ValueError("no detector run in this database")
            run_id = str(row[0])
        flags = con.execute("SELECT family, players, score, evidence_hands FROM flags WHERE run_id = ?",
                            [run_id]).fetchall()
    finally:
        con.close()
    return {"run_id": run_id, **score_labels([(str(f), list(p), float(s), list(e)) for f, p, s, e in flags], doc)}
