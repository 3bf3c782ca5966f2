"""The one message catalog: every sentence a player or operator reads, keyed by a stable code.

Catalogs live in ``engine/i18n/<lang>/*.json`` (one file per area, merged into one namespace so
two areas can never own the same code). English is complete; another language may be partial
and falls back to English code by code, so a Polish translation can grow without code changes.
Placeholders use ``str.format`` syntax: ``"{seat} must pay {amount} coins"``.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

DEFAULT_LANG = "en"


class CatalogError(Exception):
    """A message code is missing or two catalog files define the same code."""


@cache
def catalog(lang: str = DEFAULT_LANG) -> dict[str, str]:
    """All messages of ``lang`` (without fallback), merged from that language's files."""
    root = resources.files(__package__).joinpath(lang)
    merged: dict[str, str] = {}
    if not root.is_dir():
        return merged
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json"):
            continue
        data = json.loads(entry.read_text(encoding="utf-8"))
        for code, text in data.items():
            if code in merged:
                raise CatalogError(f"message code {code!r} defined twice ({entry.name})")
            merged[code] = str(text)
    return merged


def has_message(code: str) -> bool:
    return code in catalog(DEFAULT_LANG)


def message(code: str, lang: str = DEFAULT_LANG, /, **params: Any) -> str:
    """The sentence for ``code`` in ``lang`` (English when that language lacks it)."""
    text = catalog(lang).get(code) if lang != DEFAULT_LANG else None
    if text is None:
        text = catalog(DEFAULT_LANG).get(code)
    if text is None:
        raise CatalogError(f"no message for code {code!r}")
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
