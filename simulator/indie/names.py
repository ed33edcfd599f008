"""Screen names that look like a real room's: mixed languages, habits and decorations."""

from __future__ import annotations

import random

_FIRST = ("mike", "anna", "tom", "kev", "sara", "jonas", "lukas", "pedro", "joao", "marta", "olga", "ivan", "sven",
          "pierre", "lea", "marco", "giulia", "hans", "piet", "nico", "dani", "yuki", "kenji", "mei", "raj", "omar",
          "aleks", "tomek", "kasia", "fer", "rafa", "ben", "chris", "dave", "jess", "matt", "ola", "mikko", "timo")
_LAST = ("smith", "kowalski", "dupont", "rossi", "silva", "berg", "nakamura", "novak", "horvat", "jensen", "garcia",
         "muller", "ivanov", "oconnor", "schmidt", "santos", "lindqvist", "moreau", "costa", "virtanen")
_ADJ = ("lucky", "silent", "crazy", "lazy", "big", "little", "dark", "golden", "angry", "happy", "mad", "cool",
        "sneaky", "royal", "wild", "old", "grumpy", "flying", "drunk", "smooth", "iron", "frozen", "rapid")
_NOUN = ("river", "shark", "donk", "fish", "ace", "king", "bluff", "tilt", "nuts", "flop", "whale", "grinder",
         "rocket", "cowboy", "ladies", "hammer", "monkey", "wizard", "tiger", "bandit", "pirate", "viking", "panda",
         "muck", "stack", "chip", "felt", "turn", "kicker", "maniac", "nit", "reg", "boat", "quads")
_TAGS = ("PL", "BR", "DE", "SE", "FI", "UK", "NL", "RU", "ES", "IT", "CZ", "LT", "CA", "MX")


def _cap(word: str, rng: random.Random) -> str:
    return word.capitalize() if rng.random() < 0.5 else word


def _one(rng: random.Random) -> str:
    """One name in one of several habits people have when picking a screen name."""
    pick = rng.choice
    style = rng.randrange(9)
    if style == 0:
        return f"{pick(_FIRST)}_{pick(_LAST)[0]}{rng.randint(60, 99)}"
    if style == 1:
        return f"{_cap(pick(_ADJ), rng)}{_cap(pick(_NOUN), rng)}"
    if style == 2:
        return f"{pick(_FIRST)}{rng.randint(1970, 2004)}"
    if style == 3:
        return f"{pick(_NOUN)}{pick(_NOUN)}{rng.randint(1, 999)}"
    if style == 4:
        return f"{pick(_FIRST)[0]}.{pick(_LAST)}"
    if style == 5:
        return f"{_cap(pick(_LAST), rng)}_{pick(_TAGS)}"
    if style == 6:
        word = pick(_NOUN) + pick(_NOUN)
        return "".join(c.upper() if rng.random() < 0.5 else c for c in word)
    if style == 7:
        return f"{pick(('xX', 'Mr.', 'Dr.', 'The', 'iAm', 'Its', ''))}{_cap(pick(_ADJ), rng)}-{_cap(pick(_FIRST), rng)}"
    return f"{_cap(pick(_FIRST), rng)}{pick(_LAST).capitalize()}{rng.choice(('', '7', '88', '_', 'x'))}"


def screen_names(n: int, rng: random.Random) -> list[str]:
    """``n`` unique names (case-insensitively unique, as sites enforce), in draw order."""
    seen: set[str] = set()
    out: list[str] = []
    while len(out) < n:
        name = _one(rng)
        if 3 <= len(name) <= 18 and name.lower() not in seen:
            seen.add(name.lower())
            out.append(name)
    return out
