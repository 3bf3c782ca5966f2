"""Debounced push buttons that tell a short press from a long hold.

A pure state machine in the style of micropython-async's ``Pushbutton``: the caller samples the
pin and passes the level and the time, so tests drive it with exact timings and no hardware.
"""

from firmware.compat import ticks_diff


class Button:
    """One button.

    ``update(level, now_ms)`` returns ``"press"`` on release of a short press, ``"hold"`` once
    when held past ``hold_ms``, else None. A level must stay unchanged for ``debounce_ms``
    before it counts, so contact bounce and brief glitches produce nothing.
    """

    def __init__(self, name, active_low=True, debounce_ms=30, hold_ms=800):
        self.name = name
        self.active_low = active_low
        self.debounce_ms = debounce_ms
        self.hold_ms = hold_ms
        self.pressed = False
        self._candidate = False
        self._since = None
        self._down_at = 0
        self._held = False

    def update(self, level, now):
        active = (not level) if self.active_low else bool(level)
        if self._since is None or active != self._candidate:
            self._candidate = active
            self._since = now
        elif active != self.pressed and ticks_diff(now, self._since) >= self.debounce_ms:
            self.pressed = active
            if active:
                self._down_at = now
                self._held = False
            elif not self._held:
                return "press"
        if self.pressed and not self._held and ticks_diff(now, self._down_at) >= self.hold_ms:
            self._held = True
            return "hold"
        return None
