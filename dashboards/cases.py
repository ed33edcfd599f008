"""Cases: one per suspected group, its flags and families combined (issue 14, build item 4).

Why group: the detectors flag pairs and rings family by family and mode by mode, so one team shows
up as several flags (a trio as its ring flag, two or three pair flags and the same pairs again in the
other hole-card mode). A reviewer decides about people, so the queue lists groups.

Grouping rule: each maximal player set among the flags (a ring's members, a pair no ring
contains) is a case, and every flag joins a case whose players include all of its own (a pair's
flags in every family and both hole-card modes join the ring around them). Only containment
counts: chaining flags that merely overlap would glue two teams sharing a busy player (or two
rings sharing two members) into one ever-growing case. A flag inside several rings joins the one
whose own flags score highest.

The case's id is the id of its founding flag: the member first raised (its first night, then the
flag id), so a link, a decision or an assignment made yesterday still names the same case after a
stronger flag joins the group tonight (a flag id is stable across nights: mode, family, players).
The lead flag (the strongest: score, then evidence strength, then id) is kept apart, as ``lead``:
its explanation heads the case page. Any member flag's id resolves to the case.

Ranking: by the score a reviewer sees (two decimals), then the evidence strength (the largest
robust z of a member flag's evidence under the room's honest null: scores saturate at 1.00 where
the evidence still separates), then the number of families, hands together, and the id.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any

import polars as pl

SEVERITY_RANK = {"low": 0, "medium": 1, "high": 2}
#: characters of the lead flag's explanation shown on a queue row
SNIPPET = 110

CASE_SCHEMA: dict[str, Any] = {
    "case_id": pl.String, "lead": pl.String, "rank": pl.Int64, "score": pl.Float64, "strength": pl.Float64,
    "players": pl.List(pl.String), "families": pl.List(pl.String), "flags": pl.List(pl.String),
    "n_flags": pl.Int64, "severity": pl.String, "modes": pl.List(pl.String), "tables": pl.List(pl.String),
    "n_evidence": pl.Int64, "hands_together": pl.Int64, "first_hand_at": pl.Datetime("us"),
    "last_hand_at": pl.Datetime("us"), "flagged_at": pl.Datetime("us"), "snippet": pl.String,
}


def _strength(z: object) -> float:
    try:
        v = float(z)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return 0.0
    return v if v == v else 0.0  # NaN -> 0  # noqa: PLR0124


def snippet(text: object, limit: int = SNIPPET) -> str:
    """The explanation's first sentence, cut at a word boundary to ``limit`` characters."""
    t = " ".join(str(text or "").split())
    first = re.split(r"(?<=[.;])\s", t, maxsplit=1)[0]
    if len(first) <= limit:
        return first
    cut = first[: limit - 1].rsplit(" ", 1)[0]
    return cut.rstrip(",;:") + "…"


def group_flags(flags: list[tuple[str, list[str]]], scores: dict[str, float] | None = None) -> dict[str, int]:
    """flag id -> case number. Each maximal player set among the flags (one no other flag's set
    strictly contains) is a case; every flag joins a case whose set contains its own: the one whose
    own flags score highest (then the larger set, then by name) when several do."""
    scores = scores or {}
    sets: dict[frozenset[str], float] = {}
    for fid, players in flags:
        key = frozenset(players)
        sets[key] = max(sets.get(key, float("-inf")), scores.get(fid, 0.0))
    maximal = [k for k in sets if not any(k < other for other in sets)]
    maximal.sort(key=lambda k: (-sets[k], -len(k), sorted(k)))
    number = {k: i for i, k in enumerate(maximal)}
    out: dict[str, int] = {}
    for fid, players in flags:
        key = frozenset(players)
        home = key if key in number else next(m for m in maximal if key <= m)
        out[fid] = number[home]
    return out


def founding_flag(flags: list[dict[str, Any]]) -> str:
    """The id of the flag first raised among a case's flags (first night, then id): the case's id,
    which a stronger flag joining later does not change."""
    never = dt.datetime.max

    def raised(r: dict[str, Any]) -> dt.datetime:
        t = r.get("first_flagged_at") or r.get("created_at")
        return t if isinstance(t, dt.datetime) else never

    return str(min(flags, key=lambda r: (raised(r), str(r["flag_id"])))["flag_id"])


