"""Full Tilt Poker text hand histories ("Full Tilt Poker Game #N: Table ...").

Why its own parser: Full Tilt's grammar looks like PokerStars' but differs in every detail that
matters for chips: the header carries stakes, game and two clocks, raises are written as the
total reached ("raises to $12"), "Total pot" in the summary is after uncalled returns and before
rake, and run-it-twice hands write "wins pot 1/2". Decisions:

* Amounts: calls and bets are chips added, raises the street total (``raise_to``); the
  contribution is derived by the shared ``Ledger``; "Uncalled bet of $x returned" is written.
* Posts: small blind and big blind are live; "posts a dead small blind" is dead; a bare
  "posts $x" (a returning player's post) is a live big blind; antes are dead.
* Awards: every "wins/ties for ... ($x)" line before the summary (when there is none, a single
  "collected ($x)" summary line); "side pot #n" is pot n,
  "pot n" after a run-it-twice agreement is board n. ``site_total_pot`` and ``site_rake`` are the
  summary's "Total pot $x ... | Rake $y".
* Time: the header's "[hh:mm:ss ET - yyyy/mm/dd]" (or the main clock when it is ET) is US
  Eastern, converted to naive UTC; a main clock in CET is Central European (Europe/Paris rules).
* Stud, razz, draw and badugi (issue 12): "*** 3RD STREET ***".."*** 7TH STREET ***" and "*** HOLE
  CARDS ***", "*** FIRST DRAW ***".. ("*** DRAW ***" in single draw) are their streets; "brings in
  for", "completes it to", "discards N cards [..]" and "stands pat" their actions; "Dealt to P
  [down] [up]" (third street) and "[earlier] [new]" their cards per street. FT's 10-Game tables
  name no rotation in the header: each hand is read as its own game, ``mix`` stays None.
* Irish and Courchevel are quarantined as unsupported variants;
  unknown lines in the betting quarantine the hand with the line; observers' chat, time-bank and
  connection notices are ignored; Holdem Manager archive markers ("BEGIN", "*** # 1 ***") are
  dropped before blocks are cut.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo

from parsers.base import TextHandFormat, guarded_parse
from parsers.formats._cards import rank_first_cards
from parsers.formats._ledger import Ledger
from parsers.formats._stakes import fixed_limit_blinds
from parsers.model import (
    DRAW_STREETS,
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
    StreetCards,
    game_family,
)
from parsers.money import to_units
from parsers.reading import Block, iter_blocks, iter_lines

_SNIFF = re.compile(r"(?m)^\W{0,3}Full ?Tilt ?Poker (?:Game|Tournament Summary) #\d+")
_START = re.compile(r"^\W{0,3}Full ?Tilt ?Poker Game #\d+")
_HEADER = re.compile(
    r"^\W{0,3}Full ?Tilt ?Poker Game #(?P<no>\d+): (?:(?P<tname>.+?) \((?P<tid>\d+)\), )?"
    r"(?:Table (?P<table>.+?)|(?P<match>Match \d+)) (?:\((?P<tinfo>[^)]*)\) )?- (?P<f1>[^-]+?) - (?P<f2>.+?) - "
    r"(?P<time>\d+:\d\d(?::\d\d)?) (?P<tz>\w+) - (?P<date>[^[]+?)"
    r"(?: \[(?P<et_time>\d+:\d\d:\d\d) ET - (?P<et_date>\d{4}/\d\d/\d\d)\])?\s*$"
)
_STAKES = re.compile(r"^(?P<sb>[$€£]?[\d,.]+K?)/(?P<bb>[$€£]?[\d,.]+K?)(?: Ante (?P<ante>[$€£]?[\d,.]+K?))?$")
#: a Flipout sit & go's stakes ("2B/2B Ante 2B"): every stack is posted as an ante, no blind amount is written
_FLIPOUT = re.compile(r"^\d+B/\d+B Ante \d+B$")
_SEAT = re.compile(r"^Seat (\d+): (.+?) \(([$€£]?[\d,.]+)\)(, is sitting out)?\s*$")
_BUTTON = re.compile(r"^The button is in seat #(\d+)")
_ACTION = re.compile(
    r"^(?P<p>.+?) (?P<v>posts the small blind of|posts the big blind of|posts a dead small blind of|posts|antes"
    r"|calls|bets|raises to) (?P<a>[$€£]?[\d,.]+)(?P<allin>, and is all in)?(?:, and is capped)?\s*$"
)
_WINS = re.compile(
    r"^(?P<p>.+?) (?:wins|ties for) (?P<what>.*?)\((?P<a>[$€£]?[\d,.]+)\)(?: with .*)?\s*$"
)
_UNCALLED = re.compile(r"^Uncalled bet of (?P<a>[$€£]?[\d,.]+) returned to (?P<p>.+?)\s*$")
_SHOWS = re.compile(r"^(?P<p>.+?) (?P<v>shows|mucks) \[(?P<c>[^]]*)\]")
_DEALT = re.compile(r"^Dealt to (?P<p>.+?) \[(?P<c>[^]]*)\]\s*$")
_TOTAL = re.compile(r"^Total pot (?P<t>[$€£]?[\d,.]+).*?\| Rake (?P<r>[$€£]?[\d,.]+)")
_STREET = re.compile(r"^\*\*\* (FLOP|TURN|RIVER)(?: (\d))? \*\*\* ((?:\[[^]]*\] ?)+)")
_NOISE = re.compile(
    r"(?: has \d+ seconds left to act| has been disconnected| has reconnected| has timed out"
    r"| sits out| is sitting out| has returned| stands up| sits down| seconds to reconnect"
    r"| has requested TIME| is feeling \w+| mucks| shows .*| is low with .*| adds [$€£]?[\d,.]+"
    r"| will be allowed to play after the button| has \d+ seconds to reconnect"
    r"| was removed from the table for failing to post| has been removed from the table"
    r"|^\d+ seconds left to act|^.+ \(Observer\): .*|^.+ \(Observer\)\w.*"
    r"|^\([\dA-Z,]+\)|Players agree to Run It Twice|\*\*\* SHOW DOWN(?: \d)? \*\*\*| is sitting out)\.?\s*$"
)
_ARCHIVE_MARK = re.compile(r"^\W{0,3}(?:BEGIN|\*+ # \d+ \*+)\s*$")
_COLLECTED = re.compile(r"^Seat \d+: (?P<rest>.+?) (?:collected|and won) \((?P<a>[$€£]?[\d,.]+)\)")
_EASTERN = ZoneInfo("America/New_York")
_CET = ZoneInfo("Europe/Paris")
_UNSUPPORTED = ("stud", "razz", "draw", "badugi", "irish", "courchevel", "8-game", "horse")
#: stud and draw games as Full Tilt names them, betting words removed (issue 12)
_GAMES = {"stud hi": "stud", "stud h/l": "stud_hilo", "razz": "razz", "5 card stud": "stud5",
          "2-7 triple draw": "draw27_triple", "2-7 single draw": "draw27_single", "5 card draw": "draw5",
          "a-5 triple draw": "drawa5_triple", "badugi": "badugi"}
_BETTING_WORDS = (("no limit ", "NL"), ("pot limit ", "PL"), ("limit ", "FL"), ("fl ", "FL"))
_GAME_STREETS = {"3RD STREET": Street.THIRD, "4TH STREET": Street.FOURTH, "5TH STREET": Street.FIFTH,
                 "6TH STREET": Street.SIXTH, "7TH STREET": Street.SEVENTH, "HOLE CARDS": Street.PREDRAW,
                 "FIRST DRAW": Street.DRAW1, "DRAW": Street.DRAW1, "SECOND DRAW": Street.DRAW2,
                 "THIRD DRAW": Street.DRAW3}
#: 5 card stud's four betting rounds ("2ND STREET" .. "5TH STREET") kept as third..sixth street, as
#: every stud game's bring-in round is third street in the model
_STUD5_STREETS = {"2ND STREET": Street.THIRD, "3RD STREET": Street.FOURTH, "4TH STREET": Street.FIFTH,
                  "5TH STREET": Street.SIXTH}
_GAME_LINE = re.compile(
    r"^(?P<p>.+?) (?:(?P<v>brings in for|completes it to) (?P<a>[$€£]?[\d,.]+)(?P<allin>, and is all in)?"
    r"|(?P<d>discards (?P<n>\d+) cards?(?: \[(?P<c>[^]]*)\])?|stands pat(?: on \[(?P<pat>[^]]*)\])?))\s*$"
)
_DEALT_MORE = re.compile(r" is dealt \d+ cards?\s*$")
_GAME_NOTICE = re.compile(r"(?: is high with \[[^]]*\]|^No low hand qualified)\s*$")


def _game(text: str) -> tuple[str, str]:
    low = text.lower()
    for prefix, structure in _BETTING_WORDS:
        if low.startswith(prefix) and low[len(prefix):].strip() in _GAMES:
            return _GAMES[low[len(prefix):].strip()], structure
    if low in ("pl courchevel hi", "pot limit courchevel hi"):  # 5-card omaha, one flop card dealt first
        return "courchevel", "PL"
    for word in _UNSUPPORTED:
        if word in low:
            raise ParseError(f"unsupported variant: {text.strip()}")
    words = low.split()
    betting = ("PL" if "pot limit" in low or "pl" in words else "NL" if "no limit" in low or "nl" in words
               else "FL" if "limit" in low or "fl" in words else "")
    if not betting:
        raise ParseError(f"no betting structure in {text!r}")
    if "cap" in words:
        betting = "CAP"
    if "hold'em" in low or "holdem" in low:
        return "holdem", betting
    if "omaha" in low:
        hilo = "h/l" in low or "hi/lo" in low or "8" in low
        if "5 card" in low:
            return ("omaha5_hilo" if hilo else "omaha5"), betting
        if "6 card" in low:
            return "omaha6", betting
        return ("omaha_hilo" if hilo else "omaha"), betting
    raise ParseError(f"unsupported variant: {text.strip()}")


def _amount(text: str, scale: int) -> int:
    """Stakes, with play money's "500K" thousands."""
    if text.endswith("K"):
        return to_units(text[:-1], scale) * 1000
    return to_units(text, scale)


