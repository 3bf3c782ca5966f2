"""France 1429's own command-line verbs: check a data set, check a map file and draw it.

``herald rules france1429 data check --data FILE`` lists every value a game with the data
would be refused for, and what it leaves unknown that is only shown. ``map check MAP.json``
runs the sanity checks of rules/france1429.md §3.3 on a map a user typed in from their board
and lists every problem at once, each naming the rule it breaks; ``map render MAP.json`` prints
the map as an SVG document to compare with the board (``> map.svg``). Without ``MAP.json`` both
use the map of the data set ``--data`` names (``stand-in`` by default, ``box``, or a data
file). Pure functions over parsed JSON (``engine.verbs``): the generic CLI reads the files,
prints and exits with the code.

Exit codes: 0 the data carry a game / the map breaks no rule (values it leaves unknown are
listed, and ``complete`` is false in ``--json``), 2 not a data or map file, 3 a game would be
refused / the map breaks a rule of the board.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.data import GameData
from engine.data_gaps import check_report
from engine.games.france1429.battle_cli import VERBS as BATTLE_VERBS
from engine.games.france1429.data import PLAYERS, FranceData, box_gaps, box_schema, refusals
from engine.games.france1429.geography import MapData, map_schema, parse_map
from engine.games.france1429.map_checks import map_gaps, map_problems
from engine.games.france1429.map_svg import render_svg
from engine.games.france1429.sources import GAME_KEY
from engine.i18n import message, violation_json, violation_text
from engine.verbs import EXIT_FAULTY, EXIT_OK, BadInput, Verb, VerbArg, VerbResult
from engine.violations import InputError, Violation


def _m(code: str, lang: str, **params: Any) -> str:
    return message(f"{GAME_KEY}:{code}", lang, **params)


def _map(inputs: Mapping[str, Any]) -> MapData:
    """The map file given, else the map of the loaded data set."""
    doc = inputs.get("map")
    if doc is not None:
        try:
            return parse_map(doc)
        except InputError as exc:
            raise BadInput("map", exc) from exc
    data: GameData | None = inputs.get("data")
    if data is None or not isinstance(data.value, FranceData):
        raise BadInput("data", InputError("input/data", "not France 1429's data"))
    return data.value.map


def _line(v: Violation, lang: str) -> str:
    return f"  • {v.code} {violation_text(v, lang)}\n    {v.ref}"


def check(inputs: Mapping[str, Any], lang: str) -> VerbResult:
    """Every broken rule of the map (exit 3 if any) and every value it leaves unknown."""
    m = _map(inputs)
    problems = map_problems(m)
    gaps = [g.violation() for g in map_gaps(m)]
    lines: list[str] = []
    if m.invented:
        lines.append(_m("map/invented", lang, name=m.name))
    if problems:
        lines.append(_m("map/check-problems", lang, name=m.name, count=len(problems)))
        lines += [_line(v, lang) for v in problems]
    else:
        lines.append(_m("map/check-ok", lang, name=m.name))
    if gaps:
        lines.append(_m("map/check-gaps", lang, count=len(gaps)))
        lines += [_line(v, lang) for v in gaps]
    data = {
        "map": m.name,
        "invented": m.invented,
        "ok": not problems,
        "complete": not problems and not gaps,
        "villages": len(m.villages),
        "roads": len(m.roads),
        "problems": [violation_json(v, lang) for v in problems],
        "unknown": [violation_json(v, lang) for v in gaps],
    }
    return VerbResult(data, "\n".join(lines), EXIT_FAULTY if problems else EXIT_OK)


def render(inputs: Mapping[str, Any], lang: str) -> VerbResult:
    """The map as an SVG document (the text printed), even if it breaks a rule: the drawing
    is how a user finds what they typed wrong."""
    m = _map(inputs)
    svg = render_svg(m, lang=lang)
    return VerbResult({"map": m.name, "villages": len(m.villages), "svg": svg}, svg)


def check_data(inputs: Mapping[str, Any], lang: str) -> VerbResult:
    """Whether the data set ``--data`` names carries a whole game of 6 players (so of any
    count): every value a game would be refused for (exit 3 if any), then the values only
    shown to players that it leaves unknown."""
    data: GameData | None = inputs.get("data")
    if data is None or not isinstance(data.value, FranceData):
        raise BadInput("data", InputError("input/data", "not France 1429's data"))
    value: FranceData = data.value
    refused = refusals(value, max(PLAYERS))
    shown = [
        g.violation()
        for g in map_gaps(value.map, everything=True) + box_gaps(value.box, everything=True)
        if not g.needed
    ]
    invented = value.invented
    p = data.provenance
    if p.base:  # labelled by its own values: those still the shipped set's are counted apart
        invented = bool(p.own_invented) or ("map" not in p.taken and value.map.invented)
    return check_report(GAME_KEY, data, value.name, invented, refused, shown, lang)


_MAP = VerbArg("map", "A map file (docs/france1429-data.md).", positional=True, metavar="MAP.json")
_DATA = VerbArg(
    "data",
    "Without MAP.json: the data set whose map to use (stand-in, box, or a data file).",
    kind="data",
    metavar="SET",
)

VERBS: tuple[Verb, ...] = (
    Verb(
        "map check",
        "Check a map file against the rules of the board (rules/france1429.md §3.3), "
        "listing every problem and every value it leaves unknown.",
        (_MAP, _DATA),
        check,
        map_schema,
    ),
    Verb(
        "map render",
        "Draw a map file as SVG (printed; redirect it: > map.svg) to compare with the board.",
        (_MAP, _DATA),
        render,
        map_schema,
    ),
    Verb(
        "data check",
        "Check a data set (--data: stand-in, box or a data file): every value a game would be "
        "refused for, and the values only shown that it leaves unknown.",
        (VerbArg("data", "The data set: stand-in, box, or a data file.", kind="data"),),
        check_data,
        box_schema,
    ),
    *BATTLE_VERBS,
)
"""The package's own verbs (``engine.verbs``): the data and map checks here, ``battle`` and
``election`` from ``battle_cli``."""
