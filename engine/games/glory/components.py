"""Static facts of Glory's duels: dice, allies, relics, Prestige, Knights, and the data files.

What the rulebook text gives is written here with its seed lines (rules/glory.md, seed 001):
the dice ranges and Special Symbol values, the ally and relic effects used in a duel, the
Prestige kinds. What it does not give (the printed faces of the dice, the Knights' statistics)
comes from data files users can replace (``data/dice.json``, ``data/knights.json``, named by a
data set, see ``data_file``), parsed here and handed to the rules. The shipped
files carry what the seed gives; every value it lacks is ``null`` with a ``missing`` note, and
Herald refuses only the task that actually needs such a value (``missing_data``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, get_args

from engine import codec
from engine.violations import InputError, RuleViolation, Violation

GAME_KEY = "glory"
RULEBOOK = "rules/glory.md"
SEED = "001_35e9a710b093a69c.txt"


def ref(section: str, lines: str) -> str:
    """A rulebook reference: digest section plus seed lines."""
    return f"{RULEBOOK} {section} [{SEED}:{lines}]"


DieType = Literal["strength", "horse", "armour"]
DIE_TYPES: tuple[DieType, ...] = ("strength", "horse", "armour")
"""Red Strength, black Horse, white Armour dice, in the order Attack lists them [L741-743]."""

Face = int | Literal["special"]
SPECIAL = "special"

COLOUR: dict[DieType, str] = {"strength": "red", "horse": "black", "armour": "white"}
DIE_MIN: dict[DieType, int] = {"strength": 1, "horse": 0, "armour": 0}
DIE_MAX: dict[DieType, int] = {"strength": 5, "horse": 4, "armour": 3}
"""Ranges of the numbers on the dice [L753-756]; an active Special Symbol counts the maximum."""
SPECIAL_INACTIVE: dict[DieType, int] = {"strength": 1, "horse": 0, "armour": 0}
"""An inactive Special Symbol is worth 0, or 1 on a Strength die [L761-762]."""

ROUNDS = 3
"""A game is three rounds, each ending in a Tournament [L18]."""
PUBLIC_TITLES = 3
"""Three Title cards face up [L131-132]."""
COLUMN = 4
"""Four face-up cards under each Quest deck [L251-252]."""
PAWNS = 6
"""Six pawns per player [L153]."""

MAX_DICE = 3
"""At most 3 dice of each colour per pass [L741]; equipment Level IV adds no die [L1761]."""
MAX_STRENGTH = 4
"""At most 4 Strength tokens per duel; 4 activate the red Special Symbol [L799-804, L1816]."""
FAITH_DICE = 2
"""A Faith token rerolls up to 2 dice [L813-815, L1768]; Mniszka +1, Biskup +2 [L1383-1389]."""
RING_DICE = 4
"""Pierścień rerolls up to 4 dice [L1529]."""
PLAYER_WORTH = 7
PLAYER_WORTH_MORE = 9
"""A player is worth 7 Glory, 9 with more Glory than the opponent when scored [L969-973]."""
TRACK_WRAP = 30
"""The Score Track wraps at 30: take the Extra Glory token, go on from 1 [L1150-1152]."""
WINS_NEEDED = 2
MAX_PASSES = 3
"""A duel is at most 3 passes; the first side to win 2 wins it [L735-737, L1764]."""

Level = Literal[1, 2, 3, 4]

AllyKind = Literal[
    "pustelnik",
    "minstrel",
    "drab",
    "weteran",
    "giermek",
    "fechmistrz",
    "mniszka",
    "krolowa",
    "platnerz",
    "krol",
    "biskup",
    "poslaniec",
    "dworka",
    "dama",
    "blazen",
    "lichwiarz",
    "kuchmistrz",
    "herold",
    "wiedzma",
    "dyplomata",
    "wasal",
]
"""Ally tokens named in the seed [L1358-1411] (ASCII keys of the Polish names)."""

RelicKind = Literal["medalion", "amulet", "pierscien", "paternoster"]
PrestigeKind = Literal["pani-serca", "swita", "slawa-wojenna", "faworyt-krola", "urzad", "czempion"]
"""The six Prestige kinds [L1015-1020]; at most one of each per player [L1008-1010]."""

KnightType = Literal["champion", "veteran", "king", "polish-nobility", "nobility", "card", "sir"]
"""Knight backs [L299-301]; ``card``: a Challenge or Title card opponent; ``sir``: the solo AI."""

Context = Literal["joust", "pas-d-armes", "challenge", "title"]
TOURNAMENT: frozenset[str] = frozenset({"joust", "pas-d-armes"})

ALLY_KINDS: tuple[str, ...] = get_args(AllyKind)
RELIC_KINDS: tuple[str, ...] = get_args(RelicKind)
PRESTIGE_KINDS: tuple[str, ...] = get_args(PrestigeKind)

TENT_ALLIES: frozenset[str] = frozenset(
    {"drab", "kuchmistrz", "blazen", "dworka", "herold", "pustelnik"}
)
"""Used once, before the first pass [L795-797] (tent icon; timing read from the card texts)."""
LANCE_ALLIES: frozenset[str] = frozenset(
    {"weteran", "giermek", "fechmistrz", "platnerz", "wiedzma"}
)
"""Used during a pass, one in each of the two lance steps [L820-829]."""
PERMANENT_ALLIES: frozenset[str] = frozenset(
    {"mniszka", "biskup", "krolowa", "poslaniec", "dyplomata"}
)
"""Never flipped; they help whenever their moment comes [L1360-1362]."""

SET_DIE: dict[str, tuple[DieType, int]] = {
    "giermek": ("horse", 4),
    "fechmistrz": ("strength", 5),
    "platnerz": ("armour", 3),
    "paternoster": ("armour", 3),
}
"""Allies and relics that turn one of their owner's dice to a value [L1374-1385, L1530-1533]."""

