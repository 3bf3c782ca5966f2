"""How long a group takes to enter its own box (issue #24, "Aim": a whole map in under 45
minutes, a deck or a game's Knights in far less than the working day typing them by hand
takes): the clicks and keystrokes a scripted user needs, counted, and a time estimated from them
with the Keystroke-Level Model. A benchmark, not a test: nothing here is asserted, and no clock
is read.

Each game's counting lives beside the browser test whose script it counts
(``tests/box/entry_<game>.py``, its ``entry()``), so what is estimated is what is tested; this
module holds what they share (the time per operation, how a step is done) and the command line.
The core names no game: a game is found by the key given.

Usage::

    python -m bench.box_entry GAME          # the counts and the estimate
    python -m bench.box_entry GAME --json
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence
from typing import Any

# Keystroke-Level Model times (Card, Moran and Newell; the usual textbook values): the time a
# person takes per operation, not a measurement of Herald.
POINT_AND_CLICK_S = 1.1 + 0.2
"""Point at a spot on the screen (1.1 s) and click it (0.2 s, press and release)."""
KEYSTROKE_S = 0.28
"""One keystroke of an average non-secretarial typist (KLM: 0.28 s)."""
THINK_S = 1.35
"""One mental preparation (KLM "M"): finding the next thing to enter on the components."""
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


def entry(game: str) -> tuple[dict[str, Any], list[str]]:
    """A game's counts and their lines of text (``tests/box/entry_<game>.py``).

    Raises:
        LookupError: no scripted entry is counted for the game.
    """
    name = "tests.box.entry_" + game.replace("-", "_")
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        raise LookupError(f"no scripted box entry is counted for {game!r} ({name})") from exc
    found, lines = module.entry()
    return dict(found), list(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="the game's key")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    args = parser.parse_args(argv)
    try:
        found, lines = entry(args.game)
    except LookupError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(json.dumps(found, indent=2, ensure_ascii=False) if args.json else "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
