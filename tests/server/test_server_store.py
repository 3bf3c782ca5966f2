"""The event store and the referee core: durability settings, resume equals replay, publication.

Tests taking ``store_target`` run on both backends: an SQLite file and a real PostgreSQL
(tests/server/conftest.py)."""

from __future__ import annotations

import ast
import dataclasses
import json
from pathlib import Path

import pytest
from srv_support import SEATS, Recorder, open_referee, play_moves, play_table_moves

from bridge import autopass, store_pg, store_sql
from bridge.referee import Principal, Referee
from bridge.store import EventStore, StoreError, open_store
from engine import codec, get_game, log
from engine.game import HOST

BRIDGE = Path(__file__).resolve().parents[2] / "bridge"


def replayed(referee: Referee) -> log.Session:
    """A fresh replay of everything the store holds for the referee's session."""
    game = referee.game
    stored = referee.store.events(referee.row.id)
    return log.replay(game, referee.row.header, [log.decode_event(game, e.payload) for e in stored])


def test_store_is_wal_with_full_sync(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "s.db")
    assert store.pragma("journal_mode") == "wal"
    assert store.pragma("synchronous") == 2  # FULL
    store.close()


def test_append_refuses_gaps_and_overwrites(store_target: str) -> None:
    referee = open_referee(store_target)
    play_table_moves(referee)
    n = referee.state_id
    event = log.Event("undo", by="host")
    with pytest.raises(StoreError):
        referee.store.append(referee.row.id, n + 2, "test", event, n + 2)
    with pytest.raises(StoreError):
        referee.store.append(referee.row.id, n, "test", event, n)
    assert [e.seq for e in referee.store.events(referee.row.id)] == list(range(1, n + 1))


def test_a_non_store_file_is_refused(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError):
        EventStore(junk)


def test_events_carry_seq_time_source_kind_payload_state_id(store_target: str) -> None:
    referee = open_referee(store_target)
    play_moves(referee, 12)
    stored = referee.store.events(referee.row.id)
    assert [e.seq for e in stored] == [e.state_id for e in stored] == list(range(1, 13))
    assert {e.source for e in stored} == {"simtable"} and {e.kind for e in stored} == {"move"}
    assert all(e.time > 0 and e.payload["kind"] == "move" for e in stored)


def test_snapshot_roundtrip_keeps_the_undo_chain(store_target: str) -> None:
    referee = open_referee(store_target)
    play_moves(referee, 9)
    session = referee.session
    data = json.loads(json.dumps(log.to_snapshot(session)))
    back = log.from_snapshot(referee.game, session.header, data)
    assert back.state == session.state and back.state_id == session.state_id
    undo = log.Event("undo", by="host")
    if session.undo_chain is not None:
        assert log.accept(back, undo).state == log.accept(session, undo).state


@pytest.mark.parametrize("moves", [0, 7, 25, 26, 51, 200])
def test_resume_restores_exactly_what_a_fresh_replay_gives(store_target: str, moves: int) -> None:
    db = store_target
    referee = open_referee(db, snapshot_every=25)
    while referee.state_id < moves and play_moves(referee, 1):
        pass  # a move a seat was left no choice in makes itself after one (issue 25, point 6)
    made = referee.state_id
    assert made >= moves or referee.is_over()
    live = referee.session
    live_view = referee.current().table
    referee.store.close()
    store = open_store(db)
    row = store.session(referee.row.id)
    assert row is not None and (row.status == "over") == referee.is_over()
    resumed = Referee(referee.game, store, row, snapshot_every=25)
    fresh = replayed(resumed)
    assert resumed.state_id == live.state_id == fresh.state_id == made
    assert resumed.session.state == live.state == fresh.state
    assert codec.encode(resumed.session.state) == codec.encode(fresh.state)
    assert resumed.current().table["log"] == live_view["log"]
    assert resumed.current().table["coins_by_round"] == live_view["coins_by_round"]
    # undo behaves the same after the resume as it would have before the crash
    # the host's undo first takes back the moves that made themselves on top (bridge/autopass.py)
    on_top = referee.presenter.auto_on_top(live)
    plan = (autopass.undo_plan(live, HOST, on_top) if on_top else None) or [HOST]
    try:
        expected = live
        for by in plan:
            expected = log.accept(expected, log.Event("undo", by=by))
        expected_state = expected.state
    except ValueError:
        expected_state = None
    outcome = resumed.intent(Principal("host"), {"state_id": made, "kind": "undo"})
    assert (resumed.session.state if outcome.ok else None) == expected_state


