"""A question the camera asks the table (issue #25 point 2): one open at a time, sent once to
the table display and to the phone of the one seat who must answer, kept until answered or
resolved, never a toast and never to the other phones.

The camera asks only what it could not tell apart (``engine.interpret``: the rules have
already narrowed the change to the candidates that leave the table exactly as seen). A
question is a value: :class:`Question` holds the candidates as move sequences; what each page
is sent is built here, per language and per audience:

- the answering seat's phone gets every choice, labelled as its own prompt buttons are
  (``public=False``: a card in its own hand may be named);
- the table display gets the sentence, who answers, and the choices only when nobody but the
  host can answer (a table move such as a reveal: public); a seat's candidates may name cards
  in that seat's hand, so the table display says only how many there are.

The wire form is ``question`` in docs/protocol.md.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import codec
from engine.i18n import LANGUAGES, message

_IDS = itertools.count(1)

Labeller = Callable[[dict[str, Any], str, bool], str]
"""``label(encoded move, lang, public)``: a move's sentence (``bridge.labels.move_label``)."""


def next_id() -> int:
    """A question number no other question of this process had (the answer names it, so an
    answer to a question already closed is refused, never applied to a newer one)."""
    return next(_IDS)


@dataclass(frozen=True)
class Question:
    """What the camera asks, about the position ``state_id``.

    ``code`` is the catalog sentence (``camera/ambiguous``, ``camera/unsure``,
    ``camera/unexplained``); ``choices`` the move sequences it could not tell apart (none for
    a change no legal move explains: the pieces go back, or the move is made on the phone);
    ``seat`` who answers (None: the host, on the table display).
    """

    id: int
    code: str
    state_id: int
    session: int
    seat: str | None
    choices: tuple[tuple[Any, ...], ...]
    params: dict[str, Any]

    def same_as(self, other: Question | None) -> bool:
        """Whether ``other`` asks the same thing (sent once: a re-read of the same picture, or
        the same change seen again, asks nothing new)."""
        return other is not None and (
            self.code,
            self.state_id,
            self.session,
            self.seat,
            self.choices,
        ) == (other.code, other.state_id, other.session, other.seat, other.choices)

    def may_answer(self, role: str, seat: str | None) -> bool:
        """The asked seat answers; the host may answer any question (the table display on the
        host's screen); nobody else."""
        return role == "host" or (role == "seat" and seat is not None and seat == self.seat)

    def payload(self, lang: str, label: Labeller, audience: str) -> dict[str, Any]:
        """The ``question`` event for one page: ``audience`` is ``table`` or ``seat``."""
        listed = audience == "seat" or self.seat is None
        choices = [
            {"index": i, "labels": [label(codec.encode(m), lang, audience == "table") for m in seq]}
            for i, seq in enumerate(self.choices)
        ]
        return {
            "open": True,
            "id": self.id,
            "source": "camera",
            "code": self.code,
            "message": message(self.code, lang, **self.params),
            "params": self.params,
            "state_id": self.state_id,
            "session": self.session,
            "seat": self.seat,
            "count": len(self.choices),
            "choices": choices if listed else [],
            "answerable": audience == "seat" or self.seat is None,
        }

    def langs(self, label: Labeller, audience: str) -> dict[str, dict[str, Any]]:
        """The payload in every shipped language (``Notice.langs``)."""
        return {lang: self.payload(lang, label, audience) for lang in LANGUAGES}


def closed(question: Question, why: str) -> dict[str, Any]:
    """The ``question`` event that takes the panel away: ``why`` is ``answered`` (a choice was
    made), ``resolved`` (the position changed another way, or the table shows it again) or
    ``replaced`` (another question about a newer picture)."""
    return {"open": False, "id": question.id, "why": why, "state_id": question.state_id,
            "session": question.session, "seat": question.seat}  # fmt: skip


__all__ = ["Labeller", "Question", "closed", "next_id"]
