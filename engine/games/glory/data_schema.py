"""The JSON Schema of a Glory data file (shipped as ``data/schema.json``, docs/glory.md).

Generated from the dataclasses of ``data_types`` through the engine's codec, with what the codec
cannot say added here: dict keys named by a Literal or a number, the dice and Knights given as
files beside the document, and the partial document that ``extends`` a shipped set.
"""

from __future__ import annotations

import copy
from dataclasses import fields, is_dataclass
from typing import Any, Literal, get_args, get_origin, get_type_hints

import jsonschema

from engine import codec
from engine.games.glory.data_types import BoxData, ListName
from engine.violations import InputError

SCHEMA_ID = "https://herald.invalid/schema/glory-data.json"
SHIPPED = ("box", "stand-in")
"""The shipped sets a partial file may extend."""
KEYS: dict[str, str] = {
    "characters": "id",
    "titles": "id",
    "quests": "id",
    "allies": "kind",
    "fields": "id",
    "events": "id",
    "tournaments": "id",
    "prizes": "id",
    "solo": "id",
    "knights": "name",
}
"""The lists a partial file merges by key; ``allies``: all entries of a kind at once."""
LIST_NAMES: tuple[str, ...] = get_args(ListName)
FORM_MAP: dict[str, Any] = {"disable_properties": False, "display_required_only": True}
"""JSON Editor's options (a keyword validators ignore) on a map keyed by a choice (a Title's
needs, a Character's starting Quest cards, a Joust section's starting spaces): the box page's
form shows the keys a card has and offers the others as checkboxes (Object Properties), so a
group adds a need by choosing it, never by typing its key (issue #24, point 3)."""


def data_schema() -> dict[str, Any]:
    """The JSON Schema of a Glory data file (shipped as ``data/schema.json``).

    A document without ``extends`` is a full ``GameData`` (``#/$defs/Document``); one with it is
    a partial file (``#/$defs/PartialDocument``) whose entries need only their key.
    """
    return copy.deepcopy(_schema())


def _schema() -> dict[str, Any]:
    defs: dict[str, Any] = {}
    codec.schema_for(BoxData, defs)
    _key_names(BoxData, defs, set())
    doc = defs.pop("BoxData")
    defs.pop("DiceTable", None)
    defs.pop("DieFaces", None)
    props = doc["properties"]
    props["$schema"] = {"type": "string"}
    props["dice"] = {
        "anyOf": [
            {"type": "string", "description": "a dice file (as data/dice.json) beside this one"},
            {"$ref": "#/$defs/DiceFile"},
        ]
    }
    props["knights"] = {
        "anyOf": [
            {
                "type": "string",
                "description": "a knights file (as data/knights.json) beside this one",
            },
            {"type": "array", "items": {"$ref": "#/$defs/KnightData"}},
        ]
    }
    defs["DiceFile"] = {
        "type": "object",
        "description": "a dice table in the format of data/dice.json",
        "required": ["dice"],
        "properties": {
            "dice": {"type": "object"},
            "verified": {"type": "boolean"},
            "source": {"type": "string"},
            "missing": {"type": "object", "additionalProperties": {"type": "string"}},
        },
    }
    defs["Document"] = doc
    partial = copy.deepcopy(doc)
    partial["description"] = "values merged over a shipped data set (see data_file.parse)"
    partial["required"] = ["extends"]
    pprops = partial["properties"]
    pprops["extends"] = {"enum": list(SHIPPED)}
    pprops["replace"] = {"type": "array", "items": {"enum": [k for k in LIST_NAMES]}}
    for name, key in KEYS.items():
        item = doc["properties"][name]
        ref = item["items"]["$ref"] if "items" in item else None
        if ref is None:
            continue
        entry = ref.rsplit("/", 1)[1]
        patch = copy.deepcopy(defs[entry])
        patch["required"] = [key]
        defs[f"{entry}Patch"] = patch
        pprops[name] = {"type": "array", "items": {"$ref": f"#/$defs/{entry}Patch"}}
    prices = copy.deepcopy(defs["Prices"])
    prices["required"] = []
    defs["PricesPatch"] = prices
    pprops["prices"] = {"$ref": "#/$defs/PricesPatch"}
    defs["PartialDocument"] = partial
    defs["File"] = {
        "if": {"type": "object", "required": ["extends"]},
        "then": {"$ref": "#/$defs/PartialDocument"},
        "else": {"$ref": "#/$defs/Document"},
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Glory box data",
        "description": "What is printed on the Glory components (engine/games/glory/"
        "data_types.py BoxData); docs/glory.md 'Data files'.",
        "$defs": dict(sorted(defs.items())),
        "$ref": "#/$defs/File",
    }


