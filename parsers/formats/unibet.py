"""Unibet text hand histories ("Game #N: Table €1 NL - 0.05/0.10 - No Limit Hold'Em Banzai - ...").

Why its own module: Unibet's own client writes sections ("*** Seated players ***", "*** Blinds and
button ***", "*** Hole cards ***", "*** Preflop ***", "*** Summary ***") that no other site does.
What the real file (fpdb's ``cash/Unibet``, the one Unibet sample of the corpus) shows:

* "raises €0.95 to €0.95, and is all-in": the "to" amount is the street total;
* an uncalled bet is never handed back in writing: the winner "wins €1.10", the whole pot with the
  unmatched chips in it (as 888 pays an uncalled raise inside "collected"), so no return is derived;
* the summary writes each seat's "bet €0.95 and won €1.10": checked against the actions here
  (ParseError otherwise), so a misread amount cannot pass;
* the time has no zone ("13:22:50 2021/04/04"): ``started_at`` stays unknown.

Only what the sample shows is read; any other line is a ParseError naming it.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import ClassVar

from parsers.base import HeaderLineFormat
from parsers.formats._stars_like import HandBuilder, Money, cards, feed_lines, new_hand
from parsers.model import Hand, Kind, ParseError, Provenance, Seat, Street
from parsers.reading import Block

_START = re.compile(
    r"^\ufeff?Game #(?P<no>\d+): Table (?P<table>.+?) - [$€£]?(?P<sb>[\d.,]+)/[$€£]?(?P<bb>[\d.,]+)"
    r" - (?P<limit>No Limit|Pot Limit|Limit) (?P<game>Hold'Em|Omaha)\b"
)
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<sym>[$€£])(?P<cash>[\d.,]+)\)$")
_BUTTON = re.compile(r"^(?P<p>.+?) has the button$")
_POST = re.compile(r"^(?P<p>.+?) posts (?P<v>small|big) blind [$€£](?P<a>[\d.,]+)$")
_ACTION = re.compile(
    r"^(?P<p>.+?) (?P<v>calls|bets|raises) [$€£](?P<a>[\d.,]+)(?: to [$€£](?P<to>[\d.,]+))?(?P<allin>, and is all-in)?$"
)
_DEALT = re.compile(r"^Dealt to (?P<p>.+?) \[(?P<cards>[^]]+)\]$")
_WINS = re.compile(r"^(?P<p>.+?) wins [$€£](?P<a>[\d.,]+)$")
_SECTION = re.compile(r"^\*\*\* (?P<name>[A-Z][a-z]+(?: [a-z]+)*) \*\*\*(?: \[(?P<cards>[^]]+)\])?$")
_TOTAL = re.compile(r"^Total pot [$€£](?P<pot>[\d.,]+) Rake [$€£](?P<rake>[\d.,]+)$")
_RESULT = re.compile(r"^Seat \d+: (?P<p>.+?): bet [$€£](?P<bet>[\d.,]+) and won [$€£](?P<won>[\d.,]+), net result: ")

_GAMES = {"Hold'Em": "holdem", "Omaha": "omaha"}
_LIMITS = {"No Limit": "NL", "Pot Limit": "PL", "Limit": "FL"}
_CURRENCY = {"$": "USD", "€": "EUR", "£": "GBP"}
_STREETS = {"Flop": Street.FLOP, "Turn": Street.TURN, "River": Street.RIVER}
_QUIET_SECTIONS = ("Seated players", "Blinds and button", "Hole cards", "Preflop")


class UnibetFormat(HeaderLineFormat):
    name: ClassVar[str] = "unibet"
    priority: ClassVar[int] = 50
    description: ClassVar[str] = "Unibet text hand histories"
    start: ClassVar[re.Pattern[str]] = _START

    def read(self, head: re.Match[str], lines: list[str], block: Block, source_file: str) -> Hand:
        return _parse(head, lines, block, source_file)


def _parse(head: re.Match[str], lines: list[str], block: Block, source_file: str) -> Hand:
    hand = new_hand(site="unibet", hand_no=head["no"], fmt="unibet", source_file=source_file,
                    offset=block.offset, length=block.length)
    hand.variant, hand.betting, hand.table_name = _GAMES[head["game"]], _LIMITS[head["limit"]], head["table"]
    money = Money(hand.unit_scale)
    hand.sb, hand.bb = money(head["sb"]), money(head["bb"])
    reader = _Reader(hand, money)
    feed_lines(reader.line, lines[1:], 2)
    if not reader.results:
        raise ParseError("truncated hand: no summary results")
    if not hand.awards:
        raise ParseError("truncated hand: no winner written")
    finished = reader.b.finish()
    _check_results(finished, reader.results)
    return finished


def _check_results(hand: Hand, results: dict[str, tuple[int, int]]) -> None:
    """Each summary seat's "bet X and won Y" must be what its actions put in and what it was awarded."""
    put_in: Counter[str] = Counter()
    won: Counter[str] = Counter()
    for a in hand.actions:
        put_in[a.player] += a.contribution
    for w in hand.awards:
        won[w.player] += w.amount
    for player, (bet, got) in results.items():
        if (put_in[player], won[player]) != (bet, got):
            raise ParseError(f"{player} puts in {put_in[player]} and wins {won[player]} by the actions, but the "
                             f"summary says bet {bet} and won {got}")


