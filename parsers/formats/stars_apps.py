"""PokerStars-like exports of app and small-network rooms: Run It Once Poker, PokerMaster, PokerBros,
and Full Tilt after its move to the PokerStars software (2016: "Full Tilt Hand #N", "Full Tilt Rush").

Why its own module: these rooms (and HUDs such as elitehud that re-export PokerMaster hands) copy
the PokerStars layout but not its meaning, so the PokerStars parser leaves them alone and this one
sniffs only their own header words. The differences, each checked against the files' totals:

* Run It Once wrote early-2019 re-raises as "raises X to Y" with Y the chips *added* when the
  raiser already had chips in on the street (fpdb calls the sample "raiseTo.bug"; the next call
  and the total pot agree only with that reading). Both readings are tried and the one the
  site's own total confirms is kept; standard "to = street total" otherwise.
* "STP added: €0.50" (Run It Once's splash-the-pot) is money the site adds to the pot.
* Run It Once deals every player's cards into the export ("Dealt to" each seat).
* PokerMaster writes a straddle as a second "posts big blind" and has JSON comment lines.
* Full Tilt 2016 writes Eastern time ("ET") and its play-money tables with no currency sign at
  all ("(5/10)", "684 in chips"; one table adds "(Play Money)"): a Full Tilt cash hand without a
  sign is play money, as in PokerStars' own exports.
"""

from __future__ import annotations

import re
from typing import ClassVar

from parsers.base import StartLineFormat
from parsers.formats._stars_like import EASTERN, UTC, HandBuilder, Money, cards, new_hand, to_utc
from parsers.model import Hand, Kind, ParseError, Pot, Provenance, Seat, Street
from parsers.reading import Block

_ROOMS = {"Run It Once Poker": "runitonce", "PokerMaster": "pokermaster", "PokerBros": "pokerbros",
          "Full Tilt Rush": "fulltilt", "Full Tilt": "fulltilt"}
_ROOM_ALT = "|".join(re.escape(r) for r in _ROOMS)
_START = re.compile(rf"^\ufeff?(?:{_ROOM_ALT}) Hand #\d+: ")
_HEADER = re.compile(
    rf"^\ufeff?(?P<room>{_ROOM_ALT}) Hand #(?P<no>\d+): +(?P<game>Hold'em|Omaha Hi/Lo|Omaha|[^(]+?) "
    r"(?P<limit>No Limit|Pot Limit|Fixed Limit|Limit) \((?P<sym>[$€£¥]?)(?P<sb>[\d.,]+)/[$€£¥]?(?P<bb>[\d.,]+)"
    r"(?: (?P<iso>[A-Z]{3}))?\) - (?P<when>\d{4}/\d\d/\d\d \d\d?:\d\d(?::\d\d)?) (?P<zone>UTC|ET)"
)
#: a tournament hand's game text: the tournament, its buy-in and name, then the game
_TOURNAMENT = re.compile(r"^Tournament #(?P<tid>\d+), .*, (?P<game>[^,]+)$")
_TABLE = re.compile(
    r"^Table (?:ID )?'(?P<name>.*)' (?P<max>\d+)-[Mm]ax (?:\((?P<money>Play|Real) Money\) )?"
    r"(?:Seat #(?P<btn>\d+) is the button)?"
)
_SEAT = re.compile(
    r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<cash>[$€£¥]?[\d.,]+) in chips\)(?P<out> is sitting out)?"
    r"(?P<hero> \[hero\])?$"  # Run It Once tournaments mark the hero's seat
)
_DEALT = re.compile(r"^Dealt to (?P<name>.+?) \[(?P<cards>[^\]]*)\]$")
_STREET = re.compile(r"^\*\*\* (?P<street>HOLE CARDS|FLOP|TURN|RIVER|SHOW ?DOWN|SUMMARY) \*\*\*(?P<cards>.*)$")
_UNCALLED = re.compile(r"^Uncalled bet \((?P<amt>[^)]+)\) returned to (?P<name>.+)$")
_COLLECTED = re.compile(
    r"^(?P<name>.+?) collected (?P<amt>[$€£¥]?[\d.,]+) from (?:(?P<side>side pot)(?: (?P<n>\d+))?|main pot|pot)$"
)
_AMOUNT = re.compile(r"^(?P<amt>[$€£¥]?[\d.,]+)(?: to (?P<to>[$€£¥]?[\d.,]+))?(?P<allin> and is all-in)?$")
_STP = re.compile(r"^STP added: (?P<amt>[$€£¥]?[\d.,]+)$")
_BRACKETS = re.compile(r"\[([^\]]*)\]")
_TOTAL_PART = re.compile(r"^(?P<label>Total pot|Main pot|Side pot(?: \d+)?|STP|Rake) (?P<amt>[$€£¥]?[\d.,]+)$")
_SHOWED = re.compile(r"^Seat \d+: (?P<name>.+?) (?:\([^)]*\) )*(?:showed|mucked) \[(?P<cards>[^\]]*)\]")

