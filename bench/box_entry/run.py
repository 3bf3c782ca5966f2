"""The command line of ``python -m bench.box_entry``: for each game with data, the parts a group
enters (a traced board, cards with the effect picker, the rest in the form), one table, one time
model (``bench.box_entry``'s Keystroke-Level Model), and what typing the box by hand took."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.box_entry import AIM_S, KEYSTROKE_S, POINT_AND_CLICK_S, THINK_S, Part, minutes
from bench.box_entry.forms import Reader, formed
from bench.box_entry.picker import picked
from bench.box_entry.trace import traced
from engine import registry
from engine.data import data_spec

START = "box"
"""The shipped set a group starts from: what the rulebooks give."""
COMPLETE = "stand-in"
"""The shipped set whose size stands for a complete box (else the game's default set)."""


def by_hand() -> dict[str, tuple[int, int]]:
    """Minutes typing each box by hand (``tests/box/entry_by_hand.py``; none without tests/)."""
    try:
        module = importlib.import_module("tests.box.entry_by_hand")
    except ModuleNotFoundError:
        return {}
    return dict(module.BY_HAND_MIN)


def games_with_data() -> list[str]:
    """Every registered game with data sets to enter, a ``box`` set among them."""
    return [
        key
        for key in registry.game_keys()
        if (spec := data_spec(registry.get_game(key))) is not None and START in spec.shipped
    ]


def measure(game: str, to: str | None = None) -> dict[str, Any]:
    """One game's parts and totals, entering the complete set ``to`` (a shipped set's name or a
    data file; default: ``stand-in``, else the game's default set).

    Raises:
        LookupError: an unknown game, or one with no data to enter.
    """
    if game not in registry.game_keys():
        raise LookupError(f"no game {game!r} (games: {', '.join(registry.game_keys())})")
    spec = data_spec(registry.get_game(game))
    if spec is None or START not in spec.shipped:
        raise LookupError(f"{game} has no box to enter (no {START!r} data set)")
    target = to or (COMPLETE if COMPLETE in spec.shipped else spec.default)
    parts: list[Part] = []
    detail: dict[str, Any] = {}
    lines: list[str] = []
    trace = traced(game)
    if trace is not None:
        parts.append(trace[0])
        detail["trace"] = trace[1]
        lines += trace[2]
    if target in spec.shipped:
        doc = Reader(game).resolved(spec.shipped[target])
    else:
        doc = Reader(game, Path(target).parent).resolved(Path(target).name)
    pick = picked(registry.get_game(game), doc)
    if pick is not None:
        parts.append(pick[0])
        detail["picker"] = pick[1]
    covered = frozenset().union(*(p.covers for p in parts))
    form, counts = formed(game, START, target, covered)
    parts.append(form)
    detail["forms"] = {
        name: {"entries": c.entries, "values": c.values, "clicks": c.clicks, "keystrokes": c.keys,
               "minutes": round(minutes(c.clicks, c.keys, c.entries), 1),
               "json_keystrokes": c.by_hand}
        for name, c in counts.items()
    }  # fmt: skip
    if pick is not None:
        for row in detail["picker"]["decks"].values():
            look_ups = row["cards"] + row["effects"]
            row["minutes"] = round(minutes(row["clicks"], row["keys"], look_ups), 1)
    hand = by_hand().get(game)
    total = {
        "clicks": sum(p.clicks for p in parts),
        "keystrokes": sum(p.keystrokes for p in parts),
        "look_ups": sum(p.look_ups for p in parts),
        "minutes": round(sum(p.minutes for p in parts), 1),
    }
    return {
        "game": game,
        "from": START,
        "to": target,
        "parts": [_part(p) for p in parts],
        "total": total,
        "by_hand_minutes": list(hand) if hand else None,
        "detail": detail,
        "detail_lines": lines,
    }


def _part(p: Part) -> dict[str, Any]:
    return {
        "kind": p.kind,
        "what": p.what,
        "entries": p.entries,
        "clicks": p.clicks,
        "keystrokes": p.keystrokes,
        "look_ups": p.look_ups,
        "minutes": round(p.minutes, 1),
        "covers": sorted(p.covers),
    }


def model() -> dict[str, float]:
    return {"click_s": POINT_AND_CLICK_S, "keystroke_s": KEYSTROKE_S, "look_up_s": THINK_S,
            "map_aim_minutes": AIM_S / 60}  # fmt: skip


def table(results: list[dict[str, Any]]) -> list[str]:
    """The text report: the time model once, then a row per part and per game."""
    head = f"{'game':<12} {'part':<8} {'what':<58} {'clicks':>6} {'keys':>6} {'look':>5} {'min':>6}"
    out = [
        f"Keystroke-Level Model: {POINT_AND_CLICK_S:.1f} s to point and click, {KEYSTROKE_S} s a "
        f"keystroke, {THINK_S} s a look-up (once per entry: finding it on the components)",
        "",
        head,
        "-" * len(head),
    ]
    for r in results:
        for p in r["parts"]:
            out.append(
                f"{r['game']:<12} {p['kind']:<8} {p['what'][:58]:<58} {p['clicks']:>6} "
                f"{p['keystrokes']:>6} {p['look_ups']:>5} {p['minutes']:>6.1f}"
            )
        t = r["total"]
        hand = r["by_hand_minutes"]
        vs = f"by hand {hand[0]}-{hand[1]} min" if hand else "by hand: not measured"
        out.append(
            f"{r['game']:<12} {'total':<8} {vs:<58} {t['clicks']:>6} {t['keystrokes']:>6} "
            f"{t['look_ups']:>5} {t['minutes']:>6.1f}"
        )
        for p in r["parts"]:
            if p["kind"] == "trace":
                verdict = "under" if p["minutes"] < AIM_S / 60 else "NOT under"
                out.append(f"{'':<12} the map: {p['minutes']:.1f} min, {verdict} the aim of "
                           f"{AIM_S / 60:.0f} min")  # fmt: skip
        out.append("")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.box_entry",
        description="The clicks, keystrokes and minutes a group needs to enter its box, per "
        "part, with one time model (Keystroke-Level Model), against typing it by hand.",
    )
    parser.add_argument("game", nargs="?", help="the game's key")
    parser.add_argument("--all", action="store_true", help="every game with a box to enter")
    parser.add_argument("--to", help="the complete set: a shipped set's name or a data file")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    parser.add_argument("--detail", action="store_true", help="also each part's own counts")
    args = parser.parse_args(argv)
    if args.all == bool(args.game):
        parser.error("name one game, or --all")
    try:
        keys = games_with_data() if args.all else [args.game]
        results = [measure(key, args.to) for key in keys]
    except KeyError:
        raise  # a bug, not a bad request
    except (LookupError, ValueError, OSError) as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"model": model(), "games": results}, indent=2, ensure_ascii=False))
        return 0
    lines = table(results)
    if args.detail:
        for r in results:
            lines += r["detail_lines"]
            for name, c in r["detail"].get("forms", {}).items():
                lines.append(f"  form {name}: {c}")
            for name, c in r["detail"].get("picker", {}).get("decks", {}).items():
                lines.append(f"  picker {name}: {c}")
    print("\n".join(lines))
    return 0
