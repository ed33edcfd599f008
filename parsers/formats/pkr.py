"""PKR text hand histories (2009-2013 exports).

Why its own module: PKR writes a header of ``Key: value`` lines, then plain action lines. "calls
$X" is the caller's street total after the call (an all-in call may write the chips added: both
are accepted, the call is taken as bringing the caller level or all in); "raises to $X" is the
street total. Uncalled bets are written ("Returning $X to P uncalled") only when the hand goes on;
when everyone folds to a bet nothing is written, so the unmatched part of each street's top bet is
handed back, which the "Pot sizes" lines (pre-rake, after returns) and the closing seat list
(written as ``final_stack``) confirm. Rake is written per pot ("Taking Rake of $X from pot N" or
"No Rake Taken"). Start times carry no zone: left None. Tournaments ("Table Type: TOURNAMENT")
are in whole chips with no currency sign, "posts ante of 10 (all-in)" antes, and each seat may
carry its bounty after the name ("Player0 (bounty value $0.40, bounty won $0) - 2,940").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

from parsers.base import TextHandFormat, guarded_parse
from parsers.formats._stars_like import HandBuilder, Money, cards, new_hand
from parsers.model import Hand, Kind, ParseError, Pot, Provenance, Quarantined, Seat, Street
from parsers.reading import Block, iter_blocks, iter_lines

_AMT = r"[$€£]?(?P<amt>[\d,]+(?:\.\d+)?)"
#: bounty tournaments write each player's bounty after the name: "Player0 (bounty value $0.40, bounty won $0)"
_SEAT = re.compile(
    r"^Seat (?P<seat>\d+): (?P<name>.+?)(?: \(bounty value [^)]*\))? - " + _AMT + r"(?P<away> \(away from table\))?$"
)
_POST = re.compile(r"^(?P<p>.+) posts (?P<what>small blind |big blind )?\(?" + _AMT + r"\)?(?P<dead> dead)?$")
_ANTE = re.compile(r"^(?P<p>.+) posts ante of " + _AMT + r"(?: \(all-in\))?$")
_ACT = re.compile(r"^(?P<p>.+) (?P<verb>calls|bets|raises to) " + _AMT + r"(?P<allin> \(all-in\))?$")
_RETURN = re.compile(r"^Returning " + _AMT + r" to (?P<p>.+) uncalled$")
_STREET = re.compile(r"^Dealing (?P<street>Flop|Turn|River) (?P<cards>\[.*\])$")
_DEALT = re.compile(r"^Dealing (?P<cards>\[.*\]) to (?P<p>.+)$")
_SHOWS = re.compile(r"^(?P<p>.+) shows (?P<cards>\[.*\])$")
_WINS = re.compile(
    r"^(?P<p>.+?) (?:wins|ties, and wins|ties side pot #(?P<tied>\d+), and wins|ties) " + _AMT
    + r"(?: from side pot #(?P<side>\d+))?(?:, disconnection protection limited from [$€£]?[\d,.]+)?"
    r"(?: with.*)?$"
)
_REBUY = re.compile(r"^(?P<p>.+) rebuys " + _AMT + r"$")
_RAKE = re.compile(r"^Taking Rake of " + _AMT + r" from pot \d+$")
_POTS = re.compile(r"^Pot sizes: " + _AMT + r"$")
_BLINDS = re.compile(r"^Blinds are now (?P<cur>[$€£])?[\d,.]+ ?/ ?[$€£]?[\d,.]+$")
_GAMES = {"HOLD'EM": "holdem", "OMAHA": "omaha", "OMAHA HI/LO": "omaha_hilo"}
_LIMITS = {"NO LIMIT": "NL", "POT LIMIT": "PL", "FIXED LIMIT": "FL", "LIMIT": "FL"}
_CURRENCIES = {"$": "USD", "€": "EUR", "£": "GBP"}
_STREETS = {"Flop": Street.FLOP, "Turn": Street.TURN, "River": Street.RIVER}
#: header lines carrying nothing for the hand ("Last Hand n/a" at a tournament's first hand)
_HEAD_LINES = ("Starting Hand #", "Start time of hand", "Last Hand #", "Last Hand n/a")
#: lines that move no chips in the hand (table talk, seating news, rebuys applied after the hand)
_QUIET = (" doesn't show", " did not respond in time and is folded", " will be dealt in after the button",
          " has become disconnected", " has disconnected", " has reconnected", " rebuys ", " brings ", " has ")


def _cards(text: str) -> str:
    """'[4 h][Q s]' (2011-13), '[qs][2s]' (2010) or '[Ad 8h]' (2009) as 'AdKh'-style text."""
    out: list[str] = []
    for group in re.findall(r"\[([^\]]*)\]", text):
        tokens = group.split()
        out.append("".join(tokens) if tokens and all(len(t) == 1 for t in tokens) else " ".join(tokens))
    return cards(" ".join(out))


class PKRFormat(TextHandFormat):
    name: ClassVar[str] = "pkr"
    priority: ClassVar[int] = 50
    description: ClassVar[str] = "PKR text (Starting Hand # / Start time of hand: ...)"

    def sniff(self, head: str) -> bool:
        return "Starting Hand #" in head and "Start time of hand: " in head and "Table Type: " in head

    def is_start(self, line: str) -> bool:
        return line.startswith(("Table #", "Starting Hand #"))

    def parse(self, path: Path) -> Iterator[Hand | Quarantined]:
        source = str(path)
        after_table = False

        def start(line: str) -> bool:
            # a hand starts at its "Table #" line, or at "Starting Hand #" when that line is missing
            nonlocal after_table
            if line.startswith("Table #"):
                after_table = True
                return True
            begins = line.startswith("Starting Hand #") and not after_table
            after_table = False
            return begins

        for block in iter_blocks(iter_lines(path), start):
            yield from guarded_parse(self, block, source)

    def parse_block(self, block: Block, source_file: str) -> Hand | None:
        return _Reader(block, source_file).read()


class _Reader:
    """One hand's lines, read top to bottom."""

    def __init__(self, block: Block, source_file: str) -> None:
        self.block = block
        self.lines = [ln.strip() for ln in block.lines]
        number = next((ln[len("Starting Hand #"):] for ln in self.lines if ln.startswith("Starting Hand #")), "")
        if not number.isdigit():
            raise ParseError("no 'Starting Hand #' line")
        if not any(ln.lower().startswith("end of hand #") for ln in self.lines):
            raise ParseError("truncated hand: no 'End of Hand' line")
        self.hand = new_hand(site="pkr", hand_no=number, fmt="pkr", source_file=source_file,
                             offset=block.offset, length=block.length)
        self.b = HandBuilder(self.hand)
        self.behind: dict[str, int] = {}
        # a tournament's amounts are whole chips ("Money Type: Tournament chips"): known before any is read
        self.tournament = any(ln == "Table Type: TOURNAMENT" for ln in self.lines[:12])
        self.money = Money(1 if self.tournament else 100, "$€£")
        self.rake: int | None = None
        self.pots: list[int] = []
        self.pots_open = False
        self.shows: list[tuple[str, str | None]] = []
        self.finals: dict[str, int] = {}
        self.folded: set[str] = set()
        self.topped_up: set[str] = set()

    def read(self) -> Hand:
        header: dict[str, str] = {}
        in_seats = True
        for line in self.lines:
            if line.lower().startswith("end of hand #"):
                break  # what follows (a rebuy, a blank) belongs to the table, not this hand
            if ": " in line and line.split(": ", 1)[0] in ("Game Type", "Limit Type", "Table Type", "Money Type"):
                header[line.split(": ", 1)[0]] = line.split(": ", 1)[1]
            elif line.startswith("Table #"):
                self.hand.table_name = line.split(" - ", 1)[1] if " - " in line else line[len("Table #"):]
            elif (m := _BLINDS.match(line)) is not None:
                self.hand.currency = _CURRENCIES.get(m["cur"] or "$", "USD")
            elif line.startswith(("Button is at seat ", "Moving Button to seat ")):
                self.hand.button_seat = int(line.rsplit(" ", 1)[1])
            elif (m := _SEAT.match(line)) is not None:
                self._seat(m, in_seats)
            elif line and not line.startswith(_HEAD_LINES):
                if self.hand.seats:
                    in_seats = False
                self._line(line)
        self._header(header)
        self._end_street()
        return self._finish()

    def _header(self, header: dict[str, str]) -> None:
        hand = self.hand
        game = header.get("Game Type", "")
        if game not in _GAMES:
            raise ParseError(f"unsupported variant: {game or 'no Game Type'}")
        if self.tournament:
            tid = re.search(r"Tournament #(\d+)", next((ln for ln in self.lines if ln.startswith("Table #")), ""))
            hand.game_type, hand.currency, hand.unit_scale = "tournament", "CHIPS", 1
            hand.tournament_id = tid[1] if tid else None
        elif header.get("Table Type") != "RING":
            raise ParseError(f"unsupported variant: table type {header.get('Table Type')}")
        limit = header.get("Limit Type", "")
        if limit not in _LIMITS:
            raise ParseError(f"unknown betting structure {limit!r}")
        hand.variant, hand.betting = _GAMES[game], _LIMITS[limit]
        if self.tournament:
            pass
        elif header.get("Money Type") == "PLAY MONEY":
            hand.currency = "PLAY"
        elif not hand.currency:
            raise ParseError("no 'Blinds are now' line (stakes and currency)")

    def _seat(self, m: re.Match[str], opening: bool) -> None:
        amount = self.money(m["amt"])
        if opening:
            self.behind[m["name"]] = amount
            self.hand.seats.append(Seat(int(m["seat"]), m["name"], amount, bool(m["away"])))
        else:
            self.finals[m["name"]] = amount

    def _who(self, name: str) -> str:
        if name not in self.behind:
            raise ParseError(f"action by a player not in the seat list: {name!r}")
        return name

    def _line(self, line: str) -> None:
        b = self.b
        if (m := _POTS.match(line)) is not None:
            if not self.pots_open:
                self._end_street()
                self.pots = []
            self.pots.append(self.money(m["amt"]))
            self.pots_open = True
            return
        self.pots_open = False
        if (m := _STREET.match(line)) is not None:
            self._end_street()
            b.new_street(_STREETS[m["street"]])
            b.board(1, b.boards.get(1, "") + _cards(m["cards"]))
        elif (m := _DEALT.match(line)) is not None:
            self.hand.hero = self._who(m["p"])
            b.hole(self.hand.hero, _cards(m["cards"]), Provenance.DEALT)
        elif (m := _POST.match(line)) is not None and m["p"] in self.behind:
            self._post(m)
        elif (m := _ANTE.match(line)) is not None and m["p"] in self.behind:
            amount = self.money(m["amt"])
            self._spend(m["p"], amount)
            self.hand.ante = self.hand.ante or amount
            b.post(m["p"], Kind.POST_ANTE, amount, all_in=self.behind[m["p"]] == 0)
        elif (m := _ACT.match(line)) is not None and m["p"] in self.behind:
            self._act(m["p"], m["verb"], self.money(m["amt"]))
        elif (m := _RETURN.match(line)) is not None:
            player = self._who(m["p"])
            amount = self.money(m["amt"])
            self.behind[player] += amount
            b.uncalled(player, amount)
        elif line.endswith(" folds") and line[: -len(" folds")] in self.behind:
            # a time-out is written twice: "P did not respond in time and is folded", "P folds"
            player = line[: -len(" folds")]
            self.folded.add(player)
            b.fold(player)
        elif line.endswith(" checks") and line[: -len(" checks")] in self.behind:
            b.check(line[: -len(" checks")])
        elif (m := _SHOWS.match(line)) is not None and m["p"] in self.behind:
            self._end_street()
            self.shows.append((m["p"], _cards(m["cards"])))
        elif line.endswith(" mucks") and line[: -len(" mucks")] in self.behind:
            self.shows.append((line[: -len(" mucks")], None))
        elif (m := _RAKE.match(line)) is not None:
            self.rake = (self.rake or 0) + self.money(m["amt"])
        elif line == "No Rake Taken":
            self.rake = self.rake or 0
        elif (m := _WINS.match(line)) is not None and m["p"] in self.behind:
            self._end_street()
            pot = int(m["side"] or m["tied"] or 0)
            b.award(m["p"], self.money(m["amt"]), pot)
        elif (m := _REBUY.match(line)) is not None and m["p"] in self.behind:
            self.topped_up.add(m["p"])
        elif (line in ("Shuffling Deck", "Dealing Cards") or line.lower().startswith("end of hand #")
              or _is_talk(line, self.behind, self.tournament)):
            return
        else:
            raise ParseError(f"unrecognised line: {line!r}")

    def _post(self, m: re.Match[str]) -> None:
        player, amount = m["p"], self.money(m["amt"])
        if not amount:
            return  # "posts $0": nothing moves (a returning player's live part already covered)
        if m["dead"]:
            kind = Kind.POST_DEAD
        elif m["what"] == "small blind ":
            kind = Kind.POST_DEAD if any(a.kind is Kind.POST_SB for a in self.hand.actions) else Kind.POST_SB
        else:
            kind = Kind.POST_BB
        self._spend(player, amount)
        self.b.post(player, kind, amount, all_in=self.behind[player] == 0)

    def _spend(self, player: str, amount: int) -> None:
        if amount > self.behind[player]:
            raise ParseError(f"{player} puts in {amount} with {self.behind[player]} behind")
        self.behind[player] -= amount

    def _act(self, player: str, verb: str, written: int) -> None:
        b = self.b
        own, top = b.committed(player), b.max_committed_excluding(player)
        if verb == "calls":
            moved = min(top - own, self.behind[player])
            if moved <= 0 or written not in (moved, own + moved):
                raise ParseError(f"{player} calls {written}: neither the {moved} added nor the {own + moved} total")
            self._spend(player, moved)
            b.call(player, moved, all_in=self.behind[player] == 0)
            b.hand.actions[-1] = b.hand.actions[-1]._replace(amount=written)
        elif verb == "bets":
            if top:
                raise ParseError(f"{player} bets {written} facing {top}")
            self._spend(player, written)
            b.bet(player, written, all_in=self.behind[player] == 0)
        else:
            if written <= top:
                raise ParseError(f"{player} raises to {written}, not above {top}")
            self._spend(player, written - own)
            b.raise_to(player, written, written, all_in=self.behind[player] == 0)

    def _end_street(self) -> None:
        """Hand back the part of the street's top bet nobody matched, when the site wrote none."""
        b = self.b
        live = {p: v for p in self.behind if (v := b.committed(p))}
        if not live:
            return
        ranked = sorted(live.values(), reverse=True)
        excess = ranked[0] - (ranked[1] if len(ranked) > 1 else 0)
        if excess > 0:
            player = next(p for p, v in live.items() if v == ranked[0])
            self.behind[player] += excess
            b.uncalled(player, excess)

    def _finish(self) -> Hand:
        hand, b = self.hand, self.b
        b.new_street(Street.SHOWDOWN)
        contested = len({p for p, _ in self.shows} - self.folded) > 1
        for player, shown in self.shows:
            if shown and contested:
                b.show(player, shown)
            elif shown:
                b.hole(player, shown, Provenance.SHOWN)
            else:
                b.muck(player)
        if not hand.awards:
            raise ParseError("no winner written")
        hand.site_rake = self.rake if self.rake is not None else 0
        if self.pots:
            hand.pots = [Pot(n, a) for n, a in enumerate(self.pots)]
        # a rebuy during the hand is in the closing stack but not in the hand: no final stack then
        hand.seats = [s._replace(final_stack=None if s.player in self.topped_up else self.finals.get(s.player))
                      for s in hand.seats]
        posts = {a.kind: a.contribution for a in reversed(hand.actions) if a.kind in (Kind.POST_SB, Kind.POST_BB)}
        blinds = next(ln for ln in self.lines if ln.startswith("Blinds are now "))
        low, high = re.findall(r"[\d,]+(?:\.\d+)?", blinds)[:2]
        hand.sb = posts.get(Kind.POST_SB, self.money(low))
        hand.bb = posts.get(Kind.POST_BB, self.money(high))
        return b.finish()


def _is_talk(line: str, players: dict[str, int], chips: bool = False) -> bool:
    """Chat ("P: text"), emotes ("P claps.") and seating news move no chips. In a tournament
    (``chips``) amounts carry no currency sign, so any number in the line makes it no talk."""
    name = next((p for p in sorted(players, key=len, reverse=True) if line.startswith(p + " ") or
                 line.startswith(p + ":")), None)
    if name is None:
        return " brings " in line or " will be dealt in " in line
    rest = line[len(name):]
    if rest.startswith(":"):
        return True
    if any(q in rest for q in _QUIET):
        return True
    return not re.search(r"\d" if chips else r"[$€£]\d", rest)


FORMAT = PKRFormat()
