"""The web transport: Flask serves the pages, Flask-SocketIO (threading mode) carries the contract.

Handlers stay thin (boardgame.io's master, STYLE.md 8): they map a connection to a ``Principal``
by its token, hand intents to the referee and send back its ``Outcome``. All table state lives in
the ``Referee``; the per-connection map lives on the ``WebTable`` object, not in module globals.

Rooms are named per table (with ``--message-queue`` several processes share one namespace):
``table:<id>`` (every client), ``state:<id>@<lang>`` (the clients reading that language),
``seat:<seat>@<id>`` and ``seat:<seat>@<id>@<lang>`` (clients holding that seat's token),
``host:<id>`` (clients holding the host token), and ``venue`` (the venue view). The contract is
documented in docs/protocol.md; the Socket.IO handlers are ``bridge.web.namespace``'s.
"""

from __future__ import annotations

import functools
import logging
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import segno
from flask import Flask, Response, abort, jsonify, request, send_from_directory
from flask_socketio import SocketIO

from bridge.labels import ui_messages
from bridge.referee import VIEWER, Notice, Principal, Referee, Update
from bridge.store import StoreUnavailable, Tokens
from bridge.table_setup import choices
from bridge.venue import VENUE_EVENT, table_summary
from bridge.web.backlog import cut_off_stalled
from bridge.web.boxes import boxes_blueprint
from bridge.web.calibration import Calibrator, calibration_blueprint
from bridge.web.frames import frames_blueprint
from bridge.web.limits import BoundedPacket, fold_handler_errors, limit_polling_posts
from bridge.web.namespace import TableNamespace
from bridge.web.origins import LOCAL_HOSTS, host_of, normalize
from bridge.web.phonecam import phone_blueprint, phone_source
from bridge.web.queue_guard import queue_options
from engine import registry
from engine.i18n import DEFAULT_LANG, LANGUAGES, message

_LOG = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"

UI_FOLDER = "ui"
"""Where a game's page module lives in its package: ``ui/table.js``, ``ui/seat.js``,
``ui/shared.js``, ``ui/style.css`` (the contract is described in static/common.js)."""

UI_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".webp": "image/webp",
    ".woff2": "font/woff2",
}
"""The kinds of file a game's ``ui/`` folder may serve, with their content types."""

UI_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9]+)+")
"""A plain file name: no folder, no leading dot, no ``..``."""

MAX_PACKET_BYTES = 64 * 1024
"""Engine.IO's limit on one incoming message: a larger one closes the connection.

Intents are capped lower (``referee.MAX_INTENT_BYTES``) with a clear ``intent/too-large``
error; this limit only stops a client from making the server buffer megabytes.
"""

VENUE_ROOM = "venue"
"""The clients of the venue view (``herald venue``): every table's summary goes there."""

VENUE_EVERY = 5.0
"""Seconds between a table's summaries when nothing changes: the venue's sign of life."""


def table_room(table_id: str) -> str:
    """Every client of one table. Rooms are named per table because with a message queue
    (``--message-queue``) every Herald process of the venue shares one room namespace."""
    return f"table:{table_id}"


def seat_room(table_id: str, seat: str) -> str:
    return f"seat:{seat}@{table_id}"


def host_room(table_id: str) -> str:
    return f"host:{table_id}"


def state_room(table_id: str, lang: str) -> str:
    """The clients of one table reading ``lang``: each gets the state's sentences in its own
    language."""
    return f"state:{table_id}@{lang}"


def seat_lang_room(table_id: str, seat: str, lang: str) -> str:
    return f"seat:{seat}@{table_id}@{lang}"


def display_room(table_id: str, lang: str) -> str:
    """The table displays (every client without a seat: the host's screen, a viewer) reading
    ``lang``: what is for the table and not for every phone (the camera's question)."""
    return f"display:{table_id}@{lang}"


