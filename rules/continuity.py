"""Checks across consecutive hands of one table, over the warehouse tables (DuckDB SQL).

Why SQL and not the per-hand replay: a table's hands must be seen in order, and a night holds
millions of seat rows. Every hand gets a number ``hx`` in (table, time, hand number) order, so its
predecessor at the table is ``hx - 1``; integer joins on it pair every hand with the one before and
every seated player with their own end stack there. Only the few pairs that disagree come back to
Python, where the rulebook picks the severity.

What a real export can prove decides the severity, not only the rulebook:

* ``proven``: the pair's hand numbers are n and n + 1 (a per-table counter, or a site-wide one:
  either way no hand of this table lies between them);
* ``likely``: the numbers are site-wide (PokerStars, iPoker...) and skip, but the pair is in one
  file, less than ``MAX_GAP_S`` apart, the button moved exactly one step (a missing hand would
  have moved it twice) and at most one player's stack moved (a missing hand moves the blinds');
  a finding there is at most WARNING (matrix §0.5: a likely breach with data that may be incomplete);
* anything else (a gap in a per-table counter, a jump in time, another file without proof, hands
  with neither numbers nor times) is not continuity, and the pair is only counted.

A player is compared only when seated in both hands of the pair at the same seat (a player who
leaves and comes back, or whose name is a position label as in Bovada's anonymous exports, is not
followed). Tables whose every hand starts every player with the same stack (ACPC's reset stacks)
and hands that do not balance on their own (already POT.CHIP_CONSERVATION) are not compared.
Rebuys, add-ons and top-ups that the export writes ("X adds $5", "X rebuys 10", "X re-buys and
receives", Bovada "UTG+3 [ME] : Rebuyin 1500") are read from the source file's text around the
pair, for the few players whose stack grew where a written rebuy would change the finding.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import duckdb
import yaml

from .citations import SEED_FILES, citation
from .findings import DATA, ERROR, REVIEW, WARNING, Finding, fmt
from .profiles import PROFILE_DIR, ProfileMap, load_profile
from .sqlpass import emit, namer, rows

#: a pair further apart in time than this, without consecutive hand numbers, is not continuity
MAX_GAP_S = 900
#: share of a table's pairs numbered n, n + 1 above which its numbers are a per-table counter (so a
#: skip in them is a missing hand, not another table's hands)
COUNTER_SHARE = 0.5
#: bytes read around a pair when looking for a written rebuy/add-on/top-up
MAX_TEXT = 1 << 16

# The books' answers, where the profiles do not carry them (rules/profiles/*.yaml has ``stack``
# params only for PKR and R003 and no top-up flag at all): a small table with the seed passages.
#: whether the book lets a cash player add chips between hands (top-up). R003 «AUMENTO DE STACK:
#: Cualquier jugador podrá realizar la incorporación de dinero en efectivo o de fichas a su stack
#: [...] para disponer de él desde la siguiente mano posterior a su anuncio» (seed 003); PKR is
#: silent (None: not stated, so WARNING, never ERROR); online sites add chips themselves (auto
#: top-up), often without writing it.
TOP_UP: dict[str, bool | None] = {"R003": True, "PKR": None, "ONLINE": True}
#: books that state the button rule (BUTTON.WRONG_POSITION: CEP S, PKR S; T09/R003 not stated)
BUTTON_BOOKS = frozenset({"CEP", "PKR"})
#: books that state where new players may be dealt in (BLIND.NEW_PLAYER_POSITION: CEP S, T09 S)
NEW_PLAYER_BOOKS = frozenset({"CEP", "T09"})
#: books that state LEVEL.NEXT_HAND (CEP S, T09 S; cash books n/a)
LEVEL_BOOKS = frozenset({"CEP", "T09"})

#: seed tag -> seed file (the tests read the passages back from these files)
_SEED = SEED_FILES
#: (rule id, book key) -> (seed tag, article title, passage); "*" = any book without its own
_CITES: dict[tuple[str, str], tuple[str, str, str]] = {
    ("STACK.NO_REMOVAL", "PKR"): (
        "002", "REGLAMENTO MESA CASH (bulleted rule)",
        "NO está permitido sacar ni transferir parte de las fichas del Stack de un jugador",
    ),
    ("STACK.NO_REMOVAL", "R003"): (
        "003", "RETIRO DE FICHAS DE LA MESA",
        "No está permitido retirar fichas en juego (stack) por ningún concepto, hasta tanto el jugador no"
        " anuncie su retiro de la mesa",
    ),
    ("STACK.NO_REMOVAL", "*"): (
        "002", "PKR REGLAMENTO MESA CASH (borrowed: the book has no such article)",
        "NO está permitido sacar ni transferir parte de las fichas del Stack de un jugador",
    ),
    ("POT.CHIP_CONSERVATION", "CEP"): (
        "000", "Penalizaciones y Descalificación (chips leave only by a stated removal)",
        "Las fichas de los jugadores descalificados se retirarán del torneo",
    ),
    ("POT.CHIP_CONSERVATION", "T09"): (
        "001", "art. 38 Fichas en Tránsito (chips leave only by a stated removal)",
        "Las fichas retiradas por esta norma serán eliminadas del torneo",
    ),
    ("POT.CHIP_CONSERVATION", "*"): (
        "000", "CEP, Penalizaciones y Descalificación (borrowed: the book has no such article)",
        "Las fichas de los jugadores descalificados se retirarán del torneo",
    ),
    ("STACK.ADD_ON_TIMING", "R003"): (
        "003", "AUMENTO DE STACK",
        "para disponer de él desde la siguiente mano posterior a su anuncio",
    ),
    ("STACK.ADD_ON_TIMING", "*"): (
        "003", "R003 AUMENTO DE STACK (borrowed: the book has no such article)",
        "para disponer de él desde la siguiente mano posterior a su anuncio",
    ),
    ("BUTTON.WRONG_POSITION", "CEP"): (
        "000", "Botón incorrecto",
        "el juego continuará y el botón se moverá en busca de que se jueguen las manos correctas",
    ),
    ("BUTTON.WRONG_POSITION", "PKR"): (
        "002", "REGLAMENTO MESA CASH (bulleted rule)",
        "el botón no se jugó en la posición que correspondía y se puede corregir en la siguiente mano",
    ),
    ("BLIND.NEW_PLAYER_POSITION", "CEP"): (
        "000", "Lista de espera, registro tardío y re-entradas",
        "se les repartirá cartas, excepto cuando estén entre ciega pequeña y botón",
    ),
    ("BLIND.NEW_PLAYER_POSITION", "T09"): (
        "001", "art. 5 Romper Mesas",
        "El único lugar en el que no recibirán cartas es entre la ciega pequeña y el botón",
    ),
    ("BLIND.NEW_PLAYER_POSITION", "*"): (
        "000", "CEP, Lista de espera, registro tardío y re-entradas (the online profile's fallback, TDA 2022 base)",
        "se les repartirá cartas, excepto cuando estén entre ciega pequeña y botón",
    ),
    ("LEVEL.NEXT_HAND", "CEP"): (
        "000", "Nueva Mano y Nuevos Límites",
        "el nuevo nivel se aplicará sobre la siguiente mano. Una mano comienza con el primer barajado",
    ),
    ("LEVEL.NEXT_HAND", "T09"): (
        "001", "art. 18 Cambio de Nivel",
        "éste se aplicará en la mano siguiente. La mano empieza con el primer barajado",
    ),
    ("LEVEL.NEXT_HAND", "*"): (
        "000", "CEP, Nueva Mano y Nuevos Límites (the online profile's fallback, TDA 2022 base)",
        "el nuevo nivel se aplicará sobre la siguiente mano. Una mano comienza con el primer barajado",
    ),
    ("ALLIN.HIDDEN_CHIPS", "CEP"): (
        "000", "All-in con fichas escondidas",
        "el director del torneo determinará si la ficha forma parte de la apuesta o no",
    ),
    ("ALLIN.HIDDEN_CHIPS", "PKR"): (
        "002", "REGLAMENTO MESA CASH (bulleted rule)",
        "las fichas no harán parte del pozo y este jugador podrá ser sancionado",
    ),
    ("TOURNEY.LATE_REG_REENTRY", "CEP"): (
        "000", "Re-entry",
        "se le asignará un sitio nuevo diferente del anterior",
    ),
    ("BLIND.ABSENT_PLAYER", "CEP"): (
        "000", "Abandono del torneo",
        "Las fichas de dicho jugador se seguirán retirando en los turnos en los que le correspondería poner las"
        " ciegas y/o antes",
    ),
    ("BLIND.ABSENT_PLAYER", "R003"): (
        "003", "JUGADOR EN PAUSA",
        "se le haya descontado una ciega grande y una pequeña, pasará a ser un",
    ),
    ("BLIND.ABSENT_PLAYER", "R003+30"): (
        "003", "JUGADOR AUSENTE",
        "Pasados 30 minutos de ausencia, el Jefe de Sala de acuerdo a las circunstancias intervendrá para definir"
        " la permanencia del jugador en la mesa",
    ),
    ("BLIND.ABSENT_PLAYER", "*"): (
        "000", "CEP, Abandono del torneo (borrowed: the book has no such article)",
        "Las fichas de dicho jugador se seguirán retirando en los turnos en los que le correspondería poner las"
        " ciegas y/o antes",
    ),
    ("TOURNEY.CHIP_RACE", "T09"): (
        "001", "art. 16 Chip-Race",
        "El chip race comienza siempre en el asiento Nº 1",
    ),
    ("TOURNEY.CHIP_RACE", "*"): (
        "000", "Cambio de Fichas Programadas",
        "empezando por el sitio 1, con un máximo de una ficha adjudicada por jugador",
    ),
}


def cite(rule_id: str, key: str) -> str:
    """`` — <rulebook>, <article>: [seed] «passage»``: what every continuity finding ends with."""
    tag, article, passage = _CITES.get((rule_id, key)) or _CITES[(rule_id, "*")]
    return citation(key, article, SEED_FILES[tag], passage)


@cache
def stack_params(name: str) -> dict[str, Any]:
    """The profile's ``params.stack`` (PKR/R003: ``no_removal``), read from its YAML because
    ``rules.profiles.Profile`` does not carry it."""
    base = name.split("+", 1)[0]
    path = PROFILE_DIR / f"{base}.yaml"
    if not path.exists():
        return {}
    with path.open(encoding="utf-8") as fh:
        doc = yaml.safe_load(fh) or {}
    return dict((doc.get("params") or {}).get("stack") or {})


# --- SQL -------------------------------------------------------------------------------------------

#: hand number: the whole id when numeric, or the digits after a letter prefix or the last ':', '#'
#: or '-' (ACPC "match:17", GG "TM123"); hash-like ids (PHH, PokerNow) have none
_NUMBER = r"TRY_CAST(regexp_extract(h.site_hand_no, '^(?:[A-Za-z]*|.*[:#-])([0-9]{1,18})$', 1) AS BIGINT)"

_HANDS_SQL = f"""
CREATE OR REPLACE TEMP TABLE _cx_hand AS
WITH h AS (
    SELECT h.hand_id, h.site, h.format, h.game_type, h.tournament_id, h.table_name, h.started_at,
           h.site_hand_no, h.source_file, h.byte_offset, h.byte_length, h.button_seat, h.sb, h.bb,
           h.ante, h.cancelled, h.hero, {_NUMBER} AS n, coalesce(r.status, 'ok') = 'mismatch' AS unbalanced
    FROM hands h LEFT JOIN reconciliation r USING (hand_id)
)
-- hx numbers every hand in table-and-time order, so a hand's predecessor at its table is hx - 1
SELECT *, row_number() OVER (ORDER BY site, coalesce(tournament_id, ''), table_name, started_at NULLS FIRST,
                                      n NULLS FIRST, site_hand_no, hand_id) AS hx,
       dense_rank() OVER (ORDER BY site, coalesce(tournament_id, ''), table_name) AS stream
