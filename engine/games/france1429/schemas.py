"""The JSON Schemas of France 1429's data files: a map file and a box data file.

Shipped also as ``data/map.schema.json`` and ``data/box.schema.json`` (a test keeps them equal),
so a user's editor can check a file they type in (``"$schema": "map.schema.json"``); the rules
read these constants, never the files. The formats are described in docs/france1429-data.md.
"""

from __future__ import annotations

from typing import Any

MAP_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://herald.invalid/schema/france1429-map.json",
    "title": "France 1429 map",
    "description": "The board of Fief: France 1429 as a user types it in: Villages, roads, "
    "the 8 Fiefs and the 5 Bishoprics (docs/france1429-data.md). The schema "
    "checks the shape only; `herald rules france1429 map check` checks the "
    "rules (digest §3.3).",
    "type": "object",
    "required": ["format", "name", "villages", "fiefs", "bishoprics", "roads"],
    "additionalProperties": False,
    "properties": {
        "$schema": {"type": "string"},
        "format": {"const": "france1429-map/1", "description": "The format's name and version."},
        "name": {"type": "string", "minLength": 1, "description": 'What this map is ("my board").'},
        "invented": {
            "type": "boolean",
            "description": "True for a stand-in map: not the printed board.",
        },
        "verified": {
            "type": "boolean",
            "description": "True only when checked against a physical board.",
        },
        "source": {"type": "string"},
        "board": {
            "type": "object",
            "required": ["width_mm", "height_mm"],
            "additionalProperties": False,
            "properties": {
                "width_mm": {"type": "number", "minimum": 100, "maximum": 3000},
                "height_mm": {"type": "number", "minimum": 100, "maximum": 3000},
            },
            "description": "The printed board's size in millimetres, as traced on a photo: "
            "then every Village's x/y is in board millimetres from its top left corner, and "
            "the camera's board profile is laid out at those places.",
        },
        "villages": {"type": "array", "items": {"$ref": "#/$defs/village"}},
        "fiefs": {"type": "array", "items": {"$ref": "#/$defs/fief"}},
        "bishoprics": {"type": "array", "items": {"$ref": "#/$defs/bishopric"}},
        "roads": {"type": "array", "items": {"$ref": "#/$defs/road"}},
        "incomplete": {
            "type": "array",
            "items": {"enum": ["villages", "roads"]},
            "uniqueItems": True,
            "description": "The lists this file holds only part of.",
        },
        "missing": {
            "type": "object",
            "additionalProperties": {"type": "string"},
            "description": "Why a value is null or a list incomplete, by "
            "path (villages[sigy].fief, villages[*].fief, "
            "roads).",
        },
        "notes": {
            "type": "object",
            "additionalProperties": {"type": "string"},
            "description": "Given values that rest on a doubtful reading, by path.",
        },
    },
    "$defs": {
        "id": {
            "type": "string",
            "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$",
            "description": "lower-case letters and digits joined by single hyphens (st-paul)",
        },
        "colour": {
            "type": ["string", "null"],
            "pattern": "^(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3}|[a-z]+)$",
            "description": "a CSS colour name (green) or #rrggbb, or null",
        },
        "source": {"type": "string", "description": "Where the value comes from."},
        "village": {
            "type": "object",
            "required": ["id", "name", "fief", "bishopric"],
            "additionalProperties": False,
            "properties": {
                "id": {"$ref": "#/$defs/id"},
                "name": {
                    "type": "string",
                    "minLength": 1,
                    "description": "The name printed on the board.",
                },
                "fief": {
                    "oneOf": [{"$ref": "#/$defs/id"}, {"type": "null"}],
                    "description": "a Fief id or null",
                },
                "bishopric": {
                    "type": ["integer", "null"],
                    "minimum": 1,
                    "description": "the Bishopric's number (1-5) or null",
                },
                "principal": {
                    "type": "boolean",
                    "description": "True for the "
                    "Principal Village "
                    "(larger name banner) "
                    "of its Bishopric.",
                },
                "x": {
                    "type": ["number", "null"],
                    "description": "Position on the board, any unit.",
                },
                "y": {
                    "type": ["number", "null"],
                    "description": "Position on the board, y downwards.",
                },
                "invented": {"type": "boolean"},
                "source": {"$ref": "#/$defs/source"},
            },
        },
        "fief": {
            "type": "object",
            "required": ["id"],
            "additionalProperties": False,
            "properties": {
                "id": {"$ref": "#/$defs/id"},
                "name": {"type": ["string", "null"], "minLength": 1},
                "colour": {"$ref": "#/$defs/colour"},
                "rank": {
                    "enum": ["barony", "county", "duchy", None],
                    "description": "barony (2 Villages), county "
                    "(3) or duchy (4), if read "
                    "off the board",
                },
                "invented": {"type": "boolean"},
                "source": {"$ref": "#/$defs/source"},
            },
        },
        "bishopric": {
            "type": "object",
            "required": ["number"],
            "additionalProperties": False,
            "properties": {
                "number": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "the number in the mitre",
                },
                "colour": {"$ref": "#/$defs/colour"},
                "source": {"$ref": "#/$defs/source"},
            },
        },
        "road": {
            "oneOf": [
                {"type": "array", "items": {"$ref": "#/$defs/id"}, "minItems": 2, "maxItems": 2},
                {
                    "type": "object",
                    "required": ["between"],
                    "additionalProperties": False,
                    "properties": {
                        "between": {
                            "type": "array",
                            "items": {"$ref": "#/$defs/id"},
                            "minItems": 2,
                            "maxItems": 2,
                        },
                        "invented": {"type": "boolean"},
                        "source": {"$ref": "#/$defs/source"},
                    },
                },
            ],
            "description": 'a pair of Village ids ["blaye", "charolles"] or '
            '{"between": [...], "source": "..."}',
        },
    },
}
"""A map file: Villages, Fiefs, Bishoprics, roads (``geography.parse_map``)."""

