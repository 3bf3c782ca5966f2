"""The few clock helpers that differ between MicroPython and CPython.

MicroPython's ``time.ticks_ms`` wraps around, so every duration goes through ``ticks_diff``;
on CPython both are plain integer arithmetic on a monotonic clock.
"""

import time

try:
    ticks_ms = time.ticks_ms  # type: ignore[attr-defined]
    ticks_diff = time.ticks_diff  # type: ignore[attr-defined]
    ticks_add = time.ticks_add  # type: ignore[attr-defined]
    sleep_ms = time.sleep_ms  # type: ignore[attr-defined]
except AttributeError:  # CPython

    def ticks_ms():
        return int(time.monotonic() * 1000)

    def ticks_diff(new, old):
        return new - old

    def ticks_add(ticks, delta):
        return ticks + delta

    def sleep_ms(ms):
        time.sleep(ms / 1000)