@dataclass
class WebConfig:
    """How the web side is reached: the public base URL for links, extra allowed origins, and
    the host names and addresses the server itself is reached by (``bridge.web.origins``)."""

    public_url: str = "http://127.0.0.1:8000"
    allowed_origins: tuple[str, ...] = ()
    ping_interval: float = 10.0
    own_hosts: tuple[str, ...] = LOCAL_HOSTS
    message_queue: str | None = None
    """A Redis URL: Socket.IO emits go through it, so several Herald processes (one per table,
    and the venue view) reach each other's clients (Flask-SocketIO's message queue)."""


@dataclass
class WebTable:
    """One served table: the Flask app, its Socket.IO server and the connected principals.

    ``camera`` is the table camera, if any (``bridge.web.calibration.CalibrationCamera``: its
    ``latest_frame()`` and ``profile_path``), for the host's calibration page
    (``/calibrate/<host token>``); without one that page says there is no camera.
    """

    referee: Referee
    config: WebConfig
    camera: Any = None
    box_library: Path | None = None
    """Where the host's "Your box" page keeps boxes (``DB.boxes/``); None: it keeps none."""
    app: Flask = field(init=False)
    socketio: SocketIO = field(init=False)
    calibrator: Calibrator = field(init=False)
    clients: dict[str, Principal] = field(default_factory=dict)
    langs: dict[str, str] = field(default_factory=dict)
    """Each connection's language (``auth.lang`` when it connected)."""
    devices_panel: Any = None
    """A callable giving the device panel (``TableDevices.panel``), for the venue's summary."""
    parts: Any = None
    lobby: bool = False
    """No game was chosen when the table started (``herald serve`` with neither ``--game`` nor
    a session to come back to): the host display opens its New game form until a game starts."""
    """The table's per-game parts (``bridge.table_parts.TableParts``): what could not be built
    for the current game goes on the host display."""
    _clients_lock: threading.Lock = field(default_factory=threading.Lock)
    _venue_due: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        self.app, self.socketio = web_server(self.config, self._origin_allowed)
        _routes(self)
        self.referee.box_library = self.box_library
        self.calibrator = Calibrator(self.camera, self.referee.game.info.key, self.referee.lang)
        self.app.register_blueprint(calibration_blueprint(self.calibrator, self.referee))
        self.app.register_blueprint(phone_blueprint(self.referee, self.camera, self.referee.lang))
        self.app.register_blueprint(frames_blueprint(self.referee))
        self.app.register_blueprint(boxes_blueprint(self.referee, self.box_library))
        handlers = TableNamespace(self)
        self.socketio.on_namespace(handlers)
        # every handler's failure, the devices' too, is logged and answered (server/internal)
        self.socketio.on_error_default(handlers.error)
        self.referee.attach(SocketIOTransport(self.socketio, self))

    # --- rooms -------------------------------------------------------------------------------

    @property
    def table_room(self) -> str:
        return table_room(self.referee.table_id)

    def seat_room(self, seat: str) -> str:
        return seat_room(self.referee.table_id, seat)

    @property
    def host_room(self) -> str:
        return host_room(self.referee.table_id)

    def state_room(self, lang: str) -> str:
        return state_room(self.referee.table_id, lang)

    def seat_lang_room(self, seat: str, lang: str) -> str:
        return seat_lang_room(self.referee.table_id, seat, lang)

    def display_room(self, lang: str) -> str:
        return display_room(self.referee.table_id, lang)

    # --- connections -------------------------------------------------------------------------

    def add_client(self, sid: str, principal: Principal, lang: str) -> None:
        with self._clients_lock:
            self.clients[sid] = principal
            self.langs[sid] = lang

    def remove_client(self, sid: str) -> Principal | None:
        """Forget a connection; its principal, if it was known."""
        with self._clients_lock:
            self.langs.pop(sid, None)
            return self.clients.pop(sid, None)

    def client(self, sid: str) -> tuple[Principal, str]:
        """Who speaks on connection ``sid`` (a viewer if unknown) and the language it reads."""
        with self._clients_lock:
            return self.clients.get(sid, VIEWER), self.langs.get(sid, self.referee.lang)

    # --- the venue's summary -----------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """This table as the venue view lists it (``bridge.venue.TableSummary``'s JSON)."""
        with self._clients_lock:
            roles = [p.role for p in self.clients.values()]
        panel = self.devices_panel() if callable(self.devices_panel) else {"devices": []}
        found = panel.get("devices", [])
        return table_summary(
            self.referee,
            self.referee.current(),
            phones=roles.count("seat"),
            displays=len(roles) - roles.count("seat"),
            devices=len(found),
            devices_online=sum(1 for d in found if d.get("online")),
            table_url=self.table_url(),
        )

    def announce(self) -> None:
        """Send this table's summary to the venue room (through the queue, when there is one)."""
        self.socketio.emit(VENUE_EVENT, self.summary(), to=VENUE_ROOM)

    def announce_soon(self) -> None:
        """Ask the announcing thread for a summary now (safe under the referee's lock: it only
        sets a flag; the summary reads the devices, whose hub may be waiting for that lock)."""
        self._venue_due.set()

    def start_announcing(self, every: float = VENUE_EVERY) -> threading.Event:
        """Announce the table when asked and every ``every`` seconds, until the returned event
        is set."""
        stop = threading.Event()

        def loop() -> None:
            while not stop.is_set():
                self._venue_due.wait(every)
                self._venue_due.clear()
                if stop.is_set():
                    return
                try:
                    self.announce()
                except Exception:  # a queue outage must not end the table; the next beat retries
                    _LOG.exception("could not announce the table to the venue")

        self._venue_due.set()
        threading.Thread(target=loop, name="venue-announce", daemon=True).start()
        return stop

    # --- links -------------------------------------------------------------------------------

    def seat_url(self, seat: str) -> str:
        return f"{self.config.public_url}/s/{self.referee.row.tokens.seats[seat]}"

    def host_url(self) -> str:
        return f"{self.config.public_url}/host/{self.referee.row.tokens.host}"

    def table_url(self) -> str:
        return f"{self.config.public_url}/"

    def calibrate_url(self) -> str:
        """The host's camera calibration page (keep it private: it carries the host token)."""
        return f"{self.config.public_url}/calibrate/{self.referee.row.tokens.host}"

    def box_url(self) -> str:
        """The host's "Your box" page (it carries the host token)."""
        return f"{self.config.public_url}/box/{self.referee.row.tokens.host}"

    def phone_url(self) -> str:
        """The phone-camera page (``herald serve --camera phone``; it carries the host token)."""
        return f"{self.config.public_url}/phone/{self.referee.row.tokens.host}"

    def join_links(self) -> dict[str, dict[str, str]]:
        """Each seat's join link and its QR code (inline SVG), for the host's display only."""
        links = {}
        for seat in self.referee.seats:
            url = self.seat_url(seat)
            qr = segno.make(url, error="m").svg_inline(scale=4, dark="#1b1b1b", light="#ffffff")
            links[seat] = {"url": url, "qr_svg": qr}
        return links

    def after_new_game(self, before: Tokens) -> None:
        """A new game began (the host's ``start``): the host display gets the new join links,
        and when the seats changed, phones holding an old seat token are disconnected (their
        token no longer names a seat; the new links do)."""
        self.lobby = False
        self.socketio.emit("host", self.host_payload(), to=self.host_room)
        if before.seats == self.referee.row.tokens.seats:
            return
        with self._clients_lock:
            stale = [s for s, p in self.clients.items() if p.role == "seat"]
        for sid in stale:
            self.socketio.server.disconnect(sid)

    def tell_host(self) -> None:
        """The host display gets its payload again (the table's parts were built anew)."""
        self.socketio.emit("host", self.host_payload(), to=self.host_room)

    def host_payload(self) -> dict[str, Any]:
        """What the host display gets: the join links, the table's address, the export link."""
        host: dict[str, Any] = {
            "links": self.join_links(),
            "table_url": self.table_url(),
            "export_url": f"{self.host_url()}/export",
        }
        if self.camera is not None:
            host["calibrate_url"] = self.calibrate_url()
        host["box_url"] = self.box_url()
        if phone_source(self.camera) is not None:
            url = self.phone_url()
            host["phone_url"] = url
            host["phone_qr_svg"] = segno.make(url, error="m").svg_inline(
                scale=4, dark="#1b1b1b", light="#ffffff"
            )
        host["frames_url"] = f"/api/frames/{self.referee.row.tokens.host}"
        host["problems"] = self.parts.problems_json(self.referee.lang) if self.parts else []
        host["parts_game"] = self.parts.built_for if self.parts else self.referee.game.info.key
        host["lobby"] = self.lobby
        return host

    # --- origins -----------------------------------------------------------------------------

    def _origin_allowed(self, origin: str | None, environ: dict[str, Any]) -> bool:
        """The configured public URL, an origin named with ``--allow-origin``, or the same
        origin under one of the server's own names (``config.own_hosts``).

        A browser page from any other site cannot open a socket to the table (no ``*`` CORS),
        and neither can a DNS-rebinding page, whose Origin matches its Host header but names a
        host that is not ours. Clients that send no Origin header (python-socketio, devices)
        are not browsers and are let through; they still need a token to act.
        """
        if origin is None:
            return True
        got = normalize(origin)
        if not got:
            return False
        explicit = {normalize(self.config.public_url)}
        explicit.update(normalize(o) for o in self.config.allowed_origins)
        if got in explicit:
            return True
        scheme = environ.get("wsgi.url_scheme", "http")
        same = normalize(f"{scheme}://{environ.get('HTTP_HOST', '')}")
        return got == same and host_of(got) in {h.lower() for h in self.config.own_hosts}

    # --- sending -----------------------------------------------------------------------------

    def send_snapshot(
        self, sid: str, principal: Principal, update: Update, lang: str | None = None
    ) -> None:
        """The full current state to one client (on connect and on ``sync``), in its language."""
        update = update.in_lang(lang or self.referee.lang)
        self.socketio.emit("state", update.table, to=sid)
        if principal.role == "seat" and principal.seat is not None:
            self.socketio.emit("seat_state", update.seats[principal.seat], to=sid)
            self.socketio.emit("prompt", update.prompts[principal.seat], to=sid)


