"""The camera's board profile for a game played on a box (issue #24: "the camera profile must come
from the box's map"; point 2: a board traced on a photo is read where it was traced).

A box may carry its own profile (``camera/profile.json``); otherwise a game whose board depends on
its data (``BOARD_PROFILE``) makes one from the box's data: a traced map at the traced places of
its board, or its stand-in grid in the map's shape for a map typed by hand. The profile is written
once beside the table's boxes, named by the box's digest, so ``herald serve --box`` and a New game
started on a kept box read the same board.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bridge.box.errors import BoxError
from bridge.box.file import box_data
from bridge.box.library import read_box_file
from bridge.game_files import camera_profile_path
from engine.capabilities import BOARD_PROFILE, capability
from engine.game import Game
from vision.markers import usable_ids

PREFIX = ".profile-"
"""A box's profile file in the table's box library: ``.profile-<digest>.json``."""


def box_profile(game: Game[Any, Any], path: str | Path, library: Path) -> Path | None:
    """The board profile file for the box ``path`` (written into ``library`` the first time);
    None when the box carries none and the game makes none from its data (the game's shipped
    profile is then read).

    Raises:
        BoxError: the box cannot be read.
    """
    found = read_box_file(path)
    doc = found.profile()
    maker = capability(game, BOARD_PROFILE)
    if doc is None and maker is not None:
        shipped = camera_profile_path(game.info.key)
        if shipped is None:
            return None
        dictionary = json.loads(shipped.read_text(encoding="utf-8"))["dictionary"]
        data = box_data(game, found, str(Path(path).resolve()))
        doc = maker.board_profile(data, usable_ids(dictionary))
    if doc is None:
        return None
    target = library / f"{PREFIX}{found.digest.removeprefix('sha256:')[:16]}.json"
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(doc, indent=2, ensure_ascii=False), encoding="utf-8")
    return target


def played_box(options: dict[str, Any], library: Path | None) -> Path | None:
    """The box file a game's options play on (its ``data`` a box kept in ``library``, in the
    game's folder there), or None for a shipped set or a data file that is not a kept box."""
    data = options.get("data")
    if library is None or not isinstance(data, str) or not data.endswith(".herald-box"):
        return None
    path = Path(data)
    try:
        inside = library.resolve() in path.resolve().parents
    except OSError:
        return None
    return path if inside and path.is_file() else None


def profile_for_game(
    game: Game[Any, Any], options: dict[str, Any], library: Path | None, table: Path | None
) -> Path | None:
    """The profile a game started at the table reads: the table's own calibrated profile for the
    game (``table``, when the calibration page saved one), else, for a game on a kept box, the
    box's profile; None: neither (the caller keeps its default).

    A box's profile file is never taken for the table's own: a New game on another box gets
    that box's board."""
    if table is not None and table.exists() and not table.name.startswith(PREFIX):
        return table
    box = played_box(options, library)
    if box is None or library is None:
        return None
    try:
        return box_profile(game, box, library)
    except (BoxError, ValueError):
        return None
