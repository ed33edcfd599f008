"""PHH (Poker Hand History, TOML; uoftcprg/phh-std): ``.phh`` one hand, ``.phhs`` ``[N]`` sections.

Why these choices:

* Streaming: a file is read line by line and cut at ``[section]`` header lines; each section (or
  the whole file when there is none) is one TOML document parsed on its own, so memory is bounded
  by one hand and one bad hand is quarantined while its neighbours load.
* Positions: array fields are in position order (first = small blind, last = button). Heads-up,
  blinds and antes are reverse-assigned by rule, so the arrays are read reversed.
* Actions: ``d dh`` deals hole cards, ``d db`` deals the board (and starts the next street);
  ``pN cbr X`` is a bet or raise *to* X on the street (a bet when nothing is live), ``pN cc`` is
  a check or a call whose amount we compute from the street commitments, ``pN f`` folds, ``pN sm
  cards`` shows (``-`` = the cards dealt) and ``pN sm`` mucks. The part of a bet nobody matched is
  returned as an uncalled return row (PHH does not write it; the chips were never at risk).
* Results: PHH writes no awards. It writes ``finishing_stacks``, which *is* the result, so the
  award of player p is derived from it: ``award_p = final_p - stack_p + contribution_p`` when
  positive. This makes the final-stack reconciliation tautological; the independent checks are
  the tests' pokerkit replay and the fact that every player who folded or lost must derive an
  award of exactly 0. A negative derived award is never emitted (the reconciliation then shows
  the difference). Without ``finishing_stacks``: ``winnings`` when written, else a fold-out (one
  player left) gives the pot to that player; a showdown without a written result gets no award.
* Rake: the standard has no rake field; a ``rake`` user field (our simulator's ``--format phh``
  writes one, after which ``finishing_stacks`` are net of it) is read into ``site_rake`` so the
  reconciliation checks Σ awards + rake = what was put in. Absent, ``site_rake`` stays None.
* Variants: hold'em / Omaha (NT, NS, PO, FT, FO/8); stud, stud hi/lo, razz (F7S, F7S/8, FR) and
  draw games (N2L1D, F2L3D, FB) too (issue 12). In stud each ``d dh`` after the street's betting
  starts the next street (third street's three cards are two down and one up, seventh street's
  down), ``pN pb`` posts the ``bring_in`` and the first ``cbr`` over it completes; in draw games
  ``pN sd CARDS`` throws those cards (``pN sd`` stands pat) and starts the draw when the betting
  before it is over, and the next ``d dh`` are the cards drawn. Stud has no button.
* Amounts: integers stay chips (scale 1); any fractional amount makes the hand cents (scale 100),
  parsed exactly from the TOML text, never through float arithmetic.
* Hand id: ``phh:<event>:<hand>`` (plus table) when the file names them, else ``phh:`` and a
  SHA-1 of the hand's TOML text (stable across re-ingestion, distinct for distinct hands).
"""

from __future__ import annotations

import hashlib
import math
import re
import tomllib
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from parsers.base import HandFormat, read_guarded
from parsers.formats._open_betting import BOARD_STREETS, Betting
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
from parsers.reading import iter_lines

#: PHH variant code -> (canonical variant, betting structure)
VARIANTS = {
    "NT": ("holdem", "NL"),
    "NS": ("shortdeck", "NL"),
    "PO": ("omaha", "PL"),
    "FT": ("holdem", "FL"),
    "FO/8": ("omaha_hilo", "FL"),
    "F7S": ("stud", "FL"),
    "F7S/8": ("stud_hilo", "FL"),
    "FR": ("razz", "FL"),
    "N2L1D": ("draw27_single", "NL"),
    "F2L3D": ("draw27_triple", "FL"),
    "FB": ("badugi", "FL"),
}
UNSUPPORTED: set[str] = set()

_SECTION = re.compile(r"^\s*\[\s*([^\[\]\s][^\[\]]*?)\s*\]\s*(#.*)?$")
_PLAYER = re.compile(r"^p(\d+)$")
_CARD = re.compile(r"[2-9TJQKA?][cdhs?]")


