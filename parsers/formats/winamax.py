"""Winamax text hand histories ("Winamax Poker - CashGame - HandId: #... - Omaha pot limit (1€/2€)").

Why its own module: Winamax never writes uncalled bets as returned (the winner "collects" his own
unmatched chips), writes "Total pot" *after* rake (normalised here to "everything put in, rake
included" = written total + rake), posts both blinds as one "small blind ... out of position"
line, and separates player names from verbs by a space (names may contain spaces). Tournament
totals of a thousand chips or more are rounded ("Total pot 6.02k"): checked, not stored.

Stud, razz and 2-7 triple draw (issue 12; the 8-Game tables name no rotation in the header): stud
stakes are "(5€/25€/50€)" (ante / small bet / big bet), its streets "*** 3rd STREET ***" (exports:
"*** THIRD ***"), cards "Dealt to P [X X 8h] [5c]" (the last group new, X a hidden card) and the
opening "brings in 10€" ("bring-in" in exports); third street's first bet or raise completes it.
Triple draw bets on "FIRST-BET" .. "FOURTH-BET" with "FIRST-DRAW" .. "THIRD-DRAW" between them
("discard 2 cards", "stands pat [...]"). One 2016 stud export writes an all-in over a completion as
"raises -6.10€ to 18.90€": its "to" is the chips the raise adds (the site's own slip, see the test).
"""

from __future__ import annotations

import re
from typing import ClassVar

from parsers.base import TextHandFormat
from parsers.formats._stakes import fixed_limit_blinds
from parsers.formats._stars_like import (
    PARIS,
    UTC,
    HandBuilder,
    Money,
    cards,
    new_hand,
    read_seat_lines,
    stars_decision,
    to_utc,
)
from parsers.model import Hand, Kind, ParseError, Provenance, Street, StreetCards, game_family
from parsers.reading import Block

_HEADER = re.compile(
    r"^Winamax Poker - (?P<kind>CashGame|Go Fast \"[^\"]*\"|Tournament \"(?P<tname>[^\"]*)\".*?)"
    r" - HandId: #(?P<no>[\d-]+) - (?P<game>.+?) (?P<limit>no limit|pot limit|fixed limit)"
    r" \((?P<stakes>[^)]*)\) - (?P<when>\d{4}/\d\d/\d\d \d\d?:\d\d:\d\d)(?: (?P<zone>\w+))?"
)
_TABLE = re.compile(
    r"^Table:? '(?P<table>.*)' (?:(?P<max>\d+)-max )?\((?P<money>real|play) money\)"
    r"(?: Seat #?(?P<button>\d+) is the button)?"
)
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+) \((?P<cash>[\d.,]+)(?:€|\x80)?(?:, [^)]*)?\)$")
_RAISE = re.compile(r"^raises (?P<amt>\S+) to (?P<to>\S+?)(?P<allin> and is all-in)?$")
_AMOUNT = re.compile(r"^(?P<amt>\S+?)(?: out of position)?(?P<allin> and is all-in)?$")
_COLLECT = re.compile(r"^collected (?P<amt>\S+) from (?P<pot>.+)$")
_BRACKETS = re.compile(r"\[([^\]]*)\]")
_SHOWED = re.compile(r"^Seat \d+: (?P<name>.+?) (?:\([^)]*\) )*(?:showed|mucked) \[(?P<cards>[^\]]*)\]")
_SIDE_NO = re.compile(r"side pot (\d+)")

_VARIANTS = {
    "Holdem": "holdem",
    "Omaha": "omaha",
    "Omaha5": "omaha5",
    "Omaha Hi/Lo": "omaha_hilo",
    "Omaha8": "omaha_hilo",
    "5 Card Omaha": "omaha5",
    "5 Card Omaha Hi/Lo": "omaha5_hilo",
    "Courchevel": "courchevel",
    "Courchevel Hi/Lo": "courchevel_hilo",
}
_GAMES = {"7-Card Stud": "stud", "7stud": "stud", "7-Card Stud Hi/Lo": "stud_hilo", "Razz": "razz",
          "2-7 Triple Draw": "draw27_triple", "Lowball27": "draw27_triple"}
