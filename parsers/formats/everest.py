"""Everest Poker XML hand histories (``<SESSION .../>`` then one ``<HAND>`` element per hand).

Why its own module: Everest writes no text lines but one XML element per event, every amount an
integer in hundredths (cents at a cash table, hundredths of a chip in a tournament: ``balance=
"138000"`` is 1,380 chips), players by ``position`` and each hole card as its own ``<HOLE>`` row
("--" unseen). Conventions read off the real files:

* ``<BET amount="X">`` is the chips the action adds: 0 is a check, up to the top bet a call,
  above it a bet or raise (``allin="1"`` marks an all-in); ``<PUSH amount="X">`` hands back the
  unmatched part of a bet (the uncalled return the site does write).
* ``<BLIND>``: the first is the small blind, the second the big blind (``penalty`` a dead part);
  ``<XBLIND>`` a seat that posts nothing and, dealt no cards, sits out; ``<ANTE>`` an ante.
* ``<SWEEP rake="R" tax="T">P</SWEEP>`` closes each street: P the pot after rake, R and T the
  hand's rake and tax so far. The last sweep gives the site total (P + R + T), rake R and fee T.
* ``<COMMUNITY>`` deals the flop, turn and river; ``<WIN>`` what each player collected.

The session's ``type`` says ring or tournament, ``money`` the currency sign ("" in a tournament),
``game``/``gametype`` the variant and structure. Times are Unix seconds (exact UTC).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import ClassVar

from parsers.base import TextHandFormat, read_guarded
from parsers.formats._stakes import fixed_limit_blinds
from parsers.formats._stars_like import HandBuilder, cards, new_hand
from parsers.model import Hand, Kind, ParseError, Provenance, Quarantined, Seat, Street
from parsers.money import to_units
from parsers.reading import Block, iter_blocks, iter_lines

_SESSION = re.compile(r"^\ufeff?<SESSION\s")
_HAND = re.compile(r"^\s*<HAND\s")
_GAMES = {"hold-em": "holdem", "omaha-hi": "omaha", "omaha-hi-lo": "omaha_hilo"}
_LIMITS = {"no-limit": "NL", "pot-limit": "PL", "fixed-limit": "FL"}
_CURRENCY = {"€": "EUR", "$": "USD", "£": "GBP"}
_BOARD_STREETS = (Street.FLOP, Street.TURN, Street.RIVER)
#: one hand's session: (type, money, game, gametype, table name)
Session = tuple[str, str, str, str, str]


class EverestFormat(TextHandFormat):
    name: ClassVar[str] = "everest"
    priority: ClassVar[int] = 50
    description: ClassVar[str] = "Everest Poker XML (<SESSION> then <HAND> per hand)"

    def sniff(self, head: str) -> bool:
        first = head.lstrip("\ufeff\r\n\t ")
        return _SESSION.match(first) is not None and "<HAND " in head and 'gametype="' in first

    def is_start(self, line: str) -> bool:
        return _SESSION.match(line) is not None or _HAND.match(line) is not None

    def parse(self, path: Path) -> Iterator[Hand | Quarantined]:
        source = str(path)
        session: Session | None = None
        for block in iter_blocks(iter_lines(path), self.is_start):
            if _SESSION.match(block.lines[0]):
                # an unreadable <SESSION> is quarantined and its hands follow it there (no game or
                # money to read them by): a bad line never stops the file
                try:
                    session = _session(block.lines[0])
                except ParseError as exc:
                    session = None
                    yield Quarantined(source, block.offset, "\n".join(block.lines), str(exc), self.name)
                continue
            hand = read_guarded(source, block.offset, block.lines, self.name, _parse, block, source, session)
            if hand is not None:
                yield hand

    def parse_block(self, block: Block, source_file: str) -> Hand | None:
        raise ParseError("Everest hands need their <SESSION>: use parse()")


def _session(line: str) -> Session:
    """The session's attributes a hand needs (the element closes on its own line)."""
    try:
        el = ET.fromstring(line.strip().lstrip("\ufeff"))
    except ET.ParseError as exc:
        raise ParseError(f"unreadable <SESSION>: {exc}") from None
    return el.get("type", ""), el.get("money", ""), el.get("game", ""), el.get("gametype", ""), el.get("tableName", "")


