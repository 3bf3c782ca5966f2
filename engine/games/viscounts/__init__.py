"""Viscounts of the West Kingdom (issue 14, rules/viscounts.md, seed 002).

The data layer: the effect vocabulary (``effects``), the box and stand-in data sets (``data``,
``data/``), their JSON Schema (``schemas``), where each fact comes from (``sources``) and the
``data check`` verb (``cli``). The rules: ``state`` (the table), ``moves``, ``rules`` (the
effect interpreter, the Castle, hiring, Debts and Deeds), ``turn`` (setup and the six phases),
``scoring`` (§7, itemised), ``views`` (hands private) and ``game`` (the ``GAME`` module).
docs/viscounts-plan.md is the build plan; the solo AI (§8) is not built yet, so one player is
refused (VW-19).
"""

from engine.games.viscounts.game import GAME

__all__ = ["GAME"]
