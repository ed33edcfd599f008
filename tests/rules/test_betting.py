"""Betting checks on hand-written hands: every worked example of rules_matrix.md §5.1–5.4, 5.8–5.9.

Amounts and rule ids come from the matrix's own tables (an independent source), under each
rulebook where the books disagree.
"""

from __future__ import annotations

import dataclasses

import pytest

from parsers.model import Hand
from rules.check import check_hand
from rules.profiles import load_profile
from tests.rules.builder import make_hand

CEP, T09, PKR, R003, ONLINE = "CEP-2023", "TDA-2009", "PKR-cash", "R003-cash", "online-standard"
DEEP = 1_000_000


def run(hand, book):
    return check_hand(hand, load_profile(book))


def errors(hc):
    return [(f.rule_id, f.action_seq) for f in hc.findings if f.severity == "error"]


def state(hc, seq):
    return next(s for s in hc.replay.states if s.seq == seq)


# ---- §5.1 minimum raise after a short all-in ---------------------------------------------------
def flop_51(b_allin: int, *tail):
    players = [("A", DEEP), ("B", b_allin), ("C", DEEP), ("D", DEEP)]
    script = [("flop", "A", "bet", 1000), ("flop", "B", "raise", b_allin), *tail]
    return make_hand(players, script)


@pytest.mark.parametrize("book", [CEP, T09, PKR, ONLINE])
def test_51_c_min_raise_is_2400_in_tda_family(book):
    hc = run(flop_51(1400, ("flop", "C", "raise", 2400)), book)
    assert state(hc, 2).min_raise_to == 2400
    assert errors(hc) == []


def test_51_c_raise_to_2000_is_raise_min_with_fifty_pct_reading():
    # §5.1 3a calls it RAISE.MIN; the matrix's finding table (§4) names the case after a short all-in
    # ALLIN.MIN_RAISE_AFTER_SHORT, the rule id issue 13 asks for
    hc = run(flop_51(1400, ("flop", "C", "raise", 2000)), CEP)
    assert errors(hc) == [("ALLIN.MIN_RAISE_AFTER_SHORT", 2)]
    rm = next(f for f in hc.findings if f.rule_id == "ALLIN.MIN_RAISE_AFTER_SHORT")
    assert "2,400" in rm.expected
    fifty = [f for f in hc.findings if f.rule_id == "RAISE.FIFTY_PCT"]
    assert fifty and fifty[0].expected == "raise to exactly 2,400"


def test_51_c_raise_to_1800_reads_as_a_call_under_fifty():
    hc = run(flop_51(1400, ("flop", "C", "raise", 1800)), CEP)
    assert errors(hc) == [("ALLIN.MIN_RAISE_AFTER_SHORT", 2)]
    under = [f for f in hc.findings if f.rule_id == "RAISE.UNDER_FIFTY_IS_CALL"]
    assert under and under[0].expected == "call 1,400, 400 returned"


def test_51_r003_same_reraise_2400_is_review_between_2000_and_2800():
    # B's 1,400 is under 150% of 1,000, so not a raise: «la apuesta previa» is 1,400 (min 2,800, the
    # matrix's (I) reading and the state row) or the 1,000 bet that counted (min 2,000). The book does
    # not say: REVIEW, never ERROR on the inferred reading (issue 13 item 2)
    hc = run(flop_51(1400, ("flop", "C", "raise", 2400)), R003)
    assert state(hc, 2).min_raise_to == 2800
    assert errors(hc) == []
    rv = [f for f in hc.findings if f.severity == "review"]
    assert [(f.rule_id, f.action_seq) for f in rv] == [("ALLIN.MIN_RAISE_AFTER_SHORT", 2)]
    assert "2,800" in rv[0].expected and "2,000" in rv[0].expected and rv[0].house_decision
    assert not [f for f in hc.findings if f.rule_id.startswith("RAISE.FIFTY")]  # R003 has no 50% rule
    # below both readings: ERROR
    assert errors(run(flop_51(1400, ("flop", "C", "raise", 1900)), R003)) == [("ALLIN.MIN_RAISE_AFTER_SHORT", 2)]


