"""Reading TTS save files (and saved objects) into the same ``TTSObject`` list as the live table.

A save is a JSON document whose ``ObjectStates`` lists the objects on the table. Each object state
has ``Name`` (internal type), ``GUID``, ``Nickname``, ``Description``, ``GMNotes``, ``Tags``, a
``Transform`` (``posX/Y/Z``, ``rotX/Y/Z``, ``scaleX/Y/Z``) and, for containers, nested
``ContainedObjects``. Cards carry ``CardID`` (the hundreds give the key into the ``CustomDeck``
table), decks also ``DeckIDs``. Dice may carry ``RotationValues``.

Only what Herald uses is read; every other field is ignored so saves from newer TTS versions
load. Wrong types in the fields that are read are reported with their JSON path.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bridge.tts.errors import SaveFileError
from bridge.tts.objects import TTSObject, Vec3, face_down_from_rotation


@dataclass(frozen=True)
class SaveFile:
    """The parts of a save Herald uses."""

    save_name: str
    objects: tuple[TTSObject, ...]


class _Invalid(Exception):
    def __init__(self, where: str, detail: str) -> None:
        super().__init__(f"{where}: {detail}")
        self.where = where
        self.detail = detail


def load_save(path: str | Path) -> SaveFile:
    """Read and parse a save file.

    Raises:
        SaveFileError: the file cannot be read, is not JSON, or breaks the save format.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise SaveFileError(
            "tts/save-unreadable", path=str(p), detail=exc.strerror or str(exc)
        ) from exc
    except UnicodeDecodeError as exc:
        raise SaveFileError("tts/save-unreadable", path=str(p), detail="not UTF-8 text") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveFileError(
            "tts/save-unreadable",
            path=str(p),
            detail=f"not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})",
        ) from exc
    return parse_save(data, name=str(p))


def parse_save(data: Any, name: str = "<save>") -> SaveFile:
    """Parse an already decoded save (or saved-object) document.

    Raises:
        SaveFileError: the document breaks the save format where Herald reads it.
    """
    try:
        if not isinstance(data, Mapping):
            raise _Invalid("$", "a save is a JSON object")
        states = data.get("ObjectStates")
        if not isinstance(states, list):
            raise _Invalid("$.ObjectStates", "missing, or not a list")
        save_name = data.get("SaveName", "")
        objects = tuple(
            object_from_state(state, f"$.ObjectStates[{i}]", top_level=True)
            for i, state in enumerate(states)
        )
        return SaveFile(save_name=save_name if isinstance(save_name, str) else "", objects=objects)
    except _Invalid as exc:
        raise SaveFileError(
            "tts/save-invalid", path=name, where=exc.where, detail=exc.detail
        ) from exc


def object_from_state(state: Any, where: str, *, top_level: bool) -> TTSObject:
    """One ``ObjectState`` (and everything inside it) as a ``TTSObject``."""
    if not isinstance(state, Mapping):
        raise _Invalid(where, "an object state is a JSON object")
    name = _str(state, "Name", where, required=True)
    position = rotation = scale = None
    face_down = None
    transform = state.get("Transform")
    if top_level:
        if not isinstance(transform, Mapping):
            raise _Invalid(f"{where}.Transform", "missing, or not an object")
        position = _vec(transform, ("posX", "posY", "posZ"), f"{where}.Transform", 0.0)
        rotation = _vec(transform, ("rotX", "rotY", "rotZ"), f"{where}.Transform", 0.0)
        scale = _vec(transform, ("scaleX", "scaleY", "scaleZ"), f"{where}.Transform", 1.0)
        face_down = face_down_from_rotation(rotation)
    tags = state.get("Tags")
    if tags is None:
        tags = []
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise _Invalid(f"{where}.Tags", "a list of strings")
    card_id = state.get("CardID")
    if card_id is not None and (isinstance(card_id, bool) or not isinstance(card_id, int)):
        raise _Invalid(f"{where}.CardID", "an integer")
    contained = state.get("ContainedObjects")
    if contained is None:
        contained = []
    if not isinstance(contained, list):
        raise _Invalid(f"{where}.ContainedObjects", "a list")
    value = None
    if top_level and rotation is not None:
        value = rotation_value(state.get("RotationValues"), rotation, f"{where}.RotationValues")
    return TTSObject(
        guid=_str(state, "GUID", where) or "",
        name=name,
        nickname=_str(state, "Nickname", where) or "",
        description=_str(state, "Description", where) or "",
        gm_notes=_str(state, "GMNotes", where) or "",
        tags=tuple(tags),
        type=None,
        position=position,
        rotation=rotation,
        scale=scale,
        face_down=face_down,
        value=value,
        card_id=card_id,
        contained=tuple(
            object_from_state(inner, f"{where}.ContainedObjects[{i}]", top_level=False)
            for i, inner in enumerate(contained)
        ),
    )


def rotation_value(values: Any, rotation: Vec3, where: str) -> Any:
    """The face-up value of an object with ``RotationValues`` at ``rotation``, else None.

    Each entry gives the rotation at which its value faces up. The value facing up now is the
    entry whose "up" direction, expressed in the object's own frame, is closest to the object's
    current "up" direction in its own frame. Built-in dice store no rotation values in a save,
    so their value stays unknown from a save file.
    """
    if values is None:
        return None
    if not isinstance(values, list):
        raise _Invalid(where, "a list")
    current = _local_up(rotation)
    best: tuple[float, Any] | None = None
    for i, entry in enumerate(values):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("Rotation"), Mapping):
            raise _Invalid(f"{where}[{i}]", "an object with a 'Rotation'")
        rot = entry["Rotation"]
        vec = _vec(rot, ("x", "y", "z"), f"{where}[{i}].Rotation", 0.0)
        candidate = _local_up(vec)
        dot = sum(a * b for a, b in zip(current, candidate, strict=True))
        if best is None or dot > best[0]:
            best = (dot, entry.get("Value"))
    return None if best is None else best[1]


def _local_up(rotation: Vec3) -> tuple[float, float, float]:
    """World up (0, 1, 0) in the frame of an object rotated by Unity Euler angles (Z, X, Y)."""
    x, _y, z = (math.radians(a) for a in rotation)
    # Inverse rotation applied to up: R^T * up, with R = Ry * Rx * Rz.
    # Ry^T leaves up unchanged; Rx^T: (0, cos x, -sin x); Rz^T then rotates x/y by -z.
    uy, uz = math.cos(x), -math.sin(x)
    return (math.sin(z) * uy, math.cos(z) * uy, uz)


def _str(state: Mapping[str, Any], key: str, where: str, *, required: bool = False) -> str | None:
    value = state.get(key)
    if value is None:
        if required:
            raise _Invalid(f"{where}.{key}", "missing")
        return None
    if not isinstance(value, str):
        raise _Invalid(f"{where}.{key}", "a string")
    return value


def _vec(obj: Mapping[str, Any], keys: tuple[str, str, str], where: str, default: float) -> Vec3:
    out = []
    for key in keys:
        value = obj.get(key, default)
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            raise _Invalid(f"{where}.{key}", "a finite number")
        out.append(float(value))
    return (out[0], out[1], out[2])
