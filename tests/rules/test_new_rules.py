"""Issue 13 item 1: the last T1 rule ids of the matrix, per rulebook, through both engines.

STRADDLE.LIVE_OPTION, STRADDLE.ACTION_ORDER, ALLIN.CUMULATIVE_REOPEN, ALLIN.MIN_RAISE_AFTER_SHORT and
RUN_TWICE.SPLIT, each with a violating and a boundary-legal hand per rulebook where the books differ
(rules_matrix.md §B, §D, §J and its finding table), plus the profile values issue 13 item 2 corrected
(duplicate cards, a live book's smallest chip, online triple straddles). Every hand runs through the
Python engine and the kernel fast path (``engine`` fixture, tests/rules/conftest.py): the kernel must
hand each such hand to Python or agree with it. Amounts come from the matrix's examples.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from parsers.model import Hand
from rules.articles import ARTICLES, HOUSE
from rules.citations import SEED_FILES
from tests.conftest import SHARED
from tests.rules.builder import make_hand
from tests.rules.engines import run_engine
from tests.rules.t1_coverage import covers

CEP, T09, PKR, R003, ONLINE = "CEP-2023", "TDA-2009", "PKR-cash", "R003-cash", "online-standard"
DEEP = 1_000_000
_IDS = iter(range(1, 10_000))


def found(engine: str, hand: Hand, book: str, prefix: str = "") -> list[tuple[str, int | None, str]]:
    """(rule id, action seq, severity) of the hand's findings whose rule id starts with ``prefix``."""
    fs, _ = run_engine(engine, [hand], book)
    return sorted((f.rule_id, f.action_seq, f.severity) for f in fs if f.rule_id.startswith(prefix))


def one(engine: str, hand: Hand, book: str, rule: str):
    fs, _ = run_engine(engine, [hand], book)
    hits = [f for f in fs if f.rule_id == rule]
    assert len(hits) == 1, [(f.rule_id, f.severity) for f in fs]
    return hits[0]


def hid() -> str:
    return f"test:{next(_IDS)}"


# ---- STRADDLE.LIVE_OPTION / STRADDLE.ACTION_ORDER (blinds 100/200, UTG straddle 400) -------------
FIVE = [("SB", DEEP), ("BB", DEEP), ("UTG", DEEP), ("CO", DEEP), ("BTN", DEEP)]
POSTS = [("preflop", "SB", "post_sb", 100), ("preflop", "BB", "post_bb", 200), ("preflop", "UTG", "post_straddle", 400)]
CALLS = [("preflop", "CO", "call", 400), ("preflop", "BTN", "call", 400), ("preflop", "SB", "call", 300),
         ("preflop", "BB", "call", 200)]  # fmt: skip


def straddled(*tail: tuple[str, str, str, int | None], posts=POSTS, **kw) -> Hand:
    return make_hand(FIVE, [*posts, *tail], sb=100, bb=200, hand_id=hid(), **kw)


@covers("STRADDLE.LIVE_OPTION", "violating", "PKR-cash", "R003-cash")
@pytest.mark.parametrize("book,sev", [(PKR, "error"), (R003, "review"), (ONLINE, "warning")])
def test_straddle_option_skipped(engine: str, book: str, sev: str) -> None:
    """Everyone calls the straddle and the flop comes without the straddler's option: PKR says the
    straddle is a blind that may still raise (ERROR); R003 is silent (REVIEW); online a site default."""
    hand = straddled(*CALLS, ("flop", "SB", "check", None))
    assert found(engine, hand, book, "STRADDLE") + found(engine, hand, book, "ACTION") == [
        ("STRADDLE.LIVE_OPTION", 7, sev)
    ]
    f = one(engine, hand, book, "STRADDLE.LIVE_OPTION")
    assert f.house_decision == (sev == "review")
    if book == PKR:
        assert "PKR Club cash, Procedimientos generales" in f.message and "cuenta como una ciega" in f.message
    if book == R003:
        assert f.allowed_outcomes == "straddle_live_blind|straddle_not_live"
        assert "Room 003 cash, Fundamentos" in f.message


