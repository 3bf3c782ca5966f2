"""What every ``herald`` command shares: consoles, exit codes, reading JSON input, failing clearly.

Input that cannot be read or is not JSON exits with ``EXIT_INPUT`` and a message naming the file
and where in it; commands never print a traceback for a user's bad file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, NoReturn

from rich.console import Console

EXIT_ILLEGAL = 1
EXIT_INPUT = 2

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def fail(text: str, code: int = EXIT_INPUT) -> NoReturn:
    err.print(f"[bold red]error:[/] {text}")
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