class SocketIOTransport:
    """Publishes referee updates to the Socket.IO rooms.

    One ``emit`` per room: python-socketio encodes the packet once and hands the same string to
    every participant's Engine.IO queue (``socketio.Manager.emit``), so the JSON is never
    re-encoded per client. The table room gets ``update.change`` (the log and coin series as
    deltas); a connecting or resyncing client gets the full ``update.table`` instead. Every
    client is in the table room; one that stopped reading is cut off first
    (:mod:`bridge.web.backlog`), so no client's queue grows without bound.
    """

    def __init__(self, socketio: SocketIO, web: WebTable) -> None:
        self.socketio = socketio
        self.web = web

    def _listened(self, room: str) -> bool:
        """Whether any client is in ``room`` (a payload is rendered only when someone reads it).

        With a message queue the room's clients may be in another process, so every language
        is sent."""
        if self.web.config.message_queue:
            return True
        rooms = self.socketio.server.manager.rooms.get("/", {})
        return bool(rooms.get(room))

    def publish(self, update: Update) -> None:
        """Each room that has clients gets its payload, rendered once per language read: a
        table with no phone connected never renders a seat's view (issue 28)."""
        web = self.web
        cut_off_stalled(self.socketio.server, web.table_room)
        for lang in LANGUAGES:
            own = update.in_lang(lang)
            if self._listened(web.state_room(lang)):
                self.socketio.emit("state", own.change, to=web.state_room(lang))
            rooms = {seat: web.seat_lang_room(seat, lang) for seat in web.referee.seats}
            listened = [seat for seat, room in rooms.items() if self._listened(room)]
            if not listened:
                continue
            seats, prompts = own.seats, own.prompts
            for seat in listened:
                self.socketio.emit("seat_state", seats[seat], to=rooms[seat])
                self.socketio.emit("prompt", prompts[seat], to=rooms[seat])
        web.announce_soon()

    def notice(self, notice: Notice) -> None:
        """A pushed notice, one emit per language read at this table (as ``state`` is): each
        client is in its language's state room and, holding a seat, its seat's language room."""
        web = self.web
        cut_off_stalled(self.socketio.server, web.table_room)
        if notice.event == "question":  # the table displays and the asked seat, no other phone
            for lang in LANGUAGES:
                room = web.display_room(lang) if notice.seat is None else web.seat_lang_room(
                    notice.seat, lang)  # fmt: skip
                if self._listened(room):
                    self.socketio.emit(notice.event, notice.in_lang(lang), to=room)
            return
        if not notice.langs:  # no sentence to translate (a roll carries its own ``texts``)
            room = web.table_room if notice.seat is None else web.seat_room(notice.seat)
            self.socketio.emit(notice.event, notice.payload, to=room)
            return
        home = web.referee.lang
        for lang in LANGUAGES:
            if notice.seat is None:
                room = web.state_room(lang)
            else:
                room = web.seat_lang_room(notice.seat, lang)
            if lang != home and not self._listened(room):
                continue
            self.socketio.emit(notice.event, notice.in_lang(lang), to=room)


