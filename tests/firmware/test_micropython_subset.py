"""Board firmware stays within what MicroPython supports (a static check; CI has no board)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
HOST_ONLY = {"hal_host.py", "host_mqtt.py"}  # the CPython virtual-device layer
ALLOWED_IMPORTS = {"json", "time", "struct", "socket", "sys", "select", "machine", "network"}
ALLOWED_IMPORTS |= {"ssl"}
ALLOWED_IMPORTS |= {"umqtt.simple", "firmware"}

BOARD_FILES = sorted(p for p in FIRMWARE.glob("*.py") if p.name not in HOST_ONLY)


@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: p.name)
def test_board_module_uses_only_the_micropython_subset(path: Path) -> None:
    tree = ast.parse(path.read_text(), filename=str(path))
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
            for name in names:
                root = str(name)
                if root not in ALLOWED_IMPORTS and root.split(".")[0] not in ALLOWED_IMPORTS:
                    problems.append(f"line {node.lineno}: import {name}")
        elif isinstance(node, ast.JoinedStr):
            problems.append(f"line {node.lineno}: f-string")
        elif isinstance(node, ast.AnnAssign) or (
            isinstance(node, ast.FunctionDef)
            and (node.returns or any(a.annotation for a in node.args.args))
        ):
            problems.append(f"line {node.lineno}: annotation")
        elif isinstance(node, ast.ClassDef) and node.decorator_list:
            problems.append(f"line {node.lineno}: class decorator (dataclass?)")
        elif isinstance(node, ast.keyword) and node.arg == "strict":
            problems.append(f"line {node.lineno}: zip(strict=)")
    assert not problems, f"{path.name}: " + "; ".join(problems)
