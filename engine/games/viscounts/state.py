"""The Viscounts table as frozen dataclasses (docs/viscounts-plan.md "State").

The printed data a game was started with are kept in the state as their JSON document
(``doc``, loaded by the caller through ``engine.data``) and read once per document
(``rules_of``), so the rules read no file and the state round-trips through
``engine.codec``. A deck's order is nobody's knowledge: a player's deck is a multiset (sorted
ids) and a card drawn is chance the table reports (``Reveal``). The five Townsfolk decks and
Manuscript stacks lie face up; the table reports their order at setup (``Lay``, VW-9).

Effect resolution is a queue of :class:`Todo` (one atom each, with the seat it is for); an atom
that needs a decision stops the queue with an :class:`Ask` that a ``Choose`` (a seat) or a
``Reveal`` (the table) answers (the plan's "choice" sub-game).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Literal

from engine.flow import Sealed
from engine.games.viscounts.data import parse_doc
from engine.games.viscounts.data_types import ViscountsData

Phase = Literal[
    "lay",
    "pairs",
    "turn-start",
    "play",
    "move",
    "action",
    "hire",
    "collision",
    "draw",
    "over",
    "ai",
]
RESOURCES = ("ink", "stone", "gold")
""""Any resource": Ink, Stone or Gold, never Silver (seed L1031-1032)."""


@dataclass(frozen=True, slots=True)
class Player:
    """One seat's table area (digest §2 "Player board", §3 step 6).

    ``board``: the three card spaces left to right (None: empty); ``hand`` and ``deck`` are
    multisets (sorted ids; a deck's order is unknown); ``discard``: bottom first, top last.
    ``built``: (kind, position 0-2 counted from the left of the strip, site) of each Building
    taken off the strip (§5.2: the position emptied decides the ability uncovered)."""

    seat: str
    colour: int
    town: str | None = None
    silver: int = 0
    ink: int = 0
    stone: int = 0
    gold: int = 0
    pool: int = 20
    board: tuple[str | None, str | None, str | None] = (None, None, None)
    hand: tuple[str, ...] = ()
    deck: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    built: tuple[tuple[str, int, str], ...] = ()
    corruption: int = 0
    virtue: int = 0
    stacked: bool = False
    debts: int = 0
    paid: int = 0
    deeds: int = 0
    granted: int = 0
    manuscripts: tuple[str, ...] = ()
    favours: tuple[str, ...] = ()
    player_card: int | None = None

    def cards(self) -> tuple[str, ...]:
        """Every Townsfolk card the seat owns (board, hand, deck, discard): the inventory the
        referee keeps (§10) for the three-card minimum and symbol-counting Manuscripts."""
        return (*(c for c in self.board if c), *self.hand, *self.deck, *self.discard)

    def amount(self, what: str) -> int:
        return int(getattr(self, what))


@dataclass(frozen=True, slots=True)
class Todo:
    """One atom of an effect still to resolve, for ``seat`` (an index into the seats).

    ``act``: ``gain``, ``flip``, a glossary action (``free-hire``...), or an engine step
    (``castle``: resolve the seat's Castle moves; ``event``: fire the seat's persistent
    abilities of event ``what``; ``effect``: a printed effect named by ``what``; ``reset``:
    put the markers back after a Collision; ``meeting``: offer the seat a reorder)."""

    kind: ClassVar[str] = "todo"
    seat: int
    act: str
    what: str = ""
    amount: int = 1
    per: str | None = None
    building: str | None = None
    source: str = ""


@dataclass(frozen=True, slots=True)
class Ask:
    """A decision the queue waits for: ``seat`` picks one of ``options`` (a ``Choose``), or,
    for ``asks == "reveal"``, the table reports the top card of ``seat``'s deck (``purpose``:
    ``hand``, ``play``, ``discard``, ``destroy``). ``then``: what each option queues (pay /
    alternatives), by the option's index."""

    kind: ClassVar[str] = "ask"
    seat: int
    asks: str
    options: tuple[str, ...] = ()
    purpose: str = ""
    source: str = ""
    then: tuple[tuple[Todo, ...], ...] = ()
    left: int = 1


