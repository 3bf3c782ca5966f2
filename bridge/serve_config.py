"""Everything ``herald serve`` was asked for, as one frozen value.

The click options of ``herald serve`` map one to one onto these fields (same names as the
option's Python parameter), so the server's set-up takes one argument instead of thirty and a
test can build a configuration without a command line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

SimMode = Literal["all", "table", "off"]
Virtual = Literal["auto", "mqtt", "serial", "off"]


@dataclass(frozen=True)
class ServeConfig:
    """One served table: the game and seats, the web server, the simulated table, devices,
    Tabletop Simulator and the camera. Defaults are those of ``herald serve``."""

    game_key: str | None = None
    """None: the game of the table's unfinished session, else ``default_game``, else the game of
    its last session, else the first registered game with the host page's New game form open
    (the lobby, where the host picks the game)."""
    default_game: str | None = None
    """``--default-game``: the game of a new session when ``--game`` is not given (``make run``
    names one here, so a restart resumes whatever game the host chose in the browser)."""
    players: int | None = None
    """None: the game's fewest seats, three when it seats three."""
    host: str = "127.0.0.1"
    port: int = 8000
    db_path: str = "herald.db"
    store_url: str | None = None
    """``--store postgresql://…``: the events go to that database (a venue); None: the SQLite
    file ``db_path``. The table's local files (``.devices``, ``.board.json``) stay beside
    ``db_path`` either way."""
    table_id: str = "main"
    resume: bool | None = None
    force: bool = False
    """With ``resume`` False: also close an unfinished session of another game."""
    move_delay: float = 1.5
    sim_mode: SimMode = "all"
    sim_given: bool = False
    """True when ``--sim`` was given on the command line (else the table source may turn it off)."""
    seed: int = 1
    restart_after: float = 30.0
    """Seconds after the end before the simulated table starts a new game (0: never)."""
    option_pairs: tuple[str, ...] = ()
    box: str | None = None
    public_url: str | None = None
    allow_origin: tuple[str, ...] = ()
    tls_cert: str | None = None
    """``--tls-cert``: serve HTTPS with this certificate (PEM) and ``tls_key``; a phone's browser
    opens its camera only on a secure page (the phone-camera page, docs/vision.md)."""
    tls_key: str | None = None
    read_timeout: float = 10.0
    """``--read-timeout``: seconds a connection may stay silent in the middle of a request (its
    TLS handshake, headers or body) before it is closed (``bridge.web.server``)."""
    qr: bool = True
    mqtt_url: str | None = None
    serial_urls: tuple[str, ...] = ()
    virtual: Virtual = "auto"
    ha_discovery: bool = False
    ha_prefix: str = "homeassistant"
    tts: bool = False
    tts_host: str = "127.0.0.1"
    tts_port: int = 39999
    tts_listen_port: int = 39998
    tts_poll: float = 5.0
    table_opt: str | None = None
    camera_spec: str | None = None
    profile_file: str | None = None
    library_dir: str | None = None
    camera_fps: float = 8.0
    message_queue: str | None = None
    """A Redis URL shared by the venue's Herald processes (``--message-queue``)."""
    tower_every: float = 0.0
    """``--tower-every``: seconds between the virtual dice tower's own rolls in a game without
    dice (a device test); 0: it rolls only when a step awaits dice (issue 15, point 7)."""
    auto_pass: bool = True
    """``--no-auto-pass``: a seat whose only option is to pass is asked anyway (bridge/autopass)."""
    lang: str = "en"
    """``--lang``: the table display's (and the log's) default language; phones choose their own."""
