"""``herald rules france1429 data check --data SET``: whether a data set carries a game.

Through the real command line (click, reading real files), the game's key registered as in
``fr_registered``. Issue 12: a game that needs a missing value is refused naming each one; the
check lists the same refusals before anyone sits down to play.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fr_registered import registered

from bridge.cli import main
from engine.verbs import EXIT_FAULTY, EXIT_INPUT, EXIT_OK

DATA = Path(str(resources.files("engine.games.france1429").joinpath("data")))


@pytest.fixture(scope="module", autouse=True)
def game() -> Any:
    with registered() as g:
        yield g


def _herald(*args: str) -> Any:
    return CliRunner().invoke(main, ["rules", "france1429", *args])


def test_the_stand_in_carries_a_game() -> None:
    result = _herald("data", "check")
    assert result.exit_code == EXIT_OK, result.output
    assert "carry a whole game of 3 to 6 players" in result.output
    assert "invented stand-in" in result.output
    report = json.loads(_herald("data", "check", "--json").output)
    assert report["ok"] and report["refusals"] == [] and report["source"] == "stand-in"
    assert report["digest"].startswith("sha256:")


def test_the_box_is_refused_naming_each_missing_value() -> None:
    result = _herald("data", "check", "--data", "box")
    assert result.exit_code == EXIT_FAULTY
    assert "lords[lord-18].name" in result.output and "colours[5]" in result.output
    assert "villages[st-medard].bishopric" in result.output
    report = json.loads(_herald("data", "check", "--data", "box", "--json").output)
    refused = {r["params"]["what"] for r in report["refusals"]}
    assert {"villages", "roads", "colours[4]", "lords[lord-13].name"} <= refused
    shown = {r["params"]["what"] for r in report["unknown_shown"]}
    assert "cards[uprising].text" in shown and "dice.d6.supplied" in shown
    assert not refused & shown


def test_a_users_file_with_their_map_beside_it(tmp_path: Path) -> None:
    board = json.loads((DATA / "map-stand-in-invented.json").read_text(encoding="utf-8"))
    board["invented"] = False
    board["name"] = "our board"
    (tmp_path / "our-map.json").write_text(json.dumps(board), encoding="utf-8")
    mine = tmp_path / "ours.json"
    mine.write_text(json.dumps({"extends": "stand-in", "map": "our-map.json"}), encoding="utf-8")
    result = _herald("data", "check", "--data", str(mine), "--json")
    assert result.exit_code == EXIT_OK, result.output
    assert json.loads(result.output)["source"] == str(mine)
    board["roads"].append(["vaux", "vaux"])
    (tmp_path / "our-map.json").write_text(json.dumps(board), encoding="utf-8")
    result = _herald("data", "check", "--data", str(mine))
    assert result.exit_code == EXIT_FAULTY and "map/road-loop" in result.output
    (tmp_path / "our-map.json").write_text("{not json", encoding="utf-8")
    result = _herald("data", "check", "--data", str(mine))
    assert result.exit_code == EXIT_INPUT and "our-map.json" in result.output