@pytest.mark.parametrize(
    "book,rule",
    [
        (CEP, "ALLIN.SHORT_NO_REOPEN"),
        (T09, "ALLIN.SHORT_NO_REOPEN"),
        (PKR, "ALLIN.SHORT_NO_REOPEN"),
        (R003, "ALLIN.RAISE_150PCT"),
    ],
)
def test_51_step4_a_may_not_reraise_after_short_allin(book, rule):
    hc = run(
        flop_51(1400, ("flop", "C", "call", 1400), ("flop", "D", "fold", None), ("flop", "A", "raise", 4000)), book
    )
    assert errors(hc) == [(rule, 4)]
    st = state(hc, 4)
    assert st.to_call == 400 and not st.reopened and st.min_raise_to is None
    assert next(f for f in hc.findings if f.rule_id == rule).expected == "call 400 or fold"


def test_51_step4_prime_full_raise_reopens_a_min_3400():
    hc = run(
        flop_51(1400, ("flop", "C", "raise", 2400), ("flop", "D", "fold", None), ("flop", "A", "raise", 3400)), CEP
    )
    assert errors(hc) == []
    assert state(hc, 4).reopened and state(hc, 4).min_raise_to == 3400


@pytest.mark.parametrize(
    "allin,cep_min,r003_min",
    [(1200, 2200, 2400), (1400, 2400, 2800), (1500, 2500, 3000), (1999, 2999, 3998), (2000, 3000, 4000)],
)
def test_51_table_next_min_raise(allin, cep_min, r003_min):
    for book, want in ((CEP, cep_min), (R003, r003_min)):
        hc = run(flop_51(allin, ("flop", "C", "fold", None)), book)
        assert state(hc, 2).min_raise_to == want, book


def test_51_a_reraise_after_1500_allin_legal_in_r003_illegal_in_cep():
    tail = (("flop", "C", "call", 1500), ("flop", "D", "fold", None), ("flop", "A", "raise", 3000))
    assert errors(run(flop_51(1500, *tail), R003)) == []
    assert errors(run(flop_51(1500, *tail), CEP)) == [("ALLIN.SHORT_NO_REOPEN", 4)]


# ---- §5.2 cumulative short all-ins -------------------------------------------------------------
def hand_52(*tail):
    players = [("A", DEEP), ("B", 125), ("C", DEEP), ("D", 200), ("E", DEEP)]
    script = [
        ("flop", "A", "bet", 100),
        ("flop", "B", "raise", 125),
        ("flop", "C", "call", 125),
        ("flop", "D", "raise", 200),
        ("flop", "E", "call", 200),
        *tail,
    ]
    return make_hand(players, script, sb=50, bb=100)


@pytest.mark.parametrize("book", [CEP, PKR, ONLINE])
def test_52_cumulative_reopens_a_min_300(book):
    hc = run(hand_52(("flop", "A", "raise", 300)), book)
    assert errors(hc) == []
    st = state(hc, 5)
    assert st.reopened and st.min_raise_to == 300 and st.last_full_raise == 100


def test_52_t09_silent_on_cumulative_is_review():
    # art. 31 does not say whether short all-ins add up: the literal reading (state row) closes it, the
    # cumulative one (TDA 2022) reopens it, so the raise is the TD's call, not an ERROR
    hc = run(hand_52(("flop", "A", "raise", 300)), T09)
    assert errors(hc) == [] and not state(hc, 5).reopened
    rv = [(f.rule_id, f.action_seq, f.severity) for f in hc.findings]
    assert rv == [("ALLIN.CUMULATIVE_REOPEN", 5, "review")]


def test_52_c_faces_75_only_and_may_not_raise():
    hc = run(hand_52(("flop", "A", "call", 100), ("flop", "C", "raise", 400)), CEP)
    assert state(hc, 6).to_call == 75 and not state(hc, 6).reopened
    assert errors(hc) == [("ALLIN.SHORT_NO_REOPEN", 6)]


def test_52_r003_d_allin_is_a_raise_min_400():
    hc = run(hand_52(("flop", "A", "raise", 300)), R003)
    assert state(hc, 5).reopened and state(hc, 5).min_raise_to == 400
    # D's counted all-in: «con base en el monto apostado por el jugador que hizo "All-In"» (text decides)
    assert errors(hc) == [("ALLIN.MIN_RAISE_AFTER_SHORT", 5)]