class _Reader:
    """The lines after the header, into the builder; the summary's per-seat results kept to check."""

    def __init__(self, hand: Hand, money: Money) -> None:
        self.hand, self.money, self.b = hand, money, HandBuilder(hand)
        self.results: dict[str, tuple[int, int]] = {}
        self.in_summary = False
        self.board = ""

    def line(self, line: str) -> None:
        if (m := _SECTION.match(line)) is not None:
            self._section(m["name"], m["cards"])
        elif self.in_summary:
            self._summary(line)
        elif self.b.passive(line):
            return
        elif (m := _SEAT.match(line)) is not None:
            self.hand.seats.append(Seat(int(m["seat"]), m["name"], self.money(m["cash"])))
            self.hand.currency = _CURRENCY[m["sym"]]
        elif (m := _BUTTON.match(line)) is not None:
            self.hand.button_seat = next(s.seat_no for s in self.hand.seats if s.player == self.b.seated(m["p"]))
        elif line.startswith("Dealt in "):
            self.b.seated(line[len("Dealt in "):])
        elif (m := _DEALT.match(line)) is not None:
            self.hand.hero = self.b.seated(m["p"])
            self.b.hole(self.hand.hero, cards(m["cards"]), Provenance.DEALT)
        elif (m := _POST.match(line)) is not None:
            kind = Kind.POST_SB if m["v"] == "small" else Kind.POST_BB
            self.b.post(self.b.seated(m["p"]), kind, self.money(m["a"]))
        elif (m := _WINS.match(line)) is not None:
            self.b.award(self.b.seated(m["p"]), self.money(m["a"]))
        elif (m := _ACTION.match(line)) is not None:
            self._action(self.b.seated(m["p"]), m)
        else:
            raise ParseError(f"unrecognised line {line!r}")

    def _section(self, name: str, text: str | None) -> None:
        if name == "Summary":
            self.in_summary = True
        elif name in _STREETS and text:
            self.b.new_street(_STREETS[name])
            self.board += cards(text)
            self.b.board(1, self.board)
        elif name not in _QUIET_SECTIONS:
            raise ParseError(f"unrecognised section '*** {name} ***'")

    def _action(self, player: str, m: re.Match[str]) -> None:
        amount, all_in = self.money(m["a"]), m["allin"] is not None
        if m["v"] == "calls":
            self.b.call(player, amount, all_in)
        elif m["v"] == "bets":
            self.b.bet(player, amount, all_in)
        elif m["to"] is None:
            raise ParseError(f"raise without a total: {m.group(0)!r}")
        else:
            self.b.raise_to(player, amount, self.money(m["to"]), all_in)

    def _summary(self, line: str) -> None:
        if (t := _TOTAL.match(line)) is not None:
            self.hand.site_total_pot, self.hand.site_rake = self.money(t["pot"]), self.money(t["rake"])
        elif (r := _RESULT.match(line)) is not None:
            self.results[self.b.seated(r["p"])] = (self.money(r["bet"]), self.money(r["won"]))
        else:
            raise ParseError(f"unrecognised summary line {line!r}")


FORMAT = UnibetFormat()
