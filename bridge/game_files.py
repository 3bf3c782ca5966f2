"""A game's own files, found through the registry by its key: camera and Tabletop Simulator
profiles, the stand-in face map. The core names no game; each game ships these in its package
under conventional names (docs/games.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.capabilities import LAYOUT, capability
from engine.registry import game_keys, get_game, package_files


def _file(key: str, *parts: str) -> Path | None:
    try:
        root = Path(str(package_files(key)))
    except KeyError:
        return None
    path = root.joinpath(*parts)
    return path if path.is_file() else None


def camera_profile_path(key: str) -> Path | None:
    """The game's board profile for the camera (``camera/profile.json``), if it ships one."""
    return _file(key, "camera", "profile.json")


def face_map_path(key: str) -> Path | None:
    """The game's shipped face map (``camera/faces.json``): stand-in art → attributes."""
    return _file(key, "camera", "faces.json")


def tts_profile_path(key: str) -> Path | None:
    """The game's Tabletop Simulator profile (``tts/profile.json``), if it ships one."""
    return _file(key, "tts", "profile.json")


def camera_games() -> tuple[str, ...]:
    """Games a camera can read: those shipping a camera profile."""
    return tuple(k for k in game_keys() if camera_profile_path(k) is not None)


def can_draw(key: str) -> bool:
    """Whether the simulated camera can draw the game: a camera profile and the ``layout`` verb
    (one game's question imports that game alone: `herald serve` starts a second sooner)."""
    return camera_profile_path(key) is not None and capability(get_game(key), LAYOUT) is not None


def drawable_games() -> tuple[str, ...]:
    """Games the simulated camera can draw."""
    return tuple(k for k in game_keys() if can_draw(k))


def camera_profile(key: str) -> Any:
    """The game's shipped board profile (``vision.calibration.BoardProfile``)."""
    from vision.calibration import load_profile

    path = camera_profile_path(key)
    if path is None:
        raise KeyError(f"{key} ships no camera profile")
    return load_profile(path)


def placer(key: str, profile: Any) -> Any:
    """``place(state)``: the game's ``layout`` with ``profile``'s regions bound (what
    ``vision.sim`` draws)."""
    from vision.sim import region_rects

    game = capability(get_game(key), LAYOUT)
    if game is None:
        raise AttributeError(f"{key} has no layout verb: the simulated camera cannot draw it")
    regions = region_rects(profile)
    return lambda state: game.layout(state, regions)
