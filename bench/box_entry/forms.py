"""Everything else in the page's schema-driven form (JSON Editor): the clicks and keystrokes
to go from a shipped starting set (``box``: what the rulebook gives, every other value ``null``)
to a complete box (a shipped set such as ``stand-in``, whose size stands for a box's, or a data
file), for any game with data files. What is a choice and what is typed is read from the game's
own data schema (the ``$schema`` its files name). Per value, in the form:

- a number: a click into the field and its digits (one more keystroke to clear a value that
  was there); from ``null``, two clicks first to switch the field from null to a number;
- a choice (an enum of the schema, yes/no): two clicks, open and choose;
- a list entry (a card, a reward): one click on "add", then its values;
- a key of a map keyed by a choice (``propertyNames`` in the schema: a Title's needs, say):
  two clicks (Object Properties, the key's checkbox), then its value;
- an entry's ``id`` and ``name``: a click and the letters; the notes on where a value was read
  (``source``, ``missing``, ``notes``, ``invented``) are not needed to play and are not counted.

One look-up per list entry and per top-level value of an object that changes (an entry already
as the box gives it costs nothing). The same target
typed by hand as JSON (every key, quote and brace) is counted for comparison.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.box_entry import Part
from bridge.box.workshop import META
from engine import registry
from engine.data import data_spec

TEXT = {"id", "name"}
NOTES = frozenset({"$schema", "source", "missing", "notes", "invented"})
"""Inside a component, the notes on where a value was read (and the stand-in's mark on an
invented value, which a group's own box has no use for): not needed to play, not counted
(``META``, the file's own keys, applies to the top level only)."""


@dataclass(frozen=True)
class Vocabulary:
    """What the game's data schema says of its fields: every enum value (``choices``), the
    fields whose numbers are chosen from an enum, and the maps whose keys are chosen."""

    choices: frozenset[str]
    choice_numbers: frozenset[str]
    maps: frozenset[str]


def vocabulary(schema: Any) -> Vocabulary:
    choices: set[str] = set()
    numbers: set[str] = set()
    maps: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, list):
            for item in node:
                walk(item)
            return
        if not isinstance(node, dict):
            return
        choices.update(str(v) for v in node.get("enum", ()) if not isinstance(v, bool))
        for name, prop in (node.get("properties") or {}).items():
            members = prop.get("anyOf", [prop]) if isinstance(prop, dict) else []
            for member in members:
                if not isinstance(member, dict):
                    continue
                if any(isinstance(v, int) for v in member.get("enum", ())):
                    numbers.add(name)
                if "propertyNames" in member:
                    maps.add(name)
        for value in node.values():
            walk(value)

    walk(schema)
    return Vocabulary(frozenset(choices), frozenset(numbers), frozenset(maps))


@dataclass
class Count:
    clicks: int = 0
    keys: int = 0
    values: int = 0
    entries: int = 0
    by_hand: int = 0

    def add(self, other: Count) -> None:
        self.clicks += other.clicks
        self.keys += other.keys
        self.values += other.values
        self.entries += other.entries
        self.by_hand += other.by_hand


class Reader:
    """A data file and the files it names, from the game's package or beside a file of yours."""

    def __init__(self, game: str, folder: Path | None = None) -> None:
        self.shipped = registry.package_files(game).joinpath("data")
        self.folder = folder

    def read(self, name: str) -> Any:
        if self.folder is not None and (self.folder / name).is_file():
            return json.loads((self.folder / name).read_text("utf-8"))
        return json.loads(self.shipped.joinpath(name).read_text("utf-8"))

    def resolved(self, name: str) -> dict[str, Any]:
        """The document with every file it names (``"dice.json"``) read in; a file holding one
        list under the name that refers to it (``{"knights": [...]}``) gives that list."""
        doc: dict[str, Any] = dict(self.read(name))
        for key, value in doc.items():
            if key != "$schema" and isinstance(value, str) and value.endswith(".json"):
                sub = self.read(value)
                if isinstance(sub, dict) and isinstance(sub.get(key), list):
                    sub = sub[key]
                doc[key] = sub
        return doc


class Form:
    """What entering values in the page's form costs, for one game's vocabulary."""

    def __init__(self, vocab: Vocabulary) -> None:
        self.vocab = vocab

    def enter(self, key: str, new: Any, old: Any = None) -> Count:
        """Entering ``new`` in the field ``key`` where the form shows ``old``."""
        c = Count()
        if new == old or key in NOTES:
            return c
        if isinstance(new, dict):
            if not isinstance(old, dict):
                c.clicks += 2 if old is None else 0  # switch the field from null to the object
                old = {}
            for k, v in new.items():
                if key in self.vocab.maps and k not in old:
                    c.clicks += 2  # Object Properties, the key's checkbox
                c.add(self.enter(k, v, old.get(k)))
            return c
        if isinstance(new, list):
            if old is None:
                c.clicks += 2
            olds = old if isinstance(old, list) else []
            for i, item in enumerate(new):
                prior = olds[i] if i < len(olds) else None
                if prior is None:
                    c.clicks += 1  # "add" an entry
                c.add(self.enter(key, item, prior))
            return c
        c.values += 1
        chosen = isinstance(new, str) and new in self.vocab.choices and key not in TEXT
        numbered = isinstance(new, int) and key in self.vocab.choice_numbers
        if chosen or numbered or isinstance(new, bool) or new is None:
            c.clicks += 2  # open the choice (or the null switch), choose
        else:
            if old is None and key not in TEXT:
                c.clicks += 2  # the field is null: switch it to a number first
            c.clicks += 1
            c.keys += len(str(new)) + (1 if old is not None else 0)
        return c

    def component(self, name: str, target: Any, base: Any) -> Count:
        """One component (a top-level list or object): its entries matched by ``id`` or
        ``name`` when they have one, else by position."""
        total = Count()
        if isinstance(target, list):
            olds = list(base) if isinstance(base, list) else []
            key = next((k for k in ("id", "name") if target and isinstance(target[0], dict)
                        and k in target[0]), None)  # fmt: skip
            if key is not None:
                known = {e.get(key): e for e in olds if isinstance(e, dict)}
                olds = [known.get(e.get(key)) for e in target]
            for i, entry in enumerate(target):
                old = olds[i] if i < len(olds) else None
                c = Count(entries=1)
                if old is None:
                    c.clicks += 1  # "add" the entry
                    old = {} if isinstance(entry, dict) else None
                c.add(self.enter(f"{name}[]", entry, old))
                if not (c.clicks or c.keys):
                    c.entries = 0  # already as the box gives it: nothing to look up
                total.add(c)
        else:
            total.add(self.enter(name, target, base))
            before: dict[str, Any] = base if isinstance(base, dict) else {}
            if isinstance(target, dict):
                total.entries = sum(
                    v != before.get(k) and k not in NOTES for k, v in target.items()
                )
            else:
                total.entries = int(target != base)
        total.by_hand = len(json.dumps(_strip(target), ensure_ascii=False, separators=(",", ":")))
        return total


def _strip(value: Any) -> Any:
    """The value without the notes nobody needs to type (``source``, ``missing``…)."""
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in NOTES}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def estimate(
    target: dict[str, Any], base: dict[str, Any], schema: Any, skip: frozenset[str] = frozenset()
) -> dict[str, Count]:
    """Clicks and keystrokes per component to turn ``base`` into ``target`` in the form, but
    for the components ``skip`` names (entered another way)."""
    form = Form(vocabulary(schema))
    return {
        name: form.component(name, value, base.get(name))
        for name, value in target.items()
        if name not in META and name not in skip and isinstance(value, list | dict)
    }