# ---- §5.3 the 50% rule (T1 symptom) ------------------------------------------------------------
def hand_53(b_to: int):
    players = [("SB", DEEP), ("BB", DEEP), ("A", DEEP), ("B", DEEP)]
    script = [
        ("preflop", "SB", "post_sb", 200),
        ("preflop", "BB", "post_bb", 400),
        ("preflop", "A", "raise", 1200),
        ("preflop", "B", "raise", b_to),
    ]
    return make_hand(players, script, sb=200, bb=400)


def test_53_1600_stands_raise_min_fifty_pct():
    hc = run(hand_53(1600), CEP)
    assert errors(hc) == [("RAISE.MIN", 3)]
    assert [f.rule_id for f in hc.findings if f.severity == "info"] == ["RAISE.FIFTY_PCT"]


def test_53_1500_stands_under_fifty_is_call():
    hc = run(hand_53(1500), PKR)
    assert errors(hc) == [("RAISE.MIN", 3)]
    assert [f.rule_id for f in hc.findings if f.severity == "info"] == ["RAISE.UNDER_FIFTY_IS_CALL"]


def test_53_2000_is_legal_except_r003_which_needs_2400():
    assert errors(run(hand_53(2000), CEP)) == []
    assert errors(run(hand_53(2000), R003)) == [("RAISE.MIN", 3)]
    assert errors(run(hand_53(2400), R003)) == []


# ---- §5.4 undercall ----------------------------------------------------------------------------
def seven_handed(*script, **kw):
    players = [(p, DEEP) for p in ("SB", "BB", "UTG", "U1", "MP", "CO", "BTN")]
    return make_hand(
        players, [("preflop", "SB", "post_sb", 600), ("preflop", "BB", "post_bb", 1200), *script], sb=600, bb=1200, **kw
    )


def test_54a_undercall_of_opening_bet_multiway_is_mandatory_full_call():
    hc = run(seven_handed(("preflop", "UTG", "call", 600)), CEP)
    f = next(f for f in hc.findings if f.rule_id == "UNDERCALL.FULL_CALL")
    assert f.severity == "error" and f.allowed_outcomes is None and f.expected == "full call 1,200"


def test_54b_undercall_facing_a_raise_lists_floor_rulings():
    players = [("SB", DEEP), ("BB", DEEP), ("UTG", 45_000), ("U1", DEEP)]
    h = make_hand(
        players,
        [
            ("preflop", "SB", "post_sb", 600),
            ("preflop", "BB", "post_bb", 1200),
            ("preflop", "UTG", "raise", 45_000),
            ("preflop", "U1", "call", 1200),
        ],
        sb=600,
        bb=1200,
    )
    f = next(f for f in run(h, CEP).findings if f.rule_id == "UNDERCALL.FULL_CALL")
    # not the opening bet, not heads-up: CEP leaves it to the TD (a house decision, not an error)
    assert (f.severity, f.house_decision) == ("review", True)
    assert f.allowed_outcomes == "full_call|forfeit_undercall_and_fold"
    assert f.actual == "call 1,200 stood" and "decisión del DT" in f.message


def test_54e_headsup_any_bet_is_mandatory():
    h = make_hand(
        [("A", DEEP), ("B", DEEP)],
        [("turn", "A", "bet", 10_000), ("turn", "B", "raise", 25_000), ("turn", "A", "call", 10_000)],
        sb=600,
        bb=1200,
        button=2,
    )
    f = next(f for f in run(h, CEP).findings if f.rule_id == "UNDERCALL.FULL_CALL")
    assert f.allowed_outcomes is None and f.expected == "full call 15,000"


def test_54_full_call_is_clean_and_t09_always_floor():
    assert errors(run(seven_handed(("preflop", "UTG", "call", 1200)), CEP)) == []
    f = next(
        f
        for f in run(seven_handed(("preflop", "UTG", "call", 600)), T09).findings
        if f.rule_id == "UNDERCALL.FULL_CALL"
    )
    assert f.allowed_outcomes is not None


