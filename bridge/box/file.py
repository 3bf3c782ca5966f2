"""The box file: its manifest (``box.json``), its members, its digest, and reading one back.

A box holds the game's data document and every file that document names under ``data/`` (a map,
a set it extends: the box is whole, it reads nothing from the disk or from the sets shipped with
this Herald), optionally the camera's board profile for that board (``camera/profile.json``) and
the faces of its cards as enrolled from photographs (``camera/faces/<id>.png``).

The digest covers the manifest and the SHA-256 of every member, so a changed byte anywhere is
found; the same box always packs to the same bytes (``archive.write_archive``), so two groups
that enter the same edition can share one file. The data's own digest (the one a session's log
header keeps, ``engine.data``) is taken from the parsed data, as for any data set.
"""

from __future__ import annotations

import hashlib
import json
import struct
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.data import DataDoc, GameData, from_doc, parse_json
from engine.violations import InputError

from .archive import read_archive, write_archive
from .errors import BoxError

FORMAT = "herald-box"
VERSION = 1
"""The newest box format this Herald reads and the one it writes."""
MANIFEST = "box.json"
DATA_DIR = "data/"
PROFILE = "camera/profile.json"
FACES_DIR = "camera/faces/"
MAX_FACE_SIDE = 4096
"""A card face photograph larger than this on a side is refused (faces are matched at a few
hundred pixels; this only bounds what a hostile file can make the camera decode)."""
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@dataclass(frozen=True)
class Box:
    """A box: which game, its name, the member holding the data document, every member's bytes
    (the manifest aside) and the digest over all of it."""

    game: str
    name: str
    data: str
    members: Mapping[str, bytes]
    digest: str
    version: int = VERSION

    def manifest(self) -> dict[str, Any]:
        """``box.json`` as written."""
        return {**_body(self.game, self.name, self.data, self.members, self.version),
                "digest": self.digest}  # fmt: skip

    def to_bytes(self) -> bytes:
        """The box file."""
        text = json.dumps(self.manifest(), indent=2, sort_keys=True, ensure_ascii=False)
        return write_archive({**self.members, MANIFEST: text.encode("utf-8")})

    def faces(self) -> dict[str, bytes]:
        """The enrolled card faces by face id (the file name without ``.png``)."""
        return {
            name[len(FACES_DIR) : -len(".png")]: raw
            for name, raw in self.members.items()
            if name.startswith(FACES_DIR) and name.endswith(".png")
        }

    def profile(self) -> Any | None:
        """The camera's board profile document for this box's board, if the box has one."""
        raw = self.members.get(PROFILE)
        return None if raw is None else json.loads(raw.decode("utf-8"))


def make_box(game: str, name: str, data: str, members: Mapping[str, bytes]) -> Box:
    """A new box of ``members`` with its digest (``data`` names the data document's member)."""
    if data not in members:
        raise BoxError("box/no-data", member=data)
    return Box(game, name, data, dict(members), _digest(_body(game, name, data, members, VERSION)))


def _body(
    game: str, name: str, data: str, members: Mapping[str, bytes], version: int
) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": version,
        "game": game,
        "name": name,
        "data": data,
        "files": {n: _sha(members[n]) for n in sorted(members)},
    }


def _sha(raw: bytes) -> str:
    return "sha256:" + hashlib.sha256(raw).hexdigest()


def _digest(body: Mapping[str, Any]) -> str:
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return _sha(text.encode("utf-8"))


def read_box(raw: bytes) -> Box:
    """The box in the file bytes ``raw``, its manifest and every member's hash checked;
    ``BoxError`` says in one sentence what is wrong (nothing is written anywhere)."""
    members = dict(read_archive(raw).members)
    manifest_raw = members.pop(MANIFEST, None)
    if manifest_raw is None:
        raise BoxError("box/no-manifest")
    try:
        manifest = json.loads(manifest_raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BoxError("box/bad-manifest", reason=str(exc)) from exc
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BoxError("box/not-a-box")
    version = manifest.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise BoxError("box/bad-manifest", reason=f"version {version!r}")
    if version > VERSION:
        raise BoxError("box/newer-format", version=version, supported=VERSION)
    game, name, data = (manifest.get(k) for k in ("game", "name", "data"))
    files = manifest.get("files")
    if not (isinstance(game, str) and isinstance(name, str) and isinstance(data, str)):
        raise BoxError("box/bad-manifest", reason="game, name and data must be text")
    if not isinstance(files, dict):
        raise BoxError("box/bad-manifest", reason="files must be an object")
    for member in sorted(set(files) | set(members)):
        if member not in members:
            raise BoxError("box/missing-member", member=member)
        if member not in files:
            raise BoxError("box/unlisted-member", member=member)
        if files[member] != _sha(members[member]):
            raise BoxError("box/corrupt-member", member=member)
    if not data.startswith(DATA_DIR) or data not in members:
        raise BoxError("box/no-data", member=data)
    box = Box(game, name, data, members, str(manifest.get("digest")), version)
    if _digest(_body(game, name, data, members, version)) != box.digest:
        raise BoxError("box/bad-digest")
    _check_faces(box)
    return box


def _check_faces(box: Box) -> None:
    for name, raw in box.members.items():
        if not name.startswith(FACES_DIR):
            continue
        if not name.endswith(".png") or not raw.startswith(PNG_MAGIC) or len(raw) < 24:
            raise BoxError("box/bad-face", member=name)
        width, height = struct.unpack(">II", raw[16:24])
        if not (0 < width <= MAX_FACE_SIDE and 0 < height <= MAX_FACE_SIDE):
            raise BoxError("box/face-too-large", member=name, width=width, height=height,
                           limit=MAX_FACE_SIDE)  # fmt: skip


def box_data(game: Any, box: Box, source: str) -> GameData:
    """The game's data in ``box`` parsed by the game's own rules for its data (every file the
    document names is read from the box's ``data/`` folder); ``BoxError`` names the fault and
    where in the data it is."""
    if box.game != game.info.key:
        raise BoxError("box/other-game", game=box.game, expected=game.info.key)
    read = _member_reader(box)
    try:
        doc = parse_json(read(box.data[len(DATA_DIR) :]), box.data)
        return from_doc(game, DataDoc(source, doc, read, read))
    except BoxError:
        raise
    except InputError as exc:
        raise BoxError("box/bad-data", exc.path, exc.faults, reason=exc.detail,
                       where=exc.path or "$") from exc  # fmt: skip


def _member_reader(box: Box) -> Any:
    def read(name: str) -> str:
        raw = box.members.get(DATA_DIR + name)
        if raw is None:
            raise BoxError("box/missing-file", name=name)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BoxError("box/bad-data", reason=f"{name} is not UTF-8 text", where=name) from exc

    return read
