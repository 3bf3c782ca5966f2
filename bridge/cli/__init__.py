"""The ``herald`` command. Each subcommand group lives in its own module and is registered here."""

from __future__ import annotations

import click

from bridge.cli.bench import bench
from bridge.cli.demo import demo
from bridge.cli.rules import rules
from bridge.cli.serve import serve
from bridge.cli.sessions import sessions
from bridge.cli.stickers import stickers
from bridge.cli.tts import tts
from bridge.cli.venue import venue
from bridge.cli.vision import vision


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="herald")
def main() -> None:
    """Herald: a rules referee for physical board games."""


main.add_command(rules)
main.add_command(demo)
main.add_command(tts)
main.add_command(serve)
main.add_command(sessions)
main.add_command(vision)
main.add_command(stickers)
main.add_command(bench)
main.add_command(venue)
