"""``herald rules GAME …``: the offline score, income and legality calculator over JSON files.

Readable tables by default, ``--json`` for machines. Input that is not a valid state, move or log
of the game exits with code 2 and a message naming the JSON path; an illegal move exits 1.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any, NoReturn

import click
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table

from bridge.cli.glory import duel_cmd
from bridge.cli.io import EXIT_ILLEGAL, EXIT_INPUT, err, fail, out, read_json
from engine import get_game, log, selfplay
from engine import rules as engine_rules
from engine.game import Game, Line
from engine.i18n import message
from engine.violations import InputError, RuleViolation


def _input_error(path: str, exc: InputError) -> NoReturn:
    where = f" at {exc.path}" if exc.path else ""
    fail(f"{path}{where}: {exc.detail}")


def _load_state(game: Game[Any, Any], path: str) -> Any:
    try:
        return engine_rules.decode_state(game, read_json(path))
    except InputError as exc:
        _input_error(path, exc)


def _line_text(game: Game[Any, Any], line: Line) -> str:
    return game.describe(line)


def _line_json(game: Game[Any, Any], line: Line) -> dict[str, Any]:
    return line.to_json(game.describe(line))


GAME_COMMANDS: dict[str, str] = {"duel": "glory"}
"""Subcommands that belong to one game only (bridge/cli/glory.py)."""


@click.group()
@click.argument("game_key", metavar="GAME")
@click.pass_context
def rules(ctx: click.Context, game_key: str) -> None:
    """Offline calculator for GAME (middle-ages, glory): schema, new, check, income, score,
    replay, selfplay; for glory also `duel DUEL.json` (one duel from a file)."""
    owner = GAME_COMMANDS.get(ctx.invoked_subcommand or "")
    if owner is not None and owner != game_key:
        fail(f"'{ctx.invoked_subcommand}' is a {owner} command")
    try:
        ctx.obj = get_game(game_key)
    except KeyError as exc:
        fail(str(exc.args[0]))


@rules.command()
@click.pass_obj
def schema(game: Game[Any, Any]) -> None:
    """Print the JSON Schema of the game's state and moves."""
    click.echo(json.dumps(engine_rules.schema(game), indent=2, ensure_ascii=False))


def _parse_options(opts: tuple[str, ...]) -> dict[str, Any]:
    """``NAME=VALUE`` pairs; VALUE is JSON, or a plain string when it is not."""
    options: dict[str, Any] = {}
    for item in opts:
        name, sep, value = item.partition("=")
        if not sep or not name:
            fail(f"an option is NAME=VALUE, not {item!r}")
        try:
            options[name] = json.loads(value)
        except json.JSONDecodeError:
            options[name] = value
    return options


DATA_CODES = ("data/incomplete", "data/missing")
"""Violations naming a value the game's data lacks (params ``what``, ``task``, ``where``)."""


def _refused_setup(game: Game[Any, Any], options: dict[str, Any], exc: RuleViolation) -> NoReturn:
    """A game the rules (or its data) cannot start: every reason; a missing value with what it
    is, what the game needs it for and where it is printed."""
    missing = [v for v in exc.violations if v.code in DATA_CODES]
    if missing:
        data = options.get("data", game.info.option_defaults().get("data"))
        err.print(f"[bold red]error:[/] cannot start {game.info.key} with data {data!r}: "
                  f"{len(missing)} value(s) the game needs are missing")  # fmt: skip
        for v in missing:
            what, task, where = (
                escape(str(v.params.get(k, "?"))) for k in ("what", "task", "where")
            )
            err.print(f"  • [bold]{what}[/] — needed to {task}\n    [dim]where: {where}[/]")
        err.print("Complete them in your own data file (--data FILE or -o data=FILE), or "
                  "play with the invented stand-in set (-o data=stand-in).")  # fmt: skip
    else:
        err.print(f"[bold red]error:[/] cannot start {game.info.key}:")
    for v in exc.violations:
        if v.code not in DATA_CODES:
            err.print(f"  • [bold]{v.code}[/] {escape(v.text())}\n    [dim]{escape(v.ref)}[/]")
    sys.exit(EXIT_INPUT)


@rules.command()
@click.argument("players", nargs=-1, required=True)
@click.option("--option", "-o", "opts", multiple=True, metavar="NAME=VALUE",
              help="A rules option (see docs/rules-decisions.md); VALUE is JSON.")  # fmt: skip
@click.option("--data", "data_path", metavar="FILE", type=click.Path(dir_okay=False),
              help="Glory: the printed contents from FILE (same as -o data=FILE).")  # fmt: skip
@click.option("--seed", type=int, default=None,
              help="Also deal what the table shows (shuffles, draws) with this seed, up to "
              "the first move a seat makes.")  # fmt: skip
