"""Vectorised PokerStars fast path: a chunk of hands straight to warehouse frames with polars.

Why: the line-by-line parser (``pokerstars.py``) costs hundreds of microseconds per hand in
Python; the integrity team ingests millions of hands a night. Here every line of a chunk of
hands is classified and read with polars string expressions (hand index per line, line kind by
prefix/regex, amounts by ``str.extract``, contributions by window sums per hand, street and
player), producing the same rows as ``pokerstars.py`` + ``warehouse.frames.hands_to_frames``.

Exactness rule: the grammar here is deliberately *strict*. A hand with any line this module does
not fully understand (run it twice, cash-outs, hi/lo descriptions with colons, blank lines
inside the hand, amounts with thousands separators, non-ET dates, unknown verbs...) is not
guessed at: its index is returned in ``fallback`` and the caller parses it with the exact Python
parser (which also quarantines what is really broken). ``tests/parsers/test_pokerstars_fast.py``
proves the frames equal the Python parser's on every real PokerStars file and a simulated night.

Every frame carries ``_hx`` (the hand's index in the chunk) so the caller can drop hands
(duplicates, fallbacks) from all tables at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from parsers.columns import TABLE_SCHEMAS
from parsers.formats._stars_money import StarsMoney
from parsers.formats._stars_quiet import IGNORED_LINES, IGNORED_PARTS, IGNORED_SUFFIXES, IGNORED_VERBS
from parsers.formats.pokerstars_header import HOLE_COUNT, Header, parse_header, to_utc
from parsers.model import ParseError

#: characters Python's str.strip() removes but Rust's does not (or may): chunks holding them go
#: to the exact parser
UNSAFE_CHARS = ("\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\r", "\ufffd", "\x00")
#: the same characters as UTF-8 bytes, to scan a whole buffer at once
UNSAFE_BYTES = tuple(ch.encode("utf-8") for ch in UNSAFE_CHARS)

_HEADER_SPLIT = (
    r"^\s*(?:PokerStars|POKERSTARS) (?:Zoom |ZOOM |Home Game |HOME GAME |Rush )?"
    r"(?:Hand|Game|HAND|GAME) #(\d+):\s*(.*?\) - )(\d{4}/.*?)\s*$"
)
_DATE = r"(\d{4})/(\d{1,2})/(\d{1,2}) (\d{1,2}):(\d{2}):(\d{2})"
_DATE_STRICT = rf"^{_DATE} ([A-Z]{{2,4}})(?: \[{_DATE} ET\])?$"
_TABLE = r"^Table '(.*)'(?: (\d+)-[mM]ax)?( \(Play Money\))?(?: \([^)]*\))? Seat #(\d+) is the button"
_MARKER = r"^\*\*\* (HOLE CARDS|FLOP|TURN|RIVER|SHOW DOWN|SUMMARY) \*\*\*((?: \[[^\[\]]*\])*)$"
_TOTAL_STRICT = r"^Total pot [^ ]+(?: Main pot [^ ]+\.(?: Side pot(?:-[0-9]+)? [^ ]+\.)*)?$"
_POT_ITEM = r"(?:Main pot|Side pot(?:-[0-9]+)?) [^ ]+\."
_SUMMARY_CARDS = (
    r"^Seat \d+: (.+?)(?: \((?:button|small blind|big blind|button blind)\))* "
    r"(?:showed|mucked) \[([^\]]*)\]"
)
#: an amount as ``_stars_money.StarsMoney`` reads it simply: one optional currency sign, whole
#: units, at most two decimals; the capture is the number without the sign
_MONEY = r"^[^\p{N}\s]?([0-9]+(?:\.[0-9]{1,2})?)$"
_POST_KINDS = {
    "small & big blinds": "post_bb",
    "small blind": "post_sb",
    "big blind": "post_bb",
    "the ante": "post_ante",
    "button blind": "post_bb",
    "straddle": "post_straddle",
}
_ET_FORMAT = "%Y/%m/%d %H:%M:%S"
#: verb prefixes of "name: verb" lines, in the parser's order of tests -> kind
_VERBS = [
    ("folds", "fold"),
    ("checks", "check"),
    ("calls ", "call"),
    ("bets ", "bet"),
    ("raises ", "raise"),
    ("posts small & big blinds ", "post_bb"),
    ("posts small blind ", "post_sb"),
    ("posts big blind ", "post_bb"),
    ("posts the ante ", "post_ante"),
    ("posts button blind ", "post_bb"),
    ("posts straddle ", "post_straddle"),
    ("shows ", "show"),
    ("mucks ", "muck"),
]
_WORD_KINDS = {"calls": "call", "bets": "bet", "raises": "raise", "shows": "show", "mucks": "muck"}
_AMOUNT_KINDS = ["call", "bet", "raise", "post_sb", "post_bb", "post_ante", "post_straddle"]
_STREET_NO = {"preflop": 0, "flop": 1, "turn": 2, "river": 3, "showdown": 4}


#: hand indexes (``_hx``) a stage could not read exactly: those hands go to the exact parser
Bad = list[pl.Series]
#: three frames a stage returns together (each stage's docstring names them, in order)
Frames3 = tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]


@dataclass
class FastChunk:
    """Frames for the hands the fast path read exactly, and the hands it left to the parser."""

    tables: dict[str, pl.DataFrame] = field(default_factory=dict)
    fallback: list[int] = field(default_factory=list)
    n_fast: int = 0


@dataclass
class _KeyInfo:
    variant: str
    betting: str
    game_type: str
    currency: str
    scale: int
    sb: int
    bb: int
    ante: int
    tournament_id: str | None
    tournament_level: str | None
    want: int
    mix: str | None  # a mixed rotation's name ("8-Game"): its flop-game hands stay on the fast path


def _key_info(prefix: str, play: bool, sample: str, date: str) -> _KeyInfo | None:
    """What the header says, read once per distinct header shape by the exact parser, and
    checked against the exact parse of a real header of that shape (None: use the parser)."""
    try:
        real = parse_header(sample.strip())
        header: Header = parse_header(f"PokerStars Hand #{real.hand_no}: {prefix}{date}")
        if header != real or to_utc(date) != real.started_at:
            return None
        if header.variant not in HOLE_COUNT:
            return None  # stud and draw games: the exact parser
        currency = "PLAY" if play else header.currency
        if currency is None:
            if "\ufffd" in sample:
                return None
            currency = "PLAY" if header.stakes_bb[:1].isdigit() else "USD"
        scale = 1 if currency in ("PLAY", "CHIPS") else 100
        money = StarsMoney(scale)
        sb, bb = money(header.stakes_sb, 1), money(header.stakes_bb, 1)
        ante = money(header.ante, 1) if header.ante is not None else 0
    except (ParseError, ValueError, KeyError):
        return None
    if header.betting == "FL":  # the header gives small/big bets: the big blind is the small bet
        bb = sb
        sb = bb // 2
    return _KeyInfo(
        header.variant, header.betting, header.game_type, currency, scale, sb, bb, ante,
        header.tournament_id, header.tournament_level, HOLE_COUNT.get(header.variant, 2) * 2, header.mix,
    )  # fmt: skip


def _with_money(frame: pl.DataFrame, **texts: pl.Expr) -> pl.DataFrame:
    """Integer amount columns (named as the keywords) for amount texts, in the frame's ``scale``,
    exactly as ``_stars_money.StarsMoney`` reads them (null when not simple: the parser decides).
    Staged so each string operation runs once a row: eager polars recomputes a sub-expression at
    every use (the regex read three times cost 400 ns a row, once 130; the digits and the
    decimals, read three and two times by the final choice, cost a third of the rest)."""
    nums = {f"_num_{name}": text.str.strip_chars().str.extract(_MONEY, 1) for name, text in texts.items()}
    parts: dict[str, pl.Expr] = {}
    for name in texts:
        parts.update(_money_parts(pl.col(f"_num_{name}"), name))
    values = {name: _money_value(pl.col(f"_dig_{name}"), pl.col(f"_dec_{name}"), pl.col("scale")) for name in texts}
    return frame.with_columns(**nums).with_columns(**parts).with_columns(**values).drop([*nums, *parts])


def _money_parts(num: pl.Expr, name: str) -> dict[str, pl.Expr]:
    """A checked number's digits without the dot (W.FF in cents, W.F in tenths of a unit) and
    its count of decimals (null without a dot), as columns ``_dig_NAME`` and ``_dec_NAME``."""
    return {
        f"_dig_{name}": num.str.replace(".", "", literal=True).cast(pl.Int64, strict=False),
        f"_dec_{name}": num.str.len_bytes().cast(pl.Int64) - num.str.find(".", literal=True).cast(pl.Int64) - 1,
    }


def _money_value(digits: pl.Expr, decimals: pl.Expr, scale: pl.Expr) -> pl.Expr:
    """Units for a checked number W, W.F or W.FF from its digits and decimals; decimals only in
    a scale-100 currency."""
    return (
        pl.when(decimals.is_null()).then(digits * scale)
        .when(scale == 100).then(pl.when(decimals == 1).then(digits * 10).otherwise(digits))
        .otherwise(None)
    )  # fmt: skip


def _all_in(tail: pl.Expr) -> pl.Expr:
    """The parser's ``_all_in``: "is all-in", or a CAP game's "has reached the $X cap"."""
    cap = tail.str.starts_with("has reached the ") & tail.str.ends_with(" cap")
    return (tail.str.contains("all-in", literal=True) | cap).fill_null(False)


def _started_at(date: pl.Expr) -> pl.Expr:
    """Naive UTC from the ET time (first ET stamp, else the bracketed one); null when the date
    is not in that strict shape or the local time is ambiguous/missing (then Python decides)."""
    g = date.str.extract_groups(_DATE_STRICT)
    first = pl.format("{}/{}/{} {}:{}:{}", *[g.struct.field(str(i)) for i in range(1, 7)])
    second = pl.format("{}/{}/{} {}:{}:{}", *[g.struct.field(str(i)) for i in range(8, 14)])
    text = pl.when(g.struct.field("7") == "ET").then(first).otherwise(second)
    return (
        text.str.strptime(pl.Datetime("us"), _ET_FORMAT, strict=False)
        .dt.replace_time_zone("America/New_York", ambiguous="null", non_existent="null")
        .dt.convert_time_zone("UTC")
        .dt.replace_time_zone(None)
    )


def _first(key: str = "_hx") -> pl.Expr:
    """True on the first row of each hand (frames here are always in hand order)."""
    return (pl.col(key) != pl.col(key).shift(1)).fill_null(True)


def _index_in_hand(first: pl.Expr) -> pl.Expr:
    """0, 1, 2... within each run of rows: a global row index minus the run's first index
    (cheaper than ``int_range().over()``, which hashes the key)."""
    idx = pl.int_range(pl.len(), dtype=pl.Int64)
    return idx - pl.when(first).then(idx).otherwise(None).forward_fill()


def _sort_rows(frame: pl.DataFrame, *keys: str) -> pl.DataFrame:
    """``frame.sort(*keys)`` for non-negative integer keys (hand, line...), by one packed Int64
    when their values fit in 62 bits: a sort on one integer costs a sixth of a sort on two
    columns of a frame with strings (50 vs 300 ns a row)."""
    if frame.height == 0:
        return frame
    widths = [int(frame.get_column(k).max() or 0).bit_length() for k in keys]  # type: ignore[arg-type]
    if sum(widths) > 62:
        return frame.sort(*keys)
    packed = pl.lit(0, pl.Int64)
    for key, width in zip(keys, widths, strict=True):
        packed = packed * (1 << width) + pl.col(key).cast(pl.Int64)
    return frame.sort(packed)


def _by_hand(head: pl.DataFrame, n: int, value: pl.Expr) -> pl.Expr:
    """A per-hand value looked up for every row by its ``_hx`` (null for a hand without a header
    row): a gather, where a join on ``_hx`` would hash and copy every column of the rows."""
    full = pl.DataFrame({"_hx": range(n)}, schema={"_hx": pl.Int64})
    column = full.join(head.select("_hx", value), on="_hx", how="left", maintain_order="left").to_series(1)
    return pl.lit(column).gather(pl.col("_hx")).alias(column.name)


def _name_key() -> pl.Expr:
    """One 64-bit key for (hand, player): a join on it costs a fifth of a join on both columns."""
    return pl.struct("_hx", "player").hash().alias("_nk")


def _seat_lookup(names: pl.DataFrame) -> tuple[pl.DataFrame, pl.Series]:
    """The seated names by key, and the hands two of whose names share a key (left to the parser)."""
    keyed = names.with_columns(_name_key())
    clash = keyed.get_column("_nk").is_duplicated()
    lookup = keyed.filter(~clash).select(
        "_nk", pl.col("_hx").alias("_nk_hx"), pl.col("player").alias("_nk_player"), "pid"
    )
    return lookup, keyed.filter(clash).get_column("_hx")


def _seated(frame: pl.DataFrame, lookup: pl.DataFrame) -> pl.DataFrame:
    """The frame with ``pid`` and ``seated`` (True; null when the line's player is not seated in
    its hand), as a left join on (hand, player) gives them, rows in the frame's order."""
    # the join on the key column alone (keys are unique on the right: one row per line, in
    # order), then the match is attached: joining the wide frame itself costs twice as much
    found = frame.select(_name_key()).join(lookup, on="_nk", how="left", maintain_order="left")
    same = (pl.col("_nk_hx") == pl.col("_hx")) & (pl.col("_nk_player") == pl.col("player"))
    return frame.with_columns(found.drop("_nk")).with_columns(
        pl.when(same).then(pl.lit(True)).alias("seated"), pl.when(same).then(pl.col("pid")).alias("pid")
    ).drop("_nk_hx", "_nk_player")