ATTACK_BONUS: dict[str, int] = {"weteran": 1, "kuchmistrz": 1, "medalion": 1, "amulet": 2}
"""+Attack for their owner: Weteran this pass, Kuchmistrz pass 1, relics this pass."""
OPPONENT_ATTACK: dict[str, int] = {"drab": -1, "wiedzma": -1}
"""-Attack for the opponent: Drab in pass 1, Wiedźma this pass [L1370-1373, L1406-1411]."""
GLORY_COST: dict[str, int] = {"drab": 1, "wiedzma": 1}
"""Glory the user of the ally loses [L1370, L1407]."""
BLAZEN_PRESTIGE = -2
"""Błazen: the opponent's Prestige counts 2 lower in pass 1, even below 0 [L1392-1397]."""
REFRESH: dict[str, Literal["ally", "prestige", "relic"]] = {
    "dworka": "ally",
    "herold": "prestige",
    "pustelnik": "relic",
}
"""Start-of-duel refreshers [L1360-1366, L1392-1402]; Pustelnik's object is cut off (GL-7)."""

REF = {
    "structure": ref("§5.1", "L735-737, L1764"),
    "pool": ref("§5.2", "L741, L799-807, L1743-1761"),
    "strength": ref("§5.2 Strength", "L799-807, L1766, L1816-1818"),
    "veteran": ref("§5.2 Veterans", "L724-726, L779-781"),
    "dice": ref("§2.4 dice", "L749-762"),
    "special": ref("§2.4 Special Symbol", "L758-762, L1761, L1827-1828"),
    "attack": ref("§5.3", "L741-747, L856-862"),
    "modifiers": ref("§5.3 modifiers", "L837, L856-862, L893-897"),
    "steps": ref("§5.4", "L786-846, L1810-1859"),
    "tent": ref("§5.4 step 0", "L795-797, L1810-1814"),
    "faith": ref("§5.4 step 3", "L813-815, L842-846, L1768-1770"),
    "lance": ref("§5.4 steps 4-5", "L820-829, L1845-1852"),
    "relic": ref("§5.4 step 6", "L831-832, L1511-1515"),
    "resolve": ref("§5.4 step 7", "L834-838, L1877-1881"),
    "winner": ref("§5.5", "L906-918, L960-962, L1864-1870"),
    "knight-tie": ref("§5.5 Knight tie", "L914-918, L1867"),
    "player-tie": ref("§5.5 player tie", "L960-962, L1013-1014, L1868-1869"),
    "sir-tie": ref("Appendix A", "L1278-1281"),
    "order": ref("§5.6", "L964-967, L1786, L893-897"),
    "knights": ref("§5.7", "L975-981"),
    "end": ref("§5.8", "L920-953, L1771-1777, L1871-1892"),
    "recover": ref("§5.8 loser", "L938-941, L1154-1155, L1775, L1890"),
    "half": ref("§5.8 half Glory", "L943-944, L1157-1160, L1776-1777, L1887"),
    "worth": ref("§5.8 player worth", "L969-973, L1150-1151, L1872"),
    "knight-glory": ref("§6", "L769, L929-932"),
    "card": ref("§5.8 cards", "L934, L950-953, L1888"),
    "polish": ref("§6 Polish Nobility", "L774-777"),
    "allies": ref("§7.5", "L1358-1411"),
    "relics": ref("§7.6", "L1507-1533"),
    "prestige": ref("§7.3", "L869-871, L1013-1014"),
    "glory-cost": ref("§7.5 Drab/Wiedźma", "L1370-1373, L1406-1411"),
    "track": ref("§1 Score Track", "L1150-1152"),
    "data": ref("§11 missing data", "L101-109"),
}


