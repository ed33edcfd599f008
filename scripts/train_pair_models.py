"""Fit the shipped pair models on many random worlds of the first simulator.

    .venv/bin/python scripts/train_pair_models.py [--seeds 1001-1024] [--hands 60000] [--work var/train]

writes detectors/models/pair_model_<mode>_worlds.pkl (+ .json), which the detectors combine with
pair_model_<mode>.pkl (trained on classic nights, seeds 101/202/303 and 30-player pools) into one
ensemble (``learn.PairEnsemble``), and family_model_<mode>.pkl (+ .json), the family attribution
fitted on the same worlds' colluding pairs (``detectors.attribution``); ``--models family`` refits
only that one.

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
import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from detectors import attribution, learn  # noqa: E402
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


def world_options(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The options every training script over the random worlds shares."""
    p.add_argument("--seeds", default="1001-1024")
    p.add_argument("--hands", type=int, default=60_000)
    p.add_argument("--work", default=str(ROOT / "var" / "train"))
    p.add_argument("--modes", nargs="+", default=["operator", "player"])
    p.add_argument("--out-dir", help="write the models here instead of detectors/models")
    return p


def main() -> int:
    p = world_options(argparse.ArgumentParser(description=__doc__.split("\n\n")[0]))
    p.add_argument("--models", nargs="+", choices=["pair", "family"], default=["pair", "family"])
    p.add_argument("--calibrated", action="store_true",
                   help="features as robust z per room (ranked worse on the independent rooms; off)")
    args = p.parse_args()
    work = Path(args.work)
    for mode in args.modes:
        got = [(s, frame(s, args.hands, work, mode)) for s in seeds(args.seeds)]
        kept = [(s, f) for s, f in got if f is not None]
        sources = [f"world {s} ({args.hands} hands)" for s, _ in kept]
        out_dir = Path(args.out_dir) if args.out_dir else learn.MODEL_DIR
        if "pair" in args.models:
            path = fit_and_save([f for _, f in kept], sources, [s for s, _ in kept], mode,
                                out_dir / f"pair_model_{mode}_worlds.pkl", calibrated=args.calibrated)
            print(f"{mode}: {len(kept)} worlds, {sum(f.height for _, f in kept):,} pairs -> {path}")
        if "family" in args.models:
            path = fit_family([f for _, f in kept], sources, [s for s, _ in kept], mode, out_dir)
            print(f"{mode}: family model -> {path}")
    return 0


def fit_family(frames: list[pl.DataFrame], sources: list[str], world_seeds: list[int], mode: str,
               out_dir: Path) -> Path:
    """Fit the family model on the worlds' colluding pairs and write it with its JSON sidecar."""
    model = attribution.fit(frames, mode, {"warehouses": sources, "seeds": world_seeds,
                                           "trained_at": datetime.now(UTC).isoformat(timespec="seconds")})
    path = out_dir / attribution.model_path(mode).name
    attribution.save(model, path)
    path.with_suffix(".json").write_text(
        json.dumps({"version": model.version, "mode": mode, "features": model.features,
                    "trained_on": model.trained_on}, indent=1, sort_keys=True), encoding="utf-8")
    return path


if __name__ == "__main__":
    raise SystemExit(main())
