"""A game's data loaded at the edge: the files a user names are read here, not in the engine.

``engine.data.load`` reads the sets shipped in a game's package itself (as the message catalogs
are read); a path a user gives (``--option data=FILE``, ``--data FILE``, a log header) is read
with :func:`read_text` below, the one place a game's data file is opened.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine import data as engine_data
from engine.violations import InputError


def read_text(path: str) -> str:
    """A user's data file (UTF-8); ``InputError`` (``input/file``) when it cannot be read."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError("input/file", f"cannot read {path}: {exc}") from exc


def load(game: Any, options: Mapping[str, Any] | None) -> engine_data.GameData | None:
    """The data ``options`` name for ``game`` (a shipped set, an inline object or a user's
    file), or None for a game without data; ``InputError`` names what cannot be read."""
    loaded: engine_data.GameData | None = engine_data.load(game, options, read=read_text)
    return loaded
