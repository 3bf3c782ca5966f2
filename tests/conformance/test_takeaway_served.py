"""The tiny game, installed as a plugin, served by ``herald serve`` and played from phones.

Take-away is not installed into the environment: the test writes a distribution's metadata
(``entry_points.txt`` in the ``herald.games`` group) into a folder on the server's
``PYTHONPATH``, exactly what ``pip install`` of a game package leaves behind, so the server finds
it the way it finds any installed game, with no edit outside tests/games/takeaway.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest
from srv_support import WAIT, Served, Watcher, serve_takeaway


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    root = tmp_path_factory.mktemp("plugin")
    served = serve_takeaway(root)
    yield served
    served.stop()


def _act(phone: Watcher, state_id: int) -> dict[str, Any]:
    prompt = phone.wait_for("prompt", lambda d: d["state_id"] == state_id and d["prompts"])
    move: dict[str, Any] = prompt["prompts"][0]["moves"][-1]["move"]
    ack: dict[str, Any] = phone.client.call(
        "intent", {"state_id": state_id, "kind": "move", "move": move}, timeout=WAIT
    )
    assert ack["ok"], ack
    return move


def test_the_tiny_game_is_served_and_played_from_phones(table: Served) -> None:
    seats = list(table.seat_urls)
    assert len(seats) == 2
    viewer = Watcher(table.base)
    phones = {seat: Watcher(table.base, table.token(seat)) for seat in seats}
    # the simulated table rolls the die; then both phones seal their bids
    state = viewer.wait_for("state", lambda d: d["view"].get("step") == "bid")
    assert state["game"] == "takeaway" and 11 <= state["view"]["pile"] <= 16
    first_bid = _act(phones[seats[0]], state["state_id"])
    sealed = viewer.wait_for("state", lambda d: d["state_id"] == state["state_id"] + 1)
    other = phones[seats[1]].wait_for("seat_state", lambda d: d["state_id"] == sealed["state_id"])
    for payload in (sealed, other):
        text = json.dumps(payload)
        assert payload["view"]["sealed"]["committed"] == [seats[0]]
        assert json.dumps(first_bid)[1:-1] not in text  # the bid itself shows nowhere else
    _act(phones[seats[1]], sealed["state_id"])
    revealed = viewer.wait_for("state", lambda d: d["state_id"] == sealed["state_id"] + 1)
    assert set(revealed["view"]["bids"]) == set(seats) and "sealed" not in revealed["view"]
    # then the phones take counters in turn until the pile is empty
    current = revealed
    while not current["over"]:
        seat = current["to_act"][0]
        _act(phones[seat], current["state_id"])
        sid = current["state_id"] + 1
        current = viewer.wait_for("state", lambda d, sid=sid: d["state_id"] == sid)
    assert current["view"]["pile"] == 0
    winners = [row["seat"] for row in current["view"]["scores"] if row["total"] == 1]
    assert len(winners) == 1
    for client in (viewer, *phones.values()):
        client.close()
    with sqlite3.connect(table.db) as db:
        kinds = [json.loads(r[0]).get("move", {}).get("kind") for r in db.execute(
            "SELECT payload FROM events ORDER BY seq")]  # fmt: skip
    assert kinds[0] == "roll" and kinds.count("bid") == 2 and "take" in kinds
