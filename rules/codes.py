"""The integer codes the fast path's kernel reads, and the SQL that computes them inside DuckDB.

Why one module: the kernel (``rules.kernel``, numba) and the warehouse reader (``rules.store``,
DuckDB) must agree on every code; the reader computes them in its queries, so no string of a
hand's kinds, streets or flags is hashed in Python. No numba import here: the reader stays light.
"""

from __future__ import annotations

from parsers.model import Kind, Street

# kind codes (parsers.model.Kind order); streets 0..4 (preflop .. showdown)
K_SB, K_BB, K_ANTE, K_BB_ANTE, K_STRADDLE, K_DEAD = 0, 1, 2, 3, 4, 5
K_FOLD, K_CHECK, K_CALL, K_BET, K_RAISE, K_RETURN, K_SHOW, K_MUCK, K_CASH_OUT = 6, 7, 8, 9, 10, 11, 12, 13, 14
S_PREFLOP, S_SHOWDOWN = 0, 4
KIND_NAMES = tuple(k.value for k in Kind)
STREET_NAMES = tuple(s.value for s in Street)
assert KIND_NAMES[K_SB] == "post_sb" and KIND_NAMES[K_CASH_OUT] == "cash_out" and len(KIND_NAMES) == K_CASH_OUT + 1
assert STREET_NAMES[S_PREFLOP] == "preflop" and STREET_NAMES[S_SHOWDOWN] == "showdown"

#: hand flag bits
F_HAS_BUTTON, F_PL, F_FL, F_OMAHA, F_UNSUPPORTED, F_TOURN, F_CASH, F_CANCELLED = 1, 2, 4, 8, 16, 32, 64, 128
F_HAS_RAKE, F_HAS_TOTAL = 256, 512

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
        ("h.variant LIKE '%hilo' OR h.variant IN ('shortdeck', 'holdem_split') OR h.betting = 'CAP'", F_UNSUPPORTED),
        ("h.game_type = 'tournament'", F_TOURN),
        ("h.game_type = 'cash'", F_CASH),
        ("h.cancelled", F_CANCELLED),
        ("h.site_rake IS NOT NULL", F_HAS_RAKE),
        ("h.site_total_pot IS NOT NULL", F_HAS_TOTAL),
    )
)
KIND_SQL = "CASE c.kind {} ELSE -1 END".format(" ".join(f"WHEN '{v}' THEN {j}" for j, v in enumerate(KIND_NAMES)))
STREET_SQL = "CASE c.street {} ELSE -1 END".format(
    " ".join(f"WHEN '{v}' THEN {j}" for j, v in enumerate(STREET_NAMES))
)
