"""The fast path of the rule checker: fetched Arrow tables → flat numpy arrays → ``rules.kernel``.

Why: no per-hand Python object on the hot path. A window of hands (the rn-sorted Arrow tables that
``rules.store`` fetches from DuckDB) becomes a handful of numpy arrays; the kernel replays and
checks every hand; the action_states of the hands it decided come back as one Arrow table. Hands
the kernel marks (any possible finding, any feature it does not model) are rebuilt as ``Hand``
objects and checked by the Python engine (``rules.check.check_hand``), which alone builds findings,
so messages and citations never differ between the two paths. The cross-hand checks
(``rules.sequence``) only concern tournament hands under dead-button rulebooks: those hands are
rebuilt and handed to the same Python function.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from parsers.model import Hand, Kind, Street

from . import kernel as K
from .check import CheckedBatch, check_hand
from .findings import Finding
from .profiles import Profile, ProfileMap, load_mapping, load_profile
from .rake import MAX_IMPLIED_RAKE_PCT
from .replay import ActionState, position_labels
from .sequence import sequence_findings

_KIND_CODE = {str(k): j for j, k in enumerate(Kind)}
_STREET_CODE = {str(s): j for j, s in enumerate(Street)}
_STREET_NAMES = pa.array([str(s) for s in Street], pa.string())
assert _KIND_CODE["post_sb"] == K.K_SB and _KIND_CODE["cash_out"] == K.K_CASH_OUT
assert _STREET_CODE["preflop"] == K.S_PREFLOP and _STREET_CODE["showdown"] == K.S_SHOWDOWN


def profile_params(prof: Profile) -> list[int]:
    """The profile's switches the kernel reads (column order: rules.kernel.P_*, then the R003 ratio)."""
    return [
        int(prof.family == "r003"),
        int(prof.cumulative_short_allins),
        int(prof.key == "ONLINE"),
        int(prof.bb_ante),
        int(prof.rake_tie_exempt),
        int(prof.odd_chip_unit == "one"),
        int(getattr(prof, "allin_raise_num", 0) or 0),
        int(getattr(prof, "allin_raise_den", 0) or 0),
    ]


def _np(col: pa.ChunkedArray | pa.Array, fill: int = 0, dtype: type = np.int64) -> np.ndarray:
    arr = col.combine_chunks() if isinstance(col, pa.ChunkedArray) else col
    if arr.null_count:
        arr = pc.fill_null(arr, fill)
    return np.asarray(arr.to_numpy(zero_copy_only=False), dtype=dtype)


def _valid(col: pa.ChunkedArray) -> np.ndarray:
    return np.asarray(pc.is_valid(col).to_numpy(zero_copy_only=False), dtype=np.bool_)


def _codes(col: pa.ChunkedArray, table: dict[str, int]) -> np.ndarray:
    """Small string domains (kinds, streets) → integer codes via a dictionary encode."""
    enc = col.combine_chunks().dictionary_encode()
    lut = np.array([table.get(v, -1) for v in enc.dictionary.to_pylist()] or [0], np.int64)
    return np.asarray(lut[np.asarray(enc.indices.to_numpy(zero_copy_only=False), np.int64)], np.int64)


