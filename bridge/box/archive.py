"""Reading a box archive that anyone may have sent: every limit is checked on the archive's own
directory before one byte is inflated, so a hostile file is refused for what it is (too big, too
many entries, a path out of the archive, a zip bomb) and never unpacked onto the disk.

Members are read into memory by name, never extracted: a name such as ``../../etc/passwd`` is
refused, not resolved. ``zipfile`` stops inflating a member at the size its directory entry
declares (and checks its CRC), so bounding the declared sizes bounds the memory used.
"""

from __future__ import annotations

import io
import re
import stat
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass

from .errors import BoxError

MAX_FILE_BYTES = 64 * 1024 * 1024
"""A box file larger than this is refused unread (a whole box with faces is a few MB)."""
MAX_ENTRIES = 2000
"""More members than a box with every card face of the largest game needs, by far."""
MAX_MEMBER_BYTES = 16 * 1024 * 1024
"""One member's inflated size: a data document or one photographed face."""
MAX_TOTAL_BYTES = 128 * 1024 * 1024
"""All members inflated together."""
MAX_RATIO = 200
"""Inflated over compressed size beyond which a large member is taken for a zip bomb (JSON
compresses about tenfold, photographs hardly at all)."""
RATIO_FLOOR = 1024 * 1024
"""Members smaller than this are not judged by their ratio (a small, very regular file may
compress far better than 200:1 and does no harm)."""
NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,99}(/[A-Za-z0-9_][A-Za-z0-9._-]{0,99}){0,3}")
"""A member name: up to four plain path segments, none starting with a dot (so no ``..``, no
hidden file, no absolute path, no backslash, no drive letter)."""
ZIP_MAGIC = b"PK\x03\x04"


@dataclass(frozen=True)
class Limits:
    """What an archive may hold. A box has its own (the defaults); another kind of archive read
    as defensively (a VASSAL module a box is started from) has wider ones, and its refusals their
    own catalog codes (``prefix`` + ``too-many-entries``…), so the sentence names what was sent."""

    file_bytes: int = MAX_FILE_BYTES
    entries: int = MAX_ENTRIES
    member_bytes: int = MAX_MEMBER_BYTES
    total_bytes: int = MAX_TOTAL_BYTES
    name: re.Pattern[str] = NAME
    prefix: str = "box/"


BOX_LIMITS = Limits()


@dataclass(frozen=True)
class Archive:
    """The members of a box archive by name, as bytes."""

    members: Mapping[str, bytes]


def looks_like_zip(head: bytes) -> bool:
    """Whether a file starting with ``head`` is a zip archive (a box) rather than JSON."""
    return head.startswith(ZIP_MAGIC)


def read_archive(raw: bytes, limits: Limits = BOX_LIMITS) -> Archive:
    """The members of the box archive ``raw``; ``BoxError`` names the first thing wrong."""
    p = limits.prefix
    if len(raw) > limits.file_bytes:
        raise BoxError(f"{p}too-large", size=len(raw), limit=limits.file_bytes)
    if not looks_like_zip(raw):
        raise BoxError(f"{p}not-a-box")
    try:
        zf = zipfile.ZipFile(io.BytesIO(raw))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError) as exc:
        raise BoxError(f"{p}corrupt", reason=str(exc)) from exc
    with zf:
        infos = zf.infolist()
        _check_directory(infos, limits)
        members: dict[str, bytes] = {}
        for info in infos:
            if info.is_dir():
                continue
            try:
                members[info.filename] = zf.read(info)
            except (zipfile.BadZipFile, EOFError, OSError, ValueError, NotImplementedError) as exc:
                raise BoxError(f"{p}corrupt", reason=f"{info.filename}: {exc}") from exc
    return Archive(members)


def _check_directory(infos: list[zipfile.ZipInfo], limits: Limits) -> None:
    p = limits.prefix
    if len(infos) > limits.entries:
        raise BoxError(f"{p}too-many-entries", count=len(infos), limit=limits.entries)
    seen: set[str] = set()
    total = 0
    for info in infos:
        name = info.filename.rstrip("/") if info.is_dir() else info.filename
        if not limits.name.fullmatch(name):
            raise BoxError(f"{p}bad-name", name=info.filename)
        if name in seen:
            raise BoxError(f"{p}duplicate-name", name=name)
        seen.add(name)
        kind = stat.S_IFMT(info.external_attr >> 16)  # 0: no Unix type (Java's, Python's zips)
        if kind and kind not in (stat.S_IFREG, stat.S_IFDIR):
            raise BoxError(f"{p}not-a-file", name=name)
        if info.flag_bits & 0x1:
            raise BoxError(f"{p}encrypted", name=name)
        if info.file_size > limits.member_bytes:
            raise BoxError(f"{p}member-too-large", name=name, size=info.file_size,
                           limit=limits.member_bytes)  # fmt: skip
        if info.file_size > RATIO_FLOOR and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise BoxError(f"{p}zip-bomb", name=name)
        total += info.file_size
        if total > limits.total_bytes:
            raise BoxError(f"{p}too-large", size=total, limit=limits.total_bytes)


def write_archive(members: Mapping[str, bytes]) -> bytes:
    """The archive of ``members``, the same bytes for the same members: names sorted, one fixed
    date, fixed permissions (two groups who enter the same box get the same file)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(members):
            if not NAME.fullmatch(name):
                raise BoxError("box/bad-name", name=name)
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = (stat.S_IFREG | 0o644) << 16
            zf.writestr(info, members[name], compresslevel=9)
    return buffer.getvalue()
