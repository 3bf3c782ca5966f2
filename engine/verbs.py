"""A game's own command-line verbs, declared as pure functions the generic CLI exposes.

Every game gets the same calculator verbs (``herald rules GAME schema|new|check|apply|…``). A game
that has more to offer (resolving one sub-game from a file, say) declares it in its package's
``cli.py`` as a module-level ``VERBS: tuple[Verb, ...]``. A verb is pure: it takes its inputs
already read and parsed (JSON values, flags) and returns a :class:`VerbResult` carrying JSON for
machines, text for people and an exit code. The CLI (``bridge/cli/rules.py``) reads the files,
prints and exits; it names no game and no verb.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from engine import registry
from engine.capabilities import CLI_VERBS, capability
from engine.violations import InputError

EXIT_OK = 0
EXIT_ILLEGAL = 1
EXIT_INPUT = 2
EXIT_FAULTY = 3
"""The exit codes of ``herald rules``: fine, an illegal move, bad input, a faulty position."""


@dataclass(frozen=True)
class VerbArg:
    """One input of a verb.

    ``kind``: ``"json"`` is a JSON file (``-`` for standard input) the CLI reads and hands in
    parsed; ``"flag"`` is a boolean switch; ``"data"`` is the game's data (``engine.data``): the
    CLI loads the shipped set or file ``--NAME`` names (the game's default set when not given)
    and hands in the ``GameData``, so a verb never reads a file. A positional ``json`` argument
    is given bare (``ROUND.json``), an option one as ``--name FILE``. A missing optional input is
    ``None`` (``False`` for a flag).
    """

    name: str
    help: str
    kind: Literal["json", "flag", "data"] = "json"
    positional: bool = False
    required: bool = False
    metavar: str = "FILE"


@dataclass(frozen=True)
class VerbResult:
    """What a verb returns: ``data`` for ``--json``, ``text`` for people, the exit ``code``."""

    data: dict[str, Any]
    text: str
    code: int = EXIT_OK


@dataclass(frozen=True)
class Verb:
    """A game's own verb: ``herald rules GAME <name> …``.

    ``run(inputs, lang)`` gets every :class:`VerbArg` by name. ``schema()``, when given, returns
    the JSON Schema of the verb's main input, printed by ``--schema``.
    """

    name: str
    help: str
    args: tuple[VerbArg, ...]
    run: Callable[[Mapping[str, Any], str], VerbResult]
    schema: Callable[[], dict[str, Any]] | None = None


def game_verbs(key: str) -> tuple[Verb, ...]:
    """The verbs the game registered as ``key`` declares in its package's ``cli`` module (none
    when it has no such module)."""
    module = registry.package_module(key, "cli")
    found = capability(module, CLI_VERBS) if module else None
    return tuple(found.VERBS) if found is not None else ()


def find_verb(key: str, name: str) -> Verb | None:
    """The game's verb called ``name``, or None."""
    return next((v for v in game_verbs(key) if v.name == name), None)


def json_schema_doc(defs: dict[str, Any], ref: dict[str, Any]) -> dict[str, Any]:
    """A standalone JSON Schema document around ``ref`` and its definitions."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": defs, **ref}


class BadInput(ValueError):
    """A verb's input ``arg`` is not what it must be; the CLI names the file it came from."""

    def __init__(self, arg: str, error: InputError) -> None:
        super().__init__(f"{arg}: {error.detail}")
        self.arg = arg
        self.error = error