@covers("STRADDLE.LIVE_OPTION", "legal", "PKR-cash", "R003-cash")
@pytest.mark.parametrize("book", [PKR, R003, ONLINE])
def test_straddle_option_taken_is_legal(engine: str, book: str) -> None:
    hand = straddled(*CALLS, ("preflop", "UTG", "check", None), ("flop", "SB", "check", None))
    assert found(engine, hand, book) == []


@pytest.mark.parametrize("book,sev", [(PKR, "error"), (ONLINE, "warning"), (CEP, "review")])
def test_min_raise_over_a_straddle_is_the_straddle(engine: str, book: str, sev: str) -> None:
    """The straddle a blind: the full raise is 400, so the minimum raise-to is 800; 700 would do were the
    straddle a raise of 200 over the big blind (600). PKR says it is a blind (ERROR); CEP has no straddle."""
    short = straddled(("preflop", "CO", "raise", 700))
    assert found(engine, short, book, "STRADDLE.LIVE") == [("STRADDLE.LIVE_OPTION", 3, sev)]
    assert found(engine, short, book, "RAISE") == []
    assert found(engine, straddled(("preflop", "CO", "raise", 800)), book, "STRADDLE.LIVE") == []
    # under both readings' minimum: an ordinary RAISE.MIN
    assert found(engine, straddled(("preflop", "CO", "raise", 599)), book, "RAISE.MIN") == [("RAISE.MIN", 3, "error")]


def test_r003_min_raise_over_a_straddle_doubles_it_either_way(engine: str) -> None:
    """R003 doubles the previous bet, 400 either way: 700 is RAISE.MIN, not a straddle question."""
    assert found(engine, straddled(("preflop", "CO", "raise", 700)), R003, "RAISE.MIN") == [("RAISE.MIN", 3, "error")]
    assert found(engine, straddled(("preflop", "CO", "raise", 700)), R003, "STRADDLE") == []


@covers("STRADDLE.ACTION_ORDER", "violating", "R003-cash", "PKR-cash")
@covers("STRADDLE.ACTION_ORDER", "legal", "R003-cash", "PKR-cash")
@pytest.mark.parametrize("book,sev", [(R003, "error"), (PKR, "review"), (ONLINE, "error")])
def test_first_action_after_a_straddle(engine: str, book: str, sev: str) -> None:
    """The seat left of the straddle opens: R003 says so (ERROR); PKR implies it (its out-of-turn REVIEW);
    online the software keeps the order. The button acting before the seat left of the straddle breaks it."""
    hand = straddled(("preflop", "BTN", "call", 400), ("preflop", "CO", "call", 400), ("preflop", "SB", "call", 300),
                     ("preflop", "BB", "call", 200), ("preflop", "UTG", "check", None),
                     ("flop", "SB", "check", None))  # fmt: skip
    assert found(engine, hand, book, "STRADDLE") == [("STRADDLE.ACTION_ORDER", 3, sev)]
    # live, the skipped seat's own call is in turn (the action returned to it); online the software
    # never returns it, so that call is out of turn again (the plain ACTION.ORDER of any online hand)
    assert found(engine, hand, book, "ACTION") == ([("ACTION.ORDER", 4, "error")] if book == ONLINE else [])
    f = one(engine, hand, book, "STRADDLE.ACTION_ORDER")
    assert "After the straddle, CO (left of the straddle) opens" in f.message
    if book == R003:
        assert "El jugador a la izquierda de la apuesta de Straddle inicia la acción pre-flop" in f.message
    legal = straddled(*CALLS, ("preflop", "UTG", "check", None))
    assert found(engine, legal, book) == []


def test_r003_mississippi_small_blind_opens(engine: str) -> None:
    miss = [("preflop", "SB", "post_sb", 100), ("preflop", "BB", "post_bb", 200),
            ("preflop", "BTN", "post_straddle", 400)]
    wrong = straddled(("preflop", "UTG", "call", 400), posts=miss)
    assert found(engine, wrong, R003, "STRADDLE") == [("STRADDLE.ACTION_ORDER", 3, "error")]
    assert "El Jugador con la ciega pequeña inicia la acción pre-flop" in one(engine, wrong, R003,
                                                                            "STRADDLE.ACTION_ORDER").message
    right = straddled(("preflop", "SB", "call", 300), ("preflop", "BB", "call", 200), ("preflop", "UTG", "call", 400),
                      ("preflop", "CO", "call", 400), ("preflop", "BTN", "check", None), posts=miss)  # fmt: skip
    assert found(engine, right, R003) == []


