"""Stud, razz, draw and badugi hands get the money checks only (issue 12, build item 2).

The flop games' betting replay (who acts next, minimum raises, fixed bet sizes from the blinds) does
not model stud (acted by the boards showing) or draw rounds, so ``rules.check.check_hand`` routes
these hands to ``rules.money``: chip conservation, the site's totals and final stacks, uncalled
returns, written pots and rake. Real files from ../shared/data (skipped when absent).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import duckdb

from parsers.formats import merge, pokerstars
from parsers.model import NON_FLOP_VARIANTS, Award, Hand, Kind, Seat
from rules.check import check_hand
from rules.findings import ERROR
from rules.profiles import load_profile
from rules.runner import check_warehouse
from tests.conftest import real_data
from warehouse.ingest import ingest_paths

STARS = ("fpdb3_regression", "regression-test-files", "cash", "Stars")
MERGE = ("fpdb3_regression", "regression-test-files", "cash", "Merge")
MONEY_RULES = {"POT.CHIP_CONSERVATION", "POT.UNCALLED_RETURN", "POT.SIDE_POTS", "RAKE.NONE_IN_TOURNAMENT"}


def _files() -> list[Path]:
    return [*sorted(real_data(*STARS, "Stud").glob("*.txt")), *sorted(real_data(*STARS, "Draw").glob("*.txt")),
            *sorted(real_data(*MERGE, "Stud").iterdir()), *sorted(real_data(*MERGE, "Draw").glob("*.txt"))]


def _hands() -> list[Hand]:
    out: dict[str, Hand] = {}
    for path in _files():
        if path.suffix in (".hp", ".hands", ".gt"):
            continue
        fmt = pokerstars.FORMAT if "Stars" in path.parts else merge.FORMAT
        for h in fmt.parse(path):
            if isinstance(h, Hand) and h.variant in NON_FLOP_VARIANTS:
                out.setdefault(h.hand_id, h)
    return list(out.values())


def test_real_stud_and_draw_hands_get_no_betting_rule_and_no_error() -> None:
    hands = _hands()
    assert Counter(h.variant for h in hands) == {
        "badugi": 5, "draw5": 38, "draw27_triple": 38, "draw27_single": 3, "drawa5_triple": 1,
        "stud": 14, "stud_hilo": 11, "razz": 10,  # 11: Merge's no-limit stud hi/lo hand is read (cb5b7c2)
    }
    for book in ("online-standard", "CEP-2023", "TDA-2009"):
        prof = load_profile(book)
        found = [f for h in hands for f in check_hand(h, prof).findings]
        assert {f.rule_id for f in found} <= MONEY_RULES, {f.rule_id for f in found}
        assert [f for f in found if f.severity == ERROR] == [], book
        # and the ledger is the hand's own: no action states from the flop-game replay
        assert all(check_hand(h, prof).replay.states == [] for h in hands[:20])


def _stud() -> Hand:
    path = real_data(*STARS, "Stud", "7-StudHL-USD-0.04-0.08-200911.txt")
    return next(h for h in pokerstars.FORMAT.parse(path) if isinstance(h, Hand) and h.site_hand_no == "35874487284")


def test_a_wrong_uncalled_return_in_stud_is_an_error() -> None:
    hand = _stud()
    prof = load_profile("CEP-2023")
    assert check_hand(hand, prof).findings == []
    # "Uncalled bet ($0.08) returned to rdiezchang": make it 0.06 (and the pot 0.02 bigger)
    k = next(i for i, a in enumerate(hand.actions) if a.kind is Kind.UNCALLED_RETURN)
    hand.actions[k] = hand.actions[k]._replace(amount=6, contribution=-6)
    found = check_hand(hand, prof).findings
    assert [(f.rule_id, f.severity, f.expected, f.actual) for f in found if f.rule_id == "POT.UNCALLED_RETURN"] == [
        ("POT.UNCALLED_RETURN", ERROR, "return 8", "returned 6")]


def test_chips_not_conserved_in_stud_are_found() -> None:
    prof = load_profile("CEP-2023")  # a live book: the dealer paid, so an ERROR
    hand = _stud()
    hand.awards = [Award("rdiezchang", 14)]  # 0.12 collected of 0.12 put in: pay 0.14
    assert [(f.rule_id, f.severity) for f in check_hand(hand, prof).findings] == [("POT.CHIP_CONSERVATION", ERROR)]
    hand = _stud()
    hand.seats = [s._replace(stack=2) if s.player == "Hero" else s for s in hand.seats]  # Hero put in 3
    assert ("POT.CHIP_CONSERVATION", "at most 2 (starting stack)") in {
        (f.rule_id, f.expected) for f in check_hand(hand, prof).findings}
    # online the software cannot overdraw a player: the export's stack is stale (DATA, not ERROR)
    online = check_hand(hand, load_profile("online-standard")).findings
    assert [f.severity for f in online if f.expected == "at most 2 (starting stack)"] == ["data"]


def test_check_warehouse_runs_stud_and_draw_hands_through_the_money_checks(tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    files = [real_data(*STARS, "Stud", "Razz-USD-0.04-0.08-200911.txt"),
             real_data(*STARS, "Draw", "Badugi-USD-0.25-0.50-201009.txt"),
             real_data(*MERGE, "Stud", "7-Stud-USD-0.50-1.00-201102.Sample.txt")]
    ingest_paths(files, db)
    summary = check_warehouse(db, "CEP-2023", engine="kernel")
    assert summary["hands"] == 9 + 4 + 1 and summary["errors"] == 0
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM action_states").fetchone() == (0,)
        rows = con.execute("SELECT DISTINCT rule_id FROM violations").fetchall()
        stored = con.execute("SELECT count(*), count(DISTINCT street) FROM street_cards").fetchone()
    # beside the money rules, only the record pass's showdown rules (rules.handrecord, any game): an
    # all-in badugi hand mucked. The show order ranks stud and draw rounds as their own (rules/turns.py),
    # so a razz hand's last betting round is seventh street, not a hold'em street it never had: no
    # SHOWDOWN.ORDER warning where the last aggressor of that round did show first
    assert {r[0] for r in rows} <= MONEY_RULES | {"SHOWDOWN.ALLIN_TABLED"}
    assert stored is not None and stored[0] > 0 and stored[1] >= 5  # third..seventh, predraw, draws


def test_seat_order_ledger_counts_every_seat() -> None:
    hand = _stud()
    hand.seats.append(Seat(9, "latecomer", 100, True))  # sitting out: no action, nothing put in
    assert check_hand(hand, load_profile("online-standard")).replay.contributed[-1] == 0
