"""Issue 13, first Done-when line: per T1 rule id a violating and a boundary-legal hand, and a hand per
rulebook whose answer differs (rules_matrix.md §2 ⚠ rows), through both engines (``engine`` fixture).

Each row of ``CASES`` is (rule id, kind, rulebook, hand, severity): ``violating`` asserts the id is
emitted at that severity, ``legal`` and ``silent`` that it is not (``silent``: a book whose answer to
another book's violating hand is nothing). Each row registers itself with tests.rules.t1_coverage, so the
coverage test counts exactly what runs here. Hands and severities come from the matrix's tables and
worked examples (§5) and the seed passages the profiles quote, not from the engine's output.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import pytest

from parsers.model import Hand, Pot
from tests.rules.builder import make_hand
from tests.rules.t1_coverage import register
from tests.rules.test_betting import flop_51, hand_52, hand_53, hand_58, hand_59, seven_handed
from tests.rules.test_new_rules import BOARD_A, BOARD_K, CEP, DEEP, ONLINE, PKR, R003, T09, found, hid, ran_twice
from tests.rules.test_pots_showdown import bb_ante_hand, odd_chip_hand, rit_hand, side_pot_hand, straddle_hand
from tests.rules.test_t1_coverage import chop, raked, uncontested


@dataclass(frozen=True)
class Case:
    rule: str
    kind: str
    book: str
    hand: Callable[[], Hand]
    severity: str | None = None
    note: str = ""
    xfail: str = ""  # a disagreement with the engine, reported: not counted as coverage

    @property
    def id(self) -> str:
        return f"{self.rule}-{self.kind}-{self.book}-{self.note}".rstrip("-")


def _tour(h: Hand) -> Hand:
    return replace(h, game_type="tournament")


def _posts(sb_amount: int, sb_stack: int = 10_000) -> Hand:
    return make_hand([("SB", sb_stack), ("BB", 10_000), ("UTG", 10_000)],
                     [("preflop", "SB", "post_sb", sb_amount), ("preflop", "BB", "post_bb", 200),
                      ("preflop", "UTG", "fold", None), ("preflop", "SB", "fold", None)], sb=100, bb=200)


def _hu(good: bool) -> Hand:
    posts = ([("preflop", "BTN", "post_sb", 1), ("preflop", "BB", "post_bb", 2), ("preflop", "BTN", "call", 1),
              ("preflop", "BB", "check", None)] if good else
             [("preflop", "BB", "post_sb", 1), ("preflop", "BTN", "post_bb", 2)])
    return make_hand([("BB", DEEP), ("BTN", DEEP)], posts, sb=1, bb=2, button=2, game_type="tournament")


def _order(script_tail: list[tuple[str, str, str, int | None]]) -> Hand:
    players = [("SB", DEEP), ("BB", DEEP), ("UTG", DEEP), ("BTN", DEEP)]
    base = [("preflop", "SB", "post_sb", 1), ("preflop", "BB", "post_bb", 2)]
    return make_hand(players, [*base, *script_tail], sb=1, bb=2)


_SKIPPED_BB = [("preflop", "UTG", "call", 2), ("preflop", "BTN", "call", 2), ("preflop", "SB", "call", 1),
               ("flop", "SB", "check", None)]
_IN_TURN = [("preflop", "UTG", "fold", None), ("preflop", "BTN", "call", 2), ("preflop", "SB", "call", 1),
            ("preflop", "BB", "check", None), ("flop", "SB", "check", None), ("flop", "BB", "check", None),
            ("flop", "BTN", "check", None)]


def _bet(amount: int, stack: int = DEEP) -> Hand:
    return make_hand([("A", stack), ("B", DEEP)], [("flop", "A", "bet", amount)], button=2)


def _pl(raise_to: int) -> Hand:
    base = [("preflop", "SB", "post_sb", 1), ("preflop", "BB", "post_bb", 2)]
    return make_hand([("SB", 500), ("BB", 500), ("UTG", 500)], [*base, ("preflop", "UTG", "raise", raise_to)],
                     sb=1, bb=2, betting="PL")


def _fl(n_raises: int, game_type: str = "tournament") -> Hand:
    players = [("SB", DEEP), ("BB", DEEP), ("UTG", DEEP)]
    base = [("preflop", "SB", "post_sb", 1), ("preflop", "BB", "post_bb", 2)]
    seq = [("preflop", "UTG", "raise", 4), ("preflop", "SB", "raise", 6), ("preflop", "BB", "raise", 8),
           ("preflop", "UTG", "raise", 10)][:n_raises]
    return make_hand(players, base + seq, sb=1, bb=2, betting="FL", game_type=game_type)


def _dup(board: str) -> Hand:
    h = side_pot_hand([("A", 24000), ("B", 21000), ("C", 15000)])
    return replace(h, boards=[h.boards[0]._replace(cards=board)])


def _returned(amount: int) -> Hand:
    players = [("A", 10_000), ("B", 10_000)]
    return make_hand(players, [("flop", "A", "bet", 1000), ("flop", "B", "fold", None),
                               ("flop", "A", "uncalled_return", amount)], button=2)


def _rit_river() -> Hand:
    h = rit_hand(100_000, 2)
    return replace(h, boards=[h.boards[0], h.boards[0]._replace(board_no=2)])


def _pot_rake(*rakes: int) -> Hand:
    """§5.7's pots 24,000 / 21,000 / 15,000 (A, B, C win one each), raked ``rakes`` per pot (Pot.rake)."""
    sizes = (24000, 21000, 15000)
    h = side_pot_hand([(p, size - r) for p, size, r in zip("ABC", sizes, rakes, strict=True)], rake=sum(rakes))
    return replace(h, pots=[Pot(i, size, r) for i, (size, r) in enumerate(zip(sizes, rakes, strict=True))])