# ---- ALLIN.CUMULATIVE_REOPEN (§5.2: blinds 50/100; A bets 100, B all-in 125, D all-in d_to) -------
def cumulative(d_to: int, last: str = "raise") -> Hand:
    players = [("A", DEEP), ("B", 125), ("C", DEEP), ("D", d_to), ("E", DEEP)]
    script = [("flop", "A", "bet", 100), ("flop", "B", "raise", 125), ("flop", "C", "call", 125),
              ("flop", "D", "raise", d_to), ("flop", "E", "call", d_to), ("flop", "A", last, 300 if last == "raise"
                                                                            else d_to - 100)]  # fmt: skip
    return make_hand(players, script, sb=50, bb=100, hand_id=hid())


@pytest.mark.parametrize("book", [CEP, PKR, ONLINE])
def test_short_allins_adding_up_to_a_full_raise_reopen(engine: str, book: str) -> None:
    """A faces 200 - 100 = 100 = F: reopened where the test is what the player faces (boundary legal);
    99 short of it: the short all-ins add up to less than a full raise, ERROR."""
    assert found(engine, cumulative(200), book) == []
    assert found(engine, cumulative(199), book) == [("ALLIN.CUMULATIVE_REOPEN", 5, "error")]
    assert found(engine, cumulative(199, "call"), book) == []


def test_t09_is_silent_on_adding_short_allins(engine: str) -> None:
    """TDA 2009 art. 31 says a short all-in does not reopen, not whether two add up: REVIEW with both
    readings where they reach F; below F neither reading reopens (ERROR); calling is always legal."""
    f = one(engine, cumulative(200), T09, "ALLIN.CUMULATIVE_REOPEN")
    assert (f.severity, f.action_seq, f.house_decision) == ("review", 5, True)
    assert f.allowed_outcomes == "reopened_short_allins_add_up|not_reopened_no_single_full_raise"
    assert "TDA 2009, art. 31, Subidas" in f.message and "TDA 2009, art. 1, Director de Torneo" in f.message
    assert found(engine, cumulative(199), T09) == [("ALLIN.CUMULATIVE_REOPEN", 5, "error")]
    assert found(engine, cumulative(200, "call"), T09) == []


def test_one_short_allin_is_still_short_no_reopen(engine: str) -> None:
    players = [("A", DEEP), ("B", 150), ("C", DEEP)]
    script = [("flop", "A", "bet", 100), ("flop", "B", "raise", 150), ("flop", "C", "call", 150),
              ("flop", "A", "raise", 400)]  # fmt: skip
    hand = make_hand(players, script, sb=50, bb=100, hand_id=hid())
    for book in (CEP, T09):
        assert found(engine, hand, book) == [("ALLIN.SHORT_NO_REOPEN", 3, "error")]


# ---- ALLIN.MIN_RAISE_AFTER_SHORT (§5.1: flop, A bets 1,000, B all-in b_to, C raises to c_to) ------
def after_short(b_to: int, c_to: int) -> Hand:
    players = [("A", DEEP), ("B", b_to), ("C", DEEP), ("D", DEEP)]
    return make_hand(players, [("flop", "A", "bet", 1000), ("flop", "B", "raise", b_to), ("flop", "C", "raise", c_to)],
                     hand_id=hid())


@pytest.mark.parametrize("book", [CEP, ONLINE])
def test_min_raise_after_short_allin_cep(engine: str, book: str) -> None:
    """CEP «la mayor apuesta o subida anterior»: 1,400 + 1,000 = 2,400; 2,399 is an ERROR."""
    assert found(engine, after_short(1400, 2400), book) == []
    assert found(engine, after_short(1400, 2399), book, "ALLIN") == [("ALLIN.MIN_RAISE_AFTER_SHORT", 2, "error")]
    assert found(engine, after_short(1400, 2399), book, "RAISE.MIN") == []