def _cum_sum_in_hand(x: pl.Expr, first: pl.Expr) -> pl.Expr:
    """Running sum within each run of rows, from one global running sum."""
    cs = x.cum_sum()
    return cs - pl.when(first).then(cs - x).otherwise(None).forward_fill()


def _committed_before(acts: pl.DataFrame) -> pl.Series:
    """Chips each action's player had committed on its street before it (``before``), in the
    frame's row order. Why narrow: only the six columns the running sums read are sorted by
    (player, street, line) and back, not the whole action frame with its strings."""
    cols = ["row", "pid", "sn", "is_raise", "raise_to", "delta"]
    # one integer sort key (pid already names the hand): (player, street) runs in line order
    if acts.height < (1 << 24):
        key = (pl.col("pid").cast(pl.Int64) * 8 + pl.col("sn").cast(pl.Int64)) * (1 << 24) + pl.col("row")
        run = acts.select(cols).sort(key)
    else:
        run = acts.select(cols).sort("pid", "sn", "row")
    seg = ((pl.col("pid") != pl.col("pid").shift(1)) | (pl.col("sn") != pl.col("sn").shift(1))).fill_null(True)
    block = seg | pl.col("is_raise")
    base = pl.when(pl.col("is_raise")).then(pl.col("raise_to")).when(seg).then(0).otherwise(None).forward_fill()
    run = run.with_columns(seg.alias("seg"), (base + _cum_sum_in_hand(pl.col("delta"), block)).alias("after"))
    before = pl.when(pl.col("seg")).then(0).otherwise(pl.col("after").shift(1)).alias("before")
    return run.select("row", before).sort("row").get_column("before")


