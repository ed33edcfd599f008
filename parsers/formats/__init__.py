"""One module per hand-history format; each defines ``FORMAT`` (see ``parsers.registry``)."""