def _rabbit(cards: str | None, tournament: bool = False) -> Hand:
    """A hand won preflop, then (``cards``) the flop the dealer showed after it (Hand.rabbit_cards)."""
    h = replace(uncontested("C"), rabbit_cards=cards)
    return _tour(h) if tournament else h


def _voided(reason: str | None, cancelled: bool = True, tournament: bool = False) -> Hand:
    """A hand voided (``cancelled``) before the flop, with the floor's reason (Hand.cancel_reason)."""
    h = make_hand([("A", DEEP), ("B", DEEP), ("C", DEEP)],
                  [("preflop", "A", "post_sb", 100), ("preflop", "B", "post_bb", 200)], hand_id=hid())
    h = replace(h, cancelled=cancelled, cancel_reason=reason)
    return _tour(h) if tournament else h


def _dissent(declined: str, paid: list[tuple[str, int, int]], boards: tuple[str, str] = (BOARD_A, BOARD_K)) -> Hand:
    """§5.11's 200,000 run twice (A aces, B kings; on ``BOARD_A`` the aces win, on ``BOARD_K`` the kings),
    ``declined`` having refused to run it more than once (Hand.rit_declined), paid ``paid``."""
    return replace(ran_twice(paid, boards), rit_declined=[declined])


def _straddle_tour() -> Hand:
    return _tour(straddle_hand([("UTG", 4000)]))


_STEP4 = [("flop", "C", "call", 1400), ("flop", "D", "fold", None), ("flop", "A", "raise", 4000)]
_STEP4_FULL = [("flop", "C", "raise", 2400), ("flop", "D", "fold", None), ("flop", "A", "raise", 3400)]
_STEP4_1500 = [("flop", "C", "call", 1500), ("flop", "D", "fold", None), ("flop", "A", "raise", 3000)]


def _s58(allin: int) -> list[tuple[str, str, str, int | None]]:
    """§5.8: straddle 2,000, U1 to 4,000, MP all-in to ``allin``, the straddler calls, U1 to 12,000."""
    return [("preflop", "U1", "raise", 4000), ("preflop", "MP", "raise", allin), ("preflop", "BTN", "fold", None),
            ("preflop", "SB", "fold", None), ("preflop", "BB", "fold", None),
            ("preflop", "UTG", "call", allin - 2000), ("preflop", "U1", "raise", 12000)]


V, L, Q = "violating", "legal", "silent"
E, W, RV, INFO = "error", "warning", "review", "info"

