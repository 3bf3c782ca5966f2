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
- **Panel.** Registry changes and rolls are pushed to the table room as ``devices``.

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
from engine import codec
from engine.game import TABLE, is_pass
from engine.game import dice_move as game_dice_move
from engine.i18n import message
from engine.violations import InputError, RuleViolation

from .dedup import DedupStore
from .hub import DeviceHub
from .protocol import ButtonPress, DeviceEvent, DiceRoll
from .registry import DeviceRecord

log = logging.getLogger(__name__)

LAST_ROLLS = 6
"""How many recent rolls the table display keeps."""

PANEL_INTERVAL = 0.2
"""Seconds between two ``devices`` pushes at most (heartbeats would otherwise flood the room)."""

ILLEGAL_SECONDS = 3.2
"""The firmware flashes ``illegal`` for 3 s; then Herald restores the remembered turn pattern."""

_SOURCE = re.compile(r"(?:@|^device:)(?P<device>[A-Za-z0-9_-]{1,64})#(?P<seq>\d+)$")

Emit = Callable[[str, dict[str, Any], str], None]
"""``emit(event, payload, room)``: how the panel and refusals reach Socket.IO rooms."""


@dataclass(frozen=True)
class DevicePrincipal(Principal):
    """A seat acting through its seat box: the seat's rights, a source naming device and seq."""

    device: str = ""
    seq: int = 0

    @property
    def source(self) -> str:
        return f"seat:{self.seat}@{self.device}#{self.seq}"


def seat_box_id(seat: str) -> str:
    """The default device id of a seat's box (``seat-blue``); a press also binds its device."""
    return f"seat-{seat}"


class TableDevices:
    """The hub's sink and a referee transport; see the module docstring.

    Args:
        referee: The table's referee.
        dedup: Durable ``(device, seq)`` store for the hub.
        note: A catalog sentence for the panel saying where the devices are (or why offline).
    """

    def __init__(self, referee: Referee, dedup: DedupStore, note: str | None = None) -> None:
        self.referee = referee
        self.hub = DeviceHub(dedup, self.on_event)
        self.note = note
        self.rolls: deque[dict[str, Any]] = deque(maxlen=LAST_ROLLS)
        self._emit: Emit | None = None
        self._room = "table"
        self._seat_room: Callable[[str], str] = lambda seat: f"seat:{seat}"
        self._bound: dict[str, str] = {}  # device → seat, learnt from presses
        self._leds: dict[str, str] = {}  # device → the turn pattern last sent
        self._restore: dict[str, float] = {}  # device → when to end an illegal flash
        self._jobs: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._panel_due = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.hub.registry.subscribe(self._registry_changed)

    # --- wiring ------------------------------------------------------------------------------

    def reconcile(self) -> int:
        """Mark every ``(device, seq)`` the session's stored events name; returns how many new."""
        fixed = 0
        for stored in self.referee.store.events(self.referee.row.id):
            found = _SOURCE.search(stored.source)
            if found and self.hub.dedup.mark(found["device"], int(found["seq"])):
                fixed += 1
        return fixed

    def connect(
        self, emit: Emit, table_room: str = "table", seat_room: Callable[[str], str] | None = None
    ) -> None:
        """Where panel pushes (``table_room``) and refusals (the seat's room) are emitted."""
        self._emit, self._room = emit, table_room
        if seat_room is not None:
            self._seat_room = seat_room

    def attach_web(self, socketio: Any, table_room: str, seat_room: Callable[[str], str]) -> None:
        """Push the panel to ``table_room``; answer a client's ``devices`` request with it."""

        def emit(event: str, payload: dict[str, Any], room: str) -> None:
            socketio.emit(event, payload, to=room)

        self.connect(emit, table_room, seat_room)

        def on_devices(*_: Any) -> dict[str, Any]:
            return self.panel()

        socketio.on_event("devices", on_devices)

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
        self._panel_due.set()
        self._jobs.put(("panel", None))

    def panel(self) -> dict[str, Any]:
        """The table display's device panel: registry, last rolls (newest first), the note."""
        return {
            "devices": [r.to_json() for r in self.hub.devices()],
            "rolls": list(reversed(self.rolls)),
            "note": self.note,
        }

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

    def _roll(self, event: DiceRoll) -> None:
        referee = self.referee
        dice = [d.to_json() for d in event.dice]
        values = [d.value for d in event.dice]
        shown = " ".join(str(v) for v in values)
        code = "devices/roll-unused"
        detail = ""
        with referee.locked():
            state = referee.session.state
            if TABLE in referee.game.to_act(state):
                try:
                    move = game_dice_move(referee.game, state, dice)
                except (RuleViolation, InputError) as exc:  # dice no step can take: refused
                    move, code = None, "devices/roll-refused"
                    detail = "; ".join(
                        v.text(referee.lang) for v in getattr(exc, "violations", ())
                    ) or str(exc)
                if move is not None:
                    source = f"device:{event.device}#{event.seq}"
                    outcome = referee.observe(source, codec.encode(move), referee.state_id)
                    code = "devices/roll-used" if outcome.ok else "devices/roll-refused"
                    detail = outcome.message or (
                        outcome.violations[0]["message"] if outcome.violations else ""
                    )
            text = message(code, device=event.device, values=shown, detail=detail)
            payload = {
                "device": event.device,
                "seq": event.seq,
                "dice": dice,
                "values": values,
                "used": code == "devices/roll-used",
                "text": text,
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
        if self._bound.get(event.device) != seat:
            self._bound[event.device] = seat
            self._jobs.put(("turn", referee.current()))  # a box with another id: light it now
        principal = DevicePrincipal("seat", seat, device=event.device, seq=event.seq)
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
        self._panel_due.set()
        self._jobs.put(("panel", None))

    # --- the worker thread ---------------------------------------------------------------------

    def _devices_of(self, seat: str) -> set[str]:
        found = {d for d, s in list(self._bound.items()) if s == seat}
        found.add(seat_box_id(seat))
        return found

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
                    if self._emit is not None:
                        self._emit("devices", self.panel(), self._room)
            except Exception:  # the worker must outlive a bad emit or a closed transport
                log.exception("device worker failed on %s", kind)

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
