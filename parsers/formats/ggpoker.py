"""GGPoker cash and tournament text hand histories ("Poker Hand #OM123: PLO ($2/$5) - ...").

Why its own module: GGPoker is PokerStars-like but writes straddles as the player's new total,
short deck "button blind", run it twice/thrice as FIRST/SECOND/THIRD streets, a jackpot and
"Bingo"/fortune drop beside the rake, all-in insurance, and site-funded "Cash Drop" pots.
Times are written without a zone; like fpdb we read them as US Eastern time.
"""

from __future__ import annotations

import re
from typing import ClassVar

from parsers.base import TextHandFormat
from parsers.model import Hand, Kind, ParseError, Provenance, Seat, Street
from parsers.reading import Block

from ._stars_like import EASTERN, HandBuilder, Money, cards, new_hand, stars_decision, to_utc

_HEADER = re.compile(
    r"^Poker Hand #(?P<no>[A-Z]{0,3}\d+): "
    r"(?:Tournament #(?P<tid>\d+), .*?)?"
    r"(?P<game>Hold'em|ShortDeck|Omaha Hi/Lo|Omaha|PLO-5|PLO-6|PLO|Omaha5|Omaha6)"
    r"(?: (?P<limit>No Limit|Pot Limit|Fixed Limit|Limit))?"
    r"\s+(?:- Level ?(?P<level>\w+) ?)?"  # 2021 MTTs: "Hold'em No Limit   - Level14(300/600)"
    r"\((?P<stakes>[^)]*)\) - (?P<when>\d{4}/\d\d/\d\d \d\d?:\d\d:\d\d)"
)
_TABLE = re.compile(
    r"^Table '(?P<table>[^']*)' (?:(?P<max>\d+)-max )?(?:Seat #(?P<button>\d+) is the button)?"
)
_SEAT = re.compile(
    r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<cash>[^ )]+) in chips(?:, [^)]*)?\)(?P<out> is sitting out)?"
)
_AMOUNT_TAIL = re.compile(r"^(?P<amt>\S+)(?P<allin> and is all-in)?$")
_RAISE = re.compile(r"^raises (?P<amt>\S+) to (?P<to>\S+?)(?P<allin> and is all-in)?$")
_UNCALLED = re.compile(r"^Uncalled bet \((?P<amt>[^)]+)\) returned to (?P<name>.+)$")
_COLLECT = re.compile(r"^(?P<name>.+) collected (?P<amt>\S+) from (?P<pot>.*pot.*)$")
_STREET = re.compile(
    r"^\*\*\* (?:(?P<run>FIRST|SECOND|THIRD) )?(?P<street>FLOP|TURN|RIVER|SHOW ?DOWN) \*\*\*"
)
_BRACKETS = re.compile(r"\[([^\]]*)\]")
_SHOWED = re.compile(r"^Seat \d+: (?P<name>.+?) (?:\([^)]*\) )*(?:showed|mucked) \[(?P<cards>[^\]]*)\]")
_SUMMARY_FEE = re.compile(r"(?P<label>[A-Za-z][A-Za-z ]*?) (?P<amt>[^ |]+)")
_SIDE_NO = re.compile(r"(\d+)")

_RUNS = {None: 1, "FIRST": 1, "SECOND": 2, "THIRD": 3}
_STREETS = {"FLOP": Street.FLOP, "TURN": Street.TURN, "RIVER": Street.RIVER}
_VARIANTS = {
    "Hold'em": "holdem",
    "ShortDeck": "shortdeck",
    "Omaha": "omaha",
    "Omaha Hi/Lo": "omaha_hilo",
    "PLO": "omaha",
    "PLO-5": "omaha5",
    "PLO-6": "omaha6",
    "Omaha5": "omaha5",
    "Omaha6": "omaha6",
}
_BETTING = {"No Limit": "NL", "Pot Limit": "PL", "Fixed Limit": "FL", "Limit": "FL"}
_POSTS = {
    "posts small blind ": Kind.POST_SB,
    "posts big blind ": Kind.POST_BB,
    "posts missed blind ": Kind.POST_DEAD,
    "posts the ante ": Kind.POST_ANTE,
    # short deck: the button's forced live bet, called like a big blind
    "posts button blind ": Kind.POST_BB,
}


