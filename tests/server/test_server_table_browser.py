"""What players see on the table display and the phone, for every registered game (issue 15).

Debian's chromium driven by Playwright against real ``herald serve`` processes: the table
display at 1280×900 (and in large type for a TV), phones at 390×844. Asserted as a player would
see it: the acting seat in large type and its board highlighted, the scores with their
breakdown, standing scores said so, the option previews of the engine on the move buttons,
Polish when the phone's browser asks for Polish, every plotted point inside the plot's axes, no
phase slug or stored file id in the page's words, the end screen with its ranking and ties,
history, and a new game set up from the host page. Screenshots go to ``artifacts/pages/``
(git-ignored) for a person to look at.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_fixtures import Tabs
from browser_support import PAGES_SHOTS, PHONE_SIZE, TABLE_SIZE, needs_chromium, shot, watch
from played_support import PlayedStores, Point
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from srv_support import Served, serve

from bridge.seats import seat_names
from engine.registry import get_game, installed_keys

WAIT_MS = 30_000
END_WAIT_MS = 240_000  # the rest of a simulated game on a loaded machine
LAST_MOVES = 10
"""The moves of a whole simulated game the end-of-game test leaves to the served table (the
rest is played once per session, offline: played_support.py)."""
FILE_ID = re.compile(r"\d{3}_[0-9a-f]{12,}\.txt")
GAMES = list(installed_keys())  # served in a subprocess: run-time registrations don't reach it
BY_GAME = [pytest.param(k, marks=pytest.mark.xdist_group(f"pages-{k}")) for k in GAMES]
"""Each game's tests in a worker group of their own (tests/conftest.py): a game's served table
is started once, and the games' pages are checked side by side on the workers."""

pytestmark = [needs_chromium, pytest.mark.slow(seconds=80)]  # a game's group (pages-*): 7 tests


SLUG = re.compile(r"\b[a-z]+(?:-[a-z0-9]+)+\b")
"""A component id as the data spell it (``dar-damy``, ``lord-18``, ``joust-3-b``)."""
DEVICE_ID = re.compile(r"(?<![\w-])(?:seat-[a-z]+|tower-\d+)(?![\w-])")
"""A seat box's or dice tower's id (``seat-green``, ``tower-1``): the device panel says it in
words ("green's seat box", "Dice tower 1")."""
DEVICE_PARTS = ("#devices", "#rolls", "#device-notices", "#pairing")


def font_px(page: Any, selector: str) -> float:
    size = page.eval_on_selector(selector, "(n) => getComputedStyle(n).fontSize")
    return float(str(size).removesuffix("px"))


def no_ids_in_words(page: Any) -> None:
    """No stored file id in any visible text (nor in a tooltip of an itemised line); the page's
    own parts name no phase by its slug; options and the log name no component by its id."""
    text = page.inner_text("body")
    assert not FILE_ID.search(text), FILE_ID.search(text)
    tips = " ".join(page.eval_on_selector_all("[title]", "(ns) => ns.map((n) => n.title)"))
    assert not FILE_ID.search(tips), FILE_ID.search(tips)
    for part in ("#moves", "#log", "#prompt-text"):
        if page.locator(part).count():
            words = " ".join(page.locator(part).all_inner_texts())
            assert not SLUG.search(words), SLUG.search(words)
    no_device_ids(page)
    latest = page.evaluate(
        "window.heraldTable ? window.heraldTable.latest() : window.heraldSeat.table()"
    )
    phase = (latest.get("view") or {}).get("phase")
    if isinstance(phase, str) and "-" in phase:
        assert phase not in page.inner_text(".bar .summary")
    # a game that names its components (the view's ``names``: id -> printed name) shows the
    # names: no compound id (``dar-damy``, ``joust-3-b``) stands in the page's words
    names = (latest.get("view") or {}).get("names") or {}
    words = set(re.findall(r"[\w-]+", text))
    shown = sorted(k for k, v in names.items() if "-" in k and k != v and k in words)
    assert not shown, shown


def no_device_ids(page: Any) -> None:
    """The device panel names each seat box and dice tower in words, never by its id."""
    for part in DEVICE_PARTS:
        if page.locator(part).count():
            words = " ".join(page.locator(part).all_inner_texts())
            assert not DEVICE_ID.search(words), f"{part}: {words!r}"