#: stud and draw betting rounds; a triple draw's "SECOND-BET" is the betting after the first draw
_GAME_STREETS = {
    "3rd STREET": Street.THIRD, "THIRD": Street.THIRD, "4th STREET": Street.FOURTH, "FOURTH": Street.FOURTH,
    "5th STREET": Street.FIFTH, "FIFTH": Street.FIFTH, "6th STREET": Street.SIXTH, "SIXTH": Street.SIXTH,
    "7th STREET": Street.SEVENTH, "SEVENTH": Street.SEVENTH, "FIRST-BET": Street.PREDRAW,
    "FIRST-DRAW": Street.DRAW1, "SECOND-BET": Street.DRAW1, "SECOND-DRAW": Street.DRAW2,
    "THIRD-BET": Street.DRAW2, "THIRD-DRAW": Street.DRAW3, "FOURTH-BET": Street.DRAW3,
    "SHOW DOWN": Street.SHOWDOWN,
}
_NEGATIVE_RAISE = re.compile(r"^raises -\S+ to (?P<to>\S+?)(?: and is all-in)?$")
_DISCARD = re.compile(r"^discard (?P<n>\d) cards?$")
_BETTING = {"no limit": "NL", "pot limit": "PL", "fixed limit": "FL"}
_STREETS = {
    "*** ANTE/BLINDS": Street.PREFLOP,
    "*** ANTEBLINDS": Street.PREFLOP,
    "*** PRE-FLOP": Street.PREFLOP,
    "*** FLOP": Street.FLOP,
    "*** TURN": Street.TURN,
    "*** RIVER": Street.RIVER,
    "*** SHOW DOWN": Street.SHOWDOWN,
}
_IGNORED = ("denies big blind", "deny BB", "sits out", "is sitting out", "will be allowed to play after")


class WinamaxFormat(TextHandFormat):
    name: ClassVar[str] = "winamax"
    priority: ClassVar[int] = 50
    description: ClassVar[str] = "Winamax text hand histories (cash, Go Fast)"

    def sniff(self, head: str) -> bool:
        return head.lstrip("\ufeff\r\n ").startswith("Winamax Poker - ")

    def is_start(self, line: str) -> bool:
        return line.startswith("Winamax Poker - ")

    def parse_block(self, block: Block, source_file: str) -> Hand | None:
        return _parse(block, source_file)


