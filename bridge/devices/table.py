"""The referee's side of the table devices: the hub's sink, seat LEDs, the table's device panel.

:class:`TableDevices` joins a :class:`~bridge.devices.hub.DeviceHub` to a
:class:`~bridge.referee.Referee`:

- **Rolls.** If the game offers the optional verb ``dice_move(state, dice)`` and the table is
  to act, the roll becomes the engine's chance move (an observation, like the camera's). Every
  accepted roll is broadcast through ``Referee.roll`` as ``roll`` to the table room, with a
  catalog sentence saying whether a game step took it. In a game without dice the sentence says
  no game step needs the roll; a game with symbol dice takes typed dice (strength, horse,
  armour); dice no step can take are refused with the game's sentence, and nothing changes.
- **Buttons.** A seat box's press becomes that seat's intent, checked by the referee exactly as a
  phone's (a :class:`DevicePrincipal` is a seat principal): ``confirm`` plays the seat's only
  legal move, ``pass`` its only declining move (the move the game's ``is_pass`` marks),
  ``undo`` asks to undo the seat's last move. Anything else is refused with a sentence
  on the seat's phone and the box's ``illegal`` pattern; nothing changes.
- **LEDs.** As a referee transport it hears every published state and sends ``your-turn`` to the
  boxes of seats the game waits for, ``waiting`` to the others, ``off`` when the game is over,
  and ``illegal`` on violations (then the turn pattern again, so a reconnecting box never
  replays a stale flash).
- **Pairing.** The hub counts events only from paired devices (:mod:`bridge.devices.pairing`);
  the host opens the pairing window, approves pending devices and unpairs them through the
  host-only Socket.IO events ``device_pairing``, ``device_pair`` and ``device_unpair``.
  Refusals and pairings become ``device_notice`` messages for the host (and the table).
- **Lost events.** A device's drop report (events its outbox had to drop while Herald was out of
  reach) becomes a ``device_notice`` on the table display asking to roll again or confirm by
  hand (a seat box's: to press again, on the seat's phone too).
- **Panel.** A client asks for the whole panel with ``devices`` (rate-limited per client); after
  that it gets small ``devices_delta`` messages, coalesced every :data:`PANEL_INTERVAL` s,
  with only the records that changed. A client that does not read what it is sent (its queue
  holds more than :data:`MAX_BACKLOG` messages) gets no deltas until it catches up, then one
  whole panel; one that keeps asking for the panel without reading is disconnected.

Referee transports are called with the referee's lock held, and the hub calls its sink with the
hub's lock held; so LED commands and panel pushes go through one worker thread, never straight
from a transport callback into the hub (that would be a lock-order deadlock).

Exactly-once with the event store: the hub marks ``(device, seq)`` only after the sink returned,
and every event a device causes is stored with a source naming its device and seq
(``seat:blue@seat-blue#12``, ``device:tower-1#5``). On start, :meth:`TableDevices.reconcile`
marks those pairs again, so a crash between the referee's commit and the dedup mark cannot apply
a press twice.
"""

from __future__ import annotations

import logging
import queue
import re
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bridge.referee import Notice, Outcome, Principal, Referee, Update
from bridge.web.backlog import cut_off, guarded, queued
from engine import codec
from engine.game import TABLE, is_pass
from engine.game import dice_move as game_dice_move
from engine.i18n import LANGUAGES, message, violation_text
from engine.violations import InputError, RuleViolation

from .dedup import DedupStore
from .hub import DeviceHub
from .limits import KeyedBuckets, LogLimiter
from .pairing import PairingDesk, PairingStore
from .panel import PanelClients
from .protocol import ButtonPress, DeviceEvent, DiceRoll, DropReport
from .registry import DeviceRecord

log = logging.getLogger(__name__)

LAST_ROLLS = 6
"""How many recent rolls the table display keeps."""

PANEL_INTERVAL = 0.2
"""Seconds between two ``devices_delta`` pushes at most (changes in between are coalesced)."""

