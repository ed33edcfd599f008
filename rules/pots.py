"""Pots, showdown and awards: build side pots from contributions and check who was paid what.

Why from contributions: the site's own pot lines mean different things per site (before or after
rake), but contribution levels are exact (rules_matrix POT.SIDE_POTS). Each pot is then awarded to
the best tabled hand among its eligible players (SHOWDOWN.CARDS_SPEAK, phevaluator), split in the
smallest chip with odd units clockwise from the button (POT.ODD_CHIP), per board when run twice.

Mirrored by the numba kernel's pots phase (``rules.kernel._one_hand``: ``build_pots`` by ``_live_levels``,
``_level_pots`` and ``_dead_money_pot``, ``_known_cards`` via ``_take_cards``, ``chip_unit`` by ``_chip_unit``,
``split`` and ``distribute`` by ``_expected_awards`` and ``_split_pot``, hand strength by
``rules.kernel.best_high``); a pot it cannot match exactly bails (``award_*``, ``pot_no_contender`` in
``rules.codes``) and comes here. Screens per rule id: ``rules.screens.RULE_SCREENS``.
"""

from __future__ import annotations

from math import gcd
from typing import NamedTuple

from parsers.model import Hand, Kind

from .articles import book_key, cite_article, cite_house
from .cards import best_high, best_low, card_ids
from .findings import DATA, ERROR, Finding, finding, fmt, review, uncited
from .profiles import Profile
from .rake import Rake, rake_of
from .replay import Replay


class SidePot(NamedTuple):
    amount: int
    eligible: tuple[int, ...]  # ring indices of live players who can win it


def build_pots(contributed: list[int], folded: list[bool], dead: int = 0) -> list[SidePot]:
    """Main pot then side pots, by the contribution levels of the live players.

    ``contributed`` holds each player's live money only; ``dead`` (BB antes, dead blinds, money the
    site added) goes wholly into the main pot, so it never forms its poster's own side pot
    (pokerkit_bench.md probe A2: BB ante 100 + dead SB 50 + 3 x 200 make a 750 main pot).
    """
    caps = sorted({c for c, f in zip(contributed, folded, strict=True) if not f and c > 0})
    pots: list[SidePot] = []
    prev = 0
    for cap in caps:
        amount = 0
        for c in contributed:  # each player's slice between the previous level and this one
            if c > prev:
                amount += (c if c < cap else cap) - prev
        elig = tuple(i for i, c in enumerate(contributed) if not folded[i] and c >= cap)
        if amount:
            if pots and pots[-1].eligible == elig:
                pots[-1] = SidePot(pots[-1].amount + amount, elig)
            else:
                pots.append(SidePot(amount, elig))
        prev = cap
    rest = sum(max(c - prev, 0) for c in contributed)  # dead money above every live level
    if rest and pots:
        pots[-1] = SidePot(pots[-1].amount + rest, pots[-1].eligible)
    if dead:
        everyone = tuple(i for i, f in enumerate(folded) if not f)
        if pots and pots[0].eligible == everyone:
            pots[0] = SidePot(pots[0].amount + dead, everyone)
        else:  # a live player with no live money (all-in on the dead post): eligible for it alone
            pots.insert(0, SidePot(dead, everyone))
    return pots


def dead_money(hand: Hand, rp: Replay) -> tuple[list[int], int]:
    """Each player's live money and the hand's dead money (BB antes, dead blinds, site-added money).

    Why apart: dead money is not a betting level (rules_matrix POT.SIDE_POTS layers the live
    contributions), it all belongs to the main pot.
    """
    added = hand.site_added or 0
    if not any(rp.dead):
        return rp.contributed, added
    return [c - d for c, d in zip(rp.contributed, rp.dead, strict=True)], added + sum(rp.dead)


