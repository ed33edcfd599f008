"""PokerNow CSV logs: newest-first files rebuilt hand by hand, reconciled, and checked against the
next hand's "Player stacks" line (written by PokerNow, independent of our arithmetic)."""

from __future__ import annotations

import itertools
import re
from decimal import Decimal
from pathlib import Path

import pytest

from parsers.formats import pokernow
from parsers.formats.pokernow import FORMAT
from parsers.model import Hand, Kind, Provenance, Quarantined
from tests.conftest import real_data
from tests.parsers._site_helpers import results, sniffs
from warehouse.reconcile import reconcile_hands

WHYWAITA = ("pokernow_ohh_whywaita", "sample", "input", "poker_now_log_pglhniqprRDmWFv9sLLZZA-ru.csv")
CHARLES = ("pokernow_charlestudor", "tests", "input_examples")


def _logs() -> list[Path]:
    return [real_data(*WHYWAITA), *sorted(p for p in real_data(*CHARLES).iterdir() if p.is_file())]


def _starts(path: Path) -> int:
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if "-- starting hand #" in line)


def test_every_hand_parses_and_reconciles():
    total = 0
    for path in _logs():
        assert sniffs(FORMAT, path)
        rows = list(FORMAT.parse(path))
        assert all(isinstance(r, Hand) for r in rows), [r.reason for r in rows if isinstance(r, Quarantined)]
        assert len(rows) == _starts(path)
        total += len(rows)
        hands = [r for r in rows if isinstance(r, Hand)]
        assert len({h.hand_id for h in hands}) == len(hands)
        rec = reconcile_hands(hands)
        assert rec.filter(rec["status"] != "ok").height == 0, rec.filter(rec["status"] != "ok")
        times = [h.started_at for h in hands if h.started_at is not None]
        assert len(times) == len(hands) and times == sorted(times)  # oldest first
    assert total == 129  # data README: 129 home-game hands


def test_final_stacks_meet_the_next_hands_written_stacks():
    """stack - contributions + collected, per player, equals the stack PokerNow writes for that
    player at the start of the next hand (no rebuys happen between hands in these logs)."""
    checked = 0
    for path in _logs():
        hands = [r for r in FORMAT.parse(path) if isinstance(r, Hand)]
        for prev, nxt in itertools.pairwise(hands):
            ours = results(prev)
            for seat in nxt.seats:
                if seat.player in ours:
                    assert ours[seat.player] == seat.stack, (prev.hand_id, seat.player)
                    checked += 1
    assert checked > 400


def test_hand_worked_by_hand():
    """Input_Log_001 hand #3 at 1/2: SB completes ("calls 2" adds 1), BB checks; flop: SB
    checks, BB bets 10, SB folds; 10 returned uncalled; BB collects 4."""
    path = real_data(*CHARLES, "Input_Log_001.txt")
    hand = next(h for h in FORMAT.parse(path) if isinstance(h, Hand) and h.site_hand_no == "#3")
    got = [(a.street.value, a.player, a.kind, a.amount, a.raise_to, a.contribution) for a in hand.actions]
    assert got == [
        ("preflop", "kGN22yoaDO", Kind.POST_SB, 1, None, 1),
        ("preflop", "eNVKMq2Tcb", Kind.POST_BB, 2, None, 2),
        ("preflop", "om8gM5uHmH", Kind.FOLD, None, None, 0),
        ("preflop", "kGN22yoaDO", Kind.CALL, 1, None, 1),
        ("preflop", "eNVKMq2Tcb", Kind.CHECK, None, None, 0),
        ("flop", "kGN22yoaDO", Kind.CHECK, None, None, 0),
        ("flop", "eNVKMq2Tcb", Kind.BET, 10, 10, 10),
        ("flop", "kGN22yoaDO", Kind.FOLD, None, None, 0),
        ("flop", "eNVKMq2Tcb", Kind.UNCALLED_RETURN, 10, None, -10),
    ]
    assert [(w.player, w.amount) for w in hand.awards] == [("eNVKMq2Tcb", 4)]
    assert hand.boards[0].cards == "3sAcKd"
    assert (hand.sb, hand.bb, hand.button_seat) == (1, 2, 2)


def test_hero_and_post_hand_shows():
    """The log owner is found from shown cards equal to "Your hand is"; a voluntary show written
    after "-- ending hand #8 --" belongs to hand #8."""
    hands = [h for h in FORMAT.parse(real_data(*WHYWAITA)) if isinstance(h, Hand)]
    assert {h.hero for h in hands} == {"DtjzvbAuKs"}  # "whywaita @ DtjzvbAuKs", the exporter
    first = hands[0]
    assert (first.hole_cards[0].player, first.hole_cards[0].cards, first.hole_cards[0].provenance) == (
        "DtjzvbAuKs", "ThTd", Provenance.DEALT)
    hand8 = next(h for h in hands if h.hand_id.endswith(h.site_hand_no) and _number(h) == 8)
    assert any(a.kind is Kind.SHOW and a.player == "Oc04ITRF7i" and a.cards == "Ad9d" for a in hand8.actions)


