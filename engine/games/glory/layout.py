"""Glory on the camera's board profile: where each pawn, crest, Knight, card and token lies.

One list of table items serves both directions, so what the simulated camera draws and what
the referee expects to read can never disagree:

- **by sticker** (``engine.layout.Placed`` kind ``sticker``): pawns ``pawn:<seat>`` standing on
  the city board's action fields (``field:<id>``, several to a field), the Initiative Track's
  crests ``crest:<seat>`` (``initiative:<k>``, best first), and on the Tournament Board the
  Knights ``knight:<name>`` and the registered crests: Joust bottom-row spaces ``joust:<k>``,
  Pas d'armes cities ``city:<c>/knight:<s>`` with the crest space ``city:<c>/crest:<s>`` beside
  each Knight (rules/glory.md §2.1, §4.5 [L304-315]);
- **by appearance** (``picture``, read by the slot classifier as a ``tile`` with its face's
  attributes from ``camera/faces.json``): the four face-up cards of each Quest column, Romance,
  Market and Challenge (``column:<deck>/slot:<k>`` [L247-252]); the Ally Track's tokens
  (``ally-track:<k>`` [L227-243]); each seat's Character card (``seat:<seat>/character``).

Not read (the referee keeps them, or a person confirms): cards in hand, Glory markers,
resource tokens, equipment cards, the Joust bracket above its bottom row (duel results come from
the dice), and the order of a Quest column after a card is taken (the state keeps the column
closed up, so the cards below a taken one are expected one slot higher).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from engine.games.glory.data_types import Box
from engine.games.glory.state import GloryState
from engine.layout import Item, ItemReading, Placed, Rect, centred_picture, region_rect, sticker

PICTURE_MM = 30.0
"""A card or token drawn in its slot (the slots are 32 mm)."""
FIELD_SPOTS_MM = tuple((9.0 + 16.0 * c, 9.0 + 16.0 * r) for r in range(3) for c in range(4))
"""Where the first, second... pawn on one action field stands, from the field's top left
corner: twelve spots 16 mm apart (a pawn's disc stays clear of its neighbour's sticker)."""

KINDS: tuple[str, ...] = ("pawn", "crest", "knight", "tile")
"""The kinds of piece a move can change; ``tile`` is anything read by appearance."""


def character_key(character: str) -> str:
    return f"gl:character:{character}"


def quest_key(card: str) -> str:
    return f"gl:quest:{card}"


def ally_key(ally: str) -> str:
    return f"gl:ally:{ally}"


def camera_faces(box: Box) -> dict[str, dict[str, Any]]:
    """The stand-in art's face map for the box: art key → the attributes that face shows."""
    out: dict[str, dict[str, Any]] = {}
    for c in box.data.characters:
        out[character_key(c.id)] = {"character": c.id}
    for q in box.data.quests:
        out[quest_key(q.id)] = {"card": q.id, "deck": q.deck}
    for a in box.data.allies:
        out[ally_key(a.kind)] = {"ally": a.kind}
    return out


def items(state: GloryState) -> Iterator[Item]:
    """Every component of ``state`` the camera reads, in its region."""
    for p in state.players:
        if p.character:
            attrs = {"character": p.character}
            yield Item("picture", character_key(p.character), f"seat:{p.seat}/character", attrs)
    for deck, cards in sorted(state.columns.items()):
        for k, card in enumerate(cards, start=1):
            attrs = {"card": card, "deck": deck}
            yield Item("picture", quest_key(card), f"column:{deck}/slot:{k}", attrs)
    for k, ally in enumerate(state.ally_track, start=1):
        if ally is not None:
            yield Item("picture", ally_key(ally), f"ally-track:{k}", {"ally": ally})
    for placement in state.placements:
        yield Item("sticker", f"pawn:{placement.seat}", f"field:{placement.field}", {})
    for k, seat in enumerate(state.order, start=1):
        yield Item("sticker", f"crest:{seat}", f"initiative:{k}", {})
    t = state.tournament
    if t is None:
        return
    for k, entrant in enumerate(t.bracket[0] if t.bracket else (), start=1):
        if entrant is not None:
            label = f"crest:{entrant.name}" if entrant.player else f"knight:{entrant.name}"
            yield Item("sticker", label, f"joust:{k}", {})
    for c, city in enumerate(t.cities, start=1):
        for s, slot in enumerate(city, start=1):
            yield Item("sticker", f"knight:{slot.knight}", f"city:{c}/knight:{s}", {})
            if slot.crest:
                yield Item("sticker", f"crest:{slot.crest}", f"city:{c}/crest:{s}", {})


def picture_component(attrs: Mapping[str, Any]) -> str:
    """The key a picture's read attributes give (``tile:?`` when its face was not named)."""
    if isinstance(attrs.get("character"), str):
        return f"tile:character:{attrs['character']}"
    if isinstance(attrs.get("card"), str):
        return f"tile:quest:{attrs['card']}"
    if isinstance(attrs.get("ally"), str):
        return f"tile:ally:{attrs['ally']}"
    return "tile:?"


def layout(state: GloryState, regions: Mapping[str, Rect]) -> tuple[Placed, ...]:
    """Every component of ``state`` placed in the profile's ``regions``.

    Raises:
        ValueError: the profile has no region for a piece of the state.
    """
    out: list[Placed] = []
    standing: Counter[str] = Counter()
    for item in items(state):
        rect = region_rect(regions, item.region)
        if item.kind == "picture":
            out.append(centred_picture(item, rect, (PICTURE_MM, PICTURE_MM)))
            continue
        x, y, w, h = rect
        if item.region.startswith("field:"):
            k = standing[item.region]
            standing[item.region] += 1
            dx, dy = FIELD_SPOTS_MM[min(k, len(FIELD_SPOTS_MM) - 1)]
            center = (x + dx, y + dy)
        else:
            center = (x + w / 2, y + h / 2)
        out.append(sticker(item, center))
    return tuple(out)


class GloryTable(ItemReading[GloryState]):
    """Glory in the profile vocabulary (``engine.interpret.TableReading``), read from the same
    items the layout draws. Nothing lingers on a Glory table that the rules have removed; deals
    and refills are confirmed at the table, never read (they hold hidden cards); a move's
    choices are part of the move itself (``Place`` names them)."""

    kinds = KINDS

    def visible(self, state: GloryState) -> Iterator[Item]:
        return items(state)

    def picture_component(self, attrs: Mapping[str, Any]) -> str:
        return picture_component(attrs)


TABLE_READING = GloryTable()
