"""`herald rules GAME …`: the offline calculator's contract (docs/cli.md).

Exit codes: 0 fine, 1 illegal move or log, 2 input that breaks the schema or is not JSON,
3 a faulty position.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from bridge.cli import main
from engine import codec, get_game, rules, selfplay
from engine import data as gamedata
from engine.games.middle_ages.moves import MoveLord

GAME = get_game("middle-ages")


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["rules", "middle-ages", *args])
    return result.exit_code, result.output


@pytest.fixture
def finished(tmp_path: Path) -> tuple[Path, selfplay.GameResult]:
    result = selfplay.play(GAME, ("blue", "green", "pink"), random.Random(4))
    path = tmp_path / "final.json"
    path.write_text(json.dumps(codec.encode(result.session.state)))
    return path, result


def _mid_turn_state(tmp_path: Path) -> tuple[Path, object]:
    rng = random.Random(9)
    state = gamedata.setup(GAME, ("blue", "green"), {})
    while state.phase != "turn":
        move = GAME.sample_chance(state, rng) or GAME.legal_moves(state)[0]
        state = rules.apply(GAME, state, move)
    path = tmp_path / "state.json"
    path.write_text(json.dumps(codec.encode(state)))
    return path, state


def test_schema_prints_the_games_json_schema() -> None:
    code, out = run("schema")
    assert code == 0
    assert json.loads(out) == rules.schema(GAME)


def test_unknown_game_is_a_clear_error() -> None:
    result = CliRunner().invoke(main, ["rules", "chess", "schema"])
    assert result.exit_code == 2
    assert "unknown game 'chess'" in result.output


def test_check_reports_legal_and_every_violation(tmp_path: Path) -> None:
    path, state = _mid_turn_state(tmp_path)
    seat = GAME.to_act(state)[0]
    good = tmp_path / "good.json"
    good.write_text(json.dumps(codec.encode(GAME.legal_moves(state)[0])))
    code, out = run("check", str(path), str(good))
    assert code == 0 and "legal" in out
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(codec.encode(MoveLord(seat, None))))
    code, out = run("check", str(path), str(bad), "--json")
    assert code == 1
    report = json.loads(out)
    assert report["legal"] is False
    assert [v["code"] for v in report["violations"]] == ["lord/must-move"]
    assert report["violations"][0]["ref"].startswith("rules/fief_tiles.md")


def test_check_without_a_move_checks_the_whole_position(tmp_path: Path) -> None:
    path, _ = _mid_turn_state(tmp_path)
    assert run("check", str(path))[0] == 0
    data = json.loads(path.read_text())
    data["players"][0]["coins"] = -5
    data["special_coins_left"] = 3
    path.write_text(json.dumps(data))
    code, out = run("check", str(path), "--json")
    codes = {v["code"] for v in json.loads(out)["violations"]}
    assert code == 3  # a faulty position, not an illegal move
    assert {"position/negative-coins", "position/coin-tokens"} <= codes


@pytest.mark.parametrize(
    ("content", "needle"),
    [("{not json", "is not JSON"), ('{"players": 3}', "not a valid middle-ages state")],
)
def test_input_that_breaks_the_schema_exits_2(tmp_path: Path, content: str, needle: str) -> None:
    path = tmp_path / "broken.json"
    path.write_text(content)
    code, out = run("score", str(path))
    assert code == 2
    assert needle in out


def test_missing_file_exits_2(tmp_path: Path) -> None:
    code, out = run("score", str(tmp_path / "nope.json"))
    assert code == 2 and "cannot read" in out


def test_score_json_matches_the_engine(finished: tuple[Path, selfplay.GameResult]) -> None:
    path, result = finished
    code, out = run("score", str(path), "--json")
    assert code == 0
    data = json.loads(out)
    state = result.session.state
    assert data["over"] is True
    assert data["winners"] == list(GAME.winners(state))
    for row in data["scores"]:
        p = state.player(row["seat"])
        empty = sum(1 for column in p.board if not column)
        assert row["total"] == p.coins - 10 * empty


def test_score_table_is_readable(finished: tuple[Path, selfplay.GameResult]) -> None:
    path, _ = finished
    code, out = run("score", str(path))
    assert code == 0
    assert "Empty estates" in out and "winner" in out


def test_income_itemises_the_last_turn(finished: tuple[Path, selfplay.GameResult]) -> None:
    path, result = finished
    code, out = run("income", str(path), "--seat", "green", "--json")
    assert code == 0
    data = json.loads(out)
    lines = result.session.state.player("green").last_turn
    assert data["total"] == sum(line.amount for line in lines)
    assert any(line["code"] == "line/income" for line in data["lines"])
    assert all(line["ref"].startswith("rules/fief_tiles.md") for line in data["lines"])
    assert run("income", str(path), "--seat", "mauve")[0] == 2


def _write_log(path: Path, result: selfplay.GameResult) -> None:
    lines = [json.dumps(result.session.header.to_json())]
    lines += [json.dumps(e.to_json()) for e in result.events]
    path.write_text("\n".join(lines) + "\n")


def test_replay_rebuilds_the_final_state(tmp_path: Path, finished) -> None:  # type: ignore[no-untyped-def]
    _, result = finished
    log_path = tmp_path / "game.jsonl"
    _write_log(log_path, result)
    code, out = run("replay", str(log_path), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["state"] == codec.encode(result.session.state)
    assert data["state_id"] == result.session.state_id


def test_replay_names_the_bad_line(tmp_path: Path, finished) -> None:  # type: ignore[no-untyped-def]
    _, result = finished
    log_path = tmp_path / "game.jsonl"
    _write_log(log_path, result)
    lines = log_path.read_text().splitlines()
    lines[20] = '{"kind": "move", "move": {"kind": "lord"}}'
    log_path.write_text("\n".join(lines))
    code, out = run("replay", str(log_path))
    assert code == 2 and "game.jsonl:21" in out
    lines[20] = json.dumps({"kind": "move", "move": codec.encode(MoveLord("blue", 1))})
    log_path.write_text("\n".join(lines))
    code, out = run("replay", str(log_path))
    assert code == 1 and "illegal event" in out


def test_selfplay_json_contract() -> None:
    code, out = run("selfplay", "--games", "12", "--seed", "1", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"games", "errors", "moves", "games_per_s", "by_players"}
    assert data["games"] == 12 and data["errors"] == 0 and data["moves"] > 12 * 16
    # each player count's share, so one count's errors cannot hide among the others
    rows = data["by_players"]
    assert len(rows) > 1 and all(int(n) >= 1 for n in rows)
    assert sum(r["games"] for r in rows.values()) == 12
    assert sum(r["moves"] for r in rows.values()) == data["moves"]
    assert all(r["errors"] == 0 for r in rows.values())


def test_selfplay_is_reproducible_from_its_seed() -> None:
    a = json.loads(run("selfplay", "--games", "3", "--seed", "5", "--players", "4", "--json")[1])
    b = json.loads(run("selfplay", "--games", "3", "--seed", "5", "--players", "4", "--json")[1])
    assert a["moves"] == b["moves"]
    assert run("selfplay", "--players", "6")[0] == 2


def test_console_script_is_installed() -> None:
    """The `herald` entry point from pyproject runs (as a user types it)."""
    exe = Path(sys.executable).with_name("herald")
    out = subprocess.run([str(exe), "rules", "middle-ages", "new", "a", "b"],
                         capture_output=True, text=True, check=True)  # fmt: skip
    state = rules.decode_state(GAME, json.loads(out.stdout))
    assert state.seats == ("a", "b")
