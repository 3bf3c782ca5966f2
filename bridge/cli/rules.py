"""``herald rules GAME …``: the offline score, income and legality calculator over JSON files.

The same verbs for every registered game (schema, moves, new, check, apply, income, score,
replay, selfplay), plus the game's own verbs, declared as pure functions in its package's
``cli.py`` (``engine.verbs``); this module names no game. Readable tables by default, ``--json``
for machines. Exit codes (docs/cli.md): 0 fine, 1 an illegal move, 2 bad input (unreadable
file, schema error, unknown game or option), 3 a faulty position.
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

from bridge import gamedata
from bridge.cli.io import (
    EXIT_FAULTY,
    EXIT_ILLEGAL,
    EXIT_INPUT,
    CliError,
    err,
    fail,
    find_game,
    out,
    parse_options,
    read_json,
    write_text,
)
from engine import data as engine_data
from engine import log, selfplay, verbs
from engine import rules as engine_rules
from engine.game import Game, Line
from engine.i18n import DEFAULT_LANG, LANGUAGES, message, violation_json, violation_text
from engine.refs import readable
from engine.violations import InputError, RuleViolation, Violation


def _input_error(path: str, exc: InputError) -> NoReturn:
    where = f" at {exc.path}" if exc.path else ""
    fail(f"{path}{where}: {exc.detail}")


def _load_state(game: Game[Any, Any], path: str) -> Any:
    return _load_state_as(game, path)[0]


def _load_state_as(game: Game[Any, Any], path: str) -> tuple[Any, engine_data.GameData | None]:
    """The state in ``path``, and the data it named by reference (None when it holds them):
    a state written by reference is printed back by reference."""
    raw = read_json(path)
    spec = engine_data.data_spec(game)
    named = None
    if spec is not None and spec.in_state and isinstance(raw, dict):
        held = raw.get(spec.in_state)
        if engine_data.is_reference(held):
            try:
                named = gamedata.load(game, {spec.option: held["set"]})
            except InputError as exc:
                _input_error(path, InputError(exc.code, exc.detail, f"$.{spec.in_state}.set"))
    try:
        return engine_rules.decode_state(game, raw, read=gamedata.read_text), named
    except InputError as exc:
        _input_error(path, exc)


def _print_state(game: Game[Any, Any], state: Any, data: engine_data.GameData | None) -> None:
    """A state as JSON on stdout; with ``data``, naming that data set instead of holding it."""
    encoded = engine_rules.encode(state)
    if data is not None:
        encoded = engine_data.compact_state(game, encoded, data)
    click.echo(json.dumps(encoded, ensure_ascii=False))


def _lang() -> str:
    """The language ``herald rules GAME --lang`` asked for (the click context's, no global)."""
    ctx = click.get_current_context(silent=True)
    return str(ctx.find_root().meta.get(LANG_KEY, DEFAULT_LANG)) if ctx else DEFAULT_LANG


def _said(v: Violation, sep: str) -> str:
    """A violation as printed: code, sentence in ``--lang``, rule section (no file id)."""
    text = escape(violation_text(v, _lang()))
    return f"  • [bold]{v.code}[/] {text}{sep}[dim]{escape(readable(v.ref))}[/]"


def _line_text(game: Game[Any, Any], line: Line) -> str:
    return game.describe(line, _lang())


def _line_json(game: Game[Any, Any], line: Line) -> dict[str, Any]:
    return line.to_json(game.describe(line, _lang()))


LANG_KEY = "herald.lang"
"""Where ``--lang`` is kept on the root click context for the verbs below it."""


class RulesGroup(click.Group):
    """The calculator's verbs, then the verbs the game named by ``GAME`` declares itself."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = super().get_command(ctx, cmd_name)
        key = ctx.params.get("game_key")
        if found is not None or key is None:
            return found
        game = _game(key)
        verb = verbs.find_verb(game.info.key, cmd_name)
        if verb is not None:
            return verb_command(verb, game)
        # a two-word verb (``map check``): the first word is a group of the verbs that share it
        family = [v for v in verbs.game_verbs(game.info.key) if v.name.startswith(f"{cmd_name} ")]
        if not family:
            return None
        group = click.Group(cmd_name, help=f"{cmd_name}: " + ", ".join(v.name for v in family))
        for v in family:
            group.add_command(verb_command(v, game), v.name.split(" ", 1)[1])
        return group

    def list_commands(self, ctx: click.Context) -> list[str]:
        names = list(super().list_commands(ctx))
        key = ctx.params.get("game_key")
        if key is not None:
            own = [v.name.split(" ", 1)[0] for v in verbs.game_verbs(_game(key).info.key)]
            names += list(dict.fromkeys(own))
        return names


def _game(key: str) -> Game[Any, Any]:
    try:
        return find_game(key)
    except CliError as exc:
        fail(str(exc))


@click.group(cls=RulesGroup)
@click.argument("game_key", metavar="GAME")
@click.option("--lang", default=DEFAULT_LANG, show_default=True, type=click.Choice(LANGUAGES),
              help="The language of the sentences printed.")  # fmt: skip
@click.pass_context
def rules(ctx: click.Context, game_key: str, lang: str) -> None:
    """Offline calculator for GAME (any registered game): schema, moves, new, check, apply,
    income, score, replay, selfplay, and the game's own verbs (`herald rules GAME --help`).

    Exit codes: 0 fine, 1 illegal move, 2 bad input, 3 faulty position."""
    ctx.find_root().meta[LANG_KEY] = lang
    ctx.obj = _game(game_key)


def verb_command(verb: verbs.Verb, game: Game[Any, Any]) -> click.Command:
    """A click command for a game's own verb: reads its JSON files, prints its result, exits
    with its code."""
    params: list[click.Parameter] = []
    for arg in verb.args:
        if arg.kind == "flag":
            params.append(click.Option([f"--{arg.name}"], is_flag=True, help=arg.help))
        elif arg.positional:
            params.append(click.Argument([arg.name], metavar=arg.metavar, required=False))
        else:
            params.append(click.Option([f"--{arg.name}"], metavar=arg.metavar, help=arg.help))
    params.append(click.Option(["--json", "as_json"], is_flag=True, help="Machine-readable."))
    params.append(click.Option(["-o", "--output"], metavar="FILE", default=None,
                               help="Write the output to FILE, not the screen."))  # fmt: skip
    if verb.schema is not None:
        params.append(click.Option(["--schema", "show_schema"], is_flag=True,
                                   help="Print the JSON Schema of the verb's input."))  # fmt: skip

    def run(
        as_json: bool, output: str | None = None, show_schema: bool = False, **given: Any
    ) -> None:
        if show_schema and verb.schema is not None:
            click.echo(json.dumps(verb.schema(), indent=2, ensure_ascii=False))
            return
        inputs: dict[str, Any] = {}
        files: dict[str, str] = {}
        for arg in verb.args:
            value = given.get(arg.name)
            if arg.kind == "flag":
                inputs[arg.name] = bool(value)
            elif arg.kind == "data":
                spec = engine_data.data_spec(game)
                named = {} if value is None or spec is None else {spec.option: value}
                inputs[arg.name] = _data(game, named)
            elif value is None:
                if arg.required:
                    hint = " (or --schema)" if verb.schema is not None else ""
                    fail(f"give {arg.metavar}{hint}")
                inputs[arg.name] = None
            else:
                files[arg.name] = value
                inputs[arg.name] = read_json(value)
        try:
            result = verb.run(inputs, _lang())
        except verbs.BadInput as exc:
            where = f" at {exc.error.path}" if exc.error.path else ""
            fail(f"{files.get(exc.arg, exc.arg)}{where}: {exc.error.detail}")
        text = json.dumps(result.data, ensure_ascii=False) if as_json else result.text
        if output is not None:
            write_text(output, text + "\n")
        elif as_json:
            click.echo(text)
        else:
            click.echo(text, err=result.code != 0)
        sys.exit(result.code)

    return click.Command(verb.name, params=params, callback=run, help=verb.help)


@rules.command()
@click.pass_obj
def schema(game: Game[Any, Any]) -> None:
    """Print the JSON Schema of the game's state and moves."""
    click.echo(json.dumps(engine_rules.schema(game), indent=2, ensure_ascii=False))


def _options(game: Game[Any, Any], pairs: tuple[str, ...]) -> dict[str, Any]:
    try:
        return parse_options(pairs, game)
    except CliError as exc:
        fail(str(exc))


def _data(game: Game[Any, Any], options: dict[str, Any]) -> engine_data.GameData | None:
    """The game's data the options name, read at the edge (``bridge.gamedata``)."""
    try:
        return gamedata.load(game, options)
    except InputError as exc:
        if len(exc.faults) > 1:  # a data file checked whole: every fault, each with its path
            err.print(f"[bold red]error:[/] {len(exc.faults)} faults in the data:")
            for path, detail in exc.faults:
                err.print(f"  • {escape(path or '$')}: {escape(detail)}")
            sys.exit(EXIT_INPUT)
        where = f" at {exc.path}" if exc.path and exc.path not in exc.detail else ""
        fail(f"{exc.detail}{where}")


DATA_CODES = ("data/incomplete", "data/missing")
"""Violations naming a value the game's data lacks (params ``what``, ``task``, ``where``)."""


def _refused_setup(game: Game[Any, Any], options: dict[str, Any], exc: RuleViolation) -> NoReturn:
    """A game the rules (or its data) cannot start: every reason; a missing value with what it
    is, what the game needs it for and where it is printed."""
    missing = [v for v in exc.violations if v.code in DATA_CODES]
    if missing:
        data = options.get("data", game.info.option_defaults().get("data"))
        err.print(f"[bold red]error:[/] cannot start {game.info.key} with data {data!r}: "
                  f"values the game needs are missing: {len(missing)}")  # fmt: skip
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
            err.print(_said(v, "\n    "))
    sys.exit(EXIT_INPUT)


@rules.command()
@click.argument("players", nargs=-1, required=True)
@click.option("--option", "-o", "opts", multiple=True, metavar="NAME=VALUE",
              help="A rules option (see docs/rules-decisions.md); VALUE is JSON.")  # fmt: skip
@click.option("--data", "data_path", metavar="FILE", type=click.Path(dir_okay=False),
              help="The game data in FILE (same as -o data=FILE).")  # fmt: skip
@click.option("--seed", type=int, default=None,
              help="Also deal what the table shows (shuffles, draws) with this seed, up to "
              "the first move a seat makes.")  # fmt: skip
@click.option("--at", "at_step", metavar="STEP", default=None,
              help="Play on (seeded chance, random legal moves; --seed, else 0) until STEP of "
              "the game's turn flow is open.")  # fmt: skip
@click.option("--embed", is_flag=True,
              help="Hold the game's data in the state rather than naming the set by its "
              "name and digest.")  # fmt: skip
@click.pass_obj
def new(
    game: Game[Any, Any],
    players: tuple[str, ...],
    opts: tuple[str, ...],
    data_path: str | None,
    seed: int | None,
    at_step: str | None,
    embed: bool,
) -> None:
    """Print the starting state for PLAYERS (seat names) as JSON.

    A game whose data lacks a value it needs is refused (exit 2), naming each value. A game
    whose state keeps its data names the set (name and digest) unless --embed is given."""
    options = _options(game, opts)
    if data_path is not None:
        spec = engine_data.data_spec(game)
        if spec is None:
            fail(f"{game.info.key} has no data option")
        options[spec.option] = str(Path(data_path).resolve())
    data = _data(game, options)
    try:
        state = engine_data.setup(game, players, options, data)
        if seed is not None:
            rng = random.Random(seed)
            while (move := game.sample_chance(state, rng)) is not None:
                state = engine_rules.apply(game, state, move)
        if at_step is not None:
            state = selfplay.advance_to(game, state, at_step, random.Random(seed or 0))
    except InputError as exc:
        fail(exc.detail)
    except RuleViolation as exc:
        _refused_setup(game, options, exc)
    _print_state(game, state, None if embed else data)


def _print_violations(violations: list[Violation], to_err: bool = False) -> None:
    console = err if to_err else out
    for v in violations:
        console.print(_said(v, "\n    "))


@rules.command()
@click.argument("state_path", metavar="STATE")
@click.argument("move_path", metavar="[MOVE]", required=False)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_obj
def check(game: Game[Any, Any], state_path: str, move_path: str | None, as_json: bool) -> None:
    """Is MOVE legal in STATE? Lists every violation. Without MOVE, checks the whole position.

    Exit 0 legal, 1 an illegal move, 3 a faulty position (the move is then not checked)."""
    state = _load_state(game, state_path)
    violations = game.check_position(state)
    subject = "position"
    code = EXIT_FAULTY
    if move_path is not None and not violations:
        move = _load_move(game, move_path)
        violations = engine_rules.check(game, state, move)
        subject = "move"
        code = EXIT_ILLEGAL
    elif move_path is not None:
        err.print("[yellow]the position itself is faulty; the move was not checked[/]")
    if as_json:
        click.echo(json.dumps({"legal": not violations, "subject": subject,
                               "violations": [violation_json(v, _lang()) for v in violations]},
                              ensure_ascii=False))  # fmt: skip
    elif not violations:
        said = message(f"cli/legal-{subject}", _lang())
        out.print(f"[green]{escape(said)}[/]")
    else:
        word = "cli/faulty" if code == EXIT_FAULTY else "cli/illegal"
        out.print(f"[red]{escape(message(word, _lang(), n=len(violations)))}[/]")
        _print_violations(violations)
    if violations:
        sys.exit(code)


def _load_move(game: Game[Any, Any], source: str) -> Any:
    """A move from a file, or given inline as JSON (an argument starting with ``{``)."""
    data = _json_arg(source)
    try:
        return engine_rules.decode_move(game, data)
    except InputError as exc:
        _input_error(_arg_name(source), exc)


def _json_arg(source: str) -> Any:
    if source.lstrip().startswith(("{", "[")):
        try:
            return json.loads(source)
        except json.JSONDecodeError as exc:
            fail(f"{_arg_name(source)} is not JSON: {exc.msg} (column {exc.colno})")
    return read_json(source)


def _arg_name(source: str) -> str:
    text = source.strip()
    return f"the move {text[:40]}{'…' if len(text) > 40 else ''}" if text[:1] in "{[" else source


def _sound_state(game: Game[Any, Any], path: str) -> Any:
    """The state in ``path``; a position with faults is refused, listing them (exit 3)."""
    return _sound_state_as(game, path)[0]


def _sound_state_as(game: Game[Any, Any], path: str) -> tuple[Any, engine_data.GameData | None]:
    """As :func:`_sound_state`, with the data the file named by reference (``_load_state_as``)."""
    state, named = _load_state_as(game, path)
    faults = game.check_position(state)
    if faults:
        err.print(f"[red]faulty[/]: {path}: violations: {len(faults)}")
        _print_violations(faults, to_err=True)
        sys.exit(EXIT_FAULTY)
    return state, named


@rules.command()
@click.argument("state_path", metavar="STATE")
@click.argument("move_args", metavar="MOVE...", nargs=-1, required=True)
@click.pass_obj
def apply(game: Game[Any, Any], state_path: str, move_args: tuple[str, ...]) -> None:
    """Apply each MOVE in turn to STATE and print the next state as JSON.

    A MOVE is a JSON file, ``-`` (standard input) or the move inline (``'{"kind": …}'``); a JSON
    array gives several moves at once. Every move is checked first: the first illegal one stops
    with its violations (exit 1) and nothing is printed. A faulty STATE exits 3."""
    state, named = _sound_state_as(game, state_path)
    moves: list[tuple[str, Any]] = []
    for source in move_args:
        data = _json_arg(source)
        for n, item in enumerate(data if isinstance(data, list) else [data]):
            name = _arg_name(source) + (f"[{n}]" if isinstance(data, list) else "")
            try:
                moves.append((name, engine_rules.decode_move(game, item)))
            except InputError as exc:
                _input_error(name, exc)
    for number, (name, move) in enumerate(moves, start=1):
        violations = engine_rules.check(game, state, move)
        if violations:
            whole = json.dumps(engine_rules.encode(move), ensure_ascii=False)
            err.print(f"[red]illegal[/]: move {number} ({escape(name)}): "
                      f"violations: {len(violations)}")  # fmt: skip
            err.print(f"  {escape(whole)}", soft_wrap=True)
            _print_violations(violations, to_err=True)
            sys.exit(EXIT_ILLEGAL)
        state = engine_rules.apply(game, state, move)
    _print_state(game, state, named)


def _type_text(node: dict[str, Any]) -> str:
    """A JSON Schema node as a short type: ``integer``, ``string | null``, ``list of Tile``."""
    if "$ref" in node:
        return str(node["$ref"]).rsplit("/", 1)[-1]
    if "const" in node:
        return json.dumps(node["const"])
    if "enum" in node:
        return " | ".join(json.dumps(v) for v in node["enum"])
    for key in ("anyOf", "oneOf"):
        if key in node:
            return " | ".join(_type_text(n) for n in node[key])
    kind = node.get("type", "any")
    if kind == "array":
        items = node.get("prefixItems") or [node.get("items", {})]
        return "list of " + ", ".join(_type_text(i) for i in items)
    if kind == "object" and "additionalProperties" in node and not node.get("properties"):
        extra = node["additionalProperties"]
        return "map of " + (_type_text(extra) if isinstance(extra, dict) else "any")
    return str(kind)


def move_kinds(game: Game[Any, Any]) -> list[dict[str, Any]]:
    """Each move kind of the game with its fields and description, read from its JSON Schema."""
    doc = engine_rules.schema(game)
    defs = doc["$defs"]
    move = defs["Move"]
    refs = [n["$ref"] for n in move.get("anyOf", move.get("oneOf", [move]))]
    kinds = []
    for ref in refs:
        node = defs[ref.rsplit("/", 1)[-1]]
        props = node.get("properties", {})
        required = set(node.get("required", ()))
        fields = [
            {"name": name, "type": _type_text(p), "required": name in required}
            for name, p in props.items()
            if name != "kind"
        ]
        kind = props.get("kind", {}).get("const", ref.rsplit("/", 1)[-1])
        kinds.append({"kind": kind, "type": ref.rsplit("/", 1)[-1],
                      "description": node.get("description", ""), "fields": fields})  # fmt: skip
    return kinds


@rules.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_obj
def moves(game: Game[Any, Any], as_json: bool) -> None:
    """List every move kind of the game: its fields, their types and what the move does."""
    kinds = move_kinds(game)
    if as_json:
        click.echo(json.dumps(kinds, ensure_ascii=False))
        return
    for k in kinds:
        out.print(f"[bold]{escape(str(k['kind']))}[/] ({k['type']}): {escape(k['description'])}")
        for f in k["fields"]:
            optional = "" if f["required"] else " (optional)"
            out.print(f"    {f['name']}: {escape(f['type'])}{optional}")


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
    table = Table(title=message("income/heading", _lang(), seat=seat))
    lang = _lang()
    table.add_column(message("cli/col-source", lang))
    table.add_column(message("cli/col-amount", lang), justify="right")
    table.add_column(message("cli/col-rule", lang), style="dim")
    for line in lines:
        table.add_row(_line_text(game, line), f"{line.amount:+d}", readable(line.ref))
    table.add_row(f"[bold]{message('cli/col-total', lang)}[/]", f"[bold]{total:+d}[/]", "")
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
    lang = _lang()
    table = Table(title=message("score/heading" if over else "score/heading-standing", lang))
    table.add_column(message("cli/col-rank", lang), justify="right")
    table.add_column(message("cli/col-seat", lang))
    table.add_column(message("cli/col-total", lang), justify="right")
    table.add_column(message("cli/col-breakdown", lang))
    table.add_column(message("cli/col-tiebreak", lang), style="dim")
    for r in game.score(state):
        breakdown = "; ".join(_line_text(game, ln) for ln in r.lines)
        table.add_row(str(r.rank), r.seat, str(r.total), breakdown, " ".join(map(str, r.tiebreak)))
    out.print(table)
    if over:
        winners = game.winners(state)
        label = message("cli/winner" if len(winners) == 1 else "cli/shared-win", lang)
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


def read_log(
    game: Game[Any, Any], path: str, header_optional: bool = False
) -> tuple[log.Header | None, list[log.Event]]:
    """A JSONL log: a header line, then one event per line (exit 2 naming the bad line).

    With ``header_optional`` (replay ``--from``) the header may be left out: a first line that
    is an event (it has a ``kind``) starts the events."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror}")
    lines = [(n, ln) for n, ln in enumerate(text.splitlines(), start=1) if ln.strip()]
    if not lines and not header_optional:
        fail(f"{path} is empty; a log starts with a header line")
    header: log.Header | None = None
    events: list[log.Event] = []
    for n, raw in lines:
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            fail(f"{path}:{n} is not JSON: {exc.msg}")
        try:
            first = n == lines[0][0]
            if first and not (header_optional and isinstance(data, dict) and "kind" in data):
                header = log.decode_header(data)
                if header.game != game.info.key:
                    fail(f"{path}:{n}: the log is for {header.game!r}, not {game.info.key!r}")
            else:
                events.append(log.decode_event(game, data))
        except InputError as exc:
            _input_error(f"{path}:{n}", exc)
    return header, events


@rules.command()
@click.argument("log_path", metavar="LOG.jsonl")
@click.option("--from", "from_path", metavar="STATE",
              help="Replay the log's events from this state instead of the log's setup; the "
                   "log's header line may then be left out.")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_obj
def replay(game: Game[Any, Any], log_path: str, from_path: str | None, as_json: bool) -> None:
    """Replay a game log; print the final state and the score table.

    Exit 1 at the first illegal event (naming its line), 3 when the --from state is faulty."""
    header, events = read_log(game, log_path, header_optional=from_path is not None)
    offset = 1 if header is None else 2
    try:
        if from_path is not None:
            state = _sound_state(game, from_path)
            seats = game.seats(state)
            session = log.Session(game, log.Header(game.info.key, seats, {}), state)
        else:
            assert header is not None
            session = log.restart(game, header, _data(game, dict(header.options)))
        for i, event in enumerate(events, start=offset):
            try:
                session = log.accept(session, event)
            except RuleViolation as exc:
                err.print(f"[bold red]illegal event at {log_path}:{i}[/]")
                for v in exc.violations:
                    err.print(_said(v, "  "))
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
@click.option("--data", "data_path", metavar="SET|FILE", default=None,
              help="Play on this data: a shipped set, a data file or a box file (same as "
              "-o data=...).")  # fmt: skip
@click.option("--check-positions", is_flag=True, help="Check the whole position after each move.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_obj
def selfplay_cmd(
    game: Game[Any, Any],
    games: int,
    seed: int,
    players: int | None,
    opts: tuple[str, ...],
    data_path: str | None,
    check_positions: bool,
    as_json: bool,
) -> None:
    """Random legal play of whole games; counts errors (a correct engine has none).

    Cycles through the game's simulated setups (``info.simulations``); --players and -o narrow
    or override them."""
    info = game.info
    if players is not None and not info.min_players <= players <= info.max_players:
        fail(f"{info.name} takes {info.min_players}-{info.max_players} players, not {players}")
    overrides = _options(game, opts)
    if data_path is not None:
        spec = engine_data.data_spec(game)
        if spec is None:
            fail(f"{game.info.key} has no data option")
        shipped = data_path in spec.shipped
        overrides[spec.option] = data_path if shipped else str(Path(data_path).resolve())
    setups = selfplay.setups(game, players, overrides)
    rng = random.Random(seed)
    errors: list[str] = []
    loaded: dict[int, engine_data.GameData | None] = {}
    moves = 0
    # per player count: a solo setup's errors must not hide among the multi-player games
    tally: dict[int, dict[str, int]] = {}
    start = time.perf_counter()
    with Progress(console=err, transient=True, disable=as_json or not err.is_terminal) as bar:
        task = bar.add_task("selfplay", total=games)
        for i in range(games):
            setup = setups[i % len(setups)]
            seats = tuple(f"p{k + 1}" for k in range(setup.players))
            key = i % len(setups)
            if key not in loaded:
                loaded[key] = _data(game, dict(setup.options))  # once per setup, not per game
            try:
                result = selfplay.play(
                    game, seats, rng, setup.options, check_positions=check_positions,
                    data=loaded[key],
                )  # fmt: skip
            except InputError as exc:
                fail(f"cannot set up {setup.players} seats with {setup.options}: {exc.detail}")
            except RuleViolation as exc:
                _refused_setup(game, setup.options, exc)
            moves += result.session.state_id
            errors.extend(f"game {i + 1}: {e}" for e in result.errors)
            row = tally.setdefault(setup.players, {"games": 0, "errors": 0, "moves": 0})
            row["games"] += 1
            row["errors"] += len(result.errors)
            row["moves"] += result.session.state_id
            bar.advance(task)
    elapsed = time.perf_counter() - start
    payload = {
        "games": games,
        "errors": len(errors),
        "moves": moves,
        "games_per_s": round(games / elapsed, 1) if elapsed > 0 else None,
        "by_players": {str(n): tally[n] for n in sorted(tally)},
    }
    if as_json:
        click.echo(json.dumps(payload))
    else:
        out.print(f"{games} games, {moves} moves, {len(errors)} errors, "
                  f"{payload['games_per_s']} games/s")  # fmt: skip
        if len(tally) > 1:
            for n in sorted(tally):
                row = tally[n]
                out.print(f"  {n} players: {row['games']} games, {row['moves']} moves, "
                          f"{row['errors']} errors")  # fmt: skip
        for e in errors[:20]:
            out.print(f"  [red]•[/] {e}")
    if errors:
        sys.exit(EXIT_ILLEGAL)
