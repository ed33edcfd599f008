"""Naive single-signal collusion screen: a benchmark peer for Floorman's detectors.

Reads PokerStars cash hand-history text only (no hole cards, no warehouse) and scores every pair of
players dealt into at least ``min_hands`` hands together on five single signals:

1. co-occurrence  - hands together vs independent seating per table (Poisson z); no family.
2. soft_play      - heads-up postflop passivity between them vs each one's heads-up aggression
                    against everybody else (binomial z, passive = positive).
3. chip_dumping   - net big blinds moved from one to the other in pots both put money in, per
                    sqrt(hand together), scaled by the spread of that across pairs (|z|).
4. squeeze        - one raises, the other re-raises while a third live player then folds; per hand
                    together vs what each player's own raise / re-raise rates predict (Poisson z).
5. card_sharing   - co-VPIP deficit: both voluntarily in preflop less often than their VPIP rates
                    away from each other predict (binomial z, deficit = positive).

Each signal becomes a rank percentile among candidate pairs; score = mean of the top three. The
family is the signal with the highest percentile among 2-5.

Usage:
    python bench/naive_screen.py PATH... [--truth TRUTH.json] [--json] [--budget 0.01]
"""

from __future__ import annotations

import argparse
import heapq
import json
import math
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

FAMILIES = ("soft_play", "chip_dumping", "squeeze", "card_sharing")
SIGNALS = ("co_occurrence", *FAMILIES)
EVIDENCE_MAX = 10
SMOOTH = 10.0  # pseudo-decisions pulling a player's heads-up aggression toward the global rate

_HEADER = re.compile(r"^\ufeff?PokerStars Hand #(\d+)", re.M)
_NUM = r"\D*?(\d[\d,]*(?:\.\d+)?)"
_STAKES = re.compile(r"\(([^()/]+)/([^()/]+?)(?: [A-Z]{3})?\)")
_TABLE = re.compile(r"^Table '([^']*)'")
_SEAT = re.compile(r"^Seat \d+: (.+) \([^()]*? in chips[^()]*\)(.*)$")
_ACTION = re.compile(r"^(.+): (folds|checks|calls|bets|raises|posts)(.*)$")
_RAISE_TO = re.compile(r"to" + _NUM)
_AMOUNT = re.compile(_NUM)
_UNCALLED = re.compile(r"^Uncalled bet \(" + _NUM + r"\) returned to (.+)$")
_COLLECTED = re.compile(r"^(.+) collected" + _NUM + r" from")

Pair = tuple[str, str]
Flag = tuple[str, list[str], float, list[str]]


@dataclass
class Hand:
    """One parsed hand: who was dealt in, what they did per street and the money."""

    hid: str
    table: str
    bb: float
    players: list[str]
    streets: list[list[tuple[str, str]]] = field(default_factory=lambda: [[], [], [], []])
    contrib: dict[str, float] = field(default_factory=dict)
    collected: dict[str, float] = field(default_factory=dict)


def _num(text: str) -> float:
    return float(text.replace(",", ""))


def _read_text(path: Path) -> str:
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def iter_files(paths: Iterable[Path]) -> Iterator[Path]:
    """Files given directly, and every ``*.txt`` under the folders given (sorted)."""
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*.txt") if p.is_file())
        elif path.is_file():
            yield path


def _big_blind(header: str) -> float:
    match = _STAKES.search(header)
    if match:
        amount = _AMOUNT.search(match.group(2))
        if amount:
            return _num(amount.group(1))
    return 0.0


