"""The France 1429 table as frozen dataclasses: the rules' data, families, Lords, troops, Villages.

``Rules`` is what the game needs of the map and the box (digest §2-3), taken once at setup from
the loaded data and kept in the state, so the rules read no file. Everything else is what lies on
the table: each family's money, hand and Lords; troops by Village; Mills and fortifications;
Fortune and Disaster cards beside the Bishoprics' mitres; Tax markers; title holders (each title
is a field of the Lord who holds it, so a title cannot be held twice).

Hidden information: hands (``Family.hand``) and the decks' contents (``Deck``) never leave the
engine but through their owner's view (``views``); the Disaster track's cards lie face down until
they are resolved.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

from engine.flow import Sealed
from engine.games.france1429.editions import printed
from engine.games.france1429.map_view import MapView

Sex = Literal["male", "female"]
Fort = Literal["none", "stronghold", "fortified"]
Phase = Literal[
    "deal-lord",
    "place",
    "relics",
    "marriage",
    "draw",
    "deal",
    "disasters",
    "plague",
    "play",
    "purchase",
    "movement",
    "battles",
    "pillage",
    "over",
]

LORD_DECK = "lords"
FORTUNE_DECK = "fortune"

# card ids the rules know (the box data's ``cards[].id``); a Lord card's id is its Lord's id
HARVEST = "bountiful-harvest"
WEATHER = "good-weather"
TAXES = "taxes"
UPRISING = "uprising"
SECRET_PASSAGE = "secret-passage"
ASSASSINATION = "assassination"
JUSTICE = "justice"
AMBUSH = "ambush"
HEAVY_RAIN = "heavy-rain"
FAMINE = "famine"
PLAGUE = "plague"
CARDINAL = "cardinal"
DARC = "darc"

REGULAR = (HARVEST, WEATHER, TAXES)
OPPORTUNITY = (UPRISING, SECRET_PASSAGE, ASSASSINATION, JUSTICE, AMBUSH)
DISASTERS = (HEAVY_RAIN, FAMINE, PLAGUE)
LORD_OPPORTUNITY = (CARDINAL, DARC)


@dataclass(frozen=True)
class VillageInfo:
    """A Village of the map: its Fief, its Bishopric, whether it is its Bishopric's Principal."""

    id: str
    fief: str
    bishopric: int
    principal: bool = False


@dataclass(frozen=True)
class LordInfo:
    """A Lord card (and its token): id, name, sex."""

    id: str
    name: str
    sex: Sex


@dataclass(frozen=True)
class Rules:
    """What the rules use of the map and the box, fixed at setup (digest §2-3, §7.2).

    ``decks`` pairs each card id with its count; ``stock`` is each family's counters
    (``knights``, ``maa``, ``engines``, ``tax``, ``diplomacy``), ``start`` what a player begins
    with (``deniers``, ``knights``, ``maa``, ``strongholds``), ``supply`` the shared counters
    (``mills``, ``strongholds``), ``prices`` the Deniers of each purchase (``maa``, ``knight``,
    ``mill``, ``stronghold``, ``biretta``, ``title_per_village``). ``drawing``: the map as the
    pages draw it (``map_view``), worked out once at setup; None in a state a test builds.
    """

    villages: tuple[VillageInfo, ...]
    roads: tuple[tuple[str, str], ...]
    lords: tuple[LordInfo, ...]
    lord_cards: tuple[tuple[str, int], ...]
    fortune_cards: tuple[tuple[str, int], ...]
    battle_faces: tuple[int, ...]
    stock: dict[str, int]
    start: dict[str, int]
    supply: dict[str, int]
    prices: dict[str, int] = field(default_factory=dict)
    relics: tuple[str, ...] = ()
    source: str = ""
    drawing: MapView | None = None

    def village(self, vid: str) -> VillageInfo:
        for v in self.villages:
            if v.id == vid:
                return v
        raise KeyError(vid)

    def neighbours(self, vid: str) -> tuple[str, ...]:
        out = [b if a == vid else a for a, b in self.roads if vid in (a, b)]
        return tuple(dict.fromkeys(out))

    def fiefs(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(v.fief for v in self.villages))

    def in_fief(self, fief: str) -> tuple[str, ...]:
        return tuple(v.id for v in self.villages if v.fief == fief)

    def in_bishopric(self, number: int) -> tuple[str, ...]:
        return tuple(v.id for v in self.villages if v.bishopric == number)

    def principal(self, number: int) -> str | None:
        return next((v.id for v in self.villages if v.bishopric == number and v.principal), None)

    def lord(self, lid: str) -> LordInfo | None:
        return next((x for x in self.lords if x.id == lid), None)


