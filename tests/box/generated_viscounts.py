"""Viscounts of the West Kingdom data sets unlike the shipped ones, made by the tests (issue #24:
"the referee on a box that is not the stand-in set ... other card mixes"): other Townsfolk,
Manuscripts, Schemes, Buildings, Church Favours and Player cards, other costs and values, every
card's effects drawn from the effect grammar (docs/viscounts-effects.md, the forms
``engine/games/viscounts/effects.py`` reads today), and another board: other red numbers and
exchanges, another number of building sites on each River side, other Connections and extra
arrows between towns, another Castle and Virtue/Corruption track.

Every set keeps what the rulebook fixes (digest §2: 68 common, 10 famous and 8 Starting cards a
colour, 5 grey and 30 black Manuscripts, 4 Church Favours, 10 Player cards, 8 + 8 Schemes, 4 AIs,
five board parts in a ring, three Building types), so a set is a box a group could own. Made from
a seed, so a failure names the set that caused it.
"""

from __future__ import annotations

import random
from typing import Any

SYMBOLS = ("merchant", "builder", "noble", "cleric", "villain")
RIBBONS = ("grey", "red", "green", "blue")
BUILDINGS = ("workshop", "trading-post", "guildhall")
EXCHANGES = ("silver", "resource", "ink", "stone", "gold", "destroy", "flip")
PARTS = 5

GAINS = (
    "1 silver", "2 silver", "3 silver", "1 ink", "1 stone", "1 gold", "1 resource", "2 resource",
    "1 virtue", "2 virtue", "1 deed", "flip debt", "flip deed", "flip debt-or-deed",
    "1 silver, 1 ink", "1 stone, 1 virtue", "2 silver or 1 ink", "1 ink, 1 stone or 2 virtue",
    "1 corruption, 3 silver", "1 debt, 2 stone", "1 silver per villain", "1 silver per merchant",
    "free-manuscript", "free-hire", "free-workers 1", "free-build workshop", "free-build any",
    "shift-worker", "reorder", "discard 1", "destroy 1", "shuffle-in",
)  # fmt: skip
"""Effects of every kind the grammar has: gains, alternatives, prices taken, free actions,
optional actions, a gain per symbol."""
PRICED = (
    "2 silver -> 1 deed, 1 virtue", "discard 1 -> 2 silver", "1 corruption -> 3 silver",
    "1 ink -> 3 silver", "no villain -> 1 virtue", "destroy 1 -> 1 gold", "1 resource -> 2 virtue",
)  # fmt: skip
"""Effects with a left side: a cost, a price taken, a card given up, a condition."""
PERSISTENT = (
    "persistent: 1 merchant", "persistent: 1 noble", "persistent: 2 cleric",
    "persistent: 1 builder",
    "persistent: 2 merchant -> 1 cleric", "persistent: 2 villain -> 1 noble",
    "persistent: on collision -> 1 ink", "persistent: on hire -> discard 1",
    "persistent: on meeting -> reorder", "persistent: after trade -> 1 silver",
    "persistent: after build -> 1 virtue", "persistent: after workers -> 1 stone",
    "persistent: after transcribe -> 1 ink", "persistent: on collision, no villain -> 1 virtue",
    "persistent: 3+ merchant -> 1 gold", "persistent: hand-limit 1", "persistent: free-move 1",
    "persistent: dismiss-cost 1",
)  # fmt: skip
"""Abilities while a card lies on the board: symbols, a conversion, events, rule changes."""
SCORING = (
    "2 vp", "4 vp", "1 vp per building", "1 vp per workshop", "2 vp per guildhall",
    "1 vp per paid-debt", "2 vp per granted-deed", "1 vp per worker", "1 vp per manuscript",
    "1 vp per cleric", "1 vp per noble", "2 vp per trading-post",
)  # fmt: skip
SCHEME_STEPS = ("move 1", "move 2", "move 3", "dismiss", "draw 1", "2 silver", "1 virtue")
GOALS = ("transcribe", "trade", "build", "workers")
AIS = ("cleric", "merchant", "builder", "noble")
"""The four AIs by the names the solo option chooses them by (each with another Main Goal here)."""


def _ability(rng: random.Random) -> str:
    timing = rng.choice(("immediate", "immediate", "persistent", "push-off"))
    if timing == "persistent":
        return rng.choice(PERSISTENT)
    return f"{timing}: {rng.choice(GAINS + PRICED)}"


