"""What a group sees on every game's pages, as issue 25 points 3, 4 and 7 ask, in the browser.

One served table per registered game (the simulated table plays every move), looked at in
English and Polish on the table display at 1920×1080 (the host's page, with its new-game form)
and on two phones at 390×844:

- (3) no id the game's data, names or options define stands in any visible text (ids that are
  also words or printed names are told apart as tests/visible_ids.py says);
- (7) no English sentence of the catalogs stands in a Polish page; large type scales the whole
  table display (scores, log, the game's own board), not only the headings;
- (5, 6, 8) the table display, on the TV in English and on a phone in Polish, reads the scores
  as a ranking, names each line's seat, says the table's step with one prefix, never shows a
  bare dash for who acts, draws the plot's line and folds the referee's runs of moves
  (tests/server/test_server_flow_browser.py's ``check``);
- (4) a phone's page holds no text squeezed to a letter or two per line, stays within 2.5
  screens with the shared board folded, and shows the seat's own holdings and options before
  the scores; Viscounts' shared board opens on demand and its table board has a legend; France
  1429's map opens zoomed on a phone, pans and zooms.

Screenshots of every page go to ``artifacts/pages/`` (git-ignored) for a person to look at.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from browser_fixtures import Tabs
from browser_support import PAGES_SHOTS, PHONE_SIZE, needs_chromium, shot, watch
from played_support import PlayedStores, Point
from srv_support import Served, serve
from test_server_flow_browser import HOST_DOUBLED, POLISH_DOUBLED, check, look
from test_server_table_browser import english_in_polish
from visible_ids import ids_shown, page_catalog_texts, scanned_ids

from bridge.seats import seat_names
from engine.registry import get_game, installed_keys

WAIT_MS = 60_000
TV_SIZE = {"width": 1920, "height": 1080}
PLAYED = 60
"""Moves the simulated table makes before the pages are read: scores, income and the log have
lines to show by then."""
SCREENS = 2.5
"""How many phone screens a seat's page may take with the shared board folded."""
GAMES = list(installed_keys())
BY_GAME = [pytest.param(k, marks=pytest.mark.xdist_group(f"names-{k}")) for k in GAMES]

pytestmark = [needs_chromium, pytest.mark.slow]


class _SeatActsAfter:
    """A ``Point`` stop: ``moves`` moves made, and the table waits for a seat (not for its own
    step, not over), so the served table stands still while the pages are read."""

    def __init__(self, moves: int) -> None:
        self.moves = moves
        self.made = 0

    def __call__(self, game: Any, state: Any) -> bool:
        self.made += 1
        acting = game.to_act(state)
        return self.made >= self.moves and bool(acting) and "table" not in acting


@pytest.fixture(scope="module", params=BY_GAME)
def table_at(
    request: pytest.FixtureRequest, played: PlayedStores, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, Served]]:
    """Each game ``PLAYED`` moves in (played offline once per session, its simulated setup for
    three seats), served with the simulated table doing only the table's steps: the phones see
    their seat's options and nothing moves under the test."""
    key = request.param
    info = get_game(key).info
    count = max(info.min_players, min(3, info.max_players))
    setup = next((s for s in info.simulations if s.players == count), None)
    chosen = dict(setup.options) if setup else {}
    options = {**info.option_defaults(), **chosen}
    point = Point(key, seat_names(count), seed=2, name=f"{PLAYED} moves in",
                  stop=_SeatActsAfter(PLAYED), options=options)  # fmt: skip
    db = played.get(point).copy(tmp_path_factory.mktemp(f"names-{key}"), "n.db")
    flags = [x for name, value in chosen.items()
             for x in ("--option", f"{name}={json.dumps(value)}")]  # fmt: skip
    served = serve(db, "--game", key, "--players", str(count), "--sim", "table",
                   "--move-delay", "0.05", *flags)  # fmt: skip
    yield key, served
    served.stop()


def _url(url: str, lang: str) -> str:
    return url + ("&" if "?" in url else "?") + f"lang={lang}"


def _table(browser: Tabs, served: Served, lang: str, errors: list[str]) -> Any:
    """The host's table display in ``lang`` once the game has ``PLAYED`` moves behind it."""
    page = watch(browser.new_page(viewport=TV_SIZE), errors)
    page.goto(_url(served.host_url, lang))
    page.wait_for_function(
        f"() => {{ const d = window.heraldTable && window.heraldTable.latest();"
        f" return d && d.state_id >= {PLAYED} && d.to_act.length"
        " && !d.to_act.includes('table'); }",
        timeout=WAIT_MS,
    )
    page.wait_for_function(  # drawn: the banner, the scores and the game's own board
        "() => document.querySelector('#banner .chip')"
        " && document.querySelector('#scores tbody tr')"
        " && document.querySelector('#game').childElementCount > 0",
        timeout=WAIT_MS,
    )
    return page


