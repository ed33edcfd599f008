"""Fit the shipped pair and family models on many random worlds of two generators.

    .venv/bin/python scripts/train_pair_models.py [--worlds first:1001-1024 indie:101-124] [--work var/train]

writes detectors/models/pair_model_<mode>.pkl and family_model_<mode>.pkl (+ .json sidecars that
record the worlds). ``--models family`` refits only the family model (``detectors.attribution``).
``--bag 3`` (what ships since 1.12.0) also writes ``pair_model_<mode>_s1.pkl`` and ``_s2.pkl``: the
same fit with random seeds 1 and 2, whose probabilities ``learn.PairEnsemble`` averages with the
first's (a seed bag: the seed alone moved the dev grid by up to 0.046 in a room). Any other
``pair_model_<mode>_*.pkl`` put beside them, trained on other worlds, is combined by rank instead.

Why many worlds: a model trained on one world learns that world (its intensity, implementations,
honest styles and pool size); every world here draws them afresh from its seed.

Why two generators (1.9.0): fitted on the first simulator's worlds alone, the models learned its
habits, for example that pairs who leave a table together collude; on the third author's rooms
(``simulator.indie``), where tables close and everyone leaves at once, honest pairs scored above
0.99. Fitted on both, one model ranked each generator's colluders as well as a model fitted on that
generator alone, and ranked a fourth author's rooms (``simulator.rival``, never fitted on) better
than the shipped ensemble. The independent generators ``simulator.foreign`` and
``simulator.heldout`` are never used here: they are the test. Each world is simulated, ingested
and its labelled pair frames cached (parquet) once; refitting after a feature change reuses the cache.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from detectors import attribution, learn  # noqa: E402
from detectors.evaluate import load_truth  # noqa: E402
from detectors.train import fit_and_save, labelled_pairs, weight_decoys  # noqa: E402
from simulator import authors  # noqa: E402
from warehouse.ingest import ingest_paths  # noqa: E402


def seeds(text: str) -> list[int]:
    """'1001-1012' or '1001,1005'."""
    if "-" in text:
        lo, hi = text.split("-")
        return list(range(int(lo), int(hi) + 1))
    return [int(s) for s in text.split(",")]


#: hands per world when --hands is not given (the sizes the shipped models were fitted on)
HANDS = {"first": 60_000, "indie": 50_000, "rival": 50_000}
#: the worlds the shipped models were fitted on: the first simulator's and the third author's
DEFAULT_WORLDS = ("first:1001-1024", "indie:101-124")

World = tuple[str, int]


def worlds(specs: list[str]) -> list[World]:
    """'first:1001-1024 indie:101-124' -> [(generator, seed), ...]."""
    out: list[World] = []
    for spec in specs:
        generator, _, text = spec.partition(":")
        if generator not in HANDS or not text:
            raise SystemExit(f"--worlds {spec!r}: expected GENERATOR:SEEDS with GENERATOR one of {sorted(HANDS)}")
        out += [(generator, s) for s in seeds(text)]
    return out


def hands_of(generator: str, hands: int | None) -> int:
    return hands or HANDS[generator]


def world_dir(generator: str, seed: int, work: Path) -> Path:
    return work / (f"world-{seed}" if generator == "first" else f"{generator}-{seed}")


def world(seed: int, hands: int, work: Path, generator: str = "first") -> tuple[Path, Path]:
    """Simulate and ingest one random world (cached): its warehouse and truth."""
    base = world_dir(generator, seed, work)
    truth, db = base / "truth.json", base / "w.duckdb"
    if not truth.exists():
        simulate(generator, seed, hands, base / "hh", truth)
    if not db.exists():
        ingest_paths([base / "hh"], db, progress=False)
    return db, truth


def simulate(generator: str, seed: int, hands: int, out: Path, truth: Path) -> None:
    """One world of ``generator``: the first simulator draws its own world from the seed; another
    author's (``simulator.indie``, ``simulator.rival``) takes its intensity and pool size drawn here
    from the seed."""
    if generator in ("indie", "rival"):
        rng = random.Random(f"{generator}-world:{seed}")
        authors.generator(generator)(out, truth, hands=hands, seed=seed,
                                     intensity=round(rng.uniform(0.15, 1.0), 2), operator_mode=True,
                                     players=rng.choice([150, 250, 400, 600, 900]))
        return
    subprocess.run(
        [sys.executable, "-m", "pipelines.cli", "simulate", "--hands", str(hands), "--seed", str(seed),
         "--operator-mode", "--world", "random", "--out", str(out), "--truth", str(truth)],
        check=True, cwd=ROOT,
    )


def frame(seed: int, hands: int, work: Path, mode: str, generator: str = "first") -> pl.DataFrame | None:
    """The world's labelled pair frame for ``mode`` (cached), or None when no truth pair was scored."""
    cache = world_dir(generator, seed, work) / f"pairs-{mode}.parquet"
    if not cache.exists():
        db, truth = world(seed, hands, work, generator)
        labelled_pairs(db, truth, mode).write_parquet(cache)
    f = pl.read_parquet(cache)
    return f if f.filter(pl.col("family") != "none").height else None


