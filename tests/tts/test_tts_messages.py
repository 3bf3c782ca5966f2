"""Parsing TTS's messages: the documentation's own examples, unknown fields, and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bridge.tts import messages as m
from bridge.tts.errors import TTSProtocolError

EXAMPLES = json.loads((Path(__file__).parent / "fixtures" / "editor_api_examples.json").read_text())


def test_every_documented_message_from_tts_parses_to_its_type() -> None:
    parsed = [m.parse_message(json.dumps(e).encode()) for e in EXAMPLES["from_tts"]]
    assert [type(p) for p in parsed] == [
        m.NewObject,
        m.GameLoaded,
        m.PrintMessage,
        m.ErrorMessage,
        m.CustomMessage,
        m.ReturnValue,
        m.GameSaved,
        m.ObjectCreated,
    ]
    new, loaded, printed, error, custom, ret, saved, created = parsed
    assert isinstance(new, m.NewObject) and new.script_states[0].guid == "db3f06"
    assert isinstance(loaded, m.GameLoaded)
    assert loaded.script_states[0] == m.ScriptState("-1", "Global", "...", "...")
    assert loaded.script_states[1].ui is None
    assert isinstance(printed, m.PrintMessage) and printed.message == "Hit player! White"
    assert isinstance(error, m.ErrorMessage)
    assert error.guid == "-1" and error.prefix == "Error in Global Script: "
    assert isinstance(custom, m.CustomMessage)
    assert custom.custom_message == {"foo": "Hello", "bar": "World"}
    assert isinstance(ret, m.ReturnValue) and ret.return_value is True
    assert isinstance(saved, m.GameSaved) and saved.save_path is None
    assert isinstance(created, m.ObjectCreated) and created.guid == "abcdef"
    assert [p.message_id for p in parsed] == list(range(8))


def test_requests_match_the_documented_shapes() -> None:
    docs = EXAMPLES["to_tts"]
    assert m.get_scripts_request() == docs[0]
    states = [m.ScriptState("-1", script="...", ui="..."), m.ScriptState("a0b2d5", script="...")]
    assert m.save_and_play_request(states) == docs[1]
    assert m.custom_message_request({}) == docs[2]
    assert m.execute_request('print("Hello, World")') == docs[3]
    assert m.execute_request("self.setPosition({0,10,0}", "e8e104") == docs[4]


def test_fields_the_documentation_does_not_list_are_kept_not_rejected() -> None:
    ret = m.parse_message(b'{"messageID": 5, "returnValue": 3, "returnID": 17, "extra": [1]}')
    assert isinstance(ret, m.ReturnValue) and ret.return_id == 17 and ret.raw["extra"] == [1]
    saved = m.parse_message(b'{"messageID": 6, "savePath": "C:/Saves/TS_Save_1.json"}')
    assert isinstance(saved, m.GameSaved) and saved.save_path == "C:/Saves/TS_Save_1.json"
    unknown = m.parse_message(b'{"messageID": 42, "what": "new"}')
    assert isinstance(unknown, m.UnknownMessage) and unknown.message_id == 42


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"", "empty message"),
        (b'{"messageID": 5, "returnValue": ', "not JSON"),
        (b"\xff\xfe\x00", "not UTF-8"),
        (b"[1, 2]", "expected a JSON object"),
        (b'{"message": "no id"}', "messageID"),
        (b'{"messageID": "2", "message": "x"}', "messageID"),
        (b'{"messageID": 2, "message": 7}', "'message' should be a string"),
        (b'{"messageID": 5}', "returnValue"),
        (b'{"messageID": 1, "scriptStates": [{"name": "no guid"}]}', "scriptStates[0]"),
    ],
)
def test_unreadable_messages_are_a_clear_protocol_error(data: bytes, says: str) -> None:
    with pytest.raises(TTSProtocolError) as info:
        m.parse_message(data)
    assert info.value.code == "tts/malformed-message"
    assert says in str(info.value)
    assert str(info.value).startswith("Tabletop Simulator sent a message Herald cannot read")