CASES: list[Case] = [
    # ---- forced bets ----
    Case("BLIND.POSTING", V, PKR, lambda: _posts(50), E, "sb_short"),
    Case("BLIND.POSTING", V, CEP, lambda: _tour(_posts(50)), E, "sb_short"),
    Case("BLIND.POSTING", L, PKR, lambda: _posts(50, sb_stack=50), None, "sb_all_in_for_less"),
    Case("BLIND.POSTING", L, CEP, lambda: _tour(_posts(100)), None, "exact"),
    Case("BLIND.HEADSUP_BUTTON", V, CEP, lambda: _hu(False), E),
    Case("BLIND.HEADSUP_BUTTON", L, CEP, lambda: _hu(True)),
    Case("BLIND.HEADSUP_BUTTON", V, T09, lambda: _hu(False), E),
    Case("BLIND.HEADSUP_BUTTON", L, T09, lambda: _hu(True)),
    Case("ANTE.BB_ANTE", V, CEP, lambda: bb_ante_hand(ante_by="UTG"), E, "wrong_seat"),
    Case("ANTE.BB_ANTE", V, CEP, lambda: bb_ante_hand(ante=1000), E, "short"),
    Case("ANTE.BB_ANTE", L, CEP, bb_ante_hand, None, "exact"),
    Case("ANTE.BB_ANTE", Q, T09, lambda: bb_ante_hand(ante_by="UTG"), None, "wrong_seat"),
    # ---- straddles (§5.10, blinds 1,000/2,000) ----
    Case("STRADDLE.POSITION", V, PKR, lambda: straddle_hand([("U1", 4000)]), E),
    Case("STRADDLE.POSITION", V, R003, lambda: straddle_hand([("U1", 4000)]), E),
    Case("STRADDLE.POSITION", L, PKR, lambda: straddle_hand([("UTG", 4000)])),
    Case("STRADDLE.POSITION", L, R003, lambda: straddle_hand([("UTG", 4000)])),
    Case("STRADDLE.POSITION", Q, CEP, _straddle_tour),
    Case("STRADDLE.SIZE", V, PKR, lambda: straddle_hand([("UTG", 3000)]), E, "below_2x"),
    Case("STRADDLE.SIZE", V, R003, lambda: straddle_hand([("UTG", 12000)]), E, "above_5x"),
    Case("STRADDLE.SIZE", L, PKR, lambda: straddle_hand([("UTG", 12000)]), None, "no_max"),
    Case("STRADDLE.SIZE", L, R003, lambda: straddle_hand([("UTG", 10000)]), None, "exactly_5x"),
    Case("STRADDLE.SIZE", L, PKR, lambda: straddle_hand([("UTG", 4000)]), None, "exactly_2x"),
    Case("STRADDLE.SIZE", Q, CEP, _straddle_tour),
    Case("STRADDLE.STACK_BEHIND", V, R003, lambda: straddle_hand([("UTG", 4000)], {"UTG": 19000}), E, "4.75x"),
    Case("STRADDLE.STACK_BEHIND", L, R003, lambda: straddle_hand([("UTG", 4000)], {"UTG": 24000}), None, "5x"),
    Case("STRADDLE.STACK_BEHIND", Q, PKR, lambda: straddle_hand([("UTG", 4000)], {"UTG": 19000})),
    Case("STRADDLE.DOUBLE", V, PKR, lambda: straddle_hand([("UTG", 4000), ("U1", 6000)]), E, "below_2x"),
    Case("STRADDLE.DOUBLE", L, PKR, lambda: straddle_hand([("UTG", 4000), ("U1", 8000)]), None, "exactly_2x"),
    Case("STRADDLE.DOUBLE", V, R003, lambda: straddle_hand([("UTG", 4000), ("U1", 8000)]), W, "not_provided"),
    Case("STRADDLE.NO_TRIPLE", V, PKR, lambda: straddle_hand([("UTG", 4000), ("U1", 8000), ("U2", 16000)]), E),
    Case("STRADDLE.NO_TRIPLE", L, PKR, lambda: straddle_hand([("UTG", 4000), ("U1", 8000)]), None, "double"),
    # R003 describes one straddle only: a second and third are outside the book (WARNING, matrix §2 legend)
    Case("STRADDLE.NO_TRIPLE", V, R003, lambda: straddle_hand([("UTG", 4000), ("U1", 8000), ("U2", 16000)]), W,
         "not_provided"),
    Case("STRADDLE.MISSISSIPPI", V, R003, lambda: straddle_hand([("UTG", 4000), ("BTN", 6000)]), E, "with_utg"),
    Case("STRADDLE.MISSISSIPPI", L, R003, lambda: straddle_hand([("BTN", 6000)])),
    Case("STRADDLE.MISSISSIPPI", V, PKR, lambda: straddle_hand([("BTN", 6000)]), W, "not_provided"),
    Case("STRADDLE.IN_TOURNAMENT", V, CEP, _straddle_tour, W),
    Case("STRADDLE.IN_TOURNAMENT", L, PKR, lambda: straddle_hand([("UTG", 4000)])),
    # ---- action order ----
    Case("ACTION.ORDER", V, ONLINE, lambda: _order(_SKIPPED_BB), E, "bb_skipped"),
    # a round closed over a skipped player: matrix §3 gives ACTION.OUT_OF_TURN "HD when skipped player
    # involved" and ACTION.OOT_SKIPPED_PLAYER "HD, list candidate rulings"; PKR states no skipped-player
    # rule ("—" in §2), and the §2 legend never makes ERROR of a book's silence: the floor's call (REVIEW)
    Case("ACTION.ORDER", V, PKR, lambda: _order(_SKIPPED_BB), RV, "bb_skipped"),
    Case("ACTION.ORDER", L, PKR, lambda: _order(_IN_TURN)),
    Case("ACTION.ORDER", L, CEP, lambda: _tour(_order(_IN_TURN))),
    # ---- bets and raises ----
    Case("BET.MIN_BET", V, PKR, lambda: _bet(100), E, "half_bb"),
    Case("BET.MIN_BET", L, PKR, lambda: _bet(200), None, "one_bb"),
    Case("BET.MIN_BET", L, PKR, lambda: _bet(100, stack=100), None, "all_in"),
    Case("BET.MIN_ALLIN_BELOW_BB", V, R003, lambda: hand_59(("flop", "B", "call", 600)), E),
    Case("BET.MIN_ALLIN_BELOW_BB", L, R003, lambda: hand_59(("flop", "B", "call", 1000), ("flop", "C", "call", 1000))),
    Case("BET.MIN_ALLIN_BELOW_BB", Q, CEP, lambda: hand_59(("flop", "B", "call", 600))),
    Case("RAISE.MIN", V, CEP, lambda: hand_53(1600), E, "1600"),
    Case("RAISE.MIN", L, CEP, lambda: hand_53(2000), None, "2000"),
    Case("RAISE.MIN", V, R003, lambda: hand_53(2000), E, "2000"),
    Case("RAISE.MIN", L, R003, lambda: hand_53(2400), None, "2400"),
    Case("RAISE.MIN", V, PKR, lambda: hand_53(1500), E, "1500"),
    Case("RAISE.MIN", L, PKR, lambda: hand_53(2000), None, "2000"),
    Case("RAISE.FIFTY_PCT", V, CEP, lambda: hand_53(1600), INFO, "1600"),
    Case("RAISE.FIFTY_PCT", L, CEP, lambda: hand_53(2000), None, "2000"),
    Case("RAISE.FIFTY_PCT", Q, R003, lambda: hand_53(1600), None, "1600"),
    Case("ALLIN.SHORT_NO_REOPEN", V, CEP, lambda: flop_51(1400, *_STEP4), E),
    Case("ALLIN.SHORT_NO_REOPEN", L, CEP, lambda: flop_51(1400, *_STEP4_FULL), None, "full_raise_reopens"),
    Case("ALLIN.SHORT_NO_REOPEN", Q, R003, lambda: flop_51(1500, *_STEP4_1500), None, "150pct"),
    Case("ALLIN.CUMULATIVE_REOPEN", V, T09, lambda: hand_52(("flop", "A", "raise", 300)), RV),
    Case("ALLIN.CUMULATIVE_REOPEN", L, CEP, lambda: hand_52(("flop", "A", "raise", 300))),
    Case("ALLIN.CUMULATIVE_REOPEN", Q, CEP, lambda: hand_52(("flop", "A", "raise", 300)), None, "adds_up"),
    Case("ALLIN.CUMULATIVE_REOPEN", Q, PKR, lambda: hand_52(("flop", "A", "raise", 300))),
    Case("ALLIN.CUMULATIVE_REOPEN", Q, R003, lambda: hand_52(("flop", "A", "raise", 300))),
    Case("ALLIN.MIN_RAISE_AFTER_SHORT", V, CEP, lambda: flop_51(1400, ("flop", "C", "raise", 2000)), E, "2000"),
    Case("ALLIN.MIN_RAISE_AFTER_SHORT", L, CEP, lambda: flop_51(1400, ("flop", "C", "raise", 2400)), None, "2400"),
    Case("ALLIN.MIN_RAISE_AFTER_SHORT", V, R003, lambda: flop_51(1400, ("flop", "C", "raise", 2400)), RV, "2400"),
    Case("ALLIN.MIN_RAISE_AFTER_SHORT", V, R003, lambda: flop_51(1400, ("flop", "C", "raise", 1900)), E, "1900"),
    Case("ALLIN.MIN_RAISE_AFTER_SHORT", L, R003, lambda: flop_51(1400, ("flop", "C", "raise", 2800)), None, "2800"),
    # PKR «la última apuesta o subida»: the last full bet (min 2,400) or the all-in's raise (min 1,800), §2
    # "Ambiguous": between the readings the floor's call, below both an error
    Case("ALLIN.MIN_RAISE_AFTER_SHORT", V, PKR, lambda: flop_51(1400, ("flop", "C", "raise", 2000)), RV, "2000"),
    Case("ALLIN.MIN_RAISE_AFTER_SHORT", V, PKR, lambda: flop_51(1400, ("flop", "C", "raise", 1700)), E, "1700"),
    Case("ALLIN.MIN_RAISE_AFTER_SHORT", L, PKR, lambda: flop_51(1400, ("flop", "C", "raise", 2400)), None, "2400"),
    Case("ALLIN.RAISE_150PCT", V, R003, lambda: hand_58(5500, *_s58(5500)), E, "5500"),
    Case("ALLIN.RAISE_150PCT", L, R003, lambda: hand_58(6000, *_s58(6000)), None, "6000"),
    Case("ALLIN.RAISE_150PCT", Q, CEP, lambda: flop_51(1400, *_STEP4)),
    Case("UNDERCALL.FULL_CALL", V, CEP, lambda: _tour(seven_handed(("preflop", "UTG", "call", 600))), E, "opening_bet"),
    Case("UNDERCALL.FULL_CALL", L, CEP, lambda: _tour(seven_handed(("preflop", "UTG", "call", 1200))), None, "full"),
    Case("UNDERCALL.FULL_CALL", V, PKR, lambda: seven_handed(("preflop", "UTG", "call", 600)), E, "lower_chip"),
    Case("UNDERCALL.FULL_CALL", L, PKR, lambda: seven_handed(("preflop", "UTG", "call", 1200)), None, "full"),
    Case("UNDERCALL.FULL_CALL", V, T09, lambda: _tour(seven_handed(("preflop", "UTG", "call", 600))), RV, "unstated"),
    Case("BET.POT_LIMIT_MAX", V, ONLINE, lambda: _pl(8), E, "8"),
    Case("BET.POT_LIMIT_MAX", L, ONLINE, lambda: _pl(7), None, "7"),
    Case("BET.POT_LIMIT_MAX", V, PKR, lambda: _pl(8), E, "8"),
    Case("BET.POT_LIMIT_MAX", L, PKR, lambda: _pl(7), None, "7"),
    Case("BET.LIMIT_RAISE_CAP", V, T09, lambda: _fl(4), RV, "fifth_bet"),
    Case("BET.LIMIT_RAISE_CAP", L, T09, lambda: _fl(3), None, "cap"),
    Case("BET.LIMIT_RAISE_CAP", Q, CEP, lambda: _fl(4)),
    # ---- deck, run it twice, pots, rake ----
    Case("DECK.DUPLICATE_CARD", V, PKR, lambda: _dup("As7d9h4s3d"), E),
    Case("DECK.DUPLICATE_CARD", L, PKR, lambda: side_pot_hand([("A", 24000), ("B", 21000), ("C", 15000)])),
    Case("SHOWDOWN.UNCONTESTED", V, PKR, lambda: uncontested("B"), E),
    Case("SHOWDOWN.UNCONTESTED", L, PKR, lambda: uncontested("C")),
    Case("RAKE.TIE_EXEMPT", V, R003, lambda: chop(20), E),
    Case("RAKE.TIE_EXEMPT", L, R003, lambda: chop(0)),
    Case("RAKE.TIE_EXEMPT", Q, PKR, lambda: chop(20)),
    # R003 «SIDE POTS»: rake from each pot in proportion to its size (8:7:5), beyond one chip of rounding (the
    # smallest chip the record shows: 10 here) an ERROR; PKR states no rake rule and has no fallback: nothing
    Case("RAKE.PER_POT_PROPORTIONAL", V, R003, lambda: _pot_rake(600, 0, 0), E, "all_from_main"),
    Case("RAKE.PER_POT_PROPORTIONAL", V, R003, lambda: _pot_rake(260, 200, 150), E, "16_over"),
    Case("RAKE.PER_POT_PROPORTIONAL", L, R003, lambda: _pot_rake(240, 210, 150), None, "exact"),
    Case("RAKE.PER_POT_PROPORTIONAL", L, R003, lambda: _pot_rake(240, 210, 160), None, "rounded_in_10s"),
    Case("RAKE.PER_POT_PROPORTIONAL", Q, PKR, lambda: _pot_rake(600, 0, 0), None, "unstated"),
    # every book forbids showing the cards that would have come (§1 BOARD.RABBIT_HUNT; §3: WARNING)
    Case("BOARD.RABBIT_HUNT", V, CEP, lambda: _rabbit("As7d9h", True), W),
    Case("BOARD.RABBIT_HUNT", V, T09, lambda: _rabbit("As7d9h", True), W),
    Case("BOARD.RABBIT_HUNT", V, PKR, lambda: _rabbit("As7d9h"), W),
    Case("BOARD.RABBIT_HUNT", V, R003, lambda: _rabbit("Qs"), W, "one_card"),
    Case("BOARD.RABBIT_HUNT", L, PKR, lambda: _rabbit(None), None, "none_shown"),
    Case("BOARD.RABBIT_HUNT", L, R003, lambda: _rabbit(""), None, "empty"),
    # a board run a second time is run it twice, not a rabbit hunt
    Case("BOARD.RABBIT_HUNT", L, PKR, lambda: rit_hand(100_000, 2), None, "run_twice"),
    # PKR «Irregularidades»: missing cards do not invalidate a hand's result (§3: WARNING (PKR)); CEP calls
    # such a deck defective, T09 and R003 say nothing: a hand voided for it is no finding there
    Case("DECK.MISSING_CARD", V, PKR, lambda: _voided("missing_card"), W),
    Case("DECK.MISSING_CARD", L, PKR, lambda: _voided("misdeal"), None, "voided_for_a_misdeal"),
    Case("DECK.MISSING_CARD", L, PKR, lambda: _voided(None), None, "reason_unstated"),
    Case("DECK.MISSING_CARD", L, PKR, lambda: _voided("missing_card", cancelled=False), None, "result_stood"),
    Case("DECK.MISSING_CARD", Q, CEP, lambda: _voided("missing_card", tournament=True), None, "defective_deck"),
    Case("DECK.MISSING_CARD", Q, T09, lambda: _voided("missing_card", tournament=True), None),
    Case("DECK.MISSING_CARD", Q, R003, lambda: _voided("missing_card"), None),
    Case("DECK.MISSING_CARD", Q, ONLINE, lambda: _voided("missing_card"), None),
    Case("RAKE.NONE_IN_TOURNAMENT", V, CEP, lambda: raked("tournament", 25), E),
    Case("RAKE.NONE_IN_TOURNAMENT", L, CEP, lambda: raked("tournament", 0)),
    Case("RUN_TWICE.GAME_TYPE", V, PKR, lambda: rit_hand(100_000, 2, "tournament"), E),
    Case("RUN_TWICE.GAME_TYPE", L, PKR, lambda: rit_hand(100_000, 2)),
    Case("RUN_TWICE.POT_THRESHOLD", V, PKR, lambda: rit_hand(75_000, 2), E, "150000x2"),
    Case("RUN_TWICE.POT_THRESHOLD", L, PKR, lambda: rit_hand(75_001, 2), None, "150002x2"),
    Case("RUN_TWICE.POT_THRESHOLD", V, PKR, lambda: rit_hand(90_000, 3), E, "180000x3"),
    Case("RUN_TWICE.POT_THRESHOLD", L, PKR, lambda: rit_hand(100_001, 3), None, "200002x3"),
    Case("RUN_TWICE.POT_THRESHOLD", Q, R003, lambda: rit_hand(75_000, 2), None, "no_threshold"),
    Case("RUN_TWICE.TIMING", V, PKR, _rit_river, E),
    # PKR «Twice»: a dissenter plays run 1 only and, winning it, takes the whole of every pot he is in (§3:
    # ERROR; a dissenter who lost run 1 and is paid: HD). R003 says nothing of a dissenter: its split stands
    Case("RUN_TWICE.DISSENTER", V, PKR, lambda: _dissent("A", [("A", 100_000, 1), ("B", 100_000, 2)]), E,
         "split_by_runs"),
    Case("RUN_TWICE.DISSENTER", V, PKR, lambda: _dissent("A", [("A", 199_999, 1), ("B", 1, 2)]), E, "one_short"),
    Case("RUN_TWICE.DISSENTER", L, PKR, lambda: _dissent("A", [("A", 200_000, 1)]), None, "whole_pot"),
    Case("RUN_TWICE.DISSENTER", L, PKR, lambda: _dissent("B", [("A", 200_000, 1)]), None, "lost_run_1"),
    Case("RUN_TWICE.DISSENTER", V, PKR, lambda: _dissent("B", [("A", 100_000, 1), ("B", 100_000, 2)]), RV,
         "lost_run_1_paid_run_2"),
    Case("RUN_TWICE.DISSENTER", Q, R003, lambda: _dissent("A", [("A", 100_000, 1), ("B", 100_000, 2)]), None),
    Case("RUN_TWICE.DISSENTER", Q, ONLINE, lambda: _dissent("A", [("A", 100_000, 1), ("B", 100_000, 2)]), None),
    # §5.7 side pots 24,000 / 21,000 / 15,000 (A best, then B, then C)
    Case("POT.SIDE_POTS", V, R003, lambda: side_pot_hand([("A", 30000), ("B", 15000), ("C", 15000)]), E),
    Case("POT.SIDE_POTS", L, R003, lambda: side_pot_hand([("A", 24000), ("B", 21000), ("C", 15000)])),
    Case("POT.SIDE_POTS", L, CEP, lambda: _tour(side_pot_hand([("A", 24000), ("B", 21000), ("C", 15000)]))),
    Case("SHOWDOWN.CARDS_SPEAK", V, R003, lambda: side_pot_hand([("B", 45000), ("C", 15000)]), E),
    Case("SHOWDOWN.CARDS_SPEAK", L, R003, lambda: side_pot_hand([("A", 24000), ("B", 21000), ("C", 15000)])),
    Case("SHOWDOWN.CARDS_SPEAK", V, CEP, lambda: _tour(side_pot_hand([("B", 45000), ("C", 15000)])), E),
    Case("POT.CHIP_CONSERVATION", V, R003, lambda: side_pot_hand([("A", 24000), ("B", 21000), ("C", 14000)]), E),
    Case("POT.CHIP_CONSERVATION", L, R003, lambda: side_pot_hand([("A", 24000), ("B", 21000), ("C", 15000)])),
    Case("POT.UNCALLED_RETURN", V, ONLINE, lambda: _returned(600), E, "600"),
    Case("POT.UNCALLED_RETURN", L, ONLINE, lambda: _returned(1000), None, "1000"),
    Case("POT.UNCALLED_RETURN", V, PKR, lambda: _returned(600), E, "600"),
    Case("POT.UNCALLED_RETURN", L, PKR, lambda: _returned(1000), None, "1000"),
    # §5.6 odd chip: 12,300 split in 100 chips, the odd chip to the first seat left of the button (P8)
    Case("POT.ODD_CHIP", V, CEP, lambda: _tour(odd_chip_hand([("P8", 6100), ("P2", 6200)])), E),
    Case("POT.ODD_CHIP", L, CEP, lambda: _tour(odd_chip_hand([("P8", 6200), ("P2", 6100)]))),
    Case("POT.ODD_CHIP", V, T09, lambda: _tour(odd_chip_hand([("P8", 6100), ("P2", 6200)])), E),
    Case("POT.ODD_CHIP", L, T09, lambda: _tour(odd_chip_hand([("P8", 6200), ("P2", 6100)]))),
    Case("POT.ODD_CHIP", V, PKR, lambda: odd_chip_hand([("P8", 6100), ("P2", 6200)]), E),
    Case("POT.ODD_CHIP", L, PKR, lambda: odd_chip_hand([("P8", 6200), ("P2", 6100)])),
    Case("POT.ODD_CHIP", V, R003, lambda: odd_chip_hand([("P8", 6100), ("P2", 6200)]), E),
    Case("RUN_TWICE.TIMING", L, PKR, lambda: rit_hand(100_000, 2)),
]


