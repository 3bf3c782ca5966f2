"""The camera's question on the Socket.IO side (issue #25 point 2): a change the camera cannot
tell apart goes, once, to the table display and to the phone of the seat who must answer,
never to the other phones; it stays (a page connecting late gets it) until answered or
resolved; a wrong answer is refused and changes nothing.

France 1429 gives the question: a Lord set down in a Village two roads away reads as a March
along either road (docs/vision.md, "which road a stack came by"). The camera's picture is the
game's own layout (a perfect read); the vision pipeline's reading is tested elsewhere
(tests/bridge/test_camera_table.py, tests/conformance/test_camera_games.py).
"""

from __future__ import annotations

import functools
import random
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask_socketio import SocketIOTestClient

from bridge.camera import CameraConfig, CameraTable, open_camera_table, profile_seats
from bridge.game_files import camera_profile, placer
from bridge.referee import Referee
from bridge.store import EventStore
from bridge.web.app import WebConfig, WebTable
from engine import codec, registry
from engine.i18n import message
from vision.sim import lay_out
from vision.snapshot import TableSnapshot

pytestmark = pytest.mark.slow  # the search for its position: started first

KEY = "france1429"
GAME = registry.get_game(KEY)
PROFILE = camera_profile(KEY)
PLACE = placer(KEY, PROFILE)
SEATS = profile_seats(PROFILE)[:3]


def _picture(state: Any) -> TableSnapshot:
    """The table showing ``state``, as a perfect camera reads it."""
    return TableSnapshot.from_json(
        {"source": "camera", "time": 0.0, "observations": lay_out(PLACE(state), PROFILE)[1]}
    )


OPTIONS = {"data": "stand-in", "max_rounds": 3}


@functools.cache
def _path_to_a_two_road_march() -> tuple[tuple[Any, ...], Any]:
    """The seeded moves up to a March the table cannot tell from another, and that March:
    searched once for the module (each interpretation of each candidate March is costly), then
    replayed by each test's own referee."""
    with tempfile.TemporaryDirectory() as folder:
        referee = Referee.open(EventStore(Path(folder) / "s.db"), GAME, "t1", SEATS, OPTIONS)
        played: list[Any] = []
        march = _to_a_two_road_march(referee, played)
        referee.store.close()
    return tuple(played), march


def _to_a_two_road_march(referee: Referee, played: list[Any]) -> Any:
    """Play seeded moves through the referee up to a March the table cannot tell from another
    (two roads to the Village); that March. ``played`` gets every move played."""
    rng = random.Random(4)
    for _ in range(400):
        state = referee.session.state
        moves = GAME.legal_moves(state)
        for move in moves:
            if type(move).__name__ != "March" or not _by_another_road(state, move, moves):
                continue
            seen = lay_out(PLACE(GAME.apply_unchecked(state, move)), PROFILE)[1]
            kinds = {"component": "coverage", "attrs": {"kinds": ["lord", "maa", "knight"]}}
            verdict = GAME.interpret(state, [*seen, kinds])
            two = not verdict.moves and (move,) in verdict.candidates
            if two and len({c[0] for c in verdict.candidates}) > 1:  # not one move then a choice
                return move
        move = rng.choice(moves) if moves else GAME.sample_chance(state, rng)
        played.append(codec.encode(move))
        assert referee.observe("host", played[-1]).ok
    raise AssertionError("no two-road March in 400 moves")


def _by_another_road(state: Any, march: Any, moves: list[Any]) -> bool:
    """Whether ``march``'s Lord can also reach its Village by a March elsewhere and a second
    March on: only then can the table not tell the roads apart (asking the costly
    interpretation of every March took most of a minute)."""
    for first in moves:
        if type(first) is not type(march) or first.lord != march.lord or first.to == march.to:
            continue
        after = GAME.apply_unchecked(state, first)
        if any(type(m) is type(march) and m.lord == march.lord and m.to == march.to
               for m in GAME.legal_moves(after)):  # fmt: skip
            return True
    return False


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[WebTable, CameraTable, Any]]:
    referee = Referee.open(EventStore(tmp_path / "q.db"), GAME, "t1", SEATS, OPTIONS)
    moves, march = _path_to_a_two_road_march()
    for move in moves:
        assert referee.observe("host", move).ok
    camera = open_camera_table(referee, "camera-sim", CameraConfig(fps=0, confirm_s=0))
    referee.attach(camera)  # as CameraTable.start does: a new position resolves the question
    camera.reader.read(_picture(referee.session.state))  # the position, seen once
    yield WebTable(referee, WebConfig(), camera=camera), camera, march
    referee.store.close()


