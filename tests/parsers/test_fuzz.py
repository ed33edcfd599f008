"""Fuzz: mutated and truncated real hand histories never crash the ingest, they quarantine.

Every registered format gets real files from ../shared/data/hands; hypothesis cuts, splices and
corrupts their bytes. The property: parsing yields only Hand or Quarantined records (no exception
escapes), every parsed hand still has integer amounts, and a full ingest of the mutant finishes.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parsers.model import Hand, Quarantined
from parsers.registry import all_formats, sniff_format
from tests.conftest import HANDS
from warehouse.ingest import ingest_paths, iter_input_files

MAX_BYTES = 60_000


def _samples() -> list[Path]:
    """A few real files of every format we can sniff (small ones, for speed)."""
    if not HANDS.exists():
        return []
    per_format: dict[str, list[Path]] = {}
    for path in iter_input_files([HANDS]):
        if path.stat().st_size > MAX_BYTES:
            continue
        fmt = sniff_format(path)
        if fmt is not None and len(per_format.setdefault(fmt.name, [])) < 3:
            per_format[fmt.name].append(path)
    return sorted(itertools.chain.from_iterable(per_format.values()))


SAMPLES = _samples()
needs_data = pytest.mark.skipif(not SAMPLES, reason=f"no real hand histories found under {HANDS}")


def _mutate(data: bytes, ops: list[tuple[int, int, int, bytes]]) -> bytes:
    for kind, a, b, junk in ops:
        if not data:
            break
        i, j = sorted((a % len(data), b % len(data)))
        if kind == 0:  # truncate
            data = data[:i]
        elif kind == 1:  # delete a range
            data = data[:i] + data[j:]
        elif kind == 2:  # insert junk
            data = data[:i] + junk + data[i:]
        elif kind == 3:  # duplicate a range (repeated lines, repeated hands)
            data = data[:j] + data[i:j] + data[j:]
        else:  # overwrite digits / bytes
            data = data[:i] + junk + data[i + len(junk):]
    return data


ops_strategy = st.lists(
    st.tuples(st.integers(0, 4), st.integers(0, 10**6), st.integers(0, 10**6), st.binary(min_size=1, max_size=12)),
    min_size=1,
    max_size=4,
)


@needs_data
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(index=st.integers(0, 10**6), ops=ops_strategy)
def test_mutated_files_never_crash(tmp_path: Path, index: int, ops: list[tuple[int, int, int, bytes]]) -> None:
    source = SAMPLES[index % len(SAMPLES)]
    mutant = tmp_path / f"mutant{source.suffix}"
    mutant.write_bytes(_mutate(source.read_bytes(), ops))
    fmt = sniff_format(mutant)
    if fmt is None:
        return  # unrecognised: reported by ingest as such, tested elsewhere
    for item in fmt.parse(mutant):
        assert isinstance(item, Hand | Quarantined)
        if isinstance(item, Quarantined):
            assert item.reason and item.source_file == str(mutant)
        else:
            for action in item.actions:
                assert isinstance(action.contribution, int)
                assert action.amount is None or isinstance(action.amount, int)


@needs_data
def test_every_format_has_fuzz_samples() -> None:
    names = {f.name for f in all_formats()}
    covered = {sniff_format(p).name for p in SAMPLES}  # type: ignore[union-attr]
    assert covered, "no format sniffed any real file"
    assert covered <= names


@needs_data
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=ops_strategy)
def test_ingest_of_mutants_completes(tmp_path: Path, ops: list[tuple[int, int, int, bytes]]) -> None:
    folder = tmp_path / "in"
    folder.mkdir(exist_ok=True)
    for i, source in enumerate(SAMPLES[:12]):
        (folder / f"{i}{source.suffix}").write_bytes(_mutate(source.read_bytes(), ops))
    db = tmp_path / "w.duckdb"
    db.unlink(missing_ok=True)
    summary = ingest_paths([folder], db)
    counted = summary.files + summary.files_unrecognised + summary.files_already_ingested
    assert counted + summary.files_duplicate_in_run == len(SAMPLES[:12])
    assert summary.hands >= 0 and summary.quarantined >= 0
