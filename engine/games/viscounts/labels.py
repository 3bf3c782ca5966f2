"""Words for Viscounts' components and moves: printed names instead of ids (``names``) and a
move as a sentence (``label``; a card drawn is named only to its owner). What an option gives
is ``preview``'s."""

from __future__ import annotations

from typing import Any

from engine.games.viscounts.describe import effect_text
from engine.games.viscounts.state import VState
from engine.i18n import has_message, message

BUILDING_CODES = ("workshop", "trading-post", "guildhall")


def _t(code: str, lang: str, **params: Any) -> str:
    return message(f"viscounts:ui/{code}", lang, **params)


_NAMES: dict[tuple[int, str], tuple[Any, dict[str, str]]] = {}


def names(state: VState, lang: str = "en") -> dict[str, str]:
    """Every component id of the game's data with the words a player reads (made once per
    data set and language)."""
    hit = _NAMES.get((id(state.doc), lang))
    if hit is not None and hit[0] is state.doc:
        return hit[1]
    found = _names(state, lang)
    if len(_NAMES) >= 16:
        _NAMES.clear()
    _NAMES[(id(state.doc), lang)] = (state.doc, found)
    return found


def _names(state: VState, lang: str) -> dict[str, str]:
    data = state.data
    found: dict[str, str] = {}
    for c in data.townsfolk:
        found[c.id] = (c.name_pl if lang == "pl" and c.name_pl else c.name) or c.id
    for c in data.printed_townsfolk:
        found[c.id] = (c.name_pl if lang == "pl" and c.name_pl else c.name) or c.id
    for m in data.manuscripts:
        found[m.id] = _t("manuscript", lang, ribbon=_ribbon(m.ribbon, lang), cost=m.cost or 0)
    for m in data.printed_manuscripts:
        found[m.id] = _t("printed-manuscript", lang, cost=m.cost or 0)
    for f in data.church_favour:
        found[f.id] = _t("favour", lang, ribbon=_ribbon(f.ribbon, lang))
    if data.board is not None:
        for t in data.board.towns:
            found[t.id] = _t(f"town-{t.path}", lang, part=t.part + 1, side=t.side or "")
        for s in data.board.sites:
            found[s.id] = _t("site", lang, part=s.part + 1, n=int(s.id.rsplit("-", 1)[-1]) + 1)
    for kind in BUILDING_CODES:
        found[kind] = _t(f"building-{kind}", lang)
    for sc in data.schemes:  # solo: each Scheme, and each of its steps as ``<id>#<k>``
        number = sc.id.rsplit("-", 1)[-1]
        n = int(number) if number.isdigit() else sc.id
        found[sc.id] = _t("scheme-future" if sc.kind == "future" else "scheme", lang, n=n)
        for k, step in enumerate(sc.steps or ()):
            found[f"{sc.id}#{k}"] = effect_text(step, lang)
    for ai in data.ais:
        code = f"viscounts:ui/ai-{ai.id}"
        found[f"ai-{ai.id}"] = _t(f"ai-{ai.id}", lang) if has_message(code) else ai.id
    found["ai"] = _t("ai", lang)
    return found


def option_text(option: str, lang: str, known: dict[str, str]) -> str:
    """An answer's option in words (``hand:<card>``, ``pay-0``, ``2,0,1``...)."""
    if option in ("decline", "keep", "deck"):
        return _t(f"option-{option}", lang)
    if option in ("ink", "stone", "gold"):
        return _t(f"resource-{option}", lang)
    if option in ("debt", "deed"):
        return _t(f"flip-{option}", lang)
    if option.startswith(("pay-", "alt-")):
        head, n = option.split("-")
        return _t(f"option-{head}", lang, n=int(n) + 1)
    if ">" in option:
        a, b = option.split(">")
        return _t("option-shift", lang, start=int(a) + 1, end=int(b) + 1)
    if "," in option:
        return _t(
            "option-reorder", lang, order=" ".join(str(int(x) + 1) for x in option.split(","))
        )
    if option.isdigit():
        return _t("option-number", lang, n=int(option) + 1)
    parts = option.split(":")
    words = [known.get(p, str(int(p) + 1) if p.isdigit() else p) for p in parts]
    if parts[0] in ("hand", "card"):
        return words[1]
    return " · ".join(words)


def label(
    move: dict[str, Any], lang: str, public: bool, known: dict[str, str] | None = None
) -> str | None:
    """The sentence for a move, every component by its name; a card drawn from a deck is named
    only on its owner's phone."""
    known = known or {}
    kind = move.get("kind")
    seat = move.get("seat", "")

    def name(v: Any) -> str:
        return known.get(str(v), str(v))

    extra = _t("with-dismiss", lang) if move.get("dismiss") else ""
    if kind == "reveal-scheme":  # a Scheme lies face up once revealed (seed L957-966)
        pile = _t(f"pile-{move.get('pile')}", lang)
        return _t("label-reveal-scheme", lang, scheme=name(move.get("card")),
                  pile=pile)  # fmt: skip
    if kind == "ai-step":
        return _t("label-ai-step", lang, step=name(f"{move.get('scheme')}#{move.get('step')}"))
    if kind == "reveal":
        if public:
            return _t("label-reveal-hidden", lang, owner=move.get("owner", ""))
        return _t("label-reveal", lang, owner=move.get("owner", ""), card=name(move.get("card")))
    if kind == "lay":
        return _t("label-lay", lang)
    if kind == "choose":
        return _t("label-choose", lang, seat=seat, option=option_text(move["option"], lang, known))
    if kind == "pick-pair":
        return _t("label-pick-pair", lang, seat=seat, n=int(move["index"]) + 1)
    if kind == "play":
        return _t("label-play", lang, seat=seat, card=name(move["card"]))
    if kind == "travel":
        return _t("label-travel", lang, seat=seat, town=name(move["town"]), n=move["spaces"])
    if kind == "trade":
        return _t("label-trade", lang, seat=seat, n=move["times"]) + extra
    if kind == "build":
        return _t("label-build", lang, seat=seat, building=name(move["building"]),
                  position=int(move["position"]) + 1, site=name(move["site"])) + extra  # fmt: skip
    if kind == "workers":
        return _t("label-workers", lang, seat=seat, n=move["count"]) + extra
    if kind == "transcribe":
        return _t("label-transcribe", lang, seat=seat) + extra
    if kind in ("skip", "hire", "pass"):
        return _t(f"label-{kind}", lang, seat=seat)
    return None


def _ribbon(colour: str | None, lang: str) -> str:
    """A ribbon's colour in words (``ui/ribbon-<colour>``); a colour a user's data set names
    that the catalog lacks is shown as typed."""
    if colour is None:
        return "?"
    code = f"viscounts:ui/ribbon-{colour}"
    return _t(f"ribbon-{colour}", lang) if has_message(code) else colour