def _connect(web: WebTable, token: str | None = None, lang: str = "en") -> SocketIOTestClient:
    return web.socketio.test_client(web.app, auth={"token": token, "lang": lang} if token else {
        "lang": lang})  # fmt: skip


def _questions(client: SocketIOTestClient) -> list[dict[str, Any]]:
    return [m["args"][0] for m in client.get_received() if m["name"] == "question"]


def test_the_question_goes_once_to_the_table_and_the_asked_phone_only(
    table: tuple[WebTable, CameraTable, Any],
) -> None:
    web, camera, march = table
    referee = web.referee
    asked = GAME.actor(march)
    tokens = referee.row.tokens
    phones = {
        (s, lang): _connect(web, tokens.seats[s], lang) for s in SEATS for lang in ("en", "pl")
    }
    display, host = _connect(web, lang="pl"), _connect(web, tokens.host)
    for client in [*phones.values(), display, host]:
        client.get_received()
    before = referee.state_id
    picture = _picture(GAME.apply_unchecked(referee.session.state, march))
    reading = camera.reader.read(picture)
    camera.reader.read(picture)  # the same picture read again asks nothing new
    assert reading.asked == "camera/ambiguous" and referee.state_id == before
    for (seat, lang), phone in phones.items():
        got = _questions(phone)
        if seat != asked:
            assert got == []  # never to another phone
            continue
        (q,) = got
        assert q["open"] and q["seat"] == asked and q["answerable"]
        assert q["message"] == message("camera/ambiguous", lang, count=q["count"])
        assert len(q["choices"]) == q["count"] >= 2  # only what the camera could not tell apart
        assert all(c["labels"] for c in q["choices"])
    (on_display,) = _questions(display)
    assert on_display["open"] and on_display["seat"] == asked
    assert on_display["message"] == message("camera/ambiguous", "pl", count=on_display["count"])
    assert on_display["choices"] == [] and not on_display["answerable"]  # the seat answers
    (on_host,) = _questions(host)
    assert on_host["id"] == on_display["id"]

    late = _connect(web)  # a table display opened now sees the open question at once
    (again,) = _questions(late)
    assert again["id"] == on_display["id"] and again["open"]
    other = next(s for s in SEATS if s != asked)
    late_phone = _connect(web, tokens.seats[other])
    assert _questions(late_phone) == []


def test_an_answer_from_the_asked_phone_makes_the_move_and_closes_the_panel(
    table: tuple[WebTable, CameraTable, Any],
) -> None:
    web, camera, march = table
    referee = web.referee
    asked = GAME.actor(march)
    tokens = referee.row.tokens
    other = next(s for s in SEATS if s != asked)
    phone, other_phone, display = (
        _connect(web, tokens.seats[asked]),
        _connect(web, tokens.seats[other]),
        _connect(web),
    )
    camera.reader.read(_picture(GAME.apply_unchecked(referee.session.state, march)))
    (q,) = _questions(phone)
    display.get_received()
    other_phone.get_received()
    before = referee.state_id
    index = next(c["index"] for c in q["choices"]
                 if camera.reader.question.choices[c["index"]] == (march,))  # type: ignore[union-attr]  # fmt: skip

    refused = [
        other_phone.emit("answer", {"question": q["id"], "choice": index}, callback=True),
        display.emit("answer", {"question": q["id"], "choice": index}, callback=True),
        phone.emit("answer", {"question": q["id"], "choice": 99}, callback=True),
        phone.emit("answer", {"question": q["id"] + 1, "choice": index}, callback=True),
        phone.emit("answer", "yes", callback=True),
    ]
    assert [r["code"] for r in refused] == ["question/not-yours", "question/not-yours",
                                            "question/bad-choice", "question/closed",
                                            "question/closed"]  # fmt: skip
    assert referee.state_id == before and camera.reader.question is not None

    reply = phone.emit("answer", {"question": q["id"], "choice": index}, callback=True)
    assert reply["ok"] and referee.state_id == before + 1
    (event,) = referee.store.events(referee.row.id, before)
    assert event.source == f"seat:{asked}" and event.payload["move"] == codec.encode(march)
    for client in (phone, display):
        closed = [x for x in _questions(client) if not x["open"]]
        assert [(x["id"], x["why"]) for x in closed] == [(q["id"], "answered")]
    assert _questions(other_phone) == []
    again = phone.emit("answer", {"question": q["id"], "choice": index}, callback=True)
    assert again["code"] == "question/closed" and referee.state_id == before + 1