@dataclass(frozen=True)
class Lord:
    """A Lord in play: where he stands, whose captive he is, his titles and marks.

    ``fiefs`` are the Fief titles he holds (at most 2, §7.4); ``bishop`` his Bishopric's number;
    ``moves``/``escort_*`` count his Moves this Movement phase and the troops travelling with
    him (troops move only with a Lord, never relayed, §8.1); ``came_from`` the Village he
    entered his current one from; ``passage`` a Village whose owner let him pass (§8.2).
    ``secret``: a Secret Passage played for his next Move (§11.4); ``must_leave``: the Village
    his victorious Cavalcade took, which he must move on from (§8.5).
    ``biretta``: his Cardinal title is the purchasable biretta, not a Cardinal card (§7.5).
    """

    id: str
    seat: str
    village: str
    captor: str | None = None
    fiefs: tuple[str, ...] = ()
    bishop: int | None = None
    cardinal: bool = False
    biretta: bool = False
    pope: bool = False
    king: bool = False
    queen: bool = False
    regent: bool = False
    crown_prince: bool = False
    darc: bool = False
    spouse: str | None = None
    assassin: bool = False
    excommunicated: bool = False
    moves: int = 0
    escort_maa: int = 0
    escort_knights: int = 0
    came_from: str | None = None
    passage: str | None = None
    asked: str | None = None
    plague_rolled: bool = False
    secret: bool = False
    bishop_round: int = 0
    must_leave: str | None = None

    def titled(self) -> bool:
        """A Lord with a Title (Fief, Bishop, Cardinal, Pope, King, Queen); d'ARC is no Title
        (digest §12.1, FR-7)."""
        return (
            bool(self.fiefs)
            or self.bishop is not None
            or self.cardinal
            or self.pope
            or (self.king or self.queen or self.regent)
        )

    def title_count(self) -> int:
        """Titles for the ransom (§7.6): each Fief, Bishop, Cardinal, Pope, King, Queen."""
        return len(self.fiefs) + sum(
            (
                self.bishop is not None,
                self.cardinal,
                self.pope,
                self.king,
                self.queen or self.regent,
            )
        )


@dataclass(frozen=True)
class Troops:
    """One family's troops in one Village; ``fresh_*`` have not moved this Movement phase."""

    seat: str
    village: str
    maa: int = 0
    knights: int = 0
    fresh_maa: int = 0
    fresh_knights: int = 0
    halved: bool = False

    def count(self) -> int:
        return self.maa + self.knights


@dataclass(frozen=True)
class Place:
    """A Village's counters and who controls it.

    ``present`` lists the families with a Lord or troops there in the order they arrived: the
    first controls it (§8.4); nobody there, a Governed Fief's titled Lord's family controls it
    (``control.controller``). ``besieged_by`` names a besieger (§9.6), ``engine`` the battle
    dice his Siege Engine shows (1 when placed in round ``since``, 2 from his next Battles
    phase on).
    """

    id: str
    mills: int = 0
    fort: Fort = "none"
    present: tuple[str, ...] = ()
    besieged_by: str | None = None
    engine: int = 0
    since: int = 0


@dataclass(frozen=True)
class Family:
    """A player: money, hand, counters left in the stockpile and per-phase bookkeeping."""

    seat: str
    deniers: int = 0
    hand: tuple[str, ...] = ()
    tax_left: int = 3
    diplomacy: int = 3
    drawn: int = 0
    drawn_lord: bool = False
    discarded: bool = False
    placed: dict[str, int] = field(default_factory=dict)
    done: bool = False


