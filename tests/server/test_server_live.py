"""A real ``herald serve`` process and python-socketio clients over real websockets."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import socketio
import websocket
from srv_support import SEATS, WAIT, Served, Watcher, serve


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A server whose simulated table lays out chance only: people play on phones."""
    db = tmp_path_factory.mktemp("live") / "live.db"
    served = serve(db, "--sim", "table", "--move-delay", "0.05", "--allow-origin",
                   "http://display.example:9000")  # fmt: skip
    yield served
    served.stop()


def seat_to_act(viewer: Watcher) -> tuple[dict[str, Any], str]:
    state = viewer.wait_for("state", lambda d: bool(d["to_act"]) and d["to_act"][0] in SEATS)
    return state, state["to_act"][0]


def test_a_plain_client_sees_state_with_rising_state_id(tmp_path: Path) -> None:
    served = serve(tmp_path / "sim.db", "--move-delay", "0.05")
    try:
        viewer = Watcher(served.base)
        viewer.wait_for("state", lambda d: d["state_id"] >= 8)
        ids = [d["state_id"] for d in viewer.of("state")]
        assert ids == sorted(ids) and len(set(ids)) == len(ids) >= 3
        first = viewer.of("state")[0]
        assert first["game"] == "middle-ages" and "view" in first
        viewer.close()
    finally:
        served.stop()


def test_act_on_one_phone_and_every_client_updates(table: Served) -> None:
    viewer = Watcher(table.base)
    state, seat = seat_to_act(viewer)
    other = next(s for s in SEATS if s != seat)
    phone, bystander = (
        Watcher(table.base, table.token(seat)),
        Watcher(table.base, table.token(other)),
    )
    prompt = phone.wait_for("prompt", lambda d: d["state_id"] == state["state_id"] and d["prompts"])
    move = prompt["prompts"][0]["moves"][0]["move"]
    ack = phone.client.call("intent", {"state_id": state["state_id"], "kind": "move", "move": move},
                            timeout=WAIT)  # fmt: skip
    assert ack["ok"] and ack["state_id"] == state["state_id"] + 1
    new = state["state_id"] + 1
    for client in (viewer, phone, bystander):
        client.wait_for("state", lambda d: d["state_id"] == new)
    assert phone.wait_for("seat_state", lambda d: d["state_id"] == new)["seat"] == seat
    assert bystander.wait_for("seat_state", lambda d: d["state_id"] == new)["seat"] == other
    assert {d["seat"] for d in bystander.of("seat_state")} == {other}
    assert {d["seat"] for d in bystander.of("prompt")} == {other}
    assert viewer.of("seat_state") == [] and viewer.of("prompt") == []
    stale = phone.client.call("intent", {"state_id": state["state_id"], "kind": "move",
                                         "move": move}, timeout=WAIT)  # fmt: skip
    assert stale["code"] == "state/stale"
    for client in (viewer, phone, bystander):
        client.close()


def test_forged_token_is_refused(table: Served) -> None:
    with pytest.raises(socketio.exceptions.ConnectionError):
        Watcher(table.base, "forged-token-forged-tok")


def test_other_origins_are_refused(table: Served) -> None:
    # long-polling, because websocket-client adds an Origin header of its own
    with pytest.raises(socketio.exceptions.ConnectionError):
        Watcher(table.base, transport="polling", headers={"Origin": "http://evil.example"})
    same = Watcher(table.base, transport="polling", headers={"Origin": table.base})
    allowed = Watcher(table.base, transport="polling",
                      headers={"Origin": "http://display.example:9000"})  # fmt: skip
    same.wait_for("state", lambda d: True)
    allowed.wait_for("state", lambda d: True)
    same.close()
    allowed.close()


def _raw_socket(table: Served, token: str) -> websocket.WebSocket:
    """A websocket speaking Engine.IO/Socket.IO by hand, to send what no client library would."""
    ws = websocket.create_connection(
        f"ws://127.0.0.1:{table.port}/socket.io/?EIO=4&transport=websocket", timeout=WAIT
    )
    assert ws.recv().startswith("0")  # engine.io open
    ws.send("40" + json.dumps({"token": token}))
    while True:
        frame = ws.recv()
        if frame.startswith("40"):
            return ws


def test_huge_and_deeply_nested_frames_change_nothing(table: Served) -> None:
    viewer = Watcher(table.base)
    state, seat = seat_to_act(viewer)
    before = table.health()["state_id"]
    assert before == state["state_id"]
    ws = _raw_socket(table, table.token(seat))
    ws.send("42" + json.dumps(["intent", {"state_id": before, "kind": "move",
                                           "move": "x" * (200 * 1024)}]))  # fmt: skip
    closed = False
    try:
        for _ in range(200):  # the server closes the connection; drain until it does
            if ws.recv() == "":
                closed = True
                break
    except (websocket.WebSocketException, ConnectionError, OSError):
        closed = True
    assert closed
    ws = _raw_socket(table, table.token(seat))
    deep = "[" * 20_000 + "]" * 20_000  # under the frame limit, over any recursion limit
    ws.send('421["intent",{"state_id":' + str(before) + ',"kind":"move","move":' + deep + "}]")
    ws.send('422["sync",{"state_id":0}]')
    replies = []
    for _ in range(50):
        frame = ws.recv()
        if frame.startswith("43"):
            replies.append(frame)
        if any(r.startswith("432") for r in replies):
            break
    ws.close()
    assert table.health()["state_id"] == before
    assert viewer.client.connected
    viewer.close()
