"""What a box is good for: with how many players the game starts on it, and what it still lacks
(the values the game names when it refuses to start, each with where it is printed)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bridge.seats import seat_names
from engine import data as engine_data
from engine.data import GameData
from engine.violations import InputError, RuleViolation, Violation


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


def playability(game: Any, data: GameData, source: str) -> Playability:
    """Try to set the game up on ``data`` for every player count it allows."""
    spec = engine_data.data_spec(game)
    options = {**game.info.option_defaults(), **({spec.option: source} if spec else {})}
    playable: list[int] = []
    refused: dict[int, tuple[Violation, ...]] = {}
    for n in range(game.info.min_players, game.info.max_players + 1):
        try:
            engine_data.setup(game, seat_names(n), dict(options), data)
            playable.append(n)
        except RuleViolation as exc:
            refused[n] = tuple(exc.violations)
        except InputError as exc:
            refused[n] = (Violation("box/setup-input", exc.path, {"detail": exc.detail}),)
    return Playability(tuple(playable), refused)
