"""The printed contents of a France 1429 box besides the map, as data.

The two rulebooks (digest §2) name the components and their rules but lose much of what is
printed on them: the English text dropped every digit printed as a picture (counter counts,
starting money, die faces), and neither names every Lord card nor prints the cards' texts.
``BoxData`` holds: the families' colours, the 18 Lord cards (name, sex), the Lord opportunity,
Fortune and Disaster cards (counts, names in both editions, kind, printed text), the dice, the
counters (each family's stock, a player's start, the shared supply) and the relics.

``data/box.json`` ships what the seeds give, every other value ``null`` with a note under
``missing`` (by path, as the map file does); ``data/stand-in-invented.json`` is a complete
invented set, so the game can be played and simulated now. ``parse_box`` is pure (the caller
reads the file). ``missing_for`` lists the values a game with a given player count and options
needs and the data (box and map) leave out; ``refusals`` is the reason to refuse such a game,
one ``Violation`` per value or broken map rule, each naming it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from engine.games.france1429.geography import MapData, _package_text, schema_error
from engine.games.france1429.map_checks import map_gaps, map_problems
from engine.games.france1429.sources import REF, Missing, note_for
from engine.violations import InputError, Violation

BOX_FORMAT = "france1429-box/1"
PLAYERS = range(3, 7)
"""3 to 6 players: 6 colours of components, 3-player rules, no 2-player game (digest §1.3)."""

Sex = Literal["male", "female"]
Deck = Literal["lords", "fortune-disaster"]
CardKind = Literal["lord-opportunity", "regular", "opportunity", "disaster"]
Lang = Literal["en", "pl"]

BUILTIN_BOXES: dict[str, str] = {"box": "box.json", "stand-in": "stand-in-invented.json"}
"""The shipped box data: what the seeds give (``box``) and a complete invented set."""

NOT_NEEDED = ("supply.deniers",)
"""Counts the referee does not use: it keeps money as a ledger, not as counted coins (FR-9)."""


@dataclass(frozen=True, slots=True)
class Names:
    """A name or text as printed in the English and the Polish edition; ``None``: not known."""

    en: str | None
    pl: str | None = None

    def get(self, lang: str) -> str | None:
        """The text in ``lang``, else the English one."""
        return (self.pl if lang == "pl" else None) or self.en


@dataclass(frozen=True, slots=True)
class Colour:
    """A family's colour (its Family Board and counters); ``name`` ``None``: not known."""

    name: str | None
    invented: bool = False
    source: str = ""


@dataclass(frozen=True, slots=True)
class LordCard:
    """One of the 18 Lord cards, each with a matching token: a name and a sex.

    Sex matters to the rules (marriage, Bishop and King candidates, a Lady's strength points);
    the name lets the referee and the camera tell which card a player drew.
    """

    id: str
    name: str | None
    sex: Sex
    invented: bool = False
    source: str = ""


@dataclass(frozen=True, slots=True)
class Card:
    """A kind of card with ``count`` copies: the Lords deck's Cardinal and d'ARC cards, or a
    Fortune (grey) or Disaster (black) card of the shared deck.

    ``kind`` sets when it is played: ``regular`` only in the Play Cards step, ``opportunity``
    and ``lord-opportunity`` any time but the Draw step, ``disaster`` on being drawn (digest
    §2.3, §5). ``text`` is what the card prints (``None``: not in the seeds; the effect is in
    the rules at ``rule``); ``invented`` marks an invented text.
    """

    id: str
    deck: Deck
    kind: CardKind
    count: int
    names: Names
    text: Names
    rule: str = ""
    invented: bool = False
    source: str = ""


@dataclass(frozen=True, slots=True)
class Dice:
    """The Battle Dice (``battle_colours``: how many of each colour; ``battle_faces``: hit
    symbols on the six faces; ``colour_roles``: what each colour is for) and the six-sided die
    (``d6_supplied``: which physical die gives "1D6", not listed among the components)."""

    battle_colours: Mapping[str, int]
    battle_faces: tuple[int, ...] | None
    colour_roles: Mapping[str, str] | None = None
    d6_faces: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
    d6_supplied: str | None = None


