"""Checks that read one hand's stored record in SQL: the cards dealt, tabled and paid, and misdeals.

Why SQL over the warehouse and not the per-hand replay: these rules need no betting state, only the
cards each player was dealt and tabled, who was live at the end, who was paid and whether the hand
was cancelled. One pass of aggregates over ``hole_cards``, ``actions``, ``awards`` and ``seats``
covers every hand the night holds; only the few hands that break a rule come back to Python, where
the rulebook picks the severity (the replay's numba kernel never sees these rules: ``rules.screens``
routes them here).

What an online export can prove decides the severity as much as the book: the site's software
deals, tables all-in hands and pays the pot, so a wrong card count, an untabled winner or a hand the
site cancelled is the export disagreeing with itself (DATA), never a dealer's or player's breach.

Rules the matrix lists for which no hand history carries the data are counted, not guessed
(``NOT_IN_RECORD``: what each one would need).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import duckdb
import yaml

from .bbante import SHORT_BB_SQL, short_bb_finding
from .citations import SEED_OF_BOOK, citation
from .findings import DATA, ERROR, REVIEW, WARNING, Finding
from .profiles import PROFILE_DIR, Profile, ProfileMap, load_profile
from .sqlpass import Namer, emit, namer, rows
from .turns import FOLD_SQL, ORDER_SQL, fold_finding, order_finding

#: hole cards each player is dealt, per variant (the matrix's DECK.CARD_COUNT ``hole_cards: 2|4``,
#: widened to the variants the parsers read)
HOLE_CARDS = {"holdem": 2, "holdem_6plus": 2, "holdem_split": 2, "shortdeck": 2, "omaha": 4, "omaha_hilo": 4,
              "omaha5": 5, "omaha5_hilo": 5, "courchevel": 5, "courchevel_hilo": 5, "omaha6": 6}
#: variants dealt from a 36-card deck (6 to ace): a 2-5 in them is a card from another deck
SHORT_DECK = frozenset({"shortdeck", "holdem_6plus"})
#: board lengths a record may hold, in cards (none, flop, turn, river)
BOARD_CARDS = frozenset({0, 3, 4, 5})

#: rule ids of the matrix's T1 list that no hand-history format records the data for
NOT_IN_RECORD = {
    "DECK.FOREIGN_CARD/backs": "the dealer's report of a card with another back (only a short-deck "
                               "low card is visible in a hand history)",
    "DECK.MISSING_CARD/export": "why a hand was voided (hand histories say only that it was cancelled): checked"
                                " where the record writes it (parsers.model.Hand.cancel_reason)",
    "BOARD.RABBIT_HUNT/export": "undealt cards revealed after the hand (no export writes them): checked where "
                                "the record writes them (parsers.model.Hand.rabbit_cards)",
    "MISDEAL.REDEAL/export": "the original deal of a redealt hand (exports keep only the hand that played):"
                             " checked where the record links them (parsers.model.Hand.redeal_of)",
    "RUN_TWICE.DISSENTER/export": "who agreed to run it twice (exports write the boards, not the agreement):"
                                  " checked where the record writes it (parsers.model.Hand.rit_declined)",
    "RAKE.PER_POT_PROPORTIONAL/export": "the rake taken from each pot (exports write one rake per hand): checked "
                                        "where the record writes it (parsers.model.Pot.rake)",
    "RAKE.CAP/table": "the house's cap per blind level (params.rake.cap_by_blinds; R003 leaves it to the "
                      "house): checked where the profile or the caller gives one",
}

#: (rule id, book key) -> (seed file, article, verbatim passage); "*" = a book without its own
_CITES: dict[tuple[str, str], tuple[str, str, str]] = {
    ("DECK.CARD_COUNT", "*"): (
        "000_24a201a7802bf830.txt", "Baraja defectuosa",
        "Una baraja defectuosa es aquella que tiene el número incorrecto de cartas"),
    ("DECK.FOREIGN_CARD", "*"): (
        "002_55d6ebc4598b3f67.txt", "Irregularidades",
        "Cuando es descubierta una carta que no pertenece a la baraja TODA LA ACCION ES NULA"),
    ("DECK.FOREIGN_CARD", "CEP"): (
        "000_24a201a7802bf830.txt", "Baraja defectuosa", "cartas con reversos diferentes"),
    ("SHOWDOWN.TABLE_ALL_CARDS", "*"): (
        "000_24a201a7802bf830.txt", "Jugar la mesa al mostrar cartas",
        "el jugador deberá mostrar todas sus cartas cubiertas para poder optar a parte del pot"),
    ("SHOWDOWN.TABLE_ALL_CARDS", "T09"): (
        "001_6ba5ccb5fe360bcf.txt", "art. 14, Jugar con las Cartas de la Mesa",
        "El jugador tiene que enseñar las dos cartas"),
    ("SHOWDOWN.TABLE_ALL_CARDS", "PKR"): (
        "002_55d6ebc4598b3f67.txt", "Show-Down, «Juego con la mesa»",
        "Siempre hay que mostrar todas las cartas para cobrar cualquier parte del pozo"),
    ("SHOWDOWN.TABLE_ALL_CARDS", "R003"): (
        "003_577dcffd2c9e41f5.txt", "Pozo disputado / Jugar con las cartas de la mesa",
        "aun cuando se juegue con las cinco cartas de la mesa"),
    ("SHOWDOWN.ALLIN_TABLED", "*"): (
        "000_24a201a7802bf830.txt", "Cartas boca arriba en All-in",
        "Ningún jugador, esté allin o no, podrá foldear sin mostrarlas"),
    ("SHOWDOWN.ALLIN_TABLED", "T09"): (
        "001_6ba5ccb5fe360bcf.txt", "art. 9, Cartas Arriba",
        "Todas las cartas de una mano serán mostradas boca arriba siempre que un jugador estuviera restado"),
    ("SHOWDOWN.ALLIN_TABLED", "PKR"): (
        "002_55d6ebc4598b3f67.txt", "Show-Down",
        "Ningún jugador, esté all-in o no, podrá tirar sus cartas sin mostrarlas"),
    ("SHOWDOWN.ALLIN_TABLED", "R003"): (
        "003_577dcffd2c9e41f5.txt", "Pozo disputado (all in)", "todas sus cartas deben ser mostradas"),
    ("RAKE.CAP", "*"): ("003_577dcffd2c9e41f5.txt", "Side pots (comisión)", "estipulado para esos blinds"),
    ("SHOWDOWN.SIDE_POT_SHOW", "*"): (
        "000_24a201a7802bf830.txt", "Cartas boca arriba en All-in",
        "A ningún jugador se le permite retirarse en la confrontación del river de un bote paralelo si hay un "
        "jugador que ha ido all-in en el bote principal"),
    ("MISDEAL.SA_LOCK", "*"): (
        "000_24a201a7802bf830.txt", "Error de reparto",
        "Si hay acción sustancial, no se puede declarar error de reparto y la mano debe continuar"),
    ("MISDEAL.SA_LOCK", "PKR"): (
        "002_55d6ebc4598b3f67.txt", "Irregularidades", "SI HAY ACCION SUSTANCIAL UNA MANO NO SE PUEDE ANULAR"),
    ("MISDEAL.SA_LOCK", "R003"): (
        "003_577dcffd2c9e41f5.txt", "Mano nula", "la jugada debe continuar si hay suficiente acción"),
}


def cite(rule_id: str, key: str) -> str:
    """`` — <rulebook>, <article>: [seed] «passage»`` (naming the other book when the passage is
    borrowed from one, as CEP's defective-deck text is for the books that say nothing)."""
    own = _CITES.get((rule_id, key))
    seed, article, passage = own or _CITES[(rule_id, "*")]
    borrowed = not own and not seed.startswith(SEED_OF_BOOK.get(key, "-"))
    return citation(key, article, seed, passage, borrowed)


@dataclass
class RecordResult:
    """Findings (each with its profile's name, as the store wants) and what the run report shows."""

    findings: list[tuple[Finding, str]] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)


