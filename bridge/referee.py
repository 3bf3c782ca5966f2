"""The referee: observations and intents in, committed events out.

After boardgame.io's master (``src/master/master.ts``): the referee owns one table session, takes
input from injected transports, checks it with the engine (it never decides a rule itself),
appends accepted events to the store and only then acknowledges and publishes. What clients see
of a committed event (views per seat and language, the displays' series, patches) is the
presenter's (bridge/presenter.py, after boardgame.io's ``filter-player-view.ts``): the referee
hands it each committed event and publishes the ``Update`` it makes; redaction stays the engine's
(``engine.present``).

Inputs come in two kinds:

- *observations* (``observe``): what the table shows, from the camera, a device, Tabletop
  Simulator or the simulated table. The table is the authority on what physically happened, so an
  observation may carry any seat's move or a chance move; it is still checked by the rules.
- *intents* (``intent``): requests from a phone or the host over the network, carrying the
  ``state_id`` they were built on. A seat may only make its own moves and undo its own last move;
  the host may override (any move, any undoable undo).

No state lives in module globals: a process could host several ``Referee`` objects.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from bridge import autopass, gamedata
from bridge.presenter import LOG_TAIL, Notice, Presenter, Update, violation_langs, worded
from bridge.store import SessionRow, Store, StoreError, Tokens
from bridge.table_setup import SetupError, read_setup
from engine import log, present
from engine.game import HOST, TABLE, Game
from engine.game import dice_move as game_dice_move
from engine.i18n import DEFAULT_LANG, LANGUAGES, error_text, message, violation_json
from engine.violations import InputError, RuleViolation

_LOG = logging.getLogger(__name__)

MAX_INTENT_BYTES = 16 * 1024
"""Largest intent accepted, as compact JSON. A whole revealed row is under 1 KiB."""

SNAPSHOT_EVERY = 25
"""A snapshot after every this many events (and when the game ends)."""

INTENT_KINDS = ("move", "undo", "start", "dice")
"""``start`` is the host's: close this session and begin a new game (see ``Referee.new_game``);
``dice`` reports dice typed in on a phone (see ``Referee.dice``)."""


@dataclass(frozen=True)
class Principal:
    """Who is speaking on a connection: a viewer (table display), a seat, or the host."""

    role: Literal["viewer", "seat", "host"]
    seat: str | None = None

    @property
    def source(self) -> str:
        """The ``source`` column of the events this principal causes."""
        return f"seat:{self.seat}" if self.role == "seat" else self.role


VIEWER = Principal("viewer")


@dataclass(frozen=True)
class Outcome:
    """The referee's answer to one intent or observation.

    ``kind`` is ``accepted`` (committed: ``state_id`` is the new id), ``error`` (unreadable,
    stale, not allowed: ``code``/``message``) or ``violation`` (readable but against the rules:
    ``violations``). Nothing changes unless ``kind`` is ``accepted``.
    """

    kind: Literal["accepted", "error", "violation"]
    state_id: int
    code: str = ""
    message: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    violations: tuple[dict[str, Any], ...] = ()
    session: int | None = None
    """Set when the outcome began a new session (``start``): its id, so the sender can tell."""

    @property
    def ok(self) -> bool:
        return self.kind == "accepted"

    def to_json(self, lang: str | None = None) -> dict[str, Any]:
        """What the sender receives (its Socket.IO acknowledgement; also the error/violation),
        its sentences in ``lang`` when given (the page's language: ``presenter.worded``)."""
        data: dict[str, Any] = {"ok": self.ok, "kind": self.kind, "state_id": self.state_id}
        if self.session is not None:
            data["session"] = self.session
        if self.kind == "error":
            data.update(code=self.code, message=self.message, params=self.params)
        if self.kind == "violation":
            first = self.violations[0]
            data.update(
                code=first["code"],
                ref=first["ref"],
                message=first["message"],
                violations=list(self.violations),
            )
        return data if lang is None or self.ok else worded(data, lang)


class Transport(Protocol):
    """Where updates go: Socket.IO now; MQTT seat LEDs, serial and TTS adapters later.

    Called with the referee's lock held, in ``state_id`` order, so implementations must only
    hand the data on (queue, emit), never call back into the referee.
    """

    def publish(self, update: Update) -> None:
        """Push a new state (every room its own payload)."""
        ...

    def notice(self, notice: Notice) -> None:
        """Push a notice to the table room (``seat`` None) or one seat's room."""
        ...


class OtherGameOpen(Exception):
    """``Referee.open(resume=False)`` would close an unfinished session of another game.

    A new session of one game silently ending another game's unfinished one loses a table's
    evening by a typo in ``--game``; the host has to say so (``herald serve --new --force``).
    ``row`` is that open session.
    """

    def __init__(self, row: SessionRow) -> None:
        super().__init__(f"table {row.table_id!r} has an unfinished {row.header.game} session "
                         f"(session {row.id})")  # fmt: skip
        self.row = row


def new_tokens(seats: tuple[str, ...]) -> Tokens:
    """Fresh unguessable secrets: 128 bits each, URL-safe."""
    return Tokens(secrets.token_urlsafe(16), {s: secrets.token_urlsafe(16) for s in seats})


class Referee:
    """One table session: the live engine session, its store, and the transports it feeds."""

    def __init__(
        self,
        game: Game[Any, Any],
        store: Store,
        row: SessionRow,
        *,
        lang: str = DEFAULT_LANG,
        snapshot_every: int = SNAPSHOT_EVERY,
        auto_pass: bool = True,
    ) -> None:
        """Restore the session ``row`` from its latest snapshot and the events after it.

        ``auto_pass``: a seat whose only legal move is a pass passes by itself (bridge/autopass.py).
        """
        self.game = game
        self.auto_pass = auto_pass
        self.box_library: Path | None = None
        """Where the boxes kept at this table are (``DB.boxes/``): New game may play on one."""
        self.store = store
        self.row = row
        self.lang = lang
        self.snapshot_every = snapshot_every
        self.resumed = False
        self.closed: SessionRow | None = None
        """The unfinished session ``open`` closed to start this one (``resume=False``), if any."""
        self._lock = threading.RLock()
        self._transports: list[Transport] = []
        self.presenter = Presenter(game, lang)
        """Turns what this referee commits into what each client sees (bridge/presenter.py)."""
        self._accepted_at = row.created
        self._session = self._restore()
        self._latest = self._update()

    # --- opening a table ---------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        store: Store,
        game: Game[Any, Any],
        table_id: str,
        players: tuple[str, ...],
        options: dict[str, Any] | None = None,
        *,
        resume: bool | None = None,
        force: bool = False,
        **kwargs: Any,
    ) -> Referee:
        """The table's referee: resumes its unfinished session, or starts a new one.

        ``resume`` None resumes when there is an unfinished session of the table and starts a new
        one otherwise; True insists on resuming (``LookupError`` if there is nothing to resume);
        False always starts a new session (an unfinished one of the same game is closed; one of
        another game only with ``force``, else ``OtherGameOpen`` and nothing changes).
        """
        found = store.unfinished(table_id)
        if resume is True and found is None:
            raise LookupError(f"no unfinished session of table {table_id!r} to resume")
        if found is not None and resume is not False:
            referee = cls(get_game_for(found, game), store, found, **kwargs)
            referee.resumed = True
            return referee
        if found is not None and found.header.game != game.info.key and not force:
            raise OtherGameOpen(found)
        opts = dict(options or {})
        session = log.start(game, tuple(players), opts, gamedata.load(game, opts))
        tokens = new_tokens(tuple(players))
        if found is not None:
            sid = store.replace_session(found.id, table_id, session.header, tokens)
        else:
            sid = store.create_session(table_id, session.header, tokens)
        row = store.session(sid)
        assert row is not None
        referee = cls(game, store, row, **kwargs)
        referee.closed = found
        return referee

    def _restore(self) -> log.Session:
        header = self.row.header
        snap = self.store.latest_snapshot(self.row.id)
        after = 0
        if snap is None:  # the same data as when the session began, or refused naming both
            session = log.restart(self.game, header, gamedata.load(self.game, header.options))
        else:
            session = log.from_snapshot(self.game, header, snap.data["session"])
            self.presenter = Presenter(self.game, self.lang, snap.data["extras"])
            after = snap.seq
        framed = {f.seq for f in self.store.frames(self.row.id)}
        for stored in self.store.events(self.row.id, after):
            event = log.decode_event(self.game, stored.payload)
            session = log.accept(session, event)
            self.presenter.record(session, event, stored, stored.seq in framed)
            self._accepted_at = stored.time
        return session

    # --- queries -----------------------------------------------------------------------------

    @property
    def session(self) -> log.Session:
        return self._session

    @property
    def state_id(self) -> int:
        return self._session.state_id

    @property
    def table_id(self) -> str:
        return self.row.table_id

    @property
    def seats(self) -> tuple[str, ...]:
        return self.row.header.players

    def is_over(self) -> bool:
        return bool(self.game.is_over(self._session.state))

    def authenticate(self, token: Any) -> Principal | None:
        """The principal a token names (None: no such token). Constant-time comparisons."""
        if not isinstance(token, str) or not token or len(token) > 256:
            return None
        found: Principal | None = None
        if secrets.compare_digest(token, self.row.tokens.host):
            found = Principal("host")
        for seat, secret in self.row.tokens.seats.items():
            if secrets.compare_digest(token, secret):
                found = Principal("seat", seat)
        return found

    @contextmanager
    def locked(self) -> Iterator[Update]:
        """The current update, with publication held back while the caller sends it.

        A connecting client joins its rooms, then sends this snapshot inside the block: no
        newer update can be published in between, so it never receives an older state last.
        """
        with self._lock:
            yield self._latest

    def current(self) -> Update:
        with self._lock:
            return self._latest

    # --- transports --------------------------------------------------------------------------

    def attach(self, transport: Transport) -> None:
        with self._lock:
            self._transports.append(transport)

    def detach(self, transport: Transport) -> None:
        with self._lock:
            self._transports.remove(transport)

    # --- input -------------------------------------------------------------------------------

    def intent(self, principal: Principal, data: Any) -> Outcome:
        """A request from a phone or the host: ``{"state_id": int, "kind": ..., ...}``."""
        with self._lock:
            sid = self._session.state_id
            problem = _shape_problem(data)
            if problem is not None:
                code, params = problem
                return self._error(code, **params)
            if data["kind"] == "start" and principal.role != "host":
                return self._error("auth/host-only", action="start")
            if principal.role == "viewer":
                return self._error("auth/no-seat")
            if data["state_id"] != sid:
                return self._error("state/stale", sent=data["state_id"])
            if data["kind"] == "start":
                return self.new_game(principal.source, data.get("setup"))
            if data["kind"] == "undo":
                by = HOST if principal.role == "host" else principal.seat
                self._undo_auto_passes(by)
                return self._submit(principal.source, log.Event("undo", by=by))
            if data["kind"] == "dice":
                return self._dice(principal, data.get("dice"))
            try:
                move = _decode_move(self.game, data.get("move"))
            except InputError as exc:
                return self._error("intent/invalid-move", detail=exc.detail, path=exc.path or "$")
            actor = self.game.actor(move)
            if principal.role == "seat" and actor != principal.seat:
                return self._error("auth/not-your-seat", seat=principal.seat, actor=actor)
            return self._submit(principal.source, log.Event("move", move=move))

    def _dice(self, principal: Principal, dice: Any) -> Outcome:
        """Dice typed in on a phone (or by the host): the game's chance move, if any step takes
        them (``dice_move``, engine/game.py). Checked as a tower's roll is; the seat must be one
        the game lets report this roll (its own, or another seat's the rules let it report)."""
        if not isinstance(dice, list) or not 1 <= len(dice) <= 32:
            return self._error("intent/malformed", detail=message("detail/dice", self.lang))
        by = principal.seat if principal.role == "seat" else None
        try:
            move = game_dice_move(self.game, self._session.state, dice, by)
        except RuleViolation as exc:
            return self._violation(exc)
        except InputError as exc:
            return self._error("intent/invalid-move", detail=exc.detail, path=exc.path or "$")
        if move is None:
            return self._error("dice/not-expected")
        return self._submit(principal.source, log.Event("move", move=move))

    def observe(
        self,
        source: str,
        move: Any,
        state_id: int | None = None,
        frame: tuple[bytes, dict[str, Any]] | None = None,
    ) -> Outcome:
        """An observation from the table (camera, device, TTS, simulated table).

        ``move`` is the move's JSON, decoded here through the game's schema like any input.
        ``state_id`` (optional) is the state the observer saw; a stale one is refused so a
        simulated player never acts on a position a phone has already changed. ``frame`` (the
        camera's picture of the move, ``bridge.evidence``: JPEG and metadata) is kept in the
        store beside the accepted event, and the log entry says so (``frame: true``).
        """
        with self._lock:
            if state_id is not None and state_id != self._session.state_id:
                return self._error("state/stale", sent=state_id)
            try:
                decoded = _decode_move(self.game, move)
            except InputError as exc:
                return self._error("intent/invalid-move", detail=exc.detail, path=exc.path or "$")
            outcome = self._submit(source, log.Event("move", move=decoded), frame)
            if outcome.kind == "violation":
                actor = self.game.actor(decoded)
                seat = actor if actor in self.seats else None
                payload = outcome.to_json()
                langs = violation_langs(outcome.violations)
                self._notify(Notice("violation", payload, seat, langs))
                if seat is not None:
                    self._notify(Notice("violation", payload, None, langs))
            return outcome

    def roll(self, source: str, payload: Any) -> Outcome:
        """A die result from a device: broadcast to the table room as ``roll``.

        Dice that decide a move arrive as observations (chance moves); this is the notice that
        lets displays animate the roll. ``payload``: ``{"device": str, "values": [int, ...]}``,
        optionally with the device's ``seq`` and ``dice`` (the wire objects, kept so a display
        can show colours and custom faces), ``used`` (whether a game step took the roll) and
        ``text`` (the catalog sentence saying so); the bounds are the device protocol's.
        """
        with self._lock:
            values = payload.get("values") if isinstance(payload, dict) else None
            device = payload.get("device") if isinstance(payload, dict) else None
            if (
                not isinstance(device, str)
                or not isinstance(values, list)
                or not 0 < len(values) <= 32
                or not all(type(v) is int and 1 <= v <= 1000 for v in values)
            ):
                return self._error("roll/malformed")
            notice: dict[str, Any] = {"source": source, "device": device, "values": values}
            extra = {"seq": int, "dice": list, "used": bool, "text": str}
            notice.update({k: payload[k] for k, t in extra.items() if type(payload.get(k)) is t})
            texts = payload.get("texts")
            if isinstance(texts, dict):  # the sentence in each shipped language
                notice["texts"] = {k: v for k, v in texts.items()
                                   if k in LANGUAGES and isinstance(v, str)}  # fmt: skip
            self._notify(Notice("roll", {**notice, "state_id": self.state_id}))
            return Outcome("accepted", self.state_id)

    def announce(self, notice: Notice) -> None:
        """Push a notice from a table source (a camera asking to confirm) to every transport."""
        with self._lock:
            self._notify(notice)

    def new_game(self, source: str, setup: Any = None) -> Outcome:
        """Begin a new game at this table: same game, seats and options, and the same tokens.

        What a real table expects of "new game": the people and their phones stay, the board is
        reset. The current session is closed in the store (a finished one keeps ``over``) and a
        new one is opened in the same transaction, so a crash cannot close the old game without
        opening the new one, and ``herald serve --resume`` finds the new game. The tokens are
        kept so every joined phone and the host display stay connected and authorised (fresh
        tokens: ``herald serve --new``).
        Every client gets the new session as a full snapshot with ``state_id`` 0; clients reset
        on the new ``session`` number. ``source`` is who asked (``host``), for the log.

        ``setup`` (from the host page, ``bridge.table_setup``) may choose another game, other
        seats with names, other options and data; a setup that cannot be used is refused with
        its sentence and changes nothing. New seats get new seat tokens (the host's is kept).
        """
        with self._lock:
            chosen = None
            if setup is not None:
                try:
                    chosen = read_setup(setup, self.box_library)
                except SetupError as exc:
                    return self._error(exc.code, **exc.params)
            game = chosen.game if chosen else self.game
            if chosen is not None and chosen.auto_pass is not None:
                self.auto_pass = chosen.auto_pass
            players = chosen.seats if chosen else self.row.header.players
            opts = dict(chosen.options if chosen else self.row.header.options)
            try:  # the data read again: a changed file is the new game's
                session = log.start(game, players, opts, gamedata.load(game, opts))
            except (InputError, RuleViolation) as exc:
                return self._error("setup/refused", detail=error_text(exc))
            tokens = self.row.tokens
            if players != self.row.header.players:
                tokens = Tokens(tokens.host, new_tokens(players).seats)
            names = chosen.names if chosen else self.presenter.names
            self.snapshot()  # the old session's final position, for ``herald sessions show``
            sid = self.store.replace_session(self.row.id, self.table_id, session.header, tokens)
            row = self.store.session(sid)
            assert row is not None
            self.game = game
            self.row, self._session, self.resumed = row, session, False
            self.presenter.reset(game, names)
            if names:
                self.snapshot()  # keeps the names with the new session
            self._accepted_at = time.time()
            self._latest = self._update(snapshot=True)
            for transport in list(self._transports):
                transport.publish(self._latest)
            _LOG.info("new game at table %s: session %d (by %s)", self.table_id, row.id, source)
            return Outcome("accepted", session.state_id, session=row.id)

    # --- the one write path ------------------------------------------------------------------

    def _submit(
        self, source: str, event: log.Event, frame: tuple[bytes, dict[str, Any]] | None = None
    ) -> Outcome:
        try:
            session = log.accept(self._session, event)
        except RuleViolation as exc:
            return self._violation(exc)
        seq = self._session.state_id + 1  # every accepted event raises state_id by exactly one
        stored = self.store.append(self.row.id, seq, source, event, session.state_id)
        self._session = session
        self._accepted_at = time.time()  # committed: what clients measure delivery from
        kept = frame is not None and self._keep_frame(seq, frame)
        self.presenter.record(session, event, stored, kept)
        over = self.is_over()
        if over:
            self.store.set_status(self.row.id, "over")
        self._latest = self._update()
        for transport in list(self._transports):
            transport.publish(self._latest)
        if over or seq % self.snapshot_every == 0:
            # after the clients have the move: the snapshot only shortens a restore (the
            # committed events are the record), so it need not delay them
            self.snapshot()
        if event.kind == "move" and source != autopass.SOURCE:
            self._auto_passes()
        return Outcome("accepted", self._session.state_id)

    def _auto_passes(self) -> None:
        """Play every pass that is some seat's only legal move (bridge/autopass.py), each an
        ordinary event published on its own, so the log shows it."""
        for _ in range(autopass.MAX_CHAIN if self.auto_pass else 0):
            move = autopass.forced_pass(self.game, self._session.state)
            if move is None or not self._submit(autopass.SOURCE, log.Event("move", move=move)).ok:
                return

    def _undo_auto_passes(self, by: str | None) -> None:
        """Before ``by`` takes back its move, take back the passes played for others after it."""
        on_top = self.presenter.auto_on_top(self._session)
        plan = autopass.undo_plan(self._session, by, on_top) if on_top else None
        for actor in (plan or [])[:-1]:
            self._submit(autopass.SOURCE, log.Event("undo", by=actor))

    def snapshot(self) -> None:
        """Save the current session so a resume replays only the events after it."""
        with self._lock:
            data = {"session": log.to_snapshot(self._session), "extras": self.presenter.history}
            self.store.save_snapshot(self.row.id, self.state_id, self.state_id, data)

    def _notify(self, notice: Notice) -> None:
        for transport in list(self._transports):
            transport.notice(notice)

    def _update(self, snapshot: bool = False) -> Update:
        """The presenter's update of the current state (built lazily, per reader)."""
        return self.presenter.update(self._session, self.row.id, self.table_id, self.seats,
                                     self._accepted_at, self.auto_pass, snapshot)  # fmt: skip

    def _violation(self, exc: RuleViolation) -> Outcome:
        violations = tuple(violation_json(v, self.lang) for v in exc.violations)
        return Outcome("violation", self._session.state_id, violations=violations)

    def _error(self, code: str, **params: Any) -> Outcome:
        params = {"state_id": self._session.state_id, **params}
        return Outcome("error", self._session.state_id, code, message(code, self.lang, **params),
                       params)  # fmt: skip

    # --- derived data for the displays (log with undo marks, coins by round) -------------------

    def _keep_frame(self, seq: int, frame: tuple[bytes, dict[str, Any]]) -> bool:
        """Store the camera's picture of event ``seq``; a refused one is logged, never fatal
        (the event is the record, the picture its evidence)."""
        try:
            self.store.save_frame(self.row.id, seq, *frame)
        except StoreError as exc:
            _LOG.warning("camera frame of event %d not kept: %s", seq, exc)
            return False
        return True

    # --- history -------------------------------------------------------------------------------

    def view_at(self, state_id: int, lang: str | None = None) -> dict[str, Any]:
        """The public table as it was at ``state_id`` (0: before the first event), replayed from
        the stored events: the board then, the scores then. ``ValueError`` for a state this
        session never had."""
        with self._lock:
            row, game, current = self.row, self.game, self._session.state_id
        if type(state_id) is not int or not 0 <= state_id <= current:
            raise ValueError(state_id)
        session = log.restart(game, row.header, gamedata.load(game, row.header.options))
        for stored in self.store.events(row.id):
            if stored.seq > state_id:
                break
            session = log.accept(session, log.decode_event(game, stored.payload))
        return {
            "state_id": state_id,
            "current": current,
            "session": row.id,
            "game": game.info.key,
            "over": bool(game.is_over(session.state)),
            "to_act": list(game.to_act(session.state)),
            "view": present.view(game, session.state, None, lang or self.lang),
        }

    def export_text(self) -> str:
        """This session as a log file (header line, one event per line), the format
        ``herald rules GAME replay`` and ``herald sessions export`` use."""
        with self._lock:
            row = self.row
            events = self.store.events(row.id)
        lines = [json.dumps(row.header.to_json())] + [json.dumps(e.payload) for e in events]
        return "\n".join(lines) + "\n"

    def _can_undo(self, seat: str) -> bool:
        return log.can_undo(self._session, seat)


