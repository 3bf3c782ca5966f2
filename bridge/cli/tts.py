"""``herald tts``: read a Tabletop Simulator table, live or from a save file.

``herald tts snapshot --json`` asks a running TTS for every object through the External Editor
API; ``herald tts load SAVE.json --json`` reads a save file. Both print
``{"objects": [...]}``; with ``--profile GAME`` they print the game's ``TableSnapshot`` instead.
"""

from __future__ import annotations

import json
import time
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from bridge.tts.editor_api import DEFAULT_HOST, EDITOR_PORT, TTS_PORT, EditorClient
from bridge.tts.errors import TTSError
from bridge.tts.objects import TTSObject, objects_to_json
from bridge.tts.profile import build_snapshot, load_profile
from bridge.tts.reader import read_table
from bridge.tts.savefile import load_save


@click.group()
def tts() -> None:
    """Tabletop Simulator: read the live table or a save file."""


def _emit(objects: tuple[TTSObject, ...], as_json: bool, profile: str | None, source: str) -> None:
    try:
        if profile is not None:
            snap = build_snapshot(objects, load_profile(profile), time=time.time(), source=source)
            doc: dict[str, Any] = snap.to_json()
            if as_json:
                click.echo(json.dumps(doc, indent=2, ensure_ascii=False))
                return
            table = Table(title=f"{profile}: {len(snap.observations)} components")
            for col in ("component", "region", "face up", "guid"):
                table.add_column(col)
            for seen in snap.observations:
                face = "" if seen.face_up is None else ("yes" if seen.face_up else "no")
                table.add_row(seen.component, seen.region or "", face, seen.source_id or "")
            Console().print(table)
            return
    except TTSError as exc:
        raise click.ClickException(str(exc)) from exc
    if as_json:
        click.echo(json.dumps(objects_to_json(objects), indent=2, ensure_ascii=False))
        return
    table = Table(title=f"{len(objects)} objects")
    for col in ("guid", "name", "nickname", "x", "z", "face down", "contains"):
        table.add_column(col)
    for o in objects:
        pos = o.position
        table.add_row(
            o.guid,
            o.name or "",
            o.nickname,
            f"{pos[0]:.2f}" if pos else "",
            f"{pos[2]:.2f}" if pos else "",
            "" if o.face_down is None else ("yes" if o.face_down else "no"),
            str(len(o.contained)) if o.contained else "",
        )
    Console().print(table)


@tts.command()
@click.option("--tts-host", default=DEFAULT_HOST, show_default=True, help="Where TTS listens.")
@click.option("--tts-port", default=TTS_PORT, show_default=True, type=int, help="TTS's port.")
@click.option(
    "--listen-port",
    default=EDITOR_PORT,
    show_default=True,
    type=int,
    help="Herald's port for TTS's answers (TTS always answers on 39998).",
)
@click.option("--timeout", default=10.0, show_default=True, type=float, help="Seconds to wait.")
@click.option("--profile", default=None, help="Game key: print the game's TableSnapshot.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def snapshot(
    tts_host: str,
    tts_port: int,
    listen_port: int,
    timeout: float,
    profile: str | None,
    as_json: bool,
) -> None:
    """Read every object on the live TTS table (External Editor API)."""
    try:
        with EditorClient(tts_host, tts_port, DEFAULT_HOST, listen_port) as client:
            objects = read_table(client, timeout=timeout)
    except TTSError as exc:
        raise click.ClickException(str(exc)) from exc
    _emit(objects, as_json, profile, "tts")


@tts.command()
@click.argument("save", type=click.Path(dir_okay=False))
@click.option("--profile", default=None, help="Game key: print the game's TableSnapshot.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def load(save: str, profile: str | None, as_json: bool) -> None:
    """Read every object of a TTS save file (or saved object)."""
    try:
        objects = load_save(save).objects
    except TTSError as exc:
        raise click.ClickException(str(exc)) from exc
    _emit(objects, as_json, profile, "tts-save")
