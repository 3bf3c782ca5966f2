"""The effect vocabulary of Viscounts as data, so a box page can build a card's effect by
choosing (issue #24 point 3) instead of typing text the rules might not read.

The grammar (``effects``) stays the one judge: a picker's choices (*fields*) are written as the
grammar's text (``text_from_fields``) and read back by ``parse_ability``/``parse_effect``, and a
read effect is turned back into fields (``fields_of``) and its canonical text (``text_of``), so
``parse(text_of(parse(t))) == parse(t)`` and an expert's typed text and a picked one are read
the same way. ``vocabulary(lang)`` lists every timing, left-side item, reward atom and symbol
conversion with the fields each takes, the allowed values and where it may stand, labelled from
the catalog (``viscounts:vocab/...``) in English or Polish; ``effect_paths`` names the data
fields holding effect texts from the schema's ``x-effect`` keyword.

Pure: JSON-shaped values in and out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.games.viscounts.describe import ability_text, effect_text
from engine.games.viscounts.effects import (
    ACTIONS,
    AI_ACTIONS,
    BUILDINGS,
    COSTS,
    COUNTERS,
    EVENTS,
    FLIPS,
    GAINS,
    LEFT_SLOTS,
    MODIFIERS,
    PERSISTENT_SLOTS,
    PLAIN_SLOTS,
    SYMBOLS,
    TIMINGS,
    Ability,
    Action,
    Atom,
    Condition,
    Conversion,
    Effect,
    EffectError,
    Flip,
    Gain,
    Place,
    Symbols,
    parse_ability,
    parse_effect,
)
from engine.i18n import message

PLACES: tuple[Place, ...] = ("effect", "ability", "scheme", "scoring")
"""Where an effect text stands (``effects.Place``); the schema's ``x-effect`` names one."""

_SCHEME = frozenset({"scheme"})
_SCORING = frozenset({"scoring"})
_NO_AMOUNT = frozenset({"free-build"})
"""Actions whose only field is not a number (a free Build names its Building)."""


def _atoms() -> list[tuple[str, list[dict[str, Any]], frozenset[str]]]:
    """``(id, fields, where)`` of every reward atom the grammar reads (``where``: the places
    and an ability's timings it may stand in, as ``effects.REWARD_FORMS``)."""
    amount = {"name": "amount", "kind": "number"}
    out: list[tuple[str, list[dict[str, Any]], frozenset[str]]] = [
        ("gain", [amount, _choice("what", GAINS), _choice("per", COUNTERS, True)], PLAIN_SLOTS),
        ("symbols", [amount, _choice("symbol", SYMBOLS)], PERSISTENT_SLOTS),
        ("flip", [amount, _choice("what", FLIPS)], PLAIN_SLOTS),
    ]
    for kind in ACTIONS:
        fields = [_choice("building", (*BUILDINGS, "any"))] if kind in _NO_AMOUNT else [amount]
        out.append((kind, fields, PLAIN_SLOTS))
    out += [(kind, [amount], PERSISTENT_SLOTS) for kind in MODIFIERS]
    out += [(kind, [amount], _SCHEME) for kind in AI_ACTIONS]
    out.append(("vp", [amount, _choice("per", COUNTERS, True)], _SCORING))
    return out


def _lefts() -> list[tuple[str, list[dict[str, Any]], frozenset[str]]]:
    """Every item left of an arrow: an event, a condition, a cost (``effects.LEFT_FORMS``)."""
    amount = {"name": "amount", "kind": "number"}
    return [
        ("event", [_choice("event", EVENTS)], PERSISTENT_SLOTS),
        ("no", [_choice("symbol", SYMBOLS)], LEFT_SLOTS),
        ("at-least", [amount, _choice("symbol", SYMBOLS)], LEFT_SLOTS),
        ("cost", [amount, _choice("what", COSTS)], LEFT_SLOTS),
        ("give-up", [_choice("action", ("discard", "destroy")), amount], LEFT_SLOTS),
    ]


def _choice(name: str, values: tuple[str, ...], optional: bool = False) -> dict[str, Any]:
    return {"name": name, "kind": "choice", "values": list(values), "optional": optional}


def _label(code: str, lang: str) -> str:
    return message(f"viscounts:vocab/{code}", lang)


def _value_label(field: str, value: str, lang: str) -> str:
    if field == "event":
        return message(f"viscounts:fx/event-{value.replace(' ', '-')}", lang)
    if field == "per":
        return message(f"viscounts:fx/per-{value}", lang)
    return _label(f"v-{value}", lang)


