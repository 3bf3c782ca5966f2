"""The host's "Your box" page (issue #24): enter a group's own box in forms made from the game's
data schemas, checked live with the checks ``herald box check`` makes, saved into the table's box
library, exported and imported as a box file.

Everything is HTTP (JSON, and the box file's bytes), for the host's token only; a refused request
answers a catalog sentence and changes nothing (``bridge.box``: nothing is kept before the game
has read the box). The library is the folder beside the table's event store (``DB.boxes/``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, Response, abort, jsonify, request, send_from_directory
from werkzeug.exceptions import RequestEntityTooLarge

from bridge.box.archive import MAX_FILE_BYTES
from bridge.box.drafts import drafts, drop_draft, faults, save_draft
from bridge.box.errors import BoxError, refusal_text
from bridge.box.export import export_box
from bridge.box.faces import card_ids, with_face
from bridge.box.file import read_box
from bridge.box.library import SUFFIX, import_box, listed, read_box_file
from bridge.box.report import checked
from bridge.box.start import read_start
from bridge.box.start.common import START_LIMITS
from bridge.box.start.fetch import Fetcher
from bridge.box.workshop import parse_draft, report, schemas, start_files, starting_sets
from bridge.gamedata import read_text
from bridge.referee import Referee
from bridge.web.refusal import Refused
from engine import registry
from engine.capabilities import EFFECT_VOCABULARY, capability
from engine.data import data_spec
from engine.i18n import DEFAULT_LANG, LANGUAGES, message

STATIC = Path(__file__).parent / "static"
MAX_PHOTO_BYTES = 24 * 1024 * 1024
"""A card's photograph as a phone takes it."""
MAX_DRAFT_BYTES = 4 * 1024 * 1024
"""A box being entered, as JSON: the largest game's data are under 100 KB."""
MAX_EFFECT_BYTES = 64 * 1024
"""One effect being picked: a few hundred bytes."""


def _lang() -> str:
    lang = request.args.get("lang", DEFAULT_LANG)
    return lang if lang in LANGUAGES else DEFAULT_LANG


