"""A Glory duel as frozen dataclasses: the two sides, what lies on their boards, and the moves.

A side is a player (``Duellist``: equipment, tokens, Glory, Initiative) or a fixed opponent
(``Knight``: a tournament Knight, a Challenge/Title card opponent, or the solo AI). Dice are
observed, never generated: ``Roll`` and ``Reroll`` are ``TABLE`` moves carrying the faces of
typed dice as the table reports them. A die is named by an ``id`` (``"horse2"`` when the table
gives none: type plus its number among that side's dice of that type), so a reroll or a "set
die" effect says which die it changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal

from engine.game import TABLE, Line
from engine.games.glory.components import (
    AllyKind,
    Context,
    DiceTable,
    DieType,
    Face,
    KnightType,
    Level,
    PrestigeKind,
    RelicKind,
)

Step = Literal["tent", "strength", "roll", "faith", "lance1", "lance2", "relic", "recover", "over"]
DECISION_STEPS: tuple[Step, ...] = ("tent", "strength", "faith", "lance1", "lance2", "relic")
PASS_STEPS: tuple[Step, ...] = ("strength", "roll", "faith", "lance1", "lance2", "relic")

Reason = Literal["attack", "prestige", "initiative"]
Count = Annotated[int, {"minimum": 0}]


@dataclass(frozen=True, slots=True)
class Die:
    """One die as the table reports it: its type (colour), its face, and which die it is."""

    type: DieType
    face: Face
    id: str = ""


@dataclass(frozen=True, slots=True)
class Ally:
    """An ally token; ``active`` is its face-up side (a used token is flipped)."""

    kind: AllyKind
    active: bool = True


@dataclass(frozen=True, slots=True)
class Relic:
    kind: RelicKind
    active: bool = True


@dataclass(frozen=True, slots=True)
class Prestige:
    """A Prestige token; only its active (star) side counts in a duel [L869-871]."""

    kind: PrestigeKind
    active: bool = True


@dataclass(frozen=True, slots=True)
class Duellist:
    """A player in a duel: what lies beside their Player Board when the duel starts.

    ``initiative`` is the position on the Initiative Track (1 = leftmost, the best). ``glory``
    may be left out (``null``) when the duel never needs it (it does for a player-vs-player
    value, and to pay for Drab or Wiedźma).
    """

    kind: ClassVar[str] = "player"
    name: str
    horse: Level = 2
    armour: Level = 2
    strength: Count = 0
    faith: Count = 0
    glory: int | None = None
    initiative: Annotated[int, {"minimum": 1}] = 1
    allies: tuple[Ally, ...] = ()
    relics: tuple[Relic, ...] = ()
    prestige: tuple[Prestige, ...] = ()

    def active_prestige(self) -> int:
        return sum(1 for p in self.prestige if p.active)


@dataclass(frozen=True, slots=True)
class Knight:
    """A fixed opponent: it rolls no dice (except Polish Nobility) and makes no decisions.

    ``glory`` is the printed Glory value; for the solo AI (``type: "sir"``) it is SIR's Glory
    total, since SIR is worth 7 or 9 like a player [L1279]. ``removes`` lists the dice a
    Veteran takes from its opponent, one entry per die. ``None`` marks a value the data file
    does not know; the duel is refused only when it needs that value (the type and a Veteran's
    ``removes`` at once, the Attack at once, the Prestige on an Attack tie, the Glory value
    when it is awarded).
    """

    kind: ClassVar[str] = "knight"
    name: str
    type: KnightType | None = None
    attack: int | None = None
    prestige: int | None = None
    glory: int | None = None
    removes: tuple[DieType, ...] | None = None
    initiative: int | None = None


Side = Duellist | Knight


@dataclass(frozen=True, slots=True)
class Mod:
    """A modifier in force in one pass: ``amount`` to ``target``'s Attack or Prestige."""

    target: str
    what: Literal["attack", "prestige"]
    amount: int
    pass_no: int
    source: str
    by: str


@dataclass(frozen=True, slots=True)
class Board:
    """What lies on a side's Player Board during the duel, and its dice of the current pass."""

    committed: Count = 0
    faith_spent: Count = 0
    allies_used: tuple[AllyKind, ...] = ()
    relics_used: tuple[RelicKind, ...] = ()
    prestige_used: tuple[PrestigeKind, ...] = ()
    wins: Count = 0
    dice: tuple[Die, ...] = ()
    rolled: bool = False
    faith_pass: bool = False
    relic_pass: bool = False


@dataclass(frozen=True, slots=True)
class RerollPending:
    """A declared reroll waiting for the table to report the new faces."""

    side: str
    source: Literal["faith", "pierscien"]
    dice: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SideAttack:
    """One side's Attack at the resolution of a pass, itemised, and its Prestige if compared."""

    side: str
    lines: tuple[Line, ...]
    total: int
    prestige: int | None = None


