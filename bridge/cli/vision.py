"""``herald vision …``: read one camera frame, and enrol tile and card faces.

``herald vision detect FRAME --json`` prints the document described in docs/vision.md (markers,
board homography, cards/tiles, dice); ``herald vision enroll IMAGES… --library DIR`` adds face
pictures to a library with a progress bar; ``herald vision faces`` prints the stand-in face map.
Bad input (an unreadable frame, an unknown dictionary, a broken profile or library) exits with
code 2 and a sentence from the message catalog; nothing is written.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import NoReturn

import click
import cv2
import numpy as np
from rich.console import Console
from rich.progress import track

from engine.i18n import message
from vision.calibration import ProfileError
from vision.config import VisionConfig
from vision.library import LibraryError, enroll
from vision.markers import UnknownDictionaryError, available_dictionaries, dictionary_by_name
from vision.pipeline import Pipeline

EXIT_INPUT = 2

err = Console(stderr=True, highlight=False)
out = Console(highlight=False, soft_wrap=True)


def _fail(code: str, **params: object) -> NoReturn:
    err.print(f"[bold red]error:[/] {message(code, **params)}")
    sys.exit(EXIT_INPUT)


def _config(path: str | None) -> VisionConfig:
    if path is None:
        return VisionConfig()
    try:
        return VisionConfig.load(path)
    except (OSError, ValueError, TypeError) as exc:
        _fail("vision/bad-config", detail=str(exc))


@click.group()
def vision() -> None:
    """Read the table from a camera frame; enrol tile and card faces."""


@vision.command()
@click.argument("frame", type=click.Path(dir_okay=False))
@click.option("--dict", "dictionary", default=None, help="ArUco dictionary, e.g. 4x4_250.")
@click.option("--library", type=click.Path(file_okay=False), help="Enrolled faces directory.")
@click.option("--profile", type=click.Path(dir_okay=False), help="Board profile (JSON).")
@click.option("--game", default=None,
              help="Read the board with this game's own camera profile (when no --profile). "
              "Without --game or --profile any photo is read: markers, cards, dice, no "
              "board.")  # fmt: skip
@click.option("--config", "config_path", type=click.Path(dir_okay=False), help="Tuning file.")
@click.option("--json", "as_json", is_flag=True, help="Print the JSON document.")
def detect(
    frame: str,
    dictionary: str | None,
    library: str | None,
    profile: str | None,
    game: str | None,
    config_path: str | None,
    as_json: bool,
) -> None:
    """Detect markers, cards and dice in one FRAME image (and the board, with a profile)."""
    cfg = _config(config_path)
    if profile is None and game is not None:
        from bridge.game_files import camera_games, camera_profile_path

        readable = camera_games()
        shipped = camera_profile_path(game) if game in readable else None
        if shipped is None:
            _fail("vision/sticker-no-profile", game=game, choices=", ".join(readable) or "-")
        profile = str(shipped)
    if dictionary is not None:
        try:
            dictionary_by_name(dictionary)
        except UnknownDictionaryError:
            _fail(
                "vision/unknown-dictionary",
                name=dictionary,
                choices=", ".join(available_dictionaries()),
            )
    image = cv2.imread(frame, cv2.IMREAD_COLOR) if Path(frame).is_file() else None
    if image is None:
        _fail("vision/frame-unreadable", path=frame)
    try:
        pipeline = Pipeline.from_paths(cfg, profile, library, dictionary)
    except ProfileError as exc:
        _fail("vision/bad-profile", detail=str(exc))
    except LibraryError as exc:
        _fail("vision/bad-library", detail=str(exc))
    result = pipeline.detect(np.asarray(image, dtype=np.uint8))
    doc = result.to_json()
    if as_json:
        click.echo(json.dumps(doc))
        return
    board = (
        message("vision/board-found", error=result.board.reprojection_px)
        if result.board.found
        else message("vision/board-missing")
        if pipeline.has_board
        else message("vision/board-none")
    )
    out.print(
        message(
            "vision/summary",
            board=board,
            markers=len(doc["markers"]),
            cards=len(doc["cards"]),
            dice=len(doc["dice"]),
        )
    )
    for m in doc["markers"]:
        out.print(f"  marker {m['id']:>4}  board_xy={m['board_xy']}")
    for c in doc["cards"]:
        out.print(f"  face   {c['id']}  score={c['score']}")
    for d in doc["dice"]:
        out.print(f"  die    {d['value']}  at {d['center']}")


@vision.command(name="enroll")
@click.argument("images", nargs=-1, type=click.Path(dir_okay=False))
@click.option("--library", required=True, type=click.Path(file_okay=False))
@click.option("--config", "config_path", type=click.Path(dir_okay=False), help="Tuning file.")
def enroll_cmd(images: tuple[str, ...], library: str, config_path: str | None) -> None:
    """Add face pictures (IMAGES) to the library in DIR; the id is the file name stem."""
    if not images:
        _fail("vision/no-images")
    cfg = _config(config_path)

    def bar(paths: Iterable[Path]) -> Iterable[Path]:
        return track(list(paths), description="Enrolling", console=err, transient=True)

    try:
        ids = enroll(images, library, cfg.match, progress=bar)
    except LibraryError as exc:
        _fail("vision/bad-library", detail=str(exc))
    out.print(message("vision/enrolled", count=len(ids), library=library, ids=", ".join(ids)))


@vision.command(name="faces")
@click.option("--game", required=True, help="A game the simulated camera can draw.")
def faces_cmd(game: str) -> None:
    """Print the face map of the simulated table's stand-in art (face id → component attributes).

    It is generated from the game's own data (its ``camera_faces`` verb), so the game's
    ``camera/faces.json`` is rebuilt with ``herald vision faces --game GAME > …faces.json``.
    For real components, write ``faces.json`` beside an enrolled library in the same format
    (docs/vision.md).
    """
    from bridge.game_files import drawable_games
    from engine.capabilities import CAMERA_FACES, capability
    from engine.registry import get_game

    drawn = drawable_games()
    faces = capability(get_game(game), CAMERA_FACES) if game in drawn else None
    if faces is None:
        _fail("vision/sticker-no-profile", game=game, choices=", ".join(drawn) or "-")
    from bridge import gamedata
    from vision.sim import standin_face_map

    data = gamedata.load(get_game(game), {})  # the default set, read at the edge
    if data is None:  # faces are drawn from the game's data: a game without any has none
        _fail("vision/sticker-no-profile", game=game, choices=", ".join(drawn) or "-")
    click.echo(standin_face_map(faces.camera_faces(data), game).to_text(), nl=False)
