"""Ingest benchmark: our end-to-end ingest (parse + reconcile + load into DuckDB) next to
pokerkit's ``PokerStarsParser`` (parse only) on the same PokerStars text, in one run.

    .venv/bin/python bench/ingest.py [--hands 50000] [--source DIR]

The corpus is made of real PokerStars hands from ../shared/data/hands (every hand pokerkit can
also parse), repeated with fresh hand numbers until it holds ``--hands`` hands, written to one big
file and to many small ones, so both streaming and per-file overheads are measured. Peak RSS is
printed to show memory does not grow with file size (one 1x and one 4x file).
"""

from __future__ import annotations

import argparse
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from parsers.registry import get_format, sniff_format  # noqa: E402
from warehouse.ingest import ingest_paths, iter_input_files  # noqa: E402

HEADER = re.compile(r"^(PokerStars (?:Zoom )?Hand #)(\d+)", re.M)


def real_stars_hands(source: Path) -> list[str]:
    """Real PokerStars hold'em/omaha hands that both parsers accept."""
    from pokerkit import PokerStarsParser

    stars = get_format("pokerstars")
    kit = PokerStarsParser()
    hands: list[str] = []
    for path in iter_input_files([source]):
        if sniff_format(path) is not stars:
            continue
        ok = {h.hand_id.split(":", 1)[1] for h in stars.parse(path) if hasattr(h, "hand_id")}
        text = path.read_bytes().decode("utf-8", errors="replace").replace("\r\n", "\n").lstrip("\ufeff")
        for block in re.split(r"\n\s*\n\s*\n+", text):
            m = HEADER.search(block)
            if not m or m.group(2) not in ok:
                continue
            try:
                if list(kit(block.strip() + "\n\n\n")):
                    hands.append(block.strip())
            except Exception:
                continue
    return hands


def renumber(hands: list[str], n: int) -> list[str]:
    out = []
    for i in range(n):
        out.append(HEADER.sub(lambda m, i=i: f"{m.group(1)}{900000000000 + i}", hands[i % len(hands)], count=1))
    return out


def bench_pokerkit(text: str) -> tuple[int, float]:
    from pokerkit import PokerStarsParser

    t0 = time.perf_counter()
    count = sum(1 for _ in PokerStarsParser()(text, error_status=False))
    return count, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=50_000)
    ap.add_argument("--source", type=Path, default=ROOT.parent / "shared" / "data" / "hands")
    ap.add_argument("--pokerkit-hands", type=int, default=3_000, help="pokerkit is slow: time it on a slice")
    args = ap.parse_args()

    base = real_stars_hands(args.source)
    print(f"corpus: {len(base)} distinct real PokerStars hands accepted by both parsers, "
          f"repeated to {args.hands:,}")
    hands = renumber(base, args.hands)
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "big.txt"
        big.write_text("\n\n\n".join(hands) + "\n", encoding="utf-8")
        mb = big.stat().st_size / 1e6
        # ours, end to end into DuckDB, one core
        db = Path(tmp) / "w.duckdb"
        summary = ingest_paths([big], db, progress=False)
        ours = summary.hands / summary.seconds
        print(f"floorman ingest (parse+reconcile+load), 1 file {mb:.0f} MB: "
              f"{summary.hands:,} hands in {summary.seconds:.2f} s = {ours:,.0f} hands/s "
              f"(quarantined {summary.quarantined}, unreconciled {summary.unreconciled})")
        # many small files (as sites write them: one per table session)
        small = Path(tmp) / "small"
        small.mkdir()
        for i in range(0, len(hands), 200):
            (small / f"t{i}.txt").write_text("\n\n\n".join(hands[i:i + 200]) + "\n", encoding="utf-8")
        s2 = ingest_paths([small], Path(tmp) / "w2.duckdb", progress=False)
        print(f"floorman ingest, {s2.files} files of 200 hands: {s2.hands / s2.seconds:,.0f} hands/s")
        # parse only (no DuckDB), for the split
        stars = get_format("pokerstars")
        t0 = time.perf_counter()
        parsed = sum(1 for _ in stars.parse(big))
        tp = time.perf_counter() - t0
        print(f"floorman parse only: {parsed / tp:,.0f} hands/s")
        # pokerkit on a slice of the same text
        k = min(args.pokerkit_hands, len(hands))
        count, secs = bench_pokerkit("\n\n\n".join(hands[:k]) + "\n\n\n")
        print(f"pokerkit PokerStarsParser (parse only), {count:,} hands: {count / secs:,.0f} hands/s")
        print(f"ratio floorman end-to-end / pokerkit parse: {ours / (count / secs):,.0f}x")
        # memory: a 4x bigger file must not need 4x the memory (separate processes)
        for factor in (1, 4):
            f = Path(tmp) / f"mem{factor}.txt"
            with f.open("w", encoding="utf-8") as fh:
                for _ in range(factor):
                    fh.write("\n\n\n".join(hands) + "\n\n\n")
            code = (f"import sys,resource; sys.path.insert(0,{str(ROOT)!r}); from warehouse.ingest import ingest_paths;"
                    f"s=ingest_paths([{str(f)!r}], {str(Path(tmp) / f'mem{factor}.duckdb')!r}, progress=False);"
                    f"print(s.hands, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)")
            run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
            n, rss = run.stdout.split()
            print(f"memory: {factor}x file ({f.stat().st_size / 1e6:.0f} MB, {int(n):,} hands) peak RSS {rss} MB")
    print(f"(peak RSS of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB)")


if __name__ == "__main__":
    main()
