"""Seat button box: three debounced buttons (confirm, pass, undo) and an RGB LED.

A pure state machine: pins, the LED and the store are passed in, and the hal (``hal_host.py`` on
a computer, ``hal_mpy.py`` on a board) builds it and runs it with a link. While the box is not
paired its buttons enter the pairing code shown on the table display (1 confirm, 2 pass,
3 undo; a hold starts over) and its LED shows ``pairing``; once paired they are the seat's.
"""

from firmware.debounce import Button
from firmware.device import Device
from firmware.led import Led
from firmware.wire import BUTTONS, LED_PATTERNS


class SeatBox(Device):
    """Pure seat-box logic: ``pins`` maps button name → object with ``value()``; ``rgb`` has
    ``set(r, g, b)``. Nothing here touches hardware or the network directly.

    ``seat`` is the seat the box was set up for, used until Herald says what it is paired to.
    """

    KIND = "seat_box"

    def __init__(
        self, device_id, seat, pins, rgb, store, log=None, battery=None, hold_ms=800, outbox=None
    ):
        Device.__init__(self, device_id, store, log, battery, outbox)
        self.seat = seat
        if self.pairing is not None and self.pairing.startswith("seat:"):
            self.seat = self.pairing[5:]
        elif self.pairing is None and seat:
            self.pairing = "seat:" + seat  # set up for a seat: Herald says if it is paired
        self.pins = pins
        self.buttons = [Button(name, hold_ms=hold_ms) for name in BUTTONS if name in pins]
        self.led = Led(rgb)
        if self.wants_code():
            self.led.show("pairing", 0)

    def poll(self, now):
        for button in self.buttons:
            action = button.update(self.pins[button.name].value(), now)
            if action is None:
                continue
            if self.wants_code():
                if action == "hold":
                    self.code.clear()
                    continue
                code = self.code.press(button.name)
                if code is not None:
                    self.request_pair(code)
            else:
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

    def on_paired(self, role, seat, now):
        if role == "seat" and seat:
            self.seat = seat
        self.led.show("off", now)

    def on_unpaired(self, code, now):
        if code and code != "devices/not-paired":
            self.led.show("illegal", now)  # a wrong code: flash, then back to pairing
            self.led.base = "pairing"
        else:
            self.led.show("pairing", now)
        self.log("led pairing")


def main(argv=None):
    # the hal builds the pins, store and link for this board and runs the class handed to it
    from firmware import hal

    return hal.run_seat_box(SeatBox, argv)


if __name__ == "__main__":
    main()
