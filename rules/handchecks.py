"""Hand-level checks that need the whole replay: forced bets, straddles, chips, deck, rake, run it twice.

Why separate from the replay loop: these look at a hand once (its posts, totals, cards and boards)
rather than at every decision, so they stay readable as one small function per rule family.

Mirrored by the numba kernel (``rules.kernel._one_hand``), which evaluates each check's condition and
bails (``rules.codes.B_*``) where one could hold: ``check_forced_bets`` by ``_blinds`` and the
heads-up button check (straddles always bail); ``check_chips`` and ``check_rake`` by ``_total_in``,
``_chips`` and ``_final_stack_differs``; ``check_deck`` and ``check_run_twice`` by ``_deck``; a hand carrying a
record the kernel does not read (``check_pot_rake``'s rake per pot, ``check_rabbit``'s cards) is sent whole
(F_RECORD); ``check_missing_card`` reads only cancelled hands, which the kernel never decides (``cancelled``).
Every rule id
here needs an entry in ``rules.screens.RULE_SCREENS`` (tests/rules/test_screens.py).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from math import gcd

from parsers.model import CANCEL_MISSING_CARD, Action, Hand, Kind

from .articles import book_key, cite_article, cite_house
from .cards import card_ids
from .citations import SEED_OF_BOOK
from .findings import DATA, ERROR, INFO, WARNING, Finding, finding, fmt, review
from .pots import build_pots, check_pots, chip_unit, dead_money
from .profiles import Profile
from .rake import MAX_IMPLIED_RAKE_PCT, Rake, rake_of
from .replay import Replay

_FORCED = frozenset({Kind.POST_SB, Kind.POST_BB, Kind.POST_STRADDLE, Kind.POST_BB_ANTE, Kind.POST_ANTE})


def _wrong_blind(hid: str, a: Action, blind: str, level: int, cite: Callable[[str], str]) -> Finding:
    """BLIND.POSTING: a blind posted at another amount than the level's (not short-stacked)."""
    return Finding(
        hid,
        a.seq,
        "BLIND.POSTING",
        ERROR,
        False,
        None,
        f"{blind} {fmt(level)}",
        f"posted {fmt(a.contribution)}",
        f"{a.player} posted {fmt(a.contribution)} as {blind}; the level's {blind} is {fmt(level)}."
        + cite("BLIND.POSTING"),
    )


def _header_blinds(hand: Hand, found: list[Finding]) -> list[Finding]:
    """Online: the small and the big blind both posted off the header's blinds, in the header's own
    proportion (Bovada "Level 5 (75/150)" posting 50/100, MicroGaming's stakes attribute): the site's
    software posted its level, so the header is the export's inconsistency (DATA), not a wrong post."""
    posting = [f for f in found if f.rule_id == "BLIND.POSTING"]
    sbs = [a.contribution for a in hand.actions if a.kind is Kind.POST_SB]
    bbs = [a.contribution for a in hand.actions if a.kind is Kind.POST_BB]
    if len(posting) != 2 or len(sbs) != 1 or not bbs or not hand.sb or not hand.bb:
        return found
    sb, bb = sbs[0], max(bbs)
    if sb == hand.sb or bb == hand.bb or sb * hand.bb != bb * hand.sb:
        return found
    return [
        finding(f.hand_id, f.action_seq, f.rule_id, DATA, f.expected, f.actual,
                f"Export inconsistency (header blinds): the header writes {fmt(hand.sb)}/{fmt(hand.bb)} but the"
                f" site posted {fmt(sb)}/{fmt(bb)}, in the same proportion; the site's software posts its level,"
                " so the header is stale.") if f in posting else f
        for f in found
    ]


def _bb_ante(hid: str, a: Action, expected: str, actual: str, message: str, cite: Callable[[str], str]) -> Finding:
    """ANTE.BB_ANTE: the big-blind ante posted by someone else, or short of the full ante."""
    return Finding(hid, a.seq, "ANTE.BB_ANTE", ERROR, False, None, expected, actual, message + cite("ANTE.BB_ANTE"))


