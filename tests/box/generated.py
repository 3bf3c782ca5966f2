"""Data sets unlike the shipped ones, made by the tests (issue #24: "the referee on a box that is
not the stand-in set"): a France 1429 map of another shape and size, within every rule the
rulebooks state about the board (digest §3.3: 8 Fiefs of 2-4 Villages, 5 Bishoprics each with one
Principal Village, the 12 named Villages where the rulebooks put them, the two known roads,
every Village reachable).

Made from a seed, so a failure names the map that caused it. The shipped stand-in set gives the
rest of the data (Lords, cards, prices), so only the map differs.
"""

from __future__ import annotations

import json
import random
from typing import Any

from engine import registry

SHIPPED = registry.package_files("france1429").joinpath("data")
COLOURS = ("#2e86c1", "#28b463", "#d4a017", "#a93226", "#7d3c98", "#ca6f1e", "#17a589", "#5d6d7e")


def _id(name: str) -> str:
    plain = name.lower().replace("é", "e").replace("ô", "o").replace("'", "-").replace(" ", "-")
    return plain.replace("ç", "c")


def france_map(seed: int, extra: int) -> dict[str, Any]:
    """A France 1429 map with ``12 + extra`` Villages (7 <= extra <= 19: the 8 Fiefs hold 19 to
    31 Villages once the Duchy of Bourg and Tournus's County are fixed) laid out at random."""
    if not 7 <= extra <= 19:
        raise ValueError(
            f"8 Fiefs of 2-4 Villages hold 12 + 7 to 12 + 19 Villages, not 12 + {extra}"
        )
    rng = random.Random(seed)
    total = 12 + extra
    # Fief sizes: the Duchy of Bourg (4), Tournus's green County (3), six more of 2-4 Villages
    # making up the total.
    while True:
        sizes = [rng.choice((2, 3, 4)) for _ in range(6)]
        if sum(sizes) + 7 == total:
            break
    fiefs = [("bourg", "Bourg", 4), ("green", None, 3)]
    fiefs += [(f"fief-{i}", f"Fief {i}", s) for i, s in enumerate(sizes, 1)]
    extras = [f"Village {chr(65 + i)}" for i in range(extra)]
    slots = {fid: [] for fid, _, _ in fiefs}  # type: dict[str, list[str]]
    slots["bourg"].append("Bourg")
    slots["green"].append("Tournus")
    others = ["Sigy", "St Paul", "St Ciers d'Abzac", "Beaujeu", "Blaye", "St Gérôme",
              "Charolles", "L'Épervier", "St Médard", "Mazilles", *extras]  # fmt: skip
    rng.shuffle(others)
    for fid, _, size in fiefs:
        while len(slots[fid]) < size:
            slots[fid].append(others.pop())
    fief_of = {v: fid for fid, vs in slots.items() for v in vs}
    # Bishoprics: 5 is Sigy's four; 4 has Bourg as Principal; Blaye, Tournus, St Gérôme are the
    # Principals of 1-3 in some order; every other Village in one of 1-4 at random.
    principal_of = dict(
        zip(rng.sample((1, 2, 3), 3), ("Blaye", "Tournus", "St Gérôme"), strict=True)
    )
    principal_of[4], principal_of[5] = "Bourg", "Sigy"
    bishop: dict[str, int] = {v: 5 for v in ("Sigy", "St Paul", "St Ciers d'Abzac", "Beaujeu")}
    bishop.update({v: n for n, v in principal_of.items() if n != 5})
    for v in fief_of:
        bishop.setdefault(v, rng.choice((1, 2, 3, 4)))
    names = sorted(fief_of)
    places = {v: (rng.uniform(40, 960), rng.uniform(40, 640)) for v in names}
    roads = {tuple(sorted((_id("Blaye"), _id("Charolles")))),
             tuple(sorted((_id("Charolles"), _id("L'Épervier"))))}  # fmt: skip
    order = names[:]
    rng.shuffle(order)
    for i, v in enumerate(order[1:], 1):  # a random tree: every Village reachable
        roads.add(tuple(sorted((_id(v), _id(rng.choice(order[:i]))))))
    for _ in range(total // 2):  # and some loops
        a, b = rng.sample(names, 2)
        roads.add(tuple(sorted((_id(a), _id(b)))))
    ranks = {2: "barony", 3: "county", 4: "duchy"}
    return {
        "$schema": "map.schema.json",
        "format": "france1429-map/1",
        "name": f"generated map {seed} ({total} Villages)",
        "invented": True,
        "verified": False,
        "source": "made by tests/box/generated.py: a map unlike the shipped one, for the tests",
        "villages": [
            {
                "id": _id(v),
                "name": v,
                "fief": fief_of[v],
                "bishopric": bishop[v],
                "principal": v in principal_of.values(),
                "x": round(places[v][0]),
                "y": round(places[v][1]),
            }
            for v in names
        ],
        "fiefs": [
            {"id": fid, "name": name, "colour": COLOURS[i], "rank": ranks[size]}
            for i, (fid, name, size) in enumerate(fiefs)
        ],
        "bishoprics": [{"number": n, "colour": COLOURS[n]} for n in (1, 2, 3, 4, 5)],
        "roads": [{"between": list(r)} for r in sorted(roads)],
    }


def france_files(seed: int, extra: int) -> dict[str, Any]:
    """The stand-in data with a generated map: ``{file name: document}``, main file first."""
    doc = json.loads(SHIPPED.joinpath("stand-in-invented.json").read_text(encoding="utf-8"))
    doc["map"] = "map.json"
    doc["name"] = f"generated France 1429 box {seed}"
    return {"data.json": doc, "map.json": france_map(seed, extra)}
