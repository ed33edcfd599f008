"""Pots, odd chips, cards speak, straddles, run it twice, deck and chips: §5.5–5.7, 5.10, 5.11 worked examples."""

from __future__ import annotations

import pytest

from rules.check import check_hand
from rules.profiles import load_profile
from tests.rules.builder import make_hand

ROYAL = "AsKsQsJsTs"


def run(hand, book):
    return check_hand(hand, load_profile(book))


def rules_of(hc, severity=None):
    return [f.rule_id for f in hc.findings if severity is None or f.severity == severity]


# ---- §5.6 odd chip -----------------------------------------------------------------------------
def odd_chip_hand(awards):
    # seats 7 (SB), 8 (BB), 2; button seat 6 is empty. Pot 12,300 in 100 chips, board plays for both.
    # P7's stack of 100,100 shows the 100 chip is in play (the smallest chip is inferred from the amounts)
    h = make_hand(
        [("P7", 100_100), ("P8", 100_000), ("P2", 100_000)],
        [
            ("preflop", "P7", "post_sb", 300),
            ("preflop", "P8", "post_bb", 600),
            ("preflop", "P2", "raise", 6000),
            ("preflop", "P7", "fold", None),
            ("preflop", "P8", "call", 5400),
        ]
        + [(s, p, "check", None) for s in ("flop", "turn", "river") for p in ("P8", "P2")],
        sb=300,
        bb=600,
        hole={"P8": "2c3d", "P2": "4c5d"},
        boards=[ROYAL],
        awards=awards,
        rake=0,
    )
    h.seats = [h.seats[0]._replace(seat_no=7), h.seats[1]._replace(seat_no=8), h.seats[2]._replace(seat_no=2)]
    h.button_seat = 6
    return h


def test_56_odd_chip_first_left_of_button_cep():
    assert rules_of(run(odd_chip_hand([("P8", 6200), ("P2", 6100)]), "CEP-2023"), "error") == []
    hc = run(odd_chip_hand([("P8", 6100), ("P2", 6200)]), "CEP-2023")
    assert rules_of(hc, "error") == ["POT.ODD_CHIP", "POT.ODD_CHIP"]


def test_56_online_splits_in_cents_and_only_warns():
    hc = run(odd_chip_hand([("P8", 6150), ("P2", 6150)]), "online-standard")
    assert rules_of(hc) == []
    # online the smallest unit is 1, so 6,200/6,100 is a 50-unit misallocation, not an odd chip
    assert set(rules_of(run(odd_chip_hand([("P8", 6200), ("P2", 6100)]), "online-standard"))) == {"POT.SIDE_POTS"}
    hc = run(odd_chip_hand([("P8", 6151), ("P2", 6149)]), "online-standard")
    assert set(rules_of(hc)) == {"POT.ODD_CHIP"} and rules_of(hc, "error") == []


def test_56_button_among_winners_gets_odd_chip_last():
    # seats 9 (SB), 1 (BB), 2, 4 (button): pot 10,000 split three ways → seat 9 gets 3,400
    h = make_hand(
        [("S9", 50_000), ("S1", 50_000), ("S2", 50_100), ("S4", 50_000)],
        [
            ("preflop", "S9", "post_sb", 500),
            ("preflop", "S1", "post_bb", 1000),
            ("preflop", "S2", "call", 1000),
            ("preflop", "S4", "raise", 3000),
            ("preflop", "S9", "call", 2500),
            ("preflop", "S1", "call", 2000),
            ("preflop", "S2", "fold", None),
        ]
        + [(s, p, "check", None) for s in ("flop", "turn", "river") for p in ("S9", "S1", "S4")],
        sb=500,
        bb=1000,
        hole={"S9": "2c3d", "S1": "4c5d", "S4": "6c7d"},
        boards=[ROYAL],
        awards=[("S9", 3400), ("S1", 3300), ("S4", 3300)],
        rake=0,
    )
    h.seats = [
        h.seats[0]._replace(seat_no=9),
        h.seats[1]._replace(seat_no=1),
        h.seats[2]._replace(seat_no=2),
        h.seats[3]._replace(seat_no=4),
    ]
    h.button_seat = 4
    assert rules_of(run(h, "CEP-2023"), "error") == []
    h.awards = [h.awards[0]._replace(amount=3300), h.awards[1], h.awards[2]._replace(amount=3400)]
    assert set(rules_of(run(h, "CEP-2023"), "error")) == {"POT.ODD_CHIP"}