@pytest.mark.parametrize("book", [T09, PKR])
def test_min_raise_after_short_allin_literal_books(engine: str, book: str) -> None:
    """T09 «la anterior subida», PKR «la última apuesta o subida»: 2,400 (last full raise) or 1,800 (the
    all-in's own 400). Between them REVIEW; 1,799 is short under both (ERROR); 2,400 legal under both."""
    assert found(engine, after_short(1400, 2400), book) == []
    for c_to in (1800, 2399):
        f = one(engine, after_short(1400, c_to), book, "ALLIN.MIN_RAISE_AFTER_SHORT")
        assert (f.severity, f.house_decision) == ("review", True)
        assert "2,400" in f.expected and "1,800" in f.expected
    assert found(engine, after_short(1400, 1799), book, "ALLIN") == [("ALLIN.MIN_RAISE_AFTER_SHORT", 2, "error")]


def test_min_raise_after_counted_allin_r003(engine: str) -> None:
    """R003: B's 1,500 is 150% of 1,000, a raise, and the next raise is based on it: 3,000 (ERROR below)."""
    assert found(engine, after_short(1500, 3000), R003) == []
    f = one(engine, after_short(1500, 2999), R003, "ALLIN.MIN_RAISE_AFTER_SHORT")
    assert f.severity == "error" and "con base en el monto apostado" in f.message
    assert "Room 003 cash, RAISE MÍNIMO" in f.message


def test_min_raise_after_uncounted_allin_r003(engine: str) -> None:
    """R003: B's 1,400 is not a raise; «la apuesta previa» is 1,400 (2,800) or 1,000 (2,000): REVIEW between."""
    assert found(engine, after_short(1400, 2800), R003) == []
    assert found(engine, after_short(1400, 2000), R003) == [("ALLIN.MIN_RAISE_AFTER_SHORT", 2, "review")]
    assert found(engine, after_short(1400, 1999), R003) == [("ALLIN.MIN_RAISE_AFTER_SHORT", 2, "error")]


def test_a_full_raise_after_the_short_allin_resets_the_base(engine: str) -> None:
    players = [("A", DEEP), ("B", 1400), ("C", DEEP), ("D", DEEP)]
    script = [("flop", "A", "bet", 1000), ("flop", "B", "raise", 1400), ("flop", "C", "raise", 2400),
              ("flop", "D", "raise", 3000)]  # fmt: skip
    hand = make_hand(players, script, hand_id=hid())
    assert found(engine, hand, PKR, "ALLIN") == []
    assert found(engine, hand, PKR, "RAISE.MIN") == [("RAISE.MIN", 3, "error")]


# ---- RUN_TWICE.SPLIT (§5.11: each run's share to that run's winner) ------------------------------
BOARD_A = "2c7d9cJd3s"  # aces win
BOARD_K = "Kd2h7c9h4s"  # kings make a set


def ran_twice(awards: list[tuple[str, int, int]], boards: tuple[str, str] = (BOARD_A, BOARD_K)) -> Hand:
    players = [("A", 100_000), ("B", 100_000)]  # A on the button posts the small blind
    script = [("preflop", "A", "post_sb", 500), ("preflop", "B", "post_bb", 1000), ("preflop", "A", "raise", 100_000),
              ("preflop", "B", "call", 99_000)]  # fmt: skip
    hand = make_hand(players, script, sb=500, bb=1000, button=1, hole={"A": "AsAh", "B": "KsKh"}, boards=list(boards),
                     hand_id=hid())
    from parsers.model import Award

    hand.awards = [Award(p, amt, 0, b) for p, amt, b in awards]
    return hand


