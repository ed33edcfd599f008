"""Boss Media (Opoker, Svenska Spel, espacejeux, Betsson-era) XML hand histories.

Why its own module: Boss writes one ``<HISTORY>`` element per hand, sometimes inside a
``<ROOT>`` with an XML declaration, sometimes as a bare stream, so each hand is parsed on its own.
Cards are numbers 0-51 (Ad..Kd, Ac..Kc, Ah..Kh, As..Ks; "b" is a hidden card). RAISE values are
the street total reached; CALL values are the chips added in 2013-14 exports and the street total
called in 2009-12 ones, so a call is taken as bringing the caller level with the top bet and its
written value is only checked against both readings. An all-in puts in what the player has left.
The site never writes uncalled bets: the unmatched part of the top bet of each street is handed
back, which the pot the site writes at the next street (POT + RAKE = everything put in) and at the
showdown confirms. Pot amounts are after rake, so no Pot rows are emitted; the site total is
normalised to POT + RAKE. DATE is a Unix time, so the start time is exact UTC.

Tournaments (``GAMEKIND_TOURNAMENT``) write chips with two decimals ("2310.00") and the event's
currency in TABLECURRENCY: they are read as whole chips. Five card draw (``GAME_FCD``, issue 12)
marks the end of the betting before the draw with a HAND_BOARD that deals no card, then one
CHANGECARD per player (COUNT cards thrown; the five cards held after it, face down for opponents).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import ClassVar

from parsers.base import TextHandFormat, guarded_parse
from parsers.formats._stakes import fixed_limit_blinds
from parsers.formats._stars_like import HandBuilder, Money, new_hand
from parsers.model import Hand, Kind, ParseError, Provenance, Quarantined, Seat, Street, StreetCards
from parsers.reading import Block, iter_blocks, iter_lines

_GAMES = {"GAME_THM": ("holdem", 2), "GAME_OMA": ("omaha", 4), "GAME_OMAHL": ("omaha_hilo", 4),
          # "OMATU" (2009 'Franz' tables): four hole cards, Omaha high winners: plain Omaha
          "GAME_OMATU": ("omaha", 4), "GAME_FCD": ("draw5", 5)}
_KINDS = {"GAMEKIND_CASH": "cash", "GAMEKIND_TOURNAMENT": "tournament"}
_LIMITS = {"NL": "NL", "PL": "PL", "FL": "FL"}
_STREETS = {"BOARD_FLOP": Street.FLOP, "BOARD_TURN": Street.TURN, "BOARD_RIVER": Street.RIVER}
_SUITS = "dchs"
_RANKS = "A23456789TJQK"
_NO_SEAT = ("STATE_EMPTY", "STATE_RESERVED")
_PREAMBLE = ("<?xml", "<ROOT>", "</ROOT>")


def card(link: str) -> str:
    """A Boss card number (0 = Ad ... 51 = Ks) as 'Ad'; 'b' (face down) as '??'."""
    if link == "b":
        return "??"
    n = int(link)
    if not 0 <= n < 52:
        raise ParseError(f"not a card number: {link!r}")
    return _RANKS[n % 13] + _SUITS[n // 13]


def _cards(el: ET.Element) -> str:
    return "".join(card(c.get("LINK", "")) for c in el.findall("CARD"))


class BossMediaFormat(TextHandFormat):
    name: ClassVar[str] = "bossmedia"
    priority: ClassVar[int] = 50
    description: ClassVar[str] = "Boss Media XML (<HISTORY> per hand, numbered cards)"

    def sniff(self, head: str) -> bool:
        return '<HISTORY ID="' in head and 'GAMEKIND="GAMEKIND_' in head and 'SESSION="session' in head

    def is_start(self, line: str) -> bool:
        return line.lstrip("\ufeff").startswith("<HISTORY ")

    def parse(self, path: Path) -> Iterator[Hand | Quarantined]:
        source = str(path)
        for block in iter_blocks(iter_lines(path), self.is_start):
            if not self.is_start(block.lines[0]) and all(
                not ln.strip() or ln.strip().lstrip("\ufeff").startswith(_PREAMBLE) for ln in block.lines
            ):
                continue  # the XML declaration and <ROOT> before the first hand
            yield from guarded_parse(self, block, source)

    def parse_block(self, block: Block, source_file: str) -> Hand | None:
        text = "\n".join(block.lines).lstrip("\ufeff")
        end = text.rfind("</HISTORY>")
        closed = end >= 0
        if not closed:
            # fpdb's post.both sample stops right after its last </RESULT>: complete when the
            # results written add up to the showdown pot (checked below), truncated otherwise
            if "<SHOWDOWN " not in text or not text.rstrip().endswith("</RESULT>"):
                raise ParseError("truncated hand: no </HISTORY>")
            text = text.rstrip() + "</SHOWDOWN></HISTORY>"
            end = text.rfind("</HISTORY>")
        try:
            root = ET.fromstring(text[: end + len("</HISTORY>")])
        except ET.ParseError as exc:
            raise ParseError(f"unreadable XML: {exc}") from None
        hand = _parse(root, block, source_file)
        if not closed:
            won = sum(a.amount for a in hand.awards)
            if hand.site_total_pot is None or won != hand.site_total_pot - (hand.site_rake or 0):
                raise ParseError("truncated hand: no </HISTORY> and the results do not add up to the pot")
        return hand


def _parse(root: ET.Element, block: Block, source_file: str) -> Hand:
    game = root.get("GAME", "")
    if game not in _GAMES:
        raise ParseError(f"unsupported variant: {game}")
    if root.get("GAMEKIND") not in _KINDS:
        raise ParseError(f"unsupported game kind: {root.get('GAMEKIND')}")
    limit = root.get("LIMIT", "")
    if limit not in _LIMITS:
        raise ParseError(f"unknown betting structure {limit!r}")
    hand = new_hand(site="bossmedia", hand_no=root.get("ID", ""), fmt="bossmedia", source_file=source_file,
                    offset=block.offset, length=block.length)
    if not hand.site_hand_no:
        raise ParseError("hand without an ID")
    hand.variant, n_cards = _GAMES[game]
    hand.betting = _LIMITS[limit]
    hand.table_name = root.get("TABLE", "")
    real = root.get("GAMETYPE") == "GAMETYPE_REAL"
    hand.game_type = _KINDS[root.get("GAMEKIND", "")]
    if hand.game_type == "tournament":
        hand.currency, hand.unit_scale = "CHIPS", 1
        hand.tournament_id = root.get("TABLETOURNEYID") or None
    else:
        hand.currency = root.get("TABLECURRENCY", "") if real else "PLAY"
    if not hand.currency:
        raise ParseError("no TABLECURRENCY on a real-money hand")
    money = Money(hand.unit_scale)
    low, _, high = root.get("STAKES", "").partition("/")
    small, big = money(low), money(high)
    date = root.get("DATE", "")
    if date.isdigit():
        hand.started_at = datetime.fromtimestamp(int(date), UTC).replace(tzinfo=None)

    stacks: dict[str, int] = {}
    players = root.findall("PLAYER")
    for p in players:
        name, state = p.get("NAME", ""), p.get("STATE", "")
        if state in _NO_SEAT or (not state and name == "UNKNOWN"):
            continue
        if not name:
            raise ParseError(f"a seated player without a name (seat {p.get('SEAT')})")
        seat_no = int(p.get("SEAT", "0"))
        stacks[name] = money(p.get("AMOUNT", "0"))
        hand.seats.append(Seat(seat_no, name, stacks[name], state == "STATE_SITOUT"))
        if p.get("DEALER") == "Y":
            hand.button_seat = seat_no
    if any(p.get("STATE") for p in players):
        hand.max_seats = len(players)  # newer exports list every seat, empty ones included
    hand.seats.sort(key=lambda s: s.seat_no)

    def who(el: ET.Element) -> str:
        name = el.get("PLAYER", "")
        if name not in stacks:
            raise ParseError(f"action by a player not in the seat list: {name!r}")
        return name

    b = HandBuilder(hand)
    draw = hand.variant == "draw5"
    if draw:
        b.new_street(Street.PREDRAW)
    live_bb = big if hand.betting != "FL" else small
    table = _State(b, stacks)
    showdown: ET.Element | None = None
    for el in root:
        if el.tag == "ACTION":
            kind = el.get("TYPE", "")
            if kind == "HAND_BLINDS":
                table.blind(who(el), el.get("KIND", ""), money(el.get("VALUE", "0")), live_bb)
            elif kind == "HAND_ANTE":
                table.post(who(el), Kind.POST_ANTE, money(el.get("VALUE", "0")))
            elif kind == "HAND_DEAL":
                dealt = _cards(el)
                if len(dealt) != 2 * n_cards:
                    raise ParseError(f"{len(dealt) // 2} hole cards dealt in {game}")
                if "??" not in dealt:
                    hand.hero = who(el)
                    if not draw:
                        b.hole(hand.hero, dealt, Provenance.DEALT)
                if draw:
                    table.held[who(el)] = dealt
                    hand.street_cards.append(StreetCards(who(el), Street.PREDRAW, dealt, False))
            elif kind == "HAND_BOARD" and draw:
                if b.street is not Street.PREDRAW:
                    raise ParseError("a second draw in five card draw")
                table.end_street()
                b.new_street(Street.DRAW1)
            elif kind == "CHANGECARD" and draw:
                table.change(who(el), el)
            elif kind == "HAND_BOARD":
                street = _STREETS.get(el.get("VALUE", ""))
                if street is None:
                    raise ParseError(f"unknown board {el.get('VALUE')!r}")
                table.end_street()
                b.new_street(street)
                b.board(1, _cards(el))
            elif kind.startswith("ACTION_"):
                table.decision(who(el), kind, el.get("VALUE"), money)
            else:
                raise ParseError(f"unrecognised action {kind!r}")
        elif el.tag == "SHOWDOWN":
            showdown = el
        elif el.tag != "PLAYER":
            raise ParseError(f"unrecognised element <{el.tag}>")
    if showdown is None:
        raise ParseError("truncated hand: no <SHOWDOWN>")
    if hand.button_seat is None:
        hand.button_seat = _button_from_deal(root, hand)
    table.end_street()
    _showdown(showdown, b, table, money, who)
    if draw and hand.hero in table.held:
        b.hole(hand.hero, table.held[hand.hero], Provenance.DEALT)
    if hand.betting == "FL":
        if draw:
            hand.small_bet, hand.big_bet = small, big
        fixed_limit_blinds(hand, small)
    else:  # the blinds as posted (HHSmithy's HeroName hand posts 2.50/5.00 at a "2.00/4.00" table)
        hand.sb = _first_post(hand, Kind.POST_SB, small)
        hand.bb = _first_post(hand, Kind.POST_BB, big)
    return b.finish()


def _button_from_deal(root: ET.Element, hand: Hand) -> int | None:
    """The dealt seat before the first one dealt to, for exports that mark no DEALER.

    Boss deals from the first seat clockwise of the button: in every real hand that marks
    ``DEALER="Y"`` (53 of 53) the first HAND_DEAL goes to that seat; the deal order and the
    post-flop order then agree even when a returning player posts out of position.
    """
    seat_of = {s.player: s.seat_no for s in hand.seats}
    dealt = [seat_of[el.get("PLAYER", "")] for el in root.iter("ACTION")
             if el.get("TYPE") == "HAND_DEAL" and el.get("PLAYER", "") in seat_of]
    if len(dealt) < 2:
        return None
    ordered = sorted(dealt)
    first = ordered.index(dealt[0])
    return ordered[first - 1]


def _first_post(hand: Hand, kind: Kind, default: int) -> int:
    return next((a.contribution for a in hand.actions if a.kind is kind and not a.all_in), default)


class _State:
    """What each player still has behind and who is still in, for all-ins and the returns."""

    __slots__ = ("b", "behind", "folded", "held", "sb_posted")

    def __init__(self, b: HandBuilder, stacks: dict[str, int]) -> None:
        self.b = b
        self.behind = dict(stacks)
        self.folded: set[str] = set()
        self.sb_posted = False
        self.held: dict[str, str] = {}  # five card draw: the cards each player holds, "??" unseen

    def change(self, player: str, el: ET.Element) -> None:
        """A CHANGECARD: COUNT cards thrown; for the hero, which ones and the ones drawn."""
        count = el.get("COUNT", "")
        if not count.isdigit():
            raise ParseError(f"CHANGECARD by {player} without a COUNT")
        old, new = self.held.get(player, ""), _cards(el)
        olds, news = [old[i:i + 2] for i in range(0, len(old), 2)], [new[i:i + 2] for i in range(0, len(new), 2)]
        known = "??" not in new and "??" not in old
        thrown = "".join(c for c in olds if c not in news) if known else None
        got = "".join(c for c in news if c not in olds) if known else "??" * int(count)
        if known and len(got) != 2 * int(count):
            raise ParseError(f"{player} changes {count} cards but {len(got) // 2} differ")
        self.b.draw(player, int(count), thrown or None)
        self.held[player] = new
        if int(count):
            self.b.hand.street_cards.append(StreetCards(player, Street.DRAW1, got, False))

    def post(self, player: str, kind: Kind, amount: int) -> None:
        self.behind[player] -= amount
        self.b.post(player, kind, amount, all_in=self.behind[player] <= 0)

    def blind(self, player: str, kind: str, amount: int, live_bb: int) -> None:
        if kind == "HAND_SB":
            # a second small blind (a returning player's) is dead: the pots the site writes
            # only balance when his later raise counts from zero (NLHE-SEK...secondsb)
            self.post(player, Kind.POST_DEAD if self.sb_posted else Kind.POST_SB, amount)
            self.sb_posted = True
        elif kind == "HAND_BB":
            self.post(player, Kind.POST_BB, amount)
        elif kind == "HAND_DSB":
            self.post(player, Kind.POST_DEAD, amount)
        elif kind == "HAND_AB":
            # both blinds at once: the big blind is live, the small-blind part dead
            if amount <= live_bb:
                raise ParseError(f"both blinds {amount} not above the big blind {live_bb}")
            self.post(player, Kind.POST_BB, live_bb)
            self.post(player, Kind.POST_DEAD, amount - live_bb)
        else:
            raise ParseError(f"unrecognised blind {kind!r}")

    def decision(self, player: str, kind: str, value: str | None, money: Money) -> None:
        b = self.b
        if kind == "ACTION_FOLD":
            self.folded.add(player)
            b.fold(player)
            return
        if kind == "ACTION_CHECK":
            b.check(player)
            return
        if value is None:
            raise ParseError(f"{kind} by {player} without a VALUE")
        written = money(value)
        own, top = b.committed(player), b.max_committed_excluding(player)
        if kind == "ACTION_CALL":
            need = top - own
            if need <= 0 or written not in (need, top):
                raise ParseError(f"{player} calls {written}: neither the {need} to call nor the {top} bet")
            if need > self.behind[player]:
                raise ParseError(f"{player} calls {need} with {self.behind[player]} behind")
            self.behind[player] -= need
            b.call(player, need, all_in=self.behind[player] == 0)
            b.hand.actions[-1] = b.hand.actions[-1]._replace(amount=written)
        elif kind == "ACTION_BET":
            if top:
                raise ParseError(f"{player} bets {written} facing a bet of {top}")
            self._spend(player, written)
            b.bet(player, written, all_in=self.behind[player] == 0)
        elif kind == "ACTION_RAISE":
            if written <= top:
                raise ParseError(f"{player} raises to {written}, not above the bet of {top}")
            self._spend(player, written - own)
            b.raise_to(player, written, written, all_in=self.behind[player] == 0)
        elif kind == "ACTION_ALLIN":
            self._all_in(player, written, own, top)
        else:
            raise ParseError(f"unrecognised action {kind!r}")

    def _spend(self, player: str, amount: int) -> None:
        if amount > self.behind[player]:
            raise ParseError(f"{player} puts in {amount} with {self.behind[player]} behind")
        self.behind[player] -= amount

    def _all_in(self, player: str, written: int, own: int, top: int) -> None:
        """Everything the player has left goes in; the written value is that or the new total."""
        b = self.b
        rest = self.behind[player]
        to = own + rest
        if rest <= 0 or written not in (rest, to):
            raise ParseError(f"{player} all in for {written}: has {rest} behind ({to} in total)")
        self.behind[player] = 0
        if to <= top:
            b.call(player, rest, all_in=True)
        elif top == 0:
            b.bet(player, rest, all_in=True)
        else:
            b.raise_to(player, to, to, all_in=True)
        b.hand.actions[-1] = b.hand.actions[-1]._replace(amount=written)

    def end_street(self) -> None:
        """Hand back the part of the street's top bet that nobody matched (never written)."""
        b = self.b
        live = {p: v for p in self.behind if (v := b.committed(p))}
        if not live:
            return
        ranked = sorted(live.values(), reverse=True)
        top, second = ranked[0], ranked[1] if len(ranked) > 1 else 0
        if top > second:
            player = next(p for p, v in live.items() if v == top)
            self.behind[player] += top - second
            b.uncalled(player, top - second)


def _showdown(el: ET.Element, b: HandBuilder, state: _State, money: Money,
              who: Callable[[ET.Element], str]) -> None:
    hand = b.hand
    pot, rake = el.get("POT"), el.get("RAKE")
    if rake is not None and rake != "":
        hand.site_rake = money(rake)
        if pot:
            hand.site_total_pot = money(pot) + hand.site_rake  # POT is what is left after rake
    b.new_street(Street.SHOWDOWN)
    results = el.findall("RESULT")
    in_hand = {who(r) for r in results} - state.folded
    contested = len(in_hand) > 1
    for r in results:
        player = who(r)
        shown = _cards(r)
        known = shown if shown and "??" not in shown else ""
        if player in in_hand and contested:
            if known:
                b.show(player, known)
            elif "STR_G_MUCK" in r.get("HAND", ""):
                b.muck(player)
        elif known:
            b.hole(player, known, Provenance.SHOWN)
        won = money(r.get("WIN", "0"))
        if won:
            b.award(player, won)
    if not hand.awards:
        raise ParseError("no winner written")


FORMAT = BossMediaFormat()
