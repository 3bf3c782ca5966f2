"""France 1429's moves, each small (issue 12 "Moves that stay small"): one card, one counter
bought, one Lord's stack along one road, one answer, one die.

Chance moves (the table shows a card or a die) name no seat of their own: ``to`` is the seat a
card goes to; their actor is the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar, Literal

from engine.game import TABLE

Die = Annotated[int, {"minimum": 1, "maximum": 6}]
Count = Annotated[int, {"minimum": 0, "maximum": 99}]
Item = Literal["maa", "knight", "mill", "stronghold", "title", "biretta"]
DeckName = Literal["lords", "fortune"]


@dataclass(frozen=True)
class DealLord:
    """Setup: the table shows the starting Lord card a seat drew (§4 step 4)."""

    to: str
    card: str
    kind: ClassVar[str] = "deal-lord"


@dataclass(frozen=True)
class PlaceStart:
    """Setup: a seat's Lord, Knight, Men at Arms and Stronghold go to an empty Village (§4.11)."""

    seat: str
    village: str
    kind: ClassVar[str] = "place-start"


@dataclass(frozen=True)
class Done:
    """The seat ends its turn in the current step."""

    seat: str
    kind: ClassVar[str] = "done"


@dataclass(frozen=True)
class Propose:
    """Phase 1: a marriage between the seat's unmarried Lord and another family's Lady (§10.1)."""

    seat: str
    groom: str
    bride: str
    kind: ClassVar[str] = "propose"


@dataclass(frozen=True)
class Answer:
    """A family's answer to a question put to it: a proposal, a request to pass (§8.2)."""

    seat: str
    yes: bool
    kind: ClassVar[str] = "answer"


@dataclass(frozen=True)
class Candidate:
    """Phase 1: the seat declares one of its Lords a candidate in the election (§10.2)."""

    seat: str
    lord: str
    kind: ClassVar[str] = "candidate"


@dataclass(frozen=True)
class Vote:
    """Phase 1: the seat's sealed Vote markers: FOR on a candidate (0: abstain) and DECOY on a
    candidate or nowhere (0), each by its number in the order of declaration (1, 2, ...), so a
    sealed vote names no Lord (§10.2)."""

    seat: str
    vote_for: Annotated[int, {"minimum": 0, "maximum": 6}] = 0
    decoy: Annotated[int, {"minimum": 0, "maximum": 6}] = 0
    kind: ClassVar[str] = "vote"


@dataclass(frozen=True)
class Discard:
    """Phase 2 Discard step: one card from the hand, face up (§5 Phase 2)."""

    seat: str
    card: str
    kind: ClassVar[str] = "discard"


@dataclass(frozen=True)
class Draw:
    """Phase 2 Draw step: the seat takes the top card of a deck (the table then shows it)."""

    seat: str
    deck: DeckName
    kind: ClassVar[str] = "draw"


@dataclass(frozen=True)
class Deal:
    """The card the seat drew, as the table (the seat's phone) reports it."""

    to: str
    card: str
    kind: ClassVar[str] = "deal"


@dataclass(frozen=True)
class DisasterDie:
    """Phase 2: the 1D6 that places the next Disaster card of the track (§11.2)."""

    value: Die
    kind: ClassVar[str] = "disaster-die"


@dataclass(frozen=True)
class LordDie:
    """A Lord's 1D6: Plague (1-3 dies), Assassination (1-3 dies) (§11.2, §11.4)."""

    lord: str
    value: Die
    kind: ClassVar[str] = "lord-die"


@dataclass(frozen=True)
class HitDie:
    """One Battle Die rolled for an Uprising: its hit symbols (a face of the box's dice)."""

    value: Annotated[int, {"minimum": 0, "maximum": 6}]
    kind: ClassVar[str] = "hit-die"


@dataclass(frozen=True)
class PlayCard:
    """A Fortune or Lord opportunity card played on a target: a Bishopric number, a Fief id, a
    Village id or a Lord id; ``by`` is the seat's Lord whose title gives the right (a tax) or
    who sponsors (an Assassination), empty when none is needed."""

    seat: str
    card: str
    target: str
    by: str = ""
    kind: ClassVar[str] = "play-card"


@dataclass(frozen=True)
class Interject:
    """An Opportunity or Lord opportunity card played out of turn, through the turn flow's
    ``opportunity`` window (§5 "any time except during the Draw step"; FR-10): as
    ``PlayCard``, by a family the game is not waiting for."""

    seat: str
    card: str
    target: str
    by: str = ""
    kind: ClassVar[str] = "interject"


@dataclass(frozen=True)
class PlayLord:
    """Phase 2 Play step: a Lord card from the hand, its token placed in a Village (§5)."""

    seat: str
    card: str
    village: str
    kind: ClassVar[str] = "play-lord"