def english_in_polish(page: Any) -> list[str]:
    """The English catalog phrases (pages and games alike, as ``/api/ui`` serves them) that
    stand in a page meant to be Polish: each English label's literal words (between its
    ``{placeholders}``) whose Polish label differs, found as whole words in the visible text."""
    en = page.evaluate("fetch('/api/ui?lang=en').then((r) => r.json())")
    pl = page.evaluate("fetch('/api/ui?lang=pl').then((r) => r.json())")
    text = page.inner_text("body")
    found = []
    for code, said in en.items():
        if code not in pl or pl[code] == said:
            continue
        forms = said.values() if isinstance(said, dict) else [said]
        for form in forms:
            for part in re.split(r"\{[^}]*\}", str(form)):
                part = part.strip(" :·,.;()–—-")
                if len(part) < 5 or not re.search(r"[A-Za-z]{3}", part) or part in str(pl[code]):
                    continue
                hit = re.search(rf"(?<![\w-]){re.escape(part)}(?![\w-])", text)
                if hit:
                    where = text[max(0, hit.start() - 40) : hit.end() + 40]
                    found.append(f"{code}: {part!r} in {where!r}")
    return found


def phone_fits(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE_SIZE["width"], f"the phone page scrolls sideways ({width}px)"


@pytest.fixture(scope="module", params=BY_GAME)
def waiting_table(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, Served]]:
    """Each game at a table where people play on their phones (the simulated table does only
    the table's own steps)."""
    key = request.param
    db = tmp_path_factory.mktemp(f"pages-{key}") / "p.db"
    served = serve(db, "--game", key, "--sim", "table", "--move-delay", "0.05")
    yield key, served
    served.stop()


def acting_seat(display: Any, served: Served) -> str:
    """The seat the table waits for, once the simulated table has done the table's steps."""
    display.wait_for_function(
        "() => { const d = window.heraldTable && window.heraldTable.latest();"
        " return d && d.to_act.length && !d.to_act.includes('table'); }",
        timeout=WAIT_MS,
    )
    seat = str(display.evaluate("window.heraldTable.latest().to_act[0]"))
    assert seat in served.seat_urls
    return seat


