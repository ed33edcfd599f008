"""PokerStars parser on real hand histories (fpdb regression files, HHSmithy, hhp, pokerregion).

Expected amounts come from the files themselves (the "Total pot | Rake" line, "collected" and
"cashed out" lines, the posts written in the hand), from fpdb's own parse (.hp files beside the
histories) or from arithmetic on the written actions, never from this parser's output.
"""

from __future__ import annotations

import ast
from collections import Counter
from datetime import datetime
from pathlib import Path

import pytest

from parsers.formats.pokerstars import FORMAT
from parsers.model import Hand, Kind, Provenance, Quarantined, Street
from parsers.reading import read_head
from tests.conftest import real_data
from tests.parsers._site_helpers import parse_all, sniffs
from warehouse.reconcile import reconcile_hands

FLOP = ("fpdb3_regression", "regression-test-files", "cash", "Stars", "Flop")
SMITHY = ("hhsmithy_sample_hh", "HandHistories.Parser.UnitTests", "SampleHandHistories", "PokerStars", "CashGame")
HHP = ("hhp", "test", "fixtures", "holdem", "pokerstars")

#: hands whose file is missing a line, each a mismatch with its exact difference (in cents):
#: (file, awards+rake+fees-contributed, contributed-site_total_pot). All but AnteTable lack the
#: "Uncalled bet (X) returned" line (2005 PokerStars, PT2/HM1 tracker exports, hand-edited
#: HHSmithy samples); AnteTable (an HHSmithy sample with ante lines) writes "Total pot $0.50"
#: and "collected $0.50" although its lines put in $0.90 (blinds, six $0.05 antes, a raise).
KNOWN_MISMATCHES = {
    "pokerstars:2467687491": ("LHE-10max-USD-1.00-2.00-200508.hero.takes.a.walk.txt", -50, 50),
    "pokerstars:2428142447": ("LHE-10max-USD-1.00-2.00-No_max_seats.txt", -100, 100),
    "pokerstars:2344646393": ("LHE-USD-1.00-200508.BB.and.Button.same.player.txt", -50, 50),
    "pokerstars:1003659126": ("NLHE-10max-USD-1.00-2.00-200910.HM1.export.raiseTo.txt", -750, 815),
    "pokerstars:1002775011": ("NLHE-10max-USD-1.00-2.00-200910.HM1.shows.one.txt", -5600, 5900),
    "pokerstars:13177128246": ("NLHE-6max-USD-2.00-4.00.PT2.export.txt", -2400, 2400),
    "pokerstars:61777648755": ("DateIssue1.txt", -250, 250),
    "pokerstars:61910233643": ("DateIssue2.txt", -3600, 3600),
    "pokerstars:109715173634": ("AnteTable.txt", -40, 40),
}

#: damaged hands in the data, quarantined: file -> words the reason must contain
KNOWN_QUARANTINE = {
    "WithSittingOut.txt": "Blahdieblah: posts big blind",  # seat says "Blahdi:42eblah" (edited sample)
    "NLHE-6max-USD-3.00-6.00-201310.old.converted.walk.txt": "Table deposit",  # converter line
    "PLO-6max-USD-5-10-201509.converted.format.txt": "Table leave user",  # converter line
    "PLO-6max-USD-2.00-4.00-201403.2.partial.txt": "line",  # cut-off file
    "PLO-6max-USD-200-400-201510.partial.observed.txt": "line",  # cut-off file
    "InValidHand.txt": "truncated hand",
}


def flop(name: str) -> Path:
    return real_data(*FLOP, name)


def parse(path: Path) -> tuple[list[Hand], list[Quarantined]]:
    return parse_all(FORMAT, [path])


def one(path: Path) -> Hand:
    hands, bad = parse(path)
    assert bad == [] and len(hands) == 1
    return hands[0]


def put_in(hand: Hand) -> Counter[str]:
    c: Counter[str] = Counter()
    for a in hand.actions:
        c[a.player] += a.contribution
    return c


def status(hand: Hand) -> dict[str, object]:
    row: dict[str, object] = reconcile_hands([hand]).row(0, named=True)
    return row


def stars_files() -> list[Path]:
    root = real_data()
    out = []
    for p in sorted(root.rglob("*.txt")):
        if sniffs(FORMAT, p):
            out.append(p)
    return out


# --- the whole corpus -------------------------------------------------------------------------


