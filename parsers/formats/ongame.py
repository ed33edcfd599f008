"""OnGame network text hand histories ("***** History for hand R5-... *****"; Betfair, bwin, Strobe skins).

Why its own module: OnGame writes "raises X to Y" (Y the street total), "calls X" as chips added,
"Main pot: P won by A (a), B (b)" with P the pot *before* rake and a, b what each took after
rake, "Rake taken: R", and every seat's closing stack in the summary ("Seat 3: A (10.80), net:
-0.10"). It writes no uncalled-bet line: the unmatched part of the last bet is derived only when
the written pots confirm it (Σ pots = what was put in less that excess). The closing stacks are
kept as ``final_stack`` so reconciliation checks them too. A hand may start on the same line as
the previous one's "End of hand" (some exports join them).

Tournaments (``T5-...`` hands) name the event in the start line ("(TOURNAMENT: "Freeroll", R-169-510,
buy-in: €0)") and play in chips ("10/20, TC"). Seven card stud (hi and hi/lo) and five card draw
(issue 12) share the grammar: stud deals "Dealing to P: [-, -, Kd]" (two down, one up) and then one
card per "Dealing 4th street".."Dealing river" (the river down), opens with "small bring in" (the
bring-in) or "big bring in" (the bring-in player completing it himself); in stud a raise's "to" is
the player's total over the whole hand, so the chips a raise adds are its first amount. Draw writes
"P changed N cards" (and for the hero "New hand for P: [...]", sometimes with no "changed" line) and
may leave out the "---" between the betting rounds: the first draw line after the betting starts
the draw.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import ClassVar

from parsers.base import TextHandFormat
from parsers.formats._stakes import fixed_limit_blinds
from parsers.formats._stars_like import HandBuilder, cards, new_hand, zone_hours
from parsers.model import (
    DRAW_STREETS,
    Action,
    Hand,
    Kind,
    ParseError,
    Pot,
    Provenance,
    Seat,
    Street,
    StreetCards,
    game_family,
)
from parsers.money import to_units
from parsers.reading import Block

_START = re.compile(
    r"^\ufeff?(?:\*+ End of hand \S+ \*+\s*)?\*{5} History for hand (?P<no>\S+)"
    r'(?: \(TOURNAMENT: "(?P<tname>[^"]*)", (?P<tid>[^,]+), buy-in: (?P<buyin>[^)]*)\))? \*{5}'
)
_TABLE = re.compile(
    r"^Table: (?P<name>.*?) ?\[\d+\] \((?P<limit>NO_LIMIT|POT_LIMIT|LIMIT|CAP_NO_LIMIT|CAP_POT_LIMIT) "
    r"(?P<game>\w+) (?P<sb>[^/ ]+)/(?P<bb>[^ ,]+)(?:,? ante: [^,]+)?,? (?P<money>Real money|Play money|TC|Chips)\)"
)
_START_TIME = re.compile(
    r"^Start hand: \w{3} (?P<mon>\w{3}) (?P<day>\d{1,2}) (?P<time>[\d:]{8}) (?P<zone>\S+) (?P<year>\d{4})"
)
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<cash>[^)]*)\)(?P<rest>.*)$")
_POST = re.compile(r"^(?P<name>.+?):? posts (?P<what>small blind|big blind|dead blind|ante) \(?(?P<amt>[^)\s]+)\)?"
                   r"(?P<allin> \[all in\])?\s*$")
_ACT = re.compile(
    r"^(?P<name>.+?):? (?P<verb>folds|checks|calls|bets|raises)(?: (?P<amt>\S+)(?: to (?P<to>\S+))?)?"
    r"(?P<allin> \[all in\])?\s*\.?\s*$"
)
_DEAL = re.compile(r"^--- Dealing (?P<street>flop|turn|river) \[(?P<cards>[^\]]*)\]")
_DEALT = re.compile(r"^Dealing to (?P<name>.+?): \[(?P<cards>[^\]]*)\]")
_STUD_DEAL = re.compile(r"^Dealing (?P<street>4th street|5th street|6th street|river)$")
_BRING_IN = re.compile(r"^(?P<name>.+?) (?P<size>small|big) bring in (?P<amt>\S+)(?P<allin> \[all in\])?$")
_CHANGED = re.compile(r"^(?P<name>.+?) changed (?P<n>\d) cards?$")
_NEW_HAND = re.compile(r"^New hand for (?P<name>.+?): \[(?P<cards>[^\]]*)\]$")
_POT = re.compile(r"^(?:Main pot|Side pot (?P<side>\d+)): (?P<amt>\S+) won by (?P<winners>.+)$")
_WINNER = re.compile(r"(?P<name>.+?) \((?P<amt>[^)]+)\)(?:, |$)")
_RAKE = re.compile(r"^Rake taken: (?P<amt>\S+)")
_SHOWS = re.compile(r"^(?P<name>.+?):? shows \[(?P<cards>[^\]]*)\]")
_SUMMARY_CARDS = re.compile(r", \[(?P<cards>[^\]]+)\]")
_QUIET = re.compile(
    r"^(?:User: .*|Button: seat \d+|Players in round: .*|---|Dealing pocket cards|Summary:|.+? does not show cards\.?"
    r"|.+? sits out|.+? is sitting out|.+? has (?:joined|left) the table.*|\*+ End of hand \S+ \*+)\s*$"
)
_GAMES = {"TEXAS_HOLDEM": "holdem", "OMAHA_HI": "omaha", "OMAHA_HI_LO": "omaha_hilo", "FIVE_CARD_DRAW": "draw5",
          "SEVEN_CARD_STUD": "stud", "SEVEN_CARD_STUD_HI_LO": "stud_hilo"}
_STUD_STREET = {"4th street": Street.FOURTH, "5th street": Street.FIFTH, "6th street": Street.SIXTH,
                "river": Street.SEVENTH}
_LIMITS = {"NO_LIMIT": "NL", "POT_LIMIT": "PL", "LIMIT": "FL", "CAP_NO_LIMIT": "CAP", "CAP_POT_LIMIT": "CAP"}
_STREETS = {"flop": Street.FLOP, "turn": Street.TURN, "river": Street.RIVER}
_MONTHS = {m: i for i, m in enumerate(("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
                                       "Nov", "Dec"), 1)}


def _amount(text: str, scale: int = 100) -> int:
    return to_units(re.sub(r"[^\d.,]", "", text), scale)


def _utc(m: re.Match[str]) -> datetime | None:
    offset = zone_hours(m["zone"])
    if offset is None:
        return None
    hh, mm, ss = (int(x) for x in m["time"].split(":"))
    local = datetime(int(m["year"]), _MONTHS[m["mon"]], int(m["day"]), hh, mm, ss)
    return local - timedelta(hours=offset)


class OnGameFormat(TextHandFormat):
    name: ClassVar[str] = "ongame"
    priority: ClassVar[int] = 50
    description: ClassVar[str] = "OnGame network text (Betfair, bwin, Strobe skins)"

    def sniff(self, head: str) -> bool:
        first = head.lstrip("\ufeff\r\n\t ")
        return _START.match(first) is not None and "\nStart hand: " in head

    def is_start(self, line: str) -> bool:
        return _START.match(line) is not None

    def parse_block(self, block: Block, source_file: str) -> Hand | None:
        return _parse(block, source_file)


def _parse(block: Block, source_file: str) -> Hand:
    lines = [ln.strip() for ln in block.lines]
    start = _START.match(lines[0])
    assert start is not None
    hand = new_hand(site="ongame", hand_no=start["no"], fmt="ongame", source_file=source_file,
                    offset=block.offset, length=block.length)
    if start["tid"]:
        hand.game_type, hand.tournament_id = "tournament", start["tid"]
    b = HandBuilder(hand)
    game = _Game(hand, b)
    table_seen = summary = False
    pots: list[Pot] = []
    finals: dict[str, int] = {}
    for n, ln in enumerate(lines[1:], 2):
        if not ln:
            continue
        if _START.match(ln):
            break
        if m := _START_TIME.match(ln):
            hand.started_at = _utc(m)
        elif m := _TABLE.match(ln):
            table_seen = True
            _table(hand, m, ln)
            game.begin()
        elif m := _SEAT.match(ln):
            if summary:
                finals[m["name"]] = game.amount(m["cash"])
                shown = _SUMMARY_CARDS.search(m["rest"])
                if shown and m["name"] != hand.hero:
                    b.hole(m["name"], cards(shown["cards"]), Provenance.SHOWN)
            else:
                hand.seats.append(Seat(int(m["seat"]), m["name"], game.amount(m["cash"])))
        elif ln.startswith("User: ") and game.family != "flop":
            hand.hero = ln[6:]  # stud deals every player a "Dealing to" line: the hero is the User
        elif ln.startswith("Button: seat "):
            hand.button_seat = int(ln.split()[-1])
        elif m := _POST.match(ln):
            _post(hand, b, m, game.amount(m["amt"]))
        elif m := _DEALT.match(ln):
            game.dealt(m["name"], m["cards"])
        elif m := _DEAL.match(ln):
            b.new_street(_STREETS[m["street"]])
            new = cards(m["cards"])
            board = b.boards.get(1, "")
            if new not in board:
                b.board(1, board + new)
        elif m := _STUD_DEAL.match(ln):
            game.stud_street(_STUD_STREET[m["street"]], n)
        elif m := _BRING_IN.match(ln):
            game.bring_in(m, n)
        elif m := _CHANGED.match(ln):
            game.changed(m["name"], int(m["n"]), n)
        elif m := _NEW_HAND.match(ln):
            game.new_cards(m["name"], m["cards"], n)
        elif ln == "Summary:":
            summary = True
        elif m := _ACT.match(ln):
            game.act(m)
        elif m := _SHOWS.match(ln):
            b.show(m["name"], cards(m["cards"]))
        elif m := _POT.match(ln):
            pot_no = int(m["side"] or 0)
            pots.append(Pot(pot_no, game.amount(m["amt"])))
            for w in _WINNER.finditer(m["winners"]):
                b.award(w["name"], game.amount(w["amt"]), pot_no)
        elif m := _RAKE.match(ln):
            hand.site_rake = game.amount(m["amt"])
        elif _QUIET.match(ln):
            continue
        else:
            raise ParseError(f"unrecognised line: {ln[:80]!r}", n)
    if not table_seen:
        raise ParseError("no Table: line")
    if not pots:
        raise ParseError("truncated hand: no pot written")
    hand.seats = [s._replace(final_stack=finals.get(s.player)) for s in hand.seats]
    game.stakes()
    hand.pots = pots
    hand.site_total_pot = sum(p.amount for p in pots)
    _derive_return(b, hand.site_total_pot)
    game.hero_cards()
    return b.finish()


def _table(hand: Hand, m: re.Match[str], ln: str) -> None:
    """Game, structure, stakes and money of the ``Table:`` line (chips in a tournament)."""
    if m["game"] not in _GAMES:
        raise ParseError(f"unsupported variant: {m['game']}")
    hand.table_name, hand.variant, hand.betting = m["name"].strip(), _GAMES[m["game"]], _LIMITS[m["limit"]]
    if m["money"] in ("TC", "Chips"):
        hand.currency, hand.unit_scale = "CHIPS", 1
    elif m["money"] == "Play money":
        hand.currency = "PLAY"
    else:
        sym = re.search(r"[$€£]", ln)
        hand.currency = {"€": "EUR", "£": "GBP"}.get(sym.group(0) if sym else "$", "USD")
    hand.sb, hand.bb = _amount(m["sb"], hand.unit_scale), _amount(m["bb"], hand.unit_scale)


def _post(hand: Hand, b: HandBuilder, m: re.Match[str], amount: int) -> None:
    what, all_in = m["what"], bool(m["allin"])
    if what == "ante":
        hand.ante = hand.ante or amount
        b.post(m["name"], Kind.POST_ANTE, amount, all_in)
    elif what == "dead blind":
        b.post(m["name"], Kind.POST_DEAD, amount, all_in)
    elif what == "small blind" and any(a.kind is Kind.POST_SB for a in hand.actions):
        # a short big blind is written "posts small blind (10) [all in]" after the small blind's post
        b.post(m["name"], Kind.POST_BB, amount, all_in)
    elif what == "small blind" or _equal_small_blind(hand, m["name"]):
        b.post(m["name"], Kind.POST_SB, amount, all_in)
    else:
        b.post(m["name"], Kind.POST_BB, amount, all_in)


class _Game:
    """What differs between the flop games, stud and draw: streets, dealt cards, bring-ins, draws.

    Why a class: stud and draw keep a little state across lines (the street, whether the current
    round has seen a bet, each player's cards so far) that the flop-game path never touches.
    """

    __slots__ = ("b", "bet_seen", "completed", "family", "hand", "held")

    def __init__(self, hand: Hand, b: HandBuilder) -> None:
        self.hand, self.b = hand, b
        self.family = "flop"
        self.bet_seen = self.completed = False
        self.held: dict[str, list[str]] = {}  # each player's cards as dealt so far (stud) or held (draw)

    def amount(self, text: str) -> int:
        return _amount(text, self.hand.unit_scale)

    def begin(self) -> None:
        """After the Table line: stud and draw start on their own first street."""
        self.family = game_family(self.hand.variant)
        if self.family == "stud":
            self.b.new_street(Street.THIRD)
        elif self.family == "draw":
            self.b.new_street(Street.PREDRAW)

    def dealt(self, player: str, text: str) -> None:
        """A ``Dealing to`` line: the hero's hole cards, or stud cards of any player."""
        tokens = [t.strip() for t in text.split(",")]
        if self.family == "flop":
            self.hand.hero = player
            self.b.hole(player, cards(text), Provenance.DEALT)
            return
        got = ["??" if t == "-" else t for t in tokens]
        self.held.setdefault(player, []).extend(got)
        street = self.b.street
        rows = self.hand.street_cards
        if self.family == "draw":
            rows.append(StreetCards(player, street, "".join(got), False))
        elif street is Street.THIRD and len(got) == 3:
            rows.append(StreetCards(player, street, "".join(got[:2]), False))
            rows.append(StreetCards(player, street, got[2], True))
        else:
            rows.append(StreetCards(player, street, "".join(got), street is not Street.SEVENTH))

    def stud_street(self, street: Street, n: int) -> None:
        if self.family != "stud":
            raise ParseError(f"a stud street in a {self.hand.variant} hand", n)
        self.b.new_street(street)

    def bring_in(self, m: re.Match[str], n: int) -> None:
        """'small bring in' is the bring-in; 'big bring in' the bring-in player completing it."""
        if self.family != "stud" or self.b.street is not Street.THIRD:
            raise ParseError("a bring-in outside stud's third street", n)
        amount, all_in = self.amount(m["amt"]), bool(m["allin"])
        if m["size"] == "small":
            self.hand.bring_in = self.hand.bring_in or amount
            self.b.post(m["name"], Kind.BRING_IN, amount, all_in)
        else:
            self.b.complete(m["name"], amount, amount, all_in)
            self.completed = True
        self.bet_seen = True

    def _draw_street(self, n: int) -> None:
        """A draw line after the round's betting: the draw (and the next betting round) starts."""
        street = self.b.street
        if self.family != "draw" or street not in DRAW_STREETS or street is Street.DRAW3:
            raise ParseError("a draw where no draw can be", n)
        if self.bet_seen or street is Street.PREDRAW:
            self.b.new_street(DRAW_STREETS[DRAW_STREETS.index(street) + 1])
            self.bet_seen = False

    def changed(self, player: str, count: int, n: int) -> None:
        self._draw_street(n)
        self.b.draw(player, count)

    def new_cards(self, player: str, text: str, n: int) -> None:
        """The hero's hand after the draw: the cards thrown and received, and the discard when the
        export wrote no 'changed' line for him."""
        self._draw_street(n)
        old, new = self.held.get(player, []), [t.strip() for t in text.split(",")]
        thrown = [c for c in old if c not in new]
        got = [c for c in new if c not in old]
        actions = self.hand.actions
        mine = next((i for i in range(len(actions) - 1, -1, -1) if actions[i].player == player
                     and actions[i].street is self.b.street and actions[i].kind is Kind.DISCARD), None)
        if mine is None:
            self.b.draw(player, len(thrown), "".join(thrown) or None)
        else:
            if actions[mine].amount != len(thrown):
                raise ParseError(f"{player} changed {actions[mine].amount} cards but {len(thrown)} differ", n)
            actions[mine] = actions[mine]._replace(cards="".join(thrown))
        self.hand.street_cards.append(StreetCards(player, self.b.street, "".join(got), False))
        self.held[player] = new

    def act(self, m: re.Match[str]) -> None:
        """A decision; in stud third street's first bet or raise over the bring-in completes it, and a
        raise adds its first amount (its "to" is the whole hand's total)."""
        self.bet_seen = True
        if self.family == "flop":
            _act(self.b, m, self.amount)
            return
        player, verb, all_in = m["name"], m["verb"], bool(m["allin"])
        if verb in ("bets", "raises") and m["amt"] is None:
            raise ParseError(f"{verb} without an amount")
        if verb == "raises":
            added = self.amount(m["amt"])
            to = self.b.committed(player) + added
            if self.family == "stud" and self.b.street is Street.THIRD and not self.completed:
                self.b.complete(player, to, added, all_in)
                self.completed = True
            else:
                self.b.raise_to(player, added, to, all_in)
        elif verb == "bets" and self.family == "stud" and self.b.street is Street.THIRD and not self.completed:
            self.b.complete(player, self.b.committed(player) + self.amount(m["amt"]), self.amount(m["amt"]), all_in)
            self.completed = True
        else:
            _act(self.b, m, self.amount)

    def stakes(self) -> None:
        """Fixed-limit headers write the small and big bet; stud posts no blinds."""
        hand = self.hand
        if self.family != "flop":
            if hand.betting == "FL":
                hand.small_bet, hand.big_bet = hand.sb, hand.bb
            if self.family == "stud":
                hand.sb, hand.bb = 0, hand.small_bet or hand.sb
                return
        if hand.betting == "FL":
            # the header's "LIMIT ... 0.50/1" are the small and big bets, not the blinds
            fixed_limit_blinds(hand, hand.sb)

    def hero_cards(self) -> None:
        """Stud: the hero's cards of every street; draw: the hand he ended with."""
        hero = self.hand.hero
        if self.family != "flop" and hero in self.held:
            self.b.hole(hero, "".join(self.held[hero]), Provenance.DEALT)


def _equal_small_blind(hand: Hand, player: str) -> bool:
    """A "big blind" post that is really the small blind of an equal-blinds table.

    At "$0.50/$0.50" OnGame may write both blinds as "posts big blind ($0.50)"; the first post of
    the hand by the first seat clockwise of the button is then the small blind (its seat is the
    small-blind seat and the written action order starts after the second poster).
    """
    if hand.sb != hand.bb or hand.actions or hand.button_seat is None or not hand.seats:
        return False
    seats = sorted(s.seat_no for s in hand.seats)
    after = next((n for n in seats if n > hand.button_seat), seats[0])
    return any(s.seat_no == after and s.player == player for s in hand.seats)


def _act(b: HandBuilder, m: re.Match[str], money: Callable[[str], int]) -> None:
    player, verb, all_in = m["name"], m["verb"], bool(m["allin"])
    if verb == "folds":
        b.fold(player)
    elif verb == "checks":
        b.check(player)
    elif m["amt"] is None:
        raise ParseError(f"{verb} without an amount")
    elif verb == "calls":
        b.call(player, money(m["amt"]), all_in)
    elif verb == "bets":
        b.bet(player, money(m["amt"]), all_in)
    elif m["to"] is not None:
        b.raise_to(player, money(m["amt"]), money(m["to"]), all_in)
    else:
        b.raise_by(player, money(m["amt"]), all_in)


def _derive_return(b: HandBuilder, total: int) -> None:
    """The unmatched part of the last bet, only when the written pots say it was handed back.

    The live bets of the last street are compared first; a hand of antes only (the "Coinflip"
    sit & go: every stack all in on its ante) hands back the unmatched part of the biggest ante.
    """
    actions = b.hand.actions
    put_in = sum(a.contribution for a in actions)
    if put_in == total:
        return
    live = [a for a in actions if a.contribution > 0 and a.street is not Street.SHOWDOWN]
    if not live:
        return
    last = live[-1].street
    for with_dead in (False, True):
        found = _excess([a for a in live if a.street is last], with_dead)
        if found is not None and put_in - found[1] == total:
            index = actions.index(live[-1]) + 1
            while index < len(actions) and actions[index].street is last:
                index += 1
            b.uncalled(*found)
            ret = actions.pop()
            actions.insert(index, ret._replace(street=last))
            b.hand.actions = [a._replace(seq=i) for i, a in enumerate(actions)]
            return


def _excess(street: list[Action], with_dead: bool) -> tuple[str, int] | None:
    """(player, chips) of the one street total above every other, counting dead posts or not."""
    per: dict[str, int] = {}
    for a in street:
        if with_dead or a.kind not in (Kind.POST_ANTE, Kind.POST_DEAD):
            per[a.player] = per.get(a.player, 0) + a.contribution
    if not per:
        return None
    ranked = sorted(per.values(), reverse=True)
    excess = ranked[0] - (ranked[1] if len(ranked) > 1 else 0)
    return (max(per, key=lambda p: per[p]), excess) if excess > 0 else None


FORMAT = OnGameFormat()
