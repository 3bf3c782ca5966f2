"""``herald sessions list|show|export``: read the event store of ``herald serve``.

``export`` writes the session as a log file (header line, then one event per line), the format
``herald rules GAME replay`` reads, so any stored game can be re-checked offline. Tokens are
secrets and are printed only when asked for (``show --tokens``).
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from bridge import gamedata
from bridge.labels import move_label
from bridge.store import SessionRow, Store, StoreError, is_url, open_store
from engine import get_game, log
from engine.i18n import message
from engine.violations import InputError

out = Console(highlight=False, soft_wrap=True)


def _open(db: str) -> Store:
    """The store ``--db`` names: an SQLite file that must exist, or a ``postgresql://`` URL."""
    if not is_url(db) and not Path(db).exists():
        raise click.ClickException(message("sessions/none", db=db))
    try:
        return open_store(db)
    except StoreError as exc:
        raise click.ClickException(str(exc)) from exc


def _when(stamp: float | None) -> str:
    if stamp is None:
        return "-"
    return dt.datetime.fromtimestamp(stamp).isoformat(sep=" ", timespec="seconds")


def _row_json(row: SessionRow, tokens: bool = False) -> dict[str, Any]:
    data: dict[str, Any] = {
        "session": row.id,
        "table_id": row.table_id,
        "header": row.header.to_json(),
        "status": row.status,
        "events": row.events,
        "created": row.created,
        "updated": row.updated,
    }
    if tokens:
        data["tokens"] = row.tokens.to_json()
    return data


def _get(store: Store, db: str, session_id: int) -> SessionRow:
    row = store.session(session_id)
    if row is None:
        raise click.ClickException(message("sessions/not-found", session=session_id, db=db))
    return row


@click.group()
@click.option("--db", default="herald.db", show_default=True,
              help="The event store to read: an SQLite file or a postgresql:// URL.")  # fmt: skip
@click.pass_context
def sessions(ctx: click.Context, db: str) -> None:
    """List, show and export the table sessions in an event store."""
    ctx.obj = db


@sessions.command("list")
@click.option("--table-id", default=None, help="Only this table's sessions.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def list_(db: str, table_id: str | None, as_json: bool) -> None:
    """Every session: game, seats, status, number of events, last activity."""
    store = _open(db)
    rows = store.sessions(table_id)
    store.close()
    if as_json:
        click.echo(json.dumps([_row_json(r) for r in rows], indent=2))
        return
    if not rows:
        out.print(message("sessions/none", db=db))
        return
    table = Table(*(message(f"sessions/col-{c}") for c in _LIST_COLUMNS))
    for r in rows:
        table.add_row(
            str(r.id),
            r.table_id,
            r.header.game,
            ", ".join(r.header.players),
            r.status,
            str(r.events),
            _when(r.updated or r.created),
        )
    out.print(table)


_LIST_COLUMNS = ("session", "table", "game", "seats", "status", "events", "updated")


@sessions.command()
@click.argument("session_id", type=int)
@click.option("--json", "as_json", is_flag=True)
@click.option("--tokens", is_flag=True, help="Also print the host and seat tokens (secrets).")
@click.pass_obj
def show(db: str, session_id: int, as_json: bool, tokens: bool) -> None:
    """One session and its events, each with source, kind and what happened."""
    store = _open(db)
    row = _get(store, db, session_id)
    events = store.events(row.id)
    store.close()
    if as_json:
        data = _row_json(row, tokens)
        data["events"] = [
            {
                "seq": e.seq,
                "time": e.time,
                "source": e.source,
                "kind": e.kind,
                "payload": e.payload,
                "state_id": e.state_id,
            }
            for e in events
        ]
        click.echo(json.dumps(data, indent=2))
        return
    out.print(
        message(
            "sessions/heading",
            session=row.id,
            table_id=row.table_id,
            game=row.header.game,
            seats=", ".join(row.header.players),
            status=row.status,
            events=row.events,
        )
    )
    if tokens:
        out.print(json.dumps(row.tokens.to_json(), indent=2))
    table = Table(*(message(f"sessions/col-{c}") for c in _SHOW_COLUMNS))
    for e in events:
        if e.kind == "move":
            what = move_label(row.header.game, e.payload["move"])
        else:
            what = message("label/undo", by=e.payload.get("by") or "host", seq="-")
        table.add_row(str(e.seq), _when(e.time), e.source, e.kind, what)
    out.print(table)


_SHOW_COLUMNS = ("seq", "time", "source", "kind", "what")


@sessions.command()
@click.argument("session_id", type=int)
@click.option("-o", "--output", default="-", show_default=True, help="File to write ('-': stdout).")
@click.option("--check/--no-check", default=True, show_default=True,
              help="Replay the log through the engine before writing it.")  # fmt: skip
@click.option("--frames", "frames_dir", default=None, metavar="DIR",
              type=click.Path(file_okay=False),
              help="Also write the camera's picture of each move it read: DIR/<seq>.jpg, and "
                   "DIR/frames.json (event, time, outlined regions).")  # fmt: skip
@click.pass_obj
def export(db: str, session_id: int, output: str, check: bool, frames_dir: str | None) -> None:
    """The session as a log file (header line + one event per line) for ``herald rules replay``;
    with ``--frames`` the camera's pictures too (the audit trail)."""
    store = _open(db)
    row = _get(store, db, session_id)
    events = store.events(row.id)
    kept = [store.frame(row.id, f.seq) for f in store.frames(row.id)] if frames_dir else []
    store.close()
    if check:
        game = get_game(row.header.game)
        try:  # with the data the session was played with (a changed data file is refused)
            data = gamedata.load(game, row.header.options)
            log.replay(game, row.header, (log.decode_event(game, e.payload) for e in events), data)
        except InputError as exc:
            raise click.ClickException(exc.detail) from exc
    lines = [json.dumps(row.header.to_json())] + [json.dumps(e.payload) for e in events]
    text = "\n".join(lines) + "\n"
    if output == "-":
        sys.stdout.write(text)
    else:
        Path(output).write_text(text, encoding="utf-8")
    if frames_dir is not None:
        folder = Path(frames_dir)
        folder.mkdir(parents=True, exist_ok=True)
        index = []
        for frame in kept:
            if frame is None:  # dropped between the listing and the read
                continue
            (folder / f"{frame.seq:06d}.jpg").write_bytes(frame.jpeg)
            index.append({"seq": frame.seq, "file": f"{frame.seq:06d}.jpg", "time": frame.time,
                          "size": frame.size, **frame.meta})  # fmt: skip
        (folder / "frames.json").write_text(
            json.dumps({"session": row.id, "frames": index}, indent=2), encoding="utf-8"
        )
        click.echo(message("sessions/frames-written", count=len(index), folder=str(folder)),
                   err=output == "-")  # fmt: skip
