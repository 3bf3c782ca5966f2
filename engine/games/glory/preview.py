"""What each legal option gives its seat: the card's printed name and data, and what changes.

"choose the Character rycerz / dworzanin / kasztelan" told a player nothing (issue 15, point 3):
the phone now shows each Character's printed starting values and income, each Quest card's name
and rewards, each Title's name, and for every option the seat's resources after it against now
(Coins, Strength, Faith, Glory, Horse and Armour levels), computed by applying the move with the
game's own rules (§3.2 setup [L134-136, L179-182]; §5 Quest cards [L539-563]).
"""

from __future__ import annotations

from typing import Any

from engine.evolve import evolve
from engine.games.glory.actions import NEW_GOAL_DRAW, NEW_GOAL_KEEP
from engine.games.glory.components import GAME_KEY
from engine.games.glory.data_types import CharacterCard, QuestCard, Reward
from engine.games.glory.state import (
    ChooseCharacter,
    GloryState,
    KeepCards,
    KeepTitles,
    Place,
    PlayQuest,
    TryTitle,
)
from engine.games.glory.turn import attempt
from engine.i18n import DEFAULT_LANG, catalog, has_message, message
from engine.preview import amount_line

RESOURCES = ("coins", "strength", "faith", "glory", "horse", "armour")
"""The seat's counts a move may change, in the order the Character card prints them."""


def _t(code: str, lang: str, **params: Any) -> str:
    return message(f"{GAME_KEY}:preview/{code}", lang, **params)


def printed(slug: str, lang: str = DEFAULT_LANG) -> str:
    """A token's or Character's printed name (``glory:name/<id>``, with its Polish letters);
    the id with its first letter raised when the catalog has none."""
    code = f"{GAME_KEY}:name/{slug}"
    return message(code, lang) if has_message(code) else slug.replace("-", " ").capitalize()


def card_name(state: GloryState, card_id: str, lang: str = DEFAULT_LANG) -> str:
    """A card's printed name from the box (Title, Quest, Event card), else ``printed``."""
    box = state.box
    tables: tuple[dict[str, Any], ...] = (box.titles, box.quests, box.events, box.tournaments)
    for table in tables:
        name = getattr(table.get(card_id), "name", "")
        if isinstance(name, str) and name:
            return name
    return printed(card_id, lang)


def names(state: GloryState, lang: str = DEFAULT_LANG) -> dict[str, str]:
    """Every card id of the box with its printed name (for move labels, which see no state, and
    for the pages, which show no id): Characters, Titles, Quests, Events, Tournaments."""
    box = state.box
    found = box.printed_names.get(lang)
    if found is None:  # the box never changes: its names are worked out once per language
        prefix = f"{GAME_KEY}:name/"  # tokens too (Allies, Relics, Prestige): "gaining Minstrel"
        found = {
            code[len(prefix) :]: message(code, lang)
            for code in catalog(DEFAULT_LANG)
            if code.startswith(prefix)
        }
        tables = (box.characters, box.titles, box.quests, box.events, box.tournaments)
        found.update({cid: card_name(state, cid, lang) for table in tables for cid in table})
        box.printed_names[lang] = found
    return dict(found)


def reward_text(reward: Reward, lang: str) -> str:
    """A printed reward: its counts and the cards or tokens it brings."""
    parts = [
        _t(f"res-{r}", lang, n=getattr(reward, r))
        for r in ("coins", "strength", "faith", "glory")
        if getattr(reward, r)
    ]
    parts += [_t("ally", lang, ally=printed(a, lang)) for a in reward.allies]
    parts += [_t("relic", lang, relic=printed(r, lang)) for r in reward.relics]
    parts += [_t("upgrade", lang, item=_t(f"item-{u.item}", lang)) for u in reward.upgrades]
    if reward.quests:
        parts.append(_t("quests", lang, n=reward.quests))
    return ", ".join(parts) or "—"


def character_text(card: CharacterCard, lang: str) -> str:
    """A Character card as printed: level, starting values, income."""
    parts = [_t("level", lang, level=card.level)]
    for r in ("coins", "strength", "faith", "glory"):
        value = getattr(card, r)
        if value is not None:
            parts.append(_t(f"res-{r}", lang, n=value))
    for r in ("horse", "armour"):
        value = getattr(card, r)
        if value is not None:
            parts.append(_t(f"level-{r}", lang, level=value))
    if card.income is not None:
        parts.append(_t("income", lang, reward=reward_text(card.income, lang)))
    return " · ".join(parts)


