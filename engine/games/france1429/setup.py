"""Setup (digest §4): the rules' data from the loaded map and box, the decks, each family's
starting Lord and counters, and the starting Villages chosen clockwise from the First Player.

A starting Lord is a Lord card: a Cardinal or d'ARC card drawn at setup goes back (EN: shuffled
in and redrawn; PL: set aside, then shuffled in) and the table reports the next card, so the
table's report of a starting card is refused if it is one of them (§4 step 4, FR-1).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.games.france1429 import control
from engine.games.france1429.data import BoxData
from engine.games.france1429.geography import MapData
from engine.games.france1429.map_view import map_view
from engine.games.france1429.moves import DealLord, PlaceStart
from engine.games.france1429.refs import refuse
from engine.games.france1429.state import (
    AMBUSH,
    ASSASSINATION,
    CARDINAL,
    DARC,
    FAMINE,
    HARVEST,
    HEAVY_RAIN,
    JUSTICE,
    PLAGUE,
    SECRET_PASSAGE,
    TAXES,
    UPRISING,
    WEATHER,
    Family,
    FranceState,
    Lord,
    LordInfo,
    Place,
    Rules,
    Troops,
    VillageInfo,
)

DEFAULT_STOCK = {"knights": 8, "maa": 13, "engines": 2, "tax": 3, "diplomacy": 3, "vote": 2}
"""Each family's counters (digest §2.1, §4 step 5; counts from PL)."""
DEFAULT_START = {"deniers": 5, "knights": 1, "maa": 3, "strongholds": 1}
"""What a player begins with (digest §4 step 6, PL)."""
DEFAULT_SUPPLY = {"mills": 15, "strongholds": 12}
"""Shared counters (digest §2.2)."""
DEFAULT_FORTUNE = (
    (HARVEST, 5),
    (WEATHER, 5),
    (TAXES, 5),
    (UPRISING, 4),
    (SECRET_PASSAGE, 3),
    (ASSASSINATION, 1),
    (JUSTICE, 1),
    (AMBUSH, 1),
    (HEAVY_RAIN, 4),
    (FAMINE, 4),
    (PLAGUE, 2),
)
"""The Fortune & Disaster deck (digest §2.3: 25 Fortune, 10 Disaster cards)."""
DEFAULT_LORD_EXTRAS = ((CARDINAL, 3), (DARC, 1))
DEFAULT_FACES = (1, 1, 2, 2, 3, 3)

DEFAULT_PRICES = {
    "maa": 1,
    "knight": 3,
    "mill": 3,
    "stronghold": 10,
    "biretta": 5,
    "title_per_village": 2,
}
"""The price list (digest §7.2)."""


def _counts(raw: Mapping[str, Any] | None, default: Mapping[str, int]) -> dict[str, int]:
    out = dict(default)
    for key, value in (raw or {}).items():
        if isinstance(value, int) and not isinstance(value, bool):
            out[_alias(key)] = value
    return out


def _alias(key: str) -> str:
    plain = key.replace("-", "_").lower()
    return {
        "men_at_arms": "maa",
        "siege_engines": "engines",
        "tax_markers": "tax",
        "diplomacy_markers": "diplomacy",
        "vote_markers": "vote",
    }.get(plain, plain)


