"""What each legal option gives its seat: the Deniers it costs or brings and the Victory Points.

A purchase previews its price (§7.2 prices, Phase 4 [EN p.10 §4.0-4.4]), a card, a move or a
battle choice what the seat's Deniers and standing Victory Points become (§1.2 victory [EN p.15
§7.0-7.2]), computed by applying the move with the game's own rules. Components are named as
the map and the Lord cards print them (``names``), never by their ids.
"""

from __future__ import annotations

from typing import Any

from engine.games.france1429 import hear_ye, views, war
from engine.games.france1429.moves import Attack, Buy, Cavalcade, March, PlaceStart, Vote
from engine.games.france1429.sources import GAME_KEY
from engine.games.france1429.state import FranceState
from engine.games.france1429.turn import apply
from engine.i18n import DEFAULT_LANG, has_message, message
from engine.preview import amount_line


def _t(code: str, lang: str, **params: Any) -> str:
    return message(f"{GAME_KEY}:preview/{code}", lang, **params)


def printed(slug: str) -> str:
    """An id as a name where the rules keep none (a Village: ``st-gerome`` → ``St Gerome``)."""
    return " ".join(w.capitalize() for w in slug.replace("-", " ").split())


def names(state: FranceState, lang: str = DEFAULT_LANG) -> dict[str, str]:
    """Lords, Villages, Fiefs and cards by id with the names players read; a card as its edition
    in ``lang`` prints it (the catalog's ``ui/card-<id>``, which the phone's hand shows too)."""
    found = {v.id: printed(v.id) for v in state.rules.villages}
    for card, _count in state.rules.fortune_cards + state.rules.lord_cards:
        code = f"{GAME_KEY}:ui/card-{card}"
        if has_message(code):
            found[card] = message(code, lang)
    found.update({v.fief: printed(v.fief) for v in state.rules.villages if v.fief})
    found.update({lord.id: lord.name for lord in state.rules.lords if lord.name})
    for seat in state.seats:  # a seat is named by its colour (and the name the table gave it)
        found.pop(seat, None)
    return found


def _signed(change: int) -> str:
    return "+" if change > 0 else "−"


def preview(
    state: FranceState, move: Any, seat: str, lang: str = DEFAULT_LANG
) -> dict[str, Any] | None:
    """What ``move`` gives ``seat``: Deniers and Victory Points after it against now."""
    text = ""
    if isinstance(move, PlaceStart):  # §4 setup: the Village, its Fief and Bishopric
        village = state.rules.village(move.village)
        code = "village-principal" if village.principal else "village"
        fief = printed(village.fief) if village.fief else "—"
        text = _t(code, lang, fief=fief, bishopric=village.bishopric)
    elif isinstance(move, Buy):
        price = state.rules.prices.get(move.item)
        if price is not None:
            text = _t("price", lang, n=price)
    elif isinstance(move, Vote):
        text = _vote_text(state, move, lang)
    elif isinstance(move, Attack):  # §9.2: each side's strength points and Battle Dice
        ours, theirs = (war.strength(state, s, move.village) for s in (seat, move.defender))
        text = _t("attack", lang, sp=ours, dice=war.dice_for(ours), other_sp=theirs,
                  other_dice=war.dice_for(theirs))  # fmt: skip
    try:
        after = apply(state, move)
    except (ValueError, KeyError, LookupError):  # an option whose effect waits on the table
        return {"text": text}
    if isinstance(move, (March, Cavalcade)):  # the army's strength where it arrives (§9.2)
        sp = war.strength(after, seat, move.to)
        text = _t("strength", lang, sp=sp, dice=war.dice_for(sp), village=printed(move.to))
    lines: list[dict[str, Any]] = []
    deniers = after.family(seat).deniers - state.family(seat).deniers
    if deniers:
        lines.append(
            amount_line(deniers, _t("deniers", lang, n=abs(deniers), sign=_signed(deniers)))
        )
    before = {r.seat: r.total for r in views.score(state)}
    vp = next((r.total for r in views.score(after) if r.seat == seat), 0) - before.get(seat, 0)
    if vp:
        lines.append(amount_line(vp, _t("vp", lang, n=abs(vp), sign=_signed(vp))))
    return {"text": text, "lines": lines}


def _vote_text(state: FranceState, move: Vote, lang: str) -> str:
    """A sealed vote's option: the votes it gives (§10.3-10.6), and to whom; only this seat's
    phone sees it, and the vote stays sealed on every other page."""
    election = state.election
    if election is None or not move.vote_for:
        return _t("vote-abstain", lang)
    n = hear_ye.votes(state, move.seat, election.office, election.bishopric)
    _who, lord = election.candidates[move.vote_for - 1]
    name = next((x.name for x in state.rules.lords if x.id == lord and x.name), lord)
    return _t("vote", lang, n=n, lord=name)
