"""Viscounts of the West Kingdom (issue 14, rules/viscounts.md, seed 002).

The data layer: the effect vocabulary (``effects``), the box and stand-in data sets (``data``,
``data_types``, ``data/``), their JSON Schema (``schemas``), where each fact comes from
(``sources``) and the ``data check`` verb (``cli``). The rules: ``state`` (the table),
``moves``, ``rules`` (the effect interpreter, the Castle, hiring, Debts and Deeds), ``resolve``
(running the effect queue), ``turn`` (setup and the six phases), ``flow`` (the turn flow),
``solo`` (the solo AI, §8), ``scoring`` (§7, itemised), ``views`` (hands private), ``labels``
(names and move sentences), ``preview`` (option previews), ``layout`` (the camera board and
reading it back) and ``game`` (the ``GAME`` module). docs/viscounts-plan.md is the build plan.
"""

from engine.games.viscounts.game import GAME

__all__ = ["GAME"]
