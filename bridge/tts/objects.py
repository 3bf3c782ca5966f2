"""The one shape in which Herald describes TTS objects, whether read live or from a save file.

A ``TTSObject`` is what TTS knows about one object, with no game meaning attached: GUID, internal
name, nickname, description, GM notes, tags, position, rotation, scale, face-down, die value and
the objects inside it (bags and decks). Game meaning is added later by a profile. The JSON form
(``to_json``/``from_json``) is the output of ``herald tts snapshot`` and ``herald tts load``:

    {"objects": [{"guid", "name", "nickname", "position", "rotation", ..., "contained": [...]}]}

Positions are TTS world units; ``x`` runs left-right, ``y`` up, ``z`` front-back. Objects inside a
container have no position of their own (``None``): TTS does not report one for them live, and a
save file's transform for them is meaningless.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

Vec3 = tuple[float, float, float]

#: Internal names (``Name`` in a save, ``object.name`` live) of scripting zones.
ZONE_NAMES = frozenset({"ScriptingTrigger"})
#: Live ``object.type`` of scripting zones.
ZONE_TYPES = frozenset({"Scripting"})


class ObjectFormatError(ValueError):
    """A value that should describe an object does not; ``path`` says where."""

    def __init__(self, path: str, detail: str) -> None:
        self.path = path
        self.detail = detail
        super().__init__(f"{path}: {detail}")


@dataclass(frozen=True)
class TTSObject:
    """One TTS object as TTS reports it.

    Attributes:
        guid: TTS's six-character id (may be empty for contained objects in old saves).
        name: internal resource name (``"Custom_Tile"``, ``"Deck"``); ``None`` when TTS does not
            report it (objects inside containers, read live).
        nickname: the name players see (``getName()``).
        type: TTS's live object type (``"Dice"``, ``"Deck"``, ``"Scripting"``); ``None`` from saves.
        face_down: whether the object lies roughly face-down; ``None`` when unknown.
        value: a die's (or rotation-valued object's) face-up value; ``None`` otherwise.
        card_id: a card's ``CardID`` (deck id * 100 + index), when known.
    """

    guid: str
    name: str | None = None
    nickname: str = ""
    description: str = ""
    gm_notes: str = ""
    tags: tuple[str, ...] = ()
    type: str | None = None
    position: Vec3 | None = None
    rotation: Vec3 | None = None
    scale: Vec3 | None = None
    face_down: bool | None = None
    value: Any = None
    card_id: int | None = None
    contained: tuple[TTSObject, ...] = ()

    @property
    def is_zone(self) -> bool:
        """Whether this is a scripting zone (whose box a profile may use as a region)."""
        return (self.name in ZONE_NAMES) or (self.type in ZONE_TYPES)

    def walk(self) -> Iterator[tuple[TTSObject, TTSObject | None]]:
        """This object and everything inside it, each with its direct container."""
        yield self, None
        for inner in self.contained:
            for obj, parent in inner.walk():
                yield obj, (parent if parent is not None else self)

    def to_json(self) -> dict[str, Any]:
        return {
            "guid": self.guid,
            "name": self.name,
            "nickname": self.nickname,
            "description": self.description,
            "gm_notes": self.gm_notes,
            "tags": list(self.tags),
            "type": self.type,
            "position": _vec_json(self.position),
            "rotation": _vec_json(self.rotation),
            "scale": _vec_json(self.scale),
            "face_down": self.face_down,
            "value": self.value,
            "card_id": self.card_id,
            "contained": [o.to_json() for o in self.contained],
        }

    @classmethod
    def from_json(cls, data: Any, path: str = "object") -> TTSObject:
        """Read the JSON form (also what the Lua reader returns).

        Lenient where TTS's ``JSON.encode`` is loose: missing keys are defaults, an empty Lua
        table may come as ``{}`` or ``[]``, vectors may be ``{"x","y","z"}`` or ``[x, y, z]``.

        Raises:
            ObjectFormatError: a present value has the wrong type.
        """
        if not isinstance(data, Mapping):
            raise ObjectFormatError(path, f"expected an object, got {type(data).__name__}")
        guid = data.get("guid", "")
        if not isinstance(guid, str):
            raise ObjectFormatError(f"{path}.guid", "expected a string")
        contained_raw = _as_list(data.get("contained"), f"{path}.contained")
        face_down = data.get("face_down")
        if face_down is not None and not isinstance(face_down, bool):
            raise ObjectFormatError(f"{path}.face_down", "expected true, false or null")
        card_id = data.get("card_id")
        if card_id is not None:
            if isinstance(card_id, bool) or not isinstance(card_id, int | float):
                raise ObjectFormatError(f"{path}.card_id", "expected a number")
            card_id = int(card_id)
        return cls(
            guid=guid,
            name=_opt_str(data.get("name"), f"{path}.name"),
            nickname=_opt_str(data.get("nickname"), f"{path}.nickname") or "",
            description=_opt_str(data.get("description"), f"{path}.description") or "",
            gm_notes=_opt_str(data.get("gm_notes"), f"{path}.gm_notes") or "",
            tags=tuple(
                _opt_str(t, f"{path}.tags[{i}]") or ""
                for i, t in enumerate(_as_list(data.get("tags"), f"{path}.tags"))
            ),
            type=_opt_str(data.get("type"), f"{path}.type"),
            position=_vec(data.get("position"), f"{path}.position"),
            rotation=_vec(data.get("rotation"), f"{path}.rotation"),
            scale=_vec(data.get("scale"), f"{path}.scale"),
            face_down=face_down,
            value=data.get("value"),
            card_id=card_id,
            contained=tuple(
                cls.from_json(item, f"{path}.contained[{i}]")
                for i, item in enumerate(contained_raw)
            ),
        )


def objects_to_json(objects: tuple[TTSObject, ...] | list[TTSObject]) -> dict[str, Any]:
    """The ``{"objects": [...]}`` document both CLI commands print."""
    return {"objects": [o.to_json() for o in objects]}


def face_down_from_rotation(rotation: Vec3) -> bool:
    """Whether an object with these Euler angles (degrees) has its top facing down.

    TTS (Unity) applies Z, then X, then Y; the local up axis then has world height
    ``cos(x) * cos(z)``. Negative means the object's face (its +Y side) points at the table,
    which is how TTS defines ``is_face_down``. Used for save files, which store no such flag.
    """
    rx, _ry, rz = (math.radians(a) for a in rotation)
    return math.cos(rx) * math.cos(rz) < 0


def _vec_json(v: Vec3 | None) -> dict[str, float] | None:
    return None if v is None else {"x": v[0], "y": v[1], "z": v[2]}


def _num(value: Any, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ObjectFormatError(path, "expected a number")
    if not math.isfinite(value):
        raise ObjectFormatError(path, "expected a finite number")
    return float(value)


def _vec(value: Any, path: str) -> Vec3 | None:
    if value is None:
        return None
    if isinstance(value, Mapping):
        if not value:
            return None
        try:
            return (
                _num(value["x"], f"{path}.x"),
                _num(value["y"], f"{path}.y"),
                _num(value["z"], f"{path}.z"),
            )
        except KeyError as exc:
            raise ObjectFormatError(path, f"missing {exc.args[0]!r}") from exc
    if isinstance(value, list) and len(value) == 3:
        return (
            _num(value[0], f"{path}[0]"),
            _num(value[1], f"{path}[1]"),
            _num(value[2], f"{path}[2]"),
        )
    raise ObjectFormatError(path, "expected {x, y, z}")


def _opt_str(value: Any, path: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ObjectFormatError(path, "expected a string")
    return value


def _as_list(value: Any, path: str) -> list[Any]:
    """A JSON list; ``None`` and ``{}`` (Lua's empty table) read as empty."""
    if value is None:
        return []
    if isinstance(value, list):
        return value
    if isinstance(value, Mapping) and not value:
        return []
    raise ObjectFormatError(path, "expected a list")
