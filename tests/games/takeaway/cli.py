"""Take-away's own command-line verbs, found by the generic CLI with no edit outside this folder:
``herald rules takeaway hint PILE.json`` names the take that leaves the other player a multiple
of four (the winning line), or says there is none; ``herald rules takeaway pile after
TAKE.json`` (a two-word verb: ``pile`` groups its verbs) says what a take leaves."""

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


def after(inputs: Mapping[str, Any], lang: str) -> VerbResult:
    """What ``{"pile": N, "take": K}`` leaves: a number, so no sentence to translate."""
    doc = inputs["take"] if isinstance(inputs["take"], dict) else {}
    pile, take = doc.get("pile"), doc.get("take")
    if not (isinstance(pile, int) and isinstance(take, int) and 1 <= take <= min(3, pile)):
        return VerbResult({"error": "take"}, message("takeaway:hint/bad-pile", lang), EXIT_INPUT)
    return VerbResult({"left": pile - take}, str(pile - take))


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
    Verb(
        "pile after",
        "What a take leaves of the pile.",
        (
            VerbArg(
                "take",
                'The pile and the take: {"pile": N, "take": K}.',
                positional=True,
                required=True,
                metavar="TAKE.json",
            ),
        ),
        after,
    ),
)
