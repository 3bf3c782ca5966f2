"""``herald sessions list|show|export`` over a store the referee wrote, and ``serve`` refusals."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from srv_support import Watcher, open_referee, play_moves, serve

from bridge.cli import main
from bridge.referee import Referee
from bridge.seats import seat_names
from bridge.store import open_store
from engine.registry import game_keys, get_game, installed_keys


def test_sessions_list_show_and_export_replays_offline(tmp_path: Path) -> None:
    db = tmp_path / "h.db"
    referee = open_referee(db)
    play_moves(referee, 20)
    referee.store.close()
    runner = CliRunner()

    listed = runner.invoke(main, ["sessions", "--db", str(db), "list", "--json"])
    assert listed.exit_code == 0, listed.output
    (row,) = json.loads(listed.output)
    # 20 moves played, and any the referee made itself after them (a step with one move)
    made = referee.state_id
    assert made >= 20 and row["events"] == made and row["status"] == "open" and "tokens" not in row

    shown = runner.invoke(main, ["sessions", "--db", str(db), "show", str(row["session"])])
    assert shown.exit_code == 0 and "Row 1 revealed" in shown.output
    assert referee.row.tokens.host not in shown.output  # secrets only with --tokens
    secret = runner.invoke(main, ["sessions", "--db", str(db), "show", "1", "--json", "--tokens"])
    assert json.loads(secret.output)["tokens"]["host"] == referee.row.tokens.host

    out = tmp_path / "LOG.jsonl"
    exported = runner.invoke(main, ["sessions", "--db", str(db), "export", "1", "-o", str(out)])
    assert exported.exit_code == 0, exported.output
    lines = out.read_text().splitlines()
    assert json.loads(lines[0])["game"] == "middle-ages" and len(lines) == made + 1
    replay = runner.invoke(main, ["rules", "middle-ages", "replay", str(out), "--json"])
    assert replay.exit_code == 0, replay.output

    table = runner.invoke(main, ["sessions", "--db", str(db), "list"])
    assert table.exit_code == 0 and "middle-ages" in table.output


def test_sessions_errors_are_clear(tmp_path: Path) -> None:
    runner = CliRunner()
    missing = runner.invoke(main, ["sessions", "--db", str(tmp_path / "none.db"), "list"])
    assert missing.exit_code == 1 and "No sessions" in missing.output
    db = tmp_path / "h.db"
    open_referee(db).store.close()
    absent = runner.invoke(main, ["sessions", "--db", str(db), "show", "99"])
    assert absent.exit_code == 1 and "No session 99" in absent.output


def test_serve_refuses_bad_options_before_listening(tmp_path: Path) -> None:
    runner = CliRunner()
    db = str(tmp_path / "s.db")
    base = ["serve", "--db", db, "--game", "middle-ages"]
    star = runner.invoke(main, [*base, "--allow-origin", "*"])
    assert star.exit_code == 2 and "any web page" in star.output
    nothing = runner.invoke(main, [*base, "--resume"])
    assert nothing.exit_code == 1 and "Nothing to resume" in nothing.output
    game = runner.invoke(main, ["serve", "--db", db, "--game", "chess"])
    assert game.exit_code == 2 and "middle-ages" in game.output
    players = runner.invoke(main, [*base, "--players", "1"])
    assert players.exit_code == 2 and "2-5 players" in players.output
    option = runner.invoke(main, [*base, "--option", "no-such-option=1"])
    assert option.exit_code == 2 and "no option 'no-such-option'" in option.output


def test_a_first_serve_without_a_game_opens_a_lobby_and_prints_the_links_first(
    tmp_path: Path,
) -> None:
    """Issue 25, point 8: ``herald serve`` with no ``--game`` refused to start ("Several games
    are registered"), and three 20-line QR codes pushed the links off the screen."""
    served = serve(tmp_path / "first.db", "--qr", "--sim", "off", game=None)
    try:
        # the served process's games (not one a test registered at run time in this one)
        names = [get_game(k).info.name for k in installed_keys()]
        assert "lobby" in served.output and all(n in served.output for n in names)
        lines = served.output.splitlines()
        link = re.compile(r"(Seat \w+|Table display|Host display)")
        links = [i for i, line in enumerate(lines) if link.match(line)]
        codes = [i for i, line in enumerate(lines) if line.startswith("QR code to join as")]
        assert len(links) == len(served.seat_urls) + 2 and len(codes) == len(served.seat_urls)
        assert max(links) < min(codes)  # every link is printed before the first QR code
        host = Watcher(served.base, served.host_token)
        assert host.wait_for("host", lambda d: True)["lobby"] is True  # the host picks the game
        host.close()
    finally:
        served.stop()


def test_serve_without_a_game_comes_back_to_the_last_game_played(tmp_path: Path) -> None:
    db = tmp_path / "played.db"
    store = open_store(db)
    last = Referee.open(store, get_game("glory"), "t1", ("red", "blue"), {"data": "stand-in"})
    store.set_status(last.row.id, "over")  # the group finished its game of Glory
    store.close()
    served = serve(db, "--sim", "off", game=None)
    try:
        health = served.health()
        assert health["game"] == "glory" and health["session"] != last.row.id
        assert "lobby" not in served.output and len(served.seat_urls) == 2
    finally:
        served.stop()


@pytest.mark.parametrize("key", game_keys())
def test_serve_accepts_every_seat_count_of_the_game_and_no_other(tmp_path: Path, key: str) -> None:
    """Seat counts come from the game (France 1429 seats 3-6): the range is the game's own, and
    no seat-name list cuts it short."""
    info = get_game(key).info
    assert len(set(seat_names(info.max_players))) == info.max_players
    for players in (info.min_players - 1, info.max_players + 1):
        if players < 1:
            continue
        db = str(tmp_path / f"s{players}.db")
        result = CliRunner().invoke(main, ["serve", "--db", db, "--game", key,
                                           "--players", str(players)])  # fmt: skip
        assert result.exit_code == 2
        assert f"{info.min_players}-{info.max_players} players" in result.output


def test_seat_names_never_run_out() -> None:
    assert seat_names(3) == ("blue", "green", "pink")
    names = seat_names(12)
    assert len(set(names)) == 12 and names[-1] == "seat12"
