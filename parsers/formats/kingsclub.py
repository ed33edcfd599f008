"""KingsClub text hand histories ("#39969456: Pot Limit Omaha - 5/10", then a date line).

Why its own module: KingsClub writes PokerStars-like decisions in its own words and, unlike
PokerStars, leaves out what a reader must derive:

* calls are written as the street total reached ("calls 30" after a 10 big blind adds 20), like
  bets and raises ("raises to 1,375");
* uncalled bets are never written: the excess of the top bet on the last street that had bets is
  handed back here, as every site that writes it does;
* the summary writes every seat's final stack and net ("Seat 1: Player0 (1,104) +104"), the rake
  ("Rake 1", no line when none was taken) and the pots won ("wins pot (209)", "wins (3,075) from
  side pot 1"); a pot nobody else could win (a side pot, a big blind left uncontested by a short
  all-in) sometimes has no line. Such an unwritten award is read from the seat's final stack
  (named in the module's test), so the awards equation (awards + rake = everything put in) still
  checks every other line of the hand; the seats' own results must balance against the rake
  (ParseError otherwise);
* run it twice writes "*** BOARD 2 - RIVER *** [- - - Qd] [Jd]" ('-' a card shared with board 1);
  split-board Limit Omaha ("LO Split") deals two boards from the flop and bets after both: the
  model has no split-board omaha (only PokerStars' ``holdem_split``), so it is quarantined by name.

The header names no currency; fpdb, which knows the site, reads cash games as USD. Amounts carry
cents ("13,812.50"), so the unit is the cent. Times are written without a zone (``started_at`` stays
None). Draw games bet on "*** 1ST BETTING ROUND ***" (predraw), draw at "*** 1ST DRAW ***" (draw1,
whose betting is the "2ND BETTING ROUND") and so on; opponents' draws are counts ("draws 3"), the
owner's "discards [9d Th Jc] draws [5s 9c Kd]". Stud names each street after the one before it: the
bring-in round follows the first deal, "*** 3RD STREET ***" deals the fourth card, "*** 6TH STREET
***" the seventh; the first bet or raise over the bring-in is the completion. Games the canonical
model lacks (Drawmaha: omaha with a draw after the flop) are quarantined by name; 2-7 Razz, A-5 Single
Draw, Badeucey and Badacey (triple draw, the pot split between a badugi and a low) are read.
"""

from __future__ import annotations

import re
from typing import ClassVar

from parsers.base import StartLineFormat
from parsers.formats._stakes import fixed_limit_blinds
from parsers.formats._stars_like import HandBuilder, Money, cards, feed_lines, new_hand
from parsers.model import Hand, Kind, ParseError, Provenance, Seat, Street, StreetCards, game_family
from parsers.reading import Block

_START = re.compile(r"^(?:\ufeff)?#(?P<no>\d+): (?P<game>.+) - (?P<sb>[\d,.]+)/(?P<bb>[\d,.]+)(?=\s|$)")
_TABLE = re.compile(r"^Table '(?P<name>.*)'(?: Seat (?P<button>\d+) is the button)?$")
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<cash>[\d,.]+)\)(?: (?P<net>[+-][\d,.]+))?$")
_STREET = re.compile(r"^\*\*\* (?:BOARD (?P<board>\d) - )?(?P<street>FLOP|TURN|RIVER) \*\*\* (?P<cards>.*)$")
_WINS = re.compile(
    r"^(?P<name>.+?) wins (?:pot \((?P<amt>[\d,.]+)\)|\((?P<amt2>[\d,.]+)\) from (?:pot|side pot (?P<side>\d+)))$"
)
_ALL_IN = ", and is all in"
_DECISIONS = frozenset({"folds", "checks", "calls", "bets", "raises"})
_STREETS = {"FLOP": Street.FLOP, "TURN": Street.TURN, "RIVER": Street.RIVER}
_LIMITS = {"No Limit": "NL", "Pot Limit": "PL", "Limit": "FL"}
_GAMES = {
    "Holdem": "holdem",
    "Omaha": "omaha",
    "Omaha Hi-Lo": "omaha_hilo",
    "Omaha 5 Card": "omaha5",
    "Big O": "omaha5_hilo",
    "Omaha 6 Card": "omaha6",
}
#: draw games, read on their own streets (the betting before the first draw, then after each)
_DRAW_GAMES = {
    "2-7 Triple Draw": "draw27_triple",
    "2-7 Single Draw": "draw27_single",
    "A-5 Triple Draw": "drawa5_triple",
    "Badugi": "badugi",
    "5 Card Draw": "draw5",
    "A-5 Single Draw": "drawa5_single",
    "Badeucey": "badeucey",
    "Badacey": "badacey",
}
_ROUNDS = {"1ST": 0, "2ND": 1, "3RD": 2, "4TH": 3}
_DRAW_STREETS = (Street.PREDRAW, Street.DRAW1, Street.DRAW2, Street.DRAW3)
_ROUND = re.compile(r"^\*\*\* (?P<n>1ST|2ND|3RD|4TH) (?P<what>BETTING ROUND|DRAW) \*\*\*$")
_DRAW = re.compile(r"^(?:draws (?P<count>\d)|discards \[(?P<thrown>[^]]*)\] draws (?P<new>\[[^]]*\](?: \[[^]]*\])*)"
                   r"|(?P<pat>stands pat))$")
