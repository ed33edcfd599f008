"""Fit the shipped pair models on many random worlds of the first simulator.

    .venv/bin/python scripts/train_pair_models.py [--seeds 1001-1024] [--hands 60000] [--work var/train]

writes detectors/models/pair_model_<mode>_worlds.pkl (+ .json), which the detectors combine with
pair_model_<mode>.pkl (trained on classic nights, seeds 101/202/303 and 30-player pools) into one
ensemble (``learn.PairEnsemble``).

Why many worlds: a model trained on one world learns that world (its intensity, implementations,
honest styles and pool size); every world here draws them afresh from its seed (``floorman
simulate --world random``), and the model sees each room's features as robust z among that room's
own pairs (``detectors.calibrate``), so nothing whose scale depends on the population reaches it.
The independent second generator (``simulator.foreign``) is never used here: it is the test.
Each world is simulated, ingested and its labelled pair frames cached (parquet) once; refitting
after a feature change reuses the cache.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from detectors import learn  # noqa: E402
from detectors.train import fit_and_save, labelled_pairs  # noqa: E402
from warehouse.ingest import ingest_paths  # noqa: E402


def seeds(text: str) -> list[int]:
    """'1001-1012' or '1001,1005'."""
    if "-" in text:
        lo, hi = text.split("-")
        return list(range(int(lo), int(hi) + 1))
    return [int(s) for s in text.split(",")]


def world(seed: int, hands: int, work: Path) -> tuple[Path, Path]:
    """Simulate and ingest one random world (cached): its warehouse and truth."""
    base = work / f"world-{seed}"
    truth, db = base / "truth.json", base / "w.duckdb"
    if not truth.exists():
        subprocess.run(
            [sys.executable, "-m", "pipelines.cli", "simulate", "--hands", str(hands), "--seed", str(seed),
             "--operator-mode", "--world", "random", "--out", str(base / "hh"), "--truth", str(truth)],
            check=True, cwd=ROOT,
        )
    if not db.exists():
        ingest_paths([base / "hh"], db, progress=False)
    return db, truth


def frame(seed: int, hands: int, work: Path, mode: str) -> pl.DataFrame | None:
    """The world's labelled pair frame for ``mode`` (cached), or None when no truth pair was scored."""
    cache = work / f"world-{seed}" / f"pairs-{mode}.parquet"
    if not cache.exists():
        db, truth = world(seed, hands, work)
        labelled_pairs(db, truth, mode).write_parquet(cache)
    f = pl.read_parquet(cache)
    return f if f.filter(pl.col("family") != "none").height else None


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seeds", default="1001-1024")
    p.add_argument("--hands", type=int, default=60_000)
    p.add_argument("--work", default=str(ROOT / "var" / "train"))
    p.add_argument("--modes", nargs="+", default=["operator", "player"])
    p.add_argument("--out-dir", help="write the models here instead of detectors/models")
    p.add_argument("--calibrated", action="store_true",
                   help="features as robust z per room (ranked worse on the independent rooms; off)")
    args = p.parse_args()
    work = Path(args.work)
    for mode in args.modes:
        got = [(s, frame(s, args.hands, work, mode)) for s in seeds(args.seeds)]
        kept = [(s, f) for s, f in got if f is not None]
        name = f"pair_model_{mode}_worlds.pkl"
        out = Path(args.out_dir) / name if args.out_dir else learn.MODEL_DIR / name
        path = fit_and_save([f for _, f in kept], [f"world {s} ({args.hands} hands)" for s, _ in kept],
                            [s for s, _ in kept], mode, out, calibrated=args.calibrated)
        print(f"{mode}: {len(kept)} worlds, {sum(f.height for _, f in kept):,} pairs -> {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
