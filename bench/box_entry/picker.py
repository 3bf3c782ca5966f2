"""Cards whose effects are a vocabulary (the ``EFFECT_VOCABULARY`` capability), entered with the
effect picker: the clicks and keystrokes per card, counted over every card of the game's complete
shipped set (as many cards and designs as the box). The model of the page, per card:

- the card's row: "add row" (1 click), then each plain value typed in the form: a click into the
  field and one keystroke per character (``id``, ``name``, a value, a count…), a choice (a deck,
  a back, a kind) 2 clicks, each item of a list (a card's symbols) 3 clicks (add, open, pick);
- each effect with the picker: a click into the field (the picker follows the form's focus); the
  timing 2 clicks unless it is the first one offered; each left item and each reward atom 2
  clicks to add, then each of its fields: a number other than 1 a click and its digits, a choice
  other than the first offered 2 clicks; each further alternative 1 click ("or…"); a symbol
  conversion 1 click and its fields; "Use" 1 click;
- the card photographed once: 3 clicks (Photograph this card, the camera, its shutter).

One look-up per card and one per effect (each is read on the card and built on its own). The
same effects typed as text by an expert are counted too (a click and the text's characters).
"""

from __future__ import annotations

from typing import Any

from bench.box_entry import Part, minutes
from engine.capabilities import EFFECT_VOCABULARY, EffectVocabulary, capability

CHOICES = frozenset({"deck", "back", "kind", "ribbon", "goal"})
"""Plain fields the form offers as a choice (an enum in the schema)."""
TYPED_SKIP = frozenset({"invented", "source", "unsayable"})
PHOTO_CLICKS = 3


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


def count(game: EffectVocabulary, doc: dict[str, Any]) -> dict[str, dict[str, int]]:
    """Per list of cards holding effects: cards, effects, clicks and keystrokes with the picker,
    and keystrokes typing the effects as text.

    Raises:
        ValueError: a shipped effect the game's own grammar does not read (the data are wrong).
    """
    v = game.effect_vocabulary("en")
    decks: dict[str, dict[str, str]] = {}
    for p in v["paths"]:
        top, sep, rest = p["path"].partition("[].")
        if sep and "." not in top and "[" not in top:
            decks.setdefault(top, {})[rest] = p["place"]
    out: dict[str, dict[str, int]] = {}
    for top, fields in decks.items():
        row = dict.fromkeys(("cards", "effects", "clicks", "keys", "plain_clicks", "plain_keys",
                             "typed_keys"), 0)  # fmt: skip
        for card in doc.get(top) or []:
            row["cards"] += 1
            c, k = _plain_ops(card, {f.split("[")[0] for f in fields})
            row["clicks"] += c + PHOTO_CLICKS
            row["keys"] += k
            row["plain_clicks"] += c + PHOTO_CLICKS
            row["plain_keys"] += k
            for field, place in fields.items():
                value = card.get(field.split("[")[0])
                for text in value if isinstance(value, list) else [value]:
                    if not isinstance(text, str):
                        continue
                    read = game.read_effect(place, text)
                    if not read["ok"]:
                        raise ValueError(f"{top}: {read['message']}")
                    c, k = picker_ops(read["fields"], v)
                    row["effects"] += 1
                    row["clicks"] += c
                    row["keys"] += k
                    row["typed_keys"] += len(text)
        out[top] = row
    return out


def picked(game: object, doc: dict[str, Any]) -> tuple[Part, dict[str, Any]] | None:
    """The cards entered with the picker over the complete document ``doc``, and the per-deck
    counts; None when the game's effects are not a vocabulary."""
    found = capability(game, EFFECT_VOCABULARY)
    if found is None:
        return None
    rows = count(found, doc)
    total = {k: sum(r[k] for r in rows.values()) for k in next(iter(rows.values()))}
    part = Part(
        kind="picker",
        what=f"{total['cards']} cards, {total['effects']} effects with the picker",
        entries=total["cards"],
        clicks=total["clicks"],
        keystrokes=total["keys"],
        look_ups=total["cards"] + total["effects"],
        covers=frozenset(rows),
    )
    # The same cards with each effect typed as text: a click into the field and its letters.
    typed = (total["plain_clicks"] + total["effects"], total["plain_keys"] + total["typed_keys"])
    as_text = minutes(typed[0], typed[1], part.look_ups)
    return part, {
        "decks": rows,
        "total": total,
        "effects_as_text": {"clicks": typed[0], "keystrokes": typed[1], "minutes": as_text},
    }
