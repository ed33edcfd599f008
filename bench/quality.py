"""Detection quality over a grid: generators × intensities × modes, beside the naive screen.

    .venv/bin/python bench/quality.py [--hands 50000] [--players 400] [--seed 11]
                                      [--intensities 0.2 0.5 1.0] [--generators foreign first]

For each generator and intensity one room is written (PokerStars text, every hole card), ingested
and run through ``detect`` in operator and player mode; the naive single-signal screen
(``bench/naive_screen.py``, text only, no hole cards) and the rank screen written independently from
the issue's description (``bench/naive_rank_screen.py``) run on the same files; the margin is taken
against the better of the two. The second generator
(``simulator.foreign``) was written independently of the detectors and is never trained or tuned
on: it is the test. The first (``floorman simulate --world random``) is shown beside it. The third
(``simulator.indie``, ``--generators indie``), written by another author who read neither the
detectors nor the other generators, is where choices that must transfer to unseen generators are
made (the first generator's rooms are what the models were fitted on, so they favour whatever
the models learned); foreign and heldout stay the test. The fourth (``simulator.rival``,
``--generators rival``), by yet another author under the same rules, checks whether a choice
made on indie transfers to a generator it was not made on. The fifth (``simulator.outsider``,
``--generators outsider``, written 2026-12-07 under the same rules) has only ever been measured.

Metrics (``detectors.evaluate``): composite = 0.7·PairAP + 0.2·EvidenceMAP@5 + 0.1·FamilyMAP;
team recall = share of teams with at least one member pair flagged; decoys@2K = honest-decoy
pairs (friends, staking partners) among the top 2K ranked pairs, K = colluding pairs.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from itertools import combinations
from pathlib import Path
from typing import Any

import duckdb

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from detectors import learn  # noqa: E402
from detectors.evaluate import evaluate, score_flags  # noqa: E402
from detectors.run import Params, detect  # noqa: E402
from simulator.authors import AUTHORS  # noqa: E402
from simulator.authors import generator as generator_of  # noqa: E402
from warehouse.ingest import ingest_paths  # noqa: E402

Flag = tuple[str, list[str], float, list[str]]
DECOY_KINDS = ("friends", "staking", "staking_partners", "backer")


def write_room(generator: str, out: Path, truth: Path, hands: int, players: int, seed: int, intensity: float) -> None:
    """One room of PokerStars text with every hole card, and its truth file."""
    if generator in AUTHORS:  # another author's generator (simulator.authors)
        generator_of(generator)(out, truth, hands=hands, seed=seed, intensity=intensity, operator_mode=True,
                                players=players)
        return
    subprocess.run(
        [sys.executable, "-m", "pipelines.cli", "simulate", "--hands", str(hands), "--seed", str(seed),
         "--players", str(players), "--operator-mode", "--world", "random", "--intensity", str(intensity),
         "--out", str(out), "--truth", str(truth)],
        check=True, cwd=ROOT, stdout=subprocess.DEVNULL,
    )


def latest_run(db: Path, mode: str, truth: dict[str, Any]) -> tuple[dict[str, Any], list[Flag]]:
    """``detectors.evaluate`` on the latest run of ``mode`` (the same scoring as ``floorman
    evaluate``), and that run's flags for the extra metrics."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        run = con.execute("SELECT run_id FROM detector_runs WHERE mode = ? ORDER BY started_at DESC LIMIT 1",
                          [mode]).fetchone()
        assert run is not None
        scored = evaluate(con, truth, str(run[0]))
        flags = con.execute("SELECT family, players, score, evidence_hands FROM flags WHERE run_id = ?",
                            [run[0]]).fetchall()
    finally:
        con.close()
    return scored, [(f, list(p), float(s), list(e)) for f, p, s, e in flags]


def extra_metrics(flags: list[Flag], truth: dict[str, Any]) -> dict[str, Any]:
    """Team recall and honest decoys among the top 2K ranked pairs."""
    best: dict[tuple[str, str], float] = {}
    for _, players, score, _ in flags:
        for a, b in combinations(sorted(players), 2):
            best[(a, b)] = max(best.get((a, b), 0.0), score)
    teams = truth["teams"]
    positives = {p for t in teams for p in combinations(sorted(t["members"]), 2)}
    found = sum(1 for t in teams if any(p in best for p in combinations(sorted(t["members"]), 2)))
    decoys = {tuple(sorted(c["players"][:2])) for c in truth.get("confounders", [])
              if c.get("kind") in DECOY_KINDS and len(c.get("players", [])) >= 2}
    top = sorted(best, key=lambda p: -best[p])[: 2 * len(positives)]
    return {"team_recall": round(found / max(len(teams), 1), 3),
            "decoys_top2k": sum(1 for p in top if p in decoys), "flags": len(flags)}


