"""Shared seeded fixtures for the vision tests (scenes are costly: build each once)."""

from __future__ import annotations

import pytest

from bridge.game_files import camera_profile
from vision.art import stand_in_art
from vision.cards import Matcher
from vision.library import Library
from vision.markers import MarkerDetector
from vision.scenes import Scene, hard_scene
from vision.slots import SlotClassifier

MA_BOARD = camera_profile("middle-ages")
"""The board profile Middle Ages ships (its package's camera/profile.json)."""


TILES = [f"tile-{i:02d}" for i in range(12)]
UNKNOWN_TILES = [f"tile-x{i}" for i in range(4)]
CARDS = [f"card-{i:02d}" for i in range(8)]


@pytest.fixture(scope="session")
def detector() -> MarkerDetector:
    return MarkerDetector()


@pytest.fixture(scope="session")
def hard_scenes() -> list[Scene]:
    """Six seeded hard scenes (seeds unused by tuning, which used 1000-1015)."""
    return [
        hard_scene(
            7100 + k, MA_BOARD, tile_keys=TILES + UNKNOWN_TILES, card_keys=[CARDS[k], "alien-card"]
        )
        for k in range(6)
    ]


@pytest.fixture(scope="session")
def library() -> Library:
    lib = Library()
    for key in TILES:
        lib.add(key, stand_in_art(key, 320, 320))
    for key in CARDS:
        lib.add(key, stand_in_art(key, 320, 448))
    return lib


@pytest.fixture(scope="session")
def matcher(library: Library) -> Matcher:
    return Matcher(library)


@pytest.fixture(scope="session")
def slots() -> SlotClassifier:
    return SlotClassifier({key: stand_in_art(key, 320, 320) for key in TILES})