@click.pass_obj
def new(
    game: Game[Any, Any],
    players: tuple[str, ...],
    opts: tuple[str, ...],
    data_path: str | None,
    seed: int | None,
) -> None:
    """Print the starting state for PLAYERS (seat names) as JSON.

    A game whose data lacks a value it needs is refused (exit 2), naming each value."""
    options = _parse_options(opts)
    if data_path is not None:
        if not any(o.name == "data" for o in game.info.options):
            fail(f"{game.info.key} has no data option")
        options["data"] = str(Path(data_path).resolve())
    try:
        state = game.setup(players, options)
        if seed is not None:
            rng = random.Random(seed)
            while (move := game.sample_chance(state, rng)) is not None:
                state = engine_rules.apply(game, state, move)
    except InputError as exc:
        fail(exc.detail)
    except RuleViolation as exc:
        _refused_setup(game, options, exc)
    click.echo(json.dumps(engine_rules.encode(state), ensure_ascii=False))


@rules.command()
@click.argument("state_path", metavar="STATE")
@click.argument("move_path", metavar="[MOVE]", required=False)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_obj
def check(game: Game[Any, Any], state_path: str, move_path: str | None, as_json: bool) -> None:
    """Is MOVE legal in STATE? Lists every violation. Without MOVE, checks the whole position."""
    state = _load_state(game, state_path)
    violations = game.check_position(state)
    subject = "position"
    if move_path is not None and not violations:
        try:
            move = engine_rules.decode_move(game, read_json(move_path))
        except InputError as exc:
            _input_error(move_path, exc)
        violations = engine_rules.check(game, state, move)
        subject = "move"
    elif move_path is not None:
        err.print("[yellow]the position itself is faulty; the move was not checked[/]")
    if as_json:
        click.echo(json.dumps({"legal": not violations,
                               "violations": [v.to_json() for v in violations]},
                              ensure_ascii=False))  # fmt: skip
    elif not violations:
        out.print(f"[green]legal[/]: the {subject} breaks no rule")
    else:
        out.print(f"[red]illegal[/]: {len(violations)} violation(s)")
        for v in violations:
            out.print(f"  • [bold]{v.code}[/] {escape(v.text())}\n    [dim]{escape(v.ref)}[/]")
    if violations:
        sys.exit(EXIT_ILLEGAL)