def _cards(col: pa.ChunkedArray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Card strings → (ids [rows, MAXC], count, bad, has text), parsed in the kernel from Arrow buffers."""
    arr = pc.cast(col, pa.large_string()).combine_chunks()
    n = len(arr)
    valid = _valid(arr)
    bufs = arr.buffers()
    offs = np.frombuffer(bufs[1], np.int64, n + 1, arr.offset * 8) if n else np.zeros(1, np.int64)
    data = np.frombuffer(bufs[2], np.uint8) if bufs[2] is not None else np.zeros(0, np.uint8)
    out = np.full((n, K.MAXC), -1, np.int64)
    count = np.zeros(n, np.int64)
    bad = np.zeros(n, np.bool_)
    K._parse_cards(data, offs, valid, out, count, bad)
    text = valid & (offs[1:] > offs[:-1])
    return out, count, bad, text


def _offsets(rn: np.ndarray, lo: int, hi: int) -> np.ndarray:
    return np.asarray(np.searchsorted(rn, np.arange(lo, hi + 1)), np.int64)


@dataclass
class Window:
    """One window of hands as arrays; ``tables`` are the rn-sorted Arrow tables they came from."""

    tables: list[pa.Table]
    lo: int
    hi: int
    hands: pa.Table
    actions: pa.Table
    seats: pa.Table
    books: list[str]  # rulebook name per hand
    bail: np.ndarray
    states: pa.Table


def rn(t: pa.Table) -> np.ndarray:
    """The table's hand numbers (its first column)."""
    return np.asarray(t.column(0).to_numpy(), np.int64)


def _slice(t: pa.Table, lo: int, hi: int) -> pa.Table:
    rn = np.asarray(t.column(0).to_numpy(), np.int64)
    a, b = (int(x) for x in np.searchsorted(rn, [lo, hi]))
    return t.slice(a, b - a)


def _books(hands: pa.Table, rulebook: str | None, pmap: ProfileMap) -> list[str]:
    """Rulebook per hand from the mapping (its patterns read hand fields), one lookup per distinct key."""
    if rulebook:
        return [rulebook] * hands.num_rows
    keys = sorted({key for match, _ in pmap.entries for key, _ in match})
    cols = [hands.column(k).to_pylist() if k in hands.column_names else [None] * hands.num_rows for k in keys]
    seen: dict[tuple[Any, ...], str] = {}
    out: list[str] = []
    for key in zip(*cols, strict=True) if keys else ((),) * hands.num_rows:
        name = seen.get(key)
        if name is None:
            name = seen[key] = pmap.name_for(SimpleNamespace(**dict(zip(keys, key, strict=True))))  # type: ignore[arg-type]
        out.append(name)
    return out


def run_window(tables: list[pa.Table], lo: int, hi: int, rulebook: str | None, pmap: ProfileMap) -> Window:
    """Kernel pass over hand numbers lo..hi-1 of the fetched tables (hands, seats, actions, holes,
    boards, pots, awards, each led by ``rn``)."""
    hands, seats, actions, holes, boards, _pots, awards = (_slice(t, lo, hi) for t in tables)
    nh = hands.num_rows
    books = _books(hands, rulebook, pmap)
    names = sorted(set(books))
    book_ix = {b: j for j, b in enumerate(names)}
    prof_of = np.array([book_ix[b] for b in books], np.int64) if nh else np.zeros(0, np.int64)
    params = np.array([profile_params(load_profile(b)) for b in names] or [[0] * 8], np.int64)
    # players of every table share one code space (compared within a hand only)
    players = pa.chunked_array(
        [c.combine_chunks() for c in (seats["player"], actions["player"], holes["player"], awards["player"])],
        pa.string(),
    )
    pcodes = np.asarray(pc.dictionary_encode(players).combine_chunks().indices.to_numpy(), np.int64)
    ns, na, nho = seats.num_rows, actions.num_rows, holes.num_rows
    s_player, a_player = pcodes[:ns], pcodes[ns : ns + na]
    h_player, w_player = pcodes[ns + na : ns + na + nho], pcodes[ns + na + nho :]
    variant = hands["variant"]
    flags = np.zeros(nh, np.int64)
    flags |= np.where(_valid(hands["button_seat"]), K.F_HAS_BUTTON, 0)
    betting = hands["betting"]
    flags |= np.where(_np(pc.equal(betting, "PL"), 0, np.bool_), K.F_PL, 0)
    flags |= np.where(_np(pc.equal(betting, "FL"), 0, np.bool_), K.F_FL, 0)
    omaha = pc.or_(pc.starts_with(variant, "omaha"), pc.equal(variant, "courchevel"))
    flags |= np.where(_np(omaha, 0, np.bool_), K.F_OMAHA, 0)
    # hi-lo, short deck, Split Hold'em, PokerStars CAP games (a capped player is all-in): Python
    odd = pc.or_(pc.or_(pc.ends_with(variant, "hilo"), pc.equal(variant, "shortdeck")),
                 pc.or_(pc.equal(variant, "holdem_split"), pc.equal(betting, "CAP")))
    flags |= np.where(_np(odd, 0, np.bool_), K.F_UNSUPPORTED, 0)
    gtype = hands["game_type"]
    flags |= np.where(_np(pc.equal(gtype, "tournament"), 0, np.bool_), K.F_TOURN, 0)
    flags |= np.where(_np(pc.equal(gtype, "cash"), 0, np.bool_), K.F_CASH, 0)
    flags |= np.where(_np(hands["cancelled"], 0, np.bool_), K.F_CANCELLED, 0)
    flags |= np.where(_valid(hands["site_rake"]), K.F_HAS_RAKE, 0)
    flags |= np.where(_valid(hands["site_total_pot"]), K.F_HAS_TOTAL, 0)
    a_cards, a_n, a_bad, a_text = _cards(actions["cards"])
    h_cards, h_n, h_bad, _ = _cards(holes["cards"])
    b_cards, b_n, b_bad, _ = _cards(boards["cards"])
    na_ = na
    o = {
        "emit": np.zeros(na_, np.bool_), "street": np.zeros(na_, np.int64), "ring": np.zeros(na_, np.int64),
        "n": np.zeros(na_, np.int64), "raise_to": np.zeros(na_, np.int64), "to_call": np.zeros(na_, np.int64),
        "B": np.zeros(na_, np.int64), "min": np.zeros(na_, np.int64), "max": np.zeros(na_, np.int64),
        "can_raise": np.zeros(na_, np.bool_), "F": np.zeros(na_, np.int64), "reopened": np.zeros(na_, np.bool_),
        "pot": np.zeros(na_, np.int64), "pta": np.zeros(na_, np.int64), "stack": np.zeros(na_, np.int64),
        "mine": np.zeros(na_, np.int64), "facing": np.zeros(na_, np.int64), "allin": np.zeros(na_, np.bool_),
    }
    bail = np.zeros(nh, np.bool_)
    K.check_window(
        _offsets(rn(actions), lo, lo + nh), _offsets(rn(seats), lo, lo + nh), _offsets(rn(holes), lo, lo + nh),
        _offsets(rn(boards), lo, lo + nh), _offsets(rn(awards), lo, lo + nh),
        flags, _np(hands["button_seat"], -1), _np(hands["sb"]), _np(hands["bb"]), _np(hands["site_rake"]),
        _np(hands["site_fees"]), _np(hands["site_total_pot"]), _np(hands["site_added"]), prof_of, params,
        int(MAX_IMPLIED_RAKE_PCT),
        _np(actions["seq"]), _codes(actions["street"], _STREET_CODE), a_player, _codes(actions["kind"], _KIND_CODE),
        _np(actions["amount"]), _np(actions["all_in"], 0, np.bool_), _np(actions["contribution"]), a_text, a_cards,
        a_n, a_bad,
        _np(seats["seat_no"]), s_player, _np(seats["stack"]), _np(seats["sitting_out"], 0, np.bool_),
        _np(seats["final_stack"]), _valid(seats["final_stack"]),
        h_player, h_cards, h_n, h_bad, b_cards, b_n, b_bad, w_player, _np(awards["amount"]),
        o["emit"], o["street"], o["ring"], o["n"], o["raise_to"], o["to_call"], o["B"], o["min"], o["max"],
        o["can_raise"], o["F"], o["reopened"], o["pot"], o["pta"], o["stack"], o["mine"], o["facing"], o["allin"],
        bail,
    )
    states = _states_table(hands, actions, seats, books, lo, o)
    return Window(tables, lo, hi, hands, actions, seats, books, bail, states)


_LABEL_CACHE: dict[int, list[str]] = {}


def _states_table(hands: pa.Table, actions: pa.Table, seats: pa.Table, books: list[str], lo: int,
                  o: dict[str, np.ndarray]) -> pa.Table:
    """The kernel's state rows as the ``action_states`` columns (plus ``rulebook``)."""
    rows = np.flatnonzero(o["emit"])
    take = pa.array(rows, pa.int64())
    hix = np.asarray(actions.column(0).to_numpy(), np.int64)[rows] - lo
    ring, n = o["ring"][rows], o["n"][rows]
    # position labels: one small table per ring size
    labels: list[str] = []
    base: dict[int, int] = {}
    for size in np.unique(n).tolist():
        base[size] = len(labels)
        labels.extend(_LABEL_CACHE.setdefault(size, position_labels(size)))
    starts = np.array([base.get(int(s), 0) for s in range(int(n.max()) + 1)] if len(n) else [0], np.int64)
    pos = pa.DictionaryArray.from_arrays(pa.array(starts[n] + ring if len(n) else [], pa.int64()),
                                         pa.array(labels, pa.string())).cast(pa.string())
    facing = o["facing"][rows]
    has_face = facing >= 0
    face = seats["player"].combine_chunks().take(pa.array(np.where(has_face, facing, 0), pa.int64()))
    face = pc.if_else(pa.array(has_face), face, pa.nulls(len(rows), pa.string()))
    can = o["can_raise"][rows]
    rt = o["raise_to"][rows]
    book_arr = pa.array(books, pa.string()).take(pa.array(hix, pa.int64())) if len(rows) else pa.array([], pa.string())
    return pa.table(
        {
            "hand_id": hands["hand_id"].combine_chunks().take(pa.array(hix, pa.int64())),
            "seq": actions["seq"].combine_chunks().take(take),
            "player": actions["player"].combine_chunks().take(take),
            "street": _STREET_NAMES.take(pa.array(o["street"][rows], pa.int64())),
            "position": pos,
            "kind": actions["kind"].combine_chunks().take(take),
            "contribution": actions["contribution"].combine_chunks().take(take),
            "raise_to": pa.array(rt, pa.int64(), mask=rt < 0),
            "to_call": pa.array(o["to_call"][rows], pa.int64()),
            "current_bet": pa.array(o["B"][rows], pa.int64()),
            "min_raise_to": pa.array(o["min"][rows], pa.int64(), mask=~can),
            "max_raise_to": pa.array(o["max"][rows], pa.int64(), mask=~can),
            "last_full_raise": pa.array(o["F"][rows], pa.int64()),
            "reopened": pa.array(o["reopened"][rows], pa.bool_()),
            "pot_before": pa.array(o["pot"][rows], pa.int64()),
            "players_to_act": pa.array(o["pta"][rows], pa.int64()),
            "stack_before": pa.array(o["stack"][rows], pa.int64()),
            "committed_before": pa.array(o["mine"][rows], pa.int64()),
            "facing_aggressor": face,
            "all_in": pa.array(o["allin"][rows], pa.bool_()),
            "rulebook": book_arr,
        }
    )


def _hands_of(tables: list[pa.Table], rns: np.ndarray) -> list[Hand]:
    """``Hand`` objects for the given hand numbers (sorted), via ``rules.store._cut``."""
    from .store import _cut

    want = pa.array(rns, pa.int64())
    picked: list[pa.Table] = []
    for t in tables:
        sub = t.filter(pc.is_in(t.column(0), value_set=want))
        rn = np.asarray(sub.column(0).to_numpy(), np.int64)
        picked.append(sub.set_column(0, t.column_names[0], pa.array(np.searchsorted(rns, rn), pa.int64())))
    return _cut(picked, 0, len(rns))


def states_rows(states: list[ActionState], books: dict[str, str]) -> pa.Table:
    """Python-engine state rows as the same Arrow columns as the kernel's."""
    cols: list[Any] = list(zip(*states, strict=True)) if states else [() for _ in ActionState._fields]
    data: dict[str, Any] = {name: list(col) for name, col in zip(ActionState._fields, cols, strict=True)}
    data["rulebook"] = [books[s.hand_id] for s in states]
    return pa.table(data, schema=STATES_SCHEMA)


STATES_SCHEMA = pa.schema(
    [
        ("hand_id", pa.string()), ("seq", pa.int64()), ("player", pa.string()), ("street", pa.string()),
        ("position", pa.string()), ("kind", pa.string()), ("contribution", pa.int64()), ("raise_to", pa.int64()),
        ("to_call", pa.int64()), ("current_bet", pa.int64()), ("min_raise_to", pa.int64()),
        ("max_raise_to", pa.int64()), ("last_full_raise", pa.int64()), ("reopened", pa.bool_()),
        ("pot_before", pa.int64()), ("players_to_act", pa.int64()), ("stack_before", pa.int64()),
        ("committed_before", pa.int64()), ("facing_aggressor", pa.string()), ("all_in", pa.bool_()),
        ("rulebook", pa.string()),
    ]
)


@dataclass
class ColumnarBatch:
    """One batch's results: states as one Arrow table (``rules.store.write_results`` takes it)."""

    hand_ids: list[str]
    states: pa.Table
    findings: list[tuple[Finding, str]]
    rulebook_of: dict[str, str]
    fallback: int  # hands the Python engine checked


def check_window(tables: list[pa.Table], lo: int, hi: int, rulebook: str | None, pmap: ProfileMap,
                 carry: Hand | None = None) -> tuple[ColumnarBatch, Hand | None]:
    """Kernel pass, Python for the marked hands and for the cross-hand checks; returns the last
    tournament hand (the next batch's look-behind)."""
    w = run_window(tables, lo, hi, rulebook, pmap)
    ids = w.hands["hand_id"].to_pylist()
    rulebook_of = dict(zip(ids, w.books, strict=True))
    rn0 = np.asarray(w.hands.column(0).to_numpy(), np.int64)
    # the cross-hand checks read tournament hands under dead-button rulebooks (Python)
    dead_books = {b for b in set(w.books) if load_profile(b).dead_button}
    tourn = np.asarray(pc.equal(w.hands["game_type"], "tournament").to_numpy(zero_copy_only=False), np.bool_)
    if dead_books and len(ids):
        seq_mask = tourn & np.array([b in dead_books for b in w.books], np.bool_)
    else:
        seq_mask = np.zeros(len(ids), np.bool_)
    need = np.flatnonzero(w.bail | seq_mask)
    rebuilt = _hands_of(w.tables, rn0[need]) if len(need) else []
    by_ix = dict(zip(need.tolist(), rebuilt, strict=True))
    findings: list[tuple[Finding, str]] = []
    py_states: list[ActionState] = []
    for k in np.flatnonzero(w.bail).tolist():
        hand = by_ix[k]
        prof = load_profile(w.books[k])
        hc = check_hand(hand, prof)
        py_states.extend(hc.replay.states)
        findings.extend((f, prof.name) for f in hc.findings)
    groups: dict[str, list[Hand]] = {}
    for k in np.flatnonzero(seq_mask).tolist():
        groups.setdefault(w.books[k], []).append(by_ix[k])
    if carry is not None:
        name = rulebook or pmap.name_for(carry)
        if name in groups:
            groups[name].insert(0, carry)
    for name, group in groups.items():
        prof = load_profile(name)
        findings.extend((f, prof.name) for f in sequence_findings(group, prof) if f.hand_id in rulebook_of)
    last = by_ix[len(ids) - 1] if len(ids) and seq_mask[-1] else None  # Python: the batch's last hand
    states = pa.concat_tables([w.states.cast(STATES_SCHEMA), states_rows(py_states, rulebook_of)])
    return ColumnarBatch(ids, states, findings, rulebook_of, int(w.bail.sum())), last


def check_columnar(windows: Iterable[tuple[list[pa.Table], int, int]], rulebook: str | None = None,
                   mapping: ProfileMap | None = None) -> Iterator[ColumnarBatch]:
    """``rules.check.check_batches`` on the fast path: one result per (tables, lo, hi) batch."""
    pmap = mapping or load_mapping()
    carry: Hand | None = None
    for tables, lo, hi in windows:
        if hi <= lo:
            continue
        done, carry = check_window(tables, lo, hi, rulebook, pmap, carry)
        if done.hand_ids:
            yield done


def as_checked(done: ColumnarBatch) -> CheckedBatch:
    """The fast path's batch as the Python engine's ``CheckedBatch`` (tests compare the two)."""
    rows = [ActionState(*r[:-1]) for r in zip(*(done.states.column(c).to_pylist() for c in STATES_SCHEMA.names),
                                               strict=True)]
    return CheckedBatch(done.hand_ids, rows, done.findings, done.rulebook_of)