def _known(col: str) -> str:
    """SQL: how many cards a card string shows ('??' is a card the export hides)."""
    return f"length(replace({col}, '??', '')) // 2"


def _hand_columns() -> str:
    return ("h.hand_id, h.site, h.format, h.variant, h.game_type, h.table_name, h.tournament_id, "
            "h.button_seat, h.cancelled")


_PLAYERS_SQL = f"""
CREATE OR REPLACE TEMP TABLE _hr_player AS
WITH recorded AS (
    -- hands whose export writes who tabled or mucked (ACPC logs and PHH write every card, no
    -- showing): the only hands the showdown rules can judge, so the only ones aggregated
    SELECT DISTINCT hand_id FROM actions WHERE kind IN ('show', 'muck')
    UNION SELECT DISTINCT hand_id FROM hole_cards WHERE provenance = 'shown'
), act AS (
    SELECT hand_id, player, bool_or(kind = 'fold') AS folded, bool_or(all_in) AS all_in,
           bool_or(kind = 'muck') AS mucked,
           max(CASE WHEN kind = 'show' AND cards IS NOT NULL THEN {_known('cards')} END) AS shown_act
    FROM actions SEMI JOIN recorded USING (hand_id) GROUP BY ALL
), shown AS (
    SELECT hand_id, player, max({_known('cards')}) AS shown_hc FROM hole_cards
    WHERE provenance = 'shown' GROUP BY ALL
), won AS (SELECT hand_id, player, sum(amount) AS won FROM awards GROUP BY ALL)
SELECT s.hand_id, s.player, s.seat_no, coalesce(a.folded, false) AS folded, coalesce(a.all_in, false) AS all_in,
       a.player IS NOT NULL AS acted,
       coalesce(a.mucked, false) AS mucked,
       CASE WHEN a.shown_act IS NOT NULL THEN a.shown_act
            WHEN coalesce(a.mucked, false) THEN 0 ELSE coalesce(sh.shown_hc, 0) END AS tabled,
       coalesce(w.won, 0) AS won
FROM seats s SEMI JOIN recorded USING (hand_id) LEFT JOIN act a USING (hand_id, player)
LEFT JOIN shown sh USING (hand_id, player) LEFT JOIN won w USING (hand_id, player)
WHERE NOT s.sitting_out
"""

