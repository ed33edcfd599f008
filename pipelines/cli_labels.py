"""``floorman labels``: reviewers' decisions exported as labels the detectors' evaluation reads.

The logic lives in ``dashboards/labels.py``; ``floorman evaluate --truth labels.json`` scores a run
against such a file on the reviewed pairs only.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from pipelines.argtypes import existing_warehouse


def cmd_labels(args: argparse.Namespace) -> int:
    from dashboards import settings
    from dashboards.labels import write_labels
    from dashboards.review_store import ReviewStore

    review_db = Path(args.review_db) if args.review_db else settings.load().review_db
    if not review_db.exists():
        print(f"error: review store {review_db} does not exist")
        return 1
    doc = write_labels(args.db, ReviewStore(review_db), args.out)
    c = doc["counts"]
    print(json.dumps(c, sort_keys=True) if args.json else
          f"{c['cases']} decided cases -> {c['pairs']} labelled pairs ({c['positive']} confirmed, "
          f"{c['negative']} dismissed, {c['undecided']} escalated) -> {args.out}")
    if doc["cases_not_in_snapshot"]:
        print(f"  {len(doc['cases_not_in_snapshot'])} decided cases are not in this snapshot (left out)")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser("labels", help="export reviewers' decisions as labels (pairs with the decision)")
    p.add_argument("--db", required=True, type=existing_warehouse, help="warehouse snapshot whose cases were reviewed")
    p.add_argument("--review-db", help="review store (default: FLOORMAN_REVIEW_DB or var/review.sqlite)")
    p.add_argument("--out", required=True, help="labels JSON to write")
    p.add_argument("--json", action="store_true", help="print the counts as JSON")
    p.set_defaults(func=cmd_labels)