def _key_names(cls: type, defs: dict[str, Any], seen: set[type]) -> None:
    """Add ``propertyNames`` to the schema of every dict field keyed by a Literal or an int
    (the codec checks values, not keys), each Literal key as a property of its own and the
    form's ``FORM_MAP`` options; recurse into nested dataclasses."""
    if cls in seen:
        return
    seen.add(cls)
    hints = get_type_hints(cls)
    for f in fields(cls):
        for tp in _flatten(hints[f.name]):
            if is_dataclass(tp) and isinstance(tp, type):
                _key_names(tp, defs, seen)
            elif get_origin(tp) is dict:
                key_tp = get_args(tp)[0]
                keys: list[str] = []
                if get_origin(key_tp) is Literal:
                    keys = [str(a) for a in get_args(key_tp)]
                    names: dict[str, Any] = {"enum": keys}
                elif key_tp is int:
                    names = {"pattern": "^[0-9]+$"}
                else:
                    continue
                prop = defs[cls.__name__]["properties"][f.name]
                for member in prop.get("anyOf", [prop]):
                    if member.get("type") == "object":
                        member["propertyNames"] = names
                        member["options"] = dict(FORM_MAP)
                        if keys:
                            value = member.get("additionalProperties", {})
                            member["properties"] = {k: copy.deepcopy(value) for k in keys}


def _flatten(tp: Any) -> list[Any]:
    """A type and the types inside it (union members, tuple items, dict values)."""
    out = [tp]
    origin = get_origin(tp)
    if origin is dict:
        out += _flatten(get_args(tp)[1])
    elif origin is not None and origin is not Literal:
        for arg in get_args(tp):
            if arg is not Ellipsis:
                out += _flatten(arg)
    return out


def validate(raw: Any, ref: str, where: str) -> None:
    """Refuse a document that breaks the schema (``ref``: ``#/$defs/File`` for a user's file,
    ``#/$defs/Document`` for a merged one): ``InputError`` with the JSON path and ``where``.

    Built for each call (a user's file is read once per game started), never cached."""
    full = _schema()
    sub = {"$schema": full["$schema"], "$defs": full["$defs"], "$ref": ref}
    validator = jsonschema.validators.validator_for(sub)(sub)
    errors = [leaf for e in validator.iter_errors(raw) for leaf in _leaves(e)]
    error = jsonschema.exceptions.best_match(errors)
    if error is not None:
        first = _fault(error)
        every = [first, *dict.fromkeys(f for f in map(_fault, errors) if f != first)]
        faults = tuple((path, f"{where}: {text}") for path, text in every)
        raise InputError("input/schema", f"{where}: {first[1]}", first[0], faults)


def _leaves(
    error: jsonschema.exceptions.ValidationError,
) -> list[jsonschema.exceptions.ValidationError]:
    """The faults inside a value that may also be null: a Quest's rewards that are a list
    with one bad ally are "'smok' is not one of […]" at ``$.quests[5].rewards[0].allies[0]``,
    not "is not a list of Reward or null" at ``$.quests[5].rewards`` (issue #24: a refusal
    says where the fault is). The branch whose type the value has is the one meant."""
    if error.validator != "anyOf" or error.instance is None or not error.context:
        return [error]
    branches: dict[Any, list[jsonschema.exceptions.ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.schema_path[0], []).append(sub)
    meant = [
        subs
        for subs in branches.values()
        if not any(s.validator == "type" and not s.relative_path for s in subs)
    ]
    if len(meant) != 1:
        return [error]
    return [leaf for sub in meant[0] for leaf in _leaves(sub)]


def _fault(error: jsonschema.exceptions.ValidationError) -> tuple[str, str]:
    """A schema error as (JSON path, what is wrong there)."""
    steps = error.absolute_path
    path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in steps)
    text = error.message
    if error.validator == "anyOf":
        kinds = " or ".join(_kind(sub) for sub in error.validator_value)  # type: ignore[union-attr]
        text = f"{error.instance!r} is not {kinds}"
    return path, f"{text} (at {path})"


def _kind(schema: dict[str, Any]) -> str:
    """A schema in a few words, for an error message ("integer", "null", "a Reward")."""
    if "$ref" in schema:
        return f"{schema['$ref'].rsplit('/', 1)[1]} (an object)"
    if "enum" in schema:
        return f"one of {schema['enum']}"
    if "items" in schema and "$ref" in schema["items"]:
        return f"a list of {schema['items']['$ref'].rsplit('/', 1)[1]}"
    return str(schema.get("type", "valid"))
