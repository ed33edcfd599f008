"""Seals With Clubs text hand histories ("Hand #5223590-18 - 2013-04-09 19:37:28", "Site: Seals With Clubs").

Why its own module: the site (a bitcoin poker room, 2013) writes its own header lines ("Game: NL
Hold'em (20 - 100) - Blinds 0.50/1", the buy-in range in parentheses; "Limit Hold'em ... - Stakes
2/4" names the fixed-limit bets) and its own words: calls and bets are the chips added, raises the
street total ("raises to 3"), an uncalled bet is "refunded", "posts small & big blind 1.50" is a live
big blind plus a dead small blind, each pot is "wins Pot (6.83)" / "wins Side Pot 1 (2)" / "wins Main
Pot (6)" followed by its own "Rake (0.17)", and "adds 94 chips" (a top-up for the next hand) moves
no chips of this one.

Money: amounts are milli-bitcoin with at most two decimals, so the unit is 1/100 mBTC and the hand's
currency is BTC with ``unit_scale`` 100,000. Times are written without a zone (``started_at`` None).
"""

from __future__ import annotations

import re
from typing import ClassVar

from parsers.base import StartLineFormat
from parsers.formats._stakes import fixed_limit_blinds
from parsers.formats._stars_like import HandBuilder, Money, cards, feed_lines, new_hand
from parsers.model import Hand, Kind, ParseError, Provenance, Seat, Street
from parsers.reading import Block

_START = re.compile(r"^(?:\ufeff)?Hand #(?P<no>\d+-\d+) - \d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?=\s|$)")
_GAME = re.compile(r"^Game: (?P<limit>NL|PL|Limit) (?P<game>.+?) \([^)]*\) - (?:Blinds|Stakes) "
                   r"(?P<sb>[\d.]+)/(?P<bb>[\d.]+)$")
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<cash>[\d.]+)\)(?P<note> - .+)?$")
_STREET = re.compile(r"^\*\* (?P<street>Hole Cards|Flop|Turn|River|(?:Main |Side )?Pot(?: \d+)? Show Down) \*\*"
                     r"(?: \[(?P<cards>[^]]*)\])?$")
_WINS = re.compile(r"^(?P<name>.+?) wins (?:Pot|Main Pot|Side Pot (?P<side>\d+)) \((?P<amt>[\d.]+)\)(?: with .+)?$")
_RAKE = re.compile(r"^Rake \((?P<amt>[\d.]+)\)$")
_ALL_IN = " (All-in)"
_LIMITS = {"NL": "NL", "PL": "PL", "Limit": "FL"}
_GAMES = {"Hold'em": "holdem", "Omaha": "omaha"}
_STREETS = {"Flop": Street.FLOP, "Turn": Street.TURN, "River": Street.RIVER}


class SealsWithClubsFormat(StartLineFormat):
    name: ClassVar[str] = "sealswithclubs"
    priority: ClassVar[int] = 50
    description: ClassVar[str] = "Seals With Clubs text hand histories (bitcoin cash games, mBTC)"
    start: ClassVar[re.Pattern[str]] = _START

    def sniff(self, head: str) -> bool:
        return super().sniff(head) and "\nSite: Seals With Clubs" in head[:400]

    def parse_block(self, block: Block, source_file: str) -> Hand | None:
        return _parse([ln.strip() for ln in block.lines if ln.strip()], block, source_file)


def _parse(lines: list[str], block: Block, source_file: str) -> Hand:
    head = _START.match(lines[0])
    if head is None or len(lines) < 4:
        raise ParseError(f"unrecognised header {lines[0][:100]!r}", 1)
    hand = new_hand(site="sealswithclubs", hand_no=head["no"], fmt="sealswithclubs", source_file=source_file,
                    offset=block.offset, length=block.length)
    hand.currency, hand.unit_scale = "BTC", 100_000
    money = Money(100)  # written in mBTC: 1/100 mBTC is 1/100,000 BTC
    small = _game(hand, lines[1], money)
    reader = _Reader(hand, money)
    feed_lines(reader.line, lines[2:], 3)
    if not hand.awards:
        raise ParseError("truncated hand: no 'wins' line")
    if hand.betting == "FL":
        fixed_limit_blinds(hand, small)  # "Stakes 2/4": the small bet is the big blind
    return reader.b.finish()


