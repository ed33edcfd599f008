"""Which kernel screen sends a hand that might produce each finding to the Python engine.

Why: the numba kernel (``rules.kernel``) never emits a finding; it decides a hand only when no
check's condition holds, and otherwise returns a bail reason (``rules.codes.B_*``) so the Python
engine re-checks the hand. A check added only to the Python engine would silently become a missed
finding on every hand the kernel decides. So every rule id the Python engine can emit is listed here
with the screens that catch it; ``tests/rules/test_screens.py`` scans ``rules/*.py`` for rule-id
literals and fails on one without an entry (add the kernel exit, or route such hands to Python,
then list it here).

A screen is a bail reason name (``rules.codes.BAIL_NAMES``), or one of ``PYTHON_SCREENS``: hands
that go to Python by another route than a bail.
"""

from __future__ import annotations

#: routes to the Python engine that are not kernel bail exits
PYTHON_SCREENS: dict[str, str] = {
    "sequence": "rules.columnar.check_window: tournament hands under dead-button rulebooks go to"
    " rules.sequence.sequence_findings (the cross-hand checks are Python only)",
    "continuity": "rules.runner.check_warehouse: after the per-hand pass, rules.continuity checks every"
    " table's consecutive hands in DuckDB SQL over the warehouse tables, whichever engine decided the hands",
    "record": "rules.runner.check_warehouse: after the per-hand pass, rules.handrecord reads every hand's"
    " cards, showdown, cancellation and rake in DuckDB SQL over the warehouse, whichever engine decided it",
    "not_in_record": "never emitted: no hand-history format records the data the rule needs; the run report"
    " counts them with what each would need (rules.handrecord.NOT_IN_RECORD)",
}

_AWARDS = ("award_mismatch", "award_unexpected", "award_missing", "award_folded", "award_stranger",
           "pot_no_contender")  # fmt: skip
_STRADDLE = ("straddle",)