def _parse(block: Block, source_file: str, session: Session | None) -> Hand:
    if session is None:
        raise ParseError("hand before any <SESSION> (no game or money)")
    kind, money, game, gametype, table = session
    text = "\n".join(block.lines)
    end = text.find("</HAND>")
    if end < 0:
        raise ParseError("truncated hand: no </HAND>")
    try:
        root = ET.fromstring(text[: end + len("</HAND>")].strip())
    except ET.ParseError as exc:
        raise ParseError(f"unreadable XML: {exc}") from None
    if game not in _GAMES or gametype not in _LIMITS:
        raise ParseError(f"unsupported variant: {game} {gametype}")
    hand = new_hand(site="everest", hand_no=root.get("id", ""), fmt="everest", source_file=source_file,
                    offset=block.offset, length=block.length)
    hand.variant, hand.betting, hand.table_name = _GAMES[game], _LIMITS[gametype], table
    if kind == "tournament":
        hand.game_type, hand.currency = "tournament", "CHIPS"  # hundredths of a chip (unit_scale 100)
        hand.tournament_id = table.split("-", 1)[0] or None
    elif money in _CURRENCY:
        hand.currency = _CURRENCY[money]
    else:
        raise ParseError(f"unknown money {money!r} at a ring table")
    stamp = root.get("time", "")
    if stamp.isdigit():
        hand.started_at = datetime.fromtimestamp(int(stamp), UTC).replace(tzinfo=None)
    hand.sb, hand.bb = _blinds(root.get("blinds", ""))
    _Reader(hand).read(root)
    return hand


def _blinds(text: str) -> tuple[int, int]:
    """The table's blinds in hundredths: "$0.50/$1", "0,01 €/0,02 €", "1 750/3 500" (chips)."""
    low, slash, high = text.partition("/")
    if not slash:
        raise ParseError(f"unreadable blinds {text!r}")
    return _hundredths(low), _hundredths(high)


def _hundredths(text: str) -> int:
    s = re.sub(r"[^\d.,]", "", text).replace(",", ".")
    if not re.fullmatch(r"\d+(?:\.\d{1,2})?", s):
        raise ParseError(f"unreadable amount {text!r}")
    return to_units(s, 100)


