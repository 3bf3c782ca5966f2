"""The ``herald`` command. Each subcommand group lives in its own module and is registered here.

The modules load when their command runs (click's lazy-loading pattern): `herald serve` need not
import the vision benchmarks, nor `herald rules` the web server. Every test that starts a served
table pays the start-up, so it is kept to what the command uses.
"""

from __future__ import annotations

import importlib

import click

COMMANDS = {
    "bench": "bridge.cli.bench:bench",
    "box": "bridge.cli.box:box",
    "demo": "bridge.cli.demo:demo",
    "rules": "bridge.cli.rules:rules",
    "serve": "bridge.cli.serve:serve",
    "sessions": "bridge.cli.sessions:sessions",
    "stickers": "bridge.cli.stickers:stickers",
    "tts": "bridge.cli.tts:tts",
    "venue": "bridge.cli.venue:venue",
    "vision": "bridge.cli.vision:vision",
}
"""Each subcommand and where it is defined."""


class LazyGroup(click.Group):
    """A group whose subcommands are imported when asked for by name (or listed for --help)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return super().get_command(ctx, cmd_name)
        module, _, attr = COMMANDS[cmd_name].partition(":")
        command = getattr(importlib.import_module(module), attr)
        if not isinstance(command, click.Command):
            raise TypeError(f"{COMMANDS[cmd_name]} is not a click command")
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="herald")
def main() -> None:
    """Herald: a rules referee for physical board games."""
