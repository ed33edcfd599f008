"""PokerTracker re-exports: hands of iPoker, Merge, Everest and MicroGaming rewritten by PokerTracker.

Why its own module: PokerTracker writes other networks' hands in its own text dialects (a
PokerStars-like one with "Player: Raise (NF) $x" lines, an Everest one with "raises to", and a
MicroGaming one with "posted the big blind - €x" and "at end €y" stacks). The hands keep their
network's number, so ``hand_id`` is "<network>:<no>" and a copy of a hand the network's own parser
also read is found as a duplicate. Traps, each checked in the tests against the file's own totals:

* a raise amount is the street total in some exports and the chips *added* in others (even when
  the line says "raised to"): every hand is read both ways and the reading under which every
  written call brings the caller level with the bet wins (the calls are the site's cross-check);
* "wins" sometimes includes an uncalled bet handed back and sometimes not: a return is derived
  only when the written "Total pot + Rake" (or the awards plus the written "Rake:") equals what
  was put in *less* the unmatched excess; when it equals what was put in, the award includes it;
* "Total pot X Rake Y" writes the pot after rake, so the site's total is X + Y;
* "Post DB x" above the big blind is the big blind live plus the rest dead; at or below it, live;
  Everest's "posts the dead blind of x" below the big blind is dead (its live part is a separate
  "posts" line), at the big blind live.
Times are UTC only when the header says GMT (or EST, a fixed zone); otherwise None.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import ClassVar, NamedTuple

from parsers.base import TextHandFormat
from parsers.formats._stakes import fixed_limit_blinds
from parsers.formats._stars_like import HandBuilder, Money, new_hand
from parsers.model import POSTS, Hand, Kind, ParseError, Provenance, Seat, Street
from parsers.reading import Block

_START = re.compile(
    r"^\ufeff?(?:GAME #\d+(?::| Version:| Texas| Omaha)|MERGE_GAME #\d+[-:\d]*: |Merge Game #\d+-\d+ \| "
    r"|EverestPoker Game #\d+: |\*\* Game ID \d+ (?:Version:\d+ )?starting - |\*\* Hand # \d+ starting - )"
)
_NETWORK = (
    (re.compile(r"^\ufeff?GAME #(?P<no>\d+)"), "ipoker"),
    (re.compile(r"^\ufeff?MERGE_GAME #(?P<no>[\d-]+)"), "merge"),
    (re.compile(r"^\ufeff?Merge Game #(?P<no>[\d-]+)"), "merge"),
    (re.compile(r"^\ufeff?EverestPoker Game #(?P<no>\d+)"), "everest"),
    (re.compile(r"^\ufeff?\*\* Game ID (?P<no>\d+)"), "microgaming"),
    (re.compile(r"^\ufeff?\*\* Hand # (?P<no>\d+)"), "microgaming"),
)
_STAKES = re.compile(r"[($]?(?P<cur>[$€£])?(?P<sb>\d[\d,]*(?:\.\d+)?)\s*[/|]\s*[$€£]?(?P<bb>\d[\d,]*(?:\.\d+)?)")
_LIMIT = re.compile(r"\b(NL|PL|FL|No Limit|Pot Limit|Fixed Limit|Limit)\b")
_LIMITS = {"NL": "NL", "No Limit": "NL", "PL": "PL", "Pot Limit": "PL", "FL": "FL", "Fixed Limit": "FL",
           "Limit": "FL"}
_ISO = re.compile(r"(\d{4})[-/](\d{2})[-/](\d{2}) (\d{2}:\d{2}:\d{2})(/GMT)?")
_US = re.compile(r"(\d{2})/(\d{2})/(\d{4}) (\d{2}:\d{2}:\d{2})( EST)?")
_CUR = re.compile(r"[$€£]")
#: tournament ids: Everest "Tourney ID: 49630157", Merge/iPoker "(Tournament: $2 Bounty Turbo, 42862423 Buy-In:",
#: MicroGaming "** Rebuy (16,000 Guaranteed)(10124058):Table 11 [...] (100|200 NL - MTT seats:9 )", iPoker
#: "Table Event#197 10.000€ Master PKO, 705016870, 703707441 (Tournament: ..." (the first number, as Merge's)
_TOURNEY = re.compile(
    r"Tourney ID: (?P<t1>\d+)|\(Tournament: .*?, (?P<t2>\d+) Buy-In:|\((?P<t3>\d+)\):Table .*? - (?:MTT|SNG|STT)\b"
    r"|^GAME #\d+ .*? Tournament .*? Table .*?, (?P<t4>\d+), \d+ \(Tournament: "
)
_DATES = re.compile(r"\b\d{1,4}/\d\d/\d{2,4}\b")
_CURRENCIES = {"$": "USD", "€": "EUR", "£": "GBP"}

_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<cash>[$€£]?[\d,.]+)(?: in chips)?\)(?P<rest>.*)$")
_MG_SEAT = re.compile(
    r"^(?:- )?(?P<name>.+?) sitting in seat (?P<seat>\d+) with (?P<cash>[$€£]?[\d,.]+)"
    r"(?: at end (?P<end>[$€£]?[\d,.]+))?\s*(?P<dealer>\[Dealer\])?\s*(?P<out>\[Sitting out\])?\s*$"
)
_BUTTON = re.compile(r"^The button is in seat #(?P<seat>\d+)$")
_STREET = re.compile(r"^\*\*\* (?P<street>HOLE CARDS|FLOP|TURN|RIVER|SUMMARY) \*\*\*\s*(?:\[(?P<cards>[^\]]*)\])?")
_MG_DEAL = re.compile(
    r"^\*\* Dealing (?:(?P<street>the flop|the turn|the river)|cards? to (?P<name>.+?)): ?(?P<cards>.*)$"
)
_DEALT = re.compile(r"^Dealt to (?P<name>.+?) \[(?P<cards>[^\]]*)\]")
_TOTAL = re.compile(r"^Total pot (?P<pot>[$€£]?[\d,.]+) Rake (?P<rake>[$€£]?[\d,.]+)")
_MG_RAKE = re.compile(r"^Rake: (?P<rake>[$€£]?[\d,.]+)")
_AMT = r"(?P<amt>[$€£]?[\d,.]+)"
_COLON = re.compile(r"^(?P<name>.+?): (?P<verb>Post Ante|Post SB|Post BB Allin|Post BB|Post DB|SB|BB|Fold|Check|"
                    r"Call|Bet|Raise \(NF\)|Raise to|Raise|Allin)(?: " + _AMT + r")?\s*$")
_COLON_WINS = re.compile(r"^(?P<name>.+?): wins " + _AMT + r"(?P<uncalled> \(uncalled\))?\s*$")
_COLON_SHOW = re.compile(r"^(?P<name>.+?): (?P<verb>Shows|Mucks) \[(?P<cards>[^\]]*)\]")
_SPACED = re.compile(
    r"^(?P<name>.+?) (?P<verb>folds|checks|calls|bets|raises to|posts the ante of|posts the small blind of"
    r"|posts the big blind of|posted ante -"
    r"|posts the dead blind of|posts|called -|bet -|raised -|raised to|went all-in -|checked|folded"
    r"|posted the small blind -|posted the big blind -|posted to play -)(?: " + _AMT
    + r")?(?P<allin> and is all-in)?\s*$"
)
_SPACED_SHOW = re.compile(r"^(?P<name>.+?) (?P<verb>shows:|mucks:|shows|mucked)\s*\[?(?P<cards>[^\]]*)\]?\s*$")
_COLLECTS = re.compile(
    r"^(?P<name>.+?) (?:collects|wins) " + _AMT + r"(?: from (?:the main pot|side pot (?P<side>\d+)))?\s*$"
)
_RETURNED = re.compile(r"^Uncalled bet of " + _AMT + r" returned to (?P<name>.+)$")
_QUIET = re.compile(r"^(?:.+?:\s*|.+? has been disconnected, and is allin|End of game \d+|Server .*|Table .*"
                    r"|\*\* .*|.+? finished in place \d+ and won .*)$")

_VERB = {
    "Post SB": "sb", "SB": "sb", "posts the small blind of": "sb", "posted the small blind -": "sb",
    "posts the ante of": "ante", "Post Ante": "ante", "posted ante -": "ante",
    "Post BB": "bb", "BB": "bb", "Post BB Allin": "bb", "posts the big blind of": "bb",
    "posted the big blind -": "bb", "posts the dead blind of": "dead", "posts": "live",
    "Post DB": "db", "posted to play -": "play",
    "Fold": "fold", "folds": "fold", "folded": "fold", "Check": "check", "checks": "check", "checked": "check",
    "Call": "call", "calls": "call", "called -": "call", "Bet": "bet", "bets": "bet", "bet -": "bet",
    "Raise (NF)": "raise", "Raise to": "raise", "Raise": "raise", "raises to": "raise", "raised -": "raise",
    "raised to": "raise", "Allin": "allin", "went all-in -": "allin",
}
_SUITS = "cdhs"
_CARD_RANK_FIRST = re.compile(r"^(10|[2-9TJQKA])([cdhsCDHS])$")
_CARD_SUIT_FIRST = re.compile(r"^([cdhsCDHS])(10|[2-9TJQKAtjqka])$")
_CARD_OF = re.compile(r"^(10|[2-9TJQKA]) of ([cdhs])$")


class _Event(NamedTuple):
    street: Street
    player: str
    verb: str
    amount: int
    all_in: bool


def _card(token: str) -> str:
    token = token.strip()
    if token in ("X", "??"):
        return "??"
    for pattern, rank_at in ((_CARD_RANK_FIRST, 1), (_CARD_SUIT_FIRST, 2), (_CARD_OF, 1)):
        m = pattern.match(token)
        if m:
            rank, suit = m.group(rank_at), m.group(3 - rank_at)
            rank = "T" if rank == "10" else rank.upper()
            return rank + suit.lower()
    raise ParseError(f"not a card: {token!r}")


def _cards(text: str) -> str:
    """'[H10 SK]', '[dJ s7]', '[Ks 5s]', 'Qh, 9c' or 'A of c, 6 of d' -> 'ThKs'-style text."""
    if " of " in text:
        tokens = [t.strip() for t in text.split(",") if t.strip()]
    else:
        tokens = [t for t in re.split(r"[,\s]+", text.strip()) if t]
    return "".join(_card(t) for t in tokens)


class PokerTrackerFormat(TextHandFormat):
    name: ClassVar[str] = "pokertracker"
    priority: ClassVar[int] = 45
    description: ClassVar[str] = "PokerTracker re-exports of iPoker, Merge, Everest and MicroGaming hands"

    def sniff(self, head: str) -> bool:
        first = head.lstrip("\ufeff\r\n\t ")
        if _START.match(first) is None:
            return False
        # iPoker's own text (if any parser reads it) never writes PokerTracker's summary lines
        return any(k in head for k in (" in chips)", "sitting in seat", "posts the small blind of"))

    def is_start(self, line: str) -> bool:
        return _START.match(line) is not None

    def parse_block(self, block: Block, source_file: str) -> Hand | None:
        return _parse(block, source_file)


class _Read(NamedTuple):
    hand: Hand
    events: list[_Event]
    boards: str
    hole: list[tuple[str, str, Provenance]]
    shows: list[tuple[str, str, str | None]]  # (player, show|muck, cards)
    awards: list[tuple[str, int, int]]
    returns: list[tuple[str, int]]  # written (inline) returns, by position in events
    total: int | None  # site's total put in (after returns), when written
    rake: int | None
    default_added: bool


def _parse(block: Block, source_file: str) -> Hand:
    lines = [ln.strip() for ln in block.lines]
    head = lines[0].lstrip("\ufeff")
    site, no = "", ""
    for pattern, network in _NETWORK:
        m = pattern.match(head)
        if m:
            site, no = network, m["no"]
            break
    hand = new_hand(site=site, hand_no=no, fmt="pokertracker", source_file=source_file,
                    offset=block.offset, length=block.length)
    second = next((ln for ln in lines[1:] if ln), "")
    header = head + " " + second
    _game(hand, header, "\n".join(lines), site)
    read = _read(hand, lines, site)
    best: Hand | None = None
    best_key: tuple[int, ...] | None = None
    readings = [(True, True), (False, True), (False, False)]
    if not read.default_added:
        readings = [readings[1], readings[0], readings[2]]
    for rank, (raise_added, call_added) in enumerate(readings):
        built, bad = _build(read, raise_added, call_added)
        key = (*_misfits(built, read.total), bad, rank)
        if best_key is None or key < best_key:
            best, best_key = built, key
    assert best is not None
    return best


def _game(hand: Hand, header: str, text: str, site: str) -> None:
    body = header.replace("Hold'em", "Holdem")
    if "Omaha" in body or "PLO" in body:
        hand.variant = "omaha_hilo" if re.search(r"Hi[/-]?Lo|H/L", body) else "omaha"
    elif "Holdem" in body:
        hand.variant = "holdem"
    else:
        raise ParseError(f"unsupported variant: {header.strip()[:60]}")
    limit = _LIMIT.search(body)
    # iPoker's archive writes "Omaha 50/100" with no limit: iPoker deals Omaha cash pot limit only
    hand.betting = _LIMITS[limit.group(1)] if limit else ("PL" if hand.variant.startswith("omaha") else "")
    if not hand.betting:
        raise ParseError("no betting limit in the header")
    cur = _CUR.search(text)
    hand.currency = _CURRENCIES[cur.group(0)] if cur else "USD"
    hand.unit_scale = 100
    tourney = _TOURNEY.search(header)
    if tourney is not None:
        # tournament chips, written with the network's currency sign ("$6,679.00 in chips")
        hand.game_type, hand.tournament_id = "tournament", next(t for t in tourney.groups() if t)
        hand.currency, hand.unit_scale = "CHIPS", 1
    money = Money(hand.unit_scale, "$€£")
    if tourney is None:
        stakes = _STAKES.search(re.sub(r"#\s*[\d-]+", "", body))
    else:  # a tournament header's dates ("11/02/2011") and buy-ins are no stakes
        stakes = _STAKES.search(_DATES.sub("", re.sub(r"#\s*[\d-]+", "", body.split("(Tournament:")[0])))
        if stakes is None:
            return  # Merge and iPoker write none: the blinds as posted (_build)
    if stakes is None:
        raise ParseError("no stakes in the header")
    hand.sb, hand.bb = money(stakes["sb"]), money(stakes["bb"])
    m = _ISO.search(header)
    if m and m.group(5):
        hand.started_at = datetime.strptime(f"{m[1]}-{m[2]}-{m[3]} {m[4]}", "%Y-%m-%d %H:%M:%S")
    u = _US.search(header)
    if u and u.group(5):
        hand.started_at = datetime.strptime(f"{u[3]}-{u[1]}-{u[2]} {u[4]}", "%Y-%m-%d %H:%M:%S") + timedelta(hours=5)
    seats = re.search(r"[Ss]eats[: ](\d+)", header)
    hand.max_seats = int(seats.group(1)) if seats else None


def _read(hand: Hand, lines: list[str], site: str) -> _Read:
    money = Money(hand.unit_scale, "$€£")
    events: list[_Event] = []
    boards = ""
    hole: list[tuple[str, str, Provenance]] = []
    shows: list[tuple[str, str, str | None]] = []
    awards: list[tuple[str, int, int]] = []
    returns: list[tuple[str, int]] = []
    total: int | None = None
    rake: int | None = None
    street = Street.PREFLOP
    summary = False
    ended = False
    second = next((ln for ln in lines[1:] if ln), "")
    table = re.match(r"^Table (?P<t>.+?)(?: \(\d+\), Seats \d+)?$", second)
    if table:
        hand.table_name = table["t"]
    elif site == "everest":
        hand.table_name = lines[0].split("Table ", 1)[-1].split(" - ")[0]
    elif site == "microgaming":
        hand.table_name = second.lstrip("* ").split(" - ")[0]
    for ln in lines[1:]:
        if not ln:
            continue
        if m := _SEAT.match(ln):
            hand.seats.append(Seat(int(m["seat"]), m["name"], money(m["cash"])))
            if "DEALER" in m["rest"]:
                hand.button_seat = int(m["seat"])
            continue
        if m := _MG_SEAT.match(ln):
            end = money(m["end"]) if m["end"] else None
            hand.seats.append(Seat(int(m["seat"]), m["name"], money(m["cash"]), bool(m["out"]), end))
            if m["dealer"]:
                hand.button_seat = int(m["seat"])
            continue
        if m := _BUTTON.match(ln):
            hand.button_seat = int(m["seat"])
            continue
        if m := _STREET.match(ln):
            name = m["street"]
            if name == "SUMMARY":
                summary = True
                ended = True
            elif name != "HOLE CARDS":
                street = {"FLOP": Street.FLOP, "TURN": Street.TURN, "RIVER": Street.RIVER}[name]
                boards = _extend(boards, _cards(m["cards"] or ""))
            continue
        if m := _MG_DEAL.match(ln):
            if m["street"]:
                street = {"the flop": Street.FLOP, "the turn": Street.TURN, "the river": Street.RIVER}[m["street"]]
                boards = _extend(boards, _cards(m["cards"]))
            else:
                hand.hero = m["name"]
                hole.append((m["name"], _cards(m["cards"]), Provenance.DEALT))
            continue
        if m := _DEALT.match(ln):
            hand.hero = m["name"]
            hole.append((m["name"], _cards(m["cards"]), Provenance.DEALT))
            continue
        if m := _TOTAL.match(ln):
            rake = money(m["rake"])
            total = money(m["pot"]) + rake
            continue
        if m := _MG_RAKE.match(ln):
            rake = money(m["rake"])
            ended = True
            continue
        if m := _COLON_WINS.match(ln):
            if m["uncalled"]:
                returns.append((m["name"], money(m["amt"])))
            else:
                awards.append((m["name"], money(m["amt"]), 0))
            ended = True
            continue
        if m := _COLLECTS.match(ln):
            awards.append((m["name"], money(m["amt"]), int(m["side"] or 0)))
            ended = True
            continue
        if m := _RETURNED.match(ln):
            events.append(_Event(street, m["name"], "return", money(m["amt"]), False))
            continue
        if m := _COLON_SHOW.match(ln):
            shows.append((m["name"], "show" if m["verb"] == "Shows" else "muck", m["cards"]))
            continue
        if m := _COLON.match(ln):
            verb = _VERB[m["verb"]]
            amount = money(m["amt"]) if m["amt"] else 0
            events.append(_Event(street, m["name"], verb, amount, "Allin" in m["verb"]))
            continue
        if not summary and (m := _SPACED.match(ln)):
            verb = _VERB[m["verb"]]
            amount = money(m["amt"]) if m["amt"] else 0
            events.append(_Event(street, m["name"], verb, amount, bool(m["allin"]) or verb == "allin"))
            continue
        if m := _SPACED_SHOW.match(ln):
            kind = "show" if m["verb"].startswith("shows") else "muck"
            shows.append((m["name"], kind, m["cards"] or None))
            continue
        if _QUIET.match(ln):
            continue
        raise ParseError(f"unrecognised line: {ln[:80]!r}")
    if not ended:
        raise ParseError("truncated hand: no summary or award written")
    if site == "microgaming" and rake is not None:
        total = sum(a for _, a, _ in awards) + rake
    return _Read(hand, events, boards, hole, shows, awards, returns, total, rake,
                 default_added=site == "microgaming")


def _misfits(hand: Hand, total: int | None) -> tuple[int, int, int]:
    """How badly a reading contradicts the site's own numbers: stacks overdrawn, final stacks
    ("at end") missed, and the written total missed."""
    put_in: dict[str, int] = {}
    for a in hand.actions:
        put_in[a.player] = put_in.get(a.player, 0) + a.contribution
    won: dict[str, int] = {}
    for w in hand.awards:
        won[w.player] = won.get(w.player, 0) + w.amount
    over = sum(put_in.get(s.player, 0) > s.stack for s in hand.seats)
    finals = sum(s.final_stack is not None and s.stack - put_in.get(s.player, 0) + won.get(s.player, 0) != s.final_stack
                 for s in hand.seats)
    off = 0 if total is None else int(sum(put_in.values()) != total)
    return over, finals, off


def _extend(board: str, new: str) -> str:
    """A street line writes either its new cards or the whole board so far."""
    return new if new.startswith(board) and board else board + new


def _build(read: _Read, added: bool, call_added: bool) -> tuple[Hand, int]:
    """Build the hand with raises read as chips added (``added``) or as street totals, and calls
    as chips added (``call_added``) or as the street total called to (MicroGaming's 2011 export).

    Returns the hand and how many written calls fail to bring the caller level with the bet.
    """
    src = read.hand
    hand = new_hand(site=src.site, hand_no=src.site_hand_no, fmt=src.format, source_file=src.source_file,
                    offset=src.byte_offset, length=src.byte_length)
    for slot in ("variant", "betting", "table_name", "sb", "bb", "currency", "unit_scale", "started_at",
                 "max_seats", "button_seat", "hero", "game_type", "tournament_id"):
        setattr(hand, slot, getattr(src, slot))
    hand.seats = list(src.seats)
    seated = {s.player for s in hand.seats}
    b = HandBuilder(hand)
    bad = 0
    for ev in read.events:
        if ev.player not in seated:
            raise ParseError(f"action by a player not in the seat list: {ev.player!r}")
        b.new_street(ev.street)
        p, amt = ev.player, ev.amount
        if ev.verb == "ante":
            hand.ante = hand.ante or amt
            b.post(p, Kind.POST_ANTE, amt, ev.all_in)
        elif ev.verb == "sb":
            b.post(p, Kind.POST_SB, amt, ev.all_in)
        elif ev.verb in ("bb", "live") and not (amt > hand.bb > 0 and not ev.all_in):
            b.post(p, Kind.POST_BB, amt, ev.all_in)
        elif ev.verb in ("db", "bb", "live"):
            # "Post DB", and iPoker's "Post BB $0.15" at $0.05/$0.10 (the poster then checks
            # to the $0.10 bet): above the big blind, the big blind live and the rest dead
            if amt > hand.bb:
                b.post(p, Kind.POST_BB, hand.bb)
                b.post(p, Kind.POST_DEAD, amt - hand.bb)
            else:
                b.post(p, Kind.POST_BB if amt == hand.bb else Kind.POST_SB, amt)
        elif ev.verb == "dead":
            # Everest: "posts the dead blind of $0.50" then "posts $1.00" is the small blind dead
            # and the big blind live (the callers then call $1.00); a lone big-blind-sized "dead
            # blind" is a returning player's live big blind (he checks in turn)
            b.post(p, Kind.POST_DEAD if amt < hand.bb else Kind.POST_BB, amt, ev.all_in)
        elif ev.verb == "play":
            b.post(p, Kind.POST_BB if amt == hand.bb else Kind.POST_DEAD, amt)
        elif ev.verb == "fold":
            b.fold(p)
        elif ev.verb == "check":
            b.check(p)
        elif ev.verb == "call":
            top = b.max_committed_excluding(p)
            if not call_added:
                bad += amt != top and not ev.all_in
                amt = amt - b.committed(p)
            b.call(p, amt, ev.all_in)
            if b.committed(p) != top and not (ev.all_in and b.committed(p) < top):
                bad += 1
        elif ev.verb == "bet":
            b.bet(p, amt, ev.all_in)
        elif ev.verb == "raise":
            if added:
                b.raise_by(p, amt, ev.all_in)
            elif amt <= b.committed(p):
                bad += 1
                b.raise_by(p, amt, ev.all_in)
            else:
                b.raise_to(p, None, amt, ev.all_in)
        elif ev.verb == "allin":
            to, top = b.committed(p) + amt, b.max_committed_excluding(p)
            if to <= top:
                b.call(p, amt, all_in=True)
            elif top == 0:
                b.bet(p, amt, all_in=True)
            else:
                b.raise_by(p, amt, all_in=True)
        elif ev.verb == "return":
            b.uncalled(p, amt)
        else:  # pragma: no cover - every verb above comes from _VERB
            raise ParseError(f"unknown verb {ev.verb}")
    for player, amount in read.returns:
        b.uncalled_on_last_street(player, amount)
    written_return = read.returns or any(e.verb == "return" for e in read.events)
    if read.total is not None and not written_return:
        _derive_return(b, read.total)
    elif not written_return:
        _return_unmatchable(b)
    b.new_street(Street.SHOWDOWN)
    for player, kind, text in read.shows:
        shown = _cards(text) if text else None
        if kind == "show" and shown:
            b.show(player, shown)
        else:
            b.muck(player, shown if shown and "??" not in shown else None)
    for player, cards_text, prov in read.hole:
        b.hole(player, cards_text, prov)
    for player, amount, pot in read.awards:
        b.award(player, amount, pot)
    if read.boards:
        b.board(1, read.boards)
    hand.site_total_pot = read.total
    hand.site_rake = read.rake
    if src.site == "merge" and hand.game_type == "tournament":
        _stacks_before_posts(hand)
    posted_bb = next((a.amount or 0 for a in hand.actions if a.kind is Kind.POST_BB and not a.all_in), 0)
    if hand.betting == "FL" and hand.game_type == "tournament" and hand.sb and posted_bb == hand.sb:
        # Everest's "Table 49630157-0 - 150/300 - Limit Hold'em" are the bet sizes: the big
        # blind posted (150) is the small bet
        fixed_limit_blinds(hand, hand.sb)
    if not hand.bb:  # a tournament header without stakes: the blinds as posted
        hand.sb = next((a.amount or 0 for a in hand.actions if a.kind is Kind.POST_SB), 0)
        hand.bb = next((a.amount or 0 for a in hand.actions if a.kind is Kind.POST_BB), 0)
        if not hand.bb:
            raise ParseError("no stakes in the header and no big blind posted")
    return b.finish(), bad


def _stacks_before_posts(hand: Hand) -> None:
    """PokerTracker's Merge tournament export writes each seat's chips *after* his ante and blind.

    Every next hand of the same tournament in the real file agrees only with this reading (the
    written stack plus the posts, plus the hand's net, is the next written stack plus its posts).
    """
    posted: dict[str, int] = {}
    for a in hand.actions:
        if a.kind in POSTS:
            posted[a.player] = posted.get(a.player, 0) + a.contribution
    hand.seats = [s._replace(stack=s.stack + posted.get(s.player, 0)) for s in hand.seats]


def _derive_return(b: HandBuilder, total: int) -> None:
    """Derive an uncalled excess only when the site's written total says it was handed back."""
    put_in = sum(a.contribution for a in b.hand.actions)
    if put_in == total:
        return
    last = max((a.street for a in b.hand.actions if a.contribution > 0), key=_ORDER.index, default=None)
    if last is None:
        return
    per: dict[str, int] = {}
    for a in b.hand.actions:
        if a.street == last and a.contribution:
            per[a.player] = per.get(a.player, 0) + a.contribution
    ranked = sorted(per.items(), key=lambda kv: kv[1], reverse=True)
    if not ranked:
        return
    top_player, top = ranked[0]
    second = ranked[1][1] if len(ranked) > 1 else 0
    if top > second and put_in - (top - second) == total:
        b.uncalled_on_last_street(top_player, top - second)


def _return_unmatchable(b: HandBuilder) -> None:
    """With no total written, only an excess nobody else's whole stack could match is returned
    (an all-in over every opponent's stack): the rules make it certain, whatever the awards say."""
    put_in: dict[str, int] = {}
    for a in b.hand.actions:
        put_in[a.player] = put_in.get(a.player, 0) + a.contribution
    if not put_in:
        return
    top_player = max(put_in, key=lambda p: put_in[p])
    others = [s.stack for s in b.hand.seats if s.player != top_player and put_in.get(s.player, 0) > 0]
    if not others:
        return
    excess = put_in[top_player] - max(others)
    if excess > 0 and all(put_in.get(s.player, 0) in (0, s.stack) for s in b.hand.seats
                          if s.player != top_player and s.stack == max(others)):
        b.uncalled_on_last_street(top_player, excess)


_ORDER = [Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER, Street.SHOWDOWN]

FORMAT = PokerTrackerFormat()