def _want_cards() -> str:
    """SQL: the hole-card count of the hand's variant (NULL for a variant not in ``HOLE_CARDS``)."""
    cases = " ".join(f"WHEN '{v}' THEN {n}" for v, n in HOLE_CARDS.items())
    return f"CASE h.variant {cases} END"


_CARD = "[2-9TJQKA][cdhs]"
_SHORT = ", ".join(f"'{v}'" for v in sorted(SHORT_DECK))
#: only the card strings that break a rule come back to Python: a wrong count, a code that is no
#: card, or a 2-5 in a short-deck game
_CARD_COUNT_SQL = f"""
WITH rows AS (
    SELECT {_hand_columns()}, c.player, c.cards, c.provenance, 'hole' AS what,
           ({_want_cards()} IS NOT NULL AND length(c.cards) // 2 <> {_want_cards()}
            AND c.cards NOT LIKE '%??%') AS wrong_count
    FROM hole_cards c JOIN hands h USING (hand_id)
    WHERE c.provenance IN ('dealt', 'operator')
    UNION ALL
    SELECT {_hand_columns()}, NULL AS player, b.cards, NULL AS provenance, 'board' AS what,
           length(b.cards) // 2 NOT IN (0, 3, 4, 5) AS wrong_count
    FROM boards b JOIN hands h USING (hand_id)
)
SELECT * FROM rows
WHERE wrong_count OR NOT regexp_full_match(replace(cards, '??', ''), '({_CARD})*')
   OR (variant IN ({_SHORT}) AND regexp_matches(cards, '[2-5][cdhs]'))
"""

