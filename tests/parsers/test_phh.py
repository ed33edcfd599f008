"""PHH: every supported hand parses and reconciles; pokerkit's replay agrees with the files.

Our awards are derived from ``finishing_stacks`` (module docstring of parsers.formats.phh), so
the final-stack equation is tautological. The independent checks here are: pokerkit replays each
hand from its actions and must reach the file's finishing stacks and ours; every player who folded
must come out with exactly stack - our contribution (no award), which tests our own chip tracking.
"""

from __future__ import annotations

from collections import Counter, deque
from fractions import Fraction
from pathlib import Path

import pytest
from pokerkit import HandHistory

from parsers.formats.phh import FORMAT
from parsers.model import Hand, Kind, Provenance, Quarantined
from tests.conftest import real_data
from tests.parsers._site_helpers import results, sniffs
from warehouse.reconcile import reconcile_hands

STUD_DRAW = {"F7S", "F7S/8", "FR", "N2L1D", "F2L3D", "FB"}
#: famous hands whose files state no result (no finishing_stacks / winnings) and end in a showdown
#: (two of them badugi and 2-7 triple draw, read since issue 12)
NO_RESULT_WRITTEN = {"antonius-blom-2009.phh", "dwan-ivey-2009.phh", "phua-xuan-2019.phh",
                     "alice-carol-wikipedia.phh", "arieh-yockey-2019.phh"}


def _files() -> list[Path]:
    return sorted(real_data("phh_pokerkit_history", "data").rglob("*.phh"))


@pytest.fixture(scope="module")
def parsed() -> dict[Path, list[Hand | Quarantined]]:
    return {f: list(FORMAT.parse(f)) for f in _files()}


def _variant(path: Path) -> str:
    for line in path.read_text().splitlines():
        if line.startswith("variant"):
            return line.split("=", 1)[1].strip().strip("'\"")
    raise AssertionError(path)


def test_every_file_parses_every_variant_too(parsed):
    hands = {f: r[0] for f, r in parsed.items() if isinstance(r[0], Hand)}
    assert all(len(r) == 1 for r in parsed.values())  # one hand per .phh file
    assert len(parsed) == 3463 + 83 + 5  # data README: Pluribus, WSOP final table, famous hands
    assert len(hands) == len(parsed)  # stud, razz and draw games too (issue 12)
    assert {_variant(f) for f in hands} == {"NT", "NS", "PO", "FT", "FO/8"} | STUD_DRAW
    assert Counter(h.variant for f, h in hands.items() if _variant(f) in STUD_DRAW) == {
        "stud": 13, "stud_hilo": 7, "razz": 10, "draw27_single": 7, "draw27_triple": 8, "badugi": 1}
    assert len({h.hand_id for h in hands.values()}) == len(hands)


def test_reconciliation_ok_except_hands_without_a_written_result(parsed):
    hands = [r[0] for r in parsed.values() if isinstance(r[0], Hand)]
    rec = reconcile_hands(hands)
    bad = rec.filter(rec["status"] != "ok")
    by_id = {h.hand_id: Path(h.source_file).name for h in hands}
    assert {by_id[i] for i in bad["hand_id"]} == NO_RESULT_WRITTEN
    assert rec.filter(rec["status"] == "ok").height == len(hands) - 5


def test_pokerkit_replay_matches_finishing_stacks_and_ours(parsed):
    """Replay every Pluribus and supported WSOP hand with pokerkit (an independent engine).

    Named anomalies: three Pluribus files write a tied pot split into half chips (10387.5 each,
    as the ACPC dealer did); pokerkit awards whole chips, the odd one to the first tied player. A
    razz hand all in on sixth street writes the shows before the seventh-street cards, which
    pokerkit cannot replay ("Unable to repair"): only our reading is checked against the file."""
    replayed = 0
    half_chip_files: list[str] = []
    unreplayable: list[str] = []
    for path, rows in parsed.items():
        hand = rows[0]
        if not isinstance(hand, Hand) or path.name in NO_RESULT_WRITTEN:
            continue
        history = HandHistory.loads(path.read_text())
        assert history.finishing_stacks is not None
        written = [Fraction(str(s)) for s in history.finishing_stacks]
        ours = results(hand)
        assert [Fraction(ours[s.player], hand.unit_scale) for s in hand.seats] == written, path
        try:
            (state,) = deque(history, maxlen=1)  # the final state of the replay
        except ValueError:
            unreplayable.append(path.relative_to(path.parents[4]).as_posix())
            continue
        pokerkit_final = [Fraction(s) for s in state.stacks]
        if pokerkit_final != written:
            # the file splits a tied pot into half chips; pokerkit gives the odd chip to one player
            diffs = sorted(p - w for p, w in zip(pokerkit_final, written, strict=True) if p != w)
            assert diffs == [Fraction(-1, 2), Fraction(1, 2)], path
            half_chip_files.append(path.relative_to(path.parents[2]).as_posix())
        replayed += 1
    assert half_chip_files == ["pluribus/32/23.phh", "pluribus/41b/204.phh", "pluribus/60/88.phh"]
    assert unreplayable == ["wsop/2023/43/5/85.phh"]
    assert replayed == 3463 + 39 + 43  # and 43 WSOP stud, razz and draw hands with a written result


