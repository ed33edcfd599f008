"""The integer codes the fast path's kernel reads, and the SQL that computes them inside DuckDB.

Why one module: the kernel (``rules.kernel``, numba) and the warehouse reader (``rules.store``,
DuckDB) must agree on every code; the reader computes them in its queries, so no string of a
hand's kinds, streets or flags is hashed in Python. No numba import here: the reader stays light.
"""

from __future__ import annotations

from parsers.model import NON_FLOP_VARIANTS, Kind, Street

# kind codes (parsers.model.Kind order); streets 0..4 (preflop .. showdown)
K_SB, K_BB, K_ANTE, K_BB_ANTE, K_STRADDLE, K_DEAD = 0, 1, 2, 3, 4, 5
K_FOLD, K_CHECK, K_CALL, K_BET, K_RAISE, K_RETURN, K_SHOW, K_MUCK, K_CASH_OUT = 6, 7, 8, 9, 10, 11, 12, 13, 14
S_PREFLOP, S_SHOWDOWN = 0, 4
KIND_NAMES = tuple(k.value for k in Kind)
STREET_NAMES = tuple(s.value for s in Street)
# kinds after cash_out (stud and draw games, issue 12) take higher codes; their hands never reach the
# kernel's betting loop (F_UNSUPPORTED below), so only the flop-game codes must keep their places
assert KIND_NAMES[K_SB] == "post_sb" and KIND_NAMES[K_CASH_OUT] == "cash_out"
assert STREET_NAMES[S_PREFLOP] == "preflop" and STREET_NAMES[S_SHOWDOWN] == "showdown"

#: hand flag bits
F_HAS_BUTTON, F_PL, F_FL, F_OMAHA, F_UNSUPPORTED, F_TOURN, F_CASH, F_CANCELLED = 1, 2, 4, 8, 16, 32, 64, 128
F_HAS_RAKE, F_HAS_TOTAL = 256, 512
#: set by ``rules.columnar`` (not the SQL): a hand with logged action times under a shot-clock rulebook
F_CLOCK = 1024
#: set by ``rules.columnar`` (from the pots' ``k_pot_rake``) and by ``FLAGS_SQL``: the hand carries a
#: record the kernel does not read (issue 13: a rake per pot, rabbit cards, who declined to run it twice, the
#: misdeal a hand redeals), so the Python engine checks it
F_RECORD = 2048

#: stud and draw variants (issue 12: parsers.model.STUD_VARIANTS / DRAW_VARIANTS): no board, other streets
_STUD_DRAW = ", ".join(f"'{v}'" for v in sorted(NON_FLOP_VARIANTS))
#: the flag bits over ``hands h``. Unsupported (the Python engine checks them): hi-lo and short
#: deck; Split Hold'em (two boards by design); PokerStars CAP games (a capped player is all-in with
#: chips behind)
FLAGS_SQL = " + ".join(
    f"CASE WHEN {cond} THEN {bit} ELSE 0 END"
    for cond, bit in (
        ("h.button_seat IS NOT NULL", F_HAS_BUTTON),
        ("h.betting = 'PL'", F_PL),
        ("h.betting = 'FL'", F_FL),
        ("h.variant LIKE 'omaha%' OR h.variant = 'courchevel'", F_OMAHA),
        ("h.variant LIKE '%hilo' OR h.variant IN ('shortdeck', 'holdem_split') OR h.betting = 'CAP'"
         f" OR h.variant IN ({_STUD_DRAW})", F_UNSUPPORTED),
        ("h.game_type = 'tournament'", F_TOURN),
        ("h.game_type = 'cash'", F_CASH),
        ("h.cancelled", F_CANCELLED),
        ("h.site_rake IS NOT NULL", F_HAS_RAKE),
        ("h.site_total_pot IS NOT NULL", F_HAS_TOTAL),
        # issue 13's records the kernel does not read (BOARD.RABBIT_HUNT, RUN_TWICE.DISSENTER, MISDEAL.REDEAL:
        # a redeal goes to Python, where rules.columnar pairs it with its cancelled original)
        ("(coalesce(h.rabbit_cards, '') <> '' OR coalesce(len(h.rit_declined), 0) > 0 OR h.redeal_of IS NOT NULL)",
         F_RECORD),
    )
)
KIND_SQL = "CASE c.kind {} ELSE -1 END".format(" ".join(f"WHEN '{v}' THEN {j}" for j, v in enumerate(KIND_NAMES)))
STREET_SQL = "CASE c.street {} ELSE -1 END".format(
    " ".join(f"WHEN '{v}' THEN {j}" for j, v in enumerate(STREET_NAMES))
)

