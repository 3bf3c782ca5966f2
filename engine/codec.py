"""JSON round-trip and JSON Schema for the engine's frozen dataclasses, from their type hints.

One source of truth: a game declares its state and moves as typed dataclasses; this module turns
them into JSON, back, and into the JSON Schema that ships with the game. A dataclass with a
``kind`` class variable is *tagged*: its JSON carries ``"kind"`` and a union of tagged classes is
decoded by that tag (how moves of one game are told apart).

Supported field types: ``int``, ``float``, ``str``, ``bool``, ``None``, ``Literal[...]``,
``tuple[X, ...]``, fixed ``tuple[X, Y]``, ``X | None`` and unions of tagged dataclasses, nested
dataclasses, ``dict[str, X]``, ``Any`` (passed through as JSON), and ``Annotated[X, {...}]`` whose
dict adds JSON Schema keywords (``minimum``, ``maxItems``...) to X's schema.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

from engine.violations import InputError

T = TypeVar("T")

_SCALARS: dict[type, str] = {int: "integer", float: "number", str: "string", bool: "boolean"}


_HINTS: dict[type, tuple[tuple[str, Any], ...]] = {}


def _hints(cls: type) -> tuple[tuple[str, Any], ...]:
    """(name, type) of the init fields, resolved once per class."""
    found = _HINTS.get(cls)
    if found is None:
        hints = get_type_hints(cls, include_extras=True)
        fields = dataclasses.fields(cls)
        found = _HINTS[cls] = tuple((f.name, hints[f.name]) for f in fields if f.init)
    return found


def kind_of(cls: type) -> str | None:
    """The tag of a tagged dataclass, or None."""
    kind = cls.__dict__.get("kind")
    return kind if isinstance(kind, str) else None


_PLAIN: frozenset[type] = frozenset({int, float, str, bool, type(None)})
"""Types that are their own JSON (exactly these: a subclass takes the general path)."""

_PLANS: dict[type, tuple[str | None, tuple[str, ...]] | None] = {}


def _plan(cls: type) -> tuple[str | None, tuple[str, ...]] | None:
    """A dataclass's tag and field names (None: not a dataclass), worked out once per class."""
    try:
        return _PLANS[cls]
    except KeyError:
        found = None
        if dataclasses.is_dataclass(cls) and not issubclass(cls, type):
            found = (kind_of(cls), tuple(name for name, _ in _hints(cls)))
        _PLANS[cls] = found
        return found


def encode(obj: Any, skip: frozenset[str] = frozenset()) -> Any:
    """Plain JSON (dicts, lists, scalars) for a dataclass tree.

    ``skip`` names top-level fields left out: a view that drops a large field (a box of
    components nobody sees) should not pay for encoding it on every move. Every view and every
    stored move goes through here, so the common types are told apart by ``type`` first and a
    dataclass's fields are looked up once per class."""
    cls = type(obj)
    if cls in _PLAIN:
        return obj
    if cls is tuple or cls is list:
        return [encode(x) for x in obj]
    if cls is dict:
        return {str(k): encode(v) for k, v in obj.items()}
    plan = _plan(cls)
    if plan is not None:
        kind, names = plan
        out: dict[str, Any] = {} if kind is None else {"kind": kind}
        for name in names:
            if name not in skip:
                out[name] = encode(getattr(obj, name))
        return out
    if isinstance(obj, tuple | list):
        return [encode(x) for x in obj]
    if isinstance(obj, dict):
        return {str(k): encode(v) for k, v in obj.items()}
    return obj


def _union_members(tp: Any) -> tuple[Any, ...] | None:
    origin = get_origin(tp)
    if origin is Union or origin is types.UnionType:
        return get_args(tp)
    return None


