"""PokerStars header, table line and time zones: the per-hand facts read before any action.

Why a module of its own: the first two lines of a PokerStars hand carry most of the variety
(cash, tournament, Zoom, Home Game, mixed games, 6+ button blind, capped NL, exports that drop the
ISO code or the ET time) while the action grammar is uniform. Keeping them apart keeps the hot
action loop small.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import NamedTuple
from zoneinfo import ZoneInfo

from parsers.model import ParseError

#: the first line of a hand (or of a tournament summary, which carries no hand)
START_RE = re.compile(
    r"^\s*(?:PokerStars|POKERSTARS) (?:Zoom |ZOOM |Home Game |HOME GAME |Rush )?"
    r"(?:Hand|Game|HAND|GAME|Tournament|TOURNAMENT) #"
)
HEADER_RE = re.compile(
    r"^(?:PokerStars|POKERSTARS) (?:Zoom |ZOOM |Home Game |HOME GAME |Rush )?"
    r"(?:Hand|Game|HAND|GAME) #(\d+):\s*(.*?)\s*$"
)
_CASH_RE = re.compile(r"^(?P<game>[^()]+?)\s*\((?P<stakes>[^()]*)\) - (?P<date>.+)$")
_TOURNEY_RE = re.compile(
    r"^Tournament #(?P<tid>\d+), (?P<buyin>.*?)\s+(?:- )?(?P<game>[^\s$€£-].*?) "
    # converters' re-exports write no level: "Tournament #12305244, $125+$10 - Hold'em No Limit (300/600)"
    r"(?:- (?:Match Round \w+, )?Level (?P<level>\S+) )?\((?P<sb>[^/()\s]+)/(?P<bb>[^/()\s]+)\)"
    r"(?: - (?P<date>.+))?$"
)
_TABLE_RE = re.compile(
    r"^Table '(?P<name>.*)'(?: (?P<max>\d+)-[mM]ax)?(?P<play> \(Play Money\))?"
    r"(?: \([^)]*\))?(?: Seat #(?P<button>\d+) is the button)?"
)
_DATE_RE = re.compile(
    r"(\d{4})/(\d{1,2})/(\d{1,2})\s+(?:-\s+)?(\d{1,2}):(\d{2})(?::(\d{2}))?\s*\(?([A-Z]{2,4})?\)?"
)
_ISO_RE = re.compile(r"\b([A-Z]{3})\s*$")
_BUTTON_BLIND_RE = re.compile(r"Button Blind\W*(?P<bb>\S+) - Ante\W*(?P<ante>\S+)")

#: zones PokerStars writes, as IANA names (abbreviation -> zone); ET is the reference time
ZONES = {
    "ET": "America/New_York",
    "PT": "America/Los_Angeles",
    "MT": "America/Denver",
    "CT": "America/Chicago",
    "AT": "America/Halifax",
    "BRT": "America/Sao_Paulo",
    "ART": "America/Argentina/Buenos_Aires",
    "WET": "Europe/Lisbon",
    "CET": "Europe/Paris",
    "EET": "Europe/Helsinki",
    "MSK": "Europe/Moscow",
    "IST": "Asia/Kolkata",
    "CCT": "Asia/Shanghai",
    "JST": "Asia/Tokyo",
    "AWST": "Australia/Perth",
    "ACST": "Australia/Adelaide",
    "AEST": "Australia/Sydney",
    "NZT": "Pacific/Auckland",
    "UTC": "UTC",
    "GMT": "UTC",
}
_ZONE_CACHE: dict[str, ZoneInfo] = {}

#: PokerStars game names (lower case) of supported flop games -> canonical variant
VARIANTS = {
    "hold'em": "holdem",
    "omaha": "omaha",
    "omaha hi/lo": "omaha_hilo",
    "5 card omaha": "omaha5",
    "5 card omaha hi/lo": "omaha5_hilo",
    "6 card omaha": "omaha6",
    "6 card omaha hi/lo": "omaha6_hilo",
    "courchevel": "courchevel",
    "courchevel hi/lo": "courchevel_hilo",
    "6+ hold'em": "holdem_6plus",
    "split hold'em": "holdem_split",
}
#: hole cards per player, to pad a partly shown hand with "??"
HOLE_COUNT = {
    "holdem": 2,
    "holdem_6plus": 2,
    "holdem_split": 2,
    "omaha": 4,
    "omaha_hilo": 4,
    "omaha5": 5,
    "omaha5_hilo": 5,
    "omaha6": 6,
    "omaha6_hilo": 6,
    "courchevel": 5,
    "courchevel_hilo": 5,
}
#: PokerStars stud and draw game names (lower case) -> canonical variant (issue 12)
GAME_VARIANTS = {
    "7 card stud": "stud",
    "7 card stud hi/lo": "stud_hilo",
    "razz": "razz",
    "5 card stud": "stud5",
    "triple draw 2-7 lowball": "draw27_triple",
    "single draw 2-7 lowball": "draw27_single",
    "5 card draw": "draw5",
    "badugi": "badugi",
    "triple draw a-5 lowball": "drawa5_triple",
}
#: cards a player holds at the end of a stud or draw hand (to pad a partly shown hand with "??")
GAME_CARDS = {"stud": 7, "stud_hilo": 7, "razz": 7, "stud5": 5, "badugi": 4}
_BETTING = ((" no limit", "NL"), (" pot limit", "PL"), (" fixed limit", "FL"), (" limit", "FL"))
_SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "CNY", "₹": "INR"}


class Header(NamedTuple):
    hand_no: str
    variant: str
    betting: str
    game_type: str  # cash | tournament
    currency: str | None  # None: decide from the table line (play money) or symbols
    stakes_sb: str  # amount text as written
    stakes_bb: str
    ante: str | None  # 6+ hold'em header ante
    button_blind: bool
    tournament_id: str | None
    tournament_level: str | None
    started_at: datetime | None
    mix: str | None = None  # the mixed-game rotation ("8-Game", "HORSE"), None outside one


class Table(NamedTuple):
    name: str
    max_seats: int | None
    play_money: bool
    button_seat: int | None  # None only in stud, which has no button


def to_utc(date_text: str) -> datetime | None:
    """The hand's start in naive UTC: the ET time when written, else a known local zone."""
    found = _DATE_RE.findall(date_text)
    if not found:
        return None
    chosen = None
    for item in found:
        if item[6] == "ET":
            chosen = item
            break
    if chosen is None:
        chosen = next((item for item in found if item[6] in ZONES), None)
    if chosen is None:
        return None
    year, month, day, hour, minute, second, zone = chosen
    tz = _ZONE_CACHE.get(zone)
    if tz is None:
        tz = _ZONE_CACHE[zone] = ZoneInfo(ZONES[zone])
    local = datetime(int(year), int(month), int(day), int(hour), int(minute), int(second or 0), tzinfo=tz)
    return local.astimezone(UTC).replace(tzinfo=None)


