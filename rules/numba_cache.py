"""Where numba keeps compiled code, chosen before numba is imported.

Why one place: numba caches a compiled function beside its source file. When that directory is
not writable (an installed package, a read-only checkout) and NUMBA_CACHE_DIR is unset, every
process would compile again (about a minute for the rule kernel), so the user's cache directory is
used instead. numba reads the variable once, at import, so each module calls this first. Plain
standard library: the rule kernel and the detectors' compiled loops both call it.
"""

from __future__ import annotations

import os
from pathlib import Path


def use_writable_cache(module_file: str) -> None:
    """Keep numba's default (beside ``module_file``) when it is writable, else the user's cache."""
    here = Path(module_file).resolve().parent / "__pycache__"
    if os.environ.get("NUMBA_CACHE_DIR") or os.access(here if here.exists() else here.parent, os.W_OK):
        return
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    os.environ["NUMBA_CACHE_DIR"] = str(base / "floorman" / "numba")