FROM h
"""

#: per seat of every hand: start stack, computed end stack, posts, all-in, dealt in; and the same
#: player's row at the same seat in the table's previous hand (``p_*``; ``p_hx = hx - 1`` when they
#: sat there, else NULL: an integer self-join, cheaper than a window over player names)
_SEATS_SQL = """
CREATE OR REPLACE TEMP TABLE _cx_seat AS
WITH c AS (
    SELECT hand_id, player, sum(contribution) AS put,
           sum(CASE WHEN kind = 'cash_out' THEN amount ELSE 0 END) AS paid_out,
           bool_or(all_in) AS all_in, bool_or(kind = 'post_sb') AS sb, bool_or(kind = 'post_bb') AS bb,
           bool_or(kind NOT IN ('show', 'muck', 'cash_out', 'uncalled_return')) AS acted
    FROM actions GROUP BY ALL
), a AS (SELECT hand_id, player, sum(amount) AS won FROM awards GROUP BY ALL),
s AS (
    SELECT h.hx, h.stream, s.seat_no, s.player, s.stack, s.sitting_out, s.final_stack,
           s.stack - coalesce(c.put, 0) + coalesce(a.won, 0) + coalesce(c.paid_out, 0) AS end_stack,
           coalesce(c.all_in, false) AS all_in, coalesce(c.sb, false) AS posted_sb,
           coalesce(c.bb, false) AS posted_bb, coalesce(c.acted, false) AS acted, coalesce(a.won, 0) AS won
    FROM seats s JOIN _cx_hand h USING (hand_id)
    LEFT JOIN c USING (hand_id, player) LEFT JOIN a USING (hand_id, player)
)
SELECT c.*, p.hx AS p_hx, p.end_stack AS p_end, p.final_stack AS p_final, p.all_in AS p_all_in, p.won AS p_won
FROM s c LEFT JOIN s p ON p.hx = c.hx - 1 AND p.stream = c.stream AND p.seat_no = c.seat_no AND p.player = c.player
"""

#: every hand with the one before it at its table, and how far the export proves they follow
_PAIRS_SQL = f"""
CREATE OR REPLACE TEMP TABLE _cx_pair AS
WITH p AS (
    SELECT c.*, p.hand_id AS prev_id, p.n AS prev_n, p.source_file AS prev_file,
           p.byte_offset AS prev_off, p.byte_length AS prev_len, p.button_seat AS prev_button,
           p.sb AS prev_sb_amt, p.bb AS prev_bb_amt, p.ante AS prev_ante, p.cancelled AS prev_cancelled,
           p.unbalanced AS prev_unbalanced, c.n - p.n AS diff,
           epoch(c.started_at) - epoch(p.started_at) AS gap_s
    FROM _cx_hand c JOIN _cx_hand p ON p.hx = c.hx - 1 AND p.stream = c.stream
), streams AS (
    SELECT stream, count(*) FILTER (WHERE diff = 1) >= {COUNTER_SHARE} * count(*) AS counter
    FROM p GROUP BY stream
), orderable AS (
    SELECT stream, count(started_at) = count(*) OR count(n) = count(*) AS ordered
    FROM _cx_hand GROUP BY stream
), reset AS (
    SELECT stream, min(stack) = max(stack) AS reset FROM _cx_seat GROUP BY stream
), moved AS (
    -- the next seat clockwise after the previous button held by the same player in both hands
    SELECT s.hx, arg_min(s.seat_no, (s.seat_no - p.prev_button + 1000) % 1000) AS next_seat
    FROM _cx_seat s JOIN p USING (hx)
    WHERE s.p_hx = s.hx - 1 AND s.seat_no <> p.prev_button GROUP BY s.hx
), sb AS (SELECT hx, min(seat_no) AS sb_seat FROM _cx_seat WHERE posted_sb GROUP BY hx)
SELECT p.*, st.counter, o.ordered, r.reset, m.next_seat, ps.sb_seat AS prev_sb_seat, cs.sb_seat,
       CASE
           WHEN NOT o.ordered THEN 'unordered'
           WHEN p.diff = 1 THEN 'proven'
           WHEN st.counter THEN 'gap'
           WHEN p.gap_s IS NOT NULL AND (p.gap_s > {MAX_GAP_S} OR p.gap_s < 0) THEN 'gap'
           WHEN p.source_file <> p.prev_file THEN 'gap'
           -- a dead button moves to the previous small blind's seat, a cash button to the next player
           WHEN p.button_seat IS NOT NULL AND p.prev_button IS NOT NULL
                AND (p.button_seat = m.next_seat OR p.button_seat = ps.sb_seat) THEN 'likely'
           ELSE 'gap'
       END AS proof
