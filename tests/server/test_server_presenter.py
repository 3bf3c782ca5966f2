"""The presenter renders what is read, once (issue 28): a state nobody reads in a language is not
rendered in it, a seat's view is not rendered while no phone reads it, and a payload read twice
is built once. The payloads themselves are the other server tests' business."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from srv_support import SEATS, Recorder, open_referee, play_moves

from engine import present


@pytest.fixture
def rendered(monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[bool, str]]:
    """Every view render, counted by (whether it held a seat's view, language)."""
    calls: Counter[tuple[bool, str]] = Counter()
    real = present.views

    def counted(game: Any, state: Any, seats: Any, lang: str = "en") -> Any:
        seats = tuple(seats)
        calls[(any(s is not None for s in seats), lang)] += 1
        return real(game, state, seats, lang)

    monkeypatch.setattr(present, "views", counted)
    return calls


def test_a_table_read_only_in_english_renders_only_the_public_view_in_english(
    tmp_path: Path, rendered: Counter[tuple[bool, str]]
) -> None:
    referee = open_referee(tmp_path / "s.db")
    recorder = Recorder()
    referee.attach(recorder)
    made = play_moves(referee, 12)
    assert made >= 8
    for update in recorder.updates:  # what the table display's room is sent
        assert update.change["state_id"] == update.state_id
    assert set(rendered) == {(False, "en")}
    # one render per state read (each patch's base is the state before, already rendered)
    assert rendered[(False, "en")] <= len(recorder.updates) + 1


def test_a_phone_in_polish_is_rendered_once_per_state_in_polish(
    tmp_path: Path, rendered: Counter[tuple[bool, str]]
) -> None:
    referee = open_referee(tmp_path / "s.db")
    recorder = Recorder()
    referee.attach(recorder)
    play_moves(referee, 6)
    latest = recorder.updates[-1]
    rendered.clear()
    polish = latest.in_lang("pl")
    first = polish.seats[SEATS[0]]["view"]
    again = latest.in_lang("pl").seats[SEATS[1]]["view"]
    assert first["you"] == SEATS[0] and again["you"] == SEATS[1]
    assert rendered == Counter({(True, "pl"): 1})  # every seat's view at once, kept
    assert polish.prompts[SEATS[0]]["state_id"] == latest.state_id
    assert latest.table["view"] == latest.in_lang("en").table["view"]
