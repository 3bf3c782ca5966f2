"""The server side of the table pages (issue 15): the host's setup of a new game, the table at a
past state, the export, each phone's own language, the score series the plot draws, and the
simulated table's new game after the end.

Handler tests through Flask-SocketIO's test client on a real referee and SQLite store.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask_socketio import SocketIOTestClient
from srv_support import SEATS, Watcher, open_referee, play_moves, play_table_moves, serve

from bridge.referee import Principal
from bridge.simtable import SimConfig, SimTable
from bridge.table_setup import SetupError, choices, read_setup, readable_ref
from bridge.web.app import WebConfig, WebTable
from engine import log
from engine.registry import game_keys, get_game


@pytest.fixture
def web(tmp_path: Path) -> Iterator[WebTable]:
    referee = open_referee(tmp_path / "t.db")
    play_table_moves(referee)
    yield WebTable(referee, WebConfig())
    referee.store.close()


def connect(web: WebTable, token: str | None = None, lang: str | None = None) -> SocketIOTestClient:
    auth: dict[str, Any] = {}
    if token:
        auth["token"] = token
    if lang:
        auth["lang"] = lang
    client = web.socketio.test_client(web.app, auth=auth or None)
    assert client.is_connected()
    return client


def received(client: SocketIOTestClient) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for m in client.get_received():
        out.setdefault(m["name"], []).append(m["args"][0])
    return out


def host_start(web: WebTable, setup: Any) -> dict[str, Any]:
    host = connect(web, web.referee.row.tokens.host)
    host.get_received()
    body = {"state_id": web.referee.state_id, "kind": "start", "setup": setup}
    reply: dict[str, Any] = host.emit("intent", body, callback=True)
    return reply


# --- setup from the host page ------------------------------------------------------------------


def test_setup_choices_list_every_registered_game_with_readable_rulebook_references() -> None:
    offered = choices()
    assert [g["key"] for g in offered["games"]] == list(game_keys())
    for game in offered["games"]:
        info = get_game(game["key"]).info
        assert (game["min_players"], game["max_players"]) == (info.min_players, info.max_players)
        assert [o["name"] for o in game["options"]] == [o.name for o in info.options]
        for option in game["options"]:  # a section and lines, never a stored file's id
            assert ".txt" not in option["ref"] and "rules/" not in option["ref"]
    assert readable_ref("rules/x.md §3.1 [001_35e9a710b093a69c.txt:L111-123]") == "§3.1 (L111-123)"


def test_the_host_sets_up_another_game_with_named_seats_and_the_phones_of_old_seats_drop(
    web: WebTable,
) -> None:
    referee = web.referee
    old_tokens = referee.row.tokens
    phone = connect(web, old_tokens.seats["blue"])
    other = next(k for k in game_keys() if k != referee.game.info.key)
    info = get_game(other).info
    named = [("red", "Ala"), ("teal", " Olek "), ("yellow", "Ewa"), ("purple", "Jan")]
    seats = [{"seat": c, "name": n} for c, n in named[: max(2, info.min_players)]]
    options = dict(info.simulations[0].options) if info.simulations else {}
    reply = host_start(web, {"game": other, "seats": seats, "options": options})
    assert reply["ok"] and reply["state_id"] == 0
    assert referee.game.info.key == other and referee.row.header.game == other
    assert referee.row.header.players == tuple(s["seat"] for s in seats)
    assert referee.row.tokens.host == old_tokens.host  # the host display stays
    assert set(referee.row.tokens.seats) == {s["seat"] for s in seats}
    assert referee.authenticate(old_tokens.seats["blue"]) is None
    assert not phone.is_connected()  # its token names no seat any more
    table = referee.current().table
    assert table["names"] == {s["seat"]: s["name"].strip() for s in seats}
    assert table["game"] == other and table["seats"] == [s["seat"] for s in seats]


@pytest.mark.parametrize(
    ("setup", "code"),
    [
        ("blue", "setup/malformed"),
        ({"game": "no-such-game", "seats": [], "options": {}}, "setup/unknown-game"),
        ({"game": "middle-ages", "seats": [{"seat": "blue"}], "options": {}}, "setup/players"),
        (
            {"game": "middle-ages", "seats": [{"seat": "blue"}, {"seat": "blue"}], "options": {}},
            "setup/colour-twice",
        ),
        (
            {"game": "middle-ages", "seats": [{"seat": "blue"}, {"seat": "mauve"}], "options": {}},
            "setup/colour",
        ),
        (
            {
                "game": "middle-ages",
                "seats": [{"seat": "blue", "name": "x" * 40}, {"seat": "pink"}],
                "options": {},
            },
            "setup/name",
        ),
        (
            {
                "game": "middle-ages",
                "seats": [{"seat": "blue"}, {"seat": "pink"}],
                "options": {"coin_debt": "forgive"},
            },
            "setup/option-value",
        ),
        (
            {
                "game": "middle-ages",
                "seats": [{"seat": "blue"}, {"seat": "pink"}],
                "options": {"house_rule": True},
            },
            "setup/option",
        ),
    ],
)
def test_a_bad_setup_is_refused_with_its_sentence_and_changes_nothing(
    web: WebTable, setup: Any, code: str
) -> None:
    referee = web.referee
    before = (referee.row.id, referee.state_id, referee.row.tokens)
    reply = host_start(web, setup)
    assert not reply["ok"] and reply["code"] == code and reply["message"]
    assert (referee.row.id, referee.state_id, referee.row.tokens) == before
    with pytest.raises(SetupError):
        read_setup(setup)


def test_names_survive_a_restart_of_the_server(web: WebTable) -> None:
    seats = [{"seat": "blue", "name": "Ala"}, {"seat": "green", "name": ""}]
    assert host_start(web, {"game": "middle-ages", "seats": seats, "options": {}})["ok"]
    referee = web.referee
    play_table_moves(referee)
    again = type(referee).open(referee.store, referee.game, referee.table_id, ("blue", "green"))
    assert again.resumed and again.current().table["names"] == {"blue": "Ala"}


# --- history and export ------------------------------------------------------------------------


def test_the_table_at_a_past_state_is_the_replayed_view(web: WebTable) -> None:
    referee = web.referee
    play_moves(referee, 12)
    viewer = connect(web)
    for n in (0, 3, referee.state_id):
        reply = viewer.emit("history", {"state_id": n}, callback=True)
        events = [log.decode_event(referee.game, e.payload) for e in referee.store.events(
            referee.row.id) if e.seq <= n]  # fmt: skip
        then = log.replay(referee.game, referee.row.header, events)
        assert reply["ok"] and reply["state_id"] == n and reply["current"] == referee.state_id
        expected = referee.game.view(then.state, None, "en")
        assert {k: reply["view"][k] for k in expected} == expected  # the board as it was
        totals = {r.seat: r.total for r in referee.game.score(then.state)}
        assert {s["seat"]: s["total"] for s in reply["view"]["scores"]} == totals  # scores then
    for bad in (-1, referee.state_id + 1, "3", None):
        reply = viewer.emit("history", {"state_id": bad}, callback=True)
        assert not reply["ok"] and reply["code"] == "history/no-state"


def test_the_host_exports_the_game_as_a_replayable_log(web: WebTable) -> None:
    referee = web.referee
    play_moves(referee, 8)
    client = web.app.test_client()
    assert client.get("/host/not-the-host/export").status_code == 403
    seat_token = referee.row.tokens.seats[SEATS[0]]
    assert client.get(f"/host/{seat_token}/export").status_code == 403
    got = client.get(f"/host/{referee.row.tokens.host}/export")
    assert got.status_code == 200 and "attachment" in got.headers["Content-Disposition"]
    header, *lines = got.get_data(as_text=True).splitlines()
    replayed = log.replay(
        referee.game,
        log.decode_header(json.loads(header)),
        (log.decode_event(referee.game, json.loads(x)) for x in lines),
    )
    assert replayed.state == referee.session.state and len(lines) == referee.state_id


# --- each phone its language -------------------------------------------------------------------


def test_a_phone_that_asks_for_polish_gets_its_prompt_and_view_in_polish(web: WebTable) -> None:
    referee = web.referee
    seat = referee.game.to_act(referee.session.state)[0]
    token = referee.row.tokens.seats[seat]
    polish, english = connect(web, token, "pl"), connect(web, token)
    got_pl, got_en = received(polish), received(english)
    text_pl = got_pl["prompt"][0]["prompts"][0]["text"]
    text_en = got_en["prompt"][0]["prompts"][0]["text"]
    assert text_pl != text_en and "Lord" in text_en
    assert "Lorda" in text_pl or "Lord" not in text_pl  # the Polish catalog's sentence
    # a move made elsewhere reaches each phone in its own language only
    move = got_en["prompt"][0]["prompts"][0]["moves"][0]["move"]
    outcome = referee.intent(Principal("seat", seat), {"state_id": referee.state_id,
                                                       "kind": "move", "move": move})  # fmt: skip
    assert outcome.ok
    after_pl, after_en = received(polish), received(english)
    assert len(after_pl["seat_state"]) == len(after_en["seat_state"]) == 1
    lines_pl = [x["text"] for r in after_pl["seat_state"][0]["view"]["scores"] for x in r["lines"]]
    lines_en = [x["text"] for r in after_en["seat_state"][0]["view"]["scores"] for x in r["lines"]]
    assert lines_pl != lines_en and any("Monety" in x for x in lines_pl)
    assert len(after_pl["state"]) == len(after_en["state"]) == 1  # one state each, no doubles
    (entry,) = after_pl["state"][0]["log_added"]  # the log carries each language's label
    assert entry["labels"]["en"] == entry["label"] and entry["labels"]["pl"] != entry["label"]


# --- the plot's series and the simulated table's next game -------------------------------------


def test_the_plot_series_is_the_games_own_score_after_each_change(tmp_path: Path) -> None:
    referee = open_referee(tmp_path / "p.db")
    play_moves(referee, 10_000)
    series = referee.current().table["score_by_move"]
    last = series[max(series, key=int)]
    assert last == {r.seat: r.total for r in referee.game.score(referee.session.state)}
    values = [series[k] for k in sorted(series, key=int)]
    assert all(a != b for a, b in itertools.pairwise(values))  # only changes kept
    referee.store.close()


def test_the_simulated_table_starts_a_new_game_a_little_after_the_end(tmp_path: Path) -> None:
    referee = open_referee(tmp_path / "r.db")
    play_moves(referee, 10_000)
    assert referee.is_over()
    old = referee.row.id
    never = SimTable(referee, SimConfig(mode="all", seed=5, restart_after=None))
    assert not never.step() and referee.row.id == old  # without the option: stays over
    sim = SimTable(referee, SimConfig(mode="all", seed=5, restart_after=0.0))
    assert sim.step() and sim.restarts == 1
    assert referee.row.id != old and referee.state_id == 0 and not referee.is_over()
    assert referee.row.header.players == SEATS and referee.row.tokens.seats.keys() == set(SEATS)
    referee.store.close()


def test_a_served_simulated_table_plays_the_next_game_after_the_end(tmp_path: Path) -> None:
    """``herald serve --restart-after``: a real server's simulated table finishes a game, waits,
    and starts the next one by itself (the viewer sees the new session begin at state 0)."""
    served = serve(tmp_path / "again.db", "--sim", "all", "--move-delay", "0",
                   "--restart-after", "0.5")  # fmt: skip
    try:
        viewer = Watcher(served.base)
        over = viewer.wait_for("state", lambda d: d["over"])
        viewer.wait_for("state", lambda d: d["session"] != over["session"])
        # the first state of the new session, not the latest: with no move delay the simulated
        # table may already have played on by the time the wait returns
        new = next(d for d in viewer.of("state") if d["session"] != over["session"])
        assert new["snapshot"] and new["state_id"] == 0 and not new["over"]
        viewer.close()
    finally:
        served.stop()
