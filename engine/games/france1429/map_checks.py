"""The sanity checks of a France 1429 map (digest §3.3), every problem listed at once.

A map a user types in from their board should obey what the rulebooks state about every board
(8 Fiefs of 2-4 Villages, 5 Bishoprics with one Principal Village each, every Village in one of
each, roads joining every Village) and hold what they state about this board (the 12 named
Villages, Bishopric 5 = Sigy, St Paul, St Ciers d'Abzac, Beaujeu, Bourg the Principal Village of
Bishopric 4, the 3-Village green County of Tournus, the 4-Village Duchy of Bourg, the roads
Blaye–Charolles–L'Épervier). ``check_map`` returns a ``Violation`` per problem, each with a
stable code (``map/...``, scoped to the game), the rulebook reference and its parameters for
the catalog sentence, as python-chess's ``Board.status()`` reports every fault of a position.

Unknown values (``null``, or a list the file marks ``incomplete``) are reported as such
(``map/missing-*``, ``map/incomplete-*``) and never counted as broken rules: a check fires only
when what the map does say already contradicts the rule. So the box map, which holds just what
the seeds give, reports exactly its gaps.

Roads are two-way pairs, so the road graph is symmetric by construction
(docs/france1429-data.md FD-5); the check that remains is that no road is listed twice in
either direction.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from engine.games.france1429.board_places import VILLAGE_MM, place_faults
from engine.games.france1429.geography import (
    BISHOPRICS,
    FIEF_SIZES,
    FIEFS,
    RANK_SIZE,
    MapData,
    MapVillage,
    name_key,
)
from engine.games.france1429.sources import GAME_KEY, REF, Missing
from engine.violations import Violation

Problem = Violation
"""A broken sanity rule or an unknown value: code, rulebook reference, catalog parameters."""

NAMED_VILLAGES = (
    "Sigy",
    "St Paul",
    "St Ciers d'Abzac",
    "Beaujeu",
    "Bourg",
    "Blaye",
    "Tournus",
    "St Gérôme",
    "Charolles",
    "L'Épervier",
    "St Médard",
    "Mazilles",
)
"""Every Village the rulebooks name (digest §3.2)."""

BISHOPRIC_5 = ("Sigy", "St Paul", "St Ciers d'Abzac", "Beaujeu")
"""Bishopric 5 "has 4 Villages", Sigy its Principal [EN p.5 §1.4.1; PL L505-513]."""

PRINCIPALS = ("Sigy", "Blaye", "Tournus", "St Gérôme", "Bourg")
"""The five Principal Villages, where the relics start [EN p.17 §11.1; PL L2282-2283]."""

PRINCIPAL_OF = {"Sigy": 5, "Bourg": 4}
"""Principal Villages whose Bishopric the text gives (Bourg: PL L2296-2297 only)."""

KNOWN_ROADS = (("Blaye", "Charolles"), ("Charolles", "L'Épervier"))
"""Roads the movement examples use [EN p.11 §5.0, p.12 §5.2; PL L1374-1377, L1502-1507]."""

TOURNUS_FIEF = 3
"""Tournus lies in the green Fief on the right, "3 Villages" [EN p.10 §4.3; PL L1259-1262]."""

BOURG_DUCHY = ("Bourg", 4)
"""The Duchy of Bourg has "four Villages" [EN p.9 §2.4.5; PL L1115-1121]."""


def _v(code: str, ref_key: str, **params: Any) -> Violation:
    return Violation(code, REF[ref_key], params, GAME_KEY)


def check_map(m: MapData) -> list[Problem]:
    """Every problem of map ``m``: unknown values first, then each broken rule.

    An empty list means the map is complete and obeys every rule the rulebooks state about the
    board. The order is stable (the map's own order inside each check), so a user fixing the
    file sees the same list shrink.
    """
    return [g.violation() for g in map_gaps(m)] + map_problems(m)


def map_problems(m: MapData) -> list[Problem]:
    """The broken rules of map ``m`` alone, without its unknown values (``map_gaps``)."""
    out = _ids(m)
    out += _fiefs(m)
    out += _bishoprics(m)
    out += _named(m)
    out += _roads(m)
    out += _positions(m)
    out += _traced_places(m)
    return out


# --- unknown values --------------------------------------------------------------------------


def map_gaps(m: MapData, *, everything: bool = False) -> list[Missing]:
    """The values map ``m`` leaves unknown, each with the file's note (``missing``).

    By default only what the rules need: a Village's Fief and Bishopric, the lists marked
    ``incomplete``, and on a traced board (one with a ``board`` size) each Village's place.
    ``everything=True`` adds what is only shown (Fief names, colours and ranks, Bishopric
    colours). Without a board size positions are never gaps: missing ones are laid out.
    """
    out: list[Missing] = []

    def gap(what: str, code: str, ref: str, needed: bool = True, **params: Any) -> None:
        out.append(Missing(what, code, Missing.note_for(m.missing, what), REF[ref], params, needed))

    for name in m.incomplete:
        count = len(m.villages) if name == "villages" else len(m.roads)
        gap(str(name), f"map/incomplete-{name}", "map-format", count=count)
    for v in m.villages:
        for attr, code in (("fief", "map/missing-fief"), ("bishopric", "map/missing-bishopric")):
            if getattr(v, attr) is None:
                gap(f"villages[{v.id}].{attr}", code, "membership", village=v.name)
    if m.board is not None:
        for v in m.villages:
            if v.x is None or v.y is None:
                gap(f"villages[{v.id}].x", "map/missing-place", "map-format", village=v.name)
    if everything:
        for f in m.fiefs:
            for attr in ("name", "colour", "rank"):
                if getattr(f, attr) is None:
                    gap(f"fiefs[{f.id}].{attr}", "map/unknown-value", "fiefs", False)
        for b in m.bishoprics:
            if b.colour is None:
                gap(f"bishoprics[{b.number}].colour", "map/unknown-value", "bishoprics", False)
    return out


# --- identities ------------------------------------------------------------------------------


def _twice(items: Iterable[Any]) -> list[Any]:
    """Items that occur more than once, each once, in first-seen order."""
    seen = Counter(items)
    return [k for k, n in seen.items() if n > 1]


def _ids(m: MapData) -> list[Problem]:
    out = [
        _v("map/duplicate-village", "map-format", village=i)
        for i in _twice(v.id for v in m.villages)
    ]
    out += [_v("map/duplicate-fief", "map-format", fief=i) for i in _twice(f.id for f in m.fiefs)]
    for key in _twice(name_key(v.name) for v in m.villages):
        same = [v.name for v in m.villages if name_key(v.name) == key]
        out.append(_v("map/duplicate-name", "map-format", name=same[0], count=len(same)))
    return out


# --- Fiefs -----------------------------------------------------------------------------------


def _complete(m: MapData, attr: str) -> bool:
    """Every Village is listed and each names its ``attr``: counts can be checked from below."""
    return "villages" not in m.incomplete and all(getattr(v, attr) is not None for v in m.villages)


def _fiefs(m: MapData) -> list[Problem]:
    out: list[Problem] = []
    if len(m.fiefs) != FIEFS:
        out.append(_v("map/fief-count", "fiefs", count=len(m.fiefs)))
    ids = {f.id for f in m.fiefs}
    for v in m.villages:
        if v.fief is not None and v.fief not in ids:
            out.append(_v("map/unknown-fief", "membership", village=v.name, fief=v.fief))
    complete = _complete(m, "fief")
    for f in _unique(m.fiefs):
        count = len(m.in_fief(f.id))
        label = _fief_label(f.id, f.name)
        if count > max(FIEF_SIZES) or (complete and count < min(FIEF_SIZES)):
            out.append(_v("map/fief-size", "fief-size", fief=label, count=count))
        elif f.rank is not None:
            size = RANK_SIZE[f.rank]
            if count > size or (complete and count != size):
                out.append(_v("map/fief-rank", "fief-size", fief=label, size=size, count=count))
    return out


def _unique(items: Iterable[Any]) -> list[Any]:
    """The first of each id (a duplicate is reported once, by ``_ids``)."""
    seen: set[str] = set()
    out = []
    for item in items:
        if item.id not in seen:
            seen.add(item.id)
            out.append(item)
    return out


def _fief_label(fief_id: str, name: str | None) -> str:
    return (
        f"{name} ({fief_id})" if name and name_key(name) != name_key(fief_id) else name or fief_id
    )


# --- Bishoprics ------------------------------------------------------------------------------


def _bishoprics(m: MapData) -> list[Problem]:
    out: list[Problem] = []
    numbers = [b.number for b in m.bishoprics]
    if sorted(numbers) != list(BISHOPRICS):
        shown = ", ".join(str(n) for n in numbers) or "-"
        out.append(_v("map/bishopric-numbers", "bishoprics", numbers=shown, count=len(numbers)))
    for v in m.villages:
        if v.bishopric is not None and v.bishopric not in numbers:
            out.append(
                _v("map/unknown-bishopric", "membership", village=v.name, number=v.bishopric)
            )
    complete = _complete(m, "bishopric")
    for n in sorted(set(numbers)):
        count = sum(1 for v in m.in_bishopric(n) if v.principal)
        if count > 1 or (complete and count == 0):
            out.append(_v("map/principal-count", "principal", number=n, count=count))
    return out


# --- what the rulebooks say about this board --------------------------------------------------


def _by_name(m: MapData) -> dict[str, MapVillage]:
    out: dict[str, MapVillage] = {}
    for v in m.villages:
        out.setdefault(name_key(v.name), v)
    return out


def _named(m: MapData) -> list[Problem]:
    out: list[Problem] = []
    named = _by_name(m)
    if "villages" not in m.incomplete:
        for name in NAMED_VILLAGES:
            if name_key(name) not in named:
                out.append(_v("map/named-village-absent", "named", name=name))
    five = {name_key(n) for n in BISHOPRIC_5}
    for v in m.villages:
        if v.bishopric == 5 and name_key(v.name) not in five:
            out.append(_v("map/bishopric-5-extra", "bishopric-5", village=v.name))
    for name in BISHOPRIC_5:
        found = named.get(name_key(name))
        if found is not None and found.bishopric not in (None, 5):
            out.append(
                _v(
                    "map/bishopric-5-missing",
                    "bishopric-5",
                    village=found.name,
                    number=found.bishopric,
                )
            )
    principals = {name_key(n) for n in PRINCIPALS}
    for v in m.villages:
        key = name_key(v.name)
        if key in principals and not v.principal:
            out.append(_v("map/principal-named", "principals", village=v.name))
        if v.principal and key not in principals:
            out.append(_v("map/principal-unnamed", "principals", village=v.name))
    bourg = named.get(name_key("Bourg"))
    if bourg is not None and bourg.bishopric not in (None, PRINCIPAL_OF["Bourg"]):
        out.append(_v("map/bourg-bishopric", "bourg-bishopric", number=bourg.bishopric))
    out += _tournus(m, named.get(name_key("Tournus")))
    out += _bourg_duchy(m)
    return out


def _tournus(m: MapData, tournus: MapVillage | None) -> list[Problem]:
    if tournus is None or tournus.fief is None or m.fief(tournus.fief) is None:
        return []
    count = len(m.in_fief(tournus.fief))
    if count > TOURNUS_FIEF or (_complete(m, "fief") and count != TOURNUS_FIEF):
        fief = m.fief(tournus.fief)
        label = _fief_label(tournus.fief, fief.name if fief else None)
        return [_v("map/tournus-county", "tournus-county", fief=label, count=count)]
    return []


def _bourg_duchy(m: MapData) -> list[Problem]:
    name, size = BOURG_DUCHY
    fiefs = [f for f in _unique(m.fiefs) if f.name and name_key(f.name) == name_key(name)]
    if not fiefs:
        if all(f.name is not None for f in m.fiefs):
            return [_v("map/bourg-duchy-absent", "bourg-duchy")]
        return []
    out: list[Problem] = []
    for f in fiefs:
        count = len(m.in_fief(f.id))
        if count > size or (_complete(m, "fief") and count != size):
            out.append(_v("map/bourg-duchy", "bourg-duchy", fief=f.id, count=count))
    return out


# --- roads -----------------------------------------------------------------------------------


def _roads(m: MapData) -> list[Problem]:
    out: list[Problem] = []
    ids = {v.id for v in m.villages}
    names = {v.id: v.name for v in m.villages}
    seen: set[frozenset[str]] = set()
    for r in m.roads:
        for end in (r.a, r.b):
            if end not in ids:
                out.append(_v("map/road-unknown-village", "roads", village=end, a=r.a, b=r.b))
        if r.a == r.b:
            out.append(_v("map/road-loop", "roads", village=names.get(r.a, r.a)))
        elif r.ends() in seen:
            out.append(
                _v("map/road-duplicate", "roads", a=names.get(r.a, r.a), b=names.get(r.b, r.b))
            )
        seen.add(r.ends())
    named = _by_name(m)
    if "roads" not in m.incomplete:
        for a, b in KNOWN_ROADS:
            va, vb = named.get(name_key(a)), named.get(name_key(b))
            if va is not None and vb is not None and frozenset((va.id, vb.id)) not in seen:
                out.append(_v("map/known-road-absent", "known-roads", a=va.name, b=vb.name))
        if "villages" not in m.incomplete:
            groups = road_groups(m)
            if len(groups) > 1:
                shown = "; ".join(
                    ", ".join(names[i] for i in g[:3]) + (", …" if len(g) > 3 else "")
                    for g in groups
                )
                out.append(_v("map/not-connected", "connected", count=len(groups), groups=shown))
    return out


def road_groups(m: MapData) -> list[list[str]]:
    """The Villages split by the roads into groups one can travel within (connected components),
    largest first, each in map order."""
    order = {v.id: i for i, v in enumerate(m.villages)}
    links: dict[str, set[str]] = {v.id: set() for v in m.villages}
    for r in m.roads:
        if r.a in links and r.b in links:
            links[r.a].add(r.b)
            links[r.b].add(r.a)
    groups: list[list[str]] = []
    done: set[str] = set()
    for start in links:
        if start in done:
            continue
        group, todo = [], [start]
        done.add(start)
        while todo:
            here = todo.pop()
            group.append(here)
            for nxt in sorted(links[here] - done):
                done.add(nxt)
                todo.append(nxt)
        groups.append(sorted(group, key=order.__getitem__))
    return sorted(groups, key=lambda g: (-len(g), order[g[0]]))


def _positions(m: MapData) -> list[Problem]:
    return [
        _v("map/position-half", "map-format", village=v.name)
        for v in m.villages
        if (v.x is None) != (v.y is None)
    ]


def _traced_places(m: MapData) -> list[Problem]:
    """A board traced on a photo is read by the camera at its Villages' places
    (``board_places``): a place the camera could not read is refused, naming the Villages, so
    no profile is made that mixes two Villages up."""
    if m.board is None:
        return []
    names = {v.id: v.name for v in reversed(m.villages)}
    width, height = (round(x) for x in m.board)
    size = round(VILLAGE_MM)
    out = []
    for kind, ids in place_faults(m):
        if kind == "overlap":
            a, b = names[ids[0]], names[ids[1]]
            out.append(_v("map/villages-overlap", "map-format", a=a, b=b, size=size))
        else:
            params = {"village": names[ids[0]], "size": size, "width": width, "height": height}
            out.append(_v(f"map/village-{kind}", "map-format", **params))
    return out