def parse_chunk(
    texts: list[str], offsets: list[int], lengths: list[int], source_file: str | list[str]
) -> FastChunk:
    """Frames for a list of hand texts (each starting at its header line), from one source file
    or one per hand.

    The stages below each read one part of the hands; those that take ``bad`` append to it the hands
    they cannot read exactly, which are left to the parser (``fallback``) and dropped from every table."""
    sources = [source_file] * len(texts) if isinstance(source_file, str) else source_file
    n = len(texts)
    if n == 0:
        return FastChunk({k: pl.DataFrame(schema={"_hx": pl.Int64, **v}) for k, v in TABLE_SCHEMAS.items()})
    bad: Bad = []
    nb = _text_lines(texts, bad)
    head = _head(nb, bad)
    scale = _by_hand(head, n, pl.col("unit_scale").cast(pl.Int64).alias("scale"))
    body = _body(nb)
    seats, names, lookup = _seats(body, head, scale, bad)
    action_part, summary, board_lines = _sections(body, head, bad)
    action_part = _line_kinds(action_part, scale, bad)
    named = _named(action_part, lookup, bad)
    unc = _uncalled(action_part, lookup, bad)
    cash = _cash_outs(action_part, lookup, bad)
    dealt = _dealt(action_part, lookup, bad)
    coll = _collected(action_part, lookup, bad)
    summary = _summary_kinds(summary, scale, bad)
    totals, pot_items = _totals(summary, head, bad)
    summary_cards, summary_board = _summary_cards(summary, names), _summary_board(summary)

    # ---- which hands stay on the fast path ------------------------------------------------
    fallback = pl.concat([s.cast(pl.Int64) for s in bad]).unique()
    keep = head.filter(~pl.col("_hx").is_in(fallback.implode())).get_column("_hx")
    keep_set = keep.implode()

    def kept(frame: pl.DataFrame) -> pl.DataFrame:
        return frame.filter(pl.col("_hx").is_in(keep_set))

    acts = _action_rows(kept(named), kept(unc), kept(cash), head, n)
    holes, hero, operator = _hole_cards(kept(dealt), kept(named), kept(summary_cards), head)
    tot = kept(totals)
    hands = _hands(kept(head), _firsts(acts), hero, operator, tot, kept(seats), n, (offsets, lengths, sources))
    children = {
        "seats": kept(seats).select(
            "_hx", "seat_no", "player", "stack", "sitting_out", pl.lit(None, pl.Int64).alias("final_stack")
        ),
        "actions": _actions_table(acts),
        "hole_cards": kept(holes),
        "boards": _boards(kept(board_lines), kept(summary_board)),
        "pots": _pots(kept(pot_items), tot),
        "awards": kept(coll).select("_hx", "player", "amount", "pot_no", pl.lit(1, pl.Int32).alias("board_no")),
    }  # fmt: skip
    return FastChunk(_tables(hands, children, n), sorted(fallback.to_list()), hands.height)


def _text_lines(texts: list[str], bad: Bad) -> pl.DataFrame:
    """One row per non-blank line of each hand: the hand (``_hx``), the line's index among them
    (``j``) and its stripped text (``t``)."""
    raw = pl.DataFrame({"t": texts}).with_row_index("_hx").with_columns(pl.col("_hx").cast(pl.Int64))
    lines = (
        raw.select("_hx", pl.col("t").str.split("\n"))
        .explode("t")
        .with_columns(_index_in_hand(_first()).alias("i"), pl.col("t").str.strip_chars())
    )
    nb = lines.filter(pl.col("t") != "").with_columns(_index_in_hand(_first()).alias("j"))
    # a blank line before the hand's last text line (the parser's business: double spacing...)
    # puts that line's index among all lines ahead of its index among text lines
    bad.append(nb.filter(pl.col("i") != pl.col("j")).get_column("_hx"))
    nb = nb.drop("i")
    return nb


def _head(nb: pl.DataFrame, bad: Bad) -> pl.DataFrame:
    """One row per hand from its header and table lines, with what its header key says (game,
    stakes, currency: ``_key_info`` once per distinct key)."""
    first = nb.filter(pl.col("j") == 0).select("_hx", pl.col("t").alias("h"))
    second = nb.filter(pl.col("j") == 1).select("_hx", pl.col("t").alias("tl"))
    head = first.join(second, on="_hx", how="left").with_columns(
        pl.col("h").str.extract_groups(_HEADER_SPLIT).alias("hs"),
        pl.col("tl").str.extract_groups(_TABLE).alias("tg"),
    )
    head = head.select(
        "_hx",
        "h",
        pl.col("hs").struct.field("1").alias("hand_no"),
        pl.col("hs").struct.field("2").alias("prefix"),
        pl.col("hs").struct.field("3").alias("date"),
        pl.col("tg").struct.field("1").alias("table_name"),
        pl.col("tg").struct.field("2").cast(pl.Int32, strict=False).alias("max_seats"),
        pl.col("tg").struct.field("3").is_not_null().alias("play"),
        pl.col("tg").struct.field("4").cast(pl.Int32, strict=False).alias("button_seat"),
        pl.col("tg").struct.field("4").is_null().alias("no_table"),
    ).with_columns(_started_at(pl.col("date")).alias("started_at"))
    bad.append(
        head.filter(
            pl.col("prefix").is_null() | pl.col("no_table") | pl.col("started_at").is_null()
            | pl.col("h").str.contains("\ufffd", literal=True)
        ).get_column("_hx")
    )  # fmt: skip
    keys = (
        head.filter(pl.col("prefix").is_not_null())
        .group_by("prefix", "play")
        .agg(pl.col("h").first(), pl.col("date").first())
    )
    key_rows: list[tuple[object, ...]] = []
    for prefix, play, sample, date in keys.iter_rows():
        info = _key_info(prefix, play, sample, date)
        if info is not None:
            key_rows.append((prefix, play, *info.__dict__.values()))
    key_schema = {
        "prefix": pl.String, "play": pl.Boolean, "variant": pl.String, "betting": pl.String,
        "game_type": pl.String, "currency": pl.String, "unit_scale": pl.Int32, "sb": pl.Int64,
        "bb": pl.Int64, "hdr_ante": pl.Int64, "tournament_id": pl.String,
        "tournament_level": pl.String, "want": pl.Int32, "mix": pl.String,
    }  # fmt: skip
    key_df = pl.DataFrame(key_rows, schema=key_schema, orient="row")
    head = head.join(key_df, on=["prefix", "play"], how="left")
    bad.append(head.filter(pl.col("variant").is_null()).get_column("_hx"))
    return head