class PhhFormat(HandFormat):
    name = "phh"
    priority = 40
    description = "PHH poker hand history (TOML), .phh and .phhs"

    def sniff(self, head: str) -> bool:
        """TOML from its first line (a key or a section header, after comments) with PHH keys; a
        document that merely quotes PHH (the spec's .rst pages) starts with prose instead."""
        for line in head.splitlines():
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            if not (_SECTION.match(text) or re.match(r"^[A-Za-z_][\w-]*\s*=", text)):
                return False
            break
        return (re.search(r"^\s*variant\s*=\s*['\"]", head, re.MULTILINE) is not None
                and re.search(r"^\s*(actions|starting_stacks)\s*=", head, re.MULTILINE) is not None)

    def parse(self, path: Path) -> Iterator[Hand | Quarantined]:
        source = str(path)
        for offset, length, name, text in _sections(path):
            try:
                doc = tomllib.loads(text)
            except tomllib.TOMLDecodeError as exc:
                yield Quarantined(source, offset, text, f"TOML error: {exc}", self.name)
                continue
            if name is None and not doc:
                continue  # comments / blank lines before the first section
            yield read_guarded(source, offset, text, self.name, parse_document, doc, text, source, offset, length)


def _sections(path: Path) -> Iterator[tuple[int, int, str | None, str]]:
    """(byte offset, byte length, section name or None, TOML text) per hand, streamed.

    A header line is ``[name]`` alone on its line; lines inside a multi-line array never look like
    that because PHH arrays hold quoted strings or numbers.
    """
    name: str | None = None
    lines: list[str] = []
    start = end = 0
    for line in iter_lines(path):
        m = _SECTION.match(line.text)
        if m:
            if lines:
                yield start, end - start, name, "\n".join(lines)
            name, lines, start = m.group(1), [], line.end
            end = line.end
            continue
        if not lines:
            start = line.offset
        lines.append(line.text)
        end = line.end
    if lines:
        yield start, end - start, name, "\n".join(lines)


def _scale(doc: dict[str, Any]) -> int:
    """1 when every amount is whole, 100 when any has a fractional part (cents)."""
    values: list[Any] = []
    for key in ("antes", "blinds_or_straddles", "starting_stacks", "finishing_stacks", "winnings"):
        values += list(doc.get(key) or [])
    for key in ("min_bet", "small_bet", "big_bet", "bring_in", "rake"):
        if key in doc:
            values.append(doc[key])
    for action in doc.get("actions") or []:
        parts = str(action).split("#", 1)[0].split()
        if len(parts) == 3 and parts[1] == "cbr":
            values.append(parts[2])
    for v in values:
        if isinstance(v, float) and not v.is_integer():
            return 100
        if isinstance(v, str) and "." in v and v.split(".", 1)[1].strip("0"):
            return 100
    return 1


