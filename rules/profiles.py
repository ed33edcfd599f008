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
    family: str  # "tda" (CEP, T09, PKR, online) or "r003"
    #: the replay's reading of several short all-ins (True: they add up); where the book is silent
    #: (``cumulative_stated`` False: TDA 2009 art. 31) the states take the literal reading and a raise the
    #: other reading allows is REVIEW (ALLIN.CUMULATIVE_REOPEN)
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
    #: ``params.cumulative_short_allins`` is the book's text (True/False), not ``unstated``
    cumulative_stated: bool = True
    #: ``params.min_raise_base_after_short_allin``: ``largest_full`` (CEP's «la mayor apuesta o subida
    #: anterior») or ``unstated`` (T09 «la anterior subida», PKR «la última apuesta o subida»: REVIEW
    #: between the two readings, ALLIN.MIN_RAISE_AFTER_SHORT)
    min_raise_after_short: str = "largest_full"
    #: R003 ``params.r003_prev_bet_after_non_raise_allin``: what «la apuesta previa» is after an all-in
    #: under 150% (``current_bet`` | ``last_counted_bet`` | ``unstated``: REVIEW between them)
    r003_prev_bet_after_non_raise_allin: str = "unstated"
    #: ``params.straddle.live_option``: the book says the straddle is a live blind (PKR); else unstated
    straddle_live_stated: bool = False
    #: ``params.duplicate_card_policy``: ``void_all_action`` (PKR), ``defective_deck`` (CEP: the TD rules
    #: on a defective deck), ``unstated`` (T09, R003), ``export_anomaly`` (online: the software deals)
    duplicate_card_policy: str = "unstated"
    #: ``params.limit_raise_cap``: ``house_value`` (T09 art. 34: the house sets the cap), ``site`` (online:
    #: the site's software enforces its own cap), or an integer the house gave; None: no cap rule
    limit_cap_source: str | None = None
    #: ``engine.limit_cap_review_at`` (house_value only): the bet number of a limit round from which the
    #: floor is shown the round (REVIEW), since the book gives no number; not a cap
    limit_cap_review_at: int = 0
    #: ``params.straddle.mississippi.void_if_utg_straddle`` (R003): a button straddle after a UTG one is void
    mississippi_void_if_utg: bool = False
    #: ``params.straddle.first_to_act: left_of_straddle`` (R003 names the preflop opener after a straddle)
    straddle_order_stated: bool = False
    #: ``params.rit.strict_greater`` (PKR «superar»: the pot must exceed the threshold) and ``before_river``
    rit_strict_threshold: bool = True
    rit_before_river: bool = True
    #: ``params.rit.split``: ``by_runs`` where the book says each run's winner takes a share of each pot
    #: (PKR «el pozo involucrado se dividirá y repartirá de acuerdo con las cartas ganadoras»), else unstated
    rit_split: str = "unstated"
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


