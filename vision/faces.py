"""What an enrolled face means in the game's vocabulary: face id → the attributes it shows.

The slot classifier reports a tile by the id of the enrolled picture it matched
(``attrs.face``); the engine reads tiles by their attributes (whatever the game's vocabulary
names: a printed name, a number, a back colour...). A *face map* is the data file between the
two, one entry per face id, written by whoever enrolled the faces (the same job the GM-notes
patterns of a game's Tabletop Simulator profile do)::

    {"version": 1, "game": "<key>", "note": "...",
     "faces": {"field-07": {"name": "Field", "number": 7, "back": "blue"}}}

An entry may give only some attributes (a photo of a face shows no back number): the engine
then treats the tile as partly read and asks the table to confirm instead of guessing. A face
the map does not name keeps only its ``face`` id. A game ships the map of the stand-in art
its simulated table draws in its package (``camera/faces.json``), generated from the game's
data by ``herald vision faces --game KEY`` rather than written by hand.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from engine.i18n import CodedError
from vision.snapshot import Observation

FACE_MAP_VERSION = 1
_KEYS = {"version", "game", "note", "faces"}


class FaceMapError(CodedError, ValueError):
    """A face map file is missing or breaks the format. ``code``/``params``: the sentence."""


@dataclass(frozen=True)
class FaceMap:
    """Face id → attributes. ``path`` is the file it was read from (None: built in memory)."""

    faces: dict[str, dict[str, Any]] = field(default_factory=dict)
    game: str = ""
    note: str = ""
    path: Path | None = None

    def __len__(self) -> int:
        return len(self.faces)

    def attrs(self, face_id: str) -> dict[str, Any] | None:
        """The attributes face ``face_id`` shows, or None when the map does not name it."""
        found = self.faces.get(face_id)
        return dict(found) if found is not None else None

    def apply(self, observations: Iterable[Observation]) -> tuple[Observation, ...]:
        """The observations with every named face's attributes added (``face`` is kept)."""
        out = []
        for o in observations:
            face = o.attrs.get("face")
            extra = self.attrs(face) if isinstance(face, str) else None
            out.append(replace(o, attrs={**o.attrs, **extra}) if extra else o)
        return tuple(out)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": FACE_MAP_VERSION,
            "game": self.game,
            "note": self.note,
            "faces": {k: dict(v) for k, v in sorted(self.faces.items())},
        }

    def to_text(self) -> str:
        """The file form: the header fields, then one face per line (easy to complete by hand)."""
        data = self.to_json()
        head = {k: v for k, v in data.items() if k != "faces"}
        lines = [
            f"    {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}"
            for k, v in data["faces"].items()
        ]
        body = json.dumps(head, indent=2, ensure_ascii=False)[:-2]
        return body + ',\n  "faces": {\n' + ",\n".join(lines) + "\n  }\n}\n"

    @classmethod
    def from_json(cls, data: Any, path: Path | None = None) -> FaceMap:
        """Check and read a face map document.

        Raises:
            FaceMapError: not a version-1 face map, or an entry that is not attributes.
        """
        where = str(path or "face map")

        def bad(detail: str) -> FaceMapError:
            return FaceMapError("vision/faces-bad", path=where, detail=detail)

        if not isinstance(data, dict):
            raise bad("the document must be a JSON object")
        unknown = sorted(set(data) - _KEYS)
        if unknown:
            raise bad(f"unknown keys {unknown}")
        if data.get("version") != FACE_MAP_VERSION:
            raise bad(f"version must be {FACE_MAP_VERSION}")
        faces = data.get("faces")
        if not isinstance(faces, dict):
            raise bad("'faces' must map face ids to attributes")
        checked: dict[str, dict[str, Any]] = {}
        for face_id, attrs in faces.items():
            if not isinstance(attrs, dict) or not attrs:
                raise bad(f"face {face_id!r} needs an object of attributes")
            for key, value in attrs.items():
                if key == "face" or not isinstance(value, str | int | float | bool):
                    raise bad(f"face {face_id!r}: attribute {key!r} must be a plain value")
            checked[str(face_id)] = dict(attrs)
        return cls(checked, str(data.get("game", "")), str(data.get("note", "")), path)

    @classmethod
    def load(cls, path: str | Path) -> FaceMap:
        """Read a face map file.

        Raises:
            FaceMapError: the file cannot be read, is not JSON, or breaks the format.
        """
        file = Path(path)
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except OSError as exc:
            raise FaceMapError("vision/faces-missing", path=str(file), detail=str(exc)) from exc
        except ValueError as exc:
            raise FaceMapError("vision/faces-bad", path=str(file), detail=str(exc)) from exc
        return cls.from_json(data, file)


def face_map_for(shipped: str | Path | None, library_dir: str | Path | None = None) -> FaceMap:
    """The face map to use: ``faces.json`` beside an enrolled library, else the one the game
    ships (``shipped``, its ``camera/faces.json``), else none.

    Raises:
        FaceMapError: the chosen file is broken.
    """
    if library_dir is not None:
        beside = Path(library_dir) / "faces.json"
        if beside.is_file():
            return FaceMap.load(beside)
    return FaceMap.load(shipped) if shipped is not None else FaceMap()
