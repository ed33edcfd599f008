"""A naive collusion screen over PokerStars text, built independently as a benchmark peer (issue 11).

It reads hand-history text only (no hole cards: ``Dealt to`` lines are skipped), scores every pair of
players dealt into at least ``min_hands`` hands together with five single-signal detectors, turns each
signal into a rank percentile among candidate pairs and combines them by rank:

    score = (percentile(co-occurrence) + max(percentile of the four behavioural signals)) / 2

Why this rule: every team has to sit together, whatever it does, so co-occurrence is the one
family-agnostic signal; each team commits one kind of act, so only its strongest behavioural signal
is evidence and averaging all four would dilute it with three noise percentiles. The family is the
behavioural signal with the highest percentile. The rule was fixed before looking at any test room.

    python bench/naive_rank_screen.py PATH... [--truth TRUTH.json] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time
from collections import defaultdict
from itertools import combinations
from pathlib import Path

import numpy as np

Pair = tuple[str, str]
Flag = tuple[str, list[str], float, list[str]]

HEADER = re.compile(r"^PokerStars Hand #(\d+):.*?\(\$?([\d.]+)/\$?([\d.]+)[^)]*\) - (\d{4}/\d\d/\d\d \d\d):")
SEAT = re.compile(r"^Seat \d+: (.+) \(\$?[\d.]+ in chips")
ACTION = re.compile(r"^(.+): (folds|checks|calls|bets|raises|posts)(?: [a-z ]*?\$?([\d.]+))?(?: to \$?([\d.]+))?")
UNCALLED = re.compile(r"^Uncalled bet \(\$?([\d.]+)\) returned to (.+)$")
COLLECTED = re.compile(r"^(.+) collected \$?([\d.]+) from")
STREETS = ("*** FLOP", "*** TURN", "*** RIVER")
FAMILY = {"passivity": "soft_play", "flow": "chip_dumping", "squeeze": "squeeze", "covpip": "card_sharing"}


class Hand:
    """One hand as the screen needs it: who sat, who acted how on which street, net chips in big blinds."""

    __slots__ = ("actions", "bb", "hid", "hour", "net", "players", "saw_flop", "table", "vpip")

    def __init__(self, hid: str, table: str, hour: str, bb: float) -> None:
        self.hid, self.table, self.hour, self.bb = hid, table, hour, bb
        self.players: list[str] = []
        self.actions: list[tuple[int, str, str, float]] = []  # (street, player, verb, raise size in bb)
        self.net: dict[str, float] = {}
        self.vpip: set[str] = set()
        self.saw_flop: set[str] = set()


def parse_text(text: str) -> list[Hand]:
    """Parse every hand in one PokerStars file; chips are tracked per street to get each player's net."""
    hands: list[Hand] = []
    for block in re.split(r"\n\s*\n(?=PokerStars Hand #)", text.strip()):
        lines = block.strip().splitlines()
        if not lines:
            continue
        m = HEADER.match(lines[0])
        if m is None:
            continue
        table_m = re.match(r"^Table '([^']+)'", lines[1]) if len(lines) > 1 else None
        h = Hand("pokerstars:" + m.group(1), table_m.group(1) if table_m else "?", m.group(4), float(m.group(3)))
        street, street_put = 0, defaultdict(float)
        invested: dict[str, float] = defaultdict(float)
        won: dict[str, float] = defaultdict(float)
        folded: set[str] = set()
        for line in lines[1:]:
            if line.startswith("*** SUMMARY"):
                break
            sm = SEAT.match(line)
            if sm and street == 0 and not h.actions and "posts" not in line:
                h.players.append(sm.group(1))
                continue
            if line.startswith("Dealt to"):
                continue  # hole cards are not used
            if line.startswith(STREETS):
                if street == 0:
                    h.saw_flop = {p for p in h.players if p not in folded}
                street += 1
                street_put = defaultdict(float)
                continue
            am = ACTION.match(line)
            if am:
                p, verb = am.group(1), am.group(2)
                amount = float(am.group(3) or 0.0)
                if verb == "raises":
                    to = float(am.group(4) or 0.0)
                    invested[p] += to - street_put[p]
                    street_put[p] = to
                elif verb in ("calls", "bets", "posts"):
                    invested[p] += amount
                    street_put[p] += amount
                if verb == "folds":
                    folded.add(p)
                if verb != "posts":
                    h.actions.append((street, p, verb, amount / h.bb))
                    if street == 0 and verb in ("calls", "bets", "raises"):
                        h.vpip.add(p)
                continue
            um = UNCALLED.match(line)
            if um:
                invested[um.group(2)] -= float(um.group(1))
                continue
            cm = COLLECTED.match(line)
            if cm:
                won[cm.group(1)] += float(cm.group(2))
        h.net = {p: (won[p] - invested[p]) / h.bb for p in set(invested) | set(won)}
        hands.append(h)
    return hands