def formed(
    game: str, start: str, to: str, skip: frozenset[str] = frozenset()
) -> tuple[Part, dict[str, Count]]:
    """The rest of the data file entered in the form, from the shipped set ``start`` to ``to``
    (a shipped set's name, or a data file of yours), every component but ``skip``: the part,
    and the counts per component.

    Raises:
        LookupError: ``start`` is not a shipped set of the game.
    """
    spec = data_spec(registry.get_game(game))
    if spec is None:
        raise LookupError(f"{game} has no data to enter")
    shipped = dict(spec.shipped)
    if start not in shipped:
        raise LookupError(f"{game} ships no set {start!r} (it ships {', '.join(shipped)})")
    reader = Reader(game)
    base = reader.resolved(shipped[start])
    if to in shipped:
        target = reader.resolved(shipped[to])
    else:
        path = Path(to)
        target = Reader(game, path.parent).resolved(path.name)
    schema = reader.read(str(base.get("$schema", "schema.json")))
    counts = estimate(target, base, schema, skip)
    total = Count()
    for c in counts.values():
        total.add(c)
    part = Part(
        kind="forms",
        what=f"{len(counts)} parts of the data file in the form ({total.values} values)",
        entries=total.entries,
        clicks=total.clicks,
        keystrokes=total.keys,
        look_ups=total.entries,
        covers=frozenset(counts),
    )
    return part, counts