_SHOWDOWN_SQL = f"""
WITH live AS (
    -- live: dealt in (a post, a decision or a show on record) and never folded; a seat the export
    -- lists without a single action (sitting out unmarked) is not a live hand
    SELECT hand_id, count(*) AS live, count(*) FILTER (WHERE tabled > 0) AS tabling,
           bool_or(all_in) AS any_all_in, count(*) FILTER (WHERE NOT all_in) AS covering
    FROM _hr_player WHERE NOT folded AND acted GROUP BY hand_id
)
SELECT {_hand_columns()}, p.player, p.seat_no, p.tabled, p.won, p.all_in, p.mucked, l.live, l.tabling,
       l.any_all_in, l.covering, coalesce(b.river, false) AS river
FROM _hr_player p JOIN live l USING (hand_id) JOIN hands h USING (hand_id)
LEFT JOIN (SELECT hand_id, max(length(cards)) >= 10 AS river FROM boards GROUP BY hand_id) b USING (hand_id)
WHERE NOT p.folded AND p.acted AND l.live >= 2 AND NOT h.cancelled
  AND ((p.won > 0 AND p.tabled < coalesce({_want_cards()}, 0)) OR (l.any_all_in AND p.tabled = 0))
"""

_CANCELLED_SQL = f"""
WITH vol AS (
    SELECT hand_id, count(*) AS decisions, count(*) FILTER (WHERE contribution > 0) AS paying
    FROM actions WHERE kind IN ('fold', 'check', 'call', 'bet', 'raise') GROUP BY hand_id
)
SELECT {_hand_columns()}, coalesce(v.decisions, 0) AS decisions, coalesce(v.paying, 0) AS paying
FROM hands h LEFT JOIN vol v USING (hand_id) WHERE h.cancelled
"""


def _finding(row: dict[str, Any], rule: str, sev: str, outcomes: str | None, expected: str, actual: str,
             message: str, key: str) -> Finding:
    return Finding(row["hand_id"], None, rule, sev, sev == REVIEW, outcomes if sev == REVIEW else None,
                   expected, actual, message + cite(rule, key))


def _cards(text: str) -> list[str]:
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def _bad_codes(cards: str) -> list[str]:
    ranks, suits = "23456789TJQKA", "cdhs"
    return [c for c in _cards(cards) if c != "??" and (len(c) != 2 or c[0] not in ranks or c[1] not in suits)]


def card_count_finding(row: dict[str, Any], book: str) -> Finding | None:
    """DECK.CARD_COUNT: a player dealt the wrong number of cards for the game, a board that is not
    0/3/4/5 cards, or a card code that is no card (CEP: a deck with the wrong cards is defective)."""
    key = load_profile(book).key
    cards = str(row["cards"])
    bad = _bad_codes(cards)
    n = len(cards) // 2
    if row["what"] == "hole":
        want = HOLE_CARDS.get(str(row["variant"]))
        wrong = want is not None and n != want and "??" not in cards
        where, expected = f"{row['player']} was dealt {n} cards", f"{want} hole cards"
    else:
        wrong, where, expected = n not in BOARD_CARDS, f"the board holds {n} cards", "a board of 0, 3, 4 or 5 cards"
    if not (wrong or bad):
        return None
    actual = f"{where} [{cards}]" + (f"; not cards: {', '.join(bad)}" if bad else "")
    if key == "ONLINE":
        return _finding(row, "DECK.CARD_COUNT", DATA, None, expected, actual,
                        f"site: the export's cards are not a deal of {row['variant']}: {actual}.", key)
    return _finding(row, "DECK.CARD_COUNT", ERROR, None, expected, actual,
                    f"{actual}, where {expected} are dealt: the deck or the deal is defective.", key)


