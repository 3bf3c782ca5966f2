"""``herald serve --game glory``: the simulated table plays Glory, the virtual dice tower rolls the
duels, and the seat pages show the duel panel with the deciding seat's options as buttons.

Screenshots for a person to look at go to ``artifacts/server/`` (git-ignored).
"""

from __future__ import annotations

import os
import re
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_fixtures import Tabs
from browser_support import SERVER_SHOTS, SMALL_PHONE_SIZE, needs_chromium, shot
from click.testing import CliRunner
from srv_support import SEATS, Served, join, live_client, ordered_client, serve

from bridge.cli.serve import serve as serve_command
from bridge.referee import VIEWER, Principal, Referee
from bridge.simtable import SimConfig, SimTable
from bridge.store import EventStore
from bridge.web.follow import StateFollower
from engine import codec, get_game

GLORY = get_game("glory")
OPTIONS = {**GLORY.info.option_defaults(), "data": "stand-in"}  # what serve plays by default
MOSQUITTO = shutil.which("mosquitto") or (
    "/usr/sbin/mosquitto" if os.access("/usr/sbin/mosquitto", os.X_OK) else None
)
WAIT_MS = 20_000


def wait_for(predicate: Any, timeout: float = 30.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what or predicate}")


def open_glory(db: Path) -> Referee:
    """A Glory table ``t1`` with the seats and options ``herald serve`` gives it."""
    return Referee.open(EventStore(db), GLORY, "t1", SEATS, OPTIONS)


def play_to_duel(referee: Referee, step: str, seed: int = 4) -> str:
    """Play (the simulated table's path) until a duel waits at ``step`` for a seat or the
    table; returns who it waits for."""
    sim = SimTable(referee, SimConfig(mode="all", seed=seed))
    for _ in range(2000):
        state = referee.session.state
        if state.duel is not None and state.duel.step == step and state.pending is not None:
            who = GLORY.to_act(state)[0]
            if who == "table" or who in SEATS:
                return who
        assert sim.step()
    raise AssertionError(f"no duel reached its {step} step")


# --- the referee: dice typed in on a phone -----------------------------------------------------


def test_a_seat_types_in_its_dice_and_impossible_dice_change_nothing(tmp_path: Path) -> None:
    referee = open_glory(tmp_path / "dice.db")
    assert play_to_duel(referee, "roll") == "table"
    state = referee.session.state
    pool = GLORY.dice_pool(state)
    panel = GLORY.view(state, None)["duel"]["dice_wanted"]
    seat = panel["reporters"][0]
    other = Principal("seat", next(s for s in SEATS if s not in panel["reporters"]))
    sid = referee.state_id
    events = len(list(referee.store.events(referee.row.id)))

    def send(principal: Principal, dice: Any) -> dict[str, Any]:
        return referee.intent(principal, {"state_id": sid, "kind": "dice", "dice": dice}).to_json()

    good = [{**d, "value": 2} for d in pool]
    refused = [
        (Principal("seat", seat), good[:-1], "roll/wrong-count"),
        (Principal("seat", seat), [{**good[0], "type": "glory"}, *good[1:]], "dice/unknown-type"),
        (Principal("seat", seat), [{**good[0], "value": 9}, *good[1:]], "dice/bad-value"),
        (other, good, "dice/not-your-roll"),
        (Principal("seat", seat), "2 3", "intent/malformed"),
        (VIEWER, good, "auth/no-seat"),
    ]
    for principal, dice, code in refused:
        reply = send(principal, dice)
        assert reply["ok"] is False and reply["code"] == code, reply
        assert reply["message"]
    assert referee.state_id == sid
    assert len(list(referee.store.events(referee.row.id))) == events
    reply = send(Principal("seat", seat), good)
    assert reply["ok"] is True and referee.state_id == sid + 1
    stored = list(referee.store.events(referee.row.id))[-1]
    assert stored.source == f"seat:{seat}" and stored.payload["move"]["move"]["kind"] == "roll"
    # a step that takes no dice: nothing to report them to
    later = referee.intent(Principal("seat", seat), {"state_id": referee.state_id, "kind": "dice",
                                                     "dice": good}).to_json()  # fmt: skip
    assert later["code"] in ("dice/not-expected", "roll/not-expected", "dice/not-your-roll")
    referee.store.close()


