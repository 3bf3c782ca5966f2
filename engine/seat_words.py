"""A family's colour as a seat name: the word a table, its pages, its log and its camera's
stickers call a seat by, when a group's own box names its families' colours (``SEAT_COLOURS``).

A box's data may print a colour as the group reads it ("Dark Blue", "żółty"); a seat name is a
plain lower-case word (the pages name seats in sentences by such words), so the colour becomes
``darkblue``, ``zolty``. One rule for the referee's seats and a game's camera profile, so the
seats a table takes and the stickers its camera reads name the same colours.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

SEAT_WORD = re.compile(r"[a-z]{2,20}")
"""A seat name made from a colour."""


def seat_word(colour: str) -> str:
    """A colour as a plain lower-case word: spaces and marks dropped (``Żółty`` is ``zolty``);
    it may still not be a seat name (``SEAT_WORD``): too short, say."""
    plain = unicodedata.normalize("NFKD", colour.lower().replace("ł", "l"))
    return re.sub(r"[^a-z]", "", plain.encode("ascii", "ignore").decode("ascii"))[:20]


def seat_words(colours: Iterable[str]) -> tuple[str, ...]:
    """Each colour as its seat name, in order; empty when one makes no seat name or two make
    the same one (the table then keeps its usual seat names)."""
    words = tuple(seat_word(c) for c in colours)
    if len(set(words)) != len(words) or not all(SEAT_WORD.fullmatch(w) for w in words):
        return ()
    return words