@dataclass(frozen=True, slots=True)
class Relic:
    """A Holy Relic counter (optional rule, digest §12.2)."""

    id: str
    names: Names
    source: str = ""


@dataclass(frozen=True, slots=True)
class BoxData:
    """Everything printed on the components, besides the map, that a whole game uses.

    ``stock`` is each family's set of counters, ``start`` what a player begins with, ``supply``
    the shared counters (keys such as ``knights``, ``mills``; a ``None`` count is not known).
    ``invented`` marks a stand-in (never the printed values); ``missing`` and ``notes`` explain
    ``null`` values and doubtful readings by path, as in the map file.
    """

    name: str
    colours: tuple[Colour, ...]
    lords: tuple[LordCard, ...]
    cards: tuple[Card, ...]
    dice: Dice
    stock: Mapping[str, int | None]
    start: Mapping[str, int | None]
    supply: Mapping[str, int | None]
    relics: tuple[Relic, ...]
    invented: bool = False
    verified: bool = False
    source: str = ""
    missing: Mapping[str, str] = field(default_factory=dict)
    notes: Mapping[str, str] = field(default_factory=dict)

    def card(self, card_id: str) -> Card | None:
        return next((c for c in self.cards if c.id == card_id), None)


# --- reading ---------------------------------------------------------------------------------


def box_schema() -> dict[str, Any]:
    """The JSON Schema of a box data file (``data/box.schema.json``)."""
    schema: dict[str, Any] = json.loads(_package_text("box.schema.json"))
    return schema


def parse_box(doc: object) -> BoxData:
    """A decoded box data document as ``BoxData``; ``InputError`` (``input/schema``) naming the
    JSON path of the clearest fault if it does not fit ``data/box.schema.json``. Pure."""
    error = schema_error(doc, box_schema(), "input/schema")
    if error is not None:
        raise error
    raw = cast(dict[str, Any], doc)
    dice = raw["dice"]
    battle, d6 = dice["battle"], dice["d6"]
    faces = battle.get("faces")
    return BoxData(
        name=str(raw["name"]),
        colours=tuple(
            Colour(c["name"], bool(c.get("invented", False)), str(c.get("source", "")))
            for c in raw["colours"]
        ),
        lords=tuple(
            LordCard(
                str(x["id"]),
                x["name"],
                cast(Sex, x["sex"]),
                bool(x.get("invented", False)),
                str(x.get("source", "")),
            )
            for x in raw["lords"]
        ),
        cards=tuple(_card(c) for c in raw["cards"]),
        dice=Dice(
            battle_colours={str(k): int(v) for k, v in battle["colours"].items()},
            battle_faces=None if faces is None else tuple(int(f) for f in faces),
            colour_roles=battle.get("colour_roles"),
            d6_faces=tuple(int(f) for f in d6["faces"]),
            d6_supplied=d6.get("supplied"),
        ),
        stock=dict(raw["stock"]),
        start=dict(raw["start"]),
        supply=dict(raw["supply"]),
        relics=tuple(
            Relic(str(r["id"]), _names(r["names"]), str(r.get("source", ""))) for r in raw["relics"]
        ),
        invented=bool(raw.get("invented", False)),
        verified=bool(raw.get("verified", False)),
        source=str(raw.get("source", "")),
        missing={str(k): str(v) for k, v in raw.get("missing", {}).items()},
        notes={str(k): str(v) for k, v in raw.get("notes", {}).items()},
    )


def _names(raw: Mapping[str, Any]) -> Names:
    return Names(raw.get("en"), raw.get("pl"))


