"""The fast path of the rule checker: fetched Arrow tables → flat numpy arrays → ``rules.kernel``.

Why: no per-hand Python object on the hot path. A window of hands (the rn-sorted Arrow tables that
``rules.store`` fetches from DuckDB) becomes a handful of numpy arrays; the kernel replays and
checks every hand; the action_states of the hands it decided come back as one Arrow table. Hands
the kernel marks (any possible finding, any feature it does not model) are rebuilt as ``Hand``
objects and checked by the Python engine (``rules.check.check_hand``), which alone builds findings,
so messages and citations never differ between the two paths. The cross-hand checks
(``rules.sequence``) concern tournament hands under dead-button rulebooks, and a misdeal's redeal with its
cancelled original (both bail): those hands are rebuilt and handed to the same Python function. Hands
with per-action times under a rulebook whose shot clock is on are marked unsupported for the kernel, so
the Python engine runs their CLOCK checks.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from parsers.model import Hand

from . import kernel as K
from .check import CheckedBatch, check_hand
from .codes import F_CLOCK, F_RECORD, F_TOURN, KIND_NAMES, STREET_NAMES
from .findings import Finding
from .profiles import Profile, ProfileMap, load_mapping, load_profile
from .rake import MAX_IMPLIED_RAKE_PCT
from .replay import ActionState, position_labels
from .sequence import sequence_findings
from .store import FETCH_WIDTHS, _cut, full_tables

_DICT = pa.dictionary(pa.int32(), pa.string())
_KIND_NAMES = pa.array(KIND_NAMES, pa.string())
_STREET_NAMES = pa.array(STREET_NAMES, pa.string())


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


def _np(col: pa.ChunkedArray | pa.Array, dtype: type = np.int64) -> np.ndarray:
    """A non-null column as numpy (zero-copy for one chunk of the same type)."""
    return np.asarray(col.to_numpy(), dtype=dtype)


def _cards(col: pa.ChunkedArray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Card strings → (ids [rows, MAXC], count, bad, has text), parsed in the kernel from Arrow buffers."""
    arr = pc.cast(col, pa.large_string()).combine_chunks()
    n = len(arr)
    valid = np.asarray(pc.is_valid(arr).to_numpy(zero_copy_only=False), np.bool_)
    bufs = arr.buffers()
    offs = np.frombuffer(bufs[1], np.int64, n + 1, arr.offset * 8) if n else np.zeros(1, np.int64)
    data = np.frombuffer(bufs[2], np.uint8) if bufs[2] is not None else np.zeros(0, np.uint8)
    out = np.full((n, K.MAXC), -1, np.int8)  # card ids -1..51: a byte each (memory traffic)
    count = np.zeros(n, np.int64)
    bad = np.zeros(n, np.bool_)
    K._parse_cards(data, offs, valid, out, count, bad)
    text = valid & (offs[1:] > offs[:-1])
    return out, count, bad, text


class _Rows:
    """One table of a query window as numpy columns plus per-hand row offsets (built once per
    window; a batch takes views)."""

    def __init__(self, t: pa.Table, wlo: int, nh: int) -> None:
        self.rn = _np(t.column(0))
        self.off = np.searchsorted(self.rn, np.arange(wlo, wlo + nh + 1)).astype(np.int64)
        self.t = t

    def cut(self, a: int, b: int, *cols: np.ndarray) -> tuple[np.ndarray, ...]:
        """Offsets of hands a..b-1 (relative to their first row) and the views of ``cols`` on their rows."""
        r0, r1 = int(self.off[a]), int(self.off[b])
        return (self.off[a : b + 1] - r0, *(c[r0:r1] for c in cols))


