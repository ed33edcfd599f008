"""Cake Poker network text hand histories ("Hand#<hex id> - <table> -- <stakes> <game> -- <date>").

Why its own module: Cake writes PokerStars-like decisions ("raises to 300", "calls 225" adding,
"is all in 2,375" adding) but its own header, decimal commas in some years ("$0,05"), no pot
total and no rake (so the rake is implied and must be plausible), one "***SHOW DOWN***" section
per pot (side pots first), and times without a zone (``started_at`` stays None). Tournament headers
name the tournament ("T10965119") and write "ante/small/big" stakes ("0/75/150"; "-1/50/100"
is written when there is no ante). Decisions, each checked by reconciliation:

* "posts dead blind $-0,10 and big blind $0,10": a big blind; the negative dead part moves no
  chips (the pot won, 0.75, is exactly what the other lines put in);
* a EUR table shown in dollars writes "$0,30 (EUR €0,24)": the table's own EUR amount is read;
* "Tournament: Player5 wins 1 bounty." pays a bounty outside the pot and "rebuys 3000 chips"
  happens between hands: neither moves chips of this hand;
* chip counts may use a no-break space as thousands separator ("1\xa0500").
"""

from __future__ import annotations

import re
from typing import ClassVar

from parsers.base import StartLineFormat
from parsers.formats._stakes import fixed_limit_blinds
from parsers.formats._stars_like import HandBuilder, Money, cards, feed_lines, new_hand
from parsers.model import Hand, Kind, ParseError, Provenance, Seat, Street
from parsers.reading import Block

_START = re.compile(r"^(?:\ufeff|ï»¿)*Hand#(?P<no>[0-9A-F]+) - ")
_STAKES = re.compile(
    r"^(?:(?P<ante>-?\d+)/)?(?P<sb>[$€]?[\d.,]+)/(?P<bb>[$€]?[\d.,]+) (?P<limit>NL|PL|FL) (?P<game>.+)$"
)
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<cash>[$€]?[\d.,\xa0]+) in chips\)(?P<dealer> DEALER)?$")
#: lines that move no chips of this hand: a rebuy between hands, a bounty paid outside the pot
_QUIET = re.compile(r"^(?:.+ rebuys \d+ chips|Tournament: .+ wins .+ bounty\..*)$")
_EUR = re.compile(r"\$[\d.,]+(?P<mid>[^$(]*?)\s*\(EUR \S?(?P<eur>[\d.,]+)\)")
_STREET = re.compile(r"^\*\*\* ?(?P<street>FLOP|TURN|RIVER|SHOW DOWN) ?\*\*\*\s*(?P<cards>.*)$")
_WINS = re.compile(r"^(?P<name>.+?):? wins (?P<amt>[$€]?\d[\d.,\xa0]*)(?P<rest>.*)$")
_DEAD = re.compile(r"^posts dead blind (?P<dead>[$€]?-?[\d.,]+) and big blind (?P<bb>[$€]?[\d.,]+)$")
_TOURNEY = re.compile(r"\bT(?P<tid>\d{5,})\b")
_MAX = re.compile(r"(?P<max>\d+)[- ][Mm]ax")
_GAMES = {"Hold'em": "holdem", "Omaha": "omaha", "Omaha Hi/Lo": "omaha_hilo", "Omaha H/L": "omaha_hilo"}
_STREETS = {"FLOP": Street.FLOP, "TURN": Street.TURN, "RIVER": Street.RIVER, "SHOW DOWN": Street.SHOWDOWN}


class CakeFormat(StartLineFormat):
    name: ClassVar[str] = "cake"
    priority: ClassVar[int] = 50
    description: ClassVar[str] = "Cake Poker network text hand histories, cash and tournaments"
    start: ClassVar[re.Pattern[str]] = _START

    def parse_block(self, block: Block, source_file: str) -> Hand | None:
        return _parse([_eur(ln.strip()) for ln in block.lines if ln.strip()], block, source_file)


def _eur(line: str) -> str:
    """'$0,30 (EUR €0,24)' -> '€0,24': a EUR table's own amount, not the client's conversion."""
    return _EUR.sub(lambda m: "€" + m["eur"] + m["mid"], line)


def _parse(lines: list[str], block: Block, source_file: str) -> Hand:
    parts = _START.sub("", lines[0]).split(" -- ")
    no = _START.match(lines[0])
    if no is None or len(parts) < 3:
        raise ParseError(f"unrecognised header {lines[0][:100]!r}", 1)
    hand = new_hand(site="cake", hand_no=no["no"], fmt="cake", source_file=source_file,
                    offset=block.offset, length=block.length)
    hand.table_name = parts[0] if len(parts) == 3 else next((p for p in parts if p.startswith("Table ")), parts[0])
    money = _header(hand, parts)
    b = HandBuilder(hand)
    reader = _Reader(hand, b, money)
    feed_lines(reader.line, lines[1:], 2)
    if not hand.awards:
        raise ParseError("truncated hand: no 'wins' line")
    if hand.betting == "FL":
        fixed_limit_blinds(hand, hand.sb)  # "$3/$6 FL" names the bets: the small one is the big blind
    return b.finish()