_GAMES = {"Hold'em": "holdem", "Omaha": "omaha", "Omaha Hi/Lo": "omaha_hilo"}
_LIMITS = {"No Limit": "NL", "Pot Limit": "PL", "Fixed Limit": "FL", "Limit": "FL"}
_STREETS = {"FLOP": Street.FLOP, "TURN": Street.TURN, "RIVER": Street.RIVER}
_CURRENCY = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "CNY"}
_OMAHA_BY_CARDS = {4: "", 5: "5", 6: "6"}


class StarsAppsFormat(StartLineFormat):
    name: ClassVar[str] = "stars_apps"
    priority: ClassVar[int] = 50
    description: ClassVar[str] = "Run It Once Poker / PokerMaster / PokerBros (PokerStars-like) text"
    start: ClassVar[re.Pattern[str]] = _START

    def parse_block(self, block: Block, source_file: str) -> Hand | None:
        lines = [line.rstrip() for line in block.lines if line.strip()]
        hand = _parse(lines, block, source_file, to_is_added=False)
        if hand.site_total_pot is not None and _put_in(hand) != hand.site_total_pot:
            # early Run It Once re-raises: "to Y" may be the chips added (see module docstring)
            try:
                other = _parse(lines, block, source_file, to_is_added=True)
            except ParseError:
                return hand
            if _put_in(other) == other.site_total_pot:
                return other
        return hand


def _put_in(hand: Hand) -> int:
    return sum(a.contribution for a in hand.actions) + (hand.site_added or 0)


