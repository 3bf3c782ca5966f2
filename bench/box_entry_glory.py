"""How long entering a whole Glory box takes on the "Your box" page (issue #24, Aim: "the same for
... Glory's Knights (typing by hand today: about a working day per game)").

An estimate counted from the data, not a timed run: the clicks and keystrokes a group needs in
the page's JSON Editor form to go from the shipped ``box`` set (what the rulebook gives, every
other value ``null``) to a complete box, for a box the size of the shipped ``stand-in`` set
(37 Knight tokens, 9 Characters, 14 Titles, 41 Quest cards, 18 Tournament cards...; a real box's
counts are not in the rulebook) or of ``--target FILE``. Per value, in the form:

- a number: a click into the field and its digits (one more keystroke to clear a value that
  was there); from ``null``, two clicks first to switch the field from null to a number;
- a choice (an ally, a deck, a Knight back, a level, yes/no): two clicks, open and choose;
- a list entry (a card, a reward, an ally on a Title): one click on "add", then its values;
- a key of a map keyed by a choice (a Title's needs, a Character's starting Quest cards): two
  clicks to choose the key, then its value;
- a card's id and printed name: a click and the letters; ``source`` and ``missing`` notes
  (where a value was read) are not needed to play and are not counted.

Seconds per click and per keystroke are parameters (``--click``, ``--key``); the defaults,
2 s a click (finding the field on the card and on the screen) and 0.3 s a keystroke (about 40
words a minute), are assumptions, stated in docs/boxes.md beside the result. The same target
typed by hand as JSON (every key, quote and brace) is counted for comparison.

Usage::

    python bench/box_entry_glory.py                    # the stand-in's size, a table
    python bench/box_entry_glory.py --target ours.json --click 1.5 --key 0.25 --json
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import registry  # noqa: E402
from engine.games.glory.enum_labels import enum_values  # noqa: E402

DATA = registry.package_files("glory").joinpath("data")
CHOICES = set(enum_values())
CHOICE_NUMBERS = {"level", "horse", "armour", "from_level", "round"}
"""Numbers the schema offers as a choice (an enum), picked, not typed."""
NOT_TYPED = {"source", "missing", "notes", "$schema"}
MAPS = {"starting", "needs", "allies", "relics", "quests"}
"""Objects keyed by a choice (a Joust space, a need, an ally kind, a deck): each key chosen."""
TEXT = {"id", "name"}
COMPONENTS: dict[str, str | None] = {
    "knights": "name",
    "characters": "id",
    "titles": "id",
    "quests": "id",
    "events": "id",
    "tournaments": "id",
    "prizes": "id",
    "solo": "id",
    "allies": None,
    "ally_track": None,
    "fields": "id",
    "prices": None,
    "dice": None,
    "rival": None,
    "standard_prize": None,
}
"""The data's components, each list's entries matched by this key (None: by position)."""


@dataclass
class Count:
    clicks: int = 0
    keys: int = 0
    values: int = 0
    entries: int = 0
    by_hand: int = 0
    notes: list[str] = field(default_factory=list)

    def add(self, other: Count) -> None:
        self.clicks += other.clicks
        self.keys += other.keys
        self.values += other.values
        self.entries += other.entries
        self.by_hand += other.by_hand

    def seconds(self, click: float, key: float) -> float:
        return self.clicks * click + self.keys * key


def _read(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(DATA.joinpath(name).read_text("utf-8"))
    return doc


def _resolved(doc: dict[str, Any], beside: Path | None) -> dict[str, Any]:
    """The document with its dice and Knights files read in."""
    out = dict(doc)
    for key in ("dice", "knights"):
        if isinstance(out.get(key), str):
            text = (beside / out[key]).read_text("utf-8") if beside else None
            sub = json.loads(text) if text else _read(out[key])
            out[key] = sub["knights"] if key == "knights" else sub
    return out


def _enter(key: str, new: Any, old: Any = None) -> Count:
    """What entering ``new`` in the field ``key`` costs, where the form shows ``old``."""
    c = Count()
    if new == old or key in NOT_TYPED:
        return c
    if isinstance(new, dict):
        if old is None:
            c.clicks += 2  # switch the field from null to the object
            old = {}
        for k, v in new.items():
            if key in MAPS and k not in old:  # a map keyed by a choice: choose the key first
                c.clicks += 2
            c.add(_enter(k, v, old.get(k)))
        return c
    if isinstance(new, list):
        old_list = old if isinstance(old, list) else []
        if old is None:
            c.clicks += 2
        for i, item in enumerate(new):
            prior = old_list[i] if i < len(old_list) else None
            if prior is None:
                c.clicks += 1  # "add" an entry
            c.add(_enter(key, item, prior))
        return c
    c.values += 1
    chosen = isinstance(new, str) and new in CHOICES and key not in TEXT
    if chosen or isinstance(new, bool) or (isinstance(new, int) and key in CHOICE_NUMBERS):
        c.clicks += 2  # open the choice, choose
    elif new is None:
        c.clicks += 2  # back to null
    else:
        if old is None and key not in TEXT:
            c.clicks += 2  # the field is null: switch it to a number first
        c.clicks += 1
        c.keys += len(str(new)) + (1 if old is not None else 0)
    return c


def _component(name: str, target: Any, base: Any) -> Count:
    key = COMPONENTS[name]
    total = Count()
    if isinstance(target, list):
        if key is None:
            olds = list(base or [])
        else:
            known = {e.get(key): e for e in base or []}
            olds = [known.get(e.get(key)) for e in target]
        for i, entry in enumerate(target):
            old = olds[i] if i < len(olds) else None
            c = Count(entries=1)
            if old is None:
                c.clicks += 1
                old = {}
            c.add(_enter(f"{name}[]", entry, old))
            total.add(c)
    else:
        total.add(_enter(name, target, base))
    total.by_hand = len(json.dumps(_strip(target), ensure_ascii=False, separators=(",", ":")))
    return total


def _strip(value: Any) -> Any:
    """The value without the notes nobody needs to type (``source``, ``missing``)."""
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in NOT_TYPED}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def estimate(target: dict[str, Any], base: dict[str, Any]) -> dict[str, Count]:
    """Clicks and keystrokes per component to turn ``base`` into ``target`` in the form."""
    return {name: _component(name, target.get(name), base.get(name)) for name in COMPONENTS}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", help="a full Glory data file (default: the stand-in's size)")
    parser.add_argument("--click", type=float, default=2.0, help="seconds per click")
    parser.add_argument("--key", type=float, default=0.3, help="seconds per keystroke")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.target:
        path = Path(args.target)
        target = _resolved(json.loads(path.read_text("utf-8")), path.parent)
    else:
        target = _resolved(_read("stand-in.json"), None)
    base = _resolved(_read("box.json"), None)
    counts = estimate(target, base)
    total = Count()
    for c in counts.values():
        total.add(c)
    rows = {**counts, "total": total}
    if args.json:
        out = {
            name: {"entries": c.entries, "values": c.values, "clicks": c.clicks, "keys": c.keys,
                   "minutes": round(c.seconds(args.click, args.key) / 60, 1),
                   "by_hand_keys": c.by_hand,
                   "by_hand_minutes": round(c.by_hand * args.key / 60, 1)}
            for name, c in rows.items()
        }  # fmt: skip
        out["assumed"] = {"click_s": args.click, "key_s": args.key}  # type: ignore[dict-item]
        print(json.dumps(out, indent=2))
        return
    print(f"{'component':<16}{'entries':>8}{'values':>8}{'clicks':>8}{'keys':>8}{'minutes':>9}"
          f"{'JSON keys':>11}{'minutes':>9}")  # fmt: skip
    for name, c in rows.items():
        print(f"{name:<16}{c.entries:>8}{c.values:>8}{c.clicks:>8}{c.keys:>8}"
              f"{c.seconds(args.click, args.key) / 60:>9.1f}{c.by_hand:>11}"
              f"{c.by_hand * args.key / 60:>9.1f}")  # fmt: skip
    print(f"(assumed: {args.click} s a click, {args.key} s a keystroke; JSON: typed by hand)")


if __name__ == "__main__":
    main()
