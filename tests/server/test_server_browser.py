"""The pages in Debian's chromium, driven by Playwright: table display and two phones, in the
worker's shared chromium (browser_fixtures.py).

Screenshots for a person to look at go to ``artifacts/server/`` (git-ignored).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from browser_fixtures import Tabs
from browser_support import SERVER_SHOTS, SMALL_PHONE_SIZE, needs_chromium, shot, watch
from srv_support import SEATS, Served, serve

WAIT_MS = 30_000

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    db = tmp_path_factory.mktemp("browser") / "b.db"
    served = serve(db, "--sim", "table", "--move-delay", "0.05")
    yield served
    served.stop()


def test_act_on_one_phone_and_table_and_both_phones_update(browser: Tabs, table: Served) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    display = browser.table(errors)
    display.goto(table.host_url)
    # the simulated table lays the rows; then the first seat must place its Lord (the
    # phase in the players' words, issue 15)
    expect(display.locator("#summary")).to_contain_text("Placing the Lords", timeout=WAIT_MS)
    expect(display.locator("#join .qr svg")).to_have_count(len(SEATS))
    start = int(display.locator("#summary").get_attribute("data-state-id") or "0")
    seat = display.evaluate("window.heraldTable.latest().to_act[0]")
    assert seat in SEATS
    other = next(s for s in SEATS if s != seat)

    phones = {}
    for name in (seat, other):
        phone = browser.phone(errors, SMALL_PHONE_SIZE)
        phone.goto(table.seat_urls[name])
        expect(phone.locator("#summary")).to_have_attribute(
            "data-state-id", str(start), timeout=WAIT_MS
        )
        phones[name] = phone
    mine, theirs = phones[seat], phones[other]
    expect(mine.locator("#turn")).to_have_class("turn mine")
    expect(theirs.locator("#turn")).not_to_have_class("turn mine")
    expect(theirs.locator("#moves button")).to_have_count(0)
    shot(mine, SERVER_SHOTS, f"seat-{seat}-before.png")

    mine.locator("#moves button").first.click()
    mine.locator("#confirm").click()
    new = str(start + 1)
    for page in (display, mine, theirs):
        expect(page.locator("#summary")).to_have_attribute("data-state-id", new, timeout=WAIT_MS)
    expect(display.locator("#log li").first).to_contain_text(seat)
    # the next seat to place is told so on its own phone only
    shot(display, SERVER_SHOTS, "table.png")
    shot(mine, SERVER_SHOTS, f"seat-{seat}-after.png")
    shot(theirs, SERVER_SHOTS, f"seat-{other}.png")

    # a seat page shows only its own seat: no other seat's prompt, token or join code
    for name, page in phones.items():
        html = page.content()
        assert page.locator("#me [data-seat]").get_attribute("data-seat") == name
        for other_seat in SEATS:
            if other_seat != name:
                assert table.token(other_seat) not in html
        assert table.host_token not in html
        assert page.locator(".qr").count() == 0
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"{name}'s page scrolls sideways ({width}px)"
    # undo from the phone that moved
    if mine.locator("#undo").is_enabled():
        mine.locator("#undo").click()
        expect(display.locator("#log li.undone")).to_have_count(1, timeout=WAIT_MS)
    assert errors == []


def test_table_display_without_host_token_shows_no_join_codes(browser: Tabs, table: Served) -> None:
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1024, "height": 800})
    page.goto(table.table_url)
    expect(page.locator("#rows .row")).to_have_count(4, timeout=WAIT_MS)
    assert page.locator("#join-box").is_hidden()
    html = page.content()
    assert all(table.token(s) not in html for s in SEATS)
    page.goto(f"{table.base}/s/forged-token")
    assert "not valid" in page.content()


def test_a_page_opened_with_lang_pl_reads_polish_labels_in_their_plural_forms(
    browser: Tabs, table: Served
) -> None:
    """``?lang=pl`` on a page's address: the labels come in Polish, and the formatter picks a
    plural entry's form by the browser's CLDR rules (Intl.PluralRules): 1 błąd, 22 błędy,
    5 błędów."""
    from playwright.sync_api import expect

    errors: list[str] = []
    page = watch(browser.new_page(), errors)
    page.goto(f"{table.table_url}?lang=pl")
    expect(page.locator("#h-log")).to_have_text("Dziennik", timeout=WAIT_MS)
    said = page.evaluate(
        "[1, 2, 5, 12, 22].map((n) => Herald.t('ui/device-errors', { errors: n }))"
    )
    assert said == ["1 błąd", "2 błędy", "5 błędów", "12 błędów", "22 błędy"]
    english = browser.new_page()
    english.goto(table.table_url)
    expect(english.locator("#h-log")).to_have_text("Log", timeout=WAIT_MS)
    assert english.evaluate("[1, 2].map((n) => Herald.t('ui/device-errors', { errors: n }))") == [
        "1 error",
        "2 errors",
    ]
    assert errors == []
