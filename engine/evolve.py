"""A fast ``dataclasses.replace`` for the engine's frozen, slotted state records.

``dataclasses.replace`` walks the field list and re-runs ``__init__`` on every call; state
updates are the engine's hot path (a four-player game makes several hundred of them), and it was
most of the cost of a simulated game. ``evolve`` copies the slots with a per-class function
generated once, the way ``dataclasses`` itself builds ``__init__``. It skips ``__post_init__`` on
purpose: it is for engine-internal updates of already-valid records, never for building records
from outside input (the codec does that, through ``__init__``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


_COPIERS: dict[type, tuple[Callable[[Any, dict[str, Any]], Any], frozenset[str]]] = {}


def _copier(cls: type) -> tuple[Callable[[Any, dict[str, Any]], Any], frozenset[str]]:
    found = _COPIERS.get(cls)
    if found is not None:
        return found
    names = tuple(f.name for f in dataclasses.fields(cls))
    body = "".join(f"    s(new, {n!r}, g({n!r}, obj.{n}))\n" for n in names)
    source = f"def copy(obj, kw):\n    new = n(c)\n    g = kw.get\n{body}    return new\n"
    scope: dict[str, Any] = {"n": object.__new__, "c": cls, "s": object.__setattr__}
    exec(source, scope)
    found = _COPIERS[cls] = (scope["copy"], frozenset(names))
    return found


def evolve(obj: T, **changes: Any) -> T:
    """A copy of the dataclass ``obj`` with ``changes`` applied (unknown names raise)."""
    copy, known = _copier(type(obj))
    if not changes.keys() <= known:
        raise TypeError(f"{type(obj).__name__} has no field(s) {sorted(set(changes) - known)}")
    result: T = copy(obj, changes)
    return result
