"""Every Glory violation code and line code has an English sentence (catalog glory.json)."""

from __future__ import annotations

import re
from pathlib import Path

from engine.games.glory.components import ALLY_KINDS, PRESTIGE_KINDS, RELIC_KINDS
from engine.i18n import catalog

GLORY = Path(__file__).resolve().parents[3] / "engine" / "games" / "glory"


def test_every_violation_code_of_glory_has_a_message() -> None:
    text = "\n".join(p.read_text() for p in GLORY.glob("*.py"))
    codes = set(re.findall(r'_v\(\s*"([a-z0-9-]+/[a-z0-9-]+)"', text))
    codes |= set(re.findall(r'Violation\(\s*"([a-z0-9-]+/[a-z0-9-]+)"', text))
    assert len(codes) > 40
    assert sorted(c for c in codes if f"glory:{c}" not in catalog()) == []


def test_every_token_kind_has_a_name() -> None:
    for family, kinds in (
        ("ally", ALLY_KINDS),
        ("relic", RELIC_KINDS),
        ("prestige", PRESTIGE_KINDS),
    ):
        assert [k for k in kinds if f"glory:{family}/{k}" not in catalog()] == []
