"""Chip reconciliation at ingest, as polars expressions over a batch of hands.

Why vectorised: it runs on every hand of every night. The equations (ARCHITECTURE.md, "Chip
conservation is the first check"):

* C = Σ contribution (uncalled returns are negative contributions) + money the site added
  (promotional drops such as GGPoker's "Cash Drop to Pot");
* Σ awards + rake + fees = C                       → ``diff_awards``;
* the site's written total pot = C                 → ``diff_total_pot`` (NULL when not written);
* Σ pots = C (pots are pre-rake)                   → ``diff_pots`` (NULL when not written);
* stack − own contributions + own awards = written final stack → ``diff_final_stack``;
* nobody puts in more than they started with       → ``overdrawn``.

When the site writes no rake (888, PartyPoker), the rake is implied as contributed − awarded and
the awards equation cannot fail; instead the implied rake must be plausible: 0 in tournaments,
and between 0 and ``MAX_IMPLIED_RAKE_PCT`` % of the pot plus one unit in cash games.

A hand is never patched: the status and the exact differences are recorded.
"""

from __future__ import annotations

from collections.abc import Iterable

import polars as pl

from parsers.model import Hand

from .frames import HandFrames, hands_to_frames

#: the highest rake any site takes (percent of the pot); an implied rake above it is a mismatch
MAX_IMPLIED_RAKE_PCT = 10

RECONCILIATION_COLUMNS = [
    "hand_id",
    "status",
    "contributed",
    "awarded",
    "rake",
    "rake_implied",
    "fees",
    "diff_awards",
    "diff_total_pot",
    "diff_pots",
    "diff_final_stack",
    "overdrawn",
    "detail",
]


def _keyed(frames: HandFrames) -> dict[str, pl.DataFrame]:
    """The tables reconciliation reads, with integer keys: ``hk`` for the hand and ``pk`` for
    (hand, player). Grouping and joining on strings cost several times more (a row encoding of
    every key per row); one categorical cast of all the names gives ids that agree across tables."""
    names = {"hands": [], "seats": ["player"], "actions": ["player"], "awards": ["player"], "pots": []}
    tables = {name: frames[name] for name in names}
    hand_ids = pl.concat([t.get_column("hand_id") for t in tables.values()]).cast(pl.Categorical).to_physical()
    players = pl.concat([tables[n].get_column("player") for n, cols in names.items() if cols])
    player_ids = players.cast(pl.Categorical).to_physical()
    out: dict[str, pl.DataFrame] = {}
    at = pt = 0
    for name, cols in names.items():
        table, rows = tables[name], tables[name].height
        hk = hand_ids.slice(at, rows).cast(pl.Int64).alias("hk")
        at += rows
        keyed = table.with_columns(hk)
        if cols:
            pid = player_ids.slice(pt, rows).cast(pl.Int64)
            pt += rows
            keyed = keyed.with_columns((hk * (1 << 32) + pid).alias("pk"))
        out[name] = keyed
    return out


