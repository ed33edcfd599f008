"""Scoring a run against simulator truth, as in the research anchors (Kaggle 2026 protocol).

Definitions (documented because the numbers are only comparable under them):

* Candidate pairs: unordered pairs that shared at least ``min_hands`` hands in the run, plus every
  truth pair (a truth pair we never scored counts as a positive with score 0).
* Pair score: the highest score of any flag whose players include both (0 without a flag).
* **PairAP**: average precision of that ranking, positives = pairs inside one truth team.
* **EvidenceMAP@5**: for each truth pair with at least one truth evidence hand (a logged
  collusive act naming both players), AP@5 of the evidence list of the pair's best family flag
  (ring flags only when no pair flag exists) = Σ_k≤5 P@k·rel_k / min(5, #truth hands); a pair
  without a flag scores 0; mean over those pairs.
* **FamilyMAP**: for each truth family, AP of ranking the candidates by the pair's best flag *of
  that family*, positives = pairs of teams of that family; macro mean over families present.
* Composite = 0.7·PairAP + 0.2·EvidenceMAP@5 + 0.1·FamilyMAP.
"""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
from sklearn.metrics import average_precision_score

from detectors.pairs import MIN_HANDS

Pair = tuple[str, str]


def _pair(a: str, b: str) -> Pair:
    return (a, b) if a < b else (b, a)


def load_truth(path: str | Path) -> dict[str, Any]:
    return dict(json.loads(Path(path).read_text(encoding="utf-8")))


def truth_pairs(truth: dict[str, Any]) -> tuple[dict[Pair, str], dict[Pair, list[str]]]:
    """Family of every colluding pair and its truth evidence hands (in logged order, unique)."""
    fam: dict[Pair, str] = {}
    ev: dict[Pair, list[str]] = {}
    for team in truth["teams"]:
        for a, b in combinations(sorted(team["members"]), 2):
            fam[(a, b)] = team["family"]
            hands: list[str] = []
            for e in team.get("evidence", []):
                if a in e["players"] and b in e["players"] and e["hand_id"] not in hands:
                    hands.append(e["hand_id"])
            ev[(a, b)] = hands
    return fam, ev


#: confounders who sit together on purpose and play honestly: the decoys a queue must not rank as colluders
DECOY_KINDS = ("friends", "staking", "staking_partners", "backer")


def decoy_pairs(truth: dict[str, Any]) -> set[Pair]:
    """Every pair of players inside one friends or staking group of the truth file (honest decoys)."""
    return {_pair(a, b) for c in truth.get("confounders", []) if c.get("kind") in DECOY_KINDS
            for a, b in combinations(c.get("players", []), 2)}


def ap_at_k(ranked: list[str], relevant: set[str], k: int = 5) -> float:
    if not relevant:
        return 0.0
    hits, total = 0, 0.0
    for i, h in enumerate(ranked[:k], start=1):
        if h in relevant:
            hits += 1
            total += hits / i
    return total / min(k, len(relevant))


def _ap(y: list[int], s: list[float]) -> float:
    if sum(y) == 0:
        return float("nan")
    return float(average_precision_score(np.array(y), np.array(s)))


def evaluate(con: duckdb.DuckDBPyConnection, truth: dict[str, Any], run_id: str | None = None,
             min_hands: int = MIN_HANDS) -> dict[str, Any]:
    """PairAP, EvidenceMAP@5, FamilyMAP and the composite for one stored run (default: latest)."""
    if run_id is None:
        row = con.execute("SELECT run_id FROM detector_runs ORDER BY started_at DESC LIMIT 1").fetchone()
        if row is None:
            raise ValueError("no detector run in this database")
        run_id = str(row[0])
    # pair_stats keys players "site:name"; flags and truth use the screen name (one simulated site)
    cands = con.execute(
        """WITH p AS (
            SELECT substr(player_a, strpos(player_a, ':') + 1) AS a, substr(player_b, strpos(player_b, ':') + 1) AS b,
                   hands_together FROM pair_stats WHERE run_id = ? AND player_a < player_b)
        SELECT least(a, b), greatest(a, b) FROM p GROUP BY ALL HAVING sum(hands_together) >= ?""",
        [run_id, min_hands],
    ).fetchall()
    flags = con.execute(
        "SELECT family, players, score, evidence_hands FROM flags WHERE run_id = ?", [run_id]
    ).fetchall()
    return {"run_id": run_id, **score_flags([(a, b) for a, b in cands], flags, truth)}


def score_flags(cands: list[Pair], flags: list[tuple[str, list[str], float, list[str]]],
                truth: dict[str, Any]) -> dict[str, Any]:
    """The metrics for candidate pairs and flag rows (family, players, score, evidence_hands)."""
    fam, ev = truth_pairs(truth)
    pairs: set[Pair] = set(cands) | set(fam)
    best: dict[Pair, float] = {}
    best_fam: dict[tuple[Pair, str], float] = {}
    best_ev: dict[Pair, tuple[int, float, list[str]]] = {}
    for family, players, score, hands in flags:
        is_pair_flag = len(players) == 2
        for a, b in combinations(sorted(players), 2):
            p = (a, b)
            best[p] = max(best.get(p, 0.0), score)
            best_fam[(p, family)] = max(best_fam.get((p, family), 0.0), score)
            key = (int(is_pair_flag), score, list(hands))
            if p not in best_ev or key[:2] > best_ev[p][:2]:
                best_ev[p] = key
    order = sorted(pairs)
    y = [int(p in fam) for p in order]
    pair_ap = _ap(y, [best.get(p, 0.0) for p in order])
    evid = [ap_at_k(best_ev[p][2] if p in best_ev else [], set(h)) for p, h in ev.items() if h]
    ev_map = float(np.mean(evid)) if evid else float("nan")
    per_family: dict[str, float] = {}
    for f in sorted(set(fam.values())):
        per_family[f] = _ap([int(fam.get(p) == f) for p in order], [best_fam.get((p, f), 0.0) for p in order])
    fam_map = float(np.mean(list(per_family.values()))) if per_family else float("nan")
    parts = [pair_ap, ev_map if not np.isnan(ev_map) else 0.0, fam_map]
    composite = 0.7 * parts[0] + 0.2 * parts[1] + 0.1 * parts[2]
    return {
        "candidate_pairs": len(order), "positive_pairs": sum(y),
        "pairs_with_evidence": len(evid), "pair_ap": round(pair_ap, 4), "evidence_map5": round(ev_map, 4),
        "family_map": round(fam_map, 4), "family_ap": {k: round(v, 4) for k, v in per_family.items()},
        "composite": round(composite, 4),
    }
