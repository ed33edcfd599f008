"""Winning Poker Network / ACR hand histories, in both of the site's text dialects.

Why one module with two grammars: the same site wrote "Game started at: ..." blocks until 2019
(often UTF-16, raises and all-ins written as the chips *added*, totals after rake, per-player
"Bets: X Collects: Y" summary) and "Hand #N - Holdem(No Limit) - $a/$b - ... UTC" since
(PokerStars-like, "raises X to Y", run it twice as numbered streets and pots, "Total pot" after
rake and jackpot fee). Both are normalised to the canonical model here.

Seven card stud (issue 12): the old dialect deals every card as "Player P received card: [Qc]" (an
opponent's down card "received a card.") and names its betting rounds one street early: the
rounds after "*** Third street ***" .. "*** Sixth street ***" are fourth to seventh street (the
first round, on the first three cards, has no header). "bring in (0.40)" is the bring-in and a
third street bet or raise over it completes it. The new dialect ("7Stud(Fixed Limit)") writes
"*** 3rd STREET ***" .. "*** 7th STREET ***" and "Dealt to P [As 2s Qs] [3c]" (the last group new).

Old-dialect sit & go tables are named by buy-in and table ("$5 Regular 9-Max, Table 1") and played in
chips. New-dialect tournaments open "Game Hand #N - [$5,000 GTD ]Tournament #T - Holdem(No Limit) - Level 10
(3000.00/6000.00)- 2022/07/11 01:11:44 UTC" and write chips with two decimals ("Seat 1: P (323265.00)"):
read as whole chips.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from parsers.base import TextHandFormat
from parsers.formats._stakes import fixed_limit_blinds
from parsers.formats._stars_like import UTC, HandBuilder, Money, cards, new_hand, stars_decision, to_utc
from parsers.model import STUD_STREETS, Hand, Kind, ParseError, Provenance, Seat, Street, StreetCards
from parsers.reading import Block

OLD_START = "Game started at: "
NEW_START = "Hand #"
TOUR_START = "Game Hand #"

# -- "Game started at" dialect ------------------------------------------------------------
_OLD_ID = re.compile(
    r"^Game ID: (?P<no>\d+) (?P<sb>[\d.]+)/(?P<bb>[\d.]+) (?P<table>.*) \((?P<game>[^()]*)\)(?: (?P<max>\d+)-max)?$")
#: an old-dialect tournament table: its buy-in, its name, then the table number
_OLD_TOUR_TABLE = re.compile(r"^[$€][\d.]+ .+, Table \d+$")
_OLD_BUTTON = re.compile(r"^Seat (?P<seat>\d+) is the button")
_OLD_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.*) \((?P<cash>[\d.,]+)\)\.?(?P<out> is sitting out)?$")
_OLD_AMOUNT = re.compile(r"\((?P<amt>[\d.,]+)\)")
_OLD_RESULT = re.compile(r"Bets: (?P<bets>\d[\d,]*(?:\.\d+)?)\.? Collects: (?P<collects>\d[\d,]*(?:\.\d+)?)")
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
_OLD_GAMES = {"Hold'em": "holdem", "Omaha": "omaha", "Omaha HiLow": "omaha_hilo",
              "Six Plus Hold'em": "holdem_6plus"}  # 36 cards, a small and a big blind posted
_OLD_STUD = {"Seven Cards Stud": "stud", "Seven Cards Stud HiLow": "stud_hilo"}
_OLD_STUD_ROUNDS = ("*** Third street", "*** Fourth street", "*** Fifth street", "*** Sixth street")
_OLD_STREETS = {"*** FLOP": Street.FLOP, "*** TURN": Street.TURN, "*** RIVER": Street.RIVER}

# -- "Hand #" dialect ---------------------------------------------------------------------
_NEW_HEADER = re.compile(
    r"^Hand #(?P<no>\d+) - (?P<game>[^(]+)\((?P<limit>[^)]+)\) - (?P<stakes>\S+) - "
    r"(?P<when>\d{4}/\d\d/\d\d \d\d?:\d\d:\d\d)(?: (?P<zone>\w+))?"
)
_TOUR_HEADER = re.compile(
    r"^Game Hand #(?P<no>\d+) - (?:.*?)Tournament #(?P<tid>\d+) - (?P<game>[^(]+)\((?P<limit>[^)]+)\) - "
    r"Level (?P<level>\w+) \((?P<stakes>[^)]+)\)- (?P<when>\d{4}/\d\d/\d\d \d\d?:\d\d:\d\d)(?: (?P<zone>\w+))?"
)
_NEW_TABLE = re.compile(r"^(?P<table>.+?) (?P<max>\d+)-max(?: Seat #(?P<button>\d+) is the button)?")
_NEW_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+) \((?P<cash>\$?[\d.,]+)\)(?P<out> is sitting out)?$")
_NEW_STREET = re.compile(r"^\*\*\* (?P<street>FLOP|TURN|RIVER|SHOW DOWN)(?: (?P<run>\d))? \*\*\*")
_AMT_TAIL = re.compile(r"^(?P<amt>\$?[\d.,]+)(?P<allin> and is all-in)?")
_RAISE = re.compile(r"^raises (?P<amt>\$?[\d.,]+) to (?P<to>\$?[\d.,]+)(?P<allin> and is all-in)?")
_COLLECT = re.compile(r"^collected (?P<amt>\$?[\d.,]+) from (?P<pot>main|side) pot(?: (?P<n>\d+))?")
_UNCALLED = re.compile(r"^Uncalled bet \((?P<amt>[^)]+)\) returned to ?(?P<name>.*)$")
_BRACKETS = re.compile(r"\[([^\]]*)\]")
_SHOWED = re.compile(r"^Seat \d+: (?P<name>.+?) (?:\([^)]*\) )*(?:showed|mucked) \[(?P<cards>[^\]]*)\]")
_SUMMARY_WON = re.compile(r"^Seat \d+: (?P<name>.+?) (?:\([^)]*\) )*(?:did not show and )?won (?P<amt>\$?[\d.,]+)")
_NEW_GAMES = {"Holdem": "holdem", "Omaha": "omaha", "Omaha H/L": "omaha_hilo", "Six Plus Holdem": "shortdeck",
              "7Stud": "stud"}
_NEW_STUD_STREETS = {"3rd": Street.THIRD, "4th": Street.FOURTH, "5th": Street.FIFTH, "6th": Street.SIXTH,
                     "7th": Street.SEVENTH}
_NEW_LIMITS = {"No Limit": "NL", "Pot Limit": "PL", "Fixed Limit": "FL"}
_NEW_STREETS = {"FLOP": Street.FLOP, "TURN": Street.TURN, "RIVER": Street.RIVER}


class WinningFormat(TextHandFormat):
    name: ClassVar[str] = "winning"
    priority: ClassVar[int] = 50
    description: ClassVar[str] = "Winning Poker Network / ACR text hand histories (both dialects)"

    def sniff(self, head: str) -> bool:
        first = head.lstrip("\ufeff\r\n ")
        if first.startswith(OLD_START):
            return "\nGame ID: " in first[:200]
        head_line = first.split("\n", 1)[0]
        return (first.startswith(NEW_START) and _NEW_HEADER.match(head_line) is not None) or (
            first.startswith(TOUR_START) and _TOUR_HEADER.match(head_line) is not None)

    def is_start(self, line: str) -> bool:
        return line.startswith(OLD_START) or (line.startswith((NEW_START, TOUR_START)) and " - " in line)

    def parse_block(self, block: Block, source_file: str) -> Hand | None:
        lines = [line for line in block.lines if line.strip()]
        if lines[-1].rstrip().endswith("\ufffd") and not any(ln.startswith("Game ended at") for ln in lines):
            # a UTF-16 export cut inside its last character: the hand stops mid-line
            raise ParseError(f"truncated hand: the file ends inside line {len(lines)} ({lines[-1][:40]!r})")
        if lines[0].startswith(OLD_START):
            return _parse_old(lines, block, source_file)
        return _parse_new(lines, block, source_file)


def _player(text: str, by_length: list[str]) -> tuple[str, str]:
    for name in by_length:
        if text.startswith(name) and text[len(name) : len(name) + 1] == " ":
            return name, text[len(name) + 1 :]
    raise ParseError(f"unrecognised line {text!r}")


# ======================================================================================
def _parse_old(lines: list[str], block: Block, source_file: str) -> Hand:
    m = _OLD_ID.match(lines[1]) if len(lines) > 1 else None
    if m is None:
        raise ParseError("missing Game ID line", 2)
    game = m["game"].strip()
    if game in _OLD_STUD:
        return _parse_old_stud(lines, block, source_file, m)
    if game not in _OLD_GAMES:
        raise ParseError(f"unsupported variant: {game}", 2)
    hand = new_hand(
        site="winning", hand_no=m["no"], fmt="winning", source_file=source_file,
        offset=block.offset, length=block.length,
    )
    hand.variant = _OLD_GAMES[game]
    table = m["table"].strip()
    hand.table_name = table
    hand.currency = "PLAY" if " PM " in f" {table} " else "USD"
    if _OLD_TOUR_TABLE.match(table):  # "$5 Regular 9-Max, Table 1": a sit & go, played in chips
        hand.game_type, hand.currency, hand.unit_scale = "tournament", "CHIPS", 1
    # the old dialect writes no time zone: unknown, so None rather than a guess
    hand.started_at = None
    money = Money(hand.unit_scale)
    hand.sb, hand.bb = money(m["sb"]), money(m["bb"])
    # the old dialect writes no betting structure: Omaha is pot limit unless its own bets say
    # otherwise (``_no_limit_from_bets``), Hold'em no limit; limit tables are told by their blinds
    hand.betting = "PL" if hand.variant.startswith("omaha") else "CAP" if "CAP" in table.upper() else "NL"

    b = HandBuilder(hand)
    i = 2
    if i < len(lines) and (btn := _OLD_BUTTON.match(lines[i])) is not None:
        hand.button_seat = int(btn["seat"])
        i += 1
    i, by_length = _old_seats(lines, i, hand, money)
    dealt: dict[str, str] = {}

    def street(line: str) -> bool:
        if not line.startswith("***"):
            return False
        _old_street(line, b)
        return True

    def player(rest: str) -> None:
        _old_action(rest, b, money, by_length, dealt=dealt, hand=hand)

    _old_body(lines, i, _OldHand(hand, b, money, by_length), street, player)
    _fixed_limit_from_blinds(hand)
    _no_limit_from_bets(hand)
    for who, card_text in dealt.items():
        hand.hero = who
        b.hole(who, card_text, Provenance.DEALT)
    return b.finish()


def _parse_old_stud(lines: list[str], block: Block, source_file: str, m: re.Match[str]) -> Hand:
    """An old-dialect seven card stud hand: the header's stakes are the small and big bet."""
    hand = new_hand(site="winning", hand_no=m["no"], fmt="winning", source_file=source_file,
                    offset=block.offset, length=block.length)
    hand.variant, hand.betting, hand.table_name = _OLD_STUD[m["game"].strip()], "FL", m["table"].strip()
    hand.currency = "PLAY" if " PM " in f" {hand.table_name} " else "USD"
    money = Money(100)
    hand.small_bet, hand.big_bet = money(m["sb"]), money(m["bb"])
    hand.sb, hand.bb = 0, hand.small_bet
    b = HandBuilder(hand)
    b.new_street(Street.THIRD)
    i, by_length = _old_seats(lines, 2, hand, money)
    deal = _StudDeal(hand)
    completed = False

    def street(line: str) -> bool:
        if not line.startswith(_OLD_STUD_ROUNDS):
            return False
        b.new_street(STUD_STREETS[_OLD_STUD_ROUNDS.index(line[: line.index(" street") + 7]) + 1])
        return True

    def player(text: str) -> None:
        nonlocal completed
        who, rest = _player(text, by_length)
        if rest.startswith("received card: ") or rest.startswith("received a card"):
            deal.card(who, b.street, cards(rest[15:]) if rest[9] == "c" else "??")
        elif rest.startswith("bring in ("):
            amount = money(_OLD_AMOUNT.search(rest)["amt"])  # type: ignore[index]
            hand.bring_in = hand.bring_in or amount
            b.post(who, Kind.BRING_IN, amount)
        elif not completed and b.street is Street.THIRD and rest.startswith(("bets (", "raises (")):
            added = money(_OLD_AMOUNT.search(rest)["amt"])  # type: ignore[index]
            b.complete(who, b.committed(who) + added, added)
            completed = True
        else:
            _old_action(text, b, money, by_length, dealt={}, hand=hand)

    _old_body(lines, i, _OldHand(hand, b, money, by_length), street, player)
    deal.finish(b)
    return b.finish()