BOX_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://herald.invalid/schema/france1429-box.json",
    "title": "France 1429 box data",
    "description": "What is printed on the components of Fief: France 1429 besides the map "
    "(family colours, Lord cards, the Lords and Fortune & Disaster decks "
    "with each card's effect key and play window, dice, counters, prices, "
    "relics), and the map it goes with (engine/games/france1429/data.py; "
    "docs/france1429-data.md).",
    "type": "object",
    "required": [
        "format",
        "name",
        "map",
        "colours",
        "lords",
        "cards",
        "dice",
        "stock",
        "start",
        "supply",
        "prices",
        "relics",
    ],
    "additionalProperties": False,
    "properties": {
        "$schema": {"type": "string"},
        "format": {"const": "france1429-box/1"},
        "name": {"type": "string", "minLength": 1},
        "invented": {"type": "boolean"},
        "verified": {"type": "boolean"},
        "source": {"type": "string"},
        "map": {
            "description": "The map: a map file's name, read beside this "
            "file (a shipped set names a shipped map), or the "
            "map document itself (data/map.schema.json)",
            "oneOf": [
                {"type": "string", "minLength": 1, "description": "a map file's name"},
                {"type": "object", "description": "a map document"},
            ],
        },
        "colours": {
            "type": "array",
            "maxItems": 6,
            "items": {"$ref": "#/$defs/colour"},
            "description": "The six families' colours, one Family Board each.",
        },
        "lords": {"type": "array", "items": {"$ref": "#/$defs/lord"}},
        "cards": {"type": "array", "items": {"$ref": "#/$defs/card"}},
        "dice": {"$ref": "#/$defs/dice"},
        "stock": {
            "$ref": "#/$defs/counts",
            "description": "Each family's counters on its Family Board.",
        },
        "start": {"$ref": "#/$defs/counts", "description": "What each player begins with."},
        "supply": {"$ref": "#/$defs/counts", "description": "Shared counters and markers."},
        "prices": {"$ref": "#/$defs/prices"},
        "relics": {"type": "array", "items": {"$ref": "#/$defs/relic"}},
        "missing": {"type": "object", "additionalProperties": {"type": "string"}},
        "notes": {"type": "object", "additionalProperties": {"type": "string"}},
    },
    "$defs": {
        "id": {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$"},
        "names": {
            "type": "object",
            "required": ["en"],
            "additionalProperties": False,
            "properties": {"en": {"type": ["string", "null"]}, "pl": {"type": ["string", "null"]}},
            "description": "The name printed in each edition's language",
        },
        "colour": {
            "type": "object",
            "required": ["name"],
            "additionalProperties": False,
            "properties": {
                "name": {"type": ["string", "null"], "pattern": "^[a-z]+$"},
                "invented": {"type": "boolean"},
                "source": {"type": "string"},
            },
        },
        "lord": {
            "type": "object",
            "required": ["id", "name", "sex"],
            "additionalProperties": False,
            "properties": {
                "id": {"$ref": "#/$defs/id"},
                "name": {"type": ["string", "null"], "minLength": 1},
                "sex": {"enum": ["male", "female"]},
                "invented": {"type": "boolean"},
                "source": {"type": "string"},
            },
        },
        "card": {
            "type": "object",
            "required": ["id", "deck", "category", "window", "count", "effect", "names", "text"],
            "additionalProperties": False,
            "properties": {
                "id": {"$ref": "#/$defs/id"},
                "deck": {"enum": ["lords", "fortune-disaster"]},
                "category": {
                    "enum": ["lord-opportunity", "regular", "opportunity", "disaster"],
                    "description": "The card's symbol: "
                    "regular (white card), "
                    "opportunity (green "
                    "lightning), a Lord "
                    "opportunity card, a "
                    "disaster (black back)",
                },
                "window": {
                    "enum": ["play-step", "any-but-draw", "on-draw"],
                    "description": "When it is played: the "
                    "Play Cards step of Phase "
                    "2, any time but the Draw "
                    "step, or on being drawn (a "
                    "disaster goes to the "
                    "track)",
                },
                "count": {"type": "integer", "minimum": 1},
                "effect": {"$ref": "#/$defs/effect"},
                "names": {"$ref": "#/$defs/names"},
                "text": {
                    "$ref": "#/$defs/names",
                    "description": "The printed card text; null: not known",
                },
                "rule": {
                    "type": "string",
                    "description": "Where the rules digest gives the card's effect",
                },
                "invented": {"type": "boolean", "description": "True when the text is invented"},
                "source": {"type": "string"},
            },
        },
        "dice": {
            "type": "object",
            "required": ["battle", "d6"],
            "additionalProperties": False,
            "properties": {
                "battle": {
                    "type": "object",
                    "required": ["colours", "faces"],
                    "additionalProperties": False,
                    "properties": {
                        "colours": {
                            "type": "object",
                            "additionalProperties": {"type": "integer", "minimum": 0},
                        },
                        "faces": {
                            "type": ["array", "null"],
                            "items": {"type": "integer", "minimum": 0},
                            "minItems": 6,
                            "maxItems": 6,
                        },
                        "colour_roles": {
                            "type": ["object", "null"],
                            "additionalProperties": {"type": "string"},
                        },
                        "source": {"type": "string"},
                    },
                },
                "d6": {
                    "type": "object",
                    "required": ["faces"],
                    "additionalProperties": False,
                    "properties": {
                        "faces": {
                            "type": "array",
                            "items": {"type": "integer", "minimum": 1},
                            "minItems": 6,
                            "maxItems": 6,
                        },
                        "supplied": {"type": ["string", "null"]},
                        "source": {"type": "string"},
                    },
                },
            },
        },
        "counts": {
            "type": "object",
            "additionalProperties": {"type": ["integer", "null"], "minimum": 0},
        },
        "relic": {
            "type": "object",
            "required": ["id", "effect", "names"],
            "additionalProperties": False,
            "properties": {
                "id": {"$ref": "#/$defs/id"},
                "effect": {
                    "enum": [
                        "holy-grail",
                        "eyes-of-saint-roseline",
                        "teeth-of-saint-geronce",
                        "holy-spear",
                        "bone-of-saint-rhadegund",
                    ],
                    "description": "The key of the relic's power in the rules",
                },
                "names": {"$ref": "#/$defs/names"},
                "source": {"type": "string"},
            },
        },
        "effect": {
            "enum": [
                "cardinal",
                "darc",
                "bountiful-harvest",
                "good-weather",
                "taxes",
                "uprising",
                "secret-passage",
                "assassination",
                "justice",
                "ambush",
                "heavy-rain",
                "famine",
                "plague",
            ],
            "description": "The key of the card's effect in the rules "
            "(engine/games/france1429 cards.py)",
        },
        "prices": {
            "type": "object",
            "required": [
                "men_at_arms",
                "knight",
                "mill",
                "stronghold",
                "cardinal",
                "fief_title_per_village",
            ],
            "additionalProperties": False,
            "properties": {
                "men_at_arms": {"type": "integer", "minimum": 0},
                "knight": {"type": "integer", "minimum": 0},
                "mill": {"type": "integer", "minimum": 0},
                "stronghold": {"type": "integer", "minimum": 0},
                "cardinal": {"type": "integer", "minimum": 0},
                "fief_title_per_village": {"type": "integer", "minimum": 0},
            },
            "description": "Deniers per item bought in Phase 4 (a Fief Title "
            "costs fief_title_per_village × its Villages)",
        },
    },
}
"""A box data file: everything printed besides the map, and the map it names
(``data.parse_box``, ``data.parse_data``)."""
