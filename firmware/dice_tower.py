"""Dice tower: publishes rolls from its sensors, or from manual buttons for plain dice.

Sensor mode: the tower has a break-beam across its chute and a tray that reports the face of
each die (a smart-dice receiver, or pips read by a tray sensor). A roll is counted only when:

1. the beam was broken for at least ``beam_ms`` (something fell through the chute), then
2. every die reports a face and all faces stay unchanged for ``settle_ms`` (a die that topples
   over restarts the wait), within ``max_tumble_ms`` of the drop.

So a die picked up and put back, a tray bumped, or a hand waved over the tray is not a roll:
none of those passes a die through the chute. A drop that never settles is abandoned and
counted in ``false_triggers``.

Manual mode (plain dice, no sensors): one button per die steps its face 1..sides, and a
``send`` button reports the faces the player set.

A pure state machine: the sensor, buttons and store are passed in; the hal builds and runs it.
A tower counts only once paired to the table (with the table's code, :meth:`DiceTower.enter_code`,
or approved on the host page).
"""

from firmware.compat import ticks_diff
from firmware.debounce import Button
from firmware.device import Device

IDLE = 0
FALLING = 1
SETTLING = 2


class RollDetector:
    """Pure roll detection; ``update(beam_broken, faces, now)`` returns faces once per roll.

    ``faces`` is a list with one entry per die: its face value, or None while the die is not
    readable (in the air, picked up, on its edge).
    """

    def __init__(self, count, beam_ms=3, settle_ms=400, max_tumble_ms=4000):
        self.count = count
        self.beam_ms = beam_ms
        self.settle_ms = settle_ms
        self.max_tumble_ms = max_tumble_ms
        self.state = IDLE
        self.false_triggers = 0
        self._beam_since = None
        self._drop_at = 0
        self._faces = None
        self._faces_since = 0

    def update(self, beam_broken, faces, now):
        if beam_broken:
            if self._beam_since is None:
                self._beam_since = now
            elif ticks_diff(now, self._beam_since) >= self.beam_ms:
                self.state = FALLING
                self._drop_at = now
                self._faces = None
            return None
        self._beam_since = None
        if self.state == IDLE:
            return None
        if ticks_diff(now, self._drop_at) > self.max_tumble_ms:
            self.state = IDLE
            self.false_triggers += 1
            return None
        ok = faces is not None and len(faces) == self.count
        if ok:
            for value in faces:
                if value is None:
                    ok = False
        if not ok:
            self.state = FALLING
            self._faces = None
            return None
        faces = list(faces)
        if self._faces != faces:
            self.state = SETTLING
            self._faces = faces
            self._faces_since = now
            return None
        if ticks_diff(now, self._faces_since) >= self.settle_ms:
            self.state = IDLE
            self._faces = None
            return faces
        return None


class DiceTower(Device):
    """Pure dice-tower logic.

    Args:
        dice: List of ``{"sides": n, "color"?: str, "type"?: str}``, one per die.
        sensor: Object with ``read() -> (beam_broken, faces)``, or None for manual mode.
        buttons: Manual mode: dict of pin objects with ``value()``: ``"die0"``, ``"die1"``, …
            and ``"send"``.
    """

    KIND = "dice_tower"

    def __init__(
        self, device_id, dice, store, sensor=None, buttons=None, log=None, battery=None,
        outbox=None,
    ):  # fmt: skip
        Device.__init__(self, device_id, store, log, battery, outbox)
        self.dice = dice
        self.sensor = sensor
        self.detector = RollDetector(len(dice))
        self.pins = buttons or {}
        self.buttons = [Button(name, hold_ms=10**9) for name in sorted(self.pins)]
        self.manual = [1 for _ in dice]

    def poll(self, now):
        if self.sensor is not None:
            beam, faces = self.sensor.read()
            values = self.detector.update(beam, faces, now)
            if values is not None:
                self.roll(values)
        for button in self.buttons:
            if button.update(self.pins[button.name].value(), now) != "press":
                continue
            if button.name == "send":
                self.roll(self.manual)
            elif button.name.startswith("die"):
                i = int(button.name[3:])
                if i < len(self.dice):
                    self.manual[i] = self.manual[i] % self.dice[i]["sides"] + 1

    def set_dice(self, dice):
        """The dice now in play (a smart-dice tray pairs with the dice put in it): their
        number and kinds, as in ``dice``. A roll under way is forgotten."""
        self.dice = dice
        self.detector = RollDetector(len(dice), self.detector.beam_ms, self.detector.settle_ms,
                                     self.detector.max_tumble_ms)  # fmt: skip
        self.manual = [1 for _ in dice]

    def roll(self, values):
        """Report ``values`` (one per die, in ``dice`` order) as one roll."""
        dice = []
        for spec, value in zip(self.dice, values):  # noqa: B905 (no strict= on MicroPython)
            die = {"sides": spec["sides"], "value": value}
            for key in ("color", "type"):
                if spec.get(key):
                    die[key] = spec[key]
            dice.append(die)
        return self.emit({"kind": "dice", "dice": dice})

    def enter_code(self, code):
        """A pairing code entered on the tower (by the hal: a keypad, the USB console)."""
        self.request_pair(code)


def main(argv=None):
    # the hal builds the pins, store and link for this board and runs the class handed to it:
    # it never imports the device modules, so there is no import circle
    from firmware import hal

    return hal.run_dice_tower(DiceTower, argv)


if __name__ == "__main__":
    main()
