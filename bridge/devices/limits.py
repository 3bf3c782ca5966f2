"""Bounds on what device traffic may cost Herald: rate limits per device id and quiet logs.

A device channel is open to anything on the LAN that can reach the broker or a cable, so every
per-id structure here is bounded (:class:`KeyedBuckets` forgets the least recently used ids past
its size) and every repeated log line is folded (:class:`LogLimiter`): 64 KiB of line noise or
1,500 invented device ids cost a few log lines and a fixed amount of memory, not one line and
one record each. Clocks are injected so tests need no sleeping.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from engine.i18n import message

Clock = Callable[[], float]


@dataclass
class TokenBucket:
    """``rate`` tokens per second up to ``burst``; :meth:`take` spends one if there is one."""

    rate: float
    burst: float
    tokens: float = -1.0
    stamp: float = 0.0

    def take(self, now: float) -> bool:
        if self.tokens < 0:  # a new bucket starts full
            self.tokens, self.stamp = self.burst, now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class KeyedBuckets:
    """A token bucket per key (a device id), at most ``size`` of them (least recently used go).

    Forgetting a key's bucket only refills it, so an attacker cycling through many ids gains
    nothing over one id: each new id also spends from the shared ``overall`` bucket, when given.
    """

    def __init__(
        self,
        rate: float,
        burst: float,
        *,
        size: int = 256,
        overall: TokenBucket | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        self.rate, self.burst, self.size = rate, burst, size
        self.overall = overall
        self._clock = clock
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()
        self._lock = threading.Lock()

    def allow(self, key: str) -> bool:
        """Whether one more message from ``key`` may be handled now."""
        now = self._clock()
        with self._lock:
            bucket = self._buckets.pop(key, None) or TokenBucket(self.rate, self.burst)
            self._buckets[key] = bucket
            while len(self._buckets) > self.size:
                self._buckets.popitem(last=False)
            if not bucket.take(now):
                return False
            return self.overall is None or self.overall.take(now)

    def __len__(self) -> int:
        return len(self._buckets)


class LogLimiter:
    """At most one log line per key every ``interval`` seconds; the rest are counted and the
    count is told with the next line that gets through (``... and 57 more like it``).

    Keys are bounded too (``max_keys``, oldest forgotten), so invented keys cannot grow it.
    """

    def __init__(
        self,
        logger: logging.Logger,
        *,
        interval: float = 10.0,
        max_keys: int = 64,
        clock: Clock = time.monotonic,
    ) -> None:
        self.logger = logger
        self.interval = interval
        self.max_keys = max_keys
        self._clock = clock
        self._seen: OrderedDict[str, tuple[float, int]] = OrderedDict()
        self._lock = threading.Lock()

    def allow(self, key: str) -> int | None:
        """None when ``key`` had its line less than ``interval`` s ago (this one is counted);
        else how many were held back since, and the caller may speak now."""
        now = self._clock()
        with self._lock:
            last, held = self._seen.pop(key, (None, 0))
            if last is not None and now - last < self.interval:
                self._seen[key] = (last, held + 1)
                return None
            self._seen[key] = (now, 0)
            while len(self._seen) > self.max_keys:
                self._seen.popitem(last=False)
            return held

    def log(self, level: int, key: str, text: str) -> bool:
        """Log ``text`` unless a line of ``key`` went out less than ``interval`` s ago; True
        when it was logged."""
        held = self.allow(key)
        if held is None:
            return False
        if held:
            text = message("devices/log-more", text=text, count=held, seconds=round(self.interval))
        self.logger.log(level, "%s", text)
        return True

    def warning(self, key: str, text: str) -> bool:
        return self.log(logging.WARNING, key, text)

    def info(self, key: str, text: str) -> bool:
        return self.log(logging.INFO, key, text)
