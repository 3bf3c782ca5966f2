"""Short sentences for Glory's moves: the buttons of a seat's prompt and the lines of the log.

A move is labelled from its JSON (``codec.encode``) alone, with catalog codes ``glory:live/…``
(engine/i18n/en/glory_live.json). Places on the board are counted from 1 for people (the JSON
counts from 0). ``public`` labels go to everybody (the log): those are the catalog's
(``glory:label/<kind>``, which never name a card only its holder may see), except for the
duel's moves, which hide nothing.
"""

from __future__ import annotations

from typing import Any

from engine.games.glory.components import GAME_KEY
from engine.i18n import DEFAULT_LANG, message

_FACE = {"special": "★"}


def _t(code: str, lang: str, **params: Any) -> str:
    return message(f"{GAME_KEY}:live/{code}", lang, **params)


def _names(items: Any) -> str:
    return ", ".join(str(x) for x in items) if items else "—"


def _dice(dice: Any) -> str:
    return " ".join(
        f"{d.get('id') or d.get('type')}={_FACE.get(str(d.get('face')), d.get('face'))}"
        for d in dice
        if isinstance(d, dict)
    )


def _no(value: Any) -> Any:
    return value + 1 if isinstance(value, int) and not isinstance(value, bool) else value


def _place(m: dict[str, Any], lang: str) -> str:
    parts = [_t("place", lang, field=m.get("field", "?"))]
    if m.get("take"):
        parts.append(_t("place-take", lang, cards=_names(m["take"])))
    if m.get("draw"):
        parts.append(_t("place-draw", lang, count=len(m["draw"]), decks=_names(m["draw"])))
    if m.get("item"):
        parts.append(_t("place-item", lang, item=m["item"]))
    if m.get("space") is not None:
        parts.append(_t("place-space", lang, space=_no(m["space"])))
    if m.get("city") is not None:
        parts.append(_t("place-city", lang, city=_no(m["city"]), slot=_no(m.get("slot"))))
    elif m.get("slot") is not None:
        parts.append(_t("place-slot", lang, slot=_no(m["slot"])))
    return " · ".join(parts)


def _duel(m: dict[str, Any], lang: str) -> str:
    kind = m.get("kind")
    side = m.get("side", "?")
    if kind == "strength":
        return _t("duel-strength", lang, side=side, tokens=m.get("tokens"))
    if kind == "faith":
        return _t("duel-faith", lang, side=side, dice=_names(m.get("dice")))
    if kind == "ally":
        text = _t("duel-ally", lang, side=side, ally=m.get("ally"))
        if m.get("die"):
            text += " " + _t("duel-on-die", lang, die=m["die"])
        if m.get("target"):
            text += " " + _t("duel-target", lang, target=m["target"])
        return text
    if kind == "relic":
        text = _t("duel-relic", lang, side=side, relic=m.get("relic"))
        if m.get("die"):
            text += " " + _t("duel-on-die", lang, die=m["die"])
        if m.get("dice"):
            text += " " + _t("duel-reroll-dice", lang, dice=_names(m["dice"]))
        return text
    if kind == "recover":
        what = [m[k] for k in ("ally", "prestige", "relic") if m.get(k)]
        if not what:
            return _t("duel-recover-nothing", lang, side=side)
        return _t("duel-recover", lang, side=side, what=_names(what))
    if kind in ("roll", "reroll"):
        return _t(f"duel-{kind}", lang, side=side, dice=_dice(m.get("dice") or []))
    if kind == "decline":
        return _t("duel-decline", lang, side=side)
    return _t("duel-other", lang, side=side, kind=kind)


def label(move: dict[str, Any], lang: str = DEFAULT_LANG, public: bool = True) -> str | None:
    """The sentence for one move given as JSON; None: use the catalog's ``glory:label/<kind>``.

    Public labels (the log) come from the catalog, except a duel's moves, which hold no secret
    and read better itemised; a seat's own buttons (``public`` False) say every detail.
    """
    kind = move.get("kind")
    seat = move.get("seat", "")
    if kind == "duel" and isinstance(move.get("move"), dict):
        return _duel(move["move"], lang)
    # what a seat keeps from its hidden hand is its own: the log says how many, never which
    if public and kind == "keep":
        return _t("keep-public", lang, seat=seat, returned=len(move.get("returned") or []))
    if public and kind == "keep-titles":
        return _t("keep-titles-public", lang, seat=seat, count=len(move.get("keep") or []))
    if public:
        return None
    if kind == "place":
        return f"{seat}: {_place(move, lang)}"
    if kind == "character":
        return _t("character", lang, seat=seat, character=move.get("character"))
    if kind == "keep":
        text = _t("keep", lang, seat=seat, goals=_names(move.get("goals")))
        if move.get("returned"):
            text += " " + _t("keep-return", lang, cards=_names(move["returned"]))
        return text
    if kind == "keep-titles":
        return _t("keep-titles", lang, seat=seat, titles=_names(move.get("keep")))
    if kind == "quest":
        return _t("quest", lang, seat=seat, card=move.get("card"), choice=_no(move.get("choice")))
    if kind == "stop":
        return _t("stop", lang, seat=seat)
    if kind == "register":
        if move.get("city") is not None:
            return _t("register-city", lang, seat=seat, city=_no(move["city"]),
                      slot=_no(move.get("slot")))  # fmt: skip
        if move.get("slot") is not None:
            return _t("register-slot", lang, seat=seat, slot=_no(move["slot"]))
        return _t("register-none", lang, seat=seat)
    if kind == "try-title":
        code = "try-title" if move.get("fight", True) else "give-up-title"
        return _t(code, lang, seat=seat, title=move.get("title"))
    if kind == "draw":
        return _t("draw", lang, seat=seat, count=len(move.get("cards") or []))
    if kind in ("setup", "deal-hands", "refill", "fill", "next-tournament", "solo-draw"):
        return _t(f"table-{kind}", lang)
    return None
