"""Evidence bundle: every hash recomputed, rebuild byte-identical, raw bytes exactly the site's."""

from __future__ import annotations

import hashlib
import io
import json
import os
import platform
import re
import subprocess
import sys
import zipfile
from importlib import metadata
from pathlib import Path

import polars as pl
import pytest

from dashboards import data, evidence
from dashboards.review_store import ReviewStore, User
from tests.conftest import real_data
from tests.dashboards.real_fixture import CASE, FT_HAND, NAMES, PM_HAND, build_real_warehouse, pdf_text
from tests.dashboards.warehouse_fixture import HAND_TEXTS, build_warehouse

ROOT = Path(__file__).resolve().parents[2]


def test_bundle_hashes_verify_and_rebuild_is_identical(snapshot: Path, store: ReviewStore) -> None:
    store.decide("F-chip-001", "escalate", "full house folded to a river bet", User("rita", "reviewer"))
    first = evidence.build_bundle(snapshot, "F-chip-001", store)
    assert evidence.verify_bundle(first) == []
    assert evidence.build_bundle(snapshot, "F-chip-001", store) == first
    with zipfile.ZipFile(io.BytesIO(first)) as z:
        names = z.namelist()
        assert names == sorted(names)
        assert {i.date_time for i in z.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        manifest = json.loads(z.read("manifest.json"))
        # recompute independently of verify_bundle
        for name in names:
            if name != "manifest.json":
                assert hashlib.sha256(z.read(name)).hexdigest() == manifest["files"][name]
        assert set(manifest["files"]) | {"manifest.json"} == set(names)
        [src] = manifest["source_files"]
        # the case holds the chip-dumping flag (1002, 1003) and the ring around it (1002, 1001)
        assert src["verified"] and src["hands"] == ["pokerstars:1001", "pokerstars:1002", "pokerstars:1003"]
        assert src["sha256"] == hashlib.sha256(Path(src["path"]).read_bytes()).hexdigest()
        # raw text is exactly what the "site" wrote
        assert z.read("raw/pokerstars_1001.txt") == HAND_TEXTS[0].encode()
        assert z.read("raw/pokerstars_1002.txt") == HAND_TEXTS[1].encode()
        assert z.read("raw/pokerstars_1003.txt") == HAND_TEXTS[2].encode()
        pdf = z.read("report.pdf")
        # dated by the case (flags.created_at), not by the build; the /ID is a hash of the content
        assert pdf.startswith(b"%PDF-1.") and b"/CreationDate (D:20261129031000Z)" in pdf
        html = z.read("report.html").decode()
        assert "full house folded to a river bet" in html and "RAISE.MIN" in html
        assert "decisions.csv" in names and b"rita,escalate" in z.read("decisions.csv")
        actions = pl.read_csv(z.read("canonical/actions.csv"))
        assert actions.height == 13 + 10 + actions.filter(pl.col("hand_id") == "pokerstars:1001").height
        assert sorted(set(actions["hand_id"])) == ["pokerstars:1001", "pokerstars:1002", "pokerstars:1003"]


def test_a_case_of_several_flags_exports_every_flags_evidence(snapshot: Path, tmp_path: Path) -> None:
    """Issue 14: the chip-dumping case also holds the ring flag around its pair; the bundle lists
    both flags and carries the ring's own evidence hand (1001), marked with the flag it supports,
    whichever member's id the export is asked for."""
    blob = evidence.build_bundle(snapshot, "F-chip-001")
    assert evidence.build_bundle(snapshot, "F-ring-002") == blob  # a member's id names the same case
    with zipfile.ZipFile(io.BytesIO(blob)) as z:
        manifest = json.loads(z.read("manifest.json"))
        case = json.loads(z.read("case.json"))
        html = z.read("report.html").decode()
        pdf = z.read("report.pdf")
    assert manifest["case_id"] == "F-chip-001" and manifest["flags"] == ["F-chip-001", "F-ring-002"]
    assert sorted(manifest["raw_hands"]) == ["pokerstars:1001", "pokerstars:1002", "pokerstars:1003"]
    assert [m["flag_id"] for m in case["case"]["flags"]] == ["F-chip-001", "F-ring-002"]
    assert sorted(case["case"]["players"]) == ["alice", "bob", "carol"]
    assert "<h2>Flags in this case</h2>" in html and "F-ring-002" in html
    assert "Evidence for: F-ring-002 (collusion_ring)" in html  # 1001 backs only the ring
    assert "Evidence for: F-chip-001 (chip_dumping); F-ring-002 (collusion_ring)" in html  # 1002 both
    text = pdf_text(pdf, tmp_path)
    assert "Flags in this case" in text and "F-ring-002" in text and "pokerstars:1001" in text


def test_pdf_cross_reference_offsets_point_at_objects(snapshot: Path) -> None:
    pdf = zipfile.ZipFile(io.BytesIO(evidence.build_bundle(snapshot, "F-soft-003"))).read("report.pdf")
    xref_at = int(pdf.rsplit(b"startxref\n", 1)[1].split(b"\n")[0])
    assert pdf[xref_at:].startswith(b"xref\n")
    entries = re.findall(rb"(\d{10}) 00000 n ", pdf[xref_at:])
    for n, off in enumerate(entries, start=1):
        assert pdf[int(off):].startswith(f"{n} 0 obj".encode())


def test_tampered_bundle_is_detected(snapshot: Path) -> None:
    blob = evidence.build_bundle(snapshot, "F-chip-001")
    src = zipfile.ZipFile(io.BytesIO(blob))
    files = {n: src.read(n) for n in src.namelist()}
    files["raw/pokerstars_1002.txt"] = files["raw/pokerstars_1002.txt"].replace(b"folds", b"calls")
    problems = evidence.verify_bundle(evidence.deterministic_zip(files))
    assert "raw/pokerstars_1002.txt: sha256 differs from the manifest" in problems


def test_changed_source_file_refuses_export(tmp_path: Path) -> None:
    db = build_warehouse(tmp_path / "w.duckdb", tmp_path / "landing")
    src = tmp_path / "landing" / "Alcor-2026-11-28.txt"
    src.write_bytes(src.read_bytes().replace(b"$30", b"$31"))
    with pytest.raises(evidence.EvidenceError, match="expected"):
        evidence.build_bundle(db, "F-chip-001")
    blob = evidence.build_bundle(db, "F-chip-001", allow_unverified=True)
    manifest = json.loads(zipfile.ZipFile(io.BytesIO(blob)).read("manifest.json"))
    assert manifest["source_files"][0]["verified"] is False and manifest["raw_hands"] == {}


def test_raw_text_from_a_real_site_file(tmp_path: Path) -> None:
    """Cut the third hand out of a real PokerStars file by offset; hash check included."""
    real = real_data("fpdb3_regression", "regression-test-files", "cash", "Stars", "Flop",
                     "PLO-6max-USD-2.00-4.00-201403.2.partial.txt")
    blob = real.read_bytes()
    starts = [m.start() for m in re.finditer(rb"PokerStars Hand #", blob)]
    offset, length = starts[2], starts[3] - starts[2]
    hands = pl.DataFrame({"hand_id": ["pokerstars:x"], "source_file": [str(real)],
                          "file_sha256": [hashlib.sha256(blob).hexdigest()],
                          "byte_offset": [offset], "byte_length": [length]})
    raw, [check] = evidence.raw_hand_texts(hands)
    assert check.verified
    assert raw["pokerstars:x"] == blob[offset:offset + length]
    assert raw["pokerstars:x"].startswith(b"PokerStars Hand #")
    assert raw["pokerstars:x"].count(b"PokerStars Hand #") == 1


def test_fixture_rows_match_the_written_totals(snapshot: Path) -> None:
    """The typed canonical rows agree with the text's own 'Total pot | Rake' lines."""
    rows = data.hand_rows(snapshot, ["pokerstars:1001", "pokerstars:1002", "pokerstars:1003"])
    for text in HAND_TEXTS:
        no = re.search(r"Hand #(\d+)", text)
        m = re.search(r"Total pot \$([\d.]+) \| Rake \$([\d.]+)", text)
        assert no and m
        hand_id = f"pokerstars:{no.group(1)}"
        total, rake = (round(float(x) * 100) for x in m.groups())
        put = rows["actions"].filter(pl.col("hand_id") == hand_id)["contribution"].sum()
        won = rows["awards"].filter(pl.col("hand_id") == hand_id)["amount"].sum()
        assert put == total and won + rake == total


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Path]]:
    return build_real_warehouse(tmp_path_factory.mktemp("real") / "w.duckdb")