def parse_hand(hid: str, block: str) -> Hand:
    """Parse one hand's text (header line first); a truncated hand may have no players."""
    lines = block.split("\n")
    hand = Hand(hid="pokerstars:" + hid, table="", bb=_big_blind(lines[0]), players=[])
    street, commit, posted_bb = 0, defaultdict(float), 0.0
    in_seats = True
    for raw in lines[1:]:
        line = raw.strip()
        if line.startswith("*** "):
            if "SUMMARY" in line:
                break
            in_seats = False
            for idx, word in ((1, "FLOP"), (2, "TURN"), (3, "RIVER")):
                if word in line and idx > street:
                    street, commit = idx, defaultdict(float)
            continue
        if in_seats and line.startswith("Seat "):
            seat = _SEAT.match(line)
            if seat and "sitting out" not in seat.group(2) and "out of hand" not in seat.group(2):
                hand.players.append(seat.group(1))
            continue
        if line.startswith("Table '"):
            table = _TABLE.match(line)
            hand.table = table.group(1) if table else ""
            continue
        if line.startswith("Uncalled bet"):
            unc = _UNCALLED.match(line)
            if unc:
                hand.contrib[unc.group(2)] = hand.contrib.get(unc.group(2), 0.0) - _num(unc.group(1))
            continue
        if " collected " in line:
            col = _COLLECTED.match(line)
            if col:
                hand.collected[col.group(1)] = hand.collected.get(col.group(1), 0.0) + _num(col.group(2))
            continue
        act = _ACTION.match(line)
        if not act:
            continue
        name, verb, rest = act.groups()
        amount = _AMOUNT.search(rest)
        value = _num(amount.group(1)) if amount else 0.0
        if verb == "posts":
            if "big blind" in rest and "small" not in rest:
                posted_bb = max(posted_bb, value)
            if "ante" not in rest:
                commit[name] += value if "&" not in rest else value / 1.5
            hand.contrib[name] = hand.contrib.get(name, 0.0) + value
            continue
        if verb == "raises":
            to = _RAISE_TO.search(rest)
            value = _num(to.group(1)) - commit[name] if to else value
        if verb in ("calls", "bets", "raises"):
            commit[name] += value
            hand.contrib[name] = hand.contrib.get(name, 0.0) + value
        hand.streets[street].append((name, verb))
        if "all-in" in rest:
            hand.streets[street].append((name, "is_allin"))
    hand.bb = hand.bb or posted_bb or 1.0
    return hand


def read_hands(paths: Iterable[Path]) -> Iterator[Hand]:
    """Every hand in the given files / folders, in file order."""
    for path in iter_files(paths):
        text = _read_text(path)
        starts = [m.start() for m in _HEADER.finditer(text)]
        for i, start in enumerate(starts):
            block = text[start : starts[i + 1] if i + 1 < len(starts) else len(text)].lstrip("\ufeff")
            yield parse_hand(_HEADER.match(block).group(1), block.strip())  # type: ignore[union-attr]


def _pair(a: str, b: str) -> Pair:
    return (a, b) if a < b else (b, a)


@dataclass
class Tally:
    """Per-player and per-pair counts accumulated hand by hand."""

    hands: Counter[str] = field(default_factory=Counter)
    table_hands: Counter[str] = field(default_factory=Counter)
    seat_table: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    together: Counter[Pair] = field(default_factory=Counter)
    vpip: Counter[str] = field(default_factory=Counter)
    vpip_with: Counter[Pair] = field(default_factory=Counter)  # ordered (a, b): a in voluntarily, b dealt
    co_vpip: Counter[Pair] = field(default_factory=Counter)
    hu_dec: Counter[str] = field(default_factory=Counter)
    hu_agg: Counter[str] = field(default_factory=Counter)
    hu_dec_pair: Counter[Pair] = field(default_factory=Counter)  # ordered (actor, opponent)
    hu_agg_pair: Counter[Pair] = field(default_factory=Counter)
    flow: Counter[Pair] = field(default_factory=Counter)  # sorted (a, b): + means a -> b, in big blinds
    sq_raiser: Counter[str] = field(default_factory=Counter)
    sq_reraiser: Counter[str] = field(default_factory=Counter)
    sq_pair: Counter[Pair] = field(default_factory=Counter)  # ordered (raiser, re-raiser)
    sq_total: int = 0
    evidence: dict[tuple[str, Pair], list[tuple[tuple[float, ...], str]]] = field(
        default_factory=lambda: defaultdict(list)
    )

    def keep(self, key: tuple[str, Pair], strength: tuple[float, ...], hid: str) -> None:
        """Keep the EVIDENCE_MAX strongest hands for (family/direction, pair)."""
        heap = self.evidence[key]
        if len(heap) < EVIDENCE_MAX:
            heapq.heappush(heap, (strength, hid))
        elif (strength, hid) > heap[0]:
            heapq.heapreplace(heap, (strength, hid))


