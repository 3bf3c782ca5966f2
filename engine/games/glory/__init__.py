"""Glory (Chwała, Strategos 2021): the duel engine, digest §5.1-5.8 (rules/glory.md, seed 001).

Only the duel is refereed so far, so the game is **not** in ``engine.registry``: a half game
must not be offered as a whole one. The modules: ``components`` (printed facts and the data
files for what the seed lost), ``state`` (duel state and moves), ``duel`` (whose move, checks,
resolution), ``script`` (a whole duel from a DUEL.json file) and ``views`` (sentences).
"""

from __future__ import annotations

from engine.games.glory.components import GAME_KEY, RULEBOOK

__all__ = ["GAME_KEY", "RULEBOOK"]
