"""The "Your box" page's effect picker in chromium (issue #24 point 3): a Townsfolk card's ability
built by choosing from Viscounts' effect vocabulary, read back as a sentence in English and in
Polish, used, saved; a text the vocabulary cannot say refused with what can be said there; a
card whose printed text cannot be said marked and listed as a named gap; then the entered card
photographed once, its face enrolled in the box kept at the table."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import watch
from srv_support import Served, serve

from bridge.box.library import listed, read_box_file

pytestmark = pytest.mark.slow(seconds=40)  # a long group: handed out first (tests/conftest.py)

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "pages"
GATED = "persistent: 3+ villain -> 1 noble"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    table = serve(tmp_path / "t.db", "--game", "viscounts", "--sim", "off")
    yield table
    table.stop()


def _artifact(name: str) -> Path:
    """Where a picture of the picker is kept for a person to look at (never compared)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / name


def _choose_field(page: Any, suffix: str, nth: int = 0) -> str:
    """Choose the ``nth`` effect field whose label ends with ``suffix``; its label."""
    label: str = page.evaluate(
        """([suffix, nth]) => {
            const sel = document.getElementById('fx-field');
            const found = [...sel.options].filter(o => o.text.replace(' ∅', '').endsWith(suffix));
            sel.value = found[nth].value;
            sel.dispatchEvent(new Event('change'));
            return found[nth].text;
        }""",
        [suffix, nth],
    )
    return label


def _said(page: Any, text: str) -> None:
    page.wait_for_function(
        "t => document.getElementById('fx-said').textContent.includes(t)", arg=text
    )


def _text(page: Any, text: str) -> None:
    page.wait_for_function("t => document.getElementById('fx-text').value === t", arg=text)


def _photo(path: Path) -> None:
    """A card's photograph as a phone takes it: a card on a table (drawn, seeded)."""
    import cv2
    import numpy as np

    rng = np.random.default_rng(24)
    photo = np.full((900, 1200, 3), (60, 80, 60), np.uint8)
    card = rng.integers(0, 255, (88, 63, 3), dtype=np.uint8)
    photo[30:870, 300:900] = cv2.resize(card, (600, 840), interpolation=cv2.INTER_NEAREST)
    cv2.imwrite(str(path), photo)