def split(amount: int, winners: list[int], unit: int) -> dict[int, int]:
    """Split in the smallest chip; odd units one each to the winners first clockwise from the button."""
    units, rem = divmod(amount, unit)
    share, odd = divmod(units, len(winners))
    out = {w: share * unit for w in winners}
    for w in sorted(winners)[:odd]:
        out[w] += unit
    if rem:  # below the smallest chip: goes with the first odd unit
        out[sorted(winners)[0]] += rem
    return out


def chip_unit(hand: Hand, prof: Profile) -> int:
    """The smallest chip in play: 1 unit online; live, the gcd of every amount in the hand.

    Live, the gcd is only the largest chip the hand's amounts allow: the house's smallest chip
    (``params.odd_chip.unit: smallest_in_play``) is in no record, and may be any divisor of it, so
    ``_check_pots`` accepts a split that is exact in a smaller chip (``finer_units``)."""
    if prof.odd_chip_unit == "one":
        return 1
    g = 0
    for s in hand.seats:
        g = gcd(g, s.stack)
    for a in hand.actions:
        g = gcd(g, abs(a.contribution))
    return g or 1


def _known_cards(hand: Hand, ring: list[str], need: int) -> dict[int, list[int]]:
    """Fully tabled hands only: a partial show ("shows [Qs]") is not a hand that can win a pot."""
    idx = {p: i for i, p in enumerate(ring)}
    cards: dict[int, list[int]] = {}
    for h in hand.hole_cards:
        i = idx.get(h.player)
        ids = card_ids(h.cards)
        if i is not None and len(ids) >= need and None not in ids:
            cards[i] = [c for c in ids if c is not None]
    for a in hand.actions:
        if a.kind is Kind.SHOW and a.cards:
            i = idx.get(a.player)
            ids = card_ids(a.cards)
            if i is not None and len(ids) >= need and None not in ids:
                cards[i] = [c for c in ids if c is not None]
    return cards


class Distribution(NamedTuple):
    expected: list[int]  # per ring index, what the rules award (before any rake)
    decidable: bool  # False when a contested pot's board or eligible hands are unknown
    folded: list[bool]  # folded, or mucked without showing (no claim to any pot)
    unit: int
    nboards: int
    hilo: bool