FROM p JOIN streams st USING (stream) JOIN orderable o USING (stream) JOIN reset r USING (stream)
LEFT JOIN moved m USING (hx) LEFT JOIN sb ps ON ps.hx = p.hx - 1 LEFT JOIN sb cs ON cs.hx = p.hx
"""

#: players whose start stack is not their end stack in the previous hand of the pair. On a pair only
#: the button proves (``likely``), one player must be alone in moving: a missing hand moves at least
#: the two blinds' stacks, so two or more moved stacks there mean a gap, not two breaches.
_MOVED_SQL = """
CREATE OR REPLACE TEMP TABLE _cx_moved AS
SELECT p.hand_id, p.prev_id, p.proof, p.site, p.table_name, p.tournament_id, p.game_type, p.format,
       p.source_file, p.byte_offset, p.byte_length, p.prev_file, p.prev_off, p.prev_len, p.hero,
       s.player, s.seat_no, s.stack, s.p_end AS end_stack, s.p_final AS final_stack, s.p_all_in AS all_in,
       s.p_won AS won, p.bb <> p.prev_bb_amt OR p.sb <> p.prev_sb_amt OR p.ante <> p.prev_ante AS level_change,
       p.prev_sb_amt, p.site_hand_no, count(*) OVER (PARTITION BY p.hx) AS moved_in_pair
