"""One meaning per severity (issue 13): ERROR where the book's text decides, REVIEW (house decision)
where it leaves the call to the floor, DATA where the export contradicts itself.

Hand-written cases per rulebook where the books differ (a violating hand and a boundary-legal one),
asserting severity, house_decision and allowed_outcomes; the invariant ``house_decision == (severity ==
review)`` over every finding of this corpus and of the real hands; ``floorman check`` counting REVIEW and
DATA apart from the violations. Nothing is mocked: the engine, the warehouse and the CLI run for real.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import duckdb
import pytest

from parsers.model import Hand
from parsers.registry import sniff_format
from rules.check import check_hand
from rules.findings import DATA, ERROR, REVIEW, SEVERITIES, Finding
from rules.profiles import PROFILE_NAMES, load_profile
from tests.conftest import SHARED
from tests.rules.builder import load_hands, make_hand

CEP, T09, PKR, R003, ONLINE = "CEP-2023", "TDA-2009", "PKR-cash", "R003-cash", "online-standard"
DEEP = 1_000_000
FOUR = [("SB", DEEP), ("BB", DEEP), ("UTG", DEEP), ("BTN", DEEP)]
BLINDS = [("preflop", "SB", "post_sb", 600), ("preflop", "BB", "post_bb", 1200)]
CORPUS: list[Hand] = []  # every hand built below, for the invariant test


def hand(players: list[tuple[str, int]], script: list[tuple[str, str, str, int | None]], **kw: object) -> Hand:
    h = make_hand(players, script, sb=600, bb=1200, **kw)  # type: ignore[arg-type]
    CORPUS.append(h)
    return h


def found(h: Hand, book: str, rule: str) -> list[tuple[int | None, str, bool, str | None]]:
    """(action, severity, house_decision, allowed_outcomes) of the hand's ``rule`` findings."""
    return [(f.action_seq, f.severity, f.house_decision, f.allowed_outcomes)
            for f in check_hand(h, load_profile(book)).findings if f.rule_id == rule]


# ---- UNDERCALL.FULL_CALL ----------------------------------------------------------------------------
UNDER = ("full_call|forfeit_undercall_and_fold",)


def _undercall_opening_bet() -> Hand:
    # preflop, four players: UTG puts 600 facing the big blind (the opening bet), stays in
    return hand(FOUR, [*BLINDS, ("preflop", "UTG", "call", 600), ("preflop", "BTN", "fold", None),
                       ("preflop", "SB", "fold", None), ("preflop", "BB", "check", None)])


def _undercall_facing_raise(put_in: int, utg_stack: int = DEEP) -> Hand:
    # BTN raises to 3,600, BB calls; UTG (1,200 in) puts ``put_in`` facing 2,400 more, three players in:
    # not the opening bet and not heads-up
    players = [("SB", DEEP), ("BB", DEEP), ("UTG", utg_stack), ("BTN", DEEP)]
    return hand(players, [*BLINDS, ("preflop", "UTG", "call", 1200), ("preflop", "BTN", "raise", 3600),
                          ("preflop", "SB", "fold", None), ("preflop", "BB", "call", 2400),
                          ("preflop", "UTG", "call", put_in)])


@pytest.mark.parametrize(
    ("book", "want"),
    [
        (CEP, (ERROR, False, None)),  # CEP: the opening bet multiway is a mandatory full call
        (PKR, (ERROR, False, None)),  # PKR: a lower-value chip is a call, the full call is owed
        (ONLINE, (ERROR, False, None)),  # the software allows no undercall
        (T09, (REVIEW, True, UNDER[0])),  # no undercall rule: the floor's
        (R003, (REVIEW, True, UNDER[0])),
    ],
)
def test_undercall_of_the_opening_bet(book: str, want: tuple[str, bool, str | None]) -> None:
    assert found(_undercall_opening_bet(), book, "UNDERCALL.FULL_CALL") == [(2, *want)]


@pytest.mark.parametrize(
    ("book", "want"),
    [
        (CEP, (REVIEW, True, UNDER[0])),  # not the opening bet, not heads-up: «se somete a la decisión del DT»
        (T09, (REVIEW, True, UNDER[0])),
        (R003, (REVIEW, True, UNDER[0])),
        (PKR, (ERROR, False, None)),
        (ONLINE, (ERROR, False, None)),
    ],
)
def test_undercall_facing_a_raise(book: str, want: tuple[str, bool, str | None]) -> None:
    assert found(_undercall_facing_raise(1000), book, "UNDERCALL.FULL_CALL") == [(6, *want)]