def decode(tp: Any, data: Any, path: str = "$") -> Any:
    """Build a value of type ``tp`` from JSON, raising ``InputError`` with the JSON path."""
    if tp is Any:
        return data
    if get_origin(tp) is Annotated:
        return decode(get_args(tp)[0], data, path)
    if tp is type(None) or tp is None:
        if data is not None:
            raise InputError("input/type", f"expected null, got {data!r}", path)
        return None
    members = _union_members(tp)
    if members is not None:
        return _decode_union(members, data, path)
    origin = get_origin(tp)
    if origin is Literal:
        allowed = get_args(tp)
        if data not in allowed or type(data) is not type(allowed[0]):
            raise InputError("input/enum", f"expected one of {list(allowed)}, got {data!r}", path)
        return data
    if origin is tuple:
        args = get_args(tp)
        if not isinstance(data, list):
            raise InputError("input/type", f"expected an array, got {type(data).__name__}", path)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], x, f"{path}[{i}]") for i, x in enumerate(data))
        if len(data) != len(args):
            raise InputError("input/length", f"expected {len(args)} items, got {len(data)}", path)
        pairs = enumerate(zip(args, data, strict=True))
        return tuple(decode(a, x, f"{path}[{i}]") for i, (a, x) in pairs)
    if origin is dict:
        key_tp, value_tp = get_args(tp)
        if not isinstance(data, dict):
            raise InputError("input/type", f"expected an object, got {type(data).__name__}", path)
        return {_key(key_tp, k, path): decode(value_tp, v, f"{path}.{k}") for k, v in data.items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _decode_dataclass(tp, data, path)
    if tp in _SCALARS:
        ok = isinstance(data, tp) and not (tp is not bool and isinstance(data, bool))
        if tp is float and isinstance(data, int) and not isinstance(data, bool):
            return float(data)
        if not ok:
            raise InputError("input/type", f"expected {_SCALARS[tp]}, got {data!r}", path)
        return data
    raise TypeError(f"codec cannot handle type {tp!r}")


def _key(tp: Any, key: str, path: str) -> Any:
    """A dict key from JSON: object keys are strings, so a dict keyed by ``int`` (or by a
    ``Literal`` of ints) gets its keys back as numbers; other keys stay strings."""
    numbers = tp is int or (get_origin(tp) is Literal and all(
        isinstance(a, int) and not isinstance(a, bool) for a in get_args(tp)))  # fmt: skip
    if not numbers:
        return str(key)
    try:
        number = int(key)
    except ValueError:
        raise InputError("input/type", f"expected a number as key, got {key!r}", path) from None
    if tp is not int and number not in get_args(tp):
        raise InputError("input/enum", f"expected one of {list(get_args(tp))}, got {key!r}", path)
    return number


def _decode_union(members: tuple[Any, ...], data: Any, path: str) -> Any:
    if data is None and type(None) in members:
        return None
    rest = [m for m in members if m is not type(None)]
    tagged: dict[str, type] = {}
    for m in rest:
        kind = kind_of(m) if isinstance(m, type) else None
        if kind is not None:
            tagged[kind] = m
    if tagged and len(tagged) == len(rest):
        if not isinstance(data, dict) or "kind" not in data:
            raise InputError("input/kind", "expected an object with a 'kind' field", path)
        cls = tagged.get(data["kind"])
        if cls is None:
            raise InputError(
                "input/kind", f"unknown kind {data['kind']!r}; known: {sorted(tagged)}", path
            )
        return _decode_dataclass(cls, data, path)
    if len(rest) == 1:
        return decode(rest[0], data, path)
    errors = []
    for m in rest:
        try:
            return decode(m, data, path)
        except InputError as exc:
            errors.append(exc.detail)
    raise InputError("input/type", "; ".join(errors), path)


def _decode_dataclass(cls: type[T], data: Any, path: str) -> T:
    if not isinstance(data, dict):
        raise InputError("input/type", f"expected an object, got {type(data).__name__}", path)
    fields = _hints(cls)
    names = {n for n, _ in fields}
    kind = kind_of(cls)
    extra = set(data) - names - ({"kind"} if kind else set())
    if extra:
        raise InputError("input/unknown-field", f"unknown field(s) {sorted(extra)}", path)
    if kind is not None and data.get("kind", kind) != kind:
        raise InputError("input/kind", f"expected kind {kind!r}", path)
    defaults = {f.name for f in dataclasses.fields(cls) if _has_default(f)}  # type: ignore[arg-type]
    kwargs: dict[str, Any] = {}
    for name, tp in fields:
        if name not in data:
            if name in defaults:
                continue
            raise InputError("input/missing-field", f"missing field {name!r}", path)
        kwargs[name] = decode(tp, data[name], f"{path}.{name}")
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise InputError("input/invalid", str(exc), path) from exc


def _has_default(f: dataclasses.Field[Any]) -> bool:
    return f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING


def schema_for(tp: Any, defs: dict[str, Any]) -> dict[str, Any]:
    """JSON Schema for ``tp``; dataclasses go into ``defs`` and are referenced by name."""
    if tp is Any:
        return {}
    if get_origin(tp) is Annotated:
        base, *extras = get_args(tp)
        out = dict(schema_for(base, defs))
        for extra in extras:
            if isinstance(extra, dict):
                out.update(extra)
        return out
    if tp is type(None) or tp is None:
        return {"type": "null"}
    members = _union_members(tp)
    if members is not None:
        return {"anyOf": [schema_for(m, defs) for m in members]}
    origin = get_origin(tp)
    if origin is Literal:
        return {"enum": list(get_args(tp))}
    if origin is tuple:
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": schema_for(args[0], defs)}
        return {
            "type": "array",
            "prefixItems": [schema_for(a, defs) for a in args],
            "minItems": len(args),
            "maxItems": len(args),
        }
    if origin is dict:
        return {"type": "object", "additionalProperties": schema_for(get_args(tp)[1], defs)}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        name = tp.__name__
        if defs.get(name):
            # two dataclasses of one name would share (and corrupt) one definition
            fields_of = {f.name for f in dataclasses.fields(tp) if f.init}
            if kind_of(tp) is not None:
                fields_of.add("kind")
            if set(defs[name].get("properties", {})) != fields_of:
                raise TypeError(f"two dataclasses named {name!r} in one schema ({tp!r})")
        if name not in defs:
            defs[name] = {}  # placeholder against recursion
            props: dict[str, Any] = {}
            kind = kind_of(tp)
            if kind is not None:
                props["kind"] = {"const": kind}
            required = ["kind"] if kind else []
            for f in dataclasses.fields(tp):
                if not f.init:
                    continue  # derived when built (an index): not part of the JSON
                hint = dict(_hints(tp))[f.name]
                props[f.name] = schema_for(hint, defs)
                if not _has_default(f):
                    required.append(f.name)
            entry: dict[str, Any] = {
                "type": "object",
                "properties": props,
                "required": required,
                "additionalProperties": False,
            }
            doc = (tp.__doc__ or "").strip().split("\n")[0]
            if doc and not doc.startswith(name + "("):
                entry["description"] = doc
            defs[name] = entry
        return {"$ref": f"#/$defs/{name}"}
    if tp in _SCALARS:
        return {"type": _SCALARS[tp]}
    raise TypeError(f"codec cannot make a schema for {tp!r}")


def union_of(classes: typing.Sequence[type]) -> Any:
    """The ``Union`` of several classes, for decoding a move of any kind."""
    return Union[tuple(classes)]  # noqa: UP007 - built at run time from a sequence