def test_serve_refuses_an_unknown_option_or_a_pair_without_equals(tmp_path: Path) -> None:
    runner = CliRunner()
    db = str(tmp_path / "x.db")
    result = runner.invoke(serve_command, ["--game", "glory", "--db", db, "--option", "nope=1"])
    assert result.exit_code == 2 and "has no option 'nope'" in result.output
    result = runner.invoke(serve_command, ["--game", "glory", "--db", db, "--option", "data"])
    assert result.exit_code == 2 and "NAME=VALUE" in result.output
    result = runner.invoke(serve_command, ["--game", "glory", "--db", db,
                                           "--option", "tournament=tilt"])  # fmt: skip
    assert result.exit_code == 1 and "tournament is one of" in result.output


# --- herald serve --game glory: the tower rolls the duels ---------------------------------------


def test_serve_glory_plays_into_a_duel_whose_roll_comes_from_the_virtual_tower(
    tmp_path: Path,
) -> None:
    if MOSQUITTO is None:
        pytest.skip("mosquitto not installed (make system-deps installs it as root)")
    served = serve(tmp_path / "g.db", "--game", "glory", "--move-delay", "0.05")
    states: list[dict[str, Any]] = []
    seat_views: list[dict[str, Any]] = []
    rolls: list[dict[str, Any]] = []
    lock = threading.Lock()
    viewer, phone = ordered_client(), live_client()

    follower = StateFollower()

    def on_state(data: dict[str, Any]) -> None:
        whole = follower.follow(data)  # the view arrives as a patch after each move
        if whole is None:
            viewer.emit("sync", {"state_id": follower.state_id})
            return
        with lock:
            states.append(whole)

    viewer.on("state", on_state)
    viewer.on("roll", lambda data: rolls.append(data))
    phone.on("seat_state", lambda data: seat_views.append(data))
    try:
        assert "stand-in data set" in served.output and "NOT the printed values" in served.output
        join(viewer, served.base)
        join(phone, served.base, served.token("blue"))

        def tower_roll() -> list[dict[str, Any]]:
            with lock:
                return [
                    (s, e)
                    for s in states
                    for e in s.get("log_added", [])
                    if e["source"].startswith("device:tower-1#") and s["view"]["duel"]
                ]

        wait_for(tower_roll, 45, "a duel roll from the virtual dice tower")
        state, entry = tower_roll()[0]
        panel = state["view"]["duel"]
        assert entry["kind"] == "duel" and "rolls" in entry["label"]
        assert len(panel["sides"]) == 2 and all("lines" in s for s in panel["sides"])
        assert {"pass", "step", "deciding", "options", "dice_wanted"} <= set(panel)
        rolled = [s for s in panel["sides"] if s["dice"]]
        assert rolled and all(line["text"] for s in rolled for line in s["lines"])
        # the roll notice names the tower and says the duel took it
        wait_for(lambda: any(r["device"] == "tower-1" and r["used"] for r in rolls), 10, "roll")
        # said in Glory's own faces, in each language (issue 15, point 7), not as d6 numbers
        used = next(r for r in rolls if r["device"] == "tower-1" and r["used"])
        assert re.search(r"(Strength|Horse|Armour) die: [★\d]", used["texts"]["en"])
        assert re.search(r"kość (Siły|Wierzchowca|Zbroi): [★\d]", used["texts"]["pl"])
        # the seat's own view holds its hand and goals; the public view does not
        mine = seat_views[-1]["view"]
        me = next(p for p in mine["players"] if p["seat"] == "blue")
        others = [p for p in mine["players"] if p["seat"] != "blue"]
        assert "hand" in me and "goals" in me and all("hand" not in p for p in others)
        assert all("hand" not in p for p in state["view"]["players"])
    finally:
        viewer.disconnect()
        phone.disconnect()
        served.stop()


# --- the seat pages in Debian's chromium -------------------------------------------------------


@pytest.fixture(scope="module")
def duel_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, str]]:
    """A Glory table resumed at a seat's Strength decision; the simulated table plays only
    chance, slowly, so the phones decide and type in the dice."""
    db = tmp_path_factory.mktemp("glory-browser") / "b.db"
    referee = open_glory(db)
    seat = play_to_duel(referee, "strength")
    referee.snapshot()
    referee.store.close()
    assert seat in SEATS
    served = serve(db, "--game", "glory", "--resume", "--sim", "table", "--move-delay", "60",
                   "--virtual-devices", "off")  # fmt: skip
    yield served, seat
    served.stop()


