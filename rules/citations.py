"""How the SQL-pass findings name their rulebook and quote it: one format, one table of books.

Why one place: the cross-hand, record and turn checks each keep their own passages, but a
finding must read the same whichever module wrote it: `` — <rulebook>, <article>: [seed] «passage»``.
"""

from __future__ import annotations

#: profile key -> the rulebook's name in findings
BOOK_NAMES = {"CEP": "CEP 2023", "T09": "TDA 2009", "PKR": "PKR Club cash", "R003": "Room 003 cash",
              "ONLINE": "online-standard"}  # fmt: skip
#: seed tag -> the seed file in ../shared/seeds
SEED_FILES = {
    "000": "000_24a201a7802bf830.txt",
    "001": "001_6ba5ccb5fe360bcf.txt",
    "002": "002_55d6ebc4598b3f67.txt",
    "003": "003_577dcffd2c9e41f5.txt",
}
#: profile key -> the tag of its own seed (online-standard has none)
SEED_OF_BOOK = {"CEP": "000", "T09": "001", "PKR": "002", "R003": "003"}


def book_name(key: str) -> str:
    """The rulebook's name for a profile key (``CEP+shot_clock`` is CEP's)."""
    book = key.split("+", 1)[0]
    return BOOK_NAMES.get(book, book)


def book_of_seed(seed_file: str) -> str:
    """The rulebook a seed file belongs to."""
    key = next((k for k, tag in SEED_OF_BOOK.items() if seed_file.startswith(tag)), "ONLINE")
    return BOOK_NAMES[key]


def citation(key: str, article: str, seed_file: str, passage: str, borrowed: bool = False) -> str:
    """`` — <rulebook>, <article>: [seed] «passage»``; ``borrowed`` names the book quoted."""
    quoting = f" (quoting {book_of_seed(seed_file)})" if borrowed else ""
    return f" — {book_name(key)}, {article}{quoting}: [{seed_file}] «{passage}»"