@pytest.fixture(scope="module")
def real_bundle(real: tuple[Path, dict[str, Path]]) -> bytes:
    return evidence.build_bundle(real[0], CASE)


def _read(blob: bytes, name: str) -> bytes:
    return zipfile.ZipFile(io.BytesIO(blob)).read(name)


def test_non_latin_names_are_text_in_the_pdf(real_bundle: bytes, tmp_path: Path) -> None:
    """The PokerMaster players' Chinese names survive as text (the old cp1252 writer printed '????')."""
    page1 = pdf_text(_read(real_bundle, "report.pdf"), tmp_path, 1, 1)
    assert f"{NAMES[0]}, {NAMES[1]}" in page1  # the Players row of the summary table
    assert f"{NAMES[1]} re-raises 赤兔丶" in page1  # the explanation
    assert "????" not in page1
    text = pdf_text(_read(real_bundle, "report.pdf"), tmp_path)
    assert "Table 'H28桌248at2' 9-max" in text  # the raw hand in the appendix, mixed scripts
    assert f"{NAMES[0]}: posts small blind $2" in text


def test_real_bundle_rebuilds_byte_identical_across_processes(real: tuple[Path, dict[str, Path]],
                                                              real_bundle: bytes) -> None:
    """Same bytes in this process and in a fresh one with another hash seed (font subsetting
    and every dict/set order included)."""
    assert evidence.build_bundle(real[0], CASE) == real_bundle
    code = ("import sys; from dashboards import evidence; "
            "sys.stdout.buffer.write(evidence.build_bundle(sys.argv[1], sys.argv[2]))")
    env = {**os.environ, "PYTHONHASHSEED": "4242"}
    out = subprocess.run([sys.executable, "-c", code, str(real[0]), CASE], cwd=ROOT, env=env,
                         capture_output=True, check=True)
    assert hashlib.sha256(out.stdout).hexdigest() == hashlib.sha256(real_bundle).hexdigest()
    assert evidence.verify_bundle(real_bundle) == []


