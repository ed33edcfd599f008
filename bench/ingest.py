"""Ingest benchmark: our end-to-end ingest (parse + reconcile + load into DuckDB) next to
pokerkit's ``PokerStarsParser`` (parse only) on the same PokerStars text, in one run.

    .venv/bin/python bench/ingest.py [--hands 50000] [--source DIR] [--repeat 3]

The corpus is made of real PokerStars hands from ../shared/data/hands (every hand pokerkit can
also parse), repeated with fresh hand numbers until it holds ``--hands`` hands, written to one big
file and to many small ones, so both streaming and per-file overheads are measured. Peak RSS is
printed to show memory does not grow with file size (one 1x and one 4x file).

Our ingest runs in child processes pinned to one core (``POLARS_MAX_THREADS=1``, DuckDB
``threads=1``), ``--repeat`` times: best and median wall rates are printed, and the CPU-time rate
(hands per CPU second), which is what "one core" means on a machine shared with other work.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from parsers.formats.pokerstars import PokerStarsFormat, StarsChunk  # noqa: E402
from parsers.registry import get_format, sniff_format  # noqa: E402
from warehouse.ingest import iter_input_files  # noqa: E402

HEADER = re.compile(r"^(PokerStars (?:Zoom )?Hand #)(\d+)", re.M)


def _quiet_pokerkit() -> None:
    """pokerkit warns (with a traceback) on every hand it cannot read: keep the output readable."""
    import logging
    import warnings

    warnings.filterwarnings("ignore", module="pokerkit")
    warnings.filterwarnings("ignore", category=UserWarning)
    logging.getLogger("pokerkit").setLevel(logging.CRITICAL)


def simulated_stars_hands(n: int) -> list[str]:
    """A simulated night in PokerStars text (realistic 6/9-max NLHE cash), accepted by both."""
    from pokerkit import PokerStarsParser

    from pipelines.cli import main as floorman

    kit = PokerStarsParser()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "sim"
        floorman(["simulate", "--hands", str(n), "--seed", "99", "--out", str(out), "--truth",
                  str(Path(tmp) / "truth.json"), "--start", "2026-11-29"])
        hands: list[str] = []
        for path in sorted(out.glob("*.txt")):
            for block in re.split(r"\n\s*\n\s*\n+", path.read_text(encoding="utf-8")):
                if HEADER.search(block):
                    try:
                        if list(kit(block.strip() + "\n\n\n")):
                            hands.append(block.strip())
                    except Exception:
                        continue
    return hands


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
        text = text.replace("\r", "\n")  # old Mac files: one hand per line ending, as the site wrote it
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
        out.append(HEADER.sub(rf"\g<1>{900000000000 + i}", hands[i % len(hands)], count=1))
    return out


def bench_pokerkit(text: str) -> tuple[int, float]:
    from pokerkit import PokerStarsParser

    t0 = time.perf_counter()
    count = sum(1 for _ in PokerStarsParser()(text, error_status=False))
    return count, time.perf_counter() - t0


ONE_CORE = {"POLARS_MAX_THREADS": "1", "FLOORMAN_DUCKDB_THREADS": "1"}
_CHILD = (
    "import sys, time, resource; sys.path.insert(0, {root!r}); from warehouse.ingest import ingest_paths\n"
    "c = time.process_time(); s = ingest_paths({paths!r}, {db!r}, progress=False); c = time.process_time() - c\n"
    "print(s.hands, s.seconds, c, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, s.quarantined,"
    " s.unreconciled, s.files)"
)


def run_ours(paths: list[Path], db: Path) -> tuple[int, float, float, int, int, int, int]:
    """One ingest in a fresh one-core process: hands, wall s, CPU s, peak RSS MB, quarantined,
    unreconciled, files."""
    if db.exists():
        db.unlink()
    code = _CHILD.format(root=str(ROOT), paths=[str(p) for p in paths], db=str(db))
    env = {**os.environ, **ONE_CORE}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    hands, wall, cpu, rss, quarantined, unreconciled, files = out.stdout.strip().splitlines()[-1].split()
    return int(hands), float(wall), float(cpu), int(rss), int(quarantined), int(unreconciled), int(files)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=50_000)
    ap.add_argument("--source", type=Path, default=ROOT.parent / "shared" / "data" / "hands")
    ap.add_argument("--pokerkit-hands", type=int, default=3_000, help="pokerkit is slow: time it on a slice")
    ap.add_argument("--repeat", type=int, default=3, help="runs of our end-to-end ingest (best and median)")
    ap.add_argument("--simulated", type=int, default=2_000, help="simulated hands added to the real corpus")
    args = ap.parse_args()
    print("load average (1, 5, 15 min) at start: {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()), flush=True)

    _quiet_pokerkit()
    with contextlib.redirect_stderr(io.StringIO()):  # pokerkit prints a traceback per refused hand
        real = real_stars_hands(args.source) if args.source.exists() else []
        simulated = simulated_stars_hands(args.simulated)
    base = real + simulated
    print(f"corpus: {len(real)} distinct real PokerStars hands and {len(simulated)} simulated ones (all accepted "
          f"by both parsers), repeated with fresh hand numbers to {args.hands:,}")
    hands = renumber(base, args.hands)
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "big.txt"
        big.write_text("\n\n\n".join(hands) + "\n", encoding="utf-8")
        mb = big.stat().st_size / 1e6
        # ours, end to end into DuckDB, one core, several runs (the machine may be shared)
        runs = [run_ours([big], Path(tmp) / "w.duckdb") for _ in range(max(1, args.repeat))]
        n, _, _, rss1, quarantined, unreconciled, _ = runs[0]
        walls = sorted(r[1] for r in runs)
        cpus = sorted(r[2] for r in runs)
        ours = n / walls[0]
        print(f"floorman ingest (parse+reconcile+load), 1 file {mb:.0f} MB, one core, {len(runs)} runs: "
              f"{n:,} hands; best {ours:,.0f} hands/s, median {n / statistics.median(walls):,.0f} hands/s wall; "
              f"{n / cpus[0]:,.0f} hands per CPU-second (best), {n / statistics.median(cpus):,.0f} (median) "
              f"(quarantined {quarantined}, unreconciled {unreconciled})")
        # many small files (as sites write them: one per table session)
        small = Path(tmp) / "small"
        small.mkdir()
        for i in range(0, len(hands), 200):
            (small / f"t{i}.txt").write_text("\n\n\n".join(hands[i:i + 200]) + "\n", encoding="utf-8")
        n2, wall2, cpu2, _, _, _, files2 = run_ours([small], Path(tmp) / "w2.duckdb")
        print(f"floorman ingest, {files2} files of 200 hands, one core: {n2 / wall2:,.0f} hands/s wall, "
              f"{n2 / cpu2:,.0f} hands per CPU-second")
        # parse only (no DuckDB), for the split: the columnar fast path and the exact parser
        stars = get_format("pokerstars")
        assert isinstance(stars, PokerStarsFormat)
        c0 = time.process_time()
        parsed = sum(c.n_hands if isinstance(c, StarsChunk) else 1 for c in stars.iter_chunks(big))
        tp = time.process_time() - c0
        print(f"floorman parse only, columnar fast path: {parsed / tp:,.0f} hands per CPU-second "
              f"(polars threads: {os.environ.get('POLARS_MAX_THREADS', 'default')})")
        k = min(20_000, len(hands))
        part = Path(tmp) / "part.txt"
        part.write_text("\n\n\n".join(hands[:k]) + "\n", encoding="utf-8")
        c0 = time.process_time()
        parsed = sum(1 for _ in stars.parse(part))
        tp = time.process_time() - c0
        print(f"floorman parse only, exact line parser ({k:,} hands): {parsed / tp:,.0f} hands per CPU-second")
        # pokerkit on a slice of the same text
        k = min(args.pokerkit_hands, len(hands))
        count, secs = bench_pokerkit("\n\n\n".join(hands[:k]) + "\n\n\n")
        print(f"pokerkit PokerStarsParser (parse only), {count:,} hands: {count / secs:,.0f} hands/s")
        print(f"ratio floorman end-to-end / pokerkit parse: {ours / (count / secs):,.0f}x")
        # memory: a 4x bigger file must not need 4x the memory (separate processes)
        print(f"memory: 1x file ({mb:.0f} MB, {n:,} hands) peak RSS {rss1} MB")
        f = Path(tmp) / "mem4.txt"
        with f.open("w", encoding="utf-8") as fh:
            for _ in range(4):
                fh.write("\n\n\n".join(hands) + "\n\n\n")
        big.unlink()
        n4, wall4, cpu4, rss4, _, _, _ = run_ours([f], Path(tmp) / "mem4.duckdb")
        print(f"memory: 4x file ({f.stat().st_size / 1e6:.0f} MB, {n4:,} hands) peak RSS {rss4} MB "
              f"({n4 / wall4:,.0f} hands/s wall, {n4 / cpu4:,.0f} per CPU-second)")
    print(f"(peak RSS of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB)")
    print("load average (1, 5, 15 min) at end: {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