#: games of the site the canonical model has no variant for
_NOT_IN_MODEL = ("2-7 Drawmaha", "Captain")
#: stud games; KingsClub names each street after the one before it ("*** 3RD STREET ***" deals the fourth card)
_STUD_GAMES = {"Razz": "razz", "Seven Card Stud": "stud", "Seven Card Stud Hi-Lo": "stud_hilo", "2-7 Razz": "razz27"}
_STUD = re.compile(r"^\*\*\* (?P<n>3RD|4TH|5TH|6TH) STREET \*\*\*$")
_STUD_STREETS = {"3RD": Street.FOURTH, "4TH": Street.FIFTH, "5TH": Street.SIXTH, "6TH": Street.SEVENTH}


class KingsClubFormat(StartLineFormat):
    name: ClassVar[str] = "kingsclub"
    priority: ClassVar[int] = 50
    description: ClassVar[str] = "KingsClub text hand histories (cash hold'em, omaha, draw and stud)"
    start: ClassVar[re.Pattern[str]] = _START

    def parse_block(self, block: Block, source_file: str) -> Hand | None:
        lines = [ln.strip() for ln in block.lines if ln.strip()]
        return _parse(lines, block, source_file)


def _parse(lines: list[str], block: Block, source_file: str) -> Hand:
    head = _START.match(lines[0])
    if head is None:
        raise ParseError(f"unrecognised header {lines[0][:100]!r}", 1)
    hand = new_hand(site="kingsclub", hand_no=head["no"], fmt="kingsclub", source_file=source_file,
                    offset=block.offset, length=block.length)
    money = Money(100)
    _game(hand, head["game"])
    hand.currency = "USD"
    hand.sb, hand.bb = money(head["sb"]), money(head["bb"])
    reader = _Reader(hand, money)
    feed_lines(reader.line, lines[1:], 2)
    if not reader.in_summary:
        raise ParseError("truncated hand: no '*** SUMMARY ***'")
    reader.settle()
    if hand.betting == "FL":
        if game_family(hand.variant) != "flop":
            hand.small_bet, hand.big_bet = hand.sb, hand.bb
        fixed_limit_blinds(hand, hand.sb)  # "Limit Holdem - 40/80" names the bets: the small one is the big blind
        if game_family(hand.variant) == "stud":
            hand.sb = 0  # stud posts no blinds: bb is the small bet
    reader.hero_hand()
    return reader.b.finish()


def _game(hand: Hand, text: str) -> None:
    """Structure and variant from 'Pot Limit Omaha Hi-Lo'; games not read raise a named reason."""
    limit = next((k for k in sorted(_LIMITS, key=len, reverse=True) if text.startswith(k + " ")), None)
    if limit is None:
        raise ParseError(f"unrecognised game {text!r}", 1)
    game = text[len(limit) + 1:]
    if game in _NOT_IN_MODEL:
        raise ParseError(f"unsupported variant: {game} (the canonical model has no such game)", 1)
    variant = _GAMES.get(game) or _DRAW_GAMES.get(game) or _STUD_GAMES.get(game)
    if variant is None:
        raise ParseError(f"unsupported variant: {game}", 1)
    hand.variant, hand.betting = variant, _LIMITS[limit]