def test_every_supported_hand_parses_and_reconciles() -> None:
    parsed: list[Hand] = []
    reasons: Counter[str] = Counter()
    damaged = 0
    damaged_files: set[str] = set()
    for path in stars_files():
        hands, bad = parse(path)
        if "vitamintk" in str(path):
            # not PokerStars output: every hand quarantined with the converter named
            assert hands == []
            assert all("converter" in q.reason for q in bad), {q.reason for q in bad}
            continue
        for q in bad:
            if "unsupported variant: " in q.reason:
                reasons[q.reason.split("unsupported variant: ")[1]] += 1
                continue
            expected = KNOWN_QUARANTINE.get(path.name)
            assert expected is not None and expected in q.reason, (path.name, q.reason)
            assert q.reason.startswith("line "), q.reason  # names the line
            damaged += 1
            damaged_files.add(path.name)
        seen = set()
        for h in hands:  # the same sample hand is copied into several files: reconcile once per file
            if h.hand_id not in seen:
                seen.add(h.hand_id)
                parsed.append(h)
    # stud, razz, draw and badugi are read too (issue 12: tests/parsers/test_stud_draw.py): no game is left
    assert set(reasons) == set()
    # every undamaged hand of a supported variant parses; the damaged ones are the named six
    assert damaged_files == set(KNOWN_QUARANTINE)
    assert damaged == 8  # WithSittingOut.txt is copied in two folders; one partial file cuts two hands
    assert len(parsed) >= 420  # distinct hands per file (475 with repeats)
    by_id = {h.hand_id: h for h in parsed}
    frames = [reconcile_hands([h]) for h in parsed]
    mismatches = {}
    for df in frames:
        row = df.row(0, named=True)
        assert row["status"] in ("ok", "cancelled", "mismatch")
        if row["status"] == "mismatch":
            mismatches[row["hand_id"]] = (
                Path(by_id[row["hand_id"]].source_file).name, row["diff_awards"], row["diff_total_pot"],
            )
    assert mismatches == KNOWN_MISMATCHES


def test_pluribus_converter_is_quarantined_with_reason() -> None:
    hands, bad = parse(real_data("pluribus_pokerstars_vitamintk", "out", "pluribus_30.txt"))
    assert hands == [] and len(bad) > 50
    assert "line 25: chip amount '250.0' written as a decimal" in bad[0].reason


def test_lookalike_sites_are_not_claimed() -> None:
    for name in (
        "5-Card-PLO-6max-USD-15-30-201905.PokerMaster.txt",
        "NLHE-6max-USD-0.50-1.00-202103.PokerBros.txt",
        "NLHE-6max-play-5-10-201605.FullTilt.txt",
        "NLHE-6max-EUR-0.05-0.10-201906.RIO.hero.txt",
        "NLHE-9-max-USD-2.00-4.00-201901.PokerMaster.w.Straddle.txt",
    ):
        assert not FORMAT.sniff(read_head(flop(name))[1]), name
    gg = real_data("fpdb3_regression", "regression-test-files", "cash", "GGPoker")
    for p in sorted(gg.rglob("*.txt"))[:5]:
        assert not FORMAT.sniff(read_head(p)[1]), p


# --- targeted hands, exact amounts ------------------------------------------------------------


def test_run_it_twice_cp1252_euro() -> None:
    # cp1252 file: the € is byte 0x80; the ISO code says EUR
    h = one(flop("NLHE-6max-EUR-1.00-2.00-201212.RunItTwice.txt"))
    assert (h.currency, h.unit_scale, h.sb, h.bb) == ("EUR", 100, 100, 200)
    assert [(b.board_no, b.cards) for b in h.boards] == [(1, "Js9hJhQs2d"), (2, "Js9hJhQs5h")]
    assert [(a.player, a.amount, a.pot_no, a.board_no) for a in h.awards] == [
        ("Hero", 11159, 0, 1),
        ("Hero", 11158, 0, 2),
    ]
    assert (h.site_total_pot, h.site_rake) == (22532, 215)
    assert h.started_at == datetime(2012, 12, 14, 0, 59, 19)  # 19:59:19 ET (EST, UTC-5)
    assert status(h)["status"] == "ok"
    # Player1 mucked, cards from the summary's "mucked [9s Ah]"
    assert ("Player1", "9sAh", Provenance.SHOWN) in [tuple(c) for c in h.hole_cards]