for _c in CASES:
    if not _c.xfail:
        register(_c.rule, _c.kind, (_c.book,), f"test_t1_cases::{_c.id}")


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id, marks=[pytest.mark.xfail(reason=c.xfail, strict=True)]
                                               if c.xfail else []) for c in CASES])
def test_t1_case(engine: str, case: Case) -> None:
    got = [(r, sev) for r, _seq, sev in found(engine, case.hand(), case.book)]
    if case.kind == "violating":
        assert (case.rule, case.severity) in got, got
    else:
        assert case.rule not in {r for r, _ in got}, got


# ---- the record, continuity and sequence passes (no kernel involved: SQL over the warehouse) ----------
from tests.rules import test_continuity as tc  # noqa: E402
from tests.rules import test_handrecord as th  # noqa: E402
from tests.rules.t1_coverage import covers  # noqa: E402


@covers("ACTION.FOLD_NONSTANDARD", "silent", T09, R003)
def test_a_fold_facing_no_bet_is_not_the_silent_books_rule() -> None:
    """T09 says nothing of folds; R003 speaks of induced throws and out-of-turn mucks only."""
    for book in (T09, R003):
        assert th.found(th.run([th._flop("fold")], book)) == [], book


@covers("SHOWDOWN.ALLIN_TABLED", "legal", CEP, T09, PKR, R003)
def test_every_live_hand_tabled_at_an_all_in_showdown_is_legal() -> None:
    for book in (CEP, T09, PKR, R003):
        res = th.run([th.showdown({"A": "AsAc", "B": "3c3d"}, all_in=True)], book)
        assert "SHOWDOWN.ALLIN_TABLED" not in {r for r, _ in th.found(res)}, book