def check_forced_bets(hand: Hand, prof: Profile, rp: Replay) -> list[Finding]:
    """BLIND.POSTING, BLIND.HEADSUP_BUTTON, ANTE.BB_ANTE and the STRADDLE.* family."""
    hid = hand.hand_id
    out: list[Finding] = []
    ring = rp.ring
    n = len(ring)
    idx = {p: i for i, p in enumerate(ring)}
    stack = dict(zip(ring, rp.stacks, strict=True))
    posted: dict[str, int] = {}
    straddles: list[tuple[int, int, int]] = []  # (seq, ring index, amount)
    cite = prof.cite
    for a in hand.actions:
        if a.kind not in _FORCED:
            continue
        i = idx.get(a.player, -1)
        posted[a.player] = posted.get(a.player, 0) + a.contribution
        short = posted[a.player] >= stack.get(a.player, 0)
        if a.kind is Kind.POST_SB and hand.sb and a.contribution != hand.sb and not short:
            out.append(_wrong_blind(hid, a, "small blind", hand.sb, cite))
        elif a.kind is Kind.POST_BB and hand.bb and a.contribution != hand.bb and not short and hand.betting != "FL":
            out.append(_wrong_blind(hid, a, "big blind", hand.bb, cite))
        elif a.kind is Kind.POST_BB_ANTE and prof.bb_ante:
            if i != rp.bb_player:
                out.append(_bb_ante(hid, a, "the big blind posts the ante", f"{a.player} posted it",
                                    f"{a.player} posted the BB ante without being the big blind.", cite))
            elif hand.bb_ante and a.contribution < hand.bb_ante and not short:
                out.append(_bb_ante(hid, a, f"full ante {fmt(hand.bb_ante)}", f"ante {fmt(a.contribution)}",
                                    f"The BB ante must stay the full {fmt(hand.bb_ante)} until the final heads-up.",
                                    cite))
        elif a.kind is Kind.POST_STRADDLE:
            straddles.append((a.seq, i, a.amount if a.amount is not None else a.contribution))
    if prof.software_dealt:
        out = _header_blinds(hand, out)
    # heads-up with a live button (a dead button on a seat not dealt in leaves two blinds, no button)
    pos = rp.positions
    btn = -1
    if n == 2:
        btn = 1 if pos[1] == "BTN" and pos[0] else -1
    elif n > 2 and "" in pos:
        dealt = [i for i in range(n) if pos[i]]
        btn = dealt[-1] if len(dealt) == 2 and pos[dealt[-1]] == "BTN" else -1
    wrong_button = btn >= 0 and rp.sb_player >= 0 and rp.sb_player != btn and hand.button_seat is not None
    if wrong_button and prof.software_dealt:
        # online the site's software posts the blinds: a written button that did not post the small blind
        # is the export's inconsistency (Entraction's dealer line naming the big blind, re-exports)
        out.append(finding(
            hid, None, "BLIND.HEADSUP_BUTTON", DATA, f"{ring[btn]} (button) posts SB",
            f"{ring[rp.sb_player]} posted SB",
            f"Export inconsistency (heads-up button): the export writes {ring[btn]} on the button but"
            f" {ring[rp.sb_player]} posted the small blind; the site's software posts the blinds, so the written"
            " button seat, not a player, is wrong.",
        ))
    elif wrong_button:
        out.append(
            Finding(
                hid,
                None,
                "BLIND.HEADSUP_BUTTON",
                ERROR,
                False,
                None,
                f"{ring[btn]} (button) posts SB",
                f"{ring[rp.sb_player]} posted SB",
                "Heads-up the button posts the small blind and acts first before the flop."
                + cite("BLIND.HEADSUP_BUTTON"),
            )
        )
    if straddles:
        out.extend(_straddles(hand, prof, rp, straddles))
    return out


def _straddles(hand: Hand, prof: Profile, rp: Replay, straddles: list[tuple[int, int, int]]) -> list[Finding]:
    """STRADDLE.POSITION / SIZE / STACK_BEHIND / DOUBLE / NO_TRIPLE / MISSISSIPPI / IN_TOURNAMENT."""
    n = len(rp.ring)
    if hand.game_type == "tournament" and not prof.straddle_allowed:
        return [finding(hand.hand_id, straddles[0][0], "STRADDLE.IN_TOURNAMENT", WARNING, "no straddle in tournaments",
                        "straddle posted",
                        "Neither tournament rulebook provides for a straddle." + prof.cite("STRADDLE.IN_TOURNAMENT"))]
    if not prof.straddle_allowed:
        return []
    if hand.variant == "shortdeck" and n > 2 and rp.bb_player == n - 1:
        # GGPoker Short Deck: the button posts the blind and any seat may straddle, again and
        # again (the action opens left of the last straddle): only the sizes are checked
        out: list[Finding] = []
        for seq, i, amount in straddles:
            out.extend(_size(hand, prof, seq, rp.ring[i], amount, behind=rp.stacks[i] - amount, rule="STRADDLE.SIZE"))
        return out
    return _straddle_chain(hand, prof, rp, straddles)


