"""How long a group takes to enter its own box (issue #24, "Aim": a whole France 1429 map in under
45 minutes, against 1.5-2 h typing the map file by hand): the clicks and keystrokes a scripted
user needs, counted, and a time estimated from them. A benchmark, not a test: nothing here is
asserted, and no clock is read.

One function per game (``GAMES``); each counts the steps of the very script its browser test
plays, so what is estimated is what is tested:

- ``france1429``: the tracing of tests/box/test_server_box_trace_play.py (``tests/box/traced.py``):
  a 20-Village invented map, counted per Village, per road and per Fief, then scaled to the
  largest map the rules allow.

Usage::

    python -m bench.box_entry france1429          # the counts and the estimate
    python -m bench.box_entry france1429 --json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from tests.box.traced import Step, script, traced_map

# Keystroke-Level Model times (Card, Moran and Newell; the usual textbook values): the time a
# person takes per operation, not a measurement of Herald.
POINT_AND_CLICK_S = 1.1 + 0.2
"""Point at a spot on the screen (1.1 s) and click it (0.2 s, press and release)."""
KEYSTROKE_S = 0.28
"""One keystroke of an average non-secretarial typist (KLM: 0.28 s)."""
THINK_S = 1.35
"""One mental preparation (KLM "M"): finding the next Village on the board, the next road."""

MAX_VILLAGES = 32
"""8 Fiefs of at most 4 Villages (digest §3.1: a Duchy has 4; "between 16 and 32" Villages)."""
MAX_ROADS = 3 * MAX_VILLAGES - 6
"""The rules bound no road count; a road map drawn on a board without crossings (a planar graph)
has at most 3V - 6 roads: 90 for 32 Villages. A real board has far fewer."""
FIEFS = 8
RULEBOOK_NAMES = (
    "Sigy", "St Paul", "St Ciers d'Abzac", "Beaujeu", "Bourg", "Blaye", "Tournus", "St Gérôme",
    "Charolles", "L'Épervier", "St Médard", "Mazilles",
)  # fmt: skip
"""The Village names the rulebooks give (digest §3.2): their length stands for a name typed."""
BY_HAND_S = (90 * 60, 120 * 60)
"""Typing the map file by hand with the board at hand: 1.5-2 h (issue #24)."""
AIM_S = 45 * 60


def actions(step: Step) -> tuple[int, int]:
    """(clicks, keystrokes) of one step as a person does it: a field is clicked before typing
    into it, a list opened and an entry chosen (two clicks), a button, a box or a spot on the
    photo clicked once."""
    if step.kind == "type":
        return 1, len(step.text)
    if step.kind == "choose" and not step.target.startswith("input"):
        return 2, 0
    return 1, 0


def france1429() -> dict[str, Any]:
    """The tracing script's clicks and keystrokes, per part, and the estimate for the largest
    map (``MAX_VILLAGES`` Villages, ``MAX_ROADS`` roads, ``FIEFS`` Fiefs)."""
    doc = traced_map()
    steps = script(doc)
    clicks: Counter[str] = Counter()
    keys: Counter[str] = Counter()
    for step in steps:
        c, k = actions(step)
        clicks[step.count] += c
        keys[step.count] += k
    villages, roads = len(doc["villages"]), len(doc["roads"])
    typed = sum(len(v["name"]) for v in doc["villages"])
    name = statistics.mean(len(n) for n in RULEBOOK_NAMES)
    per_village = {"clicks": clicks["village"] / villages, "keys": keys["village"] / villages}
    per_road = {"clicks": clicks["road"] / roads, "keys": keys["road"] / roads}
    per_fief = {"clicks": clicks["fief"] / FIEFS, "keys": keys["fief"] / FIEFS}
    # the largest map: each Village's name as long as a rulebook name on average
    big_village_keys = per_village["keys"] - typed / villages + name
    total_clicks = (per_village["clicks"] * MAX_VILLAGES + per_road["clicks"] * MAX_ROADS
                    + per_fief["clicks"] * FIEFS + clicks["board"])  # fmt: skip
    total_keys = (big_village_keys * MAX_VILLAGES + per_fief["keys"] * FIEFS + keys["board"]
                  + per_road["keys"] * MAX_ROADS)  # fmt: skip
    thoughts = MAX_VILLAGES + MAX_ROADS + FIEFS
    seconds = total_clicks * POINT_AND_CLICK_S + total_keys * KEYSTROKE_S + thoughts * THINK_S
    return {
        "game": "france1429",
        "script": {
            "villages": villages,
            "roads": roads,
            "fiefs": FIEFS,
            "steps": len(steps),
            "clicks": dict(clicks),
            "keystrokes": dict(keys),
        },
        "per_village": per_village,
        "per_road": per_road,
        "per_fief": per_fief,
        "largest_map": {
            "villages": MAX_VILLAGES,
            "roads": MAX_ROADS,
            "fiefs": FIEFS,
            "name_letters": round(name, 1),
            "clicks": round(total_clicks),
            "keystrokes": round(total_keys),
            "thoughts": thoughts,
            "minutes": round(seconds / 60, 1),
        },
        "assumed_s": {"click": POINT_AND_CLICK_S, "keystroke": KEYSTROKE_S, "think": THINK_S},
        "aim_minutes": AIM_S / 60,
        "by_hand_minutes": [s / 60 for s in BY_HAND_S],
    }


GAMES: dict[str, Callable[[], dict[str, Any]]] = {"france1429": france1429}
"""One counting function per game; others add theirs (Viscounts' deck, Glory's Knights)."""


def show(found: dict[str, Any]) -> str:
    """The counts and the estimate as a few lines of text."""
    s, big, t = found["script"], found["largest_map"], found["assumed_s"]
    v, r, f = found["per_village"], found["per_road"], found["per_fief"]
    return "\n".join([
        f"{found['game']}: the scripted tracing of {s['villages']} Villages, {s['roads']} roads, "
        f"{s['fiefs']} Fiefs: {s['steps']} steps, {sum(s['clicks'].values())} clicks, "
        f"{sum(s['keystrokes'].values())} keystrokes",
        f"  per Village: {v['clicks']:.2f} clicks, {v['keys']:.1f} keystrokes (its name)",
        f"  per road:    {r['clicks']:.2f} clicks, {r['keys']:.1f} keystrokes",
        f"  per Fief:    {f['clicks']:.2f} clicks, {f['keys']:.1f} keystrokes",
        f"  the board:   {s['clicks'].get('board', 0)} clicks, "
        f"{s['keystrokes'].get('board', 0)} keystrokes (new map, size, corners, whole)",
        f"largest map the rules allow ({big['villages']} Villages, {big['roads']} roads, "
        f"{big['fiefs']} Fiefs, names of {big['name_letters']} letters): {big['clicks']} clicks, "
        f"{big['keystrokes']} keystrokes, {big['thoughts']} look-ups",
        f"  at {t['click']:.1f} s a click, {t['keystroke']:.2f} s a keystroke, {t['think']:.2f} s "
        f"a look-up (Keystroke-Level Model): about {big['minutes']:.0f} minutes",
        f"  aim: under {found['aim_minutes']:.0f} minutes; typing the map by hand: "
        f"{found['by_hand_minutes'][0]:.0f}-{found['by_hand_minutes'][1]:.0f} minutes",
    ])  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    args = parser.parse_args(argv)
    found = GAMES[args.game]()
    print(json.dumps(found, indent=2) if args.json else show(found))
    return 0


if __name__ == "__main__":
    sys.exit(main())
