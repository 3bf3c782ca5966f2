"""``herald rules --lang pl GAME …`` prints the game's sentences in Polish (issue 15, point 9),
and a violation's rule as its section, never the stored file's id (point 4)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from bridge.cli.rules import rules


def test_score_in_polish(tmp_path: Path) -> None:
    runner = CliRunner()
    made = runner.invoke(rules, ["middle-ages", "new", "red", "blue", "--seed", "3"])
    assert made.exit_code == 0, made.output
    state = tmp_path / "s.json"
    state.write_text(made.stdout)
    english = runner.invoke(rules, ["middle-ages", "score", str(state)])
    polish = runner.invoke(rules, ["--lang", "pl", "middle-ages", "score", str(state)])
    assert english.exit_code == polish.exit_code == 0
    assert "Coins" in english.output and "Monety" in polish.output


def test_a_refused_move_names_its_rule_section_not_a_file(tmp_path: Path) -> None:
    runner = CliRunner()
    made = runner.invoke(rules, ["middle-ages", "new", "red", "blue", "--seed", "3"])
    state = tmp_path / "s.json"
    state.write_text(made.stdout)
    move = tmp_path / "m.json"
    move.write_text(json.dumps({"kind": "place", "seat": "blue", "slot": 5}))
    checked = runner.invoke(rules, ["--lang", "pl", "middle-ages", "check", str(state), str(move)])
    assert checked.exit_code != 0
    assert "§" in checked.output and ".txt:" not in checked.output
