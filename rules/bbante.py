"""ANTE.BB_ANTE_SHORT_STACK: what a big blind too short for the blind and the BB ante posted first.

Why REVIEW and never ERROR: no seed says which comes first (matrix §ANTE.BB_ANTE_SHORT_STACK: the
BB-ante format rests on CEP's «formato Big Blind Ante (BB ante)» alone; TDA practice, from third-party
sources, is blind first, the rest to the ante). So a record that shows the ante taken first is the
floor's call, with both readings listed; blind first, the documented practice, raises nothing.
Online the software posts, so online exports are not checked.
"""

from __future__ import annotations

from typing import Any

from .findings import REVIEW, Finding
from .profiles import load_profile

#: short big blinds whose record posts the full BB ante and less than the full blind
SHORT_BB_SQL = """
WITH posts AS (
    SELECT hand_id, player,
           sum(amount) FILTER (WHERE kind = 'post_bb') AS blind,
           sum(amount) FILTER (WHERE kind = 'post_bb_ante') AS ante
    FROM actions WHERE kind IN ('post_bb', 'post_bb_ante') GROUP BY ALL
)
SELECT h.hand_id, h.site, h.format, h.game_type, h.table_name, h.tournament_id, h.bb, h.bb_ante,
       p.player, s.stack, p.blind, p.ante
FROM posts p JOIN hands h USING (hand_id) JOIN seats s ON s.hand_id = p.hand_id AND s.player = p.player
WHERE h.bb_ante > 0 AND s.stack < h.bb + h.bb_ante AND coalesce(p.ante, 0) >= h.bb_ante
  AND coalesce(p.blind, 0) < h.bb AND NOT h.cancelled
"""

_CITE = (" — CEP 2023, Big Blind Ante (the only passage; no seed orders the posts): "
         "[000_24a201a7802bf830.txt] «formato Big Blind Ante (BB ante)»")


def short_bb_finding(row: dict[str, Any], book: str) -> Finding | None:
    """REVIEW: the short big blind's record took the BB ante in full before the blind."""
    if load_profile(book).key == "ONLINE":
        return None
    actual = (f"{row['player']} ({int(row['stack']):,} behind) posted the ante {int(row['ante']):,} in full and "
              f"{int(row['blind'] or 0):,} of the {int(row['bb']):,} blind")
    return Finding(row["hand_id"], None, "ANTE.BB_ANTE_SHORT_STACK", REVIEW, True,
                   "blind first, the rest to the ante|ante first, the rest to the blind",
                   f"blind first: {min(int(row['stack']), int(row['bb'])):,} live", actual,
                   f"{actual}; no rulebook says which comes first, TDA practice is blind first." + _CITE)
