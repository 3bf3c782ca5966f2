"""``herald serve``: referee one table live, with its pages and the Socket.IO contract.

With no hardware attached it runs the simulated table, so ``make run`` shows a live game: the
table display and each seat's page update as the simulated table plays a legal move every 1–2 s.
The event store makes a restart safe: with the same ``--db`` an unfinished session resumes at
the exact state it had (every acknowledged event was committed first).
"""

from __future__ import annotations

import contextlib
import dataclasses
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

from bridge import gamedata
from bridge.box.errors import BoxError, refusal_text
from bridge.box.faces import write_faces
from bridge.box.file import box_data
from bridge.box.library import library_dir, read_box_file
from bridge.box.profile import box_profile
from bridge.box.report import checked
from bridge.camera import (
    CameraConfig,
    CameraError,
    CameraTable,
    camera_seats,
    choose_table,
    open_camera_table,
)
from bridge.cli.io import CliError, check_players, find_game, parse_options
from bridge.devices.stack import DeviceOptions, DeviceStack
from bridge.devices.table import TableDevices
from bridge.referee import OtherGameOpen, Referee
from bridge.seats import data_seat_names, seat_names
from bridge.serve_config import ServeConfig
from bridge.simtable import SimConfig, SimTable
from bridge.store import (
    SessionRow,
    Store,
    StoreError,
    StoreRefused,
    create_private,
    open_store,
)
from bridge.table_parts import Problem, TableParts
from bridge.tts.editor_api import EditorClient
from bridge.tts.errors import TTSError
from bridge.tts.profile import load_profile
from bridge.tts.source import TTSAnnouncer, TTSTableSource
from bridge.venue import queue_refusal, shown_url
from bridge.web import origins, server
from bridge.web.app import WebConfig, WebTable
from bridge.web.phonecam import phone_source
from bridge.web.server import ServerOptions
from engine import data as engine_data
from engine import selfplay
from engine.capabilities import DICE_POOL, capability
from engine.game import Game
from engine.i18n import (
    DEFAULT_LANG,
    LANGUAGES,
    error_text,
    has_message,
    message,
)
from engine.registry import game_keys, get_game
from engine.violations import InputError, RuleViolation

PEM_FILE = click.Path(exists=True, dir_okay=False)


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


def serve_pages(app: Any, options: ServerOptions) -> None:
    """Serve a page server's app (a table, the venue view) on gunicorn's threaded worker until
    stopped (SIGTERM, Ctrl+C); an address it cannot listen on or an unreadable TLS pair is one
    sentence (exit 1). Why gunicorn and how: ``bridge.web.server``, docs/deployment.md."""
    try:
        server.serve(app, options)
    except server.ServeError as exc:
        text = message(exc.code, host=options.host, port=options.port, reason=exc.detail)
        raise click.ClickException(text) from exc
    except KeyboardInterrupt:
        pass


def _stop_on_sigterm() -> None:
    def handler(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, handler)


@click.command()
@click.option("--game", "game_key", default=None,
              help="The game to referee (default: the table's unfinished session's, else "
                   "--default-game, else its last session's, else the host picks).")  # fmt: skip
@click.option("--default-game", default=None, metavar="GAME",
              help="The game of a new session when --game is not given (a restart resumes the "
                   "table's unfinished session, whatever its game).")  # fmt: skip
@click.option("--players", default=None, type=click.IntRange(min=1),
              help="Seats at the table, within the game's range (default: 3, or the nearest "
                   "count the game seats).")  # fmt: skip
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Interface to listen on (0.0.0.0 for phones on the LAN).")  # fmt: skip
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--db", "db_path", default="herald.db", show_default=True,
              help="SQLite event store (created if missing).")  # fmt: skip
@click.option("--store", "store_url", default=None, metavar="postgresql://…",
              help="Keep the events in this PostgreSQL database, not --db (a venue; "
                   "docs/deployment.md). Device and board files stay beside --db.")  # fmt: skip
@click.option("--table-id", default="main", show_default=True)
@click.option("--resume/--new", "resume", default=None,
              help="Resume the table's unfinished session (the default when there is one) "
                   "or start a new one.")  # fmt: skip
@click.option("--force", is_flag=True,
              help="With --new: also close an unfinished session of another game.")  # fmt: skip
@click.option("--move-delay", default=1.5, show_default=True, type=click.FloatRange(0),
              help="Seconds between simulated moves (±33%).")  # fmt: skip