def _old_seats(lines: list[str], i: int, hand: Hand, money: Money) -> tuple[int, list[str]]:
    """The old dialect's seat lines from line ``i``: where the lines after them start, and the
    names longest first (an action line's name is matched against them)."""
    while i < len(lines) and (s := _OLD_SEAT.match(lines[i])) is not None:
        hand.seats.append(Seat(int(s["seat"]), s["name"], money(s["cash"]), s["out"] is not None))
        i += 1
    if not hand.seats:
        raise ParseError("no seats", i + 1)
    return i, sorted((seat.player for seat in hand.seats), key=len, reverse=True)


@dataclass(frozen=True)
class _OldHand:
    """What every old-dialect line reader needs: the hand, its builder, its money and its names."""

    hand: Hand
    b: HandBuilder
    money: Money
    by_length: list[str]


def _old_body(lines: list[str], start: int, h: _OldHand, street: Callable[[str], bool],
              player: Callable[[str], None]) -> None:
    """The lines after the seats, for both old-dialect hand kinds (flop games and stud): the
    summary, uncalled bets and the end line are read here; ``street`` reads a betting-round line
    (True when the line was one) and ``player`` the rest of a 'Player ...' line."""
    in_summary = ended = False
    for n in range(start, len(lines)):
        line = lines[n]
        try:
            if line.startswith("Game ended at"):
                ended = True
            elif line.startswith("------ Summary"):
                in_summary = True
            elif in_summary:
                _old_summary(line, h.hand, h.b, h.money, h.by_length)
            elif street(line):
                pass
            elif line.startswith("Uncalled bet ("):
                u = _UNCALLED.match(line)
                if u is None:
                    raise ParseError(f"bad uncalled line {line!r}")
                h.b.uncalled(u["name"], h.money(u["amt"]))
            elif line.startswith("Player "):
                player(line[7:])
            else:
                raise ParseError(f"unrecognised line {line!r}")
        except ParseError as exc:
            raise ParseError(exc.reason, n + 1) from None
    if not ended:
        raise ParseError("truncated hand: no 'Game ended at' line")


