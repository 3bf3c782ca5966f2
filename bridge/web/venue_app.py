"""The venue view's web side: one page listing every table of the store, live over Socket.IO.

It serves no table and holds no token. A client that connects joins the ``venue`` room and gets
the store's listing (``bridge.venue.stored_tables``) as its first ``venue`` message; after that
each table's own process announces it (``venue_table``) through the shared message queue, so
this process forwards Redis messages to its clients and never runs game code on the live path.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, Response, jsonify, request, send_from_directory
from flask_socketio import SocketIO, emit, join_room

from bridge.labels import ui_messages
from bridge.store import Store
from bridge.venue import stored_tables
from bridge.web.app import STATIC, VENUE_ROOM, WebConfig, web_server
from bridge.web.origins import host_of, normalize
from engine.i18n import DEFAULT_LANG, LANGUAGES

_LOG = logging.getLogger(__name__)

VENUE_SNAPSHOT = "venue"
"""The first message a venue client gets: ``{"tables": [summary, ...]}`` from the store."""


@dataclass
class VenueWeb:
    """The Flask app and Socket.IO server of ``herald venue``."""

    store: Store
    config: WebConfig
    app: Flask = field(init=False)
    socketio: SocketIO = field(init=False)

    def __post_init__(self) -> None:
        self.app, self.socketio = web_server(self.config, self._origin_allowed)
        self._routes()
        self.socketio.on_event("connect", self._on_connect)

    def listing(self) -> dict[str, Any]:
        """The store's tables as the venue's snapshot."""
        return {"tables": stored_tables(self.store)}

    def _origin_allowed(self, origin: str | None, environ: dict[str, Any]) -> bool:
        """The same rule as a table's (``WebTable._origin_allowed``): the public URL, an
        ``--allow-origin``, or this server under one of its own names; no ``*``."""
        if origin is None:
            return True
        got = normalize(origin)
        explicit = {normalize(self.config.public_url)}
        explicit.update(normalize(o) for o in self.config.allowed_origins)
        if got in explicit:
            return bool(got)
        same = normalize(f"{environ.get('wsgi.url_scheme', 'http')}://{environ.get('HTTP_HOST')}")
        own = {h.lower() for h in self.config.own_hosts}
        return bool(got) and got == same and host_of(got) in own

    def _on_connect(self, auth: Any = None) -> None:
        join_room(VENUE_ROOM)
        emit(VENUE_SNAPSHOT, self.listing())

    def _routes(self) -> None:
        app = self.app

        @app.after_request
        def _headers(response: Response) -> Response:
            response.headers["Referrer-Policy"] = "no-referrer"
            response.headers["X-Content-Type-Options"] = "nosniff"
            response.headers["Content-Security-Policy"] = (
                "default-src 'self'; img-src 'self' data:; style-src 'self'; "
                "connect-src 'self'; frame-ancestors 'none'"
            )
            return response

        @app.get("/")
        def venue_page() -> Response:
            response = send_from_directory(STATIC, "venue.html")
            response.headers["Cache-Control"] = "no-store"
            return response

        @app.get("/api/ui")
        def ui() -> Response:
            lang = request.args.get("lang", DEFAULT_LANG)
            return jsonify(ui_messages(lang if lang in LANGUAGES else DEFAULT_LANG))

        @app.get("/api/tables")
        def tables() -> Response:
            return jsonify(self.listing())

        @app.get("/healthz")
        def health() -> Response:
            return jsonify({"ok": True, "venue": True})
