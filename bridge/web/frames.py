"""The audit trail on the table display (issue #17): the camera's picture of each move it read.

A move the camera read is stored with the frame that showed it (``bridge.evidence``; the store's
``frames`` table); its log entry carries ``frame: true`` and the host's table display shows a
camera link that opens ``/api/frames/<host token>/<seq>.jpg``. The pictures are the host's, like
the exported log (``/host/<token>/export``): a camera over the table also films the players'
hands and faces, which the public table display and the seats' phones have no need of.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, jsonify

from bridge.referee import Referee
from engine.i18n import message


def frames_blueprint(referee: Referee) -> Blueprint:
    """The list of kept frames and each picture, for the host's token only."""
    bp = Blueprint("frames", __name__)

    def host_only(token: str) -> None:
        found = referee.authenticate(token)
        if found is None or found.role != "host":
            abort(403, message("auth/bad-token" if found is None else "frames/host-only"))

    @bp.get("/api/frames/<token>")
    def listing(token: str) -> Response:
        host_only(token)
        kept = referee.store.frames(referee.row.id)
        return jsonify({"ok": True, "session": referee.row.id, "frames": [
            {"seq": f.seq, "time": f.time, "size": f.size, **f.meta} for f in kept]})  # fmt: skip

    @bp.get("/api/frames/<token>/<int:seq>.jpg")
    def picture(token: str, seq: int) -> Response:
        host_only(token)
        found = referee.store.frame(referee.row.id, seq)
        if found is None:
            abort(404, message("frames/none", seq=seq))
        response = Response(found.jpeg, mimetype="image/jpeg")
        response.headers["Cache-Control"] = "no-store"
        return response

    return bp
