"""Small builders for the Glory duel tests."""

from __future__ import annotations

from typing import Any

from engine.games.glory import duel
from engine.games.glory.duel_state import Die, Duellist, DuelState, Knight


def D(type_: Any, face: Any, id_: str = "") -> Die:
    return Die(type_, face, id_)


def player(name: str, **fields: Any) -> Duellist:
    return Duellist(name, **fields)


def knight(name: str = "Sir Test", **fields: Any) -> Knight:
    values: dict[str, Any] = {"type": "nobility", "attack": 8, "prestige": 1, "glory": 6}
    values.update(fields)
    return Knight(name, **values)


def play(state: DuelState, *moves: Any) -> DuelState:
    for move in moves:
        state = duel.apply(state, move)
    return state


def codes(state: DuelState, move: Any) -> list[str]:
    return [v.code for v in duel.check(state, move)]
