"""Street-by-street chip bookkeeping shared by the 888, PartyPoker, iPoker and Full Tilt parsers.

Why: these sites write amounts differently (888/Party write the chips *added* by a raise, Full
Tilt and iPoker write the raise-to or the bet total), but the canonical model needs both the
amount as written and the derived ``raise_to`` / ``contribution``. Keeping the per-street totals
in one place means every parser derives them the same way, and the uncalled-bet excess (which
888 and Party do not write) is computed once, from the bets alone.
"""

from __future__ import annotations

from parsers.model import LIVE_POSTS, Action, Kind, Street


class Ledger:
    """Accumulates actions of one hand, tracking each player's live chips on the current street."""

    __slots__ = ("actions", "last_in", "street", "street_in", "total_in")

    def __init__(self) -> None:
        self.actions: list[Action] = []
        self.street = Street.PREFLOP
        self.street_in: dict[str, int] = {}
        self.last_in: dict[str, int] = {}  # bets of the last street that had any
        self.total_in: dict[str, int] = {}

    def new_street(self, street: Street) -> None:
        if self.street_in:
            self.last_in = self.street_in
        self.street = street
        self.street_in = {}

    def _push(self, player: str, kind: Kind, amount: int | None, raise_to: int | None, *,
              all_in: bool = False, contribution: int = 0, cards: str | None = None) -> None:
        self.actions.append(Action(len(self.actions), self.street, player, kind, amount, raise_to,
                                   all_in, contribution, cards))
        if contribution:
            self.total_in[player] = self.total_in.get(player, 0) + contribution

    def post(self, player: str, kind: Kind, amount: int, all_in: bool = False) -> None:
        """A forced bet; live posts count towards the player's bet on the street."""
        if kind in LIVE_POSTS:
            self.street_in[player] = self.street_in.get(player, 0) + amount
        self._push(player, kind, amount, None, all_in=all_in, contribution=amount)

    def simple(self, player: str, kind: Kind) -> None:
        """Fold or check: no chips move."""
        self._push(player, kind, None, None)

    def added(self, player: str, kind: Kind, amount: int, all_in: bool = False) -> None:
        """Call/bet/raise written as the chips *added* by this action (888, Party style)."""
        before = self.street_in.get(player, 0)
        self.street_in[player] = before + amount
        raise_to = before + amount if kind in (Kind.BET, Kind.RAISE) else None
        self._push(player, kind, amount, raise_to, all_in=all_in, contribution=amount)

    def raised_to(self, player: str, kind: Kind, to: int, amount: int | None = None,
                  all_in: bool = False) -> None:
        """Bet/raise written as the street total reached ("raises to", Full Tilt / iPoker)."""
        before = self.street_in.get(player, 0)
        self.street_in[player] = to
        written = to if amount is None else amount
        self._push(player, kind, written, to, all_in=all_in, contribution=to - before)

    def called(self, player: str, amount: int, all_in: bool = False) -> None:
        """A call written as the chips it adds."""
        self.added(player, Kind.CALL, amount, all_in)

    def draw(self, player: str, count: int, cards: str | None = None) -> None:
        """A draw (stud/draw games): ``count`` cards thrown, or none (stands pat); no chips move."""
        self._push(player, Kind.DISCARD if count else Kind.STAND_PAT, count, None, cards=cards)

    def show(self, player: str, kind: Kind, cards: str | None) -> None:
        self._push(player, kind, None, None, cards=cards)

    def returned(self, player: str, amount: int) -> None:
        """An uncalled bet handed back (negative contribution)."""
        bets = self.street_in or self.last_in
        bets[player] = bets.get(player, 0) - amount
        self._push(player, Kind.UNCALLED_RETURN, amount, None, contribution=-amount)

    def uncalled_excess(self) -> tuple[str, int] | None:
        """The part of the top bet on the last street with bets that nobody matched, if any."""
        bets = self.street_in or self.last_in
        if not bets:
            return None
        ranked = sorted(bets.items(), key=lambda kv: kv[1], reverse=True)
        top_player, top = ranked[0]
        second = ranked[1][1] if len(ranked) > 1 else 0
        if top > second:
            return top_player, top - second
        return None

    def contributed(self) -> int:
        return sum(self.total_in.values())

    def mark(self) -> int:
        """Position where a derived action can later be inserted (see ``insert_return``)."""
        return len(self.actions)

    def insert_return(self, index: int, player: str, amount: int) -> None:
        """Insert an uncalled return at ``index`` (decided only once the site's totals are read)."""
        street = self.actions[index - 1].street if index else self.street
        ret = Action(index, street, player, Kind.UNCALLED_RETURN, amount, None, False, -amount)
        tail = [a._replace(seq=a.seq + 1) for a in self.actions[index:]]
        self.actions[index:] = [ret, *tail]
        self.total_in[player] = self.total_in.get(player, 0) - amount
