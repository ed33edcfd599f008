"""Who should show first, and folds that faced no bet: read off the stored actions in DuckDB SQL.

Why apart from the replay: both rules need only the order of the written actions (the last
aggressor of the last betting street, the first player to table, the running bet of a street), which
window functions give for every hand at once; the replay's kernel never sees them (``rules.screens``
routes them to ``record``). Both are live-room procedure: online the software sets the order of the
showdown and lets a player fold for free, so online exports are not checked (counted only).
"""

from __future__ import annotations

from typing import Any

from .citations import citation
from .findings import INFO, WARNING, Finding
from .profiles import load_profile

#: street order of the betting rounds, every game's (stud: third..seventh; draw: predraw, draw1..draw3),
#: so the last round of a stud or draw hand is its own, not the last hold'em street it never had
_RANK = ("CASE street WHEN 'preflop' THEN 0 WHEN 'flop' THEN 1 WHEN 'turn' THEN 2 WHEN 'river' THEN 3 "
         "WHEN 'third' THEN 0 WHEN 'fourth' THEN 1 WHEN 'fifth' THEN 2 WHEN 'sixth' THEN 3 WHEN 'seventh' THEN 4 "
         "WHEN 'predraw' THEN 0 WHEN 'draw1' THEN 1 WHEN 'draw2' THEN 2 WHEN 'draw3' THEN 3 END")

_CITES: dict[tuple[str, str], tuple[str, str, str]] = {
    ("SHOWDOWN.ORDER", "CEP"): (
        "000_24a201a7802bf830.txt", "Orden al mostrar",
        "La última acción agresiva en la última ronda de apuestas (la última calle) deberá mostrar primero"),
    ("SHOWDOWN.ORDER", "T09"): (
        "001_6ba5ccb5fe360bcf.txt", "art. 11, Showdown",
        "el jugador que realizó la última acción agresiva en ésa ronda de apuestas debe mostrar sus cartas "
        "primero"),
    ("SHOWDOWN.ORDER", "PKR"): ("002_55d6ebc4598b3f67.txt", "Show-Down, orden", "Ultima acción agresiva en el River"),
    ("SHOWDOWN.ORDER", "R003"): (
        "003_577dcffd2c9e41f5.txt", "Orden de showdown",
        "las cartas se abrirán empezando por el jugador que haya hecho el último"),
    ("ACTION.FOLD_NONSTANDARD", "CEP"): (
        "000_24a201a7802bf830.txt", "Acción fuera de turno / retirarse",
        "tirar las cartas en turno al enfrentarse a un check (pasar) o tirar las cartas fuera de turno es "
        "vinculante y puede ser objeto de penalización"),
}

#: the first tabler, the last aggressors and the first live seat left of the button, per showdown
#: hand of ``_hr_scope`` with two hands shown
ORDER_SQL = f"""
WITH dec AS (
    SELECT hand_id, seq, player, kind, {_RANK} AS rank FROM actions SEMI JOIN _hr_scope USING (hand_id)
    WHERE kind IN ('fold', 'check', 'call', 'bet', 'raise')
), last AS (SELECT hand_id, max(rank) AS rank FROM dec GROUP BY hand_id),
aggr AS (
    SELECT d.hand_id, arg_max(d.player, d.seq) AS last_street_aggressor FROM dec d JOIN last l USING (hand_id)
    WHERE d.rank = l.rank AND d.kind IN ('bet', 'raise') GROUP BY d.hand_id
), any_aggr AS (
    SELECT hand_id, arg_max(player, seq) AS last_aggressor FROM dec WHERE kind IN ('bet', 'raise') GROUP BY hand_id
), folded AS (SELECT DISTINCT hand_id, player FROM actions WHERE kind = 'fold'),
acted AS (SELECT DISTINCT hand_id, player FROM actions),
live AS (
    SELECT s.hand_id, s.player, s.seat_no FROM seats s JOIN acted USING (hand_id, player)
    ANTI JOIN folded f ON f.hand_id = s.hand_id AND f.player = s.player
), left_of_button AS (
    SELECT l.hand_id, arg_min(l.player, (l.seat_no - coalesce(h.button_seat, 0) + 999) % 1000) AS first_left
    FROM live l JOIN hands h USING (hand_id) GROUP BY l.hand_id
), tabling AS (
    SELECT hand_id, arg_min(player, seq) AS first_tabler, count(*) FILTER (WHERE kind = 'show') AS shows
    FROM actions SEMI JOIN _hr_scope USING (hand_id) WHERE street = 'showdown' AND kind IN ('show', 'muck')
    GROUP BY hand_id
), allin AS (SELECT hand_id, list(DISTINCT player) AS all_in_players FROM actions WHERE all_in GROUP BY hand_id)
SELECT h.hand_id, h.site, h.format, h.game_type, h.table_name, h.tournament_id, t.first_tabler,
       a.last_street_aggressor, aa.last_aggressor, lb.first_left, coalesce(ai.all_in_players, []) AS all_in_players
FROM tabling t JOIN hands h USING (hand_id) LEFT JOIN aggr a USING (hand_id) LEFT JOIN any_aggr aa USING (hand_id)
LEFT JOIN left_of_button lb USING (hand_id) LEFT JOIN allin ai USING (hand_id)
WHERE t.shows >= 2 AND NOT h.cancelled
"""