def test_whose_turn_scores_previews_and_the_plot_on_the_table_and_the_phone(
    browser: Tabs, waiting_table: tuple[str, Served]
) -> None:
    from playwright.sync_api import expect

    key, served = waiting_table
    errors: list[str] = []
    display = watch(browser.new_page(viewport=TABLE_SIZE), errors)
    display.goto(served.host_url + "?lang=en")
    seat = acting_seat(display, served)

    # (1) the acting seat in large type with its colour, its board highlighted
    banner = display.locator(f"#banner .chip.big[data-seat='{seat}']")
    expect(banner).to_be_visible()
    assert font_px(display, f"#banner .chip.big[data-seat='{seat}']") >= 28
    if display.locator(".board[data-seat]").count():  # the game's module draws seat boards
        assert display.locator(f".board.acting[data-seat='{seat}']").count() >= 1
    assert (
        display.locator(".board.acting").count()
        == display.locator(".board.acting[data-seat]").count()
    )
    # (2) every score with its breakdown, said to be standing
    expect(display.locator("#scores caption.standing")).to_be_visible()
    rows = display.locator("#scores tbody tr")
    assert rows.count() == len(display.evaluate("window.heraldTable.latest().view.scores"))
    expect(display.locator("#scores .breakdown").first).to_be_visible()
    assert display.locator("#scores tbody tr .breakdown").count() == rows.count()

    # the phone of the acting seat, at 390×844
    phone = watch(browser.new_page(viewport=PHONE_SIZE, is_mobile=True, locale="en-GB"), errors)
    phone.goto(served.seat_urls[seat])
    expect(phone.locator("#turn")).to_have_class("turn mine", timeout=WAIT_MS)
    expect(phone.locator("#turn")).to_have_text("Your turn")
    expect(phone.locator("#scores .breakdown li").first).to_be_visible(timeout=WAIT_MS)
    # (3) each option the engine previews shows its preview on its button
    prompt = phone.evaluate("window.heraldSeat.prompt()")
    moves = prompt["prompts"][0]["moves"]
    previewed = [m for m in moves if m.get("preview") not in (None, "", [])]
    assert previewed, "the first choice of every game says what each option gives"
    if phone.locator("#moves button.move").count():  # the generic buttons (not a game panel)
        assert phone.locator("#moves button.move .preview").count() == len(previewed)
        for i, m in enumerate(moves):
            if m in previewed:  # the button says what the engine previews for it
                shown = phone.locator(f"#moves button.move[data-index='{i}'] .preview")
                assert shown.inner_text().strip()
    # the preview forms the engine may send: a sentence, itemised lines, or both
    said = phone.evaluate(
        "[Herald.preview({preview: '+2 coins'}).textContent,"
        " Herald.preview({preview: [{amount: 2, text: 'Village'}, {amount: -1, text: 'tax'}]})"
        ".textContent, Herald.preview({preview: {text: 'Knight', lines: [{amount: 3, text:"
        " 'Glory'}]}}).textContent, Herald.preview({move: {}}) === null]"
    )
    assert said == ["+2 coins", "+2 Village−1 tax", "Knight+3 Glory", True]
    phone_fits(phone)
    no_ids_in_words(phone)
    shot(phone, PAGES_SHOTS, f"{key}-phone-turn.png")
    no_ids_in_words(display)
    shot(display, PAGES_SHOTS, f"{key}-table.png")

    # (8) a move from the phone: feedback, and the panel does not repeat the banner
    start = int(display.locator("#summary").get_attribute("data-state-id") or "0")
    if phone.locator("#moves button.move").count():
        phone.locator("#moves button.move").first.click()
        phone.locator("#confirm").click()
        expect(phone.locator("#toast .toast.good")).to_be_visible(timeout=WAIT_MS)
        expect(display.locator("#summary")).not_to_have_attribute(
            "data-state-id", str(start), timeout=WAIT_MS
        )
        waiting = phone.locator("text=/Waiting for/")
        assert waiting.count() <= 1  # one message per state
        phone.wait_for_function(
            f"() => window.heraldSeat.prompt().state_id > {start}", timeout=WAIT_MS
        )
        assert phone.evaluate("window.heraldSeat.prompt().can_undo")  # undo, and it is said
        # the undo names the move it took back, to the seat that made it and to the table
        undone = display.evaluate(
            f"window.heraldTable.latest().log.find((e) => e.seq === {start + 1})"
        )
        said = phone.evaluate(
            f"Herald.forSeat({json.dumps(seat)}, {json.dumps(undone['labels']['en'])})"
        )
        phone.locator("#undo").click()
        expect(phone.locator("#toast")).to_have_text(f"You took back: {said}.", timeout=WAIT_MS)
        who = display.evaluate(f"Herald.seatName({json.dumps(seat)})")
        who = who[:1].upper() + who[1:]
        expect(display.locator("#toast")).to_have_text(f"{who} took back: {said}.", timeout=WAIT_MS)
        expect(display.locator("#log li.undone")).to_have_count(1, timeout=WAIT_MS)
    # (6) the plot: a legend naming each seat, every point inside the axes
    display.wait_for_function("() => window.heraldTable.plot().points > 0", timeout=WAIT_MS)
    plotted = display.evaluate("window.heraldTable.plot()")
    assert plotted["outside"] == 0
    legend = " ".join(display.locator("#plot .u-legend .u-series").all_inner_texts())
    for named in served.seat_urls:  # the legend names every seat
        assert display.evaluate(f"Herald.seatName('{named}')") in legend
    # the y axis names the game's own score measure (Glory for Glory), from its catalog
    measure = display.evaluate(f"Herald.t('{key}:ui/score-measure')")
    if measure == f"{key}:ui/score-measure":  # a game that names no measure: its totals
        measure = display.evaluate("Herald.t('ui/total')")
    assert plotted["axes"] == [display.evaluate("Herald.t('ui/plot-move')"), measure]
    # (12) large type for a TV
    before = font_px(display, "#banner")
    display.locator("#tv").check()
    assert "tv" in (display.locator("body").get_attribute("class") or "")
    assert font_px(display, "#banner") > before
    shot(display, PAGES_SHOTS, f"{key}-table-tv.png")
    display.locator("#tv").uncheck()
    # (11) history: the table after an earlier move, then back to the live table
    display.locator("#log li button.seq").last.click()
    expect(display.locator("#history-box")).to_be_visible()
    expect(display.locator("#history-at")).not_to_be_empty(timeout=WAIT_MS)
    assert display.locator("#history-board > *").count() >= 1
    assert display.locator("#history-scores tbody tr").count() == rows.count()
    shot(display, PAGES_SHOTS, f"{key}-table-history.png")
    display.locator("#history-live").click()
    expect(display.locator("#history-box")).to_be_hidden()

    # the table display on a phone-sized screen: whose turn still large, no sideways scrolling
    small = watch(browser.new_page(viewport=PHONE_SIZE, is_mobile=True), errors)
    small.goto(served.table_url)
    expect(small.locator("#banner")).to_be_visible(timeout=WAIT_MS)
    small.wait_for_function("() => window.heraldTable.latest() !== null", timeout=WAIT_MS)
    phone_fits(small)
    shot(small, PAGES_SHOTS, f"{key}-table-small.png")
    assert errors == []