# ---- §5.7 side pots with three all-ins ---------------------------------------------------------
def side_pot_hand(awards, rake=0):
    return make_hand(
        [("A", 6000), ("B", 13000), ("C", 20500), ("D", 50000)],
        [
            ("preflop", "A", "post_sb", 500),
            ("preflop", "B", "post_bb", 1000),
            ("preflop", "C", "raise", 20500),
            ("preflop", "D", "call", 20500),
            ("preflop", "A", "call", 5500),
            ("preflop", "B", "call", 12000),
        ],
        sb=500,
        bb=1000,
        hole={"A": "AsAh", "B": "KsKh", "C": "QsQh", "D": "JsJh"},
        boards=["2c7d9h4s3d"],
        awards=awards,
        rake=rake,
    )


@pytest.mark.parametrize("book", ["R003-cash", "online-standard", "PKR-cash"])
def test_57_side_pots_24000_21000_15000(book):
    hc = run(side_pot_hand([("A", 24000), ("B", 21000), ("C", 15000)]), book)
    assert rules_of(hc, "error") == []


def test_57_main_pot_to_wrong_player_is_cards_speak():
    hc = run(side_pot_hand([("B", 45000), ("C", 15000)]), "R003-cash")
    assert "SHOWDOWN.CARDS_SPEAK" in rules_of(hc, "error")


def test_57_side_pot_sizes_wrong_is_side_pots():
    hc = run(side_pot_hand([("A", 30000), ("B", 15000), ("C", 15000)]), "R003-cash")
    assert set(rules_of(hc, "error")) == {"POT.SIDE_POTS"}


def test_57_with_capped_rake_3000_net_awards_are_clean():
    hc = run(side_pot_hand([("A", 22800), ("B", 19950), ("C", 14250)], rake=3000), "R003-cash")
    assert rules_of(hc, "error") == []


def test_chip_conservation_awards_must_equal_contributions():
    # live the dealer paid: chips missing from the awards are an error
    hc = run(side_pot_hand([("A", 24000), ("B", 21000), ("C", 14000)]), "R003-cash")
    assert "POT.CHIP_CONSERVATION" in rules_of(hc, "error")
    # online the software paid: the same gap is the export's inconsistency (DATA), and so are the
    # award findings that follow from it
    hc = run(side_pot_hand([("A", 24000), ("B", 21000), ("C", 14000)]), "online-standard")
    assert rules_of(hc, "error") == [] and "POT.CHIP_CONSERVATION" in rules_of(hc, "data")
    assert all("Export inconsistency" in f.message for f in hc.findings if f.severity == "data")


def test_uncalled_return_must_be_the_unmatched_part():
    players = [("A", 10_000), ("B", 10_000)]
    base = [("flop", "A", "bet", 1000), ("flop", "B", "fold", None)]
    assert (
        rules_of(run(make_hand(players, [*base, ("flop", "A", "uncalled_return", 1000)], button=2), "online-standard"))
        == []
    )
    bad = run(make_hand(players, [*base, ("flop", "A", "uncalled_return", 600)], button=2), "online-standard")
    assert rules_of(bad) == ["POT.UNCALLED_RETURN"]


# ---- hi-lo, Omaha two-card rule ------------------------------------------------------------------
def omaha_hand(variant, hole, board, awards):
    return make_hand(
        [("A", 1000), ("B", 1000)],
        [("flop", "A", "bet", 200), ("flop", "B", "call", 200)]
        + [(s, p, "check", None) for s in ("turn", "river") for p in ("A", "B")],
        variant=variant,
        hole=hole,
        boards=[board],
        awards=awards,
        rake=0,
        button=2,
    )