@click.option("--restart-after", default=30.0, show_default=True, type=click.FloatRange(0),
              help="Seconds after the end before the simulated table starts a new game "
                   "(0: the game stays over).")  # fmt: skip
@click.option("--sim", "sim_mode", default="all", show_default=True,
              type=click.Choice(["all", "table", "off"]),
              help="Simulated table: every move, chance only (phones play), or none.")  # fmt: skip
@click.option("--seed", default=1, show_default=True, type=int)
@click.option("--option", "option_pairs", multiple=True, metavar="NAME=VALUE",
              help="A rules option of the game (repeatable): --option tournament=pas-d-armes. "
                   "VALUE is read as JSON when it is (true, 3, null), else as text.")  # fmt: skip
@click.option("--public-url", default=None, help="Base URL printed in links and QR codes.")
@click.option("--tls-cert", default=None, metavar="PEM", type=PEM_FILE,
              help="Serve HTTPS with this certificate (and --tls-key): phones open their camera "
                   "only on a secure page (--camera phone).")  # fmt: skip
@click.option("--tls-key", default=None, metavar="PEM", type=PEM_FILE,
              help="The private key of --tls-cert.")  # fmt: skip
@click.option("--read-timeout", default=10.0, show_default=True, type=click.FloatRange(0.5, 300),
              help="Seconds a connection may stay silent in the middle of a request (its TLS "
                   "handshake, headers or an uploaded frame) before it is closed.")  # fmt: skip
@click.option("--allow-origin", multiple=True,
              help="Another origin allowed to open a socket (repeatable; never '*').")  # fmt: skip
@click.option("--qr/--no-qr", default=True, show_default=True,
              help="Print each seat's QR code in the terminal.")  # fmt: skip
@click.option("--mqtt", "mqtt_url", default=None, metavar="URL",
              help="MQTT broker of the table devices: mqtt://[user:pass@]host:port, or "
                   "mqtts://[user:pass@]host:port[?ca=FILE] for TLS (docs/devices.md, "
                   "'Securing the broker').")  # fmt: skip
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
                   "file, an image folder, a stream URL (rtsp://, http://), or 'phone': a "
                   "phone's camera through the page /phone/<host token>.")  # fmt: skip
@click.option("--profile", "profile_file", default=None, metavar="FILE",
              type=click.Path(dir_okay=False),
              help="Board profile the camera reads with and the calibration page saves to "
                   "(default: DB.board.json; while no such file exists, the game's built-in "
                   "profile is read).")  # fmt: skip
@click.option("--library", "library_dir", default=None, metavar="DIR",
              type=click.Path(file_okay=False),
              help="Enrolled tile and card faces (herald vision enroll), faces.json.")  # fmt: skip
@click.option("--box", "box", default=None, metavar="FILE", type=click.Path(dir_okay=False),
              help="Play on your own box (a .herald-box file, docs/boxes.md): its data, "
                   "never a stand-in.")  # fmt: skip
@click.option("--camera-fps", default=8.0, show_default=True, type=click.FloatRange(0.5, 60),
              help="Frames per second the camera table reads.")  # fmt: skip
@click.option("--message-queue", "message_queue", default=None, metavar="URL",
              help="Redis shared by a venue's Herald processes, with its password "
                   "(redis://herald:PASSWORD@host:6379/0; rediss:// when remote): "
                   "Socket.IO emits and the venue view go through it.")  # fmt: skip
@click.option("--tower-every", default=0.0, show_default=True, type=click.FloatRange(0),
              help="Seconds between the virtual tower's own rolls (0: never).")  # fmt: skip
@click.option("--auto-pass/--no-auto-pass", "auto_pass", default=True, show_default=True,
              help="A step with one possible move (a pass, a single choice) makes itself "
                   "(logged; a run of them is one line).")  # fmt: skip
@click.option("--lang", "lang", default=DEFAULT_LANG, show_default=True,
              type=click.Choice(LANGUAGES), help="The table display's language.")  # fmt: skip
@click.pass_context
def serve(ctx: click.Context, /, **params: Any) -> None:
    """Referee one table live: web pages, phones over Socket.IO, a crash-safe event store."""
    sim_given = ctx.get_parameter_source("sim_mode") is not click.core.ParameterSource.DEFAULT
    run_server(ServeConfig(**params, sim_given=sim_given))


