"""The generic pages and the game page modules they load (bridge/web/static/common.js).

A game's page module is package data (``<package>/ui/*``), served at ``/games/<key>/ui/<file>``
for registered games only. A game that ships no ``ui/`` folder (the tiny test game, Take-away)
still gets working pages: its prompts as move buttons, its scores, its view as a list.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_fixtures import Tabs
from browser_support import SERVER_SHOTS, SMALL_PHONE_SIZE, needs_chromium, shot
from srv_support import Served, open_referee, serve_takeaway

from bridge.labels import ui_messages
from bridge.web.app import WebConfig, WebTable
from engine import registry

ROOT = Path(__file__).resolve().parents[2]
GAMES_DIR = ROOT / "tests" / "games"
WAIT_MS = 30_000


@pytest.fixture
def web(tmp_path: Path) -> Iterator[WebTable]:
    referee = open_referee(tmp_path / "t.db")
    yield WebTable(referee, WebConfig())
    referee.store.close()


@pytest.fixture
def takeaway() -> Iterator[str]:
    """The tiny game registered at run time (left registered if something else registered it)."""
    if str(GAMES_DIR) not in sys.path:
        sys.path.insert(0, str(GAMES_DIR))
    import takeaway

    known = takeaway.GAME.info.key in registry.game_keys()
    registry.register(takeaway.GAME, module="takeaway")
    yield takeaway.GAME.info.key
    if not known:
        registry.unregister(takeaway.GAME.info.key)


def test_a_games_ui_files_are_served_with_their_content_types(web: WebTable) -> None:
    client = web.app.test_client()
    for key in ("middle-ages", "glory"):
        listing = client.get(f"/games/{key}/ui/").get_json()
        assert listing == {"game": key, "files": ["seat.js", "shared.js", "style.css", "table.js"]}
        folder = registry.package_files(key).joinpath("ui")
        script = client.get(f"/games/{key}/ui/table.js")
        assert script.status_code == 200
        assert script.content_type == "text/javascript; charset=utf-8"
        assert script.data == folder.joinpath("table.js").read_bytes()
        assert "default-src 'self'" in script.headers["Content-Security-Policy"]
        style = client.get(f"/games/{key}/ui/style.css")
        assert style.status_code == 200 and style.content_type == "text/css; charset=utf-8"


def test_the_ui_route_refuses_unknown_games_missing_files_and_traversal(web: WebTable) -> None:
    client = web.app.test_client()
    assert client.get("/games/no-such-game/ui/").status_code == 404
    assert client.get("/games/no-such-game/ui/table.js").status_code == 404
    assert client.get("/games/middle-ages/ui/missing.js").status_code == 404
    for path in (
        "/games/middle-ages/ui/../__init__.py",
        "/games/middle-ages/ui/..%2F__init__.py",
        "/games/middle-ages/ui/%2e%2e%2f__init__.py",
        "/games/middle-ages/ui/..",
        "/games/middle-ages/ui/.table.js",
        "/games/middle-ages/ui/..%2Fi18n%2Fen%2Fmiddle_ages.json",
        "/games/middle-ages/ui/%2Fetc%2Fpasswd",
        "/games/..%2Fglory/ui/table.js",
    ):
        response = client.get(path)
        assert response.status_code == 404, path
        assert b"Herald" not in response.data and b"import" not in response.data, path


def test_a_game_without_a_ui_folder_lists_no_files(web: WebTable, takeaway: str) -> None:
    client = web.app.test_client()
    assert client.get(f"/games/{takeaway}/ui/").get_json() == {"game": takeaway, "files": []}
    assert client.get(f"/games/{takeaway}/ui/table.js").status_code == 404


def test_the_page_labels_hold_the_cores_and_every_games_own() -> None:
    labels = ui_messages()
    assert labels["ui/undo"] == "Undo"
    assert labels["glory:ui/duel"] == "Duel"  # from the game's own catalog
    assert labels["middle-ages:ui/rows"] == "Rows"
    assert all(code.startswith("ui/") or ":ui/" in code for code in labels)
    assert "glory:prompt/choose-character" not in labels and "label/move" not in labels


# --- a game with no page module, in Debian's chromium ----------------------------------------


@pytest.fixture(scope="module")
def plain_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    root = tmp_path_factory.mktemp("plain")
    served = serve_takeaway(root)
    yield served
    served.stop()


@needs_chromium
def test_a_game_without_a_page_module_gets_prompts_scores_and_its_view(
    browser: Tabs, plain_table: Served
) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    seats = list(plain_table.seat_urls)
    display = browser.table(errors)
    display.goto(plain_table.table_url)
    # the simulated table rolls the die; both seats are then asked for a sealed bid
    expect(display.locator("#prompts li")).to_have_count(2, timeout=WAIT_MS)
    expect(display.locator("#prompts")).to_contain_text("Seal a bid of 1 to 3")
    expect(display.locator("#game-data dd[data-key=step]")).to_have_text("bid")
    pile = int(display.locator("#game-data dd[data-key=pile]").inner_text())
    assert 11 <= pile <= 16
    expect(display.locator("#scores tr")).to_have_count(2)
    expect(display.locator("#log li").first).to_contain_text("The table rolled")
    shot(display, SERVER_SHOTS, "plain-table.png")

    phone = browser.phone(errors, SMALL_PHONE_SIZE)
    phone.goto(plain_table.seat_urls[seats[0]])
    expect(phone.locator("#turn")).to_have_class("turn mine", timeout=WAIT_MS)
    expect(phone.locator("#moves button")).to_have_count(3)  # bids of 1, 2 and 3
    expect(phone.locator("#game-data dd[data-key=pile]")).to_have_text(str(pile))
    expect(phone.locator("#scores tr")).to_have_count(2)
    shot(phone, SERVER_SHOTS, "plain-seat.png")
    start = int(phone.locator("#summary").get_attribute("data-state-id") or "0")
    phone.locator("#moves button").nth(1).click()
    phone.locator("#confirm").click()
    # the bid is sealed: the phone is told to wait, the display shows one prompt left
    expect(phone.locator("#summary")).to_have_attribute(
        "data-state-id", str(start + 1), timeout=WAIT_MS
    )
    expect(phone.locator("#moves button")).to_have_count(0)
    expect(display.locator("#prompts li")).to_have_count(1)
    expect(display.locator("#prompts li")).to_contain_text(seats[1])
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 360
    assert errors == []


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="needs the git checkout")
def test_the_pages_and_labels_name_no_game_and_no_games_components() -> None:
    """Everything about one game's pages lives in its package (issue 11, "A game is a
    package"); the generic pages and the label code name none of the games' words."""
    words = r"glory|middle.ages|lord|knight|duel|estate|fief"
    found = subprocess.run(
        ["git", "grep", "-n", "-i", "-E", words, "--", "bridge/web", "bridge/labels.py",
         ":!bridge/web/static/vendor"],
        cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    assert found.returncode in (0, 1), found.stderr
    assert found.stdout == ""