class _Reader:
    """The lines after the header, into the builder; the summary's results kept for ``settle``."""

    def __init__(self, hand: Hand, money: Money) -> None:
        self.hand, self.money = hand, money
        self.b = HandBuilder(hand)
        self.names: list[str] = []
        self.in_summary = False
        self.finals: dict[str, int] = {}
        self.board_cards: dict[int, list[str]] = {}
        self.draw = game_family(hand.variant) == "draw"
        self.stud = game_family(hand.variant) == "stud"
        self.completed = False  # stud: third street's first bet over the bring-in completes it
        if self.stud:
            self.b.new_street(Street.THIRD)
        if self.draw:
            self.b.new_street(Street.PREDRAW)
        self.marked = False  # a draw game's rounds written ("*** 1ST DRAW ***"); not in A-5 Single Draw
        self.drawing = False  # the line before was a draw (unmarked rounds: a draw after a bet starts one)
        self.hero_cards: list[str] = []  # a draw game's hero hand, as discards and draws change it

    def line(self, line: str) -> None:
        if self.in_summary:
            self._summary(line)
        elif m := _SEAT.match(line):
            self.hand.seats.append(Seat(int(m["seat"]), m["name"], self.money(m["cash"])))
            self.names = sorted((s.player for s in self.hand.seats), key=len, reverse=True)
        elif m := _TABLE.match(line):
            self.hand.table_name = m["name"]
            self.hand.button_seat = int(m["button"]) if m["button"] else None
        elif re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", line) or line == "*** HOLE CARDS ***":
            return
        elif line == "*** SUMMARY ***":
            self._return_uncalled()
            self.in_summary = True
        elif m := _STREET.match(line):
            self._street(_STREETS[m["street"]], int(m["board"] or 1), m["cards"])
        elif self.stud and (m := _STUD.match(line)):
            self.b.new_street(_STUD_STREETS[m["n"]])
        elif m := _ROUND.match(line):
            self._round(_ROUNDS[m["n"]], m["what"] == "DRAW")
        elif line.startswith("Dealt to "):
            self._dealt(line[9:])
        else:
            self._action(line)

    def _player(self, text: str) -> tuple[str, str]:
        """The seated player a line starts with ('Player0: posts', 'Player0 folds')."""
        for name in self.names:
            if text.startswith((name + ": ", name + " ")):
                return name, text[len(name) + 1:].strip()
        raise ParseError(f"unrecognised line {text[:80]!r}")

    def _dealt(self, text: str) -> None:
        """'Hero: [4s Qc 2c Jd]' is the owner's hand; '[X X X X]' a hidden one (not recorded). In a
        draw game only the first deal is read: what the site writes at a draw repeats a draw line
        (or is garbled: "Dealt to Hero: [6h Ks Ks]"), and the discards say what changed."""
        player, rest = self._player(text)
        if self.stud:
            self._stud_cards(player, rest)
            return
        if "X" in rest.split() or (self.draw and self.b.street is not Street.PREDRAW):
            return
        self.hand.hero = player
        if self.draw:
            self.hero_cards = [cards(c) for c in rest.strip("[]").split()]
            self.hand.street_cards.append(StreetCards(player, Street.PREDRAW, "".join(self.hero_cards), False))
        else:
            self.b.hole(player, cards(rest), Provenance.DEALT)

    def _stud_cards(self, player: str, text: str) -> None:
        """'[X X 2s]' on third street (two down, one up), '[3h]' up on fourth to sixth, '[X]' or the
        owner's '[Kd]' down on seventh; the owner's cards so far are the hand's hole cards."""
        dealt = [cards(c) if c != "X" else "??" for c in text.strip("[]").split()]
        street, rows = self.b.street, self.hand.street_cards
        if street is Street.THIRD:
            if len(dealt) != 3:
                raise ParseError(f"third street deals 3 cards, not {text!r}")
            rows.append(StreetCards(player, street, "".join(dealt[:2]), False))
            rows.append(StreetCards(player, street, dealt[2], True))
        else:
            rows.append(StreetCards(player, street, "".join(dealt), street is not Street.SEVENTH))
        if "??" not in dealt and (street is not Street.THIRD or self.hand.hero in (None, player)):
            self.hand.hero = player if street is Street.THIRD else self.hand.hero
            if player == self.hand.hero:
                self.hero_cards += dealt

    def _round(self, n: int, is_draw: bool) -> None:
        """'*** 1ST BETTING ROUND ***' is the predraw betting; '*** 1ST DRAW ***' starts draw1, whose
        betting follows as '*** 2ND BETTING ROUND ***'."""
        if not self.draw:
            raise ParseError("a draw-game street in a game without draws")
        self.marked = True
        street = _DRAW_STREETS[n + 1 if is_draw else n]
        if is_draw or n == 0:
            self.b.new_street(street)
        elif self.b.street is not street:
            raise ParseError(f"betting round {n + 1} follows no draw")

    def _next_draw(self) -> None:
        """A file that writes no round lines (KingsClub's A-5 Single Draw): the first draw line after
        the betting starts the next draw."""
        at = _DRAW_STREETS.index(self.b.street) + 1
        if at == len(_DRAW_STREETS):
            raise ParseError("a fourth draw")
        self.b.new_street(_DRAW_STREETS[at])

    def _draws(self, player: str, m: re.Match[str]) -> None:
        """'draws 3', 'stands pat', or the owner's 'discards [9d Th Jc] draws [5s 9c Kd]' (run it
        twice: one '[..]' group per run, the first run's kept as the player's hand)."""
        if m["pat"]:
            self.b.draw(player, 0)
        elif m["count"]:
            self.b.draw(player, int(m["count"]))
        else:
            thrown = [cards(c) for c in m["thrown"].split()]
            new = [cards(c) for c in m["new"].split("]", 1)[0].strip("[").split()]
            self.b.draw(player, len(thrown), "".join(thrown))
            self.hand.street_cards.append(StreetCards(player, self.b.street, "".join(new), False))
            if player == self.hand.hero and len(new) == len(thrown):
                kept = [c for c in self.hero_cards if c not in thrown]
                self.hero_cards = kept + new if len(kept) + len(thrown) == len(self.hero_cards) else []

    def hero_hand(self) -> None:
        """A draw game's hero cards at the end of the hand (the model's rule for draw hands)."""
        hero = self.hand.hero
        showed = any(a.kind is Kind.SHOW and a.player == hero for a in self.hand.actions)
        if (self.draw or self.stud) and hero and self.hero_cards and not showed:
            self.b.hole(hero, "".join(self.hero_cards), Provenance.DEALT)

    def _street(self, street: Street, board: int, text: str) -> None:
        """A street of board ``board``: '[9s Jh 2s] [8s]', '-' standing for board 1's card."""
        self.b.new_street(street)
        tokens = text.replace("[", " ").replace("]", " ").split()
        first = self.board_cards.get(1, [])
        full = [first[i] if tok == "-" and i < len(first) else tok for i, tok in enumerate(tokens)]
        if "-" in full:
            raise ParseError(f"board {board} refers to cards not dealt: {text!r}")
        self.board_cards[board] = full
        self.b.board(board, cards(" ".join(full)))

    def _action(self, line: str) -> None:
        shown = re.match(r"^Run \d+: (.+)$", line)
        player, rest = self._player(shown[1] if shown else line)
        b, money = self.b, self.money
        all_in = rest.endswith(_ALL_IN)
        rest = rest.removesuffix(_ALL_IN)
        verb, _, arg = rest.partition(" ")
        if 2 in self.board_cards and verb in _DECISIONS:
            raise ParseError(f"unsupported variant: {self.hand.variant} on two split boards (betting after the second"
                             " board is dealt, not run it twice; the canonical model has no split-board omaha)")
        d = _DRAW.match(rest) if self.draw else None
        drawing, self.drawing = self.drawing, d is not None
        if d is not None:
            if not (self.marked or drawing):
                self._next_draw()
            self._draws(player, d)
        elif rest == "folds":
            b.fold(player)
        elif rest == "checks":
            b.check(player)
        elif verb == "calls":
            b.call(player, money(arg) - b.committed(player), all_in)  # written as the street total
        elif verb in ("bets", "raises") and self.stud and b.street is Street.THIRD and not self.completed:
            self.completed = True  # "bets 44" / "raises to 77.16" over the bring-in: the completion
            to = money(arg.removeprefix("to "))
            b.complete(player, to, to - b.committed(player), all_in)
        elif verb == "bets":
            b.bet(player, money(arg) - b.committed(player), all_in)
        elif rest.startswith("raises to "):
            b.raise_to(player, None, money(rest[10:]), all_in)
        elif rest.startswith("posts ante "):
            b.post(player, Kind.POST_ANTE, money(rest[11:]))
            self.hand.ante = self.hand.ante or money(rest[11:])
        elif rest.startswith("brings in for ") and self.stud and b.street is Street.THIRD:
            b.post(player, Kind.BRING_IN, money(rest[14:]), all_in)
            self.hand.bring_in = self.hand.bring_in or money(rest[14:])
        elif rest.startswith("posts blind "):
            self._post_both(player, money(rest[12:]))
        elif rest.startswith(("posts the small blind ", "posts the big blind ")):
            kind = Kind.POST_SB if "small" in rest else Kind.POST_BB
            b.post(player, kind, money(rest.rsplit(" ", 1)[1]))
        elif verb == "shows":
            if not shown or player not in {h.player for h in self.hand.hole_cards}:
                b.show(player, cards(arg))
        else:
            raise ParseError(f"unrecognised action {rest[:80]!r}")

    def _post_both(self, player: str, live: int) -> None:
        """'posts blind 44' (a player joining out of the blinds): the big blind live and the small
        blind dead, as fpdb reads it; the seat's written result (-77: ante 11 + 44 + 22) confirms it."""
        posted = {a.kind: a.contribution for a in reversed(self.hand.actions) if a.kind in (Kind.POST_SB, Kind.POST_BB)}
        if live != posted.get(Kind.POST_BB) or Kind.POST_SB not in posted:
            raise ParseError(f"'posts blind {live}' is not this hand's big blind, or no small blind was posted")
        self.b.post(player, Kind.POST_BB, live)
        self.b.post(player, Kind.POST_DEAD, posted[Kind.POST_SB])

    def _return_uncalled(self) -> None:
        """Hand back the unmatched part of the top bet on the last street with bets (never written)."""
        street = next((a.street for a in reversed(self.hand.actions) if a.contribution > 0), None)
        if street is None:
            return
        bets: dict[str, int] = {}
        for a in self.hand.actions:
            if a.street is street and a.kind not in (Kind.POST_ANTE,):
                bets[a.player] = bets.get(a.player, 0) + a.contribution
        ranked = sorted(bets.items(), key=lambda kv: kv[1], reverse=True)
        if len(ranked) == 1 or ranked[0][1] > ranked[1][1]:
            top, amount = ranked[0][0], ranked[0][1] - (ranked[1][1] if len(ranked) > 1 else 0)
            self.b.uncalled_on_last_street(top, amount)

    def _summary(self, line: str) -> None:
        if m := _SEAT.match(line):
            self.finals[m["name"]] = self.money(m["cash"])
            seat = next((s for s in self.hand.seats if s.player == m["name"]), None)
            if seat is None:
                raise ParseError(f"summary seat of {m['name']!r} is in no seat list")
            net = self.money(m["net"].lstrip("+")) if m["net"] else 0
            if self.finals[m["name"]] - seat.stack != net:
                raise ParseError(f"{m['name']}: final stack and net disagree")
        elif line.startswith("Rake "):
            self.hand.site_rake = self.money(line[5:])
        elif m := _WINS.match(line):
            pot = int(m["side"]) if m["side"] else 0
            self.b.award(m["name"], self.money(m["amt"] or m["amt2"]), pot)
        else:
            raise ParseError(f"unrecognised summary line {line[:80]!r}")

    def settle(self) -> None:
        """Final stacks onto the seats, the rake (0 when unwritten), and any pot the summary did
        not list read from the final stack of the seat that received it."""
        hand = self.hand
        if hand.site_rake is None:
            hand.site_rake = 0
        if sum(self.finals.get(s.player, s.stack) - s.stack for s in hand.seats) + hand.site_rake != 0:
            raise ParseError("the summary's results do not balance against the rake")
        hand.seats = [s._replace(final_stack=self.finals.get(s.player)) for s in hand.seats]
        put: dict[str, int] = {}
        for a in hand.actions:
            put[a.player] = put.get(a.player, 0) + a.contribution
        won: dict[str, int] = {}
        for w in hand.awards:
            won[w.player] = won.get(w.player, 0) + w.amount
        unlisted = max((w.pot_no for w in hand.awards), default=-1) + 1
        for s in hand.seats:
            if s.final_stack is None:
                continue
            missing = s.final_stack - (s.stack - put.get(s.player, 0) + won.get(s.player, 0))
            if missing < 0:
                raise ParseError(f"site anomaly: {s.player}'s written awards exceed what the seat's result"
                                 f" ({s.final_stack - s.stack:+}) shows by {-missing} (in cents)")
            if missing > 0:
                self.b.award(s.player, missing, unlisted)


FORMAT = KingsClubFormat()