@covers("RUN_TWICE.SPLIT", "violating", "PKR-cash", "R003-cash")
@covers("RUN_TWICE.SPLIT", "legal", "PKR-cash", "R003-cash")
@pytest.mark.parametrize("book,sev", [(PKR, "error"), (ONLINE, "error"), (R003, "review")])
def test_run_twice_split(engine: str, book: str, sev: str) -> None:
    """200,000 run twice: 100,000 a run, A wins run 1, B run 2. Paying A both is RUN_TWICE.SPLIT: PKR
    says each run's winner takes its share (ERROR; online the site's software splits); R003 implies it."""
    right = ran_twice([("A", 100_000, 1), ("B", 100_000, 2)])
    assert found(engine, right, book, "RUN_TWICE") + found(engine, right, book, "POT") == []
    wrong = ran_twice([("A", 100_000, 1), ("A", 100_000, 2)])
    got = found(engine, wrong, book, "RUN_TWICE") + found(engine, wrong, book, "SHOWDOWN") + found(
        engine, wrong, book, "POT")
    assert got == [("RUN_TWICE.SPLIT", None, sev), ("RUN_TWICE.SPLIT", None, sev)]  # A over, B under
    fs, _ = run_engine(engine, [wrong], book)
    texts = [f.message for f in fs if f.rule_id == "RUN_TWICE.SPLIT"]
    assert all("Run 2 times: each pot is divided into 2 equal shares" in t for t in texts)
    if book == PKR:
        assert all("se dividirá y repartirá de acuerdo con las cartas ganadoras" in t for t in texts)
    if book == ONLINE:
        assert all("(quoting PKR Club cash)" in t for t in texts)


def odd_run(c_run1: int) -> Hand:
    """200,001 run twice (A's dead small blind of 1): run 1 takes the odd chip (100,001), run 2 100,000;
    C wins run 1 (aces), B run 2 (a set of kings)."""
    from parsers.model import Award

    players = [("A", 100_000), ("B", DEEP), ("C", 100_000)]
    script = [("preflop", "A", "post_sb", 1), ("preflop", "B", "post_bb", 2), ("preflop", "C", "raise", 100_000),
              ("preflop", "A", "fold", None), ("preflop", "B", "call", 99_998)]  # fmt: skip
    hand = make_hand(players, script, sb=1, bb=2, hole={"C": "AsAh", "B": "KsKh"}, boards=[BOARD_A, BOARD_K],
                     hand_id=hid())
    hand.awards = [Award("C", c_run1, 0, 1), Award("B", 200_001 - c_run1, 0, 2)]
    return hand


@pytest.mark.parametrize("book,sev", [(PKR, "review"), (R003, "review"), (ONLINE, "warning")])
def test_run_twice_odd_chip_between_runs(engine: str, book: str, sev: str) -> None:
    """No book says which run takes an odd chip: the first run's is the checker's reading, and the other
    placement is the floor's (REVIEW; online the site's: WARNING), never an ERROR."""
    assert found(engine, odd_run(100_001), book, "RUN_TWICE") + found(engine, odd_run(100_001), book, "POT") == []
    got = found(engine, odd_run(100_000), book, "RUN_TWICE") + found(engine, odd_run(100_000), book, "POT")
    assert got == [("RUN_TWICE.SPLIT", None, sev), ("RUN_TWICE.SPLIT", None, sev)]


# ---- issue 13 item 2: what the seeds say -------------------------------------------------------
def duplicate() -> Hand:
    players = [("A", DEEP), ("B", DEEP)]
    script = [("preflop", "A", "post_sb", 100), ("preflop", "B", "post_bb", 200), ("preflop", "A", "call", 100),
              ("preflop", "B", "check", None)] + [(s, p, "check", None) for s in ("flop", "turn", "river")
                                                  for p in ("B", "A")]  # fmt: skip
    return make_hand(players, script, button=1, hole={"A": "AsKd", "B": "QcQd"}, boards=["As7h2c9d3s"],
                     awards=[("A", 400)], hand_id=hid())


@covers("DECK.DUPLICATE_CARD", "violating", "PKR-cash", "CEP-2023", "TDA-2009", "R003-cash")
@covers("DECK.DUPLICATE_CARD", "legal", "PKR-cash", "CEP-2023", "TDA-2009", "R003-cash")
@pytest.mark.parametrize("book,sev", [(PKR, "error"), (CEP, "review"), (T09, "review"), (R003, "review"),
                                      (ONLINE, "data")])  # fmt: skip
def test_duplicate_card_per_book(engine: str, book: str, sev: str) -> None:
    """Only PKR voids all action («TODA LA ACCION ES NULA»); CEP calls the deck defective and leaves the
    remedy to the TD, T09 and R003 say nothing; online the software deals one deck: the export's."""
    f = one(engine, duplicate(), book, "DECK.DUPLICATE_CARD")
    assert f.severity == sev and f.house_decision == (sev == "review")
    if sev == "review":
        assert f.allowed_outcomes == "hand_void_chips_returned|hand_stands"
    clean = duplicate()
    clean.hole_cards[0] = clean.hole_cards[0]._replace(cards="AhKd")
    assert found(engine, clean, book, "DECK") == []


