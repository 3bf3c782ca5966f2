"""The printed contents of a Glory box as data: what the rulebook text lost, users supply.

The seed (rules/glory.md §2, §11) names the components and their rules but not most of what
is printed on them: Character cards, Title values, Quest card texts, ally costs, Market prices,
which action fields are slots, the Tournament cards, the Knights' statistics. Those are fields
of ``GameData`` below, loaded from JSON (``data/box.json`` ships what the seed gives, every other
value ``null`` with a note; a user's full transcription replaces it). ``missing_for`` lists the
values a game with given options actually needs and the file leaves out, so a game is refused
only for those, naming each.

Effects on cards and fields share one vocabulary, ``Reward``: the resources, tokens and
upgrades a player gains (negative numbers are costs). A card whose reward field shows "/"
lists its alternatives in ``rewards`` and the player chooses one [L544-545].
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass, field, fields, is_dataclass, replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal, cast, get_args, get_origin, get_type_hints

import jsonschema

from engine import codec
from engine.games.glory.components import (
    COLUMN,
    DIE_TYPES,
    GAME_KEY,
    PUBLIC_TITLES,
    REF,
    ROUNDS,
    AllyKind,
    DiceTable,
    KnightData,
    KnightType,
    Level,
    PrestigeKind,
    RelicKind,
    parse_dice,
)
from engine.violations import InputError, RuleViolation, Violation

Deck = Literal["romance", "market", "challenge"]
DECKS: tuple[Deck, ...] = ("romance", "market", "challenge")
"""The three Quest decks [L247-252, L548-555]."""

Stack = Literal["I", "II", "III", "special", "scroll"]
STACKS: tuple[Stack, ...] = ("I", "II", "III", "special", "scroll")
"""Ally stacks told apart by their backs [L230]."""

Item = Literal["horse", "armour"]
TournamentType = Literal["joust", "pas-d-armes"]

ActionKind = Literal[
    "training",
    "prayer",
    "service",
    "initiative",
    "quest-plans",
    "guard",
    "solo-training",
    "marketplace",
    "allies",
    "herald",
    "new-goal",
]
"""The Main Board's actions [L417-480] (the Event action field is the Event's own)."""


@dataclass(frozen=True, slots=True)
class Upgrade:
    """Raise ``item`` by one level; ``from_level`` set: only from that level ("III → IV")."""

    item: Item
    from_level: Level | None = None


@dataclass(frozen=True, slots=True)
class TitleDraw:
    """Draw ``draw`` Title cards and keep ``keep`` as secret Personal Goals (New Goal, Zadanie)."""

    draw: int
    keep: int


@dataclass(frozen=True, slots=True)
class Reward:
    """What a card, field, Event or prize gives; negative amounts are paid.

    ``allies`` are taken from the named kinds' stacks (Scroll allies come only this way
    [L219-221]); ``quests`` draws that many Quest cards of any decks, as Quest Plans does.
    """

    coins: int = 0
    strength: int = 0
    faith: int = 0
    glory: int = 0
    allies: tuple[AllyKind, ...] = ()
    relics: tuple[RelicKind, ...] = ()
    prestige: tuple[PrestigeKind, ...] = ()
    upgrades: tuple[Upgrade, ...] = ()
    titles: TitleDraw | None = None
    quests: int = 0
    special_ally: bool = False


@dataclass(frozen=True, slots=True)
class Opponent:
    """A fixed opponent printed on a Challenge or Title card; ``None``: not known."""

    attack: int | None = None
    prestige: int | None = None


@dataclass(frozen=True, slots=True)
class CharacterCard:
    """A Character card [L134-192]: starting resources at the bottom, income at the top.

    ``titles_drawn``/``titles_kept`` are the trumpet and card-in-hand icons; ``quests`` the
    starting Quest cards per deck; ``special_ally`` marks a Level III card's Special Ally.
    """

    id: str
    level: Literal[1, 2, 3]
    coins: int | None = None
    strength: int | None = None
    faith: int | None = None
    glory: int | None = None
    horse: Level | None = None
    armour: Level | None = None
    titles_drawn: int | None = None
    titles_kept: int | None = None
    quests: dict[Deck, int] | None = None
    special_ally: bool | None = None
    income: Reward | None = None
    count: int = 1
    source: str = ""


TitleNeed = Literal[
    "coins",
    "strength",
    "faith",
    "allies",
    "relics",
    "prestige",
    "challenges-won",
    "market-played",
]


@dataclass(frozen=True, slots=True)
class TitleCard:
    """A Title card [L1547-1627]. Its condition is a list of needs, each met by distinct units.

    ``needs`` maps a kind of holding to a count; ``allies``/``relics`` need named kinds
    (``{"minstrel": 2}``) on top of ``needs`` counts of any kind. ``horse``/``armour`` are
    minimum levels; ``forbid_allies`` kinds the player must not hold (``never_held`` for the
    whole game, GL option); ``duel`` is the Dzielny duel fought in the Titles Phase.
    ``glory`` is printed on the card (only Wpływowy's 4 survives in the seed).
    """

    id: str
    name: str
    glory: int | None = None
    needs: dict[TitleNeed, int] = field(default_factory=dict)
    allies: dict[AllyKind, int] = field(default_factory=dict)
    relics: dict[RelicKind, int] = field(default_factory=dict)
    horse: Level | None = None
    armour: Level | None = None
    forbid_allies: tuple[AllyKind, ...] = ()
    duel: Opponent | None = None
    known: bool = True
    count: int = 1
    source: str = ""


@dataclass(frozen=True, slots=True)
class QuestCard:
    """A Quest card [L537-563, L1416-1506]: Market ``cost`` in Coins, Challenge ``opponent``."""

    id: str
    name: str
    deck: Deck
    rewards: tuple[Reward, ...] | None = None
    cost: int = 0
    opponent: Opponent | None = None
    count: int = 1
    source: str = ""


@dataclass(frozen=True, slots=True)
class AllyStock:
    """How many tokens of an ally kind lie in which stack [L230]."""

    kind: AllyKind
    stack: Stack | None = None
    count: int | None = None
    source: str = ""


@dataclass(frozen=True, slots=True)
class TrackSpace:
    """A space of the Ally Track: its cost and the fewest players it is used with [L227-243]."""

    cost: int | None = None
    min_players: int = 1
    special: bool = False
    source: str = ""


@dataclass(frozen=True, slots=True)
class ActionField:
    """An action field of the Main Board: a circle (``slot``, one pawn a round) or an area.

    ``min_players`` is 3 or 4 for spaces blocked at lower counts [L404-407].
    """

    id: str
    action: ActionKind
    slot: bool | None = None
    min_players: int = 1
    source: str = ""


EventKind = Literal["all", "action", "pawns"]


@dataclass(frozen=True, slots=True)
class EventCard:
    """An Event [L1294-1357]: for all players at the start of the Action Phase (``all``), an
    extra action field (``action``: pay ``cost``, gain ``reward``), or a pawn fewer (``pawns``).
    ``round`` is the dots on its back (only Urodzaj's 1 is in the seed). ``rewards`` lists the
    alternatives of a "/" reward (Oblężenie: Horse IV *or* Armour IV); when it is not empty the
    player takes one of them instead of ``reward``. ``known`` is false when part of the card's
    effect is not in the seed (Krucjata's cut-off tokens): such a card cannot be played."""

    id: str
    name: str
    kind: EventKind
    round: Literal[1, 2, 3] | None = None
    reward: Reward = Reward()
    cost: Reward = Reward()
    source: str = ""
    rewards: tuple[Reward, ...] = ()
    known: bool = True


@dataclass(frozen=True, slots=True)
class JoustSection:
    """A Joust round section of a Tournament card: knight types per bottom-row slot.

    ``starting`` maps a slot (0-based, left to right) to the Knight type placed at setup;
    ``after`` lists the types that fill the empty slots after Registration (in any order, GL-53).
    """

    slots: int
    starting: dict[int, KnightType]
    after: tuple[KnightType, ...]


@dataclass(frozen=True, slots=True)
class PasSection:
    """A Pas d'armes round section: the Knight types of each city, Florence, Paris, Munich."""

    cities: tuple[tuple[KnightType, ...], tuple[KnightType, ...], tuple[KnightType, ...]]


@dataclass(frozen=True, slots=True)
class TournamentCard:
    """A Tournament card [L283-307]: its type, player count and one section per round."""

    id: str
    type: TournamentType
    players: tuple[int, ...]
    joust: tuple[JoustSection, JoustSection, JoustSection] | None = None
    pas: tuple[PasSection, PasSection, PasSection] | None = None
    source: str = ""


@dataclass(frozen=True, slots=True)
class PrizeToken:
    """A Tournament Prize token [L115-118, L319-325] replacing the standard 1 GP + 1 Coin."""

    id: str
    reward: Reward | None = None
    source: str = ""


@dataclass(frozen=True, slots=True)
class SoloCard:
    """A solo deck card (Appendix A): actions I, II, III in order, and its Quest deck.

    Besides the Main Board's actions a card may show the Event field (``event``) and the
    Special Ally (``special-ally``: SIR discards the Special Ally from the track [L1223])."""

    id: str
    actions: tuple[ActionKind | Literal["event", "special-ally"], ...]
    deck: Deck | None = None
    personality: Literal["basic", "wojownik", "maz-bozy"] = "basic"
    source: str = ""


RivalLevel = Literal["easy", "medium", "hard"]
"""Solo "Rywal" difficulty: SIR fights with the chosen Knight's Attack and Prestige [L1178-1187]."""

ListName = Literal[
    "characters",
    "titles",
    "quests",
    "allies",
    "ally_track",
    "fields",
    "events",
    "tournaments",
    "prizes",
    "solo",
    "knights",
]


@dataclass(frozen=True, slots=True)
class Prices:
    """Marketplace prices: Coins for the *new* level of Horse or Armour [L454-460]."""

    horse: dict[Level, int | None]
    armour: dict[Level, int | None]


@dataclass(frozen=True, slots=True)
class GameData:
    """Everything printed on the components that a whole game needs.

    ``verified`` is true only for a file transcribed from a physical box; ``stand_in`` marks a
    complete but invented set (for the simulated table and tests), never the printed values.
    ``name`` identifies the data a game was started with (``"box"``, ``"stand-in"``, or a
    user file's name plus the sha256 of its content, see ``load_data``).

    ``rival`` holds SIR's Attack and Prestige per difficulty (solo "Rywal", Appendix A).
    ``missing`` says, for a value left ``null``, where it is printed and why the seed lacks it;
    ``notes`` flags given values that rest on a doubtful reading (OCR?, inferred). Keys are
    paths such as ``titles[silny].glory`` (list entries named by id, Knights by name, ``[*]``
    for every entry). ``incomplete`` names the lists the file holds only part of (the Quest
    decks of the box, say); a game that uses such a list is refused until it is completed.
    """

    name: str
    verified: bool
    stand_in: bool
    dice: DiceTable
    knights: dict[str, KnightData]
    characters: tuple[CharacterCard, ...]
    titles: tuple[TitleCard, ...]
    quests: tuple[QuestCard, ...]
    allies: tuple[AllyStock, ...]
    ally_track: tuple[TrackSpace, ...]
    fields: tuple[ActionField, ...]
    prices: Prices
    events: tuple[EventCard, ...]
    tournaments: tuple[TournamentCard, ...]
    prizes: tuple[PrizeToken, ...]
    solo: tuple[SoloCard, ...]
    standard_prize: Reward = Reward(coins=1, glory=1)
    source: str = ""
    rival: dict[RivalLevel, Opponent] = field(default_factory=dict)
    missing: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    incomplete: tuple[ListName, ...] = ()

    def __hash__(self) -> int:
        # Equal data have equal names (``load_data`` names a user's file by its content), so
        # the name is a valid hash and GameData can key caches despite its dict fields.
        return hash(self.name)


# --- what a game needs and the file lacks ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Missing:
    """A value a game needs that the data leaves ``null`` (or a list it holds only part of).

    ``what`` is the value's path (``titles[silny].glory``) or the list's name with what is
    short (``tournaments (joust, 2 players)``); ``why`` what the game needs it for; ``where``
    where it is printed and why the seed lacks it (the data file's ``missing`` note).
    """

    what: str
    why: str
    where: str


# --- loading ---------------------------------------------------------------------------------

BUILTIN: dict[str, str] = {"box": "box.json", "stand-in": "stand-in.json"}
"""The shipped data sets: what the seed gives (``box``) and a complete invented one."""

KEYS: dict[str, str] = {
    "characters": "id",
    "titles": "id",
    "quests": "id",
    "allies": "kind",
    "fields": "id",
    "events": "id",
    "tournaments": "id",
    "prizes": "id",
    "solo": "id",
    "knights": "name",
}
"""The lists a partial file merges by key; ``allies``: all entries of a kind at once."""

MAPS: tuple[str, ...] = ("prices", "rival", "missing", "notes")
"""Objects a partial file merges key by key (``prices`` per item, then per level)."""

LIST_NAMES: tuple[str, ...] = get_args(ListName)
LEVELS_BOUGHT: tuple[Level, ...] = (2, 3, 4)
"""Levels a Marketplace upgrade can reach (equipment starts at I-II and ends at IV)."""
ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV"}
DEFAULT_WHERE = "printed on the component; not in the rulebook text (rules/glory.md §11)"
SCHEMA_ID = "https://herald.invalid/schema/glory-data.json"
_PACKAGE = __package__ or "engine.games.glory"


def load_data(path: str | Path | None = None, *, stand_in: bool = False) -> GameData:
    """The printed contents of a Glory box, checked (``check_data``) and cached.

    With no ``path``: the shipped ``data/box.json`` (what the seed gives, the rest ``null``),
    or with ``stand_in=True`` the complete invented ``data/stand-in.json``. A user's ``path``
    is either a **full** document (every field of ``GameData``), or a **partial** one with
    ``"extends": "box"`` (or ``"stand-in"``) merged over that set: entries of ``characters``,
    ``titles``, ``quests``, ``fields``, ``events``, ``tournaments``, ``prizes``, ``solo`` merge
    by ``id`` field by field (a new id is added), ``knights`` by ``name``, ``allies`` by
    ``kind`` (a kind's entries are replaced together); ``prices``, ``rival``, ``missing``,
    ``notes`` merge key by key; anything else (``ally_track``, ``dice``, ``incomplete``…) is
    replaced. ``"replace": ["quests", …]`` takes the named lists as given instead of merging.
    ``dice`` and ``knights`` may name a file beside the document (``"dice.json"``).

    The result's ``name`` is ``"box"`` or ``"stand-in"`` for the shipped sets, and for a user
    file its ``name`` plus the sha256 of the loaded content (``"my-box@sha256:…"``), so a
    saved game can tell it is replayed with the same data. Raises ``InputError`` naming the
    JSON path of the first fault.
    """
    if path is None:
        return _builtin("stand-in" if stand_in else "box")
    if stand_in:
        raise InputError("input/data", "give either a data file or stand_in, not both")
    file = Path(path)
    text = _read_file(file)
    raw = _parse(text, str(file))
    _validate(raw, "#/$defs/File", str(file))
    doc, texts = _resolve(raw, _user_ref(file.parent))
    key = hashlib.sha256("\x00".join([text, *texts]).encode("utf-8")).hexdigest()
    cache_key = (str(file.resolve()), key)
    found = _FILES.get(cache_key)
    if found is not None:
        return found
    base = raw.get("extends")
    if base is not None:
        doc = _merge(_builtin_doc(str(base)), doc)
        _validate(doc, "#/$defs/Document", f"{file} merged over {base}.json")
    data = _decode(doc)
    check_data(data)
    digest = hashlib.sha256(_canonical(data).encode("utf-8")).hexdigest()[:16]
    data = replace(data, name=f"{data.name}@sha256:{digest}")
    _FILES[cache_key] = data
    return data


_FILES: dict[tuple[str, str], GameData] = {}


def data_name(data: GameData) -> str:
    """The identity a saved game records (``GloryState.data_name``): the loaded data's name."""
    return data.name


def table_players(players: int) -> int:
    """The player count the table is set up for: a solo game is set up as for two players
    [L1189] (Ally Track, blocked spaces, Tournament cards)."""
    return 2 if players == 1 else players


@cache
def _builtin(name: str) -> GameData:
    data = _decode(_builtin_doc(name))
    check_data(data)
    if data.name != name:
        raise InputError("input/data", f"the shipped {BUILTIN[name]} is named {data.name!r}")
    return data


@cache
def _builtin_doc_cached(name: str) -> str:
    text = _resource(BUILTIN[name])
    raw = _parse(text, BUILTIN[name])
    _validate(raw, "#/$defs/Document", BUILTIN[name])
    doc, _ = _resolve(raw, _resource)
    return json.dumps(doc)


def _builtin_doc(name: str) -> dict[str, Any]:
    """A shipped document with its file references read in (a fresh copy each time)."""
    if name not in BUILTIN:
        raise InputError("input/data", f"unknown shipped data {name!r}; known: {list(BUILTIN)}")
    doc: dict[str, Any] = json.loads(_builtin_doc_cached(name))
    return doc


def _resource(name: str) -> str:
    if "/" in name or "\\" in name or name.startswith("."):
        raise InputError("input/data", f"a shipped data file names a file beside it: {name!r}")
    try:
        node = resources.files(_PACKAGE).joinpath("data").joinpath(name)
        return node.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError("input/file", f"cannot read the shipped {name}: {exc}") from exc


def _user_ref(folder: Path) -> Callable[[str], str]:
    def read(name: str) -> str:
        return _read_file(folder / name)

    return read


def _read_file(file: Path) -> str:
    try:
        return file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError("input/file", f"cannot read {file}: {exc}") from exc


def _parse(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            "input/json", f"{where} is not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from exc


def _resolve(raw: dict[str, Any], read: Callable[[str], str]) -> tuple[dict[str, Any], list[str]]:
    """The document with ``dice``/``knights`` file names replaced by their contents, and the
    texts read (for the cache key). A dice file's ``missing`` notes join the document's."""
    doc = dict(raw)
    texts: list[str] = []
    for key in ("dice", "knights"):
        ref = doc.get(key)
        if isinstance(ref, str):
            text = read(ref)
            texts.append(text)
            content = _parse(text, ref)
            if key == "knights":
                if not isinstance(content, dict) or not isinstance(content.get("knights"), list):
                    raise InputError(
                        "input/schema",
                        f"{ref} is not a knights file {{'knights': [...]}}",
                        "$.knights",
                    )
                content = content["knights"]
            doc[key] = content
    dice = doc.get("dice")
    if isinstance(dice, dict) and isinstance(dice.get("missing"), dict):
        notes = {str(k): str(v) for k, v in dice["missing"].items()}
        doc["missing"] = {**notes, **doc.get("missing", {})}
    return doc, texts


def _merge(base: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """``patch`` (a partial document) over ``base`` (a full one), as ``load_data`` says."""
    out = dict(base)
    whole = set(patch.get("replace", ()))
    for name, value in patch.items():
        if name in ("$schema", "extends", "replace"):
            continue
        if name in KEYS and name not in whole:
            out[name] = _merge_list(base.get(name, []), value, KEYS[name], name == "allies")
        elif name in MAPS and name not in whole:
            out[name] = _merge_map(base.get(name, {}), value)
        else:
            out[name] = value
    return out


def _merge_list(
    base: list[dict[str, Any]], patch: list[dict[str, Any]], key: str, by_group: bool
) -> list[dict[str, Any]]:
    if by_group:
        kinds = {e[key] for e in patch}
        kept = [e for e in base if e[key] not in kinds]
        return kept + list(patch)
    out = [dict(e) for e in base]
    where = {e[key]: i for i, e in enumerate(out)}
    for entry in patch:
        i = where.get(entry[key])
        if i is None:
            where[entry[key]] = len(out)
            out.append(dict(entry))
        else:
            out[i].update(entry)
    return out


def _merge_map(base: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in patch.items():
        old = out.get(k)
        out[k] = _merge_map(old, v) if isinstance(old, dict) and isinstance(v, dict) else v
    return out


def _decode(doc: dict[str, Any]) -> GameData:
    hints = get_type_hints(GameData)
    kwargs: dict[str, Any] = {}
    for f in fields(GameData):
        if f.name in ("dice", "knights") or f.name not in doc:
            continue
        kwargs[f.name] = codec.decode(hints[f.name], doc[f.name], f"$.{f.name}")
    try:
        dice = parse_dice(doc["dice"])
    except InputError as exc:
        raise InputError(exc.code, exc.detail, "$.dice" + exc.path[1:]) from exc
    knights: dict[str, KnightData] = {}
    for i, entry in enumerate(doc["knights"]):
        knight: KnightData = codec.decode(KnightData, entry, f"$.knights[{i}]")
        if knight.name in knights:
            raise InputError("input/duplicate", f"Knight {knight.name!r} twice", f"$.knights[{i}]")
        knights[knight.name] = knight
    data = GameData(dice=dice, knights=knights, **kwargs)
    return _int_keys(data)


def _int_keys(data: GameData) -> GameData:
    """JSON object keys are strings; the dataclasses key Marketplace prices by Level and Joust
    starting Knights by slot number."""
    prices = Prices(
        horse=cast(dict[Level, int | None], {int(k): v for k, v in data.prices.horse.items()}),
        armour=cast(dict[Level, int | None], {int(k): v for k, v in data.prices.armour.items()}),
    )
    cards = []
    for card in data.tournaments:
        if card.joust is not None:
            sections = tuple(
                replace(s, starting={int(k): t for k, t in s.starting.items()}) for s in card.joust
            )
            card = replace(
                card, joust=cast(tuple[JoustSection, JoustSection, JoustSection], sections)
            )
        cards.append(card)
    return replace(data, prices=prices, tournaments=tuple(cards))


def dump_data(data: GameData) -> dict[str, Any]:
    """``data`` as a full data document (``load_data`` reads it back to equal data): the dice
    in the format of ``data/dice.json``, the Knights as a list."""
    doc: dict[str, Any] = {"$schema": "schema.json"}
    encoded = codec.encode(data)
    for f in fields(GameData):
        doc[f.name] = encoded[f.name]
    doc["dice"] = {
        "verified": data.dice.verified,
        "source": data.dice.source,
        "dice": {die: {"faces": list(data.dice.of(die).faces)} for die in DIE_TYPES},
    }
    doc["knights"] = list(encoded["knights"].values())
    return doc


def _canonical(data: GameData) -> str:
    return json.dumps(codec.encode(data), sort_keys=True, ensure_ascii=False, separators=(",", ":"))


# --- the JSON Schema of a data file ----------------------------------------------------------


def data_schema() -> dict[str, Any]:
    """The JSON Schema of a Glory data file (shipped as ``data/schema.json``).

    A document without ``extends`` is a full ``GameData`` (``#/$defs/Document``); one with it is
    a partial file (``#/$defs/PartialDocument``) whose entries need only their key.
    """
    return copy.deepcopy(_schema())


@cache
def _schema() -> dict[str, Any]:
    defs: dict[str, Any] = {}
    codec.schema_for(GameData, defs)
    _key_names(GameData, defs, set())
    doc = defs.pop("GameData")
    defs.pop("DiceTable", None)
    defs.pop("DieFaces", None)
    props = doc["properties"]
    props["$schema"] = {"type": "string"}
    props["dice"] = {
        "anyOf": [
            {"type": "string", "description": "a dice file (as data/dice.json) beside this one"},
            {"$ref": "#/$defs/DiceFile"},
        ]
    }
    props["knights"] = {
        "anyOf": [
            {
                "type": "string",
                "description": "a knights file (as data/knights.json) beside this one",
            },
            {"type": "array", "items": {"$ref": "#/$defs/KnightData"}},
        ]
    }
    defs["DiceFile"] = {
        "type": "object",
        "description": "a dice table in the format of data/dice.json",
        "required": ["dice"],
        "properties": {
            "dice": {"type": "object"},
            "verified": {"type": "boolean"},
            "source": {"type": "string"},
            "missing": {"type": "object", "additionalProperties": {"type": "string"}},
        },
    }
    defs["Document"] = doc
    partial = copy.deepcopy(doc)
    partial["description"] = "values merged over a shipped data set (see load_data)"
    partial["required"] = ["extends"]
    pprops = partial["properties"]
    pprops["extends"] = {"enum": list(BUILTIN)}
    pprops["replace"] = {"type": "array", "items": {"enum": [k for k in LIST_NAMES]}}
    for name, key in KEYS.items():
        item = doc["properties"][name]
        ref = item["items"]["$ref"] if "items" in item else None
        if ref is None:
            continue
        entry = ref.rsplit("/", 1)[1]
        patch = copy.deepcopy(defs[entry])
        patch["required"] = [key]
        defs[f"{entry}Patch"] = patch
        pprops[name] = {"type": "array", "items": {"$ref": f"#/$defs/{entry}Patch"}}
    prices = copy.deepcopy(defs["Prices"])
    prices["required"] = []
    defs["PricesPatch"] = prices
    pprops["prices"] = {"$ref": "#/$defs/PricesPatch"}
    defs["PartialDocument"] = partial
    defs["File"] = {
        "if": {"type": "object", "required": ["extends"]},
        "then": {"$ref": "#/$defs/PartialDocument"},
        "else": {"$ref": "#/$defs/Document"},
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Glory box data",
        "description": "What is printed on the Glory components (engine/games/glory/data.py "
        "GameData); docs/glory.md 'Data files'.",
        "$defs": dict(sorted(defs.items())),
        "$ref": "#/$defs/File",
    }


def _key_names(cls: type, defs: dict[str, Any], seen: set[type]) -> None:
    """Add ``propertyNames`` to the schema of every dict field keyed by a Literal or an int
    (the codec checks values, not keys); recurse into nested dataclasses."""
    if cls in seen:
        return
    seen.add(cls)
    hints = get_type_hints(cls)
    for f in fields(cls):
        for tp in _flatten(hints[f.name]):
            if is_dataclass(tp) and isinstance(tp, type):
                _key_names(tp, defs, seen)
            elif get_origin(tp) is dict:
                key_tp = get_args(tp)[0]
                if get_origin(key_tp) is Literal:
                    names: dict[str, Any] = {"enum": [str(a) for a in get_args(key_tp)]}
                elif key_tp is int:
                    names = {"pattern": "^[0-9]+$"}
                else:
                    continue
                prop = defs[cls.__name__]["properties"][f.name]
                for member in prop.get("anyOf", [prop]):
                    if member.get("type") == "object":
                        member["propertyNames"] = names


def _flatten(tp: Any) -> list[Any]:
    """A type and the types inside it (union members, tuple items, dict values)."""
    out = [tp]
    origin = get_origin(tp)
    if origin is dict:
        out += _flatten(get_args(tp)[1])
    elif origin is not None and origin is not Literal:
        for arg in get_args(tp):
            if arg is not Ellipsis:
                out += _flatten(arg)
    return out


_VALIDATORS: dict[str, Any] = {}


def _validate(raw: Any, ref: str, where: str) -> None:
    validator = _VALIDATORS.get(ref)
    if validator is None:
        full = _schema()
        sub = {"$schema": full["$schema"], "$defs": full["$defs"], "$ref": ref}
        validator = _VALIDATORS[ref] = jsonschema.validators.validator_for(sub)(sub)
    error = jsonschema.exceptions.best_match(validator.iter_errors(raw))
    if error is not None:
        steps = error.absolute_path
        path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in steps)
        message = error.message
        if error.validator == "anyOf":
            kinds = " or ".join(_kind(sub) for sub in error.validator_value)
            message = f"{error.instance!r} is not {kinds}"
        raise InputError("input/schema", f"{where}: {message}", path)


def _kind(schema: dict[str, Any]) -> str:
    """A schema in a few words, for an error message ("integer", "null", "a Reward")."""
    if "$ref" in schema:
        return f"{schema['$ref'].rsplit('/', 1)[1]} (an object)"
    if "enum" in schema:
        return f"one of {schema['enum']}"
    if "items" in schema and "$ref" in schema["items"]:
        return f"a list of {schema['items']['$ref'].rsplit('/', 1)[1]}"
    return str(schema.get("type", "valid"))


# --- internal consistency --------------------------------------------------------------------

PLAYERS = range(1, 5)
"""Glory is played by 1 (solo) to 4 players."""
TOURNAMENT_KNIGHTS: tuple[KnightType, ...] = (
    "champion",
    "veteran",
    "king",
    "polish-nobility",
    "nobility",
)
"""The five Knight backs a Tournament card may call for [L299-301]."""


def check_data(data: GameData) -> None:
    """Raise ``InputError`` (path of the first fault, every fault in the text) unless the data
    hold together: unique ids, rewards naming allies that have a stock, Tournament cards for
    1-4 players whose sections fit their bracket and the Knights there are, Special spaces
    first on the Ally Track, prices and levels in range, a Challenge card with an opponent…"""
    faults = _faults(data)
    if faults:
        path, text = faults[0]
        more = "".join(f"; {p}: {t}" for p, t in faults[1:])
        raise InputError("input/data", f"{text}{more}", path)


def _faults(data: GameData) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if data.stand_in and data.verified:
        out.append(("$.verified", "a stand-in set is invented, so it cannot be verified"))
    for name, key in KEYS.items():
        if name in ("knights", "allies"):
            continue
        seen: set[str] = set()
        for i, entry in enumerate(getattr(data, name)):
            ident = getattr(entry, key)
            if ident in seen:
                out.append((f"$.{name}[{i}].{key}", f"{key} {ident!r} appears twice"))
            seen.add(ident)
            if getattr(entry, "count", 1) < 1:
                out.append((f"$.{name}[{i}].count", "a count is at least 1"))
    stocks: set[str] = set()
    pairs: set[tuple[str, str | None]] = set()
    for i, stock in enumerate(data.allies):
        if (stock.kind, stock.stack) in pairs:
            out.append((f"$.allies[{i}]", f"{stock.kind} in stack {stock.stack} appears twice"))
        pairs.add((stock.kind, stock.stack))
        if stock.count is not None and stock.count < 0:
            out.append((f"$.allies[{i}].count", "a count is not negative"))
        if stock.count != 0:
            stocks.add(stock.kind)
    for path, reward in _rewards(data):
        for j, kind in enumerate(reward.allies):
            if kind not in stocks:
                out.append((f"{path}.allies[{j}]", f"no ally stock holds {kind!r}"))
        for j, up in enumerate(reward.upgrades):
            if up.from_level == 4:
                out.append((f"{path}.upgrades[{j}].from_level", "Level IV is the highest [L1761]"))
        if reward.titles is not None and not 1 <= reward.titles.keep <= reward.titles.draw:
            out.append((f"{path}.titles", "keep between 1 and the cards drawn"))
    for i, c in enumerate(data.characters):
        drawn, kept = c.titles_drawn, c.titles_kept
        if drawn is not None and kept is not None and kept > drawn:
            out.append((f"$.characters[{i}].titles_kept", "keeps more Titles than it draws"))
    for i, t in enumerate(data.titles):
        for need, n in t.needs.items():
            if n < 1:
                out.append((f"$.titles[{i}].needs.{need}", "a need is at least 1"))
        if t.duel is not None and t.duel.attack is not None and t.duel.attack < 0:
            out.append((f"$.titles[{i}].duel.attack", "Attack is not negative"))
    for i, q in enumerate(data.quests):
        path = f"$.quests[{i}]"
        if (q.deck == "challenge") != (q.opponent is not None):
            out.append((f"{path}.opponent", "a Challenge card, and only one, has an opponent"))
        if q.cost < 0 or (q.cost and q.deck != "market"):
            out.append((f"{path}.cost", "only a Market card costs Coins [L550-551]"))
        if q.rewards is not None and not q.rewards:
            out.append((f"{path}.rewards", "a card gives at least one reward (null: unknown)"))
    specials_done = False
    for i, space in enumerate(data.ally_track):
        if space.special and specials_done:
            out.append((f"$.ally_track[{i}].special", "the Special spaces come first [L235-236]"))
        specials_done = specials_done or not space.special
        if space.min_players not in PLAYERS:
            out.append((f"$.ally_track[{i}].min_players", "1 to 4 players"))
        if space.cost is not None and space.cost < 0:
            out.append((f"$.ally_track[{i}].cost", "a cost is not negative"))
    for i, fld in enumerate(data.fields):
        if fld.min_players not in PLAYERS:
            out.append((f"$.fields[{i}].min_players", "1 to 4 players"))
    for item in ("horse", "armour"):
        for level, price in getattr(data.prices, item).items():
            if level not in LEVELS_BOUGHT:
                out.append((f"$.prices.{item}.{level}", "a price is for Level II, III or IV"))
            if price is not None and price < 0:
                out.append((f"$.prices.{item}.{level}", "a price is not negative"))
    for i, e in enumerate(data.events):
        if e.kind == "action" and e.reward == Reward() and not e.rewards and e.known:
            out.append((f"$.events[{i}].reward", "an action Event gives something"))
    out += _tournament_faults(data)
    for i, s in enumerate(data.solo):
        if not 1 <= len(s.actions) <= 3:
            out.append((f"$.solo[{i}].actions", "a solo card shows actions I to III"))
        if "quest-plans" in s.actions and s.deck is None:
            out.append(
                (f"$.solo[{i}].deck", "Quest Plans on a solo card names a deck [L1229-1230]")
            )
    for name, k in data.knights.items():
        if k.attack is not None and k.attack < 0:
            out.append((f"$.knights[{name}].attack", "Attack is not negative"))
        if k.prestige is not None and k.prestige < 0:
            out.append((f"$.knights[{name}].prestige", "Prestige is not negative"))
    return out


def _rewards(data: GameData) -> list[tuple[str, Reward]]:
    """Every Reward in the data with its path."""
    out: list[tuple[str, Reward]] = [("$.standard_prize", data.standard_prize)]
    for i, c in enumerate(data.characters):
        if c.income is not None:
            out.append((f"$.characters[{i}].income", c.income))
    for i, q in enumerate(data.quests):
        out += [(f"$.quests[{i}].rewards[{j}]", r) for j, r in enumerate(q.rewards or ())]
    for i, e in enumerate(data.events):
        out += [(f"$.events[{i}].reward", e.reward), (f"$.events[{i}].cost", e.cost)]
        out += [(f"$.events[{i}].rewards[{j}]", r) for j, r in enumerate(e.rewards)]
    for i, p in enumerate(data.prizes):
        if p.reward is not None:
            out.append((f"$.prizes[{i}].reward", p.reward))
    return out


def _tournament_faults(data: GameData) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    typed = [k.type for k in data.knights.values() if k.type not in ("card", "sir")]
    have = Counter(typed) if None not in typed else None
    for i, card in enumerate(data.tournaments):
        path = f"$.tournaments[{i}]"
        if not card.players or any(p not in PLAYERS for p in card.players):
            out.append((f"{path}.players", "a Tournament card is for 1 to 4 players [L283]"))
            continue
        if len(set(card.players)) != len(card.players):
            out.append((f"{path}.players", "a player count appears twice"))
        joust = card.type == "joust"
        if (card.joust is None) == joust or (card.pas is None) != joust:
            out.append((path, f"a {card.type} card has {card.type} sections only"))
            continue
        sections: list[JoustSection | PasSection] = [*(card.joust or ()), *(card.pas or ())]
        for r, section in enumerate(sections):
            spath = f"{path}.{'joust' if joust else 'pas'}[{r}]"
            types: list[KnightType]
            if isinstance(section, JoustSection):
                types = list(section.starting.values()) + list(section.after)
                out += _joust_faults(section, card.players, spath)
            else:
                types = [t for city in section.cities for t in city]
                for c, city in enumerate(section.cities):
                    if not city:
                        out.append((f"{spath}.cities[{c}]", "a city has at least one Knight"))
            wrong = [t for t in types if t not in TOURNAMENT_KNIGHTS]
            if wrong:
                out.append((spath, f"no Knight back {wrong[0]!r} [L299-301]"))
            elif have is not None:
                for t, n in sorted(Counter(types).items()):
                    if n > have[t]:
                        out.append((spath, f"calls for {n} {t} Knights; the data have {have[t]}"))
    return out


def _joust_faults(
    section: JoustSection, players: tuple[int, ...], path: str
) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    slots = section.slots
    if slots < 2 or slots & (slots - 1):
        out.append((f"{path}.slots", "a knock-out bracket has 2, 4, 8… spaces"))
        return out
    for k in section.starting:
        if not 0 <= k < slots:
            out.append((f"{path}.starting.{k}", f"the bottom row has spaces 0-{slots - 1}"))
    free = slots - len(section.starting)
    if free < max(players):
        out.append((f"{path}.starting", f"leaves {free} spaces for {max(players)} players"))
    if len(section.after) < free - min(players):
        out.append(
            (f"{path}.after", f"fills {len(section.after)} of {free - min(players)} empty spaces")
        )
    return out


# --- what a game with these options needs ----------------------------------------------------

SCENARIOS = ("wojownik", "samotnik", "rywal")
PERSONALITIES = ("wojownik", "maz-bozy")
SOLO_BASIC = 9
SOLO_PERSONALITY = 2
"""9 basic solo cards, and 2 of each personality (Wojownik, Mąż Boży) [L1193-1194]."""
LIST_LABEL: dict[str, str] = {
    "characters": "the Character cards",
    "titles": "the Title cards",
    "quests": "the Quest decks",
    "allies": "the ally tokens",
    "ally_track": "the Ally Track",
    "fields": "the action fields",
    "events": "the Event cards",
    "tournaments": "the Tournament cards",
    "prizes": "the Tournament Prize tokens",
    "solo": "the solo cards",
    "knights": "the Knight tokens",
}


@dataclass(frozen=True, slots=True)
class Options:
    """The options ``missing_for`` reads (other keys of the options dict are ignored)."""

    tournament: TournamentType
    first_game: bool
    solo: str | None
    difficulty: RivalLevel | None
    personality: str | None
    sir_knight: str = ""


def read_options(players: int, options: dict[str, Any], knights: Collection[str] = ()) -> Options:
    """The game options that decide which data a game needs; ``InputError`` names a bad one.

    ``tournament``: ``"joust"`` or ``"pas-d-armes"`` (required); ``first_game`` (bool); ``solo``:
    the scenario (``"wojownik"``, ``"samotnik"``, ``"rywal"``), required with 1 player only;
    ``difficulty`` (``"easy"``/``"medium"``/``"hard"``; for "rywal", unset: all three);
    ``personality`` (``"wojownik"``/``"maz-bozy"``: the 2 personality cards added to SIR's deck);
    ``sir_knight``: Rywal, the Knight token whose Attack and Prestige SIR fights with [L1186-1187]
    (unset or ``""``: the data's ``rival`` values for the difficulty).
    """
    if isinstance(players, bool) or players not in PLAYERS:
        raise InputError(
            "input/options", f"Glory is for 1 to 4 players, not {players!r}", "players"
        )
    tournament = options.get("tournament")
    if tournament not in ("joust", "pas-d-armes"):
        raise InputError(
            "input/options",
            f"tournament is 'joust' or 'pas-d-armes', not {tournament!r}",
            "tournament",
        )
    first = options.get("first_game", False)
    if not isinstance(first, bool):
        raise InputError("input/options", "first_game is true or false", "first_game")
    solo = options.get("solo")
    if players == 1 and solo not in SCENARIOS:
        raise InputError(
            "input/options", f"a 1-player game is solo: choose one of {list(SCENARIOS)}", "solo"
        )
    if players > 1 and solo is not None:
        raise InputError("input/options", "solo scenarios are for 1 player", "solo")
    if solo == "wojownik" and tournament != "joust":
        raise InputError(
            "input/options", "Wojownik is played with Joust only [L1169]", "tournament"
        )
    difficulty = options.get("difficulty")
    if difficulty not in (None, *get_args(RivalLevel)):
        raise InputError("input/options", f"unknown difficulty {difficulty!r}", "difficulty")
    personality = options.get("personality")
    if personality not in (None, *PERSONALITIES):
        raise InputError("input/options", f"unknown personality {personality!r}", "personality")
    sir_knight = options.get("sir_knight") or ""
    if not isinstance(sir_knight, str) or (sir_knight and sir_knight not in knights):
        raise InputError("input/options", f"no Knight named {sir_knight!r}", "sir_knight")
    return Options(
        cast(TournamentType, tournament),
        first,
        solo,
        cast(RivalLevel | None, difficulty),
        personality,
        sir_knight,
    )


def missing_for(
    data: GameData, players: int, options: dict[str, Any], *, simulate: bool = False
) -> list[Missing]:
    """The values a game with ``players`` and ``options`` needs that ``data`` leaves out.

    Only what the game can actually use counts: Level I Characters alone and no Prize tokens in
    a first game; no Prize tokens in Pas d'armes; the Knights of the types the matching
    Tournament cards call for (all of them while those cards are unknown); solo cards and SIR's
    values with 1 player only; the dice faces only to ``simulate`` rolls (a reported roll is
    checked against the seed's ranges). Title values, prices, action fields, the Quest decks
    and the Events are always needed. Empty: the game can be played to the end.
    """
    opts = read_options(players, options, data.knights)
    table = table_players(players)
    out: dict[str, Missing] = {}

    def need(what: str, why: str, key: str | None = None) -> None:
        if what not in out:
            out[what] = Missing(what, why, _where(data, key or what))

    used: set[str] = set(LIST_NAMES) - {"prizes", "solo"}
    if opts.tournament == "joust" and not opts.first_game:
        used.add("prizes")
    if players == 1:
        used.add("solo")
    for name in data.incomplete:
        if name in used:
            need(name, f"use {LIST_LABEL[name]} (the data hold only part of them)")
    _need_titles(data, players, opts, need)
    _need_characters(data, players, opts, need)
    _need_quests(data, players, need)
    _need_allies(data, table, opts, need)
    _need_board(data, table, need)
    _need_events(data, need)
    _need_tournaments(data, table, opts, need)
    if "solo" in used:
        _need_solo(data, opts, need)
    if simulate:
        for die in DIE_TYPES:
            for i, face in enumerate(data.dice.of(die).faces):
                if face is None:
                    need(f"dice.{die}.faces[{i}]", f"simulate a roll of the {die} die")
    return list(out.values())


Need = Callable[..., None]


def _need_titles(data: GameData, players: int, opts: Options, need: Need) -> None:
    why = "score the Title in the Titles Phase (§7.1, §8)"
    for t in data.titles:
        if t.glory is None:
            need(f"titles[{t.id}].glory", why)
        if not t.known:
            need(f"titles[{t.id}].needs", "check the Title's condition in the Titles Phase (§7.1)")
        if t.duel is not None:
            if t.duel.attack is None:
                need(f"titles[{t.id}].duel.attack", "fight the Title's duel (§7.1)")
            if t.duel.prestige is None:
                need(f"titles[{t.id}].duel.prestige", "break an Attack tie in the Title's duel")
    total = sum(t.count for t in data.titles)
    levels = (1,) if opts.first_game else (1, 2, 3)
    draws = sorted(
        (c.titles_drawn for c in data.characters if c.level in levels for _ in range(c.count)),
        key=lambda d: -(d or 0),
    )
    deal = PUBLIC_TITLES + sum(d or 0 for d in draws[:players])
    if total < deal:
        need("titles", f"lay out 3 public Titles and deal Personal Goals ({deal} cards)")


def _need_characters(data: GameData, players: int, opts: Options, need: Need) -> None:
    levels = (1,) if opts.first_game else (1, 2, 3)
    for level in levels:
        cards = [c for c in data.characters if c.level == level]
        if sum(c.count for c in cards) < players:
            need(
                f"characters (Level {ROMAN[level]})",
                f"deal a Level {ROMAN[level]} Character card to each of {players} players (§3.2)",
                "characters",
            )
        for c in cards:
            for name in (
                "coins",
                "strength",
                "faith",
                "glory",
                "horse",
                "armour",
                "titles_drawn",
                "titles_kept",
                "quests",
                "special_ally",
            ):
                if getattr(c, name) is None:
                    need(f"characters[{c.id}].{name}", "set up a player with this Character (§3.2)")
            if c.income is None:
                need(f"characters[{c.id}].income", "pay this Character's income (§4.4)")


def _need_quests(data: GameData, players: int, need: Need) -> None:
    for deck in DECKS:
        size = sum(q.count for q in data.quests if q.deck == deck)
        least = COLUMN + (players * (players - 1) // 2 if deck == "challenge" else 0)
        if size < least:
            need(
                f"quests ({deck})",
                f"deal {least} {deck} cards at setup (columns of 4, start-order compensation)",
                "quests",
            )
    for q in data.quests:
        if q.rewards is None:
            need(f"quests[{q.id}].rewards", "resolve the Quest card (§4.3)")
        if q.opponent is not None:
            if q.opponent.attack is None:
                need(f"quests[{q.id}].opponent.attack", "fight the Challenge duel (§4.3, §6)")
            if q.opponent.prestige is None:
                need(
                    f"quests[{q.id}].opponent.prestige", "break an Attack tie in the Challenge duel"
                )


def _need_allies(data: GameData, table: int, opts: Options, need: Need) -> None:
    for stock in data.allies:
        if stock.stack is None:
            need(f"allies[{stock.kind}].stack", "sort the ally tokens into their stacks (§3.2)")
        if stock.count is None:
            need(f"allies[{stock.kind}].count", "know which allies the stacks hold (§3.2, §4.4)")
    specials = 1 if table <= 2 else 2
    track = list(enumerate(data.ally_track))
    special_spaces = [i for i, s in track if s.special][:specials]
    open_spaces = special_spaces + [i for i, s in track if not s.special and s.min_players <= table]
    if len(special_spaces) < specials or len(open_spaces) == len(special_spaces):
        need("ally_track", f"lay out the Ally Track for {table} players (§3.2 step 8)")
    for i in open_spaces:
        if data.ally_track[i].cost is None:
            need(f"ally_track[{i}].cost", "charge for an ally taken from the track (§4.2)")
    if any(s.count is None or s.stack is None for s in data.allies):
        return
    held = Counter[str]()
    for s in data.allies:
        held[str(s.stack)] += s.count or 0
    special_needed = len(special_spaces)
    if not opts.first_game and any(c.special_ally for c in data.characters if c.level == 3):
        special_needed += table
    if held["special"] < special_needed:
        need("allies (special)", f"place {special_needed} Special Allies at setup", "allies")
    if held["I"] < len(open_spaces) - len(special_spaces):
        need("allies (I)", "fill the Ally Track from stack I at setup (§3.2 step 8)", "allies")


def _need_board(data: GameData, table: int, need: Need) -> None:
    for action in get_args(ActionKind):
        here = [f for f in data.fields if f.action == action and f.min_players <= table]
        if not here:
            need(f"fields ({action})", f"offer the {action} action (§4.2)", "fields")
        for f in here:
            if f.slot is None:
                need(f"fields[{f.id}].slot", "tell a circle (one pawn a round) from an area (§4.2)")
    for item in ("horse", "armour"):
        prices: dict[Level, int | None] = getattr(data.prices, item)
        for level in LEVELS_BOUGHT:
            if prices.get(level) is None:
                need(
                    f"prices.{item}.{level}", f"price a Marketplace upgrade to Level {ROMAN[level]}"
                )


def _need_events(data: GameData, need: Need) -> None:
    for r in range(1, ROUNDS + 1):
        if not any(e.round == r for e in data.events):
            need(f"events (round {r})", f"draw the Event of round {r} (§3.2 step 12)", "events")
    for e in data.events:
        if e.round is None:
            need(f"events[{e.id}].round", "sort the Events into their 3 round sets (§3.2 step 12)")
        if not e.known:
            need(f"events[{e.id}].reward", "apply the Event (§7.4)")


def _need_tournaments(data: GameData, table: int, opts: Options, need: Need) -> None:
    kind = opts.tournament
    cards = [c for c in data.tournaments if c.type == kind and table in c.players]
    if len(cards) < ROUNDS:
        need(
            f"tournaments ({kind}, {table} players)",
            f"draw an unused {kind} Tournament card for each of the 3 rounds (§3.3)",
            "tournaments",
        )
    types: set[str] = set()
    for card in cards:
        for section in card.joust or ():
            types |= set(section.starting.values()) | set(section.after)
        for pas in card.pas or ():
            types |= {t for city in pas.cities for t in city}
    knights = [k for k in data.knights.values() if k.type not in ("card", "sir")]
    for k in knights:
        if k.type is None:
            need(f"knights[{k.name}].type", "sort the Knights by their backs (§3.3)")
    for k in knights:
        if len(cards) >= ROUNDS and k.type is not None and k.type not in types:
            continue
        for name in ("attack", "prestige", "glory"):
            if getattr(k, name) is None:
                need(
                    f"knights[{k.name}].{name}",
                    "set up and fight the Tournament Knights (§3.3, §6)",
                )
        if k.type == "veteran" and k.removes is None:
            need(f"knights[{k.name}].removes", "know which dice a Veteran takes away (§5.2)")
    if kind == "joust" and not opts.first_game:
        prizes = [p for p in data.prizes]
        if len(prizes) < ROUNDS:
            need("prizes", "draw an unused Tournament Prize token each round (§3.3 step 3)")
        for p in prizes:
            if p.reward is None:
                need(f"prizes[{p.id}].reward", "award the Joust prize (§4.6)")


def _need_solo(data: GameData, opts: Options, need: Need) -> None:
    basic = [s for s in data.solo if s.personality == "basic"]
    if len(basic) < SOLO_BASIC:
        need("solo (basic)", "shuffle SIR's deck of 9 basic solo cards (Appendix A)", "solo")
    if opts.personality is not None:
        cards = [s for s in data.solo if s.personality == opts.personality]
        if len(cards) < SOLO_PERSONALITY:
            need(f"solo ({opts.personality})", "add the 2 personality cards to SIR's deck", "solo")
    if opts.solo == "rywal" and opts.sir_knight:
        knight = data.knights[opts.sir_knight]
        for name in ("attack", "prestige"):
            if getattr(knight, name) is None:
                need(f"knights[{knight.name}].{name}", "fight as SIR with this Knight's values")
    elif opts.solo == "rywal":
        levels = (opts.difficulty,) if opts.difficulty else get_args(RivalLevel)
        for level in levels:
            sir = data.rival.get(level)
            if sir is None or sir.attack is None or sir.prestige is None:
                need(f"rival.{level}", "fight as SIR at this difficulty (Appendix A)")


_SEGMENT = re.compile(r"(\.[^.\[\]]+|\[[^\]]*\])$")


def _where(data: GameData, what: str) -> str:
    """Where a missing value is printed: the data's note for the path, or a more general one
    (``titles[silny].glory`` → ``titles[*].glory`` → ``titles[silny]`` → ``titles[*]`` →
    ``titles``); a Knight's own ``missing`` note."""
    if what.startswith("knights["):
        knight = data.knights.get(what[len("knights[") : what.rfind("]")])
        if knight is not None and knight.missing:
            return knight.missing
    exact = what
    while exact:
        for key in (exact, re.sub(r"\[[^\]]*\]", "[*]", exact)):
            if key in data.missing:
                return data.missing[key]
        cut = _SEGMENT.search(exact)
        exact = exact[: cut.start()] if cut else ""
    return DEFAULT_WHERE


def require_complete(
    data: GameData, players: int, options: dict[str, Any], *, simulate: bool = False
) -> None:
    """Refuse to start a game whose data lack a value it needs: a ``RuleViolation`` with one
    ``data/missing`` violation per value (``missing_for``), each naming it."""
    missing = missing_for(data, players, options, simulate=simulate)
    if missing:
        raise RuleViolation(
            [
                Violation(
                    "data/missing",
                    REF["data"],
                    {"what": m.what, "task": m.why, "where": f"the data file ({m.where})"},
                    GAME_KEY,
                )
                for m in missing
            ]
        )
