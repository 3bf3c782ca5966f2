"""A whole game of Glory as frozen dataclasses: the players, the boards, the phase, the moves.

The game runs through three rounds of five phases (§4.1) and ends with a Final Quest Phase and
the Titles Phase. Every draw from a shuffled deck, stack or bag is a ``TABLE`` move naming what
the table shows (a reveal), exactly as the dice are (``duel_state.Roll``): the referee never
shuffles, it checks that what was drawn could have been drawn. Decks are therefore kept as
multisets of card ids (sorted tuples), not as ordered piles.

Hidden information (Quest cards in hand, Personal Goals) lives in ``Player`` and leaves the
engine only through ``views.view(state, seat)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal

from engine.games.glory.components import AllyKind, Level
from engine.games.glory.data_types import Box, Deck, Item, TournamentType
from engine.games.glory.duel_state import Ally, DuelMove, DuelState, Prestige, Relic

Phase = Literal[
    "setup",
    "characters",
    "hands",
    "keep",
    "action",
    "quest",
    "refresh",
    "registration",
    "tournament",
    "final-quest",
    "titles",
    "over",
]
"""Setup (a table reveal), choosing Characters, the table dealing hands, keeping cards, then
the round's
phases in order [L326-362], and after round 3's Tournament the Final Quest and Titles
Phases [L636-651]."""

ROUND_PHASES: tuple[Phase, ...] = ("action", "quest", "refresh", "registration", "tournament")

Count = Annotated[int, {"minimum": 0}]
Scenario = Literal["wojownik", "samotnik", "rywal"]
Difficulty = Literal["easy", "medium", "hard"]


@dataclass(frozen=True, slots=True)
class Player:
    """One player's holdings and the per-round counters the rules limit.

    ``hand`` and ``goals`` are secret [L173-177, L1421]; ``played`` is the public pile of Quest
    cards played [L541-542]; ``challenges_won`` counts Challenge cards won (Silny [L1549]);
    ``held`` every ally kind ever held (Szlachetny's "no Drab" reading, GL option).
    """

    seat: str
    character: str = ""
    coins: Count = 0
    strength: Count = 0
    faith: Count = 0
    glory: int = 0
    horse: Level = 2
    armour: Level = 2
    allies: tuple[Ally, ...] = ()
    relics: tuple[Relic, ...] = ()
    prestige: tuple[Prestige, ...] = ()
    pawns: Count = 0
    hand: tuple[str, ...] = ()
    goals: tuple[str, ...] = ()
    played: tuple[str, ...] = ()
    challenges_won: Count = 0
    held: tuple[AllyKind, ...] = ()
    herald_uses: Count = 0
    quest_plays: Count = 0
    quest_extra: Count = 0
    done_quests: bool = False
    offered: tuple[str, ...] = ()
    sir: bool = False


@dataclass(frozen=True, slots=True)
class Placement:
    """A pawn on an action field this round (the Event field is ``"event"``)."""

    field: str
    seat: str


@dataclass(frozen=True, slots=True)
class KnightSlot:
    """A Knight on the Tournament Board and the crest beside it (``crest``: a seat or "")."""

    knight: str
    crest: str = ""


@dataclass(frozen=True, slots=True)
class Entrant:
    """One side in a Joust bracket slot: a seat (player or SIR) or a Knight's name."""

    name: str
    player: bool


@dataclass(frozen=True, slots=True)
class Tournament:
    """The Tournament Board of this round.

    Pas d'armes: ``cities`` (Florence, Paris, Munich), Knights ordered by Glory descending
    [L303-307]. Joust: ``bracket`` stages; stage 0 is the bottom row (``None``: an empty
    space), each later stage holds the winners in order [L311-315, L988-992].
    ``schedule`` is the index of the next duel to fight; ``results`` records each duel.
    """

    type: TournamentType
    card: str
    cities: tuple[tuple[KnightSlot, ...], ...] = ()
    bracket: tuple[tuple[Entrant | None, ...], ...] = ()
    prize: str = ""
    registered: tuple[str, ...] = ()
    passed: tuple[str, ...] = ()
    sweep: Count = 0
    next_duel: Count = 0
    results: tuple[DuelResult, ...] = ()
    filled: bool = False
    done: bool = False


@dataclass(frozen=True, slots=True)
class DuelResult:
    """A fought duel: where, the two sides, the winner, passes won by the loser."""

    where: str
    left: str
    right: str
    winner: str
    loser_passes: Count = 0


@dataclass(frozen=True, slots=True)
class Pending:
    """A choice or reveal the game waits for before it goes on.

    ``kind``: ``draw-titles`` / ``draw-quests`` (the table reveals to ``seat``), ``keep-titles``
    (the seat keeps ``keep`` of ``cards``), ``reward`` (choose one of a card's "/" rewards),
    ``duel`` (``GloryState.duel`` is being fought for ``source``).
    """

    kind: Literal["draw-titles", "draw-quests", "keep-titles", "duel"]
    seat: str
    count: Count = 0
    keep: Count = 0
    cards: tuple[str, ...] = ()
    source: str = ""
    decks: tuple[Deck, ...] = ()


@dataclass(frozen=True, slots=True)
class LedgerLine:
    """A Glory change with its source (§8: the referee keeps a ledger of every change)."""

    seat: str
    amount: int
    code: str
    ref: str
    round: Count
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TitleDuel:
    """A Titles-Phase duel for a Title card (Dzielny), fought or given up, and its outcome."""

    seat: str
    title: str
    fought: bool
    won: bool = False


@dataclass(frozen=True, slots=True)
class GloryState:
    """The whole table. ``order`` is the Initiative Track, left (best) to right.

    ``solo_deck``: the solo cards not yet drawn this Action Phase (a multiset, Appendix A);
    ``champions``: each round's Joust champion (a seat or a Knight), for Wojownik [L1169].
    ``box``: the printed contents the game was started with (``options["data"]``), handed to
    setup by the caller that loaded them (``engine.data``), so the rules read no file.
    """

    players: tuple[Player, ...]
    options: dict[str, Any]
    box: Box
    phase: Phase = "setup"
    round: Count = 0
    order: tuple[str, ...] = ()
    turn: Count = 0
    initiative_pawns: tuple[str, ...] = ()
    placements: tuple[Placement, ...] = ()
    ally_track: tuple[AllyKind | None, ...] = ()
    ally_stacks: dict[str, tuple[AllyKind, ...]] = field(default_factory=dict)
    quest_decks: dict[str, tuple[str, ...]] = field(default_factory=dict)
    columns: dict[str, tuple[str, ...]] = field(default_factory=dict)
    title_deck: tuple[str, ...] = ()
    title_discard: tuple[str, ...] = ()
    public_titles: tuple[str, ...] = ()
    events: tuple[str, ...] = ()
    event_ally: AllyKind | None = None
    tournament: Tournament | None = None
    used_tournaments: tuple[str, ...] = ()
    used_prizes: tuple[str, ...] = ()
    knight_pool: tuple[str, ...] = ()
    pending: Pending | None = None
    duel: DuelState | None = None
    ledger: tuple[LedgerLine, ...] = ()
    move_from: int = 0
    """Where the ledger stood before the most recent move: the lines after it are that move's,
    which the table shows itemised under it (``last_lines``)."""
    titles_scored: dict[str, tuple[str, ...]] = field(default_factory=dict)
    title_duels: tuple[TitleDuel, ...] = ()
    solo_deck: tuple[str, ...] = ()
    champions: tuple[str, ...] = ()
    last_income: dict[str, tuple[LedgerLine, ...]] = field(default_factory=dict)

    def player(self, seat: str) -> Player:
        for p in self.players:
            if p.seat == seat:
                return p
        raise KeyError(seat)

    def index(self, seat: str) -> int:
        for i, p in enumerate(self.players):
            if p.seat == seat:
                return i
        raise KeyError(seat)

    @property
    def event(self) -> str | None:
        """The Event of the current round (``events[round - 1]``), once the game has begun."""
        if 1 <= self.round <= len(self.events):
            return self.events[self.round - 1]
        return None


# --- moves -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TournamentDeal:
    """The table's Tournament setup: the card, its Knights by position, the Prize token.

    Pas d'armes: ``knights`` lists each city's Knights, cities separated by ``"|"``; Joust:
    one name per bottom-row space in order, ``""`` for a space left for registration.
    """

    card: str
    knights: tuple[str, ...]
    prize: str = ""


@dataclass(frozen=True, slots=True)
class SetupDeal:
    """What the table dealt at setup (§3.2), one TABLE move (chance).

    ``offers`` maps each seat to the Character cards dealt to it; ``order`` is the random turn
    order; ``track`` the Ally Track from the left (Special spaces first); ``columns`` the four
    face-up cards of each Quest deck; ``events`` one Event per round.
    """

    kind: ClassVar[str] = "setup"
    titles: tuple[str, ...]
    offers: dict[str, tuple[str, ...]]
    order: tuple[str, ...]
    track: tuple[AllyKind | None, ...]
    columns: dict[Deck, tuple[str, ...]]
    events: tuple[str, ...]
    tournament: TournamentDeal
    event_ally: AllyKind | None = None


@dataclass(frozen=True, slots=True)
class ChooseCharacter:
    """A seat keeps one of its offered Character cards [L134-136]."""

    kind: ClassVar[str] = "character"
    seat: str
    character: str


@dataclass(frozen=True, slots=True)
class DealHands:
    """The table deals each seat its Title draws and starting Quest cards, compensation
    Challenge cards included [L165-177, L249] (chance; the cards are secret to the seat)."""

    kind: ClassVar[str] = "deal-hands"
    titles: dict[str, tuple[str, ...]]
    quests: dict[str, tuple[str, ...]]
    allies: dict[str, tuple[AllyKind, ...]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class KeepCards:
    """A seat keeps its Personal Goals and returns starting Quest cards (+1 Strength each)."""

    kind: ClassVar[str] = "keep"
    seat: str
    goals: tuple[str, ...]
    returned: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Place:
    """Place a pawn on an action field and resolve it at once [L385-395].

    Details by action: Quest Plans ``take`` (face-up card ids) and ``draw`` (decks drawn face
    down, one entry per card); Marketplace ``item``; Allies ``space`` (Ally Track index);
    Herald ``slot`` (Joust bottom-row space) or ``city`` + ``slot`` (Pas d'armes Knight);
    ``choice`` an Event field's reward when it offers several (Oblężenie: Horse or Armour).
    """

    kind: ClassVar[str] = "place"
    seat: str
    field: str
    take: tuple[str, ...] = ()
    draw: tuple[Deck, ...] = ()
    item: Item | None = None
    space: int | None = None
    city: int | None = None
    slot: int | None = None
    choice: int = 0


@dataclass(frozen=True, slots=True)
class DrawCards:
    """The table reveals cards drawn face down to ``seat`` (Quest cards or Titles; chance)."""

    kind: ClassVar[str] = "draw"
    seat: str
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class KeepTitles:
    """Keep the named drawn Titles as Personal Goals; the rest go to the discard pile."""

    kind: ClassVar[str] = "keep-titles"
    seat: str
    keep: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PlayQuest:
    """Play a Quest card from hand [L539-563]; ``choice`` picks a "/" reward (0-based)."""

    kind: ClassVar[str] = "quest"
    seat: str
    card: str
    choice: int = 0


@dataclass(frozen=True, slots=True)
class StopQuests:
    """Play no more Quest cards this phase."""

    kind: ClassVar[str] = "stop"
    seat: str


@dataclass(frozen=True, slots=True)
class Refill:
    """The Refresh Phase's reveals [L587-598]: new Ally Track tokens from the right, new Quest
    columns, and (with a Sojusz Event) the Special Ally put on the Event card (chance)."""

    kind: ClassVar[str] = "refill"
    track: tuple[AllyKind | None, ...]
    columns: dict[Deck, tuple[str, ...]]
    event_ally: AllyKind | None = None


@dataclass(frozen=True, slots=True)
class Register:
    """Registration: a crest beside a Knight (Pas d'armes ``city``+``slot``) or on a Joust
    bottom-row space (``slot``); ``slot`` None: pass (Joust) or place no more (Pas d'armes)."""

    kind: ClassVar[str] = "register"
    seat: str
    city: int | None = None
    slot: int | None = None


@dataclass(frozen=True, slots=True)
class FillBracket:
    """The table fills the Joust's empty spaces with the "after players" Knights (chance)."""

    kind: ClassVar[str] = "fill"
    knights: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class NextTournament:
    """The Tournament of the next round set up after this one (§3.3, chance)."""

    kind: ClassVar[str] = "next-tournament"
    deal: TournamentDeal


@dataclass(frozen=True, slots=True)
class DuelStep:
    """A move inside the duel being fought (``GloryState.duel``): its sides are seats or
    Knights' names, and the dice are the table's (``Roll``/``Reroll``)."""

    kind: ClassVar[str] = "duel"
    move: DuelMove


@dataclass(frozen=True, slots=True)
class TryTitle:
    """Titles Phase: fight the Dzielny duel for a Title card (``fight`` False: give it up)."""

    kind: ClassVar[str] = "try-title"
    seat: str
    title: str
    fight: bool = True


@dataclass(frozen=True, slots=True)
class SoloDraw:
    """Solo: the table reveals the solo card SIR acts on (Appendix A, chance)."""

    kind: ClassVar[str] = "solo-draw"
    card: str


Move = (
    SetupDeal
    | ChooseCharacter
    | DealHands
    | KeepCards
    | Place
    | DrawCards
    | KeepTitles
    | PlayQuest
    | StopQuests
    | Refill
    | Register
    | FillBracket
    | NextTournament
    | DuelStep
    | TryTitle
    | SoloDraw
)
MOVE_TYPES: tuple[type, ...] = (
    SetupDeal,
    ChooseCharacter,
    DealHands,
    KeepCards,
    Place,
    DrawCards,
    KeepTitles,
    PlayQuest,
    StopQuests,
    Refill,
    Register,
    FillBracket,
    NextTournament,
    DuelStep,
    TryTitle,
    SoloDraw,
)
CHANCE_TYPES: tuple[type, ...] = (SetupDeal, DealHands, DrawCards, Refill, FillBracket,
                                  NextTournament, SoloDraw)  # fmt: skip
