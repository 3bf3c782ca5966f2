"""`herald rules GAME …` and `herald demo` over every registered game (docs/cli.md).

Parametrised over ``engine.registry.game_keys()`` plus the tiny test game (tests/games/takeaway,
registered here at run time as an installed plugin would be), so a new game is covered without
an edit here. Exit codes: 0 fine, 1 an illegal move, 2 bad input, 3 a faulty position.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bridge.cli import main
from engine import codec, log, registry, rules, selfplay
from engine.game import TABLE, Game

GAMES_DIR = Path(__file__).resolve().parents[1] / "games"
if str(GAMES_DIR) not in sys.path:
    sys.path.insert(0, str(GAMES_DIR))

import takeaway  # noqa: E402

KEYS = tuple(sorted({*registry.game_keys(), takeaway.GAME.info.key}))


@pytest.fixture(autouse=True, scope="module")
def _tiny_game() -> Iterator[None]:
    """Take-away registered for this module (left alone when the suite registered it already)."""
    ours = takeaway.GAME.info.key not in registry.game_keys()
    if ours:
        registry.register(takeaway.GAME, module="takeaway")
    yield
    if ours:
        registry.unregister(takeaway.GAME.info.key)


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def _setup(game: Game[Any, Any]) -> tuple[tuple[str, ...], dict[str, Any]]:
    """Seats and options of the game's first simulated setup (its defaults may be unplayable)."""
    setup = selfplay.setups(game)[0]
    return tuple(f"p{n + 1}" for n in range(setup.players)), setup.options


def _option_args(options: dict[str, Any]) -> list[str]:
    return [a for k, v in options.items() for a in ("-o", f"{k}={json.dumps(v)}")]


def _dealt(key: str, tmp_path: Path, seed: int = 3) -> tuple[Path, Any]:
    """``herald rules KEY new … --seed`` written to a file, and the state decoded."""
    game = registry.get_game(key)
    seats, options = _setup(game)
    code, out = run("rules", key, "new", *seats, *_option_args(options), "--seed", str(seed))
    assert code == 0, out
    path = tmp_path / "dealt.json"
    path.write_text(out)
    return path, rules.decode_state(game, json.loads(out))


def _finished(key: str, seed: int = 5) -> selfplay.GameResult:
    game = registry.get_game(key)
    seats, options = _setup(game)
    result = selfplay.play(game, seats, random.Random(seed), options)
    assert not result.errors
    return result


@pytest.mark.parametrize("key", KEYS)
def test_new_seed_deals_the_whole_setup_until_a_seat_must_act(key: str, tmp_path: Path) -> None:
    game = registry.get_game(key)
    _, state = _dealt(key, tmp_path)
    waiting = rules.to_act(game, state)
    assert waiting and TABLE not in waiting
    assert game.sample_chance(state, random.Random(0)) is None  # nothing left for the table
    assert _dealt(key, tmp_path, seed=3)[1] == state  # the seed reproduces the deal


@pytest.mark.parametrize("key", KEYS)
def test_apply_prints_the_next_state_of_each_move_in_turn(key: str, tmp_path: Path) -> None:
    game = registry.get_game(key)
    path, state = _dealt(key, tmp_path)
    first = game.legal_moves(state)[0]
    after = rules.apply(game, state, first)
    inline = json.dumps(codec.encode(first))
    code, out = run("rules", key, "apply", str(path), inline)
    assert code == 0, out
    # a state that names its data set by reference (docs/cli.md) is printed back that way
    assert rules.decode_state(game, json.loads(out)) == after
    # a second move from a file, after the inline one
    follow = game.sample_chance(after, random.Random(1)) or game.legal_moves(after)[0]
    move_file = tmp_path / "move.json"
    move_file.write_text(json.dumps(codec.encode(follow)))
    code, out = run("rules", key, "apply", str(path), inline, str(move_file))
    assert code == 0, out
    assert rules.decode_state(game, json.loads(out)) == rules.apply(game, after, follow)


@pytest.mark.parametrize("key", KEYS)
def test_apply_stops_at_the_first_illegal_move_with_exit_1(key: str, tmp_path: Path) -> None:
    game = registry.get_game(key)
    result = _finished(key)
    path = tmp_path / "final.json"
    path.write_text(json.dumps(codec.encode(result.session.state)))
    last = json.dumps(codec.encode(result.events[-1].move))
    code, out = run("rules", key, "apply", str(path), last)
    assert code == 1
    assert "move 1" in out and "game/over" in out  # a finished game takes no move
    assert game.is_over(result.session.state)


@pytest.mark.parametrize("key", KEYS)
def test_bad_input_exits_2(key: str, tmp_path: Path) -> None:
    path, _ = _dealt(key, tmp_path)
    missing = str(tmp_path / "absent.json")
    assert run("rules", key, "apply", str(path), missing)[0] == 2
    assert run("rules", key, "apply", missing, "{}")[0] == 2
    code, out = run("rules", key, "apply", str(path), "{not json")
    assert code == 2 and "is not JSON" in out
    code, out = run("rules", key, "apply", str(path), '{"kind": "no-such-move"}')
    assert code == 2 and f"not a valid {key} move" in out
    code, out = run("rules", key, "new", "a", "b", "-o", "no_such_option=1")
    assert code == 2 and "no option 'no_such_option'" in out
    assert run("rules", key, "no-such-verb")[0] == 2
    assert run("rules", key, "selfplay", "--games", "1", "-o", "nonsense")[0] == 2


