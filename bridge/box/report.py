"""What a box is good for: with how many players the game starts on it, and what it still lacks
(the values the game names when it refuses to start, each with where it is printed)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bridge.seats import seat_names
from engine import data as engine_data
from engine import selfplay
from engine.data import GameData
from engine.violations import InputError, RuleViolation, Violation

from .errors import BoxError
from .file import Box, box_data


@dataclass(frozen=True)
class Playability:
    """The player counts a game starts with on a box, and for the others why not."""

    playable: tuple[int, ...]
    refused: dict[int, tuple[Violation, ...]] = field(default_factory=dict)

    def missing(self) -> tuple[Violation, ...]:
        """Every distinct reason the game gave for not starting on the box (a value it lacks, a
        map that breaks a rule of the board), once each whatever the player count."""
        seen: dict[tuple[str, str], Violation] = {}
        for violations in self.refused.values():
            for v in violations:
                seen.setdefault((v.code, repr(sorted(v.params.items()))), v)
        return tuple(seen.values())

    def faults(self) -> tuple[Violation, ...]:
        """The reasons that are not a value left to complete but a broken rule (a road to a
        Village the map lacks): a game's gap codes end in ``missing…``, ``incomplete…`` or
        ``unknown…``."""
        return tuple(v for v in self.missing() if not is_gap(v))


def is_gap(violation: Violation) -> bool:
    """Whether the game refused for a value its data leave unknown (``…/missing-…``,
    ``…/incomplete…``, ``…/unknown-…``: the convention of every game's gap codes,
    docs/games.md) rather than for a value that breaks a rule."""
    last = violation.code.rpartition("/")[2]
    return last.startswith(GAP_PREFIXES)


GAP_PREFIXES = ("missing", "incomplete", "unknown")
"""How a game's code for a value still to complete begins (after its last ``/``)."""


def checked(game: Any, box: Box, source: str) -> tuple[GameData, Playability]:
    """The box's data and what they play, or ``BoxError`` when the game cannot read them or
    they break one of its rules (a box may leave values to complete; it may not be wrong)."""
    data = box_data(game, box, source)
    try:
        plays = playability(game, data, source)
    except InputError as exc:
        raise BoxError(
            "box/bad-data", exc.path, exc.faults, reason=exc.detail, where=exc.path or "$"
        ) from exc
    faults = plays.faults()
    if faults:
        raise BoxError("box/breaks-rules", n=len(faults), first=faults[0])
    return data, plays


def playability(game: Any, data: GameData, source: str) -> Playability:
    """Try to set the game up on ``data`` for every player count it allows, each with the options
    the game plays that count with (a solo scenario for one player, say) and the box's data."""
    spec = engine_data.data_spec(game)
    on_box = {spec.option: source} if spec else {}
    playable: list[int] = []
    refused: dict[int, tuple[Violation, ...]] = {}
    for n in range(game.info.min_players, game.info.max_players + 1):
        options = {**game.info.option_defaults(), **selfplay.setups(game, n, on_box)[0].options}
        try:
            engine_data.setup(game, seat_names(n), options, data)
            playable.append(n)
        except RuleViolation as exc:
            refused[n] = tuple(exc.violations)
    return Playability(tuple(playable), refused)
