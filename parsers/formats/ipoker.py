"""iPoker XML hand histories (``<session>`` holding ``<game gamecode=...>`` elements).

Why its own parser: iPoker is XML, writes actions grouped by player rather than in order (the
``no`` attribute orders them), mixes amount conventions by action type, and writes per-player
totals (``bet``, ``win``) instead of pots and rake. Decisions, all documented here:

* Streaming: the file is scanned in binary chunks for ``<game ...>`` … ``</game>``; each game is
  decoded (UTF-8, else cp1252) and parsed on its own with ElementTree. So every hand carries its
  exact byte offset and length, memory stays flat, and one malformed or truncated game is
  quarantined while the rest of the file loads (``iterparse`` would stop at the first XML error).
  The session header (game type, table, currency, hero) is read from the text between games.
* Action types (fpdb's table, checked against the per-player ``bet`` totals): 0 fold, 1 small
  blind, 2 big blind (more than the big blind = small + big "post both": live big blind plus dead
  small blind), 3 call (chips added), 4 check, 5 bet, 6 raise written as chips added, 7 all-in
  (chips added; call, bet or raise from the street's bets), 15 ante, 23 raise *to*; 8 (waiting,
  no chips) and 9 (sitting out) mark the seat as sitting out (also after an ante was taken: the
  player is then dealt no cards and never acts).
* Cross-check: for every player, the chips the actions put in must equal the site's own ``bet``
  attribute; otherwise the hand cannot be read exactly and is quarantined with both numbers.
* Awards: one row per player with a non-zero ``win`` (pot 0; iPoker writes no pot breakdown, so
  no ``Pot`` rows). No rake or total pot is written: ``site_rake``/``site_total_pot`` stay None.
* Uncalled bets are never written as such. Older exports pay the unmatched excess back inside
  the bettor's ``win``; newer ones (``<client_version>`` in the session header, or
  ``<uncalled_bet_enabled>true``) return it silently, so ``win`` excludes it. A return row is
  derived when the export is of the newer kind, or when the site's own totals prove it: Σ win ≤
  (everything put in − excess) *and* the bettor's ``win`` is smaller than the excess (it cannot
  contain it). Otherwise (Σ win too large, or an older export whose bettor won at least the
  excess) the excess stays inside ``win`` and no row is written.
* Time: iPoker writes no time zone, so ``started_at`` is None unless ``local_zone`` is set on
  the format (an operator who knows the export's zone); the local time is then converted to UTC.
* Cards are written suit first ("CA", "S10", "X" unknown). The session ``nickname``'s cards are
  ``dealt``; anyone else's known cards were shown (``shown``).
* fpdb's sample files often end right after a ``</round>`` with no ``</game>``: such a game is
  kept only when the site's per-player totals prove its chips complete (see ``_check_unclosed``);
  a game cut anywhere else, or followed by another ``<game`` before its end, is quarantined.
* ``sum="DP"`` on an all-in (disconnect protection): the player stays in for what they have in,
  written as an all-in call of 0.
* Games with no ``win``/``bet`` totals at all (fpdb's "partial format": blinds only, hand never
  finished) and games listing fewer than two players are quarantined.
* 7 Card Stud and Stud Hi-Lo (issue 12): round 0 holds the antes, round 2 third street (type 16 is
  the bring-in; the first bet or raise over it the completion), rounds 3-6 fourth to seventh street;
  each street's ``<cards type="Third Street">X X D5</cards>`` are the player's new cards ("X" face
  down and unseen; third street two down and one up, seventh street down). The hero's cards are
  dealt; an opponent whose every card the export shows was shown.
* "Six Plus Holdem NL €0.25/€0.50" is 6+ hold'em (``holdem_6plus``: 36 cards, small and big blind posted).
* 5 Card Stud (``stud5``): "Second Street" (one down, one up) to "River", all up after the first card;
  its four betting rounds are stored as third to sixth street.
* Draw games are quarantined as unsupported variants; a game whose
  name is missing ("PL €0.50/€1", 5-card PLO in fpdb's files) is named from the hole-card count.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import BinaryIO

from parsers.base import HandFormat, read_guarded
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
    StreetCards,
    game_family,
)
from parsers.money import to_units

_CHUNK = 1 << 20
#: between-game text kept for header parsing (a session header is well under this)
_MAX_BETWEEN = 1 << 20
_START = re.compile(rb"<game[\s>]")
_END = re.compile(rb"</game\s*>")
_TAG = re.compile(r"<(\w+)>([^<]*)</\1>")
_HEADER_NOISE = re.compile(
    r"<\?xml[^>]*\?>|<session\b[^>]*>|</session\s*>|<general>.*?</general>|<!--.*?-->", re.S
)
_GAMETYPE = re.compile(
    r"^(?:(?P<name>.*?)\s+)?(?P<limit>NL|SL|LZ|L|PL|LP|БЛ|No limit|Pot limit|Limit)"
    r"(?:\s+(?P<sb>\D*[\d.,]+)\s*/\s*(?P<bb>\D*[\d.,]+))?(?:\s+Ante\s+\D*[\d.,]+)?\s*$"
)
_LH = re.compile(r"^LH\s+[\d.,]+/[\d.,]+.*?Limit\s+(?P<sb>\D*[\d.,]+)\s*/\s*(?P<bb>\D*[\d.,]+)\s*$")
_BETTING = {"NL": "NL", "SL": "NL", "LZ": "NL", "БЛ": "NL", "No limit": "NL", "PL": "PL", "LP": "PL",
            "Pot limit": "PL", "L": "FL", "Limit": "FL"}
_VARIANTS = {"holdem": "holdem", "omaha": "omaha", "omaha hi-lo": "omaha_hilo"}
_BY_CARDS = {2: "holdem", 4: "omaha", 5: "omaha5", 6: "omaha6"}
_STREETS = {1: Street.PREFLOP, 2: Street.FLOP, 3: Street.TURN, 4: Street.RIVER}
#: 7-card stud: rounds (0 the antes) and card types to streets
_STUD_ROUNDS = {0: Street.THIRD, 1: Street.THIRD, 2: Street.THIRD, 3: Street.FOURTH, 4: Street.FIFTH,
                5: Street.SIXTH, 6: Street.SEVENTH}
_STUD_CARDS = {"Third Street": Street.THIRD, "Fourth Street": Street.FOURTH, "Fifth Street": Street.FIFTH,
               "Sixth Street": Street.SIXTH, "River": Street.SEVENTH}
_STUD_GAMES = {"7 card stud": "stud", "7 card stud hi-lo": "stud_hilo", "5 card stud": "stud5"}
#: 5 card stud's cards: one down and one up on second street, then one up a street (the model keeps
#: its four betting rounds as third..sixth street: the bring-in round is third street in every stud)
_STUD5_CARDS = {"Second Street": Street.THIRD, "Third Street": Street.FOURTH, "Fourth Street": Street.FIFTH,
                "River": Street.SIXTH}
_CURRENCY_SIGNS = {"$": "USD", "€": "EUR", "£": "GBP", "RSD": "RSD"}
_MONTHS = {m: i for i, m in enumerate(
    ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), start=1)}
_DATE_FORMATS = ("%Y-%m-%d %H:%M:%S", "%Y/%m/%d %H:%M:%S", "%d.%m.%Y %H:%M:%S", "%d/%m/%Y %H:%M:%S",
                 "%d-%m-%Y %H:%M:%S", "%Y-%m-%d %H:%M", "%d/%m/%Y %H:%M")
_STUD_LIMIT = re.compile(r"\s+(?:L|PL|NL)\b.*$")
_SITTING = frozenset({"8", "9"})


@dataclass(slots=True)
class _Session:
    """What the ``<session><general>`` header says about the games that follow it."""

    gametype: str = ""
    table: str = ""
    currency: str = ""
    mode: str = "real"
    hero: str | None = None
    tournament_id: str | None = None
    new_export: bool = False


def _segments(fh: BinaryIO) -> Iterator[tuple[str, int, bytes]]:
    """Yield ("game" | "cut" | "between", offset, bytes) pieces of the file, streaming.

    "cut" is a ``<game`` with no ``</game>`` before the next ``<game``; "eof" one whose file ends
    before its ``</game>``.
    """
    buf = b""
    base = 0
    eof = False

    def fill() -> bool:
        nonlocal buf, eof
        data = fh.read(_CHUNK)
        if not data:
            eof = True
            return False
        buf += data
        return True

    while True:
        m = _START.search(buf)
        while m is None and not eof:
            if len(buf) > _MAX_BETWEEN:  # long stretch without a game: hand it on, keep a tail
                keep = len(buf) - 16
                yield "between", base, buf[:keep]
                buf, base = buf[keep:], base + keep
            fill()
            m = _START.search(buf)
        if m is None:
            if buf:
                yield "between", base, buf
            return
        if m.start():
            yield "between", base, buf[: m.start()]
        buf, base = buf[m.start():], base + m.start()
        end = _END.search(buf, 5)
        while end is None and fill():
            end = _END.search(buf, 5)
        limit = end.start() if end is not None else len(buf)
        nxt = _START.search(buf, 5, limit)
        if nxt is not None:
            yield "cut", base, buf[: nxt.start()]
            buf, base = buf[nxt.start():], base + nxt.start()
            continue
        if end is None:
            yield "eof", base, buf
            return
        yield "game", base, buf[: end.end()]
        buf, base = buf[end.end():], base + end.end()


def _decode(raw: bytes) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("cp1252", errors="replace")
    return text.lstrip("\ufeff")


def _read_session(text: str, session: _Session) -> _Session:
    """Update the running session context from header text (a new ``<session`` resets it)."""
    if "<session" in text:
        session = _Session()
    tags = dict(_TAG.findall(text))
    if "gametype" in tags:
        session.gametype = tags["gametype"].strip()
    if "tablename" in tags:
        session.table = tags["tablename"].strip()
    currency = tags.get("tablecurrency", "").strip() or tags.get("currency", "").strip()
    if currency:
        session.currency = currency
    if "mode" in tags:
        session.mode = tags["mode"].strip()
    nick = tags.get("nickname", "").strip()
    if nick:
        session.hero = None if nick == "N/A" else nick
    code = tags.get("tournamentcode", "").strip() or tags.get("tourcode", "").strip()
    if code:
        session.tournament_id = code
    elif "tournamentname" in tags and session.table:
        tail = session.table.rsplit(",", 1)[-1].strip().split(" ")[0]
        session.tournament_id = tail if tail.isdigit() else session.table
    if "client_version" in tags or tags.get("uncalled_bet_enabled", "").strip() == "true":
        session.new_export = True
    return session


class IPokerFormat(HandFormat):
    name = "ipoker"
    #: the sniff needs both ``<session`` and ``<game gamecode=``, which no other format writes
    priority = 60
    description = "iPoker network XML hand histories"
    #: the zone the export's local times are in, when an operator knows it (iPoker writes none)
    local_zone: tzinfo | None = None

    def sniff(self, head: str) -> bool:
        return "<session" in head and "<game gamecode=" in head

    def parse(self, path: Path) -> Iterator[Hand | Quarantined]:
        source = str(path)
        session = _Session()
        try:
            with path.open("rb") as fh:
                for kind, offset, raw in _segments(fh):
                    text = _decode(raw)
                    if kind == "between":
                        session = _read_session(text, session)
                        if _HEADER_NOISE.sub("", text).strip():
                            yield Quarantined(source, offset, text, "text outside any game", self.name)
                    elif kind == "cut":
                        yield Quarantined(source, offset, text, "truncated game: no </game>", self.name)
                    elif kind == "eof" and not text.rstrip().endswith("</round>"):
                        yield Quarantined(source, offset, text, "truncated game: file ends inside it",
                                          self.name)
                    else:
                        yield self._guarded(text, session, source, offset, len(raw), unclosed=kind == "eof")
        except OSError as exc:
            yield Quarantined(source, 0, "", f"unreadable file: {exc}", self.name)

    def _guarded(self, text: str, session: _Session, source: str, offset: int, length: int,
                 *, unclosed: bool = False) -> Hand | Quarantined:
        return read_guarded(source, offset, text, self.name, self._read, text, session, source, offset, length,
                            unclosed, named=((ET.ParseError, "malformed XML: "),))

    def _read(self, text: str, session: _Session, source: str, offset: int, length: int, unclosed: bool) -> Hand:
        """One game; a game the file ends inside is closed and kept only when it is complete."""
        if not unclosed:
            return self.parse_game(text, session, source, offset, length)
        hand = self.parse_game(text + "</game>", session, source, offset, length)
        _check_unclosed(hand, session)
        return hand

    def parse_game(self, text: str, session: _Session, source: str, offset: int, length: int) -> Hand:
        """One ``<game>`` element, read against its session header."""
        game = ET.fromstring(text)
        hand_no = (game.get("gamecode") or "").strip()
        if not hand_no:
            raise ParseError("game without gamecode")
        variant, betting, sb_text, bb_text = _game_type(session.gametype, game)
        tournament = session.tournament_id is not None or sb_text is None
        if tournament:
            currency, scale = "CHIPS", 1
        elif session.mode != "real":
            currency, scale = "PLAY", 100
        else:
            currency, scale = _currency(session.currency, sb_text or ""), 100
        general = game.find("general")
        if general is None:
            raise ParseError("game without <general>")
        hand = Hand(
            hand_id=f"ipoker:{hand_no}", site="ipoker", site_hand_no=hand_no, format=self.name,
            variant=variant, betting=betting, game_type="tournament" if tournament else "cash",
            table_name=session.table, sb=0, bb=0, currency=currency, unit_scale=scale,
            source_file=source, byte_offset=offset, byte_length=length,
            started_at=self._started(general.findtext("startdate")),
            tournament_id=session.tournament_id if tournament else None,
        )
        if sb_text is not None and bb_text is not None:
            hand.sb, hand.bb = _money(sb_text, scale), _money(bb_text, scale)
            if game_family(variant) == "stud":  # the bets; no blinds (bb is the small bet, as in FL)
                hand.small_bet, hand.big_bet = hand.sb, hand.bb
                hand.sb, hand.bb = 0, hand.small_bet
            elif betting == "FL" and not session.gametype.startswith("LH"):
                # "Holdem L $5/$10" names the bets: the big blind is the small bet, the small
                # blind is read from its post (not always half: $0.02/$0.05 on $0.05/$0.10)
                hand.sb, hand.bb = 0, _money(sb_text, scale)
        _read_game(hand, game, general, session, scale)
        return hand

    def _started(self, text: str | None) -> datetime | None:
        if self.local_zone is None or not text:
            return None
        local = _parse_date(text.strip())
        if local is None:
            return None
        return local.replace(tzinfo=self.local_zone).astimezone(UTC).replace(tzinfo=None)


def _check_unclosed(hand: Hand, session: _Session) -> None:
    """A game the file ends in (after a whole ``</round>``) is kept only when provably complete.

    The site writes each player's ``bet`` and ``win`` totals before the rounds, so when every
    player's replayed chips match those totals (older exports, where ``bet`` is trustworthy; the
    check already ran in ``_read_game``) nothing that moves chips is missing; a showdown also
    needs the whole board.
    """
    if session.new_export:
        raise ParseError("truncated game: file ends before </game> (newer export: totals unverifiable)")
    folded = {a.player for a in hand.actions if a.kind is Kind.FOLD}
    live = {s.player for s in hand.seats if not s.sitting_out} - folded
    board = len(hand.boards[0].cards) // 2 if hand.boards else 0
    if len(live) > 1 and board < 5:
        raise ParseError(f"truncated game: file ends before </game> with {len(live)} players in and"
                         f" {board} board cards")


def _parse_date(text: str) -> datetime | None:
    m = re.match(r"^(\d\d)-([A-Za-z]{3})-(\d{4}) (\d+):(\d+)(?::(\d+))?$", text)
    if m and m.group(2) in _MONTHS:
        return datetime(int(m.group(3)), _MONTHS[m.group(2)], int(m.group(1)), int(m.group(4)),
                        int(m.group(5)), int(m.group(6) or 0))
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(text, fmt)
        except ValueError:
            continue
    return None


def _game_type(gametype: str, game: ET.Element) -> tuple[str, str, str | None, str | None]:
    """(variant, betting, small blind text, big blind text); unsupported games raise."""
    low = gametype.lower()
    stud = re.match(r"^(?P<name>[75] Card Stud(?: Hi-Lo)?) L(?:\s+(?P<sb>\D*[\d.,]+)\s*/\s*(?P<bb>\D*[\d.,]+))?\s*$",
                    gametype.strip())
    if stud is not None:
        return _STUD_GAMES[stud["name"].lower()], "FL", stud["sb"], stud["bb"]
    if "stud" in low or "razz" in low or "draw" in low:
        raise ParseError(f"unsupported variant: {_STUD_LIMIT.sub('', gametype)}")
    if low.startswith("six plus holdem "):  # 6+ hold'em (36 cards) with a small and a big blind
        gametype = gametype[10:]
        six = _GAMETYPE.match(gametype.replace("Holdem ", "", 1))
        if six is None:
            raise ParseError(f"unrecognised game type {gametype!r}")
        return "holdem_6plus", _BETTING[six["limit"]], six["sb"], six["bb"]
    lh = _LH.match(gametype)
    if lh is not None:  # "LH 20/40 x2 Limit $10.00/$20.00": the trailing pair are the blinds
        return "holdem", "FL", lh["sb"], lh["bb"]
    m = _GAMETYPE.match(gametype)
    if m is None:
        raise ParseError(f"unrecognised game type {gametype!r}")
    name = (m["name"] or "").strip().lower()
    if name:
        variant = _VARIANTS.get(name)
        if variant is None:
            raise ParseError(f"unsupported variant: {m['name']}")
    else:
        pocket = next((c.text or "" for c in game.iter("cards") if c.get("type") == "Pocket"), "")
        variant = _BY_CARDS.get(len(pocket.split()), "")
        if not variant:
            raise ParseError(f"game type {gametype!r} names no game and no hole cards tell it")
    return variant, _BETTING[m["limit"]], m["sb"], m["bb"]


def _currency(written: str, amount: str) -> str:
    if written and written.isalpha() and len(written) == 3 and written.isupper():
        return written
    for sign, code in _CURRENCY_SIGNS.items():
        if sign in amount:
            return code
    raise ParseError(f"unknown currency {written!r}")


def _money(text: str, scale: int) -> int:
    """iPoker amounts: a currency sign or code, then '1,234.56', '0,50' or '1.234,56'."""
    s = re.sub(r"^[^\d\-.,]+", "", text.strip())
    if "," in s and "." in s and s.rfind(",") > s.rfind("."):
        s = s.replace(".", "").replace(",", ".")  # European thousands dots
    elif scale == 1 and re.fullmatch(r"\d{1,3}(?:\.\d{3})+", s):
        s = s.replace(".", "")  # whole tournament chips with thousands dots (Italian skins: '1.500')
    return to_units(s, scale)


def _card(token: str) -> str:
    """'CA' / 'c10' (suit first) to 'Ac'; unknown ('X') raises."""
    suit, rank = token[0].lower(), token[1:].upper()
    rank = "T" if rank == "10" else rank
    if suit not in "shdc" or len(rank) != 1 or rank not in "23456789TJQKA":
        raise ParseError(f"unreadable card {token!r}")
    return rank + suit


def _known(text: str | None) -> str | None:
    tokens = (text or "").split()
    if not tokens or any(t.upper() == "X" for t in tokens):
        return None
    return "".join(_card(t) for t in tokens)


def _read_game(hand: Hand, game: ET.Element, general: ET.Element, session: _Session, scale: int) -> None:
    hero = session.hero
    players = general.find("players")
    if players is None:
        raise ParseError("game without <players>")
    if not any("win" in p.attrib for p in players.iter("player")):
        raise ParseError("partial export: no player has a win/bet total (the hand was not finished)")
    stacks: dict[str, int] = {}
    written_bet: dict[str, int] = {}
    wins: dict[str, int] = {}
    seat_of: dict[str, int] = {}
    for p in players.iter("player"):
        name = p.get("name", "")
        if not name.strip():
            continue  # empty seat placeholder (HEM archives)
        if name in stacks:
            raise ParseError(f"duplicate player name {name!r}")
        seat_of[name] = int(p.get("seat", "0"))
        stacks[name] = _money(p.get("chips", "0"), scale)
        written_bet[name] = _money(p.get("bet", "0"), scale)
        wins[name] = _money(p.get("win", "0"), scale)
        if p.get("dealer") == "1":
            hand.button_seat = seat_of[name]
    if len(stacks) < 2:
        raise ParseError(f"{len(stacks)} player(s) listed: not a playable hand")

    dealt: set[str] = set()
    board: list[str] = []
    actions: list[tuple[int, int, ET.Element]] = []
    stud = game_family(hand.variant) == "stud"
    held: dict[str, list[str]] = {}
    for rnd in game.iter("round"):
        round_no = int(rnd.get("no", "-1"))
        for el in rnd:
            if el.tag == "action":
                actions.append((round_no, int(el.get("no", "0")), el))
            elif el.tag == "cards" and stud:
                _stud_cards(hand, el, held, dealt)
            elif el.tag == "cards":
                kind = el.get("type", "")
                if kind == "Pocket":
                    owner = el.get("player", "")
                    dealt.add(owner)
                    cards = _known(el.text)
                    if cards is not None:
                        shown = owner == hero
                        if shown:
                            hand.hero = owner
                        hand.hole_cards.append(HoleCards(
                            owner, cards, Provenance.DEALT if shown else Provenance.SHOWN))
                elif kind in ("Flop", "Turn", "River"):
                    cards = _known(el.text)
                    if cards is None:
                        raise ParseError(f"unreadable {kind} cards {el.text!r}")
                    board.append(cards)
    actions.sort(key=lambda a: (a[0], a[1]))

    led, first_sb, first_bb = _replay(hand, actions, stacks, scale, _STUD_ROUNDS if stud else None)
    if stud:
        _stud_hands(hand, held, hero)
        hand.bring_in = next((a.amount or 0 for a in led.actions if a.kind is Kind.BRING_IN), 0)
        if not hand.bb:  # a tournament's "7 Card Stud L" writes no bets: the completion, else the bring-in
            hand.bb = next((a.raise_to or 0 for a in led.actions if a.kind is Kind.COMPLETE), 0) or hand.bring_in
    wrong = _disagreement(led, actions, written_bet, scale)
    if wrong and stud and _stud_raise_counts_the_ante(led, actions, written_bet):
        wrong = None
    if wrong and not session.new_export:
        raise ParseError(wrong)
    if not hand.bb:
        hand.sb, hand.bb = first_sb, first_bb
    elif not hand.sb:
        hand.sb = first_sb or hand.bb // 2
    if stud:
        hand.sb = 0  # stud posts no blinds (the model's convention: bb is the small bet)
    # not dealt in: sitting out, unless chips went in without a sitting-out action (a dealt-out
    # blind poster); an ante taken before a type 9 "sits out" (no cards) does not seat him
    sat_out = {el.get("player", "") for _, _, el in actions if el.get("type", "") in _SITTING}
    hand.seats = [
        Seat(seat_of[name], name, stacks[name],
             sitting_out=name not in dealt and (not led.total_in.get(name) or name in sat_out))
        for name in sorted(stacks, key=seat_of.__getitem__)
    ]
    hand.awards = [Award(name, amount) for name, amount in wins.items() if amount]
    excess = led.uncalled_excess()
    if excess is not None:
        bettor, amount = excess
        total_won = sum(wins.values())
        proven = total_won <= led.contributed() - amount and wins.get(bettor, 0) < amount
        if session.new_export or proven:
            at = max(i + 1 for i, a in enumerate(led.actions) if a.kind is not Kind.SHOW)
            led.insert_return(at, bettor, amount)
    hand.actions = led.actions
    if board:
        hand.boards.append(Board(1, "".join(board)))


def _stud_cards(hand: Hand, el: ET.Element, held: dict[str, list[str]], dealt: set[str]) -> None:
    """One stud ``<cards>`` row: the player's new cards on a street ("X": face down, unseen)."""
    five = hand.variant == "stud5"
    street = (_STUD5_CARDS if five else _STUD_CARDS).get(el.get("type", ""))
    if street is None:
        raise ParseError(f"unrecognised stud cards {el.get('type')!r}")
    owner = el.get("player", "")
    cards = ["??" if t.upper() == "X" else _card(t) for t in (el.text or "").split()]
    if not cards:
        return
    dealt.add(owner)
    rows = hand.street_cards
    if five:  # one down, then every card up
        first = street is Street.THIRD and len(cards) == 2
        if first:
            rows.append(StreetCards(owner, street, cards[0], False))
        rows.append(StreetCards(owner, street, "".join(cards[1:] if first else cards), True))
    elif street is Street.THIRD:
        if len(cards) != 3:
            raise ParseError(f"{len(cards)} third-street cards for {owner!r}")
        rows.append(StreetCards(owner, street, "".join(cards[:2]), False))
        rows.append(StreetCards(owner, street, cards[2], True))
    else:
        rows.append(StreetCards(owner, street, "".join(cards), street is not Street.SEVENTH))
    held.setdefault(owner, []).extend(cards)


