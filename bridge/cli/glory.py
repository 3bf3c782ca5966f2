"""``herald rules glory duel DUEL.json``: resolve one Glory duel from given dice and choices.

Prints each pass itemised: every step as it happened with both Attacks after it, the Attack
lines of the resolution with their rulebook references, the pass winner and why, then the
Glory lines and the loser's recovery. ``--json`` for machines, ``--schema`` for the file's JSON
Schema. Exit codes: 0 resolved, 1 a move the rules refuse, 2 input that is not a duel file or
lacks a value the duel needs (``data/missing``). The format is in docs/glory.md.
"""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import click
from rich.table import Table

from bridge.cli.io import EXIT_ILLEGAL, EXIT_INPUT, err, fail, out, read_json
from engine import codec
from engine.games.glory import duel, script, views
from engine.games.glory.components import (
    DiceTable,
    KnightData,
    default_knights,
    parse_dice,
    parse_knights,
)
from engine.games.glory.state import DuelState, Knight
from engine.i18n import message
from engine.violations import InputError, RuleViolation


def _violations(exc: RuleViolation, as_json: bool) -> NoReturn:
    missing = any(v.code == "data/missing" for v in exc.violations)
    if as_json:
        payload = {"resolved": False, "violations": [v.to_json() for v in exc.violations]}
        click.echo(json.dumps(payload, ensure_ascii=False))
    else:
        err.print(f"[bold red]refused[/]: {len(exc.violations)} violation(s)")
        for v in exc.violations:
            err.print(f"  • [bold]{v.code}[/] {v.text()}\n    [dim]{v.ref}[/]")
    sys.exit(EXIT_INPUT if missing else EXIT_ILLEGAL)


def _m(code: str, **params: Any) -> str:
    return message(f"glory:{code}", **params)


@click.command(name="duel")
@click.argument("duel_path", metavar="DUEL.json", required=False)
@click.option(
    "--dice", "dice_path", metavar="FILE", help="A full dice face table (data/dice.json)."
)
@click.option("--knights", "knights_path", metavar="FILE", help="A Knights data file.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--schema", "show_schema", is_flag=True, help="Print the DUEL.json JSON Schema.")
def duel_cmd(
    duel_path: str | None,
    dice_path: str | None,
    knights_path: str | None,
    as_json: bool,
    show_schema: bool,
) -> None:
    """Resolve one Glory duel from DUEL.json and print each pass itemised (docs/glory.md)."""
    if show_schema:
        defs: dict[str, Any] = {}
        ref = codec.schema_for(script.DuelScript, defs)
        doc = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": defs, **ref}
        click.echo(json.dumps(doc, indent=2, ensure_ascii=False))
        return
    if duel_path is None:
        fail("give a DUEL.json file (or --schema)")
    table: DiceTable | None = None
    knights: dict[str, KnightData] | None = None
    try:
        if dice_path is not None:
            table = parse_dice(read_json(dice_path))
        if knights_path is not None:
            knights = {**default_knights(), **parse_knights(read_json(knights_path))}
        parsed: script.DuelScript = codec.decode(script.DuelScript, read_json(duel_path))
    except InputError as exc:
        where = f" at {exc.path}" if exc.path else ""
        fail(f"{duel_path}{where}: {exc.detail}")
    if all(isinstance(s, Knight) for s in parsed.sides):
        _knights(parsed, knights, as_json)
        return
    try:
        state = script.run(parsed, table, knights)
    except RuleViolation as exc:
        _violations(exc, as_json)
    except InputError as exc:
        fail(f"{duel_path}: {exc.detail}")
    report = views.report(state)
    if as_json:
        click.echo(json.dumps({"resolved": True, **report}, ensure_ascii=False))
        return
    _print(state, report)


def _knights(
    parsed: script.DuelScript, knights: dict[str, KnightData] | None, as_json: bool
) -> None:
    left, right = script.sides_of(parsed, knights)
    assert isinstance(left, Knight) and isinstance(right, Knight)
    try:
        winner, reason = duel.knight_vs_knight(left, right)
    except RuleViolation as exc:
        _violations(exc, as_json)
    if as_json:
        click.echo(json.dumps({"resolved": True, "winner": winner, "reason": reason}))
    else:
        out.print(_m("cli/knights", winner=winner, reason=reason))


def _print(state: DuelState, report: dict[str, Any]) -> None:
    names = report["sides"]

    def score(attack: list[int]) -> str:
        return f"[dim]({names[0]} {attack[0]} : {names[1]} {attack[1]})[/]"

    if report["tent"]:
        out.print(f"[bold]{_m('cli/tent')}[/]")
        for step in report["tent"]:
            out.print(f"  {step['text']}")
    for p in report["passes"]:
        out.print(f"\n[bold]{_m('cli/pass', number=p['pass'])}[/]")
        for step in p["steps"]:
            out.print(f"  [cyan]{step['step']:>8}[/] {step['text']} {score(step['attack'])}")
        for a in p["attacks"]:
            table = Table(title=_m("cli/attack-of", side=a["side"]), title_justify="left")
            table.add_column("line")
            table.add_column("Attack", justify="right")
            table.add_column("rule", style="dim")
            for line in a["lines"]:
                table.add_row(line["text"], f"{line['amount']:+d}", line["ref"])
            extra = "" if a["prestige"] is None else f"  (Prestige {a['prestige']})"
            table.add_row(f"[bold]total[/]{extra}", f"[bold]{a['total']}[/]", "")
            out.print(table)
        flipped = f" ({p['prestige_flipped']} flipped)" if p["prestige_flipped"] else ""
        out.print(f"  [bold]{p['reason_text']}[/]{flipped}")
    score_text = "-".join(str(report["score"][n]) for n in names)
    out.print(f"\n[bold]{_m('cli/duel-winner', winner=state.winner, score=score_text)}[/]")
    out.print(f"[bold]{_m('cli/end')}[/]")
    for g in report["glory"]:
        out.print(f"  {g['side']}: {g['amount']:+d} Glory — {g['text']} [dim]{g['ref']}[/]")
    for step in report["end"]:
        out.print(f"  {step['text']}")
    for name, final in report["final"].items():
        out.print(f"  [dim]{name}: {json.dumps(final, ensure_ascii=False)}[/]")