@dataclass(frozen=True)
class Buy:
    """Phase 4: one item bought (§7.2): a troop or a building in ``where`` (a Village), a Fief
    title (``where`` the Fief) for ``lord``, the biretta for the Bishop ``lord``."""

    seat: str
    item: Item
    where: str = ""
    lord: str = ""
    kind: ClassVar[str] = "buy"


@dataclass(frozen=True)
class March:
    """Phase 5: one Lord along one road, with ``maa`` Men at Arms and ``knights`` Knights of his
    family taken from those travelling with him and those not yet moved (§8.1), and the
    ``captives`` his family holds there (§9.7)."""

    seat: str
    lord: str
    to: str
    maa: Count = 0
    knights: Count = 0
    captives: tuple[str, ...] = ()
    kind: ClassVar[str] = "move"


@dataclass(frozen=True)
class Cavalcade:
    """Phase 5: the Lord and ``knights`` Knights (no Men at Arms) ride into a Village an
    opponent holds and fight him at once, a Move still left to ride on (§8.5)."""

    seat: str
    lord: str
    to: str
    knights: Count = 0
    kind: ClassVar[str] = "cavalcade"


@dataclass(frozen=True)
class AskPass:
    """Phase 5: the Lord at an occupied Village asks its owner to let him pass (§8.2)."""

    seat: str
    lord: str
    kind: ClassVar[str] = "ask-pass"


@dataclass(frozen=True)
class Capture:
    """Phase 6: the seat's army captures the opposing Lords standing alone in the Village, no
    dice (§9.1, EN FAQ Phase 6)."""

    seat: str
    village: str
    kind: ClassVar[str] = "capture"


Face = Annotated[int, {"minimum": 0, "maximum": 6}]


@dataclass(frozen=True)
class Attack:
    """Phase 6: the seat attacks another family's troops in a Village (§9.1)."""

    seat: str
    village: str
    defender: str
    kind: ClassVar[str] = "attack"


@dataclass(frozen=True)
class BattleRoll:
    """Both sides' Battle Dice of one roll, rolled at once: each die's hit symbols (§9.3)."""

    attacker: Annotated[tuple[Face, ...], {"maxItems": 4}]
    defender: Annotated[tuple[Face, ...], {"maxItems": 4}]
    kind: ClassVar[str] = "battle-roll"


@dataclass(frozen=True)
class Losses:
    """The Men at Arms, Knights and (when no troop is left) Lords the seat loses to the hits
    it took this roll; its other Lords there are then captured (§9.4). Also the counters a
    family chooses to lose to Plague or an Uprising (FR-6). In an allied battle the
    side's decider removes them family by family: ``of`` names the family whose troops go
    (empty: the seat's own), and the Lords named may be any of the side's (FR-32)."""

    seat: str
    maa: Count = 0
    knights: Count = 0
    lords: tuple[str, ...] = ()
    of: str = ""
    kind: ClassVar[str] = "losses"


@dataclass(frozen=True)
class GiveControl:
    """The family controlling a Village hands its control to another family there: on its turn
    to one with troops there, or when it leaves, to any family staying (PL L1441-1445; FR-5)."""

    seat: str
    village: str
    to: str
    kind: ClassVar[str] = "give-control"


@dataclass(frozen=True)
class Strike:
    """The family that played an Uprising names whose troops in the Village take its hits
    next (EN §10.1, PL L2122-2124; FR-15)."""

    seat: str
    family: str
    kind: ClassVar[str] = "strike"


@dataclass(frozen=True)
class Join:
    """A family present in a Village where a battle was declared joins the attacker's side,
    the defender's, or stays out (§9.1: several players may fight together; FR-32)."""

    seat: str
    side: Literal["attacker", "defender", "none"]
    kind: ClassVar[str] = "join"


@dataclass(frozen=True)
class Resolve:
    """After a roll: go on, stop (the attacker, against a fortification), surrender, or (the
    attacker offers, the defender accepts) a truce (§9.5)."""

    seat: str
    choice: Literal["go-on", "stop", "surrender", "truce"]
    kind: ClassVar[str] = "resolve"


@dataclass(frozen=True)
class Grant:
    """Phase 4: the King (or Queen Regent) offers an unclaimed Fief title free to another
    family's Lord who meets the purchase conditions; that family answers (§7.4)."""

    seat: str
    fief: str
    lord: str
    kind: ClassVar[str] = "grant"


@dataclass(frozen=True)
class Excommunicate:
    """The Pope's family excommunicates a Lord (§10.5)."""

    seat: str
    lord: str
    kind: ClassVar[str] = "excommunicate"


@dataclass(frozen=True)
class Absolve:
    """The Pope's family lifts an excommunication (§10.5)."""

    seat: str
    lord: str
    kind: ClassVar[str] = "absolve"


@dataclass(frozen=True)
class Annul:
    """A spouse's family asks the Pope to annul the seat's Lord's marriage (§10.1, §10.5)."""

    seat: str
    lord: str
    kind: ClassVar[str] = "annul"