class _StudDeal:
    """Stud cards as dealt one at a time: the first two and the seventh down, the rest up.

    Why: the rows a street's cards make (down cards together, the up-card on its own) and the
    hero (the one player whose down cards are written) need the whole hand's deal.
    """

    __slots__ = ("hand", "held", "rows")

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.held: dict[str, list[str]] = {}
        self.rows: list[tuple[str, Street, bool, str]] = []

    def card(self, player: str, street: Street, card: str) -> None:
        mine = self.held.setdefault(player, [])
        up = 2 <= len(mine) <= 5
        if len(mine) >= 7 or (street is Street.THIRD) != (len(mine) < 3):
            raise ParseError(f"card {len(mine) + 1} of {player} dealt on {street.value} street")
        mine.append(card)
        if card != "??" and not up:
            self.hand.hero = player
        if self.rows and self.rows[-1][:3] == (player, street, up):
            self.rows[-1] = (player, street, up, self.rows[-1][3] + card)
        else:
            self.rows.append((player, street, up, card))

    def finish(self, b: HandBuilder) -> None:
        self.hand.street_cards.extend(StreetCards(p, street, text, up) for p, street, up, text in self.rows)
        hero = self.hand.hero
        if hero is not None:
            b.hole(hero, "".join(self.held[hero]), Provenance.DEALT)