def quest_text(card: QuestCard, lang: str) -> str:
    rewards = " / ".join(reward_text(r, lang) for r in card.rewards or ())
    return _t("quest", lang, name=card.name, rewards=rewards or "—")


def _changes(before: Any, after: Any, lang: str) -> list[dict[str, Any]]:
    lines = []
    for r in RESOURCES:
        change = int(getattr(after, r)) - int(getattr(before, r))
        if change:
            sign = "+" if change > 0 else "−"
            lines.append(amount_line(change, _t(f"unit-{r}", lang, n=abs(change), sign=sign)))
    return lines


def preview(
    state: GloryState, move: Any, seat: str, lang: str = DEFAULT_LANG
) -> dict[str, Any] | None:
    """What ``move`` gives ``seat``: the card it names with its data, and the seat's resources
    after it against now."""
    return {"text": option_text(state, move, lang), "lines": _lines(state, move, seat, lang)}


def previews(
    state: GloryState, moves: list[Any], seat: str, lang: str = DEFAULT_LANG
) -> list[dict[str, Any] | None]:
    """Every option of a prompt previewed as ``preview`` does, applying one move per family:
    the pawn options of one field that differ only in the Quest cards they take (Quest Plans,
    an Event bringing Quests: dozens of pairs) change the seat's resources alike [L487-492],
    so one of them is applied for all."""
    changes: dict[Any, list[dict[str, Any]]] = {}
    out: list[dict[str, Any] | None] = []
    for move in moves:
        family = evolve(move, take=(), draw=()) if isinstance(move, Place) else move
        if family not in changes:
            changes[family] = _lines(state, move, seat, lang)
        out.append({"text": option_text(state, move, lang), "lines": changes[family]})
    return out


def option_text(state: GloryState, move: Any, lang: str = DEFAULT_LANG) -> str:
    """The component an option names, with its printed data (no state is changed)."""
    if isinstance(move, ChooseCharacter):
        card = state.box.characters.get(move.character)
        if card is not None:
            return f"{card_name(state, card.id, lang)}: {character_text(card, lang)}"
    elif isinstance(move, PlayQuest):
        quest = state.box.quests.get(move.card)
        if quest is not None:
            return quest_text(quest, lang)
    elif isinstance(move, KeepCards):
        return ", ".join(card_name(state, c, lang) for c in move.goals)
    elif isinstance(move, KeepTitles):
        return ", ".join(card_name(state, c, lang) for c in move.keep)
    elif isinstance(move, TryTitle):
        return card_name(state, move.title, lang)
    elif isinstance(move, Place):
        return _place_text(state, move, lang)
    return ""


def _place_text(state: GloryState, move: Place, lang: str) -> str:
    """A pawn's option: the Quest cards it takes with their rewards, the Ally it recruits."""
    parts = [quest_text(q, lang) for c in move.take if (q := state.box.quests.get(c)) is not None]
    if move.draw:
        parts.append(_t("face-down", lang, n=len(move.draw)))
    if move.field == "new-goal":
        parts.append(_t("new-goal", lang, draw=NEW_GOAL_DRAW, keep=NEW_GOAL_KEEP))
    if move.space is not None and 0 <= move.space < len(state.ally_track):
        kind = state.ally_track[move.space]
        if kind is not None:
            parts.append(_t("ally", lang, ally=printed(kind, lang)))
    return " · ".join(parts)


def _lines(state: GloryState, move: Any, seat: str, lang: str) -> list[dict[str, Any]]:
    """The seat's resources after ``move`` against now (none when its effect waits on the
    table: a draw, a roll)."""
    try:
        after = attempt(state, move)
        return _changes(_player(state, seat), _player(after, seat), lang)
    except (ValueError, KeyError, LookupError):  # an option whose effect waits on the table
        return []


def _player(state: GloryState, seat: str) -> Any:
    for p in state.players:
        if p.seat == seat:
            return p
    raise KeyError(seat)
