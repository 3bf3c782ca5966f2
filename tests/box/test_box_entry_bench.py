"""``python -m bench.box_entry`` (issue #24, "Aim"): the one entry benchmark runs for every game
with a box to enter and counts real work for each part. Counts only: no time is asserted (the
minutes are a model's, reported in docs/boxes.md)."""

from __future__ import annotations

import json

import pytest

from bench.box_entry import THINK_S, Part, minutes
from bench.box_entry.run import games_with_data, main, measure
from engine import registry
from engine.capabilities import EFFECT_VOCABULARY, capability

from .entry_by_hand import BY_HAND_MIN
from .entry_france1429 import entry as france_entry


def test_all_reports_every_game_with_a_box_and_positive_counts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--all", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    games = {g["game"]: g for g in out["games"]}
    assert set(games) == set(games_with_data()) >= {"france1429", "glory", "viscounts"}
    for key, g in games.items():
        assert g["parts"], key
        for part in g["parts"]:
            assert part["clicks"] > 0 and part["keystrokes"] > 0 and part["look_ups"] > 0, part
        for field in ("clicks", "keystrokes", "look_ups"):
            assert g["total"][field] == sum(p[field] for p in g["parts"])
        covers = [c for p in g["parts"] for c in p["covers"]]
        assert len(covers) == len(set(covers)), f"{key}: a component counted twice"
        assert g["by_hand_minutes"] == list(BY_HAND_MIN[key])


def test_each_kind_of_entry_is_counted_where_the_game_offers_it() -> None:
    """A traced board for the game whose tracing a browser test scripts, the picker for a game
    whose effects are a vocabulary, the form for the rest of every game's data."""
    for key in games_with_data():
        kinds = [p["kind"] for p in measure(key)["parts"]]
        picker = capability(registry.get_game(key), EFFECT_VOCABULARY) is not None
        assert ("picker" in kinds) == picker, key
        assert kinds[-1] == "forms", key
    assert [p["kind"] for p in measure("france1429")["parts"]] == ["trace", "forms"]


def test_the_traced_part_is_the_tested_script_scaled_to_the_largest_map() -> None:
    found, _ = france_entry()
    trace = measure("france1429")["parts"][0]
    largest = found["largest_map"]
    assert (trace["clicks"], trace["keystrokes"]) == (largest["clicks"], largest["keystrokes"])
    assert trace["look_ups"] == 32 + 90 + 8  # a look-up per Village, road and Fief (digest §3.1)
    assert trace["covers"] == ["map"]


def test_one_time_model_prices_every_part() -> None:
    part = Part("forms", "x", entries=2, clicks=10, keystrokes=100, look_ups=2)
    assert part.minutes == minutes(10, 100, 2)
    assert minutes(0, 0, 60) == pytest.approx(THINK_S)


def test_an_unknown_game_or_one_without_a_box_is_refused_with_a_sentence(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["no-such-game"]) == 2
    assert "no game 'no-such-game'" in capsys.readouterr().err
    without = [k for k in registry.game_keys() if k not in games_with_data()]
    assert without, "a game with no box to enter is needed for this test"
    assert main([without[0]]) == 2
    assert "has no box to enter" in capsys.readouterr().err
