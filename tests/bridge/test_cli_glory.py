"""`herald rules glory duel DUEL.json` (docs/glory.md): exit 0 resolved, 1 refused, 2 bad input."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from bridge.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "glory-duel-example.json"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["rules", "glory", *args])
    return result.exit_code, result.output


def test_the_rulebook_example_prints_each_pass_itemised() -> None:
    code, out = run("duel", str(EXAMPLE))
    assert code == 0, out
    assert "Pass 1" in out and "Pass 2" in out
    assert "Attack tied: white wins the pass on Prestige." in out
    assert "white wins the duel 2-0." in out
    assert "+7 Glory" in out


def test_json_output_has_the_attack_of_each_pass() -> None:
    code, out = run("duel", str(EXAMPLE), "--json")
    assert code == 0
    data = json.loads(out)
    assert [[a["total"] for a in p["attacks"]] for p in data["passes"]] == [[10, 10], [12, 11]]
    assert data["final"]["white"]["glory"] == 31
    assert all(
        line["ref"].startswith("rules/glory.md")
        for p in data["passes"]
        for a in p["attacks"]
        for line in a["lines"]
    )


def test_a_knight_without_statistics_is_refused_naming_the_value(tmp_path: Path) -> None:
    white = json.loads(EXAMPLE.read_text())["sides"][0]
    duel = {
        "context": "pas-d-armes",
        "sides": [white, {"kind": "knight", "name": "Zawisza Czarny"}],
    }
    path = tmp_path / "duel.json"
    path.write_text(json.dumps(duel))
    code, out = run("duel", str(path))
    assert code == 2
    assert "data/missing" in out and "Zawisza Czarny" in out


def test_an_illegal_choice_exits_1(tmp_path: Path) -> None:
    duel = json.loads(EXAMPLE.read_text())
    duel["passes"][0]["strength"]["white"] = 5
    path = tmp_path / "duel.json"
    path.write_text(json.dumps(duel))
    code, out = run("duel", str(path))
    assert code == 1
    assert "strength/over-four" in out


def test_a_malformed_file_names_the_json_path(tmp_path: Path) -> None:
    path = tmp_path / "duel.json"
    path.write_text(json.dumps({"context": "joust", "sides": [{"kind": "player"}, {}]}))
    code, out = run("duel", str(path))
    assert code == 2 and "$.sides" in out


def test_duel_is_a_glory_command_beside_the_calculator_verbs() -> None:
    code, out = run("schema")
    assert code == 0 and "GloryState" in json.loads(out)["$defs"]
    code, out = run("duel", "--schema")
    assert code == 0 and "DuelScript" in json.loads(out)["$defs"]
    result = CliRunner().invoke(main, ["rules", "middle-ages", "duel", str(EXAMPLE)])
    assert result.exit_code == 2


def test_the_duel_file_documented_in_docs_glory_md_resolves(tmp_path: Path) -> None:
    doc = (EXAMPLE.parents[1] / "glory.md").read_text()
    block = doc.split("```json\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "duel.json"
    path.write_text(block)
    code, out = run("duel", str(path), "--json")
    assert code == 0, out
    data = json.loads(out)
    assert [[a["total"] for a in p["attacks"]] for p in data["passes"]] == [
        [11, 11],
        [12, 9],
        [12, 10],
    ]
    assert [p["winner"] for p in data["passes"]] == ["Zawisza Czarny", "white", "white"]
    assert data["final"]["white"]["glory"] == 24 - 1 + 6
