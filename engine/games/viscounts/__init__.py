"""Viscounts of the West Kingdom (issue 14): the foundation of the game's package.

So far the package holds the game's data layer, which the engine later sessions build reads:
the effect vocabulary (``effects``), the box and stand-in data sets (``data``, ``data/``), their
JSON Schema (``schemas``), where each fact comes from (``sources``) and the ``data check`` verb
(``cli``). docs/viscounts-plan.md is the build plan. The package declares no ``GAME`` and no
entry point yet: an incomplete game is neither served nor picked up by the browser tests; its
tests import it directly.
"""
