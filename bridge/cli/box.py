"""``herald box``: a group's own box as one file, made from a data set, checked, shown and
imported into a table's library (docs/boxes.md).

Every refusal is one sentence from the message catalog (``box/…``) and exit 2; nothing already
saved changes when a file is refused.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, NoReturn

import click
from rich.markup import escape

from bridge import gamedata
from bridge.box.errors import BoxError, refusal_text
from bridge.box.export import export_box
from bridge.box.faces import with_face
from bridge.box.file import Box
from bridge.box.library import import_box, library_dir, listed, read_box_file
from bridge.box.report import Playability, checked
from bridge.box.start import read_start, write_pictures
from bridge.box.start.fetch import Fetcher
from bridge.box.workshop import playable_text
from engine import registry
from engine.data import GameData
from engine.i18n import LANGUAGES, message, violation_text
from engine.verbs import EXIT_INPUT

from .io import CliError, err, find_game, out

LANG = click.option("--lang", type=click.Choice(LANGUAGES), default="en", show_default=True,
                    help="The language of what is printed.")  # fmt: skip


def _refuse(exc: BoxError, lang: str) -> NoReturn:
    said = escape(refusal_text(exc, lang))
    err.print(f"[bold red]{escape(message('box/refused', lang))}[/] {said}")
    if len(exc.faults) > 1:  # the data checked whole: every fault, each with its path
        for path, detail in exc.faults:
            err.print(f"  • {escape(path or '$')}: {escape(detail)}")
    sys.exit(EXIT_INPUT)


def _game(key: str, lang: str) -> Any:
    try:
        return find_game(key)
    except CliError:
        _refuse(BoxError("box/unknown-game", game=key, known=", ".join(registry.game_keys())), lang)


@click.group()
def box() -> None:
    """A group's own box as one file: export, check, show, import (docs/boxes.md)."""


@box.command()
@click.argument("game_key", metavar="GAME")
@click.option("--data", "source", default=None, metavar="SET",
              help="The data set: a shipped set (box, stand-in) or your data file; default: the "
              "game's default set.")  # fmt: skip
@click.option("--name", default=None, help="The box's name (your edition, your printing).")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="Where to write the box file (.herald-box).")  # fmt: skip
@LANG
def export(game_key: str, source: str | None, name: str | None, output: str, lang: str) -> None:
    """Write GAME's data set as one box file."""
    game = _game(game_key, lang)
    try:
        made = export_box(game, source, name, gamedata.read_text)
    except BoxError as exc:
        _refuse(exc, lang)
    try:
        Path(output).write_bytes(made.to_bytes())
    except OSError as exc:
        _refuse(BoxError("box/unwritable", file=output, reason=exc.strerror or str(exc)), lang)
    out.print(escape(message("box/exported", lang, file=output, name=made.name,
                             digest=made.digest)))  # fmt: skip


def _checked(
    path: str, game_key: str | None, lang: str
) -> tuple[Box, Any, tuple[GameData, Playability]]:
    try:
        found = read_box_file(path)
        key = game_key or found.game
        if key not in registry.game_keys():
            raise BoxError("box/unknown-game", game=key, known=", ".join(registry.game_keys()))
        game = registry.get_game(key)
        return found, game, checked(game, found, str(Path(path).resolve()))
    except BoxError as exc:
        _refuse(exc, lang)


def _players(p: Playability, lang: str) -> str:
    if not p.playable:
        return message("box/not-playable", lang, n=len(p.missing()))
    return playable_text(p.playable, lang)


@box.command()
@click.argument("path", metavar="FILE")
@click.option("--game", "game_key", default=None, help="Refuse a box of any other game.")
@LANG
def check(path: str, game_key: str | None, lang: str) -> None:
    """Check a box file: exit 0 if the game reads it, 2 (with the reason) if not."""
    found, game, outcome = _checked(path, game_key, lang)
    plays = outcome[1]
    out.print(escape(message("box/checked", lang, file=path, name=found.name, game=game.info.name,
                             players=_players(plays, lang))))  # fmt: skip


@box.command()
@click.argument("path", metavar="FILE")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@LANG
def show(path: str, as_json: bool, lang: str) -> None:
    """What a box file holds: its game, name, digests, files, faces and what it still lacks."""
    found, game, outcome = _checked(path, None, lang)
    data, plays = outcome
    missing = plays.missing()
    summary = {
        "game": found.game,
        "name": found.name,
        "version": found.version,
        "digest": found.digest,
        "data_digest": data.digest,
        "files": {n: len(raw) for n, raw in sorted(found.members.items())},
        "faces": sorted(found.faces()),
        "camera_profile": found.profile() is not None,
        "playable_with": list(plays.playable),
        "missing": [
            {"what": v.params.get("what"), "text": violation_text(v, lang)} for v in missing
        ],
    }
    if as_json:
        click.echo(json.dumps(summary, ensure_ascii=False, indent=2))
        return
    out.print(f"[bold]{escape(found.name)}[/] — {escape(game.info.name)}")
    for code, value in (("box/show-digest", found.digest), ("box/show-data", data.digest)):
        out.print("  " + escape(message(code, lang, value=value)))
    out.print("  " + escape(message("box/show-files", lang, n=len(found.members),
                                    faces=len(found.faces()))))  # fmt: skip
    out.print("  " + escape(_players(plays, lang)))
    for v in missing:
        out.print(f"  • {escape(violation_text(v, lang))}")


