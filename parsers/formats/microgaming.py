"""MicroGaming (MPN) XML hand histories: one ``<Game id=...>`` element per hand.

Why its own module: MicroGaming writes a hand as numbered ``<Action>`` elements whose ``value``
is always the chips the action *adds* (a "Raise" of 68 from a player with 6 in reaches 74), the
seats' ``balance`` and ``endbalance`` (so every hand is checked against the site's own final
stacks), the rake in hundredths of the currency unit (``rake="186"`` is 1.86) and the winners in a
closing ``<Action type="Win">``. Decisions, each checked by the final stacks:

* "PostedToPlay" is a live post of a player entering the game (his later raise builds on it);
* "BadBeatContribution" is the bad-beat jackpot drop taken from a player's stack: a dead post of
  that player and a site fee (it is in neither the rake nor the winnings);
* "MoneyReturned" is an uncalled bet handed back; where none is written the winner's award
  includes his own unmatched chips (the final stacks say so), so nothing is derived;
* "ShowCards"/"MuckCards" can come before the board is dealt (all in preflop): they are kept as
  showdown rows after the last street, where no chips can move any more;
* "Disconnect" moves no chips. The time has no zone: ``started_at`` stays None;
* the first export (no ``hhversion``) writes "Call" and "Raise" as the street total reached (a
  big blind "Call 0.20" of a 0.20 raise adds 0.10), later ones as the chips added;
* a seat with no action in the hand was not dealt in: its ``endbalance`` is the table balance
  after a top-up or after leaving (9,556 -> 40,600 with no action), so it is not a final stack.

Files start with a ``----PRIMA.DAT----`` banner and may carry ``ExtendedTableName:`` lines after
a game; both are the client's wrapping, not hands. Tournaments (``istournament="1"``) are in chips;
the tournament id is the bracketed number of the table name.
"""

from __future__ import annotations

import base64
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

from parsers.base import TextHandFormat, guarded_parse
from parsers.formats._stars_like import HandBuilder, Money, cards, new_hand
from parsers.model import DEAD_POSTS, Hand, Kind, ParseError, Provenance, Quarantined, Seat, Street
from parsers.money import CURRENCY_SYMBOLS
from parsers.reading import Block, iter_blocks, iter_lines

_WRAPPING = ("----PRIMA.DAT----", "ExtendedTableName:")
_GAMES = {"1": "holdem", "50": "omaha", "51": "omaha_hilo"}
_LIMITS = {"NL": "NL", "PL": "PL", "FL": "FL"}
_DEALS = {"DealFlop": Street.FLOP, "DealTurn": Street.TURN, "DealRiver": Street.RIVER}
_POSTS = {"SmallBlind": Kind.POST_SB, "BigBlind": Kind.POST_BB}
_TOURNEY = re.compile(r"\[(?P<tid>\d+)\]")


class MicroGamingFormat(TextHandFormat):
    name: ClassVar[str] = "microgaming"
    priority: ClassVar[int] = 50
    description: ClassVar[str] = "MicroGaming (MPN) XML hand histories (<Game> per hand)"

    def sniff(self, head: str) -> bool:
        body = head.lstrip("\ufeff\r\n\t ")
        if body.startswith(_WRAPPING[0]):
            body = body[len(_WRAPPING[0]):].lstrip("\ufeff\r\n\t ")
        return body.startswith("<Game ") and " tablename=" in body[:600] and " stakes=" in body[:800]

    def is_start(self, line: str) -> bool:
        return line.lstrip("\ufeff \t").startswith("<Game ")

    def parse(self, path: Path) -> Iterator[Hand | Quarantined]:
        source = str(path)
        for block in iter_blocks(iter_lines(path), self.is_start):
            if not self.is_start(block.lines[0]) and all(_wrapping(ln) for ln in block.lines):
                continue  # the client's banner before the first game
            yield from guarded_parse(self, block, source)

    def parse_block(self, block: Block, source_file: str) -> Hand | None:
        text = "\n".join(block.lines).lstrip("\ufeff \t")
        end = text.find("</Game>")
        if end < 0:
            raise ParseError("truncated hand: no </Game>")
        if not all(_wrapping(ln) for ln in text[end + 7:].splitlines()):
            raise ParseError("text after </Game> that is not the client's wrapping")
        try:
            root = ET.fromstring(text[: end + 7])
        except ET.ParseError as exc:
            raise ParseError(f"unreadable XML: {exc}") from None
        return _parse(root, block, source_file)