def finer_units(unit: int) -> list[int]:
    """The divisors of ``unit`` below it, largest first: the smaller chips the house may have in play."""
    found: set[int] = set()
    d = 1
    while d * d <= unit:
        if unit % d == 0:
            found.update((d, unit // d))
        d += 1
    found.discard(unit)
    return sorted(found, reverse=True)


def distribute(hand: Hand, prof: Profile, rp: Replay, unit: int | None = None) -> Distribution:
    """Who should win what: pots by contribution level, each to its best eligible tabled hand
    (``unit``: split in this chip instead of the hand's ``chip_unit``)."""
    ring = rp.ring
    idx = {p: i for i, p in enumerate(ring)}
    mucked = {idx[a.player] for a in hand.actions if a.kind is Kind.MUCK and not a.cards and a.player in idx}
    folded = [f or (i in mucked) for i, f in enumerate(rp.folded)]
    if all(folded):
        folded = list(rp.folded)
    live, dead = dead_money(hand, rp)
    pots = build_pots(live, folded, dead)
    boards = sorted(hand.boards, key=lambda b: b.board_no)
    nboards = max(1, len(boards))
    variant = hand.variant
    omaha = variant.startswith("omaha") or variant == "courchevel"
    # cards are read only when a pot is contested (most hands end with one player left)
    board_cards: list[list[int]] = []
    cards: dict[int, list[int]] = {}
    read = False
    hilo = variant.endswith("hilo")
    unit = unit or chip_unit(hand, prof)
    expected = [0] * len(ring)
    decidable = True
    for pot in pots:
        elig = list(pot.eligible)
        if len(elig) == 1:
            expected[elig[0]] += pot.amount
            continue
        if not read:
            board_cards = [[c for c in card_ids(b.cards) if c is not None] for b in boards] or [[]]
            cards = _known_cards(hand, ring, 4 if omaha else 2)
            read = True
        shares = split(pot.amount, list(range(nboards)), 1) if nboards > 1 else {0: pot.amount}
        for b, share in shares.items():
            board = board_cards[b] if b < len(board_cards) else []
            if len(board) < 5 or any(i not in cards for i in elig):
                decidable = False
                continue
            ranks = {i: best_high(cards[i], board, omaha) for i in elig}
            best = min(ranks.values())
            hi_winners = [i for i in elig if ranks[i] == best]
            if hilo:
                lows = {i: best_low(cards[i], board, omaha) for i in elig}
                qual = {i: lo for i, lo in lows.items() if lo is not None}
                if qual:
                    best_lo = min(qual.values())
                    lo_winners = [i for i in elig if qual.get(i) == best_lo]
                    units = share // unit
                    hi_part = (units - units // 2) * unit + share % unit
                    for w, v in split(hi_part, hi_winners, unit).items():
                        expected[w] += v
                    for w, v in split(share - hi_part, lo_winners, unit).items():
                        expected[w] += v
                    continue
            for w, v in split(share, hi_winners, unit).items():
                expected[w] += v
    return Distribution(expected, decidable, folded, unit, nboards, hilo)


def check_pots(hand: Hand, prof: Profile, rp: Replay, rk: Rake | None = None) -> list[Finding]:
    """POT.SIDE_POTS / SHOWDOWN.CARDS_SPEAK / POT.ODD_CHIP / SHOWDOWN.UNCONTESTED on one hand
    (``rk``: the hand's rake when the caller has it already).

    Online (``Profile.software_dealt``) the site's software paid the pots: when the hand's own chips do
    not add up (put in vs paid out and raked, or a stack smaller than what it put in), the awards
    cannot be judged against pots built from those chips, so such findings are DATA and name the
    anomaly; a hand that reconciles and still pays the wrong player is an ERROR here (online its
    SHOWDOWN.CARDS_SPEAK is then turned DATA by ``rules.exportdata``: the server ranks and pays, so a pot
    paid against the written cards is the export's; POT.SIDE_POTS, the division, stays an ERROR).
    """
    if hand.cancelled or not hand.awards:
        return []
    if rk is None:
        rk = rake_of(hand, sum(rp.contributed))
    found = _check_pots(hand, prof, rp, rk)
    if found and prof.software_dealt:
        anomaly = _export_anomaly(rp, rk)
        if anomaly:
            return [_as_data(f, anomaly) for f in found]
    return found


def _export_anomaly(rp: Replay, rk: Rake) -> str | None:
    """What makes the hand's chips inconsistent in the export itself, or None when they reconcile."""
    if not rk.implied and rk.awarded + rk.rake + rk.fees != rk.total:
        return (f"the export pays out {fmt(rk.awarded)} with {fmt(rk.rake + rk.fees)} rake and fees from"
                f" {fmt(rk.total)} put in")
    if not rk.plausible:
        return f"the export pays out {fmt(rk.awarded)} from {fmt(rk.total)} put in, with no rake written"
    over = [p for p, c, s in zip(rp.ring, rp.contributed, rp.stacks, strict=True) if c > s]
    if over:
        return f"stale stack: {', '.join(over)} put in more than the starting stack the export writes"
    return None


def _as_data(f: Finding, anomaly: str) -> Finding:
    """The award finding restated as the export inconsistency it follows from."""
    return f._replace(
        severity=DATA, house_decision=False, allowed_outcomes=None,
        message=f"Export inconsistency ({anomaly}), so the awards cannot be checked against the pots: "
        + uncited(f.message),
    )


def _check_pots(hand: Hand, prof: Profile, rp: Replay, rk: Rake) -> list[Finding]:
    """The award checks proper (``check_pots``)."""
    ring = rp.ring
    dist = distribute(hand, prof, rp)
    expected, decidable, folded, unit, nboards, hilo = dist
    rake = max(rk.rake, 0) + rk.fees  # unknown rake is implied, never taken as 0
    actual, strangers = _awarded(hand, ring)
    if decidable and rake == 0 and actual != expected and prof.odd_chip_unit == "gcd" and unit > 1:
        # live: a split exact in a smaller chip than the gcd is the house's smallest chip at work
        for u in finer_units(unit):
            finer = distribute(hand, prof, rp, u)
            if finer.expected == actual:
                expected, unit = finer.expected, u
                break
    out = _awards_outside_the_hand(hand, prof, rp, folded, actual, strangers)
    if not decidable:
        return out
    judged = len(out)  # findings from here on judge the pots' division, per run when run more than once
    if rake == 0:
        margin = unit * nboards * (2 if hilo else 1)
        out.extend(_unraked_division(hand, prof, rp, folded, actual, expected, unit, margin))
    else:
        out.extend(_raked_division(hand, prof, rp, actual, expected, rake))
    if nboards > 1:
        dissent = _dissenter_findings(hand, prof, rp, dist, actual, rake)
        if dissent is not None:  # PKR, a live player declined: his pots are not divided by runs
            out[judged:] = dissent
        else:
            out[judged:] = [_run_split(hand, prof, f, nboards) for f in out[judged:]]
    return out


def _awarded(hand: Hand, ring: list[str]) -> tuple[list[int], list[str]]:
    """What each ring player was awarded, and the award winners who are not in the ring."""
    idx = {p: i for i, p in enumerate(ring)}
    actual = [0] * len(ring)
    strangers: list[str] = []
    for aw in hand.awards:
        i = idx.get(aw.player)
        if i is None:
            strangers.append(aw.player)
        else:
            actual[i] += aw.amount
    return actual, strangers


def _awards_outside_the_hand(hand: Hand, prof: Profile, rp: Replay, folded: list[bool], actual: list[int],
                             strangers: list[str]) -> list[Finding]:
    """Chips awarded to someone who took no part in the hand, or who folded."""
    ring, cite = rp.ring, prof.cite
    out = [finding(hand.hand_id, None, "POT.SIDE_POTS", ERROR, "awards only to players in the hand", f"{p} awarded",
                   f"{p} was awarded chips but took no part in the hand." + cite("POT.SIDE_POTS"))
           for p in strangers]
    live = [i for i in range(len(ring)) if not folded[i]]
    for i in range(len(ring)):
        if folded[i] and actual[i] > 0 and rp.folded[i]:
            rule = "SHOWDOWN.UNCONTESTED" if len(live) == 1 else "POT.SIDE_POTS"
            out.append(finding(hand.hand_id, None, rule, ERROR, f"{ring[i]} wins nothing (folded)",
                               f"{ring[i]} awarded {fmt(actual[i])}",
                               f"{ring[i]} folded but was awarded {fmt(actual[i])}." + cite(rule)))
    return out


def _unraked_division(hand: Hand, prof: Profile, rp: Replay, folded: list[bool], actual: list[int],
                      expected: list[int], unit: int, margin: int) -> list[Finding]:
    """With no rake the awards must equal the division exactly: a pot to the wrong hand, an odd chip
    astray (a difference within ``margin``: a chip per board, per half in hi-lo), or side pots."""
    ring = rp.ring
    out: list[Finding] = []
    for i in range(len(ring)):
        diff = actual[i] - expected[i]
        if diff == 0 or (folded[i] and rp.folded[i]):
            continue
        if expected[i] == 0 or actual[i] == 0:
            rule, sev = "SHOWDOWN.CARDS_SPEAK", ERROR
            text = (
                f"{ring[i]} was awarded {fmt(actual[i])}, but the best eligible hands give"
                f" {fmt(expected[i])}: a pot went to the wrong hand."
            )
        elif abs(diff) <= margin:
            rule, sev = "POT.ODD_CHIP", prof.odd_chip_severity
            text = (
                f"{ring[i]} got {fmt(actual[i])}; splitting in the smallest chip ({fmt(unit)}) with the odd"
                f" chip to the first winner left of the button gives {fmt(expected[i])}."
            )
        else:
            rule, sev = "POT.SIDE_POTS", ERROR
            text = (
                f"{ring[i]} got {fmt(actual[i])}; the main and side pots built from the contributions,"
                f" each to its best eligible hand, give {fmt(expected[i])}."
            )
        # Finding, not finding(): a house profile may make the odd chip REVIEW, still not a ruling to list
        out.append(Finding(hand.hand_id, None, rule, sev, False, None, f"{ring[i]} {fmt(expected[i])}",
                           f"{ring[i]} {fmt(actual[i])}", text + prof.cite(rule)))
    return out


def _raked_division(hand: Hand, prof: Profile, rp: Replay, actual: list[int], expected: list[int],
                    rake: int) -> list[Finding]:
    """With rake the exact shares are unknown: only a player paid without the best hand, or one owed
    more than the rake and paid nothing."""
    ring, cite = rp.ring, prof.cite
    out: list[Finding] = []
    for i in range(len(ring)):
        if actual[i] > 0 and expected[i] == 0 and not rp.folded[i]:
            out.append(finding(hand.hand_id, None, "SHOWDOWN.CARDS_SPEAK", ERROR, f"{ring[i]} wins nothing",
                               f"{ring[i]} awarded {fmt(actual[i])}",
                               f"{ring[i]} was awarded {fmt(actual[i])} without the best eligible hand."
                               + cite("SHOWDOWN.CARDS_SPEAK")))
        elif expected[i] > rake and actual[i] == 0:
            out.append(finding(hand.hand_id, None, "SHOWDOWN.CARDS_SPEAK", ERROR,
                               f"{ring[i]} about {fmt(expected[i])} before rake", f"{ring[i]} awarded nothing",
                               f"{ring[i]} held the best eligible hand for {fmt(expected[i])} but was paid nothing."
                               + cite("SHOWDOWN.CARDS_SPEAK")))
    return out


#: the rulings where a dissenter lost the first run and is paid from a later one (matrix §3: HD)
_DISSENT_RULINGS = ("dissenter_out_after_run_1", "award_stands")


def _dissenter_findings(hand: Hand, prof: Profile, rp: Replay, dist: Distribution, actual: list[int],
                        rake: int) -> list[Finding] | None:
    """RUN_TWICE.DISSENTER (PKR «Procedimientos generales, «Twice»»): a player who does not agree to run
    it more than once plays the first run only and, winning it, takes the whole of every pot he is in.

    Only where the record says who declined (``Hand.rit_declined``; no export writes it) and only under
    PKR, the one book that states it (R003 leaves running twice to agreement and says nothing of a
    dissenter; the tournament books have no run it twice; online the site's software runs what was
    agreed). None when the rule does not apply (the by-runs division stands: ``_run_split``); else the
    findings that replace the division's: the dissenter sole best hand of run 1 in a pot but paid less
    than those pots, less the rake (ERROR); a dissenter who lost run 1 of every pot he is in and is paid
    (the book does not say what a dissenter who lost run 1 keeps: REVIEW, the matrix's HD). Ties on run 1
    and high-low games are left alone. Weak spot: the pots the dissenter is not in are not checked for
    their by-runs division in such a hand."""
    ring = rp.ring
    declined = set(hand.rit_declined or ())
    dissenters = [i for i, p in enumerate(ring) if p in declined and not dist.folded[i]]
    if book_key(prof) != "PKR" or not dissenters or dist.hilo:
        return None
    boards = sorted(hand.boards, key=lambda b: b.board_no)
    board = [c for c in card_ids(boards[0].cards) if c is not None] if boards else []
    omaha = hand.variant.startswith("omaha") or hand.variant == "courchevel"
    cards = _known_cards(hand, ring, 4 if omaha else 2)
    live, dead = dead_money(hand, rp)
    pots = build_pots(live, dist.folded, dead)
    out: list[Finding] = []
    for d in dissenters:
        won: list[int] = []  # the pots d takes whole: won alone on run 1, or d's alone
        contested = tied = lost = 0
        for pot in pots:
            if d not in pot.eligible:
                continue
            if len(pot.eligible) == 1:
                won.append(pot.amount)
                continue
            if len(board) < 5 or any(i not in cards for i in pot.eligible):
                return []  # run 1 cannot be judged: neither the by-runs division nor this
            ranks = {i: best_high(cards[i], board, omaha) for i in pot.eligible}
            best = min(ranks.values())
            if ranks[d] != best:
                lost += 1
            elif sum(r == best for r in ranks.values()) > 1:
                tied += 1
            else:
                won.append(pot.amount)
                contested += 1
        who, due = ring[d], sum(won)
        if contested and not tied:
            if actual[d] + rake < due:
                out.append(finding(
                    hand.hand_id, None, "RUN_TWICE.DISSENTER", ERROR, f"{who} {fmt(due)} (the whole of the pots"
                    " won on run 1)", f"{who} {fmt(actual[d])}",
                    f"{who} declined to run it more than once, so played the first run only and, winning it,"
                    f" takes the whole of every pot {who} is in ({fmt(due)}"
                    + (f", less at most {fmt(rake)} rake" if rake else "") + f"), not a share by runs: paid"
                    f" {fmt(actual[d])}." + cite_article(prof, "RUN_TWICE.DISSENTER")))
        elif lost and not tied and not contested and actual[d] > sum(won):
            out.append(review(
                hand.hand_id, None, "RUN_TWICE.DISSENTER", _DISSENT_RULINGS,
                f"{who}: first run only, lost", f"{who} paid {fmt(actual[d])}",
                f"{who} declined to run it more than once and lost the first run, yet was paid {fmt(actual[d])};"
                " the book says only what a dissenter who wins the first run takes, so the floor rules."
                + cite_article(prof, "RUN_TWICE.DISSENTER") + cite_house(prof)))
    return out


#: the rulings where no book says how an odd chip is divided between runs, or how runs divide a pot
_SPLIT_RULINGS = ("split_by_runs", "award_stands")


def _run_split(hand: Hand, prof: Profile, f: Finding, runs: int) -> Finding:
    """A pot finding of a hand run more than once, as RUN_TWICE.SPLIT: each pot is divided into one
    share per run, each share to that run's best eligible hand. PKR says so (ERROR; online, where the
    site's software splits, too); R003 implies it and the tournament books have no run it twice
    (REVIEW). An odd chip between runs is stated nowhere (REVIEW; online the site's placement: WARNING)."""
    basis = (f" Run {runs} times: each pot is divided into {runs} equal shares, one per run, each to that run's"
             " best eligible hand.")
    msg = uncited(f.message) + basis
    if f.rule_id == "POT.ODD_CHIP":
        if prof.software_dealt:
            return f._replace(rule_id="RUN_TWICE.SPLIT", severity=prof.odd_chip_severity,
                              message=msg + " How an odd chip is divided between runs is the site's."
                              + cite_article(prof, "RUN_TWICE.SPLIT"))
        return review(hand.hand_id, f.action_seq, "RUN_TWICE.SPLIT", ("odd_chip_to_first_run", "odd_chip_by_seat"),
                      f.expected + " (odd chip to the first run)", f.actual,
                      msg + " No book says how an odd chip is divided between runs, so the floor rules."
                      + cite_article(prof, "RUN_TWICE.SPLIT") + cite_house(prof))
    if prof.rit_split == "by_runs":
        return f._replace(rule_id="RUN_TWICE.SPLIT", message=msg + cite_article(prof, "RUN_TWICE.SPLIT"))
    return review(hand.hand_id, f.action_seq, "RUN_TWICE.SPLIT", _SPLIT_RULINGS, f.expected, f.actual,
                  msg + f" {prof.name} does not say how the runs divide a pot, so the floor rules."
                  + cite_article(prof, "RUN_TWICE.SPLIT") + cite_house(prof))