#: a mixed-game rotation names the hand's own game in brackets: "8-Game (Hold'em Limit)"
_MIXED_RE = re.compile(r"^(?P<mix>.+?)\s*\((?P<game>[^()]+)\)$")


def split_game(game: str) -> tuple[str, str]:
    """'Omaha Hi/Lo Pot Limit' -> ('omaha_hilo', 'PL'); unsupported games raise ParseError.

    A mixed rotation ("8-Game (Hold'em No Limit)", "HORSE (Razz Limit)") is read as the game of
    the hand in brackets (``split_mix`` also names the rotation).
    """
    return split_mix(game)[:2]


def split_mix(game: str) -> tuple[str, str, str | None]:
    """(variant, betting, rotation or None): stud and draw games too (``GAME_VARIANTS``)."""
    mixed = _MIXED_RE.match(game.strip())
    if mixed is not None:
        variant, betting, _ = split_mix(mixed.group("game"))
        return variant, betting, mixed.group("mix")
    low = game.strip().lower()
    for suffix, betting in _BETTING:
        if low.endswith(suffix):
            name = low[: -len(suffix)].strip()
            found = VARIANTS.get(name) or GAME_VARIANTS.get(name)
            if found is None:
                raise ParseError(f"unsupported variant: {game.strip()[: len(name)]}", 1)
            return found, betting, None
    raise ParseError(f"unsupported variant: {game.strip()}", 1)