@needs_chromium
def test_the_deciding_seat_sees_the_duel_and_its_options_and_a_click_sends_the_move(
    browser: Tabs, duel_table: tuple[Served, str]
) -> None:
    from playwright.sync_api import expect

    served, seat = duel_table
    other = next(s for s in SEATS if s != seat)
    errors: list[str] = []
    pages = {}
    for name in (seat, other):
        page = browser.phone(errors, SMALL_PHONE_SIZE)
        page.goto(served.seat_urls[name])
        expect(page.locator("#duel .duel-side")).to_have_count(2, timeout=WAIT_MS)
        pages[name] = page
    mine, theirs = pages[seat], pages[other]
    display = browser.table(errors)
    display.goto(served.table_url)
    expect(display.locator("#duel .duel-side")).to_have_count(2, timeout=WAIT_MS)

    # both pages show both Attacks, the pass and step, and who decides
    for page in (mine, theirs):
        expect(page.locator("#duel .duel-head")).to_contain_text("Strength")
        expect(page.locator("#duel-who")).to_have_attribute("data-deciding", seat)
        expect(page.locator("#duel .attack-total")).to_have_count(2)
    expect(mine.locator("#duel-who")).to_have_text("Your decision now.")
    expect(mine.locator("#duel .duel-left")).to_contain_text("Strength")
    # only the deciding seat gets the options as buttons: Strength 1.., and pass
    strength = mine.locator("#duel-options .opt.strength")
    expect(strength.first).to_have_text("Commit 1 Strength")
    expect(mine.locator("#duel-options .opt.decline")).to_have_count(1)
    assert theirs.locator("#duel-options").count() == 0
    assert mine.locator("#moves button").count() == 0  # the panel holds the choices
    width = mine.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the seat page scrolls sideways ({width}px)"
    # the seat's own holdings and cards (private), and the public board
    expect(mine.locator("#glory-hand")).not_to_be_empty()
    expect(mine.locator("#board")).to_contain_text("Stand-in data")
    shot(mine, SERVER_SHOTS, "glory-seat-duel.png")
    shot(display, SERVER_SHOTS, "glory-table-duel.png")

    start = int(mine.locator("#summary").get_attribute("data-state-id") or "0")
    strength.first.click()
    for page in (mine, theirs, display):
        expect(page.locator("#summary")).to_have_attribute(
            "data-state-id", str(start + 1), timeout=WAIT_MS
        )
    expect(display.locator("#log li").first).to_contain_text(f"{seat}: commit 1 Strength")

    # the roll: the duel waits for this seat's dice, and its phone types them in
    form = mine.locator("#dice-form")
    expect(form).to_be_visible(timeout=WAIT_MS)
    assert theirs.locator("#dice-form").count() == 0
    rows = form.locator(".dice-row")
    for i in range(rows.count()):
        rows.nth(i).locator("button.face").nth(2).click()
    shot(mine, SERVER_SHOTS, "glory-seat-dice.png")
    mine.locator("#dice-send").click()
    expect(mine.locator("#summary")).to_have_attribute(
        "data-state-id", str(start + 2), timeout=WAIT_MS
    )
    expect(display.locator("#duel .duel-side .gdie").first).to_be_visible()
    expect(display.locator("#log li").first).to_contain_text(f"{seat} rolls")
    shot(display, SERVER_SHOTS, "glory-table-rolled.png")
    assert errors == []


def test_the_simulated_table_hands_the_duels_dice_to_its_roller(tmp_path: Path) -> None:
    """``SimTable(roller=…)``: the dice the game waits for go to the tower; without one it rolls."""
    referee = open_glory(tmp_path / "sim.db")
    assert play_to_duel(referee, "roll") == "table"
    asked: list[list[dict[str, Any]]] = []
    sim = SimTable(
        referee, SimConfig(mode="all", seed=2), roller=lambda d: bool(asked.append(d)) or True
    )
    sid = referee.state_id
    assert sim.step() is False and referee.state_id == sid  # waiting for the tower
    assert sim.step() is False and len(asked) == 1  # asked once per state
    pool = GLORY.dice_pool(referee.session.state)
    assert [{k: d[k] for k in ("sides", "color", "type")} for d in asked[0]] == pool
    assert all(1 <= d["value"] <= 6 for d in asked[0])
    # the tower's roll comes back as an observation from the device
    move = GLORY.dice_move(referee.session.state, asked[0])
    assert referee.observe("device:tower-1#1", codec.encode(move), sid).ok
    # a roller that cannot roll (no virtual tower): the simulated table observes the dice itself
    fallback = SimTable(referee, SimConfig(mode="all", seed=2), roller=lambda d: False)
    while GLORY.dice_pool(referee.session.state) is None:
        assert fallback.step()
    before = referee.state_id
    assert fallback.step() is True and referee.state_id == before + 1
    assert list(referee.store.events(referee.row.id))[-1].source == "simtable"
    referee.store.close()
