"""Shared machinery for PokerStars-like text formats (GGPoker, Winamax, Winning, Bovada).

Why: these sites write the same kinds of lines in different words. What must be identical across
them is the chip accounting (how a written "raises 4 to 6" or "straddle 0.5" becomes a
contribution), so each format parser reads its own words and feeds a ``HandBuilder``, which owns
street commitments, contributions and sequence numbers. Nothing here knows any site's grammar,
and nothing here imports another engineer's parser.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from parsers.model import (
    DEAD_POSTS,
    LIVE_POSTS,
    Action,
    Award,
    Board,
    Hand,
    HoleCards,
    Kind,
    ParseError,
    Provenance,
    Seat,
    Street,
)
from parsers.money import to_units

UTC = ZoneInfo("UTC")
EASTERN = ZoneInfo("America/New_York")
PARIS = ZoneInfo("Europe/Paris")

_CARD_RE = re.compile(r"(10|[2-9TJQKA])([cdhs])", re.IGNORECASE)
_RANKS = {"10": "T", "t": "T", "j": "J", "q": "Q", "k": "K", "a": "A"}


def cards(text: str) -> str:
    """'Ad Jh 10c' or '[Ad Jh]' -> 'AdJh' + 'Tc'; raise on anything that is not a card list."""
    body = text.strip().strip("[]").strip()
    out: list[str] = []
    for token in body.replace(",", " ").split():
        if token in ("?", "??", "X", "XX"):
            out.append("??")
            continue
        m = _CARD_RE.fullmatch(token)
        if m is None:
            raise ParseError(f"not a card: {token!r}")
        rank = _RANKS.get(m.group(1).lower(), m.group(1).upper())
        out.append(rank + m.group(2).lower())
    return "".join(out)


def feed_lines(read: Callable[[str], None], lines: list[str], first: int) -> None:
    """Hand each line to ``read``; a ParseError gets the line's number in the hand (``first`` is the
    first given line's). Why one helper: every line-reader format numbers its errors the same way."""
    for n, line in enumerate(lines, first):
        try:
            read(line)
        except ParseError as exc:
            raise ParseError(exc.reason, n) from None


def to_utc(text: str, fmt: str, zone: ZoneInfo) -> datetime:
    """Parse a local wall-clock time written in ``zone`` and return naive UTC."""
    local = datetime.strptime(text, fmt).replace(tzinfo=zone)
    return local.astimezone(UTC).replace(tzinfo=None)


#: fixed offsets of zone abbreviations European sites write (hours east of UTC)
ZONE_HOURS = {"GMT": 0, "UTC": 0, "WET": 0, "WEST": 1, "BST": 1, "CET": 1, "CEST": 2, "EET": 2, "EEST": 3,
              "MSK": 3}
_GMT_OFFSET = re.compile(r"GMT([+-])(\d{1,2}):?(\d{2})")


def zone_hours(zone: str) -> float | None:
    """Hours east of UTC of 'CEST', 'GMT', 'GMT+02:00' or 'GMT+2:00'; None for an unknown zone."""
    g = _GMT_OFFSET.fullmatch(zone)
    if g:
        hours = int(g[2]) + int(g[3]) / 60
        return hours if g[1] == "+" else -hours
    return ZONE_HOURS.get(zone)


def shift_hours(moment: datetime, hours: float) -> datetime:
    """A naive UTC time moved by a fixed offset (for sites that write '+01:00'-style zones)."""
    return moment - timedelta(hours=hours)


class Money:
    """Exact amounts for one hand: strip the site's currency decorations, then ``to_units``."""

    __slots__ = ("scale", "strip")

    def __init__(self, scale: int, strip: str = "$€£¥") -> None:
        self.scale = scale
        self.strip = strip

    def __call__(self, text: str) -> int:
        s = text.strip().strip("()").strip(self.strip).replace("€", "").replace("$", "")
        return to_units(s, self.scale)


def stars_decision(
    player: str,
    rest: str,
    b: HandBuilder,
    money: Money,
    amount: Callable[[str], re.Match[str]],
    raise_line: re.Pattern[str],
) -> bool:
    """Read a 'folds' / 'checks' / 'calls X' / 'bets X' / 'raises X to Y' line; False for others.

    Why shared: GGPoker, Winamax and Winning write these five decisions in the same words; only
    the amount grammar differs, so each site passes its own ``amount`` reader (a match with
    ``amt`` and ``allin`` groups, ParseError when unreadable) and its ``raise_line`` pattern
    (``amt``, ``to`` and ``allin`` groups, matched against the whole ``rest``).
    """
    if rest == "folds":
        b.fold(player)
    elif rest == "checks":
        b.check(player)
    elif rest.startswith("calls "):
        a = amount(rest[6:])
        b.call(player, money(a["amt"]), a["allin"] is not None)
    elif rest.startswith("bets "):
        a = amount(rest[5:])
        b.bet(player, money(a["amt"]), a["allin"] is not None)
    elif rest.startswith("raises "):
        r = raise_line.match(rest)
        if r is None:
            raise ParseError(f"bad raise {rest!r}")
        b.raise_to(player, money(r["amt"]), money(r["to"]), r["allin"] is not None)
    else:
        return False
    return True


