"""Errors a referee can show a player: stable code, rulebook reference, catalog sentence.

Two kinds, after python-chess: ``InputError`` when the input cannot even be read as a state or a
move of this game (it breaks the schema), ``RuleViolation`` when it reads fine but the rules
forbid it. Both carry ``Violation`` records so a whole observed position can report every fault.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.i18n import DEFAULT_LANG, has_message, message
from engine.refs import readable


@dataclass(frozen=True)
class Violation:
    """One broken rule.

    ``code`` is stable and namespaced (``"move/occupied-space"``); ``game`` scopes it (empty for
    checks shared by every game); ``ref`` points at the rulebook digest section and seed lines.
    """

    code: str
    ref: str
    params: dict[str, Any] = field(default_factory=dict)
    game: str = ""

    @property
    def catalog_key(self) -> str:
        scoped = f"{self.game}:{self.code}"
        return scoped if self.game and has_message(scoped) else self.code

    def text(self, lang: str = DEFAULT_LANG) -> str:
        """The sentence a player reads, from the message catalog."""
        return message(self.catalog_key, lang, **self.params)

    def to_json(self, lang: str = DEFAULT_LANG) -> dict[str, Any]:
        return {
            "code": self.code,
            "game": self.game,
            "ref": self.ref,
            "where": readable(self.ref),
            "params": self.params,
            "message": self.text(lang),
        }


class RuleViolation(ValueError):
    """A well-formed move or position that the rules forbid; carries every violation found."""

    def __init__(self, violations: list[Violation] | Violation) -> None:
        self.violations = [violations] if isinstance(violations, Violation) else list(violations)
        if not self.violations:
            raise ValueError("RuleViolation needs at least one violation")
        super().__init__("; ".join(f"{v.code}: {v.text()}" for v in self.violations))

    @property
    def code(self) -> str:
        return self.violations[0].code


class InputError(ValueError):
    """Input that is not a valid state, move or log of the game (schema or type error)."""

    def __init__(self, code: str, detail: str, path: str = "") -> None:
        self.code = code
        self.detail = detail
        self.path = path
        where = f" at {path}" if path else ""
        super().__init__(f"{code}{where}: {detail}")
