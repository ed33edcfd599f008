"""The rulebook, article and verbatim seed passage each per-hand finding of issue 13 quotes.

Why a table: the straddle, short all-in and run-it-twice findings differ per book in severity as
well as in passage (ERROR where the book's text decides, REVIEW quoting the book's own floor
discretion clause where it is silent), and a finding must name the book and article, and say when
it borrows another book's passage (``rules.citations.citation``). Passages are verbatim substrings
of ``../shared/seeds`` (tests/rules/test_new_rules.py checks them when the seeds are present).
"""

from __future__ import annotations

from .citations import SEED_FILES, SEED_OF_BOOK, citation
from .profiles import Profile

#: book key -> (seed tag, article, passage): the clause that leaves unusual cases to the floor or TD
HOUSE: dict[str, tuple[str, str, str]] = {
    "CEP": ("000", "Decisiones de los Responsables de póker",
            "Los responsables deben tener en cuenta el mejor interés del juego y la imparcialidad como las"
            " principales prioridades"),
    "T09": ("001", "art. 1, Director de Torneo",
            "el Director del Torneo deberá considerar el mejor interés del juego y la imparcialidad como las"
            " principales prioridades"),
    "PKR": ("002", "preámbulo",
            "El correcto desarrollo del juego y la imparcialidad son la prioridad en la toma de decisiones"),
    "R003": ("003", "Fundamentos",
             "El Jefe de Sala tendrá en consideración el mejor interés del juego y la imparcialidad como prioridad"
             " en la toma de decisiones"),
}

