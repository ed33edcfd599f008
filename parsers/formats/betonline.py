"""BetOnline / Chico network text hand histories ("BetOnline Poker Game #N: Hold'em No Limit ...").

Why its own module: the Chico skins (BetOnline, PayNoRake, ActionPoker, Gear Poker, SportsBetting,
Tiger Gaming) write a PokerStars-like grammar with their own traps, each checked against the
site's own totals in the tests:

* "raises X to Y": X is the chips *added*, Y the street total; calls write the chips added.
* "post dead X" posts both blinds: X (the big blind) is live, the small blind goes in dead;
  "post now X" is a live big blind posted out of turn.
* "Total pot X | Rake R" writes each pot *after* rake and R as the whole hand's rake; a side pot
  has its own line before the summary. The site's total put in is therefore Σ X + R.
* PLO is headed "Hold'em Pot Limit": the number of hole cards says which game it is.
* Older skins (ActionPoker, Gear Poker) write no zone, no stakes and often no uncalled return;
  an uncalled bet is derived only when the written total pot confirms it to the cent.
* Tournaments ("Game #N: Tournament #T: Hold'em $10.00/$20.00") write chips to the cent
  ("4941.25 in chips"), kept in hundredths; the header's stakes stay those of the first level, so
  the blinds come from the posts. A 2011 MTT export opens with the lobby's "Tournament will start
  in a moment." before its first hand.
"""

from __future__ import annotations

import re
from typing import ClassVar
from zoneinfo import ZoneInfo

from parsers.base import StartLineFormat
from parsers.formats._stars_like import HandBuilder, Money, cards, new_hand, to_utc
from parsers.model import Action, Hand, Kind, ParseError, Provenance, Seat, Street
from parsers.reading import Block

_SKINS = {
    "BetOnline Poker": "betonline",
    "PayNoRake": "paynorake",
    "ActionPoker.com": "actionpoker",
    "Gear Poker": "gearpoker",
    "SportsBetting.ag Poker": "sportsbetting",
    "Tiger Gaming": "tigergaming",
}
_SKIN_ALT = "|".join(re.escape(s) for s in _SKINS)
_START = re.compile(rf"^\ufeff?(?:{_SKIN_ALT}) Game #\d+: ")
#: the lobby's notice an MTT export opens with, before its first hand
_ANNOUNCE = "Tournament will start in a moment."
#: the hero's notice on joining mid-hand; the hand is still written in full after it
_JOINED = "Joined table during game."
_HEADER = re.compile(
    rf"^\ufeff?(?P<skin>{_SKIN_ALT}) Game #(?P<no>\d+): +(?:Tournament #(?P<tid>\d+): )?"
    r"(?P<game>Hold'em|Omaha Hi/Lo|Omaha|Razz|7 Card Stud Hi/Lo|7 Card Stud|Badugi"
    r"|Triple Draw 2-7 Lowball|Single Draw 2-7 Lowball|5 Card Draw)"
    r"(?: (?P<limit>No Limit|Pot Limit|Limit|LIMIT))?"
    r"(?: \(?(?P<cur>\$|€)?(?P<sb>[\d.,]+)/(?:\$|€)?(?P<bb>[\d.,]+)\)?)?"
    r" - (?P<when>.*?)\s*$"
)
_TABLE_QUOTED = re.compile(r"^Table '(?P<name>.*)' (?:(?P<max>\d+)-[Mm]ax,? )?(?:Seat #(?P<btn>\d+) is the button)?")
_TABLE_BARE = re.compile(r"^Table (?P<name>.+?) \((?P<money>Play|Real) Money\) (?:Seat #(?P<btn>\d+) is the button)?")
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<cash>[$€]?[\d.,]+) in [Cc]hips\)(?: - (?P<note>.*))?$")
_DEALT = re.compile(r"^Dealt [Tt]o (?P<name>.+?) \[(?P<cards>[^\]]*)\]\s*$")
_UNCALLED = re.compile(r"^Uncalled bet \((?P<amt>[^)]+)\) returned to (?P<name>.+)$")
_TOTAL = re.compile(r"^Total [Pp]ot (?P<pot>[$€]?[\d.,]+)(?: \| Rake (?P<rake>[$€]?[\d.,]+))?")
_STREET = re.compile(r"^\*\*\* (?P<street>FLOP|TURN|RIVER|SHOW DOWN|HOLE CARDS|SUMMARY) \*\*\*(?P<cards>.*)$")
_BRACKETS = re.compile(r"\[([^\]]*)\]")
_SUMMARY_SEAT = re.compile(r"^Seat (?P<seat>\d+): ")
_WON = re.compile(r"(?:collected|and won) \((?P<amt>[$€]?[\d.,]+)\)")
_SHOWED = re.compile(r"showed \[(?P<cards>[^\]]*)\]")
_AMOUNT = re.compile(r"^(?P<amt>[$€]?[\d.,]+)(?: to (?P<to>[$€]?[\d.,]+))?(?P<allin>\s*and is [Aa]ll.[Ii]n)?$")
_NOTICE = re.compile(
    r"^.+? (?:has left the table|joins the table at seat #\d+|sits out|has returned|is sitting out)\s*$"
)
#: a seated player leaving mid-hand: the site folds their hand there (no fold line is written)
_LEFT = re.compile(r"^(?P<name>.+?) has left the table\s*$")
_CHAT = re.compile(r'^.+? said "')

