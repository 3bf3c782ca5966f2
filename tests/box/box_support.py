"""Boxes for the tests: one exported from a shipped set, and the same box with one member changed
(its manifest and digest made anew, so the refusal tested is the game's, not the digest's)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from bridge import gamedata
from bridge.box.export import export_box
from bridge.box.file import Box, make_box
from engine import registry


def exported(key: str, source: str | None = None) -> Box:
    return export_box(registry.get_game(key), source, None, gamedata.read_text)


def edited(box: Box, member: str, change: Callable[[Any], Any]) -> Box:
    """``box`` with the JSON member ``member`` changed by ``change`` (given the parsed document,
    returning the new one), repacked with a valid digest."""
    doc = json.loads(box.members[member])
    members = {**box.members, member: json.dumps(change(doc)).encode("utf-8")}
    return make_box(box.game, box.name, box.data, members)