@dataclass(frozen=True)
class Tax:
    """A Tax marker: ``on`` is ``fief`` (Tallage) or ``bishopric`` (Tithe), ``target`` its id or
    number as text (``all``: the Pope's tithe), ``lord`` the Lord who taxed and ``right`` the
    title that gave him the right: ``fief``, ``king``, ``bishop``, ``cardinal``, ``pope``
    (§6.1, §11.3)."""

    seat: str
    on: Literal["fief", "bishopric"]
    target: str
    lord: str
    right: Literal["fief", "king", "bishop", "cardinal", "pope"]
    order: int = 0


@dataclass(frozen=True)
class BishopricCard:
    """A Fortune or Disaster card lying beside a Bishopric's mitre until it is discarded."""

    bishopric: int
    card: str


@dataclass(frozen=True)
class Pending:
    """A question the game waits on inside a phase: a card to reveal, a die to roll, an answer.

    ``kind``: ``deal`` (the table shows the card a seat drew), ``consent`` (a bride's family
    answers a proposal), ``passage`` (a Village's owner answers a request to pass),
    ``plague-die`` (a Lord's die in a plagued Bishopric), ``assassination`` (the target's die).
    ``annul`` (the Pope's family answers a spouse), ``diplomacy`` (a family answers a request for
    ``amount`` Deniers), ``rally`` (a family may add to an Uprising of ``amount`` cards;
    ``then`` is ``tunnels`` after a Secret Passage), ``uprising`` (the table rolls its
    ``amount`` dice left; ``rolled``: the hits of those rolled), ``uprising-strike`` (its
    player ``seat`` names whose troops of ``queue`` take the ``amount`` hits next, FR-15),
    ``uprising-losses`` and ``plague-losses`` (the family chooses which counters it loses,
    FR-6; a Plague on a moving ``lord``'s escort counts his escort only), ``captive`` (the
    winner keeps ``lord`` or lets him go, PL edition, FR-26), ``control`` (the family that
    left ``village`` names which of ``queue`` controls it, FR-5).
    ``seat`` is who acts (the table for chance), ``by`` who caused it.
    """

    kind: str
    seat: str
    by: str = ""
    deck: str = ""
    lord: str = ""
    other: str = ""
    village: str = ""
    queue: tuple[str, ...] = ()
    then: str = ""
    amount: int = 0
    rolled: int = 0


@dataclass(frozen=True)
class Election:
    """The election under way (``hear_ye``): ``office`` (``bishop``, ``pope``, ``king``), the
    Bishopric's number for a Bishop, the candidates declared (seat, Lord), the stage
    (``candidates``, then the sealed ``vote``) and whose turn it is to declare."""

    office: str
    bishopric: int = 0
    candidates: tuple[tuple[str, str], ...] = ()
    stage: str = "candidates"
    turn: int = 0


@dataclass(frozen=True)
class Outcome:
    """A revealed election, public from then on: each family's FOR and DECOY markers (seat,
    for, decoy), the votes each candidate got, the winner (empty: nobody)."""

    office: str
    bishopric: int = 0
    votes: dict[str, int] = field(default_factory=dict)
    markers: tuple[tuple[str, str, str], ...] = ()
    winner: str = ""