@box.command(name="import")
@click.argument("path", metavar="FILE")
@click.option("--db", "db_path", default="herald.db", show_default=True,
              help="The table's event store: its boxes are kept in DB.boxes/.")  # fmt: skip
@LANG
def import_(path: str, db_path: str, lang: str) -> None:
    """Keep a checked box in the table's library, where `herald serve` and New game find it."""
    found, game, _ = _checked(path, None, lang)
    try:
        done = import_box(found, game, library_dir(db_path))
    except BoxError as exc:
        _refuse(exc, lang)
    code = "box/already-imported" if done.existed else "box/imported"
    out.print(escape(message(code, lang, file=str(done.path), name=found.name)))


@box.command()
@click.argument("path", metavar="FILE")
@click.argument("card", metavar="CARD")
@click.argument("photo", metavar="PHOTO", type=click.Path(dir_okay=False))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="Where to write the box with the face (a new box: a new digest).")  # fmt: skip
@LANG
def face(path: str, card: str, photo: str, output: str, lang: str) -> None:
    """Enrol the face of CARD (its id in the box's data) from a PHOTO (PNG or JPEG), so the
    camera recognises that card when the table plays on the box."""
    found, _, _ = _checked(path, None, lang)
    try:
        raw = Path(photo).read_bytes()
    except OSError as exc:
        _refuse(BoxError("box/unreadable", file=photo, reason=exc.strerror or str(exc)), lang)
    try:
        made = with_face(found, card, raw)
        Path(output).write_bytes(made.to_bytes())
    except BoxError as exc:
        _refuse(exc, lang)
    except OSError as exc:
        _refuse(BoxError("box/unwritable", file=output, reason=exc.strerror or str(exc)), lang)
    out.print(escape(message("box/face-enrolled", lang, card=card, file=output)))


@box.command(name="list")
@click.option("--db", "db_path", default="herald.db", show_default=True)
@click.option("--game", "game_key", default=None)
def list_(db_path: str, game_key: str | None) -> None:
    """The boxes a table has imported."""
    for path in listed(library_dir(db_path), game_key):
        click.echo(str(path))


@box.command()
@click.argument("path", metavar="FILE", type=click.Path(dir_okay=False))
@click.option(
    "--mods",
    "mods",
    default=None,
    type=click.Path(file_okay=False),
    help="Tabletop Simulator's Mods folder, where it keeps the pictures a save names.",
)
@click.option(
    "--fetch",
    is_flag=True,
    help="Fetch from the internet the pictures of a save that are not found otherwise.",
)
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False),
    help='Where to write the start (JSON), to open on the "Your box" page.',
)
@click.option(
    "--pictures",
    default=None,
    type=click.Path(file_okay=False),
    help="Also write each picture as a file here (a card's to enrol with `herald box face`).",
)
@LANG
def start(
    path: str, mods: str | None, fetch: bool, output: str, pictures: str | None, lang: str
) -> None:
    """Start a box from a Tabletop Simulator save (.json, or a .ttsmod / zip with its pictures)
    or a VASSAL module (.vmod): the board's picture, the pieces' and cards' names and pictures."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        _refuse(BoxError("box/unreadable", file=path, reason=exc.strerror or str(exc)), lang)
    try:
        made = read_start(
            raw,
            path,
            mods=Path(mods) if mods else None,
            local=True,
            fetch=Fetcher() if fetch else None,
        )
        Path(output).write_text(json.dumps(made.to_json(lang), ensure_ascii=False), "utf-8")
        if pictures:
            written = write_pictures(made, Path(pictures))
    except BoxError as exc:
        _refuse(exc, lang)
    except OSError as exc:
        _refuse(BoxError("box/unwritable", file=output, reason=exc.strerror or str(exc)), lang)
    others = [p for p in made.pictures if p.kind != "board"]
    out.print(escape(message(
        "box/start-read", lang, file=path, name=made.name, n=len(others), named=len(made.names()),
        boards=message("box/start-boards", lang, n=len(made.of("board"))),
        missing=message("box/start-missing", lang, n=len(made.missing)),
    )))  # fmt: skip
    for line in made.missing_text(lang):
        out.print(f"  • {escape(line)}")
    out.print(escape(message("box/start-written", lang, file=output)))
    if pictures:
        out.print(escape(message("box/start-pictures", lang, n=len(written), folder=pictures)))