@dataclass(frozen=True, slots=True)
class Castle:
    """Workers in the Castle by section, each a count per seat (index)."""

    level1: tuple[tuple[int, ...], ...]
    level2: tuple[tuple[int, ...], ...]
    level3: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Turn:
    """What the active seat did this turn (one main action, one dismissal, one Transcription)."""

    played: str | None = None
    action: str | None = None
    dismissed: bool = False
    transcribed: bool = False
    castle_start: int | None = None


@dataclass(frozen=True, slots=True)
class LedgerLine:
    """One itemised change for the log and last_lines: seat, amount, catalog code, params."""

    seat: str
    amount: int
    code: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Solo:
    """The solo AI (digest §8; engine/games/viscounts/solo.py): its seat (an index), its AI
    board, the difficulty, the Schemes on its three card spaces (left to right), its Scheme
    deck and the Future Scheme pile as multisets (their order is unknown: a Scheme revealed is
    chance the table reports), ``mixed`` Future Schemes shuffled into the deck at setup
    (which ones nobody knows: they stay counted in ``future``), its face-up discard pile, and
    the next step of the Scheme on its leftmost space (``step``)."""

    seat: int
    ai: str
    difficulty: int = 0
    board: tuple[str | None, str | None, str | None] = (None, None, None)
    deck: tuple[str, ...] = ()
    future: tuple[str, ...] = ()
    mixed: int = 0
    discard: tuple[str, ...] = ()
    step: int = 0


@dataclass(frozen=True, slots=True)
class VState:
    """The whole table."""

    doc: Any
    options: dict[str, Any]
    players: tuple[Player, ...]
    phase: Phase = "lay"
    first: int = 0
    turn: int = 0
    round: int = 0
    decks: tuple[tuple[str, ...], ...] = ()
    stacks: tuple[tuple[str, ...], ...] = ()
    pairs: tuple[tuple[int, str], ...] = ()
    sites: dict[str, int] = field(default_factory=dict)
    castle: Castle = field(default_factory=lambda: Castle((), (), ()))
    lord: int | None = None
    favour_holders: dict[str, int] = field(default_factory=dict)
    debts_left: int = 0
    deeds_left: int = 0
    poverty: bool = False
    prosperity: bool = False
    end_round: int | None = None
    queue: tuple[Todo | Ask, ...] = ()
    ask: Ask | None = None
    current: Turn = field(default_factory=Turn)
    picking: int = 0
    ledger: tuple[LedgerLine, ...] = ()
    move_from: int = 0
    solo: Solo | None = None
    sealed: Sealed = field(default_factory=Sealed)

    @property
    def data(self) -> ViscountsData:
        """The printed data, read once per document (``rules_of``)."""
        return rules_of(self.doc)

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(p.seat for p in self.players)

    def player(self, i: int) -> Player:
        return self.players[i]

    def with_player(self, i: int, **changes: Any) -> VState:
        players = list(self.players)
        players[i] = replace(players[i], **changes)
        return replace(self, players=tuple(players))

    def order(self) -> tuple[int, ...]:
        """Seat indexes in turn order from the First Player (clockwise, §1)."""
        n = len(self.players)
        return tuple((self.first + k) % n for k in range(n))

    def active(self) -> int:
        return self.order()[self.turn]


_PARSED: dict[int, tuple[Any, ViscountsData]] = {}


def rules_of(doc: Any) -> ViscountsData:
    """The parsed data of a state's document, read once per document object."""
    hit = _PARSED.get(id(doc))
    if hit is not None and hit[0] is doc:
        return hit[1]
    return remember(doc, parse_doc(doc, trusted=True))


def remember(doc: Any, value: ViscountsData) -> ViscountsData:
    """Keep ``value`` as the reading of ``doc`` (setup hands in the loaded value)."""
    if len(_PARSED) >= 32:
        _PARSED.clear()
    _PARSED[id(doc)] = (doc, value)
    return value


def without(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    """``items`` less one copy of ``item``."""
    out = list(items)
    out.remove(item)
    return tuple(out)
