"""Every sentence in every shipped language (English and Polish), for the core and every
registered game, with the same placeholders and real plural forms (CLDR plural rules)."""

from __future__ import annotations

import string
from typing import Any

import pytest
from babel import Locale

from engine import i18n

ENGLISH = i18n.catalog("en")


def _fields(entry: Any) -> set[str]:
    texts = [v for k, v in entry.items() if k != i18n.PLURAL_PARAM] if isinstance(entry, dict) \
        else [entry]  # fmt: skip
    return {f.split(".")[0].split("[")[0] for t in texts
            for _, f, _, _ in string.Formatter().parse(t) if f}  # fmt: skip


@pytest.mark.parametrize("lang", [x for x in i18n.LANGUAGES if x != "en"])
def test_every_code_has_text_with_the_same_placeholders(lang: str) -> None:
    local = i18n.catalog(lang)
    assert sorted(set(ENGLISH) - set(local)) == []
    assert sorted(set(local) - set(ENGLISH)) == []
    wrong = [c for c in ENGLISH if _fields(ENGLISH[c]) != _fields(local[c])]
    assert wrong == []


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_plural_entries_give_every_category_the_language_uses(lang: str) -> None:
    """CLDR: Polish distinguishes one, few, many (and other for fractions); English one, other."""
    tags = set(Locale.parse(lang).plural_form.tags) | {"other"}
    short = {
        code: sorted(tags - set(entry))
        for code, entry in i18n.catalog(lang).items()
        if isinstance(entry, dict) and tags - set(entry)
    }
    assert short == {}


def test_polish_counts_take_their_real_forms() -> None:
    assert [i18n.plural_category("pl", n) for n in (1, 2, 4, 5, 12, 22, 25)] == [
        "one", "few", "few", "many", "many", "few", "many"]  # fmt: skip
