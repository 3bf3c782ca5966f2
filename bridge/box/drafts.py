"""Drafts: a box being entered over an evening, kept as it is, faults and all (issue #24).

A group typing its box on the "Your box" page cannot always finish at one sitting, and a value
half entered may break a rule for a while (a Fief of one Village until its second is traced).
Save to this table refuses such a box; **Save draft** keeps it under its name in the table's
library (``<db>.boxes/<game>/drafts/``; saving again replaces it), with what it breaks listed, so
the group can go on with it later. A draft is never a kept box: New game lists it only as a
draft, it never starts a game, and the file, imported or served, is checked like any other box
(and refused while it breaks a rule). Once the box is kept whole, its draft is dropped.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from engine.i18n import violation_text

from .errors import BoxError, refusal_text
from .file import Box, box_data
from .library import SUFFIX, slug, written_beside
from .report import is_gap, playability

DRAFTS = "drafts"
"""The folder, in a game's folder of the library, holding its drafts."""


def save_draft(box: Box, library: Path) -> Path:
    """Keep ``box`` as a draft, whatever it breaks, under its name (atomically: a temporary file
    then a rename, replacing the draft of the same name). Returns where it is kept."""
    target = library / box.game / DRAFTS / f"{slug(box.name)}{SUFFIX}"
    try:
        temp = written_beside(box, target, ".draft-")
        try:
            os.replace(temp, target)
        finally:
            if os.path.exists(temp):
                os.unlink(temp)
    except OSError as exc:
        raise BoxError("box/unwritable", file=str(target), reason=exc.strerror or str(exc)) from exc
    return target


def drafts(library: Path, game: str) -> list[Path]:
    """The drafts of ``game`` kept in ``library``, by name."""
    return sorted((library / game / DRAFTS).glob(f"*{SUFFIX}"))


def drop_draft(library: Path, game: str, name: str) -> None:
    """Forget the draft named ``name`` (a box of that name was kept whole); none there: nothing."""
    target = library / game / DRAFTS / f"{slug(name)}{SUFFIX}"
    try:
        target.unlink()
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise BoxError("box/unwritable", file=str(target), reason=exc.strerror or str(exc)) from exc


def faults(game: Any, box: Box, lang: str) -> list[dict[str, str]]:
    """Everything ``box`` breaks, each with where it is: the game's refusal of its data (each
    fault the game names, or its one sentence), or every rule its data break (a value left to
    complete is not a fault). Empty: the box is good (it may still be incomplete)."""
    try:
        data = box_data(game, box, f"{box.name} (draft)")
        plays = playability(game, data, f"{box.name} (draft)")
    except BoxError as exc:
        found = [{"where": p, "text": t} for p, t in exc.faults]
        return found or [{"where": exc.path or "$", "text": refusal_text(exc, lang)}]
    except ValueError as exc:  # an InputError the game raised setting up on the data
        return [{"where": getattr(exc, "path", "") or "$", "text": str(exc)}]
    return [
        {"where": str(v.params.get("what", "")), "text": violation_text(v, lang)}
        for v in plays.missing()
        if not is_gap(v)
    ]
