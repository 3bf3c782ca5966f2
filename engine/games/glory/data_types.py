"""The printed contents of a Glory box as typed data: cards, tokens, board, dice, Knights.

The seed (rules/glory.md §2, §11) names the components and their rules but not most of what
is printed on them: Character cards, Title values, Quest card texts, ally costs, Market prices,
which action fields are slots, the Tournament cards, the Knights' statistics. Those are fields
of ``BoxData`` below, read from a data file (``data_file``: ``data/box.json`` ships what the
seed gives, every other value ``null`` with a note; a user's full transcription replaces it).
``data_missing`` lists the values a game with given options needs and the file leaves out.

Effects on cards and fields share one vocabulary, ``Reward``: the resources, tokens and
upgrades a player gains (negative numbers are costs). A card whose reward field shows "/"
lists its alternatives in ``rewards`` and the player chooses one [L544-545].

A game keeps its data in its state as a ``Box`` (the data with indexes by id), handed to setup
by the caller that loaded it (``engine.data``): the rules never read a file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from engine.games.glory.components import (
    AllyKind,
    DiceTable,
    KnightData,
    KnightType,
    Level,
    PrestigeKind,
    RelicKind,
    Unsayable,
)

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
    unsayable: Unsayable | None = None


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
    unsayable: Unsayable | None = None


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
    unsayable: Unsayable | None = None


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
    unsayable: Unsayable | None = None


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
    unsayable: Unsayable | None = None


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
class BoxData:
    """Everything printed on the components that a whole game needs.

    ``verified`` is true only for a file transcribed from a physical box; ``stand_in`` marks a
    complete but invented set (for the simulated table and tests), never the printed values.
    ``name`` identifies the data a game was started with (``"box"``, ``"stand-in"``, or a
    user file's name plus the sha256 of its content, see ``data_file.parse``).

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


@dataclass(frozen=True, slots=True)
class Box:
    """The data a game was started with, and its cards by id (built once, with the box).

    The state keeps the box (``GloryState.box``), so the rules look printed values up without
    reading a file or keeping a cache; the indexes are not part of the JSON (``init=False``).
    """

    data: BoxData
    characters: dict[str, CharacterCard] = field(init=False, repr=False, compare=False)
    titles: dict[str, TitleCard] = field(init=False, repr=False, compare=False)
    quests: dict[str, QuestCard] = field(init=False, repr=False, compare=False)
    events: dict[str, EventCard] = field(init=False, repr=False, compare=False)
    tournaments: dict[str, TournamentCard] = field(init=False, repr=False, compare=False)
    prizes: dict[str, PrizeToken] = field(init=False, repr=False, compare=False)
    printed_names: dict[str, dict[str, str]] = field(init=False, repr=False, compare=False)
    """Card names by language, filled on first use: every view of every seat asks for them."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "printed_names", {})
        d = self.data
        for name, entries in (("characters", d.characters), ("titles", d.titles),
                              ("quests", d.quests), ("events", d.events),
                              ("tournaments", d.tournaments), ("prizes", d.prizes)):  # fmt: skip
            object.__setattr__(self, name, {e.id: e for e in entries})
