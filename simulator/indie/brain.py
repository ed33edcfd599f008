"""Per-decision dispatch: honest model first, then the team's tactic, and the evidence it leaves."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from .collusion import IMPLEMENTATIONS, Ctx, Team, changed
from .engine import Action, Hand, legalize
from .policy import Params, decide, equity
from .population import FISH, Profile


@dataclass
class Evidence:
    """One act of one team in one hand: who took part, and the first street it happened on."""

    number: int
    act: str
    street: int
    players: set[str] = field(default_factory=set)

    def as_json(self) -> dict[str, object]:
        return {"hand_id": f"pokerstars:{self.number}", "act": self.act, "players": sorted(self.players),
                "street": self.street}


class Brain:
    """Decides for everyone at every table; one instance per room, reset per hand."""

    def __init__(self, profiles: dict[str, Profile], teams: list[Team], seed: int) -> None:
        self.params: dict[str, Params] = {n: p.params for n, p in profiles.items()}
        self.team_of = {m: t for t in teams for m in t.members}
        self.teams = teams
        self.fish = frozenset(n for n, p in profiles.items() if p.style in FISH)
        self.seed = seed
        self.evidence: dict[str, dict[tuple[int, str], Evidence]] = {t.id: {} for t in teams}
        self.shared: Counter[str] = Counter()
        self.fired: Counter[str] = Counter()
        self.rng = random.Random(0)
        self.active: set[str] = set()
        self.eq_cache: dict[tuple[int, int, int, tuple[int, ...]], float] = {}

    def new_hand(self, hand: Hand, rng: random.Random) -> None:
        """Roll, per team with two or more members dealt in, whether the tactic is on this hand."""
        self.rng = rng
        self.eq_cache = {}
        self.active = set()
        dealt = {s.name for s in hand.seats}
        for team in self.teams:
            if sum(1 for m in team.members if m in dealt) < 2:
                continue
            team.memo.clear()
            self.shared[team.id] += 1
            # own stream per team and hand, so a higher intensity fires on a superset of hands
            if random.Random(f"{self.seed}:{team.id}:{hand.number}").random() < team.intensity:
                self.active.add(team.id)
                self.fired[team.id] += 1

    def equity(self, hand: Hand, i: int, dead: tuple[int, ...] = ()) -> float:
        key = (i, hand.street, len(hand.live()), dead)
        if key not in self.eq_cache:
            self.eq_cache[key] = equity(hand, i, self.rng, dead, 64 if dead else 48)
        return self.eq_cache[key]

    def decide(self, hand: Hand, i: int) -> Action:
        name = hand.seats[i].name
        honest = decide(hand, i, self.params[name], self.rng, self.equity)
        team = self.team_of.get(name)
        if team is None or team.id not in self.active:
            return honest
        tactic = IMPLEMENTATIONS[team.family][team.implementation]
        move = tactic(Ctx(hand, i, team, honest, self.rng, self.equity, self.fish))
        if move is None:
            return honest
        act, label, players = move
        if not changed(legalize(hand, i, act), legalize(hand, i, honest)):
            return honest
        self._record(team, hand, label, players)
        return act

    def _record(self, team: Team, hand: Hand, label: str, players: tuple[str, ...]) -> None:
        key = (hand.number, label)
        entry = self.evidence[team.id].setdefault(key, Evidence(hand.number, label, hand.street))
        entry.players.update(players)

    def muck(self, i: int) -> bool:
        """A beaten player at showdown usually throws his cards away unseen."""
        return self.rng.random() < 0.65

    def team_evidence(self, team: Team) -> list[dict[str, object]]:
        return [self.evidence[team.id][k].as_json() for k in sorted(self.evidence[team.id])]