@covers("SHOWDOWN.SIDE_POT_SHOW", "legal", CEP)
def test_a_side_pot_player_showing_at_the_river_is_legal() -> None:
    hand = th.side_pot_muck()
    *rest, muck = hand.actions
    shown = replace(hand, actions=[*rest, muck._replace(kind=th.Kind.SHOW, cards="5c5d")])
    rules = {r for r, _ in th.found(th.run([shown], CEP))}
    assert not rules & {"SHOWDOWN.SIDE_POT_SHOW", "SHOWDOWN.ALLIN_TABLED"}, rules


@covers("ALLIN.HIDDEN_CHIPS", "legal", CEP)
def test_a_busted_player_not_back_is_legal() -> None:
    one, two = tc._bust_and_back(**tc.TOURNEY)
    two_without = replace(two, seats=[s for s in two.seats if s.player != "Ana"],
                          actions=[a for a in two.actions if a.player != "Ana"])
    assert [r for r in tc.found(tc.run([one, two_without], CEP)) if r[1] == "ALLIN.HIDDEN_CHIPS"] == []


@covers("ALLIN.HIDDEN_CHIPS", "silent", T09, R003)
def test_hidden_chips_are_not_the_silent_books_rule() -> None:
    """T09 and R003 say nothing of chips found behind an all-in."""
    assert [r for r in tc.found(tc.run(tc._bust_and_back(**tc.TOURNEY), T09)) if r[1] == "ALLIN.HIDDEN_CHIPS"] == []
    assert [r for r in tc.found(tc.run(tc._bust_and_back(), R003)) if r[1] == "ALLIN.HIDDEN_CHIPS"] == []