def _straddle_chain(hand: Hand, prof: Profile, rp: Replay, straddles: list[tuple[int, int, int]]) -> list[Finding]:
    """The straddles in posting order: one on the button (not UTG) is a Mississippi; the others count
    from UTG as the straddle, the double and a third."""
    n = len(rp.ring)
    utg = (rp.bb_player + 1) % n if rp.bb_player >= 0 else 2 % max(n, 1)
    prev_seat, prev_amount, count = rp.bb_player, hand.bb, 0
    utg_straddled = False
    out: list[Finding] = []
    for seq, i, amount in straddles:
        if i == n - 1 and i != utg:
            out.extend(_mississippi(hand, prof, rp, seq, i, amount, utg_straddled))
            continue
        count += 1
        if count == 1:
            out.extend(_first_straddle(hand, prof, rp, seq, i, amount, utg))
            utg_straddled = True
        elif count == 2:
            out.extend(_double_straddle(hand, prof, rp, seq, i, amount, prev_seat, prev_amount))
        elif not prof.triple_straddle:  # online-standard allows it (the site's software takes it)
            out.append(_third_straddle(hand, prof, seq, rp.ring[i], amount))
        prev_seat, prev_amount = i, amount
    return out


def _mississippi(hand: Hand, prof: Profile, rp: Replay, seq: int, i: int, amount: int,
                 utg_straddled: bool) -> list[Finding]:
    """A button straddle: not in the book (WARNING), void after a UTG straddle (R003), else sized."""
    who = rp.ring[i]
    if prof.mississippi != "allowed":
        return [finding(hand.hand_id, seq, "STRADDLE.MISSISSIPPI", WARNING, "no button straddle",
                        f"{who} straddled on the button",
                        "This rulebook does not provide for a Mississippi (button) straddle."
                        + prof.cite("STRADDLE.MISSISSIPPI"))]
    out: list[Finding] = []
    if utg_straddled and prof.mississippi_void_if_utg:  # R003 «se anula la posibilidad»
        out.append(finding(hand.hand_id, seq, "STRADDLE.MISSISSIPPI", ERROR, "Mississippi void after a UTG straddle",
                           "both posted",
                           "A Mississippi straddle is void once a UTG straddle was posted."
                           + prof.cite("STRADDLE.MISSISSIPPI")))
    out.extend(_size(hand, prof, seq, who, amount, behind=rp.stacks[i] - amount, rule="STRADDLE.MISSISSIPPI"))
    return out


def _first_straddle(hand: Hand, prof: Profile, rp: Replay, seq: int, i: int, amount: int,
                    utg: int) -> list[Finding]:
    """The straddle proper: from the seat left of the big blind, and sized."""
    who = rp.ring[i]
    out: list[Finding] = []
    if i != utg:
        out.append(finding(hand.hand_id, seq, "STRADDLE.POSITION", ERROR, f"straddle only from UTG ({rp.ring[utg]})",
                           f"{who} straddled",
                           f"{who} straddled from a seat other than the one left of the big blind."
                           + prof.cite("STRADDLE.POSITION")))
    out.extend(_size(hand, prof, seq, who, amount, behind=rp.stacks[i] - amount, rule="STRADDLE.SIZE"))
    return out


def _double_straddle(hand: Hand, prof: Profile, rp: Replay, seq: int, i: int, amount: int, prev_seat: int,
                     prev_amount: int) -> list[Finding]:
    """A double straddle: not in the book (WARNING), or from the seat left of the straddler and at
    least the book's multiple of the straddle."""
    who, hid = rp.ring[i], hand.hand_id
    if prof.double_straddle != "allowed":
        return [finding(hid, seq, "STRADDLE.DOUBLE", WARNING, "no double straddle",
                        f"{who} double-straddled {fmt(amount)}",
                        "This rulebook does not provide for a double straddle." + prof.cite("STRADDLE.DOUBLE"))]
    out: list[Finding] = []
    if i != (prev_seat + 1) % len(rp.ring):
        out.append(finding(hid, seq, "STRADDLE.DOUBLE", ERROR, "double straddle from the seat left of the straddler",
                           f"{who} posted it",
                           f"{who} double-straddled out of position." + prof.cite("STRADDLE.DOUBLE")))
    # no minimum where the profile gives none (online: the site's own, which no seed states)
    need = (prof.double_min_x_straddle or 0) * prev_amount
    if amount < need:
        out.append(finding(hid, seq, "STRADDLE.DOUBLE", ERROR, f"at least {fmt(need)}", f"{fmt(amount)}",
                           f"The double straddle {fmt(amount)} is under twice the straddle {fmt(prev_amount)}."
                           + prof.cite("STRADDLE.DOUBLE")))
    return out