def _wrapping(line: str) -> bool:
    s = line.strip().lstrip("\ufeff")
    return not s or s.startswith(_WRAPPING)


def _parse(game: ET.Element, block: Block, source_file: str) -> Hand:
    hand = new_hand(site="microgaming", hand_no=game.get("id", ""), fmt="microgaming", source_file=source_file,
                    offset=block.offset, length=block.length)
    if not hand.site_hand_no:
        raise ParseError("game without an id")
    money = _header(hand, game)
    seat_of: dict[str, str] = {}
    for s in game.iterfind("Seats/Seat"):
        no, name = s.get("num", ""), s.get("alias", "")
        if not name or not no.isdigit():
            raise ParseError(f"unreadable seat {ET.tostring(s, encoding='unicode')[:80]!r}")
        seat_of[no] = name
        hand.seats.append(Seat(int(no), name, money(s.get("balance", "")), s.get("sittingout") == "true",
                               money(s.get("endbalance", ""))))
        if s.get("dealer") == "true":
            hand.button_seat = int(no)
    plays = game.find("Gameplay")
    if plays is None or not hand.seats:
        raise ParseError("game without seats or gameplay")
    _Play(hand, money, seat_of, totals=game.get("hhversion") is None).read(plays)
    acted = {a.player for a in hand.actions}
    # a seat not dealt in: its endbalance is the table balance after a top-up or leaving, not a result
    hand.seats = [s if s.player in acted else s._replace(final_stack=None) for s in hand.seats]
    return hand


def _header(hand: Hand, game: ET.Element) -> Money:
    """Variant, structure, stakes, currency, table and rake from the ``<Game>`` attributes."""
    kind = game.get("gametypeid", "")
    if kind not in _GAMES:
        raise ParseError(f"unsupported variant: {game.get('gametype', kind)}")
    limit = game.get("betlimit", "")
    if limit not in _LIMITS:
        raise ParseError(f"unknown betting structure {limit!r}")
    hand.variant, hand.betting = _GAMES[kind], _LIMITS[limit]
    hand.table_name = game.get("tablename", "")
    size = game.get("tablesize", "")
    hand.max_seats = int(size) if size.isdigit() else None
    if game.get("istournament") == "1":
        hand.game_type, hand.currency, hand.unit_scale = "tournament", "CHIPS", 1
        tid = _TOURNEY.search(hand.table_name)
        hand.tournament_id = tid["tid"] if tid else hand.table_name
    else:
        hand.currency = _currency(game.get("currencysymbol", "")) if game.get("realmoney") == "true" else "PLAY"
        rake = game.get("rake", "")
        if not rake.isdigit():
            raise ParseError(f"cash game without a rake attribute ({rake!r})")
        hand.site_rake = int(rake)  # hundredths: the cent for every currency the site ran
    money = Money(hand.unit_scale)
    small, _, big = game.get("stakes", "").partition("|")
    if hand.betting == "FL":  # limit stakes are the small and big bet; the blinds: half a small bet, one
        hand.sb, hand.bb = money(small) // 2, money(small)
    else:
        hand.sb, hand.bb = money(small), money(big)
    return money


def _currency(symbol: str) -> str:
    """The base64 UTF-16 ``currencysymbol`` ('rCA=' is '€', 'IAAkAA==' is ' $') as an ISO code."""
    try:
        sign = base64.b64decode(symbol).decode("utf-16-le").strip()
    except ValueError:
        sign = ""
    if sign not in CURRENCY_SYMBOLS:
        raise ParseError(f"unknown currency symbol {symbol!r}")
    return CURRENCY_SYMBOLS[sign]


def _cards(el: ET.Element) -> str:
    return cards(" ".join(c.get("value", "") + c.get("suit", "") for c in el.iterfind("Card")))


