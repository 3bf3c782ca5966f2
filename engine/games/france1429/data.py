"""France 1429's box data as one typed value: the map and the printed components.

The two rulebooks (digest §2) name the components and their rules but lose much of what is
printed on them: the English text dropped every digit printed as a picture (counter counts,
starting money, die faces), and neither names every Lord card nor prints the cards' texts.
``BoxData`` holds: the families' colours, the 18 Lord cards (name, sex), the Lord opportunity,
Fortune and Disaster cards (counts, names in both editions, the key of each card's effect and
its play window), the dice, the counters (each family's stock, a player's start, the shared
supply), the prices and the relics. ``FranceData`` joins it to the map (``geography.MapData``):
the value a game keeps in its state.

``data/box.json`` ships what the seeds give, every other value ``null`` with a note under
``missing`` (by path, as the map file does); ``data/stand-in-invented.json`` is a complete
invented set, so the game can be played and simulated now. Each names its map file. ``SPEC``
is the package's ``data_spec`` (``engine.data``): option ``data`` = ``"stand-in"`` (default),
``"box"``, a user's file or an inline object; ``parse_data`` is pure over what the caller read.
``missing_for`` lists the values a game with a given player count and options needs and the
data leave out; ``refusals`` is the reason to refuse such a game, one ``Violation`` per value
or broken rule, each naming it.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from engine.data import DataDoc, DataSpec, Provenance, parse_json, top_level_provenance
from engine.games.france1429.geography import (
    RANK_SIZE,
    FiefRank,
    MapData,
    parse_map,
    schema_error,
)
from engine.games.france1429.map_checks import map_gaps, map_problems
from engine.games.france1429.schemas import BOX_SCHEMA
from engine.games.france1429.sources import GAME_KEY, REF, Missing
from engine.violations import InputError, Violation

BOX_FORMAT = "france1429-box/1"
PLAYERS = range(3, 7)
"""3 to 6 players: 6 colours of components, 3-player rules, no 2-player game (digest §1.3)."""

Sex = Literal["male", "female"]
Deck = Literal["lords", "fortune-disaster"]
Category = Literal["lord-opportunity", "regular", "opportunity", "disaster"]
Window = Literal["play-step", "any-but-draw", "on-draw"]
Lang = Literal["en", "pl"]

EFFECTS: tuple[str, ...] = (
    "cardinal",
    "darc",
    "bountiful-harvest",
    "good-weather",
    "taxes",
    "uprising",
    "secret-passage",
    "assassination",
    "justice",
    "ambush",
    "heavy-rain",
    "famine",
    "plague",
)
"""The effect keys a card may carry; the rules implement each one (digest §11, §12.1)."""

RELIC_EFFECTS: tuple[str, ...] = (
    "holy-grail",
    "eyes-of-saint-roseline",
    "teeth-of-saint-geronce",
    "holy-spear",
    "bone-of-saint-rhadegund",
)
"""The powers of the five Holy Relics (optional rule, digest §12.2)."""

WINDOW_OF: dict[Category, Window] = {
    "regular": "play-step",
    "opportunity": "any-but-draw",
    "lord-opportunity": "any-but-draw",
    "disaster": "on-draw",
}
"""When a card of each category is played (digest §5 Phase 2, §11): regular Fortune cards in
the Play Cards step only, opportunity cards any time but the Draw step, a Disaster on being
drawn (it goes face down to the track)."""

DECK_OF: dict[Category, Deck] = {
    "lord-opportunity": "lords",
    "regular": "fortune-disaster",
    "opportunity": "fortune-disaster",
    "disaster": "fortune-disaster",
}
"""The deck each category is shuffled into (digest §2.3): Lords (brown) or Fortune & Disaster."""

LORD_WINDOW: Window = "play-step"
"""Lord cards are played only in the Play Cards step (digest §5 Phase 2c)."""

BUILTIN_BOXES: dict[str, str] = {"stand-in": "stand-in-invented.json", "box": "box.json"}
"""The shipped sets: a complete invented one (the default) and what the seeds give."""

DEFAULT_SET = "stand-in"

NOT_NEEDED = ("supply.deniers",)
"""Counts the referee does not use: it keeps money as a ledger, not as counted coins."""

PRICE_KEYS = ("men_at_arms", "knight", "mill", "stronghold", "cardinal", "fief_title_per_village")


@dataclass(frozen=True, slots=True)
class BoxNames:
    """A name or text as printed in the English and the Polish edition; ``None``: not known."""

    en: str | None
    pl: str | None = None

    def get(self, lang: str) -> str | None:
        """The text in ``lang``, else the English one."""
        return (self.pl if lang == "pl" else None) or self.en


@dataclass(frozen=True, slots=True)
class BoxColour:
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
class BoxCard:
    """A kind of card with ``count`` copies: the Lords deck's Cardinal and d'ARC cards, or a
    Fortune (grey) or Disaster (black) card of the shared deck.

    ``effect`` is the key the rules implement the card by (``EFFECTS``); ``window`` when it is
    played (``WINDOW_OF`` its ``category``). ``text`` is what the card prints (``None``: not in
    the seeds; the effect is in the rules at ``rule``); ``invented`` marks an invented text.
    """

    id: str
    deck: Deck
    category: Category
    window: Window
    count: int
    effect: str
    names: BoxNames
    text: BoxNames
    rule: str = ""
    invented: bool = False
    source: str = ""


@dataclass(frozen=True, slots=True)
class BoxDice:
    """The Battle Dice (``battle_colours``: how many of each colour; ``battle_faces``: hit
    symbols on the six faces; ``colour_roles``: what each colour is for) and the six-sided die
    (``d6_supplied``: which physical die gives "1D6", not listed among the components)."""

    battle_colours: dict[str, int]
    battle_faces: tuple[int, ...] | None
    colour_roles: dict[str, str] | None = None
    d6_faces: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
    d6_supplied: str | None = None


@dataclass(frozen=True, slots=True)
class BoxRelic:
    """A Holy Relic counter (optional rule, digest §12.2); ``effect`` its power's key."""

    id: str
    effect: str
    names: BoxNames
    source: str = ""


