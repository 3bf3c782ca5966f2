"""A game's data loaded at the edge: the files a user names are read here, not in the engine.

``engine.data.load`` reads the sets shipped in a game's package itself (as the message catalogs
are read); a path a user gives (``--option data=FILE``, ``--data FILE``, a log header) is read
with :func:`read_text` below, the one place a game's data file is opened; a box file
(``bridge.box``) is read whole, and every file its data name comes from inside it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bridge.box.file import box_data
from bridge.box.library import is_box_file, read_box_file
from engine import data as engine_data
from engine.violations import InputError


def read_text(path: str) -> str:
    """A user's data file (UTF-8); ``InputError`` (``input/file``) when it cannot be read."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError("input/file", f"cannot read {path}: {exc}") from exc


def load(game: Any, options: Mapping[str, Any] | None) -> engine_data.GameData | None:
    """The data ``options`` name for ``game`` (a shipped set, an inline object, a user's data
    file or a box file), or None for a game without data; ``InputError`` names what cannot be
    read (a box's refusal is a ``BoxError``, one)."""
    spec = engine_data.data_spec(game)
    source = (options or {}).get(spec.option) if spec is not None else None
    if (
        isinstance(source, str)
        and spec is not None
        and source not in spec.shipped
        and is_box_file(source)
    ):
        return box_data(game, read_box_file(source), source)
    loaded: engine_data.GameData | None = engine_data.load(game, options, read=read_text)
    return loaded
