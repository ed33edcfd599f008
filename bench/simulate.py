"""Benchmark: how long ``floorman simulate`` takes for a night of hands (target: 50,000 < 30 s).

Usage: .venv/bin/python bench/simulate.py [--hands 50000] [--seed 1] [--operator-mode] [--check]
``--check`` also parses every file with the PokerStars parser and reconciles every hand.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from datetime import datetime
from pathlib import Path

from simulator.run import Config, simulate


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=50_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--operator-mode", action="store_true")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "hh"
        cfg = Config(hands=args.hands, seed=args.seed, operator_mode=args.operator_mode,
                     start=datetime(2026, 11, 29, 19))
        wall, cpu = time.perf_counter(), time.process_time()
        result = simulate(cfg, out, Path(tmp) / "truth.json")
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        size = sum(p.stat().st_size for p in result.files)
        stats = result.truth["stats"]
        assert isinstance(stats, dict)
        print(f"simulate: {args.hands:,} hands, {len(result.files)} files, {size / 1e6:.1f} MB, "
              f"{stats['players']} players, {stats['tables']} tables")
        print(f"  wall {wall:.2f} s ({args.hands / wall:,.0f} hands/s), cpu {cpu:.2f} s, "
              f"target 50,000 hands < 30 s: wall {'PASS' if wall * 50_000 / args.hands < 30 else 'FAIL'}, "
              f"cpu {'PASS' if cpu * 50_000 / args.hands < 30 else 'FAIL'} (load average {os.getloadavg()[0]:.1f})")
        print(f"  colluding pairs {stats['colluding_pairs_met']} of {stats['candidate_pairs']} pairs that met "
              f"({100 * stats['colluding_share']:.2f}%)")
        if args.check:
            from parsers.model import Hand
            from parsers.registry import sniff_format
            from warehouse.reconcile import reconcile_hands

            began = time.perf_counter()
            hands, bad = [], 0
            for path in result.files:
                fmt = sniff_format(path)
                assert fmt is not None
                for h in fmt.parse(path):
                    if isinstance(h, Hand):
                        hands.append(h)
                    else:
                        bad += 1
            frame = reconcile_hands(hands)
            ok = frame.filter(frame["status"] == "ok").height
            print(f"  check: {len(hands):,} parsed, {bad} quarantined, {ok:,} reconciled ok "
                  f"({time.perf_counter() - began:.1f} s)")


if __name__ == "__main__":
    main()