@dataclass(frozen=True, slots=True)
class BoxData:
    """Everything printed on the components, besides the map, that a whole game uses.

    ``stock`` is each family's set of counters, ``start`` what a player begins with, ``supply``
    the shared counters (keys such as ``knights``, ``mills``; a ``None`` count is not known),
    ``prices`` the Deniers each purchase costs (digest §7.2). ``invented`` marks a stand-in
    (never the printed values); ``missing`` and ``notes`` explain ``null`` values and doubtful
    readings by path, as in the map file.
    """

    name: str
    colours: tuple[BoxColour, ...]
    lords: tuple[LordCard, ...]
    cards: tuple[BoxCard, ...]
    dice: BoxDice
    stock: dict[str, int | None]
    start: dict[str, int | None]
    supply: dict[str, int | None]
    prices: dict[str, int]
    relics: tuple[BoxRelic, ...]
    invented: bool = False
    verified: bool = False
    source: str = ""
    missing: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)

    def card(self, card_id: str) -> BoxCard | None:
        """The card kind with this id, or None."""
        return next((c for c in self.cards if c.id == card_id), None)

    def lord(self, lord_id: str) -> LordCard | None:
        """The Lord card with this id, or None."""
        return next((x for x in self.lords if x.id == lord_id), None)

    def deck(self, deck: Deck) -> tuple[str, ...]:
        """Every card of ``deck`` by id, one entry per copy, in file order (unshuffled): the
        Lords deck holds each Lord card once and the Lord opportunity cards."""
        ids = [x.id for x in self.lords] if deck == "lords" else []
        for c in self.cards:
            if c.deck == deck:
                ids += [c.id] * c.count
        return tuple(ids)


@dataclass(frozen=True, slots=True)
class FranceData:
    """The whole of a game's printed data: the board (``map``) and the components (``box``).

    Loaded at the edge (``engine.data.load`` with ``SPEC``) and kept in the game's state, so
    the rules read printed values without reading a file.
    """

    map: MapData
    box: BoxData

    @property
    def name(self) -> str:
        return self.box.name

    @property
    def invented(self) -> bool:
        """True when either part is an invented stand-in, not the printed game."""
        return self.box.invented or self.map.invented

    def fief_size(self, fief_id: str) -> int:
        """How many Villages the Fief holds: 2 a Barony, 3 a County, 4 a Duchy (digest §3.1)."""
        return len(self.map.fief_villages.get(fief_id, ()))

    def fief_rank(self, fief_id: str) -> FiefRank | None:
        """The Fief's rank from its size (its title: Baron, Count, Duke), None off the rules."""
        return next((r for r, n in RANK_SIZE.items() if n == self.fief_size(fief_id)), None)

    def fief_title_cost(self, fief_id: str) -> int:
        """Deniers for the Fief Title: the price per Village times its Villages, 4/6/8 (§7.2)."""
        return self.box.prices["fief_title_per_village"] * self.fief_size(fief_id)


# --- reading ---------------------------------------------------------------------------------