@dataclass
class WindowArrays:
    """The kernel's columns of one query window (``rules.store.column_windows``), as numpy."""

    tables: list[pa.Table]
    wlo: int
    hands: pa.Table
    flags: np.ndarray
    hnum: list[np.ndarray]  # button, sb, bb, site_rake, site_fees, site_total, site_added
    seats: _Rows
    scol: list[np.ndarray]  # seat_no, player code, stack, sitting_out, final_stack, has final
    seat_player: pa.Array
    actions: _Rows
    acol: list[np.ndarray]  # seq, street, player code, kind, amount, all_in, contribution, text, cards, n, bad
    holes: _Rows
    hcol: list[np.ndarray]  # player code, cards, n, bad
    boards: _Rows
    bcol: list[np.ndarray]  # cards, n, bad
    awards: _Rows
    wcol: list[np.ndarray]  # player code, amount
    timed: np.ndarray  # per hand: some action has a logged time (the CLOCK checks may apply)
    #: per hand: a pot with its own rake written (Pot.rake), which only the Python engine reads
    pot_rake: np.ndarray | None = None


def window_arrays(tables: list[pa.Table], wlo: int) -> WindowArrays:
    """Numpy columns and offsets of a fetched window (every integer was computed by DuckDB)."""
    hands, seats, actions, holes, boards, pots, awards = tables
    nh = hands.num_rows
    hands = hands.combine_chunks()
    wlo = int(hands.column(0)[0].as_py()) if nh else wlo
    hnum = [_np(hands[c]) for c in ("k_button", "sb", "bb", "k_rake", "k_fees", "k_total", "k_added")]
    scol = [_np(seats["k_seat_no"]), _np(seats["k_player"]), _np(seats["stack"]), _np(seats["sitting_out"], np.bool_),
            _np(seats["k_final"]), _np(seats["k_has_final"], np.bool_)]  # fmt: skip
    a_cards, a_n, a_bad, a_text = _cards(actions["cards"])
    acol = [_np(actions["k_seq"]), _np(actions["k_street"]), _np(actions["k_player"]), _np(actions["k_kind"]),
            _np(actions["k_amount"]), _np(actions["all_in"], np.bool_), _np(actions["contribution"]), a_text,
            a_cards, a_n, a_bad]  # fmt: skip
    h_cards, h_n, h_bad, _ = _cards(holes["cards"])
    a_rows = _Rows(actions, wlo, nh)
    at_set = np.concatenate([[0], np.cumsum(_np(pc.is_valid(actions["acted_at"]), np.int64))])
    timed = at_set[a_rows.off[1:]] > at_set[a_rows.off[:-1]]
    b_cards, b_n, b_bad, _ = _cards(boards["cards"])
    p_rows = _Rows(pots, wlo, nh)
    p_set = np.concatenate([[0], np.cumsum(_np(pots["k_pot_rake"], np.int64))])
    pot_rake = p_set[p_rows.off[1:]] > p_set[p_rows.off[:-1]]
    return WindowArrays(
        tables, wlo, hands, _np(hands["k_flags"]), hnum, _Rows(seats, wlo, nh), scol,
        seats["player"].combine_chunks(), a_rows, acol, _Rows(holes, wlo, nh),
        [_np(holes["k_player"]), h_cards, h_n, h_bad], _Rows(boards, wlo, nh), [b_cards, b_n, b_bad],
        _Rows(awards, wlo, nh), [_np(awards["k_player"]), _np(awards["amount"])], timed, pot_rake,
    )  # fmt: skip


@dataclass
class Window:
    """One batch's kernel pass: its hands (Arrow), rulebook per hand, bail marks and kernel states."""

    hands: pa.Table
    books: list[str]  # rulebook names; ``prof_of`` indexes them per hand
    prof_of: np.ndarray
    flags: np.ndarray
    bail: np.ndarray  # int8 per hand: 0, or the reason (rules.codes.B_*) it goes to the Python engine
    states: pa.Table