def web_server(config: WebConfig, origin_allowed: Any) -> tuple[Flask, SocketIO]:
    """The Flask app and its Socket.IO server as every Herald page server runs them (a table,
    the venue view): threading with simple-websocket, bounded packets and frames, the queue
    when there is one, origins checked by ``origin_allowed``."""
    app = Flask(__name__, static_folder=str(STATIC), static_url_path="/static")
    app.config["MAX_CONTENT_LENGTH"] = MAX_PACKET_BYTES
    socketio = SocketIO(
        app,
        async_mode="threading",
        cors_allowed_origins=origin_allowed,
        max_http_buffer_size=MAX_PACKET_BYTES,
        ping_interval=config.ping_interval,
        serializer=BoundedPacket,
        **queue_options(config.message_queue, (VENUE_ROOM,)),  # guarded: bridge.web.queue_guard
        logger=False,
        engineio_logger=False,
    )
    _limit_websocket_frames(socketio)
    fold_handler_errors()
    app.register_error_handler(TimeoutError, _stalled)
    app.wsgi_app = limit_polling_posts(  # type: ignore[method-assign,assignment]
        app.wsgi_app, "/socket.io", MAX_PACKET_BYTES
    )
    return app, socketio


def _stalled(exc: TimeoutError) -> Response:
    """A request whose body stopped coming (``bridge.web.server``'s read timeout): a refusal and
    the connection closed, not a 500 and a traceback. The client may never read it."""
    seconds = request.environ.get("herald.read_timeout", "?")
    response = jsonify({"ok": False, "code": "http/stalled", "params": {"seconds": seconds},
                        "message": message("http/stalled", seconds=seconds)})  # fmt: skip
    response.status_code = 408
    response.headers["Connection"] = "close"
    return response


