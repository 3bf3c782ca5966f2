"""Every choice of Glory's data file has its printed name in English and Polish (issue #24, point
3: cards are entered by choosing from the game's vocabulary; the box page shows each choice by
the name on the component, ``engine.games.glory.enum_labels``)."""

from __future__ import annotations

import pytest

from engine import registry
from engine.games.glory import enum_labels
from engine.games.glory.data_schema import data_schema
from engine.games.glory.enum_labels import enum_values
from engine.i18n import catalog


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_every_enum_value_of_the_data_schema_has_a_name_in_the_language(lang: str) -> None:
    names = catalog(lang)
    values = enum_values()
    assert len(values) > 90  # allies, relics, Prestige, fields, decks, backs, levels, stacks…
    assert [v for v in values if f"glory:enum/{v}" not in names] == []
    labels = enum_labels(lang)
    assert set(labels) == set(values) and all(labels.values())


def test_a_new_choice_without_a_name_is_caught() -> None:
    schema = data_schema()
    schema["$defs"]["QuestCard"]["properties"]["deck"]["enum"].append("dragons")
    assert "dragons" in enum_values(schema)
    assert "glory:enum/dragons" not in catalog("en")


def test_the_names_are_the_printed_ones_the_game_shows() -> None:
    en, pl = enum_labels("en"), enum_labels("pl")
    assert (pl["dworka"], pl["wiedzma"], pl["pierscien"]) == ("Dwórka", "Wiedźma", "Pierścień")
    assert (en["marketplace"], pl["marketplace"]) == ("Marketplace", "Targowisko")
    assert (en["polish-nobility"], pl["polish-nobility"]) == ("Polish Nobility", "Polska Szlachta")
    assert (en["market"], pl["market"], pl["challenge"]) == ("Market", "Targ", "Wyzwanie")
    assert [en[v] for v in ("1", "2", "3", "4")] == ["I", "II", "III", "IV"]
    for lang, labels in (("en", en), ("pl", pl)):
        shown = catalog(lang)
        for kind in ("name", "field", "deck"):
            for code, text in shown.items():
                value = code.removeprefix(f"glory:{kind}/")
                if code.startswith(f"glory:{kind}/") and value in labels:
                    assert labels[value] == text, (lang, code)


def test_the_game_offers_its_enum_labels() -> None:
    game = registry.get_game("glory")
    assert game.enum_labels("pl") == enum_labels("pl")  # type: ignore[attr-defined]