def _game_and_seats(cfg: ServeConfig) -> tuple[Game[Any, Any], int]:
    """The game ``--game`` names (or the only one registered) and its seat count."""
    try:
        game = find_game(cfg.game_key)
    except CliError as exc:
        raise click.BadParameter(str(exc), param_hint="--game") from exc
    info = game.info
    players = cfg.players or max(info.min_players, min(3, info.max_players))
    try:
        check_players(game, players)
    except CliError as exc:
        raise click.BadParameter(str(exc), param_hint="--players") from exc
    return game, players


def _unnamed_game(cfg: ServeConfig, store: Store) -> tuple[ServeConfig, bool]:
    """``cfg`` with the game to serve when ``--game`` was not given, and whether the host is to
    pick the game (a lobby).

    The table's unfinished session's game (with its seat count), so a restart comes back to the
    game the host started in the browser; else ``--default-game``; else the game of the table's
    last session, finished or not (the group plays what it played last); else, on a first run
    with several games registered, the first of them as the lobby's backdrop: the host page
    opens its New game form so the host picks the game (issue 25, point 8: a first ``herald
    serve`` refused to start, "Several games are registered").
    """
    if cfg.game_key is not None:
        return cfg, False
    found = store.unfinished(cfg.table_id) if cfg.resume is not False else None
    if found is not None and found.header.game in game_keys():
        players = cfg.players or len(found.header.players)
        return dataclasses.replace(cfg, game_key=found.header.game, players=players), False
    if cfg.default_game is not None:
        return dataclasses.replace(cfg, game_key=cfg.default_game), False
    played = [r for r in store.sessions(cfg.table_id) if r.header.game in game_keys()]
    if played:
        last = max(played, key=lambda r: r.id)
        players = cfg.players or len(last.header.players)
        return dataclasses.replace(cfg, game_key=last.header.game, players=players), False
    keys = game_keys()
    return dataclasses.replace(cfg, game_key=keys[0] if keys else None), len(keys) > 1


