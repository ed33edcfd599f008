"""Rulebook profiles: the seed rulebooks as data (``rules/profiles/*.yaml``) and the table→profile map.

Why data, not code: the four seed rulebooks disagree on the same situations (minimum re-raise,
short all-in reopening, undercalls, straddles). The engine reads one flat, typed ``Profile`` so the
inner replay loop tests plain attributes, and every finding can quote the seed passage it rests on.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fnmatch import fnmatchcase
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from parsers.model import Hand

PROFILE_DIR = Path(__file__).resolve().parent / "profiles"
PROFILE_NAMES = ("CEP-2023", "TDA-2009", "PKR-cash", "R003-cash", "online-standard")


@dataclass(frozen=True, slots=True)
class Profile:
    """One rulebook, flattened to what the checks need."""

    name: str
    key: str
    version: int
    seed_file: str
    game_format: str  # tournament | cash | any
    family: str  # "tda" (CEP, T09, PKR, online) or "r003"
    cumulative_short_allins: bool
    fifty_pct_rule: bool
    #: R003: an all-in counts as a raise when raise_to * den >= B * num (150% → 3/2)
    allin_raise_num: int
    allin_raise_den: int
    short_open_allin_call_basis: str  # allin_amount | bb
    undercall: str  # mandatory_cases | house_decision | lower_value_chip_is_call | software_enforced
    straddle_allowed: bool
    straddle_min_x_bb: int | None
    straddle_max_x_bb: int | None
    straddle_stack_behind_x: int | None
    double_straddle: str  # allowed | not_provided | forbidden
    double_min_x_straddle: int | None
    triple_straddle: bool
    mississippi: str  # allowed | not_provided
    bb_ante: bool
    dead_button: bool
    odd_chip_severity: str
    odd_chip_unit: str  # "one" (online: cents) | "gcd" (live: smallest chip inferred from the hand)
    rake_rule: str  # none | site | proportional
    rake_tie_exempt: bool
    rit_allowed_in: str  # cash_only | any | none
    rit_min_pot: dict[int, int]  # runs -> pot that must be exceeded, in currency units
    rit_max_runs: int | None
    limit_raise_cap: int | None  # max bets + raises per round in limit games
    limit_cap_headsup: bool
    citations: dict[str, str] = field(default_factory=dict)
    #: CEP shot clock (``params.shot_clock``): seconds per action, seconds a Time Bank card adds, cards
    #: a player gets per day and may hold. None when the rulebook has no shot clock.
    shot_clock_seconds: int | None = None
    tbc_seconds: int | None = None
    tbc_per_day: int | None = None
    tbc_max: int | None = None
    #: the shot clock runs only in its phase (CEP: Main Event after the bubble), which no hand says:
    #: the table map selects it with the ``+shot_clock`` suffix (``CEP-2023+shot_clock``)
    shot_clock_on: bool = False
    #: the site's software deals, enforces the betting order and pays the pots (online exports): a
    #: record whose chips do not add up is the export's inconsistency (DATA), not a player's act
    software_dealt: bool = False
    #: out-of-turn consequences (``params.oot_policy``): ``unchanged`` / ``changed`` / ``oot_fold`` /
    #: ``oot_bettor`` to the book's ruling ("binding", "return_bet_all_options", ...); empty: not stated
    oot_policy: dict[str, str] = field(default_factory=dict)

    @property
    def clock_checks(self) -> bool:
        """The CLOCK checks apply to this profile's hands (when they carry per-action times)."""
        return self.shot_clock_on and self.shot_clock_seconds is not None

    def cite(self, rule_id: str) -> str:
        """The seed passage a finding quotes, as ``[file] «anchor»``: the profile's own citation, else
        the rule's passage in ``anchors.yaml`` (from this profile's seed when it has one). ``RULE/aspect``
        names the passage for one case of a rule (``UNDERCALL.FULL_CALL/house``: the floor's discretion),
        falling back to the rule's own."""
        anchor = self.citations.get(rule_id)
        if anchor:
            return f" [{self.seed_file}] «{anchor}»"
        if "/" in rule_id:  # ``RULE/aspect``: the passage for one case of a rule, else the rule's own
            return self.cite(rule_id.split("/", 1)[0])
        return _fallback_cite(self.seed_file, rule_id)


@cache
def seed_anchors() -> dict[str, tuple[tuple[str, str], ...]]:
    """Rule id → (seed file, verbatim passage), from ``rules/profiles/anchors.yaml``."""
    with (PROFILE_DIR / "anchors.yaml").open(encoding="utf-8") as fh:
        doc = yaml.safe_load(fh) or {}
    return {str(k): tuple((str(a["seed"]), str(a["text"])) for a in v) for k, v in doc.items()}


@cache
def _fallback_cite(seed_file: str, rule_id: str) -> str:
    passages = seed_anchors().get(rule_id, ())
    own = [t for f, t in passages if f == seed_file]
    if own:
        return f" [{seed_file}] «{own[0]}»"
    return f" [{passages[0][0]}] «{passages[0][1]}»" if passages else ""


