"""The moves of Viscounts of the West Kingdom (tagged dataclasses, ``engine.codec``).

Seats: ``PickPair`` (setup step 9), ``Play`` (phase 1), ``Travel`` (phase 2), the main actions
``Trade``, ``Build``, ``Workers``, ``Transcribe`` or ``Skip`` (phase 3), ``Hire`` or ``Pass``
(phase 4), ``Choose`` (answering what an effect asks). The table: ``Lay`` (the shuffled decks,
stacks and pairs at setup) and ``Reveal`` (the top card of a seat's deck: a draw, a blind play,
a Discard or Destroy from the deck).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.game import TABLE


@dataclass(frozen=True, slots=True)
class Lay:
    """The table's setup (§3 steps 3, 4, 8): the five face-up Townsfolk decks and Manuscript
    stacks, top first, and the Player card / Famous Townsfolk pairs laid out."""

    kind: ClassVar[str] = "lay"
    decks: tuple[tuple[str, ...], ...]
    stacks: tuple[tuple[str, ...], ...]
    pairs: tuple[tuple[int, str], ...]
    seat: str = TABLE


@dataclass(frozen=True, slots=True)
class Reveal:
    """The top card of ``owner``'s deck, as the table (or the owner's phone) reports it."""

    kind: ClassVar[str] = "reveal"
    owner: str
    card: str
    seat: str = TABLE


@dataclass(frozen=True, slots=True)
class PickPair:
    """Setup step 9: take the pair at ``index`` (a Player card and its Famous Townsfolk)."""

    kind: ClassVar[str] = "pick-pair"
    seat: str
    index: int


@dataclass(frozen=True, slots=True)
class Play:
    """Phase 1: put ``card`` from the hand on the leftmost space of the board."""

    kind: ClassVar[str] = "play"
    seat: str
    card: str


@dataclass(frozen=True, slots=True)
class Travel:
    """Phase 2: move the Viscount ``spaces`` town spaces along the arrows to ``town``."""

    kind: ClassVar[str] = "travel"
    seat: str
    town: str
    spaces: int


@dataclass(frozen=True, slots=True)
class Trade:
    """§5.1: use the town's exchange ``times`` times; ``dismiss``: dismiss the adjacent card."""

    kind: ClassVar[str] = "trade"
    seat: str
    times: int
    dismiss: bool = False


@dataclass(frozen=True, slots=True)
class Build:
    """§5.2: take the Building ``building`` from strip position ``position`` (0-2, from the
    left) and place it on ``site``."""

    kind: ClassVar[str] = "build"
    seat: str
    building: str
    position: int
    site: str
    dismiss: bool = False


@dataclass(frozen=True, slots=True)
class Workers:
    """§5.3: place ``count`` Workers in the level-1 section beside the Viscount."""

    kind: ClassVar[str] = "workers"
    seat: str
    count: int
    dismiss: bool = False


@dataclass(frozen=True, slots=True)
class Transcribe:
    """§5.4: take the Manuscript on top of the stack beside the Viscount."""

    kind: ClassVar[str] = "transcribe"
    seat: str
    dismiss: bool = False


@dataclass(frozen=True, slots=True)
class Skip:
    """Phase 3 without a main action (VW-7, option ``skip_action``)."""

    kind: ClassVar[str] = "skip"
    seat: str


@dataclass(frozen=True, slots=True)
class Hire:
    """Phase 4: hire the face-up Townsfolk beside the Viscount for its value."""

    kind: ClassVar[str] = "hire"
    seat: str


@dataclass(frozen=True, slots=True)
class Pass:
    """Phase 4 without hiring."""

    kind: ClassVar[str] = "pass"
    seat: str


@dataclass(frozen=True, slots=True)
class Choose:
    """An answer to what an effect asks (``state.ask``): one of its options."""

    kind: ClassVar[str] = "choose"
    seat: str
    option: str


@dataclass(frozen=True, slots=True)
class RevealScheme:
    """Solo (digest §8): the top Scheme of the AI's deck (``pile`` ``deck``, at the start of
    its turn) or of the Future Scheme pile (``future``, a draw), as the table reports it."""

    kind: ClassVar[str] = "reveal-scheme"
    pile: str
    card: str
    seat: str = TABLE


@dataclass(frozen=True, slots=True)
class AiStep:
    """Solo (digest §8): the AI resolves step ``step`` of the Scheme ``scheme`` on its leftmost
    space; the game computes the move (``solo.ai_move``), so the table and the log see it."""

    kind: ClassVar[str] = "ai-step"
    seat: str
    scheme: str
    step: int


MOVE_TYPES: tuple[type, ...] = (
    Lay, Reveal, PickPair, Play, Travel, Trade, Build, Workers, Transcribe, Skip, Hire, Pass,
    Choose, RevealScheme, AiStep,
)  # fmt: skip
CHANCE_TYPES = (Lay, Reveal, RevealScheme)
ACTIONS = (Trade, Build, Workers, Transcribe, Skip)
Move = (
    Lay
    | Reveal
    | PickPair
    | Play
    | Travel
    | Trade
    | Build
    | Workers
    | Transcribe
    | Skip
    | Hire
    | Pass
    | Choose
    | RevealScheme
    | AiStep
)