def run_server(cfg: ServeConfig) -> None:
    """Set up the referee, its store, pages, table source and devices, and serve until stopped."""
    if bool(cfg.tls_cert) != bool(cfg.tls_key):
        raise click.UsageError(message("serve/tls-pair"))
    early: Store | None = None
    lobby = False
    if cfg.game_key is None:
        early = _open_store(cfg.store_url or cfg.db_path)
        cfg, lobby = _unnamed_game(cfg, early)
    game, players = _game_and_seats(cfg)
    game_key = game.info.key
    table, named = choose_table(game_key, cfg.table_opt, cfg.camera_spec, cfg.tts)
    sim_mode = cfg.sim_mode
    if (cfg.tts or table == "camera") and not cfg.sim_given:
        sim_mode = "off"  # the TTS table or the real camera is the table: nobody simulated
    if table == "moves" and (cfg.camera_spec or cfg.profile_file or cfg.library_dir):
        raise click.UsageError(message("camera/bad-table"))
    if "*" in cfg.allow_origin:
        raise click.BadParameter(
            "'*' would let any web page act on the table", param_hint="--allow-origin"
        )
    seats: tuple[str, ...] = seat_names(players)
    if cfg.box is not None:
        seats = _box_seats(game, cfg.box, players)
        cfg = dataclasses.replace(
            cfg, option_pairs=(*cfg.option_pairs, _box_option(game, cfg.box, seats))
        )
    options, fallback_options = _options(game, seats, cfg.option_pairs)
    profile_file = cfg.profile_file
    if profile_file is None and table != "moves":
        # the venue's own board profile lives beside its event store: the calibration page
        # saves there, and until it does the game's built-in profile is read
        profile_file = f"{cfg.db_path}.board.json"
        if cfg.box is not None and not Path(profile_file).exists():
            profile_file = _box_profile(game, cfg.box, cfg.db_path) or profile_file
    fallback = ""
    fallback_error: CameraError | None = None
    if table != "moves":
        try:
            seats = camera_seats(game_key, profile_file, players)
        except CameraError as exc:
            if named:
                raise click.ClickException(exc.text()) from exc
            table, fallback, fallback_error = "moves", exc.text(), exc
    if cfg.message_queue is not None:
        text = queue_refusal(cfg.message_queue)
        if text is not None:
            raise click.BadParameter(text, param_hint="--message-queue")
    store = early or _open_store(cfg.store_url or cfg.db_path)
    try:
        store.claim(cfg.table_id)  # one referee per table: a second server is refused here
    except StoreError as exc:
        store.close()
        raise click.ClickException(str(exc)) from exc
    try:
        referee = Referee.open(store, game, cfg.table_id, seats, options, resume=cfg.resume,
                               force=cfg.force, auto_pass=cfg.auto_pass,
                               lang=cfg.lang)  # fmt: skip
    except LookupError as exc:
        raise click.ClickException(message("serve/no-resume", detail=str(exc))) from exc
    except OtherGameOpen as exc:
        store.close()
        raise click.ClickException(_other_game(exc.row, game)) from exc
    except (InputError, RuleViolation) as exc:
        store.close()
        raise click.ClickException(message("serve/bad-options", game=game.info.name,
                                           detail=error_text(exc))) from exc  # fmt: skip
    camera: CameraTable | None = None
    if table != "moves":
        mode: Any = "off" if table == "camera" else sim_mode
        config = CameraConfig(mode=mode, delay=cfg.move_delay, seed=cfg.seed, fps=cfg.camera_fps)
        faces = cfg.library_dir
        if faces is None and cfg.box is not None and table == "camera":
            faces = _box_faces(cfg.box, cfg.db_path)  # the real camera reads the box's faces
        try:
            camera = open_camera_table(
                referee, table, config, camera=cfg.camera_spec, profile_path=profile_file,
                library_dir=faces,
            )  # fmt: skip
        except CameraError as exc:
            if named:
                store.close()
                raise click.ClickException(exc.text()) from exc
            table, fallback, fallback_error = "moves", exc.text(), exc
    # listening on every interface, the links name the LAN address phones reach
    lan = origins.lan_address() if origins.is_wildcard(cfg.host) else None
    link_host = origins.link_host(cfg.host, lan)
    scheme = "https" if cfg.tls_cert else "http"
    public = (cfg.public_url or origins.base_url(link_host, cfg.port, scheme)).rstrip("/")
    web = WebTable(referee, WebConfig(public_url=public, allowed_origins=cfg.allow_origin,
                                      own_hosts=origins.own_hosts(cfg.host, lan),
                                      message_queue=cfg.message_queue),
                   camera=camera, box_library=library_dir(cfg.db_path))  # fmt: skip
    has_dice = capability(game, DICE_POOL) is not None
    with contextlib.suppress(OSError):  # the device log holds no secret; SQLite reports errors
        create_private(f"{cfg.db_path}.devices", tighten=True)
    devices = DeviceStack(
        DeviceOptions(
            dedup_path=Path(f"{cfg.db_path}.devices"),
            mqtt=cfg.mqtt_url,
            serial=cfg.serial_urls,
            virtual=cfg.virtual if sim_mode != "off" else "off",
            # the tower rolls what a step awaits (its pools); on its own only when asked to
            roll_every=None if has_dice or not cfg.tower_every else cfg.tower_every,
            ha_discovery=cfg.ha_discovery,
            ha_prefix=cfg.ha_prefix,
            avoid_ports=(cfg.port,),
        )
    )
    sim_moves: Any = "off" if table == "camera-sim" else sim_mode  # the camera-sim plays itself
    restart = cfg.restart_after or None
    sim = SimTable(referee, SimConfig(mode=sim_moves, delay=cfg.move_delay, seed=cfg.seed,
                                      restart_after=restart),
                   roller=devices.roll if has_dice else None)  # fmt: skip

    def attach_web(table_devices: TableDevices) -> None:
        table_devices.attach_web(web.socketio, web.table_room, web.seat_room, web.host_room,
                                 role_of=lambda sid: web.client(sid)[0].role)  # fmt: skip
        web.devices_panel = table_devices.panel

    def moves_table() -> SimTable:  # plays while the camera cannot read a game switched to
        return SimTable(referee, SimConfig(mode=sim_mode, delay=cfg.move_delay, seed=cfg.seed,
                                           restart_after=restart),
                        roller=devices.roll)  # fmt: skip

    parts = TableParts(referee, camera=camera, profile_base=profile_file,
                       library_dir=cfg.library_dir, sims=[sim], roller=devices.roll,
                       fallback=moves_table if sim_mode != "off" else None,
                       changed=web.tell_host)  # fmt: skip
    web.parts = parts
    parts.calibrator = web.calibrator
    web.lobby = lobby
    if fallback and fallback_error is not None:
        parts.problems.append(Problem.of("table/camera-off", fallback_error, game=game.info.name))

    echo = click.echo
    params = {"session": referee.row.id, "state_id": referee.state_id}
    echo(message("serve/heading", game=game.info.name, table_id=cfg.table_id, **params))
    echo(message("serve/resumed" if referee.resumed else "serve/started", **params))
    if referee.closed is not None and referee.closed.header.game != game_key:
        closed = referee.closed
        echo(message("store/forced-close", game=_game_name(closed.header.game),
                     table_id=cfg.table_id, session=closed.id))  # fmt: skip
    played = referee.row.header.options
    if fallback_options and all(played.get(k) == v for k, v in fallback_options.items()):
        echo(_options_notice(game, fallback_options))
    if origins.is_wildcard(cfg.host) and lan is None and not cfg.public_url:
        echo(message("serve/no-lan", port=cfg.port))
    if lobby:
        echo(message("serve/lobby", game=game.info.name,
                     games=", ".join(get_game(k).info.name for k in game_keys())))  # fmt: skip
    echo(message("serve/table-url", url=web.table_url()))
    echo(message("serve/host-url", url=web.host_url()))
    for seat in referee.seats:  # the links first: the QR codes follow, below every sentence
        echo(message("serve/seat-url", seat=seat, url=web.seat_url(seat)))
    if fallback:
        echo(message("serve/table-fallback", reason=fallback))
    echo(_table_line(camera))
    if phone_source(camera) is not None:
        echo(message("serve/phone", url=web.phone_url()))
    if sim_mode != "off":
        echo(message("serve/sim", mode=sim_mode, delay=cfg.move_delay, seed=cfg.seed))
    tts_link = _start_tts(referee, game_key, cfg) if cfg.tts else None
    if tts_link is not None:
        echo(message("serve/tts", host=cfg.tts_host, port=cfg.tts_port))
    echo(message("serve/devices", note=devices.start(referee, attach_web)))
    parts.desk = devices.devices.desk if devices.devices is not None else None
    parts.tts_source = tts_link.source if tts_link is not None else None
    if cfg.message_queue is not None:
        echo(message("serve/queue", url=shown_url(cfg.message_queue)))
    if cfg.qr:
        for seat in referee.seats:
            echo(message("serve/seat-qr", seat=seat))
            echo(_qr(web.seat_url(seat)))
    echo(message("serve/stop"))
    sys.stdout.flush()

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    _stop_on_sigterm()
    sim.start()
    if camera is not None:
        camera.start()
    parts.start()
    announcing = web.start_announcing() if cfg.message_queue is not None else None
    try:
        listen = ServerOptions(host=cfg.host, port=cfg.port, tls_cert=cfg.tls_cert,
                               tls_key=cfg.tls_key, read_timeout=cfg.read_timeout)  # fmt: skip
        serve_pages(web.app, listen)
    finally:
        if announcing is not None:
            announcing.set()
        parts.stop()
        sim.stop()
        if camera is not None:
            camera.stop()
        if tts_link is not None:
            tts_link.stop()
        devices.stop()
        referee.snapshot()
        store.close()


