"""OnGame network text hand histories ("***** History for hand R5-... *****"; Betfair, bwin, Strobe skins).

Why its own module: OnGame writes "raises X to Y" (Y the street total), "calls X" as chips added,
"Main pot: P won by A (a), B (b)" with P the pot *before* rake and a, b what each took after
rake, "Rake taken: R", and every seat's closing stack in the summary ("Seat 3: A (10.80), net:
-0.10"). It writes no uncalled-bet line: the unmatched part of the last bet is derived only when
the written pots confirm it (Σ pots = what was put in less that excess). The closing stacks are
kept as ``final_stack`` so reconciliation checks them too. A hand may start on the same line as
the previous one's "End of hand" (some exports join them). Stud and draw are quarantined.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import ClassVar

from parsers.base import TextHandFormat
from parsers.formats._stakes import fixed_limit_blinds
from parsers.formats._stars_like import HandBuilder, cards, new_hand, zone_hours
from parsers.model import Hand, Kind, ParseError, Pot, Provenance, Seat, Street
from parsers.money import to_units
from parsers.reading import Block

_START = re.compile(r"^\ufeff?(?:\*+ End of hand \S+ \*+\s*)?\*{5} History for hand (?P<no>\S+) \*{5}")
_TABLE = re.compile(
    r"^Table: (?P<name>.*?) ?\[\d+\] \((?P<limit>NO_LIMIT|POT_LIMIT|LIMIT|CAP_NO_LIMIT|CAP_POT_LIMIT) "
    r"(?P<game>\w+) (?P<sb>[^/ ]+)/(?P<bb>[^ ,]+)(?:,? ante: [^,]+)?,? (?P<money>Real|Play) money\)"
)
_START_TIME = re.compile(
    r"^Start hand: \w{3} (?P<mon>\w{3}) (?P<day>\d{1,2}) (?P<time>[\d:]{8}) (?P<zone>\S+) (?P<year>\d{4})"
)
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<cash>[^)]*)\)(?P<rest>.*)$")
_POST = re.compile(r"^(?P<name>.+?):? posts (?P<what>small blind|big blind|dead blind|ante) \(?(?P<amt>[^)\s]+)\)?\s*$")
_ACT = re.compile(
    r"^(?P<name>.+?):? (?P<verb>folds|checks|calls|bets|raises)(?: (?P<amt>\S+)(?: to (?P<to>\S+))?)?"
    r"(?P<allin> \[all in\])?\s*\.?\s*$"
)
_DEAL = re.compile(r"^--- Dealing (?P<street>flop|turn|river) \[(?P<cards>[^\]]*)\]")
_DEALT = re.compile(r"^Dealing to (?P<name>.+?): \[(?P<cards>[^\]]*)\]")
_POT = re.compile(r"^(?:Main pot|Side pot (?P<side>\d+)): (?P<amt>\S+) won by (?P<winners>.+)$")
_WINNER = re.compile(r"(?P<name>.+?) \((?P<amt>[^)]+)\)(?:, |$)")
_RAKE = re.compile(r"^Rake taken: (?P<amt>\S+)")
_SHOWS = re.compile(r"^(?P<name>.+?):? shows \[(?P<cards>[^\]]*)\]")
_SUMMARY_CARDS = re.compile(r", \[(?P<cards>[^\]]+)\]")
_QUIET = re.compile(
    r"^(?:User: .*|Button: seat \d+|Players in round: .*|---|Dealing pocket cards|Summary:|.+? does not show cards\.?"
    r"|.+? sits out|.+? is sitting out|.+? has (?:joined|left) the table.*|\*+ End of hand \S+ \*+)\s*$"
)
_GAMES = {"TEXAS_HOLDEM": "holdem", "OMAHA_HI": "omaha", "OMAHA_HI_LO": "omaha_hilo"}
_LIMITS = {"NO_LIMIT": "NL", "POT_LIMIT": "PL", "LIMIT": "FL", "CAP_NO_LIMIT": "CAP", "CAP_POT_LIMIT": "CAP"}
_STREETS = {"flop": Street.FLOP, "turn": Street.TURN, "river": Street.RIVER}
_MONTHS = {m: i for i, m in enumerate(("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
                                       "Nov", "Dec"), 1)}


def _amount(text: str) -> int:
    return to_units(re.sub(r"[^\d.,]", "", text), 100)


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
    b = HandBuilder(hand)
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
            if m["game"] not in _GAMES:
                raise ParseError(f"unsupported variant: {m['game']}")
            hand.table_name, hand.variant, hand.betting = m["name"].strip(), _GAMES[m["game"]], _LIMITS[m["limit"]]
            hand.sb, hand.bb = _amount(m["sb"]), _amount(m["bb"])
            sym = re.search(r"[$€£]", ln)
            hand.currency = "PLAY" if m["money"] == "Play" else {"€": "EUR", "£": "GBP"}.get(
                sym.group(0) if sym else "$", "USD")
        elif m := _SEAT.match(ln):
            if summary:
                finals[m["name"]] = _amount(m["cash"])
                shown = _SUMMARY_CARDS.search(m["rest"])
                if shown and m["name"] != hand.hero:
                    b.hole(m["name"], cards(shown["cards"]), Provenance.SHOWN)
            else:
                hand.seats.append(Seat(int(m["seat"]), m["name"], _amount(m["cash"])))
        elif ln.startswith("Button: seat "):
            hand.button_seat = int(ln.split()[-1])
        elif m := _POST.match(ln):
            amount = _amount(m["amt"])
            what = m["what"]
            if what == "ante":
                hand.ante = hand.ante or amount
                b.post(m["name"], Kind.POST_ANTE, amount)
            elif what == "dead blind":
                b.post(m["name"], Kind.POST_DEAD, amount)
            elif what == "small blind" or _equal_small_blind(hand, m["name"]):
                b.post(m["name"], Kind.POST_SB, amount)
            else:
                b.post(m["name"], Kind.POST_BB, amount)
        elif m := _DEALT.match(ln):
            hand.hero = m["name"]
            b.hole(m["name"], cards(m["cards"]), Provenance.DEALT)
        elif m := _DEAL.match(ln):
            b.new_street(_STREETS[m["street"]])
            new = cards(m["cards"])
            board = b.boards.get(1, "")
            if new not in board:
                b.board(1, board + new)
        elif ln == "Summary:":
            summary = True
        elif m := _ACT.match(ln):
            _act(b, m)
        elif m := _SHOWS.match(ln):
            b.show(m["name"], cards(m["cards"]))
        elif m := _POT.match(ln):
            pot_no = int(m["side"] or 0)
            pots.append(Pot(pot_no, _amount(m["amt"])))
            for w in _WINNER.finditer(m["winners"]):
                b.award(w["name"], _amount(w["amt"]), pot_no)
        elif m := _RAKE.match(ln):
            hand.site_rake = _amount(m["amt"])
        elif _QUIET.match(ln):
            continue
        else:
            raise ParseError(f"unrecognised line: {ln[:80]!r}", n)
    if not table_seen:
        raise ParseError("no Table: line")
    if not pots:
        raise ParseError("truncated hand: no pot written")
    hand.seats = [s._replace(final_stack=finals.get(s.player)) for s in hand.seats]
    if hand.betting == "FL":
        # the header's "LIMIT ... 0.50/1" are the small and big bets, not the blinds
        fixed_limit_blinds(hand, hand.sb)
    hand.pots = pots
    hand.site_total_pot = sum(p.amount for p in pots)
    _derive_return(b, hand.site_total_pot)
    return b.finish()


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


def _act(b: HandBuilder, m: re.Match[str]) -> None:
    player, verb, all_in = m["name"], m["verb"], bool(m["allin"])
    if verb == "folds":
        b.fold(player)
    elif verb == "checks":
        b.check(player)
    elif m["amt"] is None:
        raise ParseError(f"{verb} without an amount")
    elif verb == "calls":
        b.call(player, _amount(m["amt"]), all_in)
    elif verb == "bets":
        b.bet(player, _amount(m["amt"]), all_in)
    elif m["to"] is not None:
        b.raise_to(player, _amount(m["amt"]), _amount(m["to"]), all_in)
    else:
        b.raise_by(player, _amount(m["amt"]), all_in)


def _derive_return(b: HandBuilder, total: int) -> None:
    """The unmatched part of the last bet, only when the written pots say it was handed back."""
    actions = b.hand.actions
    put_in = sum(a.contribution for a in actions)
    if put_in == total:
        return
    live = [a for a in actions if a.contribution > 0 and a.street is not Street.SHOWDOWN]
    if not live:
        return
    last = live[-1].street
    per: dict[str, int] = {}
    for a in live:
        if a.street is last and a.kind not in (Kind.POST_ANTE, Kind.POST_DEAD):
            per[a.player] = per.get(a.player, 0) + a.contribution
    ranked = sorted(per.values(), reverse=True)
    top_player = max(per, key=lambda p: per[p])
    excess = ranked[0] - (ranked[1] if len(ranked) > 1 else 0)
    if excess > 0 and put_in - excess == total:
        index = actions.index(live[-1]) + 1
        while index < len(actions) and actions[index].street is last:
            index += 1
        b.uncalled(top_player, excess)
        ret = actions.pop()
        actions.insert(index, ret._replace(street=last))
        b.hand.actions = [a._replace(seq=i) for i, a in enumerate(actions)]


FORMAT = OnGameFormat()