#: (rule id, book key) -> (seed tag, article, verbatim passage); "*": the passage any other book borrows
ARTICLES: dict[tuple[str, str], tuple[str, str, str]] = {
    ("STRADDLE.LIVE_OPTION", "*"): (
        "002", "Procedimientos generales, «Straddle»",
        "Una straddle cuenta como una ciega y no como una apuesta, con lo que el jugador que la hizo aún puede"
        " subir si el resto igualan su Straddle"),
    ("STRADDLE.ACTION_ORDER", "*"): (
        "003", "STRADDLE", "El jugador a la izquierda de la apuesta de Straddle inicia la acción pre-flop"),
    ("STRADDLE.ACTION_ORDER/mississippi", "*"): (
        "003", "MISSISSIPPI", "El Jugador con la ciega pequeña inicia la acción pre-flop"),
    ("STRADDLE.ACTION_ORDER", "PKR"): (
        "002", "Procedimientos generales, «Straddle»",
        "Straddle: es una ciega extra que el jugador inmediatamente a la izquierda de la ciega grande hace"),
    ("ALLIN.CUMULATIVE_REOPEN", "CEP"): (
        "000", "Subidas", "no se enfrentan a una subida completa cuando les llega la acción"),
    ("ALLIN.CUMULATIVE_REOPEN", "PKR"): (
        "002", "Apuestas y subidas", "no se enfrentan a una subida completa"),
    ("ALLIN.CUMULATIVE_REOPEN", "T09"): (
        "001", "art. 31, Subidas",
        "una apuesta all-in inferior a una subida completa no reabre las opciones de apuesta para los jugadores"
        " que ya han actuado"),
    ("ALLIN.CUMULATIVE_REOPEN", "*"): (
        "000", "Subidas", "no se enfrentan a una subida completa cuando les llega la acción"),
    ("ALLIN.MIN_RAISE_AFTER_SHORT", "CEP"): (
        "000", "Subidas",
        "Una subida tiene que ser al menos igual a la cantidad de la mayor apuesta o subida anterior de la ronda"
        " de apuestas en juego"),
    ("ALLIN.MIN_RAISE_AFTER_SHORT", "T09"): (
        "001", "art. 31, Subidas", "Una subida tiene que ser al menos igual a la cantidad de la anterior subida"),
    ("ALLIN.MIN_RAISE_AFTER_SHORT", "PKR"): (
        "002", "Apuestas y subidas",
        "Las subidas deben ser iguales a la cantidad de la última apuesta o subida de la ronde en juego"),
    ("ALLIN.MIN_RAISE_AFTER_SHORT", "R003"): (
        "003", "RAISE MÍNIMO",
        "con lo cual el jugador siguiente tendrá la opción para hacer un nuevo “Raise”, con base en el monto"
        " apostado por el jugador que hizo “All-In”"),
    ("ALLIN.MIN_RAISE_AFTER_SHORT/uncounted", "R003"): (
        "003", "RAISE MÍNIMO",
        "Si el jugador en turno hace “All In”, esa apuesta se considerará como Raise si es igual o superior al"
        " 150% de la apuesta previa"),
    ("ALLIN.MIN_RAISE_AFTER_SHORT", "*"): (
        "000", "Subidas",
        "Una subida tiene que ser al menos igual a la cantidad de la mayor apuesta o subida anterior de la ronda"
        " de apuestas en juego"),
    ("RUN_TWICE.SPLIT", "*"): (
        "002", "Procedimientos generales, «Twice»",
        "el pozo involucrado se dividirá y repartirá de acuerdo con las cartas ganadoras"),
    ("RUN_TWICE.SPLIT", "R003"): (
        "003", "RUN TWICE",
        "Los jugadores pueden decidir de común acuerdo de abrir dos veces o más el Flop, el Turn y/o el River para"
        " definir la mano"),
    ("DECK.DUPLICATE_CARD", "PKR"): (
        "002", "Irregularidades",
        "Si dos cartas idénticas son descubiertas en cualquier momento de la mano TODA LA ACCION ES NULA"),
    ("DECK.DUPLICATE_CARD", "CEP"): (
        "000", "Baraja defectuosa",
        "También puede contener cartas con reversos diferentes, o varias cartas del mismo palo y rango"),
    ("DECK.DUPLICATE_CARD", "*"): (
        "002", "Irregularidades",
        "Si dos cartas idénticas son descubiertas en cualquier momento de la mano TODA LA ACCION ES NULA"),
    ("MISDEAL.REDEAL", "CEP"): (
        "000", "Error de Reparto, Mano Nula",
        "el nuevo reparto es exactamente una repetición, el botón no se mueve, no hay nuevos jugadores sentados,"
        " y los limites siguen los mismos"),
    ("MISDEAL.REDEAL/killed", "CEP"): (
        "000", "Error de Reparto, Mano Nula",
        "La cartas repartidas a jugadores penalizados o los jugadores que no estaban “en su sitio” en el reparto"
        " original, y sus manos serán matadas tras el re-reparto"),
    ("MISDEAL.REDEAL", "PKR"): (
        "002", "Procedimientos generales, «Mano nula (MISS-Deal)»",
        "el nuevo reparto es idéntico al anterior: el botón no se mueve y pueden entrar los jugadores que estaban"
        " penalizados o ausentes"),
    ("RUN_TWICE.DISSENTER", "PKR"): (
        "002", "Procedimientos generales, «Twice»",
        "este jugara con la primera mano y de ser el ganador se llevara la totalidad del pozo o los pozos de que"
        " haga parte"),
    ("DECK.MISSING_CARD", "PKR"): (
        "002", "Irregularidades", "Una o más cartas que falten en la baraja, no invalidan el resultado de una mano"),
    ("RAKE.PER_POT_PROPORTIONAL", "R003"): (
        "003", "SIDE POTS",
        "la comisión se cobrará individualmente por cada pozo, hasta sumar como máximo el “Cap” estipulado para"
        " esos blinds. Esto se debe hacer de manera proporcional a cada pozo"),
    ("BOARD.RABBIT_HUNT", "CEP"): (
        "000", "Rabbit hunting", "bajo ninguna circunstancia se mostrará la próxima carta que habría salido"),
    ("BOARD.RABBIT_HUNT", "T09"): (
        "001", "art. 21, Rabbit Hunting",
        "Rabbit Hunting es revelar alguna de las cartas que “habrían salido” si la mano no se hubiera terminado"),
    ("BOARD.RABBIT_HUNT", "PKR"): (
        "002", "Procedimientos generales",
        "No está permitido el “Rabbit Hunting” o revelar alguna de las cartas que habrían salido si la mano no se"
        " hubiera terminado"),
    ("BOARD.RABBIT_HUNT", "R003"): (
        "003", "RABBIT HUNT",
        "Luego de terminada una mano, no está permitido que el Dealer muestre las cartas que estaban por salir"),
    ("BET.LIMIT_RAISE_CAP", "T09"): (
        "001", "art. 34, Número de Subidas",
        "En torneos “limit” habrá un límite de subidas incluso en el uno contra uno, hasta que queden sólo dos"
        " jugadores en el torneo; se aplicará el límite de subidas que establezca la casa"),
}


def book_key(prof: Profile) -> str:
    """The profile's book key without a phase suffix (``CEP+shot_clock`` is CEP)."""
    return prof.key.split("+", 1)[0]


def cite_article(prof: Profile, rule: str) -> str:
    """`` — <book>, <article>: [seed] «passage»`` for ``rule`` (``RULE/aspect`` falls back to ``RULE``)
    under ``prof``: the book's own passage, else the shared one, saying which book it borrows from."""
    key = book_key(prof)
    for r in (rule, rule.split("/", 1)[0]):
        own = ARTICLES.get((r, key))
        if own:
            return citation(key, own[1], SEED_FILES[own[0]], own[2])
    for r in (rule, rule.split("/", 1)[0]):
        shared = ARTICLES.get((r, "*"))
        if shared:
            borrowed = SEED_OF_BOOK.get(key) != shared[0]
            return citation(key, shared[1], SEED_FILES[shared[0]], shared[2], borrowed)
    return ""


def cite_house(prof: Profile) -> str:
    """The book's own clause leaving the call to the floor or TD (online: none, so empty)."""
    own = HOUSE.get(book_key(prof))
    if own is None:
        return ""
    return citation(book_key(prof), own[1], SEED_FILES[own[0]], own[2])
