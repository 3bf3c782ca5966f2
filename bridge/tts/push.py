"""Talking to players at a TTS table, and hearing table events, through Herald's Global script.

Herald pushes prompts, violations and scores as custom messages (External Editor API messageID 2)
that ``herald.lua``'s ``onExternalMessage`` shows with ``broadcastToAll``/``broadcastToColor``.
The script reports drops, flips and die rolls back with ``sendExternalMessage`` (messageID 4), so
the referee hears changes without polling. Both directions carry ``{"herald": 1, ...}`` so
messages of other scripts are never mistaken for Herald's.

The sentences come from the message catalog (``engine/i18n``); this module only carries them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from bridge.tts.editor_api import EditorClient
from bridge.tts.messages import CustomMessage, IncomingMessage
from engine.i18n import message

PROTOCOL = 1

Kind = Literal["prompt", "violation", "score", "info"]
_KINDS = ("prompt", "violation", "score", "info")


def announcement(
    code: str, *, kind: Kind = "info", to: str | None = None, **params: Any
) -> dict[str, Any]:
    """The custom message that shows catalog sentence ``code`` on the table.

    Args:
        code: a message catalog code (``"tts/violation"``, or any engine code).
        kind: picks the tint in ``herald.lua``.
        to: a TTS player colour (``"Blue"``) to show it to one player only; None for everyone.
        params: the sentence's placeholders.
    """
    if kind not in _KINDS:
        raise ValueError(f"kind must be one of {_KINDS}")
    data: dict[str, Any] = {"herald": PROTOCOL, "kind": kind, "text": message(code, **params)}
    if to:
        data["to"] = to
    return data


def announce(
    client: EditorClient, code: str, *, kind: Kind = "info", to: str | None = None, **params: Any
) -> None:
    """Show catalog sentence ``code`` on the TTS table (fire and forget)."""
    client.custom_message(announcement(code, kind=kind, to=to, **params))


@dataclass(frozen=True)
class TableEvent:
    """Something ``herald.lua`` saw happen: ``"drop"``, ``"flip"`` or ``"roll"``."""

    event: str
    guid: str
    player: str | None = None
    face_down: bool | None = None
    value: Any = None


def table_event(msg: IncomingMessage) -> TableEvent | None:
    """The table event in a custom message from ``herald.lua``; None for any other message."""
    if not isinstance(msg, CustomMessage):
        return None
    data = msg.custom_message
    if not isinstance(data, Mapping) or data.get("herald") != PROTOCOL:
        return None
    event, guid = data.get("event"), data.get("guid")
    if event not in ("drop", "flip", "roll") or not isinstance(guid, str):
        return None
    player = data.get("player")
    face_down = data.get("face_down")
    return TableEvent(
        event=event,
        guid=guid,
        player=player if isinstance(player, str) else None,
        face_down=face_down if isinstance(face_down, bool) else None,
        value=data.get("value"),
    )