def _fixed_limit_from_blinds(hand: Hand) -> None:
    """Limit tables write their bet sizes as stakes ('2/4' with blinds 1/2): detect and fix."""
    posted = [a.amount for a in hand.actions if a.kind is Kind.POST_BB and a.amount]
    if posted and hand.bb == 2 * max(posted) and hand.sb == max(posted):
        hand.betting = "FL"
        fixed_limit_blinds(hand, max(posted))


def _no_limit_from_bets(hand: Hand) -> None:
    """An old-dialect "PL" guess the hand itself refutes becomes NL.

    Why: the old dialect names the game ("(Omaha HiLow)") but not its structure. Pot limit is the
    usual reading (fpdb's too) and every other old Omaha bet in our files fits it, but the site ran
    no-limit Omaha as well (the new dialect writes "Omaha H/L(No Limit) - $3.00/$6.00"). A bet or
    raise above the pot-limit maximum (B + pot + call) that the site accepted, with the chips
    written into the pot and the uncalled part returned, cannot happen at a pot-limit table, so
    such a hand is read as no limit rather than as a site error nobody can show.
    """
    if hand.betting != "PL":
        return
    pot = 0
    street = Street.PREFLOP
    bets: dict[str, int] = {}
    for a in hand.actions:
        if a.street is not street:
            street, bets = a.street, {}
        if a.kind in (Kind.BET, Kind.RAISE) and a.raise_to is not None:
            top = max(bets.values(), default=0)
            if a.raise_to > top + pot + (top - bets.get(a.player, 0)):
                hand.betting = "NL"
                return
        pot += a.contribution
        if a.kind not in (Kind.POST_ANTE, Kind.POST_BB_ANTE, Kind.POST_DEAD):
            bets[a.player] = bets.get(a.player, 0) + a.contribution


