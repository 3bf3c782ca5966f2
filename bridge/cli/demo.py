"""``herald demo``: watch the referee run a seeded simulated game in the terminal.

The same path the live table takes: chance is sampled as a physical table would show it, each
move goes through the checked engine entry point and the event log, and every coin is itemised
with its rulebook reference. Until the referee server exists this is what ``make run`` shows.
"""

from __future__ import annotations

import random
import time
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from engine import codec, get_game, log, present, selfplay
from engine.game import TABLE, Game

console = Console(highlight=False)


def _rows_table(view: dict[str, Any]) -> Table:
    table = Table(title=f"Round {view['round']}", show_header=False, box=None)
    lords = {(p["lord"]["row"], p["lord"]["slot"]): p["seat"] for p in view["players"] if p["lord"]}
    scouts = {
        (p["scout"]["row"], p["scout"]["slot"]): p["seat"] for p in view["players"] if p["scout"]
    }
    for r, row in enumerate(view["rows"], start=1):
        cells = []
        for s, tile in enumerate(row, start=1):
            text = (
                "·"
                if tile is None
                else f"{tile['estate']}{'*' * (tile['farmers'] + tile['chests'])}"
            )
            if (r, s) in lords:
                text += f" [bold]{lords[(r, s)]}[/]"
            if (r, s) in scouts:
                text += f" (scout {scouts[(r, s)]})"
            cells.append(text)
        table.add_row(f"R{r}", *cells)
    return table


@click.command()
@click.option("--game", "game_key", default="middle-ages", show_default=True)
@click.option("--players", default=3, show_default=True, type=int)
@click.option("--seed", default=1, show_default=True, type=int)
@click.option("--delay", default=0.05, show_default=True, type=float,
              help="Seconds between moves (0 for as fast as possible).")  # fmt: skip
def demo(game_key: str, players: int, seed: int, delay: float) -> None:
    """Play a seeded simulated game and narrate every refereed move."""
    game: Game[Any, Any] = get_game(game_key)
    seats = ("blue", "green", "pink", "yellow", "purple")[:players]
    console.rule(f"Herald demo: {game.info.name}, {players} players, seed {seed}")
    last_round = 0

    def narrate(session: log.Session, event: log.Event) -> None:
        nonlocal last_round
        state = session.state
        move = codec.encode(event.move)
        who = game.actor(event.move)
        if who == TABLE:
            console.print(f"[dim]table[/] {move['kind']}: {move.get('row', '')}", style="dim")
        else:
            console.print(f"[bold]{who}[/] {move['kind']} {move}")
        view = game.view(state, None)
        for seat, line in present.last_lines(game, state):
            console.print(f"    {seat:>7} {line.amount:+4d}  {game.describe(line)}")
        if getattr(state, "round", 0) != last_round and view.get("phase") == "turn":
            last_round = state.round
            console.print(_rows_table(view))
        if delay:
            time.sleep(delay)

    result = selfplay.play(game, seats, random.Random(seed), on_event=narrate)
    console.rule("Final scores")
    for row in game.score(result.session.state):
        lines = "; ".join(game.describe(line) for line in row.lines)
        console.print(f"{row.rank}. [bold]{row.seat}[/] {row.total}  ({lines})")
    console.print(f"winner(s): {', '.join(game.winners(result.session.state))}")
    if result.errors:
        raise click.ClickException("; ".join(result.errors))