#: the folds that faced no bet, in the hands of ``_hr_scope`` (the running street bets are the costliest
#: windows of the record checks, so only the hands of books with the rule are walked)
FOLD_SQL = """
WITH street_bets AS (
    SELECT hand_id, seq, street, player, kind,
           sum(CASE WHEN kind IN ('post_ante', 'post_bb_ante', 'post_dead', 'uncalled_return') THEN 0
                    ELSE contribution END)
               OVER (PARTITION BY hand_id, street, player ORDER BY seq) AS own_after,
           coalesce(sum(CASE WHEN kind IN ('post_ante', 'post_bb_ante', 'post_dead', 'uncalled_return') THEN 0
                    ELSE contribution END)
               OVER (PARTITION BY hand_id, street, player ORDER BY seq
                     ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS own_before
    FROM actions SEMI JOIN _hr_scope USING (hand_id) WHERE street <> 'showdown'
), facing AS (
    SELECT *, coalesce(max(own_after) OVER (PARTITION BY hand_id, street ORDER BY seq
                                            ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS bet_before
    FROM street_bets
)
SELECT f.hand_id, f.seq, f.street, f.player, h.site, h.format, h.game_type, h.table_name, h.tournament_id
FROM facing f JOIN hands h USING (hand_id)
WHERE f.kind = 'fold' AND f.bet_before <= f.own_before AND NOT h.cancelled
"""


def cite(rule_id: str, key: str) -> str:
    seed, article, passage = _CITES[(rule_id, key)]
    return citation(key, article, seed, passage)


def expected_first(row: dict[str, Any], key: str) -> str | None:
    """Who the book says tables first, or None where it does not decide (online: the software;
    CEP/TDA 2009 with an all-in: every hand goes up at once; R003 when the last street had no bet but
    an earlier one did: «el último» names no street)."""
    all_in = list(row["all_in_players"] or [])
    street, anywhere, left = row["last_street_aggressor"], row["last_aggressor"], row["first_left"]
    if key == "PKR":
        return all_in[0] if len(all_in) == 1 else (street or left) if not all_in else None
    if key in ("CEP", "T09"):
        return None if all_in else street or left
    if key == "R003":
        return None if all_in or (street is None and anywhere is not None) else street or left
    return None


def order_finding(row: dict[str, Any], book: str) -> Finding | None:
    """SHOWDOWN.ORDER: the first hand tabled is not the one the book calls first (the award stands)."""
    key = load_profile(book).key
    want = expected_first(row, key)
    if want is None or row["first_tabler"] == want:
        return None
    actual = f"{row['first_tabler']} tabled first"
    return Finding(row["hand_id"], None, "SHOWDOWN.ORDER", WARNING, False, None, f"{want} shows first", actual,
                   f"{actual}; {want} should have (the award is unaffected)." + cite("SHOWDOWN.ORDER", key))


def fold_finding(row: dict[str, Any], book: str) -> Finding | None:
    """ACTION.FOLD_NONSTANDARD (CEP): a fold that faced no bet is binding and may be penalized (INFO:
    the remedy is the book's, nothing is undone)."""
    key = load_profile(book).key
    if key != "CEP":
        return None
    actual = f"{row['player']} folded on the {row['street']} facing no bet"
    return Finding(row["hand_id"], int(row["seq"]), "ACTION.FOLD_NONSTANDARD", INFO, False, None,
                   "check available", actual, f"{actual}: the fold is binding and may be penalized."
                   + cite("ACTION.FOLD_NONSTANDARD", key))
