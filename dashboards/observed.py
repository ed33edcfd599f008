"""Reading what detectors and rules wrote, for people: flag metrics and rule citations.

Why a module: the case page, the PDF/HTML report and the tests must turn the same stored JSON
and messages into the same rows. The shapes are the real ones: ``detectors/run.py`` writes
``observed`` as ``{metric: {"value", "population_median", "percentile" (0-100)}, "pair_score": x,
"hands_together": n}`` (group flags: ``{"members": [...], "weakest_pair_score": x}``), and every
rule finding's ``message`` ends with the seed passage it rests on: ``... [seed file] «quote»``.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: what each detector metric measures; {a} and {b} are the flag's first and second player.
#: "_ab" metrics are {a}'s behaviour towards {b}, "_ba" the reverse (detectors/pairs.py).
METRIC_LABELS: dict[str, str] = {
    "z_hu_post_aggr_ab": "{a}'s post-flop aggression heads-up vs {b} (z against expected)",
    "z_hu_post_aggr_ba": "{b}'s post-flop aggression heads-up vs {a} (z against expected)",
    "z_checkdown": "heads-up check-downs between {a} and {b} (z against population rate)",
    "hu_confrontations": "heads-up confrontations between them",
    "hu_checkdowns": "heads-up check-downs between them",
    "x_beaten_ab": "chips {a} lost to {b} while holding the better hand (excess over {a}'s norm)",
    "x_beaten_ba": "chips {b} lost to {a} while holding the better hand (excess over {b}'s norm)",
    "x_fold_ab": "chips {a} gave up folding to {b} (excess over {a}'s norm)",
    "x_fold_ba": "chips {b} gave up folding to {a} (excess over {b}'s norm)",
    "net_flow_cbb": "net chips from {a} to {b}, hundredths of a big blind",
    "confrontations": "pots contested by both",
    "z_face_pre_aggr_ab": "{a}'s pre-flop aggression facing {b}'s action (z against expected)",
    "z_face_pre_aggr_ba": "{b}'s pre-flop aggression facing {a}'s action (z against expected)",
    "x_squeeze_ab": "squeezes by {a} around {b} (excess over expected)",
    "x_squeeze_ba": "squeezes by {b} around {a} (excess over expected)",
    "squeezes_ab": "squeeze sequences, {a} raising",
    "squeezes_ba": "squeeze sequences, {b} raising",
    "z_cs_ab": "{a} folds more when {b} holds the stronger hand (z: card-sharing contrast)",
    "z_cs_ba": "{b} folds more when {a} holds the stronger hand (z: card-sharing contrast)",
    "cs_b_stronger_n": "spots where the partner held the stronger hand",
    "cs_b_stronger_fold": "folds in those spots",
    "anomaly_raw": "isolation-forest anomaly score of the pair",
}
FACT_LABELS = {
    "pair_score": "pair score (all families)",
    "model_score": "model score (rank in this room)",
    "rank": "rank among the scored pairs",
    "evidence_z": "family evidence, robust z in this room",
    "honest_tail_probability": "chance an honest pair of this room gets this far",
    "family_distribution": "family attribution",
    "team_support": "team support: both players also linked at the top of the queue to one third player (0-1)",
    "evidence_support": "evidence support: how far the pair's own hands look like collusive acts to the evidence"
                        " ranker (0-1)",
    "hands_together": "hands played together",
    "weakest_pair_score": "weakest pair score in the group",
    "members": "members",
    "mechanism_spots": "spots between them where each family's mechanism could show",
    "pots_with_others": "pots each contested with anyone but the other",
}


def _label(name: str, players: list[str]) -> str:
    a = players[0] if players else "A"
    b = players[1] if len(players) > 1 else "B"
    return METRIC_LABELS.get(name, name.replace("_", " ")).format(a=a, b=b)


def observed_metrics(observed: str | None, players: list[str] | None = None) -> list[dict[str, Any]]:
    """The flag's population contrasts as rows: name, label, value, population_median, percentile.

    Only entries with a value are metrics; scalar entries (pair score, hands together) are facts.
    Also accepts an older ``{"metrics": [{name, value, percentile, ...}]}`` layout.
    """
    if not observed:
        return []
    data = json.loads(observed)
    players = list(players or [])
    if isinstance(data, dict) and isinstance(data.get("metrics"), list):
        items = [m for m in data["metrics"] if isinstance(m, dict)]
    elif isinstance(data, dict):
        items = [{"name": k, **v} for k, v in sorted(data.items()) if isinstance(v, dict) and "value" in v]
    else:
        items = [m for m in data if isinstance(m, dict)] if isinstance(data, list) else []
    out = []
    for m in items:
        name = str(m.get("name", "?"))
        median = m.get("population_median", m.get("population_p50"))
        out.append({"name": name, "label": _label(name, players), "value": m.get("value"),
                    "population_median": median, "percentile": m.get("percentile")})
    # most unusual first: distance of the percentile from the middle of the population
    return sorted(out, key=lambda m: (-abs(float(m["percentile"]) - 50) if isinstance(m["percentile"], int | float)
                                      else 0.0, m["name"]))


def observed_facts(observed: str | None) -> dict[str, Any]:
    """Scalar entries of ``observed`` under readable names (pair score, hands together, members)."""
    if not observed:
        return {}
    data = json.loads(observed)
    if not isinstance(data, dict):
        return {}
    return {FACT_LABELS.get(k, k.replace("_", " ")): _fact_text(v)
            for k, v in sorted(data.items()) if k != "metrics" and not (isinstance(v, dict) and "value" in v)}


def _fact_text(v: Any) -> Any:
    """Lists joined; counts ({family: n}) as 'card_sharing 0, soft_play 12' in key order; a distribution
    ({family: share}) as 'soft_play 72%, squeeze 20%', largest first."""
    if isinstance(v, list):
        return ", ".join(map(str, v))
    if isinstance(v, dict) and all(isinstance(x, int) and not isinstance(x, bool) for x in v.values()):
        return ", ".join(f"{k} {x:,}" for k, x in v.items())
    if isinstance(v, dict):
        parts = sorted(v.items(), key=lambda kv: -float(kv[1]))
        return ", ".join(f"{k} {100 * float(x):.0f}%" for k, x in parts if float(x) >= 0.005)
    return v


_CITATION = re.compile(r"\s*\[(?P<source>[^\[\]]+)\]\s*«(?P<quote>.+?)»\s*$", re.S)


def split_citation(message: str | None) -> tuple[str, str | None, str | None]:
    """A finding's message as (plain text, seed source, quoted passage); no citation: (message, None, None)."""
    text = message or ""
    m = _CITATION.search(text)
    if m is None:
        return text, None, None
    return text[: m.start()].rstrip(), m.group("source"), m.group("quote")