class _Reads(dict[str, Any]):
    """A profile section that records every key the loader reads (``profile_reads``): a key nobody
    reads is a value the seed may not support and no check uses (tests/rules/test_profile_keys.py)."""

    def __init__(self, data: dict[str, Any], path: str, seen: set[str]) -> None:
        super().__init__({k: _Reads(v, f"{path}.{k}", seen) if isinstance(v, dict) else v for k, v in data.items()})
        self._path, self._seen = path, seen

    def _mark(self, key: object) -> None:
        self._seen.add(f"{self._path}.{key}")

    def get(self, key: str, default: Any = None) -> Any:
        self._mark(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> Any:
        self._mark(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self._mark(key)
        return super().__contains__(key)

    def items(self) -> Any:  # the whole section is read (oot_policy, citations, min_pot)
        for k in self.keys():
            self._mark(k)
        return super().items()


def _one_of(section: dict[str, Any], key: str, allowed: tuple[Any, ...], default: Any = None) -> Any:
    """A parameter whose only implemented values are ``allowed``: read it, and refuse any other (the
    engine would silently apply a rule the profile does not state)."""
    value = section.get(key, default)
    if value is not None and value not in allowed:
        raise ValueError(f"profile parameter {key}={value!r}: the checker implements only {allowed}")
    return value


#: profile keys read outside ``rules.profiles`` (the SQL passes read their sections from the YAML)
READ_ELSEWHERE: dict[str, str] = {
    "params.rake.cap_by_blinds": "rules.handrecord.house_rake_caps",
    "params.stack.no_removal": "rules.continuity.stack_params",
}


def profile_reads(name: str) -> tuple[set[str], set[str]]:
    """(every key path in the profile's ``params`` and ``engine``, the paths its loading reads)."""
    with (PROFILE_DIR / f"{name}.yaml").open(encoding="utf-8") as fh:
        doc = yaml.safe_load(fh)
    every: set[str] = set()

    def walk(d: dict[str, Any], path: str) -> None:
        for k, v in d.items():
            every.add(f"{path}.{k}")
            if isinstance(v, dict):
                walk(v, f"{path}.{k}")

    for sec in ("params", "engine"):
        walk(doc.get(sec) or {}, sec)
    seen: set[str] = set()
    _from_yaml(doc, seen)
    seen |= {k for k in READ_ELSEWHERE if k in every}
    return every, seen | {path[:i] for path in seen for i, ch in enumerate(path) if ch == "."}


def _from_yaml(doc: dict[str, Any], seen: set[str] | None = None) -> Profile:
    seen = set() if seen is None else seen
    p: dict[str, Any] = _Reads(doc.get("params", {}) or {}, "params", seen)
    e: dict[str, Any] = _Reads(doc.get("engine", {}) or {}, "engine", seen)
    straddle = p.get("straddle") or {}
    allowed = bool(p.get("straddle_allowed", bool(straddle)))
    double = straddle.get("double")
    if isinstance(double, dict):
        double_mode, double_min = "allowed", int(double.get("min_x_straddle", 2))
    else:
        double_mode, double_min = ("not_provided" if double else "allowed" if allowed else "forbidden"), None
    # rules.handchecks._straddles: a straddle from UTG, a double from the seat left of it, a Mississippi on
    # the button sized by the straddle's own limits; rules.replay: the small blind opens after a Mississippi
    _one_of(straddle, "position", ("utg",))
    if isinstance(double, dict):
        _one_of(double, "position", ("left_of_straddle",))
    miss = straddle.get("mississippi")
    if isinstance(miss, dict):
        _one_of(miss, "first_to_act", ("small_blind",))
        _one_of(miss, "position", ("button",))
        for k in ("min_x_bb", "max_x_bb", "stack_behind_x_straddle"):
            _one_of(miss, k, (straddle.get(k),))
    undercall = p.get("undercall", "house_decision")
    if isinstance(undercall, dict):  # CEP's two mandatory cases, the rest the TD's (rules.replay._undercall)
        if sorted(undercall.get("mandatory") or ()) != ["any_bet_headsup", "opening_bet_multiway"]:
            raise ValueError("undercall.mandatory: the checker implements CEP's two mandatory cases")
        _one_of(undercall, "other", ("house_decision",))
        _one_of(undercall, "opening_bet_preflop", ("bb",))
        _one_of(undercall, "multiway_count", ("live_players_gt_2",))
        undercall = "mandatory_cases"
    rit = p.get("rit") or {}
    rit_ok = p.get("rit_allowed", True) is not False
    odd = p.get("odd_chip") or {}
    # split() gives odd chips clockwise from the button and the high hand the odd chip of a hi-lo split
    _one_of(odd, "order", ("first_left_of_button",))
    _one_of(odd, "flop", ("first_left_of_button",))
    _one_of(odd, "hi_lo", ("high_hand",))
    mode = _one_of(p, "min_raise_mode", ("tda_increment", "double_previous_total"), "tda_increment")
    threshold = float(p.get("allin_raise_threshold", 1.5))
    ante = p.get("ante") or {}
    rake = p.get("rake") or {}
    shot = p.get("shot_clock") or {}
    family = "r003" if mode == "double_previous_total" else "tda"
    cap = p.get("limit_raise_cap")
    return Profile(
        name=str(doc["name"]),
        key=str(doc["key"]),
        version=int(doc.get("version", 1)),
        seed_file=str(doc.get("seed_file", "")),
        family=family,
        cumulative_short_allins=p.get("cumulative_short_allins", True) is True,
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
        mississippi_void_if_utg=isinstance(miss, dict) and miss.get("void_if_utg_straddle") is True,
        straddle_order_stated=straddle.get("first_to_act") == "left_of_straddle",
        bb_ante=isinstance(ante, dict) and ante.get("type") == "bb_ante",
        dead_button=bool(p.get("dead_button", False)),
        odd_chip_severity=str(e.get("odd_chip_severity", "error")),
        odd_chip_unit="one" if _one_of(odd, "unit", ("smallest_in_play", "cent")) == "cent" else "gcd",
        rake_rule=str(e.get("rake_rule", "site")),
        rake_tie_exempt=isinstance(rake, dict) and "tie_exempt_unless_rit" in rake,
        rit_allowed_in=str(rit.get("allowed_in", "any" if rit and rit_ok else "none")),
        rit_strict_threshold=rit.get("strict_greater", True) is not False,
        rit_before_river=rit.get("before_river", True) is not False,
        rit_min_pot={int(k): int(v) for k, v in (rit.get("min_pot") or {}).items()},
        rit_max_runs=rit.get("max_runs"),
        limit_raise_cap=cap if isinstance(cap, int) and not isinstance(cap, bool) else None,
        limit_cap_headsup=bool(p.get("limit_cap_headsup", False)),
        citations={str(k): str(v) for k, v in (doc.get("citations") or {}).items()},
        shot_clock_seconds=_opt_int(shot.get("seconds")),
        tbc_seconds=_opt_int(shot.get("tbc_seconds")),
        tbc_per_day=_opt_int(shot.get("tbc_per_day")),
        tbc_max=_opt_int(shot.get("tbc_max", shot.get("tbc_per_day"))),
        software_dealt=bool(e.get("software_dealt", False)),
        oot_policy={str(k): str(v) for k, v in (p.get("oot_policy") or {}).items()},
        cumulative_stated=isinstance(p.get("cumulative_short_allins", True), bool),
        min_raise_after_short=str(p.get("min_raise_base_after_short_allin", "largest_full")),
        r003_prev_bet_after_non_raise_allin=str(p.get("r003_prev_bet_after_non_raise_allin", "unstated")),
        straddle_live_stated=straddle.get("live_option") is True,
        duplicate_card_policy=str(p.get("duplicate_card_policy", "unstated")),
        limit_cap_source=None if cap is None else str(cap),
        limit_cap_review_at=int(e.get("limit_cap_review_at", 0) or 0),
        rit_split=str(rit.get("split", "unstated")),
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
