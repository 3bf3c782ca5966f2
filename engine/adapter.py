"""The shared part of a game module: the verbs that are the same for every game on the flow.

A game subclasses :class:`GameBase`, declares ``info``, ``state_type``, ``move_types`` and
``flow``, and writes only what is its own (setup, position, legality, effects, views, scores).
Whose move it is, which moves are chance, the catalog sentence of an itemised line and the
defaults of the optional verbs come from here, so two games cannot drift apart on them.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from engine.flow import Position, TurnFlow, actors, kind_of
from engine.game import TABLE, GameInfo, Interpretation, Line, Prompt
from engine.i18n import DEFAULT_LANG, message
from engine.violations import InputError, Violation

RESERVED_SEATS = (TABLE, "host")
"""Seat names no player may take: the table's and the host's actors."""


def check_seats(info: GameInfo, players: tuple[str, ...], reserved: tuple[str, ...] = ()) -> None:
    """Refuse a seat list the game cannot take: the count outside the game's range, a name
    repeated, empty or reserved."""
    if not info.min_players <= len(players) <= info.max_players:
        raise InputError(
            "setup/players",
            f"{info.name} takes {info.min_players}-{info.max_players} players, not {len(players)}",
        )
    taken = (*RESERVED_SEATS, *reserved)
    if len(set(players)) != len(players) or any(not p or p in taken for p in players):
        raise InputError(
            "setup/players", f"seat names must be distinct, non-empty, and not {', '.join(taken)}"
        )


def resolve_options(info: GameInfo, options: dict[str, Any] | None) -> dict[str, Any]:
    """The game's options with defaults filled in; unknown names and values outside a declared
    choice list are refused, naming them."""
    opts = {**info.option_defaults(), **(options or {})}
    known = {o.name for o in info.options}
    unknown = set(opts) - known
    if unknown:
        raise InputError(
            "setup/options", f"unknown option(s) {sorted(unknown)}; known: {sorted(known)}"
        )
    for spec in info.options:
        if spec.choices and opts[spec.name] not in spec.choices:
            raise InputError(
                "setup/options",
                f"{spec.name} is one of {', '.join(map(str, spec.choices))}, "
                f"not {opts[spec.name]!r}",
                f"$.options.{spec.name}",
            )
    return opts


class GameBase:
    """Defaults for the verbs of ``engine.game.Game`` that follow from the flow declaration."""

    info: ClassVar[GameInfo]
    state_type: ClassVar[type]
    move_types: ClassVar[tuple[type, ...]]
    flow: ClassVar[TurnFlow]

    def position(self, state: Any) -> Position:
        raise NotImplementedError

    def to_act(self, state: Any) -> tuple[str, ...]:
        if self.is_over(state):
            return ()
        return actors(self, state)

    def actor(self, move: Any) -> str:
        return str(getattr(move, "seat", TABLE))

    def is_chance(self, move: Any) -> bool:
        """A move a ``table`` step takes is an observation of chance: never undoable."""
        kind = kind_of(self, move)
        steps = [*self.flow.steps, *(s for g in self.flow.subgames for s in g.steps)]
        return any(kind in s.moves for s in steps if s.order == "table")

    def describe(self, line: Line, lang: str = DEFAULT_LANG) -> str:
        return message(f"{self.info.key}:{line.code}", lang, amount=line.amount, **line.params)

    def check_position(self, state: Any) -> list[Violation]:
        return []

    def income(self, state: Any, seat: str) -> tuple[Line, ...]:
        return ()

    def is_over(self, state: Any) -> bool:
        return bool(self.position(state).step == "over")

    def prompts(self, state: Any) -> list[Prompt]:
        """One prompt per actor: ``<key>:prompt/<step>`` with the actor's legal moves."""
        step = self.position(state).active.replace("/", "-")
        moves: list[Any] = self.legal_moves(state)  # type: ignore[attr-defined]
        return [
            Prompt(seat, f"prompt/{step}", {}, tuple(m for m in moves if self.actor(m) == seat))
            for seat in self.to_act(state)
        ]

    def interpret(self, state: Any, seen: list[dict[str, Any]]) -> Interpretation:
        """A game without a camera or Tabletop Simulator profile turns no observation into a
        move: it says so rather than guessing."""
        return Interpretation(moves=(), unchanged=False, notes=("interpret/no-profile",))

    def sample_chance(self, state: Any, rng: random.Random) -> Any:
        return None