def _limit_websocket_frames(socketio: SocketIO) -> None:
    """Make simple-websocket itself refuse frames over ``MAX_PACKET_BYTES``.

    Engine.IO checks the size only after the whole message is buffered; simple-websocket can stop
    reading at the limit (close code 1009), so a client cannot make the server hold a gigabyte.
    Engine.IO builds its websocket wrapper without options, hence the partial.
    """
    eio = socketio.server.eio
    wrapper = eio._async.get("websocket")
    if wrapper is not None:
        eio._async = {
            **eio._async,
            "websocket": functools.partial(wrapper, max_message_size=MAX_PACKET_BYTES),
        }


def _page(name: str) -> Response:
    response = send_from_directory(STATIC, name)
    response.headers["Cache-Control"] = "no-store"
    return response


def _ui_files(key: str) -> set[str]:
    """The servable files of game ``key``'s ``ui/`` folder; 404 for a key no game has."""
    if key not in registry.game_keys():
        abort(404)
    folder = registry.package_files(key).joinpath(UI_FOLDER)
    if not folder.is_dir():
        return set()
    return {
        entry.name
        for entry in folder.iterdir()
        if entry.is_file() and UI_NAME.fullmatch(entry.name) and Path(entry.name).suffix in UI_TYPES
    }


def _routes(web: WebTable) -> None:
    app, referee = web.app, web.referee

    @app.after_request
    def _headers(response: Response) -> Response:
        response.headers["Referrer-Policy"] = "no-referrer"  # join links carry secrets
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Content-Security-Policy"] = (
            "default-src 'self'; img-src 'self' data:; style-src 'self'; "
            "connect-src 'self'; frame-ancestors 'none'"
        )
        return response

    @app.get("/")
    def table_page() -> Response:
        return _page("table.html")

    @app.get("/host/<token>")
    def host_page(token: str) -> Response:
        found = referee.authenticate(token)
        if found is None or found.role != "host":
            abort(403, message("auth/bad-token"))
        return _page("table.html")

    @app.get("/s/<token>")
    def seat_page(token: str) -> Response:
        found = referee.authenticate(token)
        if found is None or found.role != "seat":
            abort(403, message("auth/bad-token"))
        return _page("seat.html")

    @app.get("/host/<token>/export")
    def export(token: str) -> Response:
        """The game so far as a log file (``herald rules GAME replay`` reads it): host only,
        since the log holds every seat's moves."""
        found = referee.authenticate(token)
        if found is None or found.role != "host":
            abort(403, message("auth/bad-token"))
        name = f"herald-{referee.game.info.key}-{referee.row.id}.log"
        response = Response(referee.export_text(), content_type="text/plain; charset=utf-8")
        response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.get("/api/setup")
    def setup_choices() -> Response:
        """What the host page's new-game form offers: games, seats, options, data sets (the
        options' rulebook references in the page's language, ``?lang=``)."""
        lang = request.args.get("lang", DEFAULT_LANG)
        colours_for = web.parts.colours_for if web.parts is not None else None
        return jsonify(
            choices(web.box_library, colours_for, lang if lang in LANGUAGES else DEFAULT_LANG)
        )

    @app.get("/favicon.ico")
    def no_icon() -> Response:
        """Browsers ask for an icon the pages do not have: answer empty, not 404."""
        return Response(status=204)

    @app.get("/static/vendor/<name>.map")
    def no_source_map(name: str) -> Response:
        """The vendored client names a source map we do not ship: answer empty, not 404."""
        return Response(status=204)

    @app.get("/games/<key>/ui/")
    def game_ui_files(key: str) -> Response:
        """The files of a game's page module, so a page loads only what the game ships."""
        return jsonify({"game": key, "files": sorted(_ui_files(key))})

    @app.get("/games/<key>/ui/<name>")
    def game_ui_file(key: str, name: str) -> Response:
        """One file of a registered game's ``ui/`` folder (package data, never a path)."""
        if name not in _ui_files(key):
            abort(404)
        data = registry.package_files(key).joinpath(UI_FOLDER).joinpath(name).read_bytes()
        response = Response(data, content_type=UI_TYPES[Path(name).suffix])
        response.headers["Cache-Control"] = "no-cache"
        return response

    @app.get("/api/ui")
    def ui() -> Response:
        lang = request.args.get("lang", DEFAULT_LANG)  # a page's ?lang=pl asks for its labels
        return jsonify(ui_messages(lang if lang in LANGUAGES else DEFAULT_LANG))

    @app.get("/healthz")
    def health() -> Response:
        """The table's state, and whether its event store answers: a table whose store is away
        cannot record a move, so it is not healthy (503) even though its pages still load."""
        update = referee.current()
        body: dict[str, Any] = {
            "ok": True,
            "state_id": update.state_id,
            "game": referee.game.info.key,
            "table_id": referee.table_id,
            "session": referee.row.id,
            "over": referee.is_over(),
            "store": "ok",
        }
        try:
            referee.store.ping()
        except StoreUnavailable as exc:
            body.update(ok=False, store="unavailable", code=exc.code, message=str(exc))
            response = jsonify(body)
            response.status_code = 503
            return response
        return jsonify(body)