def test_open_resumes_by_default_new_closes_and_resume_requires_a_session(
    store_target: str,
) -> None:
    db = store_target
    with pytest.raises(LookupError):
        open_referee(db, resume=True)
    first = open_referee(db)
    play_moves(first, 3)
    again = open_referee(db)
    assert again.resumed and not first.resumed
    assert again.row.id == first.row.id and again.state_id == 3
    assert again.row.tokens == first.row.tokens  # phones' links survive a restart
    fresh = open_referee(db, resume=False)
    assert fresh.row.id != first.row.id and fresh.state_id == 0
    statuses = {r.id: r.status for r in fresh.store.sessions()}
    assert statuses[first.row.id] == "closed" and statuses[fresh.row.id] == "open"
    assert fresh.row.tokens != first.row.tokens


def test_a_whole_game_through_the_observation_path(store_target: str) -> None:
    referee = open_referee(store_target)
    recorder = Recorder()
    referee.attach(recorder)
    made = play_moves(referee, 10_000)
    assert referee.is_over()
    # one update per event, in order: the simulated table's moves and those that made themselves
    auto = [e for e in referee.store.events(referee.row.id) if e.source == autopass.SOURCE]
    assert referee.state_id == made + len(auto)
    assert [u.state_id for u in recorder.updates] == list(range(1, referee.state_id + 1))
    assert referee.store.session(referee.row.id).status == "over"  # type: ignore[union-attr]
    assert replayed(referee).state == referee.session.state
    final = recorder.updates[-1]
    assert final.table["over"] and set(final.seats) == set(SEATS)
    rounds = final.table["coins_by_round"]
    assert set(range(1, 17)) <= set(map(int, rounds))


def test_refused_input_publishes_nothing(store_target: str) -> None:
    referee = open_referee(store_target)
    play_table_moves(referee)
    recorder = Recorder()
    referee.attach(recorder)
    sid = referee.state_id
    seat = referee.game.to_act(referee.session.state)[0]
    bad = [
        referee.intent(Principal("seat", seat), {"state_id": sid - 1, "kind": "undo"}),
        referee.intent(Principal("seat", seat), "nonsense"),
        referee.observe("camera", {"kind": "place", "seat": seat, "slot": 99}),
        referee.observe("camera", {"kind": "???"}),
        referee.observe("camera", {"kind": "place", "seat": seat, "slot": 1}, state_id=sid + 5),
    ]
    assert [o.kind for o in bad] == ["error", "error", "violation", "error", "error"]
    assert recorder.updates == [] and referee.state_id == sid
    assert [n.event for n in recorder.notices] == ["violation", "violation"]


def test_tokens_are_unguessable_and_distinct(store_target: str) -> None:
    referee = open_referee(store_target)
    tokens = [referee.row.tokens.host, *referee.row.tokens.seats.values()]
    assert len(set(tokens)) == len(tokens) == 4
    assert all(len(t) >= 22 for t in tokens)
    assert referee.authenticate(tokens[0]) == Principal("host")
    assert referee.authenticate(tokens[1][:-1] + "A") in (None, Principal("seat", "blue"))
    assert referee.authenticate("") is None and referee.authenticate(None) is None


def test_resuming_a_session_of_another_game_is_refused(store_target: str) -> None:
    db = store_target
    referee = open_referee(db)
    game = get_game("middle-ages")

    class Other:
        info = type("Info", (), {"key": "other-game"})()

    with pytest.raises(LookupError):
        Referee.open(referee.store, Other(), "t1", SEATS)  # type: ignore[arg-type]
    assert game.info.key == "middle-ages"


def test_both_backends_run_the_same_statements() -> None:
    """One query layer (issue #28): PostgreSQL's statements are SQLite's with ``%s`` for ``?``,
    but for the two places the databases differ (the new id, the session row lock)."""
    sqlite, pg = store_sql.Queries(), store_pg.QUERIES
    differ = {"insert_session", "lock_session"}
    for field in dataclasses.fields(store_sql.Queries):
        ours, theirs = getattr(sqlite, field.name), getattr(pg, field.name)
        assert theirs is None or "?" not in theirs, field.name
        if field.name not in differ:
            assert theirs == ours.replace("?", "%s"), field.name
    assert pg.insert_session == sqlite.insert_session.replace("?", "%s") + " RETURNING id"
    assert sqlite.lock_session is None and pg.lock_session is not None
    assert pg.lock_session.endswith("FOR UPDATE")


def test_the_store_modules_import_one_way() -> None:
    """No import cycle (issue #28): the backends import the query layer and the records, the
    query layer the records, and nothing imports the SQLite module back."""
    imported = {}
    for name in ("store", "store_pg", "store_sql", "store_records"):
        tree = ast.parse((BRIDGE / f"{name}.py").read_text(encoding="utf-8"))
        imported[name] = {
            node.module.removeprefix("bridge.")
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bridge.store")
        }
    assert imported == {
        "store": {"store_pg", "store_sql", "store_records"},
        "store_pg": {"store_sql", "store_records"},
        "store_sql": {"store_records"},
        "store_records": set(),
    }
