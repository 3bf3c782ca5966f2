"""Glory's shipped data sets, loaded once for the tests the way a caller of the engine loads them.

The rules read no file: the dice faces and the Knights a duel needs come from the data a game
(or a test) hands in. ``DICE`` and ``KNIGHTS`` are the box's (``data/dice.json``: the seed's
faces with one white face unknown; ``data/knights.json``: names, statistics ``null``).
"""

from __future__ import annotations

from engine import data as gamedata
from engine.games.glory import GAME
from engine.games.glory.data_types import Box, BoxData


def shipped(name: str) -> gamedata.GameData:
    """A shipped set (``box`` or ``stand-in``) as ``engine.data.load`` gives it."""
    loaded = gamedata.load(GAME, {"data": name})
    assert loaded is not None and isinstance(loaded.value, Box)
    return loaded


BOX: BoxData = shipped("box").value.data
DICE = BOX.dice
KNIGHTS = BOX.knights
