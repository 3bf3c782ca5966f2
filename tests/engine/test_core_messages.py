"""The message catalog: every code the engine raises or prints has an English sentence."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from engine import get_game, present, selfplay
from engine.i18n import CatalogError, catalog, message

ENGINE = Path(__file__).resolve().parents[2] / "engine"
GAME = get_game("middle-ages")


def _literal_codes(folder: Path) -> set[str]:
    """Violation codes written as literals in the game's sources."""
    text = "\n".join(p.read_text() for p in folder.glob("*.py"))
    return set(re.findall(r'_v\(\s*"([a-z0-9-]+/[a-z0-9-]+)"', text))


def test_every_violation_code_of_middle_ages_has_a_message() -> None:
    codes = _literal_codes(ENGINE / "games" / "middle_ages")
    assert len(codes) > 40
    missing = sorted(c for c in codes if f"middle-ages:{c}" not in catalog())
    assert missing == []


def test_every_line_and_prompt_renders_in_random_games() -> None:
    """Rendering raises CatalogError for a missing code or placeholder."""
    rendered = 0
    for seed in range(12):
        seats = tuple(f"p{i}" for i in range(2 + seed % 4))

        def render(session, event):  # type: ignore[no-untyped-def]
            nonlocal rendered
            view = present.view(GAME, session.state, None)
            rendered += len(view["last_lines"]) + len(view["prompts"])
            for row in view["scores"]:
                rendered += len(row["lines"])

        assert not selfplay.play(GAME, seats, random.Random(seed), on_event=render).errors
    assert rendered > 1000


def test_generic_codes_have_messages() -> None:
    for code in ("game/over", "turn/not-your-turn", "undo/nothing", "undo/not-yours"):
        assert code in catalog()


def test_unknown_code_and_missing_parameter_are_errors_not_silent() -> None:
    with pytest.raises(CatalogError):
        message("no/such-code")
    with pytest.raises(CatalogError):
        message("undo/not-yours")


def test_a_language_without_a_catalog_falls_back_to_english_code_by_code() -> None:
    assert message("game/over", "de") == message("game/over")
    assert message("game/over", "pl") != message("game/over")  # Polish ships its own