def _third_straddle(hand: Hand, prof: Profile, seq: int, who: str, amount: int) -> Finding:
    """A third straddle where the book has none: forbidden where it allows the double (PKR: «NO se
    permite triple Straddle»), else not provided for."""
    forbidden = prof.double_straddle == "allowed"
    return finding(hand.hand_id, seq, "STRADDLE.NO_TRIPLE", ERROR if forbidden else WARNING, "no third straddle",
                   f"{who} posted a straddle of {fmt(amount)}",
                   ("A third straddle is not allowed." if forbidden
                    else "This rulebook does not provide for a third straddle.") + prof.cite("STRADDLE.NO_TRIPLE"))


def _size(
    hand: Hand, prof: Profile, seq: int, who: str, amount: int, *, behind: int, rule: str
) -> list[Finding]:
    out: list[Finding] = []
    bb = hand.bb
    lo, hi, bx = prof.straddle_min_x_bb, prof.straddle_max_x_bb, prof.straddle_stack_behind_x
    if lo and amount < lo * bb:
        out.append(
            Finding(
                hand.hand_id,
                seq,
                rule,
                ERROR,
                False,
                None,
                f"at least {fmt(lo * bb)} ({lo}×BB)",
                f"{fmt(amount)}",
                f"{who}'s straddle of {fmt(amount)} is under {lo}× the big blind." + prof.cite(rule),
            )
        )
    if hi and amount > hi * bb:
        out.append(
            Finding(
                hand.hand_id,
                seq,
                rule,
                ERROR,
                False,
                None,
                f"at most {fmt(hi * bb)} ({hi}×BB)",
                f"{fmt(amount)}",
                f"{who}'s straddle of {fmt(amount)} is over {hi}× the big blind." + prof.cite(rule),
            )
        )
    if bx and behind < bx * amount:
        r = "STRADDLE.STACK_BEHIND"
        out.append(
            Finding(
                hand.hand_id,
                seq,
                r,
                ERROR,
                False,
                None,
                f"at least {fmt(bx * amount)} behind",
                f"{fmt(behind)} behind",
                f"{who} kept {fmt(behind)} behind after straddling {fmt(amount)}; {bx}× the straddle"
                " is required." + prof.cite(r),
            )
        )
    return out


def _gap_anomaly(gap: int) -> str:
    """Name the export anomaly behind chips put in (``gap`` > 0) or paid out (< 0) and not accounted for."""
    if gap > 0:
        return (f"{fmt(gap)} put in was neither paid out nor written as rake or fees: an unwritten deduction"
                " (jackpot drop, bad-beat fee) or an action amount the export misstates")
    return (f"{fmt(-gap)} more paid out than put in: money the export does not show entering the pot"
            " (site promotion, a post it does not write) or an award it misstates")


def _chips(hid: str, prof: Profile, data: bool, expected: str, actual: str, text: str, anomaly: str) -> Finding:
    """POT.CHIP_CONSERVATION: DATA naming the export anomaly where the software paid (online), else ERROR."""
    if data:
        return finding(hid, None, "POT.CHIP_CONSERVATION", DATA, expected, actual,
                       f"Export inconsistency ({anomaly}). {text}")
    return finding(hid, None, "POT.CHIP_CONSERVATION", ERROR, expected, actual,
                   text + prof.cite("POT.CHIP_CONSERVATION"))


