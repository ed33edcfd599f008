"""Screen names that read like a real site's lobby and say nothing about their owner.

Why: a name that hints at a role ("team", "friend") would hand a detector the answer, so names
are drawn from neutral word stock, mixed casing, digits and underscores, all unique.
"""

from __future__ import annotations

import random

_WORDS = (
    "river", "ace", "maverick", "blue", "shadow", "lucky", "donkey", "tilt", "golden", "wolf",
    "pike", "salmon", "viking", "tiger", "moose", "cactus", "pepper", "rocket", "ninja", "falcon",
    "mango", "pixel", "turbo", "storm", "frost", "banjo", "cobra", "dusty", "ember", "fjord",
    "gizmo", "hazel", "igloo", "jazz", "karma", "lemon", "marble", "nacho", "otter", "pluto",
    "quartz", "raven", "sierra", "tango", "umber", "velvet", "walrus", "xeno", "yeti", "zephyr",
    "grinder", "nuts", "flush", "bluff", "chip", "stack", "monk", "baron", "duke", "joker",
    "kitten", "hammer", "anvil", "comet", "badger", "lynx", "bison", "crane", "drifter", "echo",
)
_FIRST = (
    "mike", "anna", "jens", "olga", "pablo", "sven", "kasia", "tomek", "luca", "ines", "yuri",
    "maria", "dave", "kenji", "lars", "nina", "omar", "piet", "rafa", "sara", "theo", "vlad",
)


def _one(rng: random.Random) -> str:
    """One candidate alias from a handful of common patterns."""
    w1, w2 = rng.choice(_WORDS), rng.choice(_WORDS)
    first = rng.choice(_FIRST)
    digits = str(rng.randint(1, 9999)) if rng.random() < 0.6 else str(rng.randint(60, 99))
    pattern = rng.randrange(7)
    if pattern == 0:
        return f"{w1.capitalize()}{w2.capitalize()}{digits}"
    if pattern == 1:
        return f"{first}_{w1}{rng.randint(1, 99)}"
    if pattern == 2:
        return f"{w1.upper()}_{digits}"
    if pattern == 3:
        return f"{first.capitalize()}{w1.capitalize()}"
    if pattern == 4:
        return f"x{w1}{w2}x"
    if pattern == 5:
        return f"{first}{digits}"
    return f"{w1}_{w2}_{rng.randint(1, 999)}"


def aliases(n: int, rng: random.Random) -> list[str]:
    """``n`` distinct aliases, at most 12 characters where the pattern allows."""
    out: list[str] = []
    seen: set[str] = set()
    while len(out) < n:
        name = _one(rng)
        if name.lower() in seen or len(name) > 18:
            continue
        seen.add(name.lower())
        out.append(name)
    return out
