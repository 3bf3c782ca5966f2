"""The JSON Schema of a Viscounts data file (shipped as ``data/data.schema.json``).

It checks the shape only; the effect texts are read by the effect grammar (``effects``), and
what contradicts the rules by ``data.data_problems``. A ``null`` is allowed wherever the seed
may not give the value (the box set), never where the rules fix it.
"""

from __future__ import annotations

from typing import Any

_SYMBOL = {"enum": ["merchant", "builder", "noble", "cleric", "villain"]}
_TEXT = {
    "type": ["string", "null"],
    "description": "An effect (docs/viscounts-effects.md)",
    "x-effect": "effect",
}
"""An effect text. ``x-effect`` names its place in the effect vocabulary (``effect``,
``ability``, ``scheme``, ``scoring``): how the box page finds the fields its picker fills
(``vocabulary.effect_paths``); validators ignore the keyword."""
_ABILITY = {
    **_TEXT,
    "description": "TIMING: EFFECT (docs/viscounts-effects.md)",
    "x-effect": "ability",
}
_UNSAYABLE = {
    "type": "object",
    "required": ["printed", "missing"],
    "additionalProperties": False,
    "properties": {"printed": {"type": "string", "minLength": 1},
                   "missing": {"type": "string", "minLength": 1}},
    "description": "A printed text the effect vocabulary cannot say: the card is a named gap",
}  # fmt: skip
_COUNT = {"type": ["integer", "null"], "minimum": 0}
_ID = {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$"}
_SYMBOLS = {"type": ["array", "null"], "items": _SYMBOL}
_MARK = {"invented": {"type": "boolean"}, "source": {"type": "string"}}


def _obj(required: list[str], props: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "required": required,
        "additionalProperties": False,
        "properties": props,
    }


_TOWNSFOLK = _obj(
    ["id", "name", "deck", "value", "symbols", "hire", "ability"],
    {
        "id": _ID,
        "name": {"type": "string"},
        "name_pl": {"type": ["string", "null"]},
        "deck": {"enum": ["common", "famous", "starting", None]},
        "count": {"type": "integer", "minimum": 1},
        "colour": {"type": ["integer", "null"], "minimum": 0, "maximum": 3},
        "value": _COUNT,
        "symbols": _SYMBOLS,
        "hire": _TEXT,
        "ability": _ABILITY,
        "unsayable": _UNSAYABLE,
        **_MARK,
    },
)

_MANUSCRIPT = _obj(
    ["id", "back", "ribbon", "cost", "effect", "scoring"],
    {
        "id": _ID,
        "back": {"enum": ["grey", "black"]},
        "ribbon": {"type": ["string", "null"]},
        "cost": _COUNT,
        "effect": _TEXT,
        "scoring": {**_TEXT, "x-effect": "scoring"},
        "unsayable": _UNSAYABLE,
        **_MARK,
    },
)

_PRINTED_TOWNSFOLK = _obj(
    ["id", "name", "value", "symbols", "hire"],
    {
        "id": _ID,
        "name": {"type": "string"},
        "name_pl": {"type": ["string", "null"]},
        "value": _COUNT,
        "symbols": _SYMBOLS,
        "hire": _TEXT,
        "unsayable": _UNSAYABLE,
        **_MARK,
    },
)

_PRINTED_MANUSCRIPT = _obj(["id", "cost", "effect"], {"id": _ID, "cost": _COUNT, "effect": _TEXT,
                                                      "unsayable": _UNSAYABLE,
                                                      **_MARK})  # fmt: skip

_TOWN = _obj(
    ["id", "part", "path", "next"],
    {
        "id": _ID,
        "part": {"type": "integer", "minimum": 0, "maximum": 4},
        "path": {"enum": ["outer", "inner"]},
        "number": {"type": ["integer", "null"], "minimum": 1},
        "next": {"type": "array", "items": _ID, "minItems": 1},
        "exchange": {"enum": ["silver", "resource", "ink", "stone", "gold", "destroy", "flip"]},
        "side": {"enum": ["left", "right"]},
    },
)

_BOARD = _obj(
    ["towns", "sites", "connections", "sides"],
    {
        "towns": {"type": "array", "items": _TOWN},
        "sites": {
            "type": "array",
            "items": _obj(
                ["id", "part", "side", "bonus"],
                {
                    "id": _ID,
                    "part": {"type": "integer", "minimum": 0, "maximum": 4},
                    "side": {"enum": ["left", "right"]},
                    "bonus": _TEXT,
                },
            ),
        },
        "connections": {
            "type": "array",
            "items": _obj(
                ["sites", "effect"],
                {
                    "sites": {"type": "array", "items": _ID, "minItems": 2, "maxItems": 2},
                    "effect": _TEXT,
                },
            ),
        },
        "sides": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 4}},
    },
)

_BY_COUNT = {
    "type": "object",
    "propertyNames": {"enum": ["1", "2", "3", "4"]},
    "additionalProperties": _COUNT,
}