class GGPokerFormat(TextHandFormat):
    name: ClassVar[str] = "ggpoker"
    priority: ClassVar[int] = 50
    description: ClassVar[str] = "GGPoker text hand histories (cash and tournament)"

    def sniff(self, head: str) -> bool:
        first = head.lstrip("\ufeff\r\n ")
        return first.startswith("Poker Hand #") and _HEADER.match(first.split("\n", 1)[0]) is not None

    def is_start(self, line: str) -> bool:
        return line.startswith("Poker Hand #")

    def parse_block(self, block: Block, source_file: str) -> Hand | None:
        return _parse(block, source_file)


def _parse(block: Block, source_file: str) -> Hand:
    lines = block.lines
    m = _HEADER.match(lines[0])
    if m is None:
        raise ParseError("unrecognised GGPoker header", 1)
    hand = new_hand(
        site="ggpoker",
        hand_no=m["no"],
        fmt="ggpoker",
        source_file=source_file,
        offset=block.offset,
        length=block.length,
    )
    game = m["game"]
    hand.variant = _VARIANTS[game]
    hand.betting = _BETTING.get(m["limit"] or "", "PL" if game.startswith("PLO") else "NL")
    stakes = m["stakes"]
    if m["tid"]:
        hand.game_type = "tournament"
        hand.tournament_id = m["tid"]
        hand.tournament_level = m["level"]
    if "$" in stakes:
        hand.currency, hand.unit_scale = "USD", 100
    elif "¥" in stakes:
        hand.currency, hand.unit_scale = "CNY", 100
    elif m["tid"] is None:
        hand.currency, hand.unit_scale = "PLAY", 100
    else:
        hand.currency, hand.unit_scale = "CHIPS", 1
    money = Money(hand.unit_scale)
    blinds = [money(s) for s in stakes.replace(" ", "").split("/") if s and "ante" not in s]
    if len(blinds) == 2:
        hand.sb, hand.bb = blinds
    elif len(blinds) == 1:  # short deck: the stake is the ante (and button blind)
        hand.ante = hand.bb = blinds[0]
    hand.started_at = to_utc(m["when"], "%Y/%m/%d %H:%M:%S", EASTERN)
    if len(lines) < 2 or (t := _TABLE.match(lines[1])) is None:
        raise ParseError("missing table line", 2)
    hand.table_name = t["table"]
    hand.max_seats = int(t["max"]) if t["max"] else None
    hand.button_seat = int(t["button"]) if t["button"] else None

    b = HandBuilder(hand)
    names: list[str] = []
    i = 2
    while i < len(lines) and (s := _SEAT.match(lines[i])) is not None:
        names.append(s["name"])
        hand.seats.append(_seat(s, money))
        i += 1
    if not names:
        raise ParseError("no seats", i + 1)
    by_length = sorted(names, key=len, reverse=True)
    name_set = frozenset(names)
    dealt: list[tuple[str, str]] = []
    run = 1
    in_summary = False
    saw_summary = False
    for n in range(i, len(lines)):
        line = lines[n]
        if not line:
            continue
        try:
            if in_summary:
                _summary_line(line, hand, b, money)
                continue
            if line.startswith("*** "):
                if line.startswith("*** SUMMARY"):
                    in_summary = saw_summary = True
                elif line.startswith("*** HOLE CARDS"):
                    b.new_street(Street.PREFLOP)
                else:
                    run = _street_line(line, b, run)
                continue
            if line.startswith("Dealt to "):
                rest = line[9:]
                if rest.endswith("]"):
                    who, _, card_text = rest.partition(" [")
                    dealt.append((who, cards(card_text)))
                continue
            if line.startswith("Uncalled bet ("):
                u = _UNCALLED.match(line)
                if u is None or u["name"] not in name_set:
                    raise ParseError(f"bad uncalled bet line {line!r}")
                b.uncalled(u["name"], money(u["amt"]))
                continue
            if line.startswith("Cash Drop to Pot"):
                # site-funded money: nobody put it in, the site did (reconciled as site_added)
                hand.site_added = (hand.site_added or 0) + money(line.rpartition(" ")[2])
                continue
            player, rest = _split_player(line, name_set, by_length)
            if player is None:
                c = _COLLECT.match(line)
                if c is not None and c["name"] in name_set:
                    b.award(c["name"], money(c["amt"]), _pot_no(c["pot"]), run)
                    continue
                raise ParseError(f"unrecognised line {line!r}")
            _action(player, rest, b, money, hand)
        except ParseError as exc:
            raise ParseError(exc.reason, n + 1) from None
    if not saw_summary:
        raise ParseError("truncated hand: no *** SUMMARY *** section")
    _hole_from_dealt(dealt, b)
    return b.finish()


