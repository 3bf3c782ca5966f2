"""Positions a person can write (issue 27), through the real ``herald rules`` command line.

A state names its data set by name and digest instead of holding the 33 KB document; ``new
--at STEP`` sets a position up in one call; ``check STATE`` finds a faulty position; a
malformed move names what is wrong; ``apply`` prints the failing move whole. The data
reference and the move messages are generic (engine.data, engine.rules): Viscounts is the
game whose state holds its data, Middle Ages shows the move messages of another game.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from visc_registered import registered

from bridge.cli import main
from engine import data as gamedata
from engine import registry, rules
from engine.verbs import EXIT_FAULTY, EXIT_ILLEGAL, EXIT_INPUT, EXIT_OK
from engine.violations import InputError


@pytest.fixture(scope="module", autouse=True)
def game() -> Iterator[Any]:
    with registered() as g:
        yield g


def _herald(*args: str, key: str = "viscounts") -> Any:
    return CliRunner().invoke(main, ["rules", key, *args])


def _first_turn(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    made = _herald("new", "ann", "bob", "--seed", "3", "--at", "play")
    assert made.exit_code == EXIT_OK, made.output
    path = tmp_path / "turn.json"
    path.write_text(made.stdout)
    return path, json.loads(made.stdout)


def test_new_at_play_is_a_first_turn_naming_its_data_set(game: Any, tmp_path: Path) -> None:
    path, state = _first_turn(tmp_path)
    loaded = gamedata.load(game, {"data": "stand-in"})
    assert loaded is not None
    assert state["doc"] == {"set": "stand-in", "digest": loaded.digest}
    assert len(path.read_text()) < 6000  # the document itself is about 33 KB
    decoded = rules.decode_state(game, state)
    assert game.position(decoded).active == "play"
    assert decoded.doc == loaded.value.doc
    # --embed holds the document, and both forms are the same position
    embedded = json.loads(_herald("new", "ann", "bob", "--seed", "3", "--at", "play",
                                  "--embed").stdout)  # fmt: skip
    assert embedded["doc"] == loaded.value.doc
    assert rules.decode_state(game, embedded) == decoded


def test_apply_keeps_the_reference_and_check_reads_it(tmp_path: Path) -> None:
    path, state = _first_turn(tmp_path)
    seat = state["players"][state["first"]]["seat"]
    card = state["players"][state["first"]]["hand"][0]
    done = _herald("apply", str(path), json.dumps({"kind": "play", "seat": seat, "card": card}))
    assert done.exit_code == EXIT_OK, done.output
    assert json.loads(done.stdout)["doc"] == state["doc"]
    assert _herald("check", str(path)).exit_code == EXIT_OK


def test_a_reference_to_other_data_is_refused_naming_both_digests(tmp_path: Path) -> None:
    path, state = _first_turn(tmp_path)
    state["doc"]["digest"] = "sha256:" + "0" * 64
    path.write_text(json.dumps(state))
    result = _herald("check", str(path))
    assert result.exit_code == EXIT_INPUT
    assert "$.doc.digest" in result.output and "0" * 64 in result.output
    assert state["doc"]["set"] in result.output
    state["doc"] = {"set": "no-such-set"}
    path.write_text(json.dumps(state))
    result = _herald("check", str(path))
    assert result.exit_code == EXIT_INPUT and "$.doc.set" in result.output


def test_new_at_an_unknown_step_lists_the_steps() -> None:
    result = _herald("new", "ann", "bob", "--at", "lunch")
    assert result.exit_code == EXIT_INPUT
    assert "lunch" in result.output and "pairs, play, move, action, hire" in result.output


def test_check_finds_25_workers_in_a_pool(tmp_path: Path) -> None:
    path, state = _first_turn(tmp_path)
    state["players"][0]["pool"] = 25
    path.write_text(json.dumps(state))
    result = _herald("check", str(path))
    assert result.exit_code == EXIT_FAULTY
    assert "position/workers" in result.output and "25" in result.output
    # apply refuses a faulty position before any move
    assert _herald("apply", str(path), '{"kind": "skip", "seat": "ann"}').exit_code == EXIT_FAULTY


def test_a_malformed_move_names_the_missing_field(tmp_path: Path) -> None:
    path, state = _first_turn(tmp_path)
    seat = state["players"][state["first"]]["seat"]
    result = _herald("apply", str(path), json.dumps({"kind": "play", "seat": seat}))
    assert result.exit_code == EXIT_INPUT
    assert "'card' is a required property" in result.output
    assert "not valid under any of the given schemas" not in result.output
    result = _herald("apply", str(path), json.dumps({"seat": seat}))
    assert result.exit_code == EXIT_INPUT
    assert "has no 'kind'" in result.output and "pick-pair, play" in result.output
    result = _herald("check", str(path), json.dumps({"kind": "fly", "seat": seat}))
    assert result.exit_code == EXIT_INPUT and 'kind "fly"' in result.output


def test_another_game_s_malformed_move_names_its_field_too() -> None:
    """Generic: the same judgement for every game (Middle Ages here)."""
    ma = registry.get_game("middle-ages")
    kind = next(iter(rules.move_refs(ma)))
    with pytest.raises(InputError) as refused:
        rules.decode_move(ma, {"kind": kind})
    assert "required property" in refused.value.detail
    assert "not valid under any of the given schemas" not in refused.value.detail


def test_apply_prints_the_failing_move_whole(tmp_path: Path) -> None:
    path, state = _first_turn(tmp_path)
    seat = state["players"][state["first"]]["seat"]
    other = next(p["seat"] for p in state["players"] if p["seat"] != seat)
    long_move = {"kind": "play", "seat": other, "card": "a-card-name-long-enough-to-be-cut"}
    result = _herald("apply", str(path), json.dumps(long_move))
    assert result.exit_code == EXIT_ILLEGAL
    assert json.dumps(long_move, ensure_ascii=False) in result.output
    assert "turn/not-your-turn" in result.output


def test_a_wrong_choice_lists_the_valid_ones(tmp_path: Path) -> None:
    made = _herald("new", "a", "b", "--seed", "3", "--at", "choice/answer")
    assert made.exit_code == EXIT_OK, made.output
    state = json.loads(made.stdout)
    path = tmp_path / "asked.json"
    path.write_text(made.stdout)
    seat = state["players"][state["ask"]["seat"]]["seat"]
    result = _herald("check", str(path), json.dumps({"kind": "choose", "seat": seat,
                                                     "option": "nope"}))  # fmt: skip
    assert result.exit_code == EXIT_ILLEGAL
    assert "choose/not-an-option" in result.output
    assert ", ".join(state["ask"]["options"]) in result.output