def load(paths: list[Path]) -> list[Hand]:
    """Every hand in the files and folders given (folders are read recursively, *.txt)."""
    files: list[Path] = []
    for p in paths:
        files.extend(sorted(p.rglob("*.txt")) if p.is_dir() else [p])
    hands: list[Hand] = []
    for f in files:
        hands.extend(parse_text(f.read_text(encoding="utf-8", errors="replace")))
    return hands


def _binom_z(obs: float, exp: float, var: float) -> float:
    return (obs - exp) / math.sqrt(var + 1.0)


def _percentile(values: list[float]) -> np.ndarray:
    """Rank percentile in (0, 1], ties sharing their mean rank, so signals on different scales combine."""
    arr = np.asarray(values, dtype=float)
    order = arr.argsort(kind="mergesort")
    ranks = np.empty(len(arr))
    ranks[order] = np.arange(1, len(arr) + 1)
    _, inv, counts = np.unique(arr, return_inverse=True, return_counts=True)
    sums = np.bincount(inv, weights=ranks)
    return (sums / counts)[inv] / max(len(arr), 1)


def signals(hands: list[Hand], min_hands: int = 20) -> tuple[list[Pair], dict[str, list[float]], dict[str, object]]:
    """Candidate pairs, the five raw signals per pair (higher = more suspicious) and the evidence hand lists."""
    together: dict[Pair, int] = defaultdict(int)
    hour_hands: dict[str, int] = defaultdict(int)
    hour_player: dict[tuple[str, str], int] = defaultdict(int)
    n_hands: dict[str, int] = defaultdict(int)
    n_vpip: dict[str, int] = defaultdict(int)
    both_vpip: dict[Pair, int] = defaultdict(int)
    hu_dec: dict[tuple[str, str], int] = defaultdict(int)  # (player, opponent) -> postflop decisions heads-up
    hu_agg: dict[tuple[str, str], int] = defaultdict(int)
    hu_hands: dict[Pair, list[tuple[int, float, str]]] = defaultdict(list)  # heads-up: (-bets/raises, pot, hand)
    flow: dict[Pair, list[float]] = defaultdict(list)  # per hand: chips a->b (bb), a < b
    flow_hands: dict[Pair, list[tuple[float, str]]] = defaultdict(list)
    faced_raise: dict[str, int] = defaultdict(int)
    reraised: dict[str, int] = defaultdict(int)
    sq_opp: dict[Pair, int] = defaultdict(int)
    sq_exp: dict[Pair, float] = defaultdict(float)
    sq_hands: dict[Pair, list[tuple[float, str]]] = defaultdict(list)
    split_hands: dict[Pair, list[tuple[str, str]]] = defaultdict(list)  # (vpip player, hand) where only one entered
    for h in hands:
        hour_hands[h.hour] += 1
        for p in h.players:
            n_hands[p] += 1
            hour_player[(h.hour, p)] += 1
            n_vpip[p] += p in h.vpip
        for a, b in combinations(sorted(set(h.players)), 2):
            together[(a, b)] += 1
            if a in h.vpip and b in h.vpip:
                both_vpip[(a, b)] += 1
            elif (a in h.vpip) != (b in h.vpip):
                split_hands[(a, b)].append((a if a in h.vpip else b, h.hid))
        # heads-up postflop aggression
        if len(h.saw_flop) == 2:
            a, b = sorted(h.saw_flop)
            aggressive = 0
            for street, p, verb, _ in h.actions:
                if street >= 1 and p in h.saw_flop:
                    opp = b if p == a else a
                    hu_dec[(p, opp)] += 1
                    if verb in ("bets", "raises"):
                        hu_agg[(p, opp)] += 1
                        aggressive += 1
            pot = sum(-v for v in h.net.values() if v < 0)
            hu_hands[(a, b)].append((-aggressive, pot, h.hid))
        # chip flow: each loser's loss shared among the winners in proportion to their gain
        gains = {p: v for p, v in h.net.items() if v > 0}
        total_gain = sum(gains.values())
        if total_gain > 0:
            for loser, v in h.net.items():
                if v >= 0:
                    continue
                for winner, g in gains.items():
                    x = -v * g / total_gain
                    a, b = sorted((loser, winner))
                    f = x if loser == a else -x
                    flow[(a, b)].append(f)
                    flow_hands[(a, b)].append((f, h.hid))
        # re-raise around a third player, per street
        for street in range(4):
            acts = [(p, verb, size) for s, p, verb, size in h.actions if s == street]
            for i, (p1, v1, _) in enumerate(acts):
                if v1 not in ("bets", "raises"):
                    continue
                later = acts[i + 1:]
                nxt = next((j for j, (_, v, _) in enumerate(later) if v in ("bets", "raises")), len(later))
                facing = later[: nxt + 1]
                for p, v, _ in facing:
                    if p != p1:
                        faced_raise[p] += 1
                        reraised[p] += v == "raises"
                if nxt == len(later):
                    continue
                p2, _, size = later[nxt]
                if p2 == p1:
                    continue
                between = {p for p, _, _ in later[:nxt] if p not in (p1, p2)}
                folded_after = {p for p, v, _ in later[nxt + 1:] if v == "folds"}
                pair = (min(p1, p2), max(p1, p2))
                caught = between & folded_after
                if caught:
                    sq_opp[pair] += 1
                    sq_hands[pair].append((size, h.hid))
    # expected double raises: opportunities where p1 raised, a third player acted, and p2 faced it
    for h in hands:
        for street in range(4):
            acts = [(p, verb) for s, p, verb, _ in h.actions if s == street]
            for i, (p1, v1) in enumerate(acts):
                if v1 not in ("bets", "raises"):
                    continue
                seen_third = False
                for p, v in acts[i + 1:]:
                    if p == p1 or v in ("bets", "raises"):
                        if p != p1 and seen_third:
                            sq_exp[(min(p1, p), max(p1, p))] += reraised[p] / max(faced_raise[p], 1)
                        break
                    if seen_third:
                        sq_exp[(min(p1, p), max(p1, p))] += reraised[p] / max(faced_raise[p], 1)
                    seen_third = True
    cands = sorted(p for p, n in together.items() if n >= min_hands)
    sig: dict[str, list[float]] = {k: [] for k in ("cooc", "passivity", "flow", "squeeze", "covpip")}
    hours_of: dict[str, list[str]] = defaultdict(list)
    for hour, p in hour_player:
        hours_of[p].append(hour)
    dec_all: dict[str, int] = defaultdict(int)
    agg_all: dict[str, int] = defaultdict(int)
    for (x, _), v in hu_dec.items():
        dec_all[x] += v
    for (x, _), v in hu_agg.items():
        agg_all[x] += v
    for a, b in cands:
        n = together[(a, b)]
        # 1. co-occurrence against independent seating within each clock hour
        exp = sum(hour_player[(hr, a)] * hour_player.get((hr, b), 0) / hour_hands[hr] for hr in hours_of[a])
        sig["cooc"].append((n - exp) / math.sqrt(exp + 1.0))
        # 2. heads-up passivity: aggression at each other against each one's heads-up rate versus others
        obs = ex = var = 0.0
        for p, q in ((a, b), (b, a)):
            d = hu_dec.get((p, q), 0)
            if d == 0:
                continue
            rate = (agg_all[p] - hu_agg.get((p, q), 0) + 1) / (dec_all[p] - d + 2)
            obs += hu_agg.get((p, q), 0)
            ex += d * rate
            var += d * rate * (1 - rate)
        sig["passivity"].append(-_binom_z(obs, ex, var))
        # 3. chip flow: directed transfer as a t statistic over the hands that moved chips between them
        f = flow.get((a, b), [])
        sig["flow"].append(abs(sum(f)) / math.sqrt(sum(x * x for x in f) + 1.0))
        # 4. double raises around a third player who then folds, against the re-raise rates
        e = sq_exp.get((a, b), 0.0)
        sig["squeeze"].append(_binom_z(sq_opp.get((a, b), 0), e, e))
        # 5. co-VPIP deficit against the product of the individual VPIP rates
        pa, pb = n_vpip[a] / n_hands[a], n_vpip[b] / n_hands[b]
        sig["covpip"].append(-_binom_z(both_vpip.get((a, b), 0), n * pa * pb, n * pa * pb * (1 - pa * pb)))
    ev: dict[str, object] = {"hu": hu_hands, "flow": flow_hands, "sq": sq_hands, "split": split_hands,
                             "vpip": n_vpip, "n": n_hands}
    return cands, sig, ev


