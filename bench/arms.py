"""Judge a detector change on the dev rooms: two sets of ``bench/quality.py --json`` files, one verdict.

    .venv/bin/python bench/arms.py --base base/*.json --arm arm/*.json [--min-gain 0.005] [--max-loss 0.02]

Each side is the JSON rows of ``bench/quality.py --json`` over the same rooms (generator, seed,
intensity, mode); only Floorman's rows count and only rooms present on both sides are compared.
It prints, per mode, the mean composite of each side and, per generator, the change of its mean,
then the verdict of the rule the project sets before a run: ship only if the mean of both modes'
changes is at least ``--min-gain`` and no generator's mean falls by more than ``--max-loss`` in
either mode.

Why a script: the rule was applied by hand from scratch notes, where a room missing on one side or a
mode averaged over different rooms goes unnoticed. Why it says nothing about significance: on these
rooms the pair model's random seed alone moves a generator's mean by up to 0.046 (README, "The
seed"), so compare seed bags with seed bags (``scripts/train_pair_models.py --bag``), not one fit
with another.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Room = tuple[str, int, float, str]  # generator, seed, intensity, mode


@dataclass(frozen=True)
class Verdict:
    """What the rule found: per mode the two means, per (mode, generator) the change, and the call."""

    means: dict[str, tuple[float, float]]
    by_generator: dict[tuple[str, str], float]
    gain: float
    worst: tuple[str, str, float]
    ships: bool
    rooms: int


def composites(rows: Iterable[dict[str, Any]]) -> dict[Room, float]:
    """Floorman's composite per room; a room seen twice is an error (two runs mixed in one side)."""
    out: dict[Room, float] = {}
    for r in rows:
        if r.get("who") != "floorman":
            continue
        key = (str(r["generator"]), int(r.get("seed", -1)), float(r["intensity"]), str(r["mode"]))
        if key in out:
            raise ValueError(f"room {key} appears twice on one side")
        out[key] = float(r["composite"])
    return out


def judge(base: dict[Room, float], arm: dict[Room, float], min_gain: float = 0.005,
          max_loss: float = 0.02) -> Verdict:
    """The rule on the rooms both sides have."""
    shared = sorted(set(base) & set(arm))
    if not shared:
        raise ValueError("the two sides have no room in common")
    modes = sorted({k[3] for k in shared})
    means = {m: (statistics.mean(base[k] for k in shared if k[3] == m),
                 statistics.mean(arm[k] for k in shared if k[3] == m)) for m in modes}
    by_generator = {}
    for mode, gen in sorted({(k[3], k[0]) for k in shared}):
        keys = [k for k in shared if k[3] == mode and k[0] == gen]
        by_generator[(mode, gen)] = statistics.mean(arm[k] - base[k] for k in keys)
    gain = statistics.mean(after - before for before, after in means.values())
    worst_key = min(by_generator, key=lambda k: by_generator[k])
    worst = (worst_key[0], worst_key[1], by_generator[worst_key])
    ships = gain >= min_gain and worst[2] >= -max_loss
    return Verdict(means, by_generator, gain, worst, ships, len(shared))


def load(paths: Sequence[Path]) -> dict[Room, float]:
    rows: list[dict[str, Any]] = []
    for path in paths:
        rows += json.loads(path.read_text(encoding="utf-8"))
    return composites(rows)


def report(v: Verdict, min_gain: float, max_loss: float) -> str:
    lines = [f"{v.rooms} rooms compared (room = generator, seed, intensity, mode)"]
    for mode, (before, after) in v.means.items():
        lines.append(f"{mode}: base {before:.4f}  arm {after:.4f}  change {after - before:+.4f}")
        lines += [f"  {gen:10} {d:+.4f}" for (m, gen), d in v.by_generator.items() if m == mode]
    call = "SHIPS" if v.ships else "does not ship"
    lines.append(f"mean of both modes' changes {v.gain:+.4f} (needs {min_gain:+.4f}); worst generator "
                 f"{v.worst[1]} {v.worst[0]} {v.worst[2]:+.4f} (limit {-max_loss:+.4f}): {call}")
    return "\n".join(lines)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--base", nargs="+", type=Path, required=True, help="bench/quality.py --json files, before")
    p.add_argument("--arm", nargs="+", type=Path, required=True, help="the same rooms, after the change")
    p.add_argument("--min-gain", type=float, default=0.005)
    p.add_argument("--max-loss", type=float, default=0.02)
    args = p.parse_args()
    verdict = judge(load(args.base), load(args.arm), args.min_gain, args.max_loss)
    print(report(verdict, args.min_gain, args.max_loss))
    return 0 if verdict.ships else 1


if __name__ == "__main__":
    raise SystemExit(main())