def _started(m: re.Match[str]) -> datetime | None:
    zones: dict[str, tzinfo] = {"ET": _EASTERN, "CET": _CET, "UTC": UTC}
    if m["et_time"]:
        clock, day, zone = m["et_time"], m["et_date"], zones["ET"]
    elif m["tz"] in zones:
        clock, day, zone = m["time"], m["date"].strip(), zones[m["tz"]]
    else:
        return None
    clock = clock if clock.count(":") == 2 else clock + ":00"
    for fmt in ("%Y/%m/%d %H:%M:%S", "%a, %B %d, %Y %H:%M:%S"):
        try:
            local = datetime.strptime(f"{day} {clock}", fmt)
        except ValueError:
            continue
        return local.replace(tzinfo=zone).astimezone(UTC).replace(tzinfo=None)
    return None


def _cards(text: str) -> str:
    return rank_first_cards(text.split())


class FullTiltFormat(TextHandFormat):
    name = "fulltilt"
    priority = 100
    description = "Full Tilt Poker text hand histories"

    def sniff(self, head: str) -> bool:
        return _SNIFF.search(head) is not None

    def is_start(self, line: str) -> bool:
        return _START.match(line) is not None

    def parse(self, path: Path) -> Iterator[Hand | Quarantined]:
        """As the shared driver, dropping the bare 'BEGIN' lines of Holdem Manager archives."""
        source = str(path)
        lines = (line for line in iter_lines(path) if not _ARCHIVE_MARK.match(line.text))
        for block in iter_blocks(lines, self.is_start):
            yield from guarded_parse(self, block, source)

    def parse_block(self, block: Block, source_file: str) -> Hand | None:
        lines = block.lines
        head = _HEADER.match(lines[0])
        if head is None:
            raise ParseError(f"unrecognised header {lines[0]!r}", 1)
        # older headers write "- $2/$4 - Pot Limit Omaha Hi -", newer ones "- NL Hold'em - $5/$10 -"
        first, second = head["f1"].strip(), head["f2"].strip()
        stakes = _STAKES.match(first)
        game_text, stakes_text = (second, first) if stakes else (first, second)
        stakes = stakes or _STAKES.match(second)
        flipout = stakes is None and _FLIPOUT.match(second) is not None
        if stakes is None and not flipout:
            raise ParseError(f"unrecognised stakes in {lines[0]!r}", 1)
        variant, betting = _game(game_text)
        tournament = head["tid"] is not None
        play = not tournament and not any(c in stakes_text for c in "$€£")
        if tournament:
            currency, scale = "CHIPS", 1
        elif play:
            currency, scale = "PLAY", 1
        else:
            currency = "EUR" if "€" in stakes_text else "GBP" if "£" in stakes_text else "USD"
            scale = 100
        tinfo = head["tinfo"] or ""
        max_seats = re.search(r"(\d+) max", tinfo)
        if "heads up" in tinfo.lower():
            max_seats = None
        hand = Hand(
            hand_id=f"fulltilt:{head['no']}", site="fulltilt", site_hand_no=head["no"], format=self.name,
            variant=variant, betting=betting, game_type="tournament" if tournament else "cash",
            table_name=(head["table"] or head["match"]).strip(), sb=_amount(stakes["sb"], scale) if stakes else 0,
            bb=_amount(stakes["bb"], scale) if stakes else 0, currency=currency, unit_scale=scale,
            source_file=source_file, byte_offset=block.offset, byte_length=block.length,
            started_at=_started(head), tournament_id=head["tid"],
            max_seats=int(max_seats.group(1)) if max_seats else (2 if "heads up" in tinfo.lower() else None),
        )
        if stakes is not None and stakes["ante"]:
            hand.ante = _amount(stakes["ante"], scale)
        family = game_family(variant)
        _read_body(hand, lines, scale, family)
        if flipout:  # every stack goes in as its ante: the ante is what was posted
            hand.ante = max((a.contribution for a in hand.actions if a.kind is Kind.POST_ANTE), default=0)
        if family != "flop" and betting == "FL":
            hand.small_bet, hand.big_bet = hand.sb, hand.bb
        if family == "stud":  # no blinds: bb is the small bet (as in the flop games' fixed limit)
            hand.sb, hand.bb = 0, hand.sb if betting == "FL" else hand.bb
            hand.bring_in = next((a.amount or 0 for a in hand.actions if a.kind is Kind.BRING_IN), 0)
        elif betting == "FL":  # the header's "$2.50/$5" are the bet sizes, not the blinds
            fixed_limit_blinds(hand, hand.sb)
        return hand