_GAMES = {"Hold'em": "holdem", "Omaha": "omaha", "Omaha Hi/Lo": "omaha_hilo"}
_LIMITS = {"No Limit": "NL", "Pot Limit": "PL", "Limit": "FL", "LIMIT": "FL"}
_STREETS = {"FLOP": Street.FLOP, "TURN": Street.TURN, "RIVER": Street.RIVER, "SHOW DOWN": Street.SHOWDOWN}
#: Windows zone names and abbreviations the skins write after the time
_ZONES = {
    "Eastern": "America/New_York",
    "EDT": "America/New_York",
    "EST": "America/New_York",
    "ET": "America/New_York",
    "GMT": "Europe/London",
    "Pacific": "America/Los_Angeles",
    "PDT": "America/Los_Angeles",
    "PST": "America/Los_Angeles",
    "Central": "America/Chicago",
    "CDT": "America/Chicago",
    "CST": "America/Chicago",
    "Mountain": "America/Denver",
    "UTC": "UTC",
}


class BetOnlineFormat(StartLineFormat):
    name: ClassVar[str] = "betonline"
    priority: ClassVar[int] = 50
    description: ClassVar[str] = "BetOnline / Chico network (PayNoRake, ActionPoker, Gear Poker) text"
    start: ClassVar[re.Pattern[str]] = _START

    def sniff(self, head: str) -> bool:
        """A hand's start line, after the MTT notice some exports open with."""
        text = head.lstrip("\ufeff\r\n ")
        if text.startswith(_ANNOUNCE):
            text = text[len(_ANNOUNCE) :].lstrip("\r\n ")
        return _START.match(text) is not None

    def is_start(self, line: str) -> bool:
        return _START.match(line) is not None or line.strip() == _ANNOUNCE

    def parse_block(self, block: Block, source_file: str) -> Hand | None:
        if block.lines[0].strip() == _ANNOUNCE:
            return None  # the lobby's notice, not a hand
        return _parse(block, source_file)


def _started_at(text: str) -> tuple[str, ZoneInfo | None]:
    """Split '2012/04/11 01:59:39 GMT Daylight Time' into the time and its zone (None if unknown)."""
    m = re.match(r"^(\d{4}[/-]\d\d[/-]\d\d \d\d?:\d\d(?::\d\d)?)\s*(.*)$", text)
    if m is None:
        raise ParseError(f"unreadable time {text!r}", 1)
    stamp, zone = m.group(1).replace("-", "/"), m.group(2).strip()
    if stamp.count(":") == 1:
        stamp += ":00"
    key = zone.split(" ")[0] if zone else ""
    return stamp, ZoneInfo(_ZONES[key]) if key in _ZONES else None


