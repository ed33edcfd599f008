"""Hand-history parsers: sniff a file's format and stream canonical ``Hand`` records."""

from .model import Action, Award, Board, Hand, HoleCards, Kind, ParseError, Pot, Provenance, Quarantined, Seat, Street

__all__ = [
    "Action",
    "Award",
    "Board",
    "Hand",
    "HoleCards",
    "Kind",
    "ParseError",
    "Pot",
    "Provenance",
    "Quarantined",
    "Seat",
    "Street",
]
