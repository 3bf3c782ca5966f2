"""`herald rules glory …` as a whole game (docs/cli.md, docs/glory.md): the same verbs as every
game (schema, new, check, income, score, replay, selfplay) beside `duel`; a game whose data
lacks values it needs is refused, naming each (issue #6)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from bridge.cli import main
from engine import codec, get_game, selfplay
from engine import data as gamedata
from engine.games.glory.data_file import dump_data

GAME = get_game("glory")


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["rules", "glory", *args])
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def finished() -> selfplay.GameResult:
    setup = selfplay.setups(GAME, 3)[1]  # 3 players, Pas d'armes
    return selfplay.play(GAME, ("a", "b", "c"), random.Random(5), setup.options)


def test_new_with_the_box_data_is_refused_naming_each_missing_value():
    code, out = run("new", "white", "red")
    assert code == 2
    assert "cannot start glory with data 'box'" in out
    assert "titles[silny].glory — needed to score the Title" in out
    assert "knights[Zawisza Czarny].attack" in out
    assert "where: Printed on each Title card" in out
    assert "-o data=stand-in" in out
    assert out.count("•") > 100


def test_new_with_the_stand_in_data_and_the_options():
    code, out = run("new", "white", "red", "-o", "data=stand-in")
    assert code == 0, out
    state = json.loads(out)
    assert state["phase"] == "setup" and state["options"]["tournament"] == "joust"
    code, out = run("new", "a", "b", "c", "-o", "data=stand-in", "-o", "tournament=pas-d-armes",
                    "--seed", "3")  # fmt: skip
    assert code == 0, out
    state = json.loads(out)
    assert state["phase"] == "characters" and state["tournament"]["type"] == "pas-d-armes"
    assert all(len(p["offered"]) == 3 for p in state["players"])


def test_new_refuses_a_bad_option_and_a_wrong_player_count():
    code, out = run("new", "a", "b", "-o", "data=stand-in", "-o", "tournament=melee")
    assert code == 2 and "tournament is one of joust, pas-d-armes" in out
    code, out = run("new", "a", "b", "c", "d", "e", "-o", "data=stand-in")
    assert code == 2 and "1-4 players" in out
    code, out = run("new", "a", "b", "-o", "nonsense")
    assert code == 2 and "NAME=VALUE" in out


def test_new_reads_a_data_file(tmp_path: Path):
    path = tmp_path / "my-box.json"
    stand_in = gamedata.load(GAME, {"data": "stand-in"})
    assert stand_in is not None
    path.write_text(json.dumps(dump_data(stand_in.value.data)), encoding="utf-8")
    code, out = run("new", "a", "b", "--data", str(path))
    assert code == 0, out
    assert json.loads(out)["options"]["data"] == str(path.resolve())
    partial = tmp_path / "partial.json"
    doc = {"extends": "box", "name": "mine", "titles": [{"id": "silny", "glory": 6}]}
    partial.write_text(json.dumps(doc), encoding="utf-8")
    code, out = run("new", "a", "b", "--data", str(partial))
    assert code == 2 and "cannot start glory with data" in out
    assert "titles[silny].glory" not in out and "titles[dworny].glory" in out


def test_check_a_legal_and_an_illegal_move(tmp_path: Path):
    code, out = run("new", "a", "b", "-o", "data=stand-in", "--seed", "3")
    state = tmp_path / "state.json"
    state.write_text(out, encoding="utf-8")
    offered = json.loads(out)["players"][0]["offered"]
    legal = tmp_path / "legal.json"
    legal.write_text(json.dumps({"kind": "character", "seat": "a", "character": offered[0]}))
    code, out = run("check", str(state), str(legal))
    assert code == 0 and "legal" in out
    illegal = tmp_path / "illegal.json"
    illegal.write_text(json.dumps({"kind": "character", "seat": "a", "character": "nobody"}))
    code, out = run("check", str(state), str(illegal), "--json")
    assert code == 1
    data = json.loads(out)
    assert not data["legal"]
    assert [v["code"] for v in data["violations"]] == ["setup/character-not-offered"]
    assert data["violations"][0]["ref"].startswith("rules/glory.md §3.2")
    code, out = run("check", str(state))
    assert code == 0 and "position breaks no rule" in out


def test_score_income_and_check_of_a_finished_game(tmp_path: Path, finished):
    path = tmp_path / "final.json"
    path.write_text(json.dumps(codec.encode(finished.session.state)), encoding="utf-8")
    code, out = run("score", str(path), "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["over"] and set(data["winners"]) <= {"a", "b", "c"}
    for row in data["scores"]:
        assert row["total"] == sum(line["amount"] for line in row["lines"])
        assert all(
            line["text"] and line["ref"].startswith("rules/glory.md") for line in row["lines"]
        )
    code, out = run("score", str(path))
    assert code == 0 and "winner" in out
    code, out = run("income", str(path), "--seat", "a", "--json")
    assert code == 0
    lines = json.loads(out)["lines"]
    assert {line["code"] for line in lines} >= {"income/coins"}
    assert run("income", str(path), "--seat", "zz")[0] == 2
    assert run("check", str(path))[0] == 0


def test_replay_a_log(tmp_path: Path, finished):
    path = tmp_path / "game.jsonl"
    lines = [json.dumps(finished.session.header.to_json())]
    lines += [json.dumps(e.to_json()) for e in finished.events]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out = run("replay", str(path), "--json")
    assert code == 0, out[:500]
    data = json.loads(out)
    assert data["state_id"] == len(finished.events) and data["over"]
    assert data["state"] == codec.encode(finished.session.state)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([lines[0], lines[2], lines[1]]) + "\n", encoding="utf-8")
    code, out = run("replay", str(bad))
    assert code == 1 and "illegal event at" in out


def test_selfplay_plays_the_simulated_setups():
    code, out = run("selfplay", "--games", "3", "--seed", "2", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["games"] == 3 and data["errors"] == 0 and data["moves"] > 300
    code, out = run("selfplay", "--games", "1", "--players", "2", "-o", "tournament=pas-d-armes")
    assert code == 0 and "0 errors" in out
    code, out = run("selfplay", "--games", "1", "-o", "data=box", "--json")
    assert code == 2 and "missing" in out


def test_schema_covers_the_whole_game():
    code, out = run("schema")
    assert code == 0
    schema = json.loads(out)
    assert schema["x-state"] == "#/$defs/GloryState"
    props = [d.get("properties", {}) for d in schema["$defs"].values()]
    kinds = {p["kind"]["const"] for p in props if "const" in p.get("kind", {})}
    assert {"setup", "place", "quest", "register", "duel", "try-title"} <= kinds
