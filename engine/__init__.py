"""Herald's rules engine: pure functions over frozen dataclasses, no I/O, no clocks, no threads.

Every game is a module with the same shape (see ``engine.game.Game``); ``engine.registry`` finds
them by key. The live referee, the CLI calculator, the simulator and the tests all call the same
functions.
"""

from engine.registry import game_keys, get_game

__all__ = ["game_keys", "get_game"]
