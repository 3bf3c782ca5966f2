"""What a group sees when it starts Herald and switches games (issue 25, points 1, 5, 6, 8).

One real ``herald serve`` started with no game (a first run: the lobby), the host page in
English at 1920×1080 picking each registered game in turn with its New game form, the table
display in Polish on a 390×844 phone beside it, and a seat's phone in Polish. For each game,
as the simulated table plays it: the scores read as a ranking (1., 2., 3.), each line of the
last move names its seat, the table's step is said with one prefix, "Who acts now" is never a
bare dash while the game goes on, the plot has a line, a run of moves the referee made itself
is one line of the log, the form's seat colours are the game's (France 1429's magenta seat
drawn magenta), and the host page shows no problem (``LOOK`` and ``check``).

Each game is looked at after its first few moves; the same ``check`` reads every game's table
60 moves in, played offline once, in tests/server/test_server_visible_names.py (waiting here
for the simulated table to play 25 moves of each game in real time took most of a minute).
Screenshots go to ``artifacts/server/`` for a person to look at.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_fixtures import Tabs
from browser_support import PHONE_SIZE, SERVER_SHOTS, needs_chromium, shot, watch
from srv_support import serve

from engine.registry import installed_keys

pytestmark = [needs_chromium, pytest.mark.slow]

WAIT_MS = 60_000
HOST_SIZE = {"width": 1920, "height": 1080}
"""A TV or a laptop's full-HD screen."""
HOST_DOUBLED = ("Table, please: Table", "Table, please: The table")
POLISH_DOUBLED = ("Przy stole: Stół", "Przy stole: Przy stole")
"""The table's step said with its prefix twice, in English and in Polish."""
FIRST_MOVES = 3
"""Moves the simulated table plays of each game before it is looked at, and on until the last
move has lines to read (a seat's: a deal has none), or ``PLAYED`` moves (France 1429 deals for
its first 40 moves). The scores, the plot and the folded runs of a game well under way are
checked on every game 60 moves in (tests/server/test_server_visible_names.py)."""
PLAYED = 25
"""The most moves a game plays before it is looked at (each game played 25 before)."""

LOOK = """() => {
  const text = (sel) => [...document.querySelectorAll(sel)].map((n) => n.innerText.trim());
  const latest = window.heraldTable.latest();
  const runs = [];
  let run = 0;
  for (const e of latest.log) {
    const auto = e.source === "auto" && e.kind !== "undo" && !e.undone;
    run = auto ? run + 1 : 0;
    if (run === 2) runs.push(e.seq);
  }
  return {
    game: latest.game, over: latest.over, state: latest.state_id,
    ranks: text("#scores tbody tr td:first-child").map((r) => parseInt(r, 10)),
    lastSeats: [...document.querySelectorAll("#last li")].map((li) => ({
      seat: li.getAttribute("data-seat"), chip: Boolean(li.querySelector(".chip")) })),
    lastSeatsData: (latest.view.last_lines || []).map((l) => l.seat),
    prompts: text("#prompts li"),
    banner: document.getElementById("turn-banner").innerText,
    autoRuns: runs.length,
    foldedRuns: document.querySelectorAll("#log li.auto-run").length,
    plot: window.heraldTable.plot(),
    series: Object.keys(latest.score_by_move || {}).length,
    problems: document.getElementById("table-problems") ? text("#table-problems li") : [],
    chips: [...document.querySelectorAll(".chip[data-seat]")]
      .map((c) => [c.dataset.seat, c.style.getPropertyValue("--seat")]),
  };
}"""


def look(page: Any, key: str, played: int, lines_by: int | None = None) -> dict[str, Any]:
    """What the table display shows of ``key`` once it has ``played`` moves behind it (and, with
    ``lines_by``, a last move with lines to read, or that many moves), read in one go: the page
    re-renders on every move."""
    lines = "" if lines_by is None else (
        f" && ((d.view.last_lines || []).length > 0 || d.state_id >= {lines_by})")  # fmt: skip
    page.wait_for_function(
        "() => { const d = window.heraldTable.latest(); "
        f"return d && d.game === '{key}' && (d.state_id >= {played}{lines} || d.over); }}",
        timeout=WAIT_MS,
    )
    seen: dict[str, Any] = page.evaluate(LOOK)
    return seen