@dataclass(frozen=True)
class Battle:
    """The battle under way (``war``): attacker, defender, Village; ``stage`` is ``roll`` (the
    table rolls both sides), ``losses`` (``owing``: who still takes losses, ``hits`` each
    side's hits), ``attacker`` / ``defender`` (each decides to go on); ``lost``: anyone lost
    anything this roll; ``quiet``: rolls in a row without losses; ``cavalcade``: the Lord whose
    Cavalcade this battle is (the defender gets +1 hit per die, §8.5); ``tunnels``: the attacker
    played a Secret Passage, no fortification penalty (§11.4); ``truce``: the attacker offered
    one after this roll (§9.5). Allied battles (§9.1, FR-32): ``attackers`` / ``defenders`` are
    the families that joined each side (stage ``join``: ``queue`` is who is still asked);
    ``deciders`` the family deciding for each side (keyed by its lead); ``hits`` and ``owing``
    are keyed by the side's lead."""

    attacker: str
    defender: str
    village: str
    stage: str = "roll"
    hits: dict[str, int] = field(default_factory=dict)
    owing: tuple[str, ...] = ()
    lost: bool = False
    quiet: int = 0
    cavalcade: str = ""
    tunnels: bool = False
    truce: bool = False
    attackers: tuple[str, ...] = ()
    defenders: tuple[str, ...] = ()
    queue: tuple[str, ...] = ()
    deciders: dict[str, str] = field(default_factory=dict)

    def side(self, seat: str) -> str | None:
        """The lead (``attacker`` or ``defender`` seat) of the side ``seat`` fights on."""
        if seat == self.attacker or seat in self.attackers:
            return self.attacker
        if seat == self.defender or seat in self.defenders:
            return self.defender
        return None

    def members(self, lead: str) -> tuple[str, ...]:
        """The families on the side led by ``lead``: the lead first, then its allies."""
        if lead == self.attacker:
            return (self.attacker, *self.attackers)
        return (self.defender, *self.defenders)

    def opposing(self, lead: str) -> str:
        return self.defender if lead == self.attacker else self.attacker

    def decider(self, lead: str) -> str:
        """Who decides for the side (its losses, its captives, going on): the family with the
        most strength points at the last roll (EN §6.0, FR-32); the lead before any roll."""
        return self.deciders.get(lead, lead)