def test_a_host_picks_a_townsfolk_ability_saves_it_and_photographs_the_card(
    served: Served, browser: Any, tmp_path: Path
) -> None:
    errors: list[str] = []
    page = watch(browser.new_page(viewport={"width": 1400, "height": 1100}), errors)
    page.goto(f"{served.base}/box/{served.host_token}?lang=en&game=viscounts&start=set:stand-in")
    page.wait_for_function(
        "() => document.getElementById('fx-field') && document.getElementById('fx-field')"
        ".options.length > 100 && document.getElementById('summary').textContent"
    )
    # A click into a card's effect field in the form opens the picker on it.
    page.locator(".je-tab--top", has_text="townsfolk").first.click()
    page.locator('[name="root[townsfolk][1][ability]"]').first.click()
    page.wait_for_function(
        "() => document.getElementById('fx-card').classList.contains('fx-docked') && "
        "document.getElementById('fx-field').selectedOptions[0].text.endsWith(' · ability')"
    )
    page.click("#fx-undock")
    # Our own card replaces the first of the stand-in deck: its id and name typed in the form.
    for field, value in (("id", "our-thief"), ("name", "Our Thief")):
        box = page.locator(f'input[name="root[townsfolk][0][{field}]"]')
        box.fill(value)
        box.press("Tab")
    page.wait_for_function(
        "() => [...document.getElementById('fx-field').options]"
        ".some(o => o.text.startsWith('townsfolk · Our Thief · ability'))"
    )
    label = _choose_field(page, " · ability")
    assert label.startswith("townsfolk · Our Thief · ability")
    card = label.split(" · ")[1]
    page.wait_for_function("() => document.getElementById('fx-text').value")  # the card's own
    while page.locator("#fx-builder .fx-remove").count():  # start the ability afresh
        page.locator("#fx-builder .fx-remove").first.click()
    page.select_option("#fx-timing", "persistent")
    page.select_option("[data-add=left]", "at-least")
    page.fill("#fx-left .fx-row [data-field=amount]", "3")
    page.select_option("#fx-left .fx-row [data-field=symbol]", "villain")
    page.select_option("[data-add=atom-0]", "symbols")
    page.select_option("#fx-reward .fx-row [data-field=symbol]", "noble")
    _text(page, GATED)
    _said(page, "While on your board: at least 3 Villain symbols on your board: +1 Noble symbol")
    page.click("#fx-use")
    page.wait_for_function(
        "t => document.getElementById('fx-status').textContent.includes(t)", arg=GATED
    )
    page.wait_for_function("() => document.getElementById('status').textContent && "
                           "document.getElementById('refused').hidden")  # fmt: skip
    page.locator("#fx-card").screenshot(path=str(_artifact("box-effects-viscounts-en.png")))

    # An expert types a text the vocabulary cannot say: refused, with what can be said there.
    page.fill("#fx-text", "immediate: 3+ villain -> 1 noble")
    _said(page, "What the vocabulary can say here:")
    assert "free-hire" in page.inner_text("#fx-said")
    assert page.is_disabled("#fx-use")
    page.fill("#fx-text", GATED)
    _said(page, "+1 Noble symbol")

    # A card whose printed text cannot be said: marked, and the check names it as a gap.
    other = _choose_field(page, " · ability", 1).split(" · ")[1]
    page.click("#fx-unsayable summary")
    page.fill("#fx-printed", "swap a card with another player")
    page.fill("#fx-lacking", "an effect on another player's cards")
    page.click("#fx-mark")
    page.wait_for_function(
        "t => document.getElementById('gaps').textContent.includes(t)",
        arg="swap a card with another player",
    )
    assert "not yet playable" in page.inner_text("#summary")
    page.click("#fx-unmark")
    page.wait_for_function(
        "t => !document.getElementById('gaps').textContent.includes(t)",
        arg="swap a card with another player",
    )
    assert other != card

    # Saved at the table, opened again, and the entered card photographed once.
    page.fill("#name", "Our cards")
    page.click("#save")
    page.wait_for_function(
        "() => [...document.querySelectorAll('#start option')]"
        ".some(o => o.value.startsWith('box:our'))"
    )
    page.evaluate(
        "() => { const s = document.getElementById('start');"
        " s.value = [...s.options].find(o => o.value.startsWith('box:our')).value; }"
    )
    page.click("#load")
    page.locator("#faces-card").wait_for(state="visible")
    page.wait_for_function("() => document.getElementById('card').options.length > 0")
    _choose_field(page, " · ability")
    _text(page, GATED)
    page.click("#fx-photo")
    chosen = page.eval_on_selector("#card", "s => s.value")
    assert chosen == "our-thief"  # "Photograph this card" chose the card entered
    photo = tmp_path / "card.png"
    _photo(photo)
    page.set_input_files("#photo", str(photo))
    page.wait_for_function(
        "id => [...document.getElementById('card').options].some(o => o.text === id + ' ✓')",
        arg=chosen,
    )
    assert not errors, errors

    kept = listed(Path(f"{served.db}.boxes"), "viscounts")
    with_face = [read_box_file(p) for p in kept if read_box_file(p).faces()]
    assert len(with_face) == 1
    box = with_face[0]
    assert set(box.faces()) == {chosen}  # the card the picker chose, photographed once
    data = json.loads(box.members[box.data])
    entered = next(c for c in data["townsfolk"] if c["id"] == chosen)
    assert entered["ability"] == GATED and entered["name"] == card
    assert not any("unsayable" in c for c in data["townsfolk"])

    # The same card read in Polish on the page in Polish.
    pl = watch(browser.new_page(viewport={"width": 1400, "height": 1100}), errors)
    start = f"box:{next(p for p in kept if read_box_file(p).faces()).name}"
    pl.goto(f"{served.base}/box/{served.host_token}?lang=pl&game=viscounts&start={start}")
    pl.wait_for_function(
        "() => document.getElementById('fx-field') && document.getElementById('fx-field')"
        ".options.length > 100"
    )
    _choose_field(pl, " · ability")
    _text(pl, GATED)
    _said(pl, "co najmniej 3 Symbole Złoczyńcy na twojej planszy: +1 Symbol Szlachcica")
    pl.locator("#fx-card").screenshot(path=str(_artifact("box-effects-viscounts-pl.png")))
    assert not errors, errors