def model_params(model_dir: str | None, mode: str) -> dict[str, str]:
    """The pair models of ``mode`` in ``model_dir`` (one, or a bag: ``learn.model_paths``), and its
    family model when one is beside it."""
    if not model_dir:
        return {}
    out = {"model": ",".join(str(p) for p in learn.model_paths(mode, Path(model_dir)))}
    family = Path(model_dir) / f"family_model_{mode}.pkl"
    if family.exists():
        out["family_model"] = str(family)
    return out


def run_room(generator: str, intensity: float, args: argparse.Namespace) -> list[dict[str, Any]]:
    base = Path(args.work) / f"{generator}-i{intensity}-s{args.seed}"
    hh, truth_path, db = base / "hh", base / "truth.json", base / "w.duckdb"
    if not truth_path.exists():
        write_room(generator, hh, truth_path, args.hands, args.players, args.seed, intensity)
    if not db.exists():
        ingest_paths([hh], db, progress=False)
    truth = json.loads(truth_path.read_text(encoding="utf-8"))
    rows = []
    for mode in args.modes:
        t0 = time.perf_counter()
        detect(db, Params(mode=mode, **model_params(args.model_dir, mode), **args.params))
        scored, flags = latest_run(db, mode, truth)
        rows.append({"generator": generator, "seed": args.seed, "intensity": intensity, "mode": mode, "who": "floorman",
                     **scored, **extra_metrics(flags, truth),
                     "seconds": round(time.perf_counter() - t0, 1)})
    if args.no_naive:
        return rows
    for who, screen in peers():
        t0 = time.perf_counter()
        cands, flags = screen([hh])
        scored = {**score_flags(cands, flags, truth), **extra_metrics(flags, truth)}
        for mode in args.modes:  # the screens read no hole cards: one result serves both modes
            rows.append({"generator": generator, "seed": args.seed, "intensity": intensity, "mode": mode, "who": who,
                         **scored,
                         "seconds": round(time.perf_counter() - t0, 1)})
    return rows


def peers() -> list[tuple[str, Any]]:
    """The naive peers: the first screen (mean of the top three signal percentiles) and the rank screen
    written independently from the issue's description (co-occurrence beside the best behavioural signal)."""
    from naive_rank_screen import screen as rank_screen
    from naive_screen import screen

    return [("naive", screen), ("naive_rank", rank_screen)]


def print_table(rows: list[dict[str, Any]]) -> None:
    cols = ("generator", "intensity", "mode", "who", "composite", "pair_ap", "evidence_map5", "family_map",
            "team_recall", "decoys_top2k", "flags", "positive_pairs", "candidate_pairs")
    print(" | ".join(cols))
    print(" | ".join("---" for _ in cols))
    for r in rows:
        print(" | ".join(str(r.get(c, "")) for c in cols))
    print()
    print("margin = floorman composite - the best naive peer's composite, per room and mode:")
    for r in rows:
        if r["who"] != "floorman":
            continue
        same = [x for x in rows if x["who"].startswith("naive") and x["generator"] == r["generator"]
                and x["intensity"] == r["intensity"] and x["mode"] == r["mode"]]
        if not same:
            continue
        peer = max(same, key=lambda x: x["composite"])
        print(f"  {r['generator']:8} i={r['intensity']:<4} {r['mode']:8} {r['composite']:.3f} vs "
              f"{peer['composite']:.3f} ({peer['who']})  margin {r['composite'] - peer['composite']:+.3f}")


def _param(text: str) -> tuple[str, Any]:
    name, _, value = text.partition("=")
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=50_000)
    p.add_argument("--players", type=int, default=400)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--intensities", type=float, nargs="+", default=[0.2, 0.5, 1.0])
    p.add_argument("--generators", nargs="+", default=["foreign", "first"],
                   choices=["first", *AUTHORS])
    p.add_argument("--modes", nargs="+", default=["operator", "player"], choices=["operator", "player"])
    p.add_argument("--work", default=str(ROOT / "var" / "quality_grid"))
    p.add_argument("--json", help="also write the rows to this JSON file")
    p.add_argument("--model-dir", help="pair models (pair_model_<mode>.pkl, and family_model_<mode>.pkl "
                                       "if present) to use instead of the shipped ones")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a detector parameter (detectors.run.Params), e.g. ranking=blend")
    p.add_argument("--no-naive", action="store_true", help="skip the naive screen (its figures do not change)")
    args = p.parse_args()
    args.params = dict(_param(x) for x in args.param)
    rows: list[dict[str, Any]] = []
    for gen in args.generators:
        for intensity in args.intensities:
            rows += run_room(gen, intensity, args)
            print(f"... {gen} intensity {intensity} done", file=sys.stderr, flush=True)
    print_table(rows)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