class _Reader:
    """One hand's events in order, into the builder (players are named by their position)."""

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.b = HandBuilder(hand)
        self.names: dict[str, str] = {}
        self.held: dict[str, list[str]] = {}
        self.boards = 0
        self.sweep: ET.Element | None = None

    def who(self, el: ET.Element) -> str:
        position = el.get("position", "")
        if position not in self.names:
            raise ParseError(f"an event for position {position!r}, which no seat lists")
        return self.names[position]

    def amount(self, el: ET.Element, attr: str = "amount") -> int:
        value = el.get(attr, "")
        if not value.isdigit():
            raise ParseError(f"not an amount: <{el.tag} {attr}={value!r}>")
        return int(value)

    def read(self, root: ET.Element) -> None:
        for el in root:
            handler = getattr(self, f"_{el.tag.lower()}", None)
            if handler is None:
                raise ParseError(f"unrecognised element <{el.tag}>")
            handler(el)
        self.finish()

    def _seat(self, el: ET.Element) -> None:
        name = el.get("name", "")
        if not name or name in self.names.values():
            raise ParseError(f"duplicate or blank player name {name!r}")
        self.names[el.get("position", "")] = name
        self.hand.seats.append(Seat(int(el.get("position", "0")) + 1, name, self.amount(el, "balance")))

    def _dealer(self, el: ET.Element) -> None:
        self.hand.button_seat = int(el.get("position", "0")) + 1

    def _ante(self, el: ET.Element) -> None:
        amount = self.amount(el)
        self.hand.ante = self.hand.ante or amount
        self.b.post(self.who(el), Kind.POST_ANTE, amount, self._all_in(self.who(el), amount))

    def _blind(self, el: ET.Element) -> None:
        """The first blind is the small blind and the second the big one; a lone blind is the big
        blind unless it is below the header's (``_lone_blind``)."""
        player, amount, dead = self.who(el), self.amount(el), self.amount(el, "penalty")
        first = not any(a.kind in (Kind.POST_SB, Kind.POST_BB) for a in self.hand.actions)
        self.b.post(player, Kind.POST_SB if first else Kind.POST_BB, amount, self._all_in(player, amount + dead))
        if dead:
            self.b.post(player, Kind.POST_DEAD, dead)

    def _table_blinds(self) -> None:
        """sb and bb as posted (a new level's posts run ahead of the header: "5/10" with posts of 10
        and 20); a lone blind at least the header's big blind is that big blind."""
        hand = self.hand
        posts = [i for i, a in enumerate(hand.actions) if a.kind in (Kind.POST_SB, Kind.POST_BB)]
        if len(posts) == 1 and hand.actions[posts[0]].contribution >= hand.bb:
            hand.actions[posts[0]] = hand.actions[posts[0]]._replace(kind=Kind.POST_BB)
        amounts = [hand.actions[i].contribution for i in posts]
        if len(amounts) >= 2:
            hand.sb, hand.bb = amounts[0], amounts[1]
        elif len(amounts) == 1 and hand.actions[posts[0]].kind is Kind.POST_BB:
            hand.bb = amounts[0]

    def _xblind(self, el: ET.Element) -> None:
        return  # a seat that posts nothing this hand

    def _hole(self, el: ET.Element) -> None:
        card = (el.text or "").strip()
        self.held.setdefault(self.who(el), []).append("??" if card == "--" else cards(card))

    def _bet(self, el: ET.Element) -> None:
        player, amount = self.who(el), self.amount(el)
        all_in = el.get("allin") == "1" or self._all_in(player, amount)
        if amount == 0:
            self.b.check(player)
        else:
            self.b.adding(player, amount, all_in)

    def _fold(self, el: ET.Element) -> None:
        self.b.fold(self.who(el))

    def _push(self, el: ET.Element) -> None:
        self.b.uncalled(self.who(el), self.amount(el))

    def _sweep(self, el: ET.Element) -> None:
        self.sweep = el

    def _community(self, el: ET.Element) -> None:
        if self.boards >= len(_BOARD_STREETS):
            raise ParseError("a fourth <COMMUNITY> deal")
        self.b.new_street(_BOARD_STREETS[self.boards])
        self.boards += 1
        self.b.board(1, self.b.boards.get(1, "") + cards((el.text or "").replace(",", " ")))

    def _show(self, el: ET.Element) -> None:
        shown = cards((el.text or "").replace(",", " "))
        player = self.who(el)
        if not any(a.kind is Kind.SHOW and a.player == player for a in self.hand.actions):
            self.b.new_street(Street.SHOWDOWN)
            self.b.show(player, shown)

    def _xshow(self, el: ET.Element) -> None:
        return  # a winner who does not show

    def _win(self, el: ET.Element) -> None:
        self.b.award(self.who(el), self.amount(el), int(el.get("pot", "0")))

    def _chat(self, el: ET.Element) -> None:
        return

    def _all_in(self, player: str, adding: int) -> bool:
        """True when ``adding`` takes the player's last chips."""
        stack = next(s.stack for s in self.hand.seats if s.player == player)
        return sum(a.contribution for a in self.hand.actions if a.player == player) + adding >= stack

    def finish(self) -> None:
        hand = self.hand
        if self.sweep is None or not hand.awards:
            raise ParseError("truncated hand: no <SWEEP> total or no <WIN>")
        rake, tax = self.amount(self.sweep, "rake"), self.amount(self.sweep, "tax")
        hand.site_total_pot = int((self.sweep.text or "0").strip()) + rake + tax
        if hand.game_type == "cash":
            hand.site_rake, hand.site_fees = rake, tax or None
        elif rake or tax:
            raise ParseError("rake written in a tournament hand")
        dealt = set(self.held)
        hand.seats = [s._replace(sitting_out=s.player not in dealt) for s in hand.seats]
        for player, got in self.held.items():
            if "??" not in got:  # only the hero's <HOLE> cards are written
                hand.hero = player
                self.b.hole(player, "".join(got), Provenance.DEALT)
        self._table_blinds()
        if hand.betting == "FL":  # "blinds" are the blinds, "stakes" the bets: bb is the small bet
            fixed_limit_blinds(hand, hand.bb)
        self.b.finish()


FORMAT = EverestFormat()
