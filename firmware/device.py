"""What every table device shares: identity, boot and seq, outbox, pairing, Herald's commands."""

from firmware.compat import ticks_add, ticks_diff
from firmware.outbox import SEQ_ROLL, BootCounter, Outbox
from firmware.pairing import CodeEntry
from firmware.wire import FW_VERSION, PROTO


class Device:
    """Base of :class:`~firmware.seat_box.SeatBox` and :class:`~firmware.dice_tower.DiceTower`.

    Subclasses implement ``poll(now)`` (sample inputs, call :meth:`emit`) and may override
    :meth:`on_led`, :meth:`on_paired`, :meth:`on_unpaired`. ``log`` is any callable taking one
    string (``print`` on the host).

    Pairing: Herald counts a device's events only once the host paired it (docs/devices.md,
    "Pairing"). Herald says ``paired`` (with the seat, or the table) or ``unpaired``; the device
    keeps the last word in ``store`` under ``pair`` (``seat:<seat>``, ``table`` or ``none``) and,
    while unpaired, takes a pairing code (:meth:`request_pair`) instead of sending events.

    A pairing request is sent again every :data:`PAIR_RESEND_MS` until Herald answers it (a
    request published before Herald listened is otherwise lost), and after the wait Herald names
    when it answers ``devices/pair-wait``. Whenever Herald's answer changes what the device is
    paired to, the digits entered so far are dropped: a code is entered whole in one state.
    """

    PAIR_RESEND_MS = 3000

    KIND = "device"

    def __init__(self, device_id, store, log=None, battery=None, outbox=None):
        self.device_id = device_id
        self.store = store
        self.boots = BootCounter(store)
        self.seq = 0
        self.acked_high = 0
        self.outbox = outbox if outbox is not None else Outbox()  # an empty one is falsy
        self.log = log or (lambda text: None)
        self.battery = battery
        self.pairing = store.load("pair")
        self.code = CodeEntry()
        self.control = []  # messages for Herald outside the outbox (pairing requests)
        self.pair_request = None  # the request not answered yet
        self.pair_requests = 0  # codes entered since start (the host hal checks an entry took)
        self.pair_due = None  # when to send it (again); None: at once

    @property
    def boot(self):
        return self.boots.boot

    def wants_code(self):
        """True while unpaired: Herald said so (or nothing paired this device yet)."""
        return self.pairing is None or self.pairing == "none"

    def hello(self):
        msg = {
            "t": "hello",
            "v": PROTO,
            "device": self.device_id,
            "device_kind": self.KIND,
            "fw": FW_VERSION,
            "proto": PROTO,
            "boot": self.boot,
        }
        if self.battery is not None:
            msg["battery"] = self.battery
        return msg

    def heartbeat(self):
        msg = {"t": "hb", "v": PROTO, "device": self.device_id}
        if self.battery is not None:
            msg["battery"] = self.battery
        return msg

    def new_boot(self, at_least=0):
        """Number events afresh in a new boot (seq far ahead of the acks, or Herald said this
        boot is stale)."""
        self.boots.bump(at_least)
        self.seq = 0
        self.acked_high = 0
        self.log("boot %d" % self.boot)

    def emit(self, fields):
        """Queue a new event built from ``fields`` (``kind`` and its payload)."""
        if self.seq + 1 - self.acked_high > SEQ_ROLL:
            self.new_boot()
        self.seq += 1
        seq = self.seq
        msg = {"v": PROTO, "device": self.device_id, "boot": self.boot, "seq": seq}
        msg.update(fields)
        self.outbox.add(seq, msg)
        self.log("event %d %s" % (seq, fields.get("kind")))
        return seq

    def pump(self):
        """Herald is reachable: report what the outbox had to drop (as an event of its own)."""
        if not self.outbox.report_due():
            return None
        count, first, last = self.outbox.take_lost()
        fields = {"kind": "dropped", "count": count}
        if first is not None:
            fields["first"] = first
        if last is not None:
            fields["last"] = last
        self.log("dropped %d" % count)
        return self.emit(fields)

    def request_pair(self, code):
        """Send Herald the pairing ``code`` a person entered (until Herald answers it)."""
        self.pair_request = {"t": "pair", "v": PROTO, "device": self.device_id, "code": code,
                             "device_kind": self.KIND}  # fmt: skip
        self.pair_requests += 1
        self.pair_due = None
        self.log("pair " + code)

    def take_control(self, now=0):
        """Messages for Herald now: the pairing request when it is due (again)."""
        out, self.control = self.control, []
        if self.pair_request is not None and (
            self.pair_due is None or ticks_diff(now, self.pair_due) >= 0
        ):
            out.append(self.pair_request)
            self.pair_due = ticks_add(now, self.PAIR_RESEND_MS)
        return out

    def on_command(self, msg, now):
        """Handle one Herald → device message; ignore what it does not know."""
        kind = msg.get("t")
        if kind == "ack" or kind == "nak":
            seq = msg.get("seq")
            boot = msg.get("boot", 0)
            if self.outbox.settle(seq, boot):
                self.log("%s %s" % ("acked" if kind == "ack" else "nakked", seq))
            if kind == "ack" and boot == self.boot and isinstance(seq, int):
                self.acked_high = max(self.acked_high, seq)
            if kind == "nak":
                code = msg.get("code")
                if code == "devices/stale-boot" and isinstance(msg.get("newest"), int):
                    self.new_boot(msg["newest"] + 1)
                self.on_nak(seq, code, now)
        elif kind == "led":
            self.on_led(msg.get("pattern"), now)
        elif kind == "paired":
            role, seat = msg.get("role"), msg.get("seat")
            value = "seat:" + seat if role == "seat" and isinstance(seat, str) else "table"
            if value != self.pairing:
                self.pairing = value
                self.store.save("pair", value)
            self.code.clear()
            self.pair_request = None
            self.log("paired " + value)
            self.on_paired(role, seat, now)
        elif kind == "unpaired":
            code = msg.get("code")
            if code == "devices/pair-wait" and self.pair_request is not None:
                wait = msg.get("retry_ms")
                wait = wait if isinstance(wait, int) and 0 < wait <= 600000 else 5000
                self.pair_due = ticks_add(now, wait)  # ask again once Herald will look at it
                self.log("pair wait %d" % wait)
                return
            answer = code not in (None, "devices/not-paired")  # to a pairing request
            if self.pairing != "none":
                self.pairing = "none"
                self.store.save("pair", "none")
                answer = True
            if answer:
                self.code.clear()  # digits pressed before this answer belong to no code
                self.pair_request = None
            self.log("unpaired")
            self.on_unpaired(code, now)

    def on_led(self, pattern, now):
        pass

    def on_nak(self, seq, code, now):
        pass

    def on_paired(self, role, seat, now):
        pass

    def on_unpaired(self, code, now):
        pass

    def poll(self, now):
        pass