def test_omaha_must_use_exactly_two_hole_cards():
    # board has four spades; A holds one spade only (no flush in Omaha), B has a pair of kings
    hole = {"A": "As2c3d4h", "B": "KcKd7h8h"}
    board = "Ks9s5s2sQd"
    assert rules_of(run(omaha_hand("omaha", hole, board, [("B", 400)]), "R003-cash"), "error") == []
    assert "SHOWDOWN.CARDS_SPEAK" in rules_of(run(omaha_hand("omaha", hole, board, [("A", 400)]), "R003-cash"))
    # in hold'em terms A would have the flush: the Omaha rule is what makes B the winner
    assert rules_of(run(omaha_hand("holdem", {"A": "As2c", "B": "KcKd"}, board, [("A", 400)]), "online-standard")) == []


def test_omaha_hilo_splits_high_and_low():
    hole = {"A": "Ac2d9s9h", "B": "KcKdQhQs"}  # A: low A-2-3-4-6... B: set of kings high
    board = "3h4c6dKs8c"
    assert rules_of(run(omaha_hand("omaha_hilo", hole, board, [("A", 200), ("B", 200)]), "online-standard")) == []
    # the low half went to the high hand: the best low was not paid
    assert "SHOWDOWN.CARDS_SPEAK" in rules_of(
        run(omaha_hand("omaha_hilo", hole, board, [("B", 400)]), "online-standard")
    )


# ---- deck ------------------------------------------------------------------------------------------
def test_duplicate_card_is_flagged_and_rit_boards_may_share_the_flop():
    h = side_pot_hand([("A", 24000), ("B", 21000), ("C", 15000)])
    h.boards = [h.boards[0]._replace(cards="As7d9h4s3d")]
    assert rules_of(run(h, "PKR-cash"), "error") == ["DECK.DUPLICATE_CARD"]
    clean = side_pot_hand([("A", 24000), ("B", 21000), ("C", 15000)])
    assert "DECK.DUPLICATE_CARD" not in rules_of(run(clean, "PKR-cash"))


# ---- §5.10 straddles (blinds 1,000/2,000) ----------------------------------------------------------
def straddle_hand(posts, stacks=None):
    names = ["SB", "BB", "UTG", "U1", "U2", "BTN"]
    st = stacks or {}
    players = [(p, st.get(p, 1_000_000)) for p in names]
    base = [("preflop", "SB", "post_sb", 1000), ("preflop", "BB", "post_bb", 2000)]
    # the folds in turn, from the seat that opens (left of the last straddle; the small blind after a
    # button straddle), so only the posts are under test (an out-of-turn opener is STRADDLE.ACTION_ORDER)
    last = names.index(posts[-1][0])
    start = 0 if posts[-1][0] == "BTN" else last + 1
    order = names[start:] + names[:start]
    return make_hand(
        players,
        base + [("preflop", p, "post_straddle", a) for p, a in posts] + [("preflop", p, "fold", None) for p in order],
        sb=1000,
        bb=2000,
    )


@pytest.mark.parametrize(
    "posts,stacks,pkr,r003",
    [
        ([("UTG", 3000)], None, ["STRADDLE.SIZE"], ["STRADDLE.SIZE"]),
        ([("UTG", 4000)], {"UTG": 19000}, [], ["STRADDLE.STACK_BEHIND"]),
        ([("UTG", 12000)], None, [], ["STRADDLE.SIZE"]),
        ([("UTG", 4000), ("U1", 8000)], None, [], []),
        ([("UTG", 4000), ("U1", 6000)], None, ["STRADDLE.DOUBLE"], []),
        ([("UTG", 4000), ("U1", 8000), ("U2", 16000)], None, ["STRADDLE.NO_TRIPLE"], []),
        ([("U1", 4000)], None, ["STRADDLE.POSITION"], ["STRADDLE.POSITION"]),
        ([("BTN", 6000)], None, [], []),
        ([("UTG", 4000), ("BTN", 6000)], None, [], ["STRADDLE.MISSISSIPPI"]),
    ],
)
def test_510_straddle_table(posts, stacks, pkr, r003):
    h = straddle_hand(posts, stacks)
    for book, want in (("PKR-cash", pkr), ("R003-cash", r003)):
        got = [r for r in rules_of(run(h, book), "error") if r.startswith("STRADDLE")]
        assert got == want, book