def check_chips(hand: Hand, prof: Profile, rp: Replay, rk: Rake | None = None) -> list[Finding]:
    """POT.CHIP_CONSERVATION (awards + rake + fees = contributions; final stacks) and RAKE.NONE_IN_TOURNAMENT."""
    hid = hand.hand_id
    out: list[Finding] = []
    if hand.cancelled:
        return out
    if rk is None:
        rk = rake_of(hand, sum(rp.contributed))
    total, awarded, rake, fees = rk.total, rk.awarded, rk.rake, rk.fees
    data = prof.software_dealt  # online: the site paid; what does not add up is the export's (DATA)
    if hand.awards and not rk.implied and awarded + rake + fees != total:
        gap = total - awarded - rake - fees
        out.append(_chips(
            hid, prof, data, f"awards + rake + fees = {fmt(total)} put in",
            f"{fmt(awarded)} + {fmt(rake)} + {fmt(fees)}",
            f"The hand took in {fmt(total)} but paid out {fmt(awarded)} with {fmt(rake + fees)} rake"
            f" and fees: {fmt(-gap)} unaccounted.",
            _gap_anomaly(gap),
        ))
    elif hand.awards and not rk.plausible:
        out.append(_chips(
            hid, prof, data, f"implied rake between 0 and {fmt(rk.cap)}",
            f"implied rake {fmt(rake)} ({fmt(total)} put in, {fmt(awarded)} awarded)",
            f"The site writes no rake, so the rake is what was put in less what was paid out:"
            f" {fmt(rake)}, outside 0..{fmt(rk.cap)}"
            + (" (tournaments carry no rake)." if hand.game_type != "cash" else " (at most"
               f" {MAX_IMPLIED_RAKE_PCT}% of the pot plus one unit)."),
            _gap_anomaly(rake) if rake < 0 or hand.game_type != "cash" else
            f"{fmt(rake)} kept back, more than any rake: an unwritten deduction (jackpot drop, fee) or an"
            " action amount the export misstates",
        ))
    if hand.site_total_pot is not None and hand.site_total_pot != total:
        out.append(
            finding(
                hid, None, "POT.CHIP_CONSERVATION", DATA, f"total pot {fmt(total)}",
                f"site wrote {fmt(hand.site_total_pot)}",
                f"Export inconsistency (total pot): the site's total pot {fmt(hand.site_total_pot)} differs from the"
                f" {fmt(total)} its own actions put in.",
            )
        )
    won: dict[str, int] = {}
    for a in hand.awards:
        won[a.player] = won.get(a.player, 0) + a.amount
    idx = {p: i for i, p in enumerate(rp.ring)}
    for s in hand.seats:
        if s.final_stack is None:
            continue
        i = idx.get(s.player)
        put = rp.contributed[i] if i is not None else 0
        final = s.stack - put + won.get(s.player, 0)
        if final != s.final_stack:
            out.append(_chips(
                hid, prof, data, f"{s.player} ends on {fmt(final)}", f"site wrote {fmt(s.final_stack)}",
                f"{s.player} started with {fmt(s.stack)}, put in {fmt(put)} and won"
                f" {fmt(won.get(s.player, 0))}, so ends on {fmt(final)}, not {fmt(s.final_stack)}.",
                "stale stack: the final stack the export writes does not follow from its start, bets and awards",
            ))
    if hand.game_type == "tournament" and not rk.implied and rake > 0:
        out.append(
            Finding(
                hid,
                None,
                "RAKE.NONE_IN_TOURNAMENT",
                ERROR,
                False,
                None,
                "no rake",
                f"rake {fmt(rake)}",
                "Tournament hands carry no rake: fees are taken at the buy-in." + prof.cite("RAKE.NONE_IN_TOURNAMENT"),
            )
        )
    return out


def check_deck(hand: Hand, prof: Profile) -> list[Finding]:
    """DECK.DUPLICATE_CARD: a card seen twice across hole cards and boards (run-twice boards share a prefix)."""
    if not _has_duplicate(hand):
        return []
    return _deck_findings(hand, prof)


@lru_cache(maxsize=1 << 16)
def _id_set(text: str) -> frozenset[int]:
    return frozenset(c for c in card_ids(text) if c is not None)


def _has_duplicate(hand: Hand) -> bool:
    """Whether the sequence ``_deck_findings`` scans (each player's distinct cards, then the
    boards less a run-twice board's shared prefix) repeats a card: the same test without names."""
    per_player: dict[str, frozenset[int]] = {}
    for h in hand.hole_cards:
        if h.cards:
            have = per_player.get(h.player)
            ids = _id_set(h.cards)
            per_player[h.player] = ids if have is None else have | ids
    for a in hand.actions:
        if a.cards and (a.kind is Kind.SHOW or a.kind is Kind.MUCK):
            have = per_player.get(a.player)
            ids = _id_set(a.cards)
            per_player[a.player] = ids if have is None else have | ids
    seq: list[int] = []
    for cs in per_player.values():
        seq.extend(cs)
    boards = hand.boards
    if len(boards) > 1:
        return True  # run-twice boards (rare): the full scan applies the shared-prefix rule itself
    for b in boards:
        seq.extend(c for c in card_ids(b.cards) if c is not None)
    return len(set(seq)) != len(seq)


