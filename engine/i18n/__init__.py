"""The one message catalog: every sentence a player or operator reads, keyed by a stable code.

The core's catalogs live in ``engine/i18n/<lang>/*.json``, each game's in its own package,
``<package>/i18n/<lang>/*.json`` (one file per area, all merged into one namespace so two areas
can never own the same code). English is complete; another language may be partial and falls
back to English code by code. Placeholders use ``str.format`` syntax:
``"{seat} must pay {amount} coins"``.

Plural forms are real ones, per language (CLDR rules through Babel): a value may be an object
naming the count parameter and one text per plural category the language has, e.g. Polish
``{"$n": "amount", "one": "{amount} moneta", "few": "{amount} monety", "many": "{amount} monet",
"other": "{amount} monety"}``. A missing category falls back to ``other``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import cache, lru_cache
from importlib import resources
from importlib.abc import Traversable
from typing import Any

from babel import Locale

from engine import registry
from engine.refs import readable
from engine.violations import RuleViolation, Violation

DEFAULT_LANG = "en"


class CatalogError(Exception):
    """A message code is missing or two catalog files define the same code."""


LANGUAGES = ("en", "pl")
"""The languages Herald ships: every catalog code has text in each of them (a conformance test)."""

PLURAL_PARAM = "$n"
"""In a plural entry, the key naming the parameter whose number picks the plural category."""

Entry = str | dict[str, str]


def _roots() -> list[Traversable]:
    roots = [resources.files(__package__)]
    for key in registry.game_keys():
        roots.append(registry.package_files(key).joinpath("i18n"))
    return roots


@cache
def catalog(lang: str = DEFAULT_LANG) -> dict[str, Entry]:
    """All messages of ``lang`` (no fallback), merged from the core's and every game's files."""
    merged: dict[str, Entry] = {}
    for root in _roots():
        folder = root.joinpath(lang)
        if not folder.is_dir():
            continue
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if not entry.name.endswith(".json"):
                continue
            data = json.loads(entry.read_text(encoding="utf-8"))
            for code, text in data.items():
                if code in merged:
                    raise CatalogError(f"message code {code!r} defined twice ({entry.name})")
                merged[code] = _entry(code, text)
    return merged


def _entry(code: str, text: Any) -> Entry:
    if isinstance(text, dict):
        if not isinstance(text.get(PLURAL_PARAM), str) or "other" not in text:
            raise CatalogError(f"plural message {code!r} needs {PLURAL_PARAM!r} and 'other'")
        return {str(k): str(v) for k, v in text.items()}
    return str(text)


def reset() -> None:
    """Forget the merged catalogs (a game was registered or removed at run time)."""
    catalog.cache_clear()
    _ref_words.cache_clear()


registry.on_change(reset)  # catalogs are merged over every registered game: a new game's too


def has_message(code: str) -> bool:
    return code in catalog(DEFAULT_LANG)


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


@lru_cache(maxsize=4096, typed=True)
def plural_category(lang: str, n: float) -> str:
    """The CLDR plural category of ``n`` in ``lang`` ("one", "few", "many", "other").

    Cached: Babel evaluates its rule afresh each time, and every view of every seat asks for
    the same few counts (a third of a view's rendering time before this).
    """
    return str(_locale(lang).plural_form(abs(n)))


def message(code: str, lang: str = DEFAULT_LANG, /, **params: Any) -> str:
    """The sentence for ``code`` in ``lang`` (English when that language lacks it)."""
    text = catalog(lang).get(code) if lang != DEFAULT_LANG else None
    if text is None:
        lang = DEFAULT_LANG
        text = catalog(DEFAULT_LANG).get(code)
    if text is None:
        raise CatalogError(f"no message for code {code!r}")
    if isinstance(text, dict):
        count = params.get(text[PLURAL_PARAM])
        if not isinstance(count, int | float):
            raise CatalogError(f"message {code!r} needs a number in {text[PLURAL_PARAM]!r}")
        text = text.get(plural_category(lang, count), text["other"])
    try:
        return text.format(**params)
    except (KeyError, IndexError) as exc:
        raise CatalogError(f"message {code!r} needs parameter {exc}") from exc


class CodedError(Exception):
    """An error whose sentence is a catalog entry: ``code`` and ``params`` name it, so the
    same failure reads in the player's language wherever it is shown."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code} {params}")
        self.code = code
        self.params = params

    def text(self, lang: str = DEFAULT_LANG) -> str:
        """The sentence a person reads, from the message catalog."""
        return message(self.code, lang, **self.params)


def violation_key(violation: Violation) -> str:
    """The catalog code of a violation's sentence: the game's own (``<game>:<code>``) when its
    catalog words the code, else the shared one."""
    scoped = f"{violation.game}:{violation.code}"
    return scoped if violation.game and has_message(scoped) else violation.code


def violation_text(violation: Violation, lang: str = DEFAULT_LANG) -> str:
    """The sentence a player reads for a broken rule, in ``lang``."""
    return message(violation_key(violation), lang, **violation.params)


def violations_text(violations: Iterable[Violation], lang: str = DEFAULT_LANG) -> str:
    """Every broken rule as ``code: sentence``, joined by ``; `` (an error's one-line detail)."""
    return "; ".join(f"{v.code}: {violation_text(v, lang)}" for v in violations)


def error_text(error: Exception, lang: str = DEFAULT_LANG) -> str:
    """An error's one-line detail for a person: a ``RuleViolation``'s broken rules in words
    (``violations_text``), any other error as it states itself."""
    if isinstance(error, RuleViolation):
        return violations_text(error.violations, lang)
    return str(error)


REF_WORD = "ref/word/"
"""Catalog codes naming, after this prefix, an English word of the rulebook references
(``item``, ``Appendix``, ``p.``), each with the word another language prints instead."""


@cache
def _ref_words(lang: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    words = sorted((c[len(REF_WORD) :] for c in catalog(lang) if c.startswith(REF_WORD)),
                   key=len, reverse=True)  # fmt: skip
    return tuple(
        (re.compile(rf"(?<![\w.]){re.escape(w)}" + (r"(?!\w)" if w[-1].isalnum() else "")),
         message(REF_WORD + w, lang))
        for w in words
    )  # fmt: skip


def ref_text(ref: str, lang: str = DEFAULT_LANG) -> str:
    """A rulebook reference as a player of ``lang`` reads it: ``readable`` (no file ids), with
    the references' few English words in that language ("§4 step 14 (EN p.8 §2.3)" is "§4 krok
    14 (EN s. 8 §2.3)" in Polish); section numbers and line numbers stay as they are."""
    text = readable(ref)
    for pattern, word in _ref_words(lang) if lang != DEFAULT_LANG else ():
        text = pattern.sub(word.replace("\\", "\\\\"), text)
    return text


def violation_json(violation: Violation, lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """A violation as pages, phones and ``--json`` output carry it, with its sentence."""
    return {
        "code": violation.code,
        "game": violation.game,
        "ref": violation.ref,
        "where": readable(violation.ref),
        "params": violation.params,
        "message": violation_text(violation, lang),
    }
