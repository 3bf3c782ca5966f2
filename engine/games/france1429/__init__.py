"""Fief: France 1429 (Academy Games, 2014): the whole game (issue 12), registered as
``france1429`` (``GAME``, the entry point).

The rules: ``state`` (the table), ``setup`` (§4), ``rounds`` (the round driver: the 7 phases
on the turn flow, the only module that knows their order), ``stack`` (the stack of questions a
phase waits on), ``questions`` (each kind of question as one object), ``sequence`` (a sub-game
as one object: a battle, the elections), ``turn`` (which rule takes a move, the legal moves,
a simulated table's chance), ``hear_ye`` (elections), ``drawing`` (Phase 2 draw and Disasters),
``cards`` (card effects by key), ``income`` (§6), ``purchase`` (§7), ``movement`` (§8,
Cavalcade), ``control`` (§8.4), ``war`` (battles), ``fighting`` (marriage, sieges, captures,
pillage, titles), ``papacy`` (Pope, Diplomacy), ``relics`` (option), ``deaths``, ``victory``
(§1.2), ``views``, ``preview``, ``game`` (the game object, registered here).

The data layer:

- ``geography``: the map file format (villages, roads, 8 Fiefs, 5 Bishoprics) parsed from JSON;
- ``map_checks``: the sanity checks of digest §3.3, every problem at once;
- ``map_layout`` and ``map_svg``: positions (typed in or laid out) and an SVG drawing of the map;
- ``data``: the other box data the rulebooks only partly give (Lord cards, Fortune and
  Disaster cards, dice, colours), with the values a game needs and the data lacks;
- ``cli``: pure functions for ``herald rules france1429 map check|render``.

Shipped sets in ``data/``: ``map-box.json`` and ``box.json`` hold what the two seeds give (every
gap ``null`` with a note), ``map-stand-in-invented.json`` and ``stand-in-invented.json`` are
complete invented sets so the game can be played and simulated before a user types in a box.
"""

from engine.games.france1429.game import GAME

__all__ = ["GAME"]