def test_the_host_page_exports_the_game_as_a_log_that_replays(
    browser: Tabs, waiting_table: tuple[str, Served], tmp_path: Path
) -> None:
    """(11) "Export the game" on the host page downloads the game's log (a header line, then
    one event a line), which ``herald rules <game> replay`` replays to the state it had."""
    from click.testing import CliRunner
    from playwright.sync_api import expect

    from bridge.cli import main

    key, served = waiting_table
    errors: list[str] = []
    host = watch(browser.new_page(viewport=TABLE_SIZE, accept_downloads=True), errors)
    host.goto(served.host_url + "?lang=en")
    acting_seat(host, served)  # the table's own steps are done: the log has events
    link = host.locator("#host-export")
    expect(link).to_be_visible(timeout=WAIT_MS)
    expect(link).to_have_text("Export the game")
    with host.expect_download(timeout=WAIT_MS) as info:
        link.click()
    saved = tmp_path / f"{key}.jsonl"
    info.value.save_as(saved)
    header, *events = saved.read_text(encoding="utf-8").splitlines()
    assert json.loads(header)["game"] == key and events
    replayed = CliRunner().invoke(main, ["rules", key, "replay", str(saved), "--json"])
    assert replayed.exit_code == 0, replayed.output
    assert json.loads(replayed.output)["state_id"] == len(events)
    assert errors == []


def test_a_phone_whose_browser_reads_polish_gets_polish_and_can_switch(
    browser: Tabs, waiting_table: tuple[str, Served]
) -> None:
    """(9) The language follows the phone's browser; the switch on the page changes it."""
    from playwright.sync_api import expect

    key, served = waiting_table
    errors: list[str] = []
    context = browser.new_context(viewport=PHONE_SIZE, is_mobile=True, locale="pl-PL")
    try:
        display = watch(context.new_page(), errors)
        display.set_viewport_size(TABLE_SIZE)
        display.goto(served.host_url)  # a Polish browser: the table display in Polish too
        seat = acting_seat(display, served)
        phone = watch(context.new_page(), errors)
        phone.goto(served.seat_urls[seat])
        expect(phone.locator("#h-scores")).to_have_text("Wyniki", timeout=WAIT_MS)
        expect(phone.locator("#lang")).to_have_value("pl")
        expect(phone.locator("#turn")).to_have_text("Twój ruch", timeout=WAIT_MS)
        expect(phone.locator("#scores caption")).to_contain_text("Wyniki bieżące")
        expect(phone.locator("#scores .breakdown li").first).to_be_visible(timeout=WAIT_MS)
        # no English label of the pages or the game stands in the Polish pages
        assert english_in_polish(phone) == []
        expect(display.locator("#h-log")).to_have_text("Dziennik", timeout=WAIT_MS)
        assert english_in_polish(display) == []
        phone_fits(phone)
        shot(phone, PAGES_SHOTS, f"{key}-phone-pl.png")
        shot(display, PAGES_SHOTS, f"{key}-table-pl.png")
        # a move and its undo, said in Polish with the move's Polish name
        if phone.locator("#moves button.move").count():
            start = int(display.locator("#summary").get_attribute("data-state-id") or "0")
            phone.locator("#moves button.move").first.click()
            phone.locator("#confirm").click()
            expect(phone.locator("#toast .toast.good")).to_contain_text("Zrobione", timeout=WAIT_MS)
            phone.wait_for_function(
                f"() => window.heraldSeat.prompt().state_id > {start}", timeout=WAIT_MS
            )
            undone = display.evaluate(
                f"window.heraldTable.latest().log.find((e) => e.seq === {start + 1})"
            )
            said = phone.evaluate(
                f"Herald.forSeat({json.dumps(seat)}, {json.dumps(undone['labels']['pl'])})"
            )
            phone.locator("#undo").click()
            expect(phone.locator("#toast")).to_have_text(
                f"Cofnięto twój ruch: {said}.", timeout=WAIT_MS
            )
            expect(display.locator("#log li.undone")).not_to_have_count(0, timeout=WAIT_MS)
            assert english_in_polish(phone) == []
        phone.select_option("#lang", "en")
        expect(phone.locator("#h-scores")).to_have_text("Scores", timeout=WAIT_MS)
        phone.goto(served.seat_urls[seat])  # the choice is kept on this phone
        expect(phone.locator("#h-scores")).to_have_text("Scores", timeout=WAIT_MS)
    finally:
        context.close()
    assert errors == []


