"""Boot epochs, and the queue of events awaiting Herald's ack.

Herald identifies an event by ``(device, boot, seq)``: the device counts its boots in flash (one
write per boot, :class:`BootCounter`) and numbers its events from 1 in every boot, in RAM. Herald
keeps a window per boot and refuses a number far ahead of the window, so the device also starts a
new boot when its seq runs :data:`SEQ_ROLL` past what Herald last acknowledged.

An event stays in the :class:`Outbox` until Herald answers ``ack`` (accepted, or seen before)
or ``nak`` (will never be accepted); until then it is resent with a growing interval. That is
what makes delivery survive a broker restart, a Wi-Fi drop or an unplugged cable. The outbox is
bounded: when it is full the oldest event is dropped, and what was dropped is counted in
:attr:`Outbox.lost` so the device can report it (``kind: "dropped"``) once Herald is reachable:
a loss is never silent.
"""

from firmware.compat import ticks_add, ticks_diff

SEQ_ROLL = 256
"""Start a new boot when the next seq would be this far past the last acknowledged one (Herald
refuses events more than 1024 past its window)."""


class BootCounter:
    """This device's boot epoch; ``store`` has ``load(key) -> str|None`` and ``save(key, str)``.

    Counting up once per start (and on :meth:`bump`) costs one flash write per boot.
    """

    def __init__(self, store, key="boot"):
        self.store = store
        self.key = key
        raw = store.load(key)
        try:
            last = int(raw) if raw else 0
        except ValueError:
            last = 0
        self.boot = 0
        self.bump(last + 1)

    def bump(self, at_least=0):
        """Move to a new boot, at least ``at_least``; returns it."""
        self.boot = max(self.boot + 1, at_least)
        self.store.save(self.key, str(self.boot))
        return self.boot


class Outbox:
    """Unacknowledged events, oldest first, with per-event resend timers.

    ``limit`` bounds RAM: when full, the oldest event is dropped (never a pending drop report
    while another event can go instead) and counted in ``lost`` as ``[count, first, last]``.
    """

    def __init__(self, limit=32, retry_ms=1000, max_retry_ms=8000):
        self.limit = limit
        self.retry_ms = retry_ms
        self.max_retry_ms = max_retry_ms
        self.items = []  # [seq, msg, next_due_ms or None, interval_ms]
        self.dropped = 0
        self.lost = None  # [count, first seq, last seq] not yet reported

    def __len__(self):
        return len(self.items)

    def add(self, seq, msg):
        if len(self.items) >= self.limit:
            self._drop_one()
        self.items.append([seq, msg, None, self.retry_ms])

    def _drop_one(self):
        victim = 0
        for i, item in enumerate(self.items):
            if item[1].get("kind") != "dropped":
                victim = i
                break
        item = self.items.pop(victim)
        self.dropped += 1
        msg = item[1]
        if msg.get("kind") == "dropped":  # a report that could not go either: fold it back in
            self._count_lost(msg.get("count", 0), msg.get("first"), msg.get("last"))
        else:
            self._count_lost(1, item[0], item[0])

    def _count_lost(self, count, first, last):
        if self.lost is None:
            self.lost = [count, first, last]
            return
        self.lost[0] += count
        if first is not None and (self.lost[1] is None or first < self.lost[1]):
            self.lost[1] = first
        if last is not None and (self.lost[2] is None or last > self.lost[2]):
            self.lost[2] = last

    def report_due(self):
        """A drop report may be made now: something was lost, no report is pending, and there
        is room for one."""
        if self.lost is None or len(self.items) >= self.limit:
            return False
        return all(item[1].get("kind") != "dropped" for item in self.items)

    def take_lost(self):
        lost, self.lost = self.lost, None
        return lost

    def due(self, now):
        """Events to send now; each is rescheduled with a doubled interval (capped)."""
        out = []
        for item in self.items:
            if item[2] is None or ticks_diff(now, item[2]) >= 0:
                out.append((item[0], item[1]))
                item[2] = ticks_add(now, item[3])
                item[3] = min(item[3] * 2, self.max_retry_ms)
        return out

    def settle(self, seq, boot=0):
        """Herald acked or nakked ``(boot, seq)``: forget it. True if it was pending."""
        for i, item in enumerate(self.items):
            if item[0] == seq and item[1].get("boot", 0) == boot:
                self.items.pop(i)
                return True
        return False

    def resend_all(self):
        """After a reconnect, everything pending goes out at once."""
        for item in self.items:
            item[2] = None
            item[3] = self.retry_ms
