"""PokerNow CSV logs (``entry,at,order``; newest entry first).

Why these choices:

* Streaming backwards: the log is newest-first, so a hand's lines appear in reverse. The file is
  read from its end in 64 KiB blocks and split into lines there (``_reverse_lines``): lines come
  out oldest first, so hands are rebuilt in play order while memory holds one block plus one hand.
  Each CSV record is one line (PokerNow never writes a newline inside an entry).
* One cheap forward pre-pass (also streaming) settles what must be known for every hand of the
  file before the first is emitted: the unit scale (100 when any amount has decimals, so every
  amount is exact; else 1) and the log owner ("hero", see below).
* Players are identified by the PokerNow id after the last " @ " ("name @ id"): ids are stable
  per player while display names can change (and may themselves contain " @ " or quotes).
* Amounts as PokerNow writes them: "raises to N", "bets N" and "calls N" are *street totals*
  (a small blind completing writes "calls 2" at 1/2); "Uncalled bet of N returned" and
  "collected N from pot" are written and used as is (no pot number is written: awards are pot 0).
* Hero: "Your hand is ..." does not say whose hand. The owner is the player whose shown cards
  equal the "Your hand is" cards in some hand; failing that, the only player seated in every hand
  that has a "Your hand is" line; failing that, unknown (those cards are then not attributed).
* Hand id: ``pokernow:<game id>:<hand id>``; the game id comes from the export's file name
  (``poker_now_log_<game>.csv``) or else is a hash of the log's oldest hand header; the hand id is
  PokerNow's ``(id: ...)`` or, in older logs without one, ``#<number>``.
* Per-action time: every action gets the ``at`` of the log line that wrote it (``Action.acted_at``,
  UTC, milliseconds kept); the CLOCK checks measure decisions from these.
* A hand whose ending line is missing (log cut mid-hand) or that holds an unknown line is
  quarantined; table events (joins, blind changes) between hands are not hands and are skipped.
"""

from __future__ import annotations

import csv
import hashlib
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from parsers.base import HandFormat, read_guarded
from parsers.formats._open_betting import Betting
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
)
from parsers.money import to_units

CHUNK = 1 << 16
GAMES = {
    "No Limit Texas Hold'em": ("holdem", "NL"),
    "Pot Limit Omaha Hi": ("omaha", "PL"),
    "Pot Limit Omaha Hi/Lo": ("omaha_hilo", "PL"),
}
SUITS = {"♥": "h", "♦": "d", "♣": "c", "♠": "s"}

_START = re.compile(r'^-- starting hand #(\d+)\s*(?:\(id: ([^)]+)\))?\s*\((.+?)\)\s*'
                    r'\((?:dealer: "(.*)"|dead button)\) --$')
_END = re.compile(r"^-- ending hand #(\d+) --$")
_STACK = re.compile(r'#(\d+) "(.*?)" \((\d[\d.]*)\)(?= \| #|$)')
_ACTOR = re.compile(r'^"(.+?)" ((?:posts|calls|raises|bets|checks|folds|shows|mucks|collected)\b.*)$')
_POST = re.compile(r"^posts an? (small blind|big blind|ante|straddle|missing small blind|missed big blind) "
                   r"of (\d[\d.]*)( and go all in)?$")
_AMOUNT = re.compile(r"^(calls|raises to|bets) (\d[\d.]*)( and go all in)?$")
_COLLECT = re.compile(r"^collected (\d[\d.]*) from pot\b")
_SHOW = re.compile(r"^(shows|mucks) a (.+?)\.?$")
_UNCALLED = re.compile(r'^Uncalled bet of (\d[\d.]*) returned to "(.+)"$')
_BOARD = re.compile(r"^(Flop|Turn|River)(?: \((second) run\))?:\s*(.*)$")
_NUMBER = re.compile(r"(?<![\w#])\d+\.\d+")
_IGNORED = ("The player ", "The admin ", "The game's ", "IMPORTANT:", "WARNING:", "Dead Small Blind",
            "Dead Big Blind", "Player stacks", "Your hand is")
POST_KINDS = {
    "small blind": Kind.POST_SB,
    "big blind": Kind.POST_BB,
    "ante": Kind.POST_ANTE,
    "straddle": Kind.POST_STRADDLE,
    "missing small blind": Kind.POST_DEAD,
    "missed big blind": Kind.POST_BB,
}


class _Line:
    __slots__ = ("at", "end", "entry", "offset")

    def __init__(self, offset: int, end: int, entry: str, at: str) -> None:
        self.offset, self.end, self.entry, self.at = offset, end, entry, at