def _game(hand: Hand, line: str, money: Money) -> int:
    """Structure, variant and stakes from the 'Game:' line; the first stake written."""
    g = _GAME.match(line)
    if g is None:
        raise ParseError(f"unrecognised game line {line[:100]!r}", 2)
    if g["game"] not in _GAMES:
        raise ParseError(f"unsupported variant: {g['game']}", 2)
    hand.variant, hand.betting = _GAMES[g["game"]], _LIMITS[g["limit"]]
    hand.sb, hand.bb = money(g["sb"]), money(g["bb"])
    return hand.sb


class _Reader:
    """The lines after the 'Game:' line, into the builder."""

    def __init__(self, hand: Hand, money: Money) -> None:
        self.hand, self.money = hand, money
        self.b = HandBuilder(hand)
        self.names: list[str] = []
        self.pot = 0

    def line(self, line: str) -> None:
        if line.startswith("Site: "):
            if line != "Site: Seals With Clubs":
                raise ParseError(f"not a Seals With Clubs hand: {line!r}")
        elif line.startswith("Table: "):
            self.hand.table_name = line[7:]
        elif m := _SEAT.match(line):
            self._seat(m)
        elif m := _STREET.match(line):
            self._street(m["street"], m["cards"])
        elif line.startswith("Dealt to "):
            player, rest = self._player(line[9:])
            self.hand.hero = player
            self.b.hole(player, cards(rest), Provenance.DEALT)
        elif m := _WINS.match(line):
            self.b.award(self._player(m["name"] + " ")[0], self.money(m["amt"]), int(m["side"] or 0))
        elif m := _RAKE.match(line):
            self.hand.site_rake = (self.hand.site_rake or 0) + self.money(m["amt"])
        else:
            player, rest = self._player(line)
            self._action(player, rest)

    def _seat(self, m: re.Match[str]) -> None:
        note = (m["note"] or "")[3:]
        if note not in ("", "sitting out", "waiting for big blind"):
            raise ParseError(f"unrecognised seat note {note!r}")
        self.hand.seats.append(Seat(int(m["seat"]), m["name"], self.money(m["cash"]), note == "sitting out"))
        self.names = sorted((s.player for s in self.hand.seats), key=len, reverse=True)

    def _player(self, text: str) -> tuple[str, str]:
        for name in self.names:
            if text.startswith(name + " "):
                return name, text[len(name) + 1:].strip()
        raise ParseError(f"unrecognised line {text[:80]!r}")

    def _street(self, street: str, board: str | None) -> None:
        if street in _STREETS:
            self.b.new_street(_STREETS[street])
            self.b.board(1, self.b.boards.get(1, "") + cards(board or ""))
        elif street != "Hole Cards":
            self.b.new_street(Street.SHOWDOWN)

    def _action(self, player: str, rest: str) -> None:
        b, money = self.b, self.money
        all_in = rest.endswith(_ALL_IN)
        rest = rest.removesuffix(_ALL_IN)
        verb, _, arg = rest.partition(" ")
        if rest == "has the dealer button":
            self.hand.button_seat = next(s.seat_no for s in self.hand.seats if s.player == player)
        elif rest == "folds":
            b.fold(player)
        elif rest == "checks":
            b.check(player)
        elif verb == "calls":
            b.call(player, money(arg), all_in)
        elif verb == "bets":
            b.bet(player, money(arg), all_in)
        elif rest.startswith("raises to "):
            b.raise_to(player, None, money(rest[10:]), all_in)
        elif verb == "refunded":
            b.uncalled(player, money(arg))
        elif rest.startswith("posts small & big blind "):
            self._post_both(player, money(rest[24:]))
        elif rest.startswith(("posts small blind ", "posts big blind ")):
            b.post(player, Kind.POST_SB if "small" in rest else Kind.POST_BB, money(rest.rsplit(" ", 1)[1]), all_in)
        elif verb == "shows":
            b.show(player, cards(arg.split("]", 1)[0]))
        elif re.fullmatch(r"adds [\d.]+ chips", rest):
            return  # a top-up for the next hand
        else:
            raise ParseError(f"unrecognised action {rest[:80]!r}")

    def _post_both(self, player: str, total: int) -> None:
        """'posts small & big blind 1.50': the big blind live, the small blind dead."""
        dead = total - self.hand.bb
        if dead <= 0:
            raise ParseError(f"small & big blind {total} is not above the big blind {self.hand.bb}")
        self.b.post(player, Kind.POST_BB, self.hand.bb)
        self.b.post(player, Kind.POST_DEAD, dead)


FORMAT = SealsWithClubsFormat()