def _stud_raise_counts_the_ante(led: Ledger, actions: list[tuple[int, int, ET.Element]],
                                written_bet: dict[str, int]) -> bool:
    """In 7 Card Stud the export's ``bet`` total of a player who raised with a type 23 (raise to)
    counts that player's ante a second time (2011 STT: ante 8, "23 sum=120", bet 376 for 8 + 120 +
    120 + 120; the winner's ``win`` is what every other reading puts in, so the chips are right):
    True when that is every disagreement of the hand."""
    raised = {el.get("player", "") for _, _, el in actions if el.get("type") == "23"}
    ante = {a.player: a.contribution for a in led.actions if a.kind is Kind.POST_ANTE}
    for name, total in written_bet.items():
        gap = total - led.total_in.get(name, 0)
        if gap and not (name in raised and gap == ante.get(name)):
            return False
    return True


def _stud_hands(hand: Hand, held: dict[str, list[str]], hero: str | None) -> None:
    """The hero's cards as dealt; an opponent's, when every one was written (a showdown), as shown."""
    for owner, cards in held.items():
        if "??" in cards:
            continue
        if owner == hero:
            hand.hero = owner
            hand.hole_cards.append(HoleCards(owner, "".join(cards), Provenance.DEALT))
        else:
            hand.hole_cards.append(HoleCards(owner, "".join(cards), Provenance.SHOWN))


