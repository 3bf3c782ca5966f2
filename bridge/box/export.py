"""A box made from a data set Herald already reads: a shipped set (``box``, ``stand-in``) or a
group's own data file, with every file the document names (a map, a set it extends) packed
beside it, so the box reads nothing from outside itself."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path, PureWindowsPath
from typing import Any

from engine.data import DataDoc, data_spec, from_doc, is_absolute, parse_json, shipped_reader
from engine.violations import InputError

from .errors import BoxError
from .file import DATA_DIR, Box, make_box

Reader = Callable[[str], str]


def export_box(game: Any, source: str | None, name: str | None, read: Reader) -> Box:
    """The box of ``game``'s data set ``source`` (a shipped set's name or a file read with
    ``read``; None: the game's default set), named ``name``. The data are parsed by the game
    as they are packed, so a set the game refuses is never exported."""
    key = game.info.key
    spec = data_spec(game)
    if spec is None:
        raise BoxError("box/no-data-game", game=key)
    source = source or spec.default
    files: dict[str, str] = {}

    renamed: dict[str, str] = {}

    def recording(reader: Reader) -> Reader:
        def read_and_keep(file: str) -> str:
            text = reader(file)
            member = file
            if is_absolute(file):  # a box holds members only: the file goes in by its name
                member = renamed[file] = PureWindowsPath(file).name  # either separator
            if files.get(member, text) != text:
                raise BoxError("box/name-clash", name=member)
            files[member] = text
            return text

        return read_and_keep

    shipped = recording(shipped_reader(key))
    if source in spec.shipped:
        main = spec.shipped[source]
        beside = shipped
    else:
        folder = Path(source).parent
        main = Path(source).name
        beside = recording(lambda file: read(str(folder / file)))
    try:
        doc = parse_json(beside(main), source)
        from_doc(game, DataDoc(source, doc, beside, shipped))
    except BoxError:
        raise
    except InputError as exc:
        raise BoxError("box/bad-data", exc.path, exc.faults, reason=exc.detail,
                       where=exc.path or "$") from exc  # fmt: skip
    if renamed:  # the document names its files as the box holds them
        files[main] = json.dumps(_renamed(doc, renamed), ensure_ascii=False, indent=2) + "\n"
    members = {DATA_DIR + file: text.encode("utf-8") for file, text in files.items()}
    return make_box(key, name or f"{game.info.name} ({source})", DATA_DIR + main, members)


def _renamed(doc: Any, names: dict[str, str]) -> Any:
    """``doc`` with every text that names a renamed file replaced by the file's member name."""
    if isinstance(doc, dict):
        return {k: _renamed(v, names) for k, v in doc.items()}
    if isinstance(doc, list):
        return [_renamed(v, names) for v in doc]
    return names.get(doc, doc) if isinstance(doc, str) else doc