def build_cases(q: pl.DataFrame) -> pl.DataFrame:
    """Cases from the queue's flag rows (``data.queue``), ranked; empty frame when there are none."""
    if q.is_empty():
        return pl.DataFrame(schema=CASE_SCHEMA)
    rows = q.to_dicts()
    groups = group_flags([(r["flag_id"], list(r["players"] or [])) for r in rows],
                         {r["flag_id"]: float(r["score"]) for r in rows})
    members: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        r["_strength"] = _strength(r.get("evidence_z"))
        members.setdefault(groups[r["flag_id"]], []).append(r)
    out = []
    for flags in members.values():
        flags.sort(key=lambda r: (-round(float(r["score"]), 2), -r["_strength"], -float(r["score"]), r["flag_id"]))
        lead = flags[0]
        count: dict[str, int] = {}
        for r in flags:
            for p in r["players"] or []:
                count[p] = count.get(p, 0) + 1
        families: list[str] = []
        for r in sorted(flags, key=lambda r: (-float(r["score"]), r["family"])):
            if r["family"] not in families:
                families.append(r["family"])
        evidence = {h for r in flags for h in (r.get("evidence_hands") or [])}
        firsts = [r["first_hand_at"] for r in flags if r.get("first_hand_at") is not None]
        lasts = [r["last_hand_at"] for r in flags if r.get("last_hand_at") is not None]
        # age counts from the first night any of the case's flags was raised (a flag id is stable)
        created = [r.get("first_flagged_at") or r["created_at"] for r in flags
                   if (r.get("first_flagged_at") or r.get("created_at")) is not None]
        out.append({
            "case_id": founding_flag(flags),
            "lead": lead["flag_id"],
            "score": max(float(r["score"]) for r in flags),
            "strength": max(r["_strength"] for r in flags),
            "players": sorted(count, key=lambda p: (-count[p], p)),
            "families": families,
            "flags": [r["flag_id"] for r in flags],
            "n_flags": len(flags),
            "severity": max((str(r["severity"]) for r in flags), key=lambda s: SEVERITY_RANK.get(s, -1)),
            "modes": sorted({str(r["mode"]) for r in flags}),
            "tables": sorted({t for r in flags for t in (r.get("tables") or [])}),
            "n_evidence": len(evidence) if evidence else int(sum(int(r.get("n_evidence") or 0) for r in flags)),
            "hands_together": max((int(r.get("hands_together") or 0) for r in flags), default=0),
            "first_hand_at": min(firsts) if firsts else None,
            "last_hand_at": max(lasts) if lasts else None,
            "flagged_at": min(created) if created else None,
            "snippet": snippet(lead.get("explanation")),
        })
    out.sort(key=lambda c: (-round(c["score"], 2), -c["strength"], -len(c["families"]), -c["hands_together"],
                            c["case_id"]))
    for i, c in enumerate(out, 1):
        c["rank"] = i
    return pl.DataFrame(out, schema=CASE_SCHEMA)


def case_of(cases: pl.DataFrame) -> dict[str, str]:
    """Every member flag id -> its case id."""
    return {f: cid for cid, fs in zip(cases["case_id"].to_list(), cases["flags"].to_list(), strict=True) for f in fs}


def case_status(flags: list[str], statuses: Mapping[str, tuple[str, str | None, str | None]]) -> tuple[str, str | None]:
    """A case's (status, assignee): the most recently updated record among its flags' ids (records
    made before case ids were the founding flag's were keyed by the lead flag's id)."""
    best: tuple[str, str, str | None] | None = None
    for f in flags:
        rec = statuses.get(f)
        if rec is None:
            continue
        status, assignee, at = rec
        if best is None or (at or "") > best[0]:
            best = (at or "", status, assignee)
    return ("open", None) if best is None else (best[1], best[2])


def age(since: dt.datetime | None, now: dt.datetime | None = None) -> str:
    """How long a case has waited, for a queue row: '3 h', '2 d', '5 w'."""
    if since is None:
        return ""
    now = now or dt.datetime.now(dt.UTC).replace(tzinfo=None)
    secs = max(0.0, (now - since).total_seconds())
    if secs < 3600:
        return f"{int(secs // 60)} min"
    if secs < 2 * 86400:
        return f"{int(secs // 3600)} h"
    if secs < 21 * 86400:
        return f"{int(secs // 86400)} d"
    return f"{int(secs // (7 * 86400))} w"
