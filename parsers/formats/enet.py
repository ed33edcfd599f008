"""Enet text hand histories ("Game #12056513: Omaha (€0,10/€0,25) - 21:50:56 23.8.2012 - %6").

Why its own module: Enet writes a PokerStars-like layout with its own arithmetic. Every amount is
the chips the action *adds* ("raises €0,65" from the small blind 0,10 makes 0,75; "goes all-in
€4,75" adds the rest of the stack), the structure is the end of the table name ("Reunion 1 - Pot
Limit"), amounts use decimal commas, and the times carry no zone (``started_at`` stays None).

What the site writes wrongly, and how it is read:

* "Total pot €0" in most hands (a field the site does not fill): it is not read;
* the rake is written per street ("Rake: €0,27", negative corrections too: "Rake: €-0,27"); the
  summary's "Rake €1,62" is their sum and is the one read;
* after an uncalled bet the action section writes "X collected (€0,82) from pot", the returned
  amount again; the summary's "collected (€1,04)" / "won (€12,74)" lines are the awards read;
* some hands do not balance on the site's own figures: a side pot the site never awards, or a
  collect larger than the pot. Such a hand is quarantined with the difference named ("site
  anomaly: ...") rather than stored with awards nobody wrote; a blind posted with no amount
  ("Player4: posts big blind") is quarantined too, since the chips it moved are not written.

Every table seen writes '€'; the files are read in EUR, at cents.
"""

from __future__ import annotations

import re
from typing import ClassVar

from parsers.base import StartLineFormat
from parsers.formats._stars_like import HandBuilder, Money, cards, feed_lines, new_hand
from parsers.model import Hand, Kind, ParseError, Seat, Street
from parsers.reading import Block

_START = re.compile(r"^(?:\ufeff)?Game #(?P<no>\d+): (?P<game>Hold'em|Omaha[^(]*?) "
                    r"\((?P<sb>€[\d,.]+)/(?P<bb>€[\d,.]+)\) - \d\d?:\d\d:\d\d \d\d?\.\d\d?\.\d{4}")
_TABLE = re.compile(r"^Table '(?P<name>.+) - (?P<limit>No Limit|Pot Limit|Limit)' (?P<max>\d+)-max "
                    r"Seat #(?P<button>\d+) is the button$")
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<cash>€[\d,.]+) in chips\)$")
_STREET = re.compile(r"^\*\*\* (?P<street>HOLECARDS|FLOP|TURN|RIVER|SHOWDOWN) \*\*\*(?: \[(?P<cards>[^]]*)\])?$")
_UNCALLED = re.compile(r"^Uncalled bet \((?P<amt>€[\d,.]+)\) returned to (?P<name>.+)$")
_SUMMARY_WON = re.compile(r"^Seat \d+: (?P<name>.+?) (?:\((?:small blind|big blind|dealer)\) ?)?\s*"
                          r"(?:showed \[[^]]*\] and won|collected) \((?P<amt>€[\d,.]+)\)")
_SUMMARY_RAKE = re.compile(r"^Total pot €[\d,.]+ \| Rake (?P<rake>€[\d,.]+)$")
_LIMITS = {"No Limit": "NL", "Pot Limit": "PL", "Limit": "FL"}
_GAMES = {"Hold'em": "holdem", "Omaha": "omaha"}
_STREETS = {"FLOP": Street.FLOP, "TURN": Street.TURN, "RIVER": Street.RIVER, "SHOWDOWN": Street.SHOWDOWN}


class EnetFormat(StartLineFormat):
    name: ClassVar[str] = "enet"
    priority: ClassVar[int] = 50
    description: ClassVar[str] = "Enet text hand histories (cash hold'em and omaha, EUR)"
    start: ClassVar[re.Pattern[str]] = _START

    def parse_block(self, block: Block, source_file: str) -> Hand | None:
        return _parse([ln.strip() for ln in block.lines if ln.strip()], block, source_file)


def _parse(lines: list[str], block: Block, source_file: str) -> Hand:
    head = _START.match(lines[0])
    if head is None:
        raise ParseError(f"unrecognised header {lines[0][:100]!r}", 1)
    if head["game"] not in _GAMES:
        raise ParseError(f"unsupported variant: {head['game']}", 1)
    hand = new_hand(site="enet", hand_no=head["no"], fmt="enet", source_file=source_file,
                    offset=block.offset, length=block.length)
    hand.variant, hand.currency = _GAMES[head["game"]], "EUR"
    money = Money(100)
    hand.sb, hand.bb = money(head["sb"]), money(head["bb"])
    reader = _Reader(hand, money)
    feed_lines(reader.line, lines[1:], 2)
    if not reader.in_summary or not hand.awards:
        raise ParseError("truncated hand: no summary or no award")
    _check_books(hand)
    return reader.b.finish()