def test_folded_players_lose_exactly_what_we_say_they_put_in(parsed):
    """A folded player wins nothing: the file's finishing stack must equal stack - our total
    contribution, so our call amounts and raise-to arithmetic are checked against the file."""
    checked = 0
    for rows in parsed.values():
        hand = rows[0]
        if not isinstance(hand, Hand):
            continue
        folded = {a.player for a in hand.actions if a.kind is Kind.FOLD}
        won = {w.player for w in hand.awards}
        assert not folded & won, hand.source_file
        assert all(w.amount > 0 for w in hand.awards)
        checked += len(folded)
    assert checked > 10_000


def test_pluribus_hand_worked_by_hand():
    """42b/197: p5 raises to 225, p2 (BB) calls 125 more, checked down; pot 50+225+225=500 goes
    to Bill (the file's finishing stack 10275 = 10000 - 225 + 500)."""
    path = real_data("phh_pokerkit_history", "data", "pluribus", "42b", "197.phh")
    (hand,) = FORMAT.parse(path)
    assert isinstance(hand, Hand)
    got = [(a.street.value, a.player, a.kind, a.amount, a.raise_to, a.contribution) for a in hand.actions
           if a.kind not in (Kind.FOLD, Kind.CHECK)]
    assert got == [
        ("preflop", "Pluribus", Kind.POST_SB, 50, None, 50),
        ("preflop", "ORen", Kind.POST_BB, 100, None, 100),
        ("preflop", "Bill", Kind.RAISE, 125, 225, 225),
        ("preflop", "ORen", Kind.CALL, 125, None, 125),
        ("showdown", "ORen", Kind.SHOW, None, None, 0),
        ("showdown", "Bill", Kind.SHOW, None, None, 0),
    ]
    assert [(w.player, w.amount) for w in hand.awards] == [("Bill", 500)]
    assert hand.boards[0].cards == "KhJcAh6s5s"
    assert {h.provenance for h in hand.hole_cards} == {Provenance.OPERATOR} and len(hand.hole_cards) == 6


def test_wsop_uncalled_shove_and_bb_ante():
    """WSOP hand 2: BB ante 120,000 (dead); Ashton shoves to 4,990,000 and Obst folds having
    raised to 875,000: 4,115,000 is returned uncalled."""
    path = real_data("phh_pokerkit_history", "data", "wsop", "2023", "43", "5", "2.phh")
    (hand,) = FORMAT.parse(path)
    assert isinstance(hand, Hand)
    assert hand.bb_ante == 120_000 and hand.game_type == "tournament"
    kinds = Counter(a.kind for a in hand.actions)
    assert kinds[Kind.POST_BB_ANTE] == 1
    (ret,) = [a for a in hand.actions if a.kind is Kind.UNCALLED_RETURN]
    assert (ret.player, ret.contribution) == ("Matthew Ashton", -(4_990_000 - 875_000))
    assert hand.hand_id.startswith("phh:2023 World Series of Poker Event #43") and hand.hand_id.endswith(":2")