def _seat(s: re.Match[str], money: Money) -> Seat:
    return Seat(int(s["seat"]), s["name"], money(s["cash"]), s["out"] is not None)


def _split_player(line: str, names: frozenset[str], by_length: list[str]) -> tuple[str | None, str]:
    head, sep, rest = line.partition(": ")
    if sep and head in names:
        return head, rest
    for name in by_length:
        if line.startswith(name + ": "):
            return name, line[len(name) + 2 :]
    return None, line


def _action(player: str, rest: str, b: HandBuilder, money: Money, hand: Hand) -> None:
    if stars_decision(player, rest, b, money, _tail, _RAISE):
        return
    if rest.startswith("straddle "):
        a = _tail(rest[9:])
        total = money(a["amt"])
        if not hand.straddle:
            hand.straddle = total
        # GGPoker writes each straddle (and a re-straddle) as the player's new street total
        b.post_to(player, Kind.POST_STRADDLE, total, a["allin"] is not None)
    elif rest.startswith("posts "):
        for prefix, kind in _POSTS.items():
            if rest.startswith(prefix):
                a = _tail(rest[len(prefix) :])
                amount = money(a["amt"])
                if kind is Kind.POST_ANTE and not hand.ante:
                    hand.ante = amount
                b.post(player, kind, amount, a["allin"] is not None)
                return
        raise ParseError(f"unknown post {rest!r}")
    elif rest.startswith("shows "):
        b.show(player, cards(_BRACKETS.search(rest).group(1)))  # type: ignore[union-attr]
    elif rest.startswith("mucks"):
        br = _BRACKETS.search(rest)
        b.muck(player, cards(br.group(1)) if br else None)
    elif "insurance" in rest:
        return  # all-in insurance is settled off the pot between player and site
    elif rest in ("sits out", "is sitting out", "doesn't show hand"):
        return
    else:
        raise ParseError(f"unknown action {rest!r}")


def _tail(text: str) -> re.Match[str]:
    a = _AMOUNT_TAIL.match(text)
    if a is None:
        raise ParseError(f"bad amount {text!r}")
    return a


def _street_line(line: str, b: HandBuilder, run: int) -> int:
    m = _STREET.match(line)
    if m is None:
        raise ParseError(f"unknown section {line!r}")
    run_no = _RUNS[m["run"]]
    street = m["street"]
    if street.startswith("SHOW"):
        b.new_street(Street.SHOWDOWN)
        return run_no
    b.new_street(_STREETS[street])
    b.board(run_no, "".join(cards(g) for g in _BRACKETS.findall(line)))
    return run_no


def _pot_no(text: str) -> int:
    if "side" not in text:
        return 0
    d = _SIDE_NO.search(text)
    return int(d.group(1)) if d else 1


def _summary_line(line: str, hand: Hand, b: HandBuilder, money: Money) -> None:
    if line.startswith("Total pot "):
        parts = [p.strip() for p in line.split("|")]
        hand.site_total_pot = money(parts[0][len("Total pot ") :].split(" ")[0])
        fees = None
        for part in parts[1:]:
            label, _, amt = part.rpartition(" ")
            if label == "Rake":
                hand.site_rake = money(amt)
            else:  # Jackpot, Bingo, Fortune, ...: drops the site takes beside the rake
                fees = (fees or 0) + money(amt)
        hand.site_fees = fees
        return
    if line.startswith("Seat "):
        s = _SHOWED.match(line)
        if s is not None and s["cards"]:
            b.hole(s["name"], cards(s["cards"]), Provenance.SHOWN)


def _hole_from_dealt(dealt: list[tuple[str, str]], b: HandBuilder) -> None:
    """One player's cards: the hero. Everyone's (internal export): operator mode."""
    if len(dealt) == 1:
        b.hand.hero = dealt[0][0]
        b.hole(dealt[0][0], dealt[0][1], Provenance.DEALT)
    elif dealt:
        for who, card_text in dealt:
            b.hole(who, card_text, Provenance.OPERATOR)


FORMAT = GGPokerFormat()