def reconcile_frames(frames: HandFrames) -> pl.DataFrame:
    """One reconciliation row per hand of the batch."""
    keyed = _keyed(frames)
    hands = keyed["hands"].select(
        "hk", "hand_id", "game_type", "site_total_pot", "site_rake", "site_fees", "site_added", "cancelled"
    )
    contrib_by_player = keyed["actions"].group_by("pk").agg(
        pl.col("hk").first(), pl.col("contribution").sum().alias("put_in")
    )
    awards_by_player = keyed["awards"].group_by("pk").agg(pl.col("hk").first(), pl.col("amount").sum().alias("won"))
    contributed = contrib_by_player.group_by("hk").agg(pl.col("put_in").sum().alias("contributed"))
    awarded = awards_by_player.group_by("hk").agg(pl.col("won").sum().alias("awarded"))
    pots = keyed["pots"].group_by("hk").agg(pl.col("amount").sum().alias("pots_total"))

    per_seat = (
        keyed["seats"]
        .join(contrib_by_player.drop("hk"), on="pk", how="left")
        .join(awards_by_player.drop("hk"), on="pk", how="left")
        .with_columns(pl.col("put_in").fill_null(0), pl.col("won").fill_null(0))
    )
    seat_checks = per_seat.group_by("hk").agg(
        (pl.col("put_in") > pl.col("stack")).sum().cast(pl.Int32).alias("overdrawn"),
        pl.when(pl.col("final_stack").is_not_null())
        .then((pl.col("stack") - pl.col("put_in") + pl.col("won") - pl.col("final_stack")).abs())
        .sum()
        .alias("final_abs"),
        pl.col("final_stack").is_not_null().any().alias("has_final"),
    )

    out = (
        hands.join(contributed, on="hk", how="left", maintain_order="left")
        .join(awarded, on="hk", how="left", maintain_order="left")
        .join(pots, on="hk", how="left", maintain_order="left")
        .join(seat_checks, on="hk", how="left", maintain_order="left")
        .with_columns(
            (pl.col("contributed").fill_null(0) + pl.col("site_added").fill_null(0)).alias("contributed"),
            pl.col("awarded").fill_null(0),
            pl.col("site_fees").fill_null(0).alias("fees"),
            pl.col("overdrawn").fill_null(0),
            pl.col("site_rake").is_null().alias("rake_implied"),
        )
        .with_columns(
            pl.coalesce(
                pl.col("site_rake"), pl.col("contributed") - pl.col("awarded") - pl.col("fees")
            ).alias("rake"),
        )
        .with_columns(
            (pl.col("awarded") + pl.col("rake") + pl.col("fees") - pl.col("contributed")).alias("diff_awards"),
            (pl.col("contributed") - pl.col("site_total_pot")).alias("diff_total_pot"),
            (pl.col("pots_total") - pl.col("contributed")).alias("diff_pots"),
            pl.when(pl.col("has_final")).then(pl.col("final_abs")).otherwise(None).alias("diff_final_stack"),
        )
    )
    implied_cap = pl.when(pl.col("game_type") == "cash").then(
        pl.col("contributed") * MAX_IMPLIED_RAKE_PCT // 100 + 1
    ).otherwise(0)
    implausible_rake = pl.col("rake_implied") & ((pl.col("rake") < 0) | (pl.col("rake") > implied_cap))
    ok = (
        ~implausible_rake
        & (pl.col("diff_awards") == 0)
        & (pl.col("diff_total_pot").fill_null(0) == 0)
        & (pl.col("diff_pots").fill_null(0) == 0)
        & (pl.col("diff_final_stack").fill_null(0) == 0)
        & (pl.col("overdrawn") == 0)
    )
    detail = pl.concat_str(
        [
            pl.when(implausible_rake).then(
                pl.format("implied rake {} is implausible (contributed {}, awarded {})",
                          pl.col("rake"), pl.col("contributed"), pl.col("awarded"))
            ),
            pl.when(pl.col("diff_awards") != 0).then(
                pl.format("awards+rake+fees-contributed={}", pl.col("diff_awards"))
            ),
            pl.when(pl.col("diff_total_pot").fill_null(0) != 0).then(
                pl.format("contributed-site_total_pot={}", pl.col("diff_total_pot"))
            ),
            pl.when(pl.col("diff_pots").fill_null(0) != 0).then(
                pl.format("pots-contributed={}", pl.col("diff_pots"))
            ),
            pl.when(pl.col("diff_final_stack").fill_null(0) != 0).then(
                pl.format("final stacks off by {}", pl.col("diff_final_stack"))
            ),
            pl.when(pl.col("overdrawn") > 0).then(
                pl.format("{} player(s) put in more than their stack", pl.col("overdrawn"))
            ),
        ],
        separator="; ",
        ignore_nulls=True,
    )
    return out.select(
        "hand_id",
        pl.when(pl.col("cancelled")).then(pl.lit("cancelled")).when(ok).then(pl.lit("ok"))
        .otherwise(pl.lit("mismatch")).alias("status"),
        "contributed",
        "awarded",
        "rake",
        "rake_implied",
        "fees",
        "diff_awards",
        "diff_total_pot",
        "diff_pots",
        "diff_final_stack",
        "overdrawn",
        pl.when(detail == "").then(None).otherwise(detail).alias("detail"),
    )


def reconcile_hands(hands: Iterable[Hand]) -> pl.DataFrame:
    """Reconcile in-memory hands (tests, parsers' own checks); a repeated hand_id counts once."""
    seen: set[str] = set()
    unique = [h for h in hands if not (h.hand_id in seen or seen.add(h.hand_id))]  # type: ignore[func-returns-value]
    return reconcile_frames(hands_to_frames(unique))