@dataclass
class _FileFacts:
    """What the forward pre-pass learns about the whole log."""

    scale: int = 1
    hero: str | None = None
    oldest_header: str = ""
    votes: Counter[str] = field(default_factory=Counter)


class PokerNowFormat(HandFormat):
    name = "pokernow"
    priority = 35
    description = "PokerNow CSV game logs (newest first)"

    def sniff(self, head: str) -> bool:
        first = head.lstrip("\ufeff").split("\n", 1)[0].strip()
        return first == "entry,at,order" and ("starting hand #" in head or "ending hand #" in head
                                             or "Player stacks:" in head)

    def parse(self, path: Path) -> Iterator[Hand | Quarantined]:
        source = str(path)
        facts = _prepass(path)
        game = _game_id(path, facts)
        current: list[_Line] = []
        done: list[_Line] = []  # an ended hand, kept until the next start for voluntary shows
        for line in _records(_reverse_lines(path)):
            if _START.match(line.entry):
                if done:
                    yield _guarded(done, source, game, facts)
                    done = []
                if current:
                    yield _quarantine(source, current, "hand has no ending line (log cut mid-hand)")
                current = [line]
            elif current:
                current.append(line)
                if _END.match(line.entry):
                    done, current = current, []
            elif done and (m := _ACTOR.match(line.entry)) and m.group(2).startswith(("shows", "mucks")):
                done.append(line)  # "shows a A♦, 9♦." written after the hand ended
            elif _ACTOR.match(line.entry) or _BOARD.match(line.entry) or _END.match(line.entry):
                yield _quarantine(source, [line], "hand line outside any hand (log starts mid-hand)")
        if done:
            yield _guarded(done, source, game, facts)
        if current:
            yield _quarantine(source, current, "hand has no ending line (log cut mid-hand)")


def _reverse_lines(path: Path) -> Iterator[tuple[int, int, bytes]]:
    """(offset, end, raw line) from the last line of the file to the first, in fixed blocks."""
    with path.open("rb") as fh:
        size = pos = fh.seek(0, 2)
        tail = b""  # the start of a line whose beginning lies in an earlier block
        while pos > 0:
            step = min(CHUNK, pos)
            pos -= step
            fh.seek(pos)
            parts = (fh.read(step) + tail).split(b"\n")
            tail = parts[0]
            start = pos + len(tail) + 1  # where parts[1] begins
            starts = []
            for part in parts[1:]:
                starts.append(start)
                start += len(part) + 1
            for at, part in zip(reversed(starts), reversed(parts[1:]), strict=True):
                if part.strip():
                    yield at, min(at + len(part) + 1, size), part
        if tail.strip():
            yield 0, min(len(tail) + 1, size), tail


def _csv_row(text: str) -> list[str]:
    """One log line split as CSV, or [] when it cannot be (a bare carriage return inside an unquoted
    field, say): such a line is skipped like any unreadable one, and a hand that needed it fails
    its own checks and is quarantined with the reason, instead of the whole file crashing."""
    try:
        return next(csv.reader([text]), [])
    except csv.Error:
        return []


def _records(raw_lines: Iterator[tuple[int, int, bytes]]) -> Iterator[_Line]:
    """Decode and CSV-split each line; the header and unreadable lines are skipped."""
    for offset, end, raw in raw_lines:
        text = raw.decode("utf-8", errors="replace").lstrip("\ufeff").rstrip("\r")
        row = _csv_row(text)
        if len(row) < 2 or row[:2] == ["entry", "at"]:
            continue
        yield _Line(offset, end, row[0], row[1])


def _forward_records(path: Path) -> Iterator[_Line]:
    with path.open("rb") as fh:
        offset = 0
        for raw in fh:
            text = raw.decode("utf-8", errors="replace").lstrip("\ufeff").rstrip("\r\n")
            row = _csv_row(text)
            if len(row) >= 2 and row[:2] != ["entry", "at"]:
                yield _Line(offset, offset + len(raw), row[0], row[1])
            offset += len(raw)


