"""Bovada / Ignition / Bodog text hand histories ("Bovada Hand #123 TBL#456 HOLDEM No Limit - ...").

Why its own module: these sites anonymise every opponent by table position ("UTG+1", "Big Blind"),
reveal every player's hole cards after the hand (operator-like exports), write "Raises X to Y"
with X the chips *added*, all-ins as "All-in X" (chips added, sometimes a blind), results as
"Hand result" per pot, and times in US Eastern time unless marked UTC. Players are named by their
position label; the file owner ("[ME]") is named "Hero" so that he is one player across hands.

7 Card Stud and Stud Hi-Lo (``7CARD``, issue 12) have a layout of their own: seats are written
"Seat+3: $0.50 in chips" and act as "Seat+3 : ..." (the player is named by that seat label), the
streets are marked "*** 3RD STREET ***".. in 2014 exports and not at all before (a "Card dealt to a
spot" after the street's betting starts the next street), and the bring-in is "Bring_in chip" or
"Big blind/Bring in"; the first raise over it ("Raises $5 to $5") completes it.
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import ClassVar

from parsers.base import StartLineFormat
from parsers.formats._stars_like import EASTERN, UTC, HandBuilder, Money, cards, new_hand, to_utc
from parsers.model import Hand, Kind, ParseError, Provenance, Seat, Street, StreetCards
from parsers.reading import Block

_START = re.compile(r"^\ufeff?(?:Bovada|Ignition|Bodog(?:\.com|\.eu| UK)?) Hand #")
_HEADER = re.compile(
    r"^\ufeff?(?P<site>Bovada|Ignition|Bodog(?:\.com|\.eu| UK)?) Hand #(?P<no>\d+):?\s+"
    r"(?:(?P<game1>[A-Z0-9]+)(?P<hilo1> HiLo)? Tournament #(?P<tid>\d+) TBL#\d+, (?P<tlimit>[A-Za-z ]+?)- "
    r"Level (?P<level>\d+) \((?P<blinds>[^)]*)\)"
    r"|(?:TBL#\d+|Zone Poker ID#\d+)\s+(?P<game>[A-Z0-9]+?)(?:ZonePoker)?(?P<hilo> HiLo)?\s+"
    r"(?P<limit>No Limit|Pot Limit|Fixed Limit)(?: \[MVS\])?)"
    r" - (?P<when>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)(?: (?P<zone>UTC))?"
)
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<pos>.+?)(?P<me> \[ME\])? \((?P<cash>\$?[\d.,]+) in [Cc]hips\)")
_ACTOR = re.compile(r"^(?P<pos>.+?)\s*(?P<me>\[ME\])? : (?P<rest>.*)$")
_RAISE_TO = re.compile(r"^(?P<amt>\$?[\d.,]+) to (?P<to>\$?[\d.,]+)")
_BRACKETS = re.compile(r"\[([^\]]*)\]")
# tournament exports use bare verbs ("Call 600", "Hand Result 7440")
_VERBS = re.compile(r"^(Call|Bet|Raise|Fold|Check|Hand Result)\b")
_VERB_MAP = {
    "Call": "Calls",
    "Bet": "Bets",
    "Raise": "Raises",
    "Fold": "Folds",
    "Check": "Checks",
    "Hand Result": "Hand result",
}
#: timed-out decisions carry a marker between verb and amount ("Call(timeout) 600", "All-in(raise-timeout)
#: 79140 to 80140", "Bets chip info(timeout) 59566"): the same action as without it
_TIMEOUT = re.compile(r"^(Calls|Raises|All-in|Bets)(?: chip info)?\((?:(raise)-)?timeout\)")
_PLAYER_ID = re.compile(r"Seat(\d+): (\S+?)(?:,|$)")
#: "Dealer : Set dealer/Bring in spot [3]" or "Set dealer [5]": the button's seat number
_SET_DEALER = re.compile(r"Set dealer(?:/Bring in spot)? \[(\d+)\]")

_GAMES = {"HOLDEM": "holdem", "OMAHA": "omaha"}
_BETTING = {"No Limit": "NL", "Pot Limit": "PL", "Fixed Limit": "FL"}
_STREETS = {"*** FLOP": Street.FLOP, "*** TURN": Street.TURN, "*** RIVER": Street.RIVER}
_NO_CHIPS = (
    "Card dealt to a spot",
    "Draw for dealer",
    "Stand",
    "Table Info:",
    "Player Info:",
    "Set dealer",
    "Enter(Auto)",
    "Leave(Auto)",
    "Table enter user",
    "Table leave user",
    "Table deposit",
    "Seat sit down",
    "Seat sit out",
    "Seat stand",
    "Seat re-join",
    "Sitout",
    "Does not show",
    "Table Closed",
    "Re-join",
    "Sit out",
    "Ranking",
    "Prize Cash",
    # chips bought between hands: the seat list of the next hand already counts them, no pot sees them
    "Rebuyin ",
    "Double rebuys ",
    "Addon ",
)


class BovadaFormat(StartLineFormat):
    name: ClassVar[str] = "bovada"
    priority: ClassVar[int] = 50
    description: ClassVar[str] = "Bovada / Ignition / Bodog text hand histories"
    start: ClassVar[re.Pattern[str]] = _START

    def parse_block(self, block: Block, source_file: str) -> Hand | None:
        try:
            hand = _parse(block, source_file)
        except ParseError as exc:
            if "(corrupted export)" not in exc.reason:
                raise
            collapsed = _parse_collapsed(block, source_file)
            if collapsed is None:
                raise
            return collapsed
        if _first_repeat(block.lines, len(block.lines)) is not None and not _checks_across_streets(hand, block.lines):
            # repeats that happen to add up (an extra raise handed back as uncalled): the reading
            # with each repeat kept once wins when it matches the site's totals as well
            return _parse_collapsed(block, source_file) or hand
        return hand


def _checks_across_streets(hand: Hand, lines: list[str]) -> bool:
    """True when every verbatim repeat is a check that closed one betting round and a check by the
    same player opening the next (exports that write no street markers: the big blind checks his
    option, then checks first on the flop). Those are two decisions, not one line written twice:
    the rounds (``_Rounds``) put them on two streets, which a repeat within one round cannot be.
    """
    repeats = [lines[n] for n in range(1, len(lines)) if lines[n] == lines[n - 1] and " : " in lines[n]]
    if not repeats or not all(line.rstrip().endswith(" : Checks") for line in repeats):
        return False
    decisions = [a for a in hand.actions if a.kind in (Kind.FOLD, Kind.CHECK, Kind.CALL, Kind.BET, Kind.RAISE)]
    pairs = [(a, b) for a, b in pairwise(decisions)
             if a.player == b.player and a.kind is b.kind is Kind.CHECK]
    return len(pairs) == len(repeats) and all(a.street is not b.street for a, b in pairs)


def _parse_collapsed(block: Block, source_file: str) -> Hand | None:
    """A hand whose player lines are written two to sixteen times over, read with each run of
    verbatim repeats kept once; None unless every total the site wrote then agrees.

    Why this is not a guess: one player cannot make the same decision twice in a row (the turn
    passes), so a run of identical lines is one line written over; and the site's Total Pot and
    its results must then both equal what the lines put in.
    """
    lines = [ln for n, ln in enumerate(block.lines) if not (n and ln == block.lines[n - 1] and " : " in ln)]
    try:
        hand = _parse(Block(block.offset, block.length, lines), source_file)
    except ParseError:
        return None
    put_in = sum(a.contribution for a in hand.actions)
    awarded = sum(w.amount for w in hand.awards) + (hand.site_rake or 0)
    if hand.site_total_pot is None or not put_in == awarded == hand.site_total_pot:
        return None
    return hand


def _parse(block: Block, source_file: str) -> Hand:
    lines = [line for line in block.lines if line.strip()]
    m = _HEADER.match(lines[0])
    if m is None:
        raise ParseError(f"unrecognised header {lines[0]!r}", 1)
    game = m["game"] or m["game1"]
    if game == "7CARD":
        return _parse_stud(block, lines, m, source_file)
    if game not in _GAMES:
        raise ParseError(f"unsupported variant: {game}", 1)
    site = m["site"].split(".")[0].split(" ")[0].lower()
    hand = new_hand(
        site=site,
        hand_no=m["no"],
        fmt="bovada",
        source_file=source_file,
        offset=block.offset,
        length=block.length,
    )
    hand.variant = _GAMES[game] + ("_hilo" if m["hilo"] or m["hilo1"] else "")
    if m["tid"]:
        hand.game_type, hand.tournament_id, hand.tournament_level = "tournament", m["tid"], m["level"]
        # "Normal" is what 2016+ hold'em tournament exports write for no limit
        hand.currency, hand.unit_scale = "CHIPS", 1
        hand.betting = "NL" if m["tlimit"] == "Normal" else _BETTING.get(m["tlimit"], "")
        if not hand.betting:
            raise ParseError(f"unknown betting structure {m['tlimit']!r}", 1)
    else:
        hand.currency, hand.betting = "USD", _BETTING[m["limit"]]
    hand.started_at = to_utc(m["when"], "%Y-%m-%d %H:%M:%S", UTC if m["zone"] else EASTERN)
    money = Money(hand.unit_scale)
    if m["blinds"]:
        sb, _, bb = m["blinds"].partition("/")
        hand.sb, hand.bb = money(sb), money(bb)

    b = HandBuilder(hand)
    i = 2 if lines[1].startswith("Table Info:") else 1
    ids = _player_ids(lines)
    positions: dict[str, str] = {}
    listed: list[re.Match[str]] = []
    while i < len(lines) and (s := _SEAT.match(lines[i])) is not None:
        listed.append(s)
        i += 1
    if not listed:
        raise ParseError("no seats", i + 1)
    numbers = _seat_numbers(listed, lines[i:i + 40])
    for s, seat_no in zip(listed, numbers, strict=True):
        written = s["seat"]
        name = "Hero" if s["me"] else ids.get(written, s["pos"].strip() if seat_no == int(written) else f"#{written}")
        positions[s["pos"].strip()] = name
        hand.seats.append(Seat(seat_no, name, money(s["cash"])))
        if s["me"]:
            hand.hero = name
    dealt: dict[str, str] = {}
    dealing = True  # before *** HOLE CARDS ***: forced bets
    marked = any(line.startswith(("Card dealt to table", "Card to the table", "*** FLOP")) for line in lines)
    rounds = None if marked else _Rounds(b, {seat.player: seat.stack for seat in hand.seats})
    in_summary = False
    for n in range(i, len(lines)):
        line = lines[n]
        try:
            if in_summary:
                _summary_line(line, hand, money)
            elif line.startswith(("Card dealt to table ", "Card to the table ")):
                _table_cards(line, b)
            elif line.startswith("*** "):
                if line.startswith("*** SUMMARY"):
                    in_summary = True
                elif line.startswith("*** HOLE CARDS"):
                    dealing = False
                else:
                    _street(line, b)
            else:
                a = _ACTOR.match(line)
                if a is None:
                    if line.startswith(_NO_CHIPS):
                        continue  # table notices without a player
                    raise ParseError(f"unrecognised line {line!r}")
                pos = a["pos"].strip()
                if (d := _SET_DEALER.match(a["rest"].strip())) is not None:
                    hand.button_seat = int(d[1])  # written even when the button seat is empty
                    continue
                if pos not in positions:
                    if a["rest"].strip().startswith(_NO_CHIPS):
                        continue  # e.g. "Dealer : Set dealer [5]" when the button seat is empty
                    raise ParseError(f"action by a position with no seat: {pos!r}")
                rest = _VERBS.sub(_verb, a["rest"].strip())
                rest = _TIMEOUT.sub(_untimed, rest)
                if rounds is not None and not dealing and rest.startswith(_DECISIONS):
                    rounds.before_decision(dealt)
                _action(positions[pos], rest, b, money, dealing=dealing, dealt=dealt)
        except ParseError as exc:
            rep = _first_repeat(lines, n + 1)
            if rep is not None:
                raise ParseError(f"repeated line {lines[rep]!r}: {exc.reason} (corrupted export)", n + 1) from None
            raise ParseError(exc.reason, n + 1) from None
    if not in_summary:
        raise ParseError("truncated hand: no *** SUMMARY *** section")
    if rounds is not None and rounds.streets_seen and hand.boards == [] and not b.boards:
        summary_board = next((ln for ln in lines if ln.startswith("Board [")), "")
        board = "".join(cards(g) for g in _BRACKETS.findall(summary_board))
        if len(board) < 2 * (2 + rounds.streets_seen):
            raise ParseError("streets inferred from betting exceed the written board")
        b.board(1, board)
    if not hand.bb:
        _blinds_from_posts(hand)
    _check_button(hand, positions)
    for who, card_text in dealt.items():
        b.hole(who, card_text, Provenance.DEALT if who == hand.hero else Provenance.OPERATOR)
    done = b.finish()
    _check_repeats(done, lines)
    return done


_STUD_SEAT = re.compile(r"^Seat\+(?P<seat>\d+)(?P<me> \[ME\])?: (?P<cash>\$?[\d.,]+) in [Cc]hips\s*$")
_STUD_ACTOR = re.compile(r"^Seat\+(?P<seat>\d+)(?: \[ME\])? : (?P<rest>.*?)\s*$")
_STUD_MARKS = {"*** 3RD STREET": Street.THIRD, "*** 4TH STREET": Street.FOURTH, "*** 5TH STREET": Street.FIFTH,
               "*** 6TH STREET": Street.SIXTH, "*** 7TH STREET": Street.SEVENTH, "*** RIVER": Street.SEVENTH}
_STUD_ORDER = (Street.THIRD, Street.FOURTH, Street.FIFTH, Street.SIXTH, Street.SEVENTH)
_STUD_QUIET = ("Stand", "Ranking", "Table enter user", "Table leave user", "Sit out", "Re-join", "Seat stand",
               "Seat sit out", "Does not show", "Draw for dealer", "Set dealer")


def _parse_stud(block: Block, lines: list[str], m: re.Match[str], source_file: str) -> Hand:
    """A Bovada/Bodog 7 Card Stud (Hi-Lo) hand (see the module docstring)."""
    site = m["site"].split(".")[0].split(" ")[0].lower()
    hand = new_hand(site=site, hand_no=m["no"], fmt="bovada", source_file=source_file, offset=block.offset,
                    length=block.length)
    hand.variant = "stud_hilo" if m["hilo"] or m["hilo1"] else "stud"
    limit = m["limit"] or m["tlimit"]
    if limit != "Fixed Limit":
        raise ParseError(f"unsupported variant: 7CARD {limit}", 1)
    hand.betting = "FL"
    if m["tid"]:
        hand.game_type, hand.tournament_id, hand.tournament_level = "tournament", m["tid"], m["level"]
        hand.currency, hand.unit_scale = "CHIPS", 1
    else:
        hand.currency = "USD"
    hand.started_at = to_utc(m["when"], "%Y-%m-%d %H:%M:%S", UTC if m["zone"] else EASTERN)
    money = Money(hand.unit_scale)
    i = 1
    while i < len(lines) and (s := _STUD_SEAT.match(lines[i])) is not None:
        name = "Hero" if s["me"] else f"Seat+{s['seat']}"
        hand.seats.append(Seat(int(s["seat"]), name, money(s["cash"])))
        if s["me"]:
            hand.hero = name
        i += 1
    if not hand.seats:
        raise ParseError("no seats", i + 1)
    names = {str(seat.seat_no): seat.player for seat in hand.seats}
    b = HandBuilder(hand)
    b.street = Street.THIRD
    k = 0
    bet_seen = completed = in_summary = False
    held: dict[str, list[str]] = {}
    for n in range(i, len(lines)):
        line = lines[n].strip()
        if in_summary:
            _summary_line(line, hand, money)
            continue
        if line.startswith("*** "):
            if line.startswith("*** SUMMARY"):
                in_summary = True
            elif (mark := next((st for pre, st in _STUD_MARKS.items() if line.startswith(pre)), None)) is not None:
                k = _STUD_ORDER.index(mark)
                b.new_street(mark)
                bet_seen = False
            elif not line.startswith("*** HOLE CARDS"):
                raise ParseError(f"unknown section {line!r}", n + 1)
            continue
        a = _STUD_ACTOR.match(line)
        if a is None:
            if line.startswith(_NO_CHIPS):
                continue
            raise ParseError(f"unrecognised line {line!r}", n + 1)
        if a["seat"] not in names:
            raise ParseError(f"action by a seat not listed: {a['seat']!r}", n + 1)
        player, rest = names[a["seat"]], _VERBS.sub(_verb, a["rest"]).replace("Bring in(timeout) ", "Bring in ")
        if rest.startswith("Card dealt to a spot"):
            if bet_seen:  # no street marker: the deal after the betting starts the next street
                k += 1
                if k >= len(_STUD_ORDER):
                    raise ParseError("an eighth stud card", n + 1)
                b.new_street(_STUD_ORDER[k])
                bet_seen = False
            got = [c for g in _BRACKETS.findall(rest) for c in re.findall("..", cards(g))]
            before = len(held.get(player, []))
            for j, card in enumerate(got, before):
                up = 2 <= j <= 5
                rows = hand.street_cards
                if rows and rows[-1].player == player and rows[-1].street is b.street and rows[-1].face_up == up:
                    rows[-1] = rows[-1]._replace(cards=rows[-1].cards + card)
                else:
                    rows.append(StreetCards(player, b.street, card, up))
            held.setdefault(player, []).extend(got)
            continue
        try:
            if rest.startswith(("Bring_in chip ", "Big blind/Bring in ")):
                amount = money(rest.rsplit(" ", 1)[1])
                b.post(player, Kind.BRING_IN, amount)
                hand.bring_in = hand.bring_in or amount
            elif rest.startswith("Ante chip "):
                amount = money(rest[10:].split()[0])
                hand.ante = hand.ante or amount
                b.post(player, Kind.POST_ANTE, amount)
            elif rest.startswith("Raises ") and b.street is Street.THIRD and not completed:
                r = _RAISE_TO.match(rest[7:])  # "Raises $5 to $5"; tournaments: "Raise 100" (the total)
                to = money(r["to"]) if r is not None else money(rest[7:].split()[0])
                b.complete(player, to, money(r["amt"]) if r is not None else to - b.committed(player))
                completed = True
            elif rest.startswith("Bets ") and b.street is Street.THIRD and not completed:
                to = money(rest[5:].split()[0])  # the full bet instead of the bring-in: it completes
                b.complete(player, b.committed(player) + to, to)
                completed = True
            elif rest.startswith(("D bets ", "Double bets ")):
                b.bet(player, money(rest.split()[-1]))
            elif rest.startswith(("Hand result", "Hand Result")):
                side = "Side" in rest.split(" ", 2)[1] if " " in rest else False
                b.award(player, money(rest.rsplit(" ", 1)[1]), 1 if side or "Side pot" in rest else 0)
            elif rest.startswith(_STUD_QUIET):
                continue
            elif rest.startswith("Showdown"):
                b.show(player, "".join(held.get(player, [])))
            elif rest.startswith(("Folds", "Checks", "Calls ", "Bets ", "Raises ", "All-in", "Return uncalled",
                                  "Mucks")):
                _action(player, rest, b, money, dealing=False, dealt={p: "".join(c) for p, c in held.items()})
            else:
                raise ParseError(f"unknown action {rest!r}")
        except ParseError as exc:
            raise ParseError(exc.reason, n + 1) from None
        bet_seen = bet_seen or not rest.startswith(("Ante chip ", "Hand result", "Hand Result", "Showdown",
                                                     "Mucks", "Return uncalled"))
    if not in_summary:
        raise ParseError("truncated hand: no *** SUMMARY *** section")
    # the header writes no stakes ("Level 3 (0/0)"): a full completion is the small bet; in a hand
    # with none, bb is twice the bring-in (each completed hand of the 2012 MTT completes to exactly that)
    completion = next((a.raise_to or 0 for a in hand.actions if a.kind is Kind.COMPLETE and not a.all_in), 0)
    hand.bb = completion or 2 * hand.bring_in
    hand.small_bet = completion or None
    hand.big_bet = 2 * completion if completion else None
    for who, got in held.items():
        if "??" not in got:
            b.hole(who, "".join(got), Provenance.DEALT if who == hand.hero else Provenance.OPERATOR)
    return b.finish()


def _first_repeat(lines: list[str], end: int) -> int | None:
    """Index of the first player line before ``end`` that repeats the line above it verbatim."""
    return next((n for n in range(1, end) if lines[n] == lines[n - 1] and " : " in lines[n]), None)


def _check_repeats(hand: Hand, lines: list[str]) -> None:
    """Some exports write a line two or three times over ("Small Blind : Ante/Small blind 125" x3).

    A repeated line cannot be told from a repeated action by its text; when the hand then no
    longer adds up to the site's own Total Pot, the file is corrupted here: the hand is read
    again with each run of repeats kept once (``_parse_collapsed``), and quarantined unless that
    reading matches every total the site wrote.
    """
    if hand.site_total_pot is None:
        return
    repeated = _first_repeat(lines, len(lines))
    if repeated is None:
        return
    put_in = sum(a.contribution for a in hand.actions)
    awarded = sum(w.amount for w in hand.awards) + (hand.site_rake or 0)
    if put_in != hand.site_total_pot or awarded != hand.site_total_pot:
        raise ParseError(
            f"repeated line {lines[repeated]!r} and the hand does not add up to Total Pot({hand.site_total_pot}):"
            f" put in {put_in}, awarded {awarded} (corrupted export)",
            repeated + 1,
        )


_DECISIONS = ("Folds", "Checks", "Calls ", "Bets ", "Raises ", "All-in")


class _Rounds:
    """Street boundaries for 2012 exports that write the board only in the summary.

    A betting round is closed when every player still able to act has acted since the last
    bet or raise and all of them have the same amount in; the next decision opens the next
    street. This is the rule of the game, not a guess about the site.
    """

    __slots__ = ("b", "stacks", "streets_seen")

    _ORDER = (Street.FLOP, Street.TURN, Street.RIVER)

    def __init__(self, b: HandBuilder, stacks: dict[str, int]) -> None:
        self.b = b
        self.stacks = stacks
        self.streets_seen = 0

    def before_decision(self, dealt: dict[str, str]) -> None:
        if self.streets_seen >= 3 or not self._closed(dealt):
            return
        self.b.new_street(self._ORDER[self.streets_seen])
        self.streets_seen += 1

    def _closed(self, dealt: dict[str, str]) -> bool:
        street = self.b.street
        folded: set[str] = set()
        put_in: dict[str, int] = {}
        acted: set[str] = set()
        for a in self.b.hand.actions:
            put_in[a.player] = put_in.get(a.player, 0) + a.contribution
            if a.kind is Kind.FOLD:
                folded.add(a.player)
            if a.street is not street:
                continue
            if a.kind in (Kind.BET, Kind.RAISE):
                acted = {a.player}
            elif a.kind in (Kind.CALL, Kind.CHECK, Kind.FOLD):
                acted.add(a.player)
        live = [p for p in dealt if p not in folded and put_in.get(p, 0) < self.stacks.get(p, 0)]
        if not acted or not all(p in acted for p in live):
            return False
        top = self.b.max_committed()
        return all(self.b.committed(p) == top for p in live)


def _verb(m: re.Match[str]) -> str:
    return _VERB_MAP[m.group(1)]


def _untimed(m: re.Match[str]) -> str:
    return f"{m[1]}({m[2]})" if m[2] else m[1]


def _player_ids(lines: list[str]) -> dict[str, str]:
    """MVS exports name each opponent once ("Player Info: Seat1: P1-d07e..."): seat -> id."""
    for line in lines[:40]:
        if line.startswith("Player Info: "):
            return dict(_PLAYER_ID.findall(line))
    return {}


def _seat_numbers(listed: list[re.Match[str]], after: list[str]) -> list[int]:
    """The table seat of each listed player.

    Why: from 2016 some tournament exports write a player id where the seat number belongs
    ("Seat 957: Dealer", "Seat 75: UTG+3"; the same number keeps its stack from hand to hand),
    listing the players in table order and giving the button's real seat in "Set dealer [4]".
    Read as seat numbers they scramble the turn order. When the written numbers cannot be seats
    (above 10, or not ascending down the list), the seats are the listing order, placed so that
    the Dealer-labelled player sits on the written button seat; the number is the player's id.
    """
    written = [int(s["seat"]) for s in listed]
    if max(written) <= 10 and all(a < b for a, b in pairwise(written)):
        return written
    button = next((int(d[1]) for ln in after if (d := _SET_DEALER.search(ln)) is not None), None)
    dealer = next((k for k, s in enumerate(listed) if s["pos"].strip() == "Dealer"), None)
    order = list(range(1, len(listed) + 1))
    if button is None or dealer is None or button <= dealer:
        return order
    return order[:dealer] + [button + k for k in range(len(listed) - dealer)]


def _check_button(hand: Hand, positions: dict[str, str]) -> None:
    """Keep "Set dealer [N]" only when it agrees with the seat labelled "Dealer".

    Some re-exported fixtures renumber the seats so that the written button seat belongs to
    another position; a button the file contradicts is left unknown rather than guessed.
    """
    dealer = positions.get("Dealer")
    if hand.button_seat is None or dealer is None:
        return
    seat = next((s.seat_no for s in hand.seats if s.player == dealer), None)
    if seat != hand.button_seat:
        hand.button_seat = None


def _blinds_from_posts(hand: Hand) -> None:
    """Cash headers carry no stakes: take them from the blinds actually posted."""
    for a in hand.actions:
        if a.kind is Kind.POST_SB and not hand.sb:
            hand.sb = a.amount or 0
        elif a.kind is Kind.POST_BB and not hand.bb:
            hand.bb = a.amount or 0


def _street(line: str, b: HandBuilder) -> None:
    for prefix, street in _STREETS.items():
        if line.startswith(prefix):
            b.new_street(street)
            b.board(1, "".join(cards(g) for g in _BRACKETS.findall(line)))
            return
    raise ParseError(f"unknown section {line!r}")


def _table_cards(line: str, b: HandBuilder) -> None:
    """Old exports deal the board without street headers: the count of cards says which."""
    new = "".join(cards(g) for g in _BRACKETS.findall(line))
    board = b.boards.get(1, "") + new
    street = {6: Street.FLOP, 8: Street.TURN, 10: Street.RIVER}.get(len(board))
    if street is None:
        raise ParseError(f"board of {len(board) // 2} cards: {line!r}")
    b.new_street(street)
    b.board(1, board)


def _action(player: str, rest: str, b: HandBuilder, money: Money, *, dealing: bool, dealt: dict[str, str]) -> None:
    rest = rest.strip()
    if rest.startswith("Card dealt to a spot"):
        groups = _BRACKETS.findall(rest)
        if groups and groups[0].strip():
            dealt[player] = cards(groups[0])
    elif rest.startswith("Folds"):
        b.fold(player)
    elif rest.startswith("Checks"):
        b.check(player)
    elif rest.startswith("Calls "):
        b.call(player, money(rest[6:].split()[0]))
    elif rest.startswith("Bets "):
        b.bet(player, money(rest[5:].split()[0]))
    elif rest.startswith(("Raises ", "All-in(raise) ")):
        all_in = rest.startswith("All-in")
        tail = rest.split(" ", 1)[1]
        r = _RAISE_TO.match(tail)
        if r is not None:  # "Raises $20 to $24": $20 added, $24 in on the street
            b.raise_to(player, money(r["amt"]), money(r["to"]), all_in)
        else:  # old format "Raises $24": the street total
            b.raise_to(player, None, money(tail.split()[0]), all_in)
    elif rest.startswith("All-in "):
        amount = money(rest[7:].split()[0])
        blinds = any(x.kind in (Kind.POST_SB, Kind.POST_BB) for x in b.hand.actions)
        if dealing and not blinds and b.hand.ante and amount <= b.hand.ante:
            b.post(player, Kind.POST_ANTE, amount, all_in=True)  # all in for the ante, among the antes
        elif dealing:  # an all-in blind
            kind = Kind.POST_SB if not any(x.kind is Kind.POST_SB for x in b.hand.actions) else Kind.POST_BB
            b.post(player, kind, amount, all_in=True)
        else:
            b.all_in_adding(player, amount)
    elif rest.startswith(("Small Blind ", "Small blind ", "Ante/Small Blind ", "Ante/Small blind ")):
        b.post(player, Kind.POST_SB, money(rest.rsplit(" ", 1)[1]))
    elif rest.startswith(("Big blind ", "Big Blind ", "Big blind/Bring in ")):
        b.post(player, Kind.POST_BB, money(rest.rsplit(" ", 1)[1]))
    elif rest.startswith("Ante chip "):
        amount = money(rest[10:].split()[0])
        b.hand.ante = b.hand.ante or amount
        b.post(player, Kind.POST_ANTE, amount)
    elif rest.startswith("Posts dead chip "):
        amount = money(rest[16:].split()[0])
        bb = b.hand.bb or max((x.amount or 0 for x in b.hand.actions if x.kind is Kind.POST_BB), default=0)
        if bb and amount > bb:  # both blinds at once: the big blind is live, the rest dead
            b.post(player, Kind.POST_BB, bb)
            b.post(player, Kind.POST_DEAD, amount - bb)
        else:
            b.post(player, Kind.POST_DEAD, amount)
    elif rest.startswith("Posts chip "):
        b.post(player, Kind.POST_BB, money(rest[11:].split()[0]))
    elif rest.startswith("Return uncalled portion of bet "):
        b.uncalled(player, money(rest[31:].split()[0]))
    elif rest.startswith("Hand result"):
        side = rest.startswith("Hand result-Side pot")
        b.award(player, money(rest.rsplit(" ", 1)[1]), 1 if side else 0)
    elif rest.startswith("Showdown"):
        b.show(player, dealt.get(player) or "")
    elif rest.startswith("Mucks"):
        b.muck(player, dealt.get(player))
    elif rest.startswith(_NO_CHIPS) or rest.startswith("Set dealer"):
        return
    else:
        raise ParseError(f"unknown action {rest!r}")


def _summary_line(line: str, hand: Hand, money: Money) -> None:
    if _SEAT.match(line):
        raise ParseError("the summary runs into another hand's seat list (header missing)")
    if line.startswith("Total Pot("):
        total, _, rake = line.partition("|")
        hand.site_total_pot = money(total[len("Total Pot(") :].rstrip(") "))
        if rake.strip().startswith("Rake"):
            hand.site_rake = money(rake.strip()[4:].strip(" ()"))


FORMAT = BovadaFormat()
