"""Street commitments for formats that do not write contributions: PHH, ACPC, PokerNow, OHH.

Why: these formats write either "raise to" amounts (PHH ``cbr``, PokerNow "raises to"), hand-
cumulative totals (ACPC ``r``) or nothing at all for a call (PHH ``cc``, ACPC ``c``). The
canonical model wants, for every action, the chips that moved (``contribution``), the call amount
and the street-level raise-to. One small tracker derives them identically for all four parsers:
it knows each player's stack, what they have in on the current street and in the whole hand.

Conventions (same as ``parsers.model``): ``amount`` of a raise is the increment over the bet
faced, ``raise_to`` the street total reached; a bet has ``amount == raise_to``; a call's amount
is what it added (capped at the caller's remaining stack, an all-in call for less).
"""

from __future__ import annotations

from parsers.model import DEAD_POSTS, LIVE_POSTS, Action, Kind, ParseError, Street

#: the card-dealing streets of a board game, in order
BOARD_STREETS = (Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER)


class Betting:
    """Accumulates the canonical actions of one hand from written decisions."""

    __slots__ = ("actions", "bet", "folded", "max_bet", "stacks", "street", "total")

    def __init__(self, stacks: dict[str, int]) -> None:
        self.stacks = stacks  # starting stacks (what a player can put in at most)
        self.actions: list[Action] = []
        self.street = Street.PREFLOP
        self.bet: dict[str, int] = dict.fromkeys(stacks, 0)  # live chips on this street
        self.total: dict[str, int] = dict.fromkeys(stacks, 0)  # chips in for the whole hand
        self.max_bet = 0
        self.folded: set[str] = set()

    # -- state ---------------------------------------------------------------------------------
    def remaining(self, player: str) -> int:
        return self.stacks[player] - self.total[player]

    def all_in(self, player: str) -> bool:
        return self.stacks[player] > 0 and self.remaining(player) <= 0

    def new_street(self, street: Street) -> None:
        self.street = street
        self.bet = dict.fromkeys(self.stacks, 0)
        self.max_bet = 0

    def _known(self, player: str) -> None:
        if player not in self.stacks:
            raise ParseError(f"action by unknown player {player!r}")

    def _push(self, player: str, kind: Kind, amount: int | None = None, raise_to: int | None = None,
              *, contribution: int = 0, cards: str | None = None, street: Street | None = None) -> Action:
        if contribution:
            self.total[player] += contribution
            if kind in LIVE_POSTS or kind in (Kind.CALL, Kind.BET, Kind.RAISE, Kind.COMPLETE):
                self.bet[player] += contribution
                self.max_bet = max(self.max_bet, self.bet[player])
        all_in = contribution > 0 and self.all_in(player)
        action = Action(len(self.actions), street or self.street, player, kind, amount, raise_to, all_in,
                        contribution, cards)
        self.actions.append(action)
        return action

    # -- written actions -----------------------------------------------------------------------
    def post(self, player: str, kind: Kind, amount: int) -> Action:
        """A forced bet; short stacks post what they have (the rest is not owed)."""
        self._known(player)
        paid = min(amount, self.remaining(player))
        return self._push(player, kind, amount, contribution=paid)

    def fold(self, player: str) -> Action:
        self._known(player)
        self.folded.add(player)
        return self._push(player, Kind.FOLD)

    def check(self, player: str) -> Action:
        self._known(player)
        return self._push(player, Kind.CHECK)

    def check_or_call(self, player: str) -> Action:
        """PHH ``cc`` / ACPC ``c``: match the bet faced, or all the player has left."""
        self._known(player)
        owed = min(self.max_bet - self.bet[player], self.remaining(player))
        if owed <= 0:
            return self._push(player, Kind.CHECK)
        return self._push(player, Kind.CALL, owed, contribution=owed)

    def call_to(self, player: str, to: int) -> Action:
        """A call written as the street total reached (PokerNow "calls 40", Ten-Four OHH)."""
        self._known(player)
        added = to - self.bet[player]
        if added <= 0:
            raise ParseError(f"{player} calls to {to} but already has {self.bet[player]} in")
        return self._push(player, Kind.CALL, added, contribution=added)

    def call_adding(self, player: str, added: int) -> Action:
        """A call written as the chips it adds (OHH spec)."""
        self._known(player)
        return self._push(player, Kind.CALL, added, contribution=added)

    def raise_to(self, player: str, to: int) -> Action:
        """A bet or raise to a street total ``to``: a bet when nothing is live on the street."""
        self._known(player)
        if to <= self.max_bet:
            raise ParseError(f"{player} bets/raises to {to}, not above the current bet {self.max_bet}")
        added = to - self.bet[player]
        if self.max_bet == 0:
            return self._push(player, Kind.BET, to, to, contribution=added)
        return self._push(player, Kind.RAISE, to - self.max_bet, to, contribution=added)

    def complete(self, player: str, to: int) -> Action:
        """Stud: the bring-in raised to the full small bet ``to`` (the street total)."""
        self._known(player)
        if to <= self.max_bet:
            raise ParseError(f"{player} completes to {to}, not above the bring-in {self.max_bet}")
        return self._push(player, Kind.COMPLETE, to - self.max_bet, to, contribution=to - self.bet[player])

    def draw(self, player: str, thrown: str | None) -> Action:
        """Draw games: the cards thrown (a discard), or none (stands pat)."""
        self._known(player)
        if thrown:
            return self._push(player, Kind.DISCARD, len(thrown) // 2, cards=thrown)
        return self._push(player, Kind.STAND_PAT, 0)

    def show(self, player: str, cards: str, street: Street | None = None) -> Action:
        self._known(player)
        return self._push(player, Kind.SHOW, cards=cards, street=street)

    def muck(self, player: str, cards: str | None = None, street: Street | None = None) -> Action:
        self._known(player)
        return self._push(player, Kind.MUCK, cards=cards, street=street)

    def return_uncalled(self, player: str, amount: int) -> Action:
        """An uncalled bet returned, as a site wrote it."""
        self._known(player)
        return self._push(player, Kind.UNCALLED_RETURN, amount, contribution=-amount)

    def derive_uncalled_return(self) -> Action | None:
        """Return the part of the top contribution nobody else matched, for formats that do not
        write it (PHH, ACPC): those chips were never at risk, so the winner's award excludes them."""
        if len(self.total) < 2:
            return None
        live = dict.fromkeys(self.total, 0)  # dead money (antes, dead blinds) is never "called"
        for a in self.actions:
            if a.kind not in DEAD_POSTS:
                live[a.player] += a.contribution
        ranked = sorted(live.items(), key=lambda kv: kv[1], reverse=True)
        (top, top_in), (_, second_in) = ranked[0], ranked[1]
        excess = top_in - second_in
        if excess <= 0:
            return None
        # the return closes the street of the unmatched bet, before any showdown rows (PHH writes
        # "sm" before dealing the rest of the board of an all-in hand)
        last_bet = max(i for i, a in enumerate(self.actions) if a.contribution > 0)
        street = self.actions[last_bet].street
        at = last_bet + 1
        while at < len(self.actions) and self.actions[at].street is street \
                and self.actions[at].kind not in (Kind.SHOW, Kind.MUCK):
            at += 1
        ret = self._push(top, Kind.UNCALLED_RETURN, excess, contribution=-excess, street=street)
        self.actions.pop()
        self.actions.insert(at, ret)
        self.actions = [a if a.seq == i else a._replace(seq=i) for i, a in enumerate(self.actions)]
        return self.actions[at]

    def in_hand(self) -> list[str]:
        """Players who have not folded, in seat order."""
        return [p for p in self.stacks if p not in self.folded]


def side_pots(total: dict[str, int], live: list[str]) -> list[tuple[int, list[str]]]:
    """Split what everyone put in into (amount, eligible players) layers, main pot first.

    Folded players' chips fall into the layers they reached but they are never eligible.
    """
    levels = sorted({total[p] for p in live if total[p] > 0})
    pots: list[tuple[int, list[str]]] = []
    floor = 0
    for level in levels:
        amount = sum(min(max(v - floor, 0), level - floor) for v in total.values())
        eligible = [p for p in live if total[p] >= level]
        if amount:
            if pots and pots[-1][1] == eligible:
                pots[-1] = (pots[-1][0] + amount, eligible)
            else:
                pots.append((amount, eligible))
        floor = level
    # chips above the highest live level (a folded player's over-bet) join the last pot
    rest = sum(max(v - floor, 0) for v in total.values())
    if rest and pots:
        pots[-1] = (pots[-1][0] + rest, pots[-1][1])
    return pots