def foreign_card_finding(row: dict[str, Any], book: str) -> Finding | None:
    """DECK.FOREIGN_CARD where a record can show it: a 2-5 in a short-deck game (36 cards, six to ace)."""
    if row["variant"] not in SHORT_DECK:
        return None
    low = [c for c in _cards(str(row["cards"])) if c[:1] in "2345"]
    if not low:
        return None
    key = load_profile(book).key
    actual = f"{row['player'] or 'the board'} holds {', '.join(low)} in {row['variant']}"
    expected = "cards six to ace only (a 36-card deck)"
    if key == "ONLINE":
        return _finding(row, "DECK.FOREIGN_CARD", DATA, None, expected, actual,
                        f"site: {actual}, a card its own deck does not hold.", key)
    if key == "PKR":
        return _finding(row, "DECK.FOREIGN_CARD", ERROR, None, "all action void, chips returned", actual,
                        f"{actual}: a card from another deck voids all action.", key)
    return _finding(row, "DECK.FOREIGN_CARD", REVIEW, "defective deck: void the hand|hand stands", expected,
                    actual, f"{actual}: the deck was defective; the floor decides what stands.", key)


def table_all_cards_finding(row: dict[str, Any], book: str) -> Finding | None:
    """SHOWDOWN.TABLE_ALL_CARDS: paid at a contested showdown with fewer cards tabled than were dealt."""
    want = HOLE_CARDS.get(str(row["variant"]))
    contested = int(row["tabling"]) - (1 if int(row["tabled"]) > 0 else 0) >= 1
    if want is None or int(row["won"]) <= 0 or not contested or int(row["tabled"]) >= want:
        return None
    key = load_profile(book).key
    actual = f"{row['player']} was paid {int(row['won']):,} having tabled {row['tabled']} of {want} cards"
    expected = f"all {want} hole cards tabled to win any part of the pot"
    if key == "ONLINE":
        return _finding(row, "SHOWDOWN.TABLE_ALL_CARDS", DATA, None, expected, actual,
                        f"site: the export shows {actual}; the software tables a winning hand, the export "
                        "does not write it.", key)
    return _finding(row, "SHOWDOWN.TABLE_ALL_CARDS", ERROR, None, expected, actual,
                    f"{actual} against another tabled hand.", key)


def allin_tabled_finding(row: dict[str, Any], book: str) -> Finding | None:
    """SHOWDOWN.ALLIN_TABLED: a live hand not tabled once a player was all-in and betting was over
    (R003 asks it of the all-in player's hand only); under CEP a side-pot player mucking at the river
    is SHOWDOWN.SIDE_POT_SHOW."""
    if not row["any_all_in"] or int(row["tabled"]) > 0:
        return None
    key = load_profile(book).key
    if key == "R003" and not row["all_in"]:
        return None
    who = "the all-in player" if row["all_in"] else "a live player"
    actual = f"{row['player']} ({who}) {'mucked' if row['mucked'] else 'never tabled'} at an all-in showdown"
    expected = "every live hand face up" if key != "R003" else "the all-in player's hand face up"
    if key == "ONLINE":
        return _finding(row, "SHOWDOWN.ALLIN_TABLED", DATA, None, expected, actual,
                        f"site: the export shows {actual}; the site's software decides what is tabled.", key)
    side_pot = int(row["covering"]) >= 2  # two players with chips behind contest a side pot
    if key == "CEP" and row["mucked"] and not row["all_in"] and row["river"] and side_pot:
        return _finding(row, "SHOWDOWN.SIDE_POT_SHOW", WARNING, None, "side-pot players show at the river",
                        actual, f"{actual}: a side-pot player may not give up at the river while a main-pot "
                        "player is all-in.", key)
    return _finding(row, "SHOWDOWN.ALLIN_TABLED", WARNING, None, expected, actual,
                    f"{actual}: the hand should have been turned face up.", key)


def substantial_action(decisions: int, paying: int) -> bool:
    """CEP (TDA 2022 rule 35): any two actions in turn of which one puts chips in, or any three."""
    return decisions >= 3 or (decisions >= 2 and paying >= 1)