@dataclass(frozen=True)
class Diplomacy:
    """The seat spends a Diplomacy marker to ask another family for up to 3 Deniers (§12.4)."""

    seat: str
    other: str
    deniers: Annotated[int, {"minimum": 1, "maximum": 3}]
    kind: ClassVar[str] = "diplomacy"


@dataclass(frozen=True)
class AskCard:
    """The seat spends a Diplomacy marker to ask another family for a card of its hand; the
    hand limit of 3 still holds (§12.4, §13 item 61)."""

    seat: str
    other: str
    kind: ClassVar[str] = "ask-card"


@dataclass(frozen=True)
class GiveCard:
    """The family asked for a card hands one of its hand over (or answers no)."""

    seat: str
    card: str
    kind: ClassVar[str] = "give-card"


@dataclass(frozen=True)
class PlaceRelics:
    """Setup (Holy Relics): the relics the table laid on the Principal Villages of Bishoprics
    1 to 5, in that order (§12.2)."""

    order: tuple[str, ...]
    kind: ClassVar[str] = "place-relics"


@dataclass(frozen=True)
class TakeRelic:
    """A Lord takes the relic lying in his Village (§12.2)."""

    seat: str
    lord: str
    relic: str
    kind: ClassVar[str] = "take-relic"


@dataclass(frozen=True)
class GiveRelic:
    """The seat's Lord carrying ``relic`` hands it to ``lord`` (any Lord, even a lay one or
    another family's), for ``price`` Deniers the receiving family pays (0: a gift) (§12.2)."""

    seat: str
    relic: str
    lord: str
    price: Annotated[int, {"minimum": 0, "maximum": 99}] = 0
    kind: ClassVar[str] = "give-relic"


@dataclass(frozen=True)
class UseRelic:
    """Play Cards step: the family tries the Eyes of Saint Roseline or the Bone of Saint
    Rhadegund on every Heavy Rain or Famine card on the map (§12.2)."""

    seat: str
    relic: str
    kind: ClassVar[str] = "use-relic"


@dataclass(frozen=True)
class RelicDie:
    """The 1D6 of a relic's attempt, for the next card (§12.2)."""

    value: Die
    kind: ClassVar[str] = "relic-die"


@dataclass(frozen=True)
class Siege:
    """Phase 6: the seat besieges the opposing Stronghold or Fortified City in the Village,
    placing a Siege Engine 1-die side up (§9.6)."""

    seat: str
    village: str
    kind: ClassVar[str] = "siege"


@dataclass(frozen=True)
class GiveTitle:
    """Phase 4: a Lord with 2 Fief titles hands the smaller to another Lord of his family
    (§7.4)."""

    seat: str
    fief: str
    to: str
    kind: ClassVar[str] = "give-title"


@dataclass(frozen=True)
class Pillage:
    """Phase 6 Pillage: one Mill removed from a Village the seat controls or besieges, +1 (§9.8)."""

    seat: str
    village: str
    kind: ClassVar[str] = "pillage"


CHANCE_TYPES: tuple[type, ...] = (
    DealLord, Deal, DisasterDie, LordDie, HitDie, BattleRoll, PlaceRelics, RelicDie,
)  # fmt: skip

MOVE_TYPES: tuple[type, ...] = (
    DealLord,
    PlaceStart,
    Done,
    Propose,
    Answer,
    Candidate,
    Vote,
    Discard,
    Draw,
    Deal,
    DisasterDie,
    LordDie,
    HitDie,
    PlayCard,
    Interject,
    PlayLord,
    Buy,
    March,
    Cavalcade,
    AskPass,
    Capture,
    Attack,
    BattleRoll,
    Losses,
    Strike,
    GiveControl,
    Join,
    Resolve,
    Siege,
    GiveTitle,
    Grant,
    Excommunicate,
    Absolve,
    Annul,
    Diplomacy,
    AskCard,
    GiveCard,
    PlaceRelics,
    TakeRelic,
    GiveRelic,
    UseRelic,
    RelicDie,
    Pillage,
)

AnyMove = (
    DealLord
    | PlaceStart
    | Done
    | Propose
    | Answer
    | Candidate
    | Vote
    | Discard
    | Draw
    | Deal
    | DisasterDie
    | LordDie
    | HitDie
    | PlayCard
    | Interject
    | PlayLord
    | Buy
    | March
    | Cavalcade
    | AskPass
    | Capture
    | Attack
    | BattleRoll
    | Losses
    | Join
    | Resolve
    | Siege
    | GiveTitle
    | Grant
    | Excommunicate
    | Absolve
    | Annul
    | Diplomacy
    | AskCard
    | GiveCard
    | PlaceRelics
    | TakeRelic
    | GiveRelic
    | UseRelic
    | RelicDie
    | Pillage
)


def actor(move: object) -> str:
    """The seat a move belongs to; the table's for chance."""
    if isinstance(move, CHANCE_TYPES):
        return TABLE
    return str(getattr(move, "seat", TABLE))