MAX_NOTICES = 6
"""How many recent device notices the panel keeps."""

HOST_NOTICES = frozenset(
    {"devices/not-paired", "devices/bad-pair-code", "devices/pairing-closed",
     "devices/pair-approval", "devices/wrong-seat", "devices/not-table", "devices/seq-jump",
     "devices/boot-jump", "devices/stale-boot"}
)  # fmt: skip
"""Refusals told to the host only (anyone can cause them: the table display stays calm)."""

UNPAIRED_NOTICES = frozenset(
    {"devices/not-paired", "devices/bad-pair-code", "devices/pairing-closed"}
)  # fmt: skip
"""Notices about devices not paired (any id at all): at most one of each kind every few
seconds, whichever device caused it (the host page lists the pending devices anyway)."""

ILLEGAL_SECONDS = 3.2
"""The firmware flashes ``illegal`` for 3 s; then Herald restores the remembered turn pattern."""

_SOURCE = re.compile(
    r"(?:@|^device:)(?P<device>[A-Za-z0-9_-]{1,64})#(?:(?P<boot>\d+)\.)?(?P<seq>\d+)$"
)


def event_tag(device: str, boot: int, seq: int) -> str:
    """``tower-1#5`` (boot 0) or ``tower-1#3.5`` (boot 3): how stored sources name an event."""
    return f"{device}#{boot}.{seq}" if boot else f"{device}#{seq}"


Emit = Callable[[str, dict[str, Any], str], None]
"""``emit(event, payload, room)``: how the panel and refusals reach Socket.IO rooms."""


@dataclass(frozen=True)
class DevicePrincipal(Principal):
    """A seat acting through its seat box: the seat's rights, a source naming device and seq."""

    device: str = ""
    seq: int = 0
    boot: int = 0

    @property
    def source(self) -> str:
        return f"seat:{self.seat}@{event_tag(self.device, self.boot, self.seq)}"


def seat_box_id(seat: str) -> str:
    """The device id of a virtual seat's box (``seat-blue``)."""
    return f"seat-{seat}"


