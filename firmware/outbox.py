"""Sequence numbers that survive reboots, and the queue of events awaiting Herald's ack.

Herald drops any ``(device, seq)`` it has seen, so a device must never reuse a seq, even after
a power cut. Writing flash on every event would wear it out; instead the counter reserves a block
of ``block`` seqs in one write and uses them from RAM. After a reboot the device skips the rest
of the block, which only leaves a harmless gap.

An event stays in the :class:`Outbox` until Herald answers ``ack`` (accepted, or seen before)
or ``nak`` (will never be accepted); until then it is resent with a growing interval. That is
what makes delivery survive a broker restart, a Wi-Fi drop or an unplugged cable.
"""

from firmware.compat import ticks_add, ticks_diff


class SeqCounter:
    """Next seq for this device; ``store`` has ``load(key) -> str|None`` and ``save(key, str)``."""

    def __init__(self, store, key="seq", block=64):
        self.store = store
        self.key = key
        self.block = block
        raw = store.load(key)
        try:
            self.reserved = int(raw) if raw else 0
        except ValueError:
            self.reserved = 0
        self.last = self.reserved
        self._reserve()

    def _reserve(self):
        self.reserved = self.last + self.block
        self.store.save(self.key, str(self.reserved))

    def next(self):
        self.last += 1
        if self.last >= self.reserved:
            self._reserve()
        return self.last


class Outbox:
    """Unacknowledged events, oldest first, with per-event resend timers.

    ``limit`` bounds RAM: when full, the oldest event is dropped and counted in ``dropped``.
    """

    def __init__(self, limit=32, retry_ms=1000, max_retry_ms=8000):
        self.limit = limit
        self.retry_ms = retry_ms
        self.max_retry_ms = max_retry_ms
        self.items = []  # [seq, msg, next_due_ms or None, interval_ms]
        self.dropped = 0

    def __len__(self):
        return len(self.items)

    def add(self, seq, msg):
        if len(self.items) >= self.limit:
            self.items.pop(0)
            self.dropped += 1
        self.items.append([seq, msg, None, self.retry_ms])

    def due(self, now):
        """Events to send now; each is rescheduled with a doubled interval (capped)."""
        out = []
        for item in self.items:
            if item[2] is None or ticks_diff(now, item[2]) >= 0:
                out.append((item[0], item[1]))
                item[2] = ticks_add(now, item[3])
                item[3] = min(item[3] * 2, self.max_retry_ms)
        return out

    def settle(self, seq):
        """Herald acked or nakked ``seq``: forget it. True if it was pending."""
        for i, item in enumerate(self.items):
            if item[0] == seq:
                self.items.pop(i)
                return True
        return False

    def resend_all(self):
        """After a reconnect, everything pending goes out at once."""
        for item in self.items:
            item[2] = None
            item[3] = self.retry_ms
