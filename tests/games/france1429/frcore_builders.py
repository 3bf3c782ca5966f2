"""Positions for France 1429's rule tests, built on the shipped stand-in data.

The stand-in map (data/map-stand-in-invented.json) has the Duchy of Bourg (bourg, l-epervier,
montrevel, treffort; Bishopric 4), Bishopric 5 = sigy, beaujeu, st-paul, st-ciers-dabzac, and
the County "green" (tournus, cuisery, louhans; Bishopric 3). Seats are the examples' players.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine import data as gamedata
from engine.games.france1429 import GAME, control, setup
from engine.games.france1429.data import FranceData
from engine.games.france1429.rounds import start_round
from engine.games.france1429.state import BishopricCard, FranceState, Lord, Troops

SEATS = ("grady", "david", "kirsten", "gunter")


def data() -> FranceData:
    loaded = gamedata.load(GAME, {"data": "stand-in"})
    assert loaded is not None
    value: FranceData = loaded.value
    return value


def table(seats: tuple[str, ...] = SEATS, **options: Any) -> FranceState:
    """An empty board in round 1, Phase 1 (no Lords, no troops)."""
    opts = {**GAME.info.option_defaults(), **options}
    value = data()
    state = setup.initial(seats, opts, setup.rules_from(value.map, value.box))
    return start_round(state)


def lord(state: FranceState, lid: str, seat: str, village: str, **fields: Any) -> FranceState:
    """Lord ``lid`` of ``seat`` standing in ``village`` (titles as fields: fiefs=("bourg",))."""
    state = replace(state, lords=(*state.lords, Lord(lid, seat, village, **fields)))
    return control.refresh(state, village)


def troops(
    state: FranceState, seat: str, village: str, maa: int = 0, knights: int = 0
) -> FranceState:
    t = state.troops_at(seat, village)
    t = replace(t, maa=t.maa + maa, knights=t.knights + knights,
                fresh_maa=t.fresh_maa + maa, fresh_knights=t.fresh_knights + knights)  # fmt: skip
    state = state.with_troops(t if t.count() else Troops(seat, village))
    return control.refresh(state, village)


def mills(state: FranceState, village: str, n: int) -> FranceState:
    return state.with_place(replace(state.place(village), mills=n))


def fort(state: FranceState, village: str, kind: str = "stronghold") -> FranceState:
    return state.with_place(replace(state.place(village), fort=kind))  # type: ignore[arg-type]


def card_on(state: FranceState, bishopric: int, card: str) -> FranceState:
    return replace(state, mitres=(*state.mitres, BishopricCard(bishopric, card)))


def hand(state: FranceState, seat: str, *cards: str) -> FranceState:
    return state.with_family(replace(state.family(seat), hand=tuple(cards)))


def money(state: FranceState, seat: str, deniers: int) -> FranceState:
    return state.with_family(replace(state.family(seat), deniers=deniers))


def at_phase(state: FranceState, phase: str, seat: str | None = None) -> FranceState:
    """The state in ``phase`` with ``seat`` (default: the First Player) to act."""
    turn = state.order().index(seat) if seat else 0
    return replace(state, phase=phase, turn=turn)  # type: ignore[arg-type]
