"""The France 1429 map as data: Villages joined by roads, 8 Fiefs and 5 Bishoprics.

The rulebooks describe the board's structure but not its contents (digest §3): every Village
lies in exactly one Fief (a coloured background, 2-4 Villages) and exactly one Bishopric
(numbered 1-5, one Principal Village with a larger name banner); Lords and troops move only
along roads, Village to adjacent Village. Only 12 Village names, Bishopric 5, two Principal
Villages' Bishoprics and two roads survive in the text, so the map is a file a user types in
from their own board (format: docs/france1429-data.md, schema: ``data/map.schema.json``).

``parse_map`` turns a decoded JSON document into a ``MapData`` (schema errors raise
``InputError`` naming the JSON path); it checks only the shape. Whether the map obeys the rules
is ``map_checks.check_map``'s question, so a user sees every problem of a map at once.
"""

from __future__ import annotations

import copy
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, cast

import jsonschema

from engine.games.france1429.schemas import MAP_SCHEMA
from engine.violations import InputError

MAP_FORMAT = "france1429-map/1"
"""The ``format`` value of a map file; a later incompatible format gets a new number."""

FiefRank = Literal["barony", "county", "duchy"]
RANK_SIZE: dict[FiefRank, int] = {"barony": 2, "county": 3, "duchy": 4}
"""Villages per Fief rank: a Barony has 2, a County 3, a Duchy 4 [EN p.10 §4.3; PL L1264-1267]."""

FIEFS = 8
BISHOPRICS = (1, 2, 3, 4, 5)
FIEF_SIZES = (2, 3, 4)

ListName = Literal["villages", "roads"]
LIST_NAMES: tuple[ListName, ...] = ("villages", "roads")
"""The lists a map file may hold only part of (``incomplete``): the box knows 12 Villages."""


@dataclass(frozen=True, slots=True)
class MapVillage:
    """A Village square on the board.

    ``fief`` is a Fief id, ``bishopric`` a Bishopric number; ``None``: not known (the box map).
    ``principal``: the Village has the larger name banner of its Bishopric's Principal Village.
    ``x``/``y`` place it as typed from the board (any unit, y downwards); ``None``: laid out
    automatically. ``invented``: a stand-in Village, not printed on the board.
    """

    id: str
    name: str
    fief: str | None
    bishopric: int | None
    principal: bool = False
    x: float | None = None
    y: float | None = None
    invented: bool = False
    source: str = ""


@dataclass(frozen=True, slots=True)
class MapFief:
    """A Fief: a coloured background holding 2-4 Villages.

    ``name`` (the Duchy of Bourg is the only one the rules name), ``colour`` (a CSS colour name
    or ``#rrggbb``) and ``rank`` (what the user reads off the board, checked against the
    Villages the map puts in it) may be ``None``; the rules need only which Villages it holds.
    """

    id: str
    name: str | None = None
    colour: str | None = None
    rank: FiefRank | None = None
    invented: bool = False
    source: str = ""


@dataclass(frozen=True, slots=True)
class MapBishopric:
    """A Bishopric, numbered 1-5 in a mitre at the board's edge; ``colour`` of its border."""

    number: int
    colour: str | None = None
    source: str = ""


@dataclass(frozen=True, slots=True)
class MapRoad:
    """A road between two Villages; roads are two-way, so ``(a, b)`` and ``(b, a)`` are one."""

    a: str
    b: str
    invented: bool = False
    source: str = ""

    def ends(self) -> frozenset[str]:
        return frozenset((self.a, self.b))