def _books(hands: pa.Table, rulebook: str | None, pmap: ProfileMap) -> tuple[list[str], np.ndarray]:
    """Rulebook names and, per hand, the index of its name: the mapping evaluated once per distinct
    combination of the keys it reads (dictionary-encoded by Arrow, combined in numpy)."""
    nh = hands.num_rows
    if rulebook:
        return [rulebook], np.zeros(nh, np.int64)
    keys = sorted({key for match, _ in pmap.entries for key, _ in match})
    code = np.zeros(nh, np.int64)
    values: list[list[Any]] = []
    for k in keys:
        if k not in hands.column_names:  # not a hand column: matches as None, as on Hand objects
            values.append([None])
            continue
        enc = hands.column(k).combine_chunks().dictionary_encode()
        dic = enc.dictionary.to_pylist()
        idx = np.asarray(pc.fill_null(enc.indices, len(dic)).to_numpy(zero_copy_only=False), np.int64)
        code = code * (len(dic) + 1) + idx
        values.append([*dic, None])
    uniq, inverse = np.unique(code, return_inverse=True)
    names: list[str] = []
    where: dict[str, int] = {}
    per_uniq = np.zeros(len(uniq), np.int64)
    for j, combined in enumerate(uniq.tolist()):
        parts: dict[str, Any] = {}
        rest = combined
        for k, vals in zip(reversed(keys), reversed(values), strict=True):
            rest, r = divmod(rest, len(vals))
            parts[k] = vals[r]
        name = pmap.name_for(SimpleNamespace(**parts))  # type: ignore[arg-type]
        per_uniq[j] = where.setdefault(name, len(where))
        if len(names) < len(where):
            names.append(name)
    return names, per_uniq[np.asarray(inverse, np.int64).reshape(-1)]


#: the kernel's output rows by the names ``_states_table`` reads
_INT_STATES = {"street": K.O_STREET, "ring": K.O_RING, "n": K.O_N, "raise_to": K.O_RAISE_TO, "to_call": K.O_TO_CALL,
               "B": K.O_B, "min": K.O_MIN, "max": K.O_MAX, "F": K.O_F, "pot": K.O_POT, "pta": K.O_PTA,
               "stack": K.O_STACK, "mine": K.O_MINE, "facing": K.O_FACING, "seat": K.O_SEAT}
_BOOL_STATES = {"can_raise": K.O_CAN_RAISE, "reopened": K.O_REOPENED, "allin": K.O_ALLIN}


def run_window(wa: WindowArrays, lo: int, hi: int, rulebook: str | None, pmap: ProfileMap) -> Window:
    """Kernel pass over hand numbers lo..hi-1 of a prepared window."""
    a, b = lo - wa.wlo, hi - wa.wlo
    hands = wa.hands.slice(a, b - a)
    names, prof_of = _books(hands, rulebook, pmap)
    params = np.array([profile_params(load_profile(x)) for x in names], np.int64)
    s_off, *scol = wa.seats.cut(a, b, *wa.scol)
    a_off, *acol = wa.actions.cut(a, b, *wa.acol)
    h_off, *hcol = wa.holes.cut(a, b, *wa.hcol)
    b_off, *bcol = wa.boards.cut(a, b, *wa.bcol)
    w_off, *wcol = wa.awards.cut(a, b, *wa.wcol)
    flags = wa.flags[a:b]
    clock = np.array([load_profile(x).clock_checks for x in names], np.bool_)
    if clock.any():  # timed hands under a shot clock: the kernel has no CLOCK checks, Python does them
        flags = np.where(wa.timed[a:b] & clock[prof_of], flags | F_CLOCK, flags)
    if wa.pot_rake is not None and wa.pot_rake[a:b].any():  # a rake per pot: RAKE.PER_POT_PROPORTIONAL
        flags = np.where(wa.pot_rake[a:b], flags | F_RECORD, flags)
    hnum = [x[a:b] for x in wa.hnum]
    na = len(acol[0])
    o_int = np.empty((K.O_INT_ROWS, na), np.int64)  # one row per state column (rules.kernel.O_*)
    o_bool = np.empty((K.O_BOOL_ROWS, na), np.bool_)
    o_w = np.zeros(1, np.int64)
    bail = np.zeros(b - a, np.int8)  # per hand: 0 (the kernel decided it) or its bail reason
    args: list[Any] = [
        a_off, s_off, h_off, b_off, w_off, flags, *hnum, prof_of, params, int(MAX_IMPLIED_RAKE_PCT),
        *acol, *scol, *hcol, *bcol, *wcol, o_int, o_bool, o_w, bail,
    ]  # fmt: skip
    for j in range(len(args) - 4):  # inputs as read-only views: one numba signature whatever Arrow
        if isinstance(args[j], np.ndarray):  # handed out (zero-copy buffers are read-only, copies not)
            args[j] = args[j].view()
            args[j].flags.writeable = False
    K.check_window(*args)
    m = int(o_w[0])  # the kernel wrote its kept columns compacted: row views, no gather per column
    rows, hix = o_int[K.O_ROW, :m], o_int[K.O_HIX, :m]
    o: dict[str, np.ndarray] = {name: o_int[row, :m] for name, row in _INT_STATES.items()}
    o.update({name: o_bool[row, :m] for name, row in _BOOL_STATES.items()})
    r0 = int(wa.seats.off[a])
    players = wa.seat_player.slice(r0, int(wa.seats.off[b]) - r0)
    states = _states_table(hands, acol, players, names, prof_of, rows, hix, o)
    return Window(hands, names, prof_of, flags, bail, states)