def _card(c: Mapping[str, Any]) -> Card:
    return Card(
        id=str(c["id"]),
        deck=cast(Deck, c["deck"]),
        kind=cast(CardKind, c["kind"]),
        count=int(c["count"]),
        names=_names(c["names"]),
        text=_names(c["text"]),
        rule=str(c.get("rule", "")),
        invented=bool(c.get("invented", False)),
        source=str(c.get("source", "")),
    )


def builtin_box(name: str = "box") -> BoxData:
    """Shipped box data: ``"box"`` (what the seeds give) or ``"stand-in"`` (complete, invented)."""
    file = BUILTIN_BOXES.get(name)
    if file is None:
        raise InputError("input/box", f"no shipped box data {name!r}; known: {sorted(BUILTIN_BOXES)}")
    return parse_box(json.loads(_package_text(file)))


# --- what a game needs and the data lack ------------------------------------------------------


def box_gaps(box: BoxData, players: int = max(PLAYERS), *, everything: bool = False) -> list[Missing]:
    """The values of ``box`` a game of ``players`` needs and the file leaves ``null``.

    Needed: the name on every Lord card (to tell which card a player drew), a colour for each
    seat, every counter count but the Deniers, the Battle Dice faces. ``everything=True`` adds
    what is only shown or never used (card texts, which die gives 1D6, what the two Battle Dice
    colours are for, the Denier coins).
    """
    out: list[Missing] = []

    def gap(what: str, code: str, ref: str, needed: bool = True, **params: Any) -> None:
        if needed or everything:
            out.append(Missing(what, code, note_for(box.missing, what), ref, params, needed))

    for i in range(players):
        colour = box.colours[i] if i < len(box.colours) else None
        if colour is None or colour.name is None:
            gap(f"colours[{i}]", "data/missing-colour", REF["colours"], number=i + 1, players=players)
    for lord in box.lords:
        if lord.name is None:
            gap(f"lords[{lord.id}].name", "data/missing-lord-name", REF["lords"], card=lord.id)
    for part, counts in (("stock", box.stock), ("start", box.start), ("supply", box.supply)):
        for key, count in counts.items():
            if count is None:
                what = f"{part}.{key}"
                gap(what, "data/unknown-value", REF["data"], what not in NOT_NEEDED)
    if box.dice.battle_faces is None:
        gap("dice.battle.faces", "data/unknown-value", REF["dice"])
    if box.dice.colour_roles is None:
        gap("dice.battle.colour_roles", "data/unknown-value", REF["dice"], False)
    if box.dice.d6_supplied is None:
        gap("dice.d6.supplied", "data/unknown-value", REF["dice"], False)
    for card in box.cards:
        if card.text.en is None:
            gap(f"cards[{card.id}].text", "data/unknown-value", REF["cards"], False)
    return out


def read_players(players: object) -> int:
    """The player count, refused unless 3 to 6 (digest §1.3)."""
    if isinstance(players, bool) or not isinstance(players, int) or players not in PLAYERS:
        raise InputError("input/players", f"France 1429 is for 3 to 6 players, not {players!r}")
    return players


def missing_for(
    box: BoxData, m: MapData, players: int, options: Mapping[str, Any] | None = None
) -> list[Missing]:
    """Every value a game of ``players`` with ``options`` needs that the box data or the map
    leave out: the map's unknown Fiefs and Bishoprics and incomplete lists (``map_gaps``), then
    the box's (``box_gaps``). With ``holy_relics`` the relics start on the Principal Villages,
    which the map check already requires; no option needs more. Empty: the data can carry a
    whole game (the map may still break a rule: ``refusals``)."""
    read_players(players)
    _ = options
    return map_gaps(m) + box_gaps(box, players)


def refusals(
    box: BoxData, m: MapData, players: int, options: Mapping[str, Any] | None = None
) -> list[Violation]:
    """Why a game cannot start with these data: every broken map rule (``map_problems``) and
    every missing value (``missing_for``), one ``Violation`` each, each naming it."""
    return map_problems(m) + [g.violation() for g in missing_for(box, m, players, options)]