def chop(c_award: int) -> Hand:
    """5,000 in thousands (B's 2,000, C's 2,000, A's dead 1,000), a board-playing chop between B and C."""
    players = [("A", 100_000), ("B", 100_000), ("C", 100_000)]
    script = [("preflop", "A", "post_sb", 1000), ("preflop", "B", "post_bb", 2000), ("preflop", "C", "call", 2000),
              ("preflop", "A", "fold", None), ("preflop", "B", "check", None)] + [
        (s, p, "check", None) for s in ("flop", "turn", "river") for p in ("B", "C")]  # fmt: skip
    return make_hand(players, script, sb=1000, bb=2000, hole={"B": "2c3d", "C": "4c5d"}, boards=["AsKsQsJsTs"],
                     awards=[("B", 5000 - c_award), ("C", c_award)], hand_id=hid())


@pytest.mark.parametrize("book", [CEP, PKR, R003])
def test_live_chop_in_a_smaller_chip_than_the_amounts_show(engine: str, book: str) -> None:
    """Every amount is in thousands, but the house's smallest chip is in no record: 2,500 / 2,500 is exact
    in 500 chips (legal), where the gcd alone gave two ERRORs; 2,000 to the first seat left of the button
    and 3,000 to the other is still the wrong odd chip."""
    assert found(engine, chop(2500), book, "POT") == []
    assert found(engine, chop(3000), book, "POT") == [("POT.ODD_CHIP", None, "error"), ("POT.ODD_CHIP", None, "error")]


def test_online_triple_straddle_is_allowed(engine: str) -> None:
    """online-standard takes a third straddle (the site's software allows it): no «not allowed» warning."""
    six = [*FIVE[:3], ("MP", DEEP), *FIVE[3:]]
    posts = [*POSTS, ("preflop", "MP", "post_straddle", 800), ("preflop", "CO", "post_straddle", 1600)]
    hand = make_hand(six, [*posts, ("preflop", "BTN", "fold", None)], sb=100, bb=200, hand_id=hid())
    assert found(engine, hand, ONLINE, "STRADDLE") == []
    assert ("STRADDLE.NO_TRIPLE", 4, "error") in found(engine, hand, PKR, "STRADDLE")


def test_article_passages_are_verbatim_seed_text() -> None:
    seeds = SHARED / "seeds"
    if not seeds.exists():
        pytest.skip(f"seed rulebooks not available at {seeds}")
    texts = {tag: (seeds / name).read_text(encoding="utf-8") for tag, name in SEED_FILES.items()}
    for key, (tag, article, passage) in [*ARTICLES.items(), *((k, v) for k, v in HOUSE.items())]:
        assert passage in texts[tag], (key, passage)
        assert article and not re.search(r"\s{2,}$", passage), key
    assert Path(__file__).exists()


# ---- issue 13 item 3: real-hand findings that are the export's, or the checker's ----------------
def antes_allin(back: int) -> Hand:
    """PKR tournament 2050887314: "Player0 posts ante of 10 (all-in)", "Hero posts ante of 20 (all-in)",
    "Returning 10 to Hero uncalled"; Hero wins the 20."""
    return make_hand([("P0", 10), ("Hero", 20)],
                     [("preflop", "P0", "post_ante", 10), ("preflop", "Hero", "post_ante", 20),
                      ("preflop", "Hero", "uncalled_return", back)],
                     sb=0, bb=0, hole={"P0": "5d2c", "Hero": "2h8s"}, boards=["JsQsQh7sJd"],
                     awards=[("Hero", 30 - back)], game_type="tournament", button=1, hand_id=hid())  # fmt: skip


@pytest.mark.parametrize("book", [ONLINE, CEP])
def test_an_unmatchable_ante_comes_back(engine: str, book: str) -> None:
    """Money nobody can match is uncalled even when it was posted dead: 10 back is exact, 5 is not."""
    assert found(engine, antes_allin(10), book, "POT") == []
    assert found(engine, antes_allin(5), book, "POT.UNCALLED_RETURN") == [("POT.UNCALLED_RETURN", 2, "error")]


