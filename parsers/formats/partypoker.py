"""PartyPoker text hand histories ("***** Hand History for Game N *****").

Why its own parser: Party writes every bet as the chips *added* (like 888, whose format descends
from it), an "is all-In [x]" line that does not say whether it calls, bets or raises, and the
game line names the table cap ("$50 USD NL Texas Hold'em") rather than the blinds on most
tables. Decisions:

* Blinds come from the game line when it writes them ("$0.01/$0.02"), else from the posts. A
  limit game line ("$15/$30 USD Texas Hold'em") writes the bet sizes: bb is the small bet and sb
  the posted small blind (the model's convention).
* "X Forward Folds" is a fold chosen before the turn came; when the site writes "X folds" again in
  turn, only that one is the decision.
* "is all-In [x]" adds x: a call when it does not exceed the street's top bet, a bet when nobody
  has bet, otherwise a raise; all-in is also derived when a player's chips reach their stack.
* "posts big blind + dead [x]": live big blind plus dead small blind (x − bb), two rows.
* Uncalled bets: never written. Party pays them back inside "wins"; a return row is derived only
  when Σ wins ≤ (everything put in − the unmatched excess), i.e. when the site's own total shows
  the excess was not paid through "wins" (see ``pacific`` for the same rule).
* Rake and total pot are not written in this format: ``site_rake`` stays None.
* Time: the zone abbreviation the site writes (EDT, CET, MESZ, ...) is converted to UTC; an
  unknown abbreviation gives ``started_at`` None.
* Seven card stud and stud hi-lo (issue 12): "$0.50/$1 USD 7 Card Stud" writes the small and big
  bet (tournaments: "Stakes-Antes(60/120-10)"), "** Dealing **" then "** Dealing Fourth street **"
  .. "** Dealing River **", "X bring-ins [..]", "X completes [..]" and, on a fourth street with a
  pair showing, "X double bets [..]" (the big bet); every amount is chips added. Only the hero's
  cards are dealt in the text ("Dealt to Hero [ 3h 8c 7c ]", then one card a street).
* The 2021+ export ("Hand History For Game 1784559729098bywbird3xlj", letters in the number) has
  a grammar of its own: ``_party_2021``.
* Other non-flop games are quarantined as unsupported variants; lines of the converted /
  third-party layouts this parser does not know quarantine the hand with the line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo

from parsers.base import TextHandFormat, guarded_parse, read_guarded
from parsers.formats._cards import rank_first_cards
from parsers.formats._ledger import Ledger
from parsers.formats._party_2021 import is_2021_start, parse_2021, sniff_2021
from parsers.formats._stakes import fixed_limit_blinds
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
    StreetCards,
)
from parsers.money import to_units
from parsers.reading import Block, iter_blocks, iter_lines, read_head

_SNIFF = re.compile(r"(?m)^\W{0,3}\*\*\*\*\* Hand History [Ff]or Game \d+ \*\*\*\*\*")
_HEADER = re.compile(r"^\W{0,3}\*\*\*\*\* Hand History [Ff]or Game (\d+) \*\*\*\*\*")
_DATE = re.compile(r"- ?\w+, ?(\w+) (\d+), (\d\d:\d\d:\d\d) (\w*) ?(\d{4})\s*$")
_BLINDS = re.compile(r"^\s*[$€£]?\s*([\d.,]+)\s*/\s*[$€£]?\s*([\d.,]+)")
_TRNY = re.compile(r"Trny: ?(\d+)")
_TABLE = re.compile(r"^Table (?P<table>.+?)\s*\(\s*(?P<money>Real Money|Play Money)\s*\)")
#: a seat; converters that annotate it with HUD statistics (" - VPIP: 26, PFR: 19, ...") add nothing to the hand
_SEAT = re.compile(r"^[Ss]eat ?(\d+): (.*?) \( ?(.+?) ?\)(?: - VPIP: [^()]*)?\s*$")
_BUTTON = re.compile(r"Seat (\d+) is the button")
_BRACKET = re.compile(
    r"^(?P<p>.*?) (?P<v>posts small blind|posts big blind \+ dead|posts big blind|posts button blind|posts ante"
    r"|calls|raises|bets|is all-In|shows|doesn't show)(?: of)? *\[ ?(?P<a>[^]]*?) ?\]"
)
_WINS = re.compile(
    r"^(?P<p>.*?) wins (?:Lo \()?(?P<a>[$€£]? ?[\d.,][\d.,\s]*?)(?: ?(?:USD|EUR|GBP|chips))? ?\)?"
    r"(?: from +(?P<pot>(?:the )?(?:main|side) pot(?: #?\d+)?))?(?: +with .*)?\.?\s*$"
)
_DEALT = re.compile(r"^Dealt to (.*?) \[ ?(.*?) ?\]\s*$")
_STRUCTURE = re.compile(r"\b(NL|PL|FL)\b")
_SYSTEM = re.compile(
    r"^(?:Your time bank|Due to current high memory|.* is disconnected\. We will wait|"
    r".* could not respond in time|.* has been reconnected|.* shows ?[\dA-Z,]+ +for low|"
    r"Player .* finished in \d|.+ finished in \d+ place\.$|Congratulations to player |>You have options at Table )"
)
_STREETS = {"Flop": Street.FLOP, "Turn": Street.TURN, "River": Street.RIVER}
_STUD = ("stud", "stud_hilo")
_STUD_STREETS = {"** Dealing **": Street.THIRD, "** Dealing Fourth street **": Street.FOURTH,
                 "** Dealing Fifth street **": Street.FIFTH, "** Dealing Sixth street **": Street.SIXTH,
                 "** Dealing River **": Street.SEVENTH}
_STUD_STAKES = re.compile(r"Stakes-Antes\((?P<small>[\d,]+)/(?P<big>[\d,]+)-(?P<ante>[\d,]+)\)")
_STUD_VERBS = re.compile(r"^(?P<p>.*?) (?P<v>bring-ins|completes|double bets) *\[ ?(?P<a>[^]]*?) ?\]")
_MONTHS = {m: i for i, m in enumerate(
    ["January", "February", "March", "April", "May", "June", "July", "August", "September",
     "October", "November", "December"], start=1)}
_ZONES: dict[str, tzinfo] = {
    "ET": ZoneInfo("America/New_York"), "EDT": timezone(timedelta(hours=-4)),
    "EST": timezone(timedelta(hours=-5)), "CET": timezone(timedelta(hours=1)),
    "CEST": timezone(timedelta(hours=2)), "MEZ": timezone(timedelta(hours=1)),
    "MESZ": timezone(timedelta(hours=2)), "BST": timezone(timedelta(hours=1)),
    "GMT": UTC, "UTC": UTC, "EET": timezone(timedelta(hours=2)),
    "EEST": timezone(timedelta(hours=3)), "MSK": ZoneInfo("Europe/Moscow"),
    "MSKS": timezone(timedelta(hours=4)), "ICT": timezone(timedelta(hours=7)),
    "YEKST": timezone(timedelta(hours=6)),
}
_IGNORED_ENDINGS = (
    " has joined the table.", " has left the table.", " does not show cards.", " is sitting out",
    " did not respond in time", " for this hand.", " has been disconnected", " is connected",
    " will sit out", " sits out",
)


def _game(line: str) -> tuple[str, str]:
    """(variant, betting) from the game line; unsupported games raise."""
    low = line.lower()
    if "7 card stud" in low:  # always fixed limit
        return ("stud_hilo" if "hi-lo" in low else "stud"), "FL"
    if "stud" in low or "draw" in low or "razz" in low or "badugi" in low:
        name = re.sub(r"^.*?(\d Card Stud[\w -]*?|Razz|Badugi|[\w ]*Draw)\b.*$", r"\1", line).strip()
        raise ParseError(f"unsupported variant: {name}")
    if "double hold" in low:
        raise ParseError(f"unsupported variant: {line.strip()}")
    if "omaha" in low:
        variant = "omaha_hilo" if "hi-lo" in low or "hi/lo" in low else "omaha"
    elif "hold'em" in low or "holdem" in low:
        variant = "holdem"
    elif "short deck" in low:  # hold'em from 6 up; the button posts the only blind, everyone an ante
        variant = "shortdeck"
    else:
        raise ParseError(f"unsupported variant: {line.strip()}")
    structure = _STRUCTURE.search(line)
    if structure is not None:
        return variant, structure.group(1)
    if "/" in line.split(" - ", maxsplit=1)[0]:
        return variant, "FL"  # Party writes limit games without a prefix: "$15/$30 USD Texas Hold'em"
    raise ParseError(f"no betting structure in {line!r}")


def _started(line: str) -> datetime | None:
    m = _DATE.search(line)
    if m is None or m.group(1) not in _MONTHS:
        return None
    zone = _ZONES.get(m.group(4))
    if zone is None:
        return None
    hh, mm, ss = (int(x) for x in m.group(3).split(":"))
    local = datetime(int(m.group(5)), _MONTHS[m.group(1)], int(m.group(2)), hh, mm, ss)
    return local.replace(tzinfo=zone).astimezone(UTC).replace(tzinfo=None)


class PartyPokerFormat(TextHandFormat):
    name = "partypoker"
    priority = 100
    description = "PartyPoker text hand histories"

    def sniff(self, head: str) -> bool:
        return _SNIFF.search(head) is not None or sniff_2021(head)

    def is_start(self, line: str) -> bool:
        line = line.lstrip("\x00\ufeff")
        return _HEADER.match(line) is not None or line.startswith(("#Game No", "Game #"))

    def parse(self, path: Path) -> Iterator[Hand | Quarantined]:
        """A hand starts at its '#Game No' / 'Game #N starts.' preamble, else at the header; the
        2021+ export (``_party_2021``) at its own banner."""
        if sniff_2021(read_head(path)[1]):
            source = str(path)
            for block in iter_blocks(iter_lines(path), is_2021_start):
                if not is_2021_start(block.lines[0]):
                    yield Quarantined(source, block.offset, "\n".join(block.lines), "text outside any hand", self.name)
                    continue
                item = read_guarded(source, block.offset, block.lines, self.name, parse_2021, block, source)
                if item is not None:
                    yield item
            return
        prev = ""

        def starts(text: str) -> bool:
            nonlocal prev
            line = text.lstrip("\x00\ufeff")
            pre = line.startswith(("#Game No", "Game #"))
            hit = (pre and not prev.startswith("Game #")) or (
                _HEADER.match(line) is not None and not prev.startswith(("#Game No", "Game #"))
            )
            if line.strip():
                prev = line
            return hit

        source = str(path)
        for block in iter_blocks(iter_lines(path), starts):
            yield from guarded_parse(self, block, source)

    def parse_block(self, block: Block, source_file: str) -> Hand | None:
        lines = [line.replace("\x00", "") for line in block.lines]
        if all(line.startswith(("Game #", "#Game No")) or not line.strip() for line in lines):
            return None  # a 'Game #N starts.' announcement with no hand written after it
        at = _header_at(lines)
        if at is None:
            raise ParseError("truncated hand: no 'Hand History for Game' header")
        lines = lines[at:]
        if len(lines) < 5:
            raise ParseError("truncated hand: header incomplete")
        head = _HEADER.match(lines[0])
        assert head is not None
        hand_no = head.group(1)
        game_line = lines[1]
        variant, betting = _game(game_line)
        table_line = lines[2]
        table = _TABLE.match(table_line)
        if table is None:
            raise ParseError(f"unrecognised table line {table_line!r}", 3)
        trny = _TRNY.search(game_line) or _TRNY.search(" ".join(lines[1:5]))
        tournament = trny is not None or "Buy-in" in game_line or game_line.startswith("Tourney Hand ")
        if tournament:
            currency, scale = "CHIPS", 1
        elif table["money"] == "Play Money":
            currency, scale = "PLAY", 100
        else:
            currency = "EUR" if ("EUR" in game_line or "€" in game_line) else (
                "GBP" if "GBP" in game_line else "USD")
            scale = 100
        hand = Hand(
            hand_id=f"partypoker:{hand_no}", site="partypoker", site_hand_no=hand_no,
            format=self.name, variant=variant, betting=betting,
            game_type="tournament" if tournament else "cash", table_name=table["table"].strip(),
            sb=0, bb=0, currency=currency, unit_scale=scale, source_file=source_file,
            byte_offset=block.offset, byte_length=block.length, started_at=_started(game_line),
            tournament_id=trny.group(1) if trny else None,
        )
        # short deck's "$1/$2" are not blinds (the button posts the only one): taken from the posts
        blinds = _BLINDS.match(game_line) if not tournament and variant != "shortdeck" else None
        if blinds is not None and "/" in game_line.split("-")[0]:
            hand.sb, hand.bb = to_units(blinds.group(1), scale), to_units(blinds.group(2), scale)
            if betting == "FL" and variant not in _STUD:  # "$15/$30" are the bet sizes: bb is the small bet
                hand.bb = hand.sb
        if variant in _STUD:
            _stud_stakes(hand, lines)
        _read_body(hand, lines, 3, scale)
        if variant in _STUD:
            hand.hole_cards = [HoleCards(h.player, "".join(c.cards for c in hand.street_cards if c.player == h.player),
                                         h.provenance) if h.provenance is Provenance.DEALT else h
                               for h in hand.hole_cards]
        elif betting == "FL" and hand.bb:
            fixed_limit_blinds(hand, hand.bb)
        return hand


def _header_at(lines: list[str]) -> int | None:
    """Where the 'Hand History for Game' header is, after the 'Game #N starts.' / '#Game No'
    preamble and its blank lines (a tournament's preamble may name an earlier game number)."""
    for i, line in enumerate(lines):
        if _HEADER.match(line):
            return i
        text = line.strip().lstrip("\ufeff")
        if text and not text.startswith(("Game #", "#Game No")):
            return None
    return None


def _stud_stakes(hand: Hand, lines: list[str]) -> None:
    """The small and big bet (the game line's "$0.50/$1", a tournament's "Stakes-Antes(60/120-10)");
    stud posts no blinds and has no button ("Seat 0 is the button")."""
    if hand.game_type == "tournament":
        m = next((m for ln in lines[:40] if (m := _STUD_STAKES.search(ln)) is not None), None)
        if m is None:
            raise ParseError("a stud tournament hand without its Stakes-Antes line")
        hand.sb, hand.bb = to_units(m["small"], 1), to_units(m["big"], 1)
    if not hand.bb:
        raise ParseError("no stakes written for a stud hand")
    hand.small_bet, hand.big_bet = hand.sb, hand.bb
    hand.sb, hand.bb = 0, hand.small_bet


#: live blinds: when an old tournament export writes none, they are taken from its Blinds line
POSTED = (Kind.POST_SB, Kind.POST_BB)
_LEVEL_BLINDS = re.compile(r"^(?:Blinds|Stakes|Blinds-Antes)\((?P<sb>[\d,]+)/(?P<bb>[\d,]+)(?: -[\d,]+)?\)$")


def _unwritten_blinds(hand: Hand, lines: list[str], led: Ledger, stacks: dict[str, int]) -> None:
    """Old tournament exports write the level's "Blinds(100/200)" but no post lines: the small
    and big blind are the first two seats after the button (heads-up, the button and the other),
    counting only players who act in the hand (one just moved to the table sits it out).

    Why derive them: the players' later "calls [100]" are the chips *added* on top of the posts;
    without them every such hand is short of its blinds (an "implied rake" of -300 in a freeroll).
    Short stacks post what they have. Reconciliation still checks the result against the wins.
    """
    level = next((m for ln in lines[:40] if (m := _LEVEL_BLINDS.match(ln.strip())) is not None), None)
    if level is None or hand.button_seat is None:
        return
    small, big = to_units(level["sb"], 1), to_units(level["bb"], 1)
    if hand.betting == "FL":  # "Stakes(200/400)" names the bets: blinds of half the small bet and the small bet
        small, big = small // 2, small
    hand.sb, hand.bb = small, big  # the level's blinds, as a written post would have given them
    # a player moved to the table this hand is seated but takes no part: only those who act post
    acting = {s.player for s in hand.seats if any(ln.strip().startswith(s.player + " ") for ln in lines)}
    ring = sorted((s.seat_no, s.player) for s in hand.seats if stacks.get(s.player, 0) > 0 and s.player in acting)
    if len(ring) < 2:
        return
    after = [p for no, p in ring if no > hand.button_seat] + [p for no, p in ring if no <= hand.button_seat]
    sb_player, bb_player = (after[-1], after[0]) if len(after) == 2 else (after[0], after[1])
    for player, kind, amount in ((sb_player, Kind.POST_SB, small), (bb_player, Kind.POST_BB, big)):
        paid = min(amount, stacks[player])
        led.post(player, kind, paid, paid == stacks[player])


def _read_body(hand: Hand, lines: list[str], start: int, scale: int) -> None:
    stacks: dict[str, int] = {}
    led = Ledger()
    board: list[str] = []
    shown: set[str] = set()
    first_sb = first_bb = 0
    stud = hand.variant in _STUD
    if stud:
        led.new_street(Street.THIRD)  # the antes are third street's
    for no, raw in enumerate(lines[start:], start=start + 1):
        line = raw.strip()
        if not line:
            continue
        if stud and _stud_line(hand, led, line, stacks, scale):
            continue
        if line.startswith("** "):
            if line.startswith("** Dealing down cards"):
                if hand.game_type == "tournament" and not any(a.kind in POSTED for a in led.actions):
                    _unwritten_blinds(hand, lines, led, stacks)
                continue
            word = line[11:].split(" ", 1)[0] if line.startswith("** Dealing ") else ""
            street = _STREETS.get(word)
            if street is None:
                raise ParseError(f"unrecognised street line {line!r}", no)
            led.new_street(street)
            board.append(_cards(line.split("[", 1)[1].rsplit("]", 1)[0]))
            continue
        if line[:4] in ("Seat", "seat"):
            seat = _SEAT.match(line)
            if seat:
                player = seat.group(2)
                if player in stacks or not player.strip():
                    raise ParseError(f"duplicate or blank player name {player!r}", no)
                stacks[player] = to_units(_money(seat.group(3)), scale)
                hand.seats.append(Seat(int(seat.group(1)), player, stacks[player]))
                continue
        button = _BUTTON.search(line)
        if button and (line.startswith(("Seat", "Table")) or "--" in line):
            hand.button_seat = int(button.group(1))
            continue
        if line.startswith(("Total number of players", "Trny", "Blinds", "Stakes(", "NL Texas", "Game #", "#Game No")):
            if line.startswith("Total number of players"):
                cap = line.split("/")[-1].strip()
                hand.max_seats = int(cap) if cap.isdigit() else None
            continue
        if line.endswith(_IGNORED_ENDINGS) or _SYSTEM.match(line):
            continue
        if line.startswith("Dealt to "):
            dealt = _DEALT.match(line)
            if dealt is None:
                raise ParseError(f"unrecognised deal line {line!r}", no)
            hand.hero = dealt.group(1)
            hand.hole_cards.append(HoleCards(dealt.group(1), _cards(dealt.group(2)), Provenance.DEALT))
            continue
        bare = line.rstrip(".").rstrip()
        if bare.endswith(" Forward Folds"):
            # a fold pre-selected out of turn: the site writes the fold again when the turn comes
            # ("Hero Forward Folds" ... "Hero folds"), so only an unrepeated one is the decision
            player = bare[: -len(" Forward Folds")]
            if any(ln.strip().rstrip(".").rstrip() == f"{player} folds" for ln in lines[no:]):
                continue
            bare = f"{player} folds"
        if bare.endswith((" folds", " checks")):
            player, _, verb = bare.rpartition(" ")
            if player in stacks:
                led.simple(player, Kind.FOLD if verb == "folds" else Kind.CHECK)
                continue
        if " wins " in line:
            if line.count(" wins ") > 1:
                raise ParseError("two award lines run together (line break lost in the export)", no)
            w = _WINS.match(line)
            if w and w["p"] in stacks:
                pot = w["pot"] or "main pot"
                digits = re.findall(r"\d+", pot)
                pot_no = int(digits[0]) if "side" in pot and digits else (1 if "side" in pot else 0)
                hand.awards.append(Award(w["p"], to_units(_money(w["a"]), scale), pot_no))
                continue
        m = _BRACKET.match(line)
        if m is None or m["p"] not in stacks:
            if ": " in line and line.split(": ", 1)[0] in stacks:
                continue  # chat
            if m is not None:
                raise ParseError(f"action by a player not in the seat list: {m['p']!r}", no)
            raise ParseError(f"unrecognised line {line!r}", no)
        player, verb, text = m["p"], m["v"], m["a"]
        if verb in ("shows", "doesn't show"):
            shown_cards = _cards(text)
            led.show(player, Kind.SHOW if verb == "shows" else Kind.MUCK, shown_cards)
            if player != hand.hero and player not in shown:
                shown.add(player)
                hand.hole_cards.append(HoleCards(player, shown_cards, Provenance.SHOWN))
            continue
        value = to_units(_money(text), scale)
        all_in = verb == "is all-In" or (value > 0 and led.total_in.get(player, 0) + value == stacks[player])
        if verb == "posts small blind":
            led.post(player, Kind.POST_SB, value, all_in)
            first_sb = first_sb or value
        elif verb in ("posts big blind", "posts button blind"):  # short deck's button blind is live, like a big blind
            led.post(player, Kind.POST_BB, value, all_in)
            first_bb = first_bb or value
        elif verb == "posts big blind + dead":
            live = hand.bb or first_bb
            if not live or value <= live:
                raise ParseError(f"cannot split big blind + dead {text!r}", no)
            led.post(player, Kind.POST_BB, live, all_in)
            led.post(player, Kind.POST_DEAD, value - live, all_in)
        elif verb == "posts ante":
            led.post(player, Kind.POST_ANTE, value, all_in)
            hand.ante = max(hand.ante, value)
        elif verb == "calls":
            led.called(player, value, all_in)
        elif verb == "bets":
            led.added(player, Kind.BET, value, all_in)
        elif verb == "raises":
            led.added(player, Kind.RAISE, value, all_in)
        else:  # is all-In: kind from the street's bets
            top = max(led.street_in.values(), default=0)
            mine = led.street_in.get(player, 0) + value
            kind = Kind.CALL if mine <= top else (Kind.BET if top == 0 else Kind.RAISE)
            led.added(player, kind, value, True)
    if not hand.awards:
        raise ParseError("truncated hand: no winner written")
    if not hand.bb:
        hand.sb, hand.bb = first_sb, first_bb
    excess = led.uncalled_excess()
    if excess is not None and sum(a.amount for a in hand.awards) <= led.contributed() - excess[1]:
        at = max(i + 1 for i, a in enumerate(led.actions) if a.kind not in (Kind.SHOW, Kind.MUCK))
        led.insert_return(at, excess[0], excess[1])
    hand.actions = led.actions
    if board:
        hand.boards.append(Board(1, "".join(board)))


def _stud_line(hand: Hand, led: Ledger, line: str, stacks: dict[str, int], scale: int) -> bool:
    """A line only stud writes (streets, the hero's cards, bring-in, completion, double bet); True
    when it was one. Third street's completion is a raise of the bring-in to the small bet."""
    street = _STUD_STREETS.get(line)
    if street is not None:
        led.new_street(street)
        return True
    if line.startswith("Dealt to "):
        dealt = _DEALT.match(line)
        if dealt is None:
            raise ParseError(f"unrecognised deal line {line!r}")
        got = _cards(dealt.group(2))
        hand.hero = dealt.group(1)
        if led.street is Street.THIRD and len(got) == 6:
            hand.street_cards.append(StreetCards(hand.hero, Street.THIRD, got[:4], False))
            hand.street_cards.append(StreetCards(hand.hero, Street.THIRD, got[4:], True))
            hand.hole_cards.append(HoleCards(hand.hero, got, Provenance.DEALT))
        else:
            hand.street_cards.append(StreetCards(hand.hero, led.street, got, led.street is not Street.SEVENTH))
        return True
    if line.endswith(" opens") or line in ("There was no qualifying low hand", "Seat 0 is the button") \
            or line.startswith("Stakes-Antes("):
        return True
    m = _STUD_VERBS.match(line)
    if m is None or m["p"] not in stacks:
        return False
    player, value = m["p"], to_units(_money(m["a"]), scale)
    all_in = led.total_in.get(player, 0) + value == stacks[player]
    if m["v"] == "bring-ins":
        hand.bring_in = hand.bring_in or value
        led.post(player, Kind.BRING_IN, value, all_in)
    else:
        led.added(player, Kind.RAISE if led.street_in else Kind.BET, value, all_in)
        if m["v"] == "completes":
            led.actions[-1] = led.actions[-1]._replace(kind=Kind.COMPLETE)
    return True


def _money(text: str) -> str:
    for word in ("USD", "EUR", "GBP", "chips"):
        text = text.replace(word, "")
    return text.strip()


def _cards(text: str) -> str:
    return rank_first_cards(t for t in re.split(r"[,\s]+", text) if t)


FORMAT = PartyPokerFormat()
