"""The ``herald`` command. Each subcommand group lives in its own module and is registered here."""

from __future__ import annotations

import click

from bridge.cli.demo import demo
from bridge.cli.rules import rules
from bridge.cli.tts import tts


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="herald")
def main() -> None:
    """Herald: a rules referee for physical board games."""


main.add_command(rules)
main.add_command(demo)
main.add_command(tts)
