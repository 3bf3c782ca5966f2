"""Rule references and refusals of Viscounts' rules (digest sections with the seed's lines)."""

from __future__ import annotations

from typing import Any

from engine.games.viscounts.sources import GAME_KEY, ref
from engine.violations import RuleViolation, Violation

R = {
    "components": ref("§2", "L20-99"),
    "setup": ref("§3", "L102-203"),
    "turn": ref("§4", "L297-313"),
    "play": ref("§4 phase 1", "L318-353"),
    "move": ref("§4 phase 2", "L358-392"),
    "action": ref("§4 phase 3", "L399-426"),
    "dismiss": ref("§4 phase 3", "L413-426"),
    "trade": ref("§5.1", "L431-465"),
    "build": ref("§5.2", "L471-531"),
    "workers": ref("§5.3", "L534-607"),
    "transcribe": ref("§5.4", "L633-662"),
    "hire": ref("§4 phase 4", "L665-674"),
    "glossary": ref("§6 effect glossary", "L1022-1096"),
    "end": ref("§1, §7", "L726-778"),
    "solo": ref("§8", "L811-1015"),
}


def refusal(code: str, key: str, **params: Any) -> Violation:
    """A broken rule of this game: ``viscounts:<code>`` in the catalog."""
    return Violation(code, R[key], params, GAME_KEY)


class Refused(RuleViolation):
    """A move the rules refuse; the state is untouched."""


def refuse(code: str, key: str, **params: Any) -> Refused:
    return Refused([refusal(code, key, **params)])