def _open_store(target: str) -> Store:
    """The event store at ``--db`` (or ``--store``): an unusable path or an unreachable database
    is a usage error (exit 2), a store that is not a sound Herald store an error (exit 1);
    either way one sentence and nothing changed."""
    try:
        return open_store(target)
    except StoreRefused as exc:
        if exc.path_problem:
            hint = "--store" if exc.code == "store/cannot-connect" else "--db"
            raise click.BadParameter(str(exc), param_hint=hint) from exc
        raise click.ClickException(str(exc)) from exc
    except StoreError as exc:
        raise click.ClickException(str(exc)) from exc


def _game_name(key: str) -> str:
    return get_game(key).info.name if key in game_keys() else key


def _other_game(row: SessionRow, game: Game[Any, Any]) -> str:
    """The refusal of ``--new`` over another game's unfinished session, naming it."""
    return message("store/other-game-open", table_id=row.table_id, game=_game_name(row.header.game),
                   session=row.id, events=row.events, new_game=game.info.name,
                   game_key=row.header.game)  # fmt: skip


def _table_line(camera: CameraTable | None) -> str:
    """The sentence saying where the referee's table observations come from."""
    if camera is None:
        return message("serve/table-moves")
    name = camera.pipeline.profile.name
    if camera.sim is not None:
        width, height = camera.sim.size
        return message("serve/table-camera-sim", width=width, height=height, profile=name)
    return message("serve/table-camera", source=camera.name, profile=name)


