"""The External Editor API client against the documented TTS stand-in, over real loopback."""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from tts_standin import TTSStandIn, free_port

from bridge.tts import messages as m
from bridge.tts.editor_api import EditorClient
from bridge.tts.errors import (
    TTSConnectionError,
    TTSError,
    TTSLuaError,
    TTSNotRunning,
    TTSPortInUse,
    TTSProtocolError,
    TTSTimeout,
)

EXAMPLES = json.loads((Path(__file__).parent / "fixtures" / "editor_api_examples.json").read_text())


def collect(client: EditorClient) -> tuple[list[m.IncomingMessage], threading.Event, list[int]]:
    seen: list[m.IncomingMessage] = []
    event = threading.Event()
    target = [0]

    def listener(msg: m.IncomingMessage) -> None:
        seen.append(msg)
        if len(seen) >= target[0]:
            event.set()

    client.add_listener(listener)
    return seen, event, target


def test_execute_returns_the_value_and_the_prints_seen_on_the_way(
    client: EditorClient, standin: TTSStandIn
) -> None:
    result = client.execute('print("one") print("two") return 1 + 41')
    assert result.value == 42
    assert result.prints == ("one", "two")
    assert standin.next_request() == {
        "messageID": 3,
        "guid": "-1",
        "script": 'print("one") print("two") return 1 + 41',
    }


def test_every_message_tts_sends_reaches_the_listeners_in_order(
    client: EditorClient, standin: TTSStandIn
) -> None:
    seen, done, target = collect(client)
    target[0] = len(EXAMPLES["from_tts"])
    for example in EXAMPLES["from_tts"]:
        standin.push(example, chunk_size=7)
    assert done.wait(5)
    assert [msg.message_id for msg in seen] == list(range(8))


def test_large_messages_in_small_chunks_are_read_to_eof(
    client: EditorClient, standin: TTSStandIn
) -> None:
    big = "x" * 300_000
    standin.handler = lambda req: [{"messageID": 5, "returnValue": big, "returnID": 3}]
    standin.chunk_size = 4096
    standin.chunk_delay = 0.001
    assert client.execute("return big").value == big


def test_get_scripts_and_save_and_play_follow_the_documentation(
    client: EditorClient, standin: TTSStandIn
) -> None:
    loaded = client.get_scripts()
    assert standin.next_request() == {"messageID": 0}
    assert loaded.script_states[0].guid == "-1"
    new = m.ScriptState("a0b2d5", script="-- deck", ui="")
    reloaded = client.save_and_play([m.ScriptState("-1", script="-- new global", ui=""), new])
    request = standin.next_request()
    assert request["messageID"] == 1
    assert request["scriptStates"][0] == {"guid": "-1", "script": "-- new global", "ui": ""}
    assert {s.guid: s.script for s in reloaded.script_states} == {
        "-1": "-- new global",
        "a0b2d5": "-- deck",
    }


def test_custom_message_is_sent_as_documented(client: EditorClient, standin: TTSStandIn) -> None:
    client.custom_message({"herald": 1, "text": "hello"})
    assert standin.next_request() == {
        "messageID": 2,
        "customMessage": {"herald": 1, "text": "hello"},
    }


def test_a_lua_error_reply_is_a_clear_error_and_the_client_keeps_running(
    client: EditorClient,
) -> None:
    with pytest.raises(TTSLuaError) as info:
        client.execute("return nil + 1")
    assert "Tabletop Simulator reported a Lua error (Error in Global Script)" in str(info.value)
    assert info.value.guid == "-1"
    assert client.execute("return 'still here'").value == "still here"


def test_an_error_of_another_object_does_not_fail_the_request(
    client: EditorClient, standin: TTSStandIn
) -> None:
    standin.handler = lambda req: [
        {"messageID": 3, "error": "boom", "guid": "abc123", "errorMessagePrefix": "x: "},
        {"messageID": 5, "returnValue": 7},
    ]
    assert client.execute("return 7").value == 7


def test_malformed_json_from_tts_is_a_clear_error_and_the_client_keeps_running(
    client: EditorClient, standin: TTSStandIn
) -> None:
    errors: list[TTSError] = []
    client.add_error_listener(errors.append)
    standin.handler = lambda req: [b'{"messageID": 5, "returnValue": ']
    with pytest.raises(TTSProtocolError) as info:
        client.execute("return 1")
    assert "cannot read" in str(info.value) and "not JSON" in str(info.value)
    assert len(errors) == 1
    standin.handler = None
    assert client.execute("return 2").value == 2