def test_side_pots_numbered_from_the_site_labels() -> None:
    hands, bad = parse(flop("PLO-FR-USD-0.01-0.02-201006.sidepots.txt"))
    assert bad == []
    h = next(x for x in hands if any(a.pot_no == 2 for a in x.awards))
    # "Player2 collected $0.29 from side pot-2", "Player0 … $0.88 from side pot-1", "… $2.35 from main pot"
    assert sorted((a.pot_no, a.player, a.amount) for a in h.awards) == [
        (0, "Player0", 235), (1, "Player0", 88), (2, "Player2", 29),
    ]
    assert (h.site_total_pot, h.site_rake) == (370, 18)
    assert h.pots == []  # written pots are after rake here: not emitted
    assert status(h)["status"] == "ok"


def test_tournament_antes_side_pots_and_all_in_post() -> None:
    h = one(real_data(*HHP, "posts-allin.txt"))
    assert (h.game_type, h.currency, h.unit_scale, h.tournament_id, h.tournament_level) == (
        "tournament", "CHIPS", 1, "1689829479", "I",
    )
    assert (h.sb, h.bb, h.ante) == (10, 20, 3)
    antes = [a for a in h.actions if a.kind is Kind.POST_ANTE]
    assert len(antes) == 8 and all(a.contribution == 3 for a in antes)
    bb = next(a for a in h.actions if a.kind is Kind.POST_BB)
    assert (bb.player, bb.amount, bb.all_in) == ("norgas69", 11, True)
    assert put_in(h)["norgas69"] == 14  # ante 3 + big blind 11 = the 14 chips it sat with
    # "Total pot 1005 Main pot 67. Side pot 938. | Rake 0": no rake, so the pots are pre-rake
    assert [(p.pot_no, p.amount) for p in h.pots] == [(0, 67), (1, 938)]
    assert h.site_total_pot == 1005
    assert status(h)["status"] == "ok"


def test_uncalled_bet_is_a_negative_contribution() -> None:
    h = one(flop("2025-NL-uncalled-bet.txt"))
    ret = [a for a in h.actions if a.kind is Kind.UNCALLED_RETURN]
    assert [(a.player, a.amount, a.contribution) for a in ret] == [("Hero", 34, -34)]
    # Total pot $5.86 | Rake $0.36, Hero collected $5.50
    assert (h.site_total_pot, h.site_rake, sum(a.amount for a in h.awards)) == (586, 36, 550)
    assert sum(put_in(h).values()) == 586
    assert h.started_at == datetime(2025, 4, 24, 15, 21, 34)  # 11:21:34 ET (EDT, UTC-4)


def test_cash_out_by_the_loser_stays_outside_the_pot() -> None:
    h = one(flop("2025-NL-6max-USD-0.05-0.10.cashout.txt"))
    cash = [a for a in h.actions if a.kind is Kind.CASH_OUT]
    assert [(a.player, a.amount, a.contribution) for a in cash] == [("Player3", 2277, 0)]
    assert [(a.player, a.amount) for a in h.awards] == [("Player1", 2596)]
    assert (h.site_total_pot, h.site_rake, h.site_fees) == (2721, 125, 0)
    assert status(h)["status"] == "ok"


def test_cash_out_by_the_winners_the_pot_goes_to_the_site() -> None:
    h = one(flop("6+Holdem-6max-USD-0.25-0.25.multiple.Cash.Out.txt"))
    assert h.variant == "holdem_6plus" and (h.sb, h.bb, h.ante) == (0, 25, 25)
    cash = {a.player: a.amount or 0 for a in h.actions if a.kind is Kind.CASH_OUT}
    assert cash == {"Player0": 1070, "Hero": 6026}
    # "won ($71.68) … (pot not awarded as player cashed out)": the site kept it
    assert h.awards == [] and h.site_fees == 7168
    assert (h.site_total_pot, h.site_rake) == (7368, 200)
    # the site paid out what it took: both cash-outs plus their fees ($0.11 + $0.61)
    assert sum(cash.values()) + 11 + 61 == h.site_fees
    assert status(h)["status"] == "ok"