def _body(nb: pl.DataFrame) -> pl.DataFrame:
    """The lines after the table line, with ``nonseat``: 0 on the seat lines that open the hand."""
    return nb.filter(pl.col("j") >= 2).with_columns(
        _cum_sum_in_hand((~pl.col("t").str.starts_with("Seat ")).cast(pl.Int32), _first()).alias("nonseat"),
    )


def _seats(body: pl.DataFrame, head: pl.DataFrame, scale: pl.Expr, bad: Bad) -> Frames3:
    """The seat lines read (seats), each hand's seated names (names, with a ``pid``) and the lookup
    that tells a seated name in the hand's other lines."""
    seat_lines = body.filter(pl.col("nonseat") == 0).with_columns(scale)
    # "Seat N: NAME (STACK in chips[, ...])TAIL" by literal splits (a regex with captures costs
    # ~1.5 us a line): NAME ends at the last " (" before the only " in chips", as the parser's
    # greedy regex reads it; a second " in chips" is ambiguous -> the parser
    t = pl.col("t")
    seats = seat_lines.with_columns(
        t.str.splitn(" in chips", 2).alias("c"),
        (t.str.count_matches(" in chips", literal=True) == 1).alias("plain"),
    ).with_columns(
        pl.col("c").struct.field("field_0").alias("pre"),
        pl.col("c").struct.field("field_1").alias("tail0"),
    ).with_columns(pl.col("pre").str.count_matches(" (", literal=True).alias("parens"))
    # one " (" (almost every line): a plain split; names with brackets: split at the last one
    one = seats.filter(pl.col("parens") <= 1).with_columns(pl.col("pre").str.splitn(" (", 2).alias("r")).with_columns(
        pl.col("r").struct.field("field_1").alias("stack_text"), pl.col("r").struct.field("field_0").alias("head")
    )
    many = seats.filter(pl.col("parens") > 1).with_columns(
        pl.col("pre").str.reverse().str.splitn("( ", 2).alias("r")
    ).with_columns(
        pl.col("r").struct.field("field_0").str.reverse().alias("stack_text"),
        pl.col("r").struct.field("field_1").str.reverse().alias("head"),
    )  # fmt: skip
    seats = _sort_rows(pl.concat([one, many]), "_hx", "j").with_columns(
        pl.col("head").str.strip_prefix("Seat ").str.splitn(": ", 2).alias("a")
    ).with_columns(
        pl.col("a").struct.field("field_0").alias("no"),
        pl.col("a").struct.field("field_1").alias("player"),
    )  # fmt: skip
    tail0 = pl.col("tail0")
    seats = _with_money(seats, stack=pl.col("stack_text")).select(
        "_hx",
        "j",
        pl.when(pl.col("plain") & pl.col("no").str.contains(r"^[0-9]+$") & (pl.col("player") != "")
                & (pl.col("stack_text") != "") & t.str.starts_with("Seat "))
        .then(pl.col("no").cast(pl.Int32, strict=False)).alias("seat_no"),
        "player",
        "stack",
        pl.when(tail0.str.starts_with(")")).then(tail0.str.slice(1))
        .when(tail0.str.starts_with(", ")).then(tail0.str.splitn(")", 2).struct.field("field_1"))
        .alias("tail"),
    ).with_columns((pl.col("tail").str.strip_chars() != "").alias("sitting_out"))
    seats = seats.with_columns(pl.when(pl.col("tail").is_not_null()).then(pl.col("seat_no")).alias("seat_no"))
    bad.append(seats.filter(pl.col("seat_no").is_null() | pl.col("stack").is_null()).get_column("_hx"))
    seats = seats.filter(pl.col("seat_no").is_not_null())
    names = seats.select("_hx", "player").unique().with_row_index("pid")
    lookup, clashes = _seat_lookup(names)
    bad.append(clashes)
    has_seats = names.get_column("_hx").unique()
    bad.append(head.filter(~pl.col("_hx").is_in(has_seats.implode())).get_column("_hx"))
    return seats, names, lookup


def _sections(body: pl.DataFrame, head: pl.DataFrame, bad: Bad) -> Frames3:
    """The lines after the seats split at the ``*** ... ***`` markers: the betting lines with their
    street, the summary lines, and the board cards the street markers show."""
    rest = body.filter(pl.col("nonseat") > 0).drop("nonseat")
    mk = pl.col("t").str.extract_groups(_MARKER)
    rest = rest.with_columns(
        pl.col("t").str.starts_with("*").alias("star"),
        mk.struct.field("1").alias("label"),
        mk.struct.field("2").alias("mcards"),
    ).with_columns(
        _cum_sum_in_hand((pl.col("label") == "SUMMARY").fill_null(False).cast(pl.Int32), _first()).alias("summ")
    )
    bad.append(rest.filter(pl.col("star") & pl.col("label").is_null()).get_column("_hx"))
    labels = rest.filter(pl.col("label").is_not_null())
    marker_checks = labels.group_by("_hx").agg(
        (pl.col("label").n_unique() != pl.len()).alias("dup"),
        ((pl.col("label") == "SUMMARY") & (pl.col("summ") > 1)).any().alias("late"),
        (pl.col("label") == "SUMMARY").any().alias("has_summary"),
        ((pl.col("label") == "HOLE CARDS") & (pl.int_range(pl.len()) > 0)).any().alias("late_hole"),
    )
    bad.append(marker_checks.filter(pl.col("dup") | pl.col("late") | pl.col("late_hole")).get_column("_hx"))
    bad.append(
        head.filter(~pl.col("_hx").is_in(marker_checks.filter("has_summary").get_column("_hx").implode()))
        .get_column("_hx")
    )  # fmt: skip
    bad.append(rest.filter((pl.col("summ") > 0) & pl.col("star") & (pl.col("label") != "SUMMARY")).get_column("_hx"))
    street_of = {"HOLE CARDS": "preflop", "FLOP": "flop", "TURN": "turn", "RIVER": "river", "SHOW DOWN": "showdown"}
    label_street = pl.col("label").replace_strict(street_of, default=None, return_dtype=pl.String)
    rest = rest.with_columns(
        pl.when(_first()).then(label_street.fill_null("preflop")).otherwise(label_street).forward_fill().alias("street")
    )
    action_part = rest.filter((pl.col("summ") == 0) & ~pl.col("star")).drop("star", "label", "mcards", "summ")
    summary = rest.filter((pl.col("summ") > 0) & ~pl.col("star")).select("_hx", "j", "t")
    board_lines = labels.filter(pl.col("label").is_in(["FLOP", "TURN", "RIVER"]) & (pl.col("mcards") != "")).select(
        "_hx", "j", pl.col("mcards").str.replace_all(r"[\[\] ]", "").alias("cards")
    )
    return action_part, summary, board_lines


