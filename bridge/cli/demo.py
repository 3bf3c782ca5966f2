"""``herald demo``: watch the referee run a seeded simulated game of any registered game.

The same path the live table takes: chance is sampled as a physical table would show it, each
move goes through the checked engine entry point and the event log, and every itemised line the
move produced is printed with its rulebook reference. A game whose default options cannot be
played (its data incomplete) is played with the options of its simulated setups
(``info.simulations``), and the demo says which.
"""

from __future__ import annotations

import random
import time
from typing import Any

import click
from rich.console import Console
from rich.markup import escape

from bridge.cli.io import CliError, check_players, fail, find_game
from bridge.seats import seat_names
from engine import codec, log, present, selfplay
from engine.game import TABLE, Game
from engine.i18n import message

console = Console(highlight=False)


class _Enough(Exception):
    """The ``--moves`` limit was reached."""


def _options(game: Game[Any, Any], players: int) -> dict[str, Any]:
    """The options the demo plays: the game's simulated setup for ``players`` seats (its
    defaults when the game names no simulations)."""
    return {**game.info.option_defaults(), **selfplay.setups(game, players)[0].options}


@click.command()
@click.option("--game", "game_key", default=None,
              help="The game to play (default: the only registered game).")  # fmt: skip
@click.option("--players", default=None, type=int,
              help="Seats (default: 3, or the nearest count the game seats).")  # fmt: skip
@click.option("--seed", default=1, show_default=True, type=int)
@click.option("--delay", default=0.05, show_default=True, type=float,
              help="Seconds between moves (0 for as fast as possible).")  # fmt: skip
@click.option("--moves", "max_moves", default=None, type=click.IntRange(min=1),
              help="Stop after this many moves and show the standing scores.")  # fmt: skip
def demo(
    game_key: str | None, players: int | None, seed: int, delay: float, max_moves: int | None
) -> None:
    """Play a seeded simulated game and narrate every refereed move."""
    try:
        game = find_game(game_key)
        info = game.info
        if players is None:
            players = max(info.min_players, min(3, info.max_players))
        check_players(game, players)
    except CliError as exc:
        fail(str(exc))
    seats = seat_names(players)
    options = _options(game, players)
    console.rule(message("demo/heading", game=info.name, players=players, seed=seed))
    changed = {k: v for k, v in options.items() if info.option_defaults().get(k) != v}
    if changed:
        console.print(message("demo/options", options=changed), style="dim", markup=False)
    played: list[log.Session] = []

    def narrate(session: log.Session, event: log.Event) -> None:
        played.append(session)
        move = codec.encode(event.move)
        who = game.actor(event.move)
        label = escape(present.move_label(game, move))
        if who == TABLE:
            console.print(f"[dim]table  {label}[/]")
        else:
            console.print(f"[bold]{escape(who)}[/] {label}")
        for seat, line in present.last_lines(game, session.state):
            text = escape(game.describe(line))
            console.print(f"    {seat:>7} {line.amount:+4d}  {text} [dim]{escape(line.ref)}[/]")
        if delay:
            time.sleep(delay)
        if max_moves is not None and len(played) >= max_moves:
            raise _Enough

    errors: list[str] = []
    try:
        result = selfplay.play(game, seats, random.Random(seed), options, on_event=narrate)
        state = result.session.state
        errors = result.errors
    except _Enough:
        state = played[-1].state
        console.print(message("demo/cut", moves=len(played)), style="dim", markup=False)
    console.rule(message("demo/final"))
    for row in game.score(state):
        lines = "; ".join(game.describe(line) for line in row.lines)
        console.print(f"{row.rank}. [bold]{escape(row.seat)}[/] {row.total}  ({escape(lines)})")
    if game.is_over(state):
        console.print(message("demo/winners", seats=", ".join(game.winners(state))), markup=False)
    if errors:
        raise click.ClickException("; ".join(errors))