@rules.command()
@click.argument("state_path", metavar="STATE")
@click.option("--seat", required=True, help="The seat whose income to show.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_obj
def income(game: Game[Any, Any], state_path: str, seat: str, as_json: bool) -> None:
    """Itemised income of SEAT's most recent turn in STATE."""
    state = _load_state(game, state_path)
    if seat not in game.seats(state):
        fail(f"no seat {seat!r}; seats: {', '.join(game.seats(state))}")
    lines = game.income(state, seat)
    total = sum(line.amount for line in lines)
    if as_json:
        click.echo(json.dumps({"seat": seat, "total": total,
                               "lines": [_line_json(game, ln) for ln in lines]},
                              ensure_ascii=False))  # fmt: skip
        return
    table = Table(title=message("income/heading", seat=seat))
    table.add_column("source")
    table.add_column("amount", justify="right")
    table.add_column("rule", style="dim")
    for line in lines:
        table.add_row(_line_text(game, line), f"{line.amount:+d}", line.ref)
    table.add_row("[bold]total[/]", f"[bold]{total:+d}[/]", "")
    out.print(table)


def _score_payload(game: Game[Any, Any], state: Any) -> dict[str, Any]:
    return {
        "over": game.is_over(state),
        "winners": list(game.winners(state)),
        "scores": [
            {
                "seat": r.seat,
                "total": r.total,
                "rank": r.rank,
                "tiebreak": list(r.tiebreak),
                "lines": [_line_json(game, ln) for ln in r.lines],
            }
            for r in game.score(state)
        ],
    }


def _print_scores(game: Game[Any, Any], state: Any) -> None:
    over = game.is_over(state)
    table = Table(title=message("score/heading") + ("" if over else " (standing)"))
    table.add_column("rank", justify="right")
    table.add_column("seat")
    table.add_column("total", justify="right")
    table.add_column("breakdown")
    table.add_column("tie-break", style="dim")
    for r in game.score(state):
        breakdown = "; ".join(_line_text(game, ln) for ln in r.lines)
        table.add_row(str(r.rank), r.seat, str(r.total), breakdown, " ".join(map(str, r.tiebreak)))
    out.print(table)
    if over:
        winners = game.winners(state)
        label = "winner" if len(winners) == 1 else "shared win"
        out.print(f"[bold]{label}:[/] {', '.join(winners)}")


@rules.command()
@click.argument("state_path", metavar="STATE")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_obj
def score(game: Game[Any, Any], state_path: str, as_json: bool) -> None:
    """Final scores and tie-breaks (standing scores before the game ends)."""
    state = _load_state(game, state_path)
    if as_json:
        click.echo(json.dumps(_score_payload(game, state), ensure_ascii=False))
    else:
        _print_scores(game, state)


def read_log(game: Game[Any, Any], path: str) -> tuple[log.Header, list[log.Event]]:
    """A JSONL log: a header line, then one event per line (exit 2 naming the bad line)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror}")
    lines = [(n, ln) for n, ln in enumerate(text.splitlines(), start=1) if ln.strip()]
    if not lines:
        fail(f"{path} is empty; a log starts with a header line")
    header: log.Header | None = None
    events: list[log.Event] = []
    for n, raw in lines:
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            fail(f"{path}:{n} is not JSON: {exc.msg}")
        try:
            if header is None:
                header = log.decode_header(data)
                if header.game != game.info.key:
                    fail(f"{path}:{n}: the log is for {header.game!r}, not {game.info.key!r}")
            else:
                events.append(log.decode_event(game, data))
        except InputError as exc:
            _input_error(f"{path}:{n}", exc)
    assert header is not None
    return header, events


@rules.command()
@click.argument("log_path", metavar="LOG.jsonl")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_obj
def replay(game: Game[Any, Any], log_path: str, as_json: bool) -> None:
    """Replay a game log; print the final state and the score table."""
    header, events = read_log(game, log_path)
    session = None
    try:
        session = log.start(game, header.players, header.options)
        for i, event in enumerate(events, start=2):
            try:
                session = log.accept(session, event)
            except RuleViolation as exc:
                err.print(f"[bold red]illegal event at {log_path}:{i}[/]")
                for v in exc.violations:
                    err.print(f"  • [bold]{v.code}[/] {escape(v.text())}  [dim]{escape(v.ref)}[/]")
                sys.exit(EXIT_ILLEGAL)
    except InputError as exc:
        fail(f"{log_path}:1: {exc.detail}")
    if as_json:
        payload = {"state_id": session.state_id, "state": engine_rules.encode(session.state),
                   **_score_payload(game, session.state)}  # fmt: skip
        click.echo(json.dumps(payload, ensure_ascii=False))
        return
    out.print(f"replayed {len(events)} events; state_id {session.state_id}")
    _print_scores(game, session.state)


@rules.command(name="selfplay")
@click.option("--games", default=100, show_default=True, type=click.IntRange(min=1))
@click.option("--seed", default=1, show_default=True, type=int)
@click.option("--players", type=int, default=None,
              help="Players per game (default: the game's simulated setups).")  # fmt: skip
@click.option("--option", "-o", "opts", multiple=True, metavar="NAME=VALUE",
              help="A rules option laid over every simulated setup; VALUE is JSON.")  # fmt: skip
@click.option("--check-positions", is_flag=True, help="Check the whole position after each move.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_obj
def selfplay_cmd(
    game: Game[Any, Any],
    games: int,
    seed: int,
    players: int | None,
    opts: tuple[str, ...],
    check_positions: bool,
    as_json: bool,
) -> None:
    """Random legal play of whole games; counts errors (a correct engine has none).

    Cycles through the game's simulated setups (Glory: the stand-in data, 2-4 players, both
    tournament types); --players and -o narrow or override them."""
    info = game.info
    if players is not None and not info.min_players <= players <= info.max_players:
        fail(f"{info.name} takes {info.min_players}-{info.max_players} players, not {players}")
    setups = selfplay.setups(game, players, _parse_options(opts))
    rng = random.Random(seed)
    errors: list[str] = []
    moves = 0
    start = time.perf_counter()
    with Progress(console=err, transient=True, disable=as_json or not err.is_terminal) as bar:
        task = bar.add_task("selfplay", total=games)
        for i in range(games):
            setup = setups[i % len(setups)]
            seats = tuple(f"p{k + 1}" for k in range(setup.players))
            try:
                result = selfplay.play(
                    game, seats, rng, setup.options, check_positions=check_positions
                )
            except InputError as exc:
                fail(f"cannot set up {setup.players} player(s) with {setup.options}: {exc.detail}")
            except RuleViolation as exc:
                _refused_setup(game, setup.options, exc)
            moves += result.session.state_id
            errors.extend(f"game {i + 1}: {e}" for e in result.errors)
            bar.advance(task)
    elapsed = time.perf_counter() - start
    payload = {
        "games": games,
        "errors": len(errors),
        "moves": moves,
        "games_per_s": round(games / elapsed, 1) if elapsed > 0 else None,
    }
    if as_json:
        click.echo(json.dumps(payload))
    else:
        out.print(f"{games} games, {moves} moves, {len(errors)} errors, "
                  f"{payload['games_per_s']} games/s")  # fmt: skip
        for e in errors[:20]:
            out.print(f"  [red]•[/] {e}")
    if errors:
        sys.exit(EXIT_ILLEGAL)


rules.add_command(duel_cmd)