@pytest.mark.parametrize("key", BY_GAME)
def test_the_end_of_a_game_shows_the_ranking_and_how_each_tie_was_settled(
    browser: Tabs, played: PlayedStores, tmp_path: Path, key: str
) -> None:
    """(2) and (8): the ranking in large type with the tie-break sentences; the phone shows the
    end too, with no Confirm or Undo left. The game is played offline to ``LAST_MOVES`` moves
    before its end; the served table's simulation plays the rest while the pages look on."""
    from playwright.sync_api import expect

    info = get_game(key).info
    fewest = str(info.min_players)
    # the game's own simulated setup for that count (a whole France 1429 game runs to 3,000
    # moves; its simulations stop after 3 rounds), so the end comes within the wait
    setup = next((s for s in info.simulations if s.players == info.min_players), None)
    chosen = dict(setup.options) if setup else {}
    options = [x for name, value in chosen.items()
               for x in ("--option", f"{name}={json.dumps(value)}")]  # fmt: skip
    near_end = Point(key, seat_names(info.min_players), seed=1, name=f"{LAST_MOVES} before the end",
                     before_end=LAST_MOVES, options={**info.option_defaults(), **chosen},
                     max_moves=10_000)  # fmt: skip
    db = played.get(near_end).copy(tmp_path, "end.db")
    served = serve(db, "--game", key, "--players", fewest, "--sim", "all",
                   "--move-delay", "0", "--restart-after", "0", *options)  # fmt: skip
    errors: list[str] = []
    try:
        display = watch(browser.new_page(viewport=TABLE_SIZE), errors)
        display.goto(served.table_url)
        seat = next(iter(served.seat_urls))
        phone = watch(browser.new_page(viewport=PHONE_SIZE, is_mobile=True), errors)
        phone.goto(served.seat_urls[seat])
        expect(display.locator("#final")).to_be_visible(timeout=END_WAIT_MS)
        scores = display.evaluate("window.heraldTable.latest().view.scores")
        assert all(r["final"] for r in scores)
        ranking = display.locator("#final .ranking li")
        expect(ranking).to_have_count(len(scores))
        ranks = [int(x) for x in display.locator("#final .ranking li").evaluate_all(
            "(ns) => ns.map((n) => n.dataset.rank)")]  # fmt: skip
        assert ranks == sorted(ranks) and ranks[0] == 1
        ordered = sorted(scores, key=lambda r: r["rank"])
        ties = sum(1 for a, b in itertools.pairwise(ordered) if a["total"] == b["total"])
        expect(display.locator("#final .ties li")).to_have_count(ties)
        expect(display.locator("#scores caption.final")).to_be_visible()
        expect(display.locator("#banner")).to_have_text("Game over")
        plotted = display.evaluate("window.heraldTable.plot()")
        assert plotted["points"] > 0 and plotted["outside"] == 0
        shot(display, PAGES_SHOTS, f"{key}-table-end.png")

        expect(phone.locator("#final")).to_be_visible(timeout=WAIT_MS)
        expect(phone.locator("#turn")).to_have_text("Game over")
        expect(phone.locator("#confirm")).to_be_hidden()
        expect(phone.locator("#undo")).to_be_hidden()
        phone_fits(phone)
        shot(phone, PAGES_SHOTS, f"{key}-phone-end.png")
    finally:
        served.stop()
    assert errors == []