def test_undercall_review_says_what_the_record_shows_and_quotes_the_book() -> None:
    (cep,) = [f for f in check_hand(_undercall_facing_raise(1000), load_profile(CEP)).findings
              if f.rule_id == "UNDERCALL.FULL_CALL"]
    assert cep.actual == "call 1,000 stood" and "partial call standing" in cep.message
    assert "«En cualquier otra situación se somete a la decisión del DT»" in cep.message
    (t09,) = [f for f in check_hand(_undercall_facing_raise(1000), load_profile(T09)).findings
              if f.rule_id == "UNDERCALL.FULL_CALL"]
    assert "TDA-2009 has no undercall rule" in t09.message and "[001_" in t09.message


@pytest.mark.parametrize("book", PROFILE_NAMES)
def test_full_call_and_short_allin_call_are_no_undercall(book: str) -> None:
    assert found(_undercall_facing_raise(2400), book, "UNDERCALL.FULL_CALL") == []  # the full call
    # UTG has 2,000 in all: 1,200 in, 800 more all-in facing 2,400 is a short all-in call, not an undercall
    assert found(_undercall_facing_raise(800, utg_stack=2000), book, "UNDERCALL.FULL_CALL") == []


# ---- ACTION.ORDER: out of turn -------------------------------------------------------------------
def _oot_call() -> Hand:
    # UTG is due, BTN calls out of turn; UTG then calls (the action to BTN did not change)
    return hand(FOUR, [*BLINDS, ("preflop", "BTN", "call", 1200), ("preflop", "UTG", "call", 1200),
                       ("preflop", "SB", "call", 1200), ("preflop", "BB", "check", None)])


def _oot_bet_then_raise() -> Hand:
    # flop: SB is due, BB bets out of turn; SB raises (the action to BB changed), the others call
    pre = [*BLINDS, ("preflop", "UTG", "call", 1200), ("preflop", "BTN", "call", 1200),
           ("preflop", "SB", "call", 1200), ("preflop", "BB", "check", None)]
    return hand(FOUR, [*pre, ("flop", "BB", "bet", 2400), ("flop", "SB", "raise", 7200),
                       ("flop", "BB", "call", 7200), ("flop", "UTG", "fold", None), ("flop", "BTN", "fold", None)])


def _oot_bet_unchanged() -> Hand:
    # flop: SB is due, BB bets out of turn; SB calls (no later raise), the others fold
    pre = [*BLINDS, ("preflop", "UTG", "call", 1200), ("preflop", "BTN", "call", 1200),
           ("preflop", "SB", "call", 1200), ("preflop", "BB", "check", None)]
    return hand(FOUR, [*pre, ("flop", "BB", "bet", 2400), ("flop", "SB", "call", 2400),
                       ("flop", "UTG", "fold", None), ("flop", "BTN", "fold", None)])


def _oot_fold() -> Hand:
    return hand(FOUR, [*BLINDS, ("preflop", "UTG", "call", 1200), ("preflop", "SB", "fold", None),
                       ("preflop", "BTN", "call", 1200), ("preflop", "BB", "check", None)])


BINDING = "action_binding|action_binding_with_penalty"


@pytest.mark.parametrize(
    ("book", "outcomes"),
    [(CEP, BINDING), (T09, BINDING), (PKR, BINDING), (R003, "action_binding|action_returned_all_options")],
)
def test_out_of_turn_call_with_the_action_unchanged_is_binding_for_the_floor(book: str, outcomes: str) -> None:
    # R003 rules only an out-of-turn *bet*; on a call it is silent, so the floor chooses
    assert found(_oot_call(), book, "ACTION.ORDER") == [(2, REVIEW, True, outcomes)]