def _line_kinds(action_part: pl.DataFrame, scale: pl.Expr, bad: Bad) -> pl.DataFrame:
    """Each betting-section line's kind (``lk``), in the parser's order of tests."""
    t = pl.col("t")
    action_part = action_part.with_columns(
        pl.when(t.str.contains(' said, "', literal=True)).then(pl.lit("said"))
        .when(t.str.starts_with("Dealt to ")).then(pl.lit("dealt"))
        .when(t.str.starts_with("Uncalled bet (")).then(pl.lit("uncalled"))
        .when(t.str.contains(": ", literal=True)).then(pl.lit("named"))
        .when(t.str.contains(" collected ", literal=True)).then(pl.lit("collect"))
        .when(t.str.contains(" cashed out the hand for ", literal=True)).then(pl.lit("cashout"))
        .otherwise(pl.lit("other"))
        .alias("lk")
    )  # fmt: skip
    # table chatter the parser skips, tested only on the few lines nothing else claimed; a line
    # with ": " whose prefix is not seated would be searched further by the parser -> fallback
    other = action_part.filter(pl.col("lk") == "other").select(
        "_hx",
        (
            t.is_in(list(IGNORED_LINES))
            | pl.any_horizontal(*[t.str.ends_with(s) for s in IGNORED_SUFFIXES])
            | pl.any_horizontal(*[t.str.contains(p, literal=True) for p in IGNORED_PARTS])
        ).alias("ignored"),
    )
    bad.append(other.filter(~pl.col("ignored")).get_column("_hx"))
    action_part = action_part.with_columns(scale)
    return action_part


def _named(action_part: pl.DataFrame, lookup: pl.DataFrame, bad: Bad) -> pl.DataFrame:
    """The "name: verb" lines read into actions (kind, amount, raise_to, all_in, cards)."""
    t = pl.col("t")
    # "name: verb" lines: the name is everything before the last ": ", and must be seated; a line
    # with two ": " (hi/lo descriptions, names with colons) is left to the parser
    # (polars' str.find counts bytes and str.slice characters: split on literals instead)
    named = action_part.filter(pl.col("lk") == "named").with_columns(
        t.str.splitn(": ", 2).alias("sp"), t.str.count_matches(": ", literal=True).alias("colons")
    )
    named = named.with_columns(
        pl.col("sp").struct.field("field_0").alias("player"), pl.col("sp").struct.field("field_1").alias("verb")
    ).drop("sp")
    named = _seated(named, lookup)
    bad.append(named.filter(pl.col("seated").is_null() | (pl.col("colons") != 1)).get_column("_hx"))
    named = named.filter(pl.col("seated").is_not_null())
    # "<verb> <amount>[ to <amount>][ and is all-in]": split on the first " and ", as the parser
    # (staged columns: eager polars would recompute a shared sub-expression at every use)
    v = pl.col("verb")
    # the verb's first word decides (the parser's startswith tests, e.g. "calls " needs its
    # space); posts by their wording. One lookup instead of a chain of when/then columns.
    named = named.with_columns(
        v.str.splitn(" ", 2).alias("w"),
        v.str.extract(r"^posts (small & big blinds|small blind|big blind|the ante|button blind|straddle) ", 1)
        .alias("post"),
    ).with_columns(
        pl.col("w").struct.field("field_0").alias("word"), pl.col("w").struct.field("field_1").is_not_null().alias("sp")
    )  # fmt: skip
    word, post = pl.col("word"), pl.col("post")
    named = named.with_columns(
        pl.when(word.is_in(["folds", "checks"]))
        .then(word.replace_strict({"folds": "fold", "checks": "check"}, default=None))
        .when(pl.col("sp") & word.is_in(list(_WORD_KINDS)))
        .then(word.replace_strict(_WORD_KINDS, default=None))
        .when(pl.col("sp") & (word == "posts"))
        .then(post.replace_strict(_POST_KINDS, default=None))
        .when(v.is_in(list(IGNORED_VERBS)) | v.str.starts_with("is sitting out")).then(pl.lit("skip"))
        .alias("kind"),
        pl.when(word == "posts").then(post.str.len_chars() + 7).otherwise(word.str.len_chars() + 1).alias("plen"),
        (post == "small & big blinds").fill_null(False).alias("both"),
    ).drop("w")  # fmt: skip
    kd = pl.col("kind")
    bad.append(named.filter(kd.is_null()).get_column("_hx"))
    # amounts only on the lines that carry one, cards only on shows/mucks (string splits cost
    # per row: no need to pay them on every fold and check)
    with_amount = named.filter(kd.is_in(_AMOUNT_KINDS)).with_columns(v.str.splitn(" and ", 2).alias("and_sp"))
    with_amount = with_amount.with_columns(
        pl.col("and_sp").struct.field("field_0").str.slice(pl.col("plen")).alias("amt"),
        _all_in(pl.col("and_sp").struct.field("field_1")).alias("all_in"),
    )
    amt = pl.col("amt")
    with_amount = with_amount.with_columns(
        pl.when(kd == "raise").then(amt.str.splitn(" to ", 2)).alias("to_sp")
    ).with_columns(
        pl.when(kd == "raise").then(pl.col("to_sp").struct.field("field_0")).otherwise(amt).alias("amt_text"),
        pl.col("to_sp").struct.field("field_1").alias("to_text"),
    )  # fmt: skip
    with_amount = _with_money(with_amount, amount=pl.col("amt_text"), raise_to=pl.col("to_text"))
    bad.append(
        with_amount.filter(pl.col("amount").is_null() | ((kd == "raise") & pl.col("raise_to").is_null()))
        .get_column("_hx")
    )  # fmt: skip
    with_amount = with_amount.with_columns(
        pl.when(kd == "bet").then(pl.col("amount")).otherwise(pl.col("raise_to")).alias("raise_to"),
        pl.lit(None, pl.String).alias("cards"),
    )
    shows = named.filter(kd.is_in(["show", "muck"])).with_columns(
        v.str.splitn("[", 2).struct.field("field_1").str.splitn("]", 2).alias("br_sp")
    )
    shows = shows.with_columns(
        pl.when(pl.col("br_sp").struct.field("field_1").is_not_null())
        .then(pl.col("br_sp").struct.field("field_0").str.replace_all(" ", "", literal=True)).alias("cards"),
    )  # fmt: skip
    bad.append(shows.filter((kd == "show") & (pl.col("cards").is_null() | (pl.col("cards") == ""))).get_column("_hx"))
    plain = named.filter(kd.is_in(["fold", "check"])).with_columns(pl.lit(None, pl.String).alias("cards"))
    no_amount = [
        pl.lit(None, pl.Int64).alias("amount"), pl.lit(None, pl.Int64).alias("raise_to"), pl.lit(False).alias("all_in")
    ]  # fmt: skip
    cols = ["_hx", "j", "street", "player", "pid", "kind", "amount", "raise_to", "all_in", "cards", "both"]
    named = _sort_rows(
        pl.concat(
            [
                with_amount.select(cols),
                shows.with_columns(no_amount).select(cols),
                plain.with_columns(no_amount).select(cols),
            ]
        ),
        "_hx",
        "j",
    )
    return named