@covers("BLIND.DEAD_BUTTON", "legal", CEP)
def test_the_big_blind_moving_one_seat_is_legal() -> None:
    hands = tc.chain(tc.FOUR, [{"button": 4}, {"button": 1}, {"button": 2}], **tc.TOURNEY)
    assert [r for r in tc._seq(hands) if r[1] == "BLIND.DEAD_BUTTON"] == []


@covers("STACK.ADD_ON_TIMING", "legal", R003)
def test_chips_added_during_a_hand_but_not_used_in_it_are_legal(tmp_path) -> None:
    """R003: added chips play from the next hand; an add written mid-hand that the hand never draws on is fine."""
    script = [("preflop", "Ana", "post_sb", 100), ("preflop", "Bea", "post_bb", 200), ("preflop", "Cid", "fold", None),
              ("preflop", "Ana", "raise", 1_000), ("preflop", "Bea", "call", 800)]  # fmt: skip
    hand = make_hand([("Ana", 1_000), ("Bea", 10_000), ("Cid", 10_000)], script, button=3, site="live",
                     hand_id="live:1", awards=[("Bea", 2_000)])
    hand = replace(hand, started_at=tc.T0)
    text = {"live:1": "Hand #1\nAna posts small blind 100\nAna adds 2,000\nAna raises to 1,000\n"}
    assert [r for r in tc.found(tc.run([hand], R003, text, tmp_path)) if r[1] == "STACK.ADD_ON_TIMING"] == []
