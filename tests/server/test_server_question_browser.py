"""What players see when the camera asks (issue #25 point 2), for every game the camera reads:
the question is one panel on the table display (1920x1080, English and Polish) and on the phone
of the seat who must answer (390x844), never on another phone and never as a toast; tapping the
answer makes the move and the panel goes away everywhere. Screenshots go to artifacts/pages.

The table is served in this process (``cal_support.served``) so the test holds the camera: it
shows the camera a seat's move read with too little confidence (``camera/unsure``: one move,
which the asked seat confirms). Finding that move plays seeded moves through the referee.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import PAGES_SHOTS, needs_chromium, shot, watch
from cal_support import served

from bridge.camera import CameraConfig, CameraTable, open_camera_table, profile_seats
from bridge.game_files import camera_games, camera_profile, placer
from bridge.referee import Referee
from bridge.store import EventStore
from bridge.web.app import WebConfig, WebTable
from engine import codec, registry
from engine.game import SimSetup
from engine.i18n import message
from vision.sim import lay_out
from vision.snapshot import TableSnapshot

GAMES = [pytest.param(k, marks=pytest.mark.xdist_group(f"pages-{k}")) for k in camera_games()]
TABLE = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
WAIT_MS = 30_000

pytestmark = [needs_chromium, pytest.mark.slow]


def _picture(place: Any, profile: Any, state: Any, confidence: float = 1.0) -> TableSnapshot:
    seen = [{**o, "confidence": confidence} for o in lay_out(place(state), profile)[1]]
    return TableSnapshot.from_json({"source": "camera", "time": 0.0, "observations": seen})


def _to_a_seat_move(referee: Referee, camera: CameraTable, place: Any, profile: Any) -> Any:
    """Seeded moves through the referee up to a seat's move the camera reads as itself; that
    move (the position is shown to the camera first)."""
    game, rng = referee.game, random.Random(3)
    for _ in range(300):
        state = referee.session.state
        camera.reader.read(_picture(place, profile, state))
        moves = game.legal_moves(state)
        for move in moves[:40]:
            if game.actor(move) not in referee.seats:
                continue
            seen = camera.reader.observations(_picture(place, profile, game.apply_unchecked(
                state, move)))  # fmt: skip
            if game.interpret(state, seen).moves == (move,):
                return move
        move = rng.choice(moves) if moves else game.sample_chance(state, rng)
        assert referee.observe("host", codec.encode(move)).ok
    raise AssertionError("no seat move the camera reads in 300 moves")


@pytest.fixture
def table(key: str, tmp_path: Path) -> Iterator[tuple[WebTable, CameraTable, Any, Any, Any]]:
    game = registry.get_game(key)
    profile = camera_profile(key)
    setup = next(iter(game.info.simulations), SimSetup(max(game.info.min_players, 2)))
    seats = profile_seats(profile)[: max(setup.players, 2)]
    referee = Referee.open(EventStore(tmp_path / "b.db"), game, "t1", seats, setup.options)
    camera = open_camera_table(referee, "camera-sim", CameraConfig(fps=0, confirm_s=0))
    referee.attach(camera)
    place = placer(key, profile)
    move = _to_a_seat_move(referee, camera, place, profile)
    yield WebTable(referee, WebConfig(), camera=camera), camera, move, place, profile
    referee.store.close()


@pytest.mark.parametrize("key", GAMES)
def test_the_question_is_one_panel_for_the_table_and_the_asked_phone(
    key: str, table: tuple[WebTable, CameraTable, Any, Any, Any], browser: Any
) -> None:
    web, camera, move, place, profile = table
    referee = web.referee
    asked = referee.game.actor(move)
    other = next(s for s in referee.seats if s != asked)
    tokens = referee.row.tokens
    errors: list[str] = []
    with served(web) as base:
        pages = {
            "table-en": (f"{base}/host/{tokens.host}?lang=en", TABLE, False),
            "table-pl": (f"{base}/?lang=pl", TABLE, False),
            "asked-pl": (f"{base}/s/{tokens.seats[asked]}?lang=pl", PHONE, True),
            "other-en": (f"{base}/s/{tokens.seats[other]}?lang=en", PHONE, True),
        }
        opened = {}
        for name, (url, size, mobile) in pages.items():
            page = watch(browser.new_page(viewport=size, is_mobile=mobile), errors, name)
            page.goto(url)
            page.wait_for_selector(f"#summary[data-state-id='{referee.state_id}']",
                                   timeout=WAIT_MS)  # fmt: skip
            opened[name] = page
        before = referee.state_id
        after = referee.game.apply_unchecked(referee.session.state, move)
        reading = camera.reader.read(_picture(place, profile, after, confidence=0.1))
        assert reading.asked == "camera/unsure" and referee.state_id == before
        said = {lang: message("camera/unsure", lang, count=1, pieces="", seat=asked)
                for lang in ("en", "pl")}  # fmt: skip
        for name in ("table-en", "table-pl", "asked-pl"):
            panel = opened[name].locator("#question")
            panel.wait_for(state="visible", timeout=WAIT_MS)
            assert said[name[-2:]] in panel.inner_text()
        assert opened["asked-pl"].locator("#question .question-choice").count() == 1
        assert opened["table-en"].locator("#question .question-choice").count() == 0
        assert opened["other-en"].locator("#question").is_hidden()  # never on another phone
        for name, page in opened.items():
            toasts = page.locator("#toast").inner_text()
            assert not any(text in toasts for text in said.values()), (name, toasts)  # no toast
            shot(page, PAGES_SHOTS, f"question-{key}-{name}.png")

        opened["asked-pl"].locator("#question .question-choice").click()
        for name in ("table-en", "table-pl", "asked-pl"):
            opened[name].locator("#question").wait_for(state="hidden", timeout=WAIT_MS)
            opened[name].wait_for_selector(f"#summary[data-state-id='{before + 1}']",
                                           timeout=WAIT_MS)  # fmt: skip
        (event,) = referee.store.events(referee.row.id, before)
        assert event.source == f"seat:{asked}" and event.payload["move"] == codec.encode(move)
        shot(opened["table-en"], PAGES_SHOTS, f"question-{key}-answered.png")
    assert errors == []