# ---- §5.8 R003 doubling, 150% all-in (straddle 2,000 over 500/1,000) ---------------------------
def hand_58(mp_stack: int, *script, book_stack: int = DEEP):
    players = [("SB", DEEP), ("BB", DEEP), ("UTG", book_stack), ("U1", DEEP), ("MP", mp_stack), ("BTN", DEEP)]
    base = [
        ("preflop", "SB", "post_sb", 500),
        ("preflop", "BB", "post_bb", 1000),
        ("preflop", "UTG", "post_straddle", 2000),
    ]
    return make_hand(players, [*base, *script], sb=500, bb=1000)


def test_58_reraise_to_6000_illegal_r003_legal_cep():
    s = [("preflop", "U1", "raise", 4000), ("preflop", "MP", "raise", 6000)]
    assert errors(run(hand_58(DEEP, *s), R003)) == [("RAISE.MIN", 4)]
    assert errors(run(hand_58(DEEP, *s), CEP.replace("CEP-2023", PKR))) == []


def test_58_allin_5500_not_a_raise_6000_is():
    s = [
        ("preflop", "U1", "raise", 4000),
        ("preflop", "MP", "raise", 5500),
        ("preflop", "BTN", "fold", None),
        ("preflop", "SB", "fold", None),
        ("preflop", "BB", "fold", None),
        ("preflop", "UTG", "call", 3500),
        ("preflop", "U1", "raise", 12000),
    ]
    hc = run(hand_58(5500, *s), R003)
    assert errors(hc) == [("ALLIN.RAISE_150PCT", 9)]
    assert state(hc, 8).reopened  # the straddler had not acted voluntarily: full options
    s2 = [x if x[2] != "raise" or x[3] != 5500 else ("preflop", "MP", "raise", 6000) for x in s]
    s2[5] = ("preflop", "UTG", "call", 4000)
    hc2 = run(hand_58(6000, *s2), R003)
    assert errors(hc2) == [] and state(hc2, 9).min_raise_to == 12000


# ---- §5.9 R003 «BET MÍNIMO» -------------------------------------------------------------------
def hand_59(*tail):
    return make_hand([("A", 600), ("B", DEEP), ("C", DEEP)], [("flop", "A", "bet", 600), *tail], sb=500, bb=1000)


def test_59_r003_call_is_one_bb():
    hc = run(hand_59(("flop", "B", "call", 1000), ("flop", "C", "call", 1000)), R003)
    assert errors(hc) == [] and state(hc, 1).to_call == 1000 and state(hc, 1).min_raise_to == 2000


def test_59_r003_call_of_allin_amount_is_bet_min_allin_below_bb():
    assert errors(run(hand_59(("flop", "B", "call", 600)), R003)) == [("BET.MIN_ALLIN_BELOW_BB", 1)]


def test_59_cep_call_is_allin_amount_and_1000_is_a_call_under_fifty():
    assert errors(run(hand_59(("flop", "B", "call", 600)), CEP)) == []
    hc = run(hand_59(("flop", "B", "raise", 1000)), CEP)
    assert errors(hc) == [("ALLIN.MIN_RAISE_AFTER_SHORT", 1)]  # A's 600 is a short all-in: min 600 + 1,000
    assert "RAISE.UNDER_FIFTY_IS_CALL" in [f.rule_id for f in hc.findings]


# ---- BET.MIN_BET, POT_LIMIT_MAX, LIMIT cap, ACTION.ORDER ----------------------------------------
def test_min_bet_below_bb_not_allin():
    h = make_hand([("A", DEEP), ("B", DEEP)], [("flop", "A", "bet", 100)], button=2)
    assert errors(run(h, ONLINE)) == [("BET.MIN_BET", 0)]
    assert errors(run(make_hand([("A", 100), ("B", DEEP)], [("flop", "A", "bet", 100)], button=2), ONLINE)) == []
    assert errors(run(make_hand([("A", DEEP), ("B", DEEP)], [("flop", "A", "bet", 200)], button=2), ONLINE)) == []


