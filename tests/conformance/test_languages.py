"""Every sentence exists in every shipped language, with the same placeholders and real plurals.

Herald ships English and Polish (``engine.i18n.LANGUAGES``); the catalogs are the core's
(``engine/i18n/<lang>/*.json``) and every registered game's (``<package>/i18n/<lang>/*.json``),
the tiny test game included. A plural entry names its count parameter (``"$n"``) and gives one
text per CLDR plural category of its language (Unicode CLDR, Language Plural Rules, through
Babel): English has ``one`` (i = 1 and v = 0) and ``other``; Polish has ``one`` (i = 1 and v = 0),
``few`` (v = 0 and i % 10 = 2..4 and i % 100 != 12..14), ``many`` (v = 0 and i != 1 and
i % 10 = 0..1, or v = 0 and i % 10 = 5..9, or v = 0 and i % 100 = 12..14) and ``other``
(fractions).
"""

from __future__ import annotations

import json
import random
import string
from importlib import resources
from importlib.abc import Traversable
from typing import Any

import pytest
from babel import Locale

from engine import codec, present, registry, rules, selfplay
from engine.i18n import (
    DEFAULT_LANG,
    LANGUAGES,
    PLURAL_PARAM,
    CatalogError,
    catalog,
    message,
    plural_category,
)

OTHERS = [lang for lang in LANGUAGES if lang != DEFAULT_LANG]


def _placeholders(text: str) -> set[str]:
    """The parameter names a ``str.format`` template reads (``{amount:+d}`` reads ``amount``)."""
    names = set()
    for _, field, _, _ in string.Formatter().parse(text):
        if field is not None:
            names.add(field.split(".")[0].split("[")[0].split("!")[0])
    return names


def _texts(entry: str | dict[str, str]) -> dict[str, str]:
    """A plain entry as one text; a plural entry as its text per category."""
    if isinstance(entry, str):
        return {"": entry}
    return {k: v for k, v in entry.items() if k != PLURAL_PARAM}


def _wanted(entry: str | dict[str, str]) -> set[str]:
    return set().union(*(_placeholders(t) for t in _texts(entry).values()))


def _categories(lang: str) -> set[str]:
    """The CLDR plural categories ``lang`` uses (Babel lists all but ``other``)."""
    return {*Locale.parse(lang).plural_form.tags, "other"}


def _catalog_roots() -> list[Traversable]:
    return [
        resources.files("engine.i18n"),
        *(registry.package_files(k).joinpath("i18n") for k in registry.game_keys()),
    ]


def test_the_shipped_languages_are_english_and_polish() -> None:
    assert LANGUAGES == ("en", "pl")


@pytest.mark.parametrize("lang", OTHERS)
def test_every_english_code_has_text_in_every_language(lang: str) -> None:
    """Adding an English sentence without its translation fails here."""
    missing = sorted(set(catalog(DEFAULT_LANG)) - set(catalog(lang)))
    assert missing == []
    assert sorted(set(catalog(lang)) - set(catalog(DEFAULT_LANG))) == []
    assert all(t.strip() for e in catalog(lang).values() for t in _texts(e).values())


@pytest.mark.parametrize("lang", OTHERS)
def test_every_catalog_file_has_its_twin_with_the_same_codes(lang: str) -> None:
    """``en/area.json`` and ``<lang>/area.json`` hold the same codes, so an area is translated
    where it is written."""
    compared = 0
    for root in _catalog_roots():
        english = root.joinpath(DEFAULT_LANG)
        if not english.is_dir():
            continue
        for file in english.iterdir():
            if not file.name.endswith(".json"):
                continue
            twin = root.joinpath(lang).joinpath(file.name)
            assert twin.is_file(), f"{lang}/{file.name} is missing beside {file}"
            en_codes = set(json.loads(file.read_text(encoding="utf-8")))
            assert set(json.loads(twin.read_text(encoding="utf-8"))) == en_codes, file.name
            compared += 1
    assert compared >= 15  # the core's 8 areas, Glory's 5, Middle Ages' 1, the test game's 1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_placeholders_match_english_in_every_text_and_plural_form(lang: str) -> None:
    english = catalog(DEFAULT_LANG)
    wrong = []
    for code, entry in catalog(lang).items():
        want = _wanted(english[code])
        for category, text in _texts(entry).items():
            if _placeholders(text) != want:
                wrong.append((code, category, sorted(_placeholders(text)), sorted(want)))
        if isinstance(entry, dict) and entry[PLURAL_PARAM] not in want:
            wrong.append((code, PLURAL_PARAM, [entry[PLURAL_PARAM]], sorted(want)))
    assert wrong == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_entries_have_exactly_the_cldr_categories_of_their_language(lang: str) -> None:
    want = _categories(lang)
    plural = {c: e for c, e in catalog(lang).items() if isinstance(e, dict)}
    assert plural, f"{lang} has no plural entry at all"
    wrong = {c: sorted(_texts(e)) for c, e in plural.items() if set(_texts(e)) != want}
    assert wrong == {}


