"""The boxes a table has imported, kept beside its event store (``<db>.boxes/<game>/``) as the
device and board files are, so that the New game form can offer them and a session names the
file it was started on.

An import writes a new file atomically (a temporary file, then a rename) and never replaces a
file already there: a refused import leaves the library as it was.
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .archive import MAX_FILE_BYTES
from .errors import BoxError
from .file import Box, read_box
from .report import checked

SUFFIX = ".herald-box"


def library_dir(db_path: str | Path) -> Path:
    """Where the boxes of the table whose store is ``db_path`` live."""
    return Path(f"{db_path}.boxes")


def read_box_file(path: str | Path) -> Box:
    """The box in the file ``path``: its size checked before it is read, then ``read_box``."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise BoxError("box/too-large", size=size, limit=MAX_FILE_BYTES)
        raw = p.read_bytes()
    except OSError as exc:
        raise BoxError("box/unreadable", file=str(p), reason=exc.strerror or str(exc)) from exc
    return read_box(raw)


def is_box_file(path: str) -> bool:
    """Whether ``path`` names a box file (by its suffix, or a zip archive's first bytes) rather
    than a JSON data file."""
    if path.endswith(SUFFIX):
        return True
    try:
        with open(path, "rb") as handle:
            return handle.read(4) == b"PK\x03\x04"
    except OSError:
        return False


@dataclass(frozen=True)
class Imported:
    """Where an import put a box, and whether that box (the same digest) was there already."""

    path: Path
    box: Box
    existed: bool


def import_box(box: Box, game: Any, library: Path) -> Imported:
    """Keep ``box`` in ``library`` after the game has parsed its data (a box the game refuses is
    never kept). The file is named for the box and its digest, so two different boxes never
    share a name and importing the same box again changes nothing."""
    checked(game, box, f"{box.name} ({box.digest})")
    folder = library / box.game
    target = folder / f"{slug(box.name)}-{box.digest.removeprefix('sha256:')[:12]}{SUFFIX}"
    if target.exists():
        return Imported(target, box, existed=True)
    try:
        temp = written_beside(box, target, ".import-")
        try:
            os.link(temp, target)  # fails if a file appeared there meanwhile: never replaced
        finally:
            os.unlink(temp)
    except FileExistsError:
        return Imported(target, box, existed=True)
    except OSError as exc:
        raise BoxError("box/unwritable", file=str(target), reason=exc.strerror or str(exc)) from exc
    return Imported(target, box, existed=False)


def written_beside(box: Box, target: Path, prefix: str) -> str:
    """``box`` written whole and synced to a temporary file in ``target``'s folder (made if
    need be), for the caller to link or rename into place: a reader never sees half a box."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=prefix, suffix=SUFFIX)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(box.to_bytes())
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        os.unlink(temp)
        raise
    return temp


def slug(name: str) -> str:
    """A box's name as a file name's start."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40] or "box"


def listed(library: Path, game: str | None = None) -> list[Path]:
    """The box files in ``library`` (of one game, or all), by name."""
    folders = [library / game] if game else sorted(p for p in library.glob("*") if p.is_dir())
    return sorted(f for folder in folders for f in folder.glob(f"*{SUFFIX}"))
