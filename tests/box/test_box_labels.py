"""The "Your box" page's words (issue #24 point 1): every field of every data schema a game's box
page shows has a label and a description in English and in Polish, every choice its printed name,
from the game's own catalog; the words change nothing that is valid."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from bridge.box.export import export_box
from bridge.box.labels import fields, labelled, missing_labels
from bridge.box.workshop import as_shown, form_schema, schemas, start_files
from bridge.gamedata import read_text
from bridge.web.app import WebConfig, WebTable
from engine import registry
from engine.data import data_spec, shipped_reader
from engine.i18n import message
from tests.server.srv_support import open_referee

WORDS = ("title", "description", "options", "basicCategoryTitle")
"""What labelling adds to a form schema: nothing else may change."""


SCHEMAS = ("france1429", "viscounts", "glory")
"""The games whose data files name their schema (the box page's forms come from it)."""


def _boxed_games() -> list[str]:
    return [k for k in registry.game_keys() if data_spec(registry.get_game(k)) is not None]


def _shown_files(key: str) -> Iterator[tuple[str, str, Any, Any]]:
    """Every data file of every shipped set of ``key`` that names a schema: (set, schema file
    name, the schema as written, the document)."""
    spec = data_spec(registry.get_game(key))
    assert spec is not None
    read = shipped_reader(key)
    for name in spec.shipped:
        files = start_files(export_box(registry.get_game(key), name, None, read_text))
        for doc in files.values():
            named = doc.get("$schema") if isinstance(doc, dict) else None
            if isinstance(named, str):
                yield name, named, json.loads(read(named)), doc


def test_the_games_with_a_box_are_the_three_whose_components_are_data() -> None:
    assert set(_boxed_games()) >= set(SCHEMAS)


@pytest.mark.parametrize("key", _boxed_games())
def test_every_field_and_choice_is_worded_in_english_and_polish(key: str) -> None:
    """A new field in a game's schema fails here until its catalog labels and describes it."""
    seen = 0
    for shipped, named, schema, doc in _shown_files(key):
        for shown in (schema, as_shown(schema, doc)):  # every definition, and the page's root
            assert missing_labels(shown, key) == [], f"{key} {shipped} {named}"
        seen += sum(1 for _ in fields(schema))
    assert seen > 20 or key not in SCHEMAS  # a game whose data name no schema shows their keys


def test_a_field_the_catalog_does_not_word_is_reported_in_both_languages() -> None:
    schema = {"properties": {"lords": {"type": "array"}, "zzz": {"enum": ["qqq", None, 3]}}}
    assert missing_labels(schema, "france1429") == [
        "en: enum zzz/qqq", "en: field zzz", "en: help zzz",
        "pl: enum zzz/qqq", "pl: field zzz", "pl: help zzz",
    ]  # fmt: skip


def _strip(schema: Any) -> Any:
    """A schema without its words, in one canonical shape: a choice between bare types as a
    type list, an ``enum``'s type (implied by its values) left out."""
    if isinstance(schema, list):
        return [_strip(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _strip(v) for k, v in schema.items() if k not in WORDS}
    either = out.get("anyOf")
    if isinstance(either, list) and all(isinstance(b, dict) and set(b) == {"type"} for b in either):
        out["type"] = [b["type"] for b in either]
        del out["anyOf"]
    if "enum" in out:
        out.pop("type", None)
    return out


@pytest.mark.parametrize("key", _boxed_games())
@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_words_change_nothing_that_is_valid(key: str, lang: str) -> None:
    for _, named, schema, doc in _shown_files(key):
        form = form_schema(as_shown(schema, doc))
        worded = labelled(form, key, named, lang)
        assert _strip(worded) == _strip(form)
        jsonschema.Draft202012Validator(_strip(worded)).validate(doc)  # still the same checks


def _props(schema: dict[str, Any]) -> dict[str, Any]:
    props: dict[str, Any] = schema["properties"]
    return props


def test_france_reads_in_polish_with_the_polish_rulebooks_names() -> None:
    """The Polish rulebook calls the Lords "Seniorzy" and the Lords deck "Postacie" (PL L97-165);
    the Fief ranks are Baronia, Hrabstwo, Księstwo."""
    files = start_files(export_box(registry.get_game("france1429"), "box", None, read_text))
    pl, en = schemas("france1429", files, "pl"), schemas("france1429", files, "en")
    main = pl["box.json"]
    assert main["title"] == "Elementy pudełka"
    assert _props(main)["lords"]["title"] == "Seniorzy"
    assert "§2.3" in _props(main)["lords"]["description"]
    assert _props(en["box.json"])["lords"]["title"] == "Lords"
    card = main["$defs"]["card"]
    assert card["title"] == "Karta"
    deck = _props(card)["deck"]
    assert deck["title"] == "Talia"
    assert deck["options"]["enum_titles"] == ["Postacie", "Wydarzenia i Plagi"]
    effect = main["$defs"]["effect"]
    assert effect["options"]["enum_titles"][effect["enum"].index("plague")] == "Zaraza"
    rank = _props(pl["map-box.json"]["$defs"]["fief"])["rank"]
    assert rank["options"]["enum_titles"] == ["Baronia", "Hrabstwo", "Księstwo", "jeszcze nieznane"]
    assert _props(pl["map-box.json"])["villages"]["title"] == "Wioski"


def test_glorys_file_is_shown_as_the_definition_it_meets_with_its_components_on_tabs() -> None:
    """Glory's schema is a root ``$ref`` to an ``if``/``then``/``else`` between a whole file and
    one that extends a shipped set; the form shows the one the file is."""
    files = start_files(export_box(registry.get_game("glory"), "box", None, read_text))
    main = schemas("glory", files, "pl")["box.json"]
    assert main["format"] == "categories"
    assert _props(main)["characters"]["title"] == "Postacie"
    assert _props(main)["missing"]["options"]["hidden"] is True
    assert "extends" not in _props(main)
    character = main["$defs"]["CharacterCard"]
    assert character["title"] == "Karta Postaci"
    assert _props(character)["titles_drawn"]["title"] == "Dobierane Tytuły"
    patch = _props(main["$defs"]["CharacterCardPatch"])
    assert patch["titles_drawn"]["title"] == "Dobierane Tytuły"
    extending = as_shown(json.loads(shipped_reader("glory")("schema.json")), {"extends": "box"})
    assert "extends" in _props(extending)


def test_viscounts_choices_and_effects_say_where_they_are_printed() -> None:
    files = start_files(export_box(registry.get_game("viscounts"), "stand-in", None, read_text))
    (main,) = [s for s in schemas("viscounts", files, "pl").values() if s]
    townsfolk = _props(main)["townsfolk"]
    assert townsfolk["title"] == "Mieszczanie"
    card = townsfolk["items"]
    assert card["title"] == "Karta Mieszczanina"
    symbols = _props(card)["symbols"]
    assert symbols["items"]["options"]["enum_titles"][:2] == ["Kupiec", "Budowniczy"]
    assert "docs/viscounts-effects.md" in _props(card)["ability"]["description"]


def test_the_start_route_words_the_forms_in_the_pages_language(tmp_path: Path) -> None:
    referee = open_referee(tmp_path / "t.db")
    try:
        web = WebTable(referee, WebConfig(), box_library=tmp_path / "t.db.boxes")
        api = f"/api/box/{referee.row.tokens.host}/start/viscounts?set=box"
        for lang, word in (("pl", "Mieszczanie"), ("en", "Townsfolk")):
            reply = web.app.test_client().get(f"{api}&lang={lang}")
            assert reply.status_code == 200
            (schema,) = [s for s in reply.get_json()["schemas"].values() if s]
            assert schema["properties"]["townsfolk"]["title"] == word
            assert schema["title"] == message("viscounts:box/schema/data.schema.json", lang)
    finally:
        referee.store.close()
