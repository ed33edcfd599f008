"""Betfair Poker text hand histories ("***** Betfair Poker Hand History for Game N *****").

Why its own module: Betfair's banner and bracketed amounts look like old PartyPoker, but its amounts
mean other things, each checked on the real file (fpdb's ``cash/Betfair``, the one Betfair sample
of the corpus):

* "raises to [$1]" is the street total the raiser reaches; "calls [$0.20]" and "bets [$0.10]" are
  the chips added;
* "Hero goes all-in" is written on its own line before the action that puts the last chips in;
* a second "posts big blind" (a player entering out of position) is a live big blind;
* the pots are written after the rake ("wins $4.44 from main pot") and the rake itself is never
  written: reconciliation implies it (and bounds it).

Only what the sample shows is read (No/Pot/Fixed Limit Hold'em and Omaha, a "GMT" clock); any other
line is a ParseError naming it, so a Betfair dialect not seen yet is quarantined, not guessed.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import ClassVar

from parsers.base import HeaderLineFormat
from parsers.formats._stars_like import HandBuilder, Money, cards, feed_lines, new_hand
from parsers.model import Hand, Kind, ParseError, Provenance, Seat, Street
from parsers.reading import Block

_START = re.compile(r"^\ufeff?\*{5} Betfair Poker Hand History for Game (?P<no>\d+) \*{5}")
_GAME = re.compile(
    r"^(?P<limit>NL|PL|FL) (?P<sym>[$€£])(?P<sb>[\d.,]+)/[$€£](?P<bb>[\d.,]+) (?P<game>Texas Hold'em|Omaha)"
    r" - \w+, (?P<month>[A-Z][a-z]+) (?P<day>\d+), (?P<time>\d\d:\d\d:\d\d) (?P<zone>\w+) (?P<year>\d{4})\s*$"
)
_TABLE = re.compile(r"^Table (?P<name>.+?)(?: (?P<max>\d+)-max)? \((?P<money>Real|Play) Money\)\s*$")
_BUTTON = re.compile(r"^Seat (?P<seat>\d+) is the button$")
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \( [$€£]?(?P<cash>[\d.,]+) \)$")
_BRACKET = re.compile(r"^(?P<p>.+?) (?P<v>posts small blind|posts big blind|calls|bets|raises to) \[(?P<a>[^]]+)\]$")
_STREET = re.compile(r"^\*\* Dealing (?P<street>Flop|Turn|River) \*\* \[(?P<cards>[^]]+)\]$")
_DEALT = re.compile(r"^Dealt to (?P<p>.+?) \[(?P<cards>[^]]+)\]$")
_SHOWS = re.compile(r"^(?P<p>.+?) shows \[(?P<cards>[^]]+)\]")
_WINS = re.compile(r"^(?P<p>.+?) wins [$€£]?(?P<a>[\d.,]+) from (?:side pot #(?P<side>\d+)|main pot)\b")
_END = re.compile(r"^\*+ +Game \d+ ends +\*+$")
_SKIPPED = ("Total number of active players", "** Dealing down cards **", "** Hand Conclusion **")

_GAMES = {"Texas Hold'em": "holdem", "Omaha": "omaha"}
_CURRENCY = {"$": "USD", "€": "EUR", "£": "GBP"}
_STREETS = {"Flop": Street.FLOP, "Turn": Street.TURN, "River": Street.RIVER}
_MONTHS = {m: i for i, m in enumerate(("January", "February", "March", "April", "May", "June", "July",
                                        "August", "September", "October", "November", "December"), 1)}


class BetfairFormat(HeaderLineFormat):
    name: ClassVar[str] = "betfair"
    priority: ClassVar[int] = 50
    description: ClassVar[str] = "Betfair Poker text hand histories"
    start: ClassVar[re.Pattern[str]] = _START

    def read(self, head: re.Match[str], lines: list[str], block: Block, source_file: str) -> Hand:
        return _parse(head, lines, block, source_file)


def _parse(head: re.Match[str], lines: list[str], block: Block, source_file: str) -> Hand:
    if len(lines) < 4 or (g := _GAME.match(lines[1])) is None:
        raise ParseError(f"unrecognised game line {lines[1] if len(lines) > 1 else ''!r}", 2)
    if (t := _TABLE.match(lines[2])) is None:
        raise ParseError(f"unrecognised table line {lines[2]!r}", 3)
    hand = new_hand(site="betfair", hand_no=head["no"], fmt="betfair", source_file=source_file,
                    offset=block.offset, length=block.length)
    hand.variant, hand.betting = _GAMES[g["game"]], {"NL": "NL", "PL": "PL", "FL": "FL"}[g["limit"]]
    hand.currency = "PLAY" if t["money"] == "Play" else _CURRENCY[g["sym"]]
    money = Money(hand.unit_scale)
    hand.sb, hand.bb = money(g["sb"]), money(g["bb"])
    hand.table_name, hand.max_seats = t["name"], int(t["max"]) if t["max"] else None
    if g["zone"] == "GMT":  # the only zone the sample writes; any other leaves the time unknown
        hh, mm, ss = (int(x) for x in g["time"].split(":"))
        hand.started_at = datetime(int(g["year"]), _MONTHS[g["month"]], int(g["day"]), hh, mm, ss)
    reader = _Reader(hand, money)
    feed_lines(reader.line, lines[3:], 4)
    if not reader.ended:
        raise ParseError("truncated hand: no 'Game N ends' line")
    if not hand.awards:
        raise ParseError("truncated hand: no winner written")
    return reader.b.finish()


class _Reader:
    """The lines after the table line, into the builder."""

    def __init__(self, hand: Hand, money: Money) -> None:
        self.hand, self.money, self.b = hand, money, HandBuilder(hand)
        self.going_all_in: set[str] = set()  # "X goes all-in": X's next action puts the last chips in
        self.ended = False
        self.board = ""  # each street's line writes only its new cards

    def line(self, line: str) -> None:
        if line.startswith(_SKIPPED) or self.b.passive(line):
            return
        if (m := _BUTTON.match(line)) is not None:
            self.hand.button_seat = int(m["seat"])
        elif (m := _SEAT.match(line)) is not None:
            self.hand.seats.append(Seat(int(m["seat"]), m["name"], self.money(m["cash"])))
        elif (m := _STREET.match(line)) is not None:
            self.b.new_street(_STREETS[m["street"]])
            self.board += cards(m["cards"])
            self.b.board(1, self.board)
        elif line == "** Showdown **":
            self.b.new_street(Street.SHOWDOWN)
        elif (m := _DEALT.match(line)) is not None:
            self.hand.hero = self.b.seated(m["p"])
            self.b.hole(self.hand.hero, cards(m["cards"]), Provenance.DEALT)
        elif (m := _WINS.match(line)) is not None:
            self.b.award(self.b.seated(m["p"]), self.money(m["a"]), int(m["side"] or 0))
        elif (m := _SHOWS.match(line)) is not None:
            self.b.show(self.b.seated(m["p"]), cards(m["cards"]))
        elif _END.match(line):
            self.ended = True
        elif line.endswith(" goes all-in"):
            self.going_all_in.add(self.b.seated(line[: -len(" goes all-in")]))
        elif (m := _BRACKET.match(line)) is not None:
            self._amount(self.b.seated(m["p"]), m["v"], self.money(m["a"]))
        else:
            raise ParseError(f"unrecognised line {line!r}")

    def _amount(self, player: str, verb: str, amount: int) -> None:
        all_in = player in self.going_all_in
        self.going_all_in.discard(player)
        if verb == "posts small blind":
            self.b.post(player, Kind.POST_SB, amount, all_in)
        elif verb == "posts big blind":
            self.b.post(player, Kind.POST_BB, amount, all_in)
        elif verb == "calls":
            self.b.call(player, amount, all_in)
        elif verb == "bets":
            self.b.bet(player, amount, all_in)
        else:  # "raises to [$1]": the street total
            self.b.raise_to(player, None, amount, all_in)


FORMAT = BetfairFormat()