def test_a_timeout_is_a_clear_error_and_the_client_keeps_running(
    client: EditorClient, standin: TTSStandIn
) -> None:
    standin.handler = lambda req: []
    started = time.monotonic()
    with pytest.raises(TTSTimeout) as info:
        client.execute("return 1", timeout=0.3)
    assert time.monotonic() - started >= 0.3  # it waited its timeout (no upper bound: load)
    assert str(info.value) == (
        "Tabletop Simulator did not answer within 0.3 seconds (Execute Lua)."
    )
    standin.handler = None
    assert client.execute("return 3").value == 3


def test_a_late_answer_is_never_taken_for_the_next_requests_answer(
    client: EditorClient, standin: TTSStandIn
) -> None:
    held: list[dict[str, Any]] = []

    def handler(req: dict[str, Any]) -> list[m.Mapping[str, Any] | bytes]:
        if not held:
            held.append(req)
            return []  # first request: no answer in time
        # second request: the stale answer to the first arrives first, then the real one
        return [{"messageID": 5, "returnValue": "old"}, {"messageID": 5, "returnValue": "new"}]

    standin.handler = handler
    with pytest.raises(TTSTimeout):
        client.execute("return 'old'", timeout=0.2)
    result = client.execute("return 'new'", accept=lambda v: v == "new")
    assert result.value == "new"


def test_requests_are_serialised_one_in_flight(client: EditorClient, standin: TTSStandIn) -> None:
    outstanding = 0
    most = 0
    lock = threading.Lock()
    repliers: list[threading.Thread] = []

    def reply_later(req: dict[str, Any]) -> None:
        nonlocal outstanding
        time.sleep(0.05)
        with lock:
            outstanding -= 1
        standin.push({"messageID": 5, "returnValue": req["script"]})

    def handler(req: dict[str, Any]) -> list[m.Mapping[str, Any] | bytes]:
        nonlocal outstanding, most
        with lock:
            outstanding += 1
            most = max(most, outstanding)
        t = threading.Thread(target=reply_later, args=(req,))
        repliers.append(t)
        t.start()
        return []  # answered asynchronously, as TTS does

    standin.handler = handler
    results: list[Any] = []
    callers = [
        threading.Thread(target=lambda i=i: results.append(client.execute(f"return {i}").value))
        for i in range(5)
    ]
    for t in callers:
        t.start()
    for t in callers:
        t.join(10)
    for t in repliers:
        t.join(5)
    assert sorted(results) == [f"return {i}" for i in range(5)]
    assert most == 1


def test_tts_not_running_is_a_clear_error() -> None:
    with EditorClient(tts_port=free_port(), listen_port=0) as client:
        with pytest.raises(TTSNotRunning) as info:
            client.execute("return 1", timeout=1)
        assert "(connection refused)" in str(info.value)
        assert "Start Tabletop Simulator" in str(info.value)
        assert client.running


def test_port_in_use_names_the_likely_culprit() -> None:
    with socket.socket() as other_editor:
        other_editor.bind(("127.0.0.1", 0))
        other_editor.listen(1)
        port = other_editor.getsockname()[1]
        client = EditorClient(listen_port=port)
        with pytest.raises(TTSPortInUse) as info:
            client.start()
        assert f"Port {port} on 127.0.0.1 is already taken" in str(info.value)
        assert "Another external editor" in str(info.value)
        assert "VS Code" in str(info.value)
        assert not client.running


def test_requests_before_start_are_refused_clearly() -> None:
    with pytest.raises(TTSConnectionError, match="not started"):
        EditorClient(listen_port=0).execute("return 1")


def test_a_failing_listener_does_not_stop_the_client(
    client: EditorClient, standin: TTSStandIn
) -> None:
    def bad(msg: m.IncomingMessage) -> None:
        raise RuntimeError("listener bug")

    client.add_listener(bad)
    assert client.execute("return 5").value == 5
    assert client.execute("return 6").value == 6


def test_close_joins_the_listener_thread(standin: TTSStandIn) -> None:
    before = threading.active_count()
    client = EditorClient(tts_port=standin.port, listen_port=0)
    client.start()
    client.close()
    assert not client.running
    assert threading.active_count() <= before