def _units(value: Any, scale: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ParseError(f"{what}: not a number: {value!r}")
    if isinstance(value, float) and math.isinf(value):
        raise ParseError(f"{what}: unknown (inf) amount")
    return to_units(repr(value) if isinstance(value, float) else str(value), scale)


def _player_names(doc: dict[str, Any], n: int) -> list[str]:
    raw = doc.get("players") or []
    names = [str(raw[i]) if i < len(raw) and str(raw[i]).strip() else f"p{i + 1}" for i in range(n)]
    if len(set(names)) != n:  # anonymous or duplicated names: fall back to positions
        names = [f"p{i + 1}:{name}" for i, name in enumerate(names)]
    return names


def hand_id_for(doc: dict[str, Any], text: str) -> tuple[str, str]:
    """(hand_id, site_hand_no): event/table/hand fields when present, else a hash of the text."""
    if doc.get("event") and doc.get("hand") is not None:
        parts = [str(doc["event"])]
        if doc.get("table") is not None:
            parts.append(f"table {doc['table']}")
        parts.append(str(doc["hand"]))
        no = ":".join(parts)
    else:
        no = hashlib.sha1(text.strip().encode()).hexdigest()[:20]
    return f"phh:{no}", no


def parse_document(doc: dict[str, Any], text: str, source_file: str, offset: int, length: int) -> Hand:
    """Turn one PHH TOML document into a canonical hand."""
    code = doc.get("variant")
    if code in UNSUPPORTED:
        raise ParseError(f"unsupported variant {code} (stud/draw/razz: no bring-in/draw model)")
    if code not in VARIANTS:
        raise ParseError(f"unknown PHH variant {code!r}")
    variant, betting = VARIANTS[code]
    stacks_raw = doc.get("starting_stacks")
    actions_raw = doc.get("actions")
    if not isinstance(stacks_raw, list) or not isinstance(actions_raw, list) or len(stacks_raw) < 2:
        raise ParseError("missing starting_stacks or actions")
    n = len(stacks_raw)
    scale = _scale(doc)
    names = _player_names(doc, n)
    stacks = [_units(v, scale, "starting stack") for v in stacks_raw]
    antes = [_units(v, scale, "ante") for v in doc.get("antes") or [0] * n]
    blinds = [_units(v, scale, "blind") for v in doc.get("blinds_or_straddles") or [0] * n]
    if len(antes) != n or len(blinds) != n:
        raise ParseError("antes / blinds_or_straddles length differs from the player count")

    bet = Betting(dict(zip(names, stacks, strict=True)))
    family = game_family(variant)
    if family != "flop":  # antes, blinds and the bring-in belong to the first betting round
        bet.street = Street.THIRD if family == "stud" else Street.PREDRAW
    who = (lambda i: names[1 - i]) if n == 2 else (lambda i: names[i])  # heads-up: reversed
    bb_ante = 0
    uniform = len(set(antes)) == 1
    for i, a in enumerate(antes):
        if a:
            kind = Kind.POST_ANTE if uniform or i != 1 else Kind.POST_BB_ANTE
            bb_ante = a if kind is Kind.POST_BB_ANTE else bb_ante
            bet.post(who(i), kind, a)
    straddle = 0
    for i, b in enumerate(blinds):
        if b:
            kind = Kind.POST_SB if i == 0 else Kind.POST_BB if i == 1 else Kind.POST_STRADDLE
            straddle = straddle or (b if kind is Kind.POST_STRADDLE else 0)
            bet.post(who(i), kind, b)

    dealt: dict[str, str] = {}
    board: list[str] = []
    street_no = 0
    rows: list[StreetCards] = []
    if family == "flop":
        for line_no, raw in enumerate(actions_raw, 1):
            street_no = _apply(bet, str(raw), line_no, names=names, dealt=dealt, board=board, street_no=street_no,
                               scale=scale)
    else:
        bring_in = _units(doc.get("bring_in") or 0, scale, "bring-in")
        _apply_game(bet, [str(a) for a in actions_raw], names, dealt, rows, family == "stud", bring_in, scale)

    bet.derive_uncalled_return()
    seats, awards = _results(doc, bet, names, stacks, scale)
    hand_id, site_no = hand_id_for(doc, text)
    year, month, day = doc.get("year"), doc.get("month"), doc.get("day")
    started = datetime(year, month, day) if isinstance(year, int) and isinstance(month, int) \
        and isinstance(day, int) else None
    seat_numbers = doc.get("seats") or list(range(1, n + 1))
    seats = [s._replace(seat_no=int(seat_numbers[i])) for i, s in enumerate(seats)]
    hand = Hand(
        hand_id=hand_id,
        site="phh",
        site_hand_no=site_no,
        format="phh",
        variant=variant,
        betting=betting,
        game_type="tournament" if doc.get("level") is not None or "Event #" in str(doc.get("event", ""))
        else "cash",
        table_name=str(doc.get("table", doc.get("event", ""))),
        sb=blinds[0],
        bb=_limit_bb(doc, betting, scale) or (blinds[1] if n > 1 else 0),
        currency=str(doc.get("currency", "CHIPS")),
        unit_scale=scale,
        source_file=source_file,
        byte_offset=offset,
        byte_length=length,
        started_at=started,
        max_seats=doc.get("seat_count") or n,
        button_seat=seats[-1].seat_no if n > 2 else seats[1].seat_no,
        ante=antes[0] if uniform else 0,
        bb_ante=bb_ante,
        straddle=straddle,
        seats=seats,
        actions=bet.actions,
        hole_cards=_hole_cards(names, dealt),
        boards=[Board(1, "".join(board))] if board else [],
        awards=awards,
        site_rake=_units(doc["rake"], scale, "rake") if doc.get("rake") is not None else None,
    )
    if family != "flop":
        hand.street_cards = rows
        if betting == "FL" and doc.get("small_bet") is not None:
            hand.small_bet = _units(doc["small_bet"], scale, "small bet")
            hand.big_bet = _units(doc.get("big_bet") or 0, scale, "big bet") or None
        if family == "stud":
            hand.button_seat, hand.sb = None, 0
            hand.bring_in = next((a.amount or 0 for a in bet.actions if a.kind is Kind.BRING_IN), 0)
    return hand


def _apply_game(bet: Betting, actions: list[str], names: list[str], dealt: dict[str, str],
                rows: list[StreetCards], stud: bool, bring_in: int, scale: int) -> None:
    """The actions of a stud or draw hand (see the module docstring)."""
    order = (Street.THIRD, Street.FOURTH, Street.FIFTH, Street.SIXTH, Street.SEVENTH) if stud else (
        Street.PREDRAW, Street.DRAW1, Street.DRAW2, Street.DRAW3)
    k = 0
    acted = False  # a betting action on the current street (the next deal / draw starts a street)
    completed = False
    for line_no, raw in enumerate(actions, 1):
        parts = raw.split("#", 1)[0].split()
        if not parts:
            continue
        actor, verb, args = parts[0], parts[1] if len(parts) > 1 else "", parts[2:]
        if actor == "d":
            if verb != "dh" or len(args) != 2:
                raise ParseError(f"bad dealer action {raw!r} in a {'stud' if stud else 'draw'} game", line_no)
            player = _player(args[0], names, line_no)
            cards = re.findall("..", _cards(args[1], line_no))
            if stud and acted:
                k += 1
                if k >= len(order):
                    raise ParseError("more stud streets than seven cards", line_no)
                bet.new_street(order[k])
                acted = False
            before = len(re.findall("..", dealt.get(player, ""))) if stud else 0
            for i, card in enumerate(cards, before):
                up = stud and 2 <= i <= 5
                if rows and rows[-1].player == player and rows[-1].street is bet.street and rows[-1].face_up == up:
                    rows[-1] = rows[-1]._replace(cards=rows[-1].cards + card)
                else:
                    rows.append(StreetCards(player, bet.street, card, up))
            dealt[player] = dealt.get(player, "") + "".join(cards)
            continue
        player = _player(actor, names, line_no)
        if verb == "sd" and not stud:
            if acted:
                k += 1
                if k >= len(order):
                    raise ParseError("more draws than the game has", line_no)
                bet.new_street(order[k])
                acted = False
            thrown = _cards(args[0], line_no) if args else None
            bet.draw(player, thrown)
            if thrown:
                held = re.findall("..", dealt.get(player, ""))
                for card in re.findall("..", thrown):
                    if card in held:
                        held.remove(card)
                dealt[player] = "".join(held)
            continue
        acted = True
        if verb == "pb" and stud and not args:
            bet.post(player, Kind.BRING_IN, bring_in)
        elif verb == "f" and not args:
            bet.fold(player)
        elif verb == "cc" and not args:
            bet.check_or_call(player)
        elif verb == "cbr" and len(args) == 1:
            to = to_units(args[0], scale)
            if stud and bet.street is Street.THIRD and not completed:
                completed = True
                bet.complete(player, to)
            else:
                bet.raise_to(player, to)
        elif verb == "sm":
            if not args:
                bet.muck(player, street=Street.SHOWDOWN)
            else:
                shown = dealt.get(player, "") if args[0] == "-" else _cards(args[0], line_no)
                bet.show(player, shown, street=Street.SHOWDOWN)
        else:
            raise ParseError(f"unknown action {raw!r}", line_no)


def _limit_bb(doc: dict[str, Any], betting: str, scale: int) -> int:
    """Fixed limit: the model's bb is the small bet, which PHH writes as ``small_bet`` (a
    one-blind structure such as WSOP 2023 PPC FO/8 hand 76 writes no second blind at all)."""
    if betting != "FL" or doc.get("small_bet") is None:
        return 0
    return _units(doc["small_bet"], scale, "small bet")


def _apply(bet: Betting, raw: str, line_no: int, *, names: list[str], dealt: dict[str, str],
           board: list[str], street_no: int, scale: int) -> int:
    """Apply one PHH action notation; returns the street index after it."""
    parts = raw.split("#", 1)[0].split()
    if not parts:
        return street_no  # no-op / commentary
    actor, verb, args = parts[0], parts[1] if len(parts) > 1 else "", parts[2:]
    if actor == "d":
        if verb == "dh" and len(args) == 2:
            player = _player(args[0], names, line_no)
            dealt[player] = dealt.get(player, "") + _cards(args[1], line_no)
            return street_no
        if verb == "db" and len(args) == 1:
            board += re.findall("..", _cards(args[0], line_no))
            street_no += 1
            if street_no >= len(BOARD_STREETS):
                raise ParseError("more board deals than streets", line_no)
            bet.new_street(BOARD_STREETS[street_no])
            return street_no
        raise ParseError(f"bad dealer action {raw!r}", line_no)
    player = _player(actor, names, line_no)
    if verb == "f" and not args:
        bet.fold(player)
    elif verb == "cc" and not args:
        bet.check_or_call(player)
    elif verb == "cbr" and len(args) == 1:
        bet.raise_to(player, to_units(args[0], scale))
    elif verb == "sm":
        if not args:
            bet.muck(player, street=Street.SHOWDOWN)
        else:
            cards = dealt.get(player, "") if args[0] == "-" else _cards(args[0], line_no)
            if "?" not in cards and "?" in dealt.get(player, "?"):
                dealt[player] = cards  # shown cards reveal what was dealt face down
            bet.show(player, cards, street=Street.SHOWDOWN)
    elif verb in ("sd", "pb"):
        raise ParseError(f"draw / bring-in action {verb!r} in a board game", line_no)
    else:
        raise ParseError(f"unknown action {raw!r}", line_no)
    return street_no


def _player(token: str, names: list[str], line_no: int) -> str:
    m = _PLAYER.match(token)
    if not m or not 1 <= int(m.group(1)) <= len(names):
        raise ParseError(f"bad player {token!r}", line_no)
    return names[int(m.group(1)) - 1]


def _cards(text: str, line_no: int) -> str:
    cards = _CARD.findall(text)
    if "".join(cards) != text:
        raise ParseError(f"bad cards {text!r}", line_no)
    return text


def _hole_cards(names: list[str], dealt: dict[str, str]) -> list[HoleCards]:
    """OPERATOR when every dealt player's cards are known, else the known ones as SHOWN."""
    known = {p: c for p, c in dealt.items() if "?" not in c}
    provenance = Provenance.OPERATOR if dealt and len(known) == len(dealt) else Provenance.SHOWN
    return [HoleCards(p, known[p], provenance) for p in names if p in known]


def _results(doc: dict[str, Any], bet: Betting, names: list[str], stacks: list[int],
             scale: int) -> tuple[list[Seat], list[Award]]:
    """Seats with final stacks and the awards the file states (see the module docstring)."""
    put_in = {p: 0 for p in names}
    for a in bet.actions:
        put_in[a.player] += a.contribution
    finishing = doc.get("finishing_stacks")
    winnings = doc.get("winnings")
    awards: list[Award] = []
    seats: list[Seat] = []
    if isinstance(finishing, list) and len(finishing) == len(names):
        finals = [_units(v, scale, "finishing stack") for v in finishing]
        for i, p in enumerate(names):
            seats.append(Seat(i + 1, p, stacks[i], final_stack=finals[i]))
            won = finals[i] - stacks[i] + put_in[p]
            if won > 0:
                awards.append(Award(p, won, 0))
        return seats, awards
    seats = [Seat(i + 1, p, stacks[i]) for i, p in enumerate(names)]
    if isinstance(winnings, list) and len(winnings) == len(names):
        for p, v in zip(names, winnings, strict=True):
            amount = _units(v, scale, "winnings")
            if amount > 0:
                awards.append(Award(p, amount, 0))
    elif len(live := bet.in_hand()) == 1:
        awards.append(Award(live[0], sum(put_in.values()), 0))
    return seats, awards


FORMAT = PhhFormat()
