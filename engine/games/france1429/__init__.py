"""Fief: France 1429 (Academy Games, 2014): the game's data layer and its map.

Not registered as a game yet: the rules engine comes later (issue 12), and a registered game
must pass the whole conformance suite. What is here is pure and usable on its own:

- ``geography``: the map file format (villages, roads, 8 Fiefs, 5 Bishoprics) parsed from JSON;
- ``map_checks``: the sanity checks of digest §3.3, every problem at once;
- ``layout`` and ``map_svg``: positions (typed in or laid out) and an SVG drawing of the map;
- ``data``: the other box data the rulebooks only partly give (Lord cards, Fortune and
  Disaster cards, dice, colours), with the values a game needs and the data lacks;
- ``cli``: pure functions for ``herald rules france1429 map check|render``.

Shipped sets in ``data/``: ``map-box.json`` and ``box.json`` hold what the two seeds give (every
gap ``null`` with a note), ``map-stand-in-invented.json`` and ``stand-in-invented.json`` are
complete invented sets so the game can be played and simulated before a user types in a box.
"""

from engine.games.france1429.sources import GAME_KEY

__all__ = ["GAME_KEY"]
