"""Merge Gaming Network (Carbon, Lock, Minted...) XML hand histories.

Why its own module: Merge writes a stream of ``<description>`` and ``<game>`` elements with no root,
so a file is not one XML document; each ``<game>`` is parsed on its own with the latest description
(game type and stakes) in force. Every amount on an event is the chips *added* by that action
(a RAISE of 5.00 from the big blind takes him to 5.50), ALL_IN is chips added too, and the returned
excess of an uncalled bet is written as a ``<winner uncalled="true">`` row. The site writes no
rake and no total, so reconciliation checks the implied rake. Times carry no zone: left None.

Stud and draw games (issue 12) have their own rounds (``BRING_IN``, ``THIRD_STREET``..
``SEVENTH_STREET``; ``PRE_FIRST_DRAW``, ``FIRST_DRAW`` (the draws) and ``POST_FIRST_DRAW`` (its
betting)...), ``BRING_IN``/``COMPLETE``/``DRAW`` events, and ``DRAW_DRAWN_CARDS`` rows giving each
player's cards so far ("null" for a card face down). A HORSE rotation names no game per hand: its
7-card hands are razz when the site describes their hands as lows ("K-T-6"), stud hi/lo when a pot
is split hi/lo or a hand has a "Lo (...)". When nothing in the hand tells stud from stud hi/lo, the
rotation does: HORSE deals its games in a fixed order (Hold'em, Omaha hi-lo, Razz, Stud, Stud 8), a
block of hands each, so a hand between two hands of one game is that game and one between razz and
stud hi/lo is stud (``_rotation_game``); a hand the rotation does not place stays quarantined.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

from parsers.base import TextHandFormat, read_guarded
from parsers.formats._stars_like import HandBuilder, Money, cards, new_hand
from parsers.model import (
    POSTS,
    STUD_VARIANTS,
    Hand,
    Kind,
    ParseError,
    Provenance,
    Quarantined,
    Seat,
    Street,
    StreetCards,
    game_family,
)
from parsers.reading import Block, iter_blocks, iter_lines

_DESCRIPTION = re.compile(r'^\ufeff?\s*<description type="(?P<type>[^"]*)" stakes="(?P<stakes>[^"]*)"')
_GAME = re.compile(r'^\ufeff?\s*<game id="')
_STAKES = re.compile(
    r"^(?P<limit>No Limit|Pot Limit|Limit|Half Pot Limit) \(?\$?(?P<sb>[\d.,]+)/\$?(?P<bb>[\d.,]+)"
    r"(?:/\$?(?P<bet>[\d.,]+))?\)?$"  # no-limit stud: "($0.01/$0.02/$0.10)" ante / bring-in / smallest bet
)
#: tournament descriptions: 'type="Holdem Tournament" stakes="No Limit"' (the blinds as posted) or
#: 'stakes="No Limit Level 4 Blinds 40/80"' (2015, version 2.1)
_TOURNAMENT_STAKES = re.compile(
    r"^(?P<limit>No Limit|Pot Limit|Limit|Half Pot Limit)(?: Level (?P<level>\d+))?"
    r"(?: Blinds (?P<sb>[\d.,]+)/(?P<bb>[\d.,]+))?$"
)
_GAMES = {"Holdem": "holdem", "Omaha": "omaha", "Omaha H/L8": "omaha_hilo", "7-Stud": "stud",
          "7-Stud H/L8": "stud_hilo", "Razz": "razz", "2-7 Lowball": "draw27_triple",
          "A-5 Lowball": "drawa5_triple", "5-Draw": "draw5", "Badugi": "badugi"}
_LIMITS = {"No Limit": "NL", "Pot Limit": "PL", "Limit": "FL"}
_ROUNDS = {"PREFLOP": Street.PREFLOP, "POSTFLOP": Street.FLOP, "POSTTURN": Street.TURN,
           "POSTRIVER": Street.RIVER, "SHOWDOWN": Street.SHOWDOWN}
#: stud and draw rounds (a draw and the betting after it are one street)
_GAME_ROUNDS = {
    "BRING_IN": Street.THIRD, "THIRD_STREET": Street.THIRD, "FOURTH_STREET": Street.FOURTH,
    "FIFTH_STREET": Street.FIFTH, "SIXTH_STREET": Street.SIXTH, "SEVENTH_STREET": Street.SEVENTH,
    "PRE_FIRST_DRAW": Street.PREDRAW, "FIRST_DRAW": Street.DRAW1, "POST_FIRST_DRAW": Street.DRAW1,
    "SECOND_DRAW": Street.DRAW2, "POST_SECOND_DRAW": Street.DRAW2, "THIRD_DRAW": Street.DRAW3,
    "POST_THIRD_DRAW": Street.DRAW3, "SHOWDOWN": Street.SHOWDOWN,
}
#: the stud street each card position is dealt on, and whether it is dealt face up
_STUD_CARD = ((Street.THIRD, False), (Street.THIRD, False), (Street.THIRD, True), (Street.FOURTH, True),
              (Street.FIFTH, True), (Street.SIXTH, True), (Street.SEVENTH, False))
_END_ROUNDS = ("END_OF_GAME", "END_OF_FOLDED_GAME")
_QUIET = {"CHAT", "LEAVE", "DISCONNECTED", "RECONNECTED", "SHOW", "MUCK", "RABBIT", "PLAYER_OUT",
          "GAME_CANCELLED"}  # the cancellation's own event names no player (the round marks the hand)


class MergeFormat(TextHandFormat):
    name: ClassVar[str] = "merge"
    priority: ClassVar[int] = 50
    description: ClassVar[str] = "Merge Gaming Network XML (<description>/<game> stream)"

    def sniff(self, head: str) -> bool:
        first = head.lstrip("\ufeff\r\n\t ")
        return _DESCRIPTION.match(first) is not None and '<game id="' in first

    def is_start(self, line: str) -> bool:
        return _GAME.match(line) is not None or _DESCRIPTION.match(line) is not None

    def parse(self, path: Path) -> Iterator[Hand | Quarantined]:
        source = str(path)
        description: tuple[str, str, str] | None = None
        undecided: list[tuple[int, Block, tuple[str, str, str] | None]] = []  # HORSE stud or stud hi/lo
        items: list[Hand | Quarantined] = []
        for block in iter_blocks(iter_lines(path), self.is_start):
            d = _DESCRIPTION.match(block.lines[0])
            if d is not None:
                version = re.search(r'\bversion="([^"]*)"', block.lines[0])
                description = (d["type"], d["stakes"], version.group(1) if version else "")
                rest = [ln for ln in block.lines[1:] if ln.strip()]
                if rest:
                    items.append(Quarantined(source, block.offset, "\n".join(block.lines), "text outside any hand",
                                             self.name))
                continue
            hand = read_guarded(source, block.offset, block.lines, self.name, _best_reading, block, source, description)
            if isinstance(hand, Quarantined) and hand.reason.endswith(_UNTOLD):
                undecided.append((len(items), block, description))
            if hand is not None:
                items.append(hand)
        placed = [(index, block, described, _rotation_game(items, index)) for index, block, described in undecided]
        for index, block, described, game in placed:  # placed from the hands the site's own text decided
            if game is not None:
                items[index] = read_guarded(source, block.offset, block.lines, self.name, _best_reading, block,
                                            source, described, game) or items[index]
        yield from items

    def parse_block(self, block: Block, source_file: str) -> Hand | None:
        raise ParseError("Merge games need their <description>: use parse()")


def _rotation_game(items: list[Hand | Quarantined], index: int) -> str | None:
    """The HORSE game the rotation puts at ``items[index]``: the games of the nearest hands read
    before and after it on the same table (HORSE order H, O, R, S, E; a block of hands each)."""
    def neighbour(step: int) -> Hand | None:
        k = index + step
        while 0 <= k < len(items):
            if isinstance(items[k], Hand):
                return items[k]  # type: ignore[return-value]
            k += step
        return None

    before, after = neighbour(-1), neighbour(1)
    if before is None or after is None or before.table_name != after.table_name or before.mix != "HORSE":
        return None
    if before.variant == after.variant and before.variant in ("stud", "stud_hilo", "razz"):
        return {"stud": "7-Stud", "stud_hilo": "7-Stud H/L8", "razz": "Razz"}[before.variant]
    if (before.variant, after.variant) == ("razz", "stud_hilo"):
        return "7-Stud"
    return None


#: the quarantine reason of a HORSE 7-card hand that says nothing of its game
_UNTOLD = "7-card hand: the export does not tell stud from stud hi/lo"


def _best_reading(block: Block, source_file: str, description: tuple[str, str, str] | None,
                  horse: str | None = None) -> Hand | None:
    """Merge's RAISE amount is the chips added in some exports and the street total in others.

    Both readings are built; the one under which every CALL brings the caller exactly level
    with the top bet is kept (the calls are the site's own cross-check). When both or neither
    are consistent, the chips-added reading (2008-2011 exports, fpdb's .hp) stands.
    """
    if description is None:
        raise ParseError("game before any <description> (no game type or stakes)")
    added = _parse(block, source_file, description, raise_added=True, horse=horse)
    total = _parse(block, source_file, description, raise_added=False, horse=horse)
    if added is None or total is None:
        return added
    bad_added, bad_total = _inconsistent_calls(added), _inconsistent_calls(total)
    if bad_added != bad_total:
        return added if bad_added < bad_total else total
    # no call tells them apart: the winner rows do (what was won cannot exceed what went in,
    # and the reading leaving the smaller rake is the one the site paid out)
    fits = [(left, n, h) for n, h in enumerate((added, total))
            if (left := _put_in(h) - sum(w.amount for w in h.awards)) >= 0]
    return min(fits, key=lambda f: (f[0], f[1]))[2] if fits else added


def _put_in(hand: Hand) -> int:
    return sum(a.contribution for a in hand.actions)


def _inconsistent_calls(hand: Hand) -> int:
    street_in: dict[str, int] = {}
    street = Street.PREFLOP
    bad = 0
    for a in hand.actions:
        if a.street != street:
            street, street_in = a.street, {}
        if a.kind in (Kind.POST_DEAD, Kind.POST_ANTE):
            continue
        street_in[a.player] = street_in.get(a.player, 0) + a.contribution
        others = [v for k, v in street_in.items() if k != a.player]
        if a.kind is Kind.CALL and not a.all_in and others and street_in[a.player] != max(others):
            bad += 1
    return bad


#: a HORSE rotation's games by their hole cards: Hold'em, Omaha hi-lo; 7 is a stud game (Razz, Stud, Stud 8)
_HORSE = {"2": "Holdem", "4": "Omaha H/L8"}


def _horse_game(game: ET.Element, described: str, rotation: str | None = None) -> str:
    """The game of one hand of a HORSE rotation ("HORSE Tournament" describes the whole file):
    Hold'em or Omaha hi-lo from its ``numholecards``; a 7-card hand from what the site wrote of it
    (the export names no game per hand): razz when its hands are described as lows ("K-T-6"), stud
    hi/lo when a pot is split hi/lo or a hand has a low ("- Lo (8-7-2)"), else it is quarantined."""
    kind = _HORSE.get(game.get("numholecards", ""))
    if kind is not None:
        return kind
    if game.get("numholecards") != "7":
        raise ParseError(f"unsupported variant: {described} ({game.get('numholecards')!r} hole cards)")
    texts = [el.get("hand", "") for el in game.iter() if el.get("hand")]
    pots = {el.get("pottype") for el in game.iter("winner")}
    if pots & {"h", "l"} or any("Lo (" in t for t in texts):
        return "7-Stud H/L8"
    if any(_LOW_TEXT.match(t) for t in texts):  # a stud hand is never described as a low
        return "Razz"
    if rotation is not None:  # the hand's place in the rotation (``_rotation_game``)
        return rotation
    raise ParseError(f"unsupported variant: {described} {_UNTOLD}")


#: a hand described as a low, as Merge writes razz and lowball hands: "K-T-6", "9-8-3-2-A"
_LOW_TEXT = re.compile(r"^[2-9TJQKA](?:-[2-9TJQKA])*$")


def _parse(block: Block, source_file: str, description: tuple[str, str, str], *, raise_added: bool,
           horse: str | None = None) -> Hand | None:
    text = "\n".join(block.lines).strip().lstrip("\ufeff")
    if "</game>" not in text:
        raise ParseError("truncated hand: no </game>")
    try:
        game = ET.fromstring(text[: text.rindex("</game>") + len("</game>")])
    except ET.ParseError as exc:
        raise ParseError(f"unreadable XML: {exc}") from None
    kind, stakes, version = description
    tournament = kind.endswith(" Tournament")
    if tournament:
        kind = kind.removesuffix(" Tournament")
    mix = None
    if kind == "HORSE":
        kind, mix = _horse_game(game, description[0], horse), "HORSE"
    if kind not in _GAMES:
        raise ParseError(f"unsupported variant: {description[0]}")
    s = (_TOURNAMENT_STAKES if tournament else _STAKES).match(stakes)
    if s is None or s["limit"] not in _LIMITS or (s.groupdict().get("bet") and _GAMES.get(kind) not in STUD_VARIANTS):
        raise ParseError(f"no betting structure in {stakes!r}")
    hand = new_hand(site="merge", hand_no=game.get("id", ""), fmt="merge", source_file=source_file,
                    offset=block.offset, length=block.length)
    if not hand.site_hand_no:
        raise ParseError("game without an id")
    hand.variant, hand.betting = _GAMES[kind], _LIMITS[s["limit"]]
    hand.mix = mix
    family = game_family(hand.variant)
    hand.currency = "USD" if game.get("realmoney") == "true" else "PLAY"
    data = (game.get("data") or "").split("|")
    hand.table_name = data[1] if len(data) > 1 else ""
    if tournament:
        # data="20150302|Nightly Nine $11 - $15K Gtd [Deep] (81601090-1)|81601090-1|81685504-28|true":
        # the third field is the tournament id and its table; balances are chips ("$1725.00")
        hand.game_type, hand.currency, hand.unit_scale = "tournament", "CHIPS", 1
        hand.tournament_id = data[2].split("-")[0] if len(data) > 2 and data[2] else None
        hand.tournament_level = s["level"]
        if not hand.tournament_id:
            raise ParseError("tournament game without a tournament id in its data attribute")
    money = Money(hand.unit_scale)
    if game.find("round[@id='GAME_CANCELLED']") is not None:
        hand.cancelled = True

    players = game.find("players")
    if players is None:
        raise ParseError("no <players>")
    by_seat: dict[str, str] = {}
    for p in players.findall("player"):
        seat, name = p.get("seat", ""), p.get("nickname", "")
        by_seat[seat] = name
        hand.seats.append(Seat(int(seat) + 1, name, money(p.get("balance", "0")), p.get("dealtin") != "true"))
    dealer = players.get("dealer")
    hand.button_seat = int(dealer) + 1 if dealer is not None and dealer.isdigit() and family != "stud" else None

    def who(seat: str | None) -> str:
        if seat is None or seat not in by_seat:
            raise ParseError(f"action by a player not in the seat list: seat {seat!r}")
        return by_seat[seat]

    b = HandBuilder(hand)
    rounds = _ROUNDS
    seen: dict[str, list[str]] = {}  # stud/draw: each player's cards so far
    if family != "flop":
        rounds = _GAME_ROUNDS
        b.street = Street.THIRD if family == "stud" else Street.PREDRAW
    ended = False
    for rnd in game.findall("round"):
        rid = rnd.get("id", "")
        if rid in rounds:
            b.new_street(rounds[rid])
        elif rid in _END_ROUNDS:
            ended = True
        elif rid not in ("BLINDS", "GAME_CANCELLED"):
            raise ParseError(f"unsupported variant: round {rid}")
        for el in rnd:
            if el.tag == "event":
                _event(el, who, b, money, raise_added)
            elif el.tag == "cards" and family != "flop":
                _game_cards(el, who, b, seen, family == "stud")
            elif el.tag == "cards":
                _cards(el, who, b)
            elif el.tag == "winner":
                amount = money(el.get("amount", "0"))
                if el.get("uncalled") == "true":
                    b.uncalled_on_last_street(who(el.get("player")), amount)
                elif amount:
                    b.award(who(el.get("player")), amount, max(int(el.get("potnumber", "1")) - 1, 0))
    if not ended and not hand.cancelled:
        raise ParseError("truncated hand: no end-of-game round")
    # a walk whose only blind is handed back uncalled (a dead small blind: nobody else posted) wins nothing
    if not hand.awards and not hand.cancelled and sum(a.contribution for a in hand.actions) != 0:
        raise ParseError("truncated hand: no winner written")
    for a in hand.actions:
        if a.kind is Kind.POST_SB and not hand.sb:
            hand.sb = a.amount or 0
        elif a.kind is Kind.POST_BB and not hand.bb:
            hand.bb = a.amount or 0
    if hand.betting != "FL" and s["bb"] is not None:
        hand.sb, hand.bb = hand.sb or money(s["sb"]), hand.bb or money(s["bb"])
    elif family == "flop" and not tournament and s["sb"] is not None:
        # a cash limit description names the bets ("Limit $10/$20": small bet 10), and a limit game's big
        # blind is its small bet: bb is the level the site describes (the posted one on every consistent
        # hand), so a description the posts contradict stays visible to the checker. The small blind stays
        # the posted one: the description names none ("Limit $0.25/$0.50" posts 0.10)
        hand.bb = money(s["sb"])
    if family != "flop":
        _game_stakes(hand, s, money, seen, b)
    if not hand.bb and not hand.cancelled:
        raise ParseError(f"no blinds in {stakes!r} and none posted")
    if tournament and not version:
        _balances_before_posts(hand)
    return b.finish()


def _game_stakes(hand: Hand, s: re.Match[str], money: Money, seen: dict[str, list[str]], b: HandBuilder) -> None:
    """A stud or draw hand's bet sizes, bring-in and final cards (stud posts no blinds: ``bb`` is
    the small bet, as in the flop games' fixed limit)."""
    if hand.betting == "FL" and s["bb"] is not None:
        hand.small_bet, hand.big_bet = money(s["sb"]), money(s["bb"])
    if game_family(hand.variant) == "stud":  # no blinds: bb is the small bet, else (a tournament
        hand.sb = 0  # "Limit" with no amounts) the completion, else the bring-in
        hand.bring_in = next((a.amount or 0 for a in hand.actions if a.kind is Kind.BRING_IN), 0)
        completion = next((a.raise_to or 0 for a in hand.actions if a.kind is Kind.COMPLETE), 0)
        smallest = money(s["bet"]) if s.groupdict().get("bet") else 0  # no-limit stud's smallest bet
        hand.bb = hand.small_bet or smallest or completion or hand.bring_in
    mine = seen.get(hand.hero or "")
    if hand.hero and mine and "??" not in mine:
        b.hole(hand.hero, "".join(mine), Provenance.DEALT)


def _game_cards(el: ET.Element, who: object, b: HandBuilder, seen: dict[str, list[str]], stud: bool) -> None:
    """Stud and draw ``cards`` rows: HOLE (the hero's cards so far), DRAW_DRAWN_CARDS (each
    player's cards so far, "null" face down; in draw games the hand after the draw), SHOWN/MUCKED."""
    assert callable(who)
    kind, text = el.get("type", ""), el.get("cards", "")
    if kind in ("SHOWN", "MUCKED"):
        shown = cards(text.replace("null", "??")) if text else ""
        if len(shown) >= 8 and "??" not in shown:
            b.show(who(el.get("player")), shown)
        return
    if kind not in ("HOLE", "DRAW_DRAWN_CARDS"):
        raise ParseError(f"unrecognised cards {kind!r}")
    if not text:
        return
    player = who(el.get("player"))
    now = [c.strip() if c.strip() != "null" else "??" for c in text.split(",")]
    if kind == "HOLE":
        b.hand.hero = player
    before = seen.get(player, [])
    rows = b.hand.street_cards
    if stud:
        if len(now) > len(_STUD_CARD) or len(now) < len(before):
            raise ParseError(f"{len(now)} stud cards for {player} after {len(before)}")
        for k in range(len(before), len(now)):
            street, up = _STUD_CARD[k]
            rows.append(StreetCards(player, street, now[k], up))
        merged = [c if c != "??" else (before[k] if k < len(before) else c) for k, c in enumerate(now)]
        seen[player] = merged
        return
    if all(c == "??" for c in now):
        return
    new = [c for c in now if c not in before] if before else now
    if new or not before:
        rows.append(StreetCards(player, b.street, cards(",".join(new)) if new else "", False))
    seen[player] = now


def _balances_before_posts(hand: Hand) -> None:
    """Tournament games under a description with no version write each balance *after* the
    player's blinds and antes: in the real 2012 export every next hand of a table agrees only
    with this reading (balance + posts + the hand's net = the next balance + its posts), and
    all-ins are for the balance plus the blind. The 2015 "version 2.1" exports write it before.
    """
    posted: dict[str, int] = {}
    for a in hand.actions:
        if a.kind in POSTS and a.kind is not Kind.BRING_IN:  # stud: the bring-in is a bet, after the balance
            posted[a.player] = posted.get(a.player, 0) + a.contribution
    hand.seats = [s._replace(stack=s.stack + posted.get(s.player, 0)) for s in hand.seats]


def _event(el: ET.Element, who: object, b: HandBuilder, money: Money, raise_added: bool) -> None:
    assert callable(who)
    kind = el.get("type", "")
    if kind in _QUIET:
        return
    player = who(el.get("player"))
    amount = money(el.get("amount", "0")) if el.get("amount") else 0
    if kind == "SMALL_BLIND":
        b.post(player, Kind.POST_SB, amount)
    elif kind in ("BIG_BLIND", "INITIAL_BLIND"):
        b.post(player, Kind.POST_BB, amount)
    elif kind == "BRING_IN":
        b.post(player, Kind.BRING_IN, amount)
    elif kind == "COMPLETE":
        b.complete(player, b.committed(player) + amount if raise_added else amount, amount)
    elif kind == "DRAW":
        count = el.get("text", "")
        if not count.isdigit():
            raise ParseError(f"unreadable draw {count!r}")
        b.draw(player, int(count))
    elif kind == "ANTE":
        b.hand.ante = b.hand.ante or amount
        b.post(player, Kind.POST_ANTE, amount)
    elif kind == "FOLD":
        b.fold(player)
    elif kind == "CHECK":
        b.check(player)
    elif kind == "CALL":
        b.call(player, amount)
    elif kind == "BET" and b.street is Street.THIRD and not any(a.kind is Kind.COMPLETE for a in b.hand.actions):
        b.complete(player, b.committed(player) + amount, amount)  # stud: the full bet instead of a bring-in
    elif kind == "BET":
        b.bet(player, amount)
    elif kind == "RAISE":
        if raise_added:
            b.raise_by(player, amount)
        else:
            b.raise_to(player, None, amount)
    elif kind == "ALL_IN":
        to = b.committed(player) + amount
        top = b.max_committed_excluding(player)
        if to <= top:
            b.call(player, amount, all_in=True)
        elif top == 0:
            b.bet(player, amount, all_in=True)
        else:
            b.raise_by(player, amount, all_in=True)
    elif kind == "RETURN_BLIND":
        # a returning player's both blinds in one amount: the big blind live, the rest dead (as
        # "posts small & big blinds"). LO8-...post.both: 1.50 at 0.50/1.00, then "RAISE 2.00" and
        # the big blind's "CALL 1.00" level at 2.00; the winner's 5.75 of 6.00 leaves 0.25 rake
        # (all dead would leave 1.25 of 7.00)
        live = next((a.amount or 0 for a in b.hand.actions if a.kind is Kind.POST_BB), 0)
        if 0 < live < amount:
            b.post(player, Kind.POST_BB, live)
            b.post(player, Kind.POST_DEAD, amount - live)
        else:
            b.post(player, Kind.POST_DEAD, amount)
    else:
        raise ParseError(f"unrecognised event {kind!r}")


def _cards(el: ET.Element, who: object, b: HandBuilder) -> None:
    assert callable(who)
    kind, text = el.get("type", ""), el.get("cards", "")
    if kind == "COMMUNITY":
        b.board(1, cards(text))
    elif kind == "HOLE" and text:
        player = who(el.get("player"))
        b.hand.hero = player
        b.hole(player, cards(text), Provenance.DEALT)
    elif kind in ("SHOWN", "MUCKED") and text:
        shown = cards(text.replace("null", "??"))
        if len(shown) >= 4 and "??" not in shown:
            b.show(who(el.get("player")), shown)
    elif kind not in ("HOLE", "SHOWN", "MUCKED"):
        raise ParseError(f"unrecognised cards {kind!r}")


FORMAT = MergeFormat()