def _old_street(line: str, b: HandBuilder) -> None:
    for prefix, street in _OLD_STREETS.items():
        if line.startswith(prefix):
            board = "".join(cards(g) for g in _BRACKETS.findall(line))
            if not board:
                raise ParseError(f"street header without board cards: {line!r}")
            b.new_street(street)
            b.board(1, board)
            return
    raise ParseError(f"unknown section {line!r}")


_NO_CHIPS = (
    "received a card", "mucks", "does not show", "sitting out", "is timed out", "wait BB",
    "is disconnected", "allin",
)


def _old_action(
    text: str, b: HandBuilder, money: Money, by_length: list[str], *, dealt: dict[str, str], hand: Hand
) -> None:
    if text.startswith(" ") and "" not in by_length:
        # the site sometimes writes a player with no name who is in no seat line; keep the
        # chips under the empty name rather than drop them (reconciliation still checks them)
        player, rest = "", text[1:]
    else:
        player, rest = _player(text, by_length)
    a = _OLD_AMOUNT.search(rest)
    amount = money(a["amt"]) if a else None
    verb = rest.split(" (", 1)[0]
    if verb in ("folds", "folds."):
        b.fold(player)
    elif verb == "checks":
        b.check(player)
    elif amount is not None and verb == "calls":
        b.call(player, amount)
    elif amount is not None and verb == "bets":
        b.bet(player, amount)
    elif amount is not None and verb in ("raises", "caps"):
        b.raise_by(player, amount)  # the old dialect writes the chips added
    elif amount is not None and verb == "allin":
        b.all_in_adding(player, amount)
    elif amount is not None and verb == "has small blind":
        b.post(player, Kind.POST_SB, amount)
    elif amount is not None and verb == "has big blind":
        b.post(player, Kind.POST_BB, amount)
    elif amount is not None and verb == "straddle":
        if not hand.straddle:
            hand.straddle = amount
        b.post(player, Kind.POST_STRADDLE, amount)
    elif amount is not None and verb == "ante":
        hand.ante = hand.ante or amount
        b.post(player, Kind.POST_ANTE, amount)
    elif amount is not None and verb == "posts":
        b.post(player, Kind.POST_DEAD if "dead" in rest else Kind.POST_BB, amount)
    elif rest.startswith("received card: "):
        dealt[player] = dealt.get(player, "") + cards(rest[15:])
    elif rest.startswith(_NO_CHIPS):
        return  # no chips move ("allin" alone follows a disconnection notice)
    else:
        raise ParseError(f"unknown action {rest!r}")