def test_hi_lo_split_run_twice_courchevel() -> None:
    h = one(flop("PL-Courchevel-HL-6max-USD-1.00-2.00-201303.Run.It.Twice.txt"))
    assert h.variant == "courchevel_hilo" and h.betting == "PL"
    assert sorted((a.board_no, a.player, a.amount) for a in h.awards) == [
        (1, "Hero", 4075), (1, "Player0", 4075), (2, "Hero", 2038), (2, "Player0", 2037), (2, "Player0", 4075),
    ]
    assert (h.site_total_pot, h.site_rake) == (16350, 50)
    assert status(h)["status"] == "ok"


def test_capped_no_limit_and_fpdb_profit_oracle() -> None:
    h = one(flop("NLHE-CAP-9max-USD-0.25-0.50-201011.Capped.preflop.txt"))
    assert h.betting == "CAP"
    hp = ast.literal_eval(flop("NLHE-CAP-9max-USD-0.25-0.50-201011.Capped.preflop.txt.hp").read_text())
    won = Counter({a.player: 0 for a in h.actions})
    for a in h.awards:
        won[a.player] += a.amount
    paid = put_in(h)
    for player, stats in hp.items():
        assert won[player] - paid[player] == stats["totalProfit"], player
    assert status(h)["status"] == "ok"


#: every real "has reached the $X cap" line: (file path under SMITHY or FLOP, hand, player, cap in cents)
CAP_LINES = [
    ((*FLOP, "NLHE-CAP-9max-USD-0.25-0.50-201011.Capped.preflop.txt"), "pokerstars:52151000000", "Villain", 1000),
    ((*SMITHY, "RunItTwiceTests", "RunItTwice2.txt"), "pokerstars:133974380110", "Gamz11", 8000),
    ((*SMITHY, "RunItTwiceTests", "RunItTwice2.txt"), "pokerstars:133974380110", "Garnerus", 8000),
    ((*SMITHY, "Tables", "Table6.txt"), "pokerstars:109706737260", "ekologe", 2000),
    ((*SMITHY, "ExtraHands", "DateIssue2.txt"), "pokerstars:61910233643", "DarkEvilus", 4000),
]


@pytest.mark.parametrize(("parts", "hand_id", "player", "cap"), CAP_LINES)
def test_reaching_the_cap_is_all_in(parts: tuple[str, ...], hand_id: str, player: str, cap: int) -> None:
    """PokerStars CAP games: "Once that limit is reached, the player is treated as all-in" (its
    limits page). The line "... and has reached the $X cap" is the site saying so; the header's
    "- $X Cap -" is the same X, and the capping action takes the player's hand total to exactly X."""
    path = real_data(*parts)
    hands, _bad = parse(path)
    h = next(x for x in hands if x.hand_id == hand_id)
    assert h.betting == "CAP"
    header_cap = path.read_text(encoding="utf-8-sig").split(" Cap -")[0].rpartition("- $")[2]
    assert int(header_cap) * 100 == cap
    capping = [a for a in h.actions if a.player == player and a.all_in]
    assert len(capping) == 1, capping
    assert capping[0].kind in (Kind.RAISE, Kind.CALL)
    through = h.actions[: h.actions.index(capping[0]) + 1]
    assert sum(a.contribution for a in through if a.player == player) == cap
    # the capped stack was larger than the cap: only the cap line makes this an all-in
    assert next(s.stack for s in h.seats if s.player == player) > cap


def test_cap_reached_run_twice_amounts() -> None:
    """RunItTwice2.txt: $2 + $78 (Gamz11, raise to the $80 cap) + $4 (big blind) + $80 (Garnerus,
    $8 then a $72 call to the cap) = "Total pot $164 | Rake $2.80"; four "collected $40.30"."""
    hands, _bad = parse(real_data(*SMITHY, "RunItTwiceTests", "RunItTwice2.txt"))
    h = next(x for x in hands if x.hand_id == "pokerstars:133974380110")
    assert put_in(h) == Counter({"Gamz11": 8000, "Garnerus": 8000, "bobloblaw87": 400})
    assert [(a.player, a.kind, a.all_in) for a in h.actions if a.kind in (Kind.RAISE, Kind.CALL)] == [
        ("Garnerus", Kind.RAISE, False), ("Gamz11", Kind.RAISE, True), ("Garnerus", Kind.CALL, True),
    ]
    assert (h.site_total_pot, h.site_rake) == (16400, 280)
    assert sorted((a.board_no, a.player, a.amount) for a in h.awards) == [
        (1, "Gamz11", 4030), (1, "Garnerus", 4030), (2, "Gamz11", 4030), (2, "Garnerus", 4030),
    ]
    assert status(h)["status"] == "ok"