@pytest.mark.parametrize("key", KEYS)
def test_replay_from_a_state_rebuilds_the_final_state(key: str, tmp_path: Path) -> None:
    game = registry.get_game(key)
    result = _finished(key)
    half = len(result.events) // 2
    session = log.start(game, result.session.header.players, result.session.header.options)
    for event in result.events[:half]:
        session = log.accept(session, event)
    start = tmp_path / "half.json"
    start.write_text(json.dumps(codec.encode(session.state)))
    rest = [json.dumps(e.to_json()) for e in result.events[half:]]
    bare = tmp_path / "rest.jsonl"
    bare.write_text("\n".join(rest) + "\n")
    code, out = run("rules", key, "replay", str(bare), "--from", str(start), "--json")
    assert code == 0, out
    assert json.loads(out)["state"] == codec.encode(result.session.state)
    with_header = tmp_path / "rest-h.jsonl"
    header = json.dumps(result.session.header.to_json())
    with_header.write_text("\n".join([header, *rest]) + "\n")
    code, out = run("rules", key, "replay", str(with_header), "--from", str(start), "--json")
    assert code == 0 and json.loads(out)["state"] == codec.encode(result.session.state)


@pytest.mark.parametrize("key", KEYS)
def test_moves_lists_every_move_kind_with_its_fields(key: str) -> None:
    game = registry.get_game(key)
    code, out = run("rules", key, "moves", "--json")
    assert code == 0, out
    kinds = json.loads(out)
    assert len(kinds) == len(game.move_types)
    by_type = {k["type"]: k for k in kinds}
    for move_type in game.move_types:
        listed = by_type[move_type.__name__]
        fields = {f.name for f in move_type.__dataclass_fields__.values() if f.name != "kind"}
        assert {f["name"] for f in listed["fields"]} == fields
    code, text = run("rules", key, "moves")
    assert code == 0 and all(str(k["kind"]) in text for k in kinds)


def test_a_faulty_position_exits_3_in_check_apply_and_replay(tmp_path: Path) -> None:
    """Middle Ages: negative coins and a wrong count of coin tokens are faults of the position
    itself (checks.check_position), whatever the move."""
    game = registry.get_game("middle-ages")
    path, state = _dealt("middle-ages", tmp_path)
    move = json.dumps(codec.encode(game.legal_moves(state)[0]))
    data = json.loads(path.read_text())
    data["players"][0]["coins"] = -5
    faulty = tmp_path / "faulty.json"
    faulty.write_text(json.dumps(data))
    assert run("rules", "middle-ages", "check", str(path), move)[0] == 0
    code, out = run("rules", "middle-ages", "check", str(faulty), move)
    assert code == 3 and "position/negative-coins" in out
    code, out = run("rules", "middle-ages", "apply", str(faulty), move)
    assert code == 3 and "position/negative-coins" in out
    empty = tmp_path / "none.jsonl"
    empty.write_text("")
    code, out = run("rules", "middle-ages", "replay", str(empty), "--from", str(faulty))
    assert code == 3


def test_a_games_own_verb_comes_from_its_package(tmp_path: Path) -> None:
    """tests/games/takeaway/cli.py declares `hint`; nothing in bridge/cli names it."""
    pile = tmp_path / "pile.json"
    pile.write_text('{"pile": 7}')
    code, out = run("rules", "takeaway", "hint", str(pile))
    assert code == 0 and "take 3" in out
    code, out = run("rules", "takeaway", "hint", str(pile), "--quiet", "--json")
    assert code == 0 and json.loads(out) == {"take": 3}
    pile.write_text('{"pile": 0}')
    assert run("rules", "takeaway", "hint", str(pile))[0] == 2
    code, out = run("rules", "takeaway", "hint")
    assert code == 2 and "PILE.json" in out
    assert "hint" in run("rules", "takeaway", "--help")[1]
    assert run("rules", "middle-ages", "hint", str(pile))[0] == 2  # another game's verb


def test_a_two_word_verb_and_output_to_a_file(tmp_path: Path) -> None:
    """A game's verb named in two words (``pile after``) is a group of the CLI; ``-o FILE``
    writes any verb's output to a file instead of the screen (a map drawn as SVG, say)."""
    take = tmp_path / "take.json"
    take.write_text('{"pile": 7, "take": 3}')
    code, out = run("rules", "takeaway", "pile", "after", str(take))
    assert code == 0 and out.strip() == "4"
    written = tmp_path / "left.json"
    code, out = run("rules", "takeaway", "pile", "after", str(take), "--json", "-o", str(written))
    assert code == 0 and out.strip() == ""
    assert json.loads(written.read_text()) == {"left": 4}
    code, out = run("rules", "takeaway", "pile", "after", str(take), "-o", "/nonexistent/x")
    assert code == 2 and "cannot write /nonexistent/x" in out
    take.write_text('{"pile": 2, "take": 3}')
    assert run("rules", "takeaway", "pile", "after", str(take))[0] == 2
    assert "pile" in run("rules", "takeaway", "--help")[1]
    assert "after" in run("rules", "takeaway", "pile", "--help")[1]


@pytest.mark.parametrize("key", KEYS)
def test_demo_plays_every_game(key: str) -> None:
    game = registry.get_game(key)
    code, out = run("demo", "--game", key, "--delay", "0", "--moves", "6")
    assert code == 0, out
    assert game.info.name in out and "stopped after 6 moves" in out


def test_demo_refuses_an_unknown_game_and_a_seat_count_the_game_does_not_take() -> None:
    code, out = run("demo", "--game", "chess")
    assert code == 2 and "unknown game 'chess'" in out
    assert all(key in out for key in registry.game_keys())
    for key in KEYS:
        info = registry.get_game(key).info
        code, out = run("demo", "--game", key, "--players", str(info.max_players + 1))
        assert code == 2 and f"{info.min_players}-{info.max_players} players" in out
