"""`herald serve --game middle-ages` with its default table source, the simulated camera: the
moves are filmed, read off the frames by the vision pipeline, and reach Socket.IO clients."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from srv_support import join, ordered_client, serve

pytestmark = pytest.mark.slow(seconds=50)  # vision on every frame: started first

WAIT = 180.0  # an upper bound for a loaded machine: vision on every frame is CPU-bound


def test_the_simulated_camera_is_the_default_table_and_its_moves_reach_the_display(
    tmp_path: Path,
) -> None:
    served = serve(tmp_path / "cam.db", "--game", "middle-ages", "--move-delay", "0.2",
                   "--virtual-devices", "off", table=None)  # fmt: skip
    states: list[dict[str, Any]] = []
    reached = threading.Event()
    client = ordered_client()  # the order states arrive in is what this test checks

    @client.on("state")
    def on_state(data: dict[str, Any]) -> None:
        states.append(data)
        if data["state_id"] >= 4:
            reached.set()

    try:
        assert "simulated camera" in served.output
        assert set(served.seat_urls) == {"red", "blue", "green"}  # the stickers' colours
        join(client, served.base)
        assert reached.wait(WAIT), f"state_id stayed at {served.health()['state_id']}"
    finally:
        client.disconnect()
        served.stop()
    ids = [s["state_id"] for s in states]
    assert ids == sorted(ids) and max(ids) >= 4
    added = [e for s in states for e in s.get("log_added", s.get("log", []))]
    # the four starting rows were laid in front of the camera and read from the tiles' faces
    assert [e["kind"] for e in added[:4]] == ["reveal"] * 4
    assert {e["source"] for e in added[:4]} == {"camera"}


def test_a_demo_shows_the_cameras_question_and_the_simulated_phones_answer(
    tmp_path: Path,
) -> None:
    """Issue #25 point 2 on `herald serve --game glory` (the simulated camera): a Quest Plans
    draw (decks drawn face down) is a change the camera cannot tell apart, so it asks. The
    question reaches the table display and the asked seat's phone once, never another phone,
    and the seat's simulated phone answers it: the panel closes as answered."""
    served = serve(tmp_path / "ask.db", "--game", "glory", "--move-delay", "0.2",
                   "--virtual-devices", "off", table=None)  # fmt: skip
    display = ordered_client()
    phones = {seat: ordered_client() for seat in served.seat_urls}
    got: dict[str, list[dict[str, Any]]] = {name: [] for name in ["table", *phones]}
    answered = threading.Event()

    def keep(name: str) -> Any:
        def on_question(data: dict[str, Any]) -> None:
            got[name].append(data)
            if name == "table" and not data["open"] and data["why"] == "answered":
                answered.set()

        return on_question

    display.on("question", keep("table"))
    for seat, phone in phones.items():
        phone.on("question", keep(seat))
    try:
        join(display, served.base)
        for seat, phone in phones.items():
            join(phone, served.base, served.token(seat))
        assert answered.wait(WAIT), f"no answered question by state {served.health()['state_id']}"
    finally:
        for client in [display, *phones.values()]:
            client.disconnect()
        served.stop()
    closed = next(q for q in got["table"] if not q["open"] and q["why"] == "answered")
    (opened,) = [q for q in got["table"] if q["open"] and q["id"] == closed["id"]]
    asked = opened["seat"]
    assert asked in phones and opened["code"] in ("camera/ambiguous", "camera/unsure")
    assert opened["choices"] == []  # the seat's candidates may name its hand: not on the table
    mine = [q for q in got[asked] if q["id"] == closed["id"]]
    assert [q["open"] for q in mine] == [True, False]
    assert len(mine[0]["choices"]) == opened["count"] >= 1
    for seat in phones:
        if seat != asked:
            assert not [q for q in got[seat] if q["id"] == closed["id"]]  # never another phone
