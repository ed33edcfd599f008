"""What the pair ranking rests on: each feature group neutralised in turn, on the quality grid's rooms.

    .venv/bin/python bench/ablation.py [--work var/quality_grid] [--modes operator player]

For every room that ``bench/quality.py`` wrote (it must have run first), the shipped pair model
scores the room's pairs as the detectors do; then each feature group is set to its median over
the room's pairs (the group carries no information any more) and the room is scored again. The
table gives PairAP (over the queue's budget, the same definition as ``detectors.evaluate``),
the colluding pairs inside the budget and the honest decoys (friends, staking partners) among the
top 2K, per group. A group whose removal costs most PairAP is what the ranking rests on; a group
whose removal also empties the decoys is what flags honest friends.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from itertools import combinations
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import polars as pl
from sklearn.metrics import average_precision_score

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from detectors import learn  # noqa: E402
from detectors.run import Params, compute  # noqa: E402
from detectors.train import label_frame  # noqa: E402

DECOY_KINDS = ("friends", "staking", "staking_partners", "backer")

#: feature groups by the mechanism they measure (substrings of the model's feature names)
GROUPS: dict[str, tuple[str, ...]] = {
    "co-presence": ("conc_", "joined_together", "left_together", "sessions_together"),
    "heads-up play": ("_hu_", "checkdown", "soft_play"),
    "facing the partner": ("_face_",),
    "chip flow": ("flow", "beaten", "x_fold", "chip_dumping"),
    "squeezes": ("squeeze", "whipsaw"),
    "hidden cards": ("_cs", "card_sharing"),
}


def room_frame(room: Path, mode: str) -> pl.DataFrame:
    """The room's scored pairs with a truth ``family`` column (cached beside the warehouse)."""
    cache = room / f"ablation-{mode}.parquet"
    if cache.exists() and cache.stat().st_mtime > (room / "w.duckdb").stat().st_mtime:
        return pl.read_parquet(cache)
    con = duckdb.connect(str(room / "w.duckdb"), read_only=True)
    try:
        u = compute(con, Params(mode=mode))
    finally:
        con.close()
    framed = label_frame(u, json.loads((room / "truth.json").read_text(encoding="utf-8")))
    framed.write_parquet(cache)
    return framed


def decoy_pairs(truth: dict[str, Any]) -> set[tuple[str, str]]:
    return {p for c in truth.get("confounders", []) if c.get("kind") in DECOY_KINDS
            for p in combinations(sorted(c.get("players", [])), 2)}


def measures(u: pl.DataFrame, score: np.ndarray[Any, Any], truth: dict[str, Any]) -> dict[str, float]:
    """Budgeted PairAP, colluding pairs in the budget and decoys among the top 2K for one scoring."""
    positives = sum(math.comb(len(t["members"]), 2) for t in truth["teams"])
    y = (u["family"] != "none").to_numpy()
    unscored = positives - int(y.sum())  # truth pairs the room never scored count as score 0
    budget = max(10, math.ceil(0.01 * len(score)))
    order = np.argsort(-score, kind="stable")
    in_budget = np.zeros(len(score), dtype=bool)
    in_budget[order[:budget]] = True
    kept = np.where(in_budget, score - score.min() + 1e-9, 0.0)
    ap = average_precision_score(np.concatenate([y, np.ones(unscored, dtype=bool)]),
                                 np.concatenate([kept, np.zeros(unscored)]))
    names = [tuple(sorted((a.split(":", 1)[-1], b.split(":", 1)[-1]))) for a, b in zip(u["player_a"], u["player_b"],
                                                                                         strict=True)]
    decoys = decoy_pairs(truth)
    top = order[: 2 * positives]
    return {"pair_ap": float(ap), "in_budget": int(y[in_budget].sum()), "positives": positives,
            "decoys_top2k": sum(names[i] in decoys for i in top)}


def ablate(u: pl.DataFrame, model: learn.PairModel | learn.PairEnsemble, truth: dict[str, Any]) -> list[dict[str, Any]]:
    """The room scored whole, then with each feature group held at its median."""
    rows = [{"group": "(none removed)", **measures(u, model.predict(u)["p_pair"].to_numpy(), truth)}]
    for name, parts in GROUPS.items():
        cols = [c for c in u.columns if any(p in c for p in parts) and u[c].dtype.is_numeric()]
        flat = u.with_columns([pl.lit(u[c].median()).cast(u[c].dtype).alias(c) for c in cols])
        rows.append({"group": name, **measures(flat, model.predict(flat)["p_pair"].to_numpy(), truth)})
    return rows


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--work", default=str(ROOT / "var" / "quality_grid"))
    p.add_argument("--modes", nargs="+", default=["operator", "player"], choices=["operator", "player"])
    args = p.parse_args()
    rooms = sorted(r for r in Path(args.work).iterdir() if (r / "w.duckdb").exists() and (r / "truth.json").exists())
    if not rooms:
        print(f"no rooms under {args.work}: run bench/quality.py first", file=sys.stderr)
        return 1
    print("room | mode | neutralised | PairAP | pairs in budget | decoys@2K")
    print("--- | --- | --- | --- | --- | ---")
    for mode in args.modes:
        model = learn.load_many(learn.model_paths(mode), mode)
        if model is None:
            print(f"no shipped {mode} model", file=sys.stderr)
            return 1
        for room in rooms:
            truth = json.loads((room / "truth.json").read_text(encoding="utf-8"))
            for r in ablate(room_frame(room, mode), model, truth):
                print(f"{room.name} | {mode} | {r['group']} | {r['pair_ap']:.3f} | {r['in_budget']}/{r['positives']} | "
                      f"{r['decoys_top2k']}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
