"""The printed names of every choice in Glory's data file, in English and Polish, for the box page.

Every field of a Glory card that the rules read is a number, a yes/no or a choice from a list
(an enum of the data schema: an ally kind, a relic, a Prestige token, an action field, a deck, a
Knight back…), so a group enters its cards by choosing, never by typing text the rules cannot
read (issue #24, point 3). A form shows each choice by the name printed on the component or
used by the rulebook (``Dwórka``, ``Targowisko``, ``Polska Szlachta``), not its data key; the
names come from the catalog (``glory:enum/<value>``, ``i18n/<lang>/glory_enum.json``).

A value used by several enums has one name that fits each use (``strength`` is the Strength of
a Title's need and the Strength die a Veteran removes; ``1``-``4`` are levels, shown I-IV).
"""

from __future__ import annotations

from typing import Any

from engine.games.glory.components import GAME_KEY
from engine.games.glory.data_schema import data_schema
from engine.i18n import DEFAULT_LANG, message


def enum_values(schema: Any = None) -> tuple[str, ...]:
    """Every enum value of the data schema (``data_schema()``), as text, sorted."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            found.update(str(v) for v in node.get("enum", ()))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(data_schema() if schema is None else schema)
    return tuple(sorted(found))


def enum_labels(lang: str = DEFAULT_LANG) -> dict[str, str]:
    """``{enum value: printed name}`` in ``lang`` (``"en"`` or ``"pl"``) for every choice of
    the data file; the key is the value as text (``"2"`` for Level II), as JSON Editor's
    ``enum_titles`` are matched. English where a language lacks a name."""
    return {value: message(f"{GAME_KEY}:enum/{value}", lang) for value in enum_values()}