def test_pot_limit_max_is_b_plus_pot_plus_call():
    # blinds 1/2: UTG pot-raise = 2 + 3 + 2 = 7
    base = [("preflop", "SB", "post_sb", 1), ("preflop", "BB", "post_bb", 2)]
    players = [("SB", 500), ("BB", 500), ("UTG", 500)]
    ok = run(make_hand(players, [*base, ("preflop", "UTG", "raise", 7)], sb=1, bb=2, betting="PL"), ONLINE)
    assert errors(ok) == [] and state(ok, 2).max_raise_to == 7
    bad = run(make_hand(players, [*base, ("preflop", "UTG", "raise", 8)], sb=1, bb=2, betting="PL"), ONLINE)
    assert errors(bad) == [("BET.POT_LIMIT_MAX", 2)]
    # SB re-pots over 7: pot 1+2+7 = 10, call 6 → 7 + 10 + 6 = 23
    rep = run(
        make_hand(
            players, [*base, ("preflop", "UTG", "raise", 7), ("preflop", "SB", "raise", 23)], sb=1, bb=2, betting="PL"
        ),
        ONLINE,
    )
    assert errors(rep) == [] and state(rep, 3).max_raise_to == 23


def test_limit_raise_cap_is_the_house_s():
    """TDA 2009 art. 34 leaves the cap to the house (no number): a fifth bet is REVIEW, never ERROR;
    online the site's software enforces its own cap (Everest and others differ), so it is not checked."""
    players = [("SB", DEEP), ("BB", DEEP), ("UTG", DEEP)]
    base = [("preflop", "SB", "post_sb", 1), ("preflop", "BB", "post_bb", 2)]
    capped = [("preflop", "UTG", "raise", 4), ("preflop", "SB", "raise", 6), ("preflop", "BB", "raise", 8)]
    over = [*capped, ("preflop", "UTG", "raise", 10)]
    for book in (ONLINE, T09):
        assert run(make_hand(players, base + capped, sb=1, bb=2, betting="FL", game_type="tournament"),
                   book).findings == []
    assert run(make_hand(players, base + over, sb=1, bb=2, betting="FL"), ONLINE).findings == []
    hc = run(make_hand(players, base + over, sb=1, bb=2, betting="FL", game_type="tournament"), T09)
    assert [(f.rule_id, f.action_seq, f.severity) for f in hc.findings] == [("BET.LIMIT_RAISE_CAP", 5, "review")]
    heads = [("A", DEEP), ("B", DEEP)]  # A on the button posts the small blind
    hu = [("preflop", "A", "post_sb", 1), ("preflop", "B", "post_bb", 2), ("preflop", "A", "raise", 4),
          ("preflop", "B", "raise", 6), ("preflop", "A", "raise", 8), ("preflop", "B", "raise", 10)]
    hc = run(make_hand(heads, hu, sb=1, bb=2, betting="FL", game_type="tournament", button=1), T09)
    assert [(f.rule_id, f.severity) for f in hc.findings] == [("BET.LIMIT_RAISE_CAP", "review")]
    assert "only two players are left in the tournament" in hc.findings[0].message
    hc = run(make_hand(players, [*base, ("preflop", "UTG", "raise", 5)], sb=1, bb=2, betting="FL"), ONLINE)
    assert errors(hc) == [("BET.LIMIT_SIZE", 2)]