def _box_option(game: Game[Any, Any], path: str, seats: tuple[str, ...]) -> str:
    """The ``data=`` option playing on the box file ``path``, once the game has read the box and
    starts on it with these seats (a box that does not play is refused at start, in a sentence
    that says how to see why, never replaced by a stand-in)."""
    source = str(Path(path).resolve())
    try:
        _, plays = checked(game, read_box_file(source), source)
    except BoxError as exc:
        raise click.BadParameter(refusal_text(exc), param_hint="--box") from exc
    if len(seats) not in plays.playable:
        reasons = plays.refused.get(len(seats), ())
        raise click.BadParameter(
            message("box/serve-unplayable", n=len(reasons), players=len(seats), file=path),
            param_hint="--box",
        )
    return f"data={json.dumps(source)}"


def _box_seats(game: Game[Any, Any], path: str, players: int) -> tuple[str, ...]:
    """The seats of a game on the box ``path``: its families' colours (``data_seat_names``); a
    box that cannot be read keeps the usual names (``_box_option`` refuses it in a sentence)."""
    try:
        data = box_data(game, read_box_file(path), str(Path(path).resolve()))
    except BoxError:
        return seat_names(players)
    return data_seat_names(game, data, players)


def _box_profile(game: Game[Any, Any], path: str, db_path: str) -> str | None:
    """The camera's board profile for the box ``path``: the one it carries, else the game's
    profile for the box's data (a group's own map gets its own board, a traced one its traced
    places), written once beside the table's boxes; None when neither (the game's shipped
    profile is read)."""
    found = box_profile(game, path, library_dir(db_path))
    return None if found is None else str(found)


def _box_faces(path: str, db_path: str) -> str | None:
    """The card library made of the faces enrolled in the box ``path``, kept beside the table's
    boxes (made once per box: its folder is named by the box's digest); None for a box with no
    faces."""
    from vision.library import LibraryError, enroll

    found = read_box_file(path)
    if not found.faces():
        return None
    folder = library_dir(db_path) / f".faces-{found.digest.removeprefix('sha256:')[:16]}"
    if not (folder / "index.json").exists():
        try:
            enroll(write_faces(found, folder / "photos"), folder)
        except LibraryError as exc:
            raise click.BadParameter(str(exc), param_hint="--box") from exc
    return str(folder)


def _options(
    game: Game[Any, Any], seats: tuple[str, ...], pairs: tuple[str, ...]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The game's options (its defaults, then each ``--option KEY=VALUE``) and, for a game that
    cannot start with them (its printed data incomplete, say), the options of its first
    simulated setup (``info.simulations``) laid under the given ones; returns the options and
    what that fallback set (empty when none was needed)."""
    try:
        given = parse_options(pairs, game)
    except CliError as exc:
        raise click.BadParameter(str(exc), param_hint="--option") from exc
    options = {**game.info.option_defaults(), **given}
    try:
        engine_data.setup(game, seats, dict(options), gamedata.load(game, options))
        return options, {}
    except (InputError, RuleViolation):
        pass
    simulated = selfplay.setups(game, len(seats))[0].options
    fallback = {k: v for k, v in simulated.items() if k not in given and options.get(k) != v}
    return {**options, **fallback}, fallback


def _options_notice(game: Game[Any, Any], fallback: dict[str, Any]) -> str:
    """The notice a table playing its simulated options prints: the game's own sentence
    (``<game>:serve/options-notice``) when its catalog has one, else the core's."""
    key, value = next(iter(fallback.items()))
    own = f"{game.info.key}:serve/options-notice"
    code = own if has_message(own) else "serve/options-notice"
    shown = ", ".join(f"{k}={v}" for k, v in fallback.items())
    return message(code, game=game.info.name, key=key, value=value, options=shown)


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


def _start_tts(referee: Referee, game_key: str, cfg: ServeConfig) -> _TTSLink:
    """Connect to TTS and start reading its table; a clear error when that cannot be done."""
    try:
        profile = load_profile(game_key)
        client = EditorClient(
            tts_host=cfg.tts_host, tts_port=cfg.tts_port, listen_port=cfg.tts_listen_port
        )
        client.start()
    except TTSError as exc:
        raise click.ClickException(str(exc)) from exc
    source = TTSTableSource(referee, client, profile, poll_s=cfg.tts_poll)
    link = _TTSLink(referee, client, source)
    source.start()
    return link
