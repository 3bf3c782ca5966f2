"""Sentences and JSON for a duel: itemised Attack lines, the steps as they happened, the awards.

Every sentence comes from the message catalog (``engine/i18n/en/glory.json``, codes scoped
``glory:``); ally, relic, Prestige and die names are catalog entries too, so a report
translates whole.
"""

from __future__ import annotations

from typing import Any

from engine.game import Line
from engine.games.glory import duel
from engine.games.glory.components import GAME_KEY, SPECIAL
from engine.games.glory.duel_state import DuelState, Knight, Note, PassRecord, Side
from engine.i18n import DEFAULT_LANG, has_message, message


def _m(code: str, lang: str, **params: Any) -> str:
    return message(f"{GAME_KEY}:{code}", lang, **params)


def face_text(die_type: str, face: object, value: int, lang: str = DEFAULT_LANG) -> str:
    """``"red 5"``, or ``"red Special Symbol (active: 5)"``."""
    colour = _m(f"die/{die_type}", lang)
    if face == SPECIAL:
        return _m("face/special", lang, colour=colour, value=value)
    return _m("face/number", lang, colour=colour, face=face)


def _names(params: dict[str, Any], lang: str) -> dict[str, Any]:
    out = dict(params)
    for key, area in (("ally", "ally"), ("relic", "relic"), ("source", "source")):
        value = out.get(key)
        if isinstance(value, str) and value not in ("", "-"):
            out[f"{key}_name"] = _m(f"{area}/{value}", lang)
    if isinstance(out.get("target"), str) and out["target"]:
        t = out["target"]
        for area in ("ally", "prestige", "relic"):
            code = f"{GAME_KEY}:{area}/{t}"
            if has_message(code):
                out["target_name"] = message(code, lang)
                break
    if "dice" in out and isinstance(out["dice"], list):
        out["dice"] = ", ".join(
            face_text(d["type"], d["face"], d["value"], lang) for d in out["dice"]
        )
    return out


def line_text(line: Line, lang: str = DEFAULT_LANG) -> str:
    """The sentence for an Attack or Glory line."""
    params = _names(line.params, lang)
    if line.code == "attack/die":
        params["die"] = face_text(params["type"], params["face"], line.amount, lang)
        if has_message(f"{GAME_KEY}:die-type/{params['type']}"):  # "Strength", "Siły": no id
            params["type"] = _m(f"die-type/{params['type']}", lang)
    params.setdefault("amount", line.amount)
    params.setdefault("paid", abs(line.amount))
    return _m(line.code, lang, **params)


def note_text(note: Note, lang: str = DEFAULT_LANG) -> str:
    params = _names(note.params, lang)
    code = note.code
    if code == "note/ally" and "die" in params:
        code = "note/ally-die"
    elif code == "note/ally" and "target" in params:
        code = "note/ally-refresh"
    if code == "note/relic" and "die" in params:
        code = "note/relic-die"
    elif code == "note/relic" and "dice" in params:
        code = "note/relic-reroll"
    return _m(code, lang, side=note.side, **params)


def _line_json(line: Line, lang: str) -> dict[str, Any]:
    return line.to_json(line_text(line, lang))


def reason_text(record: PassRecord, lang: str = DEFAULT_LANG) -> str:
    return _m(f"reason/{record.reason}", lang, winner=record.winner)


def report(state: DuelState, lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """The duel as JSON: each pass with its steps and itemised Attacks, then the end of the duel."""
    passes: list[dict[str, Any]] = []
    tent = [n for n in state.notes if n.pass_no == 0]
    for record in state.passes:
        notes = [n for n in state.notes if n.pass_no == record.number and n.step != "recover"]
        passes.append(
            {
                "pass": record.number,
                "steps": [_note_json(n, lang) for n in notes],
                "attacks": [
                    {
                        "side": a.side,
                        "total": a.total,
                        "prestige": a.prestige,
                        "lines": [_line_json(ln, lang) for ln in a.lines],
                    }
                    for a in record.attacks
                ],
                "winner": record.winner,
                "reason": record.reason,
                "reason_text": reason_text(record, lang),
                "prestige_flipped": record.flipped,
            }
        )
    wins = {s.name: state.boards[i].wins for i, s in enumerate(state.sides)}
    return {
        "context": state.context,
        "sides": list(state.names),
        "tent": [_note_json(n, lang) for n in tent],
        "passes": passes,
        "winner": state.winner,
        "score": wins,
        "glory": [{"side": a.side, **_line_json(a.line, lang)} for a in state.awards],
        "end": [_note_json(n, lang) for n in state.notes if n.step == "recover"],
        "final": {s.name: _final(s) for s in state.sides},
        "over": duel.is_over(state),
    }


def _final(side: Side) -> dict[str, Any]:
    if isinstance(side, Knight):
        return {"glory": side.glory}
    return {
        "glory": side.glory,
        "strength": side.strength,
        "faith": side.faith,
        "allies": [f"{a.kind}{'' if a.active else ' (used)'}" for a in side.allies],
        "prestige": [f"{p.kind}{'' if p.active else ' (used)'}" for p in side.prestige],
        "relics": [f"{r.kind}{'' if r.active else ' (used)'}" for r in side.relics],
    }


def _note_json(note: Note, lang: str) -> dict[str, Any]:
    return {
        "step": note.step,
        "side": note.side,
        "code": note.code,
        "params": note.params,
        "text": note_text(note, lang),
        "attack": list(note.attack),
    }
