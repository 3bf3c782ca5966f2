"""A France 1429 map traced on a photo, and the scripted user who traces it (issue #24 point 2).

The map is invented (``generated.france_map``: 20 Villages, the rulebooks' twelve among them,
8 Fiefs, 5 Bishoprics, about 30 roads, within every rule of digest §3.3) and laid on a printed
board of ``BOARD`` millimetres, each Village at a known place on a slightly uneven grid, as
Villages lie on a real board. The photo the user traces is drawn by the simulated camera from
the board profile of these very places, so the test knows where every Village is in the picture.

``script`` is what the user does on the "Your box" page, step by step, as data: the browser
test plays it with Playwright and ``python -m bench.box_entry`` counts its clicks and keystrokes, so
what is measured is what is tested.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any, Literal

from .generated import SHIPPED, france_map

BOARD = (470.0, 387.0)
"""The traced board in millimetres: with the title spaces and Family Boards beside its right
edge it fills the simulated camera's view of the table, as the stand-in board does."""
COLUMNS, ROWS = 6, 4
PITCH = (79.0, 99.0)
ORIGIN = (38.0, 45.0)
JITTER_MM = 4.0
CORNERS = {(0, 0), (COLUMNS - 1, 0), (0, ROWS - 1), (COLUMNS - 1, ROWS - 1)}
"""Grid cells left empty: the board's corner stickers lie there."""


def traced_map(seed: int = 5) -> dict[str, Any]:
    """The invented map with its board and every Village's place in board millimetres."""
    doc = france_map(seed, 8)
    rng = random.Random(seed)
    cells = [(c, r) for r in range(ROWS) for c in range(COLUMNS) if (c, r) not in CORNERS]
    assert len(cells) == len(doc["villages"]) == 20
    for village, (c, r) in zip(doc["villages"], cells, strict=True):
        village["x"] = round(ORIGIN[0] + c * PITCH[0] + rng.uniform(-JITTER_MM, JITTER_MM))
        village["y"] = round(ORIGIN[1] + r * PITCH[1] + rng.uniform(-JITTER_MM, JITTER_MM))
    doc["board"] = {"width_mm": BOARD[0], "height_mm": BOARD[1]}
    doc["name"] = "traced map"
    return doc


def traced_files(seed: int = 5) -> dict[str, Any]:
    """The stand-in data with the traced map: ``{file name: document}``, main file first."""
    doc = json.loads(SHIPPED.joinpath("stand-in-invented.json").read_text(encoding="utf-8"))
    doc["map"] = "map.json"
    doc["name"] = "traced France 1429 box"
    return {"data.json": doc, "map.json": traced_map(seed)}


@dataclass(frozen=True)
class Step:
    """One thing the user does: ``click`` a control (``target`` its CSS selector), ``choose``
    in a list or a radio button (a click), ``type`` ``text`` into a field (a keystroke per
    character), or ``place`` a click on the photo at board millimetres ``at``; ``then`` is a
    text the page's status says once the step is done (the test waits for it), ``count`` says
    what the step is part of (``board``, ``fief``, ``village``, ``road``, ``paint``) for the
    benchmark."""

    kind: Literal["click", "choose", "type", "place"]
    target: str = ""
    text: str = ""
    at: tuple[float, float] = (0.0, 0.0)
    then: str = ""
    count: str = "board"


def script(doc: dict[str, Any]) -> list[Step]:
    """The user's steps to trace map ``doc`` from the start of the tracing tool (a photo shown):
    a new map, the board's size and corners, the 8 Fiefs added, every Village placed Fief by
    Fief (its name typed, its Bishopric chosen when it differs from the last, a Principal
    Village ticked), every road laid, two Villages painted into another Fief and back (the
    painting tools), and the map declared whole."""
    w, h = doc["board"]["width_mm"], doc["board"]["height_mm"]
    steps = [
        Step("click", "#trace-new-map", count="board"),
        Step("type", "#trace-width", text=f"{w:g}", count="board"),
        Step("type", "#trace-height", text=f"{h:g}", count="board"),
    ]
    steps += [
        Step("place", at=corner, count="board") for corner in ((0, 0), (w, 0), (w, h), (0, h))
    ]
    for fief in doc["fiefs"]:
        label = fief["name"] or fief["id"].capitalize()
        steps += [
            Step("type", "#trace-fief-name", text=label, count="fief"),
            Step("choose", "#trace-fief-rank", text=fief["rank"], count="fief"),
            Step("click", "#trace-add-fief", then=label, count="fief"),
        ]
    by_id = {v["id"]: v for v in doc["villages"]}
    bishopric = "1"
    for fief in doc["fiefs"]:
        ids = _fief_id(fief)
        steps.append(Step("choose", "#trace-fief", text=ids, count="village"))
        for v in (v for v in doc["villages"] if v["fief"] == fief["id"]):
            steps.append(Step("type", "#trace-name", text=v["name"], count="village"))
            if str(v["bishopric"]) != bishopric:
                bishopric = str(v["bishopric"])
                steps.append(Step("choose", "#trace-bishopric", text=bishopric, count="village"))
            if v.get("principal"):
                steps.append(Step("click", "#trace-principal", count="village"))
            steps.append(Step("place", at=(v["x"], v["y"]), then=v["name"], count="village"))
    steps.append(Step("choose", "input[name=trace-tool][value=road]", count="road"))
    for road in doc["roads"]:
        a, b = (by_id[x] for x in road["between"])
        steps.append(Step("place", at=(a["x"], a["y"]), then=a["name"], count="road"))
        steps.append(Step("place", at=(b["x"], b["y"]), then=b["name"], count="road"))
    # painting: two Villages of the first Fief into the second and back again
    first, second = doc["fiefs"][0], doc["fiefs"][1]
    two = [v for v in doc["villages"] if v["fief"] == first["id"]][:2]
    steps.append(Step("choose", "input[name=trace-tool][value=fief]", count="paint"))
    for fief in (second, first):
        steps.append(Step("choose", "#trace-fief", text=_fief_id(fief), count="paint"))
        steps += [Step("place", at=(v["x"], v["y"]), then=v["name"], count="paint") for v in two]
    steps.append(Step("click", "#trace-whole", count="board"))
    return steps


def _fief_id(fief: dict[str, Any]) -> str:
    """The id the tracing tool gives a Fief it adds: its name made an id (``slug`` in
    ui/box.js)."""
    label = fief["name"] or fief["id"].capitalize()
    return "-".join("".join(c if c.isalnum() else " " for c in label.lower()).split())