def sa_lock_finding(row: dict[str, Any], book: str) -> Finding | None:
    """MISDEAL.SA_LOCK: a hand cancelled after substantial action (no misdeal may be called then)."""
    if not substantial_action(int(row["decisions"]), int(row["paying"])):
        return None
    key = load_profile(book).key
    actual = f"hand cancelled after {row['decisions']} decisions ({row['paying']} putting chips in)"
    expected = "no misdeal after substantial action: the hand plays on"
    if key == "ONLINE":
        return _finding(row, "MISDEAL.SA_LOCK", DATA, None, expected, actual,
                        f"site: {actual} (a server-side cancellation: every bet returned).", key)
    if key == "T09":  # TDA 2009 states no such lock: the floor's call, on CEP's wording
        return _finding(row, "MISDEAL.SA_LOCK", REVIEW, "hand stands|misdeal", expected, actual,
                        f"{actual}; TDA 2009 does not say whether a misdeal may still be called.", key)
    return _finding(row, "MISDEAL.SA_LOCK", ERROR, None, expected, actual, f"{actual}.", key)


@cache
def profile_section(name: str, section: str) -> dict[str, Any]:
    """``params.<section>`` of a profile's YAML, for the parameters ``rules.profiles.Profile`` does not
    carry (the house's rake caps)."""
    path = PROFILE_DIR / f"{name.split('+', 1)[0]}.yaml"
    if not path.exists():
        return {}
    with path.open(encoding="utf-8") as fh:
        doc = yaml.safe_load(fh) or {}
    return dict((doc.get("params") or {}).get(section) or {})


@cache
def house_rake_caps(name: str) -> dict[str, int] | None:
    """The house's rake cap per blind level (``params.rake.cap_by_blinds``: ``"<sb>/<bb>": cap`` in the
    hand's units), or None while the profile says only ``house_table`` (R003 leaves the table to the
    house: «estipulado para esos blinds»)."""
    caps = profile_section(name, "rake").get("cap_by_blinds")
    return {str(k): int(v) for k, v in caps.items()} if isinstance(caps, dict) else None


_RAKE_SQL = f"""
SELECT {_hand_columns()}, h.sb, h.bb, r.rake, r.rake_implied
FROM hands h SEMI JOIN _hr_scope USING (hand_id) JOIN reconciliation r USING (hand_id)
WHERE h.game_type = 'cash' AND r.rake > 0
"""


def rake_cap_finding(row: dict[str, Any], caps: dict[str, int], key: str) -> Finding | None:
    """RAKE.CAP: a hand's rake above the house's cap for its blinds."""
    cap = caps.get(f"{row['sb']}/{row['bb']}")
    if cap is None or int(row["rake"]) <= cap:
        return None
    how = "implied (the site wrote none)" if row["rake_implied"] else "as written"
    actual = f"rake {int(row['rake']):,} {how}, at blinds {row['sb']:,}/{row['bb']:,}"
    return _finding(row, "RAKE.CAP", ERROR, None, f"rake at most {cap:,} (the house's cap)", actual,
                    f"{actual}: above the house's cap of {cap:,} for these blinds.", key)


def _rake_caps(con: duckdb.DuckDBPyConnection, out: RecordResult, name_for: Namer,
               given: dict[str, dict[str, int]] | None, raked: list[dict[str, Any]]) -> None:
    """RAKE.CAP for the raked hands of books that cap rake (R003's ``rake_rule: proportional``) and
    whose house table is known (``given`` per profile name, else the profile's own)."""
    for row in raked:
        book = name_for(row)
        caps = (given or {}).get(book) or house_rake_caps(book)
        f = rake_cap_finding(row, caps, load_profile(book).key) if caps else None
        if f is not None:
            out.findings.append((f, load_profile(book).name))


