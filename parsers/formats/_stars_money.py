"""PokerStars amount text -> integer units: one reader for both PokerStars modules.

Why one module: the exact line parser (``pokerstars.py``) and the columnar fast path
(``pokerstars_fast.py``, which reads each header's stakes with it) must turn amounts into units
identically; the fast path cannot import the exact parser (that module imports the fast path).
"""

from __future__ import annotations

from parsers.model import ParseError
from parsers.money import to_units

#: amount text -> units, per scale: stakes and bet sizes repeat from hand to hand
_CACHE_CENTS: dict[str, int] = {}
_CACHE_CHIPS: dict[str, int] = {}


class StarsMoney:
    """Amount text -> integer units for one hand (exact; a float in a chip game is refused)."""

    __slots__ = ("cache", "scale")

    def __init__(self, scale: int) -> None:
        self.scale = scale
        self.cache = _CACHE_CHIPS if scale == 1 else _CACHE_CENTS

    def __call__(self, text: str, line_no: int) -> int:
        value = self.cache.get(text)
        if value is not None:
            return value
        value = self._convert(text, line_no)
        if len(self.cache) > 100_000:
            self.cache.clear()
        self.cache[text] = value
        return value

    def _convert(self, text: str, line_no: int) -> int:
        s = text.strip()
        if s and not s[0].isdigit():
            s = s[1:].lstrip()  # $, €, £, or a replacement char for an undecodable €
        if s.isdigit():
            return int(s) * self.scale
        if self.scale == 1 and "." in s:
            raise ParseError(
                f"chip amount {text.strip()!r} written as a decimal: not PokerStars output "
                "(third-party converter, e.g. VitamintK's Pluribus files)",
                line_no,
            )
        whole, dot, frac = s.partition(".")
        if dot and self.scale == 100 and whole.isdigit() and frac.isdigit() and len(frac) <= 2:
            return int(whole) * 100 + int(frac.ljust(2, "0"))
        try:
            return to_units(s, self.scale)
        except ParseError as exc:
            raise ParseError(exc.reason, line_no) from None