_LABEL_CACHE: dict[int, list[str]] = {}


def _dict(indices: np.ndarray, dictionary: pa.Array, mask: np.ndarray | None = None) -> pa.DictionaryArray:
    return pa.DictionaryArray.from_arrays(np.asarray(indices, np.int32), dictionary, mask=mask)


def _states_table(hands: pa.Table, acol: list[np.ndarray], players: pa.Array, names: list[str],
                  prof_of: np.ndarray, rows: np.ndarray, hix: np.ndarray, o: dict[str, np.ndarray]) -> pa.Table:
    """The kernel's state rows (``o``: its compacted columns; ``rows``: their action rows) as the
    ``action_states`` columns (plus ``rulebook``); every string column is a dictionary array over a
    small table (names, kinds, streets, labels) or over the batch's own hand ids and seated players,
    so no string is copied."""
    ring, n = o["ring"], o["n"]
    # position labels: one small table per ring size
    labels: list[str] = []
    base: dict[int, int] = {}
    for size in np.unique(n).tolist():
        base[size] = len(labels)
        labels.extend(_LABEL_CACHE.setdefault(size, position_labels(size)))
    starts = np.array([base.get(s, 0) for s in range(int(n.max()) + 1)] if len(n) else [0], np.int64)
    facing = o["facing"]
    no_face = facing < 0
    can = o["can_raise"]
    rt = o["raise_to"]
    seq, kind, contrib = acol[0], acol[3], acol[6]
    return pa.table(
        {
            "hand_id": _dict(hix, hands["hand_id"].combine_chunks()),
            "seq": pa.array(seq[rows], pa.int64()),
            "player": _dict(o["seat"], players),
            "street": _dict(o["street"], _STREET_NAMES),
            "position": _dict(starts[n] + ring if len(n) else n, pa.array(labels, pa.string())),
            "kind": _dict(kind[rows], _KIND_NAMES),
            "contribution": pa.array(contrib[rows], pa.int64()),
            "raise_to": pa.array(rt, pa.int64(), mask=rt < 0),
            "to_call": pa.array(o["to_call"], pa.int64()),
            "current_bet": pa.array(o["B"], pa.int64()),
            "min_raise_to": pa.array(o["min"], pa.int64(), mask=~can),
            "max_raise_to": pa.array(o["max"], pa.int64(), mask=~can),
            "last_full_raise": pa.array(o["F"], pa.int64()),
            "reopened": pa.array(o["reopened"], pa.bool_()),
            "pot_before": pa.array(o["pot"], pa.int64()),
            "players_to_act": pa.array(o["pta"], pa.int64()),
            "stack_before": pa.array(o["stack"], pa.int64()),
            "committed_before": pa.array(o["mine"], pa.int64()),
            "facing_aggressor": _dict(np.where(no_face, 0, facing), players, mask=no_face),
            "all_in": pa.array(o["allin"], pa.bool_()),
            "rulebook": _dict(prof_of[hix], pa.array(names, pa.string())),
        },
        schema=STATES_SCHEMA,
    )