def test_polish_uses_the_four_cldr_categories() -> None:
    assert _categories("pl") == {"one", "few", "many", "other"}
    assert _categories("en") == {"one", "other"}
    cases = {1: "one", 2: "few", 4: "few", 5: "many", 11: "many", 12: "many", 14: "many",
             21: "many", 22: "few", 24: "few", 25: "many", 100: "many", 102: "few", 112: "many",
             0: "many", 1.5: "other"}  # fmt: skip
    assert {n: plural_category("pl", n) for n in cases} == cases
    assert [plural_category("en", n) for n in (0, 1, 2, 22)] == ["other", "one", "other", "other"]


@pytest.mark.parametrize(
    ("amount", "start"),
    [(1, "+1 Moneta:"), (2, "+2 Monety:"), (5, "+5 Monet:"), (12, "+12 Monet:"),
     (22, "+22 Monety:"), (-1, "-1 Moneta:"), (-3, "-3 Monety:")],
)  # fmt: skip
def test_a_coin_count_reads_in_polish_plural_forms(amount: int, start: str) -> None:
    """Glory's Character income (Chwała: the Refresh Phase pays each Character's income)."""
    text = message("glory:income/coins", "pl", amount=amount, character="II-3")
    assert text.startswith(start)
    assert text.endswith("dochód z Postaci II-3")


@pytest.mark.parametrize(
    ("cost", "polish", "english"),
    [(1, "1 Monetę", "1 Coin and"), (3, "3 Monety", "3 Coins and"), (5, "5 Monet", "5 Coins and"),
     (22, "22 Monety", "22 Coins and")],
)  # fmt: skip
def test_a_cost_in_coins_takes_its_case_and_number(cost: int, polish: str, english: str) -> None:
    """Polish "kosztuje" takes the accusative: 1 Monetę, 3 Monety, 5 Monet (a Market Quest
    card's cost, Chwała: Quest Phase)."""
    polish_text = message("glory:quest/cannot-pay", "pl", card="Kowal", cost=cost, have=0)
    assert polish_text == f"Kowal kosztuje {polish}, a masz 0."
    assert message("glory:quest/cannot-pay", card="Kowal", cost=cost, have=0) == (
        f"Kowal costs {english} you have 0."
    )


def test_english_plurals_say_one_and_many() -> None:
    assert message("middle-ages:line/effect-farmers", count=1, amount=1) == (
        "Field effect: 1 Farmer symbol on your board = 1"
    )
    assert message("middle-ages:line/effect-farmers", "pl", count=3, amount=3) == (
        "Efekt Pola: 3 symbole Rolnika na twojej planszy = 3"
    )
    assert message("ui/device-errors", "pl", errors=5) == "5 błędów"
    assert message("ui/device-errors", errors=1) == "1 error"


def test_a_plural_entry_refuses_a_count_that_is_not_a_number() -> None:
    with pytest.raises(CatalogError):
        message("glory:income/coins", "pl", amount="2", character="II-3")


def _render(game: Any, state: Any, lang: str) -> int:
    """Every sentence the table display and the seats to act read now, in ``lang``."""
    seats = [None, *rules.to_act(game, state)]
    views = present.views(game, state, seats, lang).values()  # as the referee renders them
    return sum(len(v["prompts"]) + len(v["last_lines"]) + len(v["scores"]) for v in views)


@pytest.mark.slow
@pytest.mark.timeout(900)  # ~80 s for Glory on a quiet machine; a loaded one hit the default 300
@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize(
    "key",
    [
        pytest.param(k, marks=pytest.mark.xdist_group(f"languages-{k}"))
        for k in registry.game_keys()
    ],
)
def test_every_sentence_of_a_random_game_renders_in_every_language(key: str, lang: str) -> None:
    """A plural entry whose count arrives as a string, or a placeholder a translation lost,
    raises CatalogError while the pages render a game played to its end."""
    game = registry.get_game(key)
    rendered = 0
    for i, setup in enumerate(selfplay.setups(game)):
        seats = tuple(f"s{j}" for j in range(setup.players))

        def render(session: Any, event: Any) -> None:
            nonlocal rendered
            rendered += _render(game, session.state, lang)
            if event.kind == "move":
                present.move_label(game, codec.encode(event.move), lang)

        result = selfplay.play(game, seats, random.Random(i), setup.options, on_event=render)
        assert result.errors == []
    assert rendered > 0
