"""herald.lua, Herald's Global script, run in real Lua 5.2 with stub TTS functions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lupa import lua52

import bridge.tts
from bridge.tts.messages import message_from_json
from bridge.tts.push import announcement, table_event

SCRIPT = (Path(bridge.tts.__file__).parent / "herald.lua").read_text(encoding="utf-8")


class Table:
    """A Lua runtime with herald.lua loaded and TTS's functions recorded."""

    def __init__(self) -> None:
        self.lua = lua52.LuaRuntime(unpack_returned_tuples=True)
        self.broadcasts: list[tuple[Any, ...]] = []
        self.sent: list[dict[str, Any]] = []
        self.waits: list[tuple[Any, Any]] = []
        g = self.lua.globals()
        g.broadcastToAll = lambda text, tint: self.broadcasts.append(
            ("all", text, list(tint.values()))
        )
        g.broadcastToColor = lambda text, color, tint: self.broadcasts.append((color, text))
        g.sendExternalMessage = lambda t: self.sent.append(dict(t.items()))
        g.Wait = self.lua.table_from(
            {"condition": lambda run, cond, timeout: self.waits.append((run, cond))}
        )
        self.lua.execute(SCRIPT)

    def obj(self, guid: str, kind: str = "Tile", value: Any = None) -> Any:
        return self.lua.eval(
            "function(guid, kind, value) return {getGUID = function() return guid end, "
            "type = kind, resting = true, getRotationValue = function() return value end} end"
        )(guid, kind, value)


@pytest.fixture
def table() -> Table:
    return Table()


def test_custom_messages_from_herald_are_broadcast(table: Table) -> None:
    g = table.lua.globals()
    msg = announcement("tts/violation", kind="violation", text="that tile is taken")
    g.onExternalMessage(table.lua.table_from(msg))
    assert table.broadcasts == [("all", "Not allowed: that tile is taken", [1.0, 0.35, 0.3])]
    g.onExternalMessage(table.lua.table_from(announcement("tts/connected", to="Blue")))
    assert table.broadcasts[-1] == ("Blue", "Herald is connected and refereeing this table.")


def test_messages_not_from_herald_are_ignored(table: Table) -> None:
    table.lua.globals().onExternalMessage(table.lua.table_from({"text": "hi"}))
    assert table.broadcasts == []


def test_drop_flip_and_roll_are_reported_to_herald(table: Table) -> None:
    g = table.lua.globals()
    g.onObjectDrop("Blue", table.obj("t12000"))
    g.onObjectRotate(table.obj("e90000", "Card"), 0, 180, "Red", 0, 0)
    g.onObjectRotate(table.obj("e90000", "Card"), 90, 180, "Red", 0, 180)  # spin only
    g.onObjectRandomize(table.obj("d16000", "Dice", 5), "Green")
    g.onObjectRandomize(table.obj("dec000", "Deck"), "Green")  # a shuffle is not a roll
    assert len(table.waits) == 1
    run, cond = table.waits[0]
    assert cond() is True
    run()
    events = [
        table_event(message_from_json({"messageID": 4, "customMessage": s})) for s in table.sent
    ]
    assert [(e.event, e.guid, e.player, e.face_down, e.value) for e in events if e] == [
        ("drop", "t12000", "Blue", None, None),
        ("flip", "e90000", "Red", True, None),
        ("roll", "d16000", "Green", None, 5),
    ]


def test_other_custom_messages_are_not_table_events() -> None:
    assert table_event(message_from_json({"messageID": 4, "customMessage": {"foo": 1}})) is None
    assert table_event(message_from_json({"messageID": 2, "message": "x"})) is None
    with pytest.raises(ValueError):
        announcement("tts/connected", kind="shout")  # type: ignore[arg-type]