def _prepass(path: Path) -> _FileFacts:
    """Scale and hero for the whole file, from one forward streaming read (newest first)."""
    facts = _FileFacts()
    seated_when_dealt: set[str] | None = None
    hand_shows: dict[str, frozenset[str]] = {}
    hand_players: set[str] = set()
    mine: frozenset[str] | None = None
    for line in _forward_records(path):
        entry = line.entry
        if _NUMBER.search(_strip_names(entry)) and not entry.startswith(("The player", "The admin")):
            facts.scale = 100
        if _END.match(entry):  # newest first: an ending line opens a hand in this pass
            hand_shows, hand_players, mine = {}, set(), None
        elif entry.startswith("Your hand is "):
            mine = _card_set(entry[len("Your hand is "):])
        elif entry.startswith("Player stacks:"):
            hand_players = {_player_id(m.group(2)) for m in _STACK.finditer(entry)}
        elif (m := _ACTOR.match(entry)) and m.group(2).startswith("shows"):
            s = _SHOW.match(m.group(2))
            if s and (shown := _card_set(s.group(2))) is not None:
                hand_shows[_player_id(m.group(1))] = shown
        elif _START.match(entry):
            facts.oldest_header = f"{entry}|{line.at}"
            if mine is not None:
                for pid, shown in hand_shows.items():
                    if shown == mine:
                        facts.votes[pid] += 1
                seated_when_dealt = (hand_players if seated_when_dealt is None
                                     else seated_when_dealt & hand_players)
    if facts.votes:
        facts.hero = facts.votes.most_common(1)[0][0]
    elif seated_when_dealt is not None and len(seated_when_dealt) == 1:
        facts.hero = next(iter(seated_when_dealt))
    return facts


def _strip_names(entry: str) -> str:
    return re.sub(r'"[^"]*"', '""', entry)


def _game_id(path: Path, facts: _FileFacts) -> str:
    m = re.match(r"poker_now_log_(.+)$", path.stem)
    if m:
        return m.group(1)
    return "h" + hashlib.sha1(facts.oldest_header.encode()).hexdigest()[:16]


def _player_id(token: str) -> str:
    """'name @ id' -> 'id' (the name itself may contain ' @ ')."""
    _, sep, pid = token.rpartition(" @ ")
    return pid.strip() if sep and pid.strip() else token


def _cards(text: str) -> list[str]:
    out = []
    for raw in text.replace("[", ",").replace("]", "").split(","):
        card = raw.strip().rstrip(".")
        if not card:
            continue
        rank, suit = card[:-1], card[-1]
        if suit not in SUITS or rank not in {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}:
            raise ParseError(f"bad card {card!r}")
        out.append(("T" if rank == "10" else rank) + SUITS[suit])
    return out


def _card_set(text: str) -> frozenset[str] | None:
    """The cards of a line for the hero vote, or None when a card is unreadable: the vote skips it
    (the hand itself is quarantined with the bad card named when it is read)."""
    try:
        return frozenset(_cards(text))
    except ParseError:
        return None


def _quarantine(source: str, lines: list[_Line], reason: str) -> Quarantined:
    offset = min(ln.offset for ln in lines)
    return Quarantined(source, offset, "\n".join(ln.entry for ln in lines), reason, "pokernow")


def _guarded(lines: list[_Line], source: str, game: str, facts: _FileFacts) -> Hand | Quarantined:
    return read_guarded(source, min(ln.offset for ln in lines), [ln.entry for ln in lines], "pokernow",
                        _parse_hand, lines, source, game, facts)


