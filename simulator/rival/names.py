"""Screen names and table names that look like a real lobby.

Why patterns instead of a list: 400+ unique names per room, in the styles people really pick
(nicknames with birth years, poker slang, city handles, leetspeak), never "Player5".
"""

from __future__ import annotations

import random

_FIRST = ("mike", "Dani", "sven", "Lukas", "tomek", "Andre", "joao", "Kristof", "Ilya", "marco", "Pete", "Rafa",
          "olli", "Juho", "Vlad", "Nico", "chris", "Bart", "Sami", "Ferdi", "Gustavo", "Kev", "Timo", "Eddie",
          "Artem", "jonny", "Maks", "Paulo", "Rick", "Stevie", "Yannick", "Aleks", "Toni", "Jarek", "Hugo", "Olle")
_WORDS = ("river", "shark", "donk", "nuts", "tilt", "fold", "bluff", "ace", "kicker", "grind", "fish", "whale",
          "cooler", "flop", "turn", "chip", "stack", "pocket", "rocket", "cowboy", "ladies", "hammer", "muck",
          "felt", "rail", "gutshot", "wheel", "boat", "quads", "nit", "reg", "ship", "value", "snap")
_ADJ = ("lucky", "lazy", "crazy", "silent", "angry", "sneaky", "happy", "drunk", "sick", "golden", "little", "big",
        "old", "mad", "cold", "dark", "royal", "wild", "rapid", "sly")
_PLACES = ("Porto", "Riga", "Tampere", "Brno", "Leeds", "Gdansk", "Lyon", "Vienna", "Malmo", "Cork", "Vegas",
           "Recife", "Kazan", "Bergen", "Turin", "Ghent")
_ANIMALS = ("Fox", "Wolf", "Owl", "Badger", "Moose", "Panda", "Otter", "Lynx", "Raven", "Gecko", "Bison", "Mongoose")


def _one(rng: random.Random) -> str:
    f, w, a, pl, an = (rng.choice(_FIRST), rng.choice(_WORDS), rng.choice(_ADJ), rng.choice(_PLACES),
                       rng.choice(_ANIMALS))
    year = rng.randint(62, 99) if rng.random() < 0.6 else rng.randint(1970, 2003)
    patterns = (
        f"{f}{year}", f"{a}{w.capitalize()}", f"{w}_{f.lower()}", f"{a.capitalize()}{an}{rng.randint(1, 99)}",
        f"{f.lower()}.{w}", f"{pl}{an}", f"x{w}{f.lower()}x", f"{f.capitalize()} {pl[0]}.",
        f"{w.capitalize()}Master{rng.randint(1, 9)}", f"{a}_{an.lower()}_{pl.lower()}",
        f"{f.upper()}_{w.upper()}", f"{w}{rng.randint(100, 999)}", f"Don{w.capitalize()}",
        f"{f}{a.capitalize()}", f"{a}{pl}", f"{w.replace('o', '0').replace('e', '3')}{f.lower()}",
    )
    return rng.choice(patterns)


def screen_names(rng: random.Random, count: int) -> list[str]:
    """``count`` distinct screen names."""
    names: list[str] = []
    seen: set[str] = set()
    while len(names) < count:
        name = _one(rng)
        if name.lower() not in seen:
            seen.add(name.lower())
            names.append(name)
    return names


_TABLES = ("Achird", "Aldhibah", "Alkes", "Ancha", "Arkab", "Aspidiske", "Baham", "Biham", "Caph", "Chara",
           "Cursa", "Dabih", "Diadem", "Edasich", "Elnath", "Fafnir", "Furud", "Gienah", "Gomeisa", "Grumium",
           "Heze", "Homam", "Izar", "Kaffaljidhma", "Keid", "Kornephoros", "Lesath", "Maasym", "Marfik",
           "Matar", "Menkib", "Merga", "Muliphein", "Nashira", "Nekkar", "Okda", "Pherkad", "Porrima", "Rukbat",
           "Sadalbari", "Sceptrum", "Sheliak", "Sulafat", "Talitha", "Tejat", "Unukalhai", "Vindemiatrix",
           "Wezen", "Yildun", "Zaniah", "Zosma", "Aludra", "Ankaa", "Botein", "Cebalrai", "Dschubba")
_ROMAN = ("", " II", " III", " IV", " V", " VI", " VII", " VIII", " IX", " X", " XI", " XII")


def table_names(rng: random.Random) -> list[str]:
    """Every star name with Roman suffixes, shuffled: more than any room opens."""
    out = [t + r for r in _ROMAN for t in _TABLES]
    rng.shuffle(out)
    return out
