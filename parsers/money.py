"""Exact money parsing: site strings to integers in the smallest unit, never through floats."""

from __future__ import annotations

from .model import ParseError

CURRENCY_SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "CNY", "₹": "INR"}


def to_units(text: str, scale: int) -> int:
    """Parse '1,234.56', '$0.25', '1 234,5' or '200' into an integer count of 1/scale units.

    Raises ParseError when the string has more decimals than the scale can hold exactly, so a
    misread amount is never rounded into a plausible one.
    """
    s = text.strip()
    for sym in CURRENCY_SYMBOLS:
        s = s.replace(sym, "")
    s = s.replace("\u00a0", "").replace(" ", "").strip()
    if not s:
        raise ParseError(f"empty amount {text!r}")
    negative = s.startswith("-")
    if negative:
        s = s[1:]
    # a decimal comma (European exports) when there is no dot and at most 2 digits after it
    if "," in s and "." not in s:
        head, _, tail = s.rpartition(",")
        s = head.replace(",", "") + "." + tail if len(tail) <= 2 else s.replace(",", "")
    else:
        s = s.replace(",", "")
    whole, dot, frac = s.partition(".")
    if not whole.isdigit() and not (whole == "" and dot):
        raise ParseError(f"not an amount: {text!r}")
    if frac and not frac.isdigit():
        raise ParseError(f"not an amount: {text!r}")
    frac = frac.rstrip("0")
    digits = len(str(scale)) - 1 if scale > 1 else 0
    if len(frac) > digits:
        raise ParseError(f"amount {text!r} has more precision than 1/{scale}")
    value = int(whole or "0") * scale + (int(frac.ljust(digits, "0")) if frac else 0)
    return -value if negative else value
