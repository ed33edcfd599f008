# ruff: noqa: PLR1714, PLR1730, SIM102, SIM108, SIM109, SIM110, SIM300
# (numba kernel: plain comparisons and if-blocks, written to mirror rules/replay.py phase by phase)
"""The betting replay and the per-hand checks in numba, over flat arrays of a window of hands.

Why: the Python engine (``rules.replay`` + ``rules.handchecks``) costs ~65 us a hand; almost every
hand has no finding at all. This kernel replays every hand exactly as ``rules.replay.replay`` does
(same state machine, same integer arithmetic) and evaluates every check's *condition*; a hand it
cannot decide exactly (any condition that would produce a finding, or a feature it does not model:
straddles, fixed limit, sit-outs, counter-clockwise seats, run it twice, hi-lo, short deck, odd
card text, ...) is marked with its bail reason (``rules.codes.B_*``) and re-checked by the Python
engine, which builds the findings (messages, citations). So the kernel only ever claims "this hand
has no finding, and these are its action_states"; ``tests/rules/test_kernel_equivalence.py`` holds it
to the Python engine. ``rules.screens`` maps every rule id the Python engine emits to the bail
reasons that screen for it.
"""

from __future__ import annotations

from .numba_cache import use_writable_cache

use_writable_cache(__file__)

import numba  # noqa: E402  (after the cache directory is chosen: numba reads it at import)
import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

from .codes import (  # noqa: E402
    B_ACTION_CARDS,
    B_AWARD_FOLDED,
    B_AWARD_MISMATCH,
    B_AWARD_MISSING,
    B_AWARD_STRANGER,
    B_AWARD_UNEXPECTED,
    B_BB_AMOUNT,
    B_BB_ANTE,
    B_BOARD_CARDS,
    B_CALL_ALLIN_ZERO,
    B_CANCELLED,
    B_CHIPS_IMPLIED,
    B_CHIPS_WRITTEN,
    B_CLOCK,
    B_DUPLICATE_CARD,
    B_DUPLICATE_SEAT,
    B_FINAL_STACK,
    B_FIXED_LIMIT,
    B_HEADSUP_BUTTON,
    B_HEADSUP_DEAD_BUTTON,
    B_HOLE_CARDS,
    B_ILLEGAL_CHECK,
    B_NO_BUTTON,
    B_ORDER,
    B_OVER_STACK,
    B_OVERCALL,
    B_POT_LIMIT,
    B_POT_NO_CONTENDER,
    B_RAISE_MIN,
    B_RAISE_NOT_OPEN,
    B_RECORD_FIELD,
    B_RETURN_AMOUNT,
    B_RING_SIZE,
    B_ROUND_OPEN,
    B_RUN_TWICE,
    B_SB_AMOUNT,
    B_SB_POSITION,
    B_SHORT_OPEN,
    B_SITE_TOTAL,
    B_SITTING_OUT,
    B_STRADDLE,
    B_TIE_RAKE,
    B_TOURNAMENT_RAKE,
    B_TWO_BB,
    B_UNDERCALL,
    B_UNSEATED_ACTOR,
    B_UNSUPPORTED_GAME,
    BAIL_NONE,
    F_CANCELLED,
    F_CASH,
    F_CLOCK,
    F_FL,
    F_HAS_BUTTON,
    F_HAS_RAKE,
    F_HAS_TOTAL,
    F_OMAHA,
    F_PL,
    F_RECORD,
    F_TOURN,
    F_UNSUPPORTED,
    K_ANTE,
    K_BB,
    K_BB_ANTE,
    K_CALL,
    K_CHECK,
    K_DEAD,
    K_FOLD,
    K_MUCK,
    K_RAISE,
    K_RETURN,
    K_SB,
    K_SHOW,
    K_STRADDLE,
    S_PREFLOP,
    S_SHOWDOWN,
)

NONE = -1
MAXC = 10  # card slots per card string (a longer string makes its hand bail)
#: profile parameter columns (rules.columnar.profile_params)
P_R003, P_CUMUL, P_ONLINE, P_BB_ANTE, P_TIE_EXEMPT, P_ODD_ONE = 0, 1, 2, 3, 4, 5
#: R003's all-in raise ratio: an all-in raise counts when raise_to / B >= num / den
P_RAISE_NUM, P_RAISE_DEN = 6, 7
MAX_RING = 64
#: rows of the per-hand int64 work array ``iw`` (each phase of ``_one_hand`` leaves some for the next)
IW_RING_SEAT = 0  # seat row of each ring member
IW_ACTING_SEAT = 1  # seat row of each action's player
IW_CAND = 2  # seat rows of acting players, by seat number
IW_RING_OF = 3  # ring position of each action's player
IW_STACKS, IW_BEHIND, IW_CONTRIB, IW_STREET_BET, IW_DEAD, IW_LEVEL, IW_ACTED = 4, 5, 6, 7, 8, 9, 10
IW_OWNER = 11  # who holds each of the 52 cards (-1: nobody, -2: the board)
IW_ACTUAL, IW_LIVE, IW_EXPECTED, IW_CAPS, IW_POT_AMT, IW_HAND_N, IW_BOARD, IW_RANKS = 12, 13, 14, 15, 16, 17, 18, 19
IW_EV = 20  # three rows of best_high's scratch
IW_POS_OF = 23  # ring position of each seat row (index from the hand's first seat row), -1: none
IW_STRENGTH = 24  # each player's best hand on this board, scored once for every pot (-2: not yet)
IW_ROWS = 25
#: rows of the per-hand bool work array ``bw``
BW_FOLDED, BW_ALLIN, BW_OUT, BW_ELIGIBLE, BW_HAVE, BW_USED = 0, 1, 2, 3, 4, 5
BW_ROWS = 8
#: rows of the two output matrices, one column per kept decision (``rules.columnar.run_window`` reads
#: them as the action_states columns)
O_ROW, O_HIX, O_STREET, O_RING, O_N, O_SEAT, O_FACING, O_POT, O_F = 0, 1, 2, 3, 4, 5, 6, 7, 8
O_RAISE_TO, O_TO_CALL, O_B, O_MIN, O_MAX, O_PTA, O_STACK, O_MINE = 9, 10, 11, 12, 13, 14, 15, 16
O_INT_ROWS = 17
O_CAN_RAISE, O_REOPENED, O_ALLIN = 0, 1, 2
O_BOOL_ROWS = 3


@njit(cache=True, nogil=True)
def _parse_cards(data: np.ndarray, offs: np.ndarray, valid: np.ndarray, out: np.ndarray, count: np.ndarray,
                 bad: np.ndarray) -> None:
    """``rules.cards.card_ids`` over an Arrow string column: ids (-1: unknown card) per row.

    Non-ASCII bytes or more than MAXC cards mark the row ``bad`` (its hand goes to Python).
    """
    longest = 0
    for r in range(offs.shape[0] - 1):
        longest = max(longest, offs[r + 1] - offs[r])
    buf = np.empty(longest, np.uint8)  # one scratch buffer for every row (no allocation per row)
    for r in range(offs.shape[0] - 1):
        count[r] = 0
        if not valid[r]:
            continue
        lo = offs[r]
        hi = offs[r + 1]
        m = 0
        for p in range(lo, hi):
            b = data[p]
            if b >= 128:
                bad[r] = True
            if b != 32:
                buf[m] = b
                m += 1
        i = 0
        k = 0
        while i < m:
            step = 3 if (i + 1 < m and buf[i] == 49 and buf[i + 1] == 48) else 2
            cid = -1
            if step == 3:
                if i + 2 < m:
                    s = _suit(buf[i + 2])
                    if s >= 0:
                        cid = 8 * 4 + s
            elif i + 1 < m:
                rk = _rank(buf[i])
                s = _suit(buf[i + 1])
                if rk >= 0 and s >= 0:
                    cid = rk * 4 + s
            if k >= MAXC:
                bad[r] = True
                break
            out[r, k] = cid
            k += 1
            i += step
        count[r] = k