def check(seen: dict[str, Any], key: str, doubled: tuple[str, ...]) -> None:
    """``seen`` (``LOOK``'s) reads as issue 25 asks; ``doubled``: the step's prefix said twice."""
    assert seen["ranks"] == sorted(seen["ranks"]) and seen["ranks"][0] == 1, seen["ranks"]
    for line, seat in zip(seen["lastSeats"], seen["lastSeatsData"], strict=False):
        assert line["chip"] == bool(seat and seat != "table"), (key, seen["lastSeats"])
    for prefix in doubled:
        assert prefix not in seen["banner"] and all(prefix not in p for p in seen["prompts"])
    if not seen["over"]:
        assert seen["prompts"] and seen["prompts"] != ["—"], (key, seen["prompts"])
    assert seen["foldedRuns"] >= seen["autoRuns"] - 1, (key, seen)  # the oldest may be cut off
    if seen["series"]:
        assert seen["plot"]["points"] >= 2 and seen["plot"]["outside"] == 0, (key, seen["plot"])
    assert seen["problems"] == []
    for seat, colour in seen["chips"]:
        assert colour.strip() != "#666", (key, seat)  # every seat in its own colour


def start_from_form(page: Any, key: str, seats: list[str]) -> None:
    """The host picks ``key`` in the New game form (open already), with these seat colours,
    and starts it; sent again while the simulated table's moves make it stale."""
    from playwright.sync_api import expect

    page.select_option("#setup-game", key)
    rows = page.locator("#setup-seats .setup-seat")
    while rows.count() > len(seats):
        rows.locator("button").last.click()
    for i, colour in enumerate(seats):
        rows.nth(i).locator("select").select_option(colour)
    for _ in range(30):
        page.locator("#setup-start").click()
        try:
            expect(page.locator("#setup-box")).to_be_hidden(timeout=3000)
            return
        except AssertionError:
            continue
    raise AssertionError(f"the New game form did not start {key}")


def test_a_first_run_lobby_then_every_game_in_both_languages(browser: Tabs, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    served = serve(tmp_path / "flow.db", "--sim", "all", "--move-delay", "0.4",
                   "--restart-after", "0", "--virtual-devices", "off", game=None)  # fmt: skip
    errors: list[str] = []
    try:
        host = watch(browser.new_page(viewport=HOST_SIZE), errors, "host")
        host.goto(served.host_url + "?lang=en")
        # a first run: the host page opens on the New game form (the lobby)
        expect(host.locator("#setup-box")).to_be_visible(timeout=WAIT_MS)
        shot(host, SERVER_SHOTS, "flow-lobby-en.png")
        table = watch(browser.new_page(viewport=PHONE_SIZE, is_mobile=True), errors, "table-pl")
        table.goto(served.table_url + "?lang=pl")
        for n, key in enumerate(installed_keys()):
            if n:
                host.locator("#host-start").click()
                expect(host.locator("#setup-box")).to_be_visible()
            seats = ["red", "blue", "green"]
            if key == "france1429":
                seats[2] = "magenta"  # a colour of France's own stickers
            start_from_form(host, key, seats)
            seen = look(host, key, FIRST_MOVES, lines_by=PLAYED)
            check(seen, key, HOST_DOUBLED)
            assert set(seats) <= {s for s, _ in seen["chips"]}, (key, seen["chips"])  # the form's
            if key == "france1429":
                assert ["magenta", "#c2188f"] in [[s, c.strip()] for s, c in seen["chips"]]
            shot(host, SERVER_SHOTS, f"flow-{key}-host-en.png")
            check(look(table, key, FIRST_MOVES), key, POLISH_DOUBLED)
            shot(table, SERVER_SHOTS, f"flow-{key}-table-pl-390.png")
            link = host.locator("#join .join-seat a").first.get_attribute("href")
            phone = watch(browser.new_page(viewport=PHONE_SIZE, is_mobile=True), errors, key)
            phone.goto(f"{link}?lang=pl")
            expect(phone.locator("#me")).not_to_be_empty(timeout=WAIT_MS)
            shot(phone, SERVER_SHOTS, f"flow-{key}-phone-pl-390.png")
            phone.close()
    finally:
        served.stop()
    assert errors == []
