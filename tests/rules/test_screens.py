"""Every rule id the Python engine can emit has a kernel screen (rules.screens.RULE_SCREENS).

The rule ids are found by scanning rules/*.py for rule-id string literals ("FAMILY.NAME", capitals),
so a check added to the Python engine without a screen in the kernel fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

from rules.codes import BAIL_CODES, BAIL_NAMES
from rules.screens import PYTHON_SCREENS, RULE_SCREENS

RULES = Path(__file__).resolve().parents[2] / "rules"
RULE_ID = re.compile(r"""["']([A-Z][A-Z0-9_]*\.[A-Z][A-Z0-9_]*(?:\.[A-Z0-9_]+)*)["']""")


def emitted_rule_ids() -> set[str]:
    found: set[str] = set()
    for path in RULES.glob("*.py"):
        if path.name == "screens.py":
            continue
        found.update(RULE_ID.findall(path.read_text(encoding="utf-8")))
    return found


def test_scan_finds_the_engine_rule_ids():
    ids = emitted_rule_ids()
    assert {"ACTION.ORDER", "POT.CHIP_CONSERVATION", "CLOCK.SHOT_CLOCK", "BLIND.DEAD_BUTTON"} <= ids


def test_every_emitted_rule_id_has_a_kernel_screen():
    missing = sorted(emitted_rule_ids() - set(RULE_SCREENS))
    assert not missing, f"rule ids without a kernel screen in rules/screens.py: {missing}"


def test_screens_name_real_bail_reasons():
    known = set(BAIL_NAMES.values()) | set(PYTHON_SCREENS)
    for rule, screens in RULE_SCREENS.items():
        assert screens, rule
        assert set(screens) <= known, (rule, set(screens) - known)


def test_every_bail_reason_is_returned_by_the_kernel():
    """A reason in the table that no kernel exit returns would be a screen that screens nothing."""
    src = (RULES / "kernel.py").read_text(encoding="utf-8")
    for name, code in BAIL_CODES.items():
        const = f"B_{name.upper()}"
        assert re.search(rf"return {const}\b", src), (const, code)