def _read_body(hand: Hand, lines: list[str], scale: int, family: str = "flop") -> None:
    stacks: dict[str, int] = {}
    led = Ledger()
    game = family != "flop"
    if game:
        led.street = Street.THIRD if family == "stud" else Street.PREDRAW
    held: dict[str, str] = {}  # stud/draw: each player's cards as last dealt
    boards: dict[int, str] = {}
    shown: set[str] = set()
    summary = False
    collected: list[Award] = []
    for no, raw in enumerate(lines[1:], start=2):
        line = raw.strip()
        if not line:
            continue
        if summary:
            total = _TOTAL.match(line)
            if total is not None:
                hand.site_total_pot = to_units(total["t"], scale)
                hand.site_rake = to_units(total["r"], scale)
            elif line.startswith("Board: ") and not boards:
                boards[1] = _cards(line[8:].rstrip("]"))
            elif (got := _COLLECTED.match(line)) is not None:
                owner = max((p for p in stacks if got["rest"].startswith(p)), key=len, default=None)
                if owner is not None:
                    collected.append(Award(owner, to_units(got["a"], scale)))
            continue
        if line.startswith("*** "):
            if line.startswith("*** SUMMARY"):
                summary = True
                continue
            label = line[4:].partition(" ***")[0]
            streets = _STUD5_STREETS if hand.variant == "stud5" else _GAME_STREETS
            if game and label in streets:
                to = streets[label]
                if (family == "stud") != (to not in DRAW_STREETS):
                    raise ParseError(f"street {line!r} in a {family} game", no)
                if to is not led.street:
                    led.new_street(to)
                continue
            if game and label.startswith("SHOW DOWN"):
                continue
            if label == "FLOPET" and hand.variant == "courchevel":
                # "*** FLOPET *** [9h]": Courchevel's first flop card, shown before the preflop betting
                boards[1] = _cards(" ".join(re.findall(r"\[([^]]*)\]", line)))
                continue
            street = _STREET.match(line)
            if street is not None:
                kind = {"FLOP": Street.FLOP, "TURN": Street.TURN, "RIVER": Street.RIVER}[street.group(1)]
                if kind is not led.street and street.group(2) in (None, "1"):
                    led.new_street(kind)
                cards = _cards(" ".join(re.findall(r"\[([^]]*)\]", street.group(3))))
                run = int(street.group(2) or 1)
                # Courchevel's "*** FLOP *** [9s Kd]" writes only the two cards after the FLOPET one
                boards[run] = boards.get(run, "") + cards if kind is Street.FLOP and len(cards) == 4 else cards
            continue
        if line.startswith("Seats: ") and line[7:].isdigit() and not led.actions:
            hand.max_seats = hand.max_seats or int(line[7:])  # 2013 rush tournaments: "Seats: 9"
            continue
        seat = _SEAT.match(line) if line.startswith("Seat ") else None
        if seat is not None and not led.actions:
            player = seat.group(2)
            if player in stacks:
                raise ParseError(f"duplicate player name {player!r}", no)
            stacks[player] = to_units(seat.group(3), scale)
            hand.seats.append(Seat(int(seat.group(1)), player, stacks[player], bool(seat.group(4))))
            continue
        button = _BUTTON.match(line)
        if button is not None:
            hand.button_seat = int(button.group(1))
            continue
        if game and line.startswith("Dealt to "):
            _game_dealt(hand, led.street, line[9:], stacks, held, family == "stud", no)
            continue
        if game and (g := _GAME_LINE.match(line)) is not None and g["p"] in stacks:
            _game_act(led, stacks, g, scale, held)
            continue
        if game and (_DEALT_MORE.search(line) or _GAME_NOTICE.search(line)):
            continue  # "P is dealt 2 cards" (the discard says it), "P is high with [Kh]" (razz's bring-in)
        dealt = _DEALT.match(line)
        if dealt is not None:
            hand.hero = dealt["p"]
            hand.hole_cards.append(HoleCards(dealt["p"], _cards(dealt["c"]), Provenance.DEALT))
            continue
        m = _ACTION.match(line)
        if m is not None and m["p"] in stacks:
            _act(hand, led, stacks, m, scale)
            continue
        ret = _UNCALLED.match(line)
        if ret is not None and ret["p"] in stacks:
            led.returned(ret["p"], to_units(ret["a"], scale))
            continue
        won = _WINS.match(line)
        if won is not None and won["p"] in stacks:
            what = won["what"]
            pot = re.search(r"side pot(?: #(\d+))?", what)
            rit = re.search(r"\bpot (\d)\b", what)
            hand.awards.append(Award(
                won["p"], to_units(won["a"], scale),
                (int(pot.group(1) or 1) if pot else 0), int(rit.group(1)) if rit and not pot else 1))
            continue
        shows = _SHOWS.match(line)
        if shows is not None and shows["p"] in stacks:
            cards = _cards(shows["c"])
            led.show(shows["p"], Kind.SHOW if shows["v"] == "shows" else Kind.MUCK, cards)
            if shows["p"] != hand.hero and shows["p"] not in shown:
                shown.add(shows["p"])
                hand.hole_cards.append(HoleCards(shows["p"], cards, Provenance.SHOWN))
            continue
        if line.endswith((" folds", " checks")):
            player, _, verb = line.rpartition(" ")
            if player in stacks:
                led.simple(player, Kind.FOLD if verb == "folds" else Kind.CHECK)
                continue
        if _NOISE.search(line) or line.startswith("Duration"):
            continue
        if ": " in line and line.split(": ", 1)[0] in stacks:
            continue  # chat
        raise ParseError(f"unrecognised line {line!r}", no)
    if not summary:
        raise ParseError("truncated hand: no summary")
    if not hand.awards:
        # some exports write no "wins" line; the summary's "collected ($x)" then says it (one
        # pot only: a run-it-twice or side-pot hand without win lines is not read from it)
        if len(collected) == 1:
            hand.awards = collected
            put = sum(a.contribution for a in led.actions)
            if hand.site_total_pot is not None and put != hand.site_total_pot:
                # 2012 Matrix exports drop lines: no "wins", no "Uncalled bet ... returned"
                raise ParseError(
                    f"no 'wins' line and the {put} put in is not the summary's Total pot"
                    f" {hand.site_total_pot} (lines missing from the export)"
                )
        else:
            raise ParseError("truncated hand: no winner written")
    hand.actions = led.actions
    hand.boards = [Board(n, cards) for n, cards in sorted(boards.items())]
    if game:
        known = [p for p in held if any(c.player == p and not c.face_up for c in hand.street_cards)]
        if len(known) == 1:
            hand.hero = known[0]
            others = [h for h in hand.hole_cards if h.player != known[0]]
            hand.hole_cards = [HoleCards(known[0], held[known[0]], Provenance.DEALT), *others]