FROM _cx_seat s JOIN _cx_pair p USING (hx)
WHERE s.p_hx = s.hx - 1 AND p.proof IN ('proven', 'likely') AND NOT p.reset AND NOT p.prev_cancelled
  AND NOT p.prev_unbalanced AND s.stack <> s.p_end AND s.stack IS DISTINCT FROM s.p_final
"""
_STACKS_SQL = """
SELECT * FROM _cx_moved WHERE proof = 'proven' OR moved_in_pair = 1 ORDER BY hand_id, seat_no
"""
_COMPARED_SQL = """
SELECT p.proof, count(*) FROM _cx_seat s JOIN _cx_pair p USING (hx)
WHERE s.p_hx = s.hx - 1 AND p.proof IN ('proven', 'likely') AND NOT p.reset AND NOT p.prev_cancelled
  AND NOT p.prev_unbalanced
GROUP BY 1
"""
_STREAMS_SQL = """
SELECT count(*) AS streams,
       count(*) FILTER (WHERE hands > 1) AS multi,
       count(*) FILTER (WHERE hands > 1 AND NOT ordered) AS unordered
FROM (SELECT stream, count(*) AS hands, count(started_at) = count(*) OR count(n) = count(*) AS ordered
      FROM _cx_hand GROUP BY stream)
"""
#: proven pairs whose button is not where the previous hand puts it: a dead button (tournaments)
#: moves to the seat of the previous small blind; heads-up (the button posted the small blind) it
#: moves to the other player
_BUTTON_WHERE = """
p.proof = 'proven' AND p.button_seat IS NOT NULL AND p.prev_button IS NOT NULL AND p.next_seat IS NOT NULL
  AND NOT p.cancelled AND NOT p.prev_cancelled
  -- the button stopped at a player new to a seat on its way: whether it may is house practice
  AND NOT EXISTS (SELECT 1 FROM _cx_seat n WHERE n.hx = p.hx AND n.p_hx IS NULL AND n.seat_no = p.button_seat
                  AND (n.seat_no - p.prev_button + 1000) % 1000 > 0
                  AND (n.seat_no - p.prev_button + 1000) % 1000 <= (p.next_seat - p.prev_button + 1000) % 1000)
