"""Screen names and table names: varied, realistic, deterministic from the RNG."""

from __future__ import annotations

import random

_FIRST = ("marco", "Jens", "alex", "Tommy", "sasha", "Pieter", "luca", "Mika", "dani", "Rafa", "olli", "Kasia",
          "Bruno", "ivan", "Matti", "Sven", "jules", "Nico", "tomek", "Andre", "Yuri", "Lars", "Hugo", "emil",
          "Carlos", "Rui", "Fabi", "joao", "Kenji", "Dima", "Timo", "Vito", "Ana", "Petra", "Beni", "Gus")
_LAST = ("Kowal", "Berg", "Rossi", "Silva", "Novak", "Larsen", "Meyer", "Dubois", "Horvat", "Costa", "Nagy",
         "Jansen", "Moreau", "Popov", "Lind", "Ferreira", "Baker", "Stone", "Fox", "Wolfe")
_ADJ = ("Lucky", "Dark", "Silent", "Wild", "Big", "lil", "Mad", "Cold", "Royal", "Tilted", "Sneaky", "Grumpy",
        "Crazy", "Iron", "Golden", "Lazy", "Rapid", "Salty", "Tricky", "Old")
_NOUN = ("River", "Shark", "Donk", "Nuts", "Bluff", "Tiger", "Wolf", "Fish", "Grinder", "Ace", "Rounder", "Hammer",
         "Cowboy", "Maverick", "Turtle", "Panda", "Viking", "Falcon", "Kicker", "Muck", "Flopper", "Owl", "Moose")
_TABLE = ("Aaltje", "Olga", "Lucretia", "Rhodesia", "Juno", "Aribeda", "Alcyone", "Antigone", "Baucis", "Cassiopeia",
          "Danae", "Eurynome", "Galatea", "Helike", "Ismene", "Kallisto", "Leda", "Merope", "Nausikaa", "Pandora",
          "Rhea", "Sappho", "Thalia", "Urania", "Xanthe", "Zelenka", "Borealis", "Capella", "Deneb", "Electra",
          "Fortuna", "Gemma", "Hydra", "Iris", "Kapteyn", "Lyra", "Mira", "Nemesis", "Orion", "Phoebe", "Vega")
_ROMAN = ("", " II", " III", " IV", " V", " VI", " VII", " VIII", " IX", " X", " XI", " XII")


def screen_name(rng: random.Random) -> str:
    """One screen name in one of several common patterns."""
    pattern = rng.randrange(7)
    yy = f"{rng.randrange(60, 100) if rng.random() < 0.5 else rng.randrange(0, 10):02d}"
    if pattern == 0:
        return f"{rng.choice(_ADJ)}{rng.choice(_NOUN)}{rng.randrange(1, 999)}"
    if pattern == 1:
        return f"{rng.choice(_FIRST)}_{rng.choice(_LAST)[: rng.randrange(3, 7)].lower()}{yy}"
    if pattern == 2:
        return f"x_{rng.choice(_NOUN)}{rng.choice(_NOUN)}_x" if rng.random() < 0.3 else \
            f"{rng.choice(_NOUN).upper()}{rng.choice(_NOUN).lower()}"
    if pattern == 3:
        return f"{rng.choice(_FIRST).lower()}{yy}"
    if pattern == 4:
        return f"{rng.choice(_FIRST).capitalize()}{rng.choice(_LAST)}"
    if pattern == 5:
        return f"The{rng.choice(_NOUN)}{rng.choice(('', '_', 'z', 'Z'))}{rng.randrange(0, 100)}"
    sep = rng.choice(("", ".", "_", "-"))
    return f"{rng.choice(_LAST).lower()}{sep}{rng.choice(_FIRST).lower()}{rng.randrange(2, 30)}"


def unique_names(rng: random.Random, n: int) -> list[str]:
    """``n`` distinct screen names (case-insensitively distinct, as sites enforce)."""
    out: list[str] = []
    seen: set[str] = set()
    while len(out) < n:
        name = screen_name(rng)
        if name.lower() not in seen:
            seen.add(name.lower())
            out.append(name)
    return out


def table_names(rng: random.Random, n: int) -> list[str]:
    """``n`` distinct table names like 'Lucretia IV'."""
    pool = [base + roman for base in _TABLE for roman in _ROMAN]
    rng.shuffle(pool)
    return pool[:n]
