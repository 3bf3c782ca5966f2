"""Glory's ``data check``: whether a data set carries every game Glory can be played as (1 to 4
players, Joust and Pas d'armes, a first game or not, each solo scenario), listing every value a
game would be refused for, with where it is printed (the report every game words the same way,
``engine.data_gaps.check_report``).

A data file that breaks the format never gets here: loading it lists every fault with its path
(``data_schema.validate``, ``data_check.check_data``)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from engine.data import GameData
from engine.data_gaps import check_report
from engine.games.glory.components import GAME_KEY
from engine.games.glory.data_missing import SCENARIOS, missing_for
from engine.games.glory.data_types import Box, BoxData
from engine.verbs import BadInput, VerbResult
from engine.violations import InputError, Violation


def _games() -> Iterator[tuple[int, dict[str, Any]]]:
    """Every kind of game whose data needs differ: players, tournament, first game, solo."""
    for players in (2, 3, 4):
        for tournament in ("joust", "pas-d-armes"):
            for first in (False, True):
                yield players, {"tournament": tournament, "first_game": first}
    for solo in SCENARIOS:
        tournaments = ("joust",) if solo == "wojownik" else ("joust", "pas-d-armes")
        for tournament in tournaments:
            yield 1, {"tournament": tournament, "solo": solo}


def check_data(inputs: Mapping[str, Any], lang: str) -> VerbResult:
    """Every value some Glory game would be refused for on the data ``--data`` names (exit 3
    if any), each once, with what it is needed for and where it is printed."""
    data: GameData | None = inputs.get("data")
    if data is None or not isinstance(data.value, Box):
        raise BadInput("data", InputError("input/data", "not Glory's data"))
    value: BoxData = data.value.data
    refused: dict[str, Violation] = {}
    for players, options in _games():
        for m in missing_for(value, players, options):
            refused.setdefault(m.what, replace(m, where=f"the data file ({m.where})").violation())
    return check_report(GAME_KEY, data, value.name, value.stand_in, list(refused.values()), [],
                        lang)  # fmt: skip