def _uncalled(action_part: pl.DataFrame, lookup: pl.DataFrame, bad: Bad) -> pl.DataFrame:
    """The "Uncalled bet (A) returned to NAME" lines."""
    t = pl.col("t")
    ug = t.str.extract_groups(r"^Uncalled bet \((.*?)\) returned to (.*)$")
    unc = _with_money(
        action_part.filter(pl.col("lk") == "uncalled").with_columns(ug.struct.field("2").alias("player")),
        amount=ug.struct.field("1"),
    )
    unc = _seated(unc, lookup)
    bad.append(unc.filter(pl.col("seated").is_null() | pl.col("amount").is_null()).get_column("_hx"))
    return unc


def _cash_outs(action_part: pl.DataFrame, lookup: pl.DataFrame, bad: Bad) -> pl.DataFrame:
    """The "X cashed out the hand for P | Cash Out Fee F" lines: cash_out P at showdown."""
    t = pl.col("t")
    co = t.str.splitn(" cashed out the hand for ", 2)
    cash = (
        action_part.filter(pl.col("lk") == "cashout")
        .with_columns(
            co.struct.field("field_0").alias("player"), co.struct.field("field_1").str.splitn(" | ", 2).alias("paid")
        )
    )
    cash = _with_money(cash, amount=pl.col("paid").struct.field("field_0"))
    cash = _seated(cash, lookup)
    bad.append(cash.filter(pl.col("seated").is_null() | pl.col("amount").is_null()).get_column("_hx"))
    return cash


def _dealt(action_part: pl.DataFrame, lookup: pl.DataFrame, bad: Bad) -> pl.DataFrame:
    """The "Dealt to NAME [cards]" lines that show cards."""
    t = pl.col("t")
    dg = t.str.extract_groups(r"^Dealt to (.*) \[(.*)$")
    dealt = action_part.filter(pl.col("lk") == "dealt").with_columns(
        pl.coalesce(dg.struct.field("1"), t.str.slice(9)).alias("player"),
        dg.struct.field("2").str.extract(r"^([^\[\]]*)\]$", 1).str.replace_all(" ", "", literal=True).alias("cards"),
        dg.struct.field("2").is_not_null().alias("bracket"),
    )
    dealt = _seated(dealt, lookup)
    bad.append(
        dealt.filter(pl.col("seated").is_null() | (pl.col("bracket") & pl.col("cards").is_null())).get_column("_hx")
    )
    dealt = dealt.filter(pl.col("bracket") & pl.col("cards").is_not_null())
    return dealt


def _collected(action_part: pl.DataFrame, lookup: pl.DataFrame, bad: Bad) -> pl.DataFrame:
    """The "NAME collected A from POT" lines, with the pot's number."""
    t = pl.col("t")
    coll = action_part.filter(pl.col("lk") == "collect").with_columns(
        t.str.splitn(" collected ", 2).alias("a"), t.str.count_matches(" collected ", literal=True).alias("n")
    )
    coll = coll.with_columns(
        pl.col("a").struct.field("field_0").alias("player"),
        pl.col("a").struct.field("field_1").str.splitn(" from ", 2).alias("b"),
    ).with_columns(pl.col("b").struct.field("field_1").alias("src"))
    coll = _with_money(coll, amount=pl.col("b").struct.field("field_0"))
    coll = _seated(coll, lookup)
    src = pl.col("src")
    coll = coll.with_columns(
        pl.when(src.is_in(["pot", "main pot"])).then(0)
        .when(src == "side pot").then(1)
        .when(src.str.contains(r"^side pot-[0-9]+$")).then(src.str.slice(9).cast(pl.Int32, strict=False))
        .cast(pl.Int32).alias("pot_no"),
    )  # fmt: skip
    bad.append(
        coll.filter(
            pl.col("seated").is_null() | pl.col("amount").is_null() | pl.col("pot_no").is_null() | (pl.col("n") != 1)
        ).get_column("_hx")
    )  # fmt: skip
    return coll


def _summary_kinds(summary: pl.DataFrame, scale: pl.Expr, bad: Bad) -> pl.DataFrame:
    """Each summary line's kind (``sk``: total, seat, board)."""
    st = pl.col("t")
    summary = summary.with_columns(scale).with_columns(
        pl.when(st.str.starts_with("Total pot ")).then(pl.lit("total"))
        .when(st.str.starts_with("Seat ")).then(pl.lit("seat"))
        .when(st.str.starts_with("Board [")).then(pl.lit("board"))
        .otherwise(pl.lit("other")).alias("sk")
    )  # fmt: skip
    bad.append(
        summary.filter(
            (pl.col("sk") == "other")
            | ((pl.col("sk") == "seat") & st.str.ends_with("(pot not awarded as player cashed out)"))
        ).get_column("_hx")
    )
    return summary


