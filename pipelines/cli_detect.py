"""``floorman detect``, ``floorman flags`` and ``floorman evaluate``: the detectors from the shell."""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path
from typing import Any

from detectors.queue import DEFAULT_CAP_PER_1000_PLAYERS
from pipelines.argtypes import existing_warehouse

FLAG_FIELDS = ["flag_id", "run_id", "family", "players", "score", "severity", "mode", "evidence_hands",
               "evidence_families", "explanation", "observed", "benign_explanation", "overturn", "detector_version",
               "created_at", "first_hand_at", "last_hand_at"]


def cmd_detect(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from detectors.run import Params, detect
    from detectors.spill import DetectorSpaceError
    from warehouse.db import memory_limit

    modes = ["operator", "player"] if args.mode == "both" else [args.mode]
    for mode in modes:
        params = Params(mode=mode, since=args.since, until=args.until, model=args.model,
                        memory_limit=memory_limit(Params.memory_limit),
                        budget_share=args.budget_share, budget_per_1000_players=args.budget_per_1000_players,
                        budget_cap_per_1000_players=args.budget_cap_per_1000_players)
        try:
            summary = detect(args.db, params)
        except DetectorSpaceError as exc:
            print(f"error: --db {args.db} ({mode}): {exc}", file=sys.stderr)
            return 1
        if args.json:
            print(json.dumps(asdict(summary), sort_keys=True))
        else:
            fam = ", ".join(f"{k} {v}" for k, v in sorted(summary.by_family.items())) or "none"
            sev = ", ".join(f"{k} {v}" for k, v in sorted(summary.by_severity.items())) or "none"
            print(f"run {summary.run_id} ({mode}): {summary.hands:,} hands, {summary.players:,} players, "
                  f"{summary.pairs_scored:,} pairs scored, {summary.flags} flags [{fam}] severity [{sev}] "
                  f"model {summary.model or 'none (rule scores)'}, {summary.seconds:.1f} s")
        if mode == "operator" and summary.hands and not _operator_hands(args.db):
            print(f"note: no hand in {args.db} shows every dealt player's cards (an operator export), so "
                  "operator mode read only the cards shown, as player mode does; its flags say mode 'player'",
                  file=sys.stderr)
    return 0


def _operator_hands(db: str) -> int:
    """Hands whose export shows every dealt player's hole cards (what operator mode needs)."""
    import duckdb

    with duckdb.connect(db, read_only=True) as con:
        row = con.execute("SELECT count(*) FROM hands WHERE hole_cards_mode = 'operator'").fetchone()
    return int(row[0]) if row else 0


def _flag_rows(args: argparse.Namespace) -> list[dict[str, Any]]:
    import duckdb

    con = duckdb.connect(args.db, read_only=True)
    try:
        where, params = [], []
        if args.run_id:
            where.append("run_id = ?")
            params.append(args.run_id)
        else:
            where.append("run_id IN (SELECT run_id FROM detector_runs r WHERE r.started_at = "
                         "(SELECT max(started_at) FROM detector_runs r2 WHERE r2.mode = r.mode))")
        if args.min_severity:
            order = {"low": 0, "medium": 1, "high": 2}
            where.append("CASE severity WHEN 'low' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END >= "
                         f"{order[args.min_severity]}")
        # a warehouse whose last detector run predates a field (evidence_families: 1.11) reads it as null
        have = {r[0] for r in con.execute("SELECT column_name FROM information_schema.columns "
                                          "WHERE table_name = 'flags' AND table_schema = current_schema()").fetchall()}
        fields = [f if f in have else f"NULL AS {f}" for f in FLAG_FIELDS]
        cur = con.execute(
            f"SELECT {', '.join(fields)} FROM flags WHERE {' AND '.join(where)} ORDER BY score DESC", params
        )
        cols = [d[0] for d in cur.description]
        return [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]
    finally:
        con.close()


def cmd_flags(args: argparse.Namespace) -> int:
    rows = _flag_rows(args)
    if args.format == "json":
        print(json.dumps(rows, default=str, indent=1))
        return 0
    writer = csv.DictWriter(sys.stdout, fieldnames=FLAG_FIELDS)
    writer.writeheader()
    for r in rows:
        writer.writerow({k: ";".join(v) if isinstance(v, list) else v for k, v in r.items()})
    return 0


def _score_rows(args: argparse.Namespace) -> tuple[list[str], list[dict[str, Any]], str]:
    """The pair_scores columns, the matching rows in rank order, and the run they come from."""
    import duckdb

    con = duckdb.connect(args.db, read_only=True)
    try:
        run = args.run_id or _latest_run(con, args.mode)
        if run is None:
            raise SystemExit(f"{args.db}: no detector run{' in ' + args.mode + ' mode' if args.mode else ''}")
        known = con.execute("SELECT count(*) FROM detector_runs WHERE run_id = ?", [run]).fetchone()
        if not (known and known[0]):
            print(f"error: {args.db}: no detector run {run!r} in this warehouse", file=sys.stderr)
            raise SystemExit(2)
        where, params = ["run_id = ?"], [run]
        if args.player:
            where.append("(lower(player_a) LIKE ? OR lower(player_b) LIKE ?)")
            params += [f"%{args.player.lower()}%"] * 2
        # name_a / name_b: the screen names as flags list them (a key is "site:name")
        names = ", ".join(f"substr(player_{x}, strpos(player_{x}, ':') + 1) AS name_{x}" for x in "ab")
        cur = con.execute(f"SELECT *, {names} FROM pair_scores WHERE {' AND '.join(where)} ORDER BY rank", params)
        cols = [d[0] for d in cur.description]
        return cols, [dict(zip(cols, r, strict=True)) for r in cur.fetchall()], run
    finally:
        con.close()


def _latest_run(con: Any, mode: str | None) -> str | None:
    row = con.execute(
        "SELECT run_id FROM detector_runs WHERE $m IS NULL OR mode = $m ORDER BY started_at DESC LIMIT 1",
        {"m": mode},
    ).fetchone()
    return str(row[0]) if row else None


def cmd_scores(args: argparse.Namespace) -> int:
    """Every scored pair of a run, ranked, with its family scores: why a pair was (not) flagged."""
    cols, rows, run = _score_rows(args)
    if not rows:  # an empty CSV or [] alone reads like a failed command
        who = f" involving {args.player!r}" if args.player else ""
        print(f"run {run}: no scored pair{who}", file=sys.stderr)
    if args.format == "json":
        print(json.dumps(rows, default=str, indent=1))
        return 0
    writer = csv.DictWriter(sys.stdout, fieldnames=cols)
    writer.writeheader()
    writer.writerows(rows)
    return 0


def cmd_evaluate(args: argparse.Namespace) -> int:
    from dashboards.labels import evaluate_labels, is_labels
    from detectors.api import evaluate_warehouse

    doc = json.loads(Path(args.truth).read_text(encoding="utf-8"))
    if is_labels(doc):  # reviewers' decisions (floorman labels): scored on the reviewed pairs only
        result = evaluate_labels(args.db, doc, args.run_id)
    else:
        result = evaluate_warehouse(args.db, args.truth, args.run_id)
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        print(f"run {result['run_id']}: {result['candidate_pairs']:,} candidate pairs, "
              f"{result['positive_pairs']} colluding")
        print(f"  PairAP        {result['pair_ap']:.4f}")
        print(f"  EvidenceMAP@5 {result['evidence_map5']:.4f}  ({result['pairs_with_evidence']} pairs with evidence)")
        print(f"  FamilyMAP     {result['family_map']:.4f}  "
              + ", ".join(f"{k} {v:.3f}" for k, v in result["family_ap"].items()))
        print(f"  composite     {result['composite']:.4f}  (0.7·PairAP + 0.2·EvidenceMAP@5 + 0.1·FamilyMAP)")
    return 0


def cmd_train(args: argparse.Namespace) -> int:
    from detectors.train import train_and_save

    for mode in (["operator", "player"] if args.mode == "both" else [args.mode]):
        path = train_and_save(args.db, args.truth, mode, args.out)
        print(f"trained {mode} pair model -> {path}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser("detect", help="player/pair statistics, collusion detectors and flags")
    p.add_argument("--db", required=True, type=existing_warehouse, help="warehouse DuckDB file")
    p.add_argument("--mode", choices=["operator", "player", "both"], default="operator",
                   help="operator: all hole cards; player: only cards a player could see")
    p.add_argument("--since", help="first hand date (YYYY-MM-DD)")
    p.add_argument("--until", help="last hand date (YYYY-MM-DD)")
    p.add_argument("--model", help="pair model file (default: the packaged one for the mode)")
    p.add_argument("--budget-share", type=float, default=0.01, metavar="F",
                   help="the review queue: this share of the scored pairs (default 0.01) ...")
    p.add_argument("--budget-per-1000-players", type=float, metavar="N",
                   help="... or N flags per 1,000 active players, if more ...")
    p.add_argument("--budget-cap-per-1000-players", type=float, metavar="N", default=DEFAULT_CAP_PER_1000_PLAYERS,
                   help="... but at most N per 1,000 active players (size the queue to the team; default "
                        f"{DEFAULT_CAP_PER_1000_PLAYERS:g}, 0: no cap)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_detect)

    p = subparsers.add_parser("flags", help="list the latest run's flags")
    p.add_argument("--db", required=True, type=existing_warehouse, help="warehouse DuckDB file")
    p.add_argument("--format", choices=["json", "csv"], default="json")
    p.add_argument("--run-id")
    p.add_argument("--min-severity", choices=["low", "medium", "high"])
    p.set_defaults(func=cmd_flags)

    p = subparsers.add_parser("scores", help="every scored pair of a run, ranked, with its family scores")
    p.add_argument("--db", required=True, type=existing_warehouse, help="warehouse DuckDB file")
    p.add_argument("--format", choices=["json", "csv"], default="csv")
    p.add_argument("--run-id")
    p.add_argument("--mode", choices=["operator", "player"], help="latest run of this mode (default: latest)")
    p.add_argument("--player", help="only pairs whose key contains this text (case-insensitive)")
    p.set_defaults(func=cmd_scores)

    p = subparsers.add_parser("evaluate", help="score the latest detector run against simulator truth")
    p.add_argument("--db", required=True, type=existing_warehouse, help="warehouse DuckDB file")
    p.add_argument("--truth", required=True,
                   help="truth JSON written by floorman simulate, or a labels file from floorman labels")
    p.add_argument("--run-id")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_evaluate)

    p = subparsers.add_parser("train-detectors", help="fit the pair model on simulated warehouses and their truth")
    p.add_argument("--db", required=True, nargs="+", type=existing_warehouse, help="simulated warehouses")
    p.add_argument("--truth", required=True, nargs="+", help="their truth files, in the same order")
    p.add_argument("--mode", choices=["operator", "player", "both"], default="both")
    p.add_argument("--out", help="model file (default: the packaged location for the mode)")
    p.set_defaults(func=cmd_train)
