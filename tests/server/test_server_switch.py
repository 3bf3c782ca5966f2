"""Switching games on a served table (issue 25, point 1).

The host's New game from France 1429 to Viscounts left the simulated camera on France's layout:
its thread failed on the Viscounts state, the table stayed at state 0 and no page said why. Here
a real ``herald serve`` with the simulated camera is switched through every game it offers and
back, the way the host page does it (``/api/setup``, then ``start`` with a setup), and each game
must play on by the camera, with nothing for the host page to warn about.
"""

from __future__ import annotations

import json
import signal
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from srv_support import WAIT, Served, Watcher, serve

from bridge.camera import SOURCE as CAMERA
from bridge.store import EventStore
from engine.registry import installed_keys

pytestmark = pytest.mark.slow  # every game in turn: started first (tests/conftest.py)


def setup_of(game: dict[str, Any]) -> dict[str, Any]:
    """What the host page's form sends for ``game`` left as it opens (setup.js ``read``): its
    starting seats, and each option it offers a choice for at its starting value."""
    offered = {o["name"] for o in game["options"] if o["choices"]} | {game["data_option"]}
    options = {k: v for k, v in game["start"].items() if k in offered}
    seats = [{"seat": s, "name": ""} for s in game["seats"]]
    return {"game": game["key"], "seats": seats, "options": options, "auto_pass": True}


def start(host: Watcher, served: Served, setup: dict[str, Any]) -> dict[str, Any]:
    """The host's start, sent again while the camera's moves make it stale."""
    for _ in range(50):
        sid = served.health()["state_id"]
        ack: dict[str, Any] = host.client.call(
            "intent", {"state_id": sid, "kind": "start", "setup": setup}, timeout=WAIT
        )
        if ack.get("code") != "state/stale":
            return ack
    raise AssertionError("every start was stale")


def test_the_host_switches_through_every_game_and_back_and_each_plays_on(tmp_path: Path) -> None:
    # the games the served process has (a game a test registers at run time here does not reach it)
    first = installed_keys()[0]
    db = tmp_path / "switch.db"
    served = serve(db, "--game", first, "--move-delay", "0.05", "--camera-fps", "30",
                   "--virtual-devices", "off", "--restart-after", "0",
                   table="camera-sim")  # fmt: skip
    sessions: dict[int, str] = {}
    try:
        with urllib.request.urlopen(f"{served.base}/api/setup", timeout=WAIT) as reply:
            games = {g["key"]: g for g in json.loads(reply.read())["games"]}
        keys = [first, *(k for k in games if k != first)]  # every game the served table offers
        assert set(keys) == set(installed_keys()) and len(keys) >= 2
        host = Watcher(served.base, served.host_token)
        viewer = Watcher(served.base)
        viewer.wait_for("state", lambda d: d["state_id"] >= 1)  # the first game plays
        for key in [*keys[1:], first]:  # through every other game, and back
            ack = start(host, served, setup_of(games[key]))
            assert ack["ok"], ack
            new = ack["session"]
            sessions[new] = key
            # plays on by the camera (a snapshot's log, a change's log_added): a game's opening
            # chance moves (France 1429 deals a Lord to each seat) are confirmed for the host and
            # may take the first states by themselves
            played = viewer.wait_for("state", lambda d, n=new: d["session"] == n and any(
                e["source"] == CAMERA for e in d.get("log", d.get("log_added", []))
            ))  # fmt: skip
            assert played["game"] == key
            # the parts were built for this game, and nothing is wrong with them
            told = host.wait_for("host", lambda d, k=key: d.get("parts_game") == k)
            assert told["problems"] == [], told["problems"]
        for client in (host, viewer):
            client.close()
    finally:
        served.stop(signal.SIGTERM)
    # no part failed on a game it was not built for (the camera's thread, say)
    assert "Traceback" not in served.log, served.log
    store = EventStore(db)
    try:
        for session, key in sessions.items():
            row = store.session(session)
            assert row is not None and row.header.game == key
            # the camera read the new game's table (no move-level table stood in for it)
            assert any(e.source == CAMERA for e in store.events(session)), key
    finally:
        store.close()