def boxes_blueprint(referee: Referee, library: Path | None) -> Blueprint:
    """The page and its routes; ``library`` is where saved and imported boxes are kept (None: a
    table with no store on disk, whose page can check and export but not keep)."""
    bp = Blueprint("boxes", __name__)

    def host_only(token: str) -> None:
        found = referee.authenticate(token)
        if found is None:
            raise Refused("auth/bad-token", 403)
        if found.role != "host":
            raise Refused("box/host-only", 403)

    def kept() -> Path:
        if library is None:
            raise Refused("box/no-library", 409)
        return library

    def game_key(key: str) -> str:
        if key not in registry.game_keys() or data_spec(registry.get_game(key)) is None:
            raise Refused("box/no-such-game", 404, game=key)
        return key

    def body(limit: int) -> Any:
        request.max_content_length = limit
        try:
            return request.get_json(silent=True)
        except RecursionError:
            return None

    @bp.errorhandler(Refused)
    def refused(exc: Refused) -> tuple[Response, int]:
        return jsonify(exc.to_json(_lang())), exc.status

    @bp.errorhandler(BoxError)
    def box_refused(exc: BoxError) -> tuple[Response, int]:
        return jsonify({"ok": False, "code": exc.code, "message": refusal_text(exc, _lang())}), 400

    @bp.errorhandler(RequestEntityTooLarge)
    def too_large(exc: RequestEntityTooLarge) -> tuple[Response, int]:
        return refused(Refused("box/request-too-large", 413))

    @bp.get("/box/<token>")
    def page(token: str) -> Response:
        found = referee.authenticate(token)
        if found is None or found.role != "host":
            abort(403, message("auth/bad-token" if found is None else "box/host-only"))
        response = send_from_directory(STATIC, "box.html")
        response.headers["Cache-Control"] = "no-store"
        return response

    @bp.get("/api/box/<token>/games")
    def games(token: str) -> Response:
        host_only(token)
        out = []
        for key in registry.game_keys():
            game = registry.get_game(key)
            if data_spec(game) is None:
                continue
            saved = listed(library, key) if library is not None else []
            out.append({"key": key, "name": game.info.name, "sets": starting_sets(key),
                        "boxes": [p.name for p in saved], "tools": _has_tools(key)})  # fmt: skip
            out[-1]["drafts"] = [p.name for p in drafts(library, key)] if library else []
        return jsonify({"games": out, "current": referee.game.info.key,
                        "can_keep": library is not None})  # fmt: skip

    @bp.get("/api/box/<token>/start/<key>")
    def start(token: str, key: str) -> Response:
        """The files of a starting point: a shipped set (``?set=``) or a kept box (``?box=``)."""
        host_only(token)
        game = registry.get_game(game_key(key))
        chosen_box = request.args.get("box")
        chosen_draft = request.args.get("draft")
        if chosen_draft:
            found = read_box_file(_draft_file(kept(), key, chosen_draft))
        elif chosen_box:
            found = read_box_file(_kept_file(kept(), key, chosen_box))
        else:
            found = export_box(game, request.args.get("set") or None, None, read_text)
        files = start_files(found)
        return jsonify({"game": key, "name": found.name, "main": found.data.removeprefix("data/"),
                        "files": files, "schemas": schemas(key, files, _lang())})  # fmt: skip

    @bp.post("/api/box/<token>/check")
    def check(token: str) -> Response:
        host_only(token)
        return jsonify(report(parse_draft(body(MAX_DRAFT_BYTES)), _lang()))

    @bp.post("/api/box/<token>/save")
    def save(token: str) -> Response:
        host_only(token)
        draft = parse_draft(body(MAX_DRAFT_BYTES))
        done = import_box(draft.box(), registry.get_game(draft.game), kept())
        drop_draft(kept(), draft.game, draft.name)  # kept whole: no longer a draft
        code = "box/already-imported" if done.existed else "box/imported"
        return jsonify({"ok": True, "file": done.path.name, "digest": done.box.digest,
                        "message": message(code, _lang(), file=done.path.name,
                                           name=done.box.name)})  # fmt: skip

    @bp.post("/api/box/<token>/draft")
    def save_a_draft(token: str) -> Response:
        """Keep a box being entered as a draft, faults and all (it starts no game; the check's
        refusal is listed with it), so a group can go on with it another evening."""
        host_only(token)
        draft = parse_draft(body(MAX_DRAFT_BYTES))
        made = draft.box()
        path = save_draft(made, kept())
        found = faults(registry.get_game(draft.game), made, _lang())
        return jsonify({"ok": True, "draft": True, "file": path.name, "faults": found,
                        "message": message("box/draft-saved" if found else "box/draft-saved-good",
                                           _lang(), name=draft.name, n=len(found))})  # fmt: skip

    @bp.post("/api/box/<token>/export")
    def export(token: str) -> Response:
        """The draft as a box file to download (nothing kept)."""
        host_only(token)
        draft = parse_draft(body(MAX_DRAFT_BYTES))
        made = draft.box()
        checked(registry.get_game(draft.game), made, f"{draft.name} (draft)")  # refuses a bad box
        response = Response(made.to_bytes(), mimetype="application/zip")
        name = f"{draft.game}-{made.digest.removeprefix('sha256:')[:12]}{SUFFIX}"
        response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
        response.headers["Cache-Control"] = "no-store"
        return response

    @bp.get("/api/box/<token>/file/<key>/<name>")
    def download(token: str, key: str, name: str) -> Response:
        host_only(token)
        path = _kept_file(kept(), game_key(key), name)
        response = send_from_directory(path.parent, path.name, mimetype="application/zip",
                                       as_attachment=True)  # fmt: skip
        response.headers["Cache-Control"] = "no-store"
        return response

    @bp.get("/api/box/<token>/cards/<key>/<name>")
    def cards(token: str, key: str, name: str) -> Response:
        """The card ids of a kept box a face can be enrolled for, and those that have one."""
        host_only(token)
        found = read_box_file(_kept_file(kept(), game_key(key), name))
        return jsonify({"cards": sorted(card_ids(found)), "faces": sorted(found.faces())})

    @bp.post("/api/box/<token>/face/<key>/<name>/<card>")
    def face(token: str, key: str, name: str, card: str) -> Response:
        """A photograph (the request body) enrolled as ``card``'s face: the box with it is kept
        as a new file (a new digest), the one it was made from stays as it was."""
        host_only(token)
        found = read_box_file(_kept_file(kept(), game_key(key), name))
        request.max_content_length = MAX_PHOTO_BYTES
        made = with_face(found, card, request.get_data(cache=False))
        done = import_box(made, registry.get_game(key), kept())
        return jsonify({"ok": True, "game": key, "file": done.path.name,
                        "message": message("box/face-enrolled", _lang(), card=card,
                                           file=done.path.name)})  # fmt: skip

    @bp.route("/api/box/<token>/effects/<key>", methods=["GET", "POST"])
    def effects(token: str, key: str) -> Response:
        """The game's effect vocabulary (GET), or an effect read by the game's own grammar
        (POST ``{"place", "text" or "fields", "card"}``): the picker's live check."""
        host_only(token)
        found = capability(registry.get_game(game_key(key)), EFFECT_VOCABULARY)
        if found is None:
            raise Refused("box/no-effect-vocabulary", 404, game=key)
        if request.method == "GET":
            return jsonify(found.effect_vocabulary(_lang()))
        asked = body(MAX_EFFECT_BYTES)
        if not isinstance(asked, dict) or not isinstance(asked.get("place"), str):
            raise Refused("box/bad-effect-request", 400)
        given = asked.get("fields") if isinstance(asked.get("fields"), dict) else asked.get("text")
        if not isinstance(given, dict | str):
            raise Refused("box/bad-effect-request", 400)
        card = asked.get("card")
        named = card[:80] if isinstance(card, str) else ""
        return jsonify(found.read_effect(asked["place"], given, named, _lang()))

    @bp.post("/api/box/<token>/import")
    def import_(token: str) -> Response:
        """A box file's bytes (the request body): checked whole, then kept."""
        host_only(token)
        request.max_content_length = MAX_FILE_BYTES
        found = read_box(request.get_data(cache=False))
        if found.game not in registry.game_keys():
            raise BoxError("box/unknown-game", game=found.game,
                           known=", ".join(registry.game_keys()))  # fmt: skip
        done = import_box(found, registry.get_game(found.game), kept())
        code = "box/already-imported" if done.existed else "box/imported"
        return jsonify({"ok": True, "game": found.game, "file": done.path.name,
                        "message": message(code, _lang(), file=done.path.name,
                                           name=found.name)})  # fmt: skip

    @bp.post("/api/box/<token>/from-file")
    def from_file(token: str) -> Response:
        """A TTS save or a VASSAL module (the request body; ``?file=`` its name, ``?fetch=1``
        when the host allows fetching the pictures a save names): the start it gives, pictures
        and names for the game's tools (issue #24 point 5). Nothing is kept."""
        host_only(token)
        request.max_content_length = START_LIMITS.file_bytes
        name = (request.args.get("file") or "upload")[:200]
        fetch = Fetcher() if request.args.get("fetch") == "1" else None
        made = read_start(request.get_data(cache=False), name, fetch=fetch)
        lang = _lang()
        others = [p for p in made.pictures if p.kind != "board"]
        said = message("box/start-read", lang, file=name, name=made.name, n=len(others),
                       named=len(made.names()),
                       boards=message("box/start-boards", lang, n=len(made.of("board"))),
                       missing=message("box/start-missing", lang, n=len(made.missing)))  # fmt: skip
        return jsonify({"ok": True, "message": said, **made.to_json(lang)})

    return bp


def _has_tools(key: str) -> bool:
    """Whether the game ships box tools of its own (``ui/box.js``, such as
    tracing a map on a photo)."""
    return bool(registry.package_files(key).joinpath("ui").joinpath("box.js").is_file())


def _draft_file(library: Path, key: str, name: str) -> Path:
    """A draft by its file name, only from the library's drafts of that game."""
    for path in drafts(library, key):
        if path.name == name:
            return path
    raise Refused("box/not-kept", 404, name=name)


def _kept_file(library: Path, key: str, name: str) -> Path:
    """A kept box by its file name, only from the library's folder for that game."""
    for path in listed(library, key):
        if path.name == name:
            return path
    raise Refused("box/not-kept", 404, name=name)