def missing_data(what: str, task: str, where: str) -> RuleViolation:
    """The refusal when ``task`` needs a value the seed lost and the data file leaves ``null``."""
    return RuleViolation(
        Violation(
            "data/missing", REF["data"], {"what": what, "task": task, "where": where}, GAME_KEY
        )
    )


def score_track(glory: int) -> tuple[int, int]:
    """(Extra Glory tokens, marker space) for a Glory total: 31 is one 30-token and space 1."""
    return glory // TRACK_WRAP, glory % TRACK_WRAP


# --- dice faces ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DieFaces:
    """The printed faces of one die type; ``None`` marks a face the data file does not know."""

    faces: tuple[Face | None, ...]

    @property
    def complete(self) -> bool:
        return None not in self.faces

    def known(self) -> tuple[Face, ...]:
        return tuple(f for f in self.faces if f is not None)


@dataclass(frozen=True, slots=True)
class DiceTable:
    """Face tables of the three die types, from ``data/dice.json`` or a user's file."""

    strength: DieFaces
    horse: DieFaces
    armour: DieFaces
    verified: bool = False
    source: str = ""

    def of(self, die: DieType) -> DieFaces:
        faces: DieFaces = getattr(self, die)
        return faces


def parse_dice(data: Any) -> DiceTable:
    """A face table from its JSON data file; ``InputError`` names the faulty entry."""
    if not isinstance(data, dict) or not isinstance(data.get("dice"), dict):
        raise InputError("input/dice", "a dice file is {'dice': {'strength': {'faces': [...]}, …}}")
    tables: dict[str, DieFaces] = {}
    for die in DIE_TYPES:
        entry = data["dice"].get(die)
        if not isinstance(entry, dict) or not isinstance(entry.get("faces"), list):
            raise InputError("input/dice", f"no face list for the {die} die", f"$.dice.{die}")
        faces: list[Face | None] = []
        for i, face in enumerate(entry["faces"]):
            path = f"$.dice.{die}.faces[{i}]"
            if face is None or face == SPECIAL:
                faces.append(face)
            elif isinstance(face, int) and not isinstance(face, bool):
                if not DIE_MIN[die] <= face <= DIE_MAX[die]:
                    raise InputError(
                        "input/dice",
                        f"{face} is outside the {die} die's range "
                        f"{DIE_MIN[die]}-{DIE_MAX[die]} [L753-756]",
                        path,
                    )
                faces.append(face)
            else:
                raise InputError(
                    "input/dice", f"a face is a number, 'special' or null: {face!r}", path
                )
        if not faces:
            raise InputError("input/dice", f"the {die} die has no faces", f"$.dice.{die}.faces")
        tables[die] = DieFaces(tuple(faces))
    verified = data.get("verified", False)
    if not isinstance(verified, bool):
        raise InputError("input/dice", "'verified' must be true or false", "$.verified")
    return DiceTable(
        tables["strength"], tables["horse"], tables["armour"], verified, str(data.get("source", ""))
    )


# --- Knights ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Unsayable:
    """A component whose printed text the data vocabulary cannot say (issue #24, point 3).

    The group copies the text as printed (``printed``) and says what the vocabulary lacks to
    say it (``missing``), instead of entering a guess the rules would then apply as if printed.
    A game with such a card is refused, naming it (``data_missing``), unless the option
    ``unsayable`` is ``leave-out``: then the card is taken out of the box before setup.
    """

    printed: str
    missing: str


@dataclass(frozen=True, slots=True)
class KnightData:
    """A Knight or card opponent as a data file lists it; ``None``: not in the seed."""

    name: str
    type: KnightType | None = None
    attack: int | None = None
    prestige: int | None = None
    glory: int | None = None
    removes: tuple[DieType, ...] | None = None
    source: str = ""
    missing: str = ""
    unsayable: Unsayable | None = None


def parse_knights(data: Any) -> dict[str, KnightData]:
    """Knights by name from a data file (``{"knights": [...]}``)."""
    if not isinstance(data, dict) or not isinstance(data.get("knights"), list):
        raise InputError("input/knights", "a knights file is {'knights': [{'name': …}, …]}")
    out: dict[str, KnightData] = {}
    for i, entry in enumerate(data["knights"]):
        knight: KnightData = codec.decode(KnightData, entry, f"$.knights[{i}]")
        out[knight.name] = knight
    return out
