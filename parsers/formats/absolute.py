"""Absolute Poker / UltimateBet text hand histories (the Cereus network's "Stage #" export).

Why its own module: Cereus writes every line as ``NAME - Verb amount`` and a hand as a "Stage",
with grammar no other site shares: "Raises 30 to 40" is the chips *added* then the street total,
"All-In 191.27" is the chips added (a short big blind when written before the pocket cards),
"Posts $1 dead $0.50" is a live big blind plus a dead small blind and "Posts dead $40 dead $15"
the same post written as its total ($25 live + $15 dead). Cash headers write the big blind
("No Limit $0.02") or, for fixed limit ("Normal $25/$50"), the bet sizes; tournament headers
("Tourney ID 5945889 Holdem Multi Normal Tournament No Limit 10") the big blind in chips. The
summary's "Total Pot($4.50) | Rake ($0.20) | Jackpot Rake ($0.50)" is before rake and jackpot,
so all three reconcile; a side pot is written "Total Pot(5,480:3,750,1,730)" (total, then each
pot). The 7-2 proposition pot (paid by the other players outside the hand's betting) is money
added to the pot from outside: ``site_added``, and part of the written total. Times are Eastern.
"All-In (Timeout)" with no amount is a disconnected player kept in the hand for what he already
put in: a call of nothing, all in.

Seven card stud, stud hi/lo and razz (issue 12; "Seven Card Hi/Lo  Normal $0.02/$0.04": the small and
big bet): "*** 3rd STREET ***" .. "*** 6TH STREET ***", then "*** RIVER ***" (seventh street); each
street repeats every player's cards so far ("PLAYER1 - Pocket [H H Js 10d]", H a card face down), the
last new; "Bring-In $0.01" opens and third street's first bet or raise completes it. The fpdb sample
writes no Table line.
"""

from __future__ import annotations

import re
from typing import ClassVar

from parsers.base import StartLineFormat
from parsers.formats._stakes import fixed_limit_blinds
from parsers.formats._stars_like import EASTERN, HandBuilder, Money, cards, new_hand, read_seat_lines, to_utc
from parsers.model import Hand, Kind, ParseError, Provenance, Street, StreetCards
from parsers.reading import Block

_START = re.compile(r"^\ufeff?Stage #(?P<no>C?\d+)[: ]")
_HEADER = re.compile(
    r"^Stage #(?P<no>C?\d+):?\s+(?:Tourney ID (?P<tid>\d+)\s+)?(?P<game>.+?)\s+-\s+"
    r"(?P<when>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)(?:\.\d+)?\s+\(ET\)"
)
_CASH_GAME = re.compile(
    r"^(?P<variant>Holdem|Omaha Hi/Lo|Omaha|Seven Card Hi/Lo|Seven Card|Razz)(?: \(1 on 1\))?\s+"
    r"(?P<limit>No Limit|Pot Limit|Normal)\s+(?P<stakes>\$[\d.,]+(?:/\$[\d.,]+)?)"
    r"(?:, (?P<ante>\$[\d.,]+) ante)?(?P<rest>.*)$",
    re.IGNORECASE,
)
_TOUR_GAME = re.compile(
    r"^(?P<variant>Holdem|Omaha Hi/Lo|Omaha)\s+\w+\s+\w+\s+Tournament\s+(?P<limit>No Limit|Pot Limit|Normal)"
    r"\s+(?P<stakes>[\d,]+(?:/[\d,]+)?)$",
    re.IGNORECASE,
)
_TABLE = re.compile(r"^Table: (?P<table>.+?) \((?:Real|Play) Money\) Seat #(?P<button>\d+) is the dealer")
_SEAT = re.compile(r"^Seat (?P<seat>\d+) - (?P<name>.+) \((?P<cash>\$?[\d.,]+) in chips\)\s*$")
_STREET = re.compile(
    r"^\*\*\* (?P<street>POCKET CARDS|FLOP|TURN|RIVER|SHOW DOWN|SUMMARY|3rd STREET|[4-6]TH STREET) \*\*\*"
    r"(?P<cards>.*)$"
)
_COLLECTS = re.compile(
    r"^(?P<name>.+) Collects (?P<amt>\$?[\d.,]+) from (?P<pot>main pot|side pot-\d+|.+ proposition pot)$"
)
_TOTAL = re.compile(r"^Total Pot\((?P<total>\$?[\d.,]+)(?::[^)]*)?\)(?P<rest>.*)$")
_FEE = re.compile(r"\| (?P<what>[^(|]+?) \((?P<amt>\$?[\d.,]+)\)")
_RAISE = re.compile(r"^(?P<amt>\$?[\d.,]+) to (?P<to>\$?[\d.,]+)$")
_POSTS = re.compile(r"^Posts (?:(?P<dead_total>dead) )?(?P<amt>\$?[\d.,]+)(?: dead (?P<dead>\$?[\d.,]+))?$")
_NOTE = re.compile(r"\s+\((?:Preselection|Timeout)\)$")
_VARIANTS = {"holdem": "holdem", "omaha": "omaha", "omaha hi/lo": "omaha_hilo", "seven card": "stud",
             "seven card hi/lo": "stud_hilo", "razz": "razz"}
