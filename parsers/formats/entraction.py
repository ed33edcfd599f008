"""Entraction (Tribeca / Entraction network) text hand histories: "Game # N - ... - Table ...".

Why its own module: Entraction writes column-aligned lines ("Player4      Raise       (2.50)")
where every amount is the chips the action *adds* (a raise of 11.00 from the 0.50 small blind
reaches 11.50, a call of 8.00 from 3.50 meets it), an uncalled bet as "Payback", the blinds in a
block after the dealer ("Small Blind:", "Big Blind:", "Blind out of turn:" a live big blind,
"Small + Big Blind:" a live big blind plus a dead small blind), "wins:" and "Rake:" lines after
the showdown, and the time with its zone at the end ("Game ended 2011-08-06 18:53:35 CEST").
Fixed-limit headers name the bet sizes ("Fixed Limit EUR 10/20", blinds 5/10). Tournament hands
carry no currency ("No Limit 200/400 and 20 ante - Table "Double Chance €3,000 #1 12717727 2""),
the tournament number being the one before the table number. HHSmithy's samples drop the closing
"Game ended" line: a hand is complete once its "wins:" and "Rake:" lines are read (no time then).
Several hands of one export can
run together on one line ("...GMT+2:00\\ufeffGame # ..."): lines are cut at each hand start.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import ClassVar

from parsers.base import StartLineFormat, guarded_parse
from parsers.formats._stakes import fixed_limit_blinds
from parsers.formats._stars_like import HandBuilder, Money, cards, new_hand, shift_hours, zone_hours
from parsers.model import Hand, Kind, ParseError, Provenance, Quarantined, Seat, Street
from parsers.reading import Block, iter_blocks, iter_lines, split_lines_at

_START = re.compile(r"^\ufeff?Game # (?P<no>\d+) - ")
_HEADER = re.compile(
    r"^\ufeff?Game # (?P<no>\d+) - (?P<game>Texas Hold'em|Omaha High|Omaha Hi/Lo|5-Card Omaha High) "
    r"(?P<limit>No Limit|Pot Limit|Fixed Limit) (?:(?P<cur>[A-Z]{3}) )?(?P<sb>[\d.,]+)/(?P<bb>[\d.,]+)"
    r"(?: and (?P<ante>[\d.,]+) ante)? - Table \"(?P<table>.*)\"\s*$"
)
_SEAT = re.compile(r"^(?P<name>.+?)\s+\((?:[A-Z]{3} )?(?P<cash>[\d.,]+) in seat (?P<seat>\d+)\)$")
_MAX = re.compile(r"^Players\(max (?P<max>\d+)\):$")
_BLIND = re.compile(r"^(?P<what>Small Blind|Big Blind|Blind out of turn|Small \+ Big Blind):\s+(?P<name>.+?)\s+"
                    r"\((?P<amt>[\d.,]+)\)$")
_DEALER = re.compile(r"^Dealer:\s+(?P<name>.+)$")
_DEALT = re.compile(r"^(?P<name>.+?) was dealt:\s+(?P<cards>.+)$")
_STREET = re.compile(r"^(?P<street>Flop|Turn|River)\s+(?P<cards>.+)$")
_WINS = re.compile(r"^(?P<name>.+?) wins:\s+(?:[A-Z]{3} )?(?P<amt>[\d.,]+)(?: \(.*\))?$")
_RAKE = re.compile(r"^Rake:\s+(?:[A-Z]{3} )?(?P<amt>[\d.,]+)$")
_ENDED = re.compile(r"^Game ended (?P<when>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) (?P<zone>\S+)$")
_ACTION = re.compile(r"^(?P<verb>Fold|Check|Call|Bet|Raise|All-In|Payback|Ante)(?:\s+\((?P<amt>[\d.,]+)\))?$")
_SHOWS = re.compile(r"^(?P<name>.+?) (?:shows:\s+(?P<shown>[^(]+?)|didn't show hand(?: \((?P<hidden>[^)]*)\))?)"
                    r"(?: \(.*\))?$")
_TOURNEY = re.compile(r" (?P<tid>\d{5,}) \d+$")
_GAMES = {"Texas Hold'em": "holdem", "Omaha High": "omaha", "Omaha Hi/Lo": "omaha_hilo", "5-Card Omaha High": "omaha5"}
_LIMITS = {"No Limit": "NL", "Pot Limit": "PL", "Fixed Limit": "FL"}
_STREETS = {"Flop": Street.FLOP, "Turn": Street.TURN, "River": Street.RIVER}
_CURRENCIES = {"EUR", "USD", "GBP", "SEK", "DKK", "NOK"}


def _cards(text: str) -> str:
    """'2h - 2s - Ah - As' -> '2h2sAhAs'."""
    return cards(text.replace(" - ", " "))


class EntractionFormat(StartLineFormat):
    name: ClassVar[str] = "entraction"
    priority: ClassVar[int] = 50
    description: ClassVar[str] = "Entraction text hand histories (column-aligned 'Game # N - ...')"
    start: ClassVar[re.Pattern[str]] = _START

    def sniff(self, head: str) -> bool:
        return super().sniff(head) and "\nPlayers(max " in head[:600]

    def parse(self, path: Path) -> Iterator[Hand | Quarantined]:
        source = str(path)
        for block in iter_blocks(split_lines_at(iter_lines(path), "\ufeffGame # "), self.is_start):
            yield from guarded_parse(self, block, source)

    def parse_block(self, block: Block, source_file: str) -> Hand | None:
        return _parse([ln.strip() for ln in block.lines if ln.strip()], block, source_file)


def _parse(lines: list[str], block: Block, source_file: str) -> Hand:
    h = _HEADER.match(lines[0])
    if h is None:
        raise ParseError(f"unsupported variant: {lines[0][:100]}" if "Stud" in lines[0] or "Draw" in lines[0]
                         else f"unrecognised header {lines[0][:100]!r}", 1)
    hand = new_hand(site="entraction", hand_no=h["no"], fmt="entraction", source_file=source_file,
                    offset=block.offset, length=block.length)
    hand.variant, hand.betting, hand.table_name = _GAMES[h["game"]], _LIMITS[h["limit"]], h["table"]
    if h["cur"] is None:
        hand.game_type, hand.currency, hand.unit_scale = "tournament", "CHIPS", 1
        tid = _TOURNEY.search(hand.table_name)
        hand.tournament_id = tid["tid"] if tid else hand.table_name
    elif h["cur"] in _CURRENCIES:
        hand.currency = h["cur"]
    else:
        raise ParseError(f"unknown currency {h['cur']!r}", 1)
    money = Money(hand.unit_scale)
    hand.sb, hand.bb = money(h["sb"]), money(h["bb"])
    hand.ante = money(h["ante"]) if h["ante"] else 0
    _Reader(hand, money).read(lines)
    if hand.betting == "FL":
        # the posted big blind is the small bet; HHSmithy rewrote the stakes of some sample headers
        # ("EUR 2.00/4.00" over blinds of 50/100), so the header's only counts when none was posted
        posted = [a.contribution for a in hand.actions if a.kind is Kind.POST_BB and not a.all_in]
        fixed_limit_blinds(hand, posted[0] if posted else hand.sb)
    return hand


class _Reader:
    """One hand's lines after the header, into the builder."""

    def __init__(self, hand: Hand, money: Money) -> None:
        self.hand, self.money = hand, money
        self.b = HandBuilder(hand)
        self.names: list[str] = []

    def read(self, lines: list[str]) -> None:
        for n, line in enumerate(lines[1:], 2):
            try:
                self._line(line)
            except ParseError as exc:
                raise ParseError(exc.reason, n) from None
        if not self.hand.awards or (self.hand.site_rake is None and self.hand.game_type == "cash"):
            raise ParseError("truncated hand: no 'wins:' and 'Rake:' lines")
        self.b.finish()

    def _line(self, line: str) -> None:
        hand, b, money = self.hand, self.b, self.money
        if m := _MAX.match(line):
            hand.max_seats = int(m["max"])
        elif (m := _SEAT.match(line)) and not hand.actions:
            hand.seats.append(Seat(int(m["seat"]), m["name"], money(m["cash"])))
            self.names = sorted((s.player for s in hand.seats), key=len, reverse=True)
        elif m := _DEALER.match(line):
            hand.button_seat = next((s.seat_no for s in hand.seats if s.player == m["name"]), None)
        elif m := _BLIND.match(line):
            self._blind(m["what"], self._known(m["name"]), money(m["amt"]))
        elif m := _DEALT.match(line):
            hand.hero = self._known(m["name"])
            b.hole(hand.hero, _cards(m["cards"]), Provenance.DEALT)
        elif m := _STREET.match(line):
            b.new_street(_STREETS[m["street"]])
            b.board(1, _cards(m["cards"]))
        elif m := _WINS.match(line):
            b.new_street(Street.SHOWDOWN)
            b.award(self._known(m["name"]), money(m["amt"]))
        elif m := _RAKE.match(line):
            hand.site_rake = (hand.site_rake or 0) + money(m["amt"])
        elif m := _ENDED.match(line):
            self._ended(m["when"], m["zone"])
        else:
            self._player_line(line)

    def _known(self, name: str) -> str:
        """A seated player; the export may write the hero's name in another case ('hero was dealt')."""
        if name in self.names:
            return name
        same = [n for n in self.names if n.lower() == name.lower()]
        if len(same) != 1:
            raise ParseError(f"action by a player not in the seat list: {name!r}")
        return same[0]

    def _blind(self, what: str, player: str, amount: int) -> None:
        if what == "Small Blind":
            self.b.post(player, Kind.POST_SB, amount)
        elif what == "Small + Big Blind":
            self.b.post(player, Kind.POST_BB, self.hand.bb)
            self.b.post(player, Kind.POST_DEAD, amount - self.hand.bb)
        else:
            self.b.post(player, Kind.POST_BB, amount)

    def _ended(self, when: str, zone: str) -> None:
        hours = zone_hours(zone)
        if hours is not None:
            self.hand.started_at = shift_hours(datetime.strptime(when, "%Y-%m-%d %H:%M:%S"), hours)

    def _player_line(self, line: str) -> None:
        for name in self.names:
            if line.startswith(name) and line[len(name):len(name) + 1] in (" ", ""):
                rest = line[len(name):].strip()
                if m := _ACTION.match(rest):
                    self._action(name, m["verb"], m["amt"])
                    return
        if m := _SHOWS.match(line):
            player = self._known(m["name"])
            self.b.new_street(Street.SHOWDOWN)
            if m["shown"]:
                self.b.show(player, _cards(m["shown"]))
            else:
                self.b.muck(player, _cards(m["hidden"]) if m["hidden"] else None)
            return
        raise ParseError(f"unrecognised line {line[:80]!r}")

    def _action(self, player: str, verb: str, amt: str | None) -> None:
        b = self.b
        if verb == "Fold":
            b.fold(player)
        elif verb == "Check":
            b.check(player)
        elif amt is None:
            raise ParseError(f"{verb} without an amount")
        elif verb == "Ante":
            b.post(player, Kind.POST_ANTE, self.money(amt))
        elif verb == "Payback":
            b.uncalled(player, self.money(amt))
        elif verb == "Call":
            b.call(player, self.money(amt))
        else:
            b.adding(player, self.money(amt), all_in=verb == "All-In")


FORMAT = EntractionFormat()
