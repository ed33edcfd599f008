"""Issue 12's corpus figures: every real hand of ``../shared/data/hands`` and ``../shared/data/tournaments``
through the real ingest, as the README quotes them.

Why a module (run it: ``.venv/bin/python -m tests.parsers.corpus_figures``): the figures and the list
behind them (each quarantined hand with its reason, each unrecognised file) are wanted both by a person
fixing parsers and by the test that holds them (``tests/parsers/test_corpus.py``); one function computes
both. The share counts every game and tournament, unsupported games included; the VitamintK Pluribus
conversion (not real PokerStars output, a robustness case) is counted apart.
"""

from __future__ import annotations

import re
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import duckdb

from tests.conftest import SHARED
from warehouse.ingest import ingest_paths, quarantine_category

DATA = SHARED / "data"
#: the converter output kept as a robustness case, outside the goal
ROBUSTNESS = "pluribus_pokerstars_vitamintk"

#: why a hand is quarantined, by the words of its reason (first match wins)
REASON_CLASSES = (
    ("unsupported", ("unsupported variant", "not PokerStars output", "is not PokerStars layout")),
    ("site anomaly", ("site anomaly", "lines missing from the export", "but the site's bet total is")),
    ("cut", ("truncated hand", "partial export", "text outside any hand", "unreadable table line",
             "run together", "runs into another hand", "not a playable hand")),
    ("player not in the seat list", ("not in the seat list", "blank player name", "no amount")),
)


def reason_class(reason: str) -> str:
    """The class of a quarantine reason (``REASON_CLASSES``), else 'other' (a converter's or an
    edited sample's line no parser reads)."""
    return next((name for name, words in REASON_CLASSES if any(w in reason for w in words)), "other")


@dataclass(frozen=True)
class Figures:
    """What the ingest made of the corpus, the robustness case apart."""

    parsed: int
    #: (file under the data folder, reason) of every quarantined hand outside the robustness case
    quarantined: list[tuple[str, str]]
    robustness_quarantined: int
    #: file under the data folder -> why no format took it
    unrecognised: dict[str, str]
    #: hand id -> format of every parsed hand that does not reconcile
    unreconciled: dict[str, str]

    @property
    def share(self) -> float:
        """Parsed share of every hand outside the robustness case, unsupported games included."""
        return self.parsed / (self.parsed + len(self.quarantined))

    def by_class(self) -> Counter[str]:
        return Counter(reason_class(reason) for _, reason in self.quarantined)

    def by_category(self) -> Counter[str]:
        """The ingest's own split ('unsupported' is left out of its ``parse_rate``)."""
        return Counter(quarantine_category(reason) for _, reason in self.quarantined)


def _relative(path: str) -> str:
    return str(Path(path).resolve().relative_to(DATA.resolve()))


def figures(db: Path) -> Figures:
    """Ingest both folders into a new warehouse at ``db`` and read the figures back."""
    summary = ingest_paths([DATA / "hands", DATA / "tournaments"], db, progress=False)
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute("SELECT source_file, reason FROM quarantine ORDER BY source_file, byte_offset").fetchall()
        unreconciled = con.execute(
            "SELECT r.hand_id, h.format FROM reconciliation r JOIN hands h USING (hand_id) "
            "WHERE r.status = 'mismatch' ORDER BY 1"
        ).fetchall()
    outside = [(_relative(f), r) for f, r in rows if ROBUSTNESS not in f]
    return Figures(
        parsed=summary.hands,
        quarantined=outside,
        robustness_quarantined=len(rows) - len(outside),
        unrecognised={_relative(p): summary.unrecognised_reasons.get(p, "") for p in summary.unrecognised},
        unreconciled=dict(unreconciled),
    )


def _line_free(reason: str) -> str:
    return re.sub(r"^line \d+: ", "", reason)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        fig = figures(Path(tmp) / "corpus.duckdb")
    total = fig.parsed + len(fig.quarantined)
    print(f"parsed {fig.parsed:,} of {total:,} ({fig.share:.4%}); quarantined {len(fig.quarantined)} "
          f"{dict(fig.by_class())}; {ROBUSTNESS}: {fig.robustness_quarantined:,} quarantined")
    print(f"unreconciled {len(fig.unreconciled)} {dict(Counter(fig.unreconciled.values()))}")
    for (path, reason), n in sorted(Counter((p, _line_free(r)) for p, r in fig.quarantined).items()):
        print(f"  {reason_class(reason):28} {n:3}  {path}: {reason[:140]}")
    print(f"unrecognised files: {len(fig.unrecognised)}")
    for path, why in sorted(fig.unrecognised.items()):
        print(f"  {path}: {why[:100]}")


if __name__ == "__main__":
    main()