class _Play:
    """Reads one ``<Gameplay>`` into the builder."""

    def __init__(self, hand: Hand, money: Money, seat_of: dict[str, str], *, totals: bool) -> None:
        self.hand, self.money, self.seat_of = hand, money, seat_of
        self.totals = totals  # calls and raises written as street totals (first export)
        self.b = HandBuilder(hand)
        self.shown: list[tuple[str, str, str]] = []  # (type, player, cards) for after the board
        self.won = False

    def read(self, plays: ET.Element) -> None:
        for a in plays.iterfind("Action"):
            self._action(a.get("type", ""), a)
        if not self.won:
            raise ParseError("truncated hand: no Win action")
        self.b.finish()

    def _player(self, a: ET.Element, attr: str = "seat") -> str:
        seat = a.get(attr, "")
        if seat not in self.seat_of:
            raise ParseError(f"action by a player not in the seat list: seat {seat!r}")
        return self.seat_of[seat]

    def _action(self, kind: str, a: ET.Element) -> None:
        b = self.b
        if kind in _DEALS:
            b.new_street(_DEALS[kind])
            b.board(1, b.boards.get(1, "") + _cards(a))
        elif kind == "Win":
            self._win(a)
        elif kind == "Disconnect":
            return
        elif kind == "DealCards":
            player = self._player(a)
            if (dealt := _cards(a)) and set(dealt) != {"?"}:
                self.hand.hero = player
                b.hole(player, dealt, Provenance.DEALT)
        elif kind in ("ShowCards", "MuckCards"):
            self.shown.append((kind, self._player(a), _cards(a)))
        else:
            self._chips(kind, self._player(a), a)

    def _chips(self, kind: str, player: str, a: ET.Element) -> None:
        b = self.b
        if kind == "Fold":
            b.fold(player)
        elif kind == "Check":
            b.check(player)
        else:
            amount = self.money(a.get("value", ""))
            if kind in _POSTS:
                b.post(player, _POSTS[kind], amount)
            elif kind == "PostedToPlay":
                b.post(player, Kind.POST_SB if amount < self.hand.bb else Kind.POST_BB, amount)
            elif kind == "BadBeatContribution":
                b.post(player, Kind.POST_DEAD, amount)
                self.hand.site_fees = (self.hand.site_fees or 0) + amount
            elif kind in ("Call", "Raise") and self.totals:
                self._to_total(kind, player, amount)
            elif kind in ("Call", "Bet", "Raise", "AllIn"):
                b.adding(player, amount, all_in=kind == "AllIn")
            elif kind == "MoneyReturned":
                b.uncalled(player, amount)
            else:
                raise ParseError(f"unknown action type {kind!r}")

    def _to_total(self, kind: str, player: str, to: int) -> None:
        """The first export (no ``hhversion``) writes a call or raise as the street total reached."""
        if kind == "Call":
            self.b.call(player, to - self.b.committed(player))
        else:
            self.b.raise_to(player, to - self.b.max_committed_excluding(player), to)

    def _win(self, a: ET.Element) -> None:
        self._silent_return(a)
        self.b.new_street(Street.SHOWDOWN)
        for kind, player, shown in self.shown:
            if kind == "ShowCards":
                self.b.show(player, shown)
            else:
                self.b.muck(player, shown or None)
        for s in a.iterfind("Seat"):
            player = self._player(s, "num")
            pot = s.get("pot", "0")
            self.b.award(player, self.money(s.get("amount", "")), int(pot) if pot.isdigit() else 0)
        self.won = True

    def _silent_return(self, win: ET.Element) -> None:
        """Older exports hand the unmatched top bet back without a "MoneyReturned": derived only
        when the bettor's written end balance is short of exactly that excess."""
        put_in: dict[str, int] = {}
        live: dict[str, int] = {}
        for act in self.hand.actions:
            put_in[act.player] = put_in.get(act.player, 0) + act.contribution
            if act.kind not in DEAD_POSTS:
                live[act.player] = live.get(act.player, 0) + act.contribution
        ranked = sorted(live.items(), key=lambda kv: kv[1], reverse=True)
        if len(ranked) < 2 or ranked[0][1] <= ranked[1][1]:
            return
        top, excess = ranked[0][0], ranked[0][1] - ranked[1][1]
        won = sum(self.money(s.get("amount", "")) for s in win.iterfind("Seat") if self._player(s, "num") == top)
        seat = next(s for s in self.hand.seats if s.player == top)
        if seat.final_stack is not None and seat.final_stack - (seat.stack - put_in.get(top, 0) + won) == excess:
            self.b.uncalled_on_last_street(top, excess)


FORMAT = MicroGamingFormat()