def states_rows(states: list[ActionState], books: dict[str, str]) -> pa.Table:
    """Python-engine state rows as the same Arrow columns as the kernel's."""
    cols: list[Any] = list(zip(*states, strict=True)) if states else [() for _ in ActionState._fields]
    data: dict[str, Any] = {name: list(col) for name, col in zip(ActionState._fields, cols, strict=True)}
    data["rulebook"] = [books[s.hand_id] for s in states]
    return pa.table(data, schema=_PLAIN_SCHEMA).cast(STATES_SCHEMA)


_STRINGS = {"hand_id", "player", "street", "position", "kind", "facing_aggressor", "rulebook"}
_FIELDS = [
    ("hand_id", pa.string()), ("seq", pa.int64()), ("player", pa.string()), ("street", pa.string()),
    ("position", pa.string()), ("kind", pa.string()), ("contribution", pa.int64()), ("raise_to", pa.int64()),
    ("to_call", pa.int64()), ("current_bet", pa.int64()), ("min_raise_to", pa.int64()),
    ("max_raise_to", pa.int64()), ("last_full_raise", pa.int64()), ("reopened", pa.bool_()),
    ("pot_before", pa.int64()), ("players_to_act", pa.int64()), ("stack_before", pa.int64()),
    ("committed_before", pa.int64()), ("facing_aggressor", pa.string()), ("all_in", pa.bool_()),
    ("rulebook", pa.string()),
]
_PLAIN_SCHEMA = pa.schema(_FIELDS)
#: the ``action_states`` columns (plus ``rulebook``); strings as dictionary arrays (DuckDB reads them as VARCHAR)
STATES_SCHEMA = pa.schema([(name, _DICT if name in _STRINGS else t) for name, t in _FIELDS])


@dataclass
class ColumnarBatch:
    """One batch's results: states as one Arrow table (``rules.store.write_results`` takes it)."""

    hand_ids: list[str]
    states: pa.Table
    findings: list[tuple[Finding, str]]
    rulebook_of: dict[str, str]
    fallback: int  # hands the Python engine checked
    bail_reasons: dict[int, int] = field(default_factory=dict)  # bail reason code -> hands


def _hands_of(wa: WindowArrays, need: np.ndarray) -> list[Hand]:
    """``Hand`` objects for window hands ``need`` (indices from the window's first hand), cut from the
    fetched tables by their row offsets (``rules.store._cut``)."""
    picked: list[pa.Table] = []
    k = len(need)
    for t, width in zip(full_tables(wa.tables), FETCH_WIDTHS, strict=True):
        rn = _np(t.column(0))
        starts = np.searchsorted(rn, need + wa.wlo)
        stops = np.searchsorted(rn, need + wa.wlo + 1)
        counts = stops - starts
        rows = np.repeat(stops - np.cumsum(counts), counts) + np.arange(int(counts.sum()))
        sub = t.select(list(range(width))).take(pa.array(rows, pa.int64()))
        picked.append(sub.set_column(0, t.column_names[0], pa.array(np.repeat(np.arange(k), counts), pa.int64())))
    return _cut(picked, 0, k)