# ---- kernel bail reasons ---------------------------------------------------------------------------
# ``rules.kernel._one_hand`` returns 0 when it decides a hand itself (no finding; its states are the
# kernel's) and otherwise the reason it sends the hand to the Python engine. One integer per exit
# kind; the kernel reads these module constants (numba folds them), ``BAIL_REASONS`` names them for
# the summary of ``floorman check`` and for ``rules.screens``.
BAIL_NONE = 0
B_UNSUPPORTED_GAME = 1  # hi-lo, short deck, Split Hold'em, PokerStars CAP (F_UNSUPPORTED)
B_FIXED_LIMIT = 2  # fixed-limit betting (BET.LIMIT_*)
B_CANCELLED = 3  # a cancelled hand
B_NO_BUTTON = 4  # no button seat
B_CLOCK = 5  # logged action times under a shot-clock rulebook (CLOCK.*)
B_SITTING_OUT = 6  # a sitting-out seat
B_DUPLICATE_SEAT = 7  # two seat rows with one player or one seat number
B_ACTION_CARDS = 8  # an action's card text the kernel cannot read
B_UNSEATED_ACTOR = 9  # an action by a player with no seat
B_RING_SIZE = 10  # nobody acts, or more players than the kernel's ring holds
B_HEADSUP_DEAD_BUTTON = 11  # heads-up with the button seat not in the ring
B_STRADDLE = 12  # a straddle post
B_BB_AMOUNT = 13  # a big blind that is not the level's
B_SB_AMOUNT = 14  # a small blind that is not the level's
B_BB_ANTE = 15  # a BB ante under a rulebook that checks it
B_TWO_BB = 16  # more than one big-blind post
B_ROUND_OPEN = 17  # a street begins with someone still due to act
B_SB_POSITION = 18  # the small blind not first after the button (counter-clockwise seats?)
B_RETURN_AMOUNT = 19  # an uncalled-bet return that is not the uncalled excess
B_ORDER = 20  # an action out of turn (or before the last post)
B_ILLEGAL_CHECK = 21  # a check facing a bet
B_CALL_ALLIN_ZERO = 22  # online: an all-in call of nothing while owing chips
B_UNDERCALL = 23  # a call short of the amount owed, with chips behind
B_OVERCALL = 24  # a call above the amount owed
B_RAISE_NOT_OPEN = 25  # a bet/raise not above the current bet, or when betting is not reopened
B_RAISE_MIN = 26  # a bet/raise below the minimum, not all-in
B_POT_LIMIT = 27  # a pot-limit bet/raise above the pot
B_SHORT_OPEN = 28  # R003: an all-in opening bet below the big blind
B_OVER_STACK = 29  # a player put in more than their starting stack
B_HEADSUP_BUTTON = 30  # heads-up: the small blind not posted by the button
B_CHIPS_WRITTEN = 31  # awards + written rake + fees != the chips put in
B_CHIPS_IMPLIED = 32  # implied rake (no written rake) negative or above the cap
B_SITE_TOTAL = 33  # the site's total pot differs from the chips put in
B_TOURNAMENT_RAKE = 34  # rake written in a tournament hand
B_FINAL_STACK = 35  # a written final stack that start - put in + won does not give
B_TIE_RAKE = 36  # rake under a rulebook with the tie exemption
B_RUN_TWICE = 37  # more than one board
B_HOLE_CARDS = 38  # hole-card text the kernel cannot read
B_DUPLICATE_CARD = 39  # a card seen twice (hole, shown, board)
B_BOARD_CARDS = 40  # board text the kernel cannot read
B_AWARD_STRANGER = 41  # chips awarded to a player not in the ring
B_AWARD_FOLDED = 42  # chips awarded to a player who folded
B_POT_NO_CONTENDER = 43  # a pot nobody is eligible for
B_AWARD_MISMATCH = 44  # no rake: a player's award differs from the pots' expected share
B_AWARD_UNEXPECTED = 45  # with rake: an award to a player who wins no pot
B_AWARD_MISSING = 46  # with rake: no award to a player whose share exceeds the rake
B_RECORD_FIELD = 47  # a record the kernel does not read: a rake per pot, rabbit cards, rit_declined (F_RECORD)

#: code -> name (the summary's keys); every ``B_*`` constant above, in code order
BAIL_NAMES: dict[int, str] = dict(
    sorted((v, k[2:].lower()) for k, v in globals().items() if k.startswith("B_") and isinstance(v, int))
)
BAIL_CODES: dict[str, int] = {name: code for code, name in BAIL_NAMES.items()}
assert sorted(BAIL_NAMES) == list(range(1, len(BAIL_NAMES) + 1)), "bail codes must be 1..n, each once"
