"""Reading the live table: one Execute Lua request that returns every object as JSON.

The Lua snippet walks every object in the game and returns ``JSON.encode`` of a table
``{herald = <nonce>, objects = [...]}`` in the shape of ``TTSObject.from_json``. The nonce makes
each answer recognisable: after a timeout a late answer to the previous read may still arrive,
and the client skips any return value whose nonce is not the one it asked for.

Calls the snippet makes that not every TTS version has (``getGMNotes``, ``getTags``, ``type``,
``getRotationValue``) are wrapped in ``pcall`` so an older TTS yields empty fields, not an error.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from bridge.tts.editor_api import EditorClient
from bridge.tts.errors import TTSReturnError
from bridge.tts.objects import ObjectFormatError, TTSObject

_READ_TABLE_LUA = r"""
local HERALD_NONCE = "@NONCE@"
local function try(f)
  local ok, result = pcall(f)
  if ok then return result end
  return nil
end
local function vec(v)
  if v == nil then return nil end
  return {x = v.x or v[1], y = v.y or v[2], z = v.z or v[3]}
end
local function list(t)
  local out = {}
  if type(t) == "table" then
    for _, v in ipairs(t) do out[#out + 1] = v end
  end
  return out
end
local function contents(o)
  local items = try(function() return o.getObjects() end)
  if type(items) ~= "table" then return {} end
  local out = {}
  for _, it in ipairs(items) do
    -- Bags and decks give data tables; scripting zones give live objects (skipped here,
    -- they are read on their own).
    if type(it) == "table" and it.guid ~= nil then
      out[#out + 1] = {
        guid = it.guid,
        nickname = it.name or it.nickname or "",
        description = it.description or "",
        gm_notes = it.gm_notes or "",
        tags = list(it.tags),
        contained = {},
      }
    end
  end
  return out
end
local function describe(o)
  local kind = try(function() return o.type end) or try(function() return o.tag end)
  local value = nil
  if kind == "Dice" or kind == "Coin" then
    value = try(function() return o.getRotationValue() end)
  end
  return {
    guid = o.getGUID(),
    name = try(function() return o.name end),
    nickname = try(function() return o.getName() end) or "",
    description = try(function() return o.getDescription() end) or "",
    gm_notes = try(function() return o.getGMNotes() end) or "",
    tags = list(try(function() return o.getTags() end)),
    type = kind,
    position = vec(o.getPosition()),
    rotation = vec(o.getRotation()),
    scale = vec(try(function() return o.getScale() end)),
    face_down = try(function() return o.is_face_down end),
    value = value,
    contained = contents(o),
  }
end
local all
if getAllObjects ~= nil then all = getAllObjects() else all = getObjects() end
local objects = {}
for _, o in ipairs(all) do
  objects[#objects + 1] = describe(o)
end
return JSON.encode({herald = HERALD_NONCE, objects = objects})
"""


def read_table_lua(nonce: str) -> str:
    """The Lua source that describes every object, tagged with ``nonce``."""
    if not nonce.isalnum():
        raise ValueError("nonce must be alphanumeric")
    return _READ_TABLE_LUA.replace("@NONCE@", nonce)


def decode_return_value(value: Any) -> Any:
    """A returnValue as Herald's snippets mean it: a JSON string is decoded, a table kept.

    TTS's documentation shows ``returnValue`` as a plain JSON value; a Lua table returned
    directly may arrive as a JSON object or array, a ``JSON.encode`` result as a string.

    Raises:
        TTSReturnError: a string that is not JSON.
    """
    if isinstance(value, str):
        try:
            return json.loads(value)
        except json.JSONDecodeError as exc:
            raise TTSReturnError(
                "tts/bad-return", detail=f"a string that is not JSON ({exc.msg})"
            ) from exc
    return value


def objects_from_return(value: Any, nonce: str | None = None) -> tuple[TTSObject, ...]:
    """Parse the snippet's answer into objects.

    Accepts ``{"herald": nonce, "objects": [...]}``, as a JSON string or as a table, and also a
    bare list of objects (for callers with their own Lua).

    Raises:
        TTSReturnError: the value is not that shape, or carries another nonce.
    """
    data = decode_return_value(value)
    if isinstance(data, dict):
        if nonce is not None and data.get("herald") != nonce:
            raise TTSReturnError("tts/bad-return", detail="the answer belongs to another request")
        items = data.get("objects")
        if items == {}:
            items = []
    else:
        items = data
    if not isinstance(items, list):
        raise TTSReturnError("tts/bad-return", detail="no list of objects")
    try:
        return tuple(TTSObject.from_json(item, f"objects[{i}]") for i, item in enumerate(items))
    except ObjectFormatError as exc:
        raise TTSReturnError("tts/bad-return", detail=str(exc)) from exc


def _nonce_of(value: Any) -> Any:
    try:
        data = decode_return_value(value)
    except TTSReturnError:
        return None
    return data.get("herald") if isinstance(data, dict) else None


def read_table(client: EditorClient, *, timeout: float = 10.0) -> tuple[TTSObject, ...]:
    """Every object on the live TTS table (one Execute Lua round trip).

    Raises:
        TTSError: any failure of the link (see ``EditorClient.execute``) or a bad answer.
    """
    nonce = secrets.token_hex(8)
    result = client.execute(
        read_table_lua(nonce),
        timeout=timeout,
        accept=lambda v: _nonce_of(v) == nonce,
    )
    return objects_from_return(result.value, nonce)
