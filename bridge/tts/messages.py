"""The messages of TTS's External Editor API, as typed values, and their JSON parsing.

TTS documents eight messages it sends to the editor (messageID 0-7) and four it accepts (0-3).
Parsing is strict about what the documentation promises (a JSON object with an integer
``messageID`` and the documented fields with the documented types) and lenient about everything
else: fields the page does not list (``returnID``, ``savePath``, ...) are kept in ``raw`` and
never cause an error, because TTS versions add fields without notice.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bridge.tts.errors import TTSProtocolError

#: messageIDs TTS sends to the editor (the editor listens on 39998).
NEW_OBJECT = 0
GAME_LOADED = 1
PRINT = 2
ERROR = 3
CUSTOM_MESSAGE = 4
RETURN_VALUE = 5
GAME_SAVED = 6
OBJECT_CREATED = 7

#: messageIDs the editor sends to TTS (TTS listens on 39999).
SEND_GET_SCRIPTS = 0
SEND_SAVE_AND_PLAY = 1
SEND_CUSTOM_MESSAGE = 2
SEND_EXECUTE = 3


@dataclass(frozen=True)
class ScriptState:
    """One object's Lua script and UI XML as TTS reports them (guid ``"-1"`` is Global)."""

    guid: str
    name: str = ""
    script: str | None = None
    ui: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"guid": self.guid}
        if self.name:
            out["name"] = self.name
        if self.script is not None:
            out["script"] = self.script
        if self.ui is not None:
            out["ui"] = self.ui
        return out


@dataclass(frozen=True)
class IncomingMessage:
    """A message TTS sent; ``raw`` keeps the whole JSON object, unknown fields included."""

    raw: Mapping[str, Any] = field(default_factory=dict, kw_only=True, repr=False)

    @property
    def message_id(self) -> int:
        return int(self.raw.get("messageID", -1))


@dataclass(frozen=True)
class NewObject(IncomingMessage):
    """messageID 0: a player opened "Scripting Editor" on an object that has no script yet."""

    script_states: tuple[ScriptState, ...]


@dataclass(frozen=True)
class GameLoaded(IncomingMessage):
    """messageID 1: a game was loaded, or the answer to Get Scripts / Save & Play."""

    script_states: tuple[ScriptState, ...]


@dataclass(frozen=True)
class PrintMessage(IncomingMessage):
    """messageID 2: a Lua ``print()`` in TTS."""

    message: str


@dataclass(frozen=True)
class ErrorMessage(IncomingMessage):
    """messageID 3: a Lua error in TTS (syntax or run time)."""

    error: str
    guid: str | None = None
    prefix: str = ""


@dataclass(frozen=True)
class CustomMessage(IncomingMessage):
    """messageID 4: a Lua script called ``sendExternalMessage(table)``."""

    custom_message: Any


@dataclass(frozen=True)
class ReturnValue(IncomingMessage):
    """messageID 5: the value returned by code sent with Execute Lua.

    ``return_id`` is filled when TTS adds a ``returnID`` field, which the documentation does
    not list; Herald never relies on it.
    """

    return_value: Any
    return_id: Any = None


@dataclass(frozen=True)
class GameSaved(IncomingMessage):
    """messageID 6: the player saved the game (``save_path`` only if TTS sends ``savePath``)."""

    save_path: str | None = None


@dataclass(frozen=True)
class ObjectCreated(IncomingMessage):
    """messageID 7: the player created an object."""

    guid: str


@dataclass(frozen=True)
class UnknownMessage(IncomingMessage):
    """A JSON object with a messageID the documentation does not list; kept, not rejected."""


def _malformed(detail: str) -> TTSProtocolError:
    return TTSProtocolError("tts/malformed-message", detail=detail)


def _str_field(data: Mapping[str, Any], key: str, *, required: bool = True) -> str | None:
    value = data.get(key)
    if value is None:
        if required:
            raise _malformed(f"messageID {data.get('messageID')} has no {key!r} field")
        return None
    if not isinstance(value, str):
        raise _malformed(f"field {key!r} should be a string, got {type(value).__name__}")
    return value


