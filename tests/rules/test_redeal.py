"""MISDEAL.REDEAL (issue 13): a misdealt hand, cancelled, and its redeal (``Hand.redeal_of``), through both
engines.

CEP «Error de Reparto, Mano Nula»: the redeal is an exact repeat, the button does not move, no new players
are seated, the limits stay the same, and the cards of players absent at the original deal are killed. PKR
«Mano nula»: identical, the button does not move, but penalized or absent players may come in. T09 and R003
say nothing (rules_matrix §2: "—"; the legend never makes an ERROR of a silent book); online no dealer
redeals. Severity ERROR (§3).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from parsers.model import Hand, Seat
from tests.rules.builder import make_hand
from tests.rules.engines import run_engine
from tests.rules.t1_coverage import covers
from tests.rules.test_new_rules import CEP, ONLINE, PKR, R003, T09, hid

FOUR = [("A", 20_000), ("B", 20_000), ("C", 20_000), ("D", 20_000)]
_POSTS = [("preflop", "A", "post_sb", 100), ("preflop", "B", "post_bb", 200)]
_FOLDS = [("preflop", "C", "fold", None), ("preflop", "D", "fold", None), ("preflop", "A", "fold", None)]


def pair(book: str, *, button: int = 4, sb: int = 100, players: list[tuple[str, int]] | None = None,
         absent: str | None = None, played: bool = False, linked: bool = True) -> list[Hand]:
    """The original deal (cancelled as a misdeal: button on seat 4, blinds 100/200, A, B, C, D seated)
    and its redeal, changed as asked: the button's seat, the small blind, who is seated; ``absent``: a
    player sitting out of the original deal, dealt into the redeal (``played``: who then calls)."""
    tour = "tournament" if book in (CEP, T09) else "cash"
    orig = make_hand(FOUR, _POSTS, game_type=tour, hand_id=hid())
    orig = replace(orig, cancelled=True, cancel_reason="misdeal",
                   seats=[s._replace(sitting_out=s.player == absent) for s in orig.seats])
    tail = ([("preflop", "C", "fold", None), ("preflop", "D", "call", 2 * sb), ("preflop", "A", "fold", None),
             ("preflop", "B", "check", None)] if played else _FOLDS)
    win = [("D", 4 * sb)] if played else [("B", 3 * sb)]
    posts = [("preflop", "A", "post_sb", sb), ("preflop", "B", "post_bb", 2 * sb)]
    redeal = make_hand(players or FOUR, posts + tail, sb=sb, bb=2 * sb, button=button, game_type=tour,
                       awards=win, hand_id=hid())
    return [orig, replace(redeal, redeal_of=orig.hand_id if linked else None)]


def redeal_found(engine: str, hands: list[Hand], book: str) -> list[tuple[str, str]]:
    fs, _ = run_engine(engine, hands, book)
    return sorted((f.hand_id, f.severity) for f in fs if f.rule_id == "MISDEAL.REDEAL")


FIVE = [*FOUR, ("E", 20_000)]


@covers("MISDEAL.REDEAL", "violating", CEP, PKR)
@pytest.mark.parametrize("book", [CEP, PKR])
@pytest.mark.parametrize("change", ["button", "blinds"])
def test_a_redeal_that_moves_the_button_or_changes_the_blinds_is_an_error(engine: str, book: str,
                                                                          change: str) -> None:
    hands = pair(book, button=1) if change == "button" else pair(book, sb=200)
    assert redeal_found(engine, hands, book) == [(hands[1].hand_id, "error")]
    fs, _ = run_engine(engine, hands, book)
    text = next(f.message for f in fs if f.rule_id == "MISDEAL.REDEAL")
    assert ("el nuevo reparto es exactamente una repetición" if book == CEP else "el botón no se mueve") in text


@covers("MISDEAL.REDEAL", "legal", CEP, PKR)
@pytest.mark.parametrize("book", [CEP, PKR, T09, R003, ONLINE])
def test_an_exact_repeat_is_legal(engine: str, book: str) -> None:
    assert redeal_found(engine, pair(book), book) == []


@covers("MISDEAL.REDEAL", "violating", CEP)
@covers("MISDEAL.REDEAL", "legal", PKR)
def test_a_new_player_seated_for_the_redeal_is_an_error_under_cep_only(engine: str) -> None:
    """CEP: «no hay nuevos jugadores sentados»; PKR: «pueden entrar los jugadores que estaban penalizados o
    ausentes»."""
    cep = pair(CEP, players=FIVE, button=5)
    cep[0] = replace(cep[0], button_seat=5)  # E not seated at the original deal; same button seat
    assert redeal_found(engine, cep, CEP) == [(cep[1].hand_id, "error")]
    pkr = pair(PKR, players=FIVE, button=5)
    pkr[0] = replace(pkr[0], button_seat=5)
    assert redeal_found(engine, pkr, PKR) == []


@covers("MISDEAL.REDEAL", "violating", CEP)
@covers("MISDEAL.REDEAL", "legal", PKR)
def test_a_player_absent_at_the_original_deal_who_plays_the_redeal(engine: str) -> None:
    """CEP kills his hand after the redeal (ERROR when he plays it); PKR lets him in."""
    cep = pair(CEP, absent="D", played=True)
    assert redeal_found(engine, cep, CEP) == [(cep[1].hand_id, "error")]
    assert redeal_found(engine, pair(CEP, absent="D"), CEP) == []  # dealt, then folded: killed
    assert redeal_found(engine, pair(PKR, absent="D", played=True), PKR) == []


@covers("MISDEAL.REDEAL", "silent", T09, R003)
@pytest.mark.parametrize("book", [T09, R003, ONLINE])
def test_the_silent_books_say_nothing_of_a_moved_button(engine: str, book: str) -> None:
    assert redeal_found(engine, pair(book, button=1), book) == []


@covers("MISDEAL.REDEAL", "legal", CEP, PKR)
@pytest.mark.parametrize("book", [CEP, PKR])
def test_no_redeal_without_the_link_or_the_cancelled_original(engine: str, book: str) -> None:
    """A hand after a cancelled one is not read as its redeal unless the record links them; a link to a
    hand that was not cancelled pairs nothing."""
    assert redeal_found(engine, pair(book, button=1, linked=False), book) == []
    orig, redeal = pair(book, button=1)
    assert redeal_found(engine, [replace(orig, cancelled=False), redeal], book) == []


def test_seat_rows_keep_sitting_out() -> None:
    assert pair(CEP, absent="D")[0].seats[3] == Seat(4, "D", 20_000, True)