def _deck_findings(hand: Hand, prof: Profile) -> list[Finding]:
    """The full duplicate scan, naming each duplicate (run only when ``_has_duplicate`` says so)."""
    seen: dict[int, str] = {}
    per_player: dict[str, set[int]] = {}
    for h in hand.hole_cards:
        per_player.setdefault(h.player, set()).update(c for c in card_ids(h.cards) if c is not None)
    for a in hand.actions:
        if a.cards and a.kind in (Kind.SHOW, Kind.MUCK):
            per_player.setdefault(a.player, set()).update(c for c in card_ids(a.cards) if c is not None)
    dup: list[str] = []
    for player, cs in per_player.items():
        for cid in cs:
            if cid in seen:
                dup.append(f"{_name(cid)} ({seen[cid]} and {player})")
            seen[cid] = player
    first: tuple[int | None, ...] = ()
    for b in sorted(hand.boards, key=lambda b: b.board_no):
        ids = card_ids(b.cards)
        for pos, c in enumerate(ids):
            if c is None:
                continue
            if b.board_no > 1 and pos < len(first) and first[pos] == c:
                continue  # shared street of a run-it-twice board
            if c in seen:
                dup.append(f"{_name(c)} ({seen[c]} and board {b.board_no})")
            seen[c] = f"board {b.board_no}"
        if b.board_no == 1 or not first:
            first = ids
    if not dup:
        return []
    return [_duplicate(hand, prof, ", ".join(dup))]


#: what a floor may rule on a duplicate card where the book does not void the hand itself
_DUPLICATE_RULINGS = ("hand_void_chips_returned", "hand_stands")


def _duplicate(hand: Hand, prof: Profile, dup: str) -> Finding:
    """DECK.DUPLICATE_CARD by the book's ``duplicate_card_policy``: PKR voids all action (ERROR); CEP calls
    such a deck defective and leaves the remedy to the TD, T09 and R003 say nothing (REVIEW); online the
    site's software deals from one deck, so a card written twice is the export's (DATA)."""
    hid, seen = hand.hand_id, "pot awarded" if hand.awards else "hand played"
    pol = prof.duplicate_card_policy
    if pol == "void_all_action":
        return finding(hid, None, "DECK.DUPLICATE_CARD", ERROR, "hand void, all chips returned", seen,
                       f"Card seen twice: {dup}. A duplicate card voids all action."
                       + cite_article(prof, "DECK.DUPLICATE_CARD"))
    if pol == "export_anomaly":
        return finding(hid, None, "DECK.DUPLICATE_CARD", DATA, "each card once", f"written twice: {dup}",
                       f"Export inconsistency (duplicate card): the export writes {dup}; the site's software deals"
                       " from one deck, so the record, not a dealer, repeats the card.")
    why = (" The book calls a deck with two cards of the same suit and rank defective and leaves the remedy to"
           " the TD (players who knowingly played on get no refund)." if pol == "defective_deck" else
           f" {prof.name} does not say what a duplicate card does to the hand (PKR voids all action).")
    return review(hid, None, "DECK.DUPLICATE_CARD", _DUPLICATE_RULINGS,
                  "floor's ruling: hand void with chips returned, or the hand stands", seen,
                  f"Card seen twice: {dup}." + why + cite_article(prof, "DECK.DUPLICATE_CARD") + cite_house(prof))