def screen(paths: list[Path], min_hands: int = 20, budget: float = 0.01) -> tuple[list[Pair], list[Flag]]:
    """Candidate pairs and the top ``budget`` share of them (at least 10) as pair flags."""
    cands, sig, ev = signals(load(paths), min_hands)
    if not cands:
        return [], []
    pct = {k: _percentile(v) for k, v in sig.items()}
    behaviour = ("passivity", "flow", "squeeze", "covpip")
    beh = np.vstack([pct[k] for k in behaviour])
    best = beh.argmax(axis=0)
    score = 0.5 * (pct["cooc"] + beh.max(axis=0))
    k = max(10, math.ceil(budget * len(cands)))
    flags: list[Flag] = []
    for i in np.argsort(-score, kind="mergesort")[:k]:
        name = behaviour[best[i]]
        flags.append((FAMILY[name], list(cands[i]), round(float(score[i]), 6), _evidence(name, cands[i], ev)))
    return cands, flags


def _evidence(name: str, pair: Pair, ev: dict[str, object], k: int = 20) -> list[str]:
    """Hands where the family's signal fired, most telling first."""
    a, b = pair
    if name == "passivity":  # heads-up pots with the fewest bets/raises between them, biggest pot first
        rows = sorted(ev["hu"].get(pair, []), reverse=True)  # type: ignore[attr-defined]
        return [hid for _, _, hid in rows[:k]]
    if name == "flow":  # biggest transfers in the pair's dominant direction
        rows = ev["flow"].get(pair, [])  # type: ignore[attr-defined]
        sign = 1.0 if sum(f for f, _ in rows) >= 0 else -1.0
        return [hid for f, hid in sorted(rows, key=lambda r: -sign * r[0]) if sign * f > 0][:k]
    if name == "squeeze":  # biggest re-raise first
        return [hid for _, hid in sorted(ev["sq"].get(pair, []), reverse=True)[:k]]  # type: ignore[attr-defined]
    # co-VPIP deficit: one entered while the other, the more likely to enter, stayed out
    vp: dict[str, int] = ev["vpip"]  # type: ignore[assignment]
    nh: dict[str, int] = ev["n"]  # type: ignore[assignment]
    rows = ev["split"].get(pair, [])  # type: ignore[attr-defined]
    other = {a: b, b: a}
    return [hid for _, hid in sorted(rows, key=lambda r: -vp[other[r[0]]] / nh[other[r[0]]])[:k]]


def main(argv: list[str] | None = None) -> int:
    """CLI: flags as JSON or a short table; the evaluation metrics when a truth file is given."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="+", type=Path)
    ap.add_argument("--truth", type=Path)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--min-hands", type=int, default=20)
    ap.add_argument("--budget", type=float, default=0.01)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    cands, flags = screen(args.paths, args.min_hands, args.budget)
    secs = round(time.perf_counter() - t0, 1)
    out: dict[str, object] = {"candidates": len(cands), "flags": len(flags), "seconds": secs}
    if args.truth:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from detectors.evaluate import load_truth, score_flags

        out["metrics"] = score_flags(cands, flags, load_truth(args.truth))
    if args.json:
        out["flag_rows"] = [{"family": f, "players": p, "score": s, "evidence": e} for f, p, s, e in flags]
        print(json.dumps(out, indent=1))
    else:
        for f, p, s, e in flags:
            print(f"{s:.4f}  {f:<13} {p[0]} + {p[1]}  ({len(e)} hands: {', '.join(e[:3])})")
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
