"""A Tabletop Simulator stand-in written from TTS's External Editor API documentation.

It plays TTS's side over real loopback sockets: it listens on an ephemeral port (TTS's 39999)
for one JSON message per connection, and answers by opening new connections to the editor's
port, writing one JSON message each and closing, optionally in small chunks with pauses, as TTS
does for large messages. Documented behaviour:

* messageID 0 (Get Lua Scripts) → a messageID 1 with ``scriptStates``;
* messageID 1 (Save & Play) → the states are stored, then a messageID 1 with all of them;
* messageID 2 (custom message) → recorded, no answer;
* messageID 3 (Execute Lua) → the script runs in a real Lua 5.2 (lupa) against stub TTS objects;
  each ``print`` becomes a messageID 2, a Lua error a messageID 3, a returned value a messageID 5.

Tests can replace the answer to any request with ``handler`` to script odd behaviour (silence,
malformed JSON, stale answers). Everything is cleaned up by ``close()``.
"""

from __future__ import annotations

import contextlib
import json
import queue
import socket
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from lupa import lua52

from bridge.tts.objects import TTSObject

Outgoing = Mapping[str, Any] | bytes
Handler = Callable[[dict[str, Any]], list[Outgoing] | None]

_MAKE_OBJECT = r"""
return function(s)
  local o = {}
  o.guid = s.guid
  o.name = s.name
  o.type = s.type
  o.is_face_down = s.face_down
  o.resting = true
  o.getGUID = function() return s.guid end
  o.getName = function() return s.nickname end
  o.getDescription = function() return s.description end
  o.getPosition = function() return s.position end
  o.getRotation = function() return s.rotation end
  o.getScale = function() return s.scale end
  if s.old_api ~= true then
    o.getGMNotes = function() return s.gm_notes end
    o.getTags = function() return s.tags end
  end
  if s.value ~= nil then
    o.getRotationValue = function() return s.value end
  end
  if s.contents ~= nil then
    o.getObjects = function() return s.contents end
  end
  return o
end
"""