@pytest.mark.parametrize(
    ("book", "outcomes"),
    [
        (CEP, "not_binding_all_options|not_binding_all_options_with_penalty"),  # «será devuelta»
        (T09, "action_binding|action_returned_all_options"),  # art. 29 says nothing when it changed
        (PKR, "may_change_action_chips_stay|action_binding"),  # «estas fichas harán parte del pozo»
        (R003, "any_action"),  # a later raise frees the out-of-turn bettor
    ],
)
def test_out_of_turn_bet_when_the_action_changed(book: str, outcomes: str) -> None:
    assert found(_oot_bet_then_raise(), book, "ACTION.ORDER") == [(6, REVIEW, True, outcomes)]


def test_r003_out_of_turn_bet_locks_the_bettor_to_call_or_fold() -> None:
    (f,) = [f for f in check_hand(_oot_bet_unchanged(), load_profile(R003)).findings if f.rule_id == "ACTION.ORDER"]
    assert (f.severity, f.allowed_outcomes) == (REVIEW, "call_prior_bet|fold_forfeiting_bet")
    assert "«a igualar la apuesta previa a su turno o a foldear (perdiendo lo apostado)»" in f.message
    assert f.actual == "BB bet out of turn, stood"


def test_cep_out_of_turn_fold_is_binding() -> None:
    assert found(_oot_fold(), CEP, "ACTION.ORDER") == [(3, REVIEW, True, BINDING)]


@pytest.mark.parametrize(
    ("book", "outcomes", "passage"),
    [
        (CEP, BINDING, "«Actuar fuera de turno puede ser penalizado y será vinculante"),
        (T09, BINDING, "«Una acción fuera de turno será vinculante si la acción hacia ese jugador no ha cambiado»"),
        # «Si un jugador hace FOLD fuera de posición, será objeto de penalización»: no ruling without the penalty
        (PKR, "action_binding_with_penalty", "«Si un jugador hace FOLD fuera de posición, será objeto de"),
        # «no deben ... botar sus cartas fuera de su turno ... Acciones de este tipo acarrearan sanciones verbales»
        (R003, "action_binding_with_verbal_sanction", "Acciones de este tipo acarrearan sanciones verbales»"),
    ],
)
def test_out_of_turn_fold_rulings_per_book(book: str, outcomes: str, passage: str) -> None:
    assert found(_oot_fold(), book, "ACTION.ORDER") == [(3, REVIEW, True, outcomes)]
    (f,) = [f for f in check_hand(_oot_fold(), load_profile(book)).findings if f.rule_id == "ACTION.ORDER"]
    assert passage in f.message and f.actual == "SB fold out of turn, stood"


def _undercall_heads_up() -> Hand:
    # rules_matrix §5.4 case e: heads-up, A bets 10,000 on the flop, B raises to 25,000, A puts in 10,000
    hu = [("SB", DEEP), ("BB", DEEP)]
    return hand(hu, [("preflop", "BB", "post_sb", 600), ("preflop", "SB", "post_bb", 1200),
                     ("preflop", "BB", "call", 600), ("preflop", "SB", "check", None), ("flop", "SB", "bet", 10000),
                     ("flop", "BB", "raise", 25000), ("flop", "SB", "call", 10000)])


@pytest.mark.parametrize(
    ("book", "want"),
    [
        (CEP, (ERROR, False, None)),  # «contra cualquier apuesta en cara a cara»: a mandatory full call
        (PKR, (ERROR, False, None)),
        (ONLINE, (ERROR, False, None)),
        (T09, (REVIEW, True, UNDER[0])),
        (R003, (REVIEW, True, UNDER[0])),
    ],
)
def test_undercall_heads_up_facing_any_bet(book: str, want: tuple[str, bool, str | None]) -> None:
    assert found(_undercall_heads_up(), book, "UNDERCALL.FULL_CALL") == [(6, *want)]


@pytest.mark.parametrize("book", PROFILE_NAMES)
def test_in_turn_play_has_no_order_finding(book: str) -> None:
    legal = hand(FOUR, [*BLINDS, ("preflop", "UTG", "call", 1200), ("preflop", "BTN", "call", 1200),
                        ("preflop", "SB", "call", 1200), ("preflop", "BB", "check", None)])
    assert found(legal, book, "ACTION.ORDER") == []


def test_online_out_of_turn_is_an_error_the_skipped_player_only_once_live() -> None:
    # online the software keeps the order: an out-of-turn action is an error of the site or the record
    assert (2, ERROR, False, None) in found(_oot_call(), ONLINE, "ACTION.ORDER")
    # live the action returns to the skipped player: UTG's call is in turn, not a second finding
    assert [seq for seq, *_ in found(_oot_call(), CEP, "ACTION.ORDER")] == [2]