def _parse(lines: list[str], block: Block, source_file: str, *, to_is_added: bool) -> Hand:
    m = _HEADER.match(lines[0])
    if m is None:
        raise ParseError(f"unrecognised header {lines[0]!r}", 1)
    game, tour = m["game"], _TOURNAMENT.match(m["game"])
    if tour is not None:  # "Tournament #122715, €4.69+€0.31 Cub3d, Hold'em No Limit (10/20)": chips
        game = tour["game"]
    if game not in _GAMES:
        raise ParseError(f"unsupported variant: {m['game']}", 1)
    hand = new_hand(
        site=_ROOMS[m["room"]], hand_no=m["no"], fmt="stars_apps", source_file=source_file,
        offset=block.offset, length=block.length,
    )
    hand.betting = _LIMITS[m["limit"]]
    if tour is not None:
        hand.game_type, hand.tournament_id, hand.currency, hand.unit_scale = "tournament", tour["tid"], "CHIPS", 1
    else:
        hand.currency = m["iso"] or _CURRENCY.get(m["sym"], "") or ("PLAY" if m["room"].startswith("Full Tilt") else "")
    if not hand.currency:
        raise ParseError(f"no currency in {lines[0]!r}", 1)
    money = Money(hand.unit_scale)
    hand.sb, hand.bb = money(m["sb"]), money(m["bb"])
    stamp = m["when"] if m["when"].count(":") == 2 else m["when"] + ":00"
    hand.started_at = to_utc(stamp, "%Y/%m/%d %H:%M:%S", EASTERN if m["zone"] == "ET" else UTC)
    if len(lines) < 2 or (t := _TABLE.match(lines[1])) is None:
        raise ParseError("unreadable table line", 2)
    hand.table_name, hand.max_seats = t["name"], int(t["max"])
    hand.button_seat = int(t["btn"]) if t["btn"] else None

    i = 2
    while i < len(lines) and (s := _SEAT.match(lines[i])) is not None:
        hand.seats.append(Seat(int(s["seat"]), s["name"], money(s["cash"]), s["out"] is not None))
        if s["hero"]:
            hand.hero = s["name"]
        i += 1
    if not hand.seats:
        raise ParseError("no seats", i + 1)
    names = sorted((seat.player for seat in hand.seats), key=len, reverse=True)
    b = HandBuilder(hand)
    dealt: dict[str, str] = {}
    in_summary = False
    summary_seen = False
    for n in range(i, len(lines)):
        line = lines[n]
        try:
            if line.startswith("# "):
                continue  # PokerMaster's JSON comment
            st = _STREET.match(line)
            if st is not None:
                if st["street"] == "SUMMARY":
                    in_summary = summary_seen = True
                elif st["street"] in _STREETS:
                    b.new_street(_STREETS[st["street"]])
                    b.board(1, "".join(cards(g) for g in _BRACKETS.findall(st["cards"])))
                elif st["street"] != "HOLE CARDS":
                    b.new_street(Street.SHOWDOWN)
                continue
            if in_summary:
                _summary_line(line, hand, b, money)
                continue
            if (d := _DEALT.match(line)) is not None:
                dealt[d["name"]] = cards(d["cards"])
            elif (x := _STP.match(line)) is not None:
                hand.site_added = (hand.site_added or 0) + money(x["amt"])
            elif (u := _UNCALLED.match(line)) is not None:
                b.uncalled(_known(u["name"], names), money(u["amt"]))
            elif (c := _COLLECTED.match(line)) is not None:
                pot_no = (int(c["n"] or 1)) if c["side"] else 0
                b.award(_known(c["name"], names), money(c["amt"]), pot_no)
            else:
                _player_line(line, names, b, money, to_is_added)
        except ParseError as exc:
            raise ParseError(exc.reason, n + 1) from None
    if not summary_seen:
        raise ParseError("truncated hand: no *** SUMMARY *** section")
    if not hand.awards:
        raise ParseError("truncated hand: no winner written")
    if hand.site_total_pot is None:
        raise ParseError("truncated hand: no 'Total pot' line")
    _hole_cards(hand, b, dealt)
    hand.variant = _variant(game, dealt, b)
    return b.finish()


def _known(name: str, names: list[str]) -> str:
    if name not in names:
        raise ParseError(f"action by a player not in the seat list: {name!r}")
    return name