@dataclass(frozen=True, slots=True)
class MapData:
    """A whole map file.

    ``invented`` marks a stand-in (never the printed board); ``verified`` is true only for a map
    checked against a physical board. ``incomplete`` names the lists the file holds only part of;
    ``missing`` explains a ``null`` value or an incomplete list (keyed by path, such as
    ``villages[sigy].fief``, ``villages[*].fief`` or ``roads``); ``notes`` flag given values that
    rest on a doubtful reading.
    """

    name: str
    villages: tuple[MapVillage, ...]
    fiefs: tuple[MapFief, ...]
    bishoprics: tuple[MapBishopric, ...]
    roads: tuple[MapRoad, ...]
    invented: bool = False
    verified: bool = False
    source: str = ""
    incomplete: tuple[ListName, ...] = ()
    missing: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    board: tuple[float, float] | None = None
    """The printed board's width and height in millimetres when the map was traced on a photo
    of it: the Villages' x/y are then board millimetres, where the camera reads them."""

    by_id: dict[str, MapVillage] = field(init=False, repr=False, compare=False)
    links: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    fief_villages: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    bishopric_villages: dict[int, tuple[str, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        """Indexes built once with the map (not part of its JSON), so the rules look a Village,
        its roads, a Fief's or a Bishopric's Villages up without walking the lists on every
        legal-move question."""
        by_id: dict[str, MapVillage] = {}
        for v in self.villages:
            by_id.setdefault(v.id, v)
        links: dict[str, list[str]] = {v: [] for v in by_id}
        for r in self.roads:
            if r.a == r.b:
                continue
            for here, there in ((r.a, r.b), (r.b, r.a)):
                out = links.setdefault(here, [])
                if there not in out:
                    out.append(there)
        fiefs: dict[str, list[str]] = {}
        bishoprics: dict[int, list[str]] = {}
        for v in self.villages:
            if v.fief is not None:
                fiefs.setdefault(v.fief, []).append(v.id)
            if v.bishopric is not None:
                bishoprics.setdefault(v.bishopric, []).append(v.id)
        object.__setattr__(self, "by_id", by_id)
        object.__setattr__(self, "links", {k: tuple(x) for k, x in links.items()})
        object.__setattr__(self, "fief_villages", {k: tuple(x) for k, x in fiefs.items()})
        object.__setattr__(self, "bishopric_villages", {k: tuple(x) for k, x in bishoprics.items()})

    def village(self, village_id: str) -> MapVillage | None:
        """The Village with this id (the first, if a faulty map repeats it)."""
        return self.by_id.get(village_id)

    def fief(self, fief_id: str) -> MapFief | None:
        return next((f for f in self.fiefs if f.id == fief_id), None)

    def in_fief(self, fief_id: str) -> tuple[MapVillage, ...]:
        return tuple(v for v in self.villages if v.fief == fief_id)

    def in_bishopric(self, number: int) -> tuple[MapVillage, ...]:
        return tuple(v for v in self.villages if v.bishopric == number)

    def neighbours(self, village_id: str) -> tuple[str, ...]:
        """Villages one road away, in road order (each once)."""
        return self.links.get(village_id, ())

    def adjacent(self, a: str, b: str) -> bool:
        """A road joins Villages ``a`` and ``b`` (one Move, digest §8.1)."""
        return b in self.links.get(a, ())

    def principal(self, number: int) -> str | None:
        """The id of Bishopric ``number``'s Principal Village, or None if the map lacks it."""
        return next(
            (v for v in self.bishopric_villages.get(number, ()) if self.by_id[v].principal), None
        )


# --- names -----------------------------------------------------------------------------------


def name_key(name: str) -> str:
    """A printed name reduced for comparison: "L'Épervier", "l’epervier" and "LEPERVIER" are
    one, as are "Saint Paul" and "St. Paul" (the two seeds and a user's typing differ so)."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    words = "".join(c if c.isalnum() else " " for c in plain).split()
    return "".join("st" if w == "saint" else w for w in words)


# --- reading ---------------------------------------------------------------------------------


def map_schema() -> dict[str, Any]:
    """The JSON Schema of a map file (``schemas.MAP_SCHEMA``, shipped as
    ``data/map.schema.json``); a copy the caller may change."""
    return copy.deepcopy(MAP_SCHEMA)


def schema_error(doc: object, schema: Mapping[str, Any], code: str) -> InputError | None:
    """The clearest schema error of ``doc`` as an ``InputError`` naming its JSON path, or None.

    The path reads like ``$.villages[3].bishopric``, so a user finds the line they typed."""
    validator = jsonschema.validators.validator_for(schema)(schema)
    error = jsonschema.exceptions.best_match(validator.iter_errors(cast(Any, doc)))
    if error is None:
        return None
    path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    message = error.message
    if error.validator in ("oneOf", "anyOf"):
        message = f"{error.instance!r} is not valid here ({_expected(error.schema)})"
    return InputError(code, f"{path}: {message}", path)


def _expected(schema: Any) -> str:
    """What a ``oneOf`` wanted, in a few words ("a Village id or null")."""
    if isinstance(schema, dict):
        return str(schema.get("description") or "see the schema")
    return "see the schema"


def parse_map(doc: object, *, trusted: bool = False) -> MapData:
    """A decoded map document as ``MapData``; ``InputError`` (``input/schema``) naming the JSON
    path of the clearest fault if it does not fit ``data/map.schema.json``. ``trusted``: a
    shipped map, whose format the package's tests check, is not validated again at each load.
    Pure: the caller reads the file."""
    error = None if trusted else schema_error(doc, MAP_SCHEMA, "input/schema")
    if error is not None:
        raise error
    raw = cast(dict[str, Any], doc)
    return MapData(
        name=str(raw["name"]),
        villages=tuple(_village(v) for v in raw["villages"]),
        fiefs=tuple(_fief(f) for f in raw["fiefs"]),
        bishoprics=tuple(
            MapBishopric(int(b["number"]), b.get("colour"), str(b.get("source", "")))
            for b in raw["bishoprics"]
        ),
        roads=tuple(_road(r) for r in raw["roads"]),
        invented=bool(raw.get("invented", False)),
        verified=bool(raw.get("verified", False)),
        source=str(raw.get("source", "")),
        incomplete=tuple(cast(ListName, n) for n in raw.get("incomplete", ())),
        missing={str(k): str(v) for k, v in raw.get("missing", {}).items()},
        notes={str(k): str(v) for k, v in raw.get("notes", {}).items()},
        board=_board(raw.get("board")),
    )


def _board(raw: Mapping[str, Any] | None) -> tuple[float, float] | None:
    if raw is None:
        return None
    return float(raw["width_mm"]), float(raw["height_mm"])


def _village(v: Mapping[str, Any]) -> MapVillage:
    x, y = v.get("x"), v.get("y")
    return MapVillage(
        id=str(v["id"]),
        name=str(v["name"]),
        fief=v["fief"],
        bishopric=v["bishopric"],
        principal=bool(v.get("principal", False)),
        x=None if x is None else float(x),
        y=None if y is None else float(y),
        invented=bool(v.get("invented", False)),
        source=str(v.get("source", "")),
    )


def _fief(f: Mapping[str, Any]) -> MapFief:
    return MapFief(
        id=str(f["id"]),
        name=f.get("name"),
        colour=f.get("colour"),
        rank=f.get("rank"),
        invented=bool(f.get("invented", False)),
        source=str(f.get("source", "")),
    )


def _road(r: Any) -> MapRoad:
    if isinstance(r, list):
        return MapRoad(str(r[0]), str(r[1]))
    a, b = r["between"]
    return MapRoad(str(a), str(b), bool(r.get("invented", False)), str(r.get("source", "")))


def dump_map(m: MapData) -> dict[str, Any]:
    """``MapData`` back to a document ``parse_map`` reads (``parse_map(dump_map(m)) == m``)."""
    doc: dict[str, Any] = {"format": MAP_FORMAT, "name": m.name}
    if m.invented:
        doc["invented"] = True
    doc["verified"] = m.verified
    if m.source:
        doc["source"] = m.source
    if m.board is not None:
        doc["board"] = {"width_mm": m.board[0], "height_mm": m.board[1]}
    doc["villages"] = [_drop_defaults(_village_doc(v)) for v in m.villages]
    doc["fiefs"] = [
        _drop_defaults(
            {
                "id": f.id,
                "name": f.name,
                "colour": f.colour,
                "rank": f.rank,
                "invented": f.invented,
                "source": f.source,
            },
            keep=("name", "colour", "rank"),
        )
        for f in m.fiefs
    ]
    doc["bishoprics"] = [
        _drop_defaults({"number": b.number, "colour": b.colour, "source": b.source}, ("colour",))
        for b in m.bishoprics
    ]
    doc["roads"] = [
        [r.a, r.b]
        if not (r.source or r.invented)
        else _drop_defaults({"between": [r.a, r.b], "invented": r.invented, "source": r.source})
        for r in m.roads
    ]
    if m.incomplete:
        doc["incomplete"] = list(m.incomplete)
    if m.missing:
        doc["missing"] = dict(m.missing)
    if m.notes:
        doc["notes"] = dict(m.notes)
    return doc


def _village_doc(v: MapVillage) -> dict[str, Any]:
    return {
        "id": v.id,
        "name": v.name,
        "fief": v.fief,
        "bishopric": v.bishopric,
        "principal": v.principal,
        "x": v.x,
        "y": v.y,
        "invented": v.invented,
        "source": v.source,
    }


def _drop_defaults(
    doc: dict[str, Any], keep: tuple[str, ...] = ("fief", "bishopric")
) -> dict[str, Any]:
    """Leave out false flags, empty sources and unset positions (``keep`` stays even if null)."""
    return {k: v for k, v in doc.items() if k in keep or v not in (None, False, "")}
