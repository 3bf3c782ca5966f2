"""LED patterns of a seat box, as a pure function of pattern and time.

``your-turn``: steady green. ``waiting``: slow amber blink (1 s period). ``illegal``: fast red
blink (200 ms period) for ``ILLEGAL_MS``, then back to the pattern shown before. ``pairing``:
blue, blinking slowly (2 s period), while the box waits for a pairing code. ``off``: dark.
"""

from firmware.compat import ticks_diff

GREEN = (0, 255, 0)
AMBER = (255, 120, 0)
RED = (255, 0, 0)
BLUE = (0, 60, 255)
DARK = (0, 0, 0)
ILLEGAL_MS = 3000


def color_at(pattern, elapsed_ms):
    """The colour ``pattern`` shows ``elapsed_ms`` after it started."""
    if pattern == "your-turn":
        return GREEN
    if pattern == "waiting":
        return AMBER if (elapsed_ms // 500) % 2 == 0 else DARK
    if pattern == "illegal":
        return RED if (elapsed_ms // 100) % 2 == 0 else DARK
    if pattern == "pairing":
        return BLUE if (elapsed_ms // 1000) % 2 == 0 else DARK
    return DARK


class Led:
    """Drives an RGB output (any object with ``set(r, g, b)``) through the patterns."""

    def __init__(self, rgb):
        self.rgb = rgb
        self.pattern = "off"
        self.base = "off"
        self._start = 0
        self._shown = None

    def show(self, pattern, now):
        if pattern == "illegal":
            if self.pattern != "illegal":
                self.base = self.pattern
        else:
            self.base = pattern
        self.pattern = pattern
        self._start = now

    def update(self, now):
        elapsed = ticks_diff(now, self._start)
        if self.pattern == "illegal" and elapsed >= ILLEGAL_MS:
            self.pattern = self.base
            self._start = now
            elapsed = 0
        color = color_at(self.pattern, elapsed)
        if color != self._shown:
            self._shown = color
            self.rgb.set(color[0], color[1], color[2])