def _parse_hand(lines: list[_Line], source: str, game: str, facts: _FileFacts) -> Hand:
    start = _START.match(lines[0].entry)
    assert start is not None
    number, site_id, game_name, dealer = start.groups()
    if game_name not in GAMES:
        raise ParseError(f"unsupported game {game_name!r}")
    variant, betting = GAMES[game_name]
    scale = facts.scale
    stacks_line = next((ln.entry for ln in lines if ln.entry.startswith("Player stacks:")), None)
    if stacks_line is None:
        raise ParseError("no 'Player stacks' line")
    seat_rows = [(int(m.group(1)), _player_id(m.group(2)), to_units(m.group(3), scale))
                 for m in _STACK.finditer(stacks_line)]
    if len(seat_rows) < 2:
        raise ParseError("fewer than two players in 'Player stacks'")
    bet = Betting({pid: stack for _, pid, stack in seat_rows})
    boards: dict[int, list[str]] = {1: []}
    awards: list[Award] = []
    shown: dict[str, str] = {}
    mine: str | None = None
    posts: dict[Kind, int] = {}
    times: list[datetime] = []  # acted_at of bet.actions[k]: the `at` of the line that wrote it
    ended = False
    for i, line in enumerate(lines[1:], 2):
        if len(times) < len(bet.actions):  # the previous line added actions
            times += [_utc(lines[i - 2].at)] * (len(bet.actions) - len(times))
        entry = line.entry
        if _END.match(entry):
            ended = True
        elif ended and not ((a := _ACTOR.match(entry)) and a.group(2).startswith(("shows", "mucks"))):
            raise ParseError(f"line after the hand ended {entry!r}", i)
        elif entry.startswith("Your hand is "):
            mine = "".join(_cards(entry[len("Your hand is "):]))
        elif (b := _BOARD.match(entry)) is not None:
            street, second, cards_text = b.groups()
            cards = _cards(cards_text)
            board_no = 2 if second else 1
            boards[board_no] = cards
            if not second:
                bet.new_street(Street(street.lower()))
        elif (u := _UNCALLED.match(entry)) is not None:
            bet.return_uncalled(_player_id(u.group(2)), to_units(u.group(1), scale))
        elif (a := _ACTOR.match(entry)) is not None:
            _actor_line(bet, _player_id(a.group(1)), a.group(2), scale, awards=awards, shown=shown,
                        posts=posts, line_no=i)
        elif entry.startswith(_IGNORED):
            continue
        else:
            raise ParseError(f"unrecognised line {entry!r}", i)
    if not ended:
        raise ParseError("no ending line")
    if len(times) < len(bet.actions):
        times += [_utc(lines[-1].at)] * (len(bet.actions) - len(times))

    at = _utc(lines[0].at)
    hole: list[HoleCards] = []
    if mine is not None and facts.hero is not None and facts.hero in bet.stacks:
        hole.append(HoleCards(facts.hero, mine, Provenance.DEALT))
    hole += [HoleCards(p, c, Provenance.SHOWN) for p, c in shown.items()
             if not (p == facts.hero and mine is not None)]
    seat_of = {pid: seat for seat, pid, _ in seat_rows}
    site_no = site_id or f"#{number}"
    return Hand(
        hand_id=f"pokernow:{game}:{site_no}",
        site="pokernow",
        site_hand_no=site_no,
        format="pokernow",
        variant=variant,
        betting=betting,
        game_type="cash",
        table_name=game,
        sb=posts.get(Kind.POST_SB, 0),
        bb=posts.get(Kind.POST_BB, 0),
        currency="CHIPS",
        unit_scale=scale,
        source_file=source,
        byte_offset=min(ln.offset for ln in lines),
        byte_length=max(ln.end for ln in lines) - min(ln.offset for ln in lines),
        started_at=at,
        button_seat=seat_of.get(_player_id(dealer)) if dealer else None,
        ante=posts.get(Kind.POST_ANTE, 0),
        straddle=posts.get(Kind.POST_STRADDLE, 0),
        hero=facts.hero if facts.hero in bet.stacks else None,
        seats=[Seat(seat, pid, stack) for seat, pid, stack in seat_rows],
        actions=[a._replace(acted_at=t) for a, t in zip(bet.actions, times, strict=True)],
        hole_cards=hole,
        boards=[Board(no, "".join(c)) for no, c in sorted(boards.items()) if c],
        awards=awards,
    )


def _utc(at: str) -> datetime:
    """PokerNow's ``at`` ("2025-11-15T05:09:41.021Z") as a naive UTC datetime (milliseconds kept)."""
    return datetime.fromisoformat(at.replace("Z", "+00:00")).astimezone(UTC).replace(tzinfo=None)


def _actor_line(bet: Betting, player: str, rest: str, scale: int, *, awards: list[Award],
                shown: dict[str, str], posts: dict[Kind, int], line_no: int) -> None:
    """One '"name @ id" ...' line."""
    if (p := _POST.match(rest)) is not None:
        kind = POST_KINDS[p.group(1)]
        amount = to_units(p.group(2), scale)
        posts.setdefault(kind, amount)
        bet.post(player, kind, amount)
    elif (m := _AMOUNT.match(rest)) is not None:
        amount = to_units(m.group(2), scale)
        if m.group(1) == "calls":
            bet.call_to(player, amount)
        else:
            bet.raise_to(player, amount)
    elif rest == "checks":
        bet.check(player)
    elif rest == "folds":
        bet.fold(player)
    elif (c := _COLLECT.match(rest)) is not None:
        awards.append(Award(player, to_units(c.group(1), scale), 0))
    elif (s := _SHOW.match(rest)) is not None:
        cards = "".join(_cards(s.group(2)))
        cards += "??" * max(0, 2 - len(cards) // 2)
        shown[player] = cards
        if s.group(1) == "shows":
            bet.show(player, cards, street=Street.SHOWDOWN)
        else:
            bet.muck(player, cards, street=Street.SHOWDOWN)
    else:
        raise ParseError(f"unrecognised action {rest!r}", line_no)


FORMAT = PokerNowFormat()