def _squeezes(street: list[tuple[str, str]], folded: set[str], allin: set[str], live: list[str]):
    """(raiser, re-raiser, victim) for every re-raise a live third player then folds to."""
    out, last_agg, gone = [], None, set(folded)
    for i, (name, verb) in enumerate(street):
        if verb in ("bets", "raises"):
            if last_agg is not None and last_agg != name:
                for victim in live:
                    if victim in (name, last_agg) or victim in gone or victim in allin:
                        continue
                    nxt = next((v for n, v in street[i + 1 :] if n == victim and v != "is_allin"), None)
                    if nxt == "folds":
                        out.append((last_agg, name, victim))
            last_agg = name
        elif verb == "folds":
            gone.add(name)
    return out


def tally_hand(hand: Hand, t: Tally) -> None:
    """Add one hand's counts to the tally."""
    players, hid, bb = hand.players, hand.hid, hand.bb
    if not players:
        return
    t.table_hands[hand.table] += 1
    for p in players:
        t.hands[p] += 1
        t.seat_table[p][hand.table] += 1
    pairs = [_pair(a, b) for i, a in enumerate(players) for b in players[i + 1 :]]
    for pr in pairs:
        t.together[pr] += 1
    pot_bb = sum(max(v, 0.0) for v in hand.contrib.values()) / bb
    # VPIP and co-VPIP (voluntary preflop call / bet / raise)
    pre = hand.streets[0]
    first_in: dict[str, int] = {}
    for i, (name, verb) in enumerate(pre):
        if verb in ("calls", "bets", "raises") and name not in first_in:
            first_in[name] = i
    vp = [p for p in players if p in first_in]
    for p in vp:
        t.vpip[p] += 1
        for q in players:
            if q != p:
                t.vpip_with[(p, q)] += 1
    for i, a in enumerate(vp):
        for b in vp[i + 1 :]:
            t.co_vpip[_pair(a, b)] += 1
    fold_at = {n: i for i, (n, v) in enumerate(pre) if v == "folds"}
    for f, fi in fold_at.items():
        for p in vp:
            faced = 1.0 if first_in[p] < fi else 0.0
            t.keep(("card_sharing", _pair(f, p)), (faced, pot_bb), hid)
    # heads-up postflop streets and squeezes, street by street
    folded: set[str] = set()
    allin: set[str] = set()
    hu_pass: dict[Pair, int] = {}
    for s, street in enumerate(hand.streets):
        live = [p for p in players if p not in folded]
        if s > 0 and len(live) == 2 and street:
            a, b = live
            pr = _pair(a, b)
            aggressive = 0
            for name, verb in street:
                if name not in (a, b) or verb == "is_allin":
                    continue
                other = b if name == a else a
                agg = verb in ("bets", "raises")
                aggressive += agg
                t.hu_dec[name] += 1
                t.hu_agg[name] += agg
                t.hu_dec_pair[(name, other)] += 1
                t.hu_agg_pair[(name, other)] += agg
            if not aggressive:
                hu_pass[pr] = hu_pass.get(pr, 0) + 1
        seen: set[Pair] = set()
        for x, y, _victim in _squeezes(street, folded, allin, live):
            if (x, y) in seen:
                continue
            seen.add((x, y))
            t.sq_raiser[x] += 1
            t.sq_reraiser[y] += 1
            t.sq_pair[(x, y)] += 1
            t.sq_total += 1
            t.keep(("squeeze", _pair(x, y)), (pot_bb,), hid)
        for name, verb in street:
            if verb == "folds":
                folded.add(name)
            elif verb == "is_allin":
                allin.add(name)
    for pr, n_pass in hu_pass.items():
        t.keep(("soft_play", pr), (float(n_pass), pot_bb), hid)
    # chip flow: each loser's loss shared among winners in proportion to their winnings
    net = {p: hand.collected.get(p, 0.0) - c for p, c in hand.contrib.items() if c > 0}
    gains = {p: v for p, v in net.items() if v > 0}
    total_gain = sum(gains.values())
    if total_gain <= 0:
        return
    for loser, v in net.items():
        if v >= 0:
            continue
        for winner, g in gains.items():
            moved = -v * g / total_gain / bb
            pr = _pair(loser, winner)
            t.flow[pr] += moved if loser == pr[0] else -moved
            t.keep(("chip_dumping", (loser, winner)), (moved,), hid)