@dataclass(frozen=True, slots=True)
class PassRecord:
    """A resolved pass: both Attacks, the winner and why (attack, prestige, initiative)."""

    number: int
    attacks: tuple[SideAttack, SideAttack]
    winner: str
    reason: Reason
    flipped: PrestigeKind | None = None


@dataclass(frozen=True, slots=True)
class Note:
    """One step of the duel as it happened, with both Attacks after it (for the itemised log)."""

    pass_no: int
    step: Step
    side: str
    code: str
    params: dict[str, Any] = field(default_factory=dict)
    attack: tuple[int, int] = (0, 0)


@dataclass(frozen=True, slots=True)
class Award:
    """A Glory or reward line of the end of the duel, for one side."""

    side: str
    line: Line


@dataclass(frozen=True, slots=True)
class DuelState:
    """A whole duel: sides, boards, the step reached, modifiers, and what has happened.

    ``dice_table``: the printed faces of the dice, from the game's data (handed in, never read).
    """

    context: Context
    sides: tuple[Side, Side]
    dice_table: DiceTable
    boards: tuple[Board, Board] = (Board(), Board())
    step: Step = "tent"
    pass_no: int = 0
    decided: tuple[str, ...] = ()
    pending: RerollPending | None = None
    mods: tuple[Mod, ...] = ()
    passes: tuple[PassRecord, ...] = ()
    notes: tuple[Note, ...] = ()
    winner: str | None = None
    awards: tuple[Award, ...] = ()

    @property
    def names(self) -> tuple[str, str]:
        return self.sides[0].name, self.sides[1].name

    def index(self, name: str) -> int:
        for i, side in enumerate(self.sides):
            if side.name == name:
                return i
        raise KeyError(name)

    @property
    def loser(self) -> str | None:
        if self.winner is None:
            return None
        return self.sides[1 - self.index(self.winner)].name


# --- moves -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UseAlly:
    """Use an ally in the tent step or a lance step.

    ``die`` names the die a set effect turns (Giermek, Fechmistrz, Płatnerz; empty: the side's
    first die of that type); ``target`` names the token a refresher turns back (Dwórka: an ally
    kind, Herold: a Prestige kind, Pustelnik: a relic kind).
    """

    kind: ClassVar[str] = "ally"
    side: str
    ally: AllyKind
    die: str = ""
    target: str = ""


@dataclass(frozen=True, slots=True)
class CommitStrength:
    """Put ``tokens`` more Strength tokens on the Player Board at the start of a pass."""

    kind: ClassVar[str] = "strength"
    side: str
    tokens: Annotated[int, {"minimum": 1, "maximum": 4}]


@dataclass(frozen=True, slots=True)
class Roll:
    """The table reports ``side``'s roll of this pass (chance)."""

    kind: ClassVar[str] = "roll"
    side: str
    dice: tuple[Die, ...]


@dataclass(frozen=True, slots=True)
class UseFaith:
    """Spend one Faith token to reroll the named dice in one reroll."""

    kind: ClassVar[str] = "faith"
    side: str
    dice: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Reroll:
    """The table reports the new faces of a declared reroll; each die names the one it replaces."""

    kind: ClassVar[str] = "reroll"
    side: str
    dice: tuple[Die, ...]


@dataclass(frozen=True, slots=True)
class UseRelic:
    """Use one relic this pass; Paternoster names a ``die``, Pierścień the ``dice`` to reroll."""

    kind: ClassVar[str] = "relic"
    side: str
    relic: RelicKind
    die: str = ""
    dice: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Decline:
    """Do nothing in the current step ("pass" on the Player Board)."""

    kind: ClassVar[str] = "decline"
    side: str


@dataclass(frozen=True, slots=True)
class Recover:
    """The loser turns back one ally, one Prestige token and one relic used in this duel."""

    kind: ClassVar[str] = "recover"
    side: str
    ally: AllyKind | None = None
    prestige: PrestigeKind | None = None
    relic: RelicKind | None = None


DuelMove = UseAlly | CommitStrength | Roll | UseFaith | Reroll | UseRelic | Decline | Recover
MOVE_TYPES: tuple[type, ...] = (
    UseAlly,
    CommitStrength,
    Roll,
    UseFaith,
    Reroll,
    UseRelic,
    Decline,
    Recover,
)
CHANCE_TYPES = (Roll, Reroll)


def actor(move: DuelMove) -> str:
    """Who makes ``move``: the side, or ``TABLE`` for the dice it reports."""
    return TABLE if isinstance(move, CHANCE_TYPES) else move.side