def _old_summary(line: str, hand: Hand, b: HandBuilder, money: Money, by_length: list[str]) -> None:
    if line.startswith("Pot: "):
        # "Pot: 319. Rake 1" / "Pot: 1.50 Rake 0.05 JP fee 0.02": the pot is after rake and fee
        nums = _NUMBER.findall(line[5:])
        pot = money(nums[0])
        rake = money(nums[1]) if len(nums) > 1 else 0
        fee = money(nums[2]) if len(nums) > 2 else None
        hand.site_rake, hand.site_fees = rake, fee
        hand.site_total_pot = pot + rake + (fee or 0)
    elif line.startswith("Board: "):
        b.board(1, "".join(cards(g) for g in _BRACKETS.findall(line)))
    elif line.startswith(("Player ", "*Player ")):
        text = line[line.index(" ") + 1 :]
        who, rest = ("", text[1:]) if text.startswith(" ") and "" not in by_length else _player(text, by_length)
        r = _OLD_RESULT.search(rest)
        if r is None:
            raise ParseError(f"bad summary line {line!r}")
        collects = money(r["collects"])
        if collects:
            b.award(who, collects)
        if rest.startswith("shows: ") or "does not show: [" in rest:
            groups = _BRACKETS.findall(rest)
            if groups:
                b.hole(who, cards(groups[0]), Provenance.SHOWN)


# ======================================================================================
def _parse_new(lines: list[str], block: Block, source_file: str) -> Hand:
    tour = lines[0].startswith(TOUR_START)
    m = (_TOUR_HEADER if tour else _NEW_HEADER).match(lines[0])
    if m is None:
        raise ParseError("unrecognised header", 1)
    game = m["game"].strip()
    if game not in _NEW_GAMES:
        raise ParseError(f"unsupported variant: {game}", 1)
    hand = new_hand(
        site="winning", hand_no=m["no"], fmt="winning", source_file=source_file,
        offset=block.offset, length=block.length,
    )
    hand.variant = _NEW_GAMES[game]
    hand.betting = _NEW_LIMITS.get(m["limit"], "NL")
    stakes = m["stakes"]
    if tour:
        hand.game_type, hand.tournament_id, hand.tournament_level = "tournament", m["tid"], m["level"]
        hand.currency, hand.unit_scale = "CHIPS", 1
    else:
        hand.currency = "USD" if "$" in stakes else "PLAY"
    money = Money(hand.unit_scale)
    sb, _, bb = stakes.partition("/")
    hand.sb, hand.bb = money(sb), money(bb)
    stud = hand.variant == "stud"
    if stud:  # the bet sizes; stud posts no blinds
        hand.small_bet, hand.big_bet, hand.sb = hand.sb, hand.bb, 0
        hand.bb = hand.small_bet
    elif hand.betting == "FL":  # "$20.00/$40.00" are the bet sizes: the big blind is the small bet
        hand.bb = hand.sb
    if m["zone"] == "UTC":
        hand.started_at = to_utc(m["when"], "%Y/%m/%d %H:%M:%S", UTC)
    t = _NEW_TABLE.match(lines[1]) if len(lines) > 1 else None
    if t is None:
        raise ParseError("missing table line", 2)
    hand.table_name = t["table"]
    hand.max_seats = int(t["max"])
    hand.button_seat = int(t["button"]) if t["button"] else None
    if "(Cap)" in hand.table_name:
        hand.betting = "CAP"

    b = HandBuilder(hand)
    i = 2
    while i < len(lines) and (s := _NEW_SEAT.match(lines[i])) is not None:
        hand.seats.append(Seat(int(s["seat"]), s["name"], money(s["cash"]), s["out"] is not None))
        i += 1
    if not hand.seats:
        raise ParseError("no seats", i + 1)
    by_length = sorted((seat.player for seat in hand.seats), key=len, reverse=True)
    run = 1
    in_summary = False
    if stud:
        return _new_stud(lines, i, b, money, by_length)
    for n in range(i, len(lines)):
        line = lines[n]
        try:
            if in_summary:
                _new_summary(line, hand, b, money)
            elif line.startswith("*** "):
                if line.startswith("*** SUMMARY"):
                    in_summary = True
                elif line.startswith("*** HOLE CARDS") or line.startswith("*** RUN IT"):
                    continue
                else:
                    run = _new_street(line, b, run)
            elif line.startswith(("Main pot", "Side pot")):
                continue  # running pot sizes, after rake: the summary total is used instead
            elif line.startswith("Dealt to "):
                who, tail = _player(line[9:], by_length)
                groups = _BRACKETS.findall(tail)
                if groups:
                    hand.hero = who
                    b.hole(who, "".join(cards(g) for g in groups), Provenance.DEALT)
            elif line.startswith("Uncalled bet ("):
                u = _UNCALLED.match(line)
                if u is None:
                    raise ParseError(f"bad uncalled line {line!r}")
                b.uncalled(u["name"], money(u["amt"]))
            else:
                player, rest = _player(line, by_length)
                _new_action(player, rest, b, money, hand=hand, run=run)
        except ParseError as exc:
            raise ParseError(exc.reason, n + 1) from None
    if not in_summary:
        raise ParseError("truncated hand: no *** SUMMARY *** section")
    if not hand.awards:  # a walk is only written in the summary ("did not show and won $0.07")
        for line in lines[lines.index("*** SUMMARY ***") :]:
            w = _SUMMARY_WON.match(line)
            if w is not None:
                b.award(w["name"], money(w["amt"]))
    if hand.betting == "FL":
        fixed_limit_blinds(hand, hand.bb)
    return b.finish()


