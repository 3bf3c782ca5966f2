"""The table's Socket.IO handlers: one named method per event (Flask-SocketIO's class-based
``Namespace``, STYLE.md 8a), each thin: it maps the connection to a ``Principal``, hands the
request to the referee or the presenter's current update, and answers.

The handlers hold no table state: the referee holds the game, the ``WebTable`` the connected
principals and their languages. Every request is answered only to a client that reads its
answers (:func:`bridge.web.backlog.guarded`). The contract is documented in docs/protocol.md.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from flask import request
from flask_socketio import ConnectionRefusedError, Namespace, emit, join_room

from bridge.devices.limits import KeyedBuckets, LogLimiter, TokenBucket
from bridge.referee import VIEWER
from bridge.store import StoreUnavailable
from bridge.web.backlog import guarded
from bridge.web.limits import MAX_JSON_DEPTH, REFUSED_AUTH, UNREADABLE
from engine.i18n import LANGUAGES, message

if TYPE_CHECKING:
    from bridge.web.app import WebTable

_LOG = logging.getLogger(__name__)
_REFUSALS = LogLimiter(_LOG)

HISTORY_RATE = 8
"""``history`` requests a second per connection: a page stepping through the past by its
buttons or slider asks a few a second; a replay costs CPU the seats' moves need (issue 26,
finding 9), so a client asking in a loop is held to this."""
HISTORY_BURST = 16
HISTORY_ALL_RATE = 40
"""...and over all connections together, so many anonymous sockets cannot add up to more."""

NAMESPACE = "/"

HANDLED = {"intent": "on_intent", "sync": "on_sync", "history": "on_history",
           "answer": "on_answer", UNREADABLE: "on_unreadable"}  # fmt: skip
"""The requests a client may send and the method answering each; any other event is refused
(``on_other``). ``connect`` and ``disconnect`` are not requests and are never guarded."""


def client_lang(auth: Any, default: str) -> str:
    """The language a connecting page asked for (``auth.lang``), if the catalog ships it."""
    lang = auth.get("lang") if isinstance(auth, dict) else None
    return lang if isinstance(lang, str) and lang in LANGUAGES else default


def error_payload(code: str, state_id: int, **params: Any) -> dict[str, Any]:
    """An ``error`` a handler sends (and answers with) for a request it refuses itself."""
    return {
        "ok": False,
        "kind": "error",
        "code": code,
        "message": message(code, **{"state_id": state_id, **params}),
        "state_id": state_id,
        "params": params,
    }


def refusal(code: str, **params: Any) -> ConnectionRefusedError:
    """A refused connect: the client's ``connect_error`` carries the sentence as its message
    and ``{"code", "message"}`` as its ``data`` (python-socketio keeps only the first argument's
    text as the message, so the code travels in the second)."""
    text = message(code, **params)
    return ConnectionRefusedError(text, {"code": code, "message": text})


def _sid() -> str:
    return str(request.sid)  # type: ignore[attr-defined]


class TableNamespace(Namespace):  # type: ignore[misc]  # Flask-SocketIO is untyped
    """The table's one namespace: connect, the requests (``intent``, ``sync``, ``history``),
    an unreadable packet, any other event, and a handler's failure."""

    def __init__(self, web: WebTable) -> None:
        super().__init__(NAMESPACE)
        self.web = web
        self._history_pace = KeyedBuckets(
            HISTORY_RATE, HISTORY_BURST, overall=TokenBucket(HISTORY_ALL_RATE, HISTORY_ALL_RATE * 2)
        )

    # --- dispatch ------------------------------------------------------------------------------

    def trigger_event(self, event: str, *args: Any) -> Any:
        """Route ``event`` to its method: requests through the backlog guard, an event no
        method answers to ``on_other`` (Flask-SocketIO's default would ignore it). Replaces the
        base class's dispatch, whose catch-all would also swallow a refused connect."""
        if event in ("connect", "disconnect"):
            handler = getattr(self, f"on_{event}")  # a refused connect must reach the client
        else:
            name = HANDLED.get(event)
            handler = getattr(self, name) if name else self._other(event)
            handler = guarded(self.web.socketio.server, _sid, handler)
        # Flask-SocketIO's request context; a failure goes to ``error`` (on_error_default)
        return self.socketio._handle_event(handler, event, self.namespace, *args)

    def _other(self, event: str) -> Any:
        return lambda *args: self.on_other(event, *args)

    def error(self, exc: Exception) -> dict[str, Any]:
        """A handler failed: logged, and the client told (``server/internal``). The event
        store away (``StoreUnavailable``, after its retries) is no fault of the server's: one
        line, and the client told to try again."""
        if isinstance(exc, StoreUnavailable):
            _LOG.warning("socket handler: %s", exc)
            return self._refuse(exc.code, db=self.web.referee.store.path, reason=exc.reason)
        self.web.app.logger.exception("socket handler failed", exc_info=exc)
        return self._refuse("server/internal")

    # --- connections ---------------------------------------------------------------------------

    def on_connect(self, auth: Any = None) -> None:
        """Map the token to a principal (none: a viewer), join its rooms and send the snapshot
        inside the referee's lock, so no newer state can be published in between."""
        web, referee = self.web, self.web.referee
        if isinstance(auth, dict) and REFUSED_AUTH in auth:
            code = str(auth[REFUSED_AUTH])
            _LOG.warning("refused a connection with unreadable auth (%s)", code)
            raise refusal(code, limit=MAX_JSON_DEPTH)
        token = auth.get("token") if isinstance(auth, dict) else None
        principal = VIEWER
        if token is not None:
            found = referee.authenticate(token)
            if found is None:
                raise refusal("auth/bad-token")
            principal = found
        lang = client_lang(auth, referee.lang)
        web.add_client(_sid(), principal, lang)
        with referee.locked() as update:
            join_room(web.table_room)
            join_room(web.state_room(lang))
            if principal.role == "seat" and principal.seat is not None:
                join_room(web.seat_room(principal.seat))
                join_room(web.seat_lang_room(principal.seat, lang))
            if principal.role == "host":
                join_room(web.host_room)
            if principal.role != "seat":
                join_room(web.display_room(lang))
            web.send_snapshot(_sid(), principal, update, lang)
            asked = _camera_question(web, principal, lang)
            if asked is not None:  # the open question stays until answered, for a late page too
                emit("question", asked)
        if principal.role == "host":
            emit("host", web.host_payload())
        emit("welcome", {"role": principal.role, "seat": principal.seat})
        if principal.role == "seat":
            web.announce_soon()

    def on_disconnect(self, *_: Any) -> None:
        gone = self.web.remove_client(_sid())
        if gone is not None and gone.role == "seat":
            self.web.announce_soon()  # the venue counts the phones

    # --- requests ------------------------------------------------------------------------------

    def on_intent(self, *args: Any) -> dict[str, Any]:
        """A move, undo, dice or new game for the referee; the outcome is the answer, worded in
        the sender's language, and a refusal is also sent as ``error`` or ``violation``."""
        refused = self._one_argument("intent", args)
        if refused is not None:
            return refused
        web, referee = self.web, self.web.referee
        before = referee.row.tokens
        principal, lang = web.client(_sid())
        outcome = referee.intent(principal, args[0])
        reply = outcome.to_json(lang)
        if outcome.session is not None:
            web.after_new_game(before)
        if outcome.kind == "error":
            emit("error", reply)
        elif outcome.kind == "violation":
            emit("violation", reply)
        return reply

    def on_answer(self, *args: Any) -> dict[str, Any]:
        """The answer to the camera's open question, ``{"question": id, "choice": i}``: the
        chosen moves go to the referee as the sender's intents (docs/protocol.md)."""
        refused = self._one_argument("answer", args)
        if refused is not None:
            return refused
        data = args[0]
        camera = self.web.camera
        if not isinstance(data, dict) or camera is None or not hasattr(camera, "answer"):
            return self._refuse("question/closed")
        principal, lang = self.web.client(_sid())
        outcome = camera.answer(principal, data.get("question"), data.get("choice"))
        reply: dict[str, Any] = outcome.to_json(lang)
        if outcome.kind == "error":
            emit("error", reply)
        elif outcome.kind == "violation":
            emit("violation", reply)
        return reply

    def on_history(self, *args: Any) -> dict[str, Any]:
        """The public table at an earlier state (``{"state_id": n}``), replayed from the log:
        the board and the scores as they were. Every page may ask (it is the public view)."""
        refused = self._one_argument("history", args)
        if refused is not None:
            return refused
        if not self._history_pace.allow(_sid()):
            # answered, not emitted as an ``error``: the history page asks again a moment later
            return error_payload("history/too-fast", self.web.referee.state_id, rate=HISTORY_RATE)
        wanted = args[0].get("state_id") if isinstance(args[0], dict) else None
        _, lang = self.web.client(_sid())
        try:
            return {"ok": True, **self.web.referee.view_at(wanted, lang)}  # type: ignore[arg-type]
        except ValueError:
            return self._refuse("history/no-state", sent=str(wanted)[:20])

    def on_sync(self, *args: Any) -> dict[str, Any]:
        """A reconnecting client's last ``state_id``: it gets the current snapshot."""
        data = args[0] if len(args) == 1 else None
        known = data.get("state_id") if isinstance(data, dict) else None
        principal, lang = self.web.client(_sid())
        with self.web.referee.locked() as update:
            self.web.send_snapshot(_sid(), principal, update, lang)
        return {"ok": True, "state_id": update.state_id, "changed": known != update.state_id}

    def on_unreadable(self, *args: Any) -> dict[str, Any]:
        """A packet whose JSON was not parsed (``bridge.web.limits``): refused, one log line."""
        known = ("intent/too-deep", "intent/not-json", "intent/bad-packet")
        code = args[0] if args and args[0] in known else "intent/not-json"
        # folded per kind: a client sending hundreds a second gets each answered, the log one
        # line per kind every few seconds (with how many more there were)
        _REFUSALS.warning(code, f"refused an unreadable message from {_sid()} ({code})")
        return self._refuse(code, limit=MAX_JSON_DEPTH)

    def on_other(self, event: str, *_: Any) -> dict[str, Any]:
        """An event the table does not know."""
        return self._refuse("intent/unknown-event", event=str(event)[:40])

    # --- answers -------------------------------------------------------------------------------

    def _refuse(self, code: str, **params: Any) -> dict[str, Any]:
        payload = error_payload(code, self.web.referee.state_id, **params)
        emit("error", payload)
        return payload

    def _one_argument(self, event: str, args: tuple[Any, ...]) -> dict[str, Any] | None:
        """The refusal of an event sent with other than one argument (None: one was sent)."""
        if len(args) == 1:
            return None
        return self._refuse("intent/arguments", event=event, got=len(args))


def _camera_question(web: WebTable, principal: Any, lang: str) -> dict[str, Any] | None:
    """The camera's open question as this page sees it (None: no camera, or nothing for it)."""
    ask = getattr(web.camera, "question_for", None)
    return ask(principal, lang) if callable(ask) else None


__all__ = ["TableNamespace", "client_lang", "error_payload", "refusal"]
