"""``herald serve``: referee one table live, with its pages and the Socket.IO contract.

With no hardware attached it runs the simulated table, so ``make run`` shows a live game: the
table display and each seat's page update as the simulated table plays a legal move every 1–2 s.
The event store makes a restart safe: with the same ``--db`` an unfinished session resumes at
the exact state it had (every acknowledged event was committed first).
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import signal
import socket
import sys
from pathlib import Path
from types import FrameType
from typing import Any

import click
import segno
from werkzeug.serving import WSGIRequestHandler

from bridge.camera import (
    CameraConfig,
    CameraError,
    CameraTable,
    camera_seats,
    choose_table,
    open_camera_table,
)
from bridge.devices.stack import DeviceOptions, DeviceStack
from bridge.devices.table import TableDevices
from bridge.referee import Referee
from bridge.simtable import SimConfig, SimTable
from bridge.store import EventStore, StoreError
from bridge.tts.editor_api import EditorClient
from bridge.tts.errors import TTSError
from bridge.tts.profile import load_profile
from bridge.tts.source import TTSAnnouncer, TTSTableSource
from bridge.web.app import TABLE_ROOM, WebConfig, WebTable, seat_room
from engine import get_game
from engine.game import Game
from engine.i18n import message
from engine.violations import InputError, RuleViolation

SEAT_NAMES = ("blue", "green", "pink", "yellow", "purple")


def _public_url(host: str, port: int) -> str:
    """The base URL phones use: the LAN address when serving on every interface."""
    if host in ("0.0.0.0", "::", ""):
        try:
            host = socket.gethostbyname(socket.gethostname())
        except OSError:
            host = "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


def _qr(url: str) -> str:
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


class NoDelayHandler(WSGIRequestHandler):
    """Werkzeug's handler with Nagle's algorithm off on each connection.

    A state message spans several TCP segments; with Nagle on, the last one waits for the
    client's delayed ACK (about 40 ms on Linux), which dominated the fan-out latency.
    """

    def setup(self) -> None:
        super().setup()
        with contextlib.suppress(OSError):
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def _stop_on_sigterm() -> None:
    def handler(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, handler)


@click.command()
@click.option("--game", "game_key", default="middle-ages", show_default=True)
@click.option("--players", default=3, show_default=True, type=click.IntRange(1, len(SEAT_NAMES)))
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Interface to listen on (0.0.0.0 for phones on the LAN).")  # fmt: skip
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--db", "db_path", default="herald.db", show_default=True,
              help="SQLite event store (created if missing).")  # fmt: skip
@click.option("--table-id", default="main", show_default=True)
@click.option("--resume/--new", "resume", default=None,
              help="Resume the table's unfinished session (the default when there is one) "
                   "or start a new one.")  # fmt: skip
@click.option("--move-delay", default=1.5, show_default=True, type=click.FloatRange(0),
              help="Seconds between simulated moves (±33%).")  # fmt: skip
@click.option("--sim", "sim_mode", default="all", show_default=True,
              type=click.Choice(["all", "table", "off"]),
              help="Simulated table: every move, chance only (phones play), or none.")  # fmt: skip
@click.option("--seed", default=1, show_default=True, type=int)
@click.option("--option", "option_pairs", multiple=True, metavar="KEY=VALUE",
              help="A rules option of the game (repeatable): --option tournament=pas-d-armes. "
                   "VALUE is read as JSON when it is (true, 3, null), else as text.")  # fmt: skip
@click.option("--public-url", default=None, help="Base URL printed in links and QR codes.")
@click.option("--allow-origin", multiple=True,
              help="Another origin allowed to open a socket (repeatable; never '*').")  # fmt: skip
@click.option("--qr/--no-qr", default=True, show_default=True,
              help="Print each seat's QR code in the terminal.")  # fmt: skip
@click.option("--mqtt", "mqtt_url", default=None, metavar="URL",
              help="MQTT broker of the table devices: mqtt://[user:pass@]host:port.")  # fmt: skip
@click.option("--serial", "serial_urls", multiple=True, metavar="URL",
              help="Serial device port (path or pyserial URL; repeatable).")  # fmt: skip
@click.option("--virtual-devices", "virtual", default="auto", show_default=True,
              type=click.Choice(["auto", "mqtt", "serial", "off"]),
              help="Without --mqtt/--serial, with a simulated table: virtual seat boxes "
                   "and a dice tower on a private mosquitto (auto: else pty).")  # fmt: skip
@click.option("--ha-discovery", is_flag=True, help="Announce devices to Home Assistant.")
@click.option("--ha-prefix", default="homeassistant", show_default=True,
              help="Home Assistant's MQTT discovery prefix.")  # fmt: skip
@click.option("--tts", "tts", is_flag=True,
              help="Referee the Tabletop Simulator table (External Editor API); implies "
                   "--sim off unless --sim is given.")  # fmt: skip
@click.option("--tts-host", default="127.0.0.1", show_default=True)
@click.option("--tts-port", default=39999, show_default=True, type=click.IntRange(1, 65535))
@click.option("--tts-listen-port", default=39998, show_default=True,
              type=click.IntRange(0, 65535), help="Where TTS sends its answers.")  # fmt: skip
@click.option("--tts-poll", default=5.0, show_default=True, type=click.FloatRange(0.05),
              help="Seconds between table reads when herald.lua reports nothing.")  # fmt: skip
@click.option("--table", "table_opt", default=None,
              type=click.Choice(["camera-sim", "moves", "camera"]),
              help="Table source: the simulated camera (default for a game it can draw), "
                   "the move-level simulated table, or a real camera (--camera).")  # fmt: skip
@click.option("--camera", "camera_spec", default=None, metavar="SOURCE",
              help="Frame source of --table camera (implied): a device index (0), a video "
                   "file, an image folder or a stream URL (rtsp://, http://).")  # fmt: skip
@click.option("--profile", "profile_file", default=None, metavar="FILE",
              type=click.Path(dir_okay=False),
              help="Board profile the camera reads with and the calibration page saves to "
                   "(default: DB.board.json; while no such file exists, the game's built-in "
                   "profile is read).")  # fmt: skip
@click.option("--library", "library_dir", default=None, metavar="DIR",
              type=click.Path(file_okay=False),
              help="Enrolled tile and card faces (herald vision enroll), faces.json.")  # fmt: skip
@click.option("--camera-fps", default=8.0, show_default=True, type=click.FloatRange(0.5, 60),
              help="Frames per second the camera table reads.")  # fmt: skip
@click.pass_context
def serve(
    ctx: click.Context,
    game_key: str,
    players: int,
    host: str,
    port: int,
    db_path: str,
    table_id: str,
    resume: bool | None,
    move_delay: float,
    sim_mode: Any,
    seed: int,
    option_pairs: tuple[str, ...],
    public_url: str | None,
    allow_origin: tuple[str, ...],
    qr: bool,
    mqtt_url: str | None,
    serial_urls: tuple[str, ...],
    virtual: Any,
    ha_discovery: bool,
    ha_prefix: str,
    tts: bool,
    tts_host: str,
    tts_port: int,
    tts_listen_port: int,
    tts_poll: float,
    table_opt: str | None,
    camera_spec: str | None,
    profile_file: str | None,
    library_dir: str | None,
    camera_fps: float,
) -> None:
    """Referee one table live: web pages, phones over Socket.IO, a crash-safe event store."""
    table, named = choose_table(game_key, table_opt, camera_spec, tts)
    sim_default = ctx.get_parameter_source("sim_mode") is click.core.ParameterSource.DEFAULT
    if (tts or table == "camera") and sim_default:
        sim_mode = "off"  # the TTS table or the real camera is the table: nobody simulated
    if table == "moves" and (camera_spec or profile_file or library_dir):
        raise click.UsageError(message("camera/bad-table"))
    if "*" in allow_origin:
        raise click.BadParameter(
            "'*' would let any web page act on the table", param_hint="--allow-origin"
        )
    try:
        game = get_game(game_key)
    except KeyError as exc:
        raise click.BadParameter(str(exc.args[0]), param_hint="--game") from exc
    if not game.info.min_players <= players <= game.info.max_players:
        raise click.BadParameter(
            f"{game.info.name} takes {game.info.min_players}-{game.info.max_players} players",
            param_hint="--players",
        )
    options = _options(game, option_pairs)
    if profile_file is None and table != "moves":
        # the venue's own board profile lives beside its event store: the calibration page
        # saves there, and until it does the game's built-in profile is read
        profile_file = f"{db_path}.board.json"
    seats: tuple[str, ...] = SEAT_NAMES[:players]
    fallback = ""
    if table != "moves":
        try:
            seats = camera_seats(game_key, profile_file, players)
        except CameraError as exc:
            if named:
                raise click.ClickException(exc.text()) from exc
            table, fallback = "moves", exc.text()
    try:
        store = EventStore(db_path)
    except StoreError as exc:
        raise click.ClickException(str(exc)) from exc
    try:
        referee = Referee.open(store, game, table_id, seats, options, resume=resume)
    except LookupError as exc:
        raise click.ClickException(message("serve/no-resume", detail=str(exc))) from exc
    except (InputError, RuleViolation) as exc:
        store.close()
        raise click.ClickException(message("serve/bad-options", game=game.info.name,
                                           detail=str(exc))) from exc  # fmt: skip
    camera: CameraTable | None = None
    if table != "moves":
        mode: Any = "off" if table == "camera" else sim_mode
        config = CameraConfig(mode=mode, delay=move_delay, seed=seed, fps=camera_fps)
        try:
            camera = open_camera_table(
                referee, table, config, camera=camera_spec, profile_path=profile_file,
                library_dir=library_dir,
            )  # fmt: skip
        except CameraError as exc:
            if named:
                store.close()
                raise click.ClickException(exc.text()) from exc
            table, fallback = "moves", exc.text()
    web = WebTable(
        referee,
        WebConfig(public_url=(public_url or _public_url(host, port)).rstrip("/"),
                  allowed_origins=allow_origin),
        camera=camera,
    )  # fmt: skip
    has_dice = callable(getattr(game, "dice_pool", None))
    devices = DeviceStack(
        DeviceOptions(
            dedup_path=Path(f"{db_path}.devices"),
            mqtt=mqtt_url,
            serial=serial_urls,
            virtual=virtual if sim_mode != "off" else "off",
            roll_every=None if has_dice else 20.0,  # a game with dice: the tower rolls its pools
            ha_discovery=ha_discovery,
            ha_prefix=ha_prefix,
        )
    )
    sim_moves: Any = "off" if table == "camera-sim" else sim_mode  # the camera-sim plays itself
    sim = SimTable(referee, SimConfig(mode=sim_moves, delay=move_delay, seed=seed),
                   roller=devices.roll if has_dice else None)  # fmt: skip

    def attach_web(table_devices: TableDevices) -> None:
        table_devices.attach_web(web.socketio, TABLE_ROOM, seat_room)

    echo = click.echo
    params = {"session": referee.row.id, "state_id": referee.state_id}
    echo(message("serve/heading", game=game.info.name, table_id=table_id, **params))
    echo(message("serve/resumed" if referee.resumed else "serve/started", **params))
    for key, (value, code) in SERVE_DEFAULTS.get(game.info.key, {}).items():
        if referee.row.header.options.get(key) == value:
            echo(message(code, key=key, value=value))
    echo(message("serve/table-url", url=web.table_url()))
    echo(message("serve/host-url", url=web.host_url()))
    for seat in referee.seats:
        echo(message("serve/seat-url", seat=seat, url=web.seat_url(seat)))
        if qr:
            echo(_qr(web.seat_url(seat)))
    if fallback:
        echo(message("serve/table-fallback", reason=fallback))
    echo(_table_line(camera))
    if sim_mode != "off":
        echo(message("serve/sim", mode=sim_mode, delay=move_delay, seed=seed))
    tts_link = (
        _start_tts(referee, game_key, tts_host, tts_port, tts_listen_port, tts_poll)
        if tts
        else None
    )
    if tts_link is not None:
        echo(message("serve/tts", host=tts_host, port=tts_port))
    echo(message("serve/devices", note=devices.start(referee, attach_web)))
    echo(message("serve/stop"))
    sys.stdout.flush()

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    _stop_on_sigterm()
    sim.start()
    if camera is not None:
        camera.start()
    try:
        web.socketio.run(web.app, host=host, port=port, allow_unsafe_werkzeug=True,
                         request_handler=NoDelayHandler)  # fmt: skip
    except KeyboardInterrupt:
        pass
    finally:
        sim.stop()
        if camera is not None:
            camera.stop()
        if tts_link is not None:
            tts_link.stop()
        devices.stop()
        referee.snapshot()
        store.close()


def _table_line(camera: CameraTable | None) -> str:
    """The sentence saying where the referee's table observations come from."""
    if camera is None:
        return message("serve/table-moves")
    name = camera.pipeline.profile.name
    if camera.sim is not None:
        width, height = camera.sim.size
        return message("serve/table-camera-sim", width=width, height=height, profile=name)
    return message("serve/table-camera", source=camera.name, profile=name)