def _entry(
    kind: str, fields: list[dict[str, Any]], where: frozenset[str], lang: str
) -> dict[str, Any]:
    shown = []
    for f in fields:
        f = {**f, "label": _label(f"f-{f['name']}", lang)}
        if f["kind"] == "choice":
            f["values"] = [
                {"id": v, "label": _value_label(f["name"], v, lang)} for v in f["values"]
            ]
        shown.append(f)
    return {"id": kind, "label": _label(f"a-{kind}", lang), "fields": shown,
            "where": sorted(where)}  # fmt: skip


def vocabulary(lang: str = "en") -> dict[str, Any]:
    """What the picker offers: the places, the timings, the left-side items, the reward atoms
    and the symbol conversion, each with its fields (a number of at least 1, or a choice of
    allowed values), where it may stand (a place, or an ability's timing) and its label in
    ``lang``."""
    return {
        "places": [{"id": p, "label": _label(f"p-{p}", lang)} for p in PLACES],
        "timings": [{"id": t, "label": _label(f"t-{t}", lang)} for t in TIMINGS],
        "left": [_entry(k, f, w, lang) for k, f, w in _lefts()],
        "atoms": [_entry(k, f, w, lang) for k, f, w in _atoms()],
        "conversion": _entry(
            "conversion",
            [
                {"name": "give_amount", "kind": "number"},
                _choice("give", SYMBOLS),
                {"name": "get_amount", "kind": "number"},
                _choice("get", SYMBOLS),
            ],
            PERSISTENT_SLOTS,
            lang,
        ),
    }


# --- fields <-> text ---------------------------------------------------------------------------


def _atom_fields(atom: Atom) -> dict[str, Any]:
    if isinstance(atom, Gain):
        kind = "vp" if atom.what == "vp" else "gain"
        out: dict[str, Any] = {"kind": kind, "amount": atom.amount, "per": atom.per}
        return out if kind == "vp" else {**out, "what": atom.what}
    if isinstance(atom, Symbols):
        return {"kind": "symbols", "amount": atom.amount, "symbol": atom.symbol}
    if isinstance(atom, Flip):
        return {"kind": "flip", "amount": atom.amount, "what": atom.what}
    if isinstance(atom, Action) and atom.kind in _NO_AMOUNT:
        return {"kind": atom.kind, "building": atom.building}
    return {"kind": atom.kind, "amount": atom.amount}


def _left_fields(item: Condition | Gain | Action) -> dict[str, Any]:
    if isinstance(item, Condition):
        if item.at_least is None:
            return {"kind": "no", "symbol": item.symbol}
        return {"kind": "at-least", "amount": item.at_least, "symbol": item.symbol}
    if isinstance(item, Action):
        return {"kind": "give-up", "action": item.kind, "amount": item.amount}
    return {"kind": "cost", "amount": item.amount, "what": item.what}


def fields_of(parsed: Ability | Effect) -> dict[str, Any]:
    """A read effect as the picker's fields: ``timing`` (None outside an ability),
    ``conversion`` (or None), ``left`` (event, conditions, costs in the grammar's order) and
    ``reward`` (alternatives, each a list of atoms)."""
    timing = parsed.timing if isinstance(parsed, Ability) else None
    body = parsed.body if isinstance(parsed, Ability) else parsed
    if isinstance(body, Conversion):
        conversion = {"give_amount": body.give_amount, "give": body.give,
                      "get_amount": body.get_amount, "get": body.get}  # fmt: skip
        return {"timing": timing, "conversion": conversion, "left": [], "reward": []}
    left: list[dict[str, Any]] = [{"kind": "event", "event": body.event}] if body.event else []
    left += [_left_fields(c) for c in body.conditions]
    left += [_left_fields(c) for c in body.cost]
    reward = [[_atom_fields(a) for a in alternative] for alternative in body.reward]
    return {"timing": timing, "conversion": None, "left": left, "reward": reward}


