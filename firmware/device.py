"""What every table device shares: identity, seq counter, outbox and Herald's commands."""

from firmware.outbox import Outbox, SeqCounter
from firmware.wire import FW_VERSION, PROTO


class Device:
    """Base of :class:`~firmware.seat_box.SeatBox` and :class:`~firmware.dice_tower.DiceTower`.

    Subclasses implement ``poll(now)`` (sample inputs, call :meth:`emit`) and may override
    :meth:`on_led`. ``log`` is any callable taking one string (``print`` on the host).
    """

    KIND = "device"

    def __init__(self, device_id, store, log=None, battery=None):
        self.device_id = device_id
        self.seqs = SeqCounter(store)
        self.outbox = Outbox()
        self.log = log or (lambda text: None)
        self.battery = battery

    def hello(self):
        msg = {
            "t": "hello",
            "v": PROTO,
            "device": self.device_id,
            "device_kind": self.KIND,
            "fw": FW_VERSION,
            "proto": PROTO,
        }
        if self.battery is not None:
            msg["battery"] = self.battery
        return msg

    def heartbeat(self):
        msg = {"t": "hb", "v": PROTO, "device": self.device_id}
        if self.battery is not None:
            msg["battery"] = self.battery
        return msg

    def emit(self, fields):
        """Queue a new event built from ``fields`` (``kind`` and its payload)."""
        seq = self.seqs.next()
        msg = {"v": PROTO, "device": self.device_id, "seq": seq}
        msg.update(fields)
        self.outbox.add(seq, msg)
        self.log("event %d %s" % (seq, fields.get("kind")))
        return seq

    def on_command(self, msg, now):
        """Handle one Herald → device message (``ack``, ``nak``, ``led``); ignore the rest."""
        kind = msg.get("t")
        if kind == "ack" or kind == "nak":
            seq = msg.get("seq")
            if self.outbox.settle(seq):
                self.log("%s %s" % ("acked" if kind == "ack" else "nakked", seq))
            if kind == "nak":
                self.on_nak(seq, msg.get("code"), now)
        elif kind == "led":
            pattern = msg.get("pattern")
            self.on_led(pattern, now)

    def on_led(self, pattern, now):
        pass

    def on_nak(self, seq, code, now):
        pass

    def poll(self, now):
        pass
