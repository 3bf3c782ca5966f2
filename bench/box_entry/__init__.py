"""How long a group takes to enter its own box (issue #24, "Aim": a whole map in under 45
minutes, a deck or a game's Knights in far less than the hours typing them by hand takes).

One benchmark for every game with data, one time model: the clicks and keystrokes a group needs
on the "Your box" page are counted, per part it enters, and a time is estimated from them with
the Keystroke-Level Model (Card, Moran and Newell; the usual textbook values, stated once here).
A benchmark, not a test: nothing here is asserted and no clock is read.

What is counted, per kind of entry (each in its own module of this package):

- :mod:`.trace`: a board traced on a photo, counted from the browser test's scripted user
  (``tests/box/entry_<game>.py``), so what is estimated is what is tested;
- :mod:`.picker`: cards whose effects are a vocabulary (``EFFECT_VOCABULARY``), built with the
  effect picker, over every card of the game's complete shipped set;
- :mod:`.forms`: everything else in the schema-driven form (JSON Editor), from the ``box`` set
  (what the rulebooks give) to the complete one.

The core names no game: games are found by key through the registry, and the hand-typing
figures the issue gives live in ``tests/box/entry_by_hand.py``. Usage::

    python -m bench.box_entry GAME [--json]
    python -m bench.box_entry --all [--json]
"""

from __future__ import annotations

from dataclasses import dataclass

POINT_AND_CLICK_S = 1.1 + 0.2
"""Point at a spot on the screen (KLM "P", 1.1 s) and click it (0.2 s, press and release)."""
KEYSTROKE_S = 0.28
"""One keystroke of an average non-secretarial typist (KLM "K": 0.28 s)."""
THINK_S = 1.35
"""One mental preparation (KLM "M"): finding the next thing to enter on the components. Taken
once per entry: a Village, a road, a Fief, a card, each effect on it, a form entry."""
AIM_S = 45 * 60
"""The issue's aim for a whole map."""


def actions(kind: str, target: str, text: str) -> tuple[int, int]:
    """(clicks, keystrokes) of one scripted step as a person does it: a field is clicked before
    typing into it (``type``), a list opened and an entry chosen (``choose``, two clicks; a
    radio button or a box: one), a button or a spot on a photo clicked once."""
    if kind == "type":
        return 1, len(text)
    if kind == "choose" and not target.startswith("input"):
        return 2, 0
    return 1, 0


def minutes(clicks: float, keystrokes: float, thoughts: float) -> float:
    """The Keystroke-Level Model's time for so many operations, in minutes."""
    return (clicks * POINT_AND_CLICK_S + keystrokes * KEYSTROKE_S + thoughts * THINK_S) / 60


@dataclass(frozen=True)
class Part:
    """One part a group enters (the traced map, the cards with the picker, the rest in forms):
    how many entries, and the operations they take. ``covers`` names the data file's top-level
    fields the part enters, so no other part counts them again."""

    kind: str
    what: str
    entries: int
    clicks: int
    keystrokes: int
    look_ups: int
    covers: frozenset[str] = frozenset()

    @property
    def minutes(self) -> float:
        return minutes(self.clicks, self.keystrokes, self.look_ups)
