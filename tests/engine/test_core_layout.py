"""The camera layout pieces games share (``engine.layout``): one list of items drawn and read
back the same way, and a generated board profile that refuses a sticker kit too small for it."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from engine.layout import (
    Item,
    ItemReading,
    board_profile,
    centred_picture,
    region_rect,
    spot,
    sticker,
)

REGIONS = {"slot:1": (10.0, 20.0, 30.0, 40.0), "area": (100.0, 0.0, 50.0, 50.0)}


def test_a_picture_lies_in_the_middle_of_its_region_and_is_read_as_a_tile() -> None:
    item = Item("picture", "art:x", "slot:1", {"card": "x"})
    placed = centred_picture(item, REGIONS["slot:1"], (28.0, 28.0))
    assert placed.kind == "picture"
    assert placed.center == (25.0, 40.0)
    assert placed.size == (28.0, 28.0)
    assert placed.seen == {"component": "tile", "region": "slot:1", "attrs": {"card": "x"}}


def test_a_sticker_is_read_back_by_its_label_in_its_region() -> None:
    placed = sticker(Item("sticker", "pawn:red", "area"), (110.0, 10.0))
    assert placed.seen == {"component": "pawn:red", "region": "area", "attrs": {}}
    assert (placed.kind, placed.key, placed.size) == ("sticker", "pawn:red", (0.0, 0.0))


def test_spots_fill_a_region_row_by_row_inside_its_edge() -> None:
    assert spot(0.0, 0.0, 10.0, 3, 0) == (6.5, 6.5)
    assert spot(0.0, 0.0, 10.0, 3, 2) == (26.5, 6.5)
    assert spot(0.0, 0.0, 10.0, 3, 3) == (6.5, 16.5)


def test_a_piece_without_a_region_in_the_profile_is_refused() -> None:
    assert region_rect(REGIONS, "area") == REGIONS["area"]
    with pytest.raises(ValueError, match="no region 'elsewhere'"):
        region_rect(REGIONS, "elsewhere")


def test_a_generated_profile_gives_the_corners_the_first_ids_and_each_label_the_next() -> None:
    regions = [{"name": "area", "kind": "area", "rect": [100.0, 0.0, 50.0, 50.0]}]
    profile = board_profile("g", (200.0, 100.0), 40.0, 10.0, regions, ["a", "b"], range(7), "a")
    assert profile["corner_ids"] == [0, 1, 2, 3]
    assert profile["markers"] == {"4": "a", "5": "b"}
    assert profile["corner_centers_mm"] == [
        [25.0, 25.0],
        [175.0, 25.0],
        [175.0, 75.0],
        [25.0, 75.0],
    ]
    assert (profile["width_mm"], profile["height_mm"], profile["sticker_mm"]) == (
        200.0,
        100.0,
        10.0,
    )
    assert profile["regions"] == regions
    assert profile["seat_sticker"] == "a"


def test_a_generated_profile_refuses_too_few_marker_ids() -> None:
    with pytest.raises(ValueError, match="3 stickers and 4 corners"):
        board_profile("g", (200.0, 100.0), 40.0, 10.0, [], ["a", "b", "c"], range(6), "a")


class Reading(ItemReading[list[Item]]):
    kinds = ("pawn", "tile")

    def visible(self, state: list[Item]) -> Iterator[Item]:
        return iter(state)

    def picture_component(self, attrs: Mapping[str, Any]) -> str:
        return f"tile:{attrs['card']}" if isinstance(attrs.get("card"), str) else "tile:?"


def test_the_reading_expects_the_items_it_draws_of_the_kinds_asked() -> None:
    state = [
        Item("sticker", "pawn:red", "area"),
        Item("sticker", "pawn:red", "area"),
        Item("sticker", "crest:red", "area"),
        Item("picture", "art:x", "slot:1", {"card": "x"}),
    ]
    reading = Reading()
    assert reading.pieces(state, {"pawn", "tile"}) == {
        ("pawn:red", "area"): 2,
        ("tile:x", "slot:1"): 1,
    }
    assert reading.pieces(state, {"pawn"}) == {("pawn:red", "area"): 2}
    assert reading.component("tile", "tile", {"card": "y"}) == "tile:y"
    assert reading.component("tile", "tile", {}) == "tile:?"
    assert reading.component("pawn", "pawn:blue", {}) == "pawn:blue"
    assert reading.chance(state, []) == [] and reading.follow_ups(state, state) == []
