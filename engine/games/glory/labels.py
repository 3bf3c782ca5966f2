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
from engine.i18n import DEFAULT_LANG, has_message, message

_FACE = {"special": "★"}

_Names = dict[str, str]


def _t(code: str, lang: str, **params: Any) -> str:
    return message(f"{GAME_KEY}:live/{code}", lang, **params)


def _word(kind: str, slug: Any, lang: str, names: _Names | None = None) -> str:
    """A slug as players read it: a card's printed name from the box (``names``), else the
    catalog's ``glory:<kind>/<slug>`` (fields, decks, dice) or ``glory:name/<slug>`` (tokens,
    Characters), else the slug itself."""
    text = str(slug)
    if names and text in names:
        return names[text]
    for code in (f"{GAME_KEY}:{kind}/{text}", f"{GAME_KEY}:name/{text}"):
        if has_message(code):
            return message(code, lang)
    return text


def _names(items: Any, lang: str = DEFAULT_LANG, names: _Names | None = None,
           kind: str = "name") -> str:  # fmt: skip
    return ", ".join(_word(kind, x, lang, names) for x in items) if items else "—"


def _die(die: Any, lang: str) -> str:
    """A die named as players say it: its colour's die and a number for a second one."""
    text = str(die)
    kind = text.rstrip("0123456789")
    number = text[len(kind) :]
    word = _word("die-name", kind, lang)
    return f"{word} {number}" if number else word


def _dice(dice: Any, lang: str = DEFAULT_LANG) -> str:
    """Rolled dice in the game's faces: "Strength die 1: 3, Horse die 1: ★"."""
    return ", ".join(
        f"{_die(d.get('id') or d.get('type'), lang)}: "
        f"{_FACE.get(str(d.get('face')), d.get('face'))}"
        for d in dice
        if isinstance(d, dict)
    )


def _no(value: Any) -> Any:
    return value + 1 if isinstance(value, int) and not isinstance(value, bool) else value


def _place(m: dict[str, Any], lang: str, names: _Names | None = None) -> str:
    parts = [_t("place", lang, field=_word("field", m.get("field", "?"), lang, names))]
    if m.get("take"):
        parts.append(_t("place-take", lang, cards=_names(m["take"], lang, names)))
    if m.get("draw"):
        decks = _names(m["draw"], lang, kind="deck")
        parts.append(_t("place-draw", lang, count=len(m["draw"]), decks=decks))
    if m.get("item"):
        parts.append(_t("place-item", lang, item=_word("item", m["item"], lang)))
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
        return _t(
            "duel-faith",
            lang,
            side=side,
            dice=", ".join(_die(d, lang) for d in m.get("dice") or ()),
        )
    if kind == "ally":
        text = _t("duel-ally", lang, side=side, ally=_word("name", m.get("ally"), lang))
        if m.get("die"):
            text += " " + _t("duel-on-die", lang, die=_die(m["die"], lang))
        if m.get("target"):
            text += " " + _t("duel-target", lang, target=m["target"])
        return text
    if kind == "relic":
        text = _t("duel-relic", lang, side=side, relic=_word("name", m.get("relic"), lang))
        if m.get("die"):
            text += " " + _t("duel-on-die", lang, die=_die(m["die"], lang))
        if m.get("dice"):
            dice = ", ".join(_die(d, lang) for d in m["dice"])
            text += " " + _t("duel-reroll-dice", lang, dice=dice)
        return text
    if kind == "recover":
        what = [m[k] for k in ("ally", "prestige", "relic") if m.get(k)]
        if not what:
            return _t("duel-recover-nothing", lang, side=side)
        return _t("duel-recover", lang, side=side, what=_names(what, lang))
    if kind in ("roll", "reroll"):
        return _t(f"duel-{kind}", lang, side=side, dice=_dice(m.get("dice") or [], lang))
    if kind == "decline":
        return _t("duel-decline", lang, side=side)
    return _t("duel-other", lang, side=side, kind=kind)


def label(
    move: dict[str, Any],
    lang: str = DEFAULT_LANG,
    public: bool = True,
    names: _Names | None = None,
) -> str | None:
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
        return f"{seat}: {_place(move, lang, names)}"
    if kind == "character":
        character = _word("name", move.get("character"), lang, names)
        return _t("character", lang, seat=seat, character=character)
    if kind == "keep":
        goals = move.get("goals") or []
        text = _t("keep", lang, seat=seat, goals=_names(goals, lang, names))
        if move.get("returned"):
            text += " " + _t("keep-return", lang, cards=_names(move["returned"], lang, names))
        return text
    if kind == "keep-titles":
        return _t("keep-titles", lang, seat=seat, titles=_names(move.get("keep"), lang, names))
    if kind == "quest":
        card = _word("name", move.get("card"), lang, names)
        return _t("quest", lang, seat=seat, card=card, choice=_no(move.get("choice")))
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
        return _t(code, lang, seat=seat, title=_word("name", move.get("title"), lang, names))
    if kind == "draw":
        return _t("draw", lang, seat=seat, count=len(move.get("cards") or []))
    if kind in ("setup", "deal-hands", "refill", "fill", "next-tournament", "solo-draw"):
        return _t(f"table-{kind}", lang)
    return None