@pytest.mark.parametrize("key", BY_GAME)
def test_the_host_sets_up_a_new_game_with_named_seats_in_the_browser(
    browser: Tabs, tmp_path: Path, key: str
) -> None:
    """(10) The host page's form: the game, two seats with names and colours, the options with
    their rulebook references; the new game's seats are named beside their colour."""
    from playwright.sync_api import expect

    served = serve(tmp_path / "setup.db", "--sim", "table", "--move-delay", "0.05")
    errors: list[str] = []
    info = get_game(key).info
    try:
        display = watch(browser.new_page(viewport=TABLE_SIZE), errors)
        display.goto(served.host_url + "?lang=en")
        expect(display.locator("#host-start")).to_be_visible(timeout=WAIT_MS)
        display.locator("#host-start").click()
        expect(display.locator("#setup-box")).to_be_visible()
        display.select_option("#setup-game", key)
        # every option with choices is offered with its rulebook section, never a file id
        offered = display.locator("#setup-options .setup-option")
        assert offered.count() >= 1
        for ref in offered.locator(".ref").all_inner_texts():
            assert ref.startswith(("§", "Appendix")) and not FILE_ID.search(ref)
        while display.locator("#setup-seats .setup-seat").count() > 2:
            display.locator("#setup-seats .setup-seat button").last.click()
        while display.locator("#setup-seats .setup-seat").count() < max(2, info.min_players):
            display.locator("#setup-add").click()
        seats = display.locator("#setup-seats .setup-seat")
        named = [("red", "Ala"), ("teal", "Olek"), ("yellow", "Ewa"), ("purple", "Jan")]
        for i in range(seats.count()):
            seats.nth(i).locator("select").select_option(named[i][0])
            seats.nth(i).locator("input").fill(named[i][1])
        shot(display, PAGES_SHOTS, f"setup-{key}.png")
        display.locator("#setup-start").click()
        expect(display.locator("#setup-box")).to_be_hidden(timeout=WAIT_MS)
        display.wait_for_function(
            f"() => window.heraldTable.latest().game === '{key}'", timeout=WAIT_MS
        )
        expect(display.locator("#join .join-seat")).to_have_count(
            max(2, info.min_players), timeout=WAIT_MS
        )
        expect(display.locator("#scores")).to_contain_text("Ala (red)")
        expect(display.locator("#scores")).to_contain_text("Olek (teal)")
        expect(display.locator("#join")).to_contain_text("Ala (red)")
        # the new seat's join link opens its phone, named on it too
        link = display.locator("#join .join-seat a").first.get_attribute("href")
        phone = watch(browser.new_page(viewport=PHONE_SIZE, is_mobile=True), errors)
        phone.goto(str(link))
        expect(phone.locator("#me")).to_have_text("Ala (red)", timeout=WAIT_MS)
    finally:
        served.stop()
    assert errors == []


