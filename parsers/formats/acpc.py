"""ACPC ``STATE:`` match logs (Annual Computer Poker Competition dealer, Pluribus experiments).

One line per hand::

    STATE:<hand no>:<betting>:<hole|hole/flop/turn/river>:<payoff|payoff>:<player|player>

Why the conventions below (checked against the payoffs written on every line, see tests):

* Players are listed in *position* order for that hand. Heads-up (reverse blinds, the ACPC
  2-player game): index 0 posts the big blind, index 1 the small blind, is the button and acts
  first pre-flop; index 0 acts first after the flop. Three or more players (the Pluribus 6-max
  game): index 0 small blind, 1 big blind, 2 first to act pre-flop, 0 first after the flop.
* ``r<N>`` is a raise to N chips put in over the *whole hand*, not the street; it is converted
  to the street-level raise-to the canonical model uses. ``c`` checks or calls (all-in for less
  when short); ``f`` folds.
* The log does not carry the game definition: blinds 50/100 always; stacks 20,000 heads-up
  (ACPC no-limit) and 10,000 otherwise (Pluribus sessions reset stacks every hand). A line that
  does not fit (limit ``r`` without an amount, a raise beyond the stack) is quarantined.
* The log writes no pots and no winners, only payoffs. Awards are therefore derived: the part of
  a bet nobody matched is returned (an uncalled return row), a fold-out gives the pot to the last
  player, and a showdown is evaluated with phevaluator per side pot. A tie splits a pot evenly
  and the odd chip goes to the tied player first clockwise from the button (the lowest position
  index in both layouts above), the usual cash-game rule.
* ``Seat.final_stack`` is stack + written payoff when that payoff is written as whole chips. The
  ACPC dealer splits tied pots in fractional chips (payoff 387.5), and the 2017 competition logs
  write *all-in expected values* (luck-reduced payoffs such as -18181.818182, or -15000.000000)
  for hands all-in before the river, always with a decimal point: neither is a chip count, so
  those seats get no final stack (the tests check them against our awards and against an exact
  equity enumeration instead).
* All hole cards are in the log: provenance OPERATOR.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation
from pathlib import Path

from phevaluator import evaluate_cards

from parsers.base import TextHandFormat, guarded_parse
from parsers.formats._open_betting import BOARD_STREETS, Betting, side_pots
from parsers.model import Award, Board, Hand, HoleCards, Kind, ParseError, Provenance, Quarantined, Seat
from parsers.reading import Block, iter_lines

SB, BB = 50, 100
HEADS_UP_STACK = 20_000
RING_STACK = 10_000

_STATE = re.compile(r"^STATE:(\d+):([^:]*):([^:]*):([^:]*):(.*)$")
_TOKEN = re.compile(r"f|c|r\d+|r")
_CARD = re.compile(r"[2-9TJQKA][cdhs]")


class AcpcFormat(TextHandFormat):
    name = "acpc"
    priority = 30
    description = "ACPC dealer STATE: logs (no-limit hold'em, heads-up and 6-max)"

    def sniff(self, head: str) -> bool:
        """The first line that is not blank or a ``#`` banner is a STATE line."""
        for line in head.splitlines():
            text = line.strip()
            if text and not text.startswith("#"):
                return _STATE.match(text) is not None
        return False

    def is_start(self, line: str) -> bool:
        return line.startswith("STATE:")

    def parse(self, path: Path) -> Iterator[Hand | Quarantined]:
        """One hand per line; ``#`` comment lines (dealer banners) and blank lines are skipped."""
        source = str(path)
        for line in iter_lines(path):
            text = line.text.strip()
            if not text or text.startswith("#"):
                continue
            yield from guarded_parse(self, Block(line.offset, line.end - line.offset, [text]), source)

    def parse_block(self, block: Block, source_file: str) -> Hand | None:
        return parse_state(block.lines[0], source_file, block.offset, block.length)


def _cards(text: str, expected: int | None = None) -> list[str]:
    cards = _CARD.findall(text)
    if "".join(cards) != text or (expected is not None and len(cards) != expected):
        raise ParseError(f"bad cards {text!r}")
    return cards


