"""Tabletop Simulator as a table source: the External Editor API link, save files, profiles.

``editor_api`` talks to a running TTS, ``reader`` reads every object of the live table,
``savefile`` reads the same objects from a save, ``profile`` turns objects into the
``TableSnapshot`` the referee consumes, and ``push`` sends on-screen messages to the table through
the Global script Herald ships (``herald.lua``). Nothing here decides a rule.
"""