def test_action_order():
    players = [("SB", DEEP), ("BB", DEEP), ("UTG", DEEP), ("BTN", DEEP)]
    base = [("preflop", "SB", "post_sb", 1), ("preflop", "BB", "post_bb", 2)]
    good = [
        *base,
        ("preflop", "UTG", "fold", None),
        ("preflop", "BTN", "call", 2),
        ("preflop", "SB", "call", 1),
        ("preflop", "BB", "check", None),
        ("flop", "SB", "check", None),
        ("flop", "BB", "check", None),
        ("flop", "BTN", "check", None),
    ]
    assert errors(run(make_hand(players, good, sb=1, bb=2), ONLINE)) == []
    bad = [*base, ("preflop", "BTN", "fold", None), ("preflop", "UTG", "fold", None)]
    # live, an out-of-turn action is binding while the action to the player has not changed: the floor
    # rules (binding, maybe a penalty), so a house decision, not an error
    live = run(make_hand(players, bad, sb=1, bb=2), CEP)
    assert not errors(live)
    oot = [f for f in live.findings if f.rule_id == "ACTION.ORDER" and f.action_seq == 2]
    assert [(f.severity, f.house_decision, f.allowed_outcomes) for f in oot] == [
        ("review", True, "action_binding|action_binding_with_penalty")
    ]
    # online the software enforces the order, so a fold out of turn before anyone has decided is the
    # site folding a sitting-out seat at the deal (888 writes it before "Dealing down cards")
    assert errors(run(make_hand(players, bad, sb=1, bb=2), ONLINE)) == []
    late = [*base, ("preflop", "UTG", "call", 2), ("preflop", "SB", "fold", None), ("preflop", "BTN", "fold", None)]
    assert ("ACTION.ORDER", 3) in errors(run(make_hand(players, late, sb=1, bb=2), ONLINE))
    # BB never got the option: the round closed with BB still to act
    skipped = [
        *base,
        ("preflop", "UTG", "call", 2),
        ("preflop", "BTN", "call", 2),
        ("preflop", "SB", "call", 1),
        ("flop", "SB", "check", None),
    ]
    assert ("ACTION.ORDER", 5) in errors(run(make_hand(players, skipped, sb=1, bb=2), ONLINE))


def test_headsup_button_posts_sb_and_acts_first():
    good = make_hand(
        [("BB", DEEP), ("BTN", DEEP)],
        [
            ("preflop", "BTN", "post_sb", 1),
            ("preflop", "BB", "post_bb", 2),
            ("preflop", "BTN", "call", 1),
            ("preflop", "BB", "check", None),
        ],
        sb=1,
        bb=2,
        button=2,
    )
    assert errors(run(good, CEP)) == []
    bad = make_hand(
        [("BB", DEEP), ("BTN", DEEP)],
        [("preflop", "BB", "post_sb", 1), ("preflop", "BTN", "post_bb", 2)],
        sb=1,
        bb=2,
        button=2,
    )
    assert "BLIND.HEADSUP_BUTTON" in [r for r, _ in errors(run(bad, CEP))]


def _button_on(seat: int, max_seats: int | None) -> Hand:
    """BetOnline MTT 900219408 "Seat #2684684 is the button": the button written as no seat of the table.
    Seats 1..4 are BTN, SB, BB, UTG; the hand is checked down in turn."""
    players = [("BTN", DEEP), ("SB", DEEP), ("BB", DEEP), ("UTG", DEEP)]
    script = [("preflop", "SB", "post_sb", 1), ("preflop", "BB", "post_bb", 2), ("preflop", "UTG", "call", 2),
              ("preflop", "BTN", "call", 2), ("preflop", "SB", "call", 1), ("preflop", "BB", "check", None),
              *[("flop", p, "check", None) for p in ("SB", "BB", "UTG", "BTN")]]  # fmt: skip
    hand = make_hand(players, script, sb=1, bb=2, button=1)
    return dataclasses.replace(hand, button_seat=seat, max_seats=max_seats)


def test_a_button_beyond_the_table_is_placed_by_the_blinds() -> None:
    assert errors(run(_button_on(1, 10), ONLINE)) == []
    assert errors(run(_button_on(2684684, 10), ONLINE)) == []  # no such seat: the small blind is first left
    # the written button decides while it can be a seat of the table (no size written: it may be one)
    assert "ACTION.ORDER" in {r for r, _ in errors(run(_button_on(2684684, None), ONLINE))}


def test_online_fold_out_of_turn_takes_nobody_s_turn() -> None:
    """BetOnline 900204952: a leave read as the site's fold where written, out of turn; the due player is
    still asked next, so the in-turn actions after it are no second finding."""
    players = [("SB", DEEP), ("BB", DEEP), ("UTG", DEEP), ("BTN", DEEP)]
    late = [("preflop", "SB", "post_sb", 1), ("preflop", "BB", "post_bb", 2), ("preflop", "UTG", "call", 2),
            ("preflop", "SB", "fold", None), ("preflop", "BTN", "fold", None), ("preflop", "BB", "check", None)]
    hc = run(make_hand(players, late, sb=1, bb=2), ONLINE)
    assert [(f.rule_id, f.action_seq) for f in hc.findings if f.rule_id == "ACTION.ORDER"] == [("ACTION.ORDER", 3)]
