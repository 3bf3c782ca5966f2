"""France 1429's turn flow as data (digest §5): the setup steps, the seven phases' steps, the
sub-games a phase pushes (questions, battles, elections) and the out-of-turn window.

The core (``engine.flow``) checks every move against it before the rules run; ``rounds`` (the
round driver) says where a state stands on it.
"""

from __future__ import annotations

from engine.flow import Step, SubGame, TurnFlow, Window

POPE = (
    "excommunicate",
    "absolve",
    "annul",
    "diplomacy",
    "ask-card",
    "take-relic",
    "give-relic",
    "give-control",
)
"""The Pope's powers, a request to annul, a Diplomacy marker: on a family's own turn (FR-10)."""

FLOW = TurnFlow(
    steps=(
        Step("deal-lord", ("deal-lord",), "table"),
        Step("place", ("place-start",)),
        Step("relics", ("place-relics",), "table"),
        Step("relic-die", ("relic-die",), "table"),
        Step("marriage", ("propose", "play-card", "excommunicate", "absolve", "done")),
        Step("draw", ("discard", "draw", "play-card", "excommunicate", "absolve", "done")),
        Step("deal", ("deal",), "table"),
        Step("disasters", ("disaster-die",), "table"),
        Step("lord-die", ("lord-die",), "table"),
        Step("hit-die", ("hit-die",), "table"),
        Step("play", ("play-card", "play-lord", "use-relic", *POPE, "done")),
        Step("purchase", ("buy", "give-title", "grant", "play-card", *POPE, "done")),
        Step("movement", ("move", "cavalcade", "ask-pass", "play-card", *POPE, "done")),
        Step("battles", ("attack", "capture", "siege", "play-card", *POPE, "done")),
        Step("pillage", ("pillage", "play-card", "excommunicate", "absolve", "done")),
        Step("over", ()),
    ),
    subgames=(
        SubGame("marriage", (Step("answer", ("answer",)),)),
        SubGame("passage", (Step("answer", ("answer",)),)),
        SubGame("annulment", (Step("answer", ("answer",)),)),
        SubGame("diplomacy", (Step("answer", ("answer",)),)),
        SubGame("card", (Step("answer", ("give-card", "answer")),)),
        SubGame("rally", (Step("answer", ("play-card", "answer")),)),
        SubGame("relic", (Step("answer", ("answer",)),)),
        SubGame("teeth", (Step("answer", ("answer",)),)),
        SubGame(
            "uprising",
            (Step("answer", ("answer",)), Step("strike", ("strike",)), Step("losses", ("losses",))),
        ),
        SubGame("plague", (Step("losses", ("losses",)),)),
        SubGame("control", (Step("answer", ("give-control",)),)),
        SubGame("cancel", (Step("answer", ("answer",)),)),
        SubGame("grant", (Step("answer", ("answer",)),)),
        SubGame("captive", (Step("answer", ("answer",)),)),
        SubGame(
            "battle",
            (
                Step("join", ("join",)),
                Step("roll", ("battle-roll",), "table"),
                Step("losses", ("losses",)),
                Step("attacker", ("resolve", "play-card")),
                Step("defender", ("resolve", "play-card")),
            ),
        ),
        SubGame(
            "election",
            (Step("candidates", ("candidate", "done")), Step("vote", ("vote",), "sealed")),
        ),
    ),
    windows=(Window("opportunity", ("interject", "excommunicate", "absolve", "join")),),
)
"""The ``opportunity`` window: Opportunity and Lord opportunity cards out of turn (FR-10), the
Pope's excommunication, "at any time" (FR-27), and, between a battle's rolls, a family in the
Village joining or changing sides (EN §6.0, FR-32)."""

SEAT_PHASES = ("place", "marriage", "draw", "play", "purchase", "movement", "battles", "pillage")