def _effect(rng: random.Random, priced: bool = True) -> str:
    return rng.choice(GAINS + PRICED) if priced else rng.choice(GAINS)


def _symbols(rng: random.Random, most: int = 2) -> list[str]:
    return rng.sample(SYMBOLS, rng.randint(1, most))


def _card(
    rng: random.Random, cid: str, deck: str, count: int, low: int, high: int
) -> dict[str, Any]:
    return {
        "id": cid,
        "name": cid.replace("-", " ").title(),
        "deck": deck,
        "count": count,
        "value": rng.randint(low, high),
        "symbols": _symbols(rng),
        "hire": None if rng.random() < 0.25 else _effect(rng, priced=False),
        "ability": None if rng.random() < 0.15 else _ability(rng),
        "invented": True,
    }


def _split(rng: random.Random, total: int, parts: int) -> list[int]:
    """``total`` copies over ``parts`` designs, each at least one."""
    counts = [1] * parts
    for _ in range(total - parts):
        counts[rng.randrange(parts)] += 1
    return counts


def townsfolk(rng: random.Random) -> list[dict[str, Any]]:
    """68 common cards in another mix of designs, 10 famous ones, 8 Starting cards a colour."""
    designs = rng.randint(14, 40)
    out = [_card(rng, f"common-{i}", "common", n, 1, 5)
           for i, n in enumerate(_split(rng, 68, designs))]  # fmt: skip
    out += [_card(rng, f"famous-{i}", "famous", 1, 3, 7) for i in range(10)]
    starting = rng.randint(4, 8)
    for colour in range(4):
        for i, n in enumerate(_split(rng, 8, starting)):
            card = _card(rng, f"start-{colour}-{i}", "starting", n, 1, 3)
            out.append({**card, "colour": colour})
    return out


def board(rng: random.Random) -> dict[str, Any]:
    """Five parts in a ring, each an outer town on either River side and an inner town (the
    printed shape), with other red numbers, exchanges, 1-3 sites a side, other Connections and
    a few extra arrows between parts."""
    towns: list[dict[str, Any]] = []
    for p in range(PARTS):
        q = (p + 1) % PARTS
        towns += [
            {"id": f"outer-{p}-left", "part": p, "path": "outer",
             "next": [f"outer-{p}-right", f"inner-{p}"], "exchange": rng.choice(EXCHANGES),
             "side": "left"},
            {"id": f"inner-{p}", "part": p, "path": "inner",
             "next": [f"outer-{p}-right", f"inner-{q}"]},
            {"id": f"outer-{p}-right", "part": p, "path": "outer", "next": [f"outer-{q}-left"],
             "exchange": rng.choice(EXCHANGES), "side": "right"},
        ]  # fmt: skip
    for t in rng.sample([t for t in towns if t["path"] == "outer"], 3):
        target = f"inner-{(t['part'] + 2) % PARTS}"
        if target not in t["next"]:
            t["next"].append(target)
    for n, t in enumerate(rng.sample(towns, 10), 1):
        t["number"] = n
    sites: list[dict[str, Any]] = []
    for p in range(PARTS):
        n = 0
        for side in ("left", "right"):
            for _ in range(rng.randint(1, 3)):
                sites.append({"id": f"site-{p}-{n}", "part": p, "side": side,
                              "bonus": _effect(rng, priced=False)})  # fmt: skip
                n += 1
    ids = [s["id"] for s in sites]
    links: set[tuple[str, str]] = set()
    while len(links) < rng.randint(6, 14):
        a, b = sorted(rng.sample(ids, 2))
        links.add((a, b))
    connections = [
        {"sites": [a, b], "effect": _effect(rng, priced=False)} for a, b in sorted(links)
    ]
    return {"towns": towns, "sites": sites, "connections": connections, "sides": [1, 2, 3, 4]}


