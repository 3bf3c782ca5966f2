"""One package per game, each exposing ``GAME`` with the verbs of ``engine.game.Game``."""