def test_a_move_made_on_the_phone_resolves_the_question(
    table: tuple[WebTable, CameraTable, Any],
) -> None:
    web, camera, march = table
    referee = web.referee
    asked = GAME.actor(march)
    display = _connect(web)
    camera.reader.read(_picture(GAME.apply_unchecked(referee.session.state, march)))
    (q,) = _questions(display)
    phone = _connect(web, referee.row.tokens.seats[asked])
    body = {"kind": "move", "move": codec.encode(march), "state_id": referee.state_id}
    assert phone.emit("intent", body, callback=True)["ok"]
    closed = [x for x in _questions(display) if not x["open"]]
    assert [(x["id"], x["why"]) for x in closed] == [(q["id"], "resolved")]
    assert camera.reader.question is None


class _Notices:
    """A transport keeping the camera's questions."""

    def __init__(self) -> None:
        self.questions: list[dict[str, Any]] = []

    def publish(self, update: Any) -> None:
        """States are not what this test reads."""

    def notice(self, notice: Any) -> None:
        if notice.event == "question":
            self.questions.append({**notice.payload, "to": notice.seat})


def test_a_change_seen_while_the_table_deals_waits_for_the_deal_then_asks(tmp_path: Path) -> None:
    """While the table has its own move to enter (a Lord card dealt: no seat acts), a change on
    the board is that move's, so the camera asks nothing and waits; once the deals are in and a
    seat is to act, a picture that still fits no move is asked about, once."""
    referee = Referee.open(EventStore(tmp_path / "w.db"), GAME, "t1", SEATS,
                           {"data": "stand-in", "max_rounds": 3})  # fmt: skip
    told = _Notices()
    referee.attach(told)
    camera = open_camera_table(referee, "camera-sim", CameraConfig(fps=0, confirm_s=0))
    referee.attach(camera)
    state = referee.session.state
    assert set(GAME.to_act(state)) == {"table"}
    camera.reader.read(_picture(state))
    seen = lay_out(PLACE(state), PROFILE)[1]
    extra = {"component": "knight:" + SEATS[0], "region": next(
        o["region"] for o in seen if o.get("region"))}  # fmt: skip
    wrong = TableSnapshot.from_json(
        {"source": "camera", "time": 1.0, "observations": [*seen, extra]}
    )
    reading = camera.reader.read(wrong)
    assert reading.asked == "" and told.questions == [] and camera.reader.waiting() is False
    rng = random.Random(2)
    while set(GAME.to_act(referee.session.state)) == {"table"}:  # the table enters its deals
        deal = GAME.sample_chance(referee.session.state, rng)
        assert referee.observe("host", codec.encode(deal)).ok
        assert camera.reader.waiting()
        assert camera.reader.retry() is None
        if set(GAME.to_act(referee.session.state)) == {"table"}:
            assert told.questions == []  # still the table's turn: still waiting
    (seat,) = GAME.to_act(referee.session.state)
    assert [(q["code"], q["open"], q["to"]) for q in told.questions] == [
        ("camera/unexplained", True, None),  # the table display
        ("camera/unexplained", True, seat),  # and the phone of the seat to act
    ]
    assert all(q["choices"] == [] for q in told.questions)
    assert camera.reader.retry() is None and len(told.questions) == 2  # asked once
    referee.store.close()
