"""Glory data sets unlike the shipped stand-in, made by the tests (issue #24: "the referee on a box
that is not the stand-in set ... other card mixes").

Everything the rulebook leaves to the printed components is drawn again from a seed, within
what the rules state (rules/glory.md §2, §3, §11): other dice faces (six per die, a Special
Symbol and numbers in the die's range [L753-758]), another mix of Knight backs with other
statistics and more or fewer Knights, Character cards at other levels and counts, other Title
values and conditions (and Titles of its own), Quest decks of other sizes whose rewards are
drawn from the reward vocabulary, other ally stacks and Ally Track costs, other prices, Events
in other rounds with other rewards, other Tournament cards (Joust brackets of 8 spaces with
other starting Knights, Pas d'armes cities of 1-4 Knights) and other Prize tokens. What the
rulebook does give (Wpływowy's 4, the card names it quotes, the action fields, the solo cards'
shape) is kept from the stand-in set, since a real box has it too.

Made from a seed, so a failure names the data set that caused it; ``glory_data(seed)`` is one
full data document (no file beside it).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from engine import registry

SHIPPED = registry.package_files("glory").joinpath("data")

BACKS = ("champion", "veteran", "king", "polish-nobility", "nobility")
DICE = {"strength": (1, 5), "horse": (0, 4), "armour": (0, 3)}
RELICS = ("medalion", "amulet", "pierscien", "paternoster")
PRESTIGE = ("pani-serca", "swita", "slawa-wojenna", "faworyt-krola", "urzad", "czempion")
NEEDS = ("coins", "strength", "faith", "allies", "relics", "prestige", "challenges-won",
         "market-played")  # fmt: skip
BRACKET = 8
"""A Joust bracket of 8 bottom spaces: 3 duels a player [L45, L732] (digest §4.6)."""


def _stand_in() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(SHIPPED.joinpath("stand-in.json").read_text("utf-8"))
    return doc


def _reward(rng: random.Random, allies: list[str], big: bool = False) -> dict[str, Any]:
    """One reward drawn from the vocabulary (``data_types.Reward``): 1-2 of its parts."""
    out: dict[str, Any] = {}
    for part in rng.sample(("coins", "strength", "faith", "glory", "ally", "relic", "prestige",
                            "upgrade", "titles", "quests"), rng.choice((1, 1, 2))):  # fmt: skip
        if part in ("coins", "strength", "faith", "glory"):
            out[part] = rng.randint(1, 5 if big else 3)
        elif part == "ally":
            out["allies"] = [rng.choice(allies)]
        elif part == "relic":
            out["relics"] = [rng.choice(RELICS)]
        elif part == "prestige":
            out["prestige"] = [rng.choice(PRESTIGE)]
        elif part == "upgrade":
            up: dict[str, Any] = {"item": rng.choice(("horse", "armour"))}
            if rng.random() < 0.4:
                up["from_level"] = rng.choice((2, 3))
            out["upgrades"] = [up]
        elif part == "titles":
            draw = rng.choice((1, 2, 3))
            out["titles"] = {"draw": draw, "keep": rng.randint(1, draw)}
        else:
            out["quests"] = rng.choice((1, 2))
    return out


def _dice(rng: random.Random) -> dict[str, Any]:
    faces: dict[str, Any] = {}
    for die, (low, high) in DICE.items():
        numbers = sorted(rng.randint(low, high) for _ in range(5))
        faces[die] = {"faces": ["special", *numbers]}
    return {"verified": False, "source": "generated (tests/box/generated_glory.py)",
            "dice": faces}  # fmt: skip


def _knights(rng: random.Random, base: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The named Knights under other backs and statistics, a few more or fewer (4-10 of each
    back, the stand-in has 5-8), and the card opponents as they are."""
    names = [k["name"] for k in base if k["type"] != "card"]
    names += [f"Generated Knight {i}" for i in range(1, rng.randint(2, 14))]
    rng.shuffle(names)
    sizes = {b: rng.randint(4, 10) for b in BACKS}
    while sum(sizes.values()) > len(names):
        back = max(sizes, key=lambda b: sizes[b])
        sizes[back] -= 1
    out: list[dict[str, Any]] = []
    for back in BACKS:
        for _ in range(sizes[back]):
            out.append({
                "name": names.pop(), "type": back, "attack": rng.randint(5, 15),
                "prestige": rng.randint(0, 3), "glory": rng.randint(3, 11),
                "removes": [rng.choice(tuple(DICE))] if back == "veteran" else [],
                "source": "generated",
            })  # fmt: skip
    out += [k for k in base if k["type"] == "card"]
    return out