def test_split_holdem_is_its_own_variant_with_two_boards() -> None:
    """Split Hold'em: two boards dealt by design, each worth half the pot (not run it twice:
    nobody is all-in, betting goes on after both flops). SB $1 + BB $2 + Player1 and Player2
    $6 + $7.41 + $20 each = $69.82 = "Total pot $69.82 | Rake $2.75"; "collected $33.54" on the
    first board, "$33.53" on the second."""
    h = one(flop("NLHE-Split-6max-USD-1.00-2.00-201803.txt"))
    assert (h.variant, h.betting) == ("holdem_split", "NL")
    assert [(b.board_no, b.cards) for b in h.boards] == [(1, "Ks4c8c8d6h"), (2, "4sQd5hAcTs")]
    assert put_in(h) == Counter({"Player1": 3341, "Player2": 3341, "Hero": 100, "Player3": 200})
    assert not any(a.all_in for a in h.actions)
    assert [a.street for a in h.actions if a.kind is Kind.BET] == [Street.FLOP, Street.TURN]
    assert sorted((a.board_no, a.player, a.amount) for a in h.awards) == [(1, "Player1", 3354), (2, "Player2", 3353)]
    assert (h.site_total_pot, h.site_rake) == (6982, 275)
    assert status(h)["status"] == "ok"


@pytest.mark.parametrize(
    "name",
    ["NLHE-6max-USD-0.05-0.10-200912.Allin-pre.txt", "NLHE-FR-USD-0.01-0.02-201004.4betPF.txt",
     "PLO8-9max-USD-0.01-0.02-20100829.No.VPIP.from.posted.bb.txt"],
)
def test_fpdb_hp_profit_and_rake_oracle(name: str) -> None:
    h = one(flop(name))
    hp = ast.literal_eval(flop(name + ".hp").read_text())
    won: Counter[str] = Counter()
    for a in h.awards:
        won[a.player] += a.amount
    paid = put_in(h)
    for player, stats in hp.items():
        assert won[player] - paid[player] == stats["totalProfit"], player
    assert sum(s["rake"] for s in hp.values()) == h.site_rake
    assert status(h)["status"] == "ok"


def test_all_in_flags_on_raise_and_call() -> None:
    h = one(flop("NLHE-6max-USD-0.05-0.10-200912.Allin-pre.txt"))
    flagged = [(a.player, a.kind, a.amount) for a in h.actions if a.all_in]
    assert flagged and all(k in (Kind.RAISE, Kind.CALL, Kind.BET) for _, k, _ in flagged)
    text = flop("NLHE-6max-USD-0.05-0.10-200912.Allin-pre.txt").read_text(encoding="utf-8")
    assert len(flagged) == text.count("and is all-in")


def test_utf8_bom_and_limit_blinds() -> None:
    hands, bad = parse(flop("HH20100819 Vibilia II - $0,02-$0,04 - USD Лимит Холдем.txt"))
    assert bad == [] and hands
    h = hands[0]
    assert h.byte_offset == 3  # after the BOM
    assert (h.betting, h.currency) == ("FL", "USD")
    assert (h.sb, h.bb) == (1, 2)  # $0.02/$0.04 limit: the blinds are $0.01/$0.02
    assert h.started_at == datetime(2010, 8, 20, 1, 1, 22)  # 21:01:22 ET (EDT)


def test_zoom_archive_layout_has_no_banner_quarantine() -> None:
    path = flop("NLHE-6max-USD-0.01-0.02-201301.zoom.archive.format.txt")
    hands, bad = parse(path)
    assert bad == []
    banners = sum(1 for line in path.read_text().splitlines() if line.startswith("*********** #"))
    assert len(hands) == banners
    assert hands[0].hand_id == "pokerstars:92033097906" and hands[0].hero == "Hero"


def test_old_mac_line_endings() -> None:
    h = one(real_data(*SMITHY, "Limits", "GbpTable.txt"))
    assert (h.currency, h.sb, h.bb) == ("GBP", 10, 25)
    assert status(h)["status"] == "ok"


def test_cancelled_hand() -> None:
    hands, bad = parse(flop("LO8-6max-USD-0.05-0.10-20090315.Hand-cancelled.txt"))
    assert bad == [] and any(h.cancelled for h in hands)


