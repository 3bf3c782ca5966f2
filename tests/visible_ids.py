"""The ids a game's data and schema define, for the scan that no page shows one (issue 25 point 3).

An id is what the data or the game's options call a thing so a program can find it
(``lord-16``, ``trading-post``, ``skip_action``, ``stand-in``); a player reads its printed name.
The ids come from four places: every ``id`` field (and ``key`` of a keyed table) of the game's
data files, every key of the game's ``names(state, lang)`` for each data set it ships, every
option's name and every text choice of an option.

An id that is also an ordinary word or a printed name cannot be told from the word on a page
(Middle Ages' ``village`` tile and "village"), so it is left out of the scan when it appears, as a
whole word and with the same letters and case, in any sentence of the game's or the pages'
catalogs (English or Polish) or in any printed name of the game. What is left are the ids a
player would never read as words: ``lord-16``, ``rycerz-zakonny``, ``ms-9``, ``fog_of_war``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from engine.i18n import LANGUAGES
from engine.registry import get_game, package_files

_WORD = re.compile(r"[\w'’-]+")
_ID_FIELDS = ("id", "key", "slug")


def _ids_in(doc: Any) -> Iterator[str]:
    """Every text under an ``id`` (``key``, ``slug``) field, anywhere in a data document."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            if k in _ID_FIELDS and isinstance(v, str):
                yield v
            else:
                yield from _ids_in(v)
    elif isinstance(doc, list):
        for v in doc:
            yield from _ids_in(v)


_PRINTED = re.compile(r"name|title|text")


def _printed_in(doc: Any) -> Iterator[str]:
    """Every text a data document prints (its ``name``, ``title``, ``text`` fields, in any
    language): the words a player reads, not ids."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            if _PRINTED.search(k) and isinstance(v, str):
                yield v
            else:
                yield from _printed_in(v)
    elif isinstance(doc, list):
        for v in doc:
            yield from _printed_in(v)


def _data_documents(key: str) -> Iterator[Any]:
    folder = package_files(key).joinpath("data")
    if not folder.is_dir():
        return
    for entry in folder.iterdir():
        if entry.name.endswith(".json") and "schema" not in entry.name:
            yield json.loads(entry.read_text(encoding="utf-8"))


def data_sets(key: str) -> list[Any]:
    """The values of the game's data option (its data sets), or [None] for a game with none."""
    game = get_game(key)
    for option in game.info.options:
        if option.name == "data":
            sets = list(option.choices) or ["box", "stand-in"]
            return sets
    return [None]


def _names(key: str) -> dict[str, dict[str, str]]:
    """``names(state, lang)`` of each data set's starting state that sets up, by language."""
    game = get_game(key)
    found: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}
    if not callable(getattr(game, "names", None)):
        return found
    info = game.info
    for data in data_sets(key):
        options = {**info.option_defaults(), **({"data": data} if data is not None else {})}
        seats = ("blue", "green", "pink", "yellow")[: max(info.min_players, 2)]
        try:
            state = game.setup(seats, options)
        except Exception:  # a data set that does not set up (the box with gaps): no names
            continue
        for lang in LANGUAGES:
            found[lang].update(game.names(state, lang))  # type: ignore[attr-defined]
    return found


def defined_ids(key: str) -> set[str]:
    """Every id the game's data, its names and its options define (ids of one character or
    made only of digits are not ids a page could be caught showing)."""
    ids: set[str] = set()
    for doc in _data_documents(key):
        ids.update(_ids_in(doc))
    for named in _names(key).values():
        ids.update(named)
    for option in get_game(key).info.options:
        ids.add(option.name)
        ids.update(str(c) for c in option.choices if isinstance(c, str))
    return {i for i in ids if len(i) > 1 and not i.isdigit() and "#" not in i}


def _catalog_texts(key: str) -> Iterator[str]:
    for lang in LANGUAGES:
        for root in (package_files(key).joinpath("i18n", lang),):
            if not root.is_dir():
                continue
            for entry in root.iterdir():
                if entry.name.endswith(".json"):
                    yield from _strings(json.loads(entry.read_text(encoding="utf-8")))


def _strings(doc: Any) -> Iterator[str]:
    if isinstance(doc, str):
        yield doc
    elif isinstance(doc, dict):
        for v in doc.values():
            yield from _strings(v)
    elif isinstance(doc, list):
        for v in doc:
            yield from _strings(v)


def ordinary_words(key: str, page_texts: Iterable[str] = ()) -> set[str]:
    """Every whole word of the game's catalogs, the pages' catalogs (``page_texts``) and the
    game's printed names, as written."""
    words: set[str] = set()
    texts = [*_catalog_texts(key), *page_texts]
    for doc in _data_documents(key):
        texts.extend(_printed_in(doc))
    for named in _names(key).values():
        texts.extend(named.values())
    for text in texts:
        words.update(_WORD.findall(text))
        words.update(w.strip("'’-") for w in _WORD.findall(text))
    return words


def scanned_ids(key: str, page_texts: Iterable[str] = ()) -> set[str]:
    """The ids the scan looks for: those that are not also a word or a printed name."""
    return defined_ids(key) - ordinary_words(key, page_texts)


def page_catalog_texts() -> list[str]:
    """Every sentence of the pages' own catalogs (engine/i18n), English and Polish."""
    root = Path(__file__).resolve().parents[1] / "engine" / "i18n"
    texts: list[str] = []
    for lang in LANGUAGES:
        for entry in sorted((root / lang).glob("*.json")):
            texts.extend(_strings(json.loads(entry.read_text(encoding="utf-8"))))
    return texts


def ids_shown(text: str, ids: set[str]) -> list[str]:
    """The ids standing as whole words in ``text`` (with 30 characters around each)."""
    shown = []
    for word in sorted(ids):
        hit = re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text)
        if hit:
            shown.append(f"{word!r} in {text[max(0, hit.start() - 30) : hit.end() + 30]!r}")
    return shown