def _game_dealt(hand: Hand, street: Street, rest: str, stacks: dict[str, int], held: dict[str, str],
                stud: bool, no: int) -> None:
    """'Dealt to P [5h 3c] [Td]': stud's down cards then its up-card on third street, '[earlier]
    [new]' later (seventh street's new card face down); in draw games the deal, then '[kept] [drawn]'."""
    cut = rest.find(" [")
    while cut != -1 and rest[:cut] not in stacks:
        cut = rest.find(" [", cut + 2)
    if cut == -1:
        raise ParseError(f"cards dealt to unseated player {rest!r}", no)
    player = rest[:cut]
    groups = [_cards(g) for g in re.findall(r"\[([^]]*)\]", rest[cut:])]
    if not groups:
        raise ParseError(f"unreadable Dealt to line {rest!r}", no)
    new = groups[-1]
    rows = hand.street_cards
    if not stud:
        rows.append(StreetCards(player, street, new, False))
    elif street is Street.THIRD and len(groups) == 2:
        rows.append(StreetCards(player, street, groups[0], False))
        rows.append(StreetCards(player, street, new, True))
    elif street is Street.THIRD and len(new) > 2:  # all three in one bracket
        rows.append(StreetCards(player, street, new[:-2], False))
        rows.append(StreetCards(player, street, new[-2:], True))
    else:
        rows.append(StreetCards(player, street, new, street is not Street.SEVENTH))
    held[player] = "".join(groups)


