"""The Socket.IO contract through Flask-SocketIO's test client (docs/protocol.md)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask_socketio import SocketIOTestClient
from srv_support import SEATS, open_referee, play_table_moves

from bridge.referee import MAX_INTENT_BYTES, Referee
from bridge.web.app import WebConfig, WebTable


@pytest.fixture
def web(tmp_path: Path) -> Iterator[WebTable]:
    referee = open_referee(tmp_path / "t.db")
    play_table_moves(referee)  # rows, event cards and order laid: the first seat must place
    yield WebTable(referee, WebConfig())
    referee.store.close()


def connect(web: WebTable, token: str | None = None, **extra: Any) -> SocketIOTestClient:
    auth = {"token": token, **extra} if token is not None else (extra or None)
    return web.socketio.test_client(web.app, auth=auth)


def seat_client(web: WebTable, seat: str) -> SocketIOTestClient:
    return connect(web, web.referee.row.tokens.seats[seat])


def events(client: SocketIOTestClient, name: str) -> list[Any]:
    return [m["args"][0] for m in client.get_received() if m["name"] == name]


def received(client: SocketIOTestClient) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for m in client.get_received():
        out.setdefault(m["name"], []).append(m["args"][0])
    return out


def to_act(referee: Referee) -> str:
    (seat,) = referee.game.to_act(referee.session.state)
    return str(seat)


def legal_json(referee: Referee) -> dict[str, Any]:
    prompt = referee.current().prompts[to_act(referee)]
    move: dict[str, Any] = prompt["prompts"][0]["moves"][0]["move"]
    return move


def test_viewer_gets_public_state_only(web: WebTable) -> None:
    client = connect(web)
    got = received(client)
    (state,) = got["state"]
    assert state["state_id"] == web.referee.state_id
    assert state["game"] == "middle-ages"
    assert "you" not in state["view"] and state["view"]["rows"]
    assert "seat_state" not in got and "prompt" not in got and "host" not in got


def test_seat_gets_its_own_private_view_and_prompt(web: WebTable) -> None:
    seat = to_act(web.referee)
    got = received(seat_client(web, seat))
    assert got["state"][0]["state_id"] == web.referee.state_id
    (mine,) = got["seat_state"]
    assert mine["seat"] == seat and mine["view"]["you"] == seat
    (prompt,) = got["prompt"]
    assert prompt["seat"] == seat and prompt["your_turn"]
    assert prompt["prompts"][0]["moves"][0]["label"]
    assert got["welcome"] == [{"role": "seat", "seat": seat}]
    assert "host" not in got  # join links (other seats' tokens) go to the host only


def test_forged_and_wrong_role_tokens_are_refused(web: WebTable) -> None:
    forged = connect(web, "x" * 22)
    assert not forged.is_connected()
    assert not connect(web, 12345).is_connected()  # type: ignore[arg-type]
    client = web.app.test_client()
    assert client.get("/s/not-a-token").status_code == 403
    assert client.get(f"/host/{web.referee.row.tokens.seats['blue']}").status_code == 403
    assert client.get(f"/s/{web.referee.row.tokens.host}").status_code == 403
    assert client.get(f"/s/{web.referee.row.tokens.seats['blue']}").status_code == 200


def test_host_receives_join_links_with_qr_codes(web: WebTable) -> None:
    got = received(connect(web, web.referee.row.tokens.host))
    (host,) = got["host"]
    assert set(host["links"]) == set(SEATS)
    for seat, link in host["links"].items():
        assert link["url"].endswith(web.referee.row.tokens.seats[seat])
        assert link["qr_svg"].startswith("<svg")


def test_a_move_reaches_every_room_and_private_views_stay_private(web: WebTable) -> None:
    seat = to_act(web.referee)
    other = next(s for s in SEATS if s != seat)
    actor, bystander, viewer = seat_client(web, seat), seat_client(web, other), connect(web)
    for c in (actor, bystander, viewer):
        c.get_received()
    before = web.referee.state_id
    intent = {"state_id": before, "kind": "move", "move": legal_json(web.referee)}
    ack = actor.emit("intent", intent, callback=True)
    assert ack == {"ok": True, "kind": "accepted", "state_id": before + 1}
    for c in (actor, bystander, viewer):
        got = received(c)
        assert [s["state_id"] for s in got["state"]] == [before + 1]
    got = received(bystander)  # already drained above; check routing on the next change
    assert got == {}
    # the bystander's room never carries the actor's seat_state or prompt
    web.referee.observe("test", legal_json(web.referee))
    for c, me in ((actor, seat), (bystander, other)):
        got = received(c)
        assert {s["seat"] for s in got["seat_state"]} == {me}
        assert {p["seat"] for p in got["prompt"]} == {me}
    assert "seat_state" not in received(viewer)


def test_stale_state_id_is_refused_and_changes_nothing(web: WebTable) -> None:
    seat = to_act(web.referee)
    client = seat_client(web, seat)
    client.get_received()
    before = web.referee.state_id
    move = legal_json(web.referee)
    ack = client.emit("intent", {"state_id": before - 1, "kind": "move", "move": move},
                      callback=True)  # fmt: skip
    assert ack["code"] == "state/stale" and not ack["ok"]
    assert ack["state_id"] == before and str(before) in ack["message"]
    got = received(client)
    assert [e["code"] for e in got["error"]] == ["state/stale"]
    assert "state" not in got
    assert web.referee.state_id == before


def test_illegal_move_gets_a_violation_with_rule_reference(web: WebTable) -> None:
    seat = to_act(web.referee)
    client = seat_client(web, seat)
    client.get_received()
    before = web.referee.state_id
    bad = {"kind": "place", "seat": seat, "slot": 9}
    ack = client.emit("intent", {"state_id": before, "kind": "move", "move": bad}, callback=True)
    assert ack["kind"] == "violation"
    (violation,) = events(client, "violation")
    assert violation["code"] and violation["ref"] and violation["message"]
    assert violation["violations"][0]["code"] == violation["code"]
    assert web.referee.state_id == before


def test_a_polish_phone_reads_its_refusals_in_polish(web: WebTable) -> None:
    """Issue 15, point 9: the language is the phone's, not the referee's (English here); the
    codes, rule references and data stay the same."""
    from engine.i18n import has_message, message

    seat = to_act(web.referee)
    client = connect(web, web.referee.row.tokens.seats[seat], lang="pl")
    client.get_received()
    before = web.referee.state_id
    bad = {"kind": "place", "seat": seat, "slot": 9}
    ack = client.emit("intent", {"state_id": before, "kind": "move", "move": bad}, callback=True)
    assert ack["kind"] == "violation"
    first = ack["violations"][0]
    scoped = f"middle-ages:{first['code']}"
    code = scoped if has_message(scoped) else first["code"]
    assert (
        ack["message"]
        == message(code, "pl", **first["params"])
        != message(code, "en", **first["params"])
    )
    (violation,) = events(client, "violation")
    assert violation["message"] == ack["message"]
    stale = client.emit("intent", {"state_id": before - 1, "kind": "move", "move": bad},
                        callback=True)  # fmt: skip
    assert stale["code"] == "state/stale"
    assert stale["message"] == message("state/stale", "pl", **stale["params"])
    assert stale["message"] != message("state/stale", "en", **stale["params"])
    assert web.referee.state_id == before


def test_a_seat_cannot_move_for_another_seat(web: WebTable) -> None:
    seat = to_act(web.referee)
    other = next(s for s in SEATS if s != seat)
    client = seat_client(web, other)
    move = legal_json(web.referee)
    ack = client.emit("intent", {"state_id": web.referee.state_id, "kind": "move", "move": move},
                      callback=True)  # fmt: skip
    assert ack["code"] == "auth/not-your-seat"


def test_viewer_cannot_act_and_host_can_override(web: WebTable) -> None:
    move = legal_json(web.referee)
    sid = web.referee.state_id
    viewer = connect(web)
    ack = viewer.emit("intent", {"state_id": sid, "kind": "move", "move": move}, callback=True)
    assert ack["code"] == "auth/no-seat"
    host = connect(web, web.referee.row.tokens.host)
    ack = host.emit("intent", {"state_id": sid, "kind": "move", "move": move}, callback=True)
    assert ack["ok"] and web.referee.state_id == sid + 1
    assert web.referee.store.events(web.referee.row.id)[-1].source == "host"


NESTED: Any = 1
for _ in range(40):
    NESTED = [NESTED]


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ("just a string", "intent/malformed"),
        (["state_id", 1], "intent/malformed"),
        (None, "intent/malformed"),
        ({"kind": "move"}, "intent/malformed"),
        ({"state_id": "7", "kind": "move"}, "intent/malformed"),
        ({"state_id": True, "kind": "move"}, "intent/malformed"),
        ({"state_id": 1.5, "kind": "move"}, "intent/malformed"),
        ({"state_id": "CUR", "kind": "dance"}, "intent/unknown-kind"),
        ({"state_id": "CUR", "kind": "move"}, "intent/invalid-move"),
        ({"state_id": "CUR", "kind": "move", "move": {"kind": "place"}}, "intent/invalid-move"),
        ({"state_id": "CUR", "kind": "move", "move": {"kind": "place", "seat": "blue",
                                                       "slot": "one"}}, "intent/invalid-move"),
        ({"state_id": "CUR", "kind": "move", "move": {"kind": "nuke"}}, "intent/invalid-move"),
        ({"state_id": "CUR", "kind": "move", "move": {"kind": "place", "seat": "blue",
                                                       "slot": 1, "extra": 1}},
         "intent/invalid-move"),
        ({"state_id": "CUR", "kind": "move", "pad": "x" * (MAX_INTENT_BYTES + 1)},
         "intent/too-large"),
        ({"state_id": "CUR", "kind": "move", "move": NESTED}, "intent/invalid-move"),
    ],
)  # fmt: skip
def test_bad_input_gets_a_clear_error_and_changes_nothing(
    web: WebTable, payload: Any, code: str
) -> None:
    seat = to_act(web.referee)
    client = seat_client(web, seat)
    client.get_received()
    before = web.referee.state_id
    if isinstance(payload, dict) and payload.get("state_id") == "CUR":
        payload = {**payload, "state_id": before}
    ack = client.emit("intent", payload, callback=True)
    assert not ack["ok"] and ack["code"] == code, ack
    assert ack["message"] and "{" not in ack["message"].split(":")[0]
    got = received(client)
    assert [e["code"] for e in got["error"]] == [code]
    assert "state" not in got
    assert web.referee.state_id == before
    assert len(web.referee.store.events(web.referee.row.id)) == before


def test_unknown_event_gets_an_error(web: WebTable) -> None:
    client = connect(web)
    client.get_received()
    ack = client.emit("explode", {"x": 1}, callback=True)
    assert ack["code"] == "intent/unknown-event"


def test_undo_own_move_and_host_undo_but_not_another_seats(web: WebTable) -> None:
    referee = web.referee
    seat = to_act(referee)
    other = next(s for s in SEATS if s != seat)
    mine, theirs = seat_client(web, seat), seat_client(web, other)
    sid = referee.state_id
    state_before = referee.session.state
    assert mine.emit("intent", {"state_id": sid, "kind": "move", "move": legal_json(referee)},
                     callback=True)["ok"]  # fmt: skip
    ack = theirs.emit("intent", {"state_id": sid + 1, "kind": "undo"}, callback=True)
    assert ack["kind"] == "violation" and ack["code"] == "undo/not-yours"
    mine.get_received()
    ack = mine.emit("intent", {"state_id": sid + 1, "kind": "undo"}, callback=True)
    assert ack["ok"] and referee.state_id == sid + 2
    assert referee.session.state == state_before
    (state,) = events(mine, "state")  # a change: the log as a delta, not the whole tail
    assert not state["snapshot"] and "log" not in state
    (entry,) = state["log_added"]
    assert entry["kind"] == "undo" and state["log_undone"] == [sid + 1] == [entry["undoes"]]
    full = referee.current().table  # what a (re)connecting client gets
    assert full["snapshot"] and full["log"][-1]["kind"] == "undo" and full["log"][-2]["undone"]
    host = connect(web, referee.row.tokens.host)
    ack = host.emit("intent", {"state_id": sid + 2, "kind": "undo"}, callback=True)
    assert ack["code"] == "undo/nothing"  # reveals cannot be taken back, not even by the host


def test_reconnecting_client_gets_a_snapshot(web: WebTable) -> None:
    seat = to_act(web.referee)
    client = seat_client(web, seat)
    client.get_received()
    web.referee.observe("test", legal_json(web.referee))
    client.get_received()
    ack = client.emit("sync", {"state_id": web.referee.state_id - 1}, callback=True)
    assert ack == {"ok": True, "state_id": web.referee.state_id, "changed": True}
    got = received(client)
    assert got["state"][0]["state_id"] == web.referee.state_id
    assert got["seat_state"][0]["seat"] == seat and "prompt" in got
    again = connect(web, web.referee.row.tokens.seats[seat], state_id=3)
    assert received(again)["state"][0]["state_id"] == web.referee.state_id


def test_roll_is_broadcast_to_the_table_room(web: WebTable) -> None:
    viewer = connect(web)
    viewer.get_received()
    assert web.referee.roll("dice-tower-1", {"device": "tower-1", "values": [3, 5]}).ok
    (roll,) = events(viewer, "roll")
    assert roll["values"] == [3, 5] and roll["device"] == "tower-1"
    assert web.referee.roll("x", {"device": "t", "values": [0]}).code == "roll/malformed"


def test_illegal_observation_is_reported_to_the_seat_and_table(web: WebTable) -> None:
    seat = to_act(web.referee)
    client, viewer = seat_client(web, seat), connect(web)
    client.get_received()
    viewer.get_received()
    before = web.referee.state_id
    outcome = web.referee.observe("camera", {"kind": "place", "seat": seat, "slot": 9})
    assert outcome.kind == "violation"
    assert events(client, "violation")[0]["code"] == outcome.violations[0]["code"]
    assert events(viewer, "violation")
    assert web.referee.state_id == before


def test_a_pushed_violation_and_confirm_reach_each_phone_in_its_own_language(
    web: WebTable,
) -> None:
    """Issue 15, point 9: what the referee pushes unasked (a violation the camera saw, the
    camera's request to confirm) reaches an English and a Polish client of the same table, and
    two phones of the same seat, each in its own language; codes and data stay the same."""
    from bridge.referee import Notice
    from engine.i18n import message, violation_text
    from engine.violations import Violation

    seat = to_act(web.referee)
    token = web.referee.row.tokens.seats[seat]
    clients = {
        ("seat", "en"): connect(web, token, lang="en"),
        ("seat", "pl"): connect(web, token, lang="pl"),
        ("viewer", "en"): connect(web, lang="en"),
        ("viewer", "pl"): connect(web, lang="pl"),
    }
    for client in clients.values():
        client.get_received()
    outcome = web.referee.observe("camera", {"kind": "place", "seat": seat, "slot": 9})
    assert outcome.kind == "violation"
    first = outcome.violations[0]
    english = outcome.violations[0]["message"]
    polish = violation_text(
        Violation(first["code"], first["ref"], dict(first["params"]), first["game"]), "pl"
    )
    assert polish != english
    params = {"count": 2, "pieces": "lord"}
    web.referee.announce(
        Notice(
            "confirm",
            {
                "code": "camera/ambiguous",
                "message": message("camera/ambiguous", **params),
                "params": params,
                "candidates": [["a"], ["b"]],
            },
            None,
            {
                lang: {"message": message("camera/ambiguous", lang, **params)}
                for lang in ("en", "pl")
            },
        )
    )
    for (role, lang), client in clients.items():
        got = received(client)
        expected = polish if lang == "pl" else english
        # a seat's phones get it twice (their seat's room and the table's), a viewer once
        assert [v["message"] for v in got["violation"]] == [expected] * (2 if role == "seat" else 1)
        assert all(
            v["code"] == first["code"] and v["ref"] == first["ref"] for v in got["violation"]
        )
        assert got["violation"][0]["violations"][0]["message"] == expected
        (confirm,) = got["confirm"]
        assert confirm["message"] == message("camera/ambiguous", lang, **params)
        assert confirm["code"] == "camera/ambiguous" and confirm["candidates"] == [["a"], ["b"]]
    assert message("camera/ambiguous", "pl", **params) != message(
        "camera/ambiguous", "en", **params
    )


def test_pages_and_security_headers(web: WebTable) -> None:
    client = web.app.test_client()
    page = client.get("/")
    assert page.status_code == 200 and b"table.js" in page.data
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]
    assert page.headers["Referrer-Policy"] == "no-referrer"
    assert client.get("/static/vendor/socket.io.min.js").status_code == 200
    labels = client.get("/api/ui").get_json()
    assert labels["ui/undo"] == "Undo"
    assert client.get("/healthz").get_json()["state_id"] == web.referee.state_id


def test_a_page_asks_for_its_labels_in_polish_and_gets_plural_entries_whole(web: WebTable) -> None:
    client = web.app.test_client()
    polish = client.get("/api/ui?lang=pl").get_json()
    assert polish["ui/undo"] == "Cofnij"
    assert polish["ui/device-errors"] == {
        "$n": "errors",
        "one": "{errors} błąd",
        "few": "{errors} błędy",
        "many": "{errors} błędów",
        "other": "{errors} błędu",
    }
    assert client.get("/api/ui?lang=xx").get_json() == client.get("/api/ui").get_json()