def _number(hand: Hand) -> int:
    m = re.search(r"starting hand #(\d+)", Path(hand.source_file).read_bytes()[
        hand.byte_offset:hand.byte_offset + hand.byte_length].decode())
    assert m is not None
    return int(m.group(1))


def test_reverse_reading_is_block_size_independent(monkeypatch):
    path = real_data(*WHYWAITA)
    default = [(h.hand_id, h.byte_offset, h.byte_length, h.actions) for h in FORMAT.parse(path)
               if isinstance(h, Hand)]
    monkeypatch.setattr(pokernow, "CHUNK", 97)
    tiny = [(h.hand_id, h.byte_offset, h.byte_length, h.actions) for h in FORMAT.parse(path)
            if isinstance(h, Hand)]
    assert tiny == default
    raw = path.read_bytes()
    for _, offset, length, _ in default:
        piece = raw[offset:offset + length].decode()
        assert "-- ending hand #" in piece.splitlines()[0] or "shows" in piece.splitlines()[0]
        assert "-- starting hand #" in piece.splitlines()[-1]


def test_truncated_and_corrupted_hands_are_quarantined(tmp_path):
    lines = real_data(*WHYWAITA).read_text(encoding="utf-8").splitlines(keepends=True)
    header, body = lines[0], lines[1:]
    # newest hand cut mid-way (its ending line and last actions gone), oldest hand's header gone
    first_end = next(i for i, ln in enumerate(body) if "-- ending hand #" in ln)
    cut_top = body[first_end + 3:]
    last_start = max(i for i, ln in enumerate(cut_top) if "-- starting hand #" in ln)
    cut = cut_top[:last_start]
    # corrupt one raise in the middle
    mid = next(i for i, ln in enumerate(cut) if "raises to" in ln and i > len(cut) // 2)
    cut[mid] = re.sub(r"raises to \d+", "raises to lots", cut[mid])
    path = tmp_path / "cut.csv"
    path.write_text(header + "".join(cut), encoding="utf-8")
    rows = list(FORMAT.parse(path))
    quarantined = [r for r in rows if isinstance(r, Quarantined)]
    hands = [r for r in rows if isinstance(r, Hand)]
    reasons = sorted(q.reason.split(" '")[0].split(" (")[0] for q in quarantined)
    assert "hand has no ending line" in reasons
    assert any("unrecognised action" in r for r in reasons)
    assert any(r.startswith("hand line outside any hand") for r in reasons)
    assert len(hands) == 121 - 3  # the cut newest, the headless oldest and the corrupted one
    rec = reconcile_hands(hands)
    assert rec.filter(rec["status"] != "ok").height == 0


def test_decimal_amounts_get_cents(tmp_path):
    """The same log with every amount written in hundredths (2000 -> 20.00) parses to the same
    integers with unit_scale 100."""
    src = real_data(*CHARLES, "Input_Log_002.csv")
    text = src.read_text(encoding="utf-8")

    def cents(m: re.Match[str]) -> str:
        return f"{m.group(1)}{Decimal(m.group(2)) / 100:.2f}"

    amounts = re.compile(r"(\b(?:of|to|calls|bets|collected) |\()(\d+)\b")
    path = tmp_path / "cents.csv"
    path.write_text(amounts.sub(cents, text), encoding="utf-8")
    before = [h for h in FORMAT.parse(src) if isinstance(h, Hand)]
    after = [h for h in FORMAT.parse(path) if isinstance(h, Hand)]
    assert {h.unit_scale for h in before} == {1} and {h.unit_scale for h in after} == {100}
    assert [[(a.kind, a.contribution) for a in h.actions] for h in after] == \
        [[(a.kind, a.contribution) for a in h.actions] for h in before]
    assert [h.seats for h in after] == [h.seats for h in before]


@pytest.mark.parametrize("head", ["entry,at,order\n", "a,b,c\n-- starting hand #1"])
def test_sniff_needs_header_and_hand_lines(head):
    assert FORMAT.sniff(head) is False


def test_a_bare_carriage_return_inside_a_line_costs_at_most_that_hand(tmp_path):
    """Found by the fuzz test: csv refuses a line with a bare CR in an unquoted field, and that
    used to crash the whole file instead of losing (at most) the hand the line belonged to."""
    src = real_data(*WHYWAITA)
    lines = src.read_text(encoding="utf-8").splitlines(keepends=True)
    mid = next(i for i, ln in enumerate(lines) if "calls" in ln and i > len(lines) // 2)
    at = lines[mid].rindex(",") + 3  # inside the unquoted order number (a quoted field would take it)
    lines[mid] = lines[mid][:at] + "\r" + lines[mid][at:]
    path = tmp_path / "cr.csv"
    path.write_bytes("".join(lines).encode("utf-8"))
    rows = list(FORMAT.parse(path))
    hands = [r for r in rows if isinstance(r, Hand)]
    before = [r for r in FORMAT.parse(src) if isinstance(r, Hand)]
    assert len(rows) == len(before) and len(hands) >= len(before) - 1
    assert all(q.reason and q.source_file == str(path) for q in rows if isinstance(q, Quarantined))
