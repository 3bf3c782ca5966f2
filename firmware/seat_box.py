"""Seat button box: three debounced buttons (confirm, pass, undo) and an RGB LED.

Run on a board with ``import firmware.seat_box as s; s.main()`` (see firmware/README.md), or on
CPython as a virtual device::

    python -m firmware.seat_box --mqtt mqtt://localhost:1883 --device seat-red --seat red
    python -m firmware.seat_box --serial /dev/pts/5 --device seat-red --seat red
"""

from firmware.debounce import Button
from firmware.device import Device
from firmware.led import Led
from firmware.wire import BUTTONS, LED_PATTERNS


class SeatBox(Device):
    """Pure seat-box logic: ``pins`` maps button name → object with ``value()``; ``rgb`` has
    ``set(r, g, b)``. Nothing here touches hardware or the network directly."""

    KIND = "seat_box"

    def __init__(self, device_id, seat, pins, rgb, store, log=None, battery=None, hold_ms=800):
        Device.__init__(self, device_id, store, log, battery)
        self.seat = seat
        self.pins = pins
        self.buttons = [Button(name, hold_ms=hold_ms) for name in BUTTONS if name in pins]
        self.led = Led(rgb)

    def poll(self, now):
        for button in self.buttons:
            action = button.update(self.pins[button.name].value(), now)
            if action is not None:
                self.emit(
                    {"kind": "button", "seat": self.seat, "button": button.name, "action": action}
                )
        self.led.update(now)

    def on_led(self, pattern, now):
        if pattern in LED_PATTERNS:
            self.led.show(pattern, now)
            self.log("led " + pattern)

    def on_nak(self, seq, code, now):
        # Herald refused our own message: show it rather than fail silently.
        self.led.show("illegal", now)


def main(argv=None):
    # the hal builds the pins, store and link for this board and runs the class handed to it
    from firmware import hal

    return hal.run_seat_box(SeatBox, argv)


if __name__ == "__main__":
    main()