def _parse(block: Block, source_file: str) -> Hand:
    lines = block.lines
    m = _HEADER.match(lines[0])
    if m is None:
        raise ParseError(f"unrecognised Winamax header {lines[0]!r}", 1)
    game = m["game"]
    if game not in _VARIANTS and game not in _GAMES:
        raise ParseError(f"unsupported variant: {game}", 1)
    hand = new_hand(
        site="winamax",
        hand_no=m["no"],
        fmt="winamax",
        source_file=source_file,
        offset=block.offset,
        length=block.length,
    )
    hand.variant = _VARIANTS.get(game) or _GAMES[game]
    family = game_family(hand.variant)
    hand.betting = _BETTING[m["limit"]]
    zone = m["zone"] or "UTC"
    hand.started_at = to_utc(m["when"], "%Y/%m/%d %H:%M:%S", UTC if zone == "UTC" else PARIS)
    t = _TABLE.match(lines[1]) if len(lines) > 1 else None
    if t is None:
        raise ParseError("missing table line", 2)
    hand.table_name = t["table"]
    hand.max_seats = int(t["max"]) if t["max"] else None
    hand.button_seat = int(t["button"]) if t["button"] else None
    if m["tname"] is not None:
        hand.game_type, hand.currency, hand.unit_scale = "tournament", "CHIPS", _chip_scale(lines)
        hand.tournament_id = m["tname"]
    elif t["money"] == "play":
        hand.currency = "PLAY"
    else:
        hand.currency = "EUR"
    money = Money(hand.unit_scale, strip="€\x80")
    stakes = [money(s) for s in m["stakes"].split("/")]
    if len(stakes) == 3:  # ante/sb/bb
        hand.ante, hand.sb, hand.bb = stakes
    elif len(stakes) == 2:
        hand.sb, hand.bb = stakes
    if family != "flop" and hand.betting == "FL":
        hand.small_bet, hand.big_bet = hand.sb, hand.bb
    if family == "stud":  # no blinds: "bb" is the small bet, as in the flop games' fixed limit
        hand.sb, hand.bb = 0, hand.sb
    elif hand.betting == "FL":  # "(0.05€/0.10€)" are the bet sizes: the big blind is the small bet
        hand.bb = hand.sb

    b = HandBuilder(hand)
    i = read_seat_lines(hand, lines, 2, _SEAT, money)
    by_length = sorted((seat.player for seat in hand.seats), key=len, reverse=True)
    if family != "flop":
        return _parse_game(hand, lines, i, b, money, by_length)
    in_summary = False
    for n in range(i, len(lines)):
        line = lines[n]
        if not line:
            continue
        try:
            if in_summary:
                _summary_line(line, hand, b, money)
            elif line.startswith("***"):
                if line.startswith("*** SUMMARY"):
                    in_summary = True
                else:
                    _street_line(line, b)
            elif line.startswith("Dealt to "):
                _dealt(line[9:], by_length, b)
            elif any(phrase in line for phrase in _IGNORED):
                continue  # no chips move (and the player may not even be seated)
            else:
                _action_line(line, by_length, b, money, hand)
        except ParseError as exc:
            raise ParseError(exc.reason, n + 1) from None
    if not in_summary:
        raise ParseError("truncated hand: no *** SUMMARY *** section")
    if hand.betting == "FL":
        fixed_limit_blinds(hand, hand.bb)
    return b.finish()


def _chip_scale(lines: list[str]) -> int:
    """Tournament chips are whole, except where a split pot left a player half a chip ("Seat 3:
    Player2 (7410.50)", a 2010 MTT): that hand is read in hundredths of a chip."""
    for line in lines[2:]:
        if not line.startswith("Seat "):
            break
        s = _SEAT.match(line)
        if s is not None and "." in s["cash"]:
            return 100
    return 1


def _parse_game(hand: Hand, lines: list[str], start: int, b: HandBuilder, money: Money,
                by_length: list[str]) -> Hand:
    """A stud, razz or triple draw hand, from the line after the seats."""
    stud = game_family(hand.variant) == "stud"
    b.new_street(Street.THIRD if stud else Street.PREDRAW)
    held: dict[str, str] = {}  # each player's cards as last written ("??" hidden)
    completed = in_summary = False
    for n in range(start, len(lines)):
        line = lines[n]
        if not line:
            continue
        try:
            if in_summary:
                _summary_line(line, hand, b, money)
            elif line.startswith("*** SUMMARY"):
                in_summary = True
            elif line.startswith("*** ANTE"):
                continue
            elif line.startswith("*** "):
                street = _GAME_STREETS.get(line[4:].partition(" ***")[0])
                if street is None:
                    raise ParseError(f"unknown section {line!r}")
                b.new_street(street)
            elif line.startswith("Dealt to "):
                who, tail = _player(line[9:], by_length)
                groups = [cards(g) for g in _BRACKETS.findall(tail)]
                if not groups:
                    raise ParseError(f"no cards dealt to {who}")
                _street_cards(hand, b.street, who, groups[-1], stud)
                held[who] = "".join(groups)
            elif any(phrase in line for phrase in _IGNORED):
                continue
            else:
                player, rest = _player(line, by_length)
                if _game_action(player, rest, b, money, held):
                    continue
                _action_line(line, by_length, b, money, hand)
                last = hand.actions[-1]
                if stud and not completed and b.street is Street.THIRD and last.kind in (Kind.BET, Kind.RAISE):
                    hand.actions[-1] = last._replace(kind=Kind.COMPLETE)  # the bring-in completed
                    completed = True
        except ParseError as exc:
            raise ParseError(exc.reason, n + 1) from None
    if not in_summary:
        raise ParseError("truncated hand: no *** SUMMARY *** section")
    if hand.hero is not None:
        b.hole(hand.hero, held[hand.hero], Provenance.DEALT)
    if hand.betting == "FL" and not stud:
        fixed_limit_blinds(hand, hand.bb)
    return b.finish()