def test_utf16_raw_hand_is_decoded_with_the_recorded_encoding(real: tuple[Path, dict[str, Path]],
                                                             real_bundle: bytes, tmp_path: Path) -> None:
    source = real[1]["fulltilt"].read_bytes()
    assert source.startswith(b"\xff\xfe")  # the Full Tilt file really is UTF-16 LE
    raw = _read(real_bundle, "raw/fulltilt_20000000801.txt")
    assert raw == source[2:2 + len(raw)]  # the bytes as the site wrote them, unconverted
    manifest = json.loads(_read(real_bundle, "manifest.json"))
    assert manifest["raw_hands"][FT_HAND]["encoding"] == "utf-16-le"
    assert manifest["raw_hands"][PM_HAND]["encoding"] == "utf-8"
    header = "Full Tilt Poker Game #20000000801: Table Douai–Lens (6 max) - €0.01/€0.02"
    html = _read(real_bundle, "report.html").decode("utf-8")
    assert header in html and "\x00" not in html
    assert header in pdf_text(_read(real_bundle, "report.pdf"), tmp_path)


def test_decode_raw_uses_the_given_encoding() -> None:
    text = "\ufeffSeat 1: Ålborg (€2)\r\n"
    assert evidence.decode_raw(text.encode("utf-16-le"), "utf-16-le") == "Seat 1: Ålborg (€2)\r\n"
    assert evidence.decode_raw("Ålborg".encode("cp1252"), "cp1252") == "Ålborg"
    assert evidence.decode_raw("身轻如燕".encode(), None) == "身轻如燕"
    assert evidence.decode_raw(b"caf\xe9", "utf-8") == "caf\ufffd"  # shown as undecodable, not dropped
    assert evidence.decode_raw(b"x", "no-such-codec") == "x"


def test_manifest_carries_software_versions_and_model_hashes(real_bundle: bytes) -> None:
    manifest = json.loads(_read(real_bundle, "manifest.json"))
    software = manifest["software"]
    assert software["python"] == platform.python_version()
    for dist in ("floorman", "duckdb", "polars", "fpdf2", "scikit-learn", "noto-cjk-sans-otc"):
        assert software[dist] == metadata.version(dist)
    models = sorted((ROOT / "detectors" / "models").glob("*.pkl"))
    assert models, "the detector models ship in detectors/models"
    assert manifest["detector_models"] == {
        p.name: {"sha256": hashlib.sha256(p.read_bytes()).hexdigest()} for p in models
    }


def test_no_raw_dumps_parameters_in_an_appendix(real_bundle: bytes, tmp_path: Path) -> None:
    pdf = _read(real_bundle, "report.pdf")
    page1 = pdf_text(pdf, tmp_path, 1, 1)
    assert "{" not in page1 and '"min_hands"' not in page1
    assert "Parameters 4 value(s), Appendix A" in " ".join(page1.split())
    text = " ".join(pdf_text(pdf, tmp_path).split())
    appendix = text[text.index("Appendix A: detector parameters"):]
    for row in ("min_hands 2", "weights.soft_play 0.3", "weights.squeeze 0.7", "window_days 30"):
        assert row in appendix
    html = _read(real_bundle, "report.html").decode("utf-8")
    assert f"<td>{NAMES[0]}, {NAMES[1]}</td>" in html and '["' not in html
    assert "<figcaption>figures/" not in html
    assert "<figcaption>Net chip flow between case players</figcaption>" in html
    assert "<td>weights.squeeze</td><td>0.7</td>" in html


def test_parameter_rows_flatten_nested_values() -> None:
    rows = evidence.parameter_rows('{"b": {"y": [1, 2], "x": true}, "a": null}')
    assert rows == [("a", "null"), ("b.x", "true"), ("b.y", "1, 2")]
    assert evidence.parameter_rows("{}") == [] and evidence.parameter_rows(None) == []


def test_characters_the_font_lacks_are_marked_not_dropped() -> None:
    from datetime import datetime

    from dashboards.pdf import PdfDocument

    doc = PdfDocument("t", datetime(2026, 1, 1))
    doc.paragraph("Ålborg 身轻如燕 \u0e2a\u0e21")  # Thai is outside Noto Sans CJK
    assert doc.missing == {"\u0e2a", "\u0e21"}


def test_negative_zero_medians_read_as_zero(snapshot: Path) -> None:
    ev = evidence.collect(snapshot, "F-chip-001", None)
    ev.metrics[0]["population_median"] = -0.0
    assert evidence._metric_rows(ev)[0][2] == "0.0"
