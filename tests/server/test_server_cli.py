"""``herald sessions list|show|export`` over a store the referee wrote, and ``serve`` refusals."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from srv_support import open_referee, play_moves

from bridge.cli import main


def test_sessions_list_show_and_export_replays_offline(tmp_path: Path) -> None:
    db = tmp_path / "h.db"
    referee = open_referee(db)
    play_moves(referee, 20)
    referee.store.close()
    runner = CliRunner()

    listed = runner.invoke(main, ["sessions", "--db", str(db), "list", "--json"])
    assert listed.exit_code == 0, listed.output
    (row,) = json.loads(listed.output)
    assert row["events"] == 20 and row["status"] == "open" and "tokens" not in row

    shown = runner.invoke(main, ["sessions", "--db", str(db), "show", str(row["session"])])
    assert shown.exit_code == 0 and "Row 1 revealed" in shown.output
    assert referee.row.tokens.host not in shown.output  # secrets only with --tokens
    secret = runner.invoke(main, ["sessions", "--db", str(db), "show", "1", "--json", "--tokens"])
    assert json.loads(secret.output)["tokens"]["host"] == referee.row.tokens.host

    out = tmp_path / "LOG.jsonl"
    exported = runner.invoke(main, ["sessions", "--db", str(db), "export", "1", "-o", str(out)])
    assert exported.exit_code == 0, exported.output
    lines = out.read_text().splitlines()
    assert json.loads(lines[0])["game"] == "middle-ages" and len(lines) == 21
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
    star = runner.invoke(main, ["serve", "--db", db, "--allow-origin", "*"])
    assert star.exit_code == 2 and "any web page" in star.output
    nothing = runner.invoke(main, ["serve", "--db", db, "--resume"])
    assert nothing.exit_code == 1 and "Nothing to resume" in nothing.output
    game = runner.invoke(main, ["serve", "--db", db, "--game", "chess"])
    assert game.exit_code == 2 and "middle-ages" in game.output
    players = runner.invoke(main, ["serve", "--db", db, "--players", "1"])
    assert players.exit_code == 2
