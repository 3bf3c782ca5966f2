"""What every ``herald`` command shares: consoles, exit codes, reading JSON input, failing clearly,
finding a game by key and reading ``NAME=VALUE`` rules options.

Input that cannot be read or is not JSON exits with ``EXIT_INPUT`` and a message naming the file
and where in it; commands never print a traceback for a user's bad file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, NoReturn

from rich.console import Console
from rich.markup import escape

from engine import registry
from engine.game import Game
from engine.i18n import message
from engine.verbs import EXIT_FAULTY, EXIT_ILLEGAL, EXIT_INPUT, EXIT_OK

__all__ = ["EXIT_FAULTY", "EXIT_ILLEGAL", "EXIT_INPUT", "EXIT_OK"]

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def fail(text: str, code: int = EXIT_INPUT) -> NoReturn:
    err.print(f"[bold red]error:[/] {escape(text)}")
    sys.exit(code)


def read_json(path: str) -> Any:
    """The JSON in ``path`` (``-``: standard input), or exit 2 with the reason."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror}")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        fail(f"{path} is not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})")


def write_text(path: str, text: str) -> None:
    """Write ``text`` to ``path``, or exit 2 with the reason (a missing folder, no permission)."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {path}: {exc.strerror}")


class CliError(ValueError):
    """Bad input a command reports as a sentence (exit 2); each command shows it its own way."""


def find_game(key: str | None) -> Game[Any, Any]:
    """The game registered as ``key``; without a key the only registered game.

    Raises :class:`CliError` naming the known games when there is no such game, or when no key
    is given and several games are registered (which one would be a guess; ``make run`` names
    its game in the Makefile).
    """
    keys = registry.game_keys()
    if not keys:
        raise CliError(message("cli/no-game"))
    if key is None and len(keys) > 1:
        raise CliError(message("cli/choose-game", known=", ".join(keys)))
    if key is None:
        key = keys[0]
    if key not in keys:
        raise CliError(message("cli/unknown-game", key=key, known=", ".join(keys)))
    return registry.get_game(key)


def check_players(game: Game[Any, Any], players: int) -> None:
    """A :class:`CliError` unless the game seats ``players``."""
    info = game.info
    if not info.min_players <= players <= info.max_players:
        raise CliError(message("cli/players-range", game=info.name, low=info.min_players,
                               high=info.max_players, n=players))  # fmt: skip


def parse_options(pairs: tuple[str, ...], game: Game[Any, Any] | None = None) -> dict[str, Any]:
    """``NAME=VALUE`` rules options: VALUE is JSON (``true``, ``3``, ``null``), or plain text
    when it is not. With ``game``, a name the game has no option for is refused, listing its
    options. Raises :class:`CliError`."""
    known = None if game is None else {o.name for o in game.info.options}
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        name = name.strip()
        if not sep or not name:
            raise CliError(message("cli/option-form", pair=pair))
        if known is not None and game is not None and name not in known:
            raise CliError(message("cli/option-unknown", key=name, game=game.info.name,
                                   known=", ".join(sorted(known)) or "-"))  # fmt: skip
        try:
            options[name] = json.loads(value)
        except ValueError:
            options[name] = value
    return options
