"""Errors a referee can show a player: stable code, rulebook reference, parameters.

A violation is data: the sentence a player reads is the message catalog's rendering of it
(``engine.i18n.violation_text`` and ``violation_json``), so the rules that find a fault never
depend on the catalog (nor the catalog, through the registry, on the rules). Two kinds, after
python-chess: ``InputError`` when the input cannot even be read as a state or a move of this
game (it breaks the schema), ``RuleViolation`` when it reads fine but the rules forbid it. Both
carry ``Violation`` records so a whole observed position can report every fault.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Violation:
    """One broken rule.

    ``code`` is stable and namespaced (``"move/occupied-space"``); ``game`` scopes it (empty for
    checks shared by every game); ``ref`` points at the rulebook digest section and seed lines;
    ``params`` fill the catalog's sentence (``engine.i18n.violation_text``).
    """

    code: str
    ref: str
    params: dict[str, Any] = field(default_factory=dict)
    game: str = ""


class RuleViolation(ValueError):
    """A well-formed move or position that the rules forbid; carries every violation found.

    Its ``str`` names the codes and parameters only (for logs and tracebacks); what a person
    reads is ``engine.i18n.violations_text(exc.violations, lang)``.
    """

    def __init__(self, violations: list[Violation] | Violation) -> None:
        self.violations = [violations] if isinstance(violations, Violation) else list(violations)
        if not self.violations:
            raise ValueError("RuleViolation needs at least one violation")
        super().__init__(
            "; ".join(f"{v.code} {v.params}" if v.params else v.code for v in self.violations)
        )

    @property
    def code(self) -> str:
        return self.violations[0].code


class InputError(ValueError):
    """Input that is not a valid state, move or log of the game (schema or type error).

    ``faults`` lists every fault found, each ``(path, detail)``, when a check found more than
    one (a data file checked whole): a person fixes them all in one pass, not one per try.
    """

    def __init__(
        self, code: str, detail: str, path: str = "", faults: tuple[tuple[str, str], ...] = ()
    ) -> None:
        self.code = code
        self.detail = detail
        self.path = path
        self.faults = faults or ((path, detail),)
        where = f" at {path}" if path else ""
        super().__init__(f"{code}{where}: {detail}")