class TableDevices:
    """The hub's sink and a referee transport; see the module docstring.

    Args:
        referee: The table's referee.
        dedup: Durable ``(device, boot, seq)`` store for the hub.
        note: A catalog sentence for the panel saying where the devices are (or why offline).
        pairings: Where pairings persist (the ``.devices`` file); in memory when omitted.
    """

    def __init__(
        self,
        referee: Referee,
        dedup: DedupStore,
        note: str | None = None,
        pairings: PairingStore | None = None,
    ) -> None:
        self.referee = referee
        self.desk = PairingDesk(pairings or PairingStore(":memory:"), referee.seats)
        self.hub = DeviceHub(dedup, self.on_event, desk=self.desk)
        self.hub.notify = self._device_notice
        self.note = note
        self.rolls: deque[dict[str, Any]] = deque(maxlen=LAST_ROLLS)
        self.notices: deque[dict[str, Any]] = deque(maxlen=MAX_NOTICES)
        self._emit: Emit | None = None
        self._room = "table"
        self._host_room = "host"
        self._seat_room: Callable[[str], str] = lambda seat: f"seat:{seat}"
        self._clients: PanelClients | None = None
        self._leds: dict[str, str] = {}  # device → the turn pattern last sent
        self._restore: dict[str, float] = {}  # device → when to end an illegal flash
        self._jobs: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._panel_due = threading.Event()
        self._dirty: set[str] = set()
        self._removed: set[str] = set()
        self._dirty_lock = threading.Lock()
        self._notice_gate = LogLimiter(log, max_keys=256)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.paired_listeners: list[Callable[[str], None]] = []
        self.hub.registry.subscribe(self._registry_changed)
        self.hub.registry.subscribe_removed(self._registry_removed)
        for pairing in self.desk.store.all():  # the panel lists every paired device
            self.hub.registry.update(pairing.device, seen=False, paired=pairing.label,
                                     device_kind=pairing.device_kind)  # fmt: skip

    # --- wiring ------------------------------------------------------------------------------

    def reconcile(self) -> int:
        """Mark every ``(device, seq)`` the session's stored events name; returns how many new."""
        fixed = 0
        for stored in self.referee.store.events(self.referee.row.id):
            found = _SOURCE.search(stored.source)
            if found is None:
                continue
            boot = int(found["boot"] or 0)
            if self.hub.dedup.mark(found["device"], int(found["seq"]), boot):
                fixed += 1
        return fixed

    def connect(
        self,
        emit: Emit,
        table_room: str = "table",
        seat_room: Callable[[str], str] | None = None,
        host_room: str = "host",
    ) -> None:
        """Where panel pushes (``table_room``), host notices and refusals (the seat's room) are
        emitted."""
        self._emit, self._room, self._host_room = emit, table_room, host_room
        if seat_room is not None:
            self._seat_room = seat_room

    def attach_web(
        self,
        socketio: Any,
        table_room: str,
        seat_room: Callable[[str], str],
        host_room: str = "host",
        role_of: Callable[[str], str] | None = None,
    ) -> None:
        """Serve the panel to the pages: ``devices`` answers the whole panel (and subscribes the
        client to deltas), the host-only ``device_pairing``/``device_pair``/``device_unpair``
        pair devices. Deltas go to each subscribed client with a bounded backlog.

        ``role_of(sid)`` is the role the connection authenticated with (its token, kept in the
        server's own session): who is the host is decided by it, never by room membership,
        which a message-queue publisher could forge. Without it nobody is the host.
        """
        from flask import request

        def emit(event: str, payload: dict[str, Any], room: str) -> None:
            socketio.emit(event, payload, to=room)

        self.connect(emit, table_room, seat_room, host_room)
        server = socketio.server

        def is_host(sid: str) -> bool:
            return role_of is not None and role_of(sid) == "host"

        self._clients = PanelClients(
            send=lambda sid, event, payload: socketio.emit(event, payload, to=sid),
            backlog=lambda sid: queued(server, sid),
            disconnect=lambda sid: cut_off(server, sid),
            is_host=is_host,
        )
        clients = self._clients
        requests = KeyedBuckets(2.0, 5.0, size=1024)

        def on_devices(*_: Any) -> dict[str, Any]:
            sid = str(request.sid)  # type: ignore[attr-defined]
            if not requests.allow(sid):
                code = "devices/too-many-requests"
                return {"ok": False, "code": code, **_said(code)}
            if not clients.subscribe(sid):
                return {"ok": False, "code": "devices/too-many-requests"}
            return self.panel(is_host(sid))

        def host_only(handler: Callable[[dict[str, Any]], dict[str, Any]]) -> Any:
            def guarded(data: Any = None, *_: Any) -> dict[str, Any]:
                if not is_host(str(request.sid)):  # type: ignore[attr-defined]
                    code = "devices/host-only"
                    return {"ok": False, "code": code, **_said(code)}
                return handler(data if isinstance(data, dict) else {})

            return guarded

        def sid() -> str:
            return str(request.sid)  # type: ignore[attr-defined]

        for event, handler in (
            ("devices", on_devices),
            ("device_pairing", host_only(self.host_pairing)),
            ("device_pair", host_only(self.host_pair)),
            ("device_unpair", host_only(self.host_unpair)),
        ):
            socketio.on_event(event, guarded(server, sid, handler))

    # --- host intents (the web layer checked the caller is the host) ---------------------------

    def host_pairing(self, data: dict[str, Any]) -> dict[str, Any]:
        """``{"open": true|false}``: open the pairing window (new codes) or close it."""
        if data.get("open") is False:
            self.desk.close_window()
            said = _said("devices/pairing-ended")
        else:
            self.desk.open_window()
            said = _said("devices/pairing-opened", seconds=round(self.desk.closes_in()))
        self._panel_changed()
        return {"ok": True, **said, "pairing": self.pairing_view()}

    def host_pair(self, data: dict[str, Any]) -> dict[str, Any]:
        """``{"device": id, "seat": seat or null}``: pair a device to a seat or the table."""
        device, seat = data.get("device"), data.get("seat")
        if not isinstance(device, str) or self.hub.registry.get(device) is None:
            code, params = "devices/unknown-device", {"device": str(device)[:64]}
            return {"ok": False, "code": code, **_said(code, **params)}
        if seat is not None and seat not in self.referee.seats:
            code, params = "devices/bad-pair-target", {"seats": ", ".join(self.referee.seats)}
            return {"ok": False, "code": code, **_said(code, **params)}
        pairing = self.hub.pair(device, seat)
        self._jobs.put(("turn", self.referee.current()))
        return {"ok": True, "pairing": pairing.to_json()}

    def host_unpair(self, data: dict[str, Any]) -> dict[str, Any]:
        """``{"device": id}``: the device's events stop counting; it must pair again."""
        device = data.get("device")
        if not isinstance(device, str) or self.desk.get(device) is None:
            code, params = "devices/unknown-device", {"device": str(device)[:64]}
            return {"ok": False, "code": code, **_said(code, **params)}
        self.hub.unpair(device)
        self._jobs.put(("turn", self.referee.current()))
        return {"ok": True}

    def start(self) -> None:
        """Reconcile with the store, attach to the referee and start the worker thread."""
        self.reconcile()
        self.referee.attach(self)
        self._thread = threading.Thread(target=self._work, name="herald-devices", daemon=True)
        self._thread.start()
        self._jobs.put(("turn", self.referee.current()))

    def stop(self) -> None:
        self._stop.set()
        self._jobs.put(("stop", None))
        if self._thread is not None:
            self._thread.join(timeout=5)
            self.referee.detach(self)
            self._thread = None

    def set_note(self, note: str | None) -> None:
        self.note = note
        self._panel_changed()

    def _panel_changed(self) -> None:
        self._panel_due.set()
        self._jobs.put(("panel", None))

    def pairing_view(self, host: bool = True) -> dict[str, Any]:
        """The pairing window as the pages show it: open or not, the targets still waiting for a
        device and, for the host only, each one's code and the unpaired devices waiting for the
        host's approval (bounded). A code read off a viewer's or a seat's page would pair a
        stranger's box, so those get neither codes nor the pending list."""
        codes = self.desk.codes()
        return {
            "open": codes is not None,
            "codes": (codes or {}) if host else {},
            "waiting": sorted(codes or {}),
            "closes_in": round(self.desk.closes_in()),
            "seats": list(self.referee.seats),
            "pending": [p.to_json() for p in self.desk.pending()] if host else [],
            "wrong": self.desk.wrong_codes() if host else 0,
        }

    def panel(self, host: bool = False) -> dict[str, Any]:
        """The device panel: registry, last rolls (newest first), the note, the pairing window
        (its codes for the ``host`` only) and the recent device notices."""
        return {
            "devices": [r.to_json() for r in self.hub.devices()],
            "rolls": list(reversed(self.rolls)),
            "note": self.note,
            "pairing": self.pairing_view(host),
            "notices": list(self.notices),
        }

    def _delta(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """What changed since the last push (the changed records and the ids that went), as
        the host gets it and as every other client does."""
        with self._dirty_lock:
            dirty, removed = self._dirty, self._removed
            self._dirty, self._removed = set(), set()
        registry = self.hub.registry
        changed = [r.to_json() for d in sorted(dirty) if (r := registry.get(d)) is not None]
        gone = sorted(d for d in removed if registry.get(d) is None)
        delta = {"changed": changed, "removed": gone, "note": self.note}
        return ({**delta, "pairing": self.pairing_view(True)},
                {**delta, "pairing": self.pairing_view(False)})  # fmt: skip

    # --- referee transport (called with the referee's lock held: only queue) -------------------

    def publish(self, update: Update) -> None:
        self._jobs.put(("turn", update))

    def notice(self, notice: Notice) -> None:
        if notice.event == "violation" and notice.seat is not None:
            self._jobs.put(("illegal-seat", notice.seat))

    # --- the hub's sink (called with the hub's lock held) -------------------------------------

    def on_event(self, event: DeviceEvent) -> None:
        """One new, valid device event. Raising makes the device resend it later."""
        if isinstance(event, DiceRoll):
            self._roll(event)
        elif isinstance(event, ButtonPress):
            self._button(event)
        elif isinstance(event, DropReport):
            self._dropped(event)

    def _dropped(self, event: DropReport) -> None:
        """A device lost events it could not deliver: ask the table to roll or press again."""
        pairing = self.desk.get(event.device)
        seat = pairing.seat if pairing is not None else None
        code = "devices/lost-presses" if seat is not None else "devices/lost-rolls"
        params = {"device": event.device, "count": event.count, "seat": seat or "",
                  "first": event.first, "last": event.last}  # fmt: skip
        text = message(code, **params)
        log.warning("%s", text)
        self._notify(code, event.device, params, text, rooms=("table", "host", "seat"), seat=seat)

    def _device_notice(self, code: str, device: str, params: dict[str, Any]) -> None:
        """The hub refused an event or paired a device: tell the host (and, for pairings, the
        table); at most one notice per device and kind every few seconds."""
        if code in ("devices/paired", "devices/unpaired"):  # pairings change who lights up
            self._jobs.put(("turn", self.referee.current()))
        if code == "devices/paired":
            for listener in list(self.paired_listeners):
                listener(device)
        # unpaired ids can be invented by the thousand: their notices fold per kind, not per id
        key = code if code in UNPAIRED_NOTICES else f"{device}|{code}"
        if self._notice_gate.allow(key) is None:
            return
        full = {"device": device, "who": device, **params}
        try:
            text = message(code, **full)
        except Exception:  # a notice must never fail the hub's call
            text = code
        rooms: tuple[str, ...] = ("host",) if code in HOST_NOTICES else ("host", "table")
        self._notify(code, device, params, text, rooms=rooms)

    def _notify(
        self,
        code: str,
        device: str,
        params: dict[str, Any],
        text: str,
        *,
        rooms: tuple[str, ...],
        seat: str | None = None,
    ) -> None:
        shown = {k: v for k, v in params.items() if k not in ("device", "who")}
        payload = {"code": code, "device": device, "message": text, "time": time.time(),
                   "params": shown}  # fmt: skip
        payload["messages"] = _in_every_language(code, text, device, params)
        if "table" in rooms:
            self.notices.append(payload)
        if self._emit is None:
            return
        targets = {"table": self._room, "host": self._host_room}
        for room in rooms:
            if room == "seat":
                if seat is not None:
                    self._jobs.put(("emit", ("device_notice", payload, self._seat_room(seat))))
            else:
                self._jobs.put(("emit", ("device_notice", payload, targets[room])))

    def _roll(self, event: DiceRoll) -> None:
        referee = self.referee
        dice = [d.to_json() for d in event.dice]
        values = [d.value for d in event.dice]
        shown = " ".join(str(v) for v in values)
        code = "devices/roll-unused"
        detail = ""
        taken: dict[str, str] = {}  # the accepted roll's log labels
        with referee.locked():
            state = referee.session.state
            if TABLE in referee.game.to_act(state):
                try:
                    move = game_dice_move(referee.game, state, dice)
                except (RuleViolation, InputError) as exc:  # dice no step can take: refused
                    move, code = None, "devices/roll-refused"
                    detail = "; ".join(
                        violation_text(v, referee.lang) for v in getattr(exc, "violations", ())
                    ) or str(exc)
                if move is not None:
                    source = f"device:{event_tag(event.device, event.boot, event.seq)}"
                    outcome = referee.observe(source, codec.encode(move), referee.state_id)
                    code = "devices/roll-used" if outcome.ok else "devices/roll-refused"
                    detail = outcome.message or (
                        outcome.violations[0]["message"] if outcome.violations else ""
                    )
                    if outcome.ok:
                        taken = _logged_labels(referee, source)
            text = message(code, device=event.device, values=shown, detail=detail)
            payload = {
                "device": event.device,
                "seq": event.seq,
                "dice": dice,
                "values": values,
                "used": code == "devices/roll-used",
                "text": text,
            }
            # each page reads the sentence in its own language, in the game's own faces
            payload["texts"] = {
                lang: _roll_text(lang, taken, code, event.device, shown, detail)
                for lang in LANGUAGES
            }
            outcome = referee.roll(f"device:{event.device}", payload)
            if not outcome.ok:
                raise ValueError(outcome.message)
        self.rolls.append({**payload, "time": time.time()})
        log.info("%s", text)
        self._jobs.put(("panel", None))

    def _button(self, event: ButtonPress) -> None:
        referee = self.referee
        seat = event.seat
        if seat not in referee.seats:
            self._refuse(event, "devices/unknown-seat", seat=seat, device=event.device)
            return
        principal = DevicePrincipal("seat", seat, device=event.device, seq=event.seq,
                                    boot=event.boot)  # fmt: skip
        with referee.locked():
            sid = referee.state_id
            if event.button == "undo":
                outcome = referee.intent(principal, {"state_id": sid, "kind": "undo"})
            else:
                state = referee.session.state
                game = referee.game
                moves = [
                    codec.encode(m)
                    for p in game.prompts(state)
                    if p.seat == seat
                    for m in p.moves
                    if event.button != "pass" or is_pass(game, m)
                ]
                if len(moves) != 1:
                    code = {
                        ("confirm", 0): "devices/confirm-nothing",
                        ("pass", 0): "devices/pass-not-allowed",
                    }.get((event.button, len(moves)), "devices/confirm-ambiguous")
                    self._refuse(event, code, seat=seat, count=len(moves))
                    return
                intent = {"state_id": sid, "kind": "move", "move": moves[0]}
                outcome = referee.intent(principal, intent)
        if not outcome.ok:
            self._refused(event, outcome)

    def _refuse(self, event: ButtonPress, code: str, **params: Any) -> None:
        sid = self.referee.state_id
        text = message(code, **{"device": event.device, "button": event.button, **params})
        payload = {"ok": False, "kind": "error", "code": code, "message": text,
                   "state_id": sid, "params": params}  # fmt: skip
        log.warning("%s", text)
        self._refused(event, Outcome("error", sid, code, text, params), payload)

    def _refused(
        self, event: ButtonPress, outcome: Outcome, payload: dict[str, Any] | None = None
    ) -> None:
        """Tell the seat's phone why, and flash the box's ``illegal`` pattern."""
        data = payload or outcome.to_json()
        self._jobs.put(("illegal-device", event.device))
        if self._emit is not None and event.seat in self.referee.seats:
            event_name = "violation" if outcome.kind == "violation" else "error"
            self._jobs.put(("emit", (event_name, data, self._seat_room(event.seat))))

    # --- registry listener ---------------------------------------------------------------------

    def _registry_changed(self, record: DeviceRecord) -> None:
        with self._dirty_lock:
            self._dirty.add(record.device)
        if not self._panel_due.is_set():
            self._panel_changed()

    def _registry_removed(self, device: str) -> None:
        with self._dirty_lock:
            self._removed.add(device)
            self._dirty.discard(device)
        if not self._panel_due.is_set():
            self._panel_changed()

    # --- the worker thread ---------------------------------------------------------------------

    def _devices_of(self, seat: str) -> set[str]:
        """The seat boxes paired to ``seat``."""
        return {p.device for p in self.desk.store.all() if p.role == "seat" and p.seat == seat}

    def _work(self) -> None:
        last_panel = 0.0
        turn: dict[str, str] = {}
        while not self._stop.is_set():
            now = time.monotonic()
            waits = [t - now for t in self._restore.values()]
            if self._panel_due.is_set():
                waits.append(last_panel + PANEL_INTERVAL - now)
            timeout = max(0.0, min(waits)) if waits else 1.0
            try:
                kind, arg = self._jobs.get(timeout=timeout)
            except queue.Empty:
                kind, arg = "tick", None
            try:
                if kind == "stop":
                    return
                if kind == "turn":
                    turn = self._turn_patterns(arg)
                    self._send_turn(turn)
                elif kind == "illegal-seat":
                    for device in self._devices_of(arg):
                        self._flash(device)
                elif kind == "illegal-device":
                    self._flash(arg)
                elif kind == "emit" and self._emit is not None:
                    self._emit(*arg)
                now = time.monotonic()
                for device, when in list(self._restore.items()):
                    if when <= now:
                        del self._restore[device]
                        self._leds.pop(device, None)
                self._send_turn(turn)
                if self._panel_due.is_set() and now - last_panel >= PANEL_INTERVAL:
                    self._panel_due.clear()
                    last_panel = now
                    self._push_delta()
            except Exception:  # the worker must outlive a bad emit or a closed transport
                log.exception("device worker failed on %s", kind)

    def _push_delta(self) -> None:
        host, public = self._delta()
        if self._clients is not None:
            self._clients.push("devices_delta", (host, public), self.panel)
        elif self._emit is not None:
            self._emit("devices_delta", public, self._room)
            self._emit("devices_delta", host, self._host_room)

    def _turn_patterns(self, update: Update) -> dict[str, str]:
        over = bool(update.table.get("over"))
        patterns: dict[str, str] = {}
        for seat in self.referee.seats:
            prompt = update.prompts.get(seat, {})
            pattern = "off" if over else "your-turn" if prompt.get("your_turn") else "waiting"
            for device in self._devices_of(seat):
                patterns[device] = pattern
        return patterns

    def _send_turn(self, turn: dict[str, str]) -> None:
        for device, pattern in turn.items():
            if device in self._restore or self._leds.get(device) == pattern:
                continue
            self._leds[device] = pattern
            self.hub.set_led(device, pattern)

    def _flash(self, device: str) -> None:
        self.hub.set_led(device, "illegal")
        self._restore[device] = time.monotonic() + ILLEGAL_SECONDS
        self._leds.pop(device, None)


def _roll_text(
    lang: str, taken: dict[str, str], code: str, device: str, shown: str, detail: str
) -> str:
    """A roll's sentence in ``lang``: as the step took it, in the game's own faces (its log
    label, "blue rolls Strength die: ★, Horse die: 2"), else with its plain values."""
    if lang in taken:
        return message("devices/roll-taken", lang, device=device, label=taken[lang])
    return message(code, lang, device=device, values=shown, detail=detail)


def _logged_labels(referee: Referee, source: str) -> dict[str, str]:
    """The labels, in every shipped language, of the newest log entry ``source`` made."""
    for entry in reversed(referee.current().table.get("log", [])):
        if entry.get("source") == source:
            labels = entry.get("labels") or {}
            return {k: v for k, v in labels.items() if isinstance(v, str)}
    return {}


def _said(code: str, **params: Any) -> dict[str, Any]:
    """A reply's sentence in the table's language (``message``) and in every shipped language
    (``messages``): the host page shows its own."""
    return {"message": message(code, **params),
            "messages": {lang: message(code, lang, **params) for lang in LANGUAGES}}  # fmt: skip


def _in_every_language(code: str, text: str, device: str, params: dict[str, Any]) -> dict[str, str]:
    """A device notice's sentence in every shipped language (a page shows its own; ``text``,
    the table's language, stands in for one that cannot be built)."""
    full = {"device": device, "who": device, **params}
    out = {}
    for lang in LANGUAGES:
        try:
            out[lang] = message(code, lang, **full)
        except Exception:  # a notice must never fail the hub's call
            out[lang] = text
    return out
