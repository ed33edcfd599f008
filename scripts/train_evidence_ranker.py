"""Fit the shipped evidence rankers on random worlds (by default the pair models' worlds).

    .venv/bin/python scripts/train_evidence_ranker.py [--worlds first:1001-1024 indie:101-124] [--work var/train]
        [--validate DIR ...] [--modes operator player] [--out-dir DIR]

writes detectors/models/evidence_ranker_<mode>.pkl (+ .json). The worlds are the ones
``scripts/train_pair_models.py`` simulates and ingests (cached under --work, made here when missing).

Why worlds: the first rankers were fitted on three classic nights, where each family has one
implementation at full intensity, so they learned what those acts look like (a check-down, a
re-raise sandwich) and ranked the other implementations' acts (folding to the captain, trash calls
of a partner's shove, isolation raises) below honest-looking hands. The worlds draw three or four
implementations per family and the intensity afresh per team. ``--validate`` prints, for each
warehouse+truth directory given (``w.duckdb`` and ``truth.json``), AP@5 per family of the SQL
order, the ranker in use and the new one, on truth pairs labelled with their own family.
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import polars as pl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from detectors import evrank  # noqa: E402
from detectors.evaluate import load_truth  # noqa: E402
from detectors.run import Params, compute  # noqa: E402

sys.path.insert(0, str(ROOT / "scripts"))
from train_pair_models import hands_of, world, world_options, worlds  # noqa: E402


def candidate_frames(db: Path, truth: Path, mode: str) -> dict[str, pl.DataFrame]:
    """Each family's labelled evidence candidates for the warehouse's truth pairs."""
    with duckdb.connect(str(db), read_only=True) as con:
        compute(con, Params(mode=mode))  # builds the run's keyed tables the evidence queries read
        return evrank.labelled(con, load_truth(truth))


def validate(room: Path, mode: str, rankers: dict[str, evrank.EvidenceRanker | None]) -> None:
    with duckdb.connect(str(room / "w.duckdb"), read_only=True) as con:
        compute(con, Params(mode=mode))
        truth = load_truth(room / "truth.json")
        for name, ranker in rankers.items():
            print(f"  {room.name} {mode} {name:7s} {evrank.ap_by_family(con, truth, ranker)}", flush=True)


def main() -> int:
    p = world_options(argparse.ArgumentParser(description=__doc__.split("\n\n")[0]))
    p.add_argument("--validate", nargs="*", default=[], help="warehouse+truth directories to compare on")
    args = p.parse_args()
    work = Path(args.work)
    for mode in args.modes:
        frames: dict[str, list[pl.DataFrame]] = {}
        used = worlds(args.worlds)
        for gen, s in used:
            db, truth = world(s, hands_of(gen, args.hands), work, gen)
            for fam, frame in candidate_frames(db, truth, mode).items():
                frames.setdefault(fam, []).append(frame)
        ranker = evrank.fit({f: pl.concat(v, how="diagonal_relaxed") for f, v in frames.items()}, mode, {
            "seeds": [s for _, s in used], "worlds": args.worlds,
            "trained_at": datetime.now(UTC).isoformat(timespec="seconds")})
        print(mode, "trained", ranker.trained_on["counts"], flush=True)
        shipped = evrank.load(evrank.model_path(mode))
        for room in args.validate:
            validate(Path(room), mode, {"sql": None, "shipped": shipped, "new": ranker})
        out = Path(args.out_dir) / evrank.model_path(mode).name if args.out_dir else evrank.model_path(mode)
        evrank.save(ranker, out)
        print(mode, "saved", out, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