@dataclass(frozen=True)
class IncomeLine:
    """One itemised income line of a seat (the catalog code and its parameters)."""

    seat: str
    amount: int
    code: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class FranceState:
    """The whole table."""

    seats: tuple[str, ...]
    rules: Rules
    options: dict[str, Any]
    phase: Phase = "deal-lord"
    round: int = 0
    first: int = 0
    turn: int = 0
    families: tuple[Family, ...] = ()
    lords: tuple[Lord, ...] = ()
    troops: tuple[Troops, ...] = ()
    places: tuple[Place, ...] = ()
    lord_deck: dict[str, int] = field(default_factory=dict)
    fortune_deck: dict[str, int] = field(default_factory=dict)
    lord_discard: dict[str, int] = field(default_factory=dict)
    fortune_discard: dict[str, int] = field(default_factory=dict)
    track: tuple[str, ...] = ()
    resolved: int = 0
    mitres: tuple[BishopricCard, ...] = ()
    taxes: tuple[Tax, ...] = ()
    supply: dict[str, int] = field(default_factory=dict)
    stock: dict[str, dict[str, int]] = field(default_factory=dict)
    pending: tuple[Pending, ...] = ()
    last_income: tuple[IncomeLine, ...] = ()
    last_lines: tuple[IncomeLine, ...] = ()
    proposed: tuple[str, ...] = ()
    election: Election | None = None
    battle: Battle | None = None
    fought: tuple[str, ...] = ()
    excommunicated_in: int = 0
    relics: dict[str, str] = field(default_factory=dict)
    relics_taken: tuple[str, ...] = ()
    relics_used: tuple[str, ...] = ()
    fallen: tuple[Lord, ...] = ()
    annul_asked: str = ""
    prince_born: bool = False
    offices: tuple[str, ...] = ()
    last_election: Outcome | None = None
    winners: tuple[str, ...] = ()
    sealed: Sealed = field(default_factory=Sealed)

    def __post_init__(self) -> None:
        """A hand-written position may leave out what follows from the rest (issue 27): the
        families it says nothing of (as they begin, §4), the Villages (empty), and who is
        present where when it names
        nobody present anywhere (``Place.present`` from the troops and free Lords, in seat
        order: the first listed controls). A position that names anyone present keeps its
        arrival order as written. The guard is cheap: this runs on every ``replace``."""
        if len(self.families) != len(self.seats):
            have = {f.seat: f for f in self.families}
            start, stock = self.rules.start, self.rules.stock
            deniers, tax, markers = (
                start.get("deniers", 0),
                stock.get("tax", 3),
                stock.get("diplomacy", 3),
            )
            families = tuple(
                have.get(s) or Family(s, deniers=deniers, tax_left=tax, diplomacy=markers)
                for s in self.seats
            )
            object.__setattr__(self, "families", families)
        villages = self.rules.villages
        if len(self.places) == len(villages) and (
            any(p.present for p in self.places) or not (self.troops or self.lords)
        ):
            return
        object.__setattr__(self, "places", self._derived_places())

    def _derived_places(self) -> tuple[Place, ...]:
        given = {p.id: p for p in self.places}
        places = [given.get(v.id) or Place(v.id) for v in self.rules.villages]
        if any(p.present for p in places):
            return tuple(places)
        here: dict[str, set[str]] = {}
        for t in self.troops:
            if t.count():
                here.setdefault(t.village, set()).add(t.seat)
        for x in self.lords:
            if x.captor is None:
                here.setdefault(x.village, set()).add(x.seat)
        return tuple(
            replace(p, present=tuple(s for s in self.seats if s in here.get(p.id, ()))) if
            p.id in here else p for p in places
        )  # fmt: skip

    # --- seats and order -----------------------------------------------------------------
    def order(self) -> tuple[str, ...]:
        """Seats clockwise from the First Player (§5)."""
        n = len(self.seats)
        return tuple(self.seats[(self.first + i) % n] for i in range(n))

    def current(self) -> str:
        return self.order()[self.turn % len(self.seats)]

    def family(self, seat: str) -> Family:
        for f in self.families:
            if f.seat == seat:
                return f
        raise KeyError(seat)

    def with_family(self, fam: Family) -> FranceState:
        return replace(
            self, families=tuple(fam if f.seat == fam.seat else f for f in self.families)
        )

    # --- lords ---------------------------------------------------------------------------
    def lord(self, lid: str) -> Lord:
        for x in self.lords:
            if x.id == lid:
                return x
        raise KeyError(lid)

    def find_lord(self, lid: str) -> Lord | None:
        return next((x for x in self.lords if x.id == lid), None)

    def with_lord(self, lord: Lord) -> FranceState:
        return replace(self, lords=tuple(lord if x.id == lord.id else x for x in self.lords))

    def lords_of(self, seat: str) -> tuple[Lord, ...]:
        return tuple(x for x in self.lords if x.seat == seat)

    def lords_at(self, village: str) -> tuple[Lord, ...]:
        return tuple(x for x in self.lords if x.village == village)

    def sex(self, lid: str) -> Sex:
        info = self.rules.lord(lid)
        return info.sex if info else "male"

    # --- troops and places ---------------------------------------------------------------
    def troops_at(self, seat: str, village: str) -> Troops:
        for t in self.troops:
            if t.seat == seat and t.village == village:
                return t
        return Troops(seat, village)

    def with_troops(self, t: Troops) -> FranceState:
        rest = tuple(x for x in self.troops if not (x.seat == t.seat and x.village == t.village))
        if t.count() == 0:
            return replace(self, troops=rest)
        return replace(self, troops=(*rest, t))

    def place(self, village: str) -> Place:
        for p in self.places:
            if p.id == village:
                return p
        raise KeyError(village)

    def with_place(self, p: Place) -> FranceState:
        return replace(self, places=tuple(p if x.id == p.id else x for x in self.places))

    def stock_of(self, seat: str, item: str) -> int:
        """Counters left on the family's board: troops are what the map does not hold (a
        counter killed goes back to its stockpile), the rest as kept in ``stock``."""
        if item in ("maa", "knights"):
            on_map: int = sum(getattr(t, item) for t in self.troops if t.seat == seat)
            return self.rules.stock.get(item, 0) - on_map
        return self.stock.get(seat, {}).get(item, 0)

    def option(self, name: str) -> Any:
        """The option in force; a reading the editions print differently follows ``edition``
        unless set on its own (``editions``)."""
        return printed(self.options, name)