def _characters(rng: random.Random, base: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The nine Character ids at other levels (each level at least 4 cards, for 4 players
    [L134-192]) with other starting resources and income."""
    ids = [c["id"] for c in base]
    rng.shuffle(ids)
    cut = sorted(rng.sample(range(1, len(ids)), 2))
    levels = [1] * cut[0] + [2] * (cut[1] - cut[0]) + [3] * (len(ids) - cut[1])
    out: list[dict[str, Any]] = []
    for level in (1, 2, 3):
        mine = [i for i, lv in zip(ids, levels, strict=True) if lv == level]
        counts = [1] * len(mine)
        while sum(counts) < 4 or rng.random() < 0.3:
            counts[rng.randrange(len(mine))] += 1
        for ident, count in zip(mine, counts, strict=True):
            drawn = rng.choice((1, 2))
            deck = rng.choice(("romance", "market", "challenge"))
            out.append({
                "id": ident, "level": level, "count": count,
                "coins": rng.randint(1, 6), "strength": rng.randint(0, 4),
                "faith": rng.randint(0, 3), "glory": rng.randint(6, 18),
                "horse": rng.choice((1, 2)), "armour": rng.choice((1, 2)),
                "titles_drawn": drawn, "titles_kept": rng.randint(1, drawn),
                "quests": {deck: rng.randint(1, 2)},
                "special_ally": level == 3 and rng.random() < 0.5,
                "income": {k: rng.randint(1, 3) for k in rng.sample(("coins", "strength",
                                                                      "faith"), 2)},
                "source": "generated",
            })  # fmt: skip
    return out


def _titles(rng: random.Random, base: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Other Glory values and counts on the stand-in's conditions (Wpływowy's printed 4 kept
    [L677-679]), and 2-5 Titles of the box's own with conditions from the need vocabulary."""
    out: list[dict[str, Any]] = []
    for t in base:
        t = {**t, "source": "generated"}
        if t["id"] != "wplywowy":
            t["glory"] = rng.randint(2, 8)
        t["needs"] = {k: max(1, v + rng.randint(-1, 2)) for k, v in t.get("needs", {}).items()}
        out.append(t)
    for i in range(1, rng.randint(3, 6)):
        needs = {k: rng.randint(1, 5) for k in rng.sample(NEEDS, rng.choice((1, 2)))}
        out.append({"id": f"generated-title-{i}", "name": f"Generated Title {i}",
                    "glory": rng.randint(2, 8), "needs": needs, "count": rng.choice((1, 2)),
                    "source": "generated"})  # fmt: skip
    return out


def _quests(
    rng: random.Random, base: list[dict[str, Any]], allies: list[str], starts: list[Any]
) -> list[Any]:
    """The rulebook's quoted cards kept as printed; the rest of each deck drawn again, 12-20
    cards a deck, and never fewer than setup can deal: the 4 of its column, the most 4
    players' Characters (``starts``) start with, and for Challenge the start-order
    compensation, 6 cards at 4 players [L249-251]."""
    out = [dict(q) for q in base if q.get("source", "").startswith("rules/")]
    for deck in ("romance", "market", "challenge"):
        most = sorted((c["quests"].get(deck, 0) for c in starts for _ in range(c["count"])),
                      reverse=True)  # fmt: skip
        least = 4 + sum(most[:4]) + (6 if deck == "challenge" else 0)
        size = max(rng.randint(12, 20), least)
        have = sum(q.get("count", 1) for q in out if q["deck"] == deck)
        i = 0
        while have < size:
            i += 1
            count = rng.choice((1, 1, 2))
            rewards = [_reward(rng, allies, big=deck != "romance")
                       for _ in range(rng.choice((1, 1, 2)))]  # fmt: skip
            card: dict[str, Any] = {"id": f"{deck}-{i}", "name": f"{deck.title()} {i}",
                                    "deck": deck, "rewards": rewards, "count": count,
                                    "source": "generated"}  # fmt: skip
            if deck == "market":
                card["cost"] = rng.randint(1, 5)
            if deck == "challenge":
                card["opponent"] = {"attack": rng.randint(5, 13), "prestige": rng.randint(0, 2)}
            out.append(card)
            have += count
    return out


def _allies(rng: random.Random, base: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The ally kinds in other stacks and numbers: 6-8 kinds Special (at least 8 tokens, 2 on
    the track and one per Level III Special Ally [L235-236]), the rest spread over I-III with at
    least 10 tokens each, and 3-6 kinds as Scroll allies."""
    kinds = sorted({a["kind"] for a in base})
    rng.shuffle(kinds)
    n_special = rng.randint(6, 8)
    out: list[dict[str, Any]] = []
    specials, rest = kinds[:n_special], kinds[n_special:]
    for k in specials:
        out.append({"kind": k, "stack": "special", "count": rng.randint(1, 2)})
    while sum(a["count"] for a in out) < 8:
        out[rng.randrange(len(out))]["count"] += 1
    for s, stack in enumerate(("I", "II", "III")):
        mine = rest[s::3]
        entries = [{"kind": k, "stack": stack, "count": rng.randint(1, 4)} for k in mine]
        while sum(e["count"] for e in entries) < 10:
            entries[rng.randrange(len(entries))]["count"] += 1
        out += entries
    for k in rng.sample(kinds, rng.randint(3, 6)):
        out.append({"kind": k, "stack": "scroll", "count": rng.randint(1, 3)})
    for a in out:
        a["source"] = "generated"
    return out


def _track(rng: random.Random) -> list[dict[str, Any]]:
    """Two Special spaces first (the second from 3 players [L235-236]), then 5-8 spaces."""
    out = [{"cost": rng.randint(0, 3), "min_players": 1, "special": True},
           {"cost": rng.randint(0, 3), "min_players": 3, "special": True}]  # fmt: skip
    normal = rng.randint(5, 8)
    costs = sorted((rng.randint(0, 3) for _ in range(normal)), reverse=True)
    for i, cost in enumerate(costs):
        least = 1 if i < normal - 2 else rng.choice((1, 3, 4))
        out.append({"cost": cost, "min_players": least, "special": False})
    return out


def _joust(rng: random.Random, players: list[int], have: Counter[str]) -> dict[str, Any]:
    free = max(players) + rng.choice((0, 0, 1))
    spaces = sorted(rng.sample(range(BRACKET), BRACKET - free))
    after_n = free - min(players)
    while True:
        backs = [rng.choice(BACKS) for _ in range(len(spaces) + after_n)]
        if all(n <= have[b] for b, n in Counter(backs).items()):
            break
    return {"slots": BRACKET, "starting": {str(s): b for s, b in zip(spaces, backs, strict=False)},
            "after": backs[len(spaces):]}  # fmt: skip


def _pas(rng: random.Random, have: Counter[str]) -> dict[str, Any]:
    while True:
        cities = [[rng.choice(BACKS) for _ in range(rng.randint(1, 4))] for _ in range(3)]
        if all(n <= have[b] for b, n in Counter(b for c in cities for b in c).items()):
            return {"cities": cities}


def _tournaments(rng: random.Random, knights: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """3-4 cards of each type for each player count, grouped other than the stand-in's
    (1-2, 3, 4): some cards serve 2-3 counts, some one [L283-284]."""
    have = Counter(str(k["type"]) for k in knights if k["type"] != "card")
    groups = rng.choice(([[1, 2], [3], [4]], [[1, 2, 3], [4]], [[1, 2], [3, 4]], [[1, 2, 3, 4]]))
    out: list[dict[str, Any]] = []
    for kind in ("joust", "pas-d-armes"):
        for players in groups:
            for n in range(rng.randint(3, 4)):
                card: dict[str, Any] = {
                    "id": f"{kind}-{''.join(map(str, players))}-{n}",
                    "type": kind,
                    "players": players,
                    "source": "generated",
                }
                if kind == "joust":
                    card["joust"] = [_joust(rng, players, have) for _ in range(3)]
                else:
                    card["pas"] = [_pas(rng, have) for _ in range(3)]
                out.append(card)
    return out


def _events(rng: random.Random, base: list[dict[str, Any]], allies: list[str]) -> list[Any]:
    """The Events in other rounds (each round at least one [L1294-1357]) with other rewards;
    the Sojusz cards (a Special Ally) and Pospolite ruszenie (a pawn fewer) kept."""
    out: list[dict[str, Any]] = []
    rounds = [1, 2, 3] + [rng.randint(1, 3) for _ in range(len(base) - 3)]
    rng.shuffle(rounds)
    for e, r in zip(base, rounds, strict=True):
        e = {**e, "round": r, "source": "generated"}
        if e["kind"] == "all":
            e["reward"] = {rng.choice(("coins", "strength", "faith")): rng.choice((-2, -1, 1, 2))}
        elif (
            e["kind"] == "action"
            and not e.get("rewards")
            and "special_ally" not in e.get("reward", {})
        ):
            e["reward"] = _reward(rng, allies, big=True)
            e["cost"] = {rng.choice(("coins", "strength")): rng.randint(0, 2)}
        out.append(e)
    return out


def glory_data(seed: int) -> dict[str, Any]:
    """A full Glory data document unlike the stand-in, drawn from ``seed``."""
    rng = random.Random(seed)
    doc = _stand_in()
    doc["name"] = f"generated Glory box {seed}"
    doc["stand_in"] = False
    doc["source"] = "made by tests/box/generated_glory.py: a box unlike the shipped ones"
    doc["notes"] = {}
    doc["dice"] = _dice(rng)
    doc["knights"] = _knights(rng, doc["knights"])
    doc["characters"] = _characters(rng, doc["characters"])
    doc["titles"] = _titles(rng, doc["titles"])
    doc["allies"] = _allies(rng, doc["allies"])
    held = sorted({a["kind"] for a in doc["allies"]})
    doc["quests"] = _quests(rng, doc["quests"], held, doc["characters"])
    doc["ally_track"] = _track(rng)
    doc["events"] = _events(rng, doc["events"], held)
    doc["tournaments"] = _tournaments(rng, doc["knights"])
    doc["prizes"] = [{"id": f"prize-{i}", "reward": _reward(rng, held), "source": "generated"}
                     for i in range(1, rng.randint(4, 8))]  # fmt: skip
    for item in ("horse", "armour"):
        first = rng.randint(1, 3)
        doc["prices"][item] = {"2": first, "3": first + rng.randint(1, 3),
                               "4": first + rng.randint(4, 6)}  # fmt: skip
    doc["rival"] = {lv: {"attack": rng.randint(a, a + 3), "prestige": rng.randint(0, 2)}
                    for lv, a in (("easy", 6), ("medium", 9), ("hard", 12))}  # fmt: skip
    doc["standard_prize"] = {"coins": rng.randint(1, 2), "glory": rng.randint(1, 2)}
    for s in doc["solo"]:
        if s.get("deck"):
            s["deck"] = rng.choice(("romance", "market", "challenge"))
    return doc
