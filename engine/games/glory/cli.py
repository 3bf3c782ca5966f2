"""Glory's own command-line verb: ``herald rules glory duel DUEL.json`` resolves one duel.

Pure functions over parsed JSON (``engine.verbs``): the generic CLI reads the files, prints the
text or ``--json`` data and exits with the code. Each pass is itemised: every step as it
happened with both Attacks after it, the Attack lines of the resolution with their rulebook
references, the pass winner and why, then the Glory lines and the loser's recovery. Codes: 0
resolved, 1 a move the rules refuse, 2 input that is not a duel file or lacks a value the duel
needs (``data/missing``). The file format is in docs/glory.md.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from engine import codec
from engine.data import GameData
from engine.games.glory import data_schema, duel, duel_views, script
from engine.games.glory.components import KnightData, parse_dice, parse_knights
from engine.games.glory.data_report import check_data
from engine.games.glory.data_types import Box
from engine.games.glory.duel_state import Knight
from engine.i18n import message, violation_json, violation_text
from engine.verbs import (
    EXIT_ILLEGAL,
    EXIT_INPUT,
    BadInput,
    Verb,
    VerbArg,
    VerbResult,
    json_schema_doc,
)
from engine.violations import InputError, RuleViolation


def _m(code: str, lang: str, **params: Any) -> str:
    return message(f"glory:{code}", lang, **params)


def _refused(exc: RuleViolation, lang: str) -> VerbResult:
    missing = any(v.code == "data/missing" for v in exc.violations)
    lines = [f"refused: {len(exc.violations)} violation(s)"]
    lines += [f"  • {v.code} {violation_text(v, lang)}\n    {v.ref}" for v in exc.violations]
    data = {"resolved": False, "violations": [violation_json(v, lang) for v in exc.violations]}
    return VerbResult(data, "\n".join(lines), EXIT_INPUT if missing else EXIT_ILLEGAL)


def _decode(arg: str, value: Any, parse: Any) -> Any:
    try:
        return parse(value)
    except InputError as exc:
        raise BadInput(arg, exc) from exc


def resolve_duel(inputs: Mapping[str, Any], lang: str) -> VerbResult:
    """One duel from its script (dice and choices given), with the game's data (the dice faces
    and the Knights; the CLI loads them, ``--data``) and optional dice and Knights files."""
    data: GameData = inputs["data"]
    if not isinstance(data.value, Box):
        raise BadInput("data", InputError("input/data", "not Glory's data"))
    table = data.value.data.dice
    knights: dict[str, KnightData] = dict(data.value.data.knights)
    if inputs.get("dice") is not None:
        table = _decode("dice", inputs["dice"], parse_dice)
    if inputs.get("knights") is not None:
        knights |= _decode("knights", inputs["knights"], parse_knights)
    parsed: script.DuelScript = _decode(
        "duel", inputs["duel"], lambda v: codec.decode(script.DuelScript, v)
    )
    if all(isinstance(s, Knight) for s in parsed.sides):
        return _knights(parsed, knights, lang)
    try:
        state = script.run(parsed, table, knights)
    except RuleViolation as exc:
        return _refused(exc, lang)
    except InputError as exc:
        raise BadInput("duel", exc) from exc
    report = duel_views.report(state, lang)
    return VerbResult({"resolved": True, **report}, _duel_text(report, str(state.winner), lang))


def _knights(parsed: script.DuelScript, knights: dict[str, KnightData], lang: str) -> VerbResult:
    left, right = script.sides_of(parsed, knights)
    assert isinstance(left, Knight) and isinstance(right, Knight)
    try:
        winner, reason = duel.knight_vs_knight(left, right)
    except RuleViolation as exc:
        return _refused(exc, lang)
    data = {"resolved": True, "winner": winner, "reason": reason}
    return VerbResult(data, _m("cli/knights", lang, winner=winner, reason=reason))


def _duel_text(report: dict[str, Any], winner: str, lang: str) -> str:
    names = report["sides"]
    lines: list[str] = []

    def score(attack: list[int]) -> str:
        return f"({names[0]} {attack[0]} : {names[1]} {attack[1]})"

    if report["tent"]:
        lines.append(_m("cli/tent", lang))
        lines += [f"  {step['text']}" for step in report["tent"]]
    for p in report["passes"]:
        lines += ["", _m("cli/pass", lang, number=p["pass"])]
        lines += [f"  {s['step']:>8} {s['text']} {score(s['attack'])}" for s in p["steps"]]
        for a in p["attacks"]:
            lines.append(f"  {_m('cli/attack-of', lang, side=a['side'])}")
            for line in a["lines"]:
                lines.append(f"    {line['amount']:+4d}  {line['text']}  [{line['ref']}]")
            extra = "" if a["prestige"] is None else f"  (Prestige {a['prestige']})"
            lines.append(f"    {a['total']:>4}  total{extra}")
        flipped = f" ({p['prestige_flipped']} flipped)" if p["prestige_flipped"] else ""
        lines.append(f"  {p['reason_text']}{flipped}")
    score_text = "-".join(str(report["score"][n]) for n in names)
    lines += ["", _m("cli/duel-winner", lang, winner=winner, score=score_text)]
    lines.append(_m("cli/end", lang))
    lines += [
        f"  {g['side']}: {g['amount']:+d} Glory — {g['text']} [{g['ref']}]" for g in report["glory"]
    ]
    lines += [f"  {step['text']}" for step in report["end"]]
    lines += [f"  {n}: {json.dumps(f, ensure_ascii=False)}" for n, f in report["final"].items()]
    return "\n".join(lines)


def duel_schema() -> dict[str, Any]:
    """The JSON Schema of a DUEL.json file."""
    defs: dict[str, Any] = {}
    ref = codec.schema_for(script.DuelScript, defs)
    return json_schema_doc(defs, ref)


VERBS = (
    Verb(
        name="duel",
        help="Resolve one duel from DUEL.json and print each pass itemised (docs/glory.md).",
        args=(
            VerbArg(
                "duel",
                "The duel: both sides, dice and choices.",
                positional=True,
                required=True,
                metavar="DUEL.json",
            ),
            VerbArg("data", "The game data: box (default), stand-in, or a file.", "data"),
            VerbArg("dice", "A full dice face table (data/dice.json), over the data's."),
            VerbArg("knights", "A Knights data file, over the data's Knights."),
        ),
        run=resolve_duel,
        schema=duel_schema,
    ),
    Verb(
        "data check",
        "Check a data set (--data: stand-in, box or a data file): every value some game "
        "(1-4 players, either tournament, first game or not, each solo scenario) would be "
        "refused for, with where it is printed.",
        (VerbArg("data", "The data set: stand-in, box, or a data file.", kind="data"),),
        check_data,
        data_schema.data_schema,
    ),
)
"""The verbs ``herald rules glory`` adds to the calculator's."""
