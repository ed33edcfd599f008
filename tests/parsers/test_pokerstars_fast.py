"""Differential tests: the vectorised PokerStars fast path gives exactly the exact parser's rows.

The oracle is the line-by-line parser (``FORMAT.parse``, itself checked against the files' own
totals, fpdb's .hp files and hand arithmetic in test_pokerstars.py) turned into frames by
``hands_to_frames``. The fast path's output (``FORMAT.iter_chunks``: fast frames + the parser's
hands for what it leaves aside) must be the same multiset of rows in every table, on every real
PokerStars file and on a simulated night, with the same quarantine.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import polars as pl
import pytest

from parsers.formats.pokerstars import _START_BYTES, FORMAT, StarsChunk, _hand_starts
from parsers.formats.pokerstars_fast import parse_chunk
from parsers.model import Hand, Quarantined, game_family
from parsers.registry import sniff_format
from simulator.run import Config, simulate
from tests.conftest import real_data
from warehouse.frames import TABLE_SCHEMAS, hands_to_frames
from warehouse.ingest import ingest_paths, iter_input_files


def stars_files(root: Path) -> Iterator[Path]:
    for path in iter_input_files([root]):
        try:
            fmt = sniff_format(path)
        except OSError:
            continue
        if fmt is FORMAT:
            yield path


def oracle(path: Path) -> tuple[dict[str, pl.DataFrame], list[tuple[int, str]]]:
    hands: list[Hand] = []
    bad: list[tuple[int, str]] = []
    for item in FORMAT.parse(path):
        if isinstance(item, Hand):
            hands.append(item)
        else:
            bad.append((item.byte_offset, item.reason))
    return hands_to_frames(hands).tables, sorted(bad)


def fast(path: Path) -> tuple[dict[str, pl.DataFrame], list[tuple[int, str]], int, int]:
    parts: dict[str, list[pl.DataFrame]] = {name: [] for name in TABLE_SCHEMAS}
    bad: list[tuple[int, str]] = []
    n_fast = n_parser = 0
    for item in FORMAT.iter_chunks(path):
        hands: list[Hand] = []
        if isinstance(item, StarsChunk):
            n_fast += item.tables["hands"].height
            for name, frame in item.tables.items():
                parts[name].append(frame.drop("_hx"))
            for _, one in item.items:
                if isinstance(one, Hand):
                    hands.append(one)
                else:
                    bad.append((one.byte_offset, one.reason))
        elif isinstance(item, Hand):
            hands.append(item)
        else:
            assert isinstance(item, Quarantined)
            bad.append((item.byte_offset, item.reason))
        # stud and draw hands are the exact parser's by design (the fast path reads flop games only)
        n_parser += sum(1 for h in hands if game_family(h.variant) == "flop")
        for name, frame in hands_to_frames(hands).tables.items():
            parts[name].append(frame)
    tables = {name: pl.concat(p) if p else pl.DataFrame(schema=TABLE_SCHEMAS[name]) for name, p in parts.items()}
    return tables, sorted(bad), n_fast, n_parser


def differences(path: Path) -> tuple[list[str], int, int]:
    want, want_bad = oracle(path)
    got, got_bad, n_fast, n_parser = fast(path)
    problems = [] if want_bad == got_bad else [f"quarantine differs: {want_bad} vs {got_bad}"]
    for name in TABLE_SCHEMAS:
        a, b = want[name], got[name]
        if a.schema != b.schema:
            problems.append(f"{name}: schema {a.schema} vs {b.schema}")
            continue
        a, b = a.sort(a.columns, nulls_last=True), b.sort(b.columns, nulls_last=True)
        if not a.equals(b):
            only_a = a.join(b, on=a.columns, how="anti", nulls_equal=True)
            only_b = b.join(a, on=a.columns, how="anti", nulls_equal=True)
            problems.append(f"{name}: parser-only rows {only_a.head(3).rows()}, fast-only rows {only_b.head(3).rows()}")
    return problems, n_fast, n_parser


def test_fast_path_equals_parser_on_every_real_pokerstars_file() -> None:
    root = real_data()
    n_files = total_fast = total_parser = 0
    failures: dict[str, list[str]] = {}
    for path in stars_files(root):
        n_files += 1
        problems, n_fast, n_parser = differences(path)
        total_fast += n_fast
        total_parser += n_parser
        if problems:
            failures[str(path.relative_to(root))] = problems
    assert n_files > 150, n_files
    assert failures == {}
    # the fast path must actually carry most real hands (the rest: run it twice, hi/lo
    # descriptions with colons, non-ET-only dates, damaged files, converters' layouts...)
    assert total_fast > 300 and total_fast > 2 * total_parser, (total_fast, total_parser)


def test_fast_path_equals_parser_on_a_simulated_night(tmp_path: Path) -> None:
    out = tmp_path / "hh"
    simulate(Config(hands=1500, seed=5, players=30, tables=3, operator_mode=True, start=datetime(2026, 3, 8, 5, 0)),
             out, tmp_path / "truth.json")  # fmt: skip
    files = sorted(out.glob("*.txt"))
    assert files
    n_fast = 0
    for path in files:
        problems, fast_hands, parser_hands = differences(path)
        assert problems == [], (path.name, problems)
        assert parser_hands == 0, path.name  # simulated hands are plain PokerStars: all fast
        n_fast += fast_hands
    assert n_fast == 1500


def _rows_in_hand_order(frame: pl.DataFrame) -> dict[str, list[tuple[object, ...]]]:
    out: dict[str, list[tuple[object, ...]]] = {}
    for row in frame.iter_rows():
        out.setdefault(str(row[frame.columns.index("hand_id")]), []).append(row)
    return out


#: tables whose rows the warehouse keeps in stored order (rules.store reads them by rowid)
STORED_ORDER = ("hole_cards", "awards")


def test_fast_path_keeps_the_parsers_row_order_within_a_hand(tmp_path: Path) -> None:
    """Hole cards and awards come out in the exact parser's order, and the same on every run (the
    fast path's hole cards once followed a hash group-by's order, which varied from run to run)."""
    out = tmp_path / "hh"
    simulate(Config(hands=600, seed=7, players=24, tables=2, operator_mode=False, start=datetime(2026, 3, 8, 5, 0)),
             out, tmp_path / "truth.json")  # fmt: skip
    paths = [*sorted(out.glob("*.txt")), *list(stars_files(real_data()))[:80]]
    checked = 0
    for path in paths:
        want, _ = oracle(path)
        got, _, _, _ = fast(path)
        again, _, _, _ = fast(path)
        for name in STORED_ORDER:
            assert got[name].equals(again[name]), (path.name, name)
            assert _rows_in_hand_order(got[name]) == _rows_in_hand_order(want[name]), (path.name, name)
            checked += got[name].height
    assert checked > 1000


def test_hand_start_scan_equals_the_multiline_regex() -> None:
    """The fast newline-anchored scan finds exactly the hand starts of ``^...`` (MULTILINE)."""
    samples = [b"", b"PokerStars Hand #1", b"  PokerStars Hand #1\n\tPokerStars Game #2\nx", b"\nPOKERSTARS HAND #3"]
    samples += [p.read_bytes() for p in list(stars_files(real_data()))[:60]]
    for buf in samples:
        assert _hand_starts(buf) == [m.start() for m in _START_BYTES.finditer(buf)]


def test_unreadable_lines_go_to_the_parser_not_guessed() -> None:
    """Hands the strict grammar does not cover come back as fallback indices."""
    base = (
        "PokerStars Hand #1: Hold'em No Limit ($0.01/$0.02 USD) - 2020/01/01 12:00:00 ET\n"
        "Table 'T' 6-max Seat #1 is the button\n"
        "Seat 1: A ($2 in chips)\nSeat 2: B ($2 in chips)\n"
        "A: posts small blind $0.01\nB: posts big blind $0.02\n*** HOLE CARDS ***\n"
        "{line}\n"
        "B collected $0.02 from pot\n*** SUMMARY ***\nTotal pot $0.02 | Rake $0\n"
    )
    ok = base.format(line="A: folds")
    hands = [
        ok,
        base.format(line="A: calls 1,000"),  # thousands separator: to_units' business
        base.format(line="A: wiggles"),  # unknown verb: the parser quarantines it
        base.format(line="A: folds\n\nB: checks"),  # blank line inside the hand
        base.format(line="C: folds"),  # unseated name
        ok.replace("12:00:00 ET", "12:00:00 CET"),  # no ET time
        ok.replace("| Rake $0", "| Rake $0 | Jackpot $0.01"),  # other drops
    ]
    chunk = parse_chunk(hands, list(range(len(hands))), [len(h) for h in hands], "x")
    assert chunk.fallback == [1, 2, 3, 4, 5, 6]
    assert chunk.tables["hands"]["hand_id"].to_list() == ["pokerstars:1"]
    # and the one it read is what the parser reads
    actions = chunk.tables["actions"].select("kind", "amount", "contribution").rows()
    assert actions == [("post_sb", 1, 1), ("post_bb", 2, 2), ("fold", None, 0)]


def test_ingest_stores_the_parsers_rows(tmp_path: Path) -> None:
    """End to end through DuckDB: stored actions equal the oracle's, duplicates stored once."""
    src = real_data("fpdb3_regression", "regression-test-files", "cash", "Stars", "Flop")
    files = [p for p in stars_files(src)][:40]
    folder = tmp_path / "in"
    folder.mkdir()
    for i, p in enumerate(files):
        (folder / f"{i:03d}.txt").write_bytes(p.read_bytes())
    (folder / "dup.txt").write_bytes(files[0].read_bytes() + b"\n\n")  # same hands, new file
    db = tmp_path / "w.duckdb"
    summary = ingest_paths([folder], db, progress=False)
    want = pl.concat([oracle(p)[0]["actions"] for p in files]).unique().sort(pl.all())
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        got = con.execute("SELECT * FROM actions").pl().select(list(TABLE_SCHEMAS["actions"]))
        n_hands = con.execute("SELECT count(*) FROM hands").fetchone()
        per_file = dict(con.execute("SELECT path, hands FROM raw_files").fetchall())
        sources = con.execute(
            "SELECT count(*) FROM hands WHERE source_file NOT IN (SELECT path FROM raw_files)"
        ).fetchone()
    finally:
        con.close()
    assert got.sort(pl.all()).equals(want.cast(got.schema))
    assert n_hands is not None and n_hands[0] == summary.new_hands
    assert summary.duplicate_hands >= 1
    # hands of many small files are read in one fast-path chunk: each still counts for its file
    for i, p in enumerate(files):
        expected = sum(1 for item in FORMAT.parse(p) if isinstance(item, Hand))
        assert per_file[str(folder / f"{i:03d}.txt")] == expected, p.name
    assert sources == (0,)


@pytest.mark.parametrize("name", ["NLHE-6max-EUR-1.00-2.00-201212.RunItTwice.txt"])
def test_run_it_twice_is_left_to_the_parser(name: str) -> None:
    path = real_data("fpdb3_regression", "regression-test-files", "cash", "Stars", "Flop", name)
    _, _, n_fast, n_parser = fast(path)
    assert n_fast == 0 and n_parser >= 1


def test_cap_reached_is_all_in_on_the_fast_path() -> None:
    """The fast path reads capped hands itself (not left to the parser) and flags "and has
    reached the $10 cap" all-in, as the parser does: Villain's raise to the $10 cap (he had $13)
    and Hero's "calls $6.50 and is all-in"."""
    path = real_data("fpdb3_regression", "regression-test-files", "cash", "Stars", "Flop",
                     "NLHE-CAP-9max-USD-0.25-0.50-201011.Capped.preflop.txt")  # fmt: skip
    tables, bad, n_fast, n_parser = fast(path)
    assert (bad, n_fast, n_parser) == ([], 1, 0)
    flagged = tables["actions"].filter(pl.col("all_in")).select("player", "kind", "amount", "contribution").rows()
    assert flagged == [("Villain", "raise", 650, 850), ("Hero", "call", 650, 650)]