_STUD = ("stud", "stud_hilo", "razz")
_STUD_STREETS = {"3rd STREET": Street.THIRD, "4TH STREET": Street.FOURTH, "5TH STREET": Street.FIFTH,
                 "6TH STREET": Street.SIXTH, "RIVER": Street.SEVENTH, "SHOW DOWN": Street.SHOWDOWN}
_LIMITS = {"no limit": "NL", "pot limit": "PL", "normal": "FL"}
_STREETS = {"FLOP": Street.FLOP, "TURN": Street.TURN, "RIVER": Street.RIVER, "SHOW DOWN": Street.SHOWDOWN}
#: the pot number of a 7-2 proposition award (paid from outside the hand, never a side pot)
_PROP_POT = 99
_QUIET = ("Does not show", "sitout", "Pocket ")


class AbsoluteFormat(StartLineFormat):
    name: ClassVar[str] = "absolute"
    priority: ClassVar[int] = 50
    description: ClassVar[str] = "Absolute Poker / UltimateBet (Cereus network) text, cash and tournaments"
    start: ClassVar[re.Pattern[str]] = _START

    def parse_block(self, block: Block, source_file: str) -> Hand | None:
        return _parse([ln.strip() for ln in block.lines if ln.strip()], block, source_file)


def _parse(lines: list[str], block: Block, source_file: str) -> Hand:
    h = _HEADER.match(lines[0])
    if h is None:
        raise ParseError(f"unrecognised header {lines[0][:100]!r}", 1)
    hand = new_hand(site="absolute", hand_no=h["no"], fmt="absolute", source_file=source_file,
                    offset=block.offset, length=block.length)
    hand.started_at = to_utc(h["when"], "%Y-%m-%d %H:%M:%S", EASTERN)
    money = _game(hand, h["game"], h["tid"])
    t = _TABLE.match(lines[1]) if len(lines) > 1 else None
    if t is not None:
        hand.table_name, hand.button_seat = t["table"], int(t["button"])
    elif hand.variant not in _STUD:
        raise ParseError("no table line after the header", 2)
    i = read_seat_lines(hand, lines, 2 if t is not None else 1, _SEAT, money)
    _Reader(hand, money).read(lines, i)
    return hand


def _game(hand: Hand, game: str, tid: str | None) -> Money:
    """Variant, structure and stakes from the header's game text; the hand's Money reader."""
    if tid is not None:
        g = _TOUR_GAME.match(game)
        hand.game_type, hand.tournament_id, hand.currency, hand.unit_scale = "tournament", tid, "CHIPS", 1
    else:
        g = _CASH_GAME.match(game)
        hand.currency = "USD"
    if g is None:
        raise ParseError(f"unsupported variant: {game}", 1)
    variant = g["variant"].lower()
    if variant not in _VARIANTS:
        raise ParseError(f"unsupported variant: {g['variant']}", 1)
    hand.variant, hand.betting = _VARIANTS[variant], _LIMITS[g["limit"].lower()]
    money = Money(hand.unit_scale)
    stakes = [money(x) for x in g["stakes"].split("/")]
    hand.bb = stakes[0]
    if hand.variant in _STUD:
        if hand.betting != "FL" or len(stakes) != 2:
            raise ParseError(f"unsupported variant: {game} (stud other than fixed limit)", 1)
        hand.small_bet, hand.big_bet = stakes
    if tid is None and g["ante"]:
        hand.ante = money(g["ante"])
    return money


