"""888poker / Pacific Poker / Cassava text hand histories.

Why a parser of its own: 888 writes every bet as the chips *added* ("raises [$2.50]" on top of
the player's blind), writes no rake, no total pot, no uncalled-bet line and no time zone, and
localised clients write card ranks in the player's language. Decisions, all documented here:

* Amounts: ``Action.amount`` is the bracketed amount (chips added); ``raise_to`` is the street
  total it reaches; all-in is derived (the player's contributions reached the seat's stack).
* "posts dead blind [$1 + $2]" is the small blind (dead) plus the big blind (live): two rows,
  ``post_bb`` then ``post_dead``; a zero part is not written as a row.
* Uncalled bets: 888 never writes the return. Older Cassava files pay the unmatched excess back
  inside "collected", newer ones leave it out. The excess itself follows from the bets; whether
  it was returned separately is decided by the site's own total: when Σ collected ≤ (everything
  put in − excess), the collected amounts cannot contain it, so a return is emitted; otherwise
  the site paid it through "collected" and no return row is written.
* Rake is not written: ``site_rake`` stays None (collected is after rake).
* Time: 888 writes no zone. fpdb's importer (the independent oracle whose ``.hands`` files sit
  beside the data) reads it as US Eastern; so do we, converting to naive UTC.
* Tournaments: the "$" amounts are chips (currency CHIPS, scale 1); practice play is PLAY.
* Two seats with the same (e.g. blank) name make actions unattributable: the hand is quarantined.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from parsers.base import TextHandFormat, guarded_parse
from parsers.formats._ledger import Ledger
from parsers.model import (
    Award,
    Board,
    Hand,
    HoleCards,
    Kind,
    ParseError,
    Provenance,
    Quarantined,
    Seat,
    Street,
)
from parsers.money import to_units
from parsers.reading import Block, iter_blocks, iter_lines

EASTERN = ZoneInfo("America/New_York")
UTC = ZoneInfo("UTC")

#: the network's rooms as their banners name them (LuckyAcePoker.com: a skin on 888's software)
_ROOMS = r"(?:Cassava|888poker[\w.\-]*|888\.ro(?: BLAST)?|Pacific Poker|LuckyAcePoker\.com)"
_SNIFF = re.compile(rf"\*\*\*\*\* {_ROOMS} (?:Hand History for Game|Tournament Summary)")
_HEADER = re.compile(rf"^\*\*\*\*\* {_ROOMS} Hand History for Game (\d+)")
_GAME = re.compile(
    r"^(?P<sb>.+?) ?/ ?(?P<bb>.+?) Blinds (?P<limit>No Limit|Pot Limit|Fix Limit) (?P<game>\S+)"
    r"(?P<extra>.*?) - \*\*\*(?: (?P<d>\d\d) (?P<m>\d\d) (?P<y>\d{4}) (?P<t>\d\d:\d\d:\d\d))?\s*$"
)
_TABLE = re.compile(
    r"^(?:Tournament #(?P<tid>\d+) .*? - )?Table (?P<table>.+?)(?: (?P<max>\d+) Max)? "
    r"\((?P<money>Real Money|Practice Play)\)\s*$"
    # 888.ro freerolls name no table: "Tournament #133191603 Free 10 Max (Real Money)"
    r"|^Tournament #(?P<only>\d+) (?P<name>.+?) (?P<cap>\d+) Max \((?P<real>Real Money)\)\s*$"
)
_SEAT = re.compile(r"^Seat (\d+): (.*) \( (.+) \)\s*$")
_BUTTON = re.compile(r"^Seat (\d+) is the button")
_BRACKET = re.compile(
    r"^(?P<p>.*) (?P<v>posts small blind|posts big blind|posts ante|posts dead blind|calls|raises|bets"
    r"|collected|shows|mucks) \[ ?(?P<a>.*?) ?\]\s*$"
)
_DEALT = re.compile(r"^Dealt to (.*) \[ ?(.*?) ?\]\s*$")
_STREET = {"flop": Street.FLOP, "turn": Street.TURN, "river": Street.RIVER}
_BETTING = {"No Limit": "NL", "Pot Limit": "PL", "Fix Limit": "FL"}
_VARIANT = {"Holdem": "holdem", "Omaha": "omaha", "OmahaHL": "omaha_hilo"}

#: localised ranks: Swedish (Kn, D, E), Dutch (B, V, H), German (B, D), Russian cp1251 letters
#: read as cp1252 (В=J, Д=Q, К=K, Т=A) and the two-digit ten
_RANKS = {
    "10": "T", "Kn": "J", "B": "J", "D": "Q", "V": "Q", "H": "K", "E": "A",
    "\u00c2": "J", "\u00c4": "Q", "\u00ca": "K", "\u00d2": "A",
}
_SUITS = {"Pik": "s", "Herz": "h", "Karo": "d", "Kreuz": "c"}
_STD_RANKS = frozenset("23456789TJQKA")


def card(token: str) -> str:
    """One card written by any 888 client ('Kns', '8Pik', 'Âh') as a standard two-char card."""
    tok = token.strip()
    for word, suit in _SUITS.items():
        if tok.endswith(word):
            rank, s = tok[: -len(word)], suit
            break
    else:
        rank, s = tok[:-1], tok[-1:].lower()
    rank = _RANKS.get(rank, rank)
    if rank not in _STD_RANKS or s not in "shdc" or not s:
        raise ParseError(f"unreadable card {token!r}")
    return rank + s


def cards(text: str) -> str:
    return "".join(card(t) for t in text.split(",") if t.strip())


_DOT_THOUSANDS = re.compile(r"\d{1,3}(?:\.\d{3})+")


def amount(text: str, scale: int) -> int:
    """888 amounts: '$1,000', '0,55 $', '5 000 $', Dutch '$ 3.243' (dot = thousands, 888 never
    writes three decimals), and a double-encoded no-break space ('Â\xa0') in some exports."""
    s = text.replace("\u00c2\u00a0", "").replace("\u00a0", "").replace(" ", "")
    digits = s.strip("$€£")
    if _DOT_THOUSANDS.fullmatch(digits):
        s = digits.replace(".", "")
    return to_units(s, scale)


def currency_of(text: str, practice: bool, tournament: bool) -> tuple[str, int]:
    if tournament:
        return "CHIPS", 1
    if practice:
        return "PLAY", 100
    if "€" in text:
        return "EUR", 100
    if "£" in text:
        return "GBP", 100
    if "$" in text:
        return "USD", 100
    raise ParseError(f"no currency in {text!r}")


class PacificFormat(TextHandFormat):
    name = "pacific"
    priority = 100
    description = "888poker / Pacific Poker / Cassava text hand histories"

    def sniff(self, head: str) -> bool:
        return _SNIFF.search(head) is not None

    def is_start(self, line: str) -> bool:
        return line.startswith(("#Game No", "***** "))

    def parse(self, path: Path) -> Iterator[Hand | Quarantined]:
        """A hand starts at '#Game No', or at its '*****' header when that line is missing."""
        prev = ""

        def starts(line: str) -> bool:
            nonlocal prev
            hit = line.startswith("#Game No") or (
                line.startswith("***** ") and not prev.startswith("#Game No")
            )
            prev = line
            return hit

        source = str(path)
        for block in iter_blocks(iter_lines(path), starts):
            yield from guarded_parse(self, block, source)

    def parse_block(self, block: Block, source_file: str) -> Hand | None:
        lines = block.lines if block.lines[0].startswith("***** ") else block.lines[1:]
        if lines and lines[0].startswith("***** Cassava Tournament Summary"):
            return None  # a tournament summary, not a hand
        if len(lines) < 5:
            raise ParseError("truncated hand: header incomplete")
        head = _HEADER.match(lines[0])
        if head is None:
            raise ParseError("not an 888 hand header", 1)
        lines = ["", *lines]  # keep the rest of the reading at fixed positions
        hand_no = head.group(1)
        game = _GAME.match(lines[2])
        if game is None:
            raise ParseError(f"unrecognised game line {lines[2]!r}", 3)
        table = _TABLE.match(lines[3])
        if table is None:
            raise ParseError(f"unrecognised table line {lines[3]!r}", 4)
        variant = _VARIANT.get(game["game"])
        if variant is None:
            raise ParseError(f"unsupported variant: {game['game']}", 3)
        tid, seats = table["tid"] or table["only"], table["max"] or table["cap"]
        tournament = tid is not None
        currency, scale = currency_of(lines[2], table["money"] == "Practice Play", tournament)
        started = None  # 888.ro's 2019 exports write "- ***" with no date
        if game["y"]:
            local = datetime.strptime(f"{game['y']}-{game['m']}-{game['d']} {game['t']}", "%Y-%m-%d %H:%M:%S")
            started = local.replace(tzinfo=EASTERN).astimezone(UTC).replace(tzinfo=None)
        # a BLAST jackpot sit & go writes its prize where the blinds go ("42.797,60 $/0 $"): no blinds
        blast = " BLAST " in lines[1] and amount(game["bb"], 1) == 0
        hand = Hand(
            hand_id=f"888:{hand_no}", site="888", site_hand_no=hand_no, format=self.name,
            variant=variant, betting=_BETTING[game["limit"]],
            game_type="tournament" if tournament else "cash", table_name=table["table"] or table["name"],
            sb=0 if blast else amount(game["sb"], scale), bb=0 if blast else amount(game["bb"], scale),
            currency=currency,
            unit_scale=scale, source_file=source_file, byte_offset=block.offset,
            byte_length=block.length, started_at=started, tournament_id=tid,
            max_seats=int(seats) if seats else None,
        )
        _read_body(hand, lines, scale)
        return hand


def _ante_excess(led: Ledger) -> tuple[str, int] | None:
    """A hand of antes only (a BLAST sit & go: every stack all in on its ante): the part of the
    biggest ante nobody matched, like an uncalled bet."""
    if any(a.contribution and a.kind is not Kind.POST_ANTE for a in led.actions):
        return None
    ranked = sorted(led.total_in.items(), key=lambda kv: kv[1], reverse=True)
    if len(ranked) < 2 or ranked[0][1] <= ranked[1][1]:
        return None
    return ranked[0][0], ranked[0][1] - ranked[1][1]


def _read_body(hand: Hand, lines: list[str], scale: int) -> None:
    """Seats, actions and summary of one hand (lines after the table line)."""
    stacks: dict[str, int] = {}
    led = Ledger()
    board: list[str] = []
    summary_at: int | None = None
    excess: tuple[str, int] | None = None
    shown: set[str] = set()
    saw_summary = False
    for no, line in enumerate(lines[4:], start=5):
        if not line.strip():
            continue
        if line.startswith("** "):
            if line.startswith("** Dealing down cards"):
                continue
            if line.startswith("** Summary"):
                saw_summary = True
                excess = led.uncalled_excess() or _ante_excess(led)
                summary_at = led.mark()
                led.new_street(Street.SHOWDOWN)
                continue
            word = line[11:].split(" ", 1)[0] if line.startswith("** Dealing ") else ""
            street = _STREET.get(word)
            if street is None:
                raise ParseError(f"unrecognised street line {line!r}", no)
            led.new_street(street)
            board.append(cards(line.split("[", 1)[1].rsplit("]", 1)[0]))
            continue
        if line.startswith("Seat "):
            seat = _SEAT.match(line)
            if seat:
                player = seat.group(2)
                if player in stacks or not player.strip():
                    raise ParseError(f"duplicate or blank player name {player!r}: actions unattributable", no)
                stack = amount(seat.group(3), scale)
                stacks[player] = stack
                hand.seats.append(Seat(int(seat.group(1)), player, stack))
                continue
            button = _BUTTON.match(line)
            if button:
                hand.button_seat = int(button.group(1))
                continue
            raise ParseError(f"unrecognised seat line {line!r}", no)
        if line.startswith("Total number of players"):
            continue
        if line.startswith("Dealt to "):
            dealt = _DEALT.match(line)
            if dealt is None:
                raise ParseError(f"unrecognised deal line {line!r}", no)
            hand.hero = dealt.group(1)
            hand.hole_cards.append(HoleCards(dealt.group(1), cards(dealt.group(2)), Provenance.DEALT))
            continue
        if line.endswith((" folds", " checks")):
            player, _, verb = line.rpartition(" ")
            _known(player, stacks, no)
            led.simple(player, Kind.FOLD if verb == "folds" else Kind.CHECK)
            continue
        if line.endswith(" did not show his hand") or line.startswith(("(Hi:", "(Lo:")):
            continue
        m = _BRACKET.match(line)
        if m is None:
            raise ParseError(f"unrecognised line {line!r}", no)
        player, verb, text = m["p"], m["v"], m["a"]
        _known(player, stacks, no)
        if verb in ("shows", "mucks"):
            shown_cards = cards(text)
            led.show(player, Kind.SHOW if verb == "shows" else Kind.MUCK, shown_cards)
            if player != hand.hero and player not in shown:
                shown.add(player)
                hand.hole_cards.append(HoleCards(player, shown_cards, Provenance.SHOWN))
            continue
        if verb == "collected":
            hand.awards.append(Award(player, amount(text, scale)))
            continue
        if verb == "posts dead blind":
            dead_text, _, live_text = text.partition("+")
            live = amount(live_text, scale) if live_text else 0
            dead = amount(dead_text, scale)
            if live:
                led.post(player, Kind.POST_BB, live, _all_in(led, player, live, stacks))
            if dead:
                led.post(player, Kind.POST_DEAD, dead, _all_in(led, player, dead, stacks))
            continue
        value = amount(text, scale)
        all_in = _all_in(led, player, value, stacks)
        if verb == "posts small blind":
            led.post(player, Kind.POST_SB, value, all_in)
        elif verb == "posts big blind":
            led.post(player, Kind.POST_BB, value, all_in)
        elif verb == "posts ante":
            led.post(player, Kind.POST_ANTE, value, all_in)
            hand.ante = max(hand.ante, value)
        elif verb == "calls":
            led.called(player, value, all_in)
        else:
            led.added(player, Kind.BET if verb == "bets" else Kind.RAISE, value, all_in)
    if not saw_summary or not hand.awards:
        raise ParseError("truncated hand: no summary / no winner")
    if excess is not None and summary_at is not None:
        collected = sum(a.amount for a in hand.awards)
        if collected <= led.contributed() - excess[1]:
            led.insert_return(summary_at, excess[0], excess[1])
    hand.actions = led.actions
    if board:
        hand.boards.append(Board(1, "".join(board)))


def _known(player: str, stacks: dict[str, int], no: int) -> None:
    if player not in stacks:
        raise ParseError(f"action by a player not seated: {player!r}", no)


def _all_in(led: Ledger, player: str, amount: int, stacks: dict[str, int]) -> bool:
    """888 writes no all-in marker: all-in when this action takes the player's last chip."""
    return amount > 0 and led.total_in.get(player, 0) + amount == stacks[player]


FORMAT = PacificFormat()
