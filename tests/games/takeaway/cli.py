"""Take-away's own command-line verb, found by the generic CLI with no edit outside this folder:
``herald rules takeaway hint PILE.json`` names the take that leaves the other player a multiple
of four (the winning line), or says there is none."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.i18n import message
from engine.verbs import EXIT_INPUT, Verb, VerbArg, VerbResult


def hint(inputs: Mapping[str, Any], lang: str) -> VerbResult:
    """The winning take from ``{"pile": N}``; a pile that is not a positive count is bad input."""
    pile = inputs["pile"].get("pile") if isinstance(inputs["pile"], dict) else None
    if not isinstance(pile, int) or pile < 1:
        return VerbResult({"error": "pile"}, message("takeaway:hint/bad-pile", lang), EXIT_INPUT)
    take = pile % 4 or None
    if inputs["quiet"]:
        return VerbResult({"take": take}, str(take or "-"))
    text = message("takeaway:hint/take", lang, count=take) if take else message(
        "takeaway:hint/none", lang)  # fmt: skip
    return VerbResult({"take": take}, text)


VERBS = (
    Verb(
        "hint",
        "Name the winning take from a pile.",
        (
            VerbArg(
                "pile",
                'The pile: {"pile": N}.',
                positional=True,
                required=True,
                metavar="PILE.json",
            ),
            VerbArg("quiet", "Only the number.", kind="flag"),
        ),
        hint,
    ),
)