def _totals(summary: pl.DataFrame, head: pl.DataFrame, bad: Bad) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The "Total pot ... | Rake R" line of each hand (totals) and the pots it lists (pot_items)."""
    st = pl.col("t")
    # "Total pot T[ Main pot M.[ Side pot[-N] S.]...] | Rake R" (other drops: the parser)
    totals = summary.filter(pl.col("sk") == "total").with_columns(st.str.splitn(" | ", 2).alias("tp"))
    totals = totals.with_columns(
        pl.col("tp").struct.field("field_0").alias("part0"), pl.col("tp").struct.field("field_1").alias("rake_part")
    )
    part0, rake_part = pl.col("part0"), pl.col("rake_part")
    totals = _with_money(
        totals, site_total_pot=part0.str.split(" ").list.get(2, null_on_oob=True), site_rake=rake_part.str.slice(5)
    ).select(
        "_hx",
        "scale",
        "part0",
        (part0.str.contains(_TOTAL_STRICT) & rake_part.str.contains(r"^Rake [^ |]+$")).fill_null(False).alias("valid"),
        "site_total_pot",
        "site_rake",
    )
    pot_items = (
        totals.select("_hx", "scale", pl.col("part0").str.extract_all(_POT_ITEM).alias("item"))
        .explode("item").filter(pl.col("item").is_not_null())
        .with_columns(pl.col("item").str.split(" ").alias("w"))
        .pipe(lambda f: _with_money(f, amount=pl.col("w").list.get(2).str.strip_suffix(".")))
        .select(
            "_hx",
            pl.when(pl.col("w").list.get(0) == "Main").then(0).when(pl.col("w").list.get(1) == "pot").then(1)
            .otherwise(pl.col("w").list.get(1).str.slice(4).cast(pl.Int32, strict=False))
            .cast(pl.Int32).alias("pot_no"),
            "amount",
        )
    )  # fmt: skip
    tot_count = totals.group_by("_hx").len()
    bad.append(
        head.filter(~pl.col("_hx").is_in(tot_count.filter(pl.col("len") == 1).get_column("_hx").implode())).get_column(
            "_hx"
        )
    )
    bad.append(
        totals.filter(~pl.col("valid") | pl.col("site_total_pot").is_null() | pl.col("site_rake").is_null())
        .get_column("_hx")
    )  # fmt: skip
    bad.append(pot_items.filter(pl.col("pot_no").is_null() | pl.col("amount").is_null()).get_column("_hx"))
    return totals, pot_items


def _summary_cards(summary: pl.DataFrame, names: pl.DataFrame) -> pl.DataFrame:
    """Cards the summary's seat lines show or muck, for seated players."""
    st = pl.col("t")
    return summary.filter(
        (pl.col("sk") == "seat")
        & (st.str.contains("showed [", literal=True) | st.str.contains("mucked [", literal=True))
    ).with_columns(st.str.extract_groups(_SUMMARY_CARDS).alias("g")).select(
        "_hx", "j", pl.col("g").struct.field("1").alias("player"),
        pl.col("g").struct.field("2").str.replace_all(" ", "", literal=True).alias("cards"),
    ).filter(pl.col("player").is_not_null()).join(names.drop("pid"), on=["_hx", "player"], how="semi")  # fmt: skip


def _summary_board(summary: pl.DataFrame) -> pl.DataFrame:
    """The summary's "Board [...]" line."""
    st = pl.col("t")
    return summary.filter(pl.col("sk") == "board").select(
        "_hx",
        "j",
        st.str.extract(r"\[([^\]]*)\]", 1).str.replace_all(" ", "", literal=True).fill_null("").alias("cards"),
    )


def _action_rows(named: pl.DataFrame, unc: pl.DataFrame, cash: pl.DataFrame, head: pl.DataFrame,
                 n: int) -> pl.DataFrame:
    """Every action row of the kept hands in the parser's order, with its contribution: a dead
    "small & big blinds" post split in two, a raise putting in raise_to less what was in before."""
    acts = pl.concat(
        [
            named.select(
                "_hx", "j", "street", "player", "pid", "kind", "amount", "raise_to", "all_in", "cards", "both"
            ),
            unc.select(
                "_hx", "j", "street", "player", "pid", pl.lit("uncalled_return").alias("kind"), "amount",
                pl.lit(None, pl.Int64).alias("raise_to"), pl.lit(False).alias("all_in"),
                pl.lit(None, pl.String).alias("cards"), pl.lit(False).alias("both"),
            ),
            cash.select(
                "_hx", "j", pl.lit("showdown").alias("street"), "player", "pid", pl.lit("cash_out").alias("kind"),
                "amount", pl.lit(None, pl.Int64).alias("raise_to"), pl.lit(False).alias("all_in"),
                pl.lit(None, pl.String).alias("cards"), pl.lit(False).alias("both"),
            ),
        ]
    ).with_columns(_by_hand(head, n, pl.col("bb")))  # fmt: skip
    # "posts small & big blinds T": post_bb min(bb, T) (live) then post_dead T - live
    live = pl.min_horizontal(pl.col("bb"), pl.col("amount"))
    both = acts.filter("both")
    acts = _sort_rows(pl.concat(
        [
            acts.filter(~pl.col("both")).with_columns(pl.lit(0).alias("sub")),
            both.with_columns(live.alias("amount"), pl.lit(0).alias("sub")),
            both.with_columns(
                pl.lit("post_dead").alias("kind"), (pl.col("amount") - live).alias("amount"), pl.lit(1).alias("sub")
            ),
        ]
    ), "_hx", "j", "sub")  # fmt: skip
    kind = pl.col("kind")
    simple = (
        pl.when(kind.is_in(["call", "bet", "post_sb", "post_bb", "post_ante", "post_straddle", "post_dead"]))
        .then(pl.col("amount"))
        .when(kind == "uncalled_return").then(-pl.col("amount"))
        .otherwise(0)
    )  # fmt: skip
    delta = pl.when(kind.is_in(["post_ante", "post_dead", "raise"])).then(0).otherwise(pl.col("simple"))
    # committed chips per (hand, street, player): a raise sets it to raise_to, other live
    # chips add to it; a raise puts in raise_to - committed before it. Computed on rows sorted by
    # (hand, street, player, line) with global running sums reset at run starts (no hashing).
    street_no = pl.col("street").replace_strict(_STREET_NO, return_dtype=pl.Int8)
    acts = acts.with_columns(
        simple.alias("simple"), street_no.alias("sn"), pl.int_range(pl.len(), dtype=pl.Int64).alias("row")
    ).with_columns(delta.alias("delta"), (kind == "raise").alias("is_raise"))
    run = acts.with_columns(_committed_before(acts))
    acts = run.with_columns(
        pl.when(kind == "raise")
        .then(pl.col("raise_to") - pl.col("before"))
        .otherwise(pl.col("simple"))
        .alias("contribution"),
        _index_in_hand(_first()).cast(pl.Int32).alias("seq"),
    )
    return acts


def _actions_table(acts: pl.DataFrame) -> pl.DataFrame:
    """The actions table's columns of the action rows."""
    kind = pl.col("kind")
    return acts.select(
        "_hx",
        "seq",
        "street",
        "player",
        "kind",
        pl.when(kind.is_in(["fold", "check", "show", "muck"])).then(None).otherwise(pl.col("amount")).alias("amount"),
        "raise_to",
        "all_in",
        "contribution",
        pl.when(kind.is_in(["show", "muck"])).then(pl.col("cards")).otherwise(None).alias("cards"),
        pl.lit(None, pl.Datetime("us")).alias("acted_at"),  # PokerStars writes no per-action time
        pl.lit(False).alias("left_table"),  # PokerStars writes no leave as a fold
    )


def _firsts(acts: pl.DataFrame) -> pl.DataFrame:
    """Per hand, the first ante, straddle and small blind posted."""
    kind = pl.col("kind")
    return acts.group_by("_hx").agg(
        pl.col("amount").filter((kind == "post_ante") & (pl.col("amount") != 0)).first().alias("first_ante"),
        pl.col("amount").filter((kind == "post_straddle") & (pl.col("amount") != 0)).first().alias("first_straddle"),
        pl.col("amount").filter(kind == "post_sb").first().alias("first_sb"),
    )


