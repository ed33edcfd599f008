"""PokerStars text hand histories (cash, tournament, Zoom, archive and Home Game layouts).

Why written this way: ingest must reach tens of thousands of hands per second, so each line is
classified by cheap string tests (``startswith``/``endswith``/``partition``) and only the rare
header/seat/summary lines touch a regex. Player names may hold spaces, colons and brackets, so
every split is anchored on the line's *ending* ("…: raises X to Y", "… collected X from pot"),
and every name must be one that was seated, so a damaged line is quarantined instead of read
as something plausible.

Accounting conventions (what reconciliation checks):

* ``site_total_pot``/``site_rake`` are the summary's "Total pot X | Rake Y"; other "| Name Z"
  drops (jackpot, bad-beat fund) go to ``site_fees``. PokerStars' total is already "everything
  put in, rake included, after uncalled returns".
* "Main pot X. Side pot-N Y." amounts are written *after* rake, so ``Pot`` rows are emitted only
  when the rake and fees are zero (then they are the pre-rake pots too).
* Cash-outs ("X cashed out the hand for P | Cash Out Fee F") are a deal between the player and
  the site, paid from the site's money, not from the pot: they are a ``cash_out`` action (amount
  P, contribution 0). A pot share the summary marks "won (W) … (pot not awarded as player cashed
  out)" was taken by the site instead of the player, so W goes into ``site_fees``; awards stay
  exactly the "collected" lines. Σ awards + rake + fees = total pot then holds for every hand,
  and a player's money result is Σ awards + Σ cash_out amounts − Σ contribution.
* "posts small & big blinds T" is ``post_bb`` (the big blind, live) + ``post_dead`` (T − bb).
* Fixed-limit headers give the small/big *bets*; ``Hand.bb`` is the small bet (the big blind)
  and ``Hand.sb`` the posted small blind.

Two readers share the byte-level hand splitting (``_iter_hand_bytes``): ``parse`` (this module's
exact line parser, one ``Hand`` per hand) and the batching protocol of ``parsers.base.
ChunkedFormat`` (``iter_pieces`` + ``chunk_from_pieces``), which hands UTF-8 hands to the
vectorised fast path (``pokerstars_fast.py``) and runs this parser only on the hands that path
leaves aside. Ingest uses the second; tests prove both give the same rows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

from parsers.base import CHUNK_BYTES, Chunk, ChunkedFormat, Piece, TextHandFormat, guarded_parse
from parsers.formats._stars_money import StarsMoney
from parsers.formats._stars_quiet import IGNORED_LINES, IGNORED_PARTS, IGNORED_SUFFIXES, IGNORED_VERBS
from parsers.formats.pokerstars_fast import UNSAFE_BYTES, UNSAFE_CHARS, parse_chunk
from parsers.formats.pokerstars_header import (
    GAME_CARDS,
    HOLE_COUNT,
    START_RE,
    Header,
    Table,
    parse_header,
    parse_table,
)
from parsers.model import (
    DRAW_STREETS,
    Action,
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
    StreetCards,
    game_family,
)
from parsers.reading import SNIFF_BYTES, Block, Line, _decode_line, detect_encoding, iter_blocks, iter_lines

_SEAT_RE = re.compile(r"^Seat (\d+): (.+) \((.+?) in chips(?:, [^)]*)?\)(.*)$")
_SUMMARY_CARDS_RE = re.compile(
    r"^Seat \d+: (.+?)(?: \((?:button|small blind|big blind|button blind)\))* (?:showed|mucked) \[([^\]]*)\]"
)
_WON_RE = re.compile(r"won \(([^)]*)\)")
_BRACKETS_RE = re.compile(r"\[([^\]]*)\]")
_POTS_RE = re.compile(r"(Total pot|Main pot|Side pot(?:-(\d+))?) (\S+?)\.?(?= |$)")

#: live posts by their PokerStars wording (prefix of the verb)
_POSTS: tuple[tuple[str, Kind], ...] = (
    ("posts small blind ", Kind.POST_SB),
    ("posts big blind ", Kind.POST_BB),
    ("posts the ante ", Kind.POST_ANTE),
    ("posts button blind ", Kind.POST_BB),
    ("posts straddle ", Kind.POST_STRADDLE),
)
_STREETS = {
    "FLOP": Street.FLOP,
    "TURN": Street.TURN,
    "RIVER": Street.RIVER,
    "SHOW DOWN": Street.SHOWDOWN,
    "PRE-FLOP": Street.PREFLOP,
}
#: stud and draw street markers (issue 12); stud's seventh street is written "RIVER"
_STUD_STREETS = {"3rd STREET": Street.THIRD, "4th STREET": Street.FOURTH, "5th STREET": Street.FIFTH,
                 "6th STREET": Street.SIXTH, "RIVER": Street.SEVENTH, "SHOW DOWN": Street.SHOWDOWN}
_DRAW_STREETS = {"DEALING HANDS": Street.PREDRAW, "FIRST DRAW": Street.DRAW1, "SECOND DRAW": Street.DRAW2,
                 "THIRD DRAW": Street.DRAW3, "SHOW DOWN": Street.SHOWDOWN}
#: stud/draw dealer notices that move no chips (a pair showing on fourth street allows the big bet)
_GAME_NOTICES = frozenset({"The deck is reshuffled", "Pair on board - a double bet is allowed"})
#: the shared skip lists as sets for the per-line membership tests
_IGNORED_VERBS = frozenset(IGNORED_VERBS)
_IGNORED_LINES = frozenset(IGNORED_LINES)
_OTHER_SUMMARY_PREFIXES = ("Board [", "FIRST Board [", "SECOND Board [", "Hand was run ", "Seat ")


def _cards(text: str) -> str:
    return text.replace(" ", "")


def _all_in(tail: str) -> bool:
    """The text after an amount's " and " puts the player all-in: "is all-in", or in a CAP game
    "has reached the $80 cap" (PokerStars: "Once that limit is reached, the player is treated as
    all-in"; no more chips, no more decisions, the board may be run twice)."""
    return "all-in" in tail or (tail.startswith("has reached the ") and tail.endswith(" cap"))


def _split_archive_lines(lines: Iterator[Line]) -> Iterator[Line]:
    """Lines as written, also splitting old Mac (CR-only) files whose lines arrive joined.

    Offsets inside a CR-joined line are counted in UTF-8 bytes (exact for ASCII text)."""
    for line in lines:
        if "\r" not in line.text:
            yield line
            continue
        offset = line.offset
        for piece in line.text.split("\r"):
            end = offset + len(piece.encode("utf-8")) + 1
            yield Line(offset, min(end, line.end), piece)
            offset = end


_CHUNK = 1 << 20
_START_BYTES = re.compile(
    rb"^[ \t]*(?:PokerStars|POKERSTARS) (?:Zoom |ZOOM |Home Game |HOME GAME |Rush )?"
    rb"(?:Hand|Game|HAND|GAME|Tournament|TOURNAMENT) #",
    re.MULTILINE,
)


def _make_block(data: bytes, offset: int, encoding: str) -> Block | None:
    """Decode one hand's bytes into lines (a stray cp1252 byte in UTF-8 decodes that line as
    cp1252, as the shared reader does); None for blank text."""
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError:
        text = "\n".join(_decode_line(raw, encoding) for raw in data.split(b"\n"))
    lines = text.replace("\r\n", "\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        return None
    return Block(offset, len(data), lines)


#: a hand start after a line break: Python's re has no fast scan for a MULTILINE "^", so the
#: newline is matched literally (6x faster) and the buffer's first byte is tested apart
_START_AFTER_NL = re.compile(b"\n" + _START_BYTES.pattern[1:])


def _hand_starts(buf: bytes) -> list[int]:
    """Byte offsets of every line of ``buf`` that starts a hand (as ``_START_BYTES``)."""
    starts = [0] if _START_BYTES.match(buf) else []
    starts.extend(m.start() + 1 for m in _START_AFTER_NL.finditer(buf))
    return starts


def _iter_hand_bytes(
    path: Path, encoding: str, bom: int, chunk_bytes: int
) -> Iterator[Quarantined | list[tuple[int, bytes]]]:
    """The file's hands as (file offset, bytes), a buffer of ``chunk_bytes`` at a time, cut at
    hand starts; text before the first hand is quarantined unless it is only banners."""
    source = str(path)
    with path.open("rb") as fh:
        fh.seek(bom)
        base = bom  # file offset of buf[0]
        buf = b""
        first = True
        while True:
            chunk = fh.read(chunk_bytes)
            buf = buf + chunk if buf else chunk
            starts = _hand_starts(buf)
            if chunk and len(starts) < 2 and not (first and starts and starts[0] > 0):
                continue  # no complete hand in the buffer yet
            end = starts[-1] if chunk and starts else len(buf)
            if first:
                first = False
                pre = buf[: starts[0]] if starts else buf[:end]
                if pre:
                    block = _make_block(pre, base, encoding)
                    if block is not None and not all(_is_separator(t) for t in block.lines):
                        raw = "\n".join(block.lines)
                        yield Quarantined(source, base, raw, "text outside any hand", "pokerstars")
            bounds = [s for s in starts if s < end] + [end]
            yield [(base + s, buf[s:e]) for s, e in pairwise(bounds)]
            if not chunk:
                return
            buf = buf[end:]
            base += end


#: the batching protocol's chunk (``parsers.base.Chunk``), under the name tests and benches know
StarsChunk = Chunk


def _is_separator(text: str) -> bool:
    s = text.strip()
    return not s or (s.startswith("*****") and s.endswith("*****"))


class PokerStarsFormat(TextHandFormat, ChunkedFormat):
    name = "pokerstars"
    priority = 20
    description = "PokerStars text hand histories (cash, tournament, Zoom, archive, Home Game)"

    def sniff(self, head: str) -> bool:
        """The first line with text (after any archive banner) is a PokerStars header."""
        for line in head.splitlines()[:20]:
            if _is_separator(line):
                continue
            return START_RE.match(line) is not None and "Tournament #" not in line[:40]
        return False

    def is_start(self, line: str) -> bool:
        c = line[:1]
        if c not in ("P", " "):
            return False
        return START_RE.match(line) is not None

    def parse(self, path: Path) -> Iterator[Hand | Quarantined]:
        """Stream the file's hands: byte chunks cut at hand starts (fast), or line by line for
        UTF-16 and old Mac CR-only files."""
        with path.open("rb") as fh:
            head = fh.read(SNIFF_BYTES)
        encoding, bom = detect_encoding(head)
        if encoding.startswith("utf-16") or (b"\r" in head and b"\n" not in head):
            yield from self._parse_lines(path)
        else:
            yield from self._parse_chunks(path, encoding, bom)

    def _parse_chunks(self, path: Path, encoding: str, bom: int) -> Iterator[Hand | Quarantined]:
        source = str(path)
        for item in _iter_hand_bytes(path, encoding, bom, _CHUNK):
            if isinstance(item, Quarantined):
                yield item
                continue
            for offset, data in item:
                block = _make_block(data, offset, encoding)
                if block is not None:
                    yield from guarded_parse(self, block, source)

    def iter_pieces(self, path: Path, chunk_bytes: int = CHUNK_BYTES) -> Iterator[list[Piece] | Hand | Quarantined]:
        """The batching protocol (``parsers.base.ChunkedFormat``): the file's hands as raw UTF-8
        pieces (source, offset, bytes), ``chunk_bytes`` at a time. Files the fast path does not
        read (UTF-16, old Mac line ends) come as the parser's Hand/Quarantined items."""
        with path.open("rb") as fh:
            head = fh.read(SNIFF_BYTES)
        encoding, bom = detect_encoding(head)
        if encoding != "utf-8" or (b"\r" in head and b"\n" not in head):
            yield from self.parse(path)
            return
        source = str(path)
        for item in _iter_hand_bytes(path, encoding, bom, chunk_bytes):
            if isinstance(item, Quarantined):
                yield item
            elif item:
                yield [(source, offset, data) for offset, data in item]

    def chunk_from_pieces(self, pieces: list[Piece]) -> Chunk:
        """Frames for UTF-8 hand pieces (of one or several files); ``_hx`` is the piece index."""
        encoding = "utf-8"
        texts: list[str] = []
        offsets: list[int] = []
        lengths: list[int] = []
        slow: list[tuple[int, bytes]] = []  # (chunk index, bytes) for the exact parser
        # one scan of the whole buffer for characters the fast path leaves to the parser
        whole = b"".join(data for _, _, data in pieces)
        suspect = any(b in whole for b in UNSAFE_BYTES)
        del whole
        for _, offset, data in pieces:
            try:
                text = data.decode(encoding)
            except UnicodeDecodeError:
                text = ""
            if not text or (suspect and any(ch in text for ch in UNSAFE_CHARS)):
                slow.append((len(texts), data))
                text = ""  # a placeholder row: never read (its index is in fallback)
            texts.append(text)
            offsets.append(offset)
            lengths.append(len(data))
        sources = [source for source, _, _ in pieces]
        fast = parse_chunk(texts, offsets, lengths, sources)
        redo = set(fast.fallback) | {i for i, _ in slow}
        items = [(i, out) for i in sorted(redo) for out in self.parse_piece(pieces[i])]
        return Chunk(fast.tables, items, len(pieces))

    def parse_piece(self, piece: Piece) -> Iterator[Hand | Quarantined]:
        """One UTF-8 piece by the exact parser (nothing for blank text)."""
        source, offset, data = piece
        block = _make_block(data, offset, "utf-8")
        if block is not None:
            yield from guarded_parse(self, block, source)

    def _parse_lines(self, path: Path) -> Iterator[Hand | Quarantined]:
        source = str(path)
        lines = _split_archive_lines(iter_lines(path))
        for block in iter_blocks(lines, self.is_start):
            # archive files put "*********** # 1 ****" banners between hands: not text to quarantine
            if not self.is_start(block.lines[0]) and all(_is_separator(t) for t in block.lines):
                continue
            yield from guarded_parse(self, block, source)

    def parse_block(self, block: Block, source_file: str) -> Hand | None:
        return _parse_hand(block, source_file)


def _parse_hand(block: Block, source_file: str) -> Hand | None:
    """One hand block as a ``Hand`` (None for a tournament summary): header and table line first,
    since they fix the game, currency and stakes every later line is read against; stud and draw
    then go to ``_parse_game``, flop games to ``_parse_flop``."""
    lines = block.lines
    first = lines[0].strip()
    if "Tournament #" in first[:40] and not ("Hand #" in first or "Game #" in first):
        return None  # a tournament summary: no hand in it
    header = parse_header(first)
    lines = _hand_lines(lines)
    family = game_family(header.variant)
    table = parse_table(lines[1], buttonless=family == "stud")
    currency = _currency(header, table, lines[0])
    scale = 1 if currency in ("PLAY", "CHIPS") else 100
    money = StarsMoney(scale)
    hand = _new_hand(header, table, currency, money, block, source_file)
    if family != "flop":
        return _parse_game(hand, lines, money, family)
    return _parse_flop(hand, header, lines, money)


def _hand_lines(lines: list[str]) -> list[str]:
    """The block's lines with double spacing undone; at least a header and a table line must be
    there, as everything after the table line is read against both."""
    if len(lines) > 1 and not lines[1].strip():  # double-spaced exports ("\r\r\n" line ends)
        lines = [t for t in lines if t.strip()]
    if len(lines) < 2:
        raise ParseError("truncated hand: no table line", 1)
    return lines


def _currency(header: Header, table: Table, first_line: str) -> str:
    """The hand's currency: the header's ISO code, "PLAY" for play-money tables, else guessed from
    the stakes (chips when they start with a digit), refused when the symbol did not decode."""
    currency = header.currency
    if table.play_money:
        currency = "PLAY"
    if currency is None:
        if any(ch in first_line for ch in "\ufffd"):
            raise ParseError("currency symbol undecodable and no ISO code in the header", 1)
        currency = "PLAY" if header.stakes_bb[:1].isdigit() else "USD"
    return currency


def _new_hand(header: Header, table: Table, currency: str, money: StarsMoney, block: Block,
              source_file: str) -> Hand:
    """The ``Hand`` as the header and table line describe it, before any seat or action."""
    return Hand(
        hand_id=f"pokerstars:{header.hand_no}",
        site="pokerstars",
        site_hand_no=header.hand_no,
        format="pokerstars",
        variant=header.variant,
        betting=header.betting,
        game_type=header.game_type,
        table_name=table.name,
        sb=money(header.stakes_sb, 1),
        bb=money(header.stakes_bb, 1),
        currency=currency,
        unit_scale=money.scale,
        source_file=source_file,
        byte_offset=block.offset,
        byte_length=block.length,
        started_at=header.started_at,
        tournament_id=header.tournament_id,
        tournament_level=header.tournament_level,
        max_seats=table.max_seats,
        button_seat=table.button_seat,
        mix=header.mix,
    )


def _parse_flop(hand: Hand, header: Header, lines: list[str], money: StarsMoney) -> Hand:
    """A flop game (hold'em, omaha...): stakes, seats, the body line by line, then what only the
    whole hand settles (site totals, boards, hole cards)."""
    if header.ante is not None:
        hand.ante = money(header.ante, 1)
    if header.betting == "FL":  # header gives small/big bets: the big blind is the small bet
        hand.bb = hand.sb
        hand.sb = hand.bb // 2
    names, start = _read_seats(hand, lines, money)
    reading = _FlopReading(hand, names, money)
    reading.read_body(lines, start)
    _site_totals(hand, reading.sb_posted, reading.total_pot, reading.rake, reading.fees, reading.written_pots)
    final_boards = reading.summary_boards or reading.boards
    hand.boards = [Board(k, c) for k, c in sorted(final_boards.items()) if c]
    _flop_hole_cards(hand, reading.dealt, reading.shown)
    return hand


def _read_seats(hand: Hand, lines: list[str], money: StarsMoney) -> tuple[set[str], int]:
    """The ``Seat N: NAME (X in chips)`` lines after the table line onto ``hand.seats``; returns
    the seated names (every later line must name one of them) and the index of the first line
    after the seats."""
    seats = hand.seats
    names: set[str] = set()
    n = len(lines)
    i = 2
    while i < n:
        text = lines[i].strip()
        if not text.startswith("Seat "):
            break
        m = _SEAT_RE.match(text)
        if m is None:
            raise ParseError(f"unreadable seat line: {text!r}", i + 1)
        player = m.group(2)
        seats.append(Seat(int(m.group(1)), player, money(m.group(3), i + 1), bool(m.group(4).strip())))
        names.add(player)
        i += 1
    if not seats:
        raise ParseError("truncated hand: no seats", i + 1)
    return names, i


def _marker_label(text: str) -> str:
    """'*** FLOP *** [Ah Kd 2c]' -> 'FLOP' (a marker's text between its stars)."""
    return text[4 : text.find(" ***", 3)] if " ***" in text[3:] else text[4:]


def _live_post(verb: str, text: str, money: StarsMoney, line_no: int) -> tuple[Kind, int, bool]:
    """A ``posts ...`` verb (other than "small & big blinds") as its kind, amount and all-in."""
    post = next((p for p in _POSTS if verb.startswith(p[0])), None)
    if post is None:
        raise ParseError(f"unknown post {text!r}", line_no)
    prefix, kind = post
    amt_text, _, tail = verb[len(prefix) :].partition(" and ")
    return kind, money(amt_text, line_no), _all_in(tail)


class _Reading:
    """What one hand's body lines have built so far, and the line dispatch both grammars share.

    Why a class: the per-line handlers share a dozen running values (street, chips committed,
    sequence number, summary totals); ``__slots__`` keeps their reads and writes cheap on the
    hot path. ``_FlopReading`` and ``_GameReading`` add their games' streets, cards and verbs."""

    __slots__ = (
        "append",
        "board_no",
        "committed",
        "fees",
        "hand",
        "money",
        "names",
        "rake",
        "sb_posted",
        "seq",
        "shown",
        "street",
        "total_pot",
        "written_pots",
    )
    #: dealer notices this game writes that move no chips
    notices: frozenset[str] = frozenset()

    def __init__(self, hand: Hand, names: set[str], money: StarsMoney, street: Street) -> None:
        self.hand = hand
        self.names = names
        self.money = money
        self.append = hand.actions.append
        self.street = street
        self.committed: dict[str, int] = {}  # each player's chips in on this street
        self.shown: dict[str, str] = {}
        self.seq = 0
        self.board_no = 1
        self.total_pot: int | None = None
        self.rake: int | None = None
        self.fees = 0
        self.written_pots: list[Pot] = []
        self.sb_posted: int | None = None

    def read_body(self, lines: list[str], start: int) -> None:
        """Every line from ``start`` on, each to the handler for its kind (line numbers in errors
        are 1-based); from ``*** SUMMARY ***`` on, lines are the summary's. A hand with no summary
        is truncated unless it was cancelled."""
        names = self.names
        # bound once: this loop runs for every line of every hand
        street_marker, summary_line, dealt_line = self.street_marker, self.summary_line, self.dealt_line
        uncalled, player_line, other_line = self.uncalled, self.player_line, self.other_line
        in_summary = False
        n = len(lines)
        i = start
        while i < n:
            text = lines[i].strip()
            i += 1
            if not text:
                continue
            if text[0] == "*":
                if text.startswith("*** "):
                    label = _marker_label(text)
                    if label == "SUMMARY":
                        in_summary = True
                    else:
                        street_marker(label, text, i)
                    continue
                if _is_separator(text):
                    continue
                raise ParseError(f"unrecognised line {text!r}", i)
            if in_summary:
                summary_line(text, i)
                continue
            if ' said, "' in text:
                continue
            if text.startswith("Dealt to "):
                dealt_line(text, i)
                continue
            if text.startswith("Uncalled bet ("):
                uncalled(text, i)
                continue
            name, sep, verb = _actor(text, names)
            if sep and name in names:
                player_line(name, verb, text, i)
                continue
            other_line(text, i)
        if not in_summary and not self.hand.cancelled:
            raise ParseError(f"truncated hand: no summary after line {n} ({lines[-1].strip()!r})", n)

    def street_marker(self, label: str, text: str, line_no: int) -> None:
        """A ``*** LABEL ***`` line other than the summary's: each game names its own streets."""
        raise NotImplementedError

    def dealt_line(self, text: str, line_no: int) -> None:
        """A ``Dealt to NAME [cards]`` line: each game deals its own way."""
        raise NotImplementedError

    def player_line(self, name: str, verb: str, text: str, line_no: int) -> None:
        """A seated player's ``NAME: VERB``: each game has its own verbs."""
        raise NotImplementedError

    def post(self, name: str, verb: str, text: str, line_no: int) -> None:
        """A ``posts ...`` verb other than both blinds at once: each game has its own forced bets."""
        raise NotImplementedError

    def summary_board(self, text: str) -> bool:
        """A summary board line kept by the game (True), or not one (False)."""
        return False

    def summary_line(self, text: str, line_no: int) -> None:
        """A line after ``*** SUMMARY ***``: the site's totals, a seat's result, or a board."""
        if text.startswith("Total pot "):
            self.total_pot, self.rake, self.fees, self.written_pots = _parse_total(text, self.money, line_no)
        elif text.startswith("Seat "):
            self.fees += _summary_seat(text, self.names, self.shown, self.money, line_no)
        elif not self.summary_board(text) and not text.startswith(_OTHER_SUMMARY_PREFIXES):
            raise ParseError(f"unrecognised summary line {text!r}", line_no)

    def uncalled(self, text: str, line_no: int) -> None:
        """An ``Uncalled bet (X) returned to NAME`` line: a negative contribution."""
        back = _uncalled(text, self.names, self.money, line_no, self.seq, self.street)
        self.committed[back.player] = self.committed.get(back.player, 0) + back.contribution
        self.append(back)
        self.seq += 1

    def post_both_blinds(self, name: str, verb: str, line_no: int) -> None:
        """"posts small & big blinds T": the big blind (live) then T - bb dead; advances ``seq``
        past the first of the two actions (the caller's usual step passes the second)."""
        amt_text, _, tail = verb[25:].partition(" and ")
        total = self.money(amt_text, line_no)
        live = min(self.hand.bb, total)
        self.committed[name] = self.committed.get(name, 0) + live
        all_in = _all_in(tail)
        self.append(Action(self.seq, self.street, name, Kind.POST_BB, live, None, all_in, live))
        self.seq += 1
        dead = total - live
        self.append(Action(self.seq, self.street, name, Kind.POST_DEAD, dead, None, all_in, dead))

    def post_show_or_muck(self, name: str, verb: str, text: str, line_no: int) -> bool:
        """The verbs every game shares after its wagers: a post, show or muck (True: it took a
        sequence number), a verb ignored (False); any other is an error."""
        if verb.startswith("posts small & big blinds "):
            self.post_both_blinds(name, verb, line_no)
        elif verb.startswith("posts "):
            self.post(name, verb, text, line_no)
        elif verb.startswith("shows ") or verb.startswith("mucks "):
            self.show_or_muck(name, verb, text, line_no)
        elif verb in _IGNORED_VERBS or verb.startswith("is sitting out"):
            return False
        else:
            raise ParseError(f"unrecognised action {text!r}", line_no)
        return True

    def show_or_muck(self, name: str, verb: str, text: str, line_no: int) -> None:
        """A ``shows [..]``/``mucks [..]`` verb: its action, and the cards into ``shown``."""
        found = _BRACKETS_RE.findall(verb)
        cards = _cards(found[0]) if found else None
        is_show = verb[0] == "s"
        if cards:
            self.shown.setdefault(name, cards)
        elif is_show:
            raise ParseError(f"show without cards {text!r}", line_no)
        show_kind = Kind.SHOW if is_show else Kind.MUCK
        self.append(Action(self.seq, self.street, name, show_kind, None, None, False, 0, cards))

    def other_line(self, text: str, line_no: int) -> None:
        """A line that is no seated player's ``NAME: VERB``: collects, cash-outs, notices that move
        no chips, a cancelled hand; anything else is refused."""
        if " collected " in text:
            self.hand.awards.append(_collect(text, self.names, self.money, line_no, self.board_no))
        elif " cashed out the hand for " in text:
            self.append(_cash_out(text, self.names, self.money, line_no, self.seq))
            self.seq += 1
        elif text in _IGNORED_LINES or text in self.notices:
            pass
        elif text == "Hand cancelled":
            self.hand.cancelled = True
        elif not (text.endswith(IGNORED_SUFFIXES) or any(part in text for part in IGNORED_PARTS)):
            raise ParseError(f"unrecognised line {text!r}", line_no)


class _FlopReading(_Reading):
    """A flop game's body: run-twice boards, blinds, antes and straddles, hole cards dealt."""

    __slots__ = ("boards", "dealt", "summary_boards")

    def __init__(self, hand: Hand, names: set[str], money: StarsMoney) -> None:
        _Reading.__init__(self, hand, names, money, Street.PREFLOP)
        self.dealt: dict[str, str] = {}
        self.boards: dict[int, str] = {}  # board number -> cards, from the street markers
        self.summary_boards: dict[int, str] = {}  # the same from the summary (preferred)

    def street_marker(self, label: str, text: str, line_no: int) -> None:
        """A street marker; "FIRST "/"SECOND " name the board of a hand run twice, and a showdown
        marker sets which board the following collects are paid from."""
        if label.startswith("HOLE CARDS") or label.startswith("DEALING"):
            self.street = Street.PREFLOP
            return
        which = 1
        if label.startswith("FIRST "):
            label = label[6:]
        elif label.startswith("SECOND "):
            label = label[7:]
            which = 2
        new_street = _STREETS.get(label)
        if new_street is None:
            raise ParseError(
                f"street marker {text!r} is not PokerStars layout (third-party converter, "
                "e.g. VitamintK's Pluribus files)",
                line_no,
            )
        if new_street is Street.SHOWDOWN:
            self.board_no = which
        else:
            found = _BRACKETS_RE.findall(text)
            if found:
                self.boards[which] = "".join(_cards(b) for b in found)
        if new_street is not self.street:
            self.street = new_street
            self.committed = {}

    def summary_board(self, text: str) -> bool:
        """A summary "Board [..]" line (of board 1, or "SECOND Board [..]" of board 2)."""
        if "Board [" not in text:
            return False
        found = _BRACKETS_RE.findall(text)
        self.summary_boards[2 if text.startswith("SECOND") else 1] = _cards(found[0]) if found else ""
        return True

    def dealt_line(self, text: str, line_no: int) -> None:
        """``Dealt to NAME [cards]`` (a name may hold " [", so the last one is cut)."""
        name, sep, rest = text[9:].rpartition(" [")
        if not sep:
            if text[9:] in self.names:
                return
            raise ParseError(f"unreadable Dealt to line {text!r}", line_no)
        if name not in self.names:
            raise ParseError(f"cards dealt to unseated player {name!r}", line_no)
        self.dealt[name] = "".join(_cards(c) for c in _BRACKETS_RE.findall("[" + rest))

    def player_line(self, name: str, verb: str, text: str, line_no: int) -> None:
        """A seated player's ``NAME: VERB``: a decision, a post, a show or muck."""
        wager = _wager(verb, text, self.seq, self.street, name, self.money, line_no, self.committed)
        if wager is not None:
            self.append(wager)
        elif not self.post_show_or_muck(name, verb, text, line_no):
            return
        self.seq += 1

    def post(self, name: str, verb: str, text: str, line_no: int) -> None:
        """A blind, ante or straddle; the first of each sets the hand's ante, small blind (as
        posted) and straddle."""
        kind, amount, all_in = _live_post(verb, text, self.money, line_no)
        hand = self.hand
        if kind is Kind.POST_ANTE:
            if not hand.ante:
                hand.ante = amount
        else:
            self.committed[name] = self.committed.get(name, 0) + amount
            if kind is Kind.POST_SB and self.sb_posted is None:
                self.sb_posted = amount
            elif kind is Kind.POST_STRADDLE and not hand.straddle:
                hand.straddle = amount
        self.append(Action(self.seq, self.street, name, kind, amount, None, all_in, amount))


def _flop_hole_cards(hand: Hand, dealt: dict[str, str], shown: dict[str, str]) -> None:
    """Hole cards: one player dealt is the hero (DEALT); several means the operator's export of
    everyone's (OPERATOR); others' shown cards are padded with "?" to the variant's count."""
    hole = hand.hole_cards
    if len(dealt) > 1:
        for player, cards in dealt.items():
            hole.append(HoleCards(player, cards, Provenance.OPERATOR))
    elif dealt:
        hero, cards = next(iter(dealt.items()))
        hand.hero = hero
        hole.append(HoleCards(hero, cards, Provenance.DEALT))
    want = HOLE_COUNT.get(hand.variant, 2) * 2
    for player, cards in shown.items():
        if player not in dealt:
            hole.append(HoleCards(player, cards.ljust(want, "?"), Provenance.SHOWN))


def _wager(verb: str, text: str, seq: int, street: Street, name: str, money: StarsMoney, line_no: int,
           committed: dict[str, int]) -> Action | None:
    """A fold, check, call, bet or raise as its action, keeping ``committed`` (each player's chips in
    this street) up to date; None for any other verb."""
    if verb.startswith("folds"):
        return Action(seq, street, name, Kind.FOLD)
    if verb.startswith("checks"):
        return Action(seq, street, name, Kind.CHECK)
    if verb.startswith(("calls ", "bets ")):
        is_call = verb[0] == "c"
        amt_text, _, tail = verb[6 if is_call else 5:].partition(" and ")
        amount = money(amt_text, line_no)
        committed[name] = committed.get(name, 0) + amount
        if is_call:
            return Action(seq, street, name, Kind.CALL, amount, None, _all_in(tail), amount)
        return Action(seq, street, name, Kind.BET, amount, amount, _all_in(tail), amount)
    if verb.startswith("raises "):
        body, _, tail = verb[7:].partition(" and ")
        by_text, to_sep, to_text = body.partition(" to ")
        if not to_sep:
            raise ParseError(f"unreadable raise {text!r}", line_no)
        amount = money(by_text, line_no)
        raise_to = money(to_text, line_no)
        contribution = raise_to - committed.get(name, 0)
        committed[name] = raise_to
        return Action(seq, street, name, Kind.RAISE, amount, raise_to, _all_in(tail), contribution)
    return None


def _summary_seat(text: str, names: set[str], shown: dict[str, str], money: StarsMoney, line_no: int) -> int:
    """A summary ``Seat N: ...`` line: cards it shows or mucks go into ``shown``; returns the pot
    the site kept back because the player had cashed out (a fee, not an award)."""
    if "showed [" in text or "mucked [" in text:
        m = _SUMMARY_CARDS_RE.match(text)
        if m is not None and m.group(1) in names:
            shown.setdefault(m.group(1), _cards(m.group(2)))
    if text.endswith("(pot not awarded as player cashed out)"):
        return sum(money(won, line_no) for won in _WON_RE.findall(text))
    return 0


def _actor(text: str, names: set[str]) -> tuple[str, str, str]:
    """``NAME: VERB`` split at the ": " that ends a seated player's name (a name or a verb may hold
    ": " too, e.g. "(HI: a flush; LO: 7,5,4,3,A)"); ``sep`` is empty when the line has none."""
    name, sep, verb = text.rpartition(": ")
    if sep and name not in names:
        cut = text.find(": ")
        while cut != -1 and text[:cut] not in names:
            cut = text.find(": ", cut + 2)
        if cut != -1:
            name, verb = text[:cut], text[cut + 2 :]
    return name, sep, verb


def _uncalled(text: str, names: set[str], money: StarsMoney, line_no: int, seq: int, street: Street) -> Action:
    """An ``Uncalled bet (AMOUNT) returned to NAME`` line as a negative contribution."""
    amount_text, _, name = text[14:].partition(") returned to ")
    if name not in names:
        raise ParseError(f"uncalled bet returned to unseated player {name!r}", line_no)
    amount = money(amount_text, line_no)
    return Action(seq, street, name, Kind.UNCALLED_RETURN, amount, None, False, -amount)


def _site_totals(hand: Hand, sb_posted: int | None, total_pot: int | None, rake: int | None, fees: int | None,
                 written_pots: list[Pot]) -> None:
    """The summary's figures onto the hand: the site's total pot, rake and fees (checked later, not
    trusted), its pots when nothing was taken from them, and a limit game's small blind as posted."""
    if sb_posted is not None and hand.betting == "FL":
        hand.sb = sb_posted
    hand.site_total_pot = total_pot
    hand.site_rake = rake
    hand.site_fees = fees if total_pot is not None else None
    if written_pots and not rake and not fees:
        hand.pots = written_pots


def _collect(text: str, names: set[str], money: StarsMoney, line_no: int, board_no: int) -> Award:
    """A ``NAME collected AMOUNT from (main|side) pot[-N]`` line as its award."""
    name, _, rest = text.rpartition(" collected ")
    amt_text, from_sep, source = rest.partition(" from ")
    if name not in names or not from_sep:
        raise ParseError(f"unreadable collect line {text!r}", line_no)
    if source in ("pot", "main pot"):
        pot_no = 0
    elif source == "side pot":
        pot_no = 1
    elif source.startswith("side pot-") and source[9:].isdigit():
        pot_no = int(source[9:])
    else:
        raise ParseError(f"unknown pot {source!r}", line_no)
    return Award(name, money(amt_text, line_no), pot_no, board_no)


def _cash_out(text: str, names: set[str], money: StarsMoney, line_no: int, seq: int) -> Action:
    """A ``NAME cashed out the hand for AMOUNT`` line (the site's all-in insurance) as its action."""
    name, _, rest = text.partition(" cashed out the hand for ")
    if name not in names:
        raise ParseError(f"cash-out by unseated player {name!r}", line_no)
    paid = money(rest.partition(" | ")[0], line_no)
    return Action(seq, Street.SHOWDOWN, name, Kind.CASH_OUT, paid, None, False, 0)


def _dealt_groups(rest: str, names: set[str]) -> tuple[str, list[str]] | None:
    """'Hero [5d Ks 2h] [9h]' -> ('Hero', ['5dKs2h', '9h']): the seated name before the first
    " [" that leaves one (a name may hold " ["), then every bracket's cards."""
    cut = rest.find(" [")
    while cut != -1 and rest[:cut] not in names:
        cut = rest.find(" [", cut + 2)
    if cut == -1:
        return None
    return rest[:cut], [_cards(b) for b in _BRACKETS_RE.findall(rest[cut:])]


def _parse_game(hand: Hand, lines: list[str], money: StarsMoney, family: str) -> Hand:
    """A stud or draw hand (issue 12): the flop games' grammar plus antes and bring-ins, up and
    down cards per street, completions, and discards / stands pat. Stud has no button and no
    blinds and writes its seventh street "*** RIVER ***"; draw games bet before the first draw
    ("*** DEALING HANDS ***") and after each ("*** FIRST DRAW ***"...), and old 5 Card Draw
    exports write no draw marker at all: a discard after the street's betting starts the draw.
    Fixed-limit stakes are the small and big bet (``Hand.small_bet``/``big_bet``; ``bb`` is the
    small bet, as in the flop games; ``sb`` the small blind posted, 0 in stud)."""
    stud = family == "stud"
    _game_stakes(hand, stud)
    names, start = _read_seats(hand, lines, money)
    reading = _GameReading(hand, names, money, family)
    reading.read_body(lines, start)
    _site_totals(hand, reading.sb_posted, reading.total_pot, reading.rake, reading.fees, reading.written_pots)
    _game_hole_cards(hand, reading.final, reading.has_down, reading.shown)
    return hand


def _game_stakes(hand: Hand, stud: bool) -> None:
    """Fixed-limit headers give the small and big bet: keep both, make ``bb`` the small bet and
    ``sb`` the small blind (none in stud, which has no blinds)."""
    if hand.betting == "FL":
        hand.small_bet, hand.big_bet = hand.sb, hand.bb
        hand.bb = hand.sb
        hand.sb = 0 if stud else hand.bb // 2
    elif stud:
        hand.sb = 0


class _GameReading(_Reading):
    """A stud or draw body: its own street markers, cards dealt street by street (up or down),
    bring-ins and completions, discards and stands pat."""

    __slots__ = ("bet_seen", "completed", "family", "final", "has_down", "streets", "stud")
    notices = _GAME_NOTICES

    def __init__(self, hand: Hand, names: set[str], money: StarsMoney, family: str) -> None:
        stud = family == "stud"
        _Reading.__init__(self, hand, names, money, Street.THIRD if stud else Street.PREDRAW)
        self.family = family
        self.stud = stud
        self.streets = _STUD_STREETS if stud else _DRAW_STREETS
        self.bet_seen = False  # a post or decision on this street (draw games: a discard then starts the draw)
        self.completed = False
        self.final: dict[str, str] = {}  # each player's cards as last dealt (stud: up cards only for opponents)
        self.has_down: set[str] = set()  # players whose down cards the export shows

    def new_street(self, to: Street) -> None:
        """Betting starts afresh: nothing committed, nothing bet yet."""
        self.street, self.committed, self.bet_seen = to, {}, False

    def street_marker(self, label: str, text: str, line_no: int) -> None:
        """A stud or draw street marker (anything else is another layout)."""
        to = self.streets.get(label)
        if to is None:
            raise ParseError(f"street marker {text!r} is not PokerStars {self.family} layout", line_no)
        if to is not self.street:
            self.new_street(to)

    def dealt_line(self, text: str, line_no: int) -> None:
        """``Dealt to NAME [old] [new]``: this street's new cards as rows, all of them as the
        player's latest cards."""
        got = _dealt_groups(text[9:], self.names)
        if got is None:
            if text[9:] in self.names:
                return
            raise ParseError(f"cards dealt to unseated player {text[9:]!r}", line_no)
        name, groups = got
        if not groups:
            raise ParseError(f"unreadable Dealt to line {text!r}", line_no)
        new = groups[-1]
        if self.stud:
            self.stud_cards(name, new, len(groups))
        else:
            self.hand.street_cards.append(StreetCards(name, self.street, new, False))
            self.has_down.add(name)
        self.final[name] = "".join(groups)

    def stud_cards(self, name: str, new: str, group_count: int) -> None:
        """Stud's new cards: third street's lone group is the down cards then the up-card; the
        seventh street card is down; every other card is up."""
        cards_rows = self.hand.street_cards
        street = self.street
        if street is Street.THIRD and group_count == 1 and len(new) > 2:  # down cards, then the up-card
            cards_rows.append(StreetCards(name, street, new[:-2], False))
            cards_rows.append(StreetCards(name, street, new[-2:], True))
            self.has_down.add(name)
        else:
            down = street is Street.SEVENTH
            cards_rows.append(StreetCards(name, street, new, not down))
            if down:
                self.has_down.add(name)

    def player_line(self, name: str, verb: str, text: str, line_no: int) -> None:
        """A seated player's ``NAME: VERB``: a draw, or a decision, bring-in, post, show or muck."""
        if verb.startswith(("discards ", "stands pat")):
            self.draw(name, verb, text, line_no)
            return
        self.bet_seen = True
        wager = _wager(verb, text, self.seq, self.street, name, self.money, line_no, self.committed)
        if wager is not None:
            # stud: third street's first bet or raise over the bring-in completes it
            if (wager.kind in (Kind.BET, Kind.RAISE) and self.stud and self.street is Street.THIRD
                    and not self.completed):
                wager, self.completed = wager._replace(kind=Kind.COMPLETE), True
            self.append(wager)
        elif verb.startswith("brings in for "):
            self.bring_in(name, verb, text, line_no)
        elif not self.post_show_or_muck(name, verb, text, line_no):
            return
        self.seq += 1

    def draw(self, name: str, verb: str, text: str, line_no: int) -> None:
        """A discard or stand pat; after the street's betting it starts the next draw street, as
        old 5 Card Draw exports write no draw marker."""
        if self.street is Street.SHOWDOWN:
            raise ParseError(f"a draw after the showdown {text!r}", line_no)
        if self.bet_seen:  # no draw marker written: the draw ends the street's betting
            k = DRAW_STREETS.index(self.street) if self.street in DRAW_STREETS else -1
            if not 0 <= k < len(DRAW_STREETS) - 1:
                raise ParseError(f"a draw where no draw can be {text!r}", line_no)
            self.new_street(DRAW_STREETS[k + 1])
        found = _BRACKETS_RE.findall(verb)
        thrown = _cards(found[0]) if found else None
        if verb[0] == "d":
            count_text = verb[9:].partition(" card")[0]
            if not count_text.isdigit():
                raise ParseError(f"unreadable discard {text!r}", line_no)
            self.append(Action(self.seq, self.street, name, Kind.DISCARD, int(count_text), None, False, 0, thrown))
        else:
            self.append(Action(self.seq, self.street, name, Kind.STAND_PAT, 0, None, False, 0, thrown))
            if thrown:
                self.final[name] = thrown
        self.seq += 1

    def bring_in(self, name: str, verb: str, text: str, line_no: int) -> None:
        """"brings in for X": stud's forced opening bet on third street (the first sets the hand's)."""
        amt_text, _, tail = verb[14:].partition(" and ")
        amount = self.money(amt_text, line_no)
        if not self.stud or self.street is not Street.THIRD:
            raise ParseError(f"a bring-in outside stud's third street {text!r}", line_no)
        hand = self.hand
        hand.bring_in = hand.bring_in or amount
        self.committed[name] = self.committed.get(name, 0) + amount
        self.append(Action(self.seq, self.street, name, Kind.BRING_IN, amount, None, _all_in(tail), amount))

    def post(self, name: str, verb: str, text: str, line_no: int) -> None:
        """An ante (the first sets the hand's), or a draw game's blind (refused in stud)."""
        kind, amount, all_in = _live_post(verb, text, self.money, line_no)
        hand = self.hand
        if kind is Kind.POST_ANTE:
            hand.ante = hand.ante or amount
        elif self.stud:
            raise ParseError(f"a blind in stud {text!r}", line_no)
        else:
            self.committed[name] = self.committed.get(name, 0) + amount
            if kind is Kind.POST_SB and self.sb_posted is None:
                self.sb_posted = amount
        self.append(Action(self.seq, self.street, name, kind, amount, None, all_in, amount))


def _game_hole_cards(hand: Hand, final: dict[str, str], has_down: set[str], shown: dict[str, str]) -> None:
    """Hole cards of the players whose down cards the export shows (one is the hero, several the
    operator's export), then others' shown cards padded with "?" to the variant's count."""
    hole = hand.hole_cards
    known = {p: c for p, c in final.items() if p in has_down}
    if len(known) > 1:
        hole.extend(HoleCards(p, c, Provenance.OPERATOR) for p, c in known.items())
    elif known:
        hero, cards = next(iter(known.items()))
        hand.hero = hero
        hole.append(HoleCards(hero, cards, Provenance.DEALT))
    want = GAME_CARDS.get(hand.variant, 5) * 2
    for player, cards in shown.items():
        if player not in known:
            hole.append(HoleCards(player, cards.ljust(want, "?"), Provenance.SHOWN))


def _parse_total(text: str, money: StarsMoney, line_no: int) -> tuple[int, int, int, list[Pot]]:
    """'Total pot $26.35 Main pot $5.55. Side pot $19.68. | Rake $1.12 | Jackpot $0.10'."""
    parts = text.split(" | ")
    total: int | None = None
    pots: list[Pot] = []
    for label, side_no, amount in _POTS_RE.findall(parts[0]):
        value = money(amount, line_no)
        if label == "Total pot":
            total = value
        elif label == "Main pot":
            pots.append(Pot(0, value))
        else:
            pots.append(Pot(int(side_no) if side_no else 1, value))
    if total is None:
        raise ParseError(f"unreadable total pot {text!r}", line_no)
    rake = 0
    fees = 0
    for part in parts[1:]:
        label, _, amount = part.strip().rpartition(" ")
        if not label:
            raise ParseError(f"unreadable summary drop {part!r}", line_no)
        value = money(amount, line_no)
        if label == "Rake":
            rake += value
        else:
            fees += value
    return total, rake, fees, pots


FORMAT = PokerStarsFormat()