def _game_act(led: Ledger, stacks: dict[str, int], g: re.Match[str], scale: int, held: dict[str, str]) -> None:
    player = g["p"]
    if g["d"] is not None:
        thrown = g["c"] if g["n"] is not None else g["pat"]
        led.draw(player, int(g["n"] or 0), _cards(thrown) if thrown else None)
        return
    value = to_units(g["a"], scale)
    all_in = bool(g["allin"])
    if g["v"] == "brings in for":
        led.post(player, Kind.BRING_IN, value, all_in or led.total_in.get(player, 0) + value >= stacks[player])
    else:
        led.raised_to(player, Kind.COMPLETE, value, all_in=all_in)


def _act(hand: Hand, led: Ledger, stacks: dict[str, int], m: re.Match[str], scale: int) -> None:
    player, verb, value = m["p"], m["v"], to_units(m["a"], scale)
    all_in = bool(m["allin"]) or led.total_in.get(player, 0) + value >= stacks[player]
    if verb == "posts the small blind of":
        led.post(player, Kind.POST_SB, value, all_in)
    elif verb in ("posts the big blind of", "posts"):
        led.post(player, Kind.POST_BB, value, all_in)
    elif verb == "posts a dead small blind of":
        led.post(player, Kind.POST_DEAD, value, all_in)
    elif verb == "antes":
        led.post(player, Kind.POST_ANTE, value, all_in)
        hand.ante = max(hand.ante, value)
    elif verb == "calls":
        led.called(player, value, all_in)
    elif verb == "bets":
        led.added(player, Kind.BET, value, all_in)
    else:
        before = led.street_in.get(player, 0)
        led.raised_to(player, Kind.RAISE, value,
                      all_in=bool(m["allin"]) or led.total_in.get(player, 0) + value - before >= stacks[player])


FORMAT = FullTiltFormat()