def _new_stud(lines: list[str], start: int, b: HandBuilder, money: Money, by_length: list[str]) -> Hand:
    """A new-dialect seven card stud hand, from the line after the seats."""
    hand = b.hand
    b.new_street(Street.THIRD)
    completed = in_summary = False
    for n in range(start, len(lines)):
        line = lines[n]
        try:
            if in_summary:
                _new_summary(line, hand, b, money)
            elif line.startswith("*** SUMMARY"):
                in_summary = True
            elif line.startswith("*** "):
                street = _NEW_STUD_STREETS.get(line[4:].split(" ", 1)[0])
                if street is None:
                    raise ParseError(f"unknown section {line!r}")
                b.new_street(street)
            elif line.startswith(("Main pot", "Side pot")):
                continue
            elif line.startswith("Dealt to "):
                who, tail = _player(line[9:], by_length)
                _stud_dealt(hand, b.street, who, [cards(g) for g in _BRACKETS.findall(tail)])
            elif line.startswith("Uncalled bet ("):
                u = _UNCALLED.match(line)
                if u is None:
                    raise ParseError(f"bad uncalled line {line!r}")
                b.uncalled(u["name"], money(u["amt"]))
            else:
                player, rest = _player(line, by_length)
                if rest.startswith("brings in "):
                    amount = money(_tail(rest[10:])["amt"])
                    hand.bring_in = hand.bring_in or amount
                    b.post(player, Kind.BRING_IN, amount)
                    continue
                _new_action(player, rest, b, money, hand=hand, run=1)
                last = hand.actions[-1]
                if not completed and b.street is Street.THIRD and last.kind in (Kind.BET, Kind.RAISE):
                    hand.actions[-1] = last._replace(kind=Kind.COMPLETE)  # the bring-in completed
                    completed = True
        except ParseError as exc:
            raise ParseError(exc.reason, n + 1) from None
    if not in_summary:
        raise ParseError("truncated hand: no *** SUMMARY *** section")
    if not hand.awards:
        for line in lines[lines.index("*** SUMMARY ***") :]:
            if (w := _SUMMARY_WON.match(line)) is not None:
                b.award(w["name"], money(w["amt"]))
    if hand.hero is not None:
        held = "".join(c.cards for c in hand.street_cards if c.player == hand.hero)
        b.hole(hand.hero, held, Provenance.DEALT)
    return b.finish()


def _stud_dealt(hand: Hand, street: Street, who: str, groups: list[str]) -> None:
    """'Dealt to P [As 2s Qs] [3c]': the last group is new; three cards on third street are the
    hero's (two down, one up) and the seventh street card is down."""
    if not groups:
        raise ParseError(f"no cards dealt to {who}")
    new = groups[-1]
    rows = hand.street_cards
    if street is Street.THIRD and len(new) == 6:
        hand.hero = who
        rows.append(StreetCards(who, street, new[:4], False))
        rows.append(StreetCards(who, street, new[4:], True))
    else:
        if street is Street.SEVENTH:
            hand.hero = who
        rows.append(StreetCards(who, street, new, street is not Street.SEVENTH))