def test_510_warnings_where_a_book_does_not_provide():
    assert "STRADDLE.MISSISSIPPI" in rules_of(run(straddle_hand([("BTN", 6000)]), "PKR-cash"), "warning")
    assert "STRADDLE.DOUBLE" in rules_of(run(straddle_hand([("UTG", 4000), ("U1", 8000)]), "R003-cash"), "warning")
    t = straddle_hand([("UTG", 4000)])
    t.game_type = "tournament"
    assert rules_of(run(t, "CEP-2023"), "warning") == ["STRADDLE.IN_TOURNAMENT"]


# ---- §5.11 run it twice (PKR) ------------------------------------------------------------------
def rit_hand(pot_each, runs, game_type="cash"):
    boards = ["2c7d9h4s3d", "2c7d9hTsJd", "2c7d9hQc5h", "2c7d9h8c6h"][:runs]
    return make_hand(
        [("A", pot_each), ("B", pot_each)],
        [("flop", "A", "bet", pot_each), ("flop", "B", "call", pot_each)],
        boards=boards,
        game_type=game_type,
        button=2,
    )


@pytest.mark.parametrize(
    "pot,runs,bad",
    [(150_000, 2, True), (180_000, 2, False), (180_000, 3, True), (250_000, 3, False), (250_000, 4, True)],
)
def test_511_pkr_thresholds(pot, runs, bad):
    hc = run(rit_hand(pot // 2, runs), "PKR-cash")
    assert ("RUN_TWICE.POT_THRESHOLD" in rules_of(hc, "error")) is bad


def test_511_tournament_rit_and_timing():
    assert "RUN_TWICE.GAME_TYPE" in rules_of(run(rit_hand(100_000, 2, "tournament"), "PKR-cash"), "error")
    h = rit_hand(100_000, 2)
    h.boards = [h.boards[0], h.boards[0]._replace(board_no=2)]
    assert "RUN_TWICE.TIMING" in rules_of(run(h, "PKR-cash"), "error")


# ---- §5.5 BB ante ----------------------------------------------------------------------------------
def bb_ante_hand(ante_by="BB", ante=2000):
    players = [(p, 100_000) for p in ("SB", "BB", "UTG", "BTN")]
    return make_hand(
        players,
        [
            ("preflop", "SB", "post_sb", 1000),
            ("preflop", "BB", "post_bb", 2000),
            ("preflop", ante_by, "post_bb_ante", ante),
            ("preflop", "UTG", "raise", 6000),
            ("preflop", "BTN", "fold", None),
            ("preflop", "SB", "fold", None),
            ("preflop", "BB", "call", 4000),
        ],
        sb=1000,
        bb=2000,
        bb_ante=2000,
        game_type="tournament",
    )


def test_55_bb_ante_is_dead_and_bb_adds_4000():
    hc = run(bb_ante_hand(), "CEP-2023")
    assert rules_of(hc, "error") == []
    assert hc.replay.states[0].pot_before == 5000 and hc.replay.states[0].min_raise_to == 4000
    assert hc.replay.states[-1].to_call == 4000


def test_55_ante_by_wrong_seat_or_short():
    assert "ANTE.BB_ANTE" in rules_of(run(bb_ante_hand(ante_by="UTG"), "CEP-2023"), "error")
    assert "ANTE.BB_ANTE" in rules_of(run(bb_ante_hand(ante=1000), "CEP-2023"), "error")


def test_blind_posting_amounts():
    h = make_hand(
        [("SB", 10_000), ("BB", 10_000), ("UTG", 10_000)],
        [
            ("preflop", "SB", "post_sb", 50),
            ("preflop", "BB", "post_bb", 200),
            ("preflop", "UTG", "fold", None),
            ("preflop", "SB", "fold", None),
        ],
        sb=100,
        bb=200,
    )
    assert rules_of(run(h, "online-standard"), "error") == ["BLIND.POSTING"]
    short = make_hand(
        [("SB", 50), ("BB", 10_000), ("UTG", 10_000)],
        [("preflop", "SB", "post_sb", 50), ("preflop", "BB", "post_bb", 200), ("preflop", "UTG", "fold", None)],
        sb=100,
        bb=200,
    )
    assert "BLIND.POSTING" not in rules_of(run(short, "online-standard"))