def headsup(button: int) -> Hand:
    return make_hand([("A", DEEP), ("B", DEEP)],
                     [("preflop", "A", "post_sb", 100), ("preflop", "B", "post_bb", 200),
                      ("preflop", "A", "fold", None), ("preflop", "B", "uncalled_return", 100)],
                     button=button, awards=[("B", 200)], hand_id=hid())  # fmt: skip


def test_online_headsup_button_on_the_big_blind_is_the_export_s(engine: str) -> None:
    """Entraction writes the big blind as the heads-up dealer: online the software posts the blinds, so
    the written button is the export's (DATA); live the button must post the small blind (ERROR)."""
    assert found(engine, headsup(1), ONLINE, "BLIND") == []
    assert found(engine, headsup(2), ONLINE, "BLIND") == [("BLIND.HEADSUP_BUTTON", None, "data")]
    assert found(engine, headsup(2), PKR, "BLIND") == [("BLIND.HEADSUP_BUTTON", None, "error")]


def header_blinds(sb_post: int, bb_post: int) -> Hand:
    """Bovada 2607979051: "Level 5 (75/150)", then "Ante/Small blind 50", "Big blind/Bring in 100"."""
    return make_hand([("SB", DEEP), ("BB", DEEP), ("BTN", DEEP)],
                     [("preflop", "SB", "post_sb", sb_post), ("preflop", "BB", "post_bb", bb_post),
                      ("preflop", "BTN", "fold", None), ("preflop", "SB", "fold", None),
                      ("preflop", "BB", "uncalled_return", bb_post - sb_post)],
                     sb=75, bb=150, awards=[("BB", 2 * sb_post)], game_type="tournament", hand_id=hid())  # fmt: skip


def test_online_header_blinds_contradicting_both_posts_are_the_export_s(engine: str) -> None:
    assert found(engine, header_blinds(50, 100), ONLINE, "BLIND") == [("BLIND.POSTING", 0, "data"),
                                                                       ("BLIND.POSTING", 1, "data")]
    assert found(engine, header_blinds(75, 150), ONLINE, "BLIND") == []
    # one blind off the header (or both off its proportion) is still a wrong post
    assert found(engine, header_blinds(50, 150), ONLINE, "BLIND") == [("BLIND.POSTING", 0, "error")]
    assert found(engine, header_blinds(50, 120), ONLINE, "BLIND") == [("BLIND.POSTING", 0, "error"),
                                                                       ("BLIND.POSTING", 1, "error")]
    assert found(engine, header_blinds(50, 100), CEP, "BLIND") == [("BLIND.POSTING", 0, "error"),
                                                                    ("BLIND.POSTING", 1, "error")]


def stray(late_player: str) -> Hand:
    """Merge 71732021-1470 ("player.acts.after.fold"): a player folds preflop, then the export writes a
    call for them on the river; the river bettor's uncalled return then reads as the wrong amount."""
    players = [("A", DEEP), ("B", DEEP), ("C", DEEP)]
    script = [("preflop", "A", "post_sb", 100), ("preflop", "B", "post_bb", 200), ("preflop", "C", "call", 200),
              ("preflop", "A", "fold", None), ("preflop", "B", "check", None),
              ("flop", "B", "bet", 2600), ("flop", late_player, "call", 5), ("flop", "C", "fold", None),
              ("flop", "B", "uncalled_return", 2600)]  # fmt: skip
    return make_hand(players, script, awards=[("B", 505)], hand_id=hid())


def test_online_stray_action_by_a_folded_player_is_the_export_s(engine: str) -> None:
    """Online the software never asks a folded player to act: the stray call and the findings resting on
    its chips (the undercall, the uncalled return) are DATA; live an out-of-turn action is the floor's."""
    got = found(engine, stray("A"), ONLINE)
    assert [(r, s, v) for r, s, v in got if v == "error"] == []
    assert ("ACTION.ORDER", 6, "data") in got and ("UNDERCALL.FULL_CALL", 6, "data") in got
    assert ("POT.UNCALLED_RETURN", 8, "data") in got
    live = found(engine, stray("A"), PKR, "ACTION")
    assert live == [("ACTION.ORDER", 6, "review")]