def _binom_z(expected_rate: float, n: float, observed: float) -> float:
    """(expected - observed) / sd for n trials at the expected rate; 0 when undefined."""
    var = n * expected_rate * (1 - expected_rate)
    return (n * expected_rate - observed) / math.sqrt(var) if var > 0 else 0.0


def _soft_play(t: Tally, a: str, b: str, g: float) -> float:
    expected, var, observed = 0.0, 0.0, 0.0
    for p, q in ((a, b), (b, a)):
        d, k = t.hu_dec_pair[(p, q)], t.hu_agg_pair[(p, q)]
        rate = (t.hu_agg[p] - k + SMOOTH * g) / (t.hu_dec[p] - d + SMOOTH)
        expected += d * rate
        var += d * rate * (1 - rate)
        observed += k
    return (expected - observed) / math.sqrt(var) if var > 0 else 0.0


def _squeeze(t: Tally, a: str, b: str, n_ab: int, rate_all: float) -> float:
    if rate_all <= 0:
        return 0.0
    observed = t.sq_pair[(a, b)] + t.sq_pair[(b, a)]
    expected = 0.0
    for x, y in ((a, b), (b, a)):
        r_x = (t.sq_raiser[x] - t.sq_pair[(x, y)]) / t.hands[x]
        s_y = (t.sq_reraiser[y] - t.sq_pair[(x, y)]) / t.hands[y]
        expected += n_ab * r_x * s_y / rate_all
    return (observed - expected) / math.sqrt(max(expected, 0.25))


def _co_vpip_deficit(t: Tally, a: str, b: str, n_ab: int) -> float:
    rates = []
    for p, q in ((a, b), (b, a)):
        away = t.hands[p] - n_ab
        rate = (t.vpip[p] - t.vpip_with[(p, q)]) / away if away >= 20 else t.vpip[p] / t.hands[p]
        rates.append(rate)
    return _binom_z(rates[0] * rates[1], n_ab, t.co_vpip[(a, b)])


def _co_occurrence(t: Tally, a: str, b: str, n_ab: int) -> float:
    ta, tb = t.seat_table[a], t.seat_table[b]
    expected = sum(n * tb[tab] / t.table_hands[tab] for tab, n in ta.items() if tab in tb)
    return (n_ab - expected) / math.sqrt(expected) if expected > 0 else 0.0


def signals(t: Tally, min_hands: int = 20) -> tuple[list[Pair], dict[str, np.ndarray]]:
    """Candidate pairs (sorted) and the five raw signal values, larger = more suspicious."""
    cands = sorted(pr for pr, n in t.together.items() if n >= min_hands)
    hu_total = sum(t.hu_dec.values())
    g = sum(t.hu_agg.values()) / hu_total if hu_total else 0.0
    sq_rate = t.sq_total / max(sum(t.table_hands.values()), 1)
    raw_flow = np.array([t.flow[pr] / math.sqrt(t.together[pr]) for pr in cands], dtype=float)
    spread = 1.0
    if cands:
        spread = 1.4826 * float(np.median(np.abs(raw_flow))) or float(np.std(raw_flow)) or 1.0
    out = {
        "co_occurrence": [_co_occurrence(t, a, b, t.together[(a, b)]) for a, b in cands],
        "soft_play": [_soft_play(t, a, b, g) for a, b in cands],
        "chip_dumping": list(np.abs(raw_flow) / spread),
        "squeeze": [_squeeze(t, a, b, t.together[(a, b)], sq_rate) for a, b in cands],
        "card_sharing": [_co_vpip_deficit(t, a, b, t.together[(a, b)]) for a, b in cands],
    }
    return cands, {k: np.asarray(v, dtype=float) for k, v in out.items()}