def _check_books(hand: Hand) -> None:
    """The site's collects and rake must account for every chip put in; otherwise the hand is
    quarantined as the site's own inconsistency (Enet's side pots and collects after a return)."""
    put = sum(a.contribution for a in hand.actions)
    paid = sum(w.amount for w in hand.awards) + (hand.site_rake or 0)
    if paid != put:
        raise ParseError(
            f"site anomaly: the summary pays {paid} (collects + rake {hand.site_rake}) of the {put} put in "
            f"({'an unawarded side pot' if paid < put else 'a collect larger than the pot'}; in cents)"
        )


class _Reader:
    """The lines after the header, into the builder."""

    def __init__(self, hand: Hand, money: Money) -> None:
        self.hand, self.money = hand, money
        self.b = HandBuilder(hand)
        self.names: list[str] = []
        self.in_summary = False
        self.mucked: set[str] = set()

    def line(self, line: str) -> None:
        if self.in_summary:
            self._summary(line)
        elif m := _TABLE.match(line):
            self.hand.table_name, self.hand.betting = m["name"], _LIMITS[m["limit"]]
            self.hand.max_seats, self.hand.button_seat = int(m["max"]), int(m["button"])
        elif m := _SEAT.match(line):
            self.hand.seats.append(Seat(int(m["seat"]), m["name"], self.money(m["cash"])))
            self.names = sorted((s.player for s in self.hand.seats), key=len, reverse=True)
        elif line == "*** SUMMARY ***":
            self.in_summary = True
        elif m := _STREET.match(line):
            self._street(m["street"], m["cards"])
        elif m := _UNCALLED.match(line):
            self.b.uncalled(self._player(m["name"], "")[0], self.money(m["amt"]))
        elif line.startswith("Rake: "):
            return  # per-street rake; the summary writes the total
        elif re.fullmatch(r".+ collected \(€[\d,.]+\) from pot", line):
            return  # the action section's collect: the summary's is read (see the module docstring)
        else:
            player, rest = self._player(line, ": ")
            self._action(player, rest)

    def _player(self, text: str, sep: str) -> tuple[str, str]:
        for name in self.names:
            if text.startswith(name + sep):
                return name, text[len(name) + len(sep):].strip()
        raise ParseError(f"unrecognised line {text[:80]!r}")

    def _street(self, street: str, board: str | None) -> None:
        if street == "HOLECARDS":
            return
        self.b.new_street(_STREETS[street])
        if board:
            self.b.board(1, cards(" ".join(board[i:i + 2] for i in range(0, len(board), 2))))

    def _action(self, player: str, rest: str) -> None:
        b, money = self.b, self.money
        verb, _, arg = rest.partition(" ")
        if rest == "folds":
            b.fold(player)
        elif rest == "checks":
            b.check(player)
        elif verb == "calls":
            b.call(player, money(arg))
        elif verb == "bets":
            b.bet(player, money(arg))
        elif verb == "raises":
            b.raise_by(player, money(arg))
        elif rest.startswith("goes all-in "):
            b.adding(player, money(rest[12:]), all_in=True)
        elif rest in ("posts small blind", "posts big blind"):
            raise ParseError(f"{player} {rest} with no amount (the chips it moved are not written)")
        elif rest.startswith(("posts small blind ", "posts big blind ")):
            b.post(player, Kind.POST_SB if "small" in rest else Kind.POST_BB, money(rest.rsplit(" ", 1)[1]))
        elif verb == "shows":
            b.show(player, cards(_split_cards(arg.split("]", 1)[0])))
        elif rest in ("mucked", "mucks hand"):
            if player not in self.mucked:  # "mucked" then "mucks hand" at the showdown: one muck
                self.mucked.add(player)
                b.muck(player)
        elif rest == "sits out":
            return
        else:
            raise ParseError(f"unrecognised action {rest[:80]!r}")

    def _summary(self, line: str) -> None:
        if m := _SUMMARY_RAKE.match(line):
            self.hand.site_rake = self.money(m["rake"])
        elif m := _SUMMARY_WON.match(line):
            self.b.award(self._player(m["name"], "")[0], self.money(m["amt"]))


def _split_cards(text: str) -> str:
    """'[Jd8sAd2s' -> 'Jd 8s Ad 2s': Enet writes a card list without spaces."""
    body = text.strip("[ ")
    return " ".join(body[i:i + 2] for i in range(0, len(body), 2))


FORMAT = EnetFormat()