class _Reader:
    """Reads the lines after the seats into the builder (one hand's state)."""

    def __init__(self, hand: Hand, money: Money) -> None:
        self.hand, self.money = hand, money
        self.b = HandBuilder(hand)
        self.names = sorted((s.player for s in hand.seats), key=len, reverse=True)
        self.dealt = False  # the pocket cards are dealt: an all-in is a decision, not a post
        self.summary = False
        self.prop = 0
        self.stud = hand.variant in _STUD
        self.completed = False  # stud: third street's bring-in completed
        self.held: dict[str, int] = {}  # stud: how many of each player's cards are known
        if self.stud:
            self.b.new_street(Street.THIRD)  # the antes are third street's

    def read(self, lines: list[str], start: int) -> None:
        for n in range(start, len(lines)):
            try:
                self._line(lines[n])
            except ParseError as exc:
                raise ParseError(exc.reason, n + 1) from None
        hand = self.hand
        if not self.summary or hand.site_total_pot is None:
            raise ParseError("truncated hand: no *** SUMMARY *** total")
        if not hand.awards:
            raise ParseError("truncated hand: no 'Collects' line")
        if self.prop:
            hand.site_added = self.prop
            hand.site_total_pot += self.prop
        if hand.variant in _STUD:  # no blinds: bb is the small bet, as in the flop games' fixed limit
            hand.sb = 0
            if hand.hero is not None:
                held = "".join(c.cards for c in hand.street_cards if c.player == hand.hero)
                self.b.hole(hand.hero, held, Provenance.DEALT)
        elif hand.betting == "FL":
            fixed_limit_blinds(hand, hand.bb)
        else:
            hand.sb = next((a.amount or 0 for a in hand.actions if a.kind is Kind.POST_SB), hand.bb // 2)
        self.b.finish()

    def _line(self, line: str) -> None:
        if self.summary:
            self._summary(line)
        elif m := _STREET.match(line):
            self._street(m["street"], m["cards"])
        elif m := _COLLECTS.match(line):
            self._collect(m["name"], self.money(m["amt"]), m["pot"])
        elif line.startswith("Dealt to "):
            name, _, rest = line[9:].partition(" [")
            self.hand.hero = name
            self.b.hole(name, cards(rest.rstrip("]")), Provenance.DEALT)
        else:
            player, rest = self._player(line)
            self._action(player, _NOTE.sub("", rest))

    def _player(self, line: str) -> tuple[str, str]:
        for name in self.names:
            if line.startswith(name + " - "):
                return name, line[len(name) + 3:]
        raise ParseError(f"unrecognised line {line[:80]!r}")

    def _street(self, street: str, board: str) -> None:
        if street == "SUMMARY":
            self.summary = True
        elif street == "POCKET CARDS":
            self.dealt = True
        elif self.stud:
            self.dealt = True
            if street not in _STUD_STREETS:
                raise ParseError(f"street {street!r} in a stud hand")
            self.b.new_street(_STUD_STREETS[street])
        else:
            self.b.new_street(_STREETS[street])
            if board.strip():
                self.b.board(1, "".join(cards(c) for c in re.findall(r"\[([^\]]*)\]", board)))

    def _collect(self, player: str, amount: int, pot: str) -> None:
        if pot.endswith("proposition pot"):
            self.prop += amount
            self.b.award(player, amount, pot_no=_PROP_POT)
            return
        self.b.award(player, amount, 0 if pot == "main pot" else int(pot.rsplit("-", 1)[1]))

    def _pocket(self, player: str, text: str) -> None:
        """A stud 'Pocket [H H Js 10d]' line: the player's cards so far; the ones not seen before are
        this street's (third street: two down, one up; seventh: down)."""
        got = [cards(c) if c != "H" else "??" for c in text.split()]
        new = got[self.held.get(player, 0):]
        if not new:
            return  # a folded player's cards written again
        self.held[player] = len(got)
        street, rows = self.b.street, self.hand.street_cards
        if street is Street.THIRD and len(new) == 3:
            rows.append(StreetCards(player, street, "".join(new[:2]), False))
            rows.append(StreetCards(player, street, new[2], True))
        else:
            rows.append(StreetCards(player, street, "".join(new), street is not Street.SEVENTH))
        if "??" not in got[:2]:
            self.hand.hero = player

    def _action(self, player: str, rest: str) -> None:
        b, money = self.b, self.money
        verb, _, arg = rest.partition(" ")
        if self.stud and self._stud_action(player, verb, arg):
            return
        if verb == "Folds":
            b.fold(player)
            if m := re.search(r"Fold & Show \[([^\]]*)\]", arg):
                b.hole(player, cards(m[1]), Provenance.SHOWN)
        elif verb == "Checks":
            b.check(player)
        elif verb == "Calls":
            b.call(player, money(arg))
        elif verb == "Bets":
            b.bet(player, money(arg))
        elif verb in ("Raises", "All-In(Raise)"):
            r = _RAISE.match(arg)
            if r is None:
                raise ParseError(f"bad raise {rest!r}")
            b.raise_to(player, money(r["amt"]), money(r["to"]), verb != "Raises")
        elif verb == "All-In":
            self._all_in(player, arg)
        elif verb == "Shows":
            b.show(player, cards(arg.split("]", 1)[0]))
        elif verb == "Mucks":
            b.muck(player)
        elif verb == "Ante":
            self.hand.ante = self.hand.ante or money(arg)
            b.post(player, Kind.POST_ANTE, money(arg))
        elif verb == "Posts":
            self._post(player, rest)
        elif verb == "returned":
            b.uncalled(player, money(arg.split(")", 1)[0].lstrip("(")))
        elif not rest.startswith(_QUIET):
            raise ParseError(f"unrecognised action {rest[:80]!r}")

    def _stud_action(self, player: str, verb: str, arg: str) -> bool:
        """Pocket cards, the bring-in and the completion; False for the rest of the grammar."""
        b = self.b
        if verb == "Pocket":
            self._pocket(player, arg.strip("[]"))
        elif verb == "Bring-In":
            amount = self.money(arg)
            self.hand.bring_in = self.hand.bring_in or amount
            b.post(player, Kind.BRING_IN, amount)
        elif verb in ("Bets", "Raises") and b.street is Street.THIRD and not self.completed:
            r = _RAISE.match(arg)
            to = self.money(r["to"]) if r is not None else b.committed(player) + self.money(arg)
            b.complete(player, to, to - b.max_committed_excluding(player))
            self.completed = True
        else:
            return False
        return True

    def _all_in(self, player: str, arg: str) -> None:
        if not arg:
            self.b.call(player, 0, all_in=True)  # "All-In (Timeout)": kept in for what is in
        elif not self.dealt:
            posted_sb = any(a.kind is Kind.POST_SB for a in self.hand.actions)
            self.b.post(player, Kind.POST_BB if posted_sb else Kind.POST_SB, self.money(arg), all_in=True)
        else:
            self.b.all_in_adding(player, self.money(arg))

    def _post(self, player: str, rest: str) -> None:
        if rest.startswith("Posts small blind "):
            self.b.post(player, Kind.POST_SB, self.money(rest[18:]))
            return
        if rest.startswith("Posts big blind "):
            self.b.post(player, Kind.POST_BB, self.money(rest[16:]))
            return
        m = _POSTS.match(rest)
        if m is None:
            raise ParseError(f"unrecognised post {rest!r}")
        amount, dead = self.money(m["amt"]), self.money(m["dead"]) if m["dead"] else 0
        live = amount - dead if m["dead_total"] else amount
        self.b.post(player, Kind.POST_BB, live)
        if dead:
            self.b.post(player, Kind.POST_DEAD, dead)

    def _summary(self, line: str) -> None:
        if m := _TOTAL.match(line):
            self.hand.site_total_pot = self.money(m["total"])
            rake = fees = 0
            for f in _FEE.finditer(m["rest"]):
                what = f["what"].strip()
                if what == "Rake":
                    rake = self.money(f["amt"])
                elif what == "Jackpot Rake":
                    fees += self.money(f["amt"])
                elif not what.endswith("Proposition Pot"):
                    raise ParseError(f"unknown summary total {what!r}")
            if self.hand.game_type == "cash":
                self.hand.site_rake, self.hand.site_fees = rake, fees or None
            elif rake or fees:
                raise ParseError("rake written in a tournament hand")


FORMAT = AbsoluteFormat()