def _script_states(data: Mapping[str, Any]) -> tuple[ScriptState, ...]:
    states = data.get("scriptStates")
    if states is None:
        return ()
    if not isinstance(states, list):
        raise _malformed("field 'scriptStates' should be a list")
    out = []
    for i, item in enumerate(states):
        if not isinstance(item, dict) or not isinstance(item.get("guid"), str):
            raise _malformed(f"scriptStates[{i}] should be an object with a string 'guid'")
        script, ui = item.get("script"), item.get("ui")
        out.append(
            ScriptState(
                guid=item["guid"],
                name=str(item.get("name") or ""),
                script=script if isinstance(script, str) else None,
                ui=ui if isinstance(ui, str) else None,
            )
        )
    return tuple(out)


def parse_message(data: bytes) -> IncomingMessage:
    """Decode one message TTS sent (the whole bytes of one connection).

    Raises:
        TTSProtocolError: the bytes are not UTF-8 JSON, not an object, have no integer
            ``messageID``, or a documented field has the wrong type.
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _malformed(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    if not text.strip():
        raise _malformed("empty message")
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _malformed(f"not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from exc
    return message_from_json(obj)


def message_from_json(obj: Any) -> IncomingMessage:
    """Build the typed message from an already decoded JSON value."""
    if not isinstance(obj, dict):
        raise _malformed(f"expected a JSON object, got {type(obj).__name__}")
    mid = obj.get("messageID")
    if isinstance(mid, bool) or not isinstance(mid, int):
        raise _malformed("no integer 'messageID' field")
    raw = dict(obj)
    if mid == NEW_OBJECT:
        return NewObject(script_states=_script_states(obj), raw=raw)
    if mid == GAME_LOADED:
        return GameLoaded(script_states=_script_states(obj), raw=raw)
    if mid == PRINT:
        return PrintMessage(message=_str_field(obj, "message") or "", raw=raw)
    if mid == ERROR:
        return ErrorMessage(
            error=_str_field(obj, "error") or "",
            guid=_str_field(obj, "guid", required=False),
            prefix=_str_field(obj, "errorMessagePrefix", required=False) or "",
            raw=raw,
        )
    if mid == CUSTOM_MESSAGE:
        return CustomMessage(custom_message=obj.get("customMessage"), raw=raw)
    if mid == RETURN_VALUE:
        if "returnValue" not in obj:
            raise _malformed("messageID 5 has no 'returnValue' field")
        return ReturnValue(return_value=obj["returnValue"], return_id=obj.get("returnID"), raw=raw)
    if mid == GAME_SAVED:
        path = obj.get("savePath")
        return GameSaved(save_path=path if isinstance(path, str) else None, raw=raw)
    if mid == OBJECT_CREATED:
        return ObjectCreated(guid=_str_field(obj, "guid") or "", raw=raw)
    return UnknownMessage(raw=raw)


def get_scripts_request() -> dict[str, Any]:
    """messageID 0: ask TTS for every script and UI (answered by a messageID 1)."""
    return {"messageID": SEND_GET_SCRIPTS}


def save_and_play_request(script_states: Sequence[ScriptState]) -> dict[str, Any]:
    """messageID 1: replace the listed objects' scripts and UI, then reload the game."""
    return {"messageID": SEND_SAVE_AND_PLAY, "scriptStates": [s.to_json() for s in script_states]}


def custom_message_request(data: Mapping[str, Any]) -> dict[str, Any]:
    """messageID 2: hand ``data`` to the game's ``onExternalMessage`` (must be a table)."""
    return {"messageID": SEND_CUSTOM_MESSAGE, "customMessage": dict(data)}


def execute_request(script: str, guid: str = "-1") -> dict[str, Any]:
    """messageID 3: run ``script`` in Global (guid ``"-1"``) or in a scripted object."""
    return {"messageID": SEND_EXECUTE, "guid": guid, "script": script}
