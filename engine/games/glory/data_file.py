"""A Glory data file to the ``Box`` a game keeps: merging, references, decoding, naming.

Pure over what it is handed (``engine.data.DataDoc``): the document, and readers for the files it
names, which the caller that loads the data supplies (the engine opens no file itself). Glory
declares this as its ``data_spec``: the option ``data`` names ``"box"`` (the shipped
``data/box.json``: what the seed gives, the rest ``null``), ``"stand-in"`` (the complete invented
``data/stand-in.json``), or a user's file.

A user's file is either a **full** document (every field of ``BoxData``), or a **partial** one
with ``"extends": "box"`` (or ``"stand-in"``) merged over that set: entries of ``characters``,
``titles``, ``quests``, ``fields``, ``events``, ``tournaments``, ``prizes``, ``solo`` merge by
``id`` field by field (a new id is added), ``knights`` by ``name``, ``allies`` by ``kind`` (a
kind's entries are replaced together); ``prices``, ``rival``, ``missing``, ``notes`` merge key
by key; anything else (``ally_track``, ``dice``, ``incomplete``…) is replaced.
``"replace": ["quests", …]`` takes the named lists as given instead of merging. ``dice`` and
``knights`` may name a file beside the document (``"dice.json"``).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import fields, replace
from typing import Any, get_type_hints

from engine import codec
from engine.data import DataDoc, DataSpec, Reader, parse_json
from engine.games.glory.components import DIE_TYPES, KnightData, parse_dice
from engine.games.glory.data_check import check_data
from engine.games.glory.data_schema import KEYS, validate
from engine.games.glory.data_types import Box, BoxData
from engine.violations import InputError

SHIPPED: dict[str, str] = {"box": "box.json", "stand-in": "stand-in.json"}
"""The shipped data sets: what the seed gives (``box``) and a complete invented one."""

MAPS: tuple[str, ...] = ("prices", "rival", "missing", "notes")
"""Objects a partial file merges key by key (``prices`` per item, then per level)."""


def parse(source: DataDoc) -> Box:
    """The ``Box`` a data document describes, checked (``data_check``).

    The result's ``name`` is ``"box"`` or ``"stand-in"`` for the shipped sets, and for a user's
    file its ``name`` plus the sha256 of the decoded content (``"my-box@sha256:…"``), so the
    same content has the same name whatever its file is called. Raises ``InputError`` naming
    the JSON path of the first fault (a shipped set's format is checked by the tests).
    """
    raw = source.doc
    where = source.source
    if not source.builtin:
        validate(raw, "#/$defs/File", where)
    elif not isinstance(raw, dict):
        raise InputError("input/data", f"the shipped {where} is not a data document")
    doc = _resolve(raw, source.beside)
    base = raw.get("extends")
    if base is not None:
        if base not in SHIPPED:
            raise InputError("input/data", f"unknown shipped data {base!r}; known: {list(SHIPPED)}")
        name = SHIPPED[str(base)]
        doc = _merge(_resolve(parse_json(source.shipped(name), name), source.shipped), doc)
        validate(doc, "#/$defs/Document", f"{where} merged over {base}.json")
    data = _decode(doc)
    check_data(data)
    if source.builtin:
        if data.name != where:
            raise InputError("input/data", f"the shipped {SHIPPED[where]} is named {data.name!r}")
        return Box(data)
    text = json.dumps(codec.encode(data), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    return Box(replace(data, name=f"{data.name}@sha256:{digest}"))


SPEC = DataSpec(option="data", default="box", shipped=SHIPPED, parse=parse)
"""Glory's data declaration (``engine.data``): the ``data`` option names the set."""


def _resolve(raw: dict[str, Any], read: Reader) -> dict[str, Any]:
    """The document with ``dice``/``knights`` file names replaced by their contents. A dice
    file's ``missing`` notes join the document's."""
    doc = dict(raw)
    for key in ("dice", "knights"):
        ref = doc.get(key)
        if isinstance(ref, str):
            content = parse_json(read(ref), ref)
            if key == "knights":
                if not isinstance(content, dict) or not isinstance(content.get("knights"), list):
                    raise InputError(
                        "input/schema",
                        f"{ref} is not a knights file {{'knights': [...]}}",
                        "$.knights",
                    )
                content = content["knights"]
            doc[key] = content
    dice = doc.get("dice")
    if isinstance(dice, dict) and isinstance(dice.get("missing"), dict):
        notes = {str(k): str(v) for k, v in dice["missing"].items()}
        doc["missing"] = {**notes, **doc.get("missing", {})}
    return doc


def _merge(base: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """``patch`` (a partial document) over ``base`` (a full one), as the module says."""
    out = dict(base)
    whole = set(patch.get("replace", ()))
    for name, value in patch.items():
        if name in ("$schema", "extends", "replace"):
            continue
        if name in KEYS and name not in whole:
            out[name] = _merge_list(base.get(name, []), value, KEYS[name], name == "allies")
        elif name in MAPS and name not in whole:
            out[name] = _merge_map(base.get(name, {}), value)
        else:
            out[name] = value
    return out


def _merge_list(
    base: list[dict[str, Any]], patch: list[dict[str, Any]], key: str, by_group: bool
) -> list[dict[str, Any]]:
    if by_group:
        kinds = {e[key] for e in patch}
        kept = [e for e in base if e[key] not in kinds]
        return kept + list(patch)
    out = [dict(e) for e in base]
    where = {e[key]: i for i, e in enumerate(out)}
    for entry in patch:
        i = where.get(entry[key])
        if i is None:
            where[entry[key]] = len(out)
            out.append(dict(entry))
        else:
            out[i].update(entry)
    return out


def _merge_map(base: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in patch.items():
        old = out.get(k)
        out[k] = _merge_map(old, v) if isinstance(old, dict) and isinstance(v, dict) else v
    return out


def _decode(doc: dict[str, Any]) -> BoxData:
    """``BoxData`` from a resolved document: the dice in the format of ``data/dice.json``, the
    Knights as a list (keyed by name here); every other field through the codec."""
    hints = get_type_hints(BoxData)
    kwargs: dict[str, Any] = {}
    for f in fields(BoxData):
        if f.name in ("dice", "knights") or f.name not in doc:
            continue
        kwargs[f.name] = codec.decode(hints[f.name], doc[f.name], f"$.{f.name}")
    try:
        dice = parse_dice(doc["dice"])
    except InputError as exc:
        raise InputError(exc.code, exc.detail, "$.dice" + exc.path[1:]) from exc
    knights: dict[str, KnightData] = {}
    for i, entry in enumerate(doc["knights"]):
        knight: KnightData = codec.decode(KnightData, entry, f"$.knights[{i}]")
        if knight.name in knights:
            raise InputError("input/duplicate", f"Knight {knight.name!r} twice", f"$.knights[{i}]")
        knights[knight.name] = knight
    return BoxData(dice=dice, knights=knights, **kwargs)


def dump_data(data: BoxData) -> dict[str, Any]:
    """``data`` as a full data document (``parse`` reads it back to equal data): the dice in
    the format of ``data/dice.json``, the Knights as a list."""
    doc: dict[str, Any] = {"$schema": "schema.json"}
    encoded = codec.encode(data)
    for f in fields(BoxData):
        doc[f.name] = encoded[f.name]
    doc["dice"] = {
        "verified": data.dice.verified,
        "source": data.dice.source,
        "dice": {die: {"faces": list(data.dice.of(die).faces)} for die in DIE_TYPES},
    }
    doc["knights"] = list(encoded["knights"].values())
    return doc
