"""What an option gives in Viscounts (``engine.preview``): the component it names with what it
prints, and the Silver, resources, Virtue, Corruption, Debts, Deeds and VP after it."""

from __future__ import annotations

from typing import Any

from engine.games.viscounts import rules, scoring, turn
from engine.games.viscounts.describe import ability_text, effect_text
from engine.games.viscounts.labels import names
from engine.games.viscounts.moves import Build, Choose, Hire, PickPair, Play, Transcribe, Travel
from engine.games.viscounts.state import VState
from engine.i18n import message
from engine.preview import amount_line
from engine.violations import RuleViolation


def _t(code: str, lang: str, **params: Any) -> str:
    return message(f"viscounts:ui/{code}", lang, **params)


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
        m = rules.top_manuscript(state, town.part) if town is not None else None
        if m is not None:  # the stack's top, or the printed one under an empty stack (VW-16)
            effect = effect_text(m.effect, lang) if m.effect else ""
            called = str(known.get(m.id, m.id))
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
