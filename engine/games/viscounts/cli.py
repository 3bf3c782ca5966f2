"""Viscounts of the West Kingdom's own command-line verbs: check a data set.

``herald rules viscounts data check --data FILE`` (once the game is registered) lists every
value a game with the data would be refused for, and what it leaves unknown that is only shown.
A user typing in the printed cards of their box runs it after each card: a card whose effect
does not read is refused by the loader, naming the card and the part (docs/viscounts-effects.md).
A pure function over the loaded data (``engine.verbs``): the generic CLI reads the file, prints
and exits with the code.

Exit codes: 0 the data carry a game of any player count (values only shown may be unknown),
2 not a data file or an effect that does not read, 3 a game would be refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.data import GameData
from engine.data_gaps import check_report
from engine.games.viscounts.data import data_gaps, data_schema, refusals
from engine.games.viscounts.data_types import PLAYERS, ViscountsData
from engine.games.viscounts.sources import GAME_KEY
from engine.verbs import BadInput, Verb, VerbArg, VerbResult
from engine.violations import InputError, Violation


def check_data(inputs: Mapping[str, Any], lang: str) -> VerbResult:
    """Whether the data set ``--data`` names carries a whole game of every player count:
    every value a game would be refused for (exit 3 if any), then the values only shown to
    players that it leaves unknown."""
    data: GameData | None = inputs.get("data")
    if data is None or not isinstance(data.value, ViscountsData):
        raise BadInput("data", InputError("input/data", "not Viscounts of the West Kingdom's data"))
    value: ViscountsData = data.value
    refused: list[Violation] = []
    for players in PLAYERS:
        refused += [v for v in refusals(value, players) if v not in refused]
    shown = [g.violation() for g in data_gaps(value, everything=True) if not g.needed]
    # a set that extends a shipped one is labelled by its own values (engine.data.Provenance)
    invented = bool(data.provenance.own_invented) if data.provenance.base else value.invented
    return check_report(GAME_KEY, data, value.name, invented, refused, shown, lang)


VERBS: tuple[Verb, ...] = (
    Verb(
        "data check",
        "Check a data set (--data: stand-in, box or a data file): every value a game would be "
        "refused for, and the values only shown that it leaves unknown.",
        (VerbArg("data", "The data set: stand-in, box, or a data file.", kind="data"),),
        check_data,
        data_schema,
    ),
)
"""The package's own verbs (``engine.verbs``)."""