def _new_street(line: str, b: HandBuilder, run: int) -> int:
    m = _NEW_STREET.match(line)
    if m is None:
        raise ParseError(f"unknown section {line!r}")
    run_no = int(m["run"]) if m["run"] else 1
    if m["street"] == "SHOW DOWN":
        b.new_street(Street.SHOWDOWN)
        return run_no
    b.new_street(_NEW_STREETS[m["street"]])
    b.board(run_no, "".join(cards(g) for g in _BRACKETS.findall(line)))
    return run_no


def _tail(text: str) -> re.Match[str]:
    a = _AMT_TAIL.match(text)
    if a is None:
        raise ParseError(f"bad amount {text!r}")
    return a


def _new_action(player: str, rest: str, b: HandBuilder, money: Money, *, hand: Hand, run: int) -> None:
    if stars_decision(player, rest, b, money, _tail, _RAISE):
        return
    if rest.startswith("caps "):
        a = _tail(rest[5:])
        b.raise_by(player, money(a["amt"]), a["allin"] is not None)
    elif rest.startswith("posts the small blind "):
        b.post(player, Kind.POST_SB, money(_tail(rest[22:])["amt"]))
    elif rest.startswith("posts the big blind "):
        b.post(player, Kind.POST_BB, money(_tail(rest[20:])["amt"]))
    elif rest.startswith("posts ante "):
        amount = money(_tail(rest[11:])["amt"])
        hand.ante = hand.ante or amount
        b.post(player, Kind.POST_ANTE, amount)
    elif rest.startswith("posts dead "):
        amount = money(_tail(rest[11:])["amt"])
        if amount > hand.bb:  # small + big blind together: the big blind is live
            b.post(player, Kind.POST_BB, hand.bb)
            b.post(player, Kind.POST_DEAD, amount - hand.bb)
        else:
            b.post(player, Kind.POST_DEAD, amount)
    elif rest.startswith("posts straddle ") or rest.startswith("straddle "):
        amount = money(_tail(rest.rsplit(" ", 1)[-1])["amt"])
        hand.straddle = hand.straddle or amount
        b.post(player, Kind.POST_STRADDLE, amount)
    elif rest.startswith("collected "):
        c = _COLLECT.match(rest)
        if c is None:
            raise ParseError(f"bad collect {rest!r}")
        # with run it twice "main pot 2" is the second board's main pot
        pot_no = int(c["n"] or 1) if c["pot"] == "side" else 0
        b.award(player, money(c["amt"]), pot_no, run)
    elif rest.startswith("shows "):
        groups = _BRACKETS.findall(rest)
        if not groups:
            raise ParseError(f"bad show {rest!r}")
        b.show(player, cards(groups[0]))
    elif rest.startswith(("mucks", "does not show", "sits out", "is sitting out", "wait BB")):
        if rest.startswith("mucks"):
            b.muck(player)
    else:
        raise ParseError(f"unknown action {rest!r}")


def _new_summary(line: str, hand: Hand, b: HandBuilder, money: Money) -> None:
    if line.startswith("Total pot "):
        parts = [p.strip() for p in line.split("|")]
        total = money(parts[0][10:])
        rake = fee = None
        for part in parts[1:]:
            label, _, amt = part.rpartition(" ")
            if label == "Rake":
                rake = money(amt)
            else:  # "JP Fee": the jackpot drop
                fee = (fee or 0) + money(amt)
        hand.site_rake, hand.site_fees = rake, fee
        # the written total is after rake and jackpot fee
        hand.site_total_pot = total + (rake or 0) + (fee or 0)
    elif line.startswith("Seat "):
        s = _SHOWED.match(line)
        if s is not None and s["cards"]:
            b.hole(s["name"], cards(s["cards"]), Provenance.SHOWN)


FORMAT = WinningFormat()