def parse_state(line: str, source_file: str, offset: int = 0, length: int = 0) -> Hand:
    """Read one STATE line into a canonical hand."""
    m = _STATE.match(line)
    if m is None:
        raise ParseError("not a complete STATE line (hand no:betting:cards:payoffs:players)")
    hand_no, betting_text, cards_text, payoff_text, players_text = m.groups()
    players = players_text.split("|")
    n = len(players)
    if n < 2 or len(set(players)) != n:
        raise ParseError(f"bad player list {players_text!r}")
    payoffs_raw = payoff_text.split("|")
    if len(payoffs_raw) != n:
        raise ParseError(f"{len(payoffs_raw)} payoffs for {n} players")
    try:
        payoffs = [Decimal(p) for p in payoffs_raw]
    except InvalidOperation as exc:
        raise ParseError(f"bad payoffs {payoff_text!r}") from exc

    card_parts = cards_text.split("/")
    holes = card_parts[0].split("|")
    if len(holes) != n:
        raise ParseError(f"{len(holes)} hole-card pairs for {n} players")
    hole_cards = [_cards(h, 2) for h in holes]
    board: list[str] = []
    for part, size in zip(card_parts[1:], (3, 1, 1), strict=False):
        board += _cards(part, size)
    if len(card_parts) > 4:
        raise ParseError("more than three board sections")

    stack = HEADS_UP_STACK if n == 2 else RING_STACK
    bet = Betting(dict.fromkeys(players, stack))
    if n == 2:
        bet.post(players[1], Kind.POST_SB, SB)
        bet.post(players[0], Kind.POST_BB, BB)
        orders = ([1, 0], [0, 1])
    else:
        bet.post(players[0], Kind.POST_SB, SB)
        bet.post(players[1], Kind.POST_BB, BB)
        orders = ([*range(2, n), 0, 1], list(range(n)))

    streets = betting_text.split("/")
    if len(streets) > 4:
        raise ParseError("more than four betting rounds")
    for si, street_text in enumerate(streets):
        if si:
            bet.new_street(BOARD_STREETS[si])
        tokens = _TOKEN.findall(street_text)
        if "".join(tokens) != street_text:
            raise ParseError(f"bad betting string {street_text!r}")
        order = orders[0] if si == 0 else orders[1]
        pos = -1
        for tok in tokens:
            pos = _next_actor(bet, players, order, pos)
            player = players[order[pos]]
            if tok == "f":
                bet.fold(player)
            elif tok == "c":
                bet.check_or_call(player)
            elif tok == "r":
                raise ParseError("limit raise without an amount: needs the game definition")
            else:
                hand_total = int(tok[1:])
                earlier_streets = bet.total[player] - bet.bet[player]
                if hand_total > stack:
                    raise ParseError(f"{player} raises to {hand_total}, above the stack {stack}")
                bet.raise_to(player, hand_total - earlier_streets)

    bet.derive_uncalled_return()
    live = bet.in_hand()
    awards = _awards(bet.total, live, players, hole_cards, board)

    seats = []
    for i, player in enumerate(players):
        # a payoff written with a decimal point is a fractional split or an all-in EV, not chips
        chips = "." not in payoffs_raw[i]
        seats.append(Seat(i + 1, player, stack, final_stack=stack + int(payoffs[i]) if chips else None))
    stem = Path(source_file).stem
    return Hand(
        hand_id=f"acpc:{stem}:{hand_no}",
        site="acpc",
        site_hand_no=f"{stem}:{hand_no}",
        format="acpc",
        variant="holdem",
        betting="NL",
        game_type="cash",
        table_name=stem,
        sb=SB,
        bb=BB,
        currency="CHIPS",
        unit_scale=1,
        source_file=source_file,
        byte_offset=offset,
        byte_length=length,
        max_seats=n,
        button_seat=2 if n == 2 else n,
        seats=seats,
        actions=bet.actions,
        hole_cards=[HoleCards(p, "".join(c), Provenance.OPERATOR) for p, c in zip(players, hole_cards,
                                                                                   strict=True)],
        boards=[Board(1, "".join(board))] if board else [],
        awards=awards,
    )


def _next_actor(bet: Betting, players: list[str], order: list[int], pos: int) -> int:
    """The next position in ``order`` after ``pos`` that can still act (not folded, not all-in)."""
    for step in range(1, len(order) + 1):
        cand = (pos + step) % len(order)
        player = players[order[cand]]
        if player not in bet.folded and not bet.all_in(player):
            return cand
    raise ParseError("action when nobody can act")


def _awards(total: dict[str, int], live: list[str], players: list[str], holes: list[list[str]],
            board: list[str]) -> list[Award]:
    """Award every pot: to the last player standing, or by hand strength at showdown."""
    if len(live) == 1:
        return [Award(live[0], sum(total.values()), 0)]
    if len(board) != 5:
        raise ParseError(f"showdown with a {len(board)}-card board")
    rank = {p: evaluate_cards(*board, *holes[players.index(p)]) for p in live}  # lower is better
    awards: list[Award] = []
    for pot_no, (amount, eligible) in enumerate(side_pots(total, live)):
        best = min(rank[p] for p in eligible)
        winners = sorted((p for p in eligible if rank[p] == best), key=players.index)
        share, odd = divmod(amount, len(winners))
        for i, winner in enumerate(winners):
            awards.append(Award(winner, share + (1 if i < odd else 0), pot_no))
    return awards


FORMAT = AcpcFormat()