def _replay(hand: Hand, actions: list[tuple[int, int, ET.Element]], stacks: dict[str, int],
            scale: int, stud_rounds: dict[int, Street] | None = None) -> tuple[Ledger, int, int]:
    """Run the ordered actions through a ledger (blinds, antes, then betting by ``no``); in stud
    (``stud_rounds``) antes, the bring-in (type 16) and the completion over it."""
    led = Ledger()
    first_sb = first_bb = 0
    completed = False
    if stud_rounds is not None:
        led.street = Street.THIRD
    for round_no, no, el in actions:
        player, atype = el.get("player", ""), el.get("type", "")
        if player not in stacks:
            raise ParseError(f"action {no} by a player not in the seat list: {player!r}")
        street = _STREETS.get(max(round_no, 1)) if stud_rounds is None else stud_rounds.get(round_no)
        if street is None:
            raise ParseError(f"unexpected round {round_no}")
        if street is not led.street:
            led.new_street(street)
        written = el.get("sum", "0")
        if written == "DP" and atype == "7":
            # disconnect protection: the player stays in for what they have in, adding nothing
            led.added(player, Kind.CALL, 0, True)
            continue
        value = _money(written, scale)
        reaches_stack = value > 0 and led.total_in.get(player, 0) + value >= stacks[player]
        if stud_rounds is not None and atype == "16":
            led.post(player, Kind.BRING_IN, value, reaches_stack)
            continue
        if stud_rounds is not None and street is Street.THIRD and not completed and atype in ("5", "6", "23"):
            completed = True  # the first bet or raise over the bring-in completes it
            before = led.street_in.get(player, 0)
            to = value if atype == "23" else before + value
            led.raised_to(player, Kind.COMPLETE, to, value, all_in=led.total_in.get(player, 0) + to - before
                          >= stacks[player])
            continue
        if atype in _SITTING:
            if value:
                raise ParseError(f"action type {atype} moves chips ({value})")
        elif atype == "0":
            led.simple(player, Kind.FOLD)
        elif atype == "4":
            led.simple(player, Kind.CHECK)
        elif atype == "1":
            led.post(player, Kind.POST_SB, value, reaches_stack)
            first_sb = first_sb or value
        elif atype == "2":
            live = hand.bb or first_bb
            small = hand.sb or first_sb
            if live and small and value == live + small:  # posts small & big blinds
                led.post(player, Kind.POST_BB, live, reaches_stack)
                led.post(player, Kind.POST_DEAD, small, reaches_stack)
            else:
                led.post(player, Kind.POST_BB, value, reaches_stack)
                first_bb = first_bb or value
        elif atype == "15":
            led.post(player, Kind.POST_ANTE, value, reaches_stack)
            hand.ante = max(hand.ante, value)
        elif atype == "3":
            led.called(player, value, reaches_stack)
        elif atype == "5":
            led.added(player, Kind.BET, value, reaches_stack)
        elif atype == "6":
            led.added(player, Kind.RAISE, value, reaches_stack)
        elif atype == "23":
            before = led.street_in.get(player, 0)
            all_in = led.total_in.get(player, 0) + value - before >= stacks[player]
            led.raised_to(player, Kind.RAISE, value, all_in=all_in)
        elif atype == "7":
            top = max(led.street_in.values(), default=0)
            mine = led.street_in.get(player, 0) + value
            kind = Kind.CALL if mine <= top else (Kind.BET if top == 0 else Kind.RAISE)
            led.added(player, kind, value, True)
        else:
            raise ParseError(f"unknown action type {atype} (action {no})")

    return led, first_sb, first_bb


def _disagreement(led: Ledger, actions: list[tuple[int, int, ET.Element]], written_bet: dict[str, int],
                  scale: int) -> str | None:
    """Why the replayed chips disagree with the site's per-player ``bet`` totals, or None.

    Older exports write ``bet`` as the chips the player put in; newer ones as the plain sum of
    the player's ``sum`` attributes (a raise-to counted on top of the blind). Every player of a
    hand must agree under one of the two readings.
    """
    sums: dict[str, int] = {}
    for _, _, el in actions:
        player = el.get("player", "")
        written = el.get("sum", "0")
        sums[player] = sums.get(player, 0) + (0 if written == "DP" else _money(written, scale))
    put_in = {name: led.total_in.get(name, 0) for name in written_bet}
    if all(put_in[name] == total for name, total in written_bet.items()):
        return None
    if all(sums.get(name, 0) == total for name, total in written_bet.items()):
        return None
    name = next(n for n, total in written_bet.items() if put_in[n] != total)
    return (f"actions put in {put_in[name]} for {name!r} (sums {sums.get(name, 0)}) but the site's bet"
            f" total is {written_bet[name]}")

FORMAT = IPokerFormat()