#: rule id -> the screens (bail reason names, or ``PYTHON_SCREENS`` keys) that send every hand that
#: might produce the finding to the Python engine
RULE_SCREENS: dict[str, tuple[str, ...]] = {
    # betting replay (rules.replay; kernel: _betting, _decision)
    "ACTION.ORDER": ("order", "round_open", "sb_position", "sitting_out", "headsup_dead_button"),
    "ACTION.ILLEGAL_CHECK": ("illegal_check",),
    "DATA.CALL_AMOUNT": ("overcall", "call_allin_zero"),
    "UNDERCALL.FULL_CALL": ("undercall",),
    "DATA.RAISE_NOT_ABOVE_BET": ("raise_not_open",),
    "ALLIN.SHORT_NO_REOPEN": ("raise_not_open",),
    "ALLIN.RAISE_150PCT": ("raise_not_open",),
    # a raise by a player the short all-ins since did not reopen (the kernel's T09 states take the
    # literal reading, as the replay's do, so the REVIEW case bails here too)
    "ALLIN.CUMULATIVE_REOPEN": ("raise_not_open",),
    # a raise below the minimum after a short all-in (any reading's minimum is at most the kernel's)
    "ALLIN.MIN_RAISE_AFTER_SHORT": ("raise_min",),
    "BET.MIN_BET": ("raise_min",),
    "BET.MIN_ALLIN_BELOW_BB": ("short_open", "raise_min"),
    "RAISE.MIN": ("raise_min",),
    "RAISE.FIFTY_PCT": ("raise_min",),
    "RAISE.UNDER_FIFTY_IS_CALL": ("raise_min",),
    "BET.POT_LIMIT_MAX": ("pot_limit",),
    "BET.LIMIT_SIZE": ("fixed_limit",),
    "BET.LIMIT_RAISE_CAP": ("fixed_limit",),
    # forced bets (rules.handchecks.check_forced_bets; kernel: _blinds, heads-up button in _one_hand)
    "BLIND.POSTING": ("bb_amount", "sb_amount", "two_bb"),
    "ANTE.BB_ANTE": ("bb_ante",),
    "BLIND.HEADSUP_BUTTON": ("headsup_button", "headsup_dead_button"),
    "STRADDLE.SIZE": _STRADDLE,
    "STRADDLE.MISSISSIPPI": _STRADDLE,
    "STRADDLE.DOUBLE": _STRADDLE,
    "STRADDLE.NO_TRIPLE": _STRADDLE,
    "STRADDLE.POSITION": _STRADDLE,
    "STRADDLE.STACK_BEHIND": _STRADDLE,
    "STRADDLE.IN_TOURNAMENT": _STRADDLE,
    # straddle hands (rules.replay: the option at the close of preflop, the first preflop actor)
    "STRADDLE.LIVE_OPTION": _STRADDLE,
    "STRADDLE.ACTION_ORDER": _STRADDLE,
    # chips and rake (rules.handchecks.check_chips / check_rake; kernel: _total_in, _chips, _final_stack_differs)
    "POT.CHIP_CONSERVATION": ("chips_written", "chips_implied", "site_total", "final_stack", "over_stack",
                              "continuity"),
    "POT.UNCALLED_RETURN": ("return_amount",),
    "RAKE.NONE_IN_TOURNAMENT": ("tournament_rake",),
    "RAKE.TIE_EXEMPT": ("tie_rake",),
    # a rake written per pot (Pot.rake): the kernel reads none, so every such hand bails (F_RECORD)
    "RAKE.PER_POT_PROPORTIONAL": ("record_field",),
    # deck and run it twice (rules.handchecks.check_deck / check_run_twice; kernel: _deck)
    "DECK.DUPLICATE_CARD": ("duplicate_card", "hole_cards", "board_cards", "action_cards"),
    "RUN_TWICE.GAME_TYPE": ("run_twice",),
    "RUN_TWICE.POT_THRESHOLD": ("run_twice",),
    "RUN_TWICE.TIMING": ("run_twice",),
    # rules.pots._run_split: the pot findings of a hand run more than once
    "RUN_TWICE.SPLIT": ("run_twice",),
    # who declined to run it twice (Hand.rit_declined): the kernel reads none, every such hand bails (F_RECORD)
    "RUN_TWICE.DISSENTER": ("record_field", "run_twice"),
    # cards shown after the hand (Hand.rabbit_cards): the kernel reads none, every such hand bails (F_RECORD)
    "BOARD.RABBIT_HUNT": ("record_field",),
    # a hand voided for missing cards (Hand.cancel_reason): cancelled hands always bail (F_CANCELLED)
    "DECK.MISSING_CARD": ("cancelled",),
    # a redeal (Hand.redeal_of) bails (F_RECORD) and its original, cancelled, bails too: rules.columnar hands
    # both to rules.sequence.sequence_findings, which pairs them
    "MISDEAL.REDEAL": ("record_field", "cancelled"),
    # pots and showdown (rules.pots.check_pots; kernel: the pots phase of _one_hand)
    "POT.SIDE_POTS": _AWARDS,
    "POT.ODD_CHIP": _AWARDS,
    "SHOWDOWN.CARDS_SPEAK": _AWARDS,
    "SHOWDOWN.UNCONTESTED": _AWARDS,
    # shot clock (rules.clock; the kernel has no clock checks: timed hands are flagged F_CLOCK)
    "CLOCK.SHOT_CLOCK": ("clock",),
    "CLOCK.TIME_BANK": ("clock",),
    # across consecutive hands (rules.sequence; Python only)
    "BLIND.DEAD_BUTTON": ("sequence",),
    "BLIND.HEADSUP_TRANSITION": ("sequence",),
    # across consecutive hands, over the warehouse (rules.continuity; no kernel involved)
    "STACK.NO_REMOVAL": ("continuity",),
    "STACK.ADD_ON_TIMING": ("continuity",),
    "ALLIN.HIDDEN_CHIPS": ("continuity",),
    "BUTTON.WRONG_POSITION": ("continuity",),
    "BLIND.NEW_PLAYER_POSITION": ("continuity",),
    "BLIND.ABSENT_PLAYER": ("continuity",),
    "LEVEL.NEXT_HAND": ("continuity",),
    "TOURNEY.CHIP_RACE": ("continuity",),
    "TOURNEY.LATE_REG_REENTRY": ("continuity",),
    # one hand's stored record, over the warehouse (rules.handrecord; no kernel involved)
    "DECK.CARD_COUNT": ("record",),
    "DECK.FOREIGN_CARD": ("record",),
    "SHOWDOWN.TABLE_ALL_CARDS": ("record",),
    "SHOWDOWN.ALLIN_TABLED": ("record",),
    "MISDEAL.SA_LOCK": ("record",),
    "SHOWDOWN.SIDE_POT_SHOW": ("record",),
    "SHOWDOWN.ORDER": ("record",),
    "ACTION.FOLD_NONSTANDARD": ("record",),
    "ANTE.BB_ANTE_SHORT_STACK": ("record",),
    "RAKE.CAP": ("record",),
}
