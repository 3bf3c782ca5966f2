"""Golden playthrough: a seeded 3-player Middle Ages game, diffed against the checked-in file.

The transcript is a regression guard, not an oracle: the rules it applies are tested against the
rulebook in test_ma_examples.py and test_ma_referee_checks.py. When a rules change is intended,
regenerate with HERALD_UPDATE_GOLDEN=1 and read the diff before committing it.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

from bridge.transcript import transcript

GOLDEN = Path(__file__).parent / "golden" / "middle_ages_3p_seed7.txt"


def test_golden_playthrough_matches() -> None:
    text = transcript("middle-ages", ("blue", "green", "pink"), seed=7)
    if os.environ.get("HERALD_UPDATE_GOLDEN"):
        GOLDEN.write_text(text, encoding="utf-8")
    expected = GOLDEN.read_text(encoding="utf-8")
    diff = "".join(
        difflib.unified_diff(expected.splitlines(True), text.splitlines(True), "golden", "now")
    )
    assert not diff, diff
    assert "ERROR" not in text