SERVE_DEFAULTS: dict[str, dict[str, tuple[Any, str]]] = {
    "glory": {"data": ("stand-in", "serve/glory-stand-in")},
}
"""Per game: options ``herald serve`` sets unless ``--option`` gives them, and the notice it
prints whenever the session plays that value. Glory's printed data are incomplete (a game would
be refused, naming the missing values), so it plays the invented stand-in set and says so."""


def _options(game: Game[Any, Any], pairs: tuple[str, ...]) -> dict[str, Any]:
    """The game's options: its defaults, then ``serve``'s own (``SERVE_DEFAULTS``), then each
    ``--option KEY=VALUE``; an unknown key or a pair without ``=`` is a usage error."""
    known = {o.name for o in game.info.options}
    given: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise click.BadParameter(message("serve/option-form", pair=pair),
                                     param_hint="--option")  # fmt: skip
        if key not in known:
            raise click.BadParameter(
                message("serve/option-unknown", key=key, game=game.info.name,
                        known=", ".join(sorted(known)) or "-"), param_hint="--option")  # fmt: skip
        try:
            given[key] = json.loads(text)
        except ValueError:
            given[key] = text
    serve_own = {k: v for k, (v, _) in SERVE_DEFAULTS.get(game.info.key, {}).items()}
    return {**game.info.option_defaults(), **serve_own, **given}


class _TTSLink:
    """The Tabletop Simulator connection of a served table: source in, announcer out."""

    def __init__(self, referee: Referee, client: EditorClient, source: TTSTableSource) -> None:
        self.referee = referee
        self.client = client
        self.source = source
        self.announcer = TTSAnnouncer(client)
        referee.attach(self.announcer)

    def stop(self) -> None:
        self.source.stop()
        self.referee.detach(self.announcer)
        self.announcer.close()
        self.client.close()


def _start_tts(
    referee: Referee, game_key: str, host: str, port: int, listen_port: int, poll: float
) -> _TTSLink:
    """Connect to TTS and start reading its table; a clear error when that cannot be done."""
    try:
        profile = load_profile(game_key)
        client = EditorClient(tts_host=host, tts_port=port, listen_port=listen_port)
        client.start()
    except TTSError as exc:
        raise click.ClickException(str(exc)) from exc
    source = TTSTableSource(referee, client, profile, poll_s=poll)
    link = _TTSLink(referee, client, source)
    source.start()
    return link