def _parse(block: Block, source_file: str) -> Hand:
    lines = [line.rstrip() for line in block.lines if line.strip()]
    m = _HEADER.match(lines[0])
    if m is None:
        raise ParseError(f"unrecognised header {lines[0]!r}", 1)
    if m["game"] not in _GAMES:
        raise ParseError(f"unsupported variant: {m['game']}", 1)
    hand = new_hand(
        site=_SKINS[m["skin"]], hand_no=m["no"], fmt="betonline", source_file=source_file,
        offset=block.offset, length=block.length,
    )
    # the older skins write no structure; they dealt only no-limit ring games (fpdb's reading too)
    hand.betting = _LIMITS[m["limit"]] if m["limit"] else "NL"
    stamp, zone = _started_at(m["when"])
    hand.started_at = to_utc(stamp, "%Y/%m/%d %H:%M:%S", zone) if zone is not None else None
    if len(lines) < 2:
        raise ParseError("truncated hand: no table line")
    t = _TABLE_QUOTED.match(lines[1]) or _TABLE_BARE.match(lines[1])
    if t is None:
        raise ParseError(f"unreadable table line: {lines[1]!r}", 2)
    hand.table_name = t["name"]
    hand.button_seat = int(t["btn"]) if t["btn"] else None
    if "max" in t.groupdict() and t["max"]:
        hand.max_seats = int(t["max"])
    play = t.groupdict().get("money") == "Play"
    hand.currency = "PLAY" if play else ("EUR" if m["cur"] == "€" else "USD")
    if m["tid"]:  # chips written to the cent ("4941.25 in chips", "$40.00/$80.00"): kept in hundredths
        hand.game_type, hand.tournament_id, hand.currency = "tournament", m["tid"], "CHIPS"
    money = Money(hand.unit_scale)
    if m["sb"] and not m["tid"]:  # an MTT header keeps its first level's stakes: the blinds come from the posts
        hand.sb, hand.bb = money(m["sb"]), money(m["bb"])

    i = 2
    while i < len(lines) and (s := _SEAT.match(lines[i])) is not None:
        out = (s["note"] or "").startswith("Sitting out")
        hand.seats.append(Seat(int(s["seat"]), s["name"], money(s["cash"]), out))
        i += 1
    if not hand.seats:
        raise ParseError("no seats", i + 1)
    b = HandBuilder(hand)
    names = sorted((seat.player for seat in hand.seats), key=len, reverse=True)
    totals: list[tuple[int, int | None]] = []
    uncalled_written = False
    in_summary = False
    board_seen = False
    max_cards = 0
    for n in range(i, len(lines)):
        line = lines[n]
        try:
            if (lt := _LEFT.match(line)) is not None and not in_summary:
                _left(lt["name"], b)
                continue
            if _CHAT.match(line) or _NOTICE.match(line) or line.startswith(_JOINED):
                continue  # chat and seat notices, anywhere in the hand (even the summary)
            if in_summary and not line.startswith(tuple(n + " shows " for n in names)):
                if (tm := _TOTAL.match(line)) is not None:
                    if not board_seen:  # 2011 exports repeat the summary's Total/Board pair
                        totals.append(_total(tm, money))
                else:
                    board_seen = board_seen or line.startswith("Board")
                    max_cards = max(max_cards, _summary_line(line, b, money))
                continue
            st = _STREET.match(line)
            if st is not None:
                if st["street"] == "SUMMARY":
                    in_summary = True
                elif st["street"] in _STREETS:
                    b.new_street(_STREETS[st["street"]])
                    if st["cards"].strip():
                        b.board(1, "".join(cards(g) for g in _BRACKETS.findall(st["cards"])))
                continue
            if (d := _DEALT.match(line)) is not None:
                hand.hero = d["name"]
                if d["cards"].strip():
                    dealt = cards(d["cards"])
                    max_cards = max(max_cards, len(dealt) // 2)
                    b.hole(d["name"], dealt, Provenance.DEALT)
                continue
            if (u := _UNCALLED.match(line)) is not None:
                b.uncalled(u["name"], money(u["amt"]))
                uncalled_written = True
                continue
            if (tm := _TOTAL.match(line)) is not None:
                if line != lines[n - 1]:  # a side pot's own total, before the summary (2011: written twice)
                    totals.append(_total(tm, money))
                continue
            player, rest = _split(line, names)
            if player is None:
                if ": " in line:
                    raise ParseError(f"action by a player not in the seat list: {line.split(': ', 1)[0]!r}")
                raise ParseError(f"unrecognised line {line!r}")
            if rest.startswith(" shows "):
                shown = cards(rest[7:])
                max_cards = max(max_cards, len(shown) // 2)
                b.show(player, shown)
            elif rest.startswith(": "):
                _action(player, rest[2:].strip().rstrip("."), b, money)
            else:
                raise ParseError(f"unrecognised line {line!r}")
        except ParseError as exc:
            raise ParseError(exc.reason, n + 1) from None
    if not in_summary:
        raise ParseError("truncated hand: no *** SUMMARY *** section")
    if not totals:
        raise ParseError("truncated hand: no 'Total pot' line")
    if not hand.awards:
        raise ParseError("truncated hand: no winner written")
    hand.variant = _variant(m["game"], max_cards)
    rakes = {r for _, r in totals if r is not None}
    if len(rakes) <= 1:
        hand.site_rake = rakes.pop() if rakes else None
        hand.site_total_pot = sum(p for p, _ in totals) + (hand.site_rake or 0)
    # else: pots written with different "whole hand" rakes (2012 PLO export): the site's totals
    # contradict themselves, so none is kept and reconciliation judges the awards alone
    if not hand.sb or not hand.bb:
        _blinds_from_posts(hand)
    finished = b.finish()
    if not uncalled_written:
        _derive_uncalled(finished)
    return finished


def _total(m: re.Match[str], money: Money) -> tuple[int, int | None]:
    return money(m["pot"]), money(m["rake"]) if m["rake"] else None


def _split(line: str, names: list[str]) -> tuple[str | None, str]:
    """The seated player a line starts with (longest name first), and the rest of the line."""
    for name in names:
        if line.startswith(name) and line[len(name) : len(name) + 1] in (":", " "):
            return name, line[len(name) :]
    return None, line


def _variant(game: str, max_cards: int) -> str:
    """'Hold'em Pot Limit' heads the site's PLO too: four hole cards make it Omaha."""
    if game == "Hold'em" and max_cards == 4:
        return "omaha"
    if game.startswith("Omaha") and max_cards == 2:
        raise ParseError(f"{game} header with two-card hands")
    return _GAMES[game]


def _left(player: str, b: HandBuilder) -> None:
    """'X has left the table' during the betting: X's hand is folded there, unless X already folded
    or was never in the hand (no seat, or sitting out with nothing put in)."""
    seat = next((s for s in b.hand.seats if s.player == player), None)
    acted = [a for a in b.hand.actions if a.player == player]
    if seat is None or any(a.kind is Kind.FOLD for a in acted) or (seat.sitting_out and not acted):
        return
    b.fold(player)
    b.hand.actions[-1] = b.hand.actions[-1]._replace(left_table=True)  # the site's fold, not a decision


def _action(player: str, rest: str, b: HandBuilder, money: Money) -> None:
    low = rest.lower()
    verb, _, tail = low.partition(" ")
    if low in ("folds", "fold"):
        b.fold(player)
    elif low in ("checks", "check"):
        b.check(player)
    elif low.startswith("posts small blind "):
        b.post(player, Kind.POST_SB, money(rest[18:]))
    elif low.startswith("posts big blind "):
        b.post(player, Kind.POST_BB, money(rest[16:]))
    elif low.startswith(("post now ", "posts now ")):
        b.post(player, Kind.POST_BB, money(rest.rsplit(" ", 1)[1]))
    elif low.startswith(("post dead ", "posts dead ")):
        # both blinds: the written big blind is live, the small blind goes in dead. "post dead
        # 0.00" (a player who missed only the small blind) posts no live blind: the raise-to that
        # follows adds its whole amount and the site's total holds just the dead small blind
        live = money(rest.rsplit(" ", 1)[1])
        if live:
            b.post(player, Kind.POST_BB, live)
        if not b.hand.sb:
            raise ParseError("dead small blind posted with no stakes in the header")
        b.post(player, Kind.POST_DEAD, b.hand.sb)
    elif low.startswith("ante processed "):
        ante = money(rest[15:])
        if ante:
            b.hand.ante = b.hand.ante or ante
            b.post(player, Kind.POST_ANTE, ante)
    elif verb in ("calls", "bets", "raises"):
        a = _AMOUNT.match(tail.strip())
        if a is None:
            raise ParseError(f"unrecognised action {rest!r}")
        amount, all_in = money(a["amt"]), a["allin"] is not None
        if verb == "calls":
            b.call(player, amount, all_in)
        elif verb == "bets":
            b.bet(player, amount, all_in)
        elif a["to"] is not None:  # "raises 3.25 to 3.50": 3.25 added to reach 3.50
            to = money(a["to"])
            if to - b.committed(player) != amount:
                raise ParseError(f"raise adds {amount} but {player} goes from {b.committed(player)} to {to}")
            b.raise_to(player, amount, to, all_in)
        else:  # "Raises 1000.00 and is All In": the chips added
            b.raise_by(player, amount, all_in)
    else:
        raise ParseError(f"unrecognised action {rest!r}")


def _summary_line(line: str, b: HandBuilder, money: Money) -> int:
    """Awards and shown cards from one summary line; returns the hole-card count it showed."""
    if line.startswith("Board"):
        found = _BRACKETS.findall(line)
        if found and found[0].strip():
            b.board(1, cards(found[0]))
        return 0
    s = _SUMMARY_SEAT.match(line)
    if s is None:
        raise ParseError(f"unrecognised summary line {line!r}")
    by_seat = {seat.seat_no: seat.player for seat in b.hand.seats}
    player = by_seat.get(int(s["seat"]))
    if player is None:
        raise ParseError(f"summary for an empty seat: {line!r}")
    shown = 0
    sh = _SHOWED.search(line)
    if sh is not None:
        text = cards(sh["cards"])
        # two or four cards are the hole cards; the old skins write the best five instead
        if len(text) in (4, 8):
            b.hole(player, text, Provenance.SHOWN)
            shown = len(text) // 2
    w = _WON.search(line)
    if w is not None and (amount := money(w["amt"])):
        b.award(player, amount)
    return shown


def _blinds_from_posts(hand: Hand) -> None:
    """ActionPoker / Gear headers carry no stakes: take them from the blinds actually posted."""
    for a in hand.actions:
        if a.kind is Kind.POST_SB and not hand.sb:
            hand.sb = a.amount or 0
        elif a.kind is Kind.POST_BB and not hand.bb:
            hand.bb = a.amount or 0


def _derive_uncalled(hand: Hand) -> None:
    """Return the unmatched part of the last street's top bet when the site wrote no return.

    The old skins (and some BetOnline exports) omit the "Uncalled bet" line. By the rules the
    excess of the top street total over the next one goes back to its owner; it is added unless
    the site's own total pot says those chips stayed in (total > Σ put in − excess), in which
    case the hand is left as written and reconciliation reports it.
    """
    last = max((a.street for a in hand.actions if a.contribution > 0), key=_street_order, default=None)
    if last is None:
        return
    street_in: dict[str, int] = {}
    for a in hand.actions:
        if a.street == last and a.kind not in (Kind.POST_DEAD, Kind.POST_ANTE, Kind.POST_BB_ANTE):
            street_in[a.player] = street_in.get(a.player, 0) + a.contribution
    ranked = sorted(street_in.items(), key=lambda kv: kv[1], reverse=True)
    top_player, top = ranked[0]
    excess = top - (ranked[1][1] if len(ranked) > 1 else 0)
    put_in = sum(a.contribution for a in hand.actions)
    if excess <= 0 or (hand.site_total_pot is not None and hand.site_total_pot > put_in - excess):
        return
    at = max(i for i, a in enumerate(hand.actions) if a.street == last) + 1
    ret = Action(at, last, top_player, Kind.UNCALLED_RETURN, excess, None, False, -excess)
    hand.actions[at:] = [ret, *(a._replace(seq=a.seq + 1) for a in hand.actions[at:])]


_ORDER = {Street.PREFLOP: 0, Street.FLOP: 1, Street.TURN: 2, Street.RIVER: 3, Street.SHOWDOWN: 4}


def _street_order(street: Street) -> int:
    return _ORDER[street]


FORMAT = BetOnlineFormat()