def record_findings(con: duckdb.DuckDBPyConnection, rulebook: str | None, pmap: ProfileMap,
                    rake_caps: dict[str, dict[str, int]] | None = None) -> RecordResult:
    """Every card, showdown, misdeal and rake-cap finding of the warehouse, and the report's counts.

    ``rake_caps``: the house's cap table per profile name (``{"R003-cash": {"100/200": 500}}``),
    overriding the profile's ``params.rake.cap_by_blinds``."""
    out = RecordResult()
    name_for = namer(rulebook, pmap)
    try:
        con.execute(_PLAYERS_SQL)
        cards = rows(con, _CARD_COUNT_SQL)
        emit(out.findings, cards, name_for, card_count_finding)
        emit(out.findings, cards, name_for, foreign_card_finding)
        showdown = rows(con, _SHOWDOWN_SQL)
        emit(out.findings, showdown, name_for, table_all_cards_finding)
        emit(out.findings, showdown, name_for, allin_tabled_finding)
        emit(out.findings, _scoped_rows(con, rulebook, name_for, _live, ORDER_SQL), name_for, order_finding)
        emit(out.findings, _scoped_rows(con, rulebook, name_for, _cep, FOLD_SQL), name_for, fold_finding)
        emit(out.findings, rows(con, SHORT_BB_SQL), name_for, short_bb_finding)
        cancelled = rows(con, _CANCELLED_SQL)
        emit(out.findings, cancelled, name_for, sa_lock_finding)
        _rake_caps(con, out, name_for, rake_caps, _scoped_rows(con, rulebook, name_for, _caps_rake, _RAKE_SQL))
        out.stats = _stats(con, cancelled, out.findings)
    finally:
        for table in ("_hr_player", "_hr_scope", "_hr_keys"):
            con.execute(f"DROP TABLE IF EXISTS {table}")
    return out


_KEYS = ("site", "format", "game_type", "table_name", "tournament_id")


def _scope(con: duckdb.DuckDBPyConnection, rulebook: str | None, name_for: Namer,
           wanted: Callable[[Profile], bool]) -> bool:
    """Fill ``_hr_scope`` with the hands audited under a rulebook ``wanted`` accepts; False when there
    is none. Why: show order, folds facing no bet and rake caps are live-book rules, and on an
    online night their windows over every action would be work thrown away."""
    cols = ", ".join(_KEYS)
    keys = rows(con, f"SELECT DISTINCT {cols} FROM hands")
    chosen = [k for k in keys if wanted(load_profile(rulebook or name_for(k)))]
    if not chosen:
        return False
    con.execute(f"CREATE OR REPLACE TEMP TABLE _hr_keys AS SELECT {cols} FROM hands LIMIT 0")
    con.executemany(f"INSERT INTO _hr_keys VALUES ({', '.join('?' for _ in _KEYS)})",
                    [[k[c] for c in _KEYS] for k in chosen])
    same = " AND ".join(f"h.{c} IS NOT DISTINCT FROM k.{c}" for c in _KEYS)
    con.execute(f"CREATE OR REPLACE TEMP TABLE _hr_scope AS SELECT h.hand_id FROM hands h "
                f"SEMI JOIN _hr_keys k ON {same}")
    return True


def _scoped_rows(con: duckdb.DuckDBPyConnection, rulebook: str | None, name_for: Namer,
                 wanted: Callable[[Profile], bool], sql: str) -> list[dict[str, Any]]:
    """``sql``'s rows (it reads ``_hr_scope``) over the hands of the books ``wanted`` accepts."""
    return rows(con, sql) if _scope(con, rulebook, name_for, wanted) else []


def _live(p: Profile) -> bool:
    return p.key != "ONLINE"


def _cep(p: Profile) -> bool:
    return p.key == "CEP"


def _caps_rake(p: Profile) -> bool:
    return p.rake_rule == "proportional"


_SHOWDOWN_COUNT_SQL = """
SELECT count(*) FROM (SELECT hand_id FROM _hr_player WHERE NOT folded AND acted GROUP BY hand_id HAVING count(*) >= 2)
"""


def _stats(con: duckdb.DuckDBPyConnection, cancelled: list[dict[str, Any]],
           findings: list[tuple[Finding, str]]) -> dict[str, Any]:
    by_rule: Counter[str] = Counter(f"{f.rule_id}:{f.severity}" for f, _ in findings)
    showdowns = con.execute(_SHOWDOWN_COUNT_SQL).fetchone()
    return {
        "showdown_hands": int(showdowns[0]) if showdowns else 0,
        "cancelled_hands": len(cancelled),
        "findings": dict(sorted(by_rule.items())),
        "not_in_record": NOT_IN_RECORD,
    }