def test_bad_sections_of_a_phhs_file_are_quarantined(tmp_path):
    good1 = real_data("phh_pokerkit_history", "data", "pluribus", "42b", "197.phh").read_text()
    good2 = real_data("phh_pokerkit_history", "data", "wsop", "2023", "43", "5", "2.phh").read_text()
    stud = real_data("phh_pokerkit_history", "data", "wsop", "2023", "43", "5", "10.phh").read_text()  # F7S
    truncated = good1[: good1.index("actions") + 60]  # cut inside the actions array
    corrupted = good1.replace("'p5 cbr 225'", "'p9 cbr 225'")
    text = "".join(f"[{i}]\n{body.strip()}\n\n" for i, body in
                   enumerate([good1, truncated, corrupted, stud, good2], 1))
    path = tmp_path / "mixed.phhs"
    path.write_text(text)
    assert sniffs(FORMAT, path)
    rows = list(FORMAT.parse(path))
    assert [type(r).__name__ for r in rows] == ["Hand", "Quarantined", "Quarantined", "Hand", "Hand"]
    q = [r for r in rows if isinstance(r, Quarantined)]
    assert q[0].reason.startswith("TOML error")
    assert "bad player 'p9'" in q[1].reason
    assert isinstance(rows[3], Hand) and rows[3].variant == "stud"  # F7S, read since issue 12
    for r in q:
        assert text.encode()[r.byte_offset:].startswith(r.raw_text.encode())
    (alone,) = FORMAT.parse(real_data("phh_pokerkit_history", "data", "pluribus", "42b", "197.phh"))
    assert isinstance(rows[0], Hand) and isinstance(alone, Hand)
    assert rows[0].hand_id == alone.hand_id  # same hand text, same id, whatever the file



def test_sniffing_is_by_content():
    assert all(sniffs(FORMAT, f) for f in _files()[:200])
    spec_pages = real_data("phh-std_spec")
    assert not any(sniffs(FORMAT, f) for f in spec_pages.iterdir() if f.is_file())  # PHH quoted in prose


def test_fixed_limit_bb_is_the_written_small_bet():
    # FO/8 with a single blind: "blinds_or_straddles = [250000, 0, 0, 0]", "small_bet = 250000";
    # the model's bb is the small bet (was 0, so every limit bet looked oversized)
    path = real_data("phh_pokerkit_history", "data", "wsop", "2023", "43", "5", "76.phh")
    (hand,) = [h for h in FORMAT.parse(path) if isinstance(h, Hand)]
    assert (hand.betting, hand.sb, hand.bb) == ("FL", 250000, 250000)


def test_rake_user_field_is_the_site_rake(tmp_path):
    """The simulator's ``--format phh`` writes ``rake`` and finishing stacks net of it.

    Independent check: the rake we read must equal what the finishing stacks imply (put in minus
    the derived awards), and every raked hand then reconciles; real PHH files write no rake.
    """
    import tomllib

    from pipelines.cli import main

    out = tmp_path / "phh"
    assert main(["simulate", "--hands", "120", "--seed", "5", "--out", str(out), "--truth",
                 str(tmp_path / "truth.json"), "--format", "phh", "--players", "12", "--start", "2026-11-29"]) == 0
    (path,) = sorted(out.glob("*.phhs"))
    written = {f"{doc['event']}:table {doc['table']}:{doc['hand']}": doc["rake"]
               for doc in tomllib.loads(path.read_text()).values()}
    hands = [h for h in FORMAT.parse(path) if isinstance(h, Hand)]
    assert len(hands) == len(written) == 120
    raked = 0
    for h in hands:
        implied = sum(a.contribution for a in h.actions) - sum(a.amount for a in h.awards)
        assert h.site_rake == implied == round(Fraction(str(written[h.site_hand_no])) * 100)
        raked += implied > 0
    assert raked > 10
    frame = reconcile_hands(hands)
    assert frame.filter(frame["status"] != "ok").height == 0
    (real,) = FORMAT.parse(real_data("phh_pokerkit_history", "data", "pluribus", "42b", "197.phh"))
    assert isinstance(real, Hand) and real.site_rake is None


def test_derived_uncalled_return_closes_the_street_of_the_bet():
    """Dwan-Ivey 2009: the shows are written before the turn and river are dealt.

    Dwan has 553,500 - 500 ante - 23,000 - 35,000 = 495,000 on the turn and calls Ivey's raise to
    1,067,100 all in, so 1,067,100 - 495,000 = 572,100 comes back to Ivey on the turn, before the
    showdown (not after the river deal, where no bet was made).
    """
    (hand,) = FORMAT.parse(real_data("phh_pokerkit_history", "data", "dwan-ivey-2009.phh"))
    assert isinstance(hand, Hand)
    tail = [(a.street.value, a.player, a.kind, a.contribution) for a in hand.actions[-4:]]
    assert tail == [
        ("turn", "Tom Dwan", Kind.CALL, 495_000 - 232_600),
        ("turn", "Phil Ivey", Kind.UNCALLED_RETURN, -572_100),
        ("showdown", "Phil Ivey", Kind.SHOW, 0),
        ("showdown", "Tom Dwan", Kind.SHOW, 0),
    ]
    assert [a.seq for a in hand.actions] == list(range(len(hand.actions)))
