"""Every game on Herald's reference Tabletop Simulator layout, end to end, through the game
contract alone: its camera layout (``capability(game, LAYOUT)``), its TTS profile
(``bridge.tts.profile``) and ``interpret``.

The reference layout (docs/tts.md) is the camera board laid on the TTS table at 1 unit = 20 mm,
centred; a piece is named by GM notes ``herald:<its sticker label>``, a card or tile by
``herald:<its art key without the game's prefix>`` (``gl:quest:gra`` → ``herald:quest:gra``).
A game whose profile is anchored to movable player boards is its own mod's layout, not this one
(tests/tts/test_tts_referee.py and test_tts_serve.py play it). How a mod's nicknames name the
pieces, and each game's own moves, are in tests/games/<key>/test_*_tts.py.

One game per key is played once (module-scoped) and every test reads positions of it; the
served test starts one ``herald serve --tts`` per game against the TTS stand-in.
"""

from __future__ import annotations

import json
import random
import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bridge.camera import profile_seats
from bridge.cli.tts import tts
from bridge.game_files import camera_profile, can_draw, placer, tts_profile_path
from bridge.referee import Referee
from bridge.store import EventStore
from bridge.tts.objects import TTSObject
from bridge.tts.profile import Profile, available_profiles, build_snapshot, load_profile
from bridge.web.follow import StateFollower
from engine import codec, present, registry
from engine import data as gamedata
from engine.game import Game
from engine.interpret import Interpretation
from engine.selfplay import setups
from tests.server.srv_support import join, live_client, serve
from tests.tts.tts_standin import TTSStandIn, free_port
from vision.sim import region_rects

MM_PER_UNIT = 20.0
"""The reference layout's scale: 1 TTS unit is 20 mm of the camera board."""
MOVES = 150
"""How far each game is played: every phase the tests need comes before (setup, first rounds)."""
TRIED = 6
"""Legal moves tried at a position where a kind of move first appears."""


def _reference(key: str) -> bool:
    """Whether the game's TTS profile is laid on fixed rectangles of the table (the reference
    layout), not on boards that move (anchors) or scripting zones."""
    path = tts_profile_path(key)
    if path is None or not can_draw(key):
        return False
    regions = json.loads(path.read_text(encoding="utf-8")).get("regions", [])
    return bool(regions) and all("zone" not in r and "anchor" not in r for r in regions)


GAMES = tuple(k for k in available_profiles() if _reference(k))


@dataclass(frozen=True)
class Step:
    """One move of the played game: the position before, the move, the position after."""

    index: int
    state: Any
    move: Any
    after: Any
    by_seat: bool