"""
_BUTTON_WRONG = """
NOT (CASE WHEN p.game_type = 'tournament' AND p.prev_sb_seat IS NOT NULL AND p.prev_sb_seat <> p.prev_button
          THEN p.button_seat = p.prev_sb_seat
          -- a dead small blind last hand (its player gone, nobody posted it): the dead button moves onto
          -- that empty seat, past the previous button and before the next seated player (CEP «Botón
          -- muerto es aquel que no puede avanzar debido a la eliminación de un jugador»; OnGame MTTs)
          WHEN p.game_type = 'tournament' AND p.prev_sb_seat IS NULL
          THEN p.button_seat = p.next_seat OR (
               (p.button_seat - p.prev_button + 1000) % 1000 > 0
               AND (p.button_seat - p.prev_button + 1000) % 1000 < (p.next_seat - p.prev_button + 1000) % 1000
               AND NOT EXISTS (SELECT 1 FROM _cx_seat e WHERE e.hx = p.hx AND e.seat_no = p.button_seat))
          -- cash: a moving button (next player) or a dead one (the previous small blind's seat), as
          -- the house plays it; neither book says which
          ELSE p.button_seat = p.next_seat OR p.button_seat IS NOT DISTINCT FROM p.prev_sb_seat END)
"""
_BUTTON_SQL = f"""
SELECT p.hand_id, p.site, p.table_name, p.tournament_id, p.game_type, p.format,
       p.prev_button, p.button_seat, p.next_seat, p.prev_sb_seat
FROM _cx_pair p WHERE {_BUTTON_WHERE} AND {_BUTTON_WRONG} ORDER BY p.hand_id
"""
_BUTTONS_SEEN_SQL = f"""
SELECT count(*), count(*) FILTER (WHERE {_BUTTON_WRONG}) FROM _cx_pair p WHERE {_BUTTON_WHERE}
"""
#: tournament hands: a player not seated in the previous hand, dealt in while seated after the button
#: and before the small blind
_NEW_PLAYER_SQL = """
SELECT p.hand_id, p.proof, p.site, p.table_name, p.tournament_id, p.game_type, p.format,
       s.player, s.seat_no, p.button_seat, p.sb_seat
FROM _cx_pair p JOIN _cx_seat s USING (hx)
WHERE p.game_type = 'tournament' AND p.proof IN ('proven', 'likely') AND p.button_seat IS NOT NULL
  AND p.sb_seat IS NOT NULL AND NOT p.cancelled AND s.acted AND NOT s.sitting_out
  AND ((s.seat_no - p.button_seat + 1000) % 1000) > 0
  AND ((s.seat_no - p.button_seat + 1000) % 1000) < ((p.sb_seat - p.button_seat + 1000) % 1000)
  AND NOT EXISTS (SELECT 1 FROM _cx_seat q WHERE q.hx = p.hx - 1 AND q.player = s.player)
ORDER BY p.hand_id, s.seat_no
"""
#: tournament hands: a player sitting out, seated in the previous hand too, whose seat the big blind
#: passed over (strictly between the previous and this hand's big blind, clockwise): their blind was
#: not taken
_ABSENT_SQL = """
WITH bb AS (SELECT hx, min(seat_no) AS bb_seat FROM _cx_seat WHERE posted_bb GROUP BY hx)
SELECT p.hand_id, p.proof, p.site, p.table_name, p.tournament_id, p.game_type, p.format,
       s.player, s.seat_no, cb.bb_seat, pb.bb_seat AS prev_bb_seat
FROM _cx_pair p JOIN bb pb ON pb.hx = p.hx - 1 JOIN bb cb ON cb.hx = p.hx JOIN _cx_seat s ON s.hx = p.hx
WHERE p.game_type = 'tournament' AND p.proof IN ('proven', 'likely') AND NOT p.cancelled
  AND s.sitting_out AND NOT s.posted_bb AND s.p_hx = s.hx - 1
  AND (s.seat_no - pb.bb_seat + 1000) % 1000 > 0
  AND (s.seat_no - pb.bb_seat + 1000) % 1000 < (cb.bb_seat - pb.bb_seat + 1000) % 1000
ORDER BY p.hand_id, s.seat_no
"""
#: cash hands: a run of consecutive hands a player sits out at the same seat ("paused"), with the
#: blinds they post in it and how long it has lasted
_PAUSED_SQL = """
WITH so AS (
    SELECT s.hx, s.stream, s.player, s.seat_no, s.posted_sb, s.posted_bb, h.hand_id, h.site, h.table_name,
           h.tournament_id, h.game_type, h.format, h.started_at,
           s.hx - row_number() OVER (PARTITION BY s.stream, s.player, s.seat_no ORDER BY s.hx) AS island
    FROM _cx_seat s JOIN _cx_hand h USING (hx)
    WHERE s.sitting_out AND h.game_type = 'cash'
), runs AS (
    SELECT *, sum(posted_bb::INT) OVER w AS bbs, sum(posted_sb::INT) OVER w AS sbs,
           epoch(started_at) - epoch(min(started_at) OVER w) AS paused_s,
           epoch(lag(started_at) OVER w) - epoch(min(started_at) OVER w) AS paused_before_s
    FROM so WINDOW w AS (PARTITION BY stream, player, seat_no, island ORDER BY hx)
)
SELECT r.*, coalesce(p.proof, 'gap') AS proof FROM runs r LEFT JOIN _cx_pair p USING (hx)
WHERE (r.posted_bb AND r.bbs > 1) OR (r.posted_sb AND r.sbs > 1)
   OR (r.paused_s > 1800 AND coalesce(r.paused_before_s, 0) <= 1800)
ORDER BY r.hand_id
"""
#: tournament hands played at lower blinds than a hand of the same tournament that started earlier
#: (any table): the new level applies from the next hand, so an older level after it is out of order
_LEVEL_SQL = """
WITH t AS (
    SELECT hand_id, site, tournament_id, table_name, game_type, format, started_at, sb, bb, variant, betting,
           max(bb) OVER (PARTITION BY site, tournament_id, variant, betting ORDER BY epoch(started_at)
                         RANGE BETWEEN UNBOUNDED PRECEDING AND 2 PRECEDING) AS earlier_bb
    FROM hands
    WHERE game_type = 'tournament' AND tournament_id IS NOT NULL AND started_at IS NOT NULL AND NOT cancelled
)
SELECT hand_id, site, tournament_id, table_name, game_type, format, started_at, sb, bb, earlier_bb
FROM t WHERE bb < earlier_bb ORDER BY hand_id
"""
#: hands where a player put in more than the stack they started with (the within-hand check reports
#: the overdraw); with a rebuy or add-on written inside that hand, the added chips were used at once
_OVERDRAWN_SQL = """
WITH o AS (SELECT hand_id FROM reconciliation WHERE overdrawn > 0),
c AS (SELECT hand_id, player, sum(contribution) AS put FROM actions SEMI JOIN o USING (hand_id) GROUP BY ALL)
SELECT h.hand_id, h.site, h.table_name, h.tournament_id, h.game_type, h.format, h.source_file,
       h.byte_offset, h.byte_length, s.player, s.stack, c.put
FROM c JOIN hands h USING (hand_id) JOIN seats s USING (hand_id, player)
WHERE c.put > s.stack
ORDER BY h.hand_id
"""


# --- reading what the export wrote -----------------------------------------------------------------

_ADD_WORDS = (
    r"(?:re-?buys|rebuys?|adds|added|brings (?!in\b)|tops? up|takes the add-on|: (?:Double )?[Rr]ebuyin|: Addon"
    r"|: Double rebuys)"
)


#: the file's own player, where the export names seats by position (Bovada: "UTG+3 [ME] : Rebuyin 1500")
_HERO_ADDS = r"|^\S.*\[ME\]\s*:\s*(?:Rebuyin|Addon|Double rebuys)"


def _adds_pattern(player: str, hero: bool = False) -> re.Pattern[str]:
    own = r"^\s*" + re.escape(player) + r"(?: \[ME\])?\s*:?\s*" + _ADD_WORDS
    return re.compile("(?m)" + own + (_HERO_ADDS if hero else ""))


def _read(path: str, start: int, stop: int) -> str:
    if stop <= start:
        return ""
    try:
        with Path(path).open("rb") as fh:
            fh.seek(max(start, 0))
            raw = fh.read(min(stop - start, MAX_TEXT))
    except OSError:
        return ""
    return raw.decode("utf-8", errors="replace")


def _text_decides(row: dict[str, Any], book: str) -> bool:
    """Whether a written rebuy can change the finding: not for a cash stack in a book that allows
    top-ups anyway (online: most of the grown stacks), so their files are not read."""
    return row["game_type"] != "cash" or not TOP_UP.get(load_profile(book).key)


def written_add(row: dict[str, Any]) -> bool:
    """Whether the export writes a rebuy, add-on or top-up by the row's player in the previous hand,
    between the two hands (same file) or in the current hand before its first action."""
    pat = _adds_pattern(row["player"], hero=row.get("hero") == row["player"])
    texts = [_read(row["prev_file"], row["prev_off"], row["prev_off"] + row["prev_len"]),
             _read(row["source_file"], row["byte_offset"], row["byte_offset"] + row["byte_length"])]
    if row["prev_file"] == row["source_file"]:
        texts.append(_read(row["source_file"], row["prev_off"] + row["prev_len"], row["byte_offset"]))
    return any(pat.search(t) for t in texts)


def written_in_hand(row: dict[str, Any]) -> bool:
    """Whether the hand's own text writes a rebuy/add-on/top-up by the row's player."""
    text = _read(row["source_file"], row["byte_offset"], row["byte_offset"] + row["byte_length"])
    return bool(_adds_pattern(row["player"]).search(text))


# --- severities ------------------------------------------------------------------------------------


@dataclass
class ContinuityResult:
    """The findings (each with the rulebook it was judged under) and what was looked at."""

    findings: list[tuple[Finding, str]] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)




def _finding(hand_id: str, rule: str, sev: str, outcomes: str | None, expected: str, actual: str,
             message: str) -> Finding:
    return Finding(hand_id, None, rule, sev, sev == REVIEW, outcomes if sev == REVIEW else None,
                   expected, actual, message)


def _sure(sev: str, proof: str) -> str:
    """An ERROR only on a pair the numbers prove consecutive; a button-only proof is a likely breach
    with data that may be incomplete (matrix §0.5: WARNING)."""
    return sev if proof == "proven" or sev != ERROR else WARNING


def site_anomaly(row: dict[str, Any]) -> str:
    """What the export got wrong, named for the DATA finding (the issue asks each one to say)."""
    delta = int(row["stack"]) - int(row["end_stack"])
    won = int(row["won"] or 0)
    if delta < 0 and won > 0 and -delta * 10 <= won:
        return "site: the collection is written before a rake or drop the hand never writes"
    if delta < 0:
        return "site: stack smaller than the previous hand left it, no event written (stale stack)"
    if int(row["end_stack"]) == 0:
        return "site: a busted player plays on with chips, no rebuy written"
    return "site: chips added with no rebuy, add-on or top-up written"


def _head(row: dict[str, Any]) -> tuple[str, str, str]:
    delta = int(row["stack"]) - int(row["end_stack"])
    where = f"{row['player']} (seat {row['seat_no']}) at {row['table_name'] or row['site']}"
    proof = "hand numbers consecutive" if row["proof"] == "proven" else "button moved one step, same file"
    head = (f"{where}: ended hand {row['prev_id']} with {fmt(row['end_stack'])} and starts this hand with"
            f" {fmt(row['stack'])} ({proof})")
    return head, f"start stack {fmt(row['end_stack'])}", f"start stack {fmt(row['stack'])} ({delta:+,})"


def _colour_up(row: dict[str, Any], key: str) -> Finding | None:
    """A live tournament stack that moved by less than one small blind across a level change: a
    colour-up remainder or chip-race chip the record does not log (TD to confirm)."""
    delta = int(row["stack"]) - int(row["end_stack"])
    if key == "ONLINE" or not row["level_change"] or abs(delta) >= int(row["prev_sb_amt"] or 0):
        return None
    head, exp, act = _head(row)
    what = "a chip race award" if delta > 0 else "a colour-up remainder"
    return _finding(row["hand_id"], "TOURNEY.CHIP_RACE", REVIEW,
                    "chip_race_award|unexplained_chips" if delta > 0 else "colour_up_remainder|chip_removal",
                    exp, act, f"{head}; at a level change, less than one small blind: {what} the record does"
                    " not log, for the TD to confirm." + cite("TOURNEY.CHIP_RACE", key))


def _grown(row: dict[str, Any], key: str, written: bool) -> Finding | None:
    head, exp, act = _head(row)
    hand, proof = row["hand_id"], row["proof"]
    busted_back = int(row["end_stack"]) == 0 and bool(row["all_in"])
    if row["game_type"] == "tournament":
        if written:
            if key == "CEP" and busted_back:  # CEP events re-enter, never rebuy in the seat they lost
                return _finding(hand, "TOURNEY.LATE_REG_REENTRY", _sure(ERROR, proof), None,
                                "a re-entry seated at a new seat", f"back in seat {row['seat_no']}",
                                head + "; the player lost every chip and buys back in at the same seat."
                                + cite("TOURNEY.LATE_REG_REENTRY", key))
            return None  # the export writes the rebuy / add-on
        if key == "ONLINE":
            return _finding(hand, "POT.CHIP_CONSERVATION", DATA, None, exp, f"{act}; {site_anomaly(row)}",
                            head + "; no rebuy or add-on is written and the site's software alone moves"
                            " tournament chips, so the export omits the event." + cite("POT.CHIP_CONSERVATION", key))
        if busted_back and key == "CEP":
            return _finding(hand, "ALLIN.HIDDEN_CHIPS", REVIEW, "chips_part_of_the_bet|chips_not_part_of_the_bet",
                            exp, act, head + "; all in and lost, yet back with chips and nothing written: chips"
                            " hidden behind the all-in, which the TD rules on." + cite("ALLIN.HIDDEN_CHIPS", key))
        return _colour_up(row, key) or _finding(
            hand, "POT.CHIP_CONSERVATION", _sure(ERROR, proof), None, exp, act,
            head + "; chips appeared with no rebuy or add-on written." + cite("POT.CHIP_CONSERVATION", key))
    if written or TOP_UP.get(key):
        return None  # a written rebuy, or a top-up this book allows (R003: usable from the next hand)
    if busted_back and key == "PKR":
        return _finding(hand, "ALLIN.HIDDEN_CHIPS", REVIEW, "hidden_chips_out_of_the_pot|unwritten_rebuy", exp, act,
                        head + "; all in and lost, yet back with chips and nothing written: hidden chips (which"
                        " PKR keeps out of the pot) or a rebuy the record misses, for the floor."
                        + cite("ALLIN.HIDDEN_CHIPS", key))
    return _finding(hand, "POT.CHIP_CONSERVATION", WARNING, None, exp, act,
                    head + "; chips appeared with no top-up written, and the book does not say whether a player"
                    " may add chips between hands (not stated: WARNING)." + cite("STACK.ADD_ON_TIMING", key))


def _shrunk(row: dict[str, Any], key: str, book: str) -> Finding | None:
    head, exp, act = _head(row)
    hand, proof = row["hand_id"], row["proof"]
    tourney = row["game_type"] == "tournament"
    if key == "ONLINE":
        rule = "POT.CHIP_CONSERVATION" if tourney else "STACK.NO_REMOVAL"
        return _finding(hand, rule, DATA, None, exp, f"{act}; {site_anomaly(row)}",
                        head + "; the site's software lets no chips leave a seated player's stack, so the export"
                        " disagrees with itself." + cite(rule, key))
    if tourney:
        return _colour_up(row, key) or _finding(
            hand, "POT.CHIP_CONSERVATION", _sure(ERROR, proof), None, exp, act,
            head + "; chips left a tournament stack with no removal written." + cite("POT.CHIP_CONSERVATION", key))
    stated = bool(stack_params(book).get("no_removal"))
    return _finding(hand, "STACK.NO_REMOVAL", _sure(ERROR, proof) if stated else WARNING, None, exp, act,
                    head + "; chips left the table while the player stayed seated (ratholing)."
                    + ("" if stated else " The book does not state the rule: WARNING.")
                    + cite("STACK.NO_REMOVAL", key))


def stack_finding(row: dict[str, Any], book: str, written: bool) -> Finding | None:
    """The finding for one player whose stack moved between two consecutive hands (None: allowed).

    ``written``: the export writes a rebuy, add-on or top-up by the player around the pair."""
    key = load_profile(book).key
    if int(row["stack"]) > int(row["end_stack"]):
        return _grown(row, key, written)
    return _shrunk(row, key, book)


def button_finding(row: dict[str, Any], book: str) -> Finding | None:
    """BUTTON.WRONG_POSITION on a proven pair, under the books that state it (CEP, PKR). A button that
    did not move at all is WARNING: a redeal of a misdealt hand keeps it (and the record does not log
    misdeals), as may a house going from heads-up to three players."""
    key = load_profile(book).key
    if key not in BUTTON_BOOKS:
        return None
    dead = row["game_type"] == "tournament" and row["prev_sb_seat"] not in (None, row["prev_button"])
    want = row["prev_sb_seat"] if dead else row["next_seat"]
    stayed = row["button_seat"] == row["prev_button"]
    remedy = ("found before substantial action the hand is a misdeal; after it, play continues and the"
              " button is moved so every player plays the positions due" if key == "CEP"
              else "the button is corrected on the next hand, respecting each player's right to that position")
    note = (" The button did not move: a redeal keeps it, which the record would not show." if stayed else "")
    return _finding(row["hand_id"], "BUTTON.WRONG_POSITION", WARNING if stayed else ERROR, None,
                    f"button at seat {want}", f"button at seat {row['button_seat']}",
                    f"The previous hand had the button at seat {row['prev_button']}, so this one puts it at"
                    f" seat {want}; it is at seat {row['button_seat']} ({remedy}).{note}"
                    + cite("BUTTON.WRONG_POSITION", key))


def new_player_finding(row: dict[str, Any], book: str) -> Finding | None:
    """BLIND.NEW_PLAYER_POSITION: a new tournament player dealt in between the button and the SB."""
    key = load_profile(book).key
    if key == "ONLINE":
        sev = WARNING  # the site's own seating rule, not a book's: a likely breach at most
    elif key in NEW_PLAYER_BOOKS:
        sev = _sure(ERROR, row["proof"])
    else:
        return None
    return _finding(row["hand_id"], "BLIND.NEW_PLAYER_POSITION", sev, None,
                    f"{row['player']} not dealt in until the button passes",
                    f"{row['player']} dealt in at seat {row['seat_no']} (button {row['button_seat']},"
                    f" small blind {row['sb_seat']})",
                    f"{row['player']} was not seated in the previous hand and is dealt in at seat"
                    f" {row['seat_no']}, between the button and the small blind."
                    + cite("BLIND.NEW_PLAYER_POSITION", key))


def absent_finding(row: dict[str, Any], book: str) -> Finding | None:
    """BLIND.ABSENT_PLAYER (CEP): an absent tournament player keeps paying the blinds."""
    key = load_profile(book).key
    if key == "CEP":
        sev = _sure(ERROR, row["proof"])
    elif key in ("T09", "ONLINE"):
        sev = WARNING  # T09 deals absent players in but says nothing of their blinds; sites: their rule
    else:
        return None
    return _finding(row["hand_id"], "BLIND.ABSENT_PLAYER", sev, None,
                    f"{row['player']} (seat {row['seat_no']}, sitting out) posts the big blind",
                    f"the big blind moved from seat {row['prev_bb_seat']} to seat {row['bb_seat']}",
                    f"{row['player']} sits out at seat {row['seat_no']}, which the big blind passed over: an absent"
                    " player's blinds are still taken." + cite("BLIND.ABSENT_PLAYER", key))


def paused_finding(row: dict[str, Any], book: str) -> Finding | None:
    """BLIND.ABSENT_PLAYER (R003): a paused cash player pays one SB and one BB, then is absent (not
    dealt, not charged); after 30 minutes the floor decides on the seat."""
    if load_profile(book).key != "R003" or row["proof"] not in ("proven", "likely"):
        return None
    who = f"{row['player']} (seat {row['seat_no']})"
    if (row["posted_bb"] and row["bbs"] > 1) or (row["posted_sb"] and row["sbs"] > 1):
        blind = "big" if row["posted_bb"] and row["bbs"] > 1 else "small"
        return _finding(row["hand_id"], "BLIND.ABSENT_PLAYER", _sure(ERROR, row["proof"]), None,
                        "one small and one big blind, then not charged",
                        f"a second {blind} blind charged while paused",
                        f"{who} sits out and is charged the {blind} blind a second time: after one big and one"
                        " small blind a paused player is absent and not charged." + cite("BLIND.ABSENT_PLAYER", "R003"))
    return _finding(row["hand_id"], "BLIND.ABSENT_PLAYER", REVIEW, "keeps_seat|seat_released",
                    "the floor rules on the seat", f"sitting out for {int(row['paused_s']) // 60} min",
                    f"{who} has sat out for more than 30 minutes: the floor decides whether the player keeps"
                    " the seat." + cite("BLIND.ABSENT_PLAYER", "R003+30"))


def level_finding(row: dict[str, Any], book: str) -> Finding | None:
    """LEVEL.NEXT_HAND: a tournament hand at lower blinds than one that started earlier."""
    key = load_profile(book).key
    if key == "ONLINE":
        sev = DATA  # the site's clock drives the level: an older level later is its export's order
    elif key in LEVEL_BOOKS:
        sev = WARNING  # no shuffle timestamps (T2): the hand start stands in for the first shuffle
    else:
        return None
    return _finding(row["hand_id"], "LEVEL.NEXT_HAND", sev, None,
                    f"big blind at least {fmt(row['earlier_bb'])}", f"big blind {fmt(row['bb'])}",
                    f"Tournament {row['tournament_id']}: a hand started earlier already played a big blind of"
                    f" {fmt(row['earlier_bb'])}; this later hand plays {fmt(row['bb'])}, an older level."
                    + cite("LEVEL.NEXT_HAND", key))


def add_on_finding(row: dict[str, Any], book: str) -> Finding | None:
    """STACK.ADD_ON_TIMING: chips added during a hand (written in its text) already used in it."""
    key = load_profile(book).key
    sev = ERROR if key == "R003" else DATA if key == "ONLINE" else WARNING
    return _finding(row["hand_id"], "STACK.ADD_ON_TIMING", sev, None,
                    f"at most {fmt(row['stack'])} in (the stack the hand started with)",
                    f"{fmt(row['put'])} in, with chips added during the hand",
                    f"{row['player']} adds chips during this hand and puts in {fmt(row['put'])} from a"
                    f" {fmt(row['stack'])} start: the added chips are usable from the next hand."
                    + cite("STACK.ADD_ON_TIMING", key))


# --- the check -------------------------------------------------------------------------------------


def continuity_findings(
    con: duckdb.DuckDBPyConnection, rulebook: str | None, pmap: ProfileMap
) -> ContinuityResult:
    """Every cross-hand finding of the warehouse, and the counts the run report shows."""
    out = ContinuityResult()
    name_for = namer(rulebook, pmap)
    try:
        for sql in (_HANDS_SQL, _SEATS_SQL, _PAIRS_SQL, _MOVED_SQL):
            con.execute(sql)
        stacks = rows(con, _STACKS_SQL)
        grown = [r for r in stacks if int(r["stack"]) > int(r["end_stack"]) and _text_decides(r, name_for(r))]
        written = {(r["hand_id"], r["player"]) for r in grown if written_add(r)}
        emit(out.findings, stacks, name_for, lambda r, b: stack_finding(r, b, (r["hand_id"], r["player"]) in written))
        emit(out.findings, rows(con, _BUTTON_SQL), name_for, button_finding)
        emit(out.findings, rows(con, _NEW_PLAYER_SQL), name_for, new_player_finding)
        emit(out.findings, rows(con, _LEVEL_SQL), name_for, level_finding)
        emit(out.findings, rows(con, _ABSENT_SQL), name_for, absent_finding)
        emit(out.findings, rows(con, _PAUSED_SQL), name_for, paused_finding)
        emit(out.findings, (r for r in rows(con, _OVERDRAWN_SQL) if written_in_hand(r)), name_for, add_on_finding)
        out.stats = _stats(con, stacks, len(written), out.findings)
    finally:
        for t in ("_cx_moved", "_cx_pair", "_cx_seat", "_cx_hand"):
            con.execute(f"DROP TABLE IF EXISTS {t}")
    return out


def _stats(con: duckdb.DuckDBPyConnection, stacks: list[dict[str, Any]], written: int,
           findings: list[tuple[Finding, str]]) -> dict[str, Any]:
    row = con.execute(_STREAMS_SQL).fetchone() or (0, 0, 0)
    proofs = dict(con.execute("SELECT proof, count(*) FROM _cx_pair GROUP BY 1").fetchall())
    checked = con.execute(
        "SELECT count(DISTINCT stream) FROM _cx_pair WHERE proof IN ('proven', 'likely') AND NOT reset"
    ).fetchone()
    reset = con.execute("SELECT count(DISTINCT stream) FROM _cx_pair WHERE reset").fetchone()
    compared = dict(con.execute(_COMPARED_SQL).fetchall())
    crowded = con.execute(
        "SELECT count(DISTINCT hand_id) FROM _cx_moved WHERE proof = 'likely' AND moved_in_pair > 1"
    ).fetchone()
    buttons = con.execute(_BUTTONS_SEEN_SQL).fetchone() or (0, 0)
    by_rule: Counter[str] = Counter(f"{f.rule_id}/{f.severity}" for f, _ in findings)
    return {
        "tables": int(row[0]),
        "tables_with_pairs": int(row[1]),
        "tables_unordered": int(row[2]),
        "tables_reset_stacks": int(reset[0]) if reset else 0,
        "tables_checked": int(checked[0]) if checked else 0,
        "pairs": {str(k): int(v) for k, v in sorted(proofs.items())},
        "players_compared": {str(k): int(v) for k, v in sorted(compared.items())},
        "likely_pairs_with_several_moves": int(crowded[0]) if crowded else 0,
        "stack_moves": len(stacks),
        "buttons_compared": int(buttons[0] or 0),
        "buttons_unexpected": int(buttons[1] or 0),
        "written_adds": written,
        "findings": dict(sorted(by_rule.items())),
    }
