"""An effect as a sentence a player reads, in English or Polish (the phones show each card's
effect in the hand; the table shows a Building's uncovered ability).

Every word comes from the message catalog (``i18n/<lang>/viscounts_effects.json``, codes
``viscounts:fx/...``) with real plural forms; this module only composes them. Pure: a parsed
effect (``effects``) in, a string out.
"""

from __future__ import annotations

from engine.games.viscounts.effects import (
    Ability,
    Action,
    Atom,
    Condition,
    Conversion,
    Effect,
    Flip,
    Gain,
    Symbols,
)
from engine.i18n import message

_TAKEN = ("corruption", "debt")
"""Costs that are taken rather than paid (a Debt, Corruption); Virtue is lost."""


def _m(code: str, lang: str, **params: object) -> str:
    return message(f"viscounts:fx/{code}", lang, **params)


def _noun(what: str, n: int, lang: str) -> str:
    return _m(f"n-{what}", lang, n=n)


def atom_text(atom: Atom, lang: str = "en") -> str:
    """One atom: ``+2 Silver``, ``flip 1 unpaid Debt``, ``hand limit +1``..."""
    if isinstance(atom, Gain):
        text = _m("gain", lang, what=_noun(atom.what, atom.amount, lang))
        return (
            text
            if atom.per is None
            else _m("per", lang, what=text, per=_m(f"per-{atom.per}", lang))
        )
    if isinstance(atom, Symbols):
        return _m("gain", lang, what=_noun(atom.symbol, atom.amount, lang))
    if isinstance(atom, Flip):
        return _m(f"flip-{atom.what}", lang, n=atom.amount)
    if isinstance(atom, Action):
        if atom.kind == "free-build":
            return _m(f"build-{atom.building}", lang)
        return _m(f"do-{atom.kind}", lang, n=atom.amount)
    return _m(f"do-{atom.kind}", lang, n=atom.amount)  # a Modifier: hand-limit, free-move...


def _cost(item: Gain | Action, lang: str) -> str:
    if isinstance(item, Action):
        return _m("give-up", lang, what=_m(f"do-{item.kind}", lang, n=item.amount))
    what = _noun(item.what, item.amount, lang)
    verb = "take" if item.what in _TAKEN else "lose" if item.what == "virtue" else "pay"
    return _m(verb, lang, what=what)


def _condition(c: Condition, lang: str) -> str:
    if c.at_least is None:
        return _m(f"no-{c.symbol}", lang)
    return _m("at-least", lang, what=_noun(c.symbol, c.at_least, lang))


def effect_text(effect: Effect | Conversion, lang: str = "en") -> str:
    """A whole effect: its event, conditions and costs, then its reward's alternatives."""
    if isinstance(effect, Conversion):
        return _m(
            "conversion",
            lang,
            n=effect.give_amount,
            give=_noun(effect.give, effect.give_amount, lang),
            get=_noun(effect.get, effect.get_amount, lang),
        )
    reward = _m("or", lang).join(
        ", ".join(atom_text(a, lang) for a in alternative) for alternative in effect.reward
    )
    left = [_m(f"event-{effect.event.replace(' ', '-')}", lang)] if effect.event else []
    left += [_condition(c, lang) for c in effect.conditions]
    left += [_cost(c, lang) for c in effect.cost]
    return _m("arrow", lang, left=", ".join(left), right=reward) if left else reward


def ability_text(ability: Ability, lang: str = "en") -> str:
    """A timed ability: ``When pushed off: hire 1 Townsfolk ... for free, +1 Virtue``."""
    return _m(f"timing-{ability.timing}", lang, effect=effect_text(ability.body, lang))