def test_skipped_player_is_the_tds_call() -> None:
    # BB never acts: the preflop round closes with the big blind still due
    skip = hand(FOUR, [*BLINDS, ("preflop", "UTG", "call", 1200), ("preflop", "BTN", "call", 1200),
                       ("preflop", "SB", "call", 1200), ("flop", "SB", "check", None)])
    assert found(skip, CEP, "ACTION.ORDER") == [(5, REVIEW, True, "skipped_hand_live|skipped_hand_dead")]
    (f,) = [f for f in check_hand(skip, load_profile(CEP)).findings if f.rule_id == "ACTION.ORDER"]
    assert "«se llamará al director del torneo para que decida como tratar la mano que se han saltado»" in f.message
    assert found(skip, ONLINE, "ACTION.ORDER") == [(5, ERROR, False, None)]
    for book in (T09, PKR, R003):  # silent books: the floor's call too
        assert found(skip, book, "ACTION.ORDER") == [(5, REVIEW, True, "skipped_hand_live|skipped_hand_dead")]


# ---- DATA: the export contradicts itself ----------------------------------------------------------
def _jackpot_drop() -> Hand:
    # 2,400 put in, 2,275 paid with 100 rake written: 25 gone unwritten (a jackpot drop)
    players = [("SB", 50_000), ("BB", 50_000), ("BTN", 50_000)]
    return hand(players, [*BLINDS, ("preflop", "BTN", "fold", None), ("preflop", "SB", "call", 600),
                          ("preflop", "BB", "check", None),
                          ("flop", "SB", "check", None), ("flop", "BB", "check", None),
                          ("turn", "SB", "check", None), ("turn", "BB", "check", None),
                          ("river", "SB", "check", None), ("river", "BB", "check", None)],
                awards=[("BB", 2275)], rake=100, hole={"SB": "2c3d", "BB": "AhAs"}, boards=["KcQd7h5s9c"])


def _stale_stack() -> Hand:
    # the export starts BTN on 0, then BTN calls 1,200
    players = [("SB", 50_000), ("BB", 50_000), ("BTN", 0)]
    return hand(players, [*BLINDS, ("preflop", "BTN", "call", 1200), ("preflop", "SB", "fold", None),
                          ("preflop", "BB", "check", None)], awards=[("BB", 3000)], rake=0)


def test_unwritten_jackpot_drop_is_data_online_and_an_error_live() -> None:
    online = [f for f in check_hand(_jackpot_drop(), load_profile(ONLINE)).findings
              if f.rule_id == "POT.CHIP_CONSERVATION"]
    assert [(f.severity, f.house_decision) for f in online] == [(DATA, False)]
    assert online[0].message.startswith("Export inconsistency (25 put in was neither paid out nor written")
    assert found(_jackpot_drop(), PKR, "POT.CHIP_CONSERVATION") == [(None, ERROR, False, None)]


def test_stale_stack_is_data_online_and_its_consequences_too() -> None:
    online = check_hand(_stale_stack(), load_profile(ONLINE)).findings
    assert online and all(f.severity == DATA for f in online if f.severity != "info"), online
    (over,) = [f for f in online if f.rule_id == "POT.CHIP_CONSERVATION" and f.expected.startswith("at most")]
    assert over.message.startswith("Export inconsistency (stale stack)")
    live = check_hand(_stale_stack(), load_profile(R003)).findings
    assert any(f.rule_id == "POT.CHIP_CONSERVATION" and f.severity == ERROR for f in live)


def test_a_consistent_hand_has_no_data_finding() -> None:
    ok = dataclasses.replace(_jackpot_drop(), awards=_jackpot_drop().awards[:0])
    ok.awards = [a._replace(amount=2300) for a in _jackpot_drop().awards]
    assert [f for f in check_hand(ok, load_profile(ONLINE)).findings if f.severity == DATA] == []


# ---- the invariant, over the hand-written corpus and the real hands ---------------------------------
def _well_formed(f: Finding) -> str | None:
    """What is wrong with a finding's severity fields, or None."""
    if f.severity not in SEVERITIES:
        return "unknown severity"
    if f.house_decision != (f.severity == REVIEW):
        return "house_decision is not (severity == review)"
    if (f.severity == REVIEW) != bool(f.allowed_outcomes):
        return "allowed outcomes exactly on REVIEW"
    if f.severity == DATA and not f.message.startswith(("Export inconsistency (", "site: ")):
        return "a DATA finding names its export anomaly"
    return None