def _word(value: Any) -> str:
    """One value of a field as the grammar writes it; anything but a plain word or number is
    written as it is and left to the grammar to refuse, naming it."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int | str):
        return str(value).strip()
    return "?" if value is None else str(value)


def _atom_text(a: Mapping[str, Any]) -> str:
    kind = _word(a.get("kind"))
    per = f" per {_word(a['per'])}" if a.get("per") else ""
    if kind == "gain":
        return f"{_word(a.get('amount'))} {_word(a.get('what'))}{per}"
    if kind == "vp":
        return f"{_word(a.get('amount'))} vp{per}"
    if kind == "symbols":
        return f"{_word(a.get('amount'))} {_word(a.get('symbol'))}"
    if kind == "flip":
        return f"flip {_word(a.get('amount'))} {_word(a.get('what'))}"
    if kind in _NO_AMOUNT:
        return f"{kind} {_word(a.get('building'))}"
    if kind in MODIFIERS or "amount" in a:
        return f"{kind} {_word(a.get('amount'))}"
    return kind


def _left_text(item: Mapping[str, Any]) -> str:
    kind = _word(item.get("kind"))
    if kind == "event":
        return _word(item.get("event"))
    if kind == "no":
        return f"no {_word(item.get('symbol'))}"
    if kind == "at-least":
        return f"{_word(item.get('amount'))}+ {_word(item.get('symbol'))}"
    if kind == "give-up":
        return f"{_word(item.get('action'))} {_word(item.get('amount'))}"
    return f"{_word(item.get('amount'))} {_word(item.get('what'))}"


def text_from_fields(fields: Mapping[str, Any]) -> str:
    """The grammar's text for the picker's ``fields`` (the shape ``fields_of`` returns). It
    does not judge: the grammar reads the text and refuses what it cannot, as it would a typed
    one."""
    timing = fields.get("timing")
    head = f"{_word(timing)}: " if timing else ""
    conversion = fields.get("conversion")
    if isinstance(conversion, Mapping):
        c = conversion
        give = f"{_word(c.get('give_amount'))} {_word(c.get('give'))}"
        return f"{head}{give} -> {_word(c.get('get_amount'))} {_word(c.get('get'))}"
    alternatives = fields.get("reward") or []
    reward = " or ".join(
        ", ".join(_atom_text(a) for a in alt if isinstance(a, Mapping))
        for alt in alternatives
        if isinstance(alt, list)
    )
    left = ", ".join(_left_text(i) for i in fields.get("left") or [] if isinstance(i, Mapping))
    return f"{head}{left} -> {reward}" if left else f"{head}{reward}"


def text_of(parsed: Ability | Effect) -> str:
    """The canonical text of a read effect (what the picker writes into the data)."""
    return text_from_fields(fields_of(parsed))


def parse_at(place: str, text: str, card: str, part: str) -> Ability | Effect:
    """``text`` read as the grammar reads a data file's field at ``place``."""
    if place == "ability":
        return parse_ability(text, card, part)
    if place not in PLACES:
        raise EffectError("effect/not-here", card, part, text, word=place)
    return parse_effect(text, card, part, place)


def read(place: str, given: Any, card: str = "", lang: str = "en") -> dict[str, Any]:
    """A typed text or the picker's fields read at ``place``: the canonical text, the
    sentence a player reads (``describe``) and the fields; or the refusal, with the forms the
    vocabulary can say there."""
    text = text_from_fields(given) if isinstance(given, Mapping) else _word(given)
    card = card or message("viscounts:vocab/this-card", lang)
    part = message(f"viscounts:vocab/p-{place}", lang) if place in PLACES else place
    try:
        parsed = parse_at(place, text, card, part)
    except EffectError as exc:
        return {"ok": False, "text": text, "code": exc.message_code, "message": exc.text(lang),
                "forms": list(exc.forms)}  # fmt: skip
    sentence = (
        ability_text(parsed, lang) if isinstance(parsed, Ability) else effect_text(parsed, lang)
    )
    return {"ok": True, "text": text_of(parsed), "sentence": sentence, "fields": fields_of(parsed)}


def effect_paths(schema: Any, path: str = "") -> list[dict[str, str]]:
    """Every field of a data file holding an effect text, from the schema's ``x-effect``
    keyword: ``{"path": "townsfolk[].ability", "place": "ability"}`` (``[]``: any item)."""
    out: list[dict[str, str]] = []
    if not isinstance(schema, dict):
        return out
    if isinstance(schema.get("x-effect"), str):
        out.append({"path": path, "place": schema["x-effect"]})
    for name, sub in (schema.get("properties") or {}).items():
        out += effect_paths(sub, f"{path}.{name}" if path else name)
    if "items" in schema:
        out += effect_paths(schema["items"], f"{path}[]")
    for group in ("oneOf", "anyOf"):
        for sub in schema.get(group) or ():
            out += effect_paths(sub, path)
    return out