def check_window(tables: list[pa.Table], lo: int, hi: int, rulebook: str | None, pmap: ProfileMap,
                 carry: Hand | None = None, wa: WindowArrays | None = None) -> tuple[ColumnarBatch, Hand | None]:
    """Kernel pass, Python for the marked hands and for the cross-hand checks; returns the last
    tournament hand (the next batch's look-behind). ``wa``: the window's arrays, when already built."""
    if wa is None or wa.tables is not tables:
        wa = window_arrays(tables, lo)
    w = run_window(wa, lo, hi, rulebook, pmap)
    ids = w.hands["hand_id"].to_pylist()
    books = [w.books[j] for j in w.prof_of.tolist()]
    rulebook_of = dict(zip(ids, books, strict=True))
    # the cross-hand checks read tournament hands under dead-button rulebooks (Python)
    dead = np.array([load_profile(b).dead_button for b in w.books], np.bool_)
    seq_mask = ((w.flags & F_TOURN) != 0) & dead[w.prof_of] if len(ids) else np.zeros(0, np.bool_)
    need = np.flatnonzero((w.bail != 0) | seq_mask)
    rebuilt = _hands_of(wa, need + (lo - wa.wlo)) if len(need) else []
    by_ix = dict(zip(need.tolist(), rebuilt, strict=True))
    findings: list[tuple[Finding, str]] = []
    py_states: list[ActionState] = []
    for k in np.flatnonzero(w.bail).tolist():
        hand = by_ix[k]
        prof = load_profile(books[k])
        hc = check_hand(hand, prof)
        py_states.extend(hc.replay.states)
        findings.extend((f, prof.name) for f in hc.findings)
    # and a misdeal's redeal with its original (MISDEAL.REDEAL): both bailed (F_RECORD, cancelled)
    seq_ix = set(np.flatnonzero(seq_mask).tolist())
    seq_ix.update(k for k in np.flatnonzero(w.bail).tolist() if by_ix[k].cancelled or by_ix[k].redeal_of)
    groups: dict[str, list[Hand]] = {}
    for k in sorted(seq_ix):
        groups.setdefault(books[k], []).append(by_ix[k])
    if carry is not None:
        name = rulebook or pmap.name_for(carry)
        if name in groups:
            groups[name].insert(0, carry)
    for name, group in groups.items():
        prof = load_profile(name)
        findings.extend((f, prof.name) for f in sequence_findings(group, prof) if f.hand_id in rulebook_of)
    last = by_ix[len(ids) - 1] if len(ids) and len(ids) - 1 in seq_ix else None  # Python: the batch's last hand
    states = w.states if not py_states else pa.concat_tables([w.states, states_rows(py_states, rulebook_of)])
    codes, counts = np.unique(w.bail[w.bail != 0], return_counts=True)
    reasons = dict(zip(codes.tolist(), counts.tolist(), strict=True))
    return ColumnarBatch(ids, states, findings, rulebook_of, int(np.count_nonzero(w.bail)), reasons), last


def check_columnar(windows: Iterable[tuple[list[pa.Table], int, int]], rulebook: str | None = None,
                   mapping: ProfileMap | None = None) -> Iterator[ColumnarBatch]:
    """``rules.check.check_batches`` on the fast path: one result per (tables, lo, hi) batch of
    ``rules.store.column_windows``; the window's numpy columns are built once for all its batches."""
    pmap = mapping or load_mapping()
    carry: Hand | None = None
    wa: WindowArrays | None = None
    for tables, lo, hi in windows:
        if hi <= lo:
            continue
        if wa is None or wa.tables is not tables:
            wa = window_arrays(tables, lo)
        done, carry = check_window(tables, lo, hi, rulebook, pmap, carry, wa)
        if done.hand_ids:
            yield done


def as_checked(done: ColumnarBatch) -> CheckedBatch:
    """The fast path's batch as the Python engine's ``CheckedBatch`` (tests compare the two)."""
    rows = [ActionState(*r[:-1]) for r in zip(*(done.states.column(c).to_pylist() for c in STATES_SCHEMA.names),
                                               strict=True)]
    return CheckedBatch(done.hand_ids, rows, done.findings, done.rulebook_of)
