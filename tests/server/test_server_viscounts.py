"""``herald serve --game viscounts`` (issue 14, "At the table"): the simulated table playing a
whole game while phones join, and a solo game against the AI, in Debian's chromium. The table
display and two phones through a replayed round are the conformance suite's
(tests/conformance/test_round_served.py). Screenshots go to ``artifacts/pages/``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_fixtures import Tabs
from browser_support import Framed, needs_chromium
from srv_support import serve

WAIT_MS = 90_000
END_WAIT_MS = 300_000  # a whole simulated game on a loaded machine
SEATS = ("blue", "green", "pink")

pytestmark = [
    pytest.mark.slow,
    needs_chromium,
]


def test_serve_viscounts_plays_a_simulated_game_with_phones_joining(
    browser: Tabs, tmp_path: Path
) -> None:
    """``herald serve --game viscounts``: the simulated table plays every move (two rounds, the
    game's own simulated cap); two phones join once the first round is under way, each shows its
    own hand with the cards' effects and the board, and the game ends with its ranking on the
    table display and on both phones, the Viscounts board still drawn and the scores plotted."""
    from playwright.sync_api import expect

    # a pace the phones can join at: forced moves make themselves (issue 25, point 6), so the
    # two rounds take few simulated moves, and at 0.05 s a move the game was over before them
    served = serve(tmp_path / "s.db", "--game", "viscounts", "--sim", "all",
                   "--move-delay", "0.4", "--option", "max_rounds=2")  # fmt: skip
    errors: list[str] = []
    try:
        assert set(served.seat_urls) == set(SEATS), served.output
        display = Framed(browser, served.table_url, errors, phone=False)
        expect(display.page.locator("#vi-round")).to_have_text("Round 1", timeout=WAIT_MS)
        phones = {s: Framed(browser, served.seat_urls[s], errors, phone=True) for s in SEATS[:2]}
        for seat, phone in phones.items():
            hand = phone.page.locator("#vi-hand li.vi-card")
            expect(hand.first).to_be_visible(timeout=WAIT_MS)
            expect(phone.page.locator("#final")).to_have_count(0)  # joined during the game
            # the hand's cards with an effect say it (not every card has one)
            effect = phone.page.locator("#vi-hand li.vi-card .vi-effect")
            expect(effect.first).not_to_be_empty(timeout=WAIT_MS)
            expect(phone.page.locator(f"article.board[data-seat='{seat}']")).to_be_visible()
            expect(phone.page.locator("#vi-ring .vi-pawn")).to_have_count(len(SEATS))
        expect(display.page.locator("#final")).to_be_visible(timeout=END_WAIT_MS)
        expect(display.page.locator("#vi-ring .vi-pawn")).to_have_count(len(SEATS))
        expect(display.page.locator("#final .ranking li")).to_have_count(len(SEATS))
        plotted = display.page.evaluate("window.heraldTable.plot()")
        assert plotted["points"] > 0 and plotted["outside"] == 0
        display.shot("viscounts-serve-end.png")
        for phone in phones.values():
            expect(phone.page.locator("#final")).to_be_visible(timeout=WAIT_MS)
            assert any(f.startswith('42["seat_state"') for f in phone.frames), phone.frames[:3]
        phones[SEATS[0]].shot("viscounts-serve-phone-end.png")
    finally:
        served.stop()
    assert not errors, errors


def test_serve_viscounts_solo_shows_the_ais_scheme_on_the_table_and_the_phone(
    browser: Tabs, tmp_path: Path
) -> None:
    """Solo (digest §8): ``herald serve --game viscounts --players 1`` seats one player against
    the AI; the AI plays its own turns (the referee computes them) while the simulated table
    plays the player's; the table display and the player's phone show the AI board, its Scheme
    piles and the three Schemes on its board with their steps, and the game ends with the
    player and the AI ranked."""
    from playwright.sync_api import expect

    served = serve(tmp_path / "solo.db", "--game", "viscounts", "--players", "1", "--sim", "all",
                   "--move-delay", "0.05", "--option", "max_rounds=2")  # fmt: skip
    errors: list[str] = []
    try:
        humans = [s for s in served.seat_urls if s != "ai"]
        assert len(humans) == 1, served.output
        display = Framed(browser, served.table_url, errors, phone=False)
        phone = Framed(browser, served.seat_urls[humans[0]], errors, phone=True)
        for page in (display, phone):
            panel = page.page.locator("#vi-solo")
            expect(panel).to_be_visible(timeout=WAIT_MS)
            expect(panel.locator("h3")).not_to_be_empty()
            expect(panel.locator("ol.vi-row > li.vi-card")).to_have_count(3)
        # once a Scheme lies on the AI board its steps are listed, in words
        steps = display.page.locator("#vi-solo ol.vi-steps li")
        expect(steps.first).to_be_visible(timeout=END_WAIT_MS)
        assert not re.search(r"\{\w+\}", display.page.locator("#vi-solo").inner_text())
        expect(display.page.locator("#final")).to_be_visible(timeout=END_WAIT_MS)
        expect(display.page.locator("#final .ranking li")).to_have_count(2)
        display.shot("viscounts-solo-end.png")
        expect(phone.page.locator("#final")).to_be_visible(timeout=WAIT_MS)
    finally:
        served.stop()
    assert not errors, errors