def _street_cards(hand: Hand, street: Street, who: str, new: str, stud: bool) -> None:
    """The cards a 'Dealt to' line adds: stud's first three are two down and one up, its seventh
    down; a draw's are all down. The hero is the player whose down cards are written."""
    rows = hand.street_cards
    if stud and street is Street.THIRD and len(new) == 6:
        rows.append(StreetCards(who, street, new[:4], False))
        rows.append(StreetCards(who, street, new[4:], True))
        down = new[:4]
    else:
        up = stud and street is not Street.SEVENTH
        rows.append(StreetCards(who, street, new, up))
        down = "" if up else new
    if down and "??" not in down:
        hand.hero = who


def _game_action(player: str, rest: str, b: HandBuilder, money: Money, held: dict[str, str]) -> bool:
    """Bring-ins, draws and the negative raise; False for everything the flop games share."""
    hand = b.hand
    if rest.startswith(("brings in ", "bring-in ")):
        a = _amount(rest.split(" ", 2)[-1] if rest[5] == "-" else rest[10:])
        amount = money(a["amt"])
        hand.bring_in = hand.bring_in or amount
        b.post(player, Kind.BRING_IN, amount, a["allin"] is not None)
    elif rest.startswith("stands pat"):
        shown = _BRACKETS.findall(rest)
        known = cards(shown[0]) if shown else ""
        b.draw(player, 0, known if known and "??" not in known else None)
    elif (d := _DISCARD.match(rest)) is not None:
        b.draw(player, int(d["n"]))
    elif (r := _NEGATIVE_RAISE.match(rest)) is not None:
        # "raises -6.10€ to 18.90€" after a 25€ completion of a 10€ bring-in: the 18.90€ is what the
        # raise adds (his last chips: 33.90 - 5 ante - 10 - 18.90 = 0), and "calls 3.90€" then matches it
        added = money(r["to"])
        stack = next(s.stack for s in hand.seats if s.player == player)
        left = stack - sum(a.contribution for a in hand.actions if a.player == player) - added
        b.raise_to(player, None, b.committed(player) + added, all_in=left == 0)
    else:
        return False
    return True


def _street_line(line: str, b: HandBuilder) -> None:
    for prefix, street in _STREETS.items():
        if line.startswith(prefix):
            b.new_street(street)
            groups = _BRACKETS.findall(line)
            if groups:
                b.board(1, "".join(cards(g) for g in groups))
            return
    raise ParseError(f"unknown section {line!r}")


def _player(line: str, by_length: list[str]) -> tuple[str, str]:
    for name in by_length:
        if line.startswith(name) and line[len(name) : len(name) + 1] == " ":
            return name, line[len(name) + 1 :]
    raise ParseError(f"unrecognised line {line!r}")


def _dealt(rest: str, by_length: list[str], b: HandBuilder) -> None:
    who, tail = _player(rest, by_length)
    groups = _BRACKETS.findall(tail)
    if groups:
        b.hand.hero = who
        b.hole(who, "".join(cards(g) for g in groups), Provenance.DEALT)