def _phone(browser: Tabs, url: str, lang: str, errors: list[str]) -> Any:
    page = watch(browser.new_page(viewport=PHONE_SIZE, is_mobile=True), errors)
    page.goto(_url(url, lang))
    page.wait_for_function(
        "() => window.heraldSeat && window.heraldSeat.table()"
        " && document.querySelector('#scores tbody tr')",
        timeout=WAIT_MS,
    )
    return page


def test_no_page_shows_an_id_and_polish_pages_say_no_english(
    browser: Tabs, table_at: tuple[str, Served]
) -> None:
    """(3) and (7): the table display, two phones and the new-game form, in both languages."""
    from playwright.sync_api import expect

    key, served = table_at
    ids = scanned_ids(key, page_catalog_texts())
    errors: list[str] = []
    found: list[str] = []
    for lang in ("en", "pl"):
        table = _table(browser, served, lang, errors)
        pages = {"table": table}
        for i, url in enumerate(list(served.seat_urls.values())[:2]):
            pages[f"phone{i + 1}"] = _phone(browser, url, lang, errors)
        for name, page in pages.items():
            text = page.inner_text("body")
            found += [f"{lang} {name}: {hit}" for hit in ids_shown(text, ids)]
            if lang == "pl":
                found += [f"pl {name}: English {hit}" for hit in english_in_polish(page)]
            shot(page, PAGES_SHOTS, f"names-{key}-{name}-{lang}.png")
        # the host's new-game form, with this game chosen: its options and choices in words
        table.locator("#host-start").click()
        expect(table.locator("#setup-box")).to_be_visible(timeout=WAIT_MS)
        table.select_option("#setup-game", key)
        expect(table.locator("#setup-options .setup-option").first).to_be_visible()
        form = table.inner_text("#setup-box")
        found += [f"{lang} setup: {hit}" for hit in ids_shown(form, ids)]
        shot(table, PAGES_SHOTS, f"names-{key}-setup-{lang}.png")
    assert not found, "\n".join(found)
    assert errors == []


def test_the_table_display_ranks_names_each_seat_and_folds_the_referee_s_runs(
    browser: Tabs, table_at: tuple[str, Served]
) -> None:
    """(5, 6, 8) The host's display on the TV in English and the table display on a phone in
    Polish, with ``PLAYED`` moves behind them."""
    key, served = table_at
    errors: list[str] = []
    host = _table(browser, served, "en", errors)  # the host's page, drawn
    check(look(host, key, PLAYED), key, HOST_DOUBLED)
    table = watch(browser.new_page(viewport=PHONE_SIZE, is_mobile=True), errors, "table-pl")
    table.goto(_url(served.table_url, "pl"))
    table.wait_for_function("() => document.querySelector('#scores tbody tr')", timeout=WAIT_MS)
    check(look(table, key, PLAYED), key, POLISH_DOUBLED)
    shot(table, PAGES_SHOTS, f"names-{key}-table-pl-390.png")
    assert errors == []


NARROW = """() => {
  // every visible text that takes more lines than it has words: a column too narrow for its
  // words, which the browser then breaks a letter or two per line ("F a r m e r")
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    const text = node.textContent.trim();
    if (!/\\p{L}{4}/u.test(text)) continue;
    const parent = node.parentElement;
    if (!parent || parent.closest("svg, details:not([open]), [hidden]")) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
    const lines = new Set(rects.map((r) => Math.round(r.top))).size;
    const words = text.split(/\\s+/).length;
    if (lines > words) out.push(`${parent.className}: ${lines} lines for ${text.slice(0, 30)}`);
  }
  return out;
}"""

TOP = """(sel) => { const n = document.querySelector(sel);
  return n ? n.getBoundingClientRect().top + scrollY : null; }"""


def test_a_phone_fits_its_words_and_shows_its_own_things_first(
    browser: Tabs, table_at: tuple[str, Served]
) -> None:
    """(4) At 390×844, in both languages: no word squeezed to a letter per line, at most 2.5
    screens with the shared board folded, the seat's holdings and options above the scores."""
    key, served = table_at
    errors: list[str] = []
    url = next(iter(served.seat_urls.values()))
    for lang in ("en", "pl"):
        phone = _phone(browser, url, lang, errors)
        phone.wait_for_function("() => document.querySelector('#game').childElementCount > 0")
        assert phone.evaluate(NARROW) == [], lang
        height = phone.evaluate("document.documentElement.scrollHeight")
        shot(phone, PAGES_SHOTS, f"names-{key}-phone-layout-{lang}.png")
        assert height <= SCREENS * PHONE_SIZE["height"], f"{lang}: {height}px"
        scores = phone.evaluate(TOP, "#scores")
        holdings = phone.evaluate(TOP, "#game")
        assert holdings is not None and scores is not None and holdings < scores
        if phone.locator("#prompt-box").is_visible():
            assert phone.evaluate(TOP, "#prompt-box") < scores
    assert errors == []