DATA_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Viscounts of the West Kingdom data",
    "type": "object",
    "required": [
        "format",
        "name",
        "colours",
        "townsfolk",
        "manuscripts",
        "church_favour",
        "player_cards",
        "schemes",
        "ais",
        "board",
        "castle",
        "buildings",
        "track",
        "kingdom",
        "set_vp",
    ],
    "additionalProperties": False,
    "properties": {
        "$schema": {"type": "string"},
        "format": {"const": "viscounts-data/1"},
        "name": {"type": "string", "minLength": 1},
        "invented": {"type": "boolean"},
        "verified": {"type": "boolean"},
        "source": {"type": "string"},
        "colours": {
            "type": "array",
            "items": {"type": ["string", "null"]},
            "minItems": 4,
            "maxItems": 4,
        },
        "townsfolk": {"type": "array", "items": _TOWNSFOLK},
        "manuscripts": {"type": "array", "items": _MANUSCRIPT},
        "printed_townsfolk": {
            "type": "array",
            "items": _PRINTED_TOWNSFOLK,
            "maxItems": 5,
            "description": "The Townsfolk printed under each deck, by board part (L672-674)",
        },
        "printed_manuscripts": {
            "type": "array",
            "items": _PRINTED_MANUSCRIPT,
            "maxItems": 5,
            "description": "The Manuscripts printed under each stack, by board part (L652-654)",
        },
        "starting_icons": {
            "type": ["array", "null"],
            "items": _SYMBOLS,
            "minItems": 3,
            "maxItems": 3,
            "description": "Starting icons under the three card spaces, left to right (L156-157)",
        },
        "church_favour": {
            "type": "array",
            "items": _obj(
                ["id", "ribbon", "ability"],
                {
                    "id": _ID,
                    "ribbon": {"type": ["string", "null"]},
                    "vp": {"type": "integer", "minimum": 0},
                    "ability": _ABILITY,
                    "unsayable": _UNSAYABLE,
                    **_MARK,
                },
            ),
        },
        "player_cards": {
            "type": "array",
            "items": _obj(
                ["number", "gains", "extra"],
                {
                    "number": {"type": "integer", "minimum": 1, "maximum": 10},
                    "gains": _TEXT,
                    "extra": _TEXT,
                    "anywhere": {"type": "boolean"},
                    "unsayable": _UNSAYABLE,
                    "invented": {"type": "boolean"},
                },
            ),
        },
        "schemes": {
            "type": "array",
            "items": _obj(
                ["id", "kind", "symbols", "steps"],
                {
                    "id": _ID,
                    "kind": {"enum": ["starting", "future"]},
                    "symbols": _SYMBOLS,
                    "steps": {
                        "type": ["array", "null"],
                        "items": {"type": "string", "x-effect": "scheme"},
                    },
                    "unsayable": _UNSAYABLE,
                    "invented": {"type": "boolean"},
                },
            ),
        },
        "ais": {
            "type": "array",
            "items": _obj(
                ["id", "goal", "start", "removes", "priority", "min_workers"],
                {
                    "id": _ID,
                    "goal": {"enum": ["trade", "build", "workers", "transcribe", None]},
                    "start": _TEXT,
                    "removes": {"type": ["array", "null"], "items": _ID},
                    "priority": {
                        "type": ["array", "null"],
                        "items": {
                            "type": "array",
                            "prefixItems": [
                                {"enum": ["ink", "stone", "gold"]},
                                {"type": ["integer", "null"], "minimum": 0},
                            ],
                            "minItems": 2,
                            "maxItems": 2,
                        },
                    },
                    "min_workers": _COUNT,
                    "invented": {"type": "boolean"},
                },
            ),
        },
        "board": {"oneOf": [{"type": "null"}, _BOARD], "description": "the board or null"},
        "castle": _obj(
            ["level1", "inward", "level2"],
            {
                "level1": _COUNT,
                "inward": {"type": ["array", "null"], "items": {"type": "integer", "minimum": 0}},
                "level2": {"type": ["array", "null"], "items": _TEXT},
            },
        ),
        "buildings": {
            "type": "array",
            "minItems": 3,
            "maxItems": 3,
            "items": _obj(
                ["kind", "cost", "vp", "abilities"],
                {
                    "kind": {"enum": ["workshop", "trading-post", "guildhall"]},
                    "cost": {"type": "integer", "minimum": 1},
                    "vp": {"type": "array", "items": _COUNT, "minItems": 4, "maxItems": 4},
                    "abilities": {"type": "array", "items": _ABILITY, "minItems": 3, "maxItems": 3},
                },
            ),
        },
        "track": _obj(
            ["spaces", "above", "below"],
            {
                "spaces": {"type": ["integer", "null"], "minimum": 2},
                "above": {"type": ["array", "null"], "items": _TEXT},
                "below": {"type": ["array", "null"], "items": _TEXT},
            },
        ),
        "kingdom": _obj(["poverty", "prosperity"], {"poverty": _BY_COUNT, "prosperity": _BY_COUNT}),
        "set_vp": {
            "type": "array",
            "items": _COUNT,
            "minItems": 1,
            "description": "VP of a set of 1, 2, 3... different ribbon colours",
        },
        "multiplier": _COUNT,
        "missing": {"type": "object", "additionalProperties": {"type": "string"}},
        "notes": {"type": "object", "additionalProperties": {"type": "string"}},
    },
}
"""A data file: every printed component the rules read (``data.parse_doc``)."""