def _header(hand: Hand, parts: list[str]) -> Money:
    """Variant, structure, stakes, currency and tournament from the ' -- ' fields of the header."""
    s = _STAKES.match(parts[-2])
    if s is None:
        raise ParseError(f"unrecognised stakes {parts[-2]!r}", 1)
    if "Coin Flip" in parts[0]:
        raise ParseError("unsupported variant: Coin Flip (automatic all-ins, no chips written)", 1)
    if s["game"] not in _GAMES:
        raise ParseError(f"unsupported variant: {s['game']}", 1)
    hand.variant, hand.betting = _GAMES[s["game"]], s["limit"]
    name = parts[0]
    if (tid := _TOURNEY.search(name)) is not None:
        hand.game_type, hand.tournament_id, hand.currency, hand.unit_scale = "tournament", tid["tid"], "CHIPS", 1
    elif s["sb"][0] in "$€":
        hand.currency = "USD" if s["sb"][0] == "$" else "EUR"
    else:
        hand.currency = "PLAY"
    money = Money(hand.unit_scale)
    hand.sb, hand.bb = money(s["sb"]), money(s["bb"])
    hand.ante = max(int(s["ante"]), 0) if s["ante"] else 0
    if (m := _MAX.search(" ".join(parts))) is not None:
        hand.max_seats = int(m["max"])
    return money


class _Reader:
    """The lines after the header, into the builder."""

    def __init__(self, hand: Hand, b: HandBuilder, money: Money) -> None:
        self.hand, self.b, self.money = hand, b, money
        self.names: list[str] = []
        self.pot = -1  # one SHOW DOWN section per pot

    def line(self, line: str) -> None:
        if m := _SEAT.match(line):
            self.hand.seats.append(Seat(int(m["seat"]), m["name"], self.money(m["cash"])))
            self.names = sorted((s.player for s in self.hand.seats), key=len, reverse=True)
            if m["dealer"]:
                self.hand.button_seat = int(m["seat"])
        elif line.startswith("Dealer: Seat "):
            self.hand.button_seat = int(line[13:])
        elif m := _STREET.match(line):
            self._street(m["street"], m["cards"])
        elif line.startswith("Dealt to "):
            player, rest = self._player(line[9:], sep=" ")
            self.hand.hero = player
            self.b.hole(player, cards(rest), Provenance.DEALT)
        elif _QUIET.match(line):
            return
        elif (m := _WINS.match(line)) and m["name"].rstrip(":") in self.names:
            if not m["rest"].startswith(" bounty"):
                self.b.award(m["name"].rstrip(":"), self.money(m["amt"]), max(self.pot, 0))
        else:
            player, rest = self._player(line)
            self._action(player, rest)

    def _player(self, text: str, sep: str = ":") -> tuple[str, str]:
        for name in self.names:
            if text.startswith(name + sep):
                return name, text[len(name) + len(sep):].strip()
        raise ParseError(f"unrecognised line {text[:80]!r}")

    def _street(self, street: str, board: str) -> None:
        if street == "SHOW DOWN":
            self.pot += 1
        self.b.new_street(_STREETS[street])
        if board:
            self.b.board(1, self.b.boards.get(1, "") + cards(board))

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
        elif rest.startswith("raises to "):
            b.raise_to(player, None, money(rest[10:]))
        elif rest.startswith("is all in "):
            b.adding(player, money(rest[10:]), all_in=True)
        elif rest.startswith(("posts small blind ", "posts big blind ")):
            kind = Kind.POST_SB if "small" in rest else Kind.POST_BB
            b.post(player, kind, money(rest.rsplit(" ", 1)[1]))
        elif m := _DEAD.match(rest):
            b.post(player, Kind.POST_BB, money(m["bb"]))
            if (dead := money(m["dead"])) > 0:
                b.post(player, Kind.POST_DEAD, dead)
        elif rest.startswith("returns uncalled bet "):
            b.uncalled(player, money(rest[21:]))
        elif rest.startswith("shows "):
            b.show(player, cards(arg.split("]", 1)[0]))
        elif rest.startswith("mucks"):
            shown = arg.split("]", 1)[0] if arg.startswith("[") else ""
            b.muck(player, cards(shown) if shown.strip("[ ") else None)
        else:
            raise ParseError(f"unrecognised action {rest[:80]!r}")


FORMAT = CakeFormat()