def _action_line(line: str, by_length: list[str], b: HandBuilder, money: Money, hand: Hand) -> None:
    player, rest = _player(line, by_length)
    if stars_decision(player, rest, b, money, _amount, _RAISE):
        return
    if rest.startswith("posts "):
        _post(player, rest[6:], b, money, hand)
    elif rest.startswith("collected "):
        c = _COLLECT.match(rest)
        if c is None:
            raise ParseError(f"bad collect {rest!r}")
        pot = c["pot"]
        side = _SIDE_NO.search(pot)
        b.award(player, money(c["amt"]), int(side.group(1)) if side else 0)
    elif rest.startswith("shows "):
        groups = _BRACKETS.findall(rest)
        if not groups:
            raise ParseError(f"bad show {rest!r}")
        b.show(player, cards(groups[0]))
    elif rest.startswith("mucks"):
        b.muck(player)
    else:
        raise ParseError(f"unknown action {rest!r}")


def _post(player: str, rest: str, b: HandBuilder, money: Money, hand: Hand) -> None:
    out_of_position = "out of position" in rest
    if rest.startswith("ante "):
        a = _amount(rest[5:])
        b.post(player, Kind.POST_ANTE, money(a["amt"]), a["allin"] is not None)
    elif rest.startswith("small blind "):
        a = _amount(rest[12:])
        amount = money(a["amt"])
        all_in = a["allin"] is not None
        if not out_of_position:
            b.post(player, Kind.POST_SB, amount, all_in)
        elif amount > hand.bb:
            # both blinds in one line: the big blind is live, the rest is dead
            b.post(player, Kind.POST_BB, hand.bb)
            b.post(player, Kind.POST_DEAD, amount - hand.bb, all_in)
        else:
            b.post(player, Kind.POST_DEAD, amount, all_in)
    elif rest.startswith("big blind "):
        a = _amount(rest[10:])
        amount = money(a["amt"])
        if amount:  # "big blind 0€ out of position" follows a both-blinds post: nothing moves
            b.post(player, Kind.POST_BB, amount, a["allin"] is not None)
    else:
        raise ParseError(f"unknown post {rest!r}")


def _amount(text: str) -> re.Match[str]:
    a = _AMOUNT.match(text)
    if a is None:
        raise ParseError(f"bad amount {text!r}")
    return a


def _check_abbreviated_total(text: str, hand: Hand, rake: int) -> None:
    """Tournament totals of 1,000 chips or more are written rounded ("Total pot 6.02k"): not an
    exact site total (``site_total_pot`` stays None), but the chips put in must round to it."""
    whole, _, frac = text[:-1].partition(".")
    if not whole.isdigit() or (frac and not frac.isdigit()):
        raise ParseError(f"not an amount: {text!r}")
    step = 10 ** (3 - len(frac)) * hand.unit_scale  # '6.02k' is written to the nearest 10 chips
    approx = int(whole) * 1000 * hand.unit_scale + (int(frac) * step if frac else 0)
    put_in = sum(a.contribution for a in hand.actions) - rake
    if abs(put_in - approx) >= step:
        raise ParseError(f"the {put_in} chips put in do not round to the written total {text!r}")


def _summary_line(line: str, hand: Hand, b: HandBuilder, money: Money) -> None:
    if line.startswith("Total pot "):
        total_text, _, rake_text = line[10:].partition(" | ")
        rake = 0 if rake_text.strip() in ("No rake", "") else money(rake_text.strip()[5:])
        hand.site_rake = rake
        if total_text.strip().endswith("k"):
            _check_abbreviated_total(total_text.strip(), hand, rake)
            return
        # Winamax's total is after rake; the canonical total is everything put in
        hand.site_total_pot = money(total_text) + rake
    elif line.startswith("Board: "):
        groups = _BRACKETS.findall(line)
        if groups:
            b.board(1, "".join(cards(g) for g in groups))
    elif line.startswith("Seat "):
        s = _SHOWED.match(line)
        if s is not None and s["cards"]:
            b.hole(s["name"], cards(s["cards"]), Provenance.SHOWN)


FORMAT = WinamaxFormat()
