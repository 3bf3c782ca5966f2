"""Words for Viscounts' components and moves: printed names instead of ids (``names``), a move
as a sentence (``label``; a card drawn is named only to its owner), and what an option gives
(``preview``: Silver, resources, Virtue, Corruption, Debts, Deeds and VP after it)."""

from __future__ import annotations

from typing import Any

from engine.games.viscounts import scoring, turn
from engine.games.viscounts.describe import ability_text, effect_text
from engine.games.viscounts.moves import Build, Choose, Hire, PickPair, Play, Transcribe, Travel
from engine.games.viscounts.state import VState
from engine.i18n import has_message, message
from engine.preview import amount_line
from engine.violations import RuleViolation

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
    for m in data.manuscripts:
        found[m.id] = _t("manuscript", lang, ribbon=_ribbon(m.ribbon, lang), cost=m.cost or 0)
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


def preview(state: VState, move: Any, seat: str, lang: str = "en") -> dict[str, Any] | None:
    """What an option gives ``seat``: the component it names with its printed effect (the pair's
    Player card and Famous card, the card played with its ability, the town reached with its
    exchange, the Townsfolk hired, the Building with its site bonus and the ability it uncovers,
    the Manuscript transcribed), and the Silver, resources, Virtue, Corruption, Debts, Deeds and
    VP after the move against now."""
    return {"text": option_words(state, move, lang), "lines": _lines(state, move, seat, lang, None)}


def previews(
    state: VState, moves: list[Any], seat: str, lang: str = "en"
) -> list[dict[str, Any] | None]:
    """Every option of a prompt previewed as ``preview`` does (a Build prompt offers every
    Building left on the strip on every empty site: dozens of options), each move applied once."""
    before = {r.seat: r.total for r in scoring.score(state)}
    return [{"text": option_words(state, m, lang), "lines": _lines(state, m, seat, lang, before)}
            for m in moves]  # fmt: skip


TRACKED = ("silver", "ink", "stone", "gold", "virtue", "corruption", "debts", "deeds")
"""What a preview compares before and after a move, in this order, then VP."""


def _lines(
    state: VState, move: Any, seat: str, lang: str, before: dict[str, int] | None
) -> list[dict[str, Any]]:
    i = state.seats.index(seat) if seat in state.seats else None
    if i is None:
        return []
    try:
        after = turn.apply(state, move)
    except (RuleViolation, ValueError, KeyError, LookupError):  # waits on the table, or refused
        return []
    lines: list[dict[str, Any]] = []
    a, b = state.players[i], after.players[i]
    for what in TRACKED:
        change = b.amount(what) - a.amount(what)
        if change:
            lines.append(amount_line(change, _t(f"preview-{what}", lang)))
    if before is None:
        before = {r.seat: r.total for r in scoring.score(state)}
    vp = next((r.total for r in scoring.score(after) if r.seat == seat), 0) - before.get(seat, 0)
    if vp:
        lines.append(amount_line(vp, _t("preview-vp", lang)))
    return lines


def option_words(state: VState, move: Any, lang: str = "en") -> str:
    """The component an option names, with what it prints (no state is changed)."""
    known = names(state, lang)
    data = state.data
    if isinstance(move, PickPair) and 0 <= move.index < len(state.pairs):
        number, famous = state.pairs[move.index]
        card = next((p for p in data.player_cards if p.number == number), None)
        gains = effect_text(card.gains, lang) if card is not None and card.gains else ""
        return _t("pair", lang, number=number, famous=known.get(famous, famous), gains=gains)
    if isinstance(move, Play):
        return _card_words(state, move.card, lang, known)
    if isinstance(move, Choose) and move.option.startswith(("hand:", "card:")):
        return _card_words(state, move.option.split(":", 1)[1], lang, known)
    if isinstance(move, Travel) and data.board is not None:
        town = data.board.town(move.town)
        if town is not None:
            deck = state.decks[town.part] if town.part < len(state.decks) else ()
            top = known.get(deck[0], deck[0]) if deck else _t("empty-deck", lang)
            return _t("preview-town", lang, exchange=_t(f"exchange-{town.exchange or 'silver'}",
                      lang), card=top)  # fmt: skip
    if isinstance(move, Hire):
        town = _town_of(state, move.seat)
        if town is not None and state.decks[town.part]:
            return _card_words(state, state.decks[town.part][0], lang, known)
    if isinstance(move, Build):
        return _build_words(state, move, lang, known)
    if isinstance(move, Transcribe):
        town = _town_of(state, move.seat)
        if town is not None and state.stacks[town.part]:
            mid = state.stacks[town.part][0]
            m = next((x for x in data.manuscripts if x.id == mid), None)
            effect = effect_text(m.effect, lang) if m is not None and m.effect else ""
            called = str(known.get(mid, mid))
            return f"{called}: {effect}" if effect else called
    return ""


def _town_of(state: VState, seat: str) -> Any:
    board = state.data.board
    if board is None or seat not in state.seats:
        return None
    where = state.players[state.seats.index(seat)].town
    return board.town(where) if where else None


def _card_words(state: VState, cid: str, lang: str, known: dict[str, str]) -> str:
    """A Townsfolk card: its name, hire effect and ability."""
    try:
        c = next(x for x in state.data.townsfolk if x.id == cid)
    except StopIteration:
        return known.get(cid, cid)
    said = [known.get(cid, cid)]
    if c.hire:
        said.append(f"{_t('hire-effect', lang)}: {effect_text(c.hire, lang)}")
    if c.ability:
        said.append(ability_text(c.ability, lang))
    return " · ".join(said)


def _build_words(state: VState, move: Build, lang: str, known: dict[str, str]) -> str:
    """A Build: the site's bonus and the ability the emptied strip space uncovers (§5.2)."""
    board = state.data.board
    site = next((s for s in board.sites if s.id == move.site), None) if board else None
    kind = next((b for b in state.data.buildings if b.kind == move.building), None)
    said = [known.get(move.building, move.building)]
    if site is not None and site.bonus:
        said.append(_t("preview-site-bonus", lang, bonus=effect_text(site.bonus, lang)))
    if kind is not None and 0 <= move.position < len(kind.abilities):
        ability = kind.abilities[move.position]
        if ability is not None:
            said.append(_t("preview-uncovers", lang, ability=ability_text(ability, lang)))
    return " · ".join(said)


def _ribbon(colour: str | None, lang: str) -> str:
    """A ribbon's colour in words (``ui/ribbon-<colour>``); a colour a user's data set names
    that the catalog lacks is shown as typed."""
    if colour is None:
        return "?"
    code = f"viscounts:ui/ribbon-{colour}"
    return _t(f"ribbon-{colour}", lang) if has_message(code) else colour