def _player_line(line: str, names: list[str], b: HandBuilder, money: Money, to_is_added: bool) -> None:
    for name in names:
        if line.startswith(name) and line[len(name) : len(name) + 1] in (":", " "):
            player, rest = name, line[len(name) :].lstrip(":").strip()
            break
    else:
        raise ParseError(f"unrecognised line {line!r}")
    verb, _, tail = rest.partition(" ")
    if rest == "folds":
        b.fold(player)
    elif rest == "checks":
        b.check(player)
    elif rest.startswith("posts small blind "):
        b.post(player, Kind.POST_SB, money(rest[18:]))
    elif rest.startswith("posts big blind "):
        amount = money(rest[16:])
        bb_posted = any(a.kind is Kind.POST_BB for a in b.hand.actions)
        if bb_posted and amount > b.hand.bb:  # PokerMaster's straddle: a second, bigger big blind
            b.hand.straddle = amount
            b.post(player, Kind.POST_STRADDLE, amount)
        else:
            b.post(player, Kind.POST_BB, amount)
    elif rest.startswith(("posts the ante ", "posts ante ")):
        amount = money(rest.rsplit(" ", 1)[1])
        b.hand.ante = b.hand.ante or amount
        b.post(player, Kind.POST_ANTE, amount)
    elif rest.startswith("posts straddle "):
        amount = money(rest[15:])
        b.hand.straddle = amount
        b.post(player, Kind.POST_STRADDLE, amount)
    elif verb in ("calls", "bets", "raises"):
        a = _AMOUNT.match(tail)
        if a is None:
            raise ParseError(f"unrecognised action {rest!r}")
        amount, all_in = money(a["amt"]), a["allin"] is not None
        if verb == "calls":
            b.call(player, amount, all_in)
        elif verb == "bets":
            b.bet(player, amount, all_in)
        elif a["to"] is None:
            raise ParseError(f"raise without a total: {rest!r}")
        elif to_is_added:
            b.raise_to(player, amount, b.committed(player) + money(a["to"]), all_in)
        else:
            b.raise_to(player, amount, money(a["to"]), all_in)
    elif rest.startswith("shows "):
        b.show(player, cards(_BRACKETS.findall(rest)[0]))
    elif rest == "doesn't show hand":
        b.muck(player, None)
    elif rest.startswith("mucks"):
        found = _BRACKETS.findall(rest)
        b.muck(player, cards(found[0]) if found else None)
    else:
        raise ParseError(f"unrecognised action {rest!r}")


def _summary_line(line: str, hand: Hand, b: HandBuilder, money: Money) -> None:
    if line.startswith("Total pot "):
        pots: list[int] = []
        for part in line.split(" | "):
            p = _TOTAL_PART.match(part.strip())
            if p is None:
                raise ParseError(f"unrecognised total {part!r}")
            label, amount = p["label"], money(p["amt"])
            if label == "Total pot":
                hand.site_total_pot = amount
            elif label == "Rake":
                hand.site_rake = amount
            elif label != "STP":
                pots.append(amount)
        if pots:
            # pots are written before rake; the splash goes into the main pot
            pots[0] += hand.site_added or 0
            hand.pots = [Pot(no, amount) for no, amount in enumerate(pots)]
    elif line.startswith("Board "):
        b.board(1, "".join(cards(g) for g in _BRACKETS.findall(line)))
    elif (s := _SHOWED.match(line)) is not None and s["cards"].strip():
        b.hole(s["name"], cards(s["cards"]), Provenance.SHOWN)


def _hole_cards(hand: Hand, b: HandBuilder, dealt: dict[str, str]) -> None:
    """One "Dealt to" line is the file owner's; one per seat is the room's full export."""
    seated = {s.player for s in hand.seats}
    if len(dealt) == 1:
        (hand.hero,) = dealt
    elif "Hero" in dealt:
        hand.hero = "Hero"
    for who, text in dealt.items():
        if who not in seated:
            raise ParseError(f"cards dealt to a player not in the seat list: {who!r}")
        b.hole(who, text, Provenance.DEALT if who == hand.hero else Provenance.OPERATOR)


def _variant(game: str, dealt: dict[str, str], b: HandBuilder) -> str:
    """Omaha with five or six hole cards is its own game; the dealt cards say which."""
    counts = {len(c) // 2 for c in dealt.values() if c} | {
        len(a.cards) // 2 for a in b.hand.actions if a.kind is Kind.SHOW and a.cards
    }
    base = _GAMES[game]
    if not base.startswith("omaha") or not counts:
        return base
    n = max(counts)
    if n not in _OMAHA_BY_CARDS:
        raise ParseError(f"{game} with {n} hole cards")
    return base.replace("omaha", "omaha" + _OMAHA_BY_CARDS[n])


FORMAT = StarsAppsFormat()