def test_your_turn_buzzes_and_beeps_only_on_phones_that_opted_in(
    browser: Tabs, waiting_table: tuple[str, Served]
) -> None:
    """(12) The opt-in "your turn" alert: a vibration and a tone when this seat's turn comes,
    counted by the page (``window.heraldAlerts``); a phone that did not opt in stays quiet."""
    from playwright.sync_api import expect

    key, served = waiting_table
    errors: list[str] = []
    display = watch(browser.new_page(viewport=TABLE_SIZE), errors)
    display.goto(served.table_url)
    acting_seat(display, served)
    loud: dict[str, Any] = {}
    quiet: dict[str, Any] = {}
    for seat, url in served.seat_urls.items():
        for group in (loud, quiet):
            phone = watch(browser.new_page(viewport=PHONE_SIZE, is_mobile=True), errors)
            phone.goto(url)
            expect(phone.locator("#summary")).not_to_be_empty(timeout=WAIT_MS)
            if group is loud:
                phone.locator("#alerts").check()
            group[seat] = phone

    def mine(phone: Any) -> bool:
        return "mine" in (phone.locator("#turn").get_attribute("class") or "")

    for _ in range(8):  # moves until some seat's turn comes (not a seat already acting)
        # the acting seat's phone says so once its prompt has arrived (a condition, not a sleep)
        to_act = [s for s in display.evaluate("window.heraldTable.latest().to_act") if s in loud]
        if not to_act:
            pytest.fail(f"{key}: the table waits for no seat with a phone")
        expect(loud[to_act[0]].locator("#turn")).to_have_class("turn mine", timeout=WAIT_MS)
        before = {seat: mine(phone) for seat, phone in loud.items()}
        mover = to_act[0]
        start = int(display.locator("#summary").get_attribute("data-state-id") or "0")
        listed = loud[mover].locator("#moves button.move")
        panel = loud[mover].locator("#game button.opt:not([disabled])")  # a module's own panel
        expect(listed.or_(panel).first).to_be_visible(timeout=WAIT_MS)
        if listed.count():
            # a state that arrives between the pick and Confirm redraws the list and drops the
            # pick (a forced move plays itself): pick again from the new list, at most 3 times
            for attempt in range(3):
                listed.first.click()
                try:
                    loud[mover].locator("#confirm").click(timeout=WAIT_MS // 3)
                    break
                except PlaywrightTimeout:
                    if attempt == 2:
                        raise
        else:
            panel.first.click()
        display.wait_for_function(
            f"() => {{ const d = window.heraldTable.latest(); return d.state_id > {start}"
            " && d.to_act.length && !d.to_act.includes('table'); }",
            timeout=WAIT_MS,
        )
        acting = display.evaluate("window.heraldTable.latest().to_act")
        came = [s for s in acting if s in loud and not before[s]]
        if not came:
            continue
        seat = came[0]
        expect(loud[seat].locator("#turn")).to_have_class("turn mine", timeout=WAIT_MS)
        loud[seat].wait_for_function("() => window.heraldAlerts === 1", timeout=WAIT_MS)
        expect(quiet[seat].locator("#turn")).to_have_class("turn mine", timeout=WAIT_MS)
        assert quiet[seat].evaluate("window.heraldAlerts || 0") == 0
        for other, phone in loud.items():
            if other not in acting:
                assert phone.evaluate("window.heraldAlerts || 0") == 0
        break
    else:
        pytest.fail(f"{key}: no seat's turn came in eight moves")
    assert errors == []


def test_a_roll_no_step_takes_shows_in_the_device_panel_not_as_a_toast(
    browser: Tabs, tmp_path: Path
) -> None:
    """(7) A game with no dice step (Middle Ages): the simulated tower rolls on its own only when
    told to (``--tower-every``); such a roll is listed in the device panel, and neither the
    table display nor a phone raises a toast for it."""
    from playwright.sync_api import expect

    key = next((k for k in GAMES if not callable(getattr(get_game(k), "dice_pool", None))), None)
    if key is None:
        pytest.skip("every registered game has dice steps")
    served = serve(tmp_path / "rolls.db", "--game", key, "--sim", "table", "--move-delay", "0.05",
                   "--tower-every", "20")  # fmt: skip
    errors: list[str] = []
    try:
        display = watch(browser.new_page(viewport=TABLE_SIZE), errors)
        display.goto(served.table_url)
        # (9) a second display of the same table reading Polish: the same pushed roll in Polish
        polish = watch(browser.new_page(viewport=TABLE_SIZE), errors)
        polish.goto(served.table_url + ("&" if "?" in served.table_url else "?") + "lang=pl")
        phone = watch(browser.new_page(viewport=PHONE_SIZE, is_mobile=True), errors)
        phone.goto(next(iter(served.seat_urls.values())))
        for page in (display, polish, phone):  # a roll reached the page
            page.wait_for_function("() => (window.heraldRolls || 0) >= 1", timeout=WAIT_MS * 2)
        for page in (display, polish):
            expect(page.locator("#rolls li")).not_to_have_count(0, timeout=WAIT_MS)
            expect(page.locator("#devices li.device")).not_to_have_count(0, timeout=WAIT_MS)
        for page in (display, polish, phone):
            assert page.locator("#toast .toast").count() == 0, page.locator("#toast").inner_text()
        # (4) seat boxes and the tower in words, in each display's language
        english_rolls = display.locator("#rolls li").first.inner_text()
        polish_rolls = polish.locator("#rolls li").first.inner_text()
        assert "Dice tower 1" in english_rolls and "no game step needs this roll" in english_rolls
        assert "Wieża do kości 1" in polish_rolls and "żaden krok gry" in polish_rolls
        assert "seat box" in display.locator("#devices").inner_text()
        assert "Pudełko miejsca" in polish.locator("#devices").inner_text()
        for page in (display, polish):
            no_device_ids(page)
        shot(polish, PAGES_SHOTS, f"{key}-devices-pl.png")
    finally:
        served.stop()
    assert errors == []
