"""Evidence bundle: every hash recomputed, rebuild byte-identical, raw bytes exactly the site's."""

from __future__ import annotations

import hashlib
import io
import json
import re
import zipfile
from pathlib import Path

import polars as pl
import pytest

from dashboards import data, evidence
from dashboards.review_store import ReviewStore, User
from tests.conftest import real_data
from tests.dashboards.warehouse_fixture import HAND_TEXTS, build_warehouse


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
        assert src["verified"] and src["hands"] == ["pokerstars:1002", "pokerstars:1003"]
        assert src["sha256"] == hashlib.sha256(Path(src["path"]).read_bytes()).hexdigest()
        # raw text is exactly what the "site" wrote
        assert z.read("raw/pokerstars_1002.txt") == HAND_TEXTS[1].encode()
        assert z.read("raw/pokerstars_1003.txt") == HAND_TEXTS[2].encode()
        pdf = z.read("report.pdf")
        assert pdf.startswith(b"%PDF-1.4") and b"CreationDate" not in pdf and b"/ID" not in pdf
        html = z.read("report.html").decode()
        assert "full house folded to a river bet" in html and "RAISE.MIN" in html
        assert "decisions.csv" in names and b"rita,escalate" in z.read("decisions.csv")
        actions = pl.read_csv(z.read("canonical/actions.csv"))
        assert actions.height == 13 + 10


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
