"""How long entering a game's cards takes on the "Your box" page (issue #24, the aim), for a game
whose effects are a vocabulary (the ``EFFECT_VOCABULARY`` capability): the
clicks and keystrokes a scripted user needs per card, with the effect picker, counted over every
card of the game's default shipped set (complete: as many cards and designs as the box).

A count, not a timing (the tests never time anything). The model of the page, per card:

- the card's row: "add row" (1 click), then each plain value typed in the form: a click into the
  field and one keystroke per character (``id``, ``name``, a value, a count…), a choice (a deck,
  a back, a kind) 2 clicks, each item of a list (a card's symbols) 3 clicks (add, open, pick);
- each effect with the picker: a click into the field (the picker follows the form's focus); the
  timing 2 clicks unless it is the first one offered; each left item and each reward atom 2
  clicks to add, then each of its fields: a number other than 1 a click and its digits, a choice
  other than the first offered 2 clicks; each further alternative 1 click ("or…"); a symbol
  conversion 1 click and its fields; "Use" 1 click;
- the card photographed once: 3 clicks (Photograph this card, the camera, its shutter).

The same effects typed as text by an expert are counted too (a click and the text's characters).
The bench is core code, so it names no game: it asks the registry for the game and the game for
its vocabulary. Usage::

    python bench/box_entry_effects.py [--game KEY] [--click 1.5] [--key 0.3] [--card 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine import registry  # noqa: E402
from engine.capabilities import EFFECT_VOCABULARY, EffectVocabulary, capability  # noqa: E402
from engine.data import data_spec, shipped_reader  # noqa: E402

CHOICES = frozenset({"deck", "back", "kind", "ribbon", "goal"})
"""Plain fields the form offers as a choice (an enum in the schema)."""
TYPED_SKIP = frozenset({"invented", "source", "unsayable"})


def _defaults(v: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each vocabulary entry's first offered value per choice field (what needs no click)."""
    out: dict[str, dict[str, Any]] = {}
    for entry in [*v["left"], *v["atoms"], v["conversion"]]:
        out[entry["id"]] = {
            f["name"]: (None if f.get("optional") else f["values"][0]["id"])
            for f in entry["fields"]
            if f["kind"] == "choice"
        }
    return out


def _item_ops(item: dict[str, Any], defaults: dict[str, Any]) -> tuple[int, int]:
    clicks = keys = 0
    for name, value in item.items():
        if name == "kind" or value is None:
            continue
        if isinstance(value, int):
            if value != 1:
                clicks, keys = clicks + 1, keys + len(str(value))
        elif value != defaults.get(name):
            clicks += 2
    return clicks, keys


def picker_ops(fields: dict[str, Any], v: dict[str, Any]) -> tuple[int, int]:
    """Clicks and keystrokes to build one effect's ``fields`` with the picker."""
    defaults = _defaults(v)
    clicks, keys = 2, 0  # the field, then "Use"
    if fields.get("timing") and fields["timing"] != v["timings"][0]["id"]:
        clicks += 2
    if fields["conversion"]:
        c, k = _item_ops(fields["conversion"], defaults["conversion"])
        return clicks + 1 + c, keys + k
    for item in fields["left"]:
        c, k = _item_ops(item, defaults[item["kind"]])
        clicks, keys = clicks + 2 + c, keys + k
    for n, alternative in enumerate(fields["reward"]):
        clicks += 1 if n else 0
        for item in alternative:
            c, k = _item_ops(item, defaults[item["kind"]])
            clicks, keys = clicks + 2 + c, keys + k
    return clicks, keys


def _plain_ops(card: dict[str, Any], effect_keys: set[str]) -> tuple[int, int]:
    clicks, keys = 1, 0  # add the row
    for name, value in card.items():
        if name in effect_keys or name in TYPED_SKIP or value is None:
            continue
        if name in CHOICES:
            clicks += 2
        elif isinstance(value, list):
            clicks += 3 * len(value)
        elif isinstance(value, bool):
            clicks += 1 if value else 0
        else:
            clicks, keys = clicks + 1, keys + len(str(value))
    return clicks, keys


def count(game: EffectVocabulary, doc: dict[str, Any]) -> dict[str, Any]:
    """Per list of cards holding effects: cards, effects, clicks and keystrokes with the picker,
    and keystrokes typing the effects as text."""
    v = game.effect_vocabulary("en")
    decks: dict[str, dict[str, str]] = {}
    for p in v["paths"]:
        top, sep, rest = p["path"].partition("[].")
        if sep and "." not in top and "[" not in top:
            decks.setdefault(top, {})[rest] = p["place"]
    out: dict[str, Any] = {}
    for top, fields in decks.items():
        row = {"cards": 0, "effects": 0, "clicks": 0, "keys": 0, "typed_keys": 0}
        for card in doc.get(top) or []:
            row["cards"] += 1
            c, k = _plain_ops(card, {f.split("[")[0] for f in fields})
            row["clicks"] += c + 3  # the photograph
            row["keys"] += k
            for field, place in fields.items():
                value = card.get(field.split("[")[0])
                for text in value if isinstance(value, list) else [value]:
                    if not isinstance(text, str):
                        continue
                    read = game.read_effect(place, text)
                    if not read["ok"]:
                        raise SystemExit(read["message"])
                    c, k = picker_ops(read["fields"], v)
                    row["effects"] += 1
                    row["clicks"] += c
                    row["keys"] += k
                    row["typed_keys"] += len(text)
        out[top] = row
    return out


def _game(key: str | None) -> tuple[str, EffectVocabulary]:
    for found in registry.game_keys():
        game = capability(registry.get_game(found), EFFECT_VOCABULARY)
        if game is not None and key in (None, found):
            return found, game
    raise SystemExit(f"no game {key or ''} offers an effect vocabulary")


def _shipped(key: str) -> dict[str, Any]:
    spec = data_spec(registry.get_game(key))
    assert spec is not None
    doc: dict[str, Any] = json.loads(shipped_reader(key)(spec.shipped[spec.default]))
    return doc


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", help="a game offering an effect vocabulary (default: the first)")
    ap.add_argument("--click", type=float, default=1.5, help="seconds per click (with choosing)")
    ap.add_argument("--key", type=float, default=0.3, help="seconds per keystroke")
    ap.add_argument("--card", type=float, default=5.0, help="seconds reading each card")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    key, game = _game(args.game)
    rows = count(game, _shipped(key))
    total = {k: sum(r[k] for r in rows.values()) for k in next(iter(rows.values()))}
    seconds = total["clicks"] * args.click + total["keys"] * args.key + total["cards"] * args.card
    typed = seconds - total["keys"] * args.key + total["typed_keys"] * args.key
    result = {"decks": rows, "total": total, "game": key, "assumed": vars(args) | {"json": None},
              "minutes_picker": round(seconds / 60, 1),
              "minutes_typed_effects": round(typed / 60, 1)}  # fmt: skip
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{'deck':22} {'cards':>5} {'effects':>7} {'clicks':>6} {'keys':>5}")
    for name, r in rows.items():
        print(f"{name:22} {r['cards']:5} {r['effects']:7} {r['clicks']:6} {r['keys']:5}")
    print(f"{'total':22} {total['cards']:5} {total['effects']:7} {total['clicks']:6} "
          f"{total['keys']:5}")  # fmt: skip
    print(f"at {args.click} s a click, {args.key} s a keystroke, {args.card} s reading a card: "
          f"{result['minutes_picker']} min with the picker "
          f"({result['minutes_typed_effects']} min typing the effects as text)")  # fmt: skip


if __name__ == "__main__":
    main()
