"""Middle Ages (Marc André): the fief tile game, refereed completely. Rules: rules/fief_tiles.md.

``game`` holds ``GAME`` (the verbs of ``engine.game.Game``); the modules beside it hold the
pieces: ``components`` (printed facts and the tile box), ``state`` (the position), ``moves``
(the moves), ``flow`` (the turn flow), ``play`` (whose move, legal moves), ``checks``
(legality), ``resolve`` (applying a move: effects, income, refills, events), ``income``,
``scoring``, ``position`` (whole-position checks), ``supply`` (draw stacks), ``views`` (views
and prompts), ``preview`` (option previews) and ``layout`` (the camera board: where every
piece lies, and reading the table back).
"""

from engine.games.middle_ages.game import GAME

__all__ = ["GAME"]