@dataclass(frozen=True)
class Played:
    """A game played once on its reference TTS table."""

    key: str
    game: Game[Any, Any]
    seats: tuple[str, ...]
    options: dict[str, Any]
    board: Any
    tts: Profile
    steps: tuple[Step, ...]

    def table(self, state: Any) -> list[dict[str, Any]]:
        """The TTS objects of ``state`` laid out on the reference layout (a live table's
        objects as the stand-in serves them)."""
        out: list[dict[str, Any]] = []
        for i, placed in enumerate(placer(self.key, self.board)(state)):
            x, y = placed.center
            if placed.kind == "sticker":
                notes = f"herald:{placed.key}"
            else:
                notes = "herald:" + placed.key.split(":", 1)[1]
            out.append({
                "guid": f"o{i}", "gm_notes": notes,
                "position": {"x": (x - self.board.width_mm / 2) / MM_PER_UNIT, "y": 1.0,
                             "z": (self.board.height_mm / 2 - y) / MM_PER_UNIT},
            })  # fmt: skip
        return out

    def seen(self, objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """What the TTS table source hands the rules for these objects (no coverage: a TTS
        table reports only the pieces it has, as ``bridge.tts.source`` does)."""
        tts_objects = [TTSObject.from_json(o) for o in objects]
        snapshot = build_snapshot(tts_objects, self.tts, time=0.0)
        return [o.to_json() for o in snapshot.observations]

    def read(self, state: Any, shown: Any) -> Interpretation:
        """The rules' reading, at ``state``, of a TTS table laid out as ``shown``."""
        return self.game.interpret(state, self.seen(self.table(shown)))

    def pieces(self, position: Any) -> Counter[str]:
        """The pieces the TTS table reports in its regions (a piece off every region is off
        the board)."""
        seen = self.seen(self.table(position))
        return Counter(
            json.dumps([o["component"], o["region"], o["attrs"]]) for o in seen if o["region"]
        )

    def shows(self, state: Any, after: Any) -> bool:
        """Whether the TTS table reports something else after the move (else a phone confirms
        it), and still some piece of every kind it showed: the TTS source declares no
        coverage, so a kind cleared off the table at once (every pawn home at the end of a
        phase) says nothing to the rules."""
        before, now = self.pieces(state), self.pieces(after)

        def kinds(pieces: Counter[str]) -> set[str]:
            return {json.loads(p)[0].split(":", 1)[0] for p in pieces}

        return before != now and kinds(before) <= kinds(now)

    def first_read(self) -> Step:
        """The first seat move the TTS table shows and the rules read as exactly that move."""
        for step in self.steps:
            if (
                step.by_seat
                and self.shows(step.state, step.after)
                and self.read(step.state, step.after).moves == (step.move,)
            ):
                return step
        raise AssertionError(f"{self.key}: no seat move of the played game is read")


def _play(key: str) -> Played:
    game = registry.get_game(key)
    board = camera_profile(key)
    setup = setups(game)[0]
    seats = profile_seats(board)[: setup.players]
    state = gamedata.setup(game, seats, setup.options)
    rng = random.Random(3)
    steps: list[Step] = []
    for i in range(MOVES):
        if game.is_over(state):
            break
        moves = game.legal_moves(state)
        move = rng.choice(moves) if moves else game.sample_chance(state, rng)
        after = game.apply_unchecked(state, move)
        steps.append(Step(i, state, move, after, bool(moves)))
        state = after
    return Played(key, game, seats, setup.options, board, load_profile(key), tuple(steps))


@pytest.fixture(
    scope="module",
    params=[pytest.param(k, marks=pytest.mark.xdist_group(f"tts-{k}")) for k in GAMES],
)
def played(request: pytest.FixtureRequest) -> Played:
    """The game played once; a game's tests share one worker (tests/conftest.py) so that its
    played game and served table are made once, and the games spread over the workers."""
    return _play(request.param)


pytestmark = pytest.mark.skipif(not GAMES, reason="no game ships a reference TTS profile")


def test_the_tts_regions_are_the_camera_boards_at_20_mm_a_unit(played: Played) -> None:
    """Every TTS region is the camera board's region of that name at 1 unit = 20 mm, centred on
    the table (x to the right, z away from the player); the TTS table has no region the camera
    board lacks. (Whether it has them all is the game's: tests/games/<key>/test_*_tts.py.)"""
    path = tts_profile_path(played.key)
    assert path is not None
    profile = json.loads(path.read_text(encoding="utf-8"))
    board = played.board
    rects = region_rects(board)

    def unit(mm: float) -> float:
        return round(mm / MM_PER_UNIT, 3)

    for region in profile["regions"]:
        x, y, w, h = rects[region["region"]]
        assert region["rect"] == {
            "x": [unit(x - board.width_mm / 2), unit(x + w - board.width_mm / 2)],
            "z": [unit(board.height_mm / 2 - y), unit(board.height_mm / 2 - y - h)],
        }, region
    assert {r["region"] for r in profile["regions"]} <= set(rects)


def test_a_tts_table_laid_out_from_a_position_reads_back_as_that_position(
    played: Played,
) -> None:
    """Every position of the played game, laid out on the TTS table, is read by the rules as
    the position itself (nothing moved). A table with no piece yet says nothing."""
    read = 0
    for step in played.steps:
        seen = played.seen(played.table(step.state))
        if seen:
            verdict = played.game.interpret(step.state, seen)
            assert verdict.unchanged, (step.index, verdict)
            read += 1
    assert read


def _tried(played: Played) -> Iterator[tuple[Step, Any]]:
    """The played moves, and at the first position offering a kind of move, a few more of it."""
    kinds: set[str] = set()
    for step in played.steps:
        if not step.by_seat:
            continue
        yield step, step.move
        legal = played.game.legal_moves(step.state)
        new = {type(m).__name__ for m in legal} - kinds
        kinds |= new
        others = [m for m in legal if type(m).__name__ in new and m != step.move]
        yield from ((step, m) for m in others[:TRIED])


def test_a_move_made_on_the_tts_table_is_read_as_that_move(played: Played) -> None:
    """A seat move the table shows, made on the TTS table, is read as that move (a move that
    brings its follow-up along reads with it first), or the referee asks among the moves
    that leave the same table; never as a move that leaves another table. A game's rules may
    read one of several moves leaving the same table in their place (``interpret.Narrowing``:
    a shorter way to the same place). Most are read outright."""
    shown = read = 0
    for step, move in _tried(played):
        after = played.game.apply_unchecked(step.state, move)
        if not played.shows(step.state, after):
            continue  # a hand, a vote, a pass: confirmed on a phone
        verdict = played.read(step.state, after)
        instead = step.state
        for other in verdict.moves:
            instead = played.game.apply_unchecked(instead, other)
        if verdict.moves[:1] != (move,) and verdict.moves and not played.shows(after, instead):
            move = verdict.moves[0]  # the rules' reading of the same table
        assert verdict.moves[:1] == (move,) or any(c[:1] == (move,) for c in verdict.candidates), (
            step.index,
            move,
            verdict,
        )
        shown += 1
        read += verdict.moves[:1] == (move,)
    assert shown and read >= shown // 2, (shown, read)


def _save(objects: list[dict[str, Any]], title: str) -> dict[str, Any]:
    """A TTS save file holding ``objects`` (the fields a save stores)."""
    states = []
    for o in objects:
        p = o["position"]
        states.append({
            "GUID": o["guid"], "Name": "Custom_Tile", "Nickname": o.get("nickname", ""),
            "Description": "", "GMNotes": o.get("gm_notes", ""), "Tags": [],
            "Transform": {"posX": p["x"], "posY": p["y"], "posZ": p["z"], "rotX": 0.0,
                          "rotY": 0.0, "rotZ": 0.0, "scaleX": 1.0, "scaleY": 1.0,
                          "scaleZ": 1.0},
        })  # fmt: skip
    return {"SaveName": title, "ObjectStates": states}


def test_a_saved_tts_table_loads_as_a_position_the_engine_checks(
    played: Played, tmp_path: Path
) -> None:
    """``herald tts load SAVE --profile KEY``: the save's pieces become the table snapshot,
    which the rules read as the position it was saved from, and a save with one move made as
    that move."""
    step = played.first_read()
    for position, expected in ((step.state, ()), (step.after, (step.move,))):
        save = tmp_path / f"{played.key}.json"
        title = f"Herald {played.key} test table"
        save.write_text(json.dumps(_save(played.table(position), title)), encoding="utf-8")
        result = CliRunner().invoke(tts, ["load", str(save), "--profile", played.key, "--json"])
        assert result.exit_code == 0, result.output
        seen = json.loads(result.output)["observations"]
        verdict = played.game.interpret(step.state, seen)
        assert verdict.moves == expected and verdict.unchanged == (not expected), verdict


@dataclass
class ServedTable:
    """``herald serve --game KEY --tts`` on a stored session waiting at ``step``, its TTS
    table the stand-in's, and a display client following the table's state."""

    played: Played
    step: Step
    standin: TTSStandIn
    db: Path
    table_id: int
    state_id: int
    logged: int
    client: Any
    follower: StateFollower
    views: list[dict[str, Any]]
    changed: threading.Event


@pytest.fixture(scope="module")
def served_table(played: Played, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedTable]:
    """One served table per game, shared by the game's served tests."""
    step = played.first_read()
    db = tmp_path_factory.mktemp(f"tts-{played.key}") / "herald.db"
    store = EventStore(db)
    ref = Referee.open(store, played.game, "t1", played.seats, played.options)
    for earlier in played.steps[: step.index]:
        assert ref.observe("sim", codec.encode(earlier.move)).ok, earlier
    assert ref.session.state == step.state
    table_id, state_id = ref.row.id, ref.state_id
    logged = len(store.events(table_id))
    store.close()
    standin = TTSStandIn()
    standin.objects = played.table(step.state)
    listen = free_port()
    standin.editor_port = listen
    served = serve(db, "--game", played.key, "--resume", "--tts", "--tts-port",
                   str(standin.port), "--tts-listen-port", str(listen), "--tts-poll", "0.2",
                   "--virtual-devices", "off")  # fmt: skip
    client = live_client()
    table = ServedTable(played, step, standin, db, table_id, state_id, logged, client,
                        StateFollower(), [], threading.Event())  # fmt: skip

    @client.on("state")
    def on_state(data: dict[str, Any]) -> None:
        whole = table.follower.follow(data)  # the view arrives as a patch after each move
        if whole is None:
            client.emit("sync", {"state_id": table.follower.state_id})
            return
        table.views.append(whole)
        if whole["state_id"] > state_id:
            table.changed.set()

    try:
        join(client, served.base)
        yield table
    finally:
        client.disconnect()
        served.stop()
        standin.close()


def test_a_move_made_in_tts_shows_up_as_a_validated_move_on_the_display(
    served_table: ServedTable,
) -> None:
    """The TTS table source reads the stand-in's table, the rules name the move, the referee
    validates and stores it as the table's (not the simulator's), and the display shows the
    position after it."""
    table = served_table
    step = table.step
    table.standin.objects = table.played.table(step.after)
    assert table.changed.wait(30), [v["state_id"] for v in table.views]
    made = EventStore(table.db).events(table.table_id)[table.logged]
    assert made.payload["move"] == codec.encode(step.move)
    assert made.source != "sim"
    shown = next(v for v in table.views if v["state_id"] == table.state_id + 1)
    expected = present.view(table.played.game, step.after, None)
    assert shown["view"] == json.loads(json.dumps(expected))