def free_port() -> int:
    """A loopback port that was free a moment ago (for options that cannot take 0)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def spec_from_object(obj: TTSObject) -> dict[str, Any]:
    """A stand-in object spec that reproduces ``obj`` (as read from a save) on the live table."""

    def vec(v: tuple[float, float, float] | None) -> dict[str, float] | None:
        return None if v is None else {"x": v[0], "y": v[1], "z": v[2]}

    spec: dict[str, Any] = {
        "guid": obj.guid,
        "name": obj.name,
        "type": obj.type,
        "nickname": obj.nickname,
        "description": obj.description,
        "gm_notes": obj.gm_notes,
        "tags": list(obj.tags),
        "position": vec(obj.position),
        "rotation": vec(obj.rotation),
        "scale": vec(obj.scale),
        "face_down": obj.face_down,
        "value": obj.value,
    }
    if obj.contained:
        spec["contents"] = [
            {
                "guid": c.guid,
                "name": c.nickname,
                "description": c.description,
                "gm_notes": c.gm_notes,
                "tags": list(c.tags),
                "index": i,
            }
            for i, c in enumerate(obj.contained)
        ]
    return {k: v for k, v in spec.items() if v is not None}


class TTSStandIn:
    """TTS's side of the External Editor API on loopback, for tests."""

    def __init__(self, *, chunk_size: int | None = None, chunk_delay: float = 0.0) -> None:
        self.chunk_size = chunk_size
        self.chunk_delay = chunk_delay
        self.editor_host = "127.0.0.1"
        self.editor_port: int | None = None
        self.requests: queue.Queue[dict[str, Any]] = queue.Queue()
        self.custom_messages: list[Any] = []
        self.script_states: list[dict[str, Any]] = [
            {"name": "Global", "guid": "-1", "script": "-- global", "ui": ""},
        ]
        self.objects: list[dict[str, Any]] = []
        self.handler: Handler | None = None
        self._server = socket.socket()
        self._server.bind(("127.0.0.1", 0))
        self._server.listen(8)
        self._server.settimeout(0.05)
        self.port = int(self._server.getsockname()[1])
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="tts-standin", daemon=True)
        self._thread.start()

    # -- TTS → editor ----------------------------------------------------------------------

    def push(
        self, msg: Outgoing, *, chunk_size: int | None = None, chunk_delay: float | None = None
    ) -> None:
        """Open a connection to the editor, write one message (maybe in chunks) and close."""
        assert self.editor_port is not None, "set editor_port first"
        data = msg if isinstance(msg, bytes) else json.dumps(msg).encode("utf-8")
        size = chunk_size or self.chunk_size or len(data) or 1
        delay = self.chunk_delay if chunk_delay is None else chunk_delay
        with socket.create_connection((self.editor_host, self.editor_port), timeout=5) as conn:
            for start in range(0, len(data), size):
                conn.sendall(data[start : start + size])
                if delay:
                    time.sleep(delay)

    # -- editor → TTS ----------------------------------------------------------------------

    def next_request(self, timeout: float = 5.0) -> dict[str, Any]:
        return self.requests.get(timeout=timeout)

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._server.accept()
            except TimeoutError:
                continue
            except OSError:
                break
            with conn:
                conn.settimeout(5)
                chunks = []
                while True:
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    chunks.append(chunk)
            request = json.loads(b"".join(chunks).decode("utf-8"))
            self.requests.put(request)
            replies = self.handler(request) if self.handler else None
            if replies is None:
                replies = self.answer(request)
            for reply in replies:
                with contextlib.suppress(OSError):
                    self.push(reply)

    def answer(self, request: Mapping[str, Any]) -> list[Outgoing]:
        """What the documentation says TTS sends back for ``request``."""
        mid = request.get("messageID")
        if mid == 0:
            return [{"messageID": 1, "scriptStates": list(self.script_states)}]
        if mid == 1:
            by_guid = {s["guid"]: dict(s) for s in self.script_states}
            for state in request.get("scriptStates", []):
                by_guid[state["guid"]] = {
                    "name": by_guid.get(state["guid"], {}).get("name", ""),
                    **state,
                }
            self.script_states = list(by_guid.values())
            return [{"messageID": 1, "scriptStates": self.script_states}]
        if mid == 2:
            self.custom_messages.append(request.get("customMessage"))
            return []
        if mid == 3:
            return self.run_lua(str(request.get("script", "")), str(request.get("guid", "-1")))
        return []

    def run_lua(self, script: str, guid: str = "-1") -> list[Outgoing]:
        """Run ``script`` in Lua 5.2 with stub TTS globals; the messages TTS would send."""
        out: list[Outgoing] = []
        lua = lua52.LuaRuntime(unpack_returned_tuples=False)
        g = lua.globals()

        def lua_print(*args: Any) -> None:
            out.append({"messageID": 2, "message": " ".join(str(a) for a in args)})

        def encode(value: Any) -> str:
            return json.dumps(_to_python(value))

        g.print = lua_print
        g.JSON = lua.table_from({"encode": encode})
        make = lua.execute(_MAKE_OBJECT)
        objs = [make(lua.table_from(spec, recursive=True)) for spec in self.objects]
        all_objects = lua.table_from(objs)
        g.getAllObjects = lambda: all_objects
        try:
            result = lua.execute(script)
        except lua52.LuaError as exc:
            out.append(
                {
                    "messageID": 3,
                    "error": str(exc),
                    "guid": guid,
                    "errorMessagePrefix": "Error in Global Script: ",
                }
            )
            return out
        if result is not None:
            out.append({"messageID": 5, "returnValue": _to_python(result)})
        return out

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self._server.close()


def _to_python(value: Any) -> Any:
    """A Lua value as JSON-able Python; a Lua sequence becomes a list, an empty table ``{}``."""
    if lua52.lua_type(value) == "table":
        items = list(value.items())
        if not items:
            return {}
        keys = [k for k, _ in items]
        if all(isinstance(k, int) for k in keys) and sorted(keys) == list(range(1, len(keys) + 1)):
            return [_to_python(v) for _, v in sorted(items, key=lambda kv: kv[0])]
        return {str(k): _to_python(v) for k, v in items}
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return value
    return value