def test_names_with_colons_brackets_and_parens() -> None:
    h = one(real_data(*SMITHY, "ExtraHands", "PlayerNameWithSlashesAndSquareBrackets.txt"))
    assert status(h)["status"] == "ok"
    h = one(real_data(*HHP, "cash.zoom.2017.parens-in-playername.txt"))
    assert status(h)["status"] == "ok"


# --- operator exports, dead blinds, straddles (no real PokerStars file has them) ---------------


def _edited(tmp_path: Path, source: Path, edit: dict[str, str]) -> Path:
    text = source.read_text(encoding="utf-8")
    for old, new in edit.items():
        assert old in text
        text = text.replace(old, new, 1)
    out = tmp_path / source.name
    out.write_text(text, encoding="utf-8")
    return out


def test_operator_mode_every_dealt_to_line(tmp_path: Path) -> None:
    # the cash-out hand with the two showdown hands also written as Dealt-to lines
    src = flop("2025-NL-6max-USD-0.05-0.10.cashout.txt")
    path = _edited(tmp_path, src, {"Dealt to Hero [9s 6s]\n": "Dealt to Hero [9s 6s]\nDealt to Player1 [Qs Js]\n"
                                   "Dealt to Player3 [Th Tc]\n"})
    h = one(path)
    assert h.hole_cards_mode == "operator" and h.hero is None
    assert {(c.player, c.cards) for c in h.hole_cards} == {("Hero", "9s6s"), ("Player1", "QsJs"), ("Player3", "ThTc")}
    assert all(c.provenance is Provenance.OPERATOR for c in h.hole_cards)


def test_dead_blind_and_straddle(tmp_path: Path) -> None:
    # PokerStars wording for a returning player posting both blinds, and a straddle, on a real hand:
    # Player6 (seat 6, $2.76) posts small & big blinds $0.15 and folds; Player2 straddles $0.20
    src = flop("2025-NL-6max-USD-0.05-0.10.cashout.txt")
    path = _edited(tmp_path, src, {
        "Player5: posts big blind $0.10\n": "Player5: posts big blind $0.10\nPlayer6: posts small & big blinds $0.15\n"
                                           "Player2: posts straddle $0.20\n",
        "Total pot $27.21": "Total pot $27.56",
        "Player1 collected $25.96": "Player1 collected $26.31",
    })
    h = one(path)
    p6 = [(a.kind, a.amount, a.contribution) for a in h.actions if a.player == "Player6"]
    assert p6[:2] == [(Kind.POST_BB, 10, 10), (Kind.POST_DEAD, 5, 5)]
    assert h.straddle == 20
    assert status(h)["status"] == "ok"


# --- damage ------------------------------------------------------------------------------------


def test_truncated_and_corrupted_hands_are_quarantined_alone(tmp_path: Path) -> None:
    src = flop("NLHE-FR-USD-0.01-0.02-201005.microgrind.txt")
    good, bad = parse(src)
    assert bad == [] and len(good) >= 4
    raw = src.read_bytes()
    text = raw.decode("utf-8-sig")
    blocks = text.split("\n\n\n")
    assert len(blocks) >= 4
    # corrupt a line of the second hand, cut the third hand short
    lines = blocks[1].split("\n")
    start = next(i for i, t in enumerate(lines) if t.startswith("PokerStars"))
    k = next(i for i, t in enumerate(lines) if t.endswith(": folds")) - start
    lines[start + k] = lines[start + k].replace(": folds", ": fo#ds")
    blocks[1] = "\n".join(lines)
    cut = blocks[2].split("\n")
    start2 = next(i for i, t in enumerate(cut) if t.startswith("PokerStars"))
    blocks[2] = "\n".join(cut[: start2 + 12])
    out = tmp_path / "damaged.txt"
    out.write_text("\n\n\n".join(blocks), encoding="utf-8")
    hands, quarantined = parse(out)
    assert len(hands) == len(good) - 2
    assert len(quarantined) == 2
    assert quarantined[0].reason.startswith(f"line {k + 1}:") and "fo#ds" in quarantined[0].reason
    assert "truncated hand" in quarantined[1].reason and quarantined[1].reason.startswith("line 12:")
    assert [h.hand_id for h in hands] == [g.hand_id for i, g in enumerate(good) if i not in (1, 2)]