def rules_from(m: MapData, box: BoxData | None) -> Rules:
    """The ``Rules`` of a game on map ``m`` with box data ``box`` (None: the digest's counts
    with invented Lord names, for tests that build a map of their own)."""
    villages = tuple(
        VillageInfo(v.id, str(v.fief), int(v.bishopric or 0), v.principal) for v in m.villages
    )
    roads = tuple(dict.fromkeys((min(r.a, r.b), max(r.a, r.b)) for r in m.roads if r.a != r.b))
    if box is None:
        lords = tuple(
            LordInfo(f"lord-{i + 1:02d}", f"Lord {i + 1}", "male" if i < 12 else "female")
            for i in range(18)
        )
        return Rules(
            villages,
            roads,
            lords,
            DEFAULT_LORD_EXTRAS,
            DEFAULT_FORTUNE,
            DEFAULT_FACES,
            dict(DEFAULT_STOCK),
            dict(DEFAULT_START),
            dict(DEFAULT_SUPPLY),
            dict(DEFAULT_PRICES),
            source=m.source,
            drawing=map_view(m),
        )
    lords = tuple(LordInfo(x.id, x.name or x.id, x.sex) for x in box.lords)
    lord_cards: list[tuple[str, int]] = []
    fortune: list[tuple[str, int]] = []
    for card in box.cards:
        (lord_cards if card.deck == "lords" else fortune).append((card.effect, int(card.count)))
    faces = tuple(box.dice.battle_faces or DEFAULT_FACES)
    return Rules(
        villages,
        roads,
        lords,
        tuple(lord_cards),
        tuple(fortune),
        faces,
        _counts(box.stock, DEFAULT_STOCK),
        _counts(box.start, DEFAULT_START),
        _counts(box.supply, DEFAULT_SUPPLY),
        _counts(box.prices, DEFAULT_PRICES),
        tuple(r.effect for r in box.relics),
        box.source,
        map_view(m),
    )


def initial(seats: tuple[str, ...], options: dict[str, Any], rules: Rules) -> FranceState:
    """The table before the starting Lords are drawn: decks, money, stockpiles (§4)."""
    start = rules.start
    families = tuple(
        Family(
            s,
            deniers=start["deniers"],
            tax_left=rules.stock["tax"],
            diplomacy=rules.stock["diplomacy"],
        )
        for s in seats
    )
    lord_deck = {x.id: 1 for x in rules.lords}
    lord_deck.update(dict(rules.lord_cards))
    return FranceState(
        seats=seats,
        rules=rules,
        options=options,
        phase="deal-lord",
        families=families,
        places=tuple(Place(v.id) for v in rules.villages),
        lord_deck=lord_deck,
        fortune_deck=dict(rules.fortune_cards),
        supply={**rules.supply, "biretta": 1},
        stock={s: dict(rules.stock) for s in seats},
    )


def is_lord_card(state: FranceState, card: str) -> bool:
    return state.rules.lord(card) is not None


def deal_lord(state: FranceState, move: DealLord) -> FranceState:
    """A seat's starting Lord card, as the table reports it (§4 step 4); the round driver
    (``rounds.next_seat``) then deals to the next seat."""
    seat = state.current()
    if move.to != seat:
        raise refuse("setup/deal-order", "setup", seat=move.to, expected=seat)
    if not is_lord_card(state, move.card) or state.lord_deck.get(move.card, 0) < 1:
        raise refuse("setup/not-a-lord", "setup", card=move.card)
    deck = {k: v for k, v in state.lord_deck.items() if k != move.card}
    fam = state.family(seat)
    return replace(state.with_family(replace(fam, hand=(move.card,))), lord_deck=deck)


def placeable(state: FranceState) -> tuple[str, ...]:
    """Villages still unoccupied (§4 step 11: any of them)."""
    return tuple(v.id for v in state.rules.villages if not state.place(v.id).present)


def place_start(state: FranceState, move: PlaceStart) -> FranceState:
    """The seat's starting Lord, Knight, Men at Arms and Stronghold in an empty Village; the
    round driver (``rounds.next_seat``) then passes the turn, or opens the relics or round 1."""
    if move.village not in {v.id for v in state.rules.villages}:
        raise refuse("setup/unknown-village", "setup", village=move.village)
    if state.place(move.village).present:
        raise refuse("setup/occupied", "setup", village=move.village)
    fam = state.family(move.seat)
    card = fam.hand[0]
    start = state.rules.start
    state = state.with_family(replace(fam, hand=()))
    state = replace(state, lords=(*state.lords, Lord(card, move.seat, move.village)))
    maa, kn = start["maa"], start["knights"]
    state = state.with_troops(Troops(move.seat, move.village, maa, kn, maa, kn))
    supply = dict(state.supply)
    forts = start["strongholds"]
    supply["strongholds"] -= forts
    state = replace(state, supply=supply)
    place = state.place(move.village)
    state = state.with_place(replace(place, fort="stronghold" if forts else "none"))
    return control.refresh(state, move.village)