def percentiles(values: np.ndarray) -> np.ndarray:
    """Rank percentile in (0, 1], ties sharing their average rank."""
    n = len(values)
    if n == 0:
        return values.astype(float)
    order = np.argsort(values, kind="stable")
    ranks = np.empty(n, dtype=float)
    sorted_v = values[order]
    i = 0
    while i < n:
        j = i
        while j + 1 < n and sorted_v[j + 1] == sorted_v[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return ranks / n


def _evidence(t: Tally, family: str, pr: Pair) -> tuple[list[str], list[str]]:
    """(players, evidence hand ids best first); chip dumping lists the dumper first."""
    players = list(pr)
    key: tuple[str, Pair] = (family, pr)
    if family == "chip_dumping":
        dumper, receiver = pr if t.flow[pr] >= 0 else (pr[1], pr[0])
        players, key = [dumper, receiver], (family, (dumper, receiver))
    best = sorted(t.evidence.get(key, []), reverse=True)
    return players, [hid for _s, hid in best[:EVIDENCE_MAX]]


def screen(
    paths: list[Path], min_hands: int = 20, budget: float = 0.01
) -> tuple[list[tuple[str, str]], list[tuple[str, list[str], float, list[str]]]]:
    """returns (candidate pairs (a, b) with a < b, flags [(family, [a, b], score, evidence_hand_ids)]) for the
    top `budget` share of candidates (at least 10 flags)."""
    tally = Tally()
    for hand in read_hands(paths):
        tally_hand(hand, tally)
    return rank(tally, min_hands, budget)


def rank(t: Tally, min_hands: int = 20, budget: float = 0.01) -> tuple[list[Pair], list[Flag]]:
    """Percentile-combine the signals and flag the top ``budget`` share of candidate pairs."""
    cands, sig = signals(t, min_hands)
    if not cands:
        return [], []
    pct = np.column_stack([percentiles(sig[name]) for name in SIGNALS])
    score = np.sort(pct, axis=1)[:, -3:].mean(axis=1)
    family_idx = np.argmax(pct[:, 1:], axis=1)
    n_flags = min(len(cands), max(10, math.ceil(budget * len(cands))))
    top = np.argsort(-score, kind="stable")[:n_flags]
    flags: list[Flag] = []
    for i in top:
        family = FAMILIES[int(family_idx[i])]
        players, evidence = _evidence(t, family, cands[i])
        flags.append((family, players, round(float(score[i]), 6), evidence))
    return cands, flags


def main(argv: list[str] | None = None) -> int:
    """CLI: print the top flags (and the benchmark scores against a truth file)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="+", type=Path)
    ap.add_argument("--truth", type=Path)
    ap.add_argument("--json", action="store_true", help="print one JSON document")
    ap.add_argument("--budget", type=float, default=0.01)
    ap.add_argument("--min-hands", type=int, default=20)
    args = ap.parse_args(argv)
    started = time.perf_counter()
    cands, flags = screen(args.paths, args.min_hands, args.budget)
    elapsed = time.perf_counter() - started
    scores = None
    if args.truth:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from detectors.evaluate import score_flags

        scores = score_flags(cands, flags, json.loads(args.truth.read_text()))
    if args.json:
        doc = {
            "candidates": len(cands),
            "seconds": round(elapsed, 2),
            "flags": [{"family": f, "players": p, "score": s, "evidence": e} for f, p, s, e in flags],
            "scores": scores,
        }
        print(json.dumps(doc, indent=2, default=float))
        return 0
    print(f"{len(cands)} candidate pairs, {len(flags)} flags, {elapsed:.1f} s")
    for family, players, score, evidence in flags[:30]:
        print(f"{score:.3f}  {family:<13} {' / '.join(players):<40} {len(evidence)} hands")
    if scores is not None:
        for key in ("composite", "pair_ap", "evidence_map5", "family_map"):
            if key in scores:
                print(f"{key}: {scores[key]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