def test_invariant_on_the_hand_written_corpus() -> None:
    assert len(CORPUS) >= 8
    seen: set[str] = set()
    for h in CORPUS:
        for book in PROFILE_NAMES:
            for f in check_hand(h, load_profile(book)).findings:
                assert _well_formed(f) is None, (_well_formed(f), book, f)
                seen.add(f.severity)
    assert {ERROR, REVIEW, DATA} <= seen


def _real_hands() -> list[Hand]:
    from warehouse.ingest import iter_input_files

    roots = [p for p in (SHARED / "data" / "hands", SHARED / "data" / "tournaments") if p.exists()]
    if not roots:
        pytest.skip("real hand histories not available")
    out: dict[str, Hand] = {}
    for path in iter_input_files(roots):
        fmt = sniff_format(path)
        if fmt is None:
            continue
        for h in fmt.parse(path):
            if isinstance(h, Hand):
                out.setdefault(h.hand_id, h)
    return list(out.values())


def test_invariant_on_the_real_hands() -> None:
    """Online-standard (the books real exports are judged under) and CEP-2023 (where REVIEW appears)."""
    hands = _real_hands()
    assert len(hands) > 10_000
    counts: dict[str, int] = {}
    for book in (ONLINE, CEP):
        prof = load_profile(book)
        for h in hands:
            for f in check_hand(h, prof).findings:
                assert _well_formed(f) is None, (_well_formed(f), book, f)
                counts[f"{book}/{f.severity}"] = counts.get(f"{book}/{f.severity}", 0) + 1
    assert counts.get(f"{ONLINE}/{DATA}", 0) > 0 and counts.get(f"{CEP}/{REVIEW}", 0) > 0, counts
    assert counts.get(f"{ONLINE}/{REVIEW}", 0) == 0, counts  # online, nothing is left to a floor


# ---- floorman check counts REVIEW and DATA apart ------------------------------------------------------
def _warehouse(path: Path, hands: list[Hand]) -> None:
    from warehouse import db

    con = db.connect(path)
    try:
        load_hands(con, hands)
    finally:
        con.close()


def test_cli_check_counts_review_and_data_apart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pipelines.cli_rules import main

    live = dataclasses.replace(_undercall_facing_raise(1000), hand_id="cep-room:1", site="cep-room",
                               site_hand_no="1")  # the map sends site cep* to CEP-2023: a REVIEW
    online = dataclasses.replace(_jackpot_drop(), hand_id="site:2", site="site", site_hand_no="2")  # DATA
    error = dataclasses.replace(_undercall_opening_bet(), hand_id="site:3", site="site", site_hand_no="3")
    db_path = tmp_path / "w.duckdb"
    _warehouse(db_path, [live, online, error])
    assert main(["check", "--db", str(db_path)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    summary = json.loads(out[-1])
    con = duckdb.connect(str(db_path), read_only=True)
    try:
        stored = dict(con.execute("SELECT severity, count(*) FROM violations GROUP BY 1").fetchall())
        hd = con.execute("SELECT count(*) FROM violations WHERE house_decision <> (severity = 'review')").fetchone()
    finally:
        con.close()
    assert hd == (0,)
    assert summary["review"] == stored.get(REVIEW, 0) >= 1
    assert summary["data"] == stored.get(DATA, 0) >= 1
    assert summary["violations"] == stored.get(ERROR, 0) + stored.get("warning", 0) >= 1
    assert summary["by_severity"] == {s: stored.get(s, 0) for s in SEVERITIES}
    assert summary["errors_by_rule"]["UNDERCALL.FULL_CALL"] == 1
    text = "\n".join(out[:-1])
    assert f"house decisions for the floor (review): {summary['review']}" in text
    assert f"export inconsistencies (data, no player acted): {summary['data']}" in text
    assert main(["check", "--db", str(db_path), "--json"]) == 0
    only = capsys.readouterr().out.strip().splitlines()
    assert len(only) == 1 and json.loads(only[0])["review"] == summary["review"]
