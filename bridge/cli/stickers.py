"""``herald stickers``: printable ArUco sticker sheets for a game's board profile.

``herald stickers --game GAME --out sheet.pdf [--dict NAME]`` writes a PDF at true size
(10 mm stickers, larger board-corner markers 0–3), each sticker labelled with its component
(``<component>:<seat>``), and beside it the board profile the kit matches
(``sheet.profile.json``: dictionary and marker → component map, for ``herald vision detect
--profile``). The map itself comes from the game's built-in profile. Bad input exits with code 2
and a sentence from the message catalog.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import NoReturn

import click
from rich.console import Console
from rich.progress import track

from bridge.game_files import camera_games, camera_profile
from engine.i18n import message
from vision.calibration import (
    BoardProfile,
    ProfileError,
    load_profile,
)
from vision.markers import UnknownDictionaryError, available_dictionaries
from vision.stickers import PAPER_MM, Sticker, StickerError, plan_sheet, write_pdf

EXIT_INPUT = 2

err = Console(stderr=True, highlight=False)
out = Console(highlight=False, soft_wrap=True)


def _fail(code: str, **params: object) -> NoReturn:
    err.print(f"[bold red]error:[/] {message(code, **params)}")
    sys.exit(EXIT_INPUT)


def _profile(game: str | None, path: str | None) -> BoardProfile:
    try:
        if path is not None:
            return load_profile(path)
        readable = camera_games()
        if game is None and len(readable) == 1:
            game = readable[0]
        if game not in readable:
            _fail("vision/sticker-no-profile", game=game, choices=", ".join(readable) or "-")
        found: BoardProfile = camera_profile(game)
        return found
    except ProfileError as exc:
        _fail("vision/bad-profile", detail=str(exc))


@click.command()
@click.option("--game", default=None,
              help="Game whose profile to use (default: the only built-in profile).")  # fmt: skip
@click.option("--out", "out_path", required=True, type=click.Path(dir_okay=False), help="PDF file.")
@click.option("--dict", "dictionary", default=None, help="ArUco dictionary, e.g. 4x4_250.")
@click.option("--profile", type=click.Path(dir_okay=False), help="Board profile (JSON) instead.")
@click.option(
    "--paper", type=click.Choice(sorted(PAPER_MM)), default="a4", show_default=True, help="Paper."
)
@click.option("--copies", type=click.IntRange(1, 20), default=1, show_default=True)
@click.option(
    "--profile-out",
    type=click.Path(dir_okay=False),
    help="Where to save the kit's board profile (default: OUT with .profile.json).",
)
def stickers(
    game: str | None,
    out_path: str,
    dictionary: str | None,
    profile: str | None,
    paper: str,
    copies: int,
    profile_out: str | None,
) -> None:
    """Print ArUco sticker sheets (true size) for a game's pieces and board corners."""
    board = _profile(game, profile)
    try:
        plan = plan_sheet(
            board,
            dictionary,
            paper,
            copies,
            corner_label=lambda i: message("vision/sticker-corner-label", id=i),
        )
    except UnknownDictionaryError:
        _fail(
            "vision/unknown-dictionary",
            name=dictionary,
            choices=", ".join(available_dictionaries()),
        )
    except StickerError as exc:
        _fail(exc.code, **exc.params)
    pdf = Path(out_path)
    saved = Path(profile_out) if profile_out else pdf.with_suffix(".profile.json")

    def bar(items: list[Sticker]) -> Iterable[Sticker]:
        return track(items, description="Drawing stickers", console=err, transient=True)

    header = message("vision/sticker-header", profile=plan.profile.name, dictionary=plan.dictionary)
    try:
        pdf.parent.mkdir(parents=True, exist_ok=True)
        write_pdf(plan, pdf, header, message("vision/sticker-scale"), progress=bar)
        saved.write_text(json.dumps(plan.profile.to_json(), indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        _fail("vision/cannot-write", path=str(pdf), detail=str(exc))
    out.print(
        message(
            "vision/stickers-written",
            count=len(plan.stickers),
            pages=len(plan.pages),
            pdf=str(pdf),
            profile=str(saved),
        )
    )
    if plan.profile.markers != board.markers:
        out.print(message("vision/stickers-renumbered", dictionary=plan.dictionary))