def box_schema() -> dict[str, Any]:
    """The JSON Schema of a box data file (``schemas.BOX_SCHEMA``, shipped as
    ``data/box.schema.json``); a copy the caller may change."""
    return copy.deepcopy(BOX_SCHEMA)


def parse_box(doc: object, *, trusted: bool = False) -> BoxData:
    """A decoded box data document as ``BoxData`` (its ``map`` is not read here);
    ``InputError`` (``input/schema``) naming the JSON path of the clearest fault if it does not
    fit ``data/box.schema.json``, or (``input/data``) of a card or relic that contradicts the
    rules (``box_problems``). ``trusted``: a shipped set, whose format the package's tests
    check, is not validated again at each load. Pure: the caller reads the file."""
    error = None if trusted else schema_error(doc, BOX_SCHEMA, "input/schema")
    if error is not None:
        raise error
    raw = cast(dict[str, Any], doc)
    dice = raw["dice"]
    battle, d6 = dice["battle"], dice["d6"]
    faces = battle.get("faces")
    roles = battle.get("colour_roles")
    box = BoxData(
        name=str(raw["name"]),
        colours=tuple(
            BoxColour(c["name"], bool(c.get("invented", False)), str(c.get("source", "")))
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
        dice=BoxDice(
            battle_colours={str(k): int(v) for k, v in battle["colours"].items()},
            battle_faces=None if faces is None else tuple(int(f) for f in faces),
            colour_roles=None if roles is None else {str(k): str(v) for k, v in roles.items()},
            d6_faces=tuple(int(f) for f in d6["faces"]),
            d6_supplied=d6.get("supplied"),
        ),
        stock=dict(raw["stock"]),
        start=dict(raw["start"]),
        supply=dict(raw["supply"]),
        prices={str(k): int(v) for k, v in raw["prices"].items()},
        relics=tuple(
            BoxRelic(str(r["id"]), str(r["effect"]), _names(r["names"]), str(r.get("source", "")))
            for r in raw["relics"]
        ),
        invented=bool(raw.get("invented", False)),
        verified=bool(raw.get("verified", False)),
        source=str(raw.get("source", "")),
        missing={str(k): str(v) for k, v in raw.get("missing", {}).items()},
        notes={str(k): str(v) for k, v in raw.get("notes", {}).items()},
    )
    problems = box_problems(box)
    if problems:
        raise InputError("input/data", "; ".join(problems), "$")
    return box


def _names(raw: dict[str, Any]) -> BoxNames:
    return BoxNames(raw.get("en"), raw.get("pl"))


def _card(c: dict[str, Any]) -> BoxCard:
    return BoxCard(
        id=str(c["id"]),
        deck=cast(Deck, c["deck"]),
        category=cast(Category, c["category"]),
        window=cast(Window, c["window"]),
        count=int(c["count"]),
        effect=str(c["effect"]),
        names=_names(c["names"]),
        text=_names(c["text"]),
        rule=str(c.get("rule", "")),
        invented=bool(c.get("invented", False)),
        source=str(c.get("source", "")),
    )


def box_problems(box: BoxData) -> list[str]:
    """What in ``box`` contradicts the rules whatever the printed values: a repeated id, a card
    in the wrong deck or play window for its category, an effect given to two kinds of card,
    a relic power twice, a colour twice. Each a sentence naming the place (empty: none)."""
    out: list[str] = []
    for what, ids in (
        ("Lord card", [x.id for x in box.lords]),
        ("card", [c.id for c in box.cards]),
        ("relic", [r.id for r in box.relics]),
        ("colour", [c.name for c in box.colours if c.name is not None]),
    ):
        out += [f"the {what} {i!r} is listed twice" for i, n in Counter(ids).items() if n > 1]
    for c in box.cards:
        if c.deck != DECK_OF[c.category]:
            out.append(f"cards[{c.id}]: a {c.category} card belongs to the {DECK_OF[c.category]} "
                       f"deck, not {c.deck}")  # fmt: skip
        if c.window != WINDOW_OF[c.category]:
            out.append(f"cards[{c.id}]: a {c.category} card is played {WINDOW_OF[c.category]}, "
                       f"not {c.window}")  # fmt: skip
    effects = Counter(c.effect for c in box.cards)
    out += [f"two kinds of card have the effect {e!r}" for e, n in effects.items() if n > 1]
    powers = Counter(r.effect for r in box.relics)
    out += [f"two relics have the power {e!r}" for e, n in powers.items() if n > 1]
    return out


def parse_data(source: DataDoc) -> FranceData:
    """The ``FranceData`` a data document describes: its box data and the map it names.

    ``"map"`` is a map file's name, read beside the document (a shipped set's map is shipped),
    or the map document itself. ``"extends": "stand-in"`` (or ``"box"``) takes every field the
    document leaves out from that shipped set, so a user can give just their own map, say
    ``{"extends": "stand-in", "map": "my-map.json"}``. ``InputError`` names the JSON path of a
    fault, in the map file when the fault is there."""
    raw = source.doc
    if not isinstance(raw, dict):
        raise InputError("input/schema", f"{source.source}: a data document is a JSON object", "$")
    doc = dict(raw)
    map_reader = source.beside
    base = doc.pop("extends", None)
    if base is not None:
        file = BUILTIN_BOXES.get(base) if isinstance(base, str) else None
        if file is None:
            known = ", ".join(BUILTIN_BOXES)
            raise InputError(
                "input/data", f"extends names a shipped set ({known}), not {base!r}", "$.extends"
            )
        shipped = parse_json(source.shipped(file), file)
        if "map" not in doc:
            map_reader = source.shipped
        doc = {**shipped, **doc}
    box = parse_box(doc, trusted=source.builtin)
    if source.builtin and box.name != source.source:
        raise InputError("input/data", f"the shipped {source.source!r} set is named {box.name!r}")
    shipped_map = source.builtin or (base is not None and "map" not in raw)
    return FranceData(_map(doc["map"], map_reader, shipped_map), box)


def _map(ref: object, read: Any, trusted: bool) -> MapData:
    if isinstance(ref, dict):
        try:
            return parse_map(ref)
        except InputError as exc:
            path = "$.map" + exc.path.removeprefix("$")
            raise InputError(exc.code, f"the map: {exc.detail}", path) from exc
    name = str(ref)
    try:
        return parse_map(parse_json(read(name), name), trusted=trusted)
    except InputError as exc:
        raise InputError(exc.code, f"{name}: {exc.detail}", exc.path) from exc


def provenance(doc: DataDoc) -> Provenance:
    """What of a document that ``extends`` a shipped set is still that set's (``engine.data``)."""
    return top_level_provenance(doc, BUILTIN_BOXES)


SPEC = DataSpec(
    option="data",
    default=DEFAULT_SET,
    shipped=BUILTIN_BOXES,
    parse=parse_data,
    provenance=provenance,
)
"""France 1429's data declaration (``engine.data``): the ``data`` option names the set; the
default is the invented stand-in, so a game can be played now."""


# --- what a game needs and the data lack ------------------------------------------------------


def box_gaps(
    box: BoxData, players: int = max(PLAYERS), *, everything: bool = False
) -> list[Missing]:
    """The values of ``box`` a game of ``players`` needs and the file leaves ``null``.

    Needed: the name on every Lord card (to tell which card a player drew), a colour for each
    seat, every counter count but the Deniers, the Battle Dice faces. ``everything=True`` adds
    what is only shown or never used (card texts, which die gives 1D6, what the two Battle Dice
    colours are for, the Denier coins).
    """
    out: list[Missing] = []

    def gap(what: str, code: str, ref: str, needed: bool = True, **params: Any) -> None:
        if needed or everything:
            out.append(
                Missing(what, code, Missing.note_for(box.missing, what), ref, params, needed)
            )

    for i in range(players):
        colour = box.colours[i] if i < len(box.colours) else None
        if colour is None or colour.name is None:
            gap(
                f"colours[{i}]",
                "data/missing-colour",
                REF["colours"],
                number=i + 1,
                players=players,
            )
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
    data: FranceData, players: int, options: dict[str, Any] | None = None
) -> list[Missing]:
    """Every value a game of ``players`` with ``options`` needs that the data leave out: the
    map's unknown Fiefs and Bishoprics and incomplete lists (``map_gaps``), then the box's
    (``box_gaps``). With ``holy_relics`` the relics start on the Principal Villages, which the
    map check already requires; no option needs more. Empty: the data can carry a whole game
    (the map may still break a rule: ``refusals``)."""
    read_players(players)
    _ = options
    return map_gaps(data.map) + box_gaps(data.box, players)


def refusals(
    data: FranceData, players: int, options: dict[str, Any] | None = None
) -> list[Violation]:
    """Why a game cannot start with these data: every broken map rule (``map_problems``) and
    every missing value (``missing_for``), one ``Violation`` each, each naming it. Empty: the
    game may start. ``setup`` raises ``RuleViolation(refusals(...))`` when it is not empty."""
    return map_problems(data.map) + [g.violation() for g in missing_for(data, players, options)]


__all__ = [
    "GAME_KEY",
    "SPEC",
    "BoxCard",
    "BoxData",
    "FranceData",
    "missing_for",
    "parse_data",
    "refusals",
]
