"""Engine layering (shared/DESIGN.md "Layers"): engine/ imports no bridge, vision, I/O or web
library, and the core (engine outside engine/games, bridge/, vision/, the pages) names no game.

Read from the source with ``ast`` and ``git grep``, so a violation is named by file and line.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from engine import registry

ROOT = Path(__file__).resolve().parents[2]
PURE_STDLIB = {
    "__future__", "abc", "bisect", "collections", "copy", "dataclasses", "enum", "fractions",
    "functools", "hashlib", "heapq", "itertools", "json", "math", "numbers", "operator", "random",
    "re", "statistics", "string", "textwrap", "types", "typing", "unicodedata",
}  # fmt: skip
"""Standard modules with no I/O, clock or thread (``random`` only for the ``Random`` a caller
hands in: the engine never draws by itself)."""
THIRD_PARTY = {"jsonschema", "jsonschema_rs", "babel"}
"""The schema-validation and plural-rules libraries DESIGN.md allows the engine (jsonschema-rs
answers "valid?", Python's jsonschema words the refusal: one schema, one job)."""
PACKAGE_DATA = {"engine/i18n/__init__.py", "engine/registry.py"}
"""Where the engine may look up installed packages and their shipped data (catalogs, entry
points): ``importlib`` only, never a path a user gives."""

STILL_READING_FILES: dict[str, set[str]] = {}
"""Known debt: modules that still read files inside the rules (none since the games' data are
loaded at the edge, ``engine.data``). Listed so the test holds the line: no new module may do
it, and each entry must go once fixed (the test fails while an entry is stale)."""


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module))
    return out


def test_the_engine_imports_no_io_web_bridge_or_vision_library() -> None:
    bad = []
    debt: dict[str, set[str]] = {}
    for path in sorted((ROOT / "engine").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for line, name in _imports(path):
            top = name.split(".")[0]
            if top == "engine" or top in PURE_STDLIB or top in THIRD_PARTY:
                continue
            if top == "importlib" and rel in PACKAGE_DATA:
                continue
            if top in STILL_READING_FILES.get(rel, set()):
                debt.setdefault(rel, set()).add(top)
                continue
            bad.append(f"{rel}:{line} imports {name}")
    assert bad == []
    assert debt == STILL_READING_FILES, "a listed module no longer reads files: drop it"


def _tracked(*paths: str) -> list[str]:
    out = subprocess.run(["git", "ls-files", *paths], cwd=ROOT, capture_output=True, text=True)
    return [p for p in out.stdout.splitlines() if not p.startswith("engine/games/")]


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="needs the git checkout")
def test_the_core_names_no_game() -> None:
    """No registered game's key or package name in the core's code or pages; the Makefile's
    choice of ``make run``'s default game is the one allowed place."""
    core = _tracked("engine", "bridge", "vision", "firmware", "bench", "pyproject.toml")
    words = set()
    for key in registry.game_keys():
        package = registry.package_files(key)
        words |= {key.lower(), Path(str(package)).name.lower()}
    found = []
    for rel in core:
        if rel == "pyproject.toml":
            continue  # the entry points that register the games we ship
        text = (ROOT / rel).read_text(encoding="utf-8", errors="replace").lower()
        found += [
            f"{rel}:{lineno}: {w}"
            for lineno, line in enumerate(text.splitlines(), 1)
            for w in sorted(words)
            if w in line
        ]
    assert found == [], "\n".join(found[:40])


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__]))