def world_options(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The options every training script over the random worlds shares."""
    p.add_argument("--worlds", nargs="+", default=list(DEFAULT_WORLDS), metavar="GENERATOR:SEEDS",
                   help="whose worlds and which seeds, e.g. first:1001-1024 indie:101-124")
    p.add_argument("--hands", type=int, help=f"hands per world (default {HANDS})")
    p.add_argument("--work", default=str(ROOT / "var" / "train"))
    p.add_argument("--modes", nargs="+", default=["operator", "player"])
    p.add_argument("--out-dir", help="write the models here instead of detectors/models")
    return p


def main() -> int:
    p = world_options(argparse.ArgumentParser(description=__doc__.split("\n\n")[0]))
    p.add_argument("--models", nargs="+", choices=["pair", "family"], default=["pair", "family"])
    p.add_argument("--calibrated", action="store_true",
                   help="features as robust z per room (ranked worse on the independent rooms; off)")
    p.add_argument("--without", nargs="+", default=[], metavar="FEATURE",
                   help="leave these pair-model features out, e.g. the co-presence ones")
    p.add_argument("--bag", type=int, default=3, metavar="K",
                   help="pair models fitted with random seeds 0..K-1 and averaged (default 3; 1 for one model)")
    p.add_argument("--decoy-weight", type=float, default=1.0,
                   help="sample weight of the worlds' friends and staking pairs (honest decoys) in the pair model")
    args = p.parse_args()
    work = Path(args.work)
    for mode in args.modes:
        got = [(g, s, frame(s, hands_of(g, args.hands), work, mode, g)) for g, s in worlds(args.worlds)]
        kept = [(g, s, f) for g, s, f in got if f is not None]
        frames = [f for _, _, f in kept]
        if args.decoy_weight != 1.0:
            frames = [weight_decoys(f, load_truth(world_dir(g, s, work) / "truth.json"), args.decoy_weight)
                      for g, s, f in kept]
        sources = [f"{g} world {s} ({hands_of(g, args.hands)} hands)" for g, s, _ in kept]
        used = [s for _, s, _ in kept]
        out_dir = Path(args.out_dir) if args.out_dir else learn.MODEL_DIR
        if "pair" in args.models:
            for seed, path in fit_bag(frames, sources, used, mode, out_dir, args.bag, args.calibrated, args.without):
                print(f"{mode}: {len(kept)} worlds, {sum(f.height for f in frames):,} pairs, seed {seed} -> {path}")
        if "family" in args.models:
            path = fit_family(frames, sources, used, mode, out_dir)
            print(f"{mode}: family model -> {path}")
    return 0


def fit_bag(frames: list[pl.DataFrame], sources: list[str], world_seeds: list[int], mode: str, out_dir: Path,
            k: int, calibrated: bool = False, without: Sequence[str] = ()) -> list[tuple[int, Path]]:
    """Fit the ``k`` pair models of a seed bag into ``out_dir``, first removing members a bigger bag
    left there (they would join the ensemble while describing an older fit)."""
    for stale in out_dir.glob(f"{learn.model_path(mode).stem}_s*.pkl"):
        stale.unlink()
        stale.with_suffix(".json").unlink(missing_ok=True)
    return [(seed, fit_and_save(frames, sources, world_seeds, mode, out_dir / name, calibrated=calibrated,
                                without=without, random_state=seed))
            for seed, name in bag_members(mode, k)]


def bag_members(mode: str, k: int) -> list[tuple[int, str]]:
    """(random seed, file name) of each pair model in a bag of ``k``: seed 0 is the main file."""
    main = learn.model_path(mode)
    return [(0, main.name)] + [(s, f"{main.stem}_s{s}{main.suffix}") for s in range(1, k)]


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
