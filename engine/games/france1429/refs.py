"""Rule references and refusals of the game's rules (digest sections with both seeds' places)."""

from __future__ import annotations

from typing import Any

from engine.games.france1429.sources import GAME_KEY, ref
from engine.violations import RuleViolation, Violation

R = {
    "setup": ref("§4", "p.1-2 game setup", "PRZYGOTOWANIE GRY"),
    "round": ref("§5", "p.4 Round Overview", "PRZEBIEG GRY"),
    "marriage": ref("§10.1", "p.5 §1.1", "§1.1"),
    "election": ref("§10.2-10.6", "p.5-6 §1.3-1.8", "§1.3-1.8"),
    "pope": ref("§10.5", "p.6 §1.7", "§1.7"),
    "diplomacy": ref("§12.4", "p.16 §8.0", "§8.0"),
    "cavalcade": ref("§8.5", "p.12 §5.2", "§5.2"),
    "relics": ref("§12.2", "p.17 §11.1", "§11.1"),
    "draw": ref("§5 Phase 2", "p.7 §2.1-2.2", "§2.1-2.2"),
    "disaster": ref("§11.2", "p.8 §2.3", "§2.3"),
    "play": ref("§5 Phase 2 (c)", "p.8-9 §2.4", "§2.4"),
    "fortune": ref("§11.3", "p.9 §2.4.2-2.4.7", "§2.4.2-2.4.7"),
    "opportunity": ref("§11.4", "p.16 §10", "§10"),
    "lord-card": ref("§5 Phase 2, §11.1", "p.9 §2.4.1, p.15 §9", "§2.4.1, §9"),
    "income": ref("§6", "p.9 §3.0", "§3.0"),
    "purchase": ref("§7", "p.10 §4.0-4.4", "§4.0-4.4"),
    "ransom": ref("§7.6", "p.14 §6.2.4", "§6.2.5"),
    "title": ref("§7.4", "p.10 §4.3", "§4.3"),
    "cardinal": ref("§7.5, §10.4", "p.6 §1.5, p.11 §4.4", "§1.5, §4.4"),
    "movement": ref("§8.1", "p.11 §5.0", "§5.0"),
    "permission": ref("§8.2", "p.11 §5.0, FAQ Phase 5", "§5.0, FAQ"),
    "siege-move": ref("§8.3", "p.15 §6.4", "§6.4"),
    "control": ref("§8.4", "p.11 §5.1", "§5.1"),
    "battle": ref("§9.1", "p.12 §6.0", "§6.0"),
    "siege": ref("§9.6", "p.15 §6.4", "§6.4"),
    "pillage": ref("§9.8", "p.15 §6.5", "§6.5"),
    "victory": ref("§1.2", "p.15 §7.0-7.2", "§7.0-7.3"),
    "death": ref("§7.4, §10.4", "p.10 §4.3.1", "§4.3.1"),
}


def refusal(code: str, key: str, **params: Any) -> Violation:
    """A broken rule of this game: ``france1429:<code>`` in the catalog."""
    return Violation(code, R[key], params, GAME_KEY)


class Refused(RuleViolation):
    """A move the rules refuse; the state is untouched."""


def refuse(code: str, key: str, **params: Any) -> Refused:
    return Refused([refusal(code, key, **params)])