def viscounts_doc(seed: int) -> dict[str, Any]:
    """A whole Viscounts data document, invented from ``seed``."""
    rng = random.Random(seed)
    manuscripts = [
        {"id": f"grey-{i}", "back": "grey", "ribbon": rng.choice(RIBBONS),
         "cost": rng.randint(2, 5), "effect": _effect(rng), "scoring": rng.choice(SCORING),
         "invented": True}
        for i in range(5)
    ] + [
        {"id": f"ms-{i}", "back": "black", "ribbon": rng.choice(RIBBONS),
         "cost": rng.randint(3, 8), "effect": _effect(rng),
         "scoring": None if rng.random() < 0.2 else rng.choice(SCORING), "invented": True}
        for i in range(30)
    ]  # fmt: skip
    schemes = []
    for kind, prefix in (("starting", "start"), ("future", "future")):
        for i in range(1, 9):
            steps = [rng.choice(SCHEME_STEPS) for _ in range(rng.randint(1, 3))]
            steps.append(f"main-goal or {_effect(rng, priced=False)}")
            rng.shuffle(steps)
            schemes.append({"id": f"{prefix}-{i}", "kind": kind, "symbols": _symbols(rng, 3),
                            "steps": steps, "invented": True})  # fmt: skip
    resources = ["ink", "stone", "gold"]
    ais = []
    for i, (ai, goal) in enumerate(zip(AIS, rng.sample(GOALS, 4), strict=True)):
        rng.shuffle(resources)
        ais.append({"id": ai, "goal": goal,
                    "start": f"{_effect(rng, priced=False)}, 1 deed, 1 debt",
                    "removes": [f"start-{i + 1}"],
                    "priority": [[resources[0], rng.randint(3, 7)],
                                 [resources[1], rng.randint(2, 5)], [resources[2], None]],
                    "min_workers": rng.randint(1, 3), "invented": True})  # fmt: skip
    level2 = [_effect(rng, priced=False) for _ in range(rng.randint(2, 4))]
    spaces = rng.randint(5, 9)
    costs = sorted(rng.sample(range(2, 9), 3))
    return {
        "$schema": "data.schema.json",
        "format": "viscounts-data/1",
        "name": f"generated Viscounts box {seed}",
        "invented": True,
        "verified": False,
        "source": "made by tests/box/generated_viscounts.py: a box unlike the shipped one",
        "colours": ["black", "gold", "brown", "violet"],
        "townsfolk": townsfolk(rng),
        "manuscripts": manuscripts,
        "printed_townsfolk": [
            {"id": f"printed-{p}", "name": f"Printed {p}", "value": rng.randint(1, 3),
             "symbols": _symbols(rng, 1), "hire": _effect(rng, priced=False), "invented": True}
            for p in range(PARTS)
        ],
        "printed_manuscripts": [
            {"id": f"printed-ms-{p}", "cost": rng.randint(2, 6), "effect": _effect(rng),
             "invented": True}
            for p in range(PARTS)
        ],
        "starting_icons": [rng.sample(SYMBOLS, rng.randint(0, 2)) for _ in range(3)],
        "church_favour": [
            {"id": f"favour-{r}", "ribbon": r, "vp": 3, "ability": rng.choice(PERSISTENT),
             "invented": True}
            for r in RIBBONS
        ],
        "player_cards": [
            {"number": n,
             "gains": f"{rng.randint(1, 3)} silver, {rng.choice(('1 ink', '1 stone'))}",
             "extra": _effect(rng, priced=False), "anywhere": rng.random() < 0.3,
             "invented": True}
            for n in range(1, 11)
        ],
        "schemes": schemes,
        "ais": ais,
        "board": board(rng),
        "castle": {"level1": PARTS,
                   "inward": [rng.randrange(len(level2)) for _ in range(PARTS)],
                   "level2": level2},
        "buildings": [
            {"kind": kind, "cost": cost,
             "vp": [0, *sorted(rng.sample(range(2, 18), 3))],
             "abilities": [rng.choice(PERSISTENT) for _ in range(3)]}
            for kind, cost in zip(BUILDINGS, costs, strict=True)
        ],
        "track": {
            "spaces": spaces,
            "above": [_effect(rng, priced=False) for _ in range(spaces)],
            "below": [rng.choice(("no villain -> 1 virtue", "1 silver", "1 resource", "1 ink"))
                      for _ in range(spaces)],
        },
        "kingdom": {
            "poverty": {str(n): rng.randint(4, 14) for n in (1, 2, 3, 4)},
            "prosperity": {str(n): rng.randint(4, 14) for n in (1, 2, 3, 4)},
        },
        "set_vp": [1, *sorted(rng.sample(range(2, 20), 3))],
        "multiplier": rng.randint(3, 7),
    }  # fmt: skip


def viscounts_files(seed: int) -> dict[str, Any]:
    """A generated set as a box's files: ``{file name: document}``."""
    return {"data.json": viscounts_doc(seed)}