@njit(cache=True, inline="always")
def _rank(b: int) -> int:
    if 50 <= b <= 57:  # '2'..'9'
        return b - 50
    if b == 84 or b == 116:  # T t
        return 8
    if b == 74 or b == 106:  # J j
        return 9
    if b == 81 or b == 113:  # Q q
        return 10
    if b == 75 or b == 107:  # K k
        return 11
    if b == 65 or b == 97:  # A a
        return 12
    return -1


@njit(cache=True, inline="always")
def _suit(b: int) -> int:
    if b == 99:
        return 0
    if b == 100:
        return 1
    if b == 104:
        return 2
    if b == 115:
        return 3
    return -1


@njit(cache=True)
def eval5(c: np.ndarray, cnt: np.ndarray) -> int:
    """Strength of five distinct cards, higher is better (same order as phevaluator's ranks);
    ``cnt``: 13 slots of scratch."""
    cnt[:13] = 0
    flush = True
    s0 = c[0] % 4
    for j in range(5):
        cnt[c[j] // 4] += 1
        if c[j] % 4 != s0:
            flush = False
    distinct = 0
    top = -1
    low = 99
    for r in range(13):
        if cnt[r]:
            distinct += 1
            top = r
            if r < low:
                low = r
    straight = -1
    if distinct == 5:
        if top - low == 4:
            straight = top
        elif cnt[12] and cnt[0] and cnt[1] and cnt[2] and cnt[3]:
            straight = 3
    base = 371293  # 13 ** 5
    if straight >= 0:
        return (8 if flush else 4) * base + straight
    # kickers by (count desc, rank desc)
    key = 0
    maxc = 0
    pairs = 0
    for want in range(4, 0, -1):
        for r in range(12, -1, -1):
            if cnt[r] == want:
                for _ in range(want):
                    key = key * 13 + r
                if want > maxc:
                    maxc = want
                if want == 2:
                    pairs += 1
    if maxc == 4:
        cat = 7
    elif maxc == 3 and pairs:
        cat = 6
    elif flush:
        cat = 5
    elif maxc == 3:
        cat = 3
    elif pairs == 2:
        cat = 2
    elif pairs == 1:
        cat = 1
    else:
        cat = 0
    return cat * base + key


@njit(cache=True, inline="always")
def _top_ranks(mask: int, k: int, key: int) -> int:
    """``key`` extended (base 13) by the ``k`` highest ranks set in the 13-bit ``mask``."""
    r = 12
    while k > 0 and r >= 0:
        if mask >> r & 1:
            key = key * 13 + r
            k -= 1
        r -= 1
    return key


@njit(cache=True, inline="always")
def _straight_top(mask: int) -> int:
    """Top rank of the highest five-rank run in ``mask`` (the wheel counts A as low), -1: none."""
    for top in range(12, 3, -1):
        if (mask >> (top - 4)) & 31 == 31:
            return top
    if mask & 0x100F == 0x100F:  # A 2 3 4 5
        return 3
    return -1


@njit(cache=True)
def best_any5(c: np.ndarray, m: int, cnt: np.ndarray) -> int:
    """The best ``eval5`` score over every five of the ``m`` cards, computed directly from rank counts
    and suit masks (no 21 five-card evaluations for seven cards); -1 when the cards are not all
    distinct (the caller then enumerates, so a malformed hand is scored exactly as before).
    ``cnt``: at least 21 slots of scratch."""
    if m < 5:
        return -1
    for r in range(21):
        cnt[r] = 0  # 0..12 rank counts, 13..16 per-suit rank masks, 17..20 per-suit counts
    seen = 0
    for j in range(m):
        x = c[j]
        bit = 1 << x
        if seen & bit:
            return -1
        seen |= bit
        cnt[x // 4] += 1
        cnt[13 + x % 4] |= 1 << (x // 4)
        cnt[17 + x % 4] += 1
    base = 371293  # 13 ** 5
    best = -1
    for su in range(13, 17):
        if cnt[su + 4] >= 5:
            sm = cnt[su]
            st = _straight_top(sm)
            v = 8 * base + st if st >= 0 else 5 * base + _top_ranks(sm, 5, 0)
            if v > best:
                best = v
    if best >= 8 * base:
        return best
    quad = trip = trip2 = pair = pair2 = -1
    mask = 0
    for r in range(12, -1, -1):
        k = cnt[r]
        if k:
            mask |= 1 << r
        if k == 4 and quad < 0:
            quad = r
        elif k == 3:
            if trip < 0:
                trip = r
            elif trip2 < 0:
                trip2 = r
        elif k == 2:
            if pair < 0:
                pair = r
            elif pair2 < 0:
                pair2 = r
    if quad >= 0:
        v = 7 * base + _top_ranks(mask & ~(1 << quad), 1, ((quad * 13 + quad) * 13 + quad) * 13 + quad)
    elif trip >= 0 and (trip2 >= 0 or pair >= 0):
        p = trip2 if trip2 > pair else pair
        v = 6 * base + (((trip * 13 + trip) * 13 + trip) * 13 + p) * 13 + p
    elif best >= 0:
        return best  # a flush beats everything below a full house
    else:
        st = _straight_top(mask)
        if st >= 0:
            v = 4 * base + st
        elif trip >= 0:
            v = 3 * base + _top_ranks(mask & ~(1 << trip), 2, (trip * 13 + trip) * 13 + trip)
        elif pair2 >= 0:
            key = ((pair * 13 + pair) * 13 + pair2) * 13 + pair2
            v = 2 * base + _top_ranks(mask & ~(1 << pair) & ~(1 << pair2), 1, key)
        elif pair >= 0:
            v = 1 * base + _top_ranks(mask & ~(1 << pair), 3, pair * 13 + pair)
        else:
            v = _top_ranks(mask, 5, 0)
    return v if v > best else best


@njit(cache=True)
def best_high(hole: np.ndarray, nh: int, board: np.ndarray, nb: int, omaha: bool,
              scratch: np.ndarray | None = None) -> int:
    """``rules.cards.best_high`` (as a higher-is-better score): holdem any five, Omaha two + three.
    ``scratch``: a (3, >= 32) int64 work array (allocated here when not given)."""
    if scratch is None:
        scratch = np.empty((3, 32), np.int64)
    five = scratch[0]
    cnt = scratch[1]
    best = -1
    if omaha:
        for a in range(nh):
            for b in range(a + 1, nh):
                for x in range(nb):
                    for y in range(x + 1, nb):
                        for z in range(y + 1, nb):
                            five[0] = hole[a]
                            five[1] = hole[b]
                            five[2] = board[x]
                            five[3] = board[y]
                            five[4] = board[z]
                            v = eval5(five, cnt)
                            if v > best:
                                best = v
        return best
    allc = scratch[2]
    for a in range(nh):
        allc[a] = hole[a]
    for a in range(nb):
        allc[nh + a] = board[a]
    m = nh + nb
    v = best_any5(allc, m, cnt)
    if v >= 0:
        return v
    for a in range(m):
        for b in range(a + 1, m):
            for x in range(b + 1, m):
                for y in range(x + 1, m):
                    for z in range(y + 1, m):
                        five[0] = allc[a]
                        five[1] = allc[b]
                        five[2] = allc[x]
                        five[3] = allc[y]
                        five[4] = allc[z]
                        v = eval5(five, cnt)
                        if v > best:
                            best = v
    return best


@njit(cache=True, inline="always")
def _next_to_act(after: int, n: int, B: int, call_basis: int, iw: np.ndarray, bw: np.ndarray) -> int:
    """The ring index of the next player due after ``after`` (-1: nobody): not folded, not all in,
    and not yet matched at this level; a lone player left to match nobody has no decision."""
    target = B if call_basis < B else call_basis
    live_free = 0
    for q in range(n):
        if not bw[BW_FOLDED, q] and not bw[BW_ALLIN, q]:
            live_free += 1
    for k in range(1, n + 1):
        q = (after + k) % n
        if not bw[BW_FOLDED, q] and not bw[BW_ALLIN, q] and (iw[IW_LEVEL, q] == NONE or iw[IW_STREET_BET, q] < target):
            if live_free == 1 and iw[IW_STREET_BET, q] >= target and iw[IW_LEVEL, q] == NONE:
                others_live = 0
                all_allin = True
                for r in range(n):
                    if r != q and not bw[BW_FOLDED, r]:
                        others_live += 1
                        if not bw[BW_ALLIN, r]:
                            all_allin = False
                if others_live and all_allin:
                    return -1
            return q
    return -1


@njit(cache=True)
def _gcd(a: int, b: int) -> int:
    a = abs(a)
    b = abs(b)
    while b:
        a, b = b, a % b
    return a


@njit(cache=True, nogil=True)
def check_window(
    a_off: np.ndarray, s_off: np.ndarray, h_off: np.ndarray, b_off: np.ndarray, w_off: np.ndarray,
    flags: np.ndarray, button: np.ndarray, sb_lvl: np.ndarray, bb_lvl: np.ndarray, site_rake: np.ndarray,
    site_fees: np.ndarray, site_total: np.ndarray, site_added: np.ndarray, prof_of: np.ndarray, params: np.ndarray,
    max_rake_pct: int,
    a_seq: np.ndarray, a_street: np.ndarray, a_player: np.ndarray, a_kind: np.ndarray, a_amount: np.ndarray,
    a_allin: np.ndarray, a_contrib: np.ndarray, a_text: np.ndarray, a_cards: np.ndarray, a_ncards: np.ndarray,
    a_bad: np.ndarray,
    s_no: np.ndarray, s_player: np.ndarray, s_stack: np.ndarray, s_out: np.ndarray, s_final: np.ndarray,
    s_has_final: np.ndarray,
    h_player: np.ndarray, h_cards: np.ndarray, h_ncards: np.ndarray, h_bad: np.ndarray,
    b_cards: np.ndarray, b_ncards: np.ndarray, b_bad: np.ndarray,
    w_player: np.ndarray, w_amount: np.ndarray,
    # outputs: the state columns of the kept decisions, compacted (column ``k`` of row ``O_*``: action
    # row ``o_int[O_ROW, k]`` of hand ``o_int[O_HIX, k]``; ``o_w[0]`` columns written); per hand, bail
    o_int: np.ndarray, o_bool: np.ndarray, o_w: np.ndarray, bail: np.ndarray,
) -> None:
    """Replay and check every hand of the window; ``bail[h]`` marks the hands Python must check with
    the reason (``rules.codes.B_*``; 0: the kernel decided the hand)."""
    width = MAX_RING + 2
    for h in range(a_off.shape[0] - 1):
        width = max(width, a_off[h + 1] - a_off[h], s_off[h + 1] - s_off[h])
    iw = np.empty((IW_ROWS, max(width, 64)), np.int64)  # per-hand work rows (IW_*), allocated once per window
    bw = np.empty((BW_ROWS, max(width, 64)), np.bool_)
    pot_el = np.empty((MAX_RING + 2, MAX_RING), np.bool_)
    hand_cards = np.empty((MAX_RING, MAXC), np.int64)
    ins = (
        a_off, s_off, h_off, b_off, w_off, flags, button, sb_lvl, bb_lvl, site_rake, site_fees, site_total,
        site_added, prof_of, params, a_seq, a_street, a_player, a_kind, a_amount, a_allin, a_contrib, a_text,
        a_cards, a_ncards, a_bad, s_no, s_player, s_stack, s_out, s_final, s_has_final, h_player, h_cards,
        h_ncards, h_bad, b_cards, b_ncards, b_bad, w_player, w_amount,
    )
    o_w[0] = 0
    for h in range(a_off.shape[0] - 1):
        start = o_w[0]
        bail[h] = _one_hand(iw, bw, pot_el, hand_cards, h, max_rake_pct, ins, o_int, o_bool, o_w)
        if bail[h]:
            o_w[0] = start  # a marked hand's state columns are dropped (Python writes its states)


@njit(cache=True, inline="always")
def _flag_reason(fl: int) -> int:
    """The bail reason of a hand the kernel does not model at all (by its flag bits)."""
    if fl & F_UNSUPPORTED:
        return B_UNSUPPORTED_GAME
    if fl & F_FL:
        return B_FIXED_LIMIT
    if fl & F_CANCELLED:
        return B_CANCELLED
    if fl & F_CLOCK:
        return B_CLOCK
    if fl & F_RECORD:
        return B_RECORD_FIELD
    return B_NO_BUTTON


@njit(cache=True, nogil=True, inline="always")
def _one_hand(
    iw: np.ndarray, bw: np.ndarray, pot_el: np.ndarray, hand_cards: np.ndarray, h: int, max_rake_pct: int,
    ins: tuple, o_int: np.ndarray, o_bool: np.ndarray, o_w: np.ndarray,  # type: ignore[type-arg]
) -> int:
    """One hand (``check_window``'s loop body): replay and check it; a nonzero bail reason
    (``rules.codes.B_*``) marks it for Python, 0 (``BAIL_NONE``): the kernel decided it.

    The phases run in the order this kernel always bailed in (the blinds' amounts before the betting,
    unlike Python, which replays first and checks the forced bets after: only the bail reason can
    differ, and a bailed hand is wholly Python's). The window's input arrays come as one tuple, the
    outputs as two matrices and a counter, and this function is inlined by numba: a call passing
    ~65 arrays cost ~0.45 us a hand (every array's fields passed one by one; 2.04 -> 1.57 us). The
    betting phase is inlined down to each decision's helpers; the other phases run once a hand and
    are ordinary calls, each compiled on its own: inlined too they saved ~5% of the kernel's time
    (200k hands: 0.48 -> 0.45 s) and cost 13 s more of cold compile (47 -> 60 s)."""
    (
        a_off, s_off, h_off, b_off, w_off, flags, button, sb_lvl, bb_lvl, site_rake, site_fees, site_total,
        site_added, prof_of, params, a_seq, a_street, a_player, a_kind, _a_amount, a_allin, a_contrib, a_text,
        a_cards, a_ncards, a_bad, s_no, s_player, s_stack, s_out, s_final, s_has_final, h_player, h_cards,
        h_ncards, h_bad, b_cards, b_ncards, b_bad, w_player, w_amount,
    ) = ins
    fl = flags[h]
    if fl & (F_UNSUPPORTED | F_FL | F_CANCELLED | F_CLOCK | F_RECORD) or not fl & F_HAS_BUTTON:
        return _flag_reason(fl)
    a0, a1 = a_off[h], a_off[h + 1]
    s0, s1 = s_off[h], s_off[h + 1]
    w0, w1 = w_off[h], w_off[h + 1]
    ho0, ho1 = h_off[h], h_off[h + 1]
    bo0, bo1 = b_off[h], b_off[h + 1]
    prm = params[prof_of[h]]
    bail, n = _ring(iw, bw, a0, a1, s0, s1, button[h], a_player, a_bad, s_no, s_player, s_out)
    if bail:
        return bail
    _seat_stacks(iw, bw, n, s_stack)
    bail, bb, last_post_seq = _blinds(a0, a1, sb_lvl[h], bb_lvl[h], prm[P_BB_ANTE] != 0, a_seq, a_kind, a_contrib)
    if bail:
        return bail
    bail, sb_player = _betting(iw, bw, h, n, a0, a1, bb, last_post_seq, (fl & F_PL) != 0, prm, site_added[h],
                               a_seq, a_street, a_kind, a_contrib, a_allin, o_int, o_bool, o_w)
    if bail:
        return bail
    bail, total_in = _total_in(iw, n)
    if bail:
        return bail
    if n == 2 and sb_player >= 0 and sb_player != 1:
        return B_HEADSUP_BUTTON  # heads-up the button posts the small blind
    bail, rake = _chips(fl, total_in + site_added[h], site_rake[h], site_fees[h], site_total[h], max_rake_pct,
                        w0, w1, w_amount)
    if bail:
        return bail
    if _final_stack_differs(iw, n, s0, s1, w0, w1, s_stack, s_player, s_final, s_has_final, w_player, w_amount):
        return B_FINAL_STACK
    if prm[P_TIE_EXEMPT] and fl & F_HAS_RAKE and site_rake[h] != 0:
        return B_TIE_RAKE
    bail = _deck(iw, a0, a1, ho0, ho1, bo0, bo1, a_kind, a_player, a_cards, a_ncards, h_player, h_cards, h_ncards,
                 h_bad, b_cards, b_ncards, b_bad)
    if bail or w1 == w0:
        return bail
    # ---- pots and showdown (rules.pots.check_pots) ----
    bail = _actual_awards(iw, n, w0, w1, w_player, w_amount, s_player)
    if bail:
        return bail
    bail = _out_of_showdown(iw, bw, n, a0, a1, a_kind, a_text)
    if bail:
        return bail
    dead_sum = _live_and_dead(iw, n, site_added[h])
    unit = 1 if prm[P_ODD_ONE] else _chip_unit(s0, s1, a0, a1, s_stack, a_contrib)
    npots = _dead_money_pot(iw, bw, pot_el, n, _level_pots(iw, bw, pot_el, n, _live_levels(iw, bw, n)), dead_sum)
    bail, decidable = _expected_awards(iw, bw, pot_el, hand_cards, n, npots, unit, (fl & F_OMAHA) != 0, a0, a1,
                                       ho0, ho1, bo0, bo1, a_kind, a_player, a_cards, a_ncards, h_player, h_cards,
                                       h_ncards, b_cards, b_ncards, s_player)
    if bail or not decidable:
        return bail
    fees = site_fees[h]
    return _awards_match(iw, bw, n, (rake if rake > 0 else 0) + fees)


# --- the ring ---------------------------------------------------------------------------------------


@njit(cache=True)
def _ring(iw: np.ndarray, bw: np.ndarray, a0: int, a1: int, s0: int, s1: int, btn: int, a_player: np.ndarray,
          a_bad: np.ndarray, s_no: np.ndarray, s_player: np.ndarray, s_out: np.ndarray) -> tuple[int, int]:
    """The ring: seated players who act, by seat number from the seat after the button; (bail, n).
    Leaves ``IW_RING_SEAT``, ``IW_POS_OF`` and ``IW_RING_OF``."""
    for s in range(s0, s1):
        if s_out[s]:
            return B_SITTING_OUT, 0  # sitting-out seats: Python (ring_positions, sat_out)
        for t in range(s0, s):
            if s_player[t] == s_player[s] or s_no[t] == s_no[s]:
                return B_DUPLICATE_SEAT, 0
    bail = _acting_seats(iw, bw, a0, a1, s0, s1, a_player, a_bad, s_player)
    if bail:
        return bail, 0
    nc = _seats_in_order(iw, bw, s0, s1, s_no)
    if nc == 0 or nc > MAX_RING:
        return B_RING_SIZE, 0
    n = _from_button(iw, nc, btn, s_no)
    if n == 2 and not _button_in_ring(iw, n, btn, s_no):
        return B_HEADSUP_DEAD_BUTTON, 0  # dead button heads-up (the button seat is not a ring player): Python
    pos_of = iw[IW_POS_OF, : s1 - s0]
    pos_of[:] = -1
    ring_seat = iw[IW_RING_SEAT]
    for k in range(n):
        pos_of[ring_seat[k] - s0] = k
    ring_of, acting_seat = iw[IW_RING_OF], iw[IW_ACTING_SEAT]
    for r in range(a1 - a0):
        ring_of[r] = pos_of[acting_seat[r] - s0]
    return BAIL_NONE, n


@njit(cache=True)
def _acting_seats(iw: np.ndarray, bw: np.ndarray, a0: int, a1: int, s0: int, s1: int, a_player: np.ndarray,
                  a_bad: np.ndarray, s_player: np.ndarray) -> int:
    """Each action's seat row (``IW_ACTING_SEAT``) and which seats act (``BW_USED``); the bail."""
    acting_seat = iw[IW_ACTING_SEAT]
    used = bw[BW_USED, : s1 - s0]
    used[:] = False
    for r in range(a0, a1):
        if a_bad[r]:
            return B_ACTION_CARDS
        found = -1
        for s in range(s0, s1):
            if s_player[s] == a_player[r]:
                found = s
                break
        if found < 0:
            return B_UNSEATED_ACTOR  # a player with no seat
        acting_seat[r - a0] = found
        used[found - s0] = True
    return BAIL_NONE


@njit(cache=True)
def _seats_in_order(iw: np.ndarray, bw: np.ndarray, s0: int, s1: int, s_no: np.ndarray) -> int:
    """The seat rows of acting players ordered by seat number (``IW_CAND``); how many."""
    cand = iw[IW_CAND]
    used = bw[BW_USED]
    nc = 0
    for s in range(s0, s1):
        if used[s - s0]:
            cand[nc] = s
            nc += 1
    for k in range(1, nc):  # insertion sort by seat number (seat numbers are distinct here)
        x = cand[k]
        j = k - 1
        while j >= 0 and s_no[cand[j]] > s_no[x]:
            cand[j + 1] = cand[j]
            j -= 1
        cand[j + 1] = x
    return nc


@njit(cache=True)
def _from_button(iw: np.ndarray, nc: int, btn: int, s_no: np.ndarray) -> int:
    """``IW_RING_SEAT``: the ordered seats rotated to start after the button; the ring's size."""
    cand = iw[IW_CAND]
    ring_seat = iw[IW_RING_SEAT]
    nring = 0
    for k in range(nc):
        if s_no[cand[k]] > btn:
            ring_seat[nring] = cand[k]
            nring += 1
    for k in range(nc):
        if s_no[cand[k]] <= btn:
            ring_seat[nring] = cand[k]
            nring += 1
    return nring


@njit(cache=True)
def _button_in_ring(iw: np.ndarray, n: int, btn: int, s_no: np.ndarray) -> bool:
    ring_seat = iw[IW_RING_SEAT]
    for k in range(n):
        if s_no[ring_seat[k]] == btn:
            return True
    return False


@njit(cache=True)
def _seat_stacks(iw: np.ndarray, bw: np.ndarray, n: int, s_stack: np.ndarray) -> None:
    """Every ring player's stack, nothing in, no level, neither folded nor all in."""
    ring_seat = iw[IW_RING_SEAT]
    for k in range(n):
        iw[IW_STACKS, k] = s_stack[ring_seat[k]]
        iw[IW_BEHIND, k] = s_stack[ring_seat[k]]
        iw[IW_CONTRIB, k] = 0
        iw[IW_STREET_BET, k] = 0
        iw[IW_DEAD, k] = 0
        iw[IW_LEVEL, k] = NONE
        iw[IW_ACTED, k] = 0
        bw[BW_FOLDED, k] = False
        bw[BW_ALLIN, k] = False


# --- the blinds and the betting ---------------------------------------------------------------------
# The per-action helpers are inlined and take the work arrays (``iw``, ``bw``) and the two output
# matrices, never row views or one array per column: numba inlines a helper by assigning its
# arguments, and every array assigned costs a reference-count increment and decrement. Split with a
# view per row and 21 output arrays, the kernel ran 0.44 -> 0.76 s on 200k hands; like this, 0.45 s.


@njit(cache=True)
def _blinds(a0: int, a1: int, sb: int, bb: int, bb_ante_book: bool, a_seq: np.ndarray, a_kind: np.ndarray,
            a_contrib: np.ndarray) -> tuple[int, int, int]:
    """The forced bets' conditions before the replay: (bail, the big blind, seq of the last live post)."""
    n_bb = 0
    max_bb = 0
    last_post_seq = -1
    for r in range(a0, a1):
        kd = a_kind[r]
        if kd == K_STRADDLE:
            return B_STRADDLE, 0, 0
        if kd == K_BB:
            n_bb += 1
            if n_bb == 1 or a_contrib[r] > max_bb:
                max_bb = a_contrib[r]
            if bb and a_contrib[r] != bb:
                return B_BB_AMOUNT, 0, 0  # BLIND.POSTING unless short: Python decides
        elif kd == K_SB:
            if sb and a_contrib[r] != sb:
                return B_SB_AMOUNT, 0, 0
        elif kd == K_BB_ANTE and bb_ante_book:
            return B_BB_ANTE, 0, 0
        if kd == K_SB or kd == K_BB:
            if a_seq[r] > last_post_seq:
                last_post_seq = a_seq[r]
    if n_bb > 1:
        return B_TWO_BB, 0, 0
    if not bb:
        bb = max_bb if n_bb else 0
    return BAIL_NONE, bb, last_post_seq


@njit(cache=True, inline="always")
def _betting(
    iw: np.ndarray, bw: np.ndarray, h: int, n: int, a0: int, a1: int, bb: int, last_post_seq: int,
    pot_limit: bool, prm: np.ndarray, added: int, a_seq: np.ndarray, a_street: np.ndarray, a_kind: np.ndarray,
    a_contrib: np.ndarray, a_allin: np.ndarray, o_int: np.ndarray, o_bool: np.ndarray, o_w: np.ndarray,
) -> tuple[int, int]:
    """``rules.replay.replay``'s state machine over the hand's actions: posts, returns and decisions,
    each decision's state row written to the outputs; (bail, ring index of the small blind)."""
    r003, cumulative, online = prm[P_R003] != 0, prm[P_CUMUL] != 0, prm[P_ONLINE] != 0
    street = S_PREFLOP
    B = 0
    call_basis = 0
    F = bb
    reopen_ctr = 0
    last_aggr = -1
    pot = added
    expected = -2
    bb_player = -1
    sb_player = -1
    straddle_anchor = -1
    for r in range(a0, a1):
        a_st = a_street[r]
        kind = a_kind[r]
        c = a_contrib[r]
        i = iw[IW_RING_OF, r - a0]
        if a_st != street and a_st != S_SHOWDOWN and not (kind == K_ANTE or kind == K_BB_ANTE or kind == K_DEAD):
            if expected >= 0:
                return B_ROUND_OPEN, sb_player  # a round closed with someone due (or an online disconnect): Python
            street = a_st
            for q in range(n):
                iw[IW_STREET_BET, q] = 0
                iw[IW_LEVEL, q] = NONE
                iw[IW_ACTED, q] = 0
            B = 0
            call_basis = 0
            reopen_ctr = 0
            last_aggr = -1
            F = bb
            expected = _next_to_act(n - 1, n, B, call_basis, iw, bw)
        if kind == K_SB or kind == K_BB:
            bail, B, bb_player, sb_player, straddle_anchor = _post_blind(
                iw, bw, i, n, kind, c, bb, B, bb_player, sb_player, straddle_anchor)
            if bail:
                return bail, sb_player
            pot += c
            expected = -2
        elif kind == K_ANTE or kind == K_BB_ANTE or kind == K_DEAD:
            _post_dead(iw, bw, i, kind, c)
            pot += c
        elif kind == K_RETURN:
            if _wrong_return(iw, n, i, c) and a_st != S_SHOWDOWN:
                return B_RETURN_AMOUNT, sb_player
            _take_back(iw, bw, i, c)
            pot += c
        elif kind >= K_FOLD and kind <= K_RAISE:
            if expected == -2:
                expected = _first_due(street, n, B, call_basis, straddle_anchor, sb_player, iw, bw)
            if a_seq[r] < last_post_seq or expected != i:
                return B_ORDER, sb_player  # sit-out folds, out-of-turn actions, disconnects: Python
            bail, B, F, reopen_ctr, last_aggr, pot = _decision(
                iw, bw, o_int, o_bool, o_w, h, r, i, n, kind, c, online and a_allin[r], street, bb, B, F,
                call_basis, reopen_ctr, last_aggr, pot, pot_limit, r003, cumulative, prm[P_RAISE_NUM],
                prm[P_RAISE_DEN])
            if bail:
                return bail, sb_player
            due_next = a_seq[r] > last_post_seq  # a decision among the posts leaves the order to the posts
            expected = _next_to_act(i, n, B, call_basis, iw, bw) if due_next else -2
    return BAIL_NONE, sb_player


@njit(cache=True, inline="always")
def _pay(iw: np.ndarray, bw: np.ndarray, i: int, c: int) -> None:
    """Live chips from the player's stack into the street's bet; an empty stack is all in."""
    iw[IW_BEHIND, i] -= c
    iw[IW_CONTRIB, i] += c
    iw[IW_STREET_BET, i] += c
    if iw[IW_BEHIND, i] <= 0:
        bw[BW_ALLIN, i] = True


@njit(cache=True, inline="always")
def _post_blind(
    iw: np.ndarray, bw: np.ndarray, i: int, n: int, kind: int, c: int, bb: int, B: int, bb_player: int,
    sb_player: int, straddle_anchor: int,
) -> tuple[int, int, int, int, int]:
    """A small or big blind: live money that sets the bet; (bail, B, bb_player, sb_player, straddle_anchor)."""
    _pay(iw, bw, i, c)
    bet = iw[IW_STREET_BET, i]
    if kind == K_BB:
        if bb_player < 0:
            bb_player = i
            straddle_anchor = i
        m = bet if bet > bb else bb
        B = B if B > m else m
    else:
        if sb_player < 0:
            if i and n > 2:
                return B_SB_POSITION, B, bb_player, sb_player, straddle_anchor  # maybe counter-clockwise: Python
            sb_player = i
        B = B if B > bet else bet
    return BAIL_NONE, B, bb_player, sb_player, straddle_anchor


@njit(cache=True, inline="always")
def _post_dead(iw: np.ndarray, bw: np.ndarray, i: int, kind: int, c: int) -> None:
    """An ante, big-blind ante or dead blind: in the pot, not in the street's bet (only an ante is live)."""
    iw[IW_BEHIND, i] -= c
    iw[IW_CONTRIB, i] += c
    if kind != K_ANTE:
        iw[IW_DEAD, i] += c
    if iw[IW_BEHIND, i] <= 0:
        bw[BW_ALLIN, i] = True


@njit(cache=True, inline="always")
def _wrong_return(iw: np.ndarray, n: int, i: int, c: int) -> bool:
    """An uncalled bet returned (``c`` < 0) that is not the excess of the top bet over the second."""
    top = -(1 << 62)
    second = -(1 << 62)
    for q in range(n):
        v = iw[IW_STREET_BET, q]
        if v > top:
            second = top
            top = v
        elif v > second:
            second = v
    excess = top - (second if n > 1 else 0) if iw[IW_STREET_BET, i] == top else 0
    return -c != excess


@njit(cache=True, inline="always")
def _take_back(iw: np.ndarray, bw: np.ndarray, i: int, c: int) -> None:
    """The returned chips go back behind; a player with chips again is no longer all in."""
    iw[IW_BEHIND, i] -= c
    iw[IW_CONTRIB, i] += c
    iw[IW_STREET_BET, i] += c
    if iw[IW_BEHIND, i] > 0:
        bw[BW_ALLIN, i] = False


@njit(cache=True, inline="always")
def _first_due(street: int, n: int, B: int, call_basis: int, straddle_anchor: int, sb_player: int,
               iw: np.ndarray, bw: np.ndarray) -> int:
    """Who acts first once the posts are in: preflop after the big blind (the small blind's seat
    starts the search when one was posted), after the flop the first live player after the button."""
    if street == S_PREFLOP:
        start = straddle_anchor if straddle_anchor >= 0 else (1 if n > 2 else 0)
        if straddle_anchor < 0 and sb_player >= 0 and n > 2:
            start = sb_player
        return _next_to_act(start, n, B, call_basis, iw, bw)
    return _next_to_act(n - 1, n, B, call_basis, iw, bw)


@njit(cache=True, inline="always")
def _decision(
    iw: np.ndarray, bw: np.ndarray, o_int: np.ndarray, o_bool: np.ndarray, o_w: np.ndarray, h: int, r: int, i: int,
    n: int, kind: int, c: int, online_allin: bool, street: int, bb: int, B: int, F: int, call_basis: int,
    reopen_ctr: int, last_aggr: int, pot: int, pot_limit: bool, r003: bool, cumulative: bool, raise_num: int,
    raise_den: int,
) -> tuple[int, int, int, int, int, int]:
    """One player's decision in turn: its state, its legality, its chips; (bail, B, F, reopen_ctr,
    last_aggr, pot). The state row is written at the outputs' next row (kept unless the hand bails)."""
    mine = iw[IW_STREET_BET, i]
    stack_before = iw[IW_BEHIND, i]
    target = B if call_basis < B else call_basis
    owed = target - mine if target > mine else 0
    to_call = owed if owed < stack_before else stack_before
    reopened = _reopened(iw[IW_LEVEL, i], iw[IW_ACTED, i], B, F, reopen_ctr, cumulative, r003)
    players_to_act, others_free = _still_to_act(iw, bw, i, n, target)
    can_raise = reopened and stack_before > to_call and others_free
    min_to, max_to = _raise_limits(r003, pot_limit, target, bb, B, F, mine, stack_before, pot, owed)
    facing = iw[IW_RING_SEAT, last_aggr] if last_aggr >= 0 else -1
    pot_before, F_before = pot, F
    raise_to = -1
    if kind == K_FOLD:
        bw[BW_FOLDED, i] = True
    elif kind == K_CHECK or kind == K_CALL:
        bail = _passive_bail(kind, c, online_allin, owed, to_call, stack_before)
        if bail:
            return bail, B, F, reopen_ctr, last_aggr, pot
    else:
        raise_to = mine + c
        bail, F, reopen_ctr = _raise(raise_to, c >= stack_before, reopened, min_to, max_to, pot_limit, r003, bb, B,
                                     F, reopen_ctr, raise_num, raise_den)
        if bail:
            return bail, B, F, reopen_ctr, last_aggr, pot
        B = raise_to
        last_aggr = i
    if c:
        iw[IW_BEHIND, i] -= c
        iw[IW_CONTRIB, i] += c
        iw[IW_STREET_BET, i] += c
        pot += c
    if iw[IW_BEHIND, i] <= 0 and kind != K_FOLD and kind != K_CHECK:
        bw[BW_ALLIN, i] = True
    iw[IW_LEVEL, i] = B
    iw[IW_ACTED, i] = reopen_ctr
    _write_state(o_int, o_bool, o_w, h, r, street, i, n, iw[IW_RING_SEAT, i], facing, pot_before, F_before,
                 raise_to, to_call, target, min_to, max_to, players_to_act, stack_before, mine, can_raise, reopened,
                 bw[BW_ALLIN, i])
    return BAIL_NONE, B, F, reopen_ctr, last_aggr, pot


@njit(cache=True, inline="always")
def _write_state(
    o_int: np.ndarray, o_bool: np.ndarray, o_w: np.ndarray, h: int, r: int, street: int, i: int, n: int, seat: int,
    facing: int, pot: int, F: int, raise_to: int, to_call: int, target: int, min_to: int, max_to: int,
    players_to_act: int, stack_before: int, mine: int, can_raise: bool, reopened: bool, allin: bool,
) -> None:
    """One decision's ``action_states`` columns at the outputs' next column."""
    w = o_w[0]
    o_int[O_ROW, w] = r
    o_int[O_HIX, w] = h
    o_int[O_STREET, w] = street
    o_int[O_RING, w] = i
    o_int[O_N, w] = n
    o_int[O_SEAT, w] = seat
    o_int[O_FACING, w] = facing
    o_int[O_POT, w] = pot
    o_int[O_F, w] = F
    o_int[O_RAISE_TO, w] = raise_to
    o_int[O_TO_CALL, w] = to_call
    o_int[O_B, w] = target
    o_int[O_MIN, w] = min_to
    o_int[O_MAX, w] = max_to
    o_int[O_PTA, w] = players_to_act
    o_int[O_STACK, w] = stack_before
    o_int[O_MINE, w] = mine
    o_bool[O_CAN_RAISE, w] = can_raise
    o_bool[O_REOPENED, w] = reopened
    o_bool[O_ALLIN, w] = allin
    o_w[0] = w + 1


@njit(cache=True, inline="always")
def _reopened(lvl_i: int, acted_i: int, B: int, F: int, reopen_ctr: int, cumulative: bool, r003: bool) -> bool:
    """Whether the betting is open to this player again: first action on the street, a full raise
    since (TDA books that add short all-ins up), or a counted raise since (counter)."""
    if lvl_i == NONE:
        return True
    if cumulative and not r003:
        return (B - lvl_i) >= F
    return acted_i < reopen_ctr


@njit(cache=True, inline="always")
def _still_to_act(iw: np.ndarray, bw: np.ndarray, i: int, n: int, target: int) -> tuple[int, bool]:
    """(other players still to act, whether any other player can still bet)."""
    others_free = False
    players_to_act = 0
    for q in range(n):
        if q != i and not bw[BW_FOLDED, q] and not bw[BW_ALLIN, q]:
            others_free = True
            if iw[IW_LEVEL, q] == NONE or iw[IW_STREET_BET, q] < target:
                players_to_act += 1
    return players_to_act, others_free


@njit(cache=True, inline="always")
def _raise_limits(r003: bool, pot_limit: bool, target: int, bb: int, B: int, F: int, mine: int, stack_before: int,
                  pot: int, owed: int) -> tuple[int, int]:
    """(minimum, maximum) raise-to: R003 doubles the bet, the TDA books add the last full increment;
    pot limit caps at call plus pot; nobody goes beyond their stack."""
    if r003:
        min_to = (2 * target if target else bb)
    else:
        min_to = B + F if B else F
    max_to = mine + stack_before
    if pot_limit:
        pm = target + pot + owed
        max_to = max_to if max_to < pm else pm
    all_max = mine + stack_before
    min_to = min_to if min_to < all_max else all_max
    max_to = max_to if max_to < all_max else all_max
    return min_to, max_to


@njit(cache=True, inline="always")
def _passive_bail(kind: int, c: int, online_allin: bool, owed: int, to_call: int, stack_before: int) -> int:
    """A check or call the kernel does not decide: a check facing a bet, an all-in call of nothing
    (online), an undercall or an overcall."""
    if kind == K_CHECK:
        if owed > 0 and stack_before > 0:
            return B_ILLEGAL_CHECK
        return BAIL_NONE
    if online_allin and not c and to_call:
        return B_CALL_ALLIN_ZERO
    if c < to_call and c < stack_before:
        return B_UNDERCALL
    if c > to_call:
        return B_OVERCALL
    return BAIL_NONE


@njit(cache=True, inline="always")
def _raise(raise_to: int, goes_allin: bool, reopened: bool, min_to: int, max_to: int, pot_limit: bool, r003: bool,
           bb: int, B: int, F: int, reopen_ctr: int, raise_num: int, raise_den: int) -> tuple[int, int, int]:
    """A bet or raise: its legality, and whether it reopens the betting (a full raise, or under R003 a
    counted one); (bail, F, reopen_ctr)."""
    if raise_to <= B or not reopened:
        return B_RAISE_NOT_OPEN, F, reopen_ctr
    if raise_to < min_to and not goes_allin:
        return B_RAISE_MIN, F, reopen_ctr
    if raise_to > max_to and pot_limit:
        return B_POT_LIMIT, F, reopen_ctr
    inc = raise_to - B
    if r003:
        if B == 0:
            counted = raise_to >= bb or not goes_allin
            if goes_allin and raise_to < bb:
                return B_SHORT_OPEN, F, reopen_ctr  # the short-opening call basis (rare): Python
        else:
            counted = not goes_allin or raise_to * raise_den >= B * raise_num
        if counted:
            reopen_ctr += 1
            if B:
                F = F if F > inc else inc
            else:
                F = bb if bb > raise_to else raise_to
    elif inc >= F or not goes_allin:
        F = F if F > inc else inc
        reopen_ctr += 1
    return BAIL_NONE, F, reopen_ctr


# --- chips and rake (rules.rake.rake_of, handchecks.check_chips) ------------------------------------


@njit(cache=True)
def _total_in(iw: np.ndarray, n: int) -> tuple[int, int]:
    """(bail when someone put in more than their stack, the chips everyone put in)."""
    total_in = 0
    for q in range(n):
        if iw[IW_CONTRIB, q] > iw[IW_STACKS, q]:
            return B_OVER_STACK, 0
        total_in += iw[IW_CONTRIB, q]
    return BAIL_NONE, total_in


@njit(cache=True)
def _chips(fl: int, total: int, site_rake: int, fees: int, site_total: int, max_rake_pct: int, w0: int, w1: int,
           w_amount: np.ndarray) -> tuple[int, int]:
    """Awards, rake and fees against the chips in (the site's rake, or the implied one within the
    cash cap); (bail, rake)."""
    awarded = 0
    for w in range(w0, w1):
        awarded += w_amount[w]
    implied = not (fl & F_HAS_RAKE)
    cap = total * max_rake_pct // 100 + 1 if fl & F_CASH else 0
    rake = total - awarded - fees if implied else site_rake
    has_awards = w1 > w0
    if has_awards and not implied and awarded + rake + fees != total:
        return B_CHIPS_WRITTEN, rake
    if has_awards and implied and not (0 <= rake <= cap):
        return B_CHIPS_IMPLIED, rake
    if fl & F_HAS_TOTAL and site_total != total:
        return B_SITE_TOTAL, rake
    if fl & F_TOURN and not implied and rake > 0:
        return B_TOURNAMENT_RAKE, rake
    return BAIL_NONE, rake


@njit(cache=True)
def _final_stack_differs(iw: np.ndarray, n: int, s0: int, s1: int, w0: int, w1: int, s_stack: np.ndarray,
                         s_player: np.ndarray, s_final: np.ndarray, s_has_final: np.ndarray, w_player: np.ndarray,
                         w_amount: np.ndarray) -> bool:
    """A final stack the export writes that is not start - put in + won."""
    contributed = iw[IW_CONTRIB, :n]
    for s in range(s0, s1):
        if not s_has_final[s]:
            continue
        k = iw[IW_POS_OF, s - s0]
        put = contributed[k] if k >= 0 else 0
        won = 0
        for w in range(w0, w1):
            if w_player[w] == s_player[s]:
                won += w_amount[w]
        if s_stack[s] - put + won != s_final[s]:
            return True
    return False


# --- deck: a card seen twice (hole cards and shown cards per player, then the board) -----------------


@njit(cache=True)
def _deck(
    iw: np.ndarray, a0: int, a1: int, ho0: int, ho1: int, bo0: int, bo1: int, a_kind: np.ndarray,
    a_player: np.ndarray, a_cards: np.ndarray, a_ncards: np.ndarray, h_player: np.ndarray, h_cards: np.ndarray,
    h_ncards: np.ndarray, h_bad: np.ndarray, b_cards: np.ndarray, b_ncards: np.ndarray, b_bad: np.ndarray,
) -> int:
    """The bail for a run-twice board, unreadable cards or a card held twice."""
    if bo1 - bo0 > 1:
        return B_RUN_TWICE  # run it twice: Python
    owner = iw[IW_OWNER, :52]
    owner[:] = -1
    for x in range(ho0, ho1):
        if h_bad[x]:
            return B_HOLE_CARDS
        if _claim(owner, h_player[x], h_cards[x], h_ncards[x]):
            return B_DUPLICATE_CARD
    for r in range(a0, a1):
        if (a_kind[r] == K_SHOW or a_kind[r] == K_MUCK) and a_ncards[r]:
            if _claim(owner, a_player[r], a_cards[r], a_ncards[r]):
                return B_DUPLICATE_CARD
    for x in range(bo0, bo1):
        if b_bad[x]:
            return B_BOARD_CARDS
        for j in range(b_ncards[x]):
            cid = b_cards[x, j]
            if cid < 0:
                continue
            if owner[cid] != -1:
                return B_DUPLICATE_CARD
            owner[cid] = -2
    return BAIL_NONE


@njit(cache=True)
def _claim(owner: np.ndarray, player: int, cards: np.ndarray, nc: int) -> bool:
    """Mark the player's known cards as theirs; True when one is already another player's."""
    for j in range(nc):
        cid = cards[j]
        if cid < 0:
            continue
        if owner[cid] == -1:
            owner[cid] = player
        elif owner[cid] != player:
            return True
    return False


# --- pots and showdown (rules.pots.check_pots) ------------------------------------------------------


@njit(cache=True)
def _actual_awards(iw: np.ndarray, n: int, w0: int, w1: int, w_player: np.ndarray, w_amount: np.ndarray,
                   s_player: np.ndarray) -> int:
    """What each ring player was awarded (``IW_ACTUAL``); the bail for an award to a stranger."""
    ring_seat = iw[IW_RING_SEAT]
    actual = iw[IW_ACTUAL, :n]
    actual[:] = 0
    for w in range(w0, w1):
        k = -1
        for q in range(n):
            if s_player[ring_seat[q]] == w_player[w]:
                k = q
        if k < 0:
            return B_AWARD_STRANGER
        actual[k] += w_amount[w]
    return BAIL_NONE


@njit(cache=True)
def _out_of_showdown(iw: np.ndarray, bw: np.ndarray, n: int, a0: int, a1: int, a_kind: np.ndarray,
                     a_text: np.ndarray) -> int:
    """Who is out of the pots (``BW_OUT``): folded, or mucked unseen (unless that leaves nobody); the
    bail for an award to a player who folded."""
    folded = bw[BW_FOLDED, :n]
    out = bw[BW_OUT, :n]
    out[:] = folded
    for r in range(a0, a1):
        if a_kind[r] == K_MUCK and not a_text[r]:
            out[iw[IW_RING_OF, r - a0]] = True
    everyone_out = True
    for q in range(n):
        if not out[q]:
            everyone_out = False
    if everyone_out:
        out[:] = folded
    for q in range(n):
        if out[q] and iw[IW_ACTUAL, q] > 0 and folded[q]:
            return B_AWARD_FOLDED
    return BAIL_NONE


@njit(cache=True)
def _live_and_dead(iw: np.ndarray, n: int, added: int) -> int:
    """Each player's live money (``IW_LIVE``); the dead money (dead blinds and the site's addition)."""
    dead_sum = added
    for q in range(n):
        iw[IW_LIVE, q] = iw[IW_CONTRIB, q] - iw[IW_DEAD, q]
        dead_sum += iw[IW_DEAD, q]
    return dead_sum


@njit(cache=True)
def _chip_unit(s0: int, s1: int, a0: int, a1: int, s_stack: np.ndarray, a_contrib: np.ndarray) -> int:
    """The smallest chip in play (the gcd of stacks and contributions): the odd chip's size."""
    g = 0
    for s in range(s0, s1):
        g = _gcd(g, s_stack[s])
    for r in range(a0, a1):
        g = _gcd(g, a_contrib[r])
    return g if g else 1


@njit(cache=True)
def _live_levels(iw: np.ndarray, bw: np.ndarray, n: int) -> int:
    """The distinct live contributions of players still in, ascending (``IW_CAPS``); how many
    (``rules.pots.build_pots``: one pot per level)."""
    caps = iw[IW_CAPS]
    live, out = iw[IW_LIVE, :n], bw[BW_OUT, :n]
    ncap = 0
    for q in range(n):
        if not out[q] and live[q] > 0:
            dup = False
            for t in range(ncap):
                if caps[t] == live[q]:
                    dup = True
            if not dup:
                caps[ncap] = live[q]
                ncap += 1
    for k in range(1, ncap):  # insertion sort (distinct levels)
        x = caps[k]
        j = k - 1
        while j >= 0 and caps[j] > x:
            caps[j + 1] = caps[j]
            j -= 1
        caps[j + 1] = x
    return ncap


@njit(cache=True)
def _level_pots(iw: np.ndarray, bw: np.ndarray, pot_el: np.ndarray, n: int, ncap: int) -> int:
    """The main and side pots by level (``IW_POT_AMT``, eligibility in ``pot_el``), levels with the
    same players merged, live money above the top level into the last pot; how many."""
    caps, pot_amt = iw[IW_CAPS], iw[IW_POT_AMT]
    live, out = iw[IW_LIVE, :n], bw[BW_OUT, :n]
    pot_amt[: ncap + 2] = 0
    npots = 0
    prev = 0
    for t in range(ncap):
        cp = caps[t]
        amount = 0
        for q in range(n):
            if live[q] > prev:
                amount += (live[q] if live[q] < cp else cp) - prev
        el = bw[BW_ELIGIBLE, :n]
        for q in range(n):
            el[q] = not out[q] and live[q] >= cp
        if amount:
            same = False
            if npots:
                same = True
                for q in range(n):
                    if pot_el[npots - 1, q] != el[q]:
                        same = False
            if same:
                pot_amt[npots - 1] += amount
            else:
                pot_amt[npots] = amount
                pot_el[npots, :n] = el
                npots += 1
        prev = cp
    rest = 0
    for q in range(n):
        if live[q] > prev:
            rest += live[q] - prev
    if rest and npots:
        pot_amt[npots - 1] += rest
    return npots


@njit(cache=True)
def _dead_money_pot(iw: np.ndarray, bw: np.ndarray, pot_el: np.ndarray, n: int, npots: int, dead_sum: int) -> int:
    """Dead money joins the main pot when everyone still in is in it, else it is a pot of its own
    in front; how many pots."""
    if not dead_sum:
        return npots
    pot_amt, out = iw[IW_POT_AMT], bw[BW_OUT, :n]
    same = npots > 0
    if same:
        for q in range(n):
            if pot_el[0, q] != (not out[q]):
                same = False
    if same:
        pot_amt[0] += dead_sum
        return npots
    for t in range(npots, 0, -1):
        pot_amt[t] = pot_amt[t - 1]
        pot_el[t, :n] = pot_el[t - 1, :n]
    pot_amt[0] = dead_sum
    for q in range(n):
        pot_el[0, q] = not out[q]
    return npots + 1


@njit(cache=True)
def _expected_awards(
    iw: np.ndarray, bw: np.ndarray, pot_el: np.ndarray, hand_cards: np.ndarray, n: int, npots: int, unit: int,
    omaha: bool, a0: int, a1: int, ho0: int, ho1: int, bo0: int, bo1: int, a_kind: np.ndarray,
    a_player: np.ndarray, a_cards: np.ndarray, a_ncards: np.ndarray, h_player: np.ndarray, h_cards: np.ndarray,
    h_ncards: np.ndarray, b_cards: np.ndarray, b_ncards: np.ndarray, s_player: np.ndarray,
) -> tuple[int, bool]:
    """What each player should win (``IW_EXPECTED``): an uncontested pot to its one player, a
    contested one to the best known hands; (bail, whether every contested pot could be decided)."""
    expected_w = iw[IW_EXPECTED, :n]
    expected_w[:] = 0
    bw[BW_HAVE, :n] = False
    iw[IW_HAND_N, :n] = 0
    iw[IW_STRENGTH, :n] = -2
    nb = -1  # board cards read (-1: the cards are not read yet)
    decidable = True
    for t in range(npots):
        ne = 0
        single = -1
        for q in range(n):
            if pot_el[t, q]:
                ne += 1
                single = q
        if ne == 0:
            return B_POT_NO_CONTENDER, decidable
        if ne == 1:
            expected_w[single] += iw[IW_POT_AMT, t]
            continue
        if nb < 0:
            nb = _known_cards(iw, bw, hand_cards, n, 4 if omaha else 2, a0, a1, ho0, ho1, bo0, bo1, a_kind,
                              a_player, a_cards, a_ncards, h_player, h_cards, h_ncards, b_cards, b_ncards, s_player)
        ok = nb >= 5
        for q in range(n):
            if pot_el[t, q] and not bw[BW_HAVE, q]:
                ok = False
        if not ok:
            decidable = False
            continue
        best = _rank_contenders(iw, pot_el[t], hand_cards, n, nb, omaha)
        _split_pot(expected_w, pot_el[t], iw[IW_RANKS, :n], best, iw[IW_POT_AMT, t], unit, n)
    return BAIL_NONE, decidable


@njit(cache=True)
def _known_cards(
    iw: np.ndarray, bw: np.ndarray, hand_cards: np.ndarray, n: int, need: int, a0: int, a1: int, ho0: int, ho1: int,
    bo0: int, bo1: int, a_kind: np.ndarray, a_player: np.ndarray, a_cards: np.ndarray, a_ncards: np.ndarray,
    h_player: np.ndarray, h_cards: np.ndarray, h_ncards: np.ndarray, b_cards: np.ndarray, b_ncards: np.ndarray,
    s_player: np.ndarray,
) -> int:
    """The board (``IW_BOARD``; returns its size) and each player's fully known hand: dealt cards,
    then shown cards over them (``hand_cards``, ``IW_HAND_N``, ``BW_HAVE``)."""
    board = iw[IW_BOARD]
    nb = 0
    for x in range(bo0, bo1):
        for j in range(b_ncards[x]):
            if b_cards[x, j] >= 0:
                board[nb] = b_cards[x, j]
                nb += 1
    ring_seat, have, hand_n = iw[IW_RING_SEAT], bw[BW_HAVE, :n], iw[IW_HAND_N, :n]
    for x in range(ho0, ho1):
        _take_cards(h_player[x], h_cards[x], h_ncards[x], need, n, ring_seat, s_player, have, hand_cards, hand_n)
    for r in range(a0, a1):
        if a_kind[r] == K_SHOW and a_ncards[r]:
            _take_cards(a_player[r], a_cards[r], a_ncards[r], need, n, ring_seat, s_player, have, hand_cards, hand_n)
    return nb


@njit(cache=True)
def _rank_contenders(iw: np.ndarray, eligible: np.ndarray, hand_cards: np.ndarray, n: int, nb: int,
                     omaha: bool) -> int:
    """Each contender's best hand on the board (``IW_RANKS``, -1: not in this pot); the best."""
    ranks, strength = iw[IW_RANKS, :n], iw[IW_STRENGTH, :n]
    board, hand_n, ev = iw[IW_BOARD], iw[IW_HAND_N, :n], iw[IW_EV : IW_EV + 3]
    best = -1
    ranks[:] = -1
    for q in range(n):
        if eligible[q]:
            if strength[q] == -2:
                strength[q] = best_high(hand_cards[q], hand_n[q], board, nb, omaha, ev)
            ranks[q] = strength[q]
            if ranks[q] > best:
                best = ranks[q]
    return best


@njit(cache=True)
def _split_pot(expected_w: np.ndarray, eligible: np.ndarray, ranks: np.ndarray, best: int, amount: int, unit: int,
               n: int) -> None:
    """A pot split among its best hands in whole chips; the odd chips one each clockwise from the
    button, and anything below a chip to the first winner."""
    nw = 0
    for q in range(n):
        if eligible[q] and ranks[q] == best:
            nw += 1
    units = amount // unit
    rem = amount - units * unit
    share = units // nw
    odd = units - share * nw
    first = True
    for q in range(n):  # ascending ring order: clockwise from the button
        if eligible[q] and ranks[q] == best:
            expected_w[q] += share * unit
            if odd > 0:
                expected_w[q] += unit
                odd -= 1
            if first and rem:
                expected_w[q] += rem
            first = False


@njit(cache=True)
def _awards_match(iw: np.ndarray, bw: np.ndarray, n: int, rake: int) -> int:
    """The awards against the expected ones: exactly, with no rake; with rake, nobody paid who should
    not be and nobody owed more than the rake left out."""
    actual, expected_w = iw[IW_ACTUAL, :n], iw[IW_EXPECTED, :n]
    folded, out = bw[BW_FOLDED, :n], bw[BW_OUT, :n]
    for q in range(n):
        if rake == 0:
            if actual[q] != expected_w[q] and not (out[q] and folded[q]):
                return B_AWARD_MISMATCH
        else:
            if actual[q] > 0 and expected_w[q] == 0 and not folded[q]:
                return B_AWARD_UNEXPECTED
            if expected_w[q] > rake and actual[q] == 0:
                return B_AWARD_MISSING
    return BAIL_NONE


@njit(cache=True, inline="always")
def _take_cards(player: int, cards: np.ndarray, nc: int, need: int, n: int, ring_seat: np.ndarray,
                s_player: np.ndarray, have: np.ndarray, hand_cards: np.ndarray, hand_n: np.ndarray) -> None:
    """``rules.pots._known_cards`` for one row: a full hand (no unknown card, at least ``need``)."""
    if nc < need:
        return
    for j in range(nc):
        if cards[j] < 0:
            return
    for q in range(n):
        if s_player[ring_seat[q]] == player:
            have[q] = True
            for j in range(nc):
                hand_cards[q, j] = cards[j]
            hand_n[q] = nc


__all__ = ["MAXC", "best_high", "check_window", "eval5", "numba"]
