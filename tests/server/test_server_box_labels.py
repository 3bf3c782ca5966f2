"""The "Your box" page in Polish, in chromium (issue #24 point 1): each game's forms show their
components, fields and choices in the Polish rulebooks' words, with where a value is printed,
never the data file's keys or JSON Editor's type names."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import shot, watch
from srv_support import Served, serve

pytestmark = pytest.mark.slow(seconds=60)  # a long group: handed out first (tests/conftest.py)

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "pages"

GAMES = {
    # game: (the set to start from, a component's tab, a field of it, a choice it shows)
    "france1429": ("box", "Karty", "Kiedy się ją zagrywa", "w dowolnym momencie poza dobieraniem"),
    "viscounts": ("stand-in", "Mieszczanie", "Wartość w Srebrnikach", "Pospolity"),
    "glory": ("box", "Postacie", "Monety", "jeszcze nieznane"),  # not known yet: a switch
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    table = serve(tmp_path_factory.mktemp("box") / "t.db", "--game", "viscounts", "--sim", "off")
    yield table
    table.stop()


HELP = """field => {
  const heads = [...document.querySelectorAll('.box-editor:not([hidden]) :is(b, label)')];
  const head = heads.find(e => e.textContent.trim() === field && e.getClientRects().length);
  const holder = head && head.closest('[data-schemapath]');
  const help = holder && (holder.querySelector(':scope > p.box-help')
    || holder.querySelector('p.je-form-input-label'));
  return help ? help.textContent : null;
}"""
"""The description shown with a field, found from its label (a switch's header for a value
that may be not known yet)."""


SEEN = """() => {
  const form = document.querySelector('.box-editor:not([hidden])');
  const walk = document.createTreeWalker(form, NodeFilter.SHOW_TEXT);
  const seen = [];
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const box = n.parentElement.getBoundingClientRect();
    if (box.width > 1 && box.height > 1) seen.push(n.textContent);
  }
  return seen.join(' ');
}"""
"""The text a person sees on the shown form (a label kept for screen readers only is 1 px)."""


def _opened(page: Any) -> None:
    """The forms are drawn (the box's check may still be on its way: the shipped ``box`` sets
    leave values to complete)."""
    page.locator(".box-editor:not([hidden]) .je-tab--top").first.wait_for()


@pytest.mark.parametrize("game", list(GAMES))
def test_the_polish_page_words_each_games_forms_in_polish(
    served: Served, browser: Any, game: str
) -> None:
    start, tab, field, choice = GAMES[game]
    errors: list[str] = []
    page = watch(browser.new_page(viewport={"width": 1400, "height": 1000}), errors)
    page.goto(f"{served.base}/box/{served.host_token}?lang=pl&game={game}&start=set:{start}")
    _opened(page)
    form = page.locator(".box-editor:not([hidden])")
    assert form.locator(".je-tab--top", has_text="Ogólne").count() == 1  # not JSON Editor's "Basic"
    form.locator(".je-tab--top", has_text=tab).first.click()
    form.get_by_text(field, exact=True).first.wait_for()
    help_text = page.evaluate(HELP, field)
    assert help_text and "§" in help_text, help_text  # where the rulebook needs it
    assert form.locator("option", has_text=choice).count() > 0
    tabs = page.locator("#files .box-file-tab").all_inner_texts()
    assert any(t.startswith("Elementy pudełka") for t in tabs), tabs
    shown = page.evaluate(SEEN)
    for english in ("titles_drawn", "Basic", "Add item", "integer", "boolean"):
        assert english not in shown
    switch = form.locator('label[for$="switcher"]')  # a switch's label is for screen readers
    if switch.count():
        box = switch.first.bounding_box()
        assert box is None or box["width"] <= 1
    shot(page, ARTIFACTS, f"box-labels-{game}-pl.png")
    assert not errors, errors
