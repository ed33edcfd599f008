"""Everleaf Gaming network text hand histories (Everleaf, Concord Gaming, Partouche's French skin).

Why its own module: Everleaf writes every amount in brackets with its currency ("[$ 0.35 USD]"),
a raise as the chips it *adds* ("Villain raises [$ 0.75 USD]" from the 0.25 small blind is called
by the 0.50 big blind with 0.50), no uncalled-bet line, no total and no rake. The unmatched part
of the last bet is therefore derived from the bets alone (nobody can win chips nobody matched:
the "wins" lines confirm it, e.g. a 0.35 raise folded to wins 0.25 = blinds + the matched 0.10),
and reconciliation checks the implied rake. A hand starts at the skin's banner line, or at the
"Hand history for game" line when a file has no banner. Times carry no zone: left None.
Tournament files carry table chat ("EricBlade: lol") and table moves ("... has been reseated to
this table"): neither moves chips.
7 Card Stud (issue 12): "** Dealing down cards **" opens third street, "**** dealing 4th street
****" / "** Dealing 4th Street **" .. "river" the next ones, "X posts bring-in $0.02." and "X
completes to $0.05." (or a first bet on third street) are the bring-in and its completion; the
2011-08 exports write "Dealt to X [ Ah ]." per street (the hero's three third-street cards, two
down), the earlier ones no cards at all. Stud has no button and no blinds (``bb`` is the small bet).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

from parsers.base import TextHandFormat, guarded_parse
from parsers.formats._ledger import Ledger
from parsers.formats._stars_like import cards, new_hand
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
)
from parsers.money import to_units
from parsers.reading import Block, iter_blocks, iter_lines

_BANNER = re.compile(
    r"^\ufeff?(?:Everleaf Gaming(?: - .+?)?(?: Game #\d+)?|Partouche Poker Gibraltar|- - Grand Poker - Game #\d+)\s*$"
)
#: a tournament hand names its tournament and level before the game line (Grand Poker skin)
_TOURNEY = re.compile(r"^Tournament #(?P<tid>\d+) - Level (?P<level>\S+)$")
_HISTORY = re.compile(
    r"^\ufeff?\*{3,5} (?:Hand history for game #|Historique des Mains pour la partie )(?P<no>\d+) \*{3,5}\s*$"
)
_GAME = re.compile(
    r"^(?:Blinds\s+)?(?P<sb>[^/]+?)/\s*(?P<bb>\S+?)\s+(?:(?P<limit>NL|PL) )?(?P<game>Hold'em|Omaha Hi/Lo|Omaha"
    r"|7 Card Stud Hi/Lo|7 Card Stud|Razz|.+?)(?: - (?P<max>\d+) Max)? - (?P<date>\d{4}/\d{2}/\d{2}) - "
)
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \(\s*(?P<cash>.+?)\s*\)\s*$")
_BUTTON = re.compile(r"^Seat (?P<seat>\d+) is the button$")
_POST = re.compile(r"^(?P<name>.+?): posts (?P<what>small blind|big blind|ante) \[(?P<amt>[^\]]+)\]")
_ACTION = re.compile(r"^(?P<name>.+?):? (?P<verb>folds|checks|calls|raises|bets)(?: \[(?P<amt>[^\]]+)\])?\s*$")
_DEALT = re.compile(r"^Dealt to (?P<name>.+?) \[(?P<cards>[^\]]*)\]")
_STREET = re.compile(r"^\*\* Dealing (?P<street>Flop|Turn|River) \*\* \[(?P<cards>[^\]]*)\]")
_SHOWS = re.compile(r"^(?P<name>.+?) shows \[(?P<cards>[^\]]*)\]")
_WINS = re.compile(
    r"^(?P<name>.+?) wins\s+(?:(?:high|low) \()?(?P<amt>[^()]+?)\)? from (?P<pot>main|side) pot(?P<rest>.*)$"
)
_QUIET = re.compile(
    r"^(?:Table .+|Total number of players: \d+|\*\* Dealing down cards \*\*|.+? does not show cards"
    r"|.+? has (?:joined|left) the table|.+? has disconnected.*|.+? est d.connect. .*|.+? sits out"
    r"|.+? is sitting out|.+? has returned|.+? has been reseated to this table)\s*$"
)
#: what a seated player's line may begin with when it is play, not chat ("Player3: lol not in bryan")
_PLAY_WORDS = ("posts", "folds", "checks", "calls", "raises", "bets", "shows", "wins", "mucks", "does not")
_LIMITS = {"NL": "NL", "PL": "PL", None: "FL"}
_GAMES = {"Hold'em": "holdem", "Omaha Hi/Lo": "omaha_hilo", "Omaha": "omaha"}
_CURRENCY = re.compile(r"\b(USD|EURO|EUR|GBP)\b|([$€£])")
_ISO = {"USD": "USD", "EURO": "EUR", "EUR": "EUR", "GBP": "GBP", "$": "USD", "€": "EUR", "£": "GBP"}
_STREETS = {"Flop": Street.FLOP, "Turn": Street.TURN, "River": Street.RIVER}
_STUD_GAMES = {"7 Card Stud": "stud", "7 Card Stud Hi/Lo": "stud_hilo", "Razz": "razz"}
_STUD_STREET = re.compile(r"^\*{2,4} [Dd]ealing (?P<s>4th|5th|6th|7th|[Rr]iver)(?: [Ss]treet)? \*{2,4}$")
_STUD_STREETS = {"4th": Street.FOURTH, "5th": Street.FIFTH, "6th": Street.SIXTH, "7th": Street.SEVENTH,
                 "river": Street.SEVENTH, "River": Street.SEVENTH}
_STUD_FORCED = re.compile(r"^(?P<name>.+?) (?P<verb>posts bring-in|completes to) (?P<amt>.+?)\.?$")
_STUD_DEALT = re.compile(r"^Dealt to (?P<name>.+?) \[(?P<cards>[^\]]*)\]\.?$")


def _amount(text: str, scale: int = 100) -> int:
    """'$ 0.35 USD', '€ 0.76 EURO', '$0.63' -> cents; ' 100 Chips' -> 100 at scale 1."""
    body = re.sub(r"[^\d.,]", "", text)  # the currency, in any of its spellings (even 'ˆ' for '€')
    return to_units(body, scale)


class EverleafFormat(TextHandFormat):
    name: ClassVar[str] = "everleaf"
    priority: ClassVar[int] = 50
    description: ClassVar[str] = "Everleaf Gaming network text (Everleaf, Concord, Partouche)"

    def sniff(self, head: str) -> bool:
        lines = head.lstrip("\ufeff\r\n\t ").splitlines()[:3]
        if not lines or not any(_HISTORY.match(ln) for ln in lines):
            return False
        return _BANNER.match(lines[0]) is not None or _HISTORY.match(lines[0]) is not None

    def is_start(self, line: str) -> bool:
        return _BANNER.match(line) is not None or _HISTORY.match(line) is not None

    def parse(self, path: Path) -> Iterator[Hand | Quarantined]:
        """Blocks start at the banner or the history line; a banner joins the history after it."""
        source = str(path)
        pending: Block | None = None
        for block in iter_blocks(iter_lines(path), self.is_start):
            if _BANNER.match(block.lines[0]) and not any(ln.strip() for ln in block.lines[1:]):
                if pending is not None:
                    yield from guarded_parse(self, pending, source)
                pending = block
                continue
            whole = block
            if pending is not None:
                whole = Block(pending.offset, pending.length + block.length, pending.lines + block.lines)
                pending = None
            yield from guarded_parse(self, whole, source)
        if pending is not None:
            yield from guarded_parse(self, pending, source)

    def parse_block(self, block: Block, source_file: str) -> Hand | None:
        return _parse(block, source_file)


def _parse(block: Block, source_file: str) -> Hand:
    lines = [ln.strip() for ln in block.lines]
    banner = lines[0].lstrip("\ufeff")
    no = next((m["no"] for ln in lines[:3] if (m := _HISTORY.match(ln))), None)
    if no is None:
        raise ParseError("truncated hand: no 'Hand history for game' line")
    site = "partouche" if banner.startswith("Partouche") else "everleaf"
    hand = new_hand(site=site, hand_no=no, fmt="everleaf", source_file=source_file, offset=block.offset,
                    length=block.length)
    start = next(i for i, ln in enumerate(lines) if _HISTORY.match(ln)) + 1
    t = _TOURNEY.match(lines[start]) if start < len(lines) else None
    if t is not None:
        hand.tournament_id, hand.tournament_level = t["tid"], t["level"]
        start += 1
    g = _GAME.match(lines[start]) if start < len(lines) else None
    if g is None:
        raise ParseError("no game line after the hand header", start + 1)
    stud = g["game"] in _STUD_GAMES and g["limit"] is None
    if g["game"] not in _GAMES and not stud:
        raise ParseError(f"unsupported variant: {g['game']}")
    hand.variant, hand.betting = _GAMES.get(g["game"]) or _STUD_GAMES[g["game"]], _LIMITS[g["limit"]]
    head = "\n".join(lines[start:start + 12])
    if t is not None or " Chips )" in head:  # tournament chips ("( 16476 Chips )", or a tournament line)
        hand.game_type, hand.currency, hand.unit_scale = "tournament", "CHIPS", 1
    else:
        cur = _CURRENCY.search(head)
        hand.currency = _ISO[cur.group(1) or cur.group(2)] if cur else "USD"
    scale = hand.unit_scale
    hand.sb, hand.bb = _amount(g["sb"], scale), _amount(g["bb"], scale)
    hand.max_seats = int(g["max"]) if g["max"] else None
    ledger = Ledger()
    hole: list[HoleCards] = []
    board = ""
    seated: set[str] = set()
    ended = False
    last_win = False
    blinds: dict[Kind, int] = {}
    show_at: int | None = None
    excess: tuple[str, int] | None = None
    completed = False
    held: dict[str, int] = {}  # stud: cards written per player so far
    if stud:
        ledger.street = Street.THIRD
    for n, ln in enumerate(lines[start + 1:], start + 2):
        if not ln:
            continue
        if stud and (m := _STUD_STREET.match(ln)):
            ledger.new_street(_STUD_STREETS[m["s"]])
            continue
        if stud and (m := _STUD_FORCED.match(ln)) and m["name"] in seated:
            amount = _amount(m["amt"], scale)
            if m["verb"] == "posts bring-in":
                ledger.post(m["name"], Kind.BRING_IN, amount)
            else:
                ledger.raised_to(m["name"], Kind.COMPLETE, amount)
                completed = True
            continue
        if stud and (m := _STUD_DEALT.match(ln)) and m["name"] in seated:
            got = re.findall("..", cards(m["cards"]))
            k = held.get(m["name"], 0)
            if k == 0 and len(got) == 3:
                hand.street_cards.append(StreetCards(m["name"], ledger.street, "".join(got[:2]), False))
                hand.street_cards.append(StreetCards(m["name"], ledger.street, got[2], True))
                hand.hero = m["name"]
            else:
                hand.street_cards.append(StreetCards(m["name"], ledger.street, "".join(got), k + len(got) <= 6))
            held[m["name"]] = k + len(got)
            continue
        if stud and not completed and ledger.street is Street.THIRD and (m := _ACTION.match(ln)) \
                and m["verb"] == "bets" and m["amt"] is not None:
            _known(m["name"], seated, n)
            ledger.raised_to(m["name"], Kind.COMPLETE, _amount(m["amt"], scale))  # the full bet, no bring-in
            completed = True
            continue
        if last_win and re.match(r"^[a-z].*\[[^\]]*\]$", ln):
            last_win = False  # the rest of a hand description wrapped from the "wins" line above
            continue
        last_win = False
        if m := _SEAT.match(ln):
            cash = m["cash"]
            if cash in ("new player", "All-in"):
                continue  # not dealt in (joining, or all in from an earlier hand)
            hand.seats.append(Seat(int(m["seat"]), m["name"], _amount(cash, scale)))
            seated.add(m["name"])
        elif m := _BUTTON.match(ln):
            hand.button_seat = int(m["seat"])
        elif m := _POST.match(ln):
            kind = {"small blind": Kind.POST_SB, "big blind": Kind.POST_BB, "ante": Kind.POST_ANTE}[m["what"]]
            amount = _amount(m["amt"], scale)
            _known(m["name"], seated, n)
            # a second small or big blind in one hand is a returning player's post: live
            ledger.post(m["name"], kind, amount)
            blinds.setdefault(kind, amount)
        elif m := _DEALT.match(ln):
            hand.hero = m["name"]
            hole.append(HoleCards(m["name"], cards(m["cards"]), Provenance.DEALT))
        elif m := _STREET.match(ln):
            ledger.new_street(_STREETS[m["street"]])
            board += cards(m["cards"])
        elif m := _ACTION.match(ln):
            _act(ledger, m["name"], m["verb"], m["amt"], seated, n, scale)
        elif m := _SHOWS.match(ln):
            shown = cards(m["cards"])
            if show_at is None:
                show_at, excess = ledger.mark(), ledger.uncalled_excess()
                ledger.new_street(Street.SHOWDOWN)
            ledger.show(m["name"], Kind.SHOW, shown)
            if not any(h.player == m["name"] for h in hole):
                hole.append(HoleCards(m["name"], shown, Provenance.SHOWN))
        elif m := _WINS.match(ln):
            _known(m["name"], seated, n)
            hand.awards.append(Award(m["name"], _amount(m["amt"], scale), 0 if m["pot"] == "main" else 1))
            ended = True
            last_win = "[" not in m["rest"] and bool(m["rest"].strip())
        elif _QUIET.match(ln) or _chat(ln, seated):
            continue
        else:
            raise ParseError(f"unrecognised line: {ln[:80]!r}", n)
    if not ended:
        raise ParseError("truncated hand: no 'wins' line")
    if show_at is None:
        show_at, excess = ledger.mark(), ledger.uncalled_excess()
    if excess is not None:
        ledger.insert_return(show_at, *excess)
    if stud:  # "$0.05/$0.10 7 Card Stud": the bets; no blinds (bb is the small bet)
        hand.small_bet, hand.big_bet = hand.sb, hand.bb
        hand.sb, hand.bb = 0, hand.small_bet
        hand.bring_in = blinds.get(Kind.BRING_IN, 0) or next(
            (a.amount or 0 for a in ledger.actions if a.kind is Kind.BRING_IN), 0)
        seen = {c.player for c in hand.street_cards if not c.face_up}
        if hand.hero in seen:
            mine = "".join(c.cards for c in hand.street_cards if c.player == hand.hero)
            hole = [h for h in hole if h.player != hand.hero] + [HoleCards(hand.hero, mine, Provenance.DEALT)]
    elif hand.betting == "FL":
        hand.sb, hand.bb = blinds.get(Kind.POST_SB, 0), blinds.get(Kind.POST_BB, 0)
    hand.actions = ledger.actions
    hand.hole_cards = hole
    if board:
        hand.boards = [Board(1, board)]
    return hand


def _chat(line: str, seated: set[str]) -> bool:
    """A table-chat line: a seated player's name, a colon, and words that are no play."""
    name, sep, said = line.partition(": ")
    return bool(sep) and name in seated and not said.startswith(_PLAY_WORDS)


def _known(player: str, seated: set[str], line: int) -> None:
    if player not in seated:
        raise ParseError(f"action by a player not in the seat list: {player!r}", line)


def _act(ledger: Ledger, player: str, verb: str, amt: str | None, seated: set[str], line: int,
         scale: int = 100) -> None:
    _known(player, seated, line)
    if verb == "folds":
        ledger.simple(player, Kind.FOLD)
    elif verb == "checks":
        ledger.simple(player, Kind.CHECK)
    elif amt is None:
        raise ParseError(f"{verb} without an amount", line)
    elif verb == "calls":
        ledger.called(player, _amount(amt, scale))
    else:
        top = max(ledger.street_in.values(), default=0)
        kind = Kind.BET if verb == "bets" or top == 0 else Kind.RAISE
        ledger.added(player, kind, _amount(amt, scale))


FORMAT = EverleafFormat()