def _from_yaml(doc: dict[str, Any]) -> Profile:
    p: dict[str, Any] = doc.get("params", {}) or {}
    e: dict[str, Any] = doc.get("engine", {}) or {}
    straddle = p.get("straddle") or {}
    eng_straddle = e.get("straddle") or {}
    allowed = bool(eng_straddle.get("allowed", bool(straddle)))
    double = straddle.get("double")
    if isinstance(double, dict):
        double_mode, double_min = "allowed", int(double.get("min_x_straddle", 2))
    else:
        double_mode, double_min = ("not_provided" if double else "allowed" if allowed else "forbidden"), None
    miss = straddle.get("mississippi")
    undercall = p.get("undercall", "house_decision")
    if isinstance(undercall, dict):
        undercall = "mandatory_cases"
    rit = p.get("rit") or {}
    threshold = float(p.get("allin_raise_threshold", 1.5))
    ante = p.get("ante") or {}
    rake = p.get("rake") or {}
    shot = p.get("shot_clock") or {}
    family = str(e.get("betting_family", "tda"))
    return Profile(
        name=str(doc["name"]),
        key=str(doc["key"]),
        version=int(doc.get("version", 1)),
        seed_file=str(doc.get("seed_file", "")),
        game_format=str(p.get("format", "any")),
        family=family,
        cumulative_short_allins=bool(p.get("cumulative_short_allins", True)),
        fifty_pct_rule=bool(p.get("fifty_pct_rule", False)),
        allin_raise_num=round(threshold * 100),
        allin_raise_den=100,
        short_open_allin_call_basis=str(
            e.get("short_open_allin_call_basis", p.get("short_open_allin_call_basis", "allin_amount"))
        ),
        undercall=str(undercall),
        straddle_allowed=allowed,
        straddle_min_x_bb=straddle.get("min_x_bb"),
        straddle_max_x_bb=straddle.get("max_x_bb"),
        straddle_stack_behind_x=straddle.get("stack_behind_x_straddle"),
        double_straddle=double_mode,
        double_min_x_straddle=double_min,
        triple_straddle=bool(straddle.get("triple", allowed and not straddle)),
        mississippi="allowed" if isinstance(miss, dict) else ("not_provided" if straddle else "allowed"),
        bb_ante=isinstance(ante, dict) and ante.get("type") == "bb_ante",
        dead_button=bool(p.get("dead_button", False)),
        odd_chip_severity=str(e.get("odd_chip_severity", "error")),
        odd_chip_unit="one" if doc["key"] == "ONLINE" else "gcd",
        rake_rule=str(e.get("rake_rule", "site")),
        rake_tie_exempt=isinstance(rake, dict) and "tie_exempt_unless_rit" in rake,
        rit_allowed_in=str(rit.get("allowed_in", "any" if rit else "none")),
        rit_min_pot={int(k): int(v) for k, v in (rit.get("min_pot") or {}).items()},
        rit_max_runs=rit.get("max_runs"),
        limit_raise_cap=e.get("limit_raise_cap"),
        limit_cap_headsup=bool(e.get("limit_cap_headsup", False)),
        citations={str(k): str(v) for k, v in (doc.get("citations") or {}).items()},
        shot_clock_seconds=_opt_int(shot.get("seconds")),
        tbc_seconds=_opt_int(shot.get("tbc_seconds")),
        tbc_per_day=_opt_int(shot.get("tbc_per_day")),
        tbc_max=_opt_int(shot.get("tbc_max", shot.get("tbc_per_day"))),
        software_dealt=bool(e.get("software_dealt", False)),
        oot_policy={str(k): str(v) for k, v in (p.get("oot_policy") or {}).items()},
    )


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


#: profile-name suffix that puts a table in the shot-clock phase (see ``Profile.shot_clock_on``)
SHOT_CLOCK_PHASE = "+shot_clock"


@cache
def load_profile(name: str) -> Profile:
    """A profile by name (``CEP-2023``, ``TDA-2009``, ``PKR-cash``, ``R003-cash``, ``online-standard``);
    ``<name>+shot_clock`` is that rulebook in its shot-clock phase (the rulebook must define one)."""
    if name.endswith(SHOT_CLOCK_PHASE):
        base = load_profile(name.removesuffix(SHOT_CLOCK_PHASE))
        if base.shot_clock_seconds is None:
            raise KeyError(f"rulebook {base.name!r} has no shot clock (params.shot_clock)")
        return replace(base, name=name, shot_clock_on=True)
    path = PROFILE_DIR / f"{name}.yaml"
    if not path.exists():
        raise KeyError(f"unknown rulebook {name!r}; known: {', '.join(PROFILE_NAMES)}")
    with path.open(encoding="utf-8") as fh:
        return _from_yaml(yaml.safe_load(fh))


@dataclass(frozen=True, slots=True)
class ProfileMap:
    """Site/table/tournament → profile, first match wins (``rules/profiles/mapping.yaml``)."""

    default: str
    entries: tuple[tuple[tuple[tuple[str, str], ...], str], ...]

    def name_for(self, hand: Hand) -> str:
        for match, profile in self.entries:
            if all(fnmatchcase(str(getattr(hand, key, "") or ""), pat) for key, pat in match):
                return profile
        return self.default


def load_mapping(path: Path | None = None) -> ProfileMap:
    """Read the profile map (the packaged one unless a path is given)."""
    with (path or PROFILE_DIR / "mapping.yaml").open(encoding="utf-8") as fh:
        doc = yaml.safe_load(fh) or {}
    entries = tuple(
        (tuple(sorted((str(k), str(v)) for k, v in (m.get("match") or {}).items())), str(m["profile"]))
        for m in doc.get("mappings") or []
    )
    return ProfileMap(default=str(doc.get("default", "online-standard")), entries=entries)
