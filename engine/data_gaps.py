"""What a game's data file leaves unknown, and the report of ``data check``: shared by every game
whose box data has gaps (a printed value the rulebooks do not give).

A game declares its own gap record by subclassing :class:`Gap` with its key (``GAME``), so the
refusal it makes is in that game's message catalog, and the note a gap gets when its data file
has none for it (``DEFAULT_WHERE``); its ``data check`` verb hands its refusals
and the gaps only shown to :func:`check_report`, which words the report the same way for every
game (the sentences ``<game>:data/invented``, ``data/check-refused``, ``data/check-ok`` and
``data/check-shown`` come from the game's catalog).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.data import GameData
from engine.i18n import message, violation_json, violation_text
from engine.verbs import EXIT_FAULTY, EXIT_OK, VerbResult
from engine.violations import Violation


@dataclass(frozen=True, slots=True)
class Gap:
    """A value the sources do not give and the data file leaves ``null`` (or a list it holds
    only part of).

    ``what`` is its path in the file (``cards[c-13].name``, the list name ``cards``); ``code``
    the catalog code of the sentence saying what is unknown and why a game needs it; ``params``
    fill that sentence; ``where`` is the data file's note (where it is printed, why the seeds
    lack it, which seed lines come closest); ``ref`` the rulebook reference. ``needed`` is false
    for a value shown to players but not used by the rules (a printed colour or name): listed,
    never a reason to refuse a game.
    """

    GAME: ClassVar[str] = ""
    DEFAULT_WHERE: ClassVar[str] = ""
    """The note for a value the data file has no note for (where the game's digest lists its
    gaps)."""

    what: str
    code: str
    where: str
    ref: str
    params: Mapping[str, Any] = field(default_factory=dict)
    needed: bool = True

    def violation(self) -> Violation:
        """The refusal record: the catalog sentence with ``what`` and ``where`` filled in."""
        params = {"what": self.what, "where": self.where, **self.params}
        return Violation(self.code, self.ref, params, type(self).GAME)

    @classmethod
    def note_for(cls, missing: Mapping[str, str], what: str) -> str:
        """The data file's note for a path, or a more general one (:func:`note_for`), else the
        game's ``DEFAULT_WHERE``."""
        return note_for(missing, what, cls.DEFAULT_WHERE)


_SEGMENT = re.compile(r"(\.[^.\[\]]+|\[[^\]]*\])$")


def note_for(missing: Mapping[str, str], what: str, default: str) -> str:
    """The data file's note for a path, or a more general one: ``cards[c-13].name`` →
    ``cards[*].name`` → ``cards[c-13]`` → ``cards[*]`` → ``cards``; else ``default``."""
    exact = what
    while exact:
        for key in (exact, re.sub(r"\[[^\]]*\]", "[*]", exact)):
            if key in missing:
                return missing[key]
        cut = _SEGMENT.search(exact)
        exact = exact[: cut.start()] if cut else ""
    return default


def _line(v: Violation, lang: str) -> str:
    return f"  • {v.code} {violation_text(v, lang)}\n    {v.ref}"


def check_report(
    game: str,
    data: GameData,
    name: str,
    invented: bool,
    refused: Sequence[Violation],
    shown: Sequence[Violation],
    lang: str,
) -> VerbResult:
    """The ``data check`` answer: every refusal (exit 3 if any), then the values only shown
    that the data leave unknown; the JSON report carries the same.

    ``invented``: the values the data set gives itself are invented (a stand-in). A set that
    ``extends`` a shipped one is labelled by what it is (``GameData.provenance``): its own values
    are its own, and the values still taken from an invented set are counted ("your box, 12
    values still from the stand-in (invented)"); one that overrides every value is not
    invented."""

    def say(code: str, **params: Any) -> str:
        return message(f"{game}:{code}", lang, **params)

    lines: list[str] = []
    still = data.provenance.invented_values
    if still:
        lines.append(message("data/still-invented", lang, name=name, count=still,
                             base=data.provenance.base))  # fmt: skip
    elif invented:
        lines.append(say("data/invented", name=name))
    if refused:
        lines.append(say("data/check-refused", name=name, count=len(refused)))
        lines += [_line(v, lang) for v in refused]
    else:
        lines.append(say("data/check-ok", name=name))
    if shown:
        lines.append(say("data/check-shown", count=len(shown)))
        lines += [_line(v, lang) for v in shown]
    report = {
        "data": name,
        "source": data.source,
        "digest": data.digest,
        "invented": invented or still > 0,
        "extends": data.provenance.base or None,
        "invented_values": still,
        "verified": data.provenance.verified if data.provenance.base else None,
        "ok": not refused,
        "refusals": [violation_json(v, lang) for v in refused],
        "unknown_shown": [violation_json(v, lang) for v in shown],
    }
    return VerbResult(report, "\n".join(lines), EXIT_FAULTY if refused else EXIT_OK)
