# ruff: noqa: PLR1714, PLR1730, SIM102, SIM108, SIM109, SIM300
# (numba kernel: plain comparisons and if-blocks, written to mirror rules/replay.py line by line)
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
MAX_RING = 64


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
def _next_to_act(after: int, n: int, B: int, call_basis: int, folded: np.ndarray, allin: np.ndarray,
                 level: np.ndarray, street_bet: np.ndarray) -> int:
    target = B if call_basis < B else call_basis
    live_free = 0
    for q in range(n):
        if not folded[q] and not allin[q]:
            live_free += 1
    for k in range(1, n + 1):
        q = (after + k) % n
        if not folded[q] and not allin[q] and (level[q] == NONE or street_bet[q] < target):
            if live_free == 1 and street_bet[q] >= target and level[q] == NONE:
                others_live = 0
                all_allin = True
                for r in range(n):
                    if r != q and not folded[r]:
                        others_live += 1
                        if not allin[r]:
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
    # outputs: the state columns of the kept decisions, compacted (row ``k``: action row ``o_row[k]`` of
    # hand ``o_hix[k]``; ``o_w[0]`` rows written); per hand, bail
    o_row: np.ndarray, o_street: np.ndarray, o_ring: np.ndarray, o_n: np.ndarray, o_raise_to: np.ndarray,
    o_to_call: np.ndarray, o_B: np.ndarray, o_min: np.ndarray, o_max: np.ndarray, o_can_raise: np.ndarray,
    o_F: np.ndarray, o_reopened: np.ndarray, o_pot: np.ndarray, o_pta: np.ndarray, o_stack: np.ndarray,
    o_mine: np.ndarray, o_facing: np.ndarray, o_allin: np.ndarray, o_seat: np.ndarray, o_hix: np.ndarray,
    o_w: np.ndarray, bail: np.ndarray,
) -> None:
    """Replay and check every hand of the window; ``bail[h]`` marks the hands Python must check with
    the reason (``rules.codes.B_*``; 0: the kernel decided the hand)."""
    width = MAX_RING + 2
    for h in range(a_off.shape[0] - 1):
        width = max(width, a_off[h + 1] - a_off[h], s_off[h + 1] - s_off[h])
    iw = np.empty((25, max(width, 64)), np.int64)  # per-hand work rows, allocated once per window
    bw = np.empty((8, max(width, 64)), np.bool_)
    pot_el = np.empty((MAX_RING + 2, MAX_RING), np.bool_)
    hand_cards = np.empty((MAX_RING, MAXC), np.int64)
    ins = (
        a_off, s_off, h_off, b_off, w_off, flags, button, sb_lvl, bb_lvl, site_rake, site_fees, site_total,
        site_added, prof_of, params, a_seq, a_street, a_player, a_kind, a_amount, a_allin, a_contrib, a_text,
        a_cards, a_ncards, a_bad, s_no, s_player, s_stack, s_out, s_final, s_has_final, h_player, h_cards,
        h_ncards, h_bad, b_cards, b_ncards, b_bad, w_player, w_amount,
    )
    outs = (
        o_row, o_street, o_ring, o_n, o_raise_to, o_to_call, o_B, o_min, o_max, o_can_raise, o_F, o_reopened,
        o_pot, o_pta, o_stack, o_mine, o_facing, o_allin, o_seat, o_hix, o_w,
    )
    o_w[0] = 0
    for h in range(a_off.shape[0] - 1):
        start = o_w[0]
        bail[h] = _one_hand(iw, bw, pot_el, hand_cards, h, max_rake_pct, ins, outs)
        if bail[h]:
            o_w[0] = start  # a marked hand's rows are dropped (Python writes its states)


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
    ins: tuple, outs: tuple,  # type: ignore[type-arg]
) -> int:
    """One hand (``check_window``'s loop body): replay and check it; a nonzero bail reason
    (``rules.codes.B_*``) marks it for Python, 0 (``BAIL_NONE``): the kernel decided it.

    The window's arrays come as two tuples and the function is inlined by numba: a call passing
    ~65 arrays cost ~0.45 us a hand (every array's fields passed one by one; 2.04 -> 1.57 us)."""
    (
        a_off, s_off, h_off, b_off, w_off, flags, button, sb_lvl, bb_lvl, site_rake, site_fees, site_total,
        site_added, prof_of, params, a_seq, a_street, a_player, a_kind, _a_amount, a_allin, a_contrib, a_text,
        a_cards, a_ncards, a_bad, s_no, s_player, s_stack, s_out, s_final, s_has_final, h_player, h_cards,
        h_ncards, h_bad, b_cards, b_ncards, b_bad, w_player, w_amount,
    ) = ins
    (
        o_row, o_street, o_ring, o_n, o_raise_to, o_to_call, o_B, o_min, o_max, o_can_raise, o_F, o_reopened,
        o_pot, o_pta, o_stack, o_mine, o_facing, o_allin, o_seat, o_hix, o_w,
    ) = outs
    fl = flags[h]
    if fl & (F_UNSUPPORTED | F_FL | F_CANCELLED | F_CLOCK | F_RECORD) or not fl & F_HAS_BUTTON:
        return _flag_reason(fl)
    a0, a1 = a_off[h], a_off[h + 1]
    s0, s1 = s_off[h], s_off[h + 1]
    pr = prof_of[h]
    r003 = params[pr, P_R003] != 0
    cumulative = params[pr, P_CUMUL] != 0
    online = params[pr, P_ONLINE] != 0
    pot_limit = (fl & F_PL) != 0
    # ---- the ring: seated players who act, by seat number from the seat after the button -------
    for s in range(s0, s1):
        if s_out[s]:
            return B_SITTING_OUT  # sitting-out seats: Python (ring_positions, sat_out)
        for t in range(s0, s):
            if s_player[t] == s_player[s] or s_no[t] == s_no[s]:
                return B_DUPLICATE_SEAT
    nring = 0
    ring_seat = iw[0]  # seat row of each ring member
    acting_seat = iw[1]
    used = bw[5, : s1 - s0]  # per seat (index from the hand's first seat row): someone acts from it
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
    # seats of acting players, ordered by seat number
    cand = iw[2]
    nc = 0
    for s in range(s0, s1):
        if used[s - s0]:
            cand[nc] = s
            nc += 1
    if nc == 0 or nc > MAX_RING:
        return B_RING_SIZE
    for k in range(1, nc):  # insertion sort by seat number (seat numbers are distinct here)
        x = cand[k]
        j = k - 1
        while j >= 0 and s_no[cand[j]] > s_no[x]:
            cand[j + 1] = cand[j]
            j -= 1
        cand[j + 1] = x
    btn = button[h]
    for k in range(nc):
        s = cand[k]
        if s_no[s] > btn:
            ring_seat[nring] = s
            nring += 1
    for k in range(nc):
        s = cand[k]
        if s_no[s] <= btn:
            ring_seat[nring] = s
            nring += 1
    n = nring
    if n == 2:
        # dead button heads-up (the button seat is not a ring player): Python
        live_btn = False
        for k in range(n):
            if s_no[ring_seat[k]] == btn:
                live_btn = True
        if not live_btn:
            return B_HEADSUP_DEAD_BUTTON
    pos_of = iw[23, : s1 - s0]  # ring position of each seat (index from the first seat row), -1: none
    pos_of[:] = -1
    for k in range(n):
        pos_of[ring_seat[k] - s0] = k
    ring_of = iw[3]  # ring position of each action's player
    for r in range(a1 - a0):
        ring_of[r] = pos_of[acting_seat[r] - s0]
    stacks = iw[4, :n]
    behind = iw[5, :n]
    contributed = iw[6, :n]
    street_bet = iw[7, :n]
    dead = iw[8, :n]
    level = iw[9, :n]
    acted_ctr = iw[10, :n]
    folded = bw[0, :n]
    allin = bw[1, :n]
    for k in range(n):
        stacks[k] = s_stack[ring_seat[k]]
        behind[k] = stacks[k]
        contributed[k] = 0
        street_bet[k] = 0
        dead[k] = 0
        level[k] = NONE
        acted_ctr[k] = 0
        folded[k] = False
        allin[k] = False
    # ---- blinds: levels, and the forced-bet checks' conditions --------------------------------
    bb = bb_lvl[h]
    n_bb = 0
    max_bb = 0
    last_post_seq = -1
    for r in range(a0, a1):
        kd = a_kind[r]
        if kd == K_STRADDLE:
            return B_STRADDLE
        if kd == K_BB:
            n_bb += 1
            if n_bb == 1 or a_contrib[r] > max_bb:
                max_bb = a_contrib[r]
            if bb and a_contrib[r] != bb:
                return B_BB_AMOUNT  # BLIND.POSTING unless short: Python decides
        elif kd == K_SB:
            if sb_lvl[h] and a_contrib[r] != sb_lvl[h]:
                return B_SB_AMOUNT
        elif kd == K_BB_ANTE and params[pr, P_BB_ANTE]:
            return B_BB_ANTE
        if kd == K_SB or kd == K_BB:
            if a_seq[r] > last_post_seq:
                last_post_seq = a_seq[r]
    if n_bb > 1:
        return B_TWO_BB
    if not bb:
        bb = max_bb if n_bb else 0
    street = S_PREFLOP
    B = 0
    call_basis = 0
    F = bb
    reopen_ctr = 0
    bets_in_round = 0
    last_aggr = -1
    pot = site_added[h]
    expected = -2
    bb_player = -1
    sb_player = -1
    straddle_anchor = -1
    for r in range(a0, a1):
        seq = a_seq[r]
        a_st = a_street[r]
        kind = a_kind[r]
        c = a_contrib[r]
        i = ring_of[r - a0]
        if a_st != street and a_st != S_SHOWDOWN and not (kind == K_ANTE or kind == K_BB_ANTE or kind == K_DEAD):
            if expected >= 0:
                return B_ROUND_OPEN  # a round closed with someone due (or an online disconnect): Python
            street = a_st
            for q in range(n):
                street_bet[q] = 0
                level[q] = NONE
                acted_ctr[q] = 0
            B = 0
            call_basis = 0
            reopen_ctr = 0
            bets_in_round = 0
            last_aggr = -1
            F = bb
            expected = _next_to_act(n - 1, n, B, call_basis, folded, allin, level, street_bet)
        if kind >= K_FOLD and kind <= K_RAISE:
            pass
        elif kind == K_SB or kind == K_BB:
            behind[i] -= c
            contributed[i] += c
            pot += c
            street_bet[i] += c
            if behind[i] <= 0:
                allin[i] = True
            if kind == K_BB:
                if bb_player < 0:
                    bb_player = i
                    straddle_anchor = i
                m = street_bet[i] if street_bet[i] > bb else bb
                B = B if B > m else m
                bets_in_round = bets_in_round if bets_in_round > 1 else 1
            else:
                if sb_player < 0:
                    if i and n > 2:
                        return B_SB_POSITION  # maybe counter-clockwise seats: Python
                    sb_player = i
                B = B if B > street_bet[i] else street_bet[i]
            expected = -2
            continue
        elif kind == K_ANTE or kind == K_BB_ANTE or kind == K_DEAD:
            behind[i] -= c
            contributed[i] += c
            if kind != K_ANTE:
                dead[i] += c
            pot += c
            if behind[i] <= 0:
                allin[i] = True
            continue
        elif kind == K_RETURN:
            top = -(1 << 62)
            second = -(1 << 62)
            for q in range(n):
                v = street_bet[q]
                if v > top:
                    second = top
                    top = v
                elif v > second:
                    second = v
            excess = top - (second if n > 1 else 0) if street_bet[i] == top else 0
            if -c != excess and a_st != S_SHOWDOWN:
                return B_RETURN_AMOUNT
            behind[i] -= c
            contributed[i] += c
            street_bet[i] += c
            pot += c
            if behind[i] > 0:
                allin[i] = False
            continue
        else:
            continue
        # ---- a decision ----
        if expected == -2:
            if street == S_PREFLOP:
                start = straddle_anchor if straddle_anchor >= 0 else (1 if n > 2 else 0)
                if straddle_anchor < 0 and sb_player >= 0 and n > 2:
                    start = sb_player
                expected = _next_to_act(start, n, B, call_basis, folded, allin, level, street_bet)
            else:
                expected = _next_to_act(n - 1, n, B, call_basis, folded, allin, level, street_bet)
        lvl_i = level[i]
        if seq < last_post_seq or expected != i:
            return B_ORDER  # sit-out folds, out-of-turn actions, disconnects: Python
        mine = street_bet[i]
        stack_before = behind[i]
        target = B if call_basis < B else call_basis
        owed = target - mine if target > mine else 0
        to_call = owed if owed < stack_before else stack_before
        if lvl_i == NONE:
            reopened = True
        elif cumulative and not r003:
            reopened = (B - lvl_i) >= F
        else:
            reopened = acted_ctr[i] < reopen_ctr
        others_free = False
        players_to_act = 0
        for q in range(n):
            if q != i and not folded[q] and not allin[q]:
                others_free = True
                if level[q] == NONE or street_bet[q] < target:
                    players_to_act += 1
        can_raise = reopened and stack_before > to_call and others_free
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
        w = o_w[0]  # this decision's output row (kept only when the hand is not marked)
        o_facing[w] = ring_seat[last_aggr] if last_aggr >= 0 else -1
        o_pot[w] = pot
        o_F[w] = F
        raise_to = -1
        if kind == K_FOLD:
            folded[i] = True
        elif kind == K_CHECK:
            if owed > 0 and stack_before > 0:
                return B_ILLEGAL_CHECK
        elif kind == K_CALL:
            if online and a_allin[r] and not c and to_call:
                return B_CALL_ALLIN_ZERO
            if c < to_call and c < stack_before:
                return B_UNDERCALL
            if c > to_call:
                return B_OVERCALL
        else:
            raise_to = mine + c
            goes_allin = c >= stack_before
            if raise_to <= B or not reopened:
                return B_RAISE_NOT_OPEN
            if raise_to < min_to and not goes_allin:
                return B_RAISE_MIN
            if raise_to > max_to and pot_limit:
                return B_POT_LIMIT
            inc = raise_to - B
            if r003:
                if B == 0:
                    counted = raise_to >= bb or not goes_allin
                    if goes_allin and raise_to < bb:
                        return B_SHORT_OPEN  # the short-opening call basis (rare): Python
                else:
                    counted = not goes_allin or raise_to * params[pr, 7] >= B * params[pr, 6]
                if counted:
                    reopen_ctr += 1
                    if B:
                        F = F if F > inc else inc
                    else:
                        F = bb if bb > raise_to else raise_to
            elif inc >= F or not goes_allin:
                F = F if F > inc else inc
                reopen_ctr += 1
            B = raise_to
            bets_in_round += 1
            last_aggr = i
        if c:
            behind[i] -= c
            contributed[i] += c
            street_bet[i] += c
            pot += c
        if behind[i] <= 0 and kind != K_FOLD and kind != K_CHECK:
            allin[i] = True
        level[i] = B
        acted_ctr[i] = reopen_ctr
        o_row[w] = r
        o_street[w] = street
        o_ring[w] = i
        o_n[w] = n
        o_raise_to[w] = raise_to
        o_to_call[w] = to_call
        o_B[w] = target
        o_min[w] = min_to
        o_max[w] = max_to
        o_can_raise[w] = can_raise
        o_reopened[w] = reopened
        o_pta[w] = players_to_act
        o_stack[w] = stack_before
        o_mine[w] = mine
        o_allin[w] = allin[i]
        o_seat[w] = ring_seat[i]
        o_hix[w] = h
        o_w[0] = w + 1
        expected = _next_to_act(i, n, B, call_basis, folded, allin, level, street_bet) if seq > last_post_seq else -2
    total_in = 0
    for q in range(n):
        if contributed[q] > stacks[q]:
            return B_OVER_STACK
        total_in += contributed[q]
    # ---- heads-up: the button posts the small blind ----
    if n == 2 and sb_player >= 0 and sb_player != 1:
        return B_HEADSUP_BUTTON
    # ---- chips and rake (rules.rake.rake_of, handchecks.check_chips) ----
    w0, w1 = w_off[h], w_off[h + 1]
    total = total_in + site_added[h]
    awarded = 0
    for w in range(w0, w1):
        awarded += w_amount[w]
    fees = site_fees[h]
    implied = not (fl & F_HAS_RAKE)
    cap = total * max_rake_pct // 100 + 1 if fl & F_CASH else 0
    rake = total - awarded - fees if implied else site_rake[h]
    has_awards = w1 > w0
    if has_awards and not implied and awarded + rake + fees != total:
        return B_CHIPS_WRITTEN
    if has_awards and implied and not (0 <= rake <= cap):
        return B_CHIPS_IMPLIED
    if fl & F_HAS_TOTAL and site_total[h] != total:
        return B_SITE_TOTAL
    if fl & F_TOURN and not implied and rake > 0:
        return B_TOURNAMENT_RAKE
    for s in range(s0, s1):
        if not s_has_final[s]:
            continue
        k = pos_of[s - s0]
        put = contributed[k] if k >= 0 else 0
        won = 0
        for w in range(w0, w1):
            if w_player[w] == s_player[s]:
                won += w_amount[w]
        if s_stack[s] - put + won != s_final[s]:
            return B_FINAL_STACK
    if params[pr, P_TIE_EXEMPT] and fl & F_HAS_RAKE and site_rake[h] != 0:
        return B_TIE_RAKE
    # ---- deck: a card seen twice (hole cards and shown cards per player, then the board) ----
    bo0, bo1 = b_off[h], b_off[h + 1]
    if bo1 - bo0 > 1:
        return B_RUN_TWICE  # run it twice: Python
    ho0, ho1 = h_off[h], h_off[h + 1]
    owner = iw[11, :52]
    owner[:] = -1
    for x in range(ho0, ho1):
        if h_bad[x]:
            return B_HOLE_CARDS
        for j in range(h_ncards[x]):
            cid = h_cards[x, j]
            if cid < 0:
                continue
            if owner[cid] == -1:
                owner[cid] = h_player[x]
            elif owner[cid] != h_player[x]:
                return B_DUPLICATE_CARD
    for r in range(a0, a1):
        if (a_kind[r] == K_SHOW or a_kind[r] == K_MUCK) and a_ncards[r]:
            for j in range(a_ncards[r]):
                cid = a_cards[r, j]
                if cid < 0:
                    continue
                if owner[cid] == -1:
                    owner[cid] = a_player[r]
                elif owner[cid] != a_player[r]:
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
    # ---- pots and showdown (rules.pots.check_pots) ----
    if not has_awards:
        return BAIL_NONE
    actual = iw[12, :n]
    actual[:] = 0
    for w in range(w0, w1):
        k = -1
        for q in range(n):
            if s_player[ring_seat[q]] == w_player[w]:
                k = q
        if k < 0:
            return B_AWARD_STRANGER  # awarded to a stranger
        actual[k] += w_amount[w]
    fold2 = bw[2, :n]
    fold2[:] = folded
    for r in range(a0, a1):
        if a_kind[r] == K_MUCK and not a_text[r]:
            fold2[ring_of[r - a0]] = True
    everyone_out = True
    for q in range(n):
        if not fold2[q]:
            everyone_out = False
    if everyone_out:
        fold2[:] = folded
    for q in range(n):
        if fold2[q] and actual[q] > 0 and folded[q]:
            return B_AWARD_FOLDED
    live = iw[13, :n]
    for q in range(n):
        live[q] = contributed[q] - dead[q]
    dead_sum = site_added[h]
    for q in range(n):
        dead_sum += dead[q]
    omaha = (fl & F_OMAHA) != 0
    need = 4 if omaha else 2
    expected_w = iw[14, :n]
    expected_w[:] = 0
    if params[pr, P_ODD_ONE]:
        unit = 1
    else:
        g = 0
        for s in range(s0, s1):
            g = _gcd(g, s_stack[s])
        for r in range(a0, a1):
            g = _gcd(g, a_contrib[r])
        unit = g if g else 1
    # pots by live contribution level (rules.pots.build_pots)
    caps = iw[15]
    ncap = 0
    for q in range(n):
        if not fold2[q] and live[q] > 0:
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
    pot_amt = iw[16]
    pot_amt[: ncap + 2] = 0
    npots = 0
    prev = 0
    for t in range(ncap):
        cp = caps[t]
        amount = 0
        for q in range(n):
            if live[q] > prev:
                amount += (live[q] if live[q] < cp else cp) - prev
        el = bw[3, :n]
        for q in range(n):
            el[q] = not fold2[q] and live[q] >= cp
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
    if dead_sum:
        same = npots > 0
        if same:
            for q in range(n):
                if pot_el[0, q] != (not fold2[q]):
                    same = False
        if same:
            pot_amt[0] += dead_sum
        else:
            for t in range(npots, 0, -1):
                pot_amt[t] = pot_amt[t - 1]
                pot_el[t, :n] = pot_el[t - 1, :n]
            pot_amt[0] = dead_sum
            for q in range(n):
                pot_el[0, q] = not fold2[q]
            npots += 1
    # known cards: fully tabled hands (hole rows, then shows override)
    have = bw[4, :n]
    have[:] = False
    hand_n = iw[17, :n]
    hand_n[:] = 0
    board = iw[18]
    ranks = iw[19, :n]
    strength = iw[24, :n]  # each player's best hand on this board, scored once for every pot (-2: not yet)
    strength[:] = -2
    ev = iw[20:23]
    nb = 0
    read = False
    decidable = True
    for t in range(npots):
        ne = 0
        single = -1
        for q in range(n):
            if pot_el[t, q]:
                ne += 1
                single = q
        if ne == 0:
            return B_POT_NO_CONTENDER
        if ne == 1:
            expected_w[single] += pot_amt[t]
            continue
        if not read:
            read = True
            for x in range(bo0, bo1):
                for j in range(b_ncards[x]):
                    if b_cards[x, j] >= 0:
                        board[nb] = b_cards[x, j]
                        nb += 1
            for x in range(ho0, ho1):
                _take_cards(h_player[x], h_cards[x], h_ncards[x], need, n, ring_seat, s_player, have, hand_cards,
                            hand_n)
            for r in range(a0, a1):
                if a_kind[r] == K_SHOW and a_ncards[r]:
                    _take_cards(a_player[r], a_cards[r], a_ncards[r], need, n, ring_seat, s_player, have,
                                hand_cards, hand_n)
        ok = nb >= 5
        for q in range(n):
            if pot_el[t, q] and not have[q]:
                ok = False
        if not ok:
            decidable = False
            continue
        best = -1
        ranks[:] = -1
        for q in range(n):
            if pot_el[t, q]:
                if strength[q] == -2:
                    strength[q] = best_high(hand_cards[q], hand_n[q], board, nb, omaha, ev)
                ranks[q] = strength[q]
                if ranks[q] > best:
                    best = ranks[q]
        nw = 0
        for q in range(n):
            if pot_el[t, q] and ranks[q] == best:
                nw += 1
        units = pot_amt[t] // unit
        rem = pot_amt[t] - units * unit
        share = units // nw
        odd = units - share * nw
        first = True
        for q in range(n):  # ascending ring order: clockwise from the button
            if pot_el[t, q] and ranks[q] == best:
                expected_w[q] += share * unit
                if odd > 0:
                    expected_w[q] += unit
                    odd -= 1
                if first and rem:
                    expected_w[q] += rem
                first = False
    if not decidable:
        return BAIL_NONE
    rake0 = (rake if rake > 0 else 0) + fees
    for q in range(n):
        if rake0 == 0:
            if actual[q] != expected_w[q] and not (fold2[q] and folded[q]):
                return B_AWARD_MISMATCH
        else:
            if actual[q] > 0 and expected_w[q] == 0 and not folded[q]:
                return B_AWARD_UNEXPECTED
            if expected_w[q] > rake0 and actual[q] == 0:
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
