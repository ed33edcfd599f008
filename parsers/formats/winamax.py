"""Winamax text hand histories ("Winamax Poker - CashGame - HandId: #... - Omaha pot limit (1€/2€)").

Why its own module: Winamax never writes uncalled bets as returned (the winner "collects" his own
unmatched chips), writes "Total pot" *after* rake (normalised here to "everything put in, rake
included" = written total + rake), posts both blinds as one "small blind ... out of position"
line, and separates player names from verbs by a space (names may contain spaces). Tournament
totals of a thousand chips or more are rounded ("Total pot 6.02k"): checked, not stored.
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
from parsers.model import Hand, Kind, ParseError, Provenance, Street
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
    if game not in _VARIANTS:
        raise ParseError(f"unsupported variant: {game}", 1)
    hand = new_hand(
        site="winamax",
        hand_no=m["no"],
        fmt="winamax",
        source_file=source_file,
        offset=block.offset,
        length=block.length,
    )
    hand.variant = _VARIANTS[game]
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
        hand.game_type, hand.currency, hand.unit_scale = "tournament", "CHIPS", 1
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
    if hand.betting == "FL":  # "(0.05€/0.10€)" are the bet sizes: the big blind is the small bet
        hand.bb = hand.sb

    b = HandBuilder(hand)
    i = read_seat_lines(hand, lines, 2, _SEAT, money)
    by_length = sorted((seat.player for seat in hand.seats), key=len, reverse=True)
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
    step = 10 ** (3 - len(frac))  # '6.02k' is written to the nearest 10 chips
    approx = int(whole) * 1000 + (int(frac) * step if frac else 0)
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