class HandBuilder:
    """Accumulates actions for one hand, deriving each contribution from what was written.

    It tracks the live amount each player has in on the current street so that "raises to",
    straddles written as totals and calls are turned into chips moved, exactly as the model's
    conventions say. Errors that would make the accounting wrong raise ParseError.
    """

    __slots__ = ("_committed", "_hole", "_seq", "boards", "hand", "street")

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.street = Street.PREFLOP
        self._committed: dict[str, int] = {}
        self._seq = 0
        self._hole: dict[str, HoleCards] = {}
        self.boards: dict[int, str] = {}

    # -- streets and players -------------------------------------------------------------
    def new_street(self, street: Street) -> None:
        if street is not self.street:
            self.street = street
            if street is not Street.SHOWDOWN:
                self._committed = {}

    def committed(self, player: str) -> int:
        return self._committed.get(player, 0)

    def seated(self, player: str) -> str:
        """``player``, when the hand has a seat for them (the ParseError every format gives otherwise)."""
        if not any(s.player == player for s in self.hand.seats):
            raise ParseError(f"action by a player not in the seat list: {player!r}")
        return player

    def passive(self, line: str) -> bool:
        """Read 'X folds' / 'X checks' for a seated X; False for any other line."""
        if not line.endswith((" folds", " checks")):
            return False
        player, _, verb = line.rpartition(" ")
        (self.fold if verb == "folds" else self.check)(self.seated(player))
        return True

    def max_committed(self) -> int:
        return max(self._committed.values(), default=0)

    def _add(
        self,
        player: str,
        kind: Kind,
        amount: int | None = None,
        *,
        raise_to: int | None = None,
        all_in: bool = False,
        contribution: int = 0,
        cards_text: str | None = None,
    ) -> None:
        self.hand.actions.append(
            Action(self._seq, self.street, player, kind, amount, raise_to, all_in, contribution, cards_text)
        )
        self._seq += 1

    # -- forced bets ---------------------------------------------------------------------
    def post(self, player: str, kind: Kind, amount: int, all_in: bool = False) -> None:
        """A blind, ante or dead post of ``amount`` chips (the amount moved)."""
        if kind in LIVE_POSTS:
            self._committed[player] = self.committed(player) + amount
        elif kind not in DEAD_POSTS:
            raise ParseError(f"not a post: {kind}")
        self._add(player, kind, amount, all_in=all_in, contribution=amount)

    def post_to(self, player: str, kind: Kind, total: int, all_in: bool = False) -> None:
        """A live post written as the player's new street total (GGPoker straddles)."""
        moved = total - self.committed(player)
        if moved < 0:
            raise ParseError(f"{player} posts to {total} below own {self.committed(player)}")
        self._committed[player] = total
        self._add(player, kind, total, all_in=all_in, contribution=moved)

    # -- decisions -----------------------------------------------------------------------
    def fold(self, player: str) -> None:
        self._add(player, Kind.FOLD)

    def check(self, player: str) -> None:
        self._add(player, Kind.CHECK)

    def call(self, player: str, amount: int, all_in: bool = False) -> None:
        self._committed[player] = self.committed(player) + amount
        self._add(player, Kind.CALL, amount, all_in=all_in, contribution=amount)

    def bet(self, player: str, amount: int, all_in: bool = False) -> None:
        to = self._committed[player] = self.committed(player) + amount
        self._add(player, Kind.BET, amount, raise_to=to, all_in=all_in, contribution=amount)

    def raise_to(self, player: str, amount: int | None, to: int, all_in: bool = False) -> None:
        """A raise to a street total ``to``; ``amount`` is the increment as written (or None)."""
        moved = to - self.committed(player)
        if moved <= 0:
            raise ParseError(f"{player} raises to {to} but already has {self.committed(player)} in")
        self._committed[player] = to
        written = amount if amount is not None else to - self.max_committed_excluding(player)
        self._add(player, Kind.RAISE, written, raise_to=to, all_in=all_in, contribution=moved)

    def raise_by(self, player: str, amount: int, all_in: bool = False) -> None:
        """A raise written as the chips added ('raises 40', Winning's old format)."""
        to = self.committed(player) + amount
        self._committed[player] = to
        self._add(player, Kind.RAISE, amount, raise_to=to, all_in=all_in, contribution=amount)

    def all_in_adding(self, player: str, amount: int) -> None:
        """An all-in written as the chips it adds (Bovada 'All-in $X', Winning 'allin (X)')."""
        self.adding(player, amount, all_in=True)

    def adding(self, player: str, amount: int, all_in: bool = False) -> None:
        """A decision written only as the chips it adds (MicroGaming XML, all-ins elsewhere): a
        call if it does not top the bet, else a bet or a raise to the player's new total."""
        to = self.committed(player) + amount
        top = self.max_committed_excluding(player)
        if to <= top:
            self.call(player, amount, all_in=all_in)
        elif top == 0:
            self.bet(player, amount, all_in=all_in)
        else:
            self.raise_to(player, amount, to, all_in=all_in)

    def complete(self, player: str, to: int, amount: int, all_in: bool = False) -> None:
        """Stud: the bring-in raised to the full small bet, the player's street total ``to``."""
        moved = to - self.committed(player)
        if moved <= 0:
            raise ParseError(f"{player} completes to {to} but already has {self.committed(player)} in")
        self._committed[player] = to
        self._add(player, Kind.COMPLETE, amount, raise_to=to, all_in=all_in, contribution=moved)

    def draw(self, player: str, count: int, thrown: str | None = None) -> None:
        """A draw: ``count`` cards thrown (a discard), or none (stands pat)."""
        if count:
            self._add(player, Kind.DISCARD, count, cards_text=thrown)
        else:
            self._add(player, Kind.STAND_PAT, 0, cards_text=thrown)

    def max_committed_excluding(self, player: str) -> int:
        return max((v for p, v in self._committed.items() if p != player), default=0)

    def uncalled(self, player: str, amount: int) -> None:
        self._committed[player] = self.committed(player) - amount
        self._add(player, Kind.UNCALLED_RETURN, amount, contribution=-amount)

    def uncalled_on_last_street(self, player: str, amount: int) -> None:
        """An uncalled excess handed back on the street the player last put chips in (sites that
        write the return in the summary, after the streets: Merge, PokerTracker exports)."""
        street = self.street
        for a in reversed(self.hand.actions):
            if a.player == player and a.contribution > 0:
                self.street = a.street
                break
        self.uncalled(player, amount)
        self.street = street

    # -- cards ---------------------------------------------------------------------------
    def hole(self, player: str, card_text: str, provenance: Provenance) -> None:
        """Record hole cards once per player; a hero's DEALT cards win over a later SHOWN."""
        if player in self._hole and self._hole[player].provenance is not Provenance.SHOWN:
            return
        if player in self._hole and provenance is Provenance.SHOWN:
            return
        self._hole[player] = HoleCards(player, card_text, provenance)

    def show(self, player: str, card_text: str) -> None:
        self._add(player, Kind.SHOW, cards_text=card_text)
        self.hole(player, card_text, Provenance.SHOWN)

    def muck(self, player: str, card_text: str | None = None) -> None:
        self._add(player, Kind.MUCK, cards_text=card_text)
        if card_text:
            self.hole(player, card_text, Provenance.SHOWN)

    def board(self, board_no: int, card_text: str) -> None:
        """The full board so far for run ``board_no`` (later lines extend earlier ones)."""
        if len(card_text) > len(self.boards.get(board_no, "")):
            self.boards[board_no] = card_text

    def award(self, player: str, amount: int, pot_no: int = 0, board_no: int = 1) -> None:
        self.hand.awards.append(Award(player, amount, pot_no, board_no))

    def finish(self) -> Hand:
        """Attach cards and boards; a run-out board shares the first board's earlier cards."""
        hand = self.hand
        hand.hole_cards = list(self._hole.values())
        first = self.boards.get(1, "")
        for no in sorted(self.boards):
            text = self.boards[no]
            if no > 1 and len(text) < 10:
                # a second run written as only its new cards: prefix the shared first cards
                shared = len(first) - len(text)
                text = first[: max(shared, 0)] + text if shared > 0 else text
            hand.boards.append(Board(no, text))
        return hand


def read_seat_lines(hand: Hand, lines: list[str], start: int, seat: re.Pattern[str], money: Money) -> int:
    """The seat lines from ``start`` (``seat`` has ``seat``, ``name`` and ``cash`` groups) into
    ``hand.seats``; the index of the first line after them. No seat at all is a ParseError."""
    i = start
    while i < len(lines) and (s := seat.match(lines[i])) is not None:
        hand.seats.append(Seat(int(s["seat"]), s["name"], money(s["cash"])))
        i += 1
    if not hand.seats:
        raise ParseError("no seats", i + 1)
    return i


def new_hand(
    *,
    site: str,
    hand_no: str,
    fmt: str,
    source_file: str,
    offset: int,
    length: int,
) -> Hand:
    """A Hand with identity filled in and placeholders the parser overwrites."""
    return Hand(
        hand_id=f"{site}:{hand_no}",
        site=site,
        site_hand_no=hand_no,
        format=fmt,
        variant="",
        betting="",
        game_type="cash",
        table_name="",
        sb=0,
        bb=0,
        currency="",
        unit_scale=100,
        source_file=source_file,
        byte_offset=offset,
        byte_length=length,
    )
