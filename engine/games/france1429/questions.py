"""Each kind of question on the stack (``stack``) as one object: a one-step sequence that knows
the step it waits in, who acts (its family, or the table for a card or a die), the moves that
answer it and the rule each one runs, and what a simulated table reports for it.

The rules that put a question push it and the rules named here pop it; the round driver
(``rounds``) and the dispatch (``turn``) only look the top one up in ``QUESTIONS``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.flow import Position
from engine.game import TABLE
from engine.games.france1429 import (
    cards,
    drawing,
    fighting,
    handover,
    movement,
    papacy,
    purchase,
    relics,
    stack,
    war,
)
from engine.games.france1429.moves import (
    Answer,
    Deal,
    GiveCard,
    GiveControl,
    HitDie,
    LordDie,
    Losses,
    PlayCard,
    RelicDie,
    Strike,
)
from engine.games.france1429.refs import refuse
from engine.games.france1429.state import FranceState, Pending

Take = Callable[[FranceState, Pending, Any], FranceState | None]
"""The state after a move answering the question, or None: not a move this question takes."""


def _no_moves(state: FranceState, top: Pending) -> list[Any]:
    return []


def _yes_no(state: FranceState, top: Pending) -> list[Any]:
    return [Answer(top.seat, True), Answer(top.seat, False)]


def _never(state: FranceState, top: Pending, rng: random.Random) -> Any:
    return None


@dataclass(frozen=True)
class Question:
    """One kind of ``Pending`` (its ``kind``): the table's report (``subgame`` empty: the chance
    step ``step``) or a family's answer (the flow's sub-game ``subgame``)."""

    kind: str
    take: Take
    step: str = "answer"
    subgame: str = ""
    legal: Callable[[FranceState, Pending], list[Any]] = _no_moves
    report: Callable[[FranceState, Pending, random.Random], Any] = _never

    def position(self, top: Pending) -> Position:
        """Who acts on the question ``top``: the table, or the family asked."""
        if not self.subgame:
            return Position(self.step, (TABLE,))
        return Position(self.step, (top.seat,), stack=(self.subgame,))


def weighted(counts: dict[str, int], rng: random.Random) -> str:
    """One card drawn from a deck given as counts, by ``rng`` (a simulated table)."""
    pool = [k for k, v in sorted(counts.items()) for _ in range(v)]
    return pool[rng.randrange(len(pool))]


def _answer(rule: Callable[[FranceState, Answer], FranceState]) -> Take:
    """A yes or no from the family asked (anyone else is refused), then ``rule``."""

    def take(state: FranceState, top: Pending, move: Any) -> FranceState | None:
        if not isinstance(move, Answer):
            return None
        if move.seat != top.seat:
            raise refuse("answer/not-asked", "permission", seat=move.seat)
        return rule(state, move)

    return take


def _asked(kind: str, subgame: str, rule: Callable[[FranceState, Answer], FranceState]) -> Question:
    return Question(kind, _answer(rule), subgame=subgame, legal=_yes_no)


def _card(state: FranceState, top: Pending, move: Any) -> FranceState | None:
    """A card asked for (§11.3 Papal/Diplomacy): given, or refused (the question is popped)."""
    if not isinstance(move, GiveCard | Answer):
        return None
    if move.seat != top.seat:
        raise refuse("answer/not-asked", "permission", seat=move.seat)
    if isinstance(move, GiveCard):
        return papacy.give_card(state, move)
    return stack.pop(state)


def _rally(state: FranceState, top: Pending, move: Any) -> FranceState | None:
    """A family adds a card to an Uprising, or lets it be (a no)."""
    if not isinstance(move, PlayCard | Answer):
        return None
    if move.seat != top.seat or (isinstance(move, Answer) and move.yes):
        raise refuse("answer/not-asked", "permission", seat=move.seat)
    if isinstance(move, PlayCard):
        return cards.rally_play(state, move)
    return cards.rally_pass(state)


def _strike(state: FranceState, top: Pending, move: Any) -> FranceState | None:
    return cards.answer_strike(state, move) if isinstance(move, Strike) else None


def _struck(state: FranceState, top: Pending, move: Any) -> FranceState | None:
    return cards.answer_struck_losses(state, move) if isinstance(move, Losses) else None


def _plague(state: FranceState, top: Pending, move: Any) -> FranceState | None:
    return drawing.answer_plague(state, move) if isinstance(move, Losses) else None


def _control(state: FranceState, top: Pending, move: Any) -> FranceState | None:
    return handover.answer(state, move) if isinstance(move, GiveControl) else None


def _deal(state: FranceState, top: Pending, move: Any) -> FranceState | None:
    return drawing.deal(state, move) if isinstance(move, Deal) else None


def _lord_die(state: FranceState, top: Pending, move: Any) -> FranceState | None:
    return drawing.lord_die(state, move) if isinstance(move, LordDie) else None


def _stop_die(state: FranceState, top: Pending, move: Any) -> FranceState | None:
    return cards.stop_die(state, move.lord, move.value) if isinstance(move, LordDie) else None


def _relic_die(state: FranceState, top: Pending, move: Any) -> FranceState | None:
    return relics.relic_die(state, move) if isinstance(move, RelicDie) else None


def _hit_die(state: FranceState, top: Pending, move: Any) -> FranceState | None:
    if not isinstance(move, HitDie):
        return None
    if move.value not in state.rules.battle_faces:
        raise refuse("die/face", "opportunity", value=move.value)
    return cards.resolve_uprising(state, move.value)


def _dealt(state: FranceState, top: Pending, rng: random.Random) -> Any:
    return Deal(top.by, weighted(drawing.deck_of(state, top.deck), rng))


def _queued_die(state: FranceState, top: Pending, rng: random.Random) -> Any:
    return LordDie(top.queue[0], rng.randint(1, 6))


def _lord_rolls(state: FranceState, top: Pending, rng: random.Random) -> Any:
    return LordDie(top.lord, rng.randint(1, 6))


def _relic_rolls(state: FranceState, top: Pending, rng: random.Random) -> Any:
    return RelicDie(rng.randint(1, 6))


def _hit_rolls(state: FranceState, top: Pending, rng: random.Random) -> Any:
    faces = state.rules.battle_faces
    return HitDie(faces[rng.randrange(len(faces))])


QUESTIONS: dict[str, Question] = {
    q.kind: q
    for q in (
        Question("deal", _deal, step="deal", report=_dealt),
        Question("plague-die", _lord_die, step="lord-die", report=_queued_die),
        Question("assassination", _lord_die, step="lord-die", report=_queued_die),
        Question("uprising", _hit_die, step="hit-die", report=_hit_rolls),
        Question("relic-die", _relic_die, step="relic-die", report=_relic_rolls),
        Question("stop-die", _stop_die, step="lord-die", report=_lord_rolls),
        _asked("consent", "marriage", fighting.answer_proposal),
        _asked("passage", "passage", movement.answer_passage),
        _asked("annul", "annulment", papacy.answer_annulment),
        _asked("diplomacy", "diplomacy", papacy.answer_diplomacy),
        Question("card", _card, subgame="card", legal=lambda s, top: list(papacy.card_answers(s))),
        Question("rally", _rally, subgame="rally", legal=lambda s, top: list(cards.rally_moves(s))),
        Question(
            "relic",
            _answer(lambda s, m: relics.answer_give(s, m.yes)),
            subgame="relic",
            legal=lambda s, top: [Answer(top.seat, yes) for yes in relics.give_answers(s)],
        ),
        _asked("teeth", "teeth", lambda s, m: relics.answer_teeth(s, m.yes)),
        _asked("stop-uprising", "uprising", lambda s, m: cards.answer_stop(s, m.seat, m.yes)),
        Question(
            "cancel",
            _answer(lambda s, m: cards.answer_cancel(s, m.seat, m.yes)),
            subgame="cancel",
            legal=lambda s, top: [Answer(top.seat, yes) for yes in cards.cancel_answers(s)],
        ),
        _asked("grant", "grant", lambda s, m: purchase.answer_grant(s, m.yes)),
        _asked("captive", "captive", lambda s, m: war.answer_captive(s, m.yes)),
        Question(
            "uprising-strike",
            _strike,
            step="strike",
            subgame="uprising",
            legal=lambda s, top: list(cards.strike_moves(s)),
        ),
        Question(
            "uprising-losses",
            _struck,
            step="losses",
            subgame="uprising",
            legal=lambda s, top: list(cards.struck_losses(s)),
        ),
        Question(
            "control", _control, subgame="control", legal=lambda s, top: handover.answer_moves(s)
        ),
        Question(
            "plague-losses",
            _plague,
            step="losses",
            subgame="plague",
            legal=lambda s, top: list(drawing.plague_losses(s)),
        ),
    )
}
"""Every kind of question a rule may push, by ``Pending.kind``."""