def _name(c: int) -> str:
    return "23456789TJQKA"[c // 4] + "cdhs"[c % 4]


def check_run_twice(hand: Hand, prof: Profile, rp: Replay) -> list[Finding]:
    """RUN_TWICE.GAME_TYPE / POT_THRESHOLD / TIMING on hands with more than one board."""
    boards = sorted(hand.boards, key=lambda b: b.board_no)
    runs = len(boards)
    if runs < 2 or hand.variant == "holdem_split":  # Split Hold'em deals two boards by design
        return []
    return [
        *_rit_game_type(hand, prof, runs),
        *_rit_pot(hand, prof, runs, sum(rp.contributed)),
        *_rit_timing(hand, prof, rp, card_ids(boards[0].cards), card_ids(boards[1].cards)),
    ]


def _rit_game_type(hand: Hand, prof: Profile, runs: int) -> list[Finding]:
    """Run it twice where the book allows it: cash only (ERROR in a tournament), or nowhere (WARNING)."""
    if prof.rit_allowed_in == "cash_only" and hand.game_type == "tournament":
        return [finding(hand.hand_id, None, "RUN_TWICE.GAME_TYPE", ERROR, "cash games only",
                        f"run {runs} times in a tournament",
                        "Run it twice is for cash games only." + prof.cite("RUN_TWICE.GAME_TYPE"))]
    if prof.rit_allowed_in == "none":
        return [finding(hand.hand_id, None, "RUN_TWICE.GAME_TYPE", WARNING, "no run it twice", f"run {runs} times",
                        "This rulebook does not provide for running the board more than once."
                        + prof.cite("RUN_TWICE.GAME_TYPE"))]
    return []


def _rit_pot(hand: Hand, prof: Profile, runs: int, total: int) -> list[Finding]:
    """The book's most runs, and the pot each number of runs needs."""
    out: list[Finding] = []
    if prof.rit_max_runs and runs > prof.rit_max_runs:
        out.append(finding(hand.hand_id, None, "RUN_TWICE.POT_THRESHOLD", ERROR, f"at most {prof.rit_max_runs} runs",
                           f"{runs} runs", f"The board was run {runs} times; the maximum is {prof.rit_max_runs}."
                           + prof.cite("RUN_TWICE.POT_THRESHOLD")))
    need = prof.rit_min_pot.get(runs)
    # PKR «superar»: the pot must exceed the threshold (``rit.strict_greater``)
    if need is not None and (total <= need * hand.unit_scale if prof.rit_strict_threshold
                             else total < need * hand.unit_scale):
        out.append(finding(hand.hand_id, None, "RUN_TWICE.POT_THRESHOLD", ERROR,
                           f"pot above {fmt(need * hand.unit_scale)}", f"pot {fmt(total)}",
                           f"Running {runs} times needs a pot above {fmt(need * hand.unit_scale)}."
                           + prof.cite("RUN_TWICE.POT_THRESHOLD")))
    return out


def _rit_timing(hand: Hand, prof: Profile, rp: Replay, b1: tuple[int | None, ...],
                b2: tuple[int | None, ...]) -> list[Finding]:
    """Runs begin before the river (books that say so) and only once all betting is complete."""
    out: list[Finding] = []
    shared = 0
    while shared < min(len(b1), len(b2)) and b1[shared] == b2[shared]:
        shared += 1
    if shared >= 5 and prof.rit_before_river:
        out.append(finding(hand.hand_id, None, "RUN_TWICE.TIMING", ERROR, "runs start before the river",
                           "river already dealt",
                           "At least the river must not have been dealt yet." + prof.cite("RUN_TWICE.TIMING")))
    if not any(rp.all_in[i] and not rp.folded[i] for i in range(len(rp.ring))):
        out.append(finding(hand.hand_id, None, "RUN_TWICE.TIMING", ERROR, "someone all-in and called",
                           "no player all-in", "A board is run more than once only when all betting is complete."
                           + prof.cite("RUN_TWICE.TIMING")))
    return out


def check_rake(hand: Hand, prof: Profile, rp: Replay) -> list[Finding]:
    """RAKE.TIE_EXEMPT (R003): a chop not produced by run-it-twice is not raked."""
    if not prof.rake_tie_exempt or not hand.site_rake or len(hand.boards) > 1:
        return []
    winners = {a.player for a in hand.awards if a.amount > 0}
    live = [p for p, f in zip(rp.ring, rp.folded, strict=True) if not f]
    if len(winners) >= 2 and len(live) == len(winners) and len({a.pot_no for a in hand.awards}) == 1:
        return [
            Finding(
                hand.hand_id,
                None,
                "RAKE.TIE_EXEMPT",
                ERROR,
                False,
                None,
                "no rake on a tie",
                f"rake {fmt(hand.site_rake)}",
                "A tied pot is raked only when the tie came from running it twice." + prof.cite("RAKE.TIE_EXEMPT"),
            )
        ]
    return []


def check_pot_rake(hand: Hand, prof: Profile, rp: Replay) -> list[Finding]:
    """RAKE.PER_POT_PROPORTIONAL (R003, ``rake_rule: proportional``): with two pots or more, each pot pays
    its share of the rake in proportion to its size, within one chip of rounding.

    Only where the record writes the rake of every pot (``Pot.rake``; no site export does). The pot
    sizes are the replay's (``rules.pots.build_pots``: main pot then side pots, as ``pot_no`` 0, 1..),
    not ``Pot.amount``, which a format may write before or after the rake. PKR states nothing on rake
    and has no fallback book (rules_matrix §0.1): no default to breach, so no finding; the tournament
    books take no rake at all (RAKE.NONE_IN_TOURNAMENT)."""
    if prof.rake_rule != "proportional" or hand.game_type != "cash" or len(hand.pots) < 2:
        return []
    written = sorted(hand.pots)
    if any(p.rake is None for p in written) or [p.pot_no for p in written] != list(range(len(written))):
        return []
    live, dead = dead_money(hand, rp)
    sizes = [p.amount for p in build_pots(live, rp.folded, dead)]
    if len(sizes) != len(written):  # the record's pots are not the replay's: nothing to pair
        return []
    rakes = [int(p.rake or 0) for p in written]
    total, pot = sum(rakes), sum(sizes)
    unit = gcd(chip_unit(hand, prof), *rakes)  # the smallest chip the record shows, its rakes included
    # |rake_i - R * P_i / P| <= one chip, in integers: |rake_i * P - R * P_i| <= unit * P
    if not total or not pot or all(abs(r * pot - total * size) <= unit * pot for r, size in zip(rakes, sizes,
                                                                                              strict=True)):
        return []
    share = "/".join(fmt(total * size // pot) for size in sizes)
    return [
        finding(
            hand.hand_id, None, "RAKE.PER_POT_PROPORTIONAL", ERROR,
            f"rake {share} from pots of {'/'.join(fmt(x) for x in sizes)} (each pot's share of {fmt(total)},"
            f" within {fmt(unit)})",
            f"rake {'/'.join(fmt(r) for r in rakes)}",
            "With two pots or more the rake is taken from each pot in proportion to its size."
            + cite_article(prof, "RAKE.PER_POT_PROPORTIONAL"),
        )
    ]


def check_rabbit(hand: Hand, prof: Profile) -> list[Finding]:
    """BOARD.RABBIT_HUNT (all four books: CEP «Rabbit hunting», TDA 2009 art. 21, PKR «Procedimientos
    generales», R003 «RABBIT HUNT»): board cards that would have come are not shown once the hand is over.

    Only where the record writes the cards shown after the hand (``Hand.rabbit_cards``: a live log; no
    site export writes them). WARNING, as the matrix's §3 has it: a procedural breach that moves no chip.
    The online profile is no rulebook of the matrix, and a site's own rabbit-hunt feature no dealer's
    breach: nothing there."""
    if not hand.rabbit_cards or book_key(prof) not in SEED_OF_BOOK:
        return []
    return [
        finding(
            hand.hand_id, None, "BOARD.RABBIT_HUNT", WARNING, "no undealt card shown after the hand",
            f"shown after the hand: {hand.rabbit_cards}",
            "The cards that would have come are never revealed after a hand has ended (rabbit hunting)."
            + cite_article(prof, "BOARD.RABBIT_HUNT"),
        )
    ]


def check_missing_card(hand: Hand, prof: Profile) -> list[Finding]:
    """DECK.MISSING_CARD (PKR «Irregularidades»: «Una o más cartas que falten en la baraja, no invalidan el
    resultado de una mano»): a hand voided because cards were missing from the deck breaks PKR's rule.

    Only where the record says why the hand was voided (``Hand.cancel_reason == "missing_card"``: a floor's
    log; no export writes it). WARNING, as the matrix's §3 has it (DECK.MISSING_CARD: "WARNING (PKR)").
    The other books: CEP calls a deck with the wrong number of cards defective (voiding is within its
    remedy), T09 and R003 state nothing and the §2 legend never makes an ERROR of a silent book, nor do
    their fallbacks' texts come with the seeds; online no dealer voids a hand: nothing."""
    if not hand.cancelled or hand.cancel_reason != CANCEL_MISSING_CARD or book_key(prof) != "PKR":
        return []
    return [
        finding(
            hand.hand_id, None, "DECK.MISSING_CARD", WARNING, "the hand's result stands",
            "hand voided for cards missing from the deck",
            "Cards missing from the deck do not invalidate the result of a hand."
            + cite_article(prof, "DECK.MISSING_CARD"),
        )
    ]


def hand_findings(hand: Hand, prof: Profile, rp: Replay) -> list[Finding]:
    """Every hand-level check, in a stable order."""
    out = check_forced_bets(hand, prof, rp)
    rk = rake_of(hand, sum(rp.contributed))  # once for the chip and the pot checks
    out += check_chips(hand, prof, rp, rk)
    out += check_deck(hand, prof)
    out += check_run_twice(hand, prof, rp)
    out += check_rake(hand, prof, rp)
    out += check_pot_rake(hand, prof, rp)
    out += check_rabbit(hand, prof)
    out += check_missing_card(hand, prof)
    if not any(f.rule_id == "DECK.DUPLICATE_CARD" for f in out):
        out += check_pots(hand, prof, rp, rk)
    return out


__all__ = ["INFO", "hand_findings"]
