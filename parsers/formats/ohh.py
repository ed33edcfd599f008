"""Open Hand History JSON (hh-specs.handhistory.org, spec 1.4.x): ``{"ohh": {...}}`` per hand.

Why these choices:

* Streaming: a file may hold one pretty-printed hand or many hands one after another (the spec's
  storage format). Top-level objects are cut out by a string-aware brace scanner reading fixed
  blocks, so memory holds one hand; a truncated or broken object is quarantined alone.
* Exact money: JSON numbers are read as ``Decimal`` and converted with ``to_units``; a hand whose
  amounts have decimals is in cents (scale 100), else whole chips (scale 1).
* Amount dialects: the spec says a Raise/Call ``amount`` is what the action *adds* to the pot.
  Some exporters (Ten-Four, the sample we hold) write the street total reached instead ("Raise
  2.5" from the 0.5 small blind, "Call 10" to 10). The hand tells which: under the right reading
  every call that is not all-in matches the bet faced and nobody exceeds their stack. The spec
  reading is tried first, the street-total reading second; if neither fits, the spec reading is
  kept and the reconciliation reports the difference.
* Results: pots, rake (``site_rake``), jackpot (``site_fees``), "Add to Pot" (``site_added``: money
  the site or host puts in, from no player's stack) and ``player_wins`` as written. No
  uncalled return is derived: OHH pots include any unmatched bet (the sample's pot 150 holds the
  river shove nobody called), so the written awards already contain it.
* Players are keyed by name (the display name the site wrote; "name#id" if two share one). Cards
  on every player object (an operator export) give OPERATOR provenance; otherwise the hero's
  "Dealt Cards" are DEALT and "Shows Cards" are SHOWN.
* Hand id: ``ohh:<site>:<game_number>``; when the game number is empty, the exporter's top-level
  ``id``; else a SHA-1 of the object text.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from parsers.base import HandFormat, read_guarded
from parsers.formats._open_betting import Betting
from parsers.model import (
    Award,
    Board,
    Hand,
    HoleCards,
    Kind,
    ParseError,
    Pot,
    Provenance,
    Quarantined,
    Seat,
    Street,
)
from parsers.money import to_units

CHUNK = 1 << 16
STREETS = {"preflop": Street.PREFLOP, "flop": Street.FLOP, "turn": Street.TURN, "river": Street.RIVER,
           "showdown": Street.SHOWDOWN}
GAMES = {"holdem": "holdem", "omaha": "omaha", "omahahilo": "omaha_hilo", "omaha5": "omaha5",
         "omaha5hilo": "omaha5_hilo"}
POSTS = {"post sb": Kind.POST_SB, "post bb": Kind.POST_BB, "post ante": Kind.POST_ANTE,
         "straddle": Kind.POST_STRADDLE, "post dead": Kind.POST_DEAD, "post extra blind": Kind.POST_BB}
IGNORED = {"added chips", "sits down", "stands up"}


class _Dialect(Exception):
    """The amounts do not fit this reading of the spec."""


class OhhFormat(HandFormat):
    name = "ohh"
    priority = 35
    description = "Open Hand History JSON"

    def sniff(self, head: str) -> bool:
        text = head.lstrip("\ufeff \t\r\n")
        return text.startswith("{") and '"ohh"' in head and '"spec_version"' in head

    def parse(self, path: Path) -> Iterator[Hand | Quarantined]:
        source = str(path)
        for offset, raw, complete in _objects(path):
            text = raw.decode("utf-8", errors="replace")
            if not complete:
                yield Quarantined(source, offset, text, "truncated JSON object (file ends inside a hand)",
                                  self.name)
                continue
            yield read_guarded(source, offset, text, self.name, _read_object, text, source, offset, len(raw),
                               named=((json.JSONDecodeError, "JSON error: "),))


def _read_object(text: str, source: str, offset: int, length: int) -> Hand:
    """One complete JSON object: decoded with exact decimals, then read as a hand."""
    return parse_object(json.loads(text, parse_float=Decimal), text, source, offset, length)


def _objects(path: Path) -> Iterator[tuple[int, bytes, bool]]:
    """(byte offset, bytes, complete?) of every top-level JSON object, scanning fixed blocks."""
    depth = 0
    in_string = escaped = False
    start = -1
    buf = bytearray()
    pos = 0
    with path.open("rb") as fh:
        while chunk := fh.read(CHUNK):
            for i, byte in enumerate(chunk):
                if depth:
                    buf.append(byte)
                if in_string:
                    if escaped:
                        escaped = False
                    elif byte == 0x5C:  # backslash
                        escaped = True
                    elif byte == 0x22:
                        in_string = False
                    continue
                if byte == 0x22 and depth:
                    in_string = True
                elif byte == 0x7B:  # {
                    if depth == 0:
                        start = pos + i
                        buf = bytearray(b"{")
                    depth += 1
                elif byte == 0x7D and depth:  # }
                    depth -= 1
                    if depth == 0:
                        yield start, bytes(buf), True
            pos += len(chunk)
    if depth:
        yield start, bytes(buf), False


def _amount(value: Any, scale: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | Decimal | str):
        raise ParseError(f"not an amount: {value!r}")
    return to_units(str(value), scale)


def _scale(ohh: dict[str, Any]) -> int:
    values: list[Any] = [ohh.get("small_blind_amount"), ohh.get("big_blind_amount"), ohh.get("ante_amount")]
    values += [p.get("starting_stack") for p in ohh.get("players", [])]
    for rnd in ohh.get("rounds", []):
        values += [a.get("amount") for a in rnd.get("actions", [])]
    for pot in ohh.get("pots", []):
        values += [pot.get("amount"), pot.get("rake"), pot.get("jackpot")]
        values += [w.get("win_amount") for w in pot.get("player_wins", [])]
    return 100 if any(isinstance(v, Decimal) and v != v.to_integral_value() for v in values) else 1


def parse_object(doc: dict[str, Any], text: str, source_file: str, offset: int, length: int) -> Hand:
    """One ``{"ohh": {...}}`` object (or a bare hand object) into a canonical hand."""
    ohh = doc.get("ohh", doc)
    if not isinstance(ohh, dict) or "rounds" not in ohh or "players" not in ohh:
        raise ParseError("not an OHH hand (no ohh.players / ohh.rounds)")
    game = str(ohh.get("game_type", "")).replace(" ", "").replace("/", "").lower()
    if game not in GAMES:
        raise ParseError(f"unsupported game_type {ohh.get('game_type')!r}")
    scale = _scale(ohh)
    players = ohh["players"]
    names = [str(p.get("name") or f"id{p['id']}") for p in players]
    if len(set(names)) != len(names):
        names = [f"{n}#{p['id']}" for n, p in zip(names, players, strict=True)]
    by_id = {p["id"]: n for p, n in zip(players, names, strict=True)}
    stacks = {n: _amount(p["starting_stack"], scale) for p, n in zip(players, names, strict=True)}

    bet = None
    for mode in ("added", "to"):
        try:
            bet, board, dealt, shown, site_added = _replay(ohh, by_id, stacks, scale, mode)
            break
        except _Dialect:
            continue
    if bet is None:
        bet, board, dealt, shown, site_added = _replay(ohh, by_id, stacks, scale, "added", strict=False)

    pots: list[Pot] = []
    awards: list[Award] = []
    rake = fees = 0
    for pot in ohh.get("pots", []):
        no = int(pot.get("number", len(pots)))
        pots.append(Pot(no, _amount(pot.get("amount", 0), scale)))
        rake += _amount(pot.get("rake") or 0, scale)
        fees += _amount(pot.get("jackpot") or 0, scale)
        for win in pot.get("player_wins", []):
            if win.get("player_id") not in by_id:
                raise ParseError(f"pot won by unknown player id {win.get('player_id')!r}")
            awards.append(Award(by_id[win["player_id"]], _amount(win["win_amount"], scale), no))

    operator = all(p.get("cards") for p in players)
    hero = by_id.get(ohh.get("hero_player_id"))
    hole: list[HoleCards] = []
    for p, n in zip(players, names, strict=True):
        if operator:
            hole.append(HoleCards(n, "".join(p["cards"]), Provenance.OPERATOR))
        elif n in dealt and n == hero:
            hole.append(HoleCards(n, dealt[n], Provenance.DEALT))
        elif n in shown:
            hole.append(HoleCards(n, shown[n], Provenance.SHOWN))

    site = str(ohh.get("site_name") or ohh.get("network_name") or "ohh").lower().replace(" ", "")
    number = str(ohh.get("game_number") or doc.get("id") or hashlib.sha1(text.encode()).hexdigest()[:20])
    seat_of = {n: int(p["seat"]) for p, n in zip(players, names, strict=True)}
    start = ohh.get("start_date_utc")
    started = None
    if start:
        started = datetime.fromisoformat(str(start).replace("Z", "+00:00"))
        started = started.astimezone(UTC).replace(tzinfo=None) if started.tzinfo else started
    currency = str(ohh.get("currency") or "CHIPS").upper()
    return Hand(
        hand_id=f"ohh:{site}:{number}",
        site=site,
        site_hand_no=number,
        format="ohh",
        variant=GAMES[game],
        betting=str((ohh.get("bet_limit") or {}).get("bet_type") or "NL").upper(),
        game_type="tournament" if ohh.get("tournament") else "cash",
        table_name=str(ohh.get("table_name", "")),
        sb=_amount(ohh.get("small_blind_amount") or 0, scale),
        bb=_amount(ohh.get("big_blind_amount") or 0, scale),
        currency="CHIPS" if currency in ("CHIPS", "XPM", "PPC") else currency,
        unit_scale=scale,
        source_file=source_file,
        byte_offset=offset,
        byte_length=length,
        started_at=started,
        tournament_id=str((ohh.get("tournament_info") or {}).get("tournament_number") or "") or None,
        max_seats=ohh.get("table_size"),
        button_seat=ohh.get("dealer_seat"),
        ante=_amount(ohh.get("ante_amount") or 0, scale),
        hero=hero,
        site_rake=rake,
        site_fees=fees or None,
        site_added=sum(site_added) if site_added else None,
        seats=[Seat(seat_of[n], n, stacks[n], sitting_out=bool(p.get("is_sitting_out")))
               for p, n in zip(players, names, strict=True)],
        actions=bet.actions,
        hole_cards=hole,
        boards=[Board(1, "".join(board))] if board else [],
        pots=pots,
        awards=awards,
    )


def _replay(ohh: dict[str, Any], by_id: dict[Any, str], stacks: dict[str, int], scale: int, mode: str,
            *, strict: bool = True) -> tuple[Betting, list[str], dict[str, str], dict[str, str], list[int]]:
    """Actions under one amount reading; raises _Dialect when ``strict`` and they do not fit.

    Also returns the "Add to Pot" amounts: money the site or host puts into the pot.
    """
    bet = Betting(dict(stacks))
    board: list[str] = []
    dealt: dict[str, str] = {}
    shown: dict[str, str] = {}
    added: list[int] = []
    for rnd in ohh["rounds"]:
        street = STREETS.get(str(rnd.get("street", "")).lower())
        if street is None:
            raise ParseError(f"unknown street {rnd.get('street')!r}")
        if street is not Street.PREFLOP and street is not Street.SHOWDOWN:
            bet.new_street(street)
        cards = rnd.get("cards") or []
        board += [cards] if isinstance(cards, str) and cards else list(cards) if isinstance(cards, list) else []
        for act in rnd.get("actions", []):
            try:
                _action(bet, act, by_id, scale, mode=mode, strict=strict, dealt=dealt, shown=shown, added=added)
            except ParseError:
                if strict:
                    raise _Dialect from None
                raise
    if strict and any(bet.total[p] > bet.stacks[p] for p in bet.stacks):
        raise _Dialect
    return bet, board, dealt, shown, added


def _action(bet: Betting, act: dict[str, Any], by_id: dict[Any, str], scale: int, *, mode: str, strict: bool,
            dealt: dict[str, str], shown: dict[str, str], added: list[int]) -> None:
    verb = str(act.get("action", "")).lower()
    if verb in IGNORED:
        return
    if verb == "add to pot":
        # the spec's "Add to Pot": money put in by the site or host (a promotion, a bad-beat
        # top-up), not from any player's stack, so it is ``site_added`` and no player's action
        if act.get("amount") is None:
            raise ParseError("'Add to Pot' without an amount")
        added.append(_amount(act["amount"], scale))
        return
    if act.get("player_id") not in by_id:
        raise ParseError(f"action {verb!r} by unknown player id {act.get('player_id')!r}")
    player = by_id[act["player_id"]]
    amount = _amount(act["amount"], scale) if act.get("amount") is not None else None
    if verb in POSTS:
        bet.post(player, POSTS[verb], amount or 0)
    elif verb == "fold":
        bet.fold(player)
    elif verb == "check":
        bet.check(player)
    elif verb in ("bet", "raise", "call") and amount is not None:
        before = bet.max_bet
        if verb == "call":
            if mode == "to":
                bet.call_to(player, amount)
            else:
                bet.call_adding(player, amount)
            if strict and bet.bet[player] != before and bet.remaining(player) > 0:
                raise _Dialect
        else:
            bet.raise_to(player, amount if mode == "to" else bet.bet[player] + amount)
    elif verb == "dealt cards":
        dealt[player] = "".join(act.get("cards") or [])
    elif verb == "shows cards":
        shown[player] = "".join(act.get("cards") or [])
        bet.show(player, shown[player], street=Street.SHOWDOWN)
    elif verb == "mucks cards":
        bet.muck(player, "".join(act.get("cards") or []) or None, street=Street.SHOWDOWN)
    else:
        raise ParseError(f"unsupported action {act.get('action')!r}")


FORMAT = OhhFormat()