def parse_header(line: str) -> Header:
    m = HEADER_RE.match(line.strip())
    if m is None:
        raise ParseError(f"not a PokerStars header: {line!r}", 1)
    hand_no, rest = m.group(1), m.group(2)
    if rest.startswith("{"):  # Home Game club name
        rest = rest.partition("}")[2].strip()
    if rest.startswith("Zoom Tournament #"):  # a Zoom tournament's hand: the same header after "Zoom"
        rest = rest[5:]
    if rest.startswith("TOURNAMENT #"):  # PokerTracker 2's re-export: the 2009 header in capitals
        rest = "Tournament #" + rest[12:].replace(" - LEVEL ", " - Level ", 1)
    if rest.startswith("Tournament #"):
        t = _TOURNEY_RE.match(rest)
        if t is None:
            raise ParseError(f"unreadable tournament header: {rest!r}", 1)
        game = t.group("game")
        if len(game) > 4 and game[3] == " " and game[:3].isupper() and game[:3].isalpha():
            game = game[4:]  # the buy-in's ISO code
        variant, betting, mix = split_mix(game)
        return Header(
            hand_no, variant, betting, "tournament", "CHIPS", t.group("sb"), t.group("bb"),
            None, False, t.group("tid"), t.group("level"), to_utc(t.group("date") or ""), mix,
        )
    c = _CASH_RE.match(rest)
    if c is None:
        raise ParseError(f"unreadable header: {rest!r}", 1)
    game, stakes, date = c.group("game"), c.group("stakes"), c.group("date")
    if ", " in stakes:  # mixed games: "Mixed NLH/PLO (Hold'em No Limit, $0.10/$0.25 USD)"
        inner, _, stakes = stakes.rpartition(", ")
        game = f"{game} ({inner})"
    variant, betting, mix = split_mix(game)
    iso = _ISO_RE.search(stakes)
    currency = iso.group(1) if iso else None
    if currency is not None:
        stakes = stakes[: iso.start()] if iso else stakes
    if " Cap" in stakes:
        betting = "CAP"
        stakes = stakes.partition(" - ")[0]
    if currency is None:
        currency = next((code for sym, code in _SYMBOLS.items() if sym in stakes), None)
    bb_match = _BUTTON_BLIND_RE.search(stakes)
    if bb_match is not None:
        return Header(
            hand_no, variant, betting, "cash", currency, "0", bb_match.group("bb"),
            bb_match.group("ante"), True, None, None, to_utc(date), mix,
        )
    sb, slash, bb = stakes.strip().partition("/")
    if not slash:
        raise ParseError(f"unreadable stakes: {stakes!r}", 1)
    return Header(
        hand_no, variant, betting, "cash", currency, sb.strip(), bb.strip(), None, False, None, None,
        to_utc(date), mix,
    )


def parse_table(line: str, buttonless: bool = False) -> Table:
    """The table line; only a stud hand (``buttonless``) may lack "Seat #N is the button"."""
    m = _TABLE_RE.match(line.strip())
    if m is None or (m.group("button") is None and not buttonless):
        raise ParseError(f"unreadable table line: {line.strip()!r}", 2)
    max_seats, button = m.group("max"), m.group("button")
    return Table(
        m.group("name"), int(max_seats) if max_seats else None, m.group("play") is not None,
        int(button) if button else None,
    )
