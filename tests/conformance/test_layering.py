"""Engine layering (shared/DESIGN.md "Layers"): engine/ imports no bridge, vision, I/O or web
library, and the core (engine outside engine/games, bridge/, vision/, the pages) names no game.

Read from the source with ``ast`` and ``git grep``, so a violation is named by file and line.
"""

from __future__ import annotations

import ast
import re
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


GAME_PROBE = re.compile(r"\b(getattr|hasattr)\(\s*(game\b|self\._?game\b|\w*\.?get_game\()")
"""``getattr(game, ...)`` and its kin: a game asked for a verb by name, past the typed lookup."""


def test_only_the_capability_lookup_probes_a_game_for_a_verb() -> None:
    """The core asks a game for an optional verb only through ``engine.capabilities.capability``
    (typed, so mypy checks the call), never with ``getattr``/``hasattr`` by name."""
    found = []
    for top in ("engine", "bridge", "vision"):
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel.startswith("engine/games/") or rel == "engine/capabilities.py":
                continue
            for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if GAME_PROBE.search(line):
                    found.append(f"{rel}:{lineno}: {line.strip()}")
    assert found == [], "\n".join(found)


CYCLE_ROOTS = ("engine", "bridge", "vision", "firmware")
"""The packages whose modules may not import one another in a circle."""


def _module_paths() -> dict[str, Path]:
    found = {}
    for top in CYCLE_ROOTS:
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _type_checking_only(tree: ast.AST) -> set[int]:
    """The ids of nodes inside ``if TYPE_CHECKING:`` bodies (imports for annotations only:
    they never run, so they are no dependency at run time)."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING"):
            for inner in node.body:
                skip.update(id(n) for n in ast.walk(inner))
    return skip


def imported_modules(source: str, module: str, is_package: bool, known: set[str]) -> set[str]:
    """Every module of ``known`` that ``module``'s source imports: at module level and inside
    functions alike (an import deferred into a function still makes one module need the
    other), but not under ``if TYPE_CHECKING:``. ``from package import name`` counts as an
    import of ``package.name`` when that is a module, else of ``package``."""

    def known_prefix(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    package = module if is_package else module.rpartition(".")[0]
    tree = ast.parse(source)
    skip = _type_checking_only(tree)
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out.update(n for a in node.names if (n := known_prefix(a.name)))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                target = known_prefix(f"{base}.{alias.name}") or known_prefix(base)
                if target:
                    out.add(target)
    out.discard(module)
    return out


def import_graph() -> dict[str, set[str]]:
    """Module → the modules it imports, over every module of ``CYCLE_ROOTS``."""
    paths = _module_paths()
    known = set(paths)
    return {
        module: imported_modules(
            path.read_text(encoding="utf-8"), module, path.name == "__init__.py", known
        )
        for module, path in paths.items()
    }


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of two or more modules (Tarjan's algorithm), each sorted,
    smallest first: every module of a group reaches every other through imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(groups, key=lambda g: (len(g), g))


def test_the_cycle_check_counts_deferred_imports_but_not_type_checking_ones() -> None:
    known = {"pkg", "pkg.a", "pkg.b", "pkg.c"}
    source = (
        "from typing import TYPE_CHECKING\n"
        "from . import b\n"
        "if TYPE_CHECKING:\n"
        "    from pkg.c import Thing\n"
        "else:\n"
        "    import json\n"
        "def later():\n"
        "    from .c import helper\n"
        "    import pkg\n"
    )
    assert imported_modules(source, "pkg.a", False, known) == {"pkg.b", "pkg.c", "pkg"}
    assert imported_modules("from .c import x", "pkg", True, known) == {"pkg.c"}
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert import_cycles(graph) == [["a", "b", "c"]]


def test_no_module_imports_itself_through_others() -> None:
    """No import cycle among the modules of engine/, bridge/, vision/ and firmware/, counting
    imports inside functions: a cycle dodged by a deferred import is still two modules that
    each need the other (DESIGN.md's layers run one way)."""
    cycles = import_cycles(import_graph())
    listed = "\n".join(f"  cycle of {len(c)}: {', '.join(c)}" for c in cycles)
    assert cycles == [], f"{len(cycles)} import cycles:\n{listed}"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__]))
