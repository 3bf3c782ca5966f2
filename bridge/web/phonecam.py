"""The phone-camera page (issue #17): any phone's camera as the table camera.

The host opens ``/phone/<host token>`` on a phone held over the table (a stand, a mug, a lamp
arm). The page opens the back camera with ``getUserMedia``, keeps the screen awake (Screen Wake
Lock API) and posts one JPEG at a time to ``/api/phone/<host token>/frame``; each answer says the
frame rate and width the referee wants next, so the referee sets the pace and a slow network
never queues frames. The server hands each frame to the ``PhoneSource`` of ``herald serve
--camera phone`` (``vision.sources``), which the live pipeline and the calibration page read like
any camera.

Why HTTP and not Socket.IO binary events: a table picture is 100-250 kB, and every Socket.IO
message is capped at 64 kB (``bridge.web.app.MAX_PACKET_BYTES``) so a client cannot make the
server buffer megabytes. One route with its own bound (``PHONE_MAX_BYTES``, checked on the
``Content-Length`` before a byte is read) keeps that cap for everything else.

Everything is for the host's token only; a refused request changes nothing. Routes:
docs/protocol.md ("Phone camera"); the page: docs/vision.md ("A phone as the camera").
"""

from __future__ import annotations

import io
import struct
import threading
import time
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, abort, jsonify, request, send_from_directory
from PIL import JpegImagePlugin

from bridge.devices.limits import TokenBucket
from bridge.referee import Referee
from bridge.web.refusal import Refused
from engine.i18n import DEFAULT_LANG, message
from vision.sources import PHONE_MAX_BYTES, PHONE_MAX_SIDE, PhoneSource, SourceError

STATIC = Path(__file__).parent / "static"

JPEG_QUALITY = 0.85
"""What the page asks of ``canvas.toBlob`` (the pipeline reads stickers; 0.85 keeps their edges)."""


class PhoneError(Refused):
    """A refused phone-camera request (``bridge.web.refusal``)."""


PACE_BURST = 2.0
"""Frames the page may send ahead of the asked rate: a frame held up by the network arrives
right before the next one."""


def jpeg_size(data: bytes) -> tuple[int, int]:
    """The width and height a JPEG's header declares, read without decoding a pixel (Pillow's
    JPEG reader stops at the frame header).

    A 2 kB file may declare 16000x16000 pixels; OpenCV would allocate the 768 MB picture before
    any check (issue 26, finding 8). Only JPEG is taken: the page sends ``image/jpeg``.

    Raises:
        PhoneError: ``vision/phone-bad-frame`` (400, "a JPEG was expected") for anything whose
            header is not a JPEG's.
    """
    try:
        picture = JpegImagePlugin.JpegImageFile(io.BytesIO(data))
    except (SyntaxError, OSError, ValueError, IndexError, struct.error) as exc:
        raise PhoneError("vision/phone-bad-frame", 400) from exc
    width, height = picture.size
    picture.close()
    return int(width), int(height)


def phone_source(camera: Any) -> PhoneSource | None:
    """The phone source the table camera reads (None: the camera is something else, or none)."""
    source = getattr(camera, "source", None) if camera is not None else None
    return source if isinstance(source, PhoneSource) else None


def asked(source: PhoneSource) -> dict[str, Any]:
    """What the page is asked to send: frames a second, picture width, JPEG quality."""
    return {"fps": source.fps, "width": source.width, "quality": JPEG_QUALITY,
            "max_bytes": PHONE_MAX_BYTES}  # fmt: skip


def status(source: PhoneSource | None) -> dict[str, Any]:
    """The phone camera as the host display shows it: received frames and the last one's age."""
    if source is None:
        return {"phone": False}
    age = None if source.last_at is None else round(time.monotonic() - source.last_at, 1)
    return {"phone": True, "frames": source.frames, "age_s": age, **asked(source)}


def phone_blueprint(referee: Referee, camera: Any, lang: str = DEFAULT_LANG) -> Blueprint:
    """The page and its two routes, every one for the host's token only."""
    bp = Blueprint("phonecam", __name__)

    def host_only(token: str) -> PhoneSource:
        found = referee.authenticate(token)
        if found is None:
            raise PhoneError("auth/bad-token", 403)
        if found.role != "host":
            raise PhoneError("phone/host-only", 403)
        source = phone_source(camera)
        if source is None:
            raise PhoneError("phone/not-phone", 409)
        return source

    @bp.errorhandler(PhoneError)
    def refused(exc: PhoneError) -> tuple[Response, int]:
        return jsonify(exc.to_json(lang)), exc.status

    @bp.get("/phone/<token>")
    def page(token: str) -> Response:
        found = referee.authenticate(token)
        if found is None or found.role != "host":
            abort(403, message("auth/bad-token" if found is None else "phone/host-only"))
        response = send_from_directory(STATIC, "phone.html")
        response.headers["Cache-Control"] = "no-store"
        # the page itself uses the camera; nothing it embeds may
        response.headers["Permissions-Policy"] = "camera=(self)"
        return response

    @bp.get("/api/phone/<token>")
    def settings(token: str) -> Response:
        source = host_only(token)
        return jsonify({"ok": True, **status(source)})

    pace = TokenBucket(rate=1.0, burst=PACE_BURST)
    pace_lock = threading.Lock()

    @bp.post("/api/phone/<token>/frame")
    def frame(token: str) -> Response:
        source = host_only(token)
        length = request.content_length
        if length is None:
            raise PhoneError("phone/no-length", 411)
        if length > PHONE_MAX_BYTES:
            raise PhoneError("vision/phone-too-large", 413, size=length, limit=PHONE_MAX_BYTES)
        # read the body ourselves: the app-wide 64 kB request cap is for everything else
        data = request.environ["wsgi.input"].read(length)
        width, height = jpeg_size(data)
        if max(width, height) > PHONE_MAX_SIDE:  # refused before a pixel is decoded
            raise PhoneError("vision/phone-too-big", 400, width=width, height=height,
                             limit=PHONE_MAX_SIDE)  # fmt: skip
        with pace_lock:  # decoded at the rate the referee asks for (the page keeps it)
            pace.rate = source.fps
            if not pace.take(time.monotonic()):
                raise PhoneError("phone/too-fast", 429, fps=source.fps)
        try:
            got = source.push(data)
        except SourceError as exc:
            raise PhoneError(exc.code, 400, **exc.params) from exc
        return jsonify({"ok": True, "index": got.index, **asked(source)})

    return bp
