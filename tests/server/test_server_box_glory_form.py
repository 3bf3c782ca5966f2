"""Glory's cards are entered by choosing in the box page's form (issue #24, point 3: "by choosing
its effects from the game's effect vocabulary, never free text"): a Title's condition and a
Character's starting Quest cards are maps keyed by a choice, and the form (the vendored JSON
Editor with the page's options) offers their keys as checkboxes, not a text box.

No served table: the form library and Glory's data schema as the page serves it, in chromium."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from browser_support import watch

from bridge.box.workshop import form_schema
from engine.games.glory.data_schema import data_schema

VENDOR = Path(__file__).resolve().parents[2] / "bridge" / "web" / "static" / "vendor"
PAGE_OPTIONS: dict[str, Any] = {
    "theme": "html", "iconlib": None, "disable_edit_json": True, "disable_properties": True,
    "disable_collapse": False, "show_errors": "interaction", "prompt_before_delete": False,
    "array_controls_top": True, "no_additional_properties": False,
    "required_by_default": False, "display_required_only": False, "use_default_values": True,
}  # fmt: skip
"""The options bridge/web/static/box.js gives JSON Editor (properties hidden by default)."""


def _form(browser: Any, schema: dict[str, Any], start: dict[str, Any]) -> Any:
    errors: list[str] = []
    page = watch(browser.new_page(), errors)
    page.set_content("<div id='form'></div>")
    page.add_script_tag(path=str(VENDOR / "jsoneditor.min.js"))
    page.evaluate(
        """([schema, start, options]) => {
            window.form = new JSONEditor(document.getElementById('form'),
                                         {...options, schema, startval: start});
        }""",
        [schema, start, PAGE_OPTIONS],
    )
    page.wait_for_function("window.form && window.form.ready")
    assert errors == []
    return page


def _card(name: str) -> dict[str, Any]:
    """One card's schema as the page serves it (``form_schema``: titles, order, options)."""
    defs = form_schema(data_schema())["$defs"]
    return {"$defs": defs, **copy.deepcopy(defs[name])}


def _properties_button(page: Any, field: str) -> Any:
    holder = page.locator(f"[data-schemapath='root.{field}']")
    return holder.locator("button", has_text="Object Properties").first


def test_a_title_need_and_a_starting_quest_deck_are_chosen(browser: Any) -> None:
    title = {"id": "bogaty", "name": "Bogaty", "glory": 3, "needs": {"coins": 6}}
    page = _form(browser, _card("TitleCard"), title)
    _properties_button(page, "needs").click()
    page.check("input[id='root.needs-challenges-won']")
    page.fill("input[name='root[needs][challenges-won]']", "2")
    page.press("input[name='root[needs][challenges-won]']", "Tab")
    page.wait_for_function("form.getValue().needs['challenges-won'] === 2")
    assert page.evaluate("form.getValue().needs") == {"coins": 6, "challenges-won": 2}
    offered = page.eval_on_selector_all(
        "input[type=checkbox][id^='root.needs-']", "xs => xs.map(x => x.id.slice(11))"
    )
    assert set(offered) == set(data_schema()["$defs"]["TitleCard"]["properties"]["needs"][
        "propertyNames"]["enum"])  # fmt: skip
    character = {"id": "rycerz", "level": 1, "quests": {"romance": 1}}
    page = _form(browser, _card("CharacterCard"), character)
    _properties_button(page, "quests").click()
    page.check("input[id='root.quests-challenge']")
    page.wait_for_function("'challenge' in form.getValue().quests")


def test_without_the_schemas_form_options_the_keys_could_not_be_added(browser: Any) -> None:
    """The page hides "Object Properties" everywhere; only Glory's maps ask for it back."""
    schema = _card("TitleCard")
    schema["properties"]["needs"].pop("options")
    page = _form(browser, schema, {"id": "bogaty", "name": "Bogaty", "needs": {"coins": 6}})
    assert not _properties_button(page, "needs").is_visible()
