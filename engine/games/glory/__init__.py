"""Glory (Chwała, Strategos 2021): the whole game, rules/glory.md (seed 001).

Modules: ``game`` (the ``GAME`` module: options, setup, the verbs), ``components`` (printed facts
with seed lines), ``data_types`` (the box's printed contents as typed data), ``data_file`` (a data
file users complete, parsed into the ``Box`` a game keeps in its state), ``data_schema``,
``data_check`` and ``data_missing`` (the file format, its consistency, and what a game with given
options needs), ``duel_state`` + ``duel`` (the duel, §5), ``state`` (the whole table and its
moves), ``setup_phase``, ``actions``, ``quests``, ``refresh``, ``tournament``, ``titles`` +
``titles_phase``, ``solo`` (SIR, Appendix A), ``turn`` (who acts, applying a move, phase to
phase), ``flow`` (the turn flow declared for ``engine.flow``), ``views`` (views, prompts,
scores), ``preview`` (option previews), ``labels``, ``dice_input``, ``layout``, ``position``,
``script``/``duel_views`` (one duel from a file). The box page's forms name each choice of the
data file from the catalog's ``glory:box/enum/*`` (``bridge/box/labels.py``).
"""

from engine.games.glory.game import GAME

__all__ = ["GAME"]
