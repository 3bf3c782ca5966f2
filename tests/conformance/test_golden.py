"""Golden playthroughs (OpenSpiel's practice): every registered game ships at least one
readable transcript of a seeded game in its package's ``golden/`` folder, diffed here.

A transcript is a regression guard, not an oracle: each game's rules are tested against its
rulebook elsewhere. When a change of outcome is intended, regenerate with
``HERALD_UPDATE_GOLDEN=1`` and read the diff before committing it.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from bridge.transcript import parse_header, transcript
from engine import registry


@pytest.mark.parametrize("key", registry.game_keys())
def test_every_game_replays_its_golden_playthroughs(key: str) -> None:
    folder = Path(str(registry.package_files(key))) / "golden"
    files = sorted(folder.glob("*.txt")) if folder.is_dir() else []
    assert files, f"{key} ships no golden playthrough in {folder}"
    for file in files:
        expected = file.read_text(encoding="utf-8")
        seats, seed, options = parse_header(expected)
        text = transcript(key, seats, seed, options)
        if os.environ.get("HERALD_UPDATE_GOLDEN"):
            file.write_text(text, encoding="utf-8")
            expected = text
        diff = "".join(
            difflib.unified_diff(expected.splitlines(True), text.splitlines(True), "golden", "now")
        )
        assert not diff, f"{file}:\\n{diff}"
        assert "ERROR" not in text
