"""The host's "start" (a new game at the table) and the `state` deltas (docs/protocol.md).

Handler tests through Flask-SocketIO's test client, then one real ``herald serve``: start a new
game over a websocket, see the simulated table play it, and resume it after a restart.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask_socketio import SocketIOTestClient
from srv_support import (
    SEATS,
    WAIT,
    Recorder,
    Served,
    Watcher,
    open_referee,
    play_moves,
    play_table_moves,
    serve,
)

from bridge.referee import Principal, Referee
from bridge.simtable import SimConfig, SimTable
from bridge.store import EventStore
from bridge.web.app import WebConfig, WebTable
from bridge.web.follow import StateFollower
from engine.game import TABLE


@pytest.fixture
def web(tmp_path: Path) -> Iterator[WebTable]:
    referee = open_referee(tmp_path / "t.db")
    play_table_moves(referee)
    yield WebTable(referee, WebConfig())
    referee.store.close()


def connect(web: WebTable, token: str | None = None) -> SocketIOTestClient:
    client = web.socketio.test_client(web.app, auth={"token": token} if token else None)
    assert client.is_connected()
    client.get_received()  # the connect snapshot
    return client


def received(client: SocketIOTestClient) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for m in client.get_received():
        out.setdefault(m["name"], []).append(m["args"][0])
    return out


def status(referee: Referee, session: int) -> str:
    row = referee.store.session(session)
    assert row is not None
    return row.status


def test_host_start_begins_a_new_session_and_keeps_the_phones_joined(web: WebTable) -> None:
    referee = web.referee
    old, tokens = referee.row.id, referee.row.tokens
    seat = SEATS[0]
    host = connect(web, tokens.host)
    phone, viewer = connect(web, tokens.seats[seat]), connect(web)
    events_before = len(referee.store.events(old))
    assert events_before == referee.state_id > 0

    ack = host.emit("intent", {"state_id": referee.state_id, "kind": "start"}, callback=True)
    new = referee.row.id
    assert ack == {"ok": True, "kind": "accepted", "state_id": 0, "session": new} and new != old
    assert referee.state_id == 0 and status(referee, old) == "closed"
    assert status(referee, new) == "open" and referee.store.events(new) == []
    assert len(referee.store.events(old)) == events_before  # the old game's log is kept
    assert referee.row.tokens == tokens and referee.row.header.players == SEATS

    for client in (host, phone, viewer):  # everyone gets the new game as a full snapshot
        (state,) = received(client)["state"]
        assert state["session"] == new and state["state_id"] == 0 and state["snapshot"]
        assert state["log"] == [] and state["coins_by_round"] == {} and state["view"]["rows"]
    # the phone stays connected and its token still authenticates, on the socket and the page
    assert phone.is_connected()
    assert referee.authenticate(tokens.seats[seat]) == Principal("seat", seat)
    again = web.socketio.test_client(web.app, auth={"token": tokens.seats[seat]})
    assert again.is_connected()
    snap = {m["name"]: m["args"][0] for m in again.get_received()}
    assert snap["state"]["session"] == new and snap["seat_state"]["session"] == new
    assert snap["prompt"]["session"] == new and snap["prompt"]["state_id"] == 0
    assert web.app.test_client().get(f"/s/{tokens.seats[seat]}").status_code == 200
    assert web.app.test_client().get("/healthz").get_json()["session"] == new


def test_phone_sees_state_seat_state_and_prompt_of_the_new_session(web: WebTable) -> None:
    tokens = web.referee.row.tokens
    phone, host = connect(web, tokens.seats["blue"]), connect(web, tokens.host)
    assert host.emit("intent", {"state_id": web.referee.state_id, "kind": "start"},
                     callback=True)["ok"]  # fmt: skip
    got = received(phone)
    new = web.referee.row.id
    assert [(s["session"], s["state_id"]) for s in got["state"]] == [(new, 0)]
    assert [(s["session"], s["seat"]) for s in got["seat_state"]] == [(new, "blue")]
    assert [(p["session"], p["state_id"]) for p in got["prompt"]] == [(new, 0)]


@pytest.mark.parametrize("who", ["seat", "viewer"])
def test_only_the_host_may_start_and_a_refusal_changes_nothing(web: WebTable, who: str) -> None:
    referee = web.referee
    session, sid = referee.row.id, referee.state_id
    client = connect(web, referee.row.tokens.seats["green"] if who == "seat" else None)
    ack = client.emit("intent", {"state_id": sid, "kind": "start"}, callback=True)
    assert not ack["ok"] and ack["code"] == "auth/host-only"
    assert "host" in ack["message"] and "{" not in ack["message"]
    got = received(client)
    assert [e["code"] for e in got["error"]] == ["auth/host-only"] and "state" not in got
    assert referee.row.id == session and referee.state_id == sid
    assert [r.id for r in referee.store.sessions()] == [session]


def test_a_stale_start_is_refused(web: WebTable) -> None:
    referee = web.referee
    session, sid = referee.row.id, referee.state_id
    host = connect(web, referee.row.tokens.host)
    ack = host.emit("intent", {"state_id": sid - 1, "kind": "start"}, callback=True)
    assert ack["code"] == "state/stale" and referee.row.id == session and referee.state_id == sid
    assert status(referee, session) == "open"


def test_a_finished_game_stays_over_and_the_simulated_table_plays_the_new_one(
    tmp_path: Path,
) -> None:
    referee = open_referee(tmp_path / "s.db")
    play_moves(referee, 10_000)
    assert referee.is_over()
    old = referee.row.id
    sim = SimTable(referee, SimConfig(mode="all", seed=5))
    referee.attach(sim)
    assert referee.intent(Principal("host"), {"state_id": referee.state_id, "kind": "start"}).ok
    assert status(referee, old) == "over" and referee.state_id == 0
    assert sim.step() and sim.step() and referee.state_id == 2  # the same driver plays on
    assert [e.seq for e in referee.store.events(referee.row.id)] == [1, 2]


def test_the_change_deltas_merged_equal_the_snapshot(tmp_path: Path) -> None:
    """What common.js does: merge each broadcast change into the last snapshot (the view by its
    patch, the log, coins and income by their deltas)."""
    referee = open_referee(tmp_path / "d.db")
    log: list[dict[str, Any]] = []
    coins: dict[str, Any] = {}
    income = referee.current().table["income"]
    follower = StateFollower()
    follower.follow(referee.current().table)
    host = Principal("host")
    published = Recorder()  # every update, the moves the referee makes itself too
    referee.attach(published)
    for step in range(120):
        sid = referee.state_id
        published.updates.clear()
        if step % 7 == 6 and referee.intent(host, {"state_id": sid, "kind": "undo"}).ok:
            pass
        elif not play_moves(referee, 1, seed=step):
            break
        for n, update in enumerate(published.updates, start=1):
            change = update.change
            assert change["state_id"] == sid + n and not change["snapshot"]
            assert {"state_id", "game", "view_patch"} <= set(change) and "log" not in change
            whole = follower.follow(change)
            assert whole is not None and whole["view"] == update.table["view"]
            undone = set(change["log_undone"])
            log = [{**e, "undone": True} if e["seq"] in undone else e for e in log]
            log = (log + change["log_added"])[-40:]
            coins.update(change["coins_changed"])
            income.update(change["income_changed"])
        assert published.updates and referee.state_id == sid + len(published.updates)
        full = referee.current().table
        assert log == full["log"] and coins == full["coins_by_round"]
        assert income == full["income"]
    assert any(e["kind"] == "undo" for e in log)
    assert any(e["amount"] for lines in income.values() for e in lines)


def test_start_then_resume_in_a_real_server(tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    served = serve(db, "--sim", "table", "--move-delay", "0.05")
    try:
        viewer = Watcher(served.base)
        host = Watcher(served.base, served.host_token)
        phone = Watcher(served.base, served.token("blue"))
        # the simulated table plays chance only: once a seat is to act, nothing moves until
        # someone does, so the state the start names is the current one
        idle = viewer.wait_for("state", lambda d: bool(d["to_act"]) and TABLE not in d["to_act"])
        old, sid = idle["session"], idle["state_id"]
        assert sid > 0
        refused = phone.client.call("intent", {"state_id": sid, "kind": "start"}, timeout=WAIT)
        assert refused["code"] == "auth/host-only"
        ack = host.client.call("intent", {"state_id": sid, "kind": "start"}, timeout=WAIT)
        assert ack["ok"] and ack["state_id"] == 0 and ack["session"] != old, ack
        new = ack["session"]
        # every client gets the new game, and the simulated table plays it (rising state_id)
        viewer.wait_for("state", lambda d: d["session"] == new)
        # the first state of the new game (the simulated table may have moved on since: the
        # latest one need not be the first, so take the first that arrived)
        first = next(d for d in viewer.of("state") if d["session"] == new)
        assert first["snapshot"] and first["log"] == [] and first["state_id"] == 0
        viewer.wait_for("state", lambda d: d["session"] == new and d["state_id"] >= 2)
        assert phone.wait_for("seat_state", lambda d: d["session"] == new)["seat"] == "blue"
        assert phone.client.connected and served.health()["session"] == new
        for client in (viewer, host, phone):
            client.close()
    finally:
        served.stop(signal.SIGTERM)
    store = EventStore(db)
    statuses = {r.id: r.status for r in store.sessions("t1")}
    made = len(store.events(new))
    store.close()
    assert statuses == {old: "closed", new: "open"} and made >= 2
    resumed: Served = serve(db, "--resume", "--sim", "off")
    try:
        health = resumed.health()
        assert health["session"] == new and health["state_id"] == made
        assert resumed.token("blue") == served.token("blue")  # the same join links
        assert resumed.host_token == served.host_token
    finally:
        resumed.stop()


def test_a_restart_comes_back_to_the_game_the_host_chose(tmp_path: Path) -> None:
    """``make run`` names no game, only a default: after the host switched the table to another
    game in the browser, a restart resumes that game instead of refusing to start."""
    from bridge.store import open_store
    from engine import get_game

    db = tmp_path / "switched.db"
    store = open_store(db)
    chosen = Referee.open(store, get_game("glory"), "t1", SEATS, {"data": "stand-in"})
    session = chosen.row.id
    store.close()
    served = serve(db, "--default-game", "middle-ages", "--sim", "off")
    try:
        health = served.health()
        assert health["game"] == "glory" and health["session"] == session
        assert "Resumed session" in served.output
    finally:
        served.stop()
    fresh = serve(tmp_path / "fresh.db", "--default-game", "middle-ages", "--sim", "off")
    try:
        assert fresh.health()["game"] == "middle-ages"
    finally:
        fresh.stop()