def test_large_type_scales_the_whole_table_display(
    browser: Tabs, table_at: tuple[str, Served]
) -> None:
    """(7) Large type on the TV: the score lines, the log and the game's own board grow with the
    banner, not the headings alone."""
    key, served = table_at
    errors: list[str] = []
    table = _table(browser, served, "en", errors)
    parts = ["#banner", "#scores tbody td", "#log li", "#game :is(p, li, dd, span, div, b)"]
    size = """(sel) => { const n = document.querySelector(sel);
      return n ? parseFloat(getComputedStyle(n).fontSize) : null; }"""
    before = {p: table.evaluate(size, p) for p in parts}
    assert all(before.values()), before
    axis_before = table.evaluate("HeraldPlot.current().axes[0].font[1]")
    table.locator("#tv").check()
    after = {p: table.evaluate(size, p) for p in parts}
    grown = {p: after[p] / before[p] for p in parts}
    assert all(g >= 1.3 for g in grown.values()), grown
    # the plot's axes too (uPlot draws them on a canvas, in the font it was given)
    table.wait_for_function(f"() => HeraldPlot.current().axes[0].font[1] > {axis_before}")
    shot(table, PAGES_SHOTS, f"names-{key}-table-tv.png")
    table.locator("#tv").uncheck()
    assert errors == []


def test_the_game_s_own_board_reads_on_a_phone_and_on_the_table(
    browser: Tabs, table_at: tuple[str, Served]
) -> None:
    """(4) Viscounts: the shared board folded on the phone until opened, the table's ring with
    a legend for every kind of mark, player boards drawn as boards. France 1429: the map opens
    zoomed on a phone, pans (wider than its box) and zooms in and out."""
    from playwright.sync_api import expect

    key, served = table_at
    errors: list[str] = []
    url = next(iter(served.seat_urls.values()))
    phone = _phone(browser, url, "en", errors)
    if key == "viscounts":
        shared = phone.locator("#vi-shared")
        expect(shared).to_be_visible(timeout=WAIT_MS)
        assert not shared.evaluate("(n) => n.open")
        expect(phone.locator("#vi-ring")).to_be_hidden()
        assert phone.evaluate(TOP, "#vi-hand") < phone.evaluate(TOP, "#vi-shared")
        assert phone.evaluate(TOP, "article.board") < phone.evaluate(TOP, "#vi-shared")
        shared.locator("summary").click()
        expect(phone.locator("#vi-ring")).to_be_visible()
        table = _table(browser, served, "en", errors)
        legend = table.locator("#vi-legend li")
        kinds = legend.evaluate_all("(ns) => ns.map((n) => n.dataset.legend)")
        assert {"number", "inner", "site", "building-workshop"} <= set(kinds)
        assert any(k.startswith("exchange-") for k in kinds)
        seats = table.evaluate("window.heraldTable.latest().view.players.map((p) => p.seat)")
        assert {f"viscount-{s}" for s in seats} <= set(kinds)
        assert table.locator("#boards article.board .vi-spaces > li").count() == 3 * len(seats)
        assert table.locator("#boards article.board .vi-counters .stat").count() == 4 * len(seats)
        shot(table, PAGES_SHOTS, f"names-{key}-table-board.png")
    elif key == "france1429":
        box = phone.locator("#fr-zoom")
        expect(box).to_be_visible(timeout=WAIT_MS)
        assert box.get_attribute("data-zoom") == "2"
        wide = "(n) => n.scrollWidth > n.clientWidth + 10"
        assert box.evaluate(wide)  # pans: the map is wider than its box
        phone.locator("#fr-zoom-in").click()
        assert box.get_attribute("data-zoom") == "3"
        phone.locator("#fr-zoom-fit").click()
        assert box.get_attribute("data-zoom") == "1"
        assert not box.evaluate(wide)
        phone.locator("#fr-zoom-in").click()
        assert box.get_attribute("data-zoom") == "1.5"
    else:
        pytest.skip(f"{key} draws no board that needs more than fitting the phone")
    shot(phone, PAGES_SHOTS, f"names-{key}-phone-board.png")
    assert errors == []
