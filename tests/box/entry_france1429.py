"""France 1429's map entry counted for ``python -m bench.box_entry france1429`` (issue #24, "Aim":
a whole map in under 45 minutes): the clicks and keystrokes of
the scripted user of tests/box/test_server_box_trace_play.py (``traced.script``), per Village,
per road and per Fief, scaled to the largest map the rules allow."""

from __future__ import annotations

import statistics
from collections import Counter
from typing import Any

from bench.box_entry import AIM_S, KEYSTROKE_S, POINT_AND_CLICK_S, THINK_S, actions, minutes

from .traced import script, traced_map

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
COVERS = frozenset({"map"})
"""The data file's fields the tracing enters (the map file it names)."""


def entry() -> tuple[dict[str, Any], list[str]]:
    """The tracing script's clicks and keystrokes, per part, and the estimate for the largest
    map (``MAX_VILLAGES`` Villages, ``MAX_ROADS`` roads, ``FIEFS`` Fiefs): one look-up per
    Village, road and Fief. Painting (a correction) and mistakes are not counted."""
    doc = traced_map()
    steps = script(doc)
    clicks: Counter[str] = Counter()
    keys: Counter[str] = Counter()
    for step in steps:
        c, k = actions(step.kind, step.target, step.text)
        clicks[step.count] += c
        keys[step.count] += k
    villages, roads = len(doc["villages"]), len(doc["roads"])
    typed = sum(len(v["name"]) for v in doc["villages"])
    name = statistics.mean(len(n) for n in RULEBOOK_NAMES)
    village = (clicks["village"] / villages, keys["village"] / villages)
    road = (clicks["road"] / roads, keys["road"] / roads)
    fief = (clicks["fief"] / FIEFS, keys["fief"] / FIEFS)
    village_keys = village[1] - typed / villages + name  # names as long as the rulebooks'
    total_clicks = (village[0] * MAX_VILLAGES + road[0] * MAX_ROADS + fief[0] * FIEFS
                    + clicks["board"])  # fmt: skip
    total_keys = (village_keys * MAX_VILLAGES + road[1] * MAX_ROADS + fief[1] * FIEFS
                  + keys["board"])  # fmt: skip
    thoughts = MAX_VILLAGES + MAX_ROADS + FIEFS
    took = minutes(total_clicks, total_keys, thoughts)
    found = {
        "game": "france1429",
        "script": {
            "villages": villages,
            "roads": roads,
            "fiefs": FIEFS,
            "steps": len(steps),
            "clicks": dict(clicks),
            "keystrokes": dict(keys),
        },
        "per_village": {"clicks": village[0], "keystrokes": village[1]},
        "per_road": {"clicks": road[0], "keystrokes": road[1]},
        "per_fief": {"clicks": fief[0], "keystrokes": fief[1]},
        "largest_map": {
            "what": f"the map traced on a photo ({MAX_VILLAGES} Villages, {MAX_ROADS} roads, "
            f"{FIEFS} Fiefs)",
            "entries": thoughts,
            "villages": MAX_VILLAGES,
            "roads": MAX_ROADS,
            "fiefs": FIEFS,
            "name_letters": round(name, 1),
            "clicks": round(total_clicks),
            "keystrokes": round(total_keys),
            "look_ups": thoughts,
            "minutes": round(took, 1),
        },
        "assumed_s": {"click": POINT_AND_CLICK_S, "keystroke": KEYSTROKE_S, "look_up": THINK_S},
        "aim_minutes": AIM_S / 60,
    }
    lines = [
        f"France 1429: the scripted tracing of {villages} Villages, {roads} roads, {FIEFS} "
        f"Fiefs: {len(steps)} steps, {sum(clicks.values())} clicks, "
        f"{sum(keys.values())} keystrokes",
        f"  per Village: {village[0]:.2f} clicks, {village[1]:.1f} keystrokes (its name)",
        f"  per road:    {road[0]:.2f} clicks, {road[1]:.1f} keystrokes",
        f"  per Fief:    {fief[0]:.2f} clicks, {fief[1]:.1f} keystrokes",
        f"  the board:   {clicks['board']} clicks, {keys['board']} keystrokes "
        "(new map, size, corners, whole)",
        f"  painting:    {clicks['paint']} clicks (corrections; not in the estimate)",
        f"largest map the rules allow ({MAX_VILLAGES} Villages, {MAX_ROADS} roads, {FIEFS} "
        f"Fiefs, names of {name:.1f} letters): {total_clicks:.0f} clicks, {total_keys:.0f} "
        f"keystrokes, {thoughts} look-ups",
        f"  at {POINT_AND_CLICK_S:.1f} s a click, {KEYSTROKE_S:.2f} s a keystroke, {THINK_S:.2f} s "
        f"a look-up (Keystroke-Level Model): about {took:.0f} minutes",
        f"  aim: under {AIM_S / 60:.0f} minutes",
    ]
    return found, lines