def _hole_cards(dealt: pl.DataFrame, named: pl.DataFrame, summary_cards: pl.DataFrame,
                head: pl.DataFrame) -> Frames3:
    """Hole cards (dealt, then shown), the hero of a one-seat deal and the hands dealt in full
    (operator exports)."""
    dealt_last = (
        _sort_rows(dealt, "_hx", "j").group_by("_hx", "player").agg(pl.col("cards").last(), pl.col("j").first())
    )
    n_dealt = dealt_last.group_by("_hx").len("n_dealt")
    shown = pl.concat(
        [
            named
            .filter(pl.col("kind").is_in(["show", "muck"]) & (pl.col("cards") != ""))
            .select("_hx", "j", "player", "cards"),
            summary_cards.select("_hx", "j", "player", "cards"),
        ]
    ).sort("_hx", "j").group_by("_hx", "player").agg(pl.col("cards").first(), pl.col("j").first())  # fmt: skip
    dealt_rows = dealt_last.join(n_dealt, on="_hx").select(
        "_hx", "player", "cards",
        pl.when(pl.col("n_dealt") > 1).then(pl.lit("operator")).otherwise(pl.lit("dealt")).alias("provenance"),
        "j", pl.lit(0).alias("src"),
    )  # fmt: skip
    shown_rows = (
        shown.join(dealt_last.select("_hx", "player"), on=["_hx", "player"], how="anti")
        .join(head.select("_hx", "want"), on="_hx")
        .select("_hx", "player", pl.col("cards").str.pad_end(pl.col("want"), "?"), pl.lit("shown").alias("provenance"),
                "j", pl.lit(1).alias("src"))
    )  # fmt: skip
    # the parser's order (group_by and join orders are not defined, and varied from run to run):
    # dealt players by their first "Dealt to" line, then the other players who showed, by first show
    holes = _sort_rows(pl.concat([dealt_rows, shown_rows]), "_hx", "src", "j").drop("j", "src")
    hero = dealt_rows.filter(pl.col("provenance") == "dealt").select("_hx", pl.col("player").alias("hero"))
    operator = (
        dealt_rows.filter(pl.col("provenance") == "operator")
        .select("_hx")
        .unique()
        .with_columns(pl.lit("operator").alias("hole_cards_mode"))
    )
    return holes, hero, operator


def _boards(board_lines: pl.DataFrame, summary_board: pl.DataFrame) -> pl.DataFrame:
    """The board: the summary's line where there is one, else the last street marker's cards."""
    street_board = board_lines.sort("_hx", "j").group_by("_hx").agg(pl.col("cards").last())
    summ_board = summary_board.sort("_hx", "j").group_by("_hx").agg(pl.col("cards").last())
    return (
        street_board.join(summ_board, on="_hx", how="anti").vstack(summ_board)
        .filter(pl.col("cards") != "")
        .select("_hx", pl.lit(1, pl.Int32).alias("board_no"), "cards")
    )  # fmt: skip


def _pots(pot_items: pl.DataFrame, tot: pl.DataFrame) -> pl.DataFrame:
    """Written pots are after rake: rows only when nothing was taken (then they are pre-rake too)."""
    pots = pot_items.join(tot.filter(pl.col("site_rake") == 0).select("_hx"), on="_hx", how="semi")
    return pots.with_columns(pl.lit(None, pl.Int64).alias("rake"))  # PokerStars writes one rake per hand


def _hands(head: pl.DataFrame, firsts: pl.DataFrame, hero: pl.DataFrame, operator: pl.DataFrame,
           tot: pl.DataFrame, seats: pl.DataFrame, n: int,
           where: tuple[list[int], list[int], list[str]]) -> pl.DataFrame:
    """The hands table of the kept hands; ``where``: each hand's byte offset, length and file."""
    offsets, lengths, sources = where
    n_players = seats.group_by("_hx").agg((~pl.col("sitting_out")).sum().cast(pl.Int32).alias("n_players"))
    pos = pl.DataFrame(
        {"_hx": range(n), "byte_offset": offsets, "byte_length": lengths, "source_file": sources},
        schema={"_hx": pl.Int64, "byte_offset": pl.Int64, "byte_length": pl.Int64, "source_file": pl.String},
    )
    hands = (
        head.join(firsts, on="_hx", how="left").join(hero, on="_hx", how="left")
        .join(operator, on="_hx", how="left")
        .join(tot.select("_hx", "site_total_pot", "site_rake"), on="_hx", how="left")
        .join(n_players, on="_hx", how="left").join(pos, on="_hx", how="left")
        .sort("_hx")
        .select(
            "_hx",
            pl.concat_str(pl.lit("pokerstars:"), "hand_no").alias("hand_id"),
            pl.lit("pokerstars").alias("site"),
            pl.col("hand_no").alias("site_hand_no"),
            pl.lit("pokerstars").alias("format"),
            "variant", "betting", "game_type", "tournament_id", "tournament_level", "table_name",
            "max_seats", "button_seat", "mix",
            pl.when((pl.col("betting") == "FL") & pl.col("first_sb").is_not_null()).then(pl.col("first_sb"))
            .otherwise(pl.col("sb")).alias("sb"),
            "bb",
            pl.when(pl.col("hdr_ante") != 0).then(pl.col("hdr_ante"))
            .otherwise(pl.col("first_ante").fill_null(0)).alias("ante"),
            pl.lit(0, pl.Int64).alias("bb_ante"),
            pl.col("first_straddle").fill_null(0).alias("straddle"),
            "currency", "unit_scale", "started_at", "hero",
            pl.col("hole_cards_mode").fill_null("player"),
            "site_total_pot", "site_rake",
            pl.lit(0, pl.Int64).alias("site_fees"),
            pl.lit(None, pl.Int64).alias("site_added"),
            pl.lit(False).alias("cancelled"),
            pl.col("n_players").fill_null(0),
            "source_file",
            pl.lit("").alias("file_sha256"),
            "byte_offset", "byte_length",
        )
    )  # fmt: skip
    return hands


def _tables(hands: pl.DataFrame, children: dict[str, pl.DataFrame], n: int) -> dict[str, pl.DataFrame]:
    """Every table typed as the warehouse stores it, each row keyed by its hand's id."""
    ids = hands.select("_hx", "hand_id")
    hand_cols = [pl.col(c).cast(d) if c in hands.columns else pl.lit(None, d).alias(c)  # stud/draw-only columns
                 for c, d in TABLE_SCHEMAS["hands"].items()]
    tables = {"hands": hands.select("_hx", *hand_cols)}
    hand_id = _by_hand(ids, n, pl.col("hand_id"))  # null for a hand left to the parser
    for name, frame in children.items():
        typed = [pl.col(c).cast(d) for c, d in TABLE_SCHEMAS[name].items()]
        rows = frame.with_columns(hand_id).filter(pl.col("hand_id").is_not_null())
        if not rows.get_column("_hx").is_sorted():  # most tables are built in hand order already
            rows = rows.sort("_hx", maintain_order=True)
        tables[name] = rows.select("_hx", *typed)
    for name, schema in TABLE_SCHEMAS.items():  # tables only stud/draw hands fill (the fast path reads none)
        if name not in tables:
            tables[name] = pl.DataFrame(schema={"_hx": pl.Int64, **schema})
    return tables