def get_game_for(row: SessionRow, wanted: Game[Any, Any]) -> Game[Any, Any]:
    """The game a stored session is of; refuse to resume a session of another game."""
    if row.header.game != wanted.info.key:
        raise LookupError(
            f"table {row.table_id!r} has an unfinished {row.header.game} session "
            f"(session {row.id}); start a new one or serve that game"
        )
    return wanted


def _shape_problem(data: Any) -> tuple[str, dict[str, Any]] | None:
    """Why an intent cannot even be read (code and params), or None when it is well formed."""
    if not isinstance(data, dict):
        return "intent/malformed", {"detail": message("detail/not-object")}
    try:
        size = len(json.dumps(data, separators=(",", ":")))
    except (TypeError, ValueError, RecursionError):
        return "intent/malformed", {"detail": message("detail/not-json")}
    if size > MAX_INTENT_BYTES:
        return "intent/too-large", {"size": size, "limit": MAX_INTENT_BYTES}
    if type(data.get("state_id")) is not int:
        return "intent/malformed", {"detail": message("detail/state-id")}
    if data.get("kind") not in INTENT_KINDS:
        return "intent/unknown-kind", {"kind": str(data.get("kind"))[:40]}
    return None


def _decode_move(game: Game[Any, Any], data: Any) -> Any:
    try:
        move = log.decode_event(game, {"kind": "move", "move": data}).move
    except RecursionError as exc:
        raise InputError("input/schema", "nested too deeply") from exc
    return move


__all__ = [
    "HOST",
    "LOG_TAIL",
    "TABLE",
    "VIEWER",
    "Notice",
    "OtherGameOpen",
    "Outcome",
    "Principal",
    "Referee",
    "Transport",
    "Update",
    "new_tokens",
]
