"""What a start holds (pictures with names, said in no game's words) and how a picture from an
untrusted file is read: measured from its header, refused when huge, decoded only then, and kept
no larger than its use needs (a board to trace on, a card face to enrol, a piece to recognise).
"""

from __future__ import annotations

import base64
import io
import re
import unicodedata
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from bridge.box.archive import Limits
from bridge.box.errors import BoxError
from bridge.box.faces import FACE_LONG_SIDE, image_size
from engine.i18n import DEFAULT_LANG, message

FORMAT = "herald-box-start"
VERSION = 1
MAX_SIDE = 16384
"""A picture larger than this on a side is refused unread (a scanned board is about 8000)."""
MAX_PIXELS = 80_000_000
"""Nor one of more pixels than this (a deck sheet of 10 × 7 large cards is about 40 million)."""
MAX_TOTAL_PIXELS = 400_000_000
"""All the pictures of one file decoded together (a few seconds of decoding, and a bound on the
memory they take while a start is made)."""
MAX_PICTURES = 1500
"""More pieces and cards than any of Herald's games has, by far: a file naming more is refused
rather than decoded for minutes."""
BOARD_LONG_SIDE = 4096
"""A board's picture is kept at this long side: enough to place a Village within a millimetre."""
PIECE_LONG_SIDE = 256
"""A piece's picture, shown in a list to name it."""
FORMATS = frozenset({"PNG", "JPEG", "GIF", "WEBP", "BMP"})
SEGMENT = r"(?!\.{1,2}(?:/|$))[^/\\:\x00-\x1f\x7f]{1,255}"
START_NAME = re.compile(rf"{SEGMENT}(?:/{SEGMENT}){{0,7}}")
"""A member of a module or a saved-game archive: names as their authors write them (spaces,
accents), but never absolute, never ``..``, no backslash, no drive, no control character."""
START_LIMITS = Limits(
    file_bytes=128 * 1024 * 1024,
    entries=4000,
    member_bytes=32 * 1024 * 1024,
    total_bytes=256 * 1024 * 1024,
    name=START_NAME,
    prefix="box/start-",
)
"""A VASSAL module or a saved game with its pictures: larger than a box (every picture of every
counter), read with the same care."""
KINDS = ("board", "piece", "card")


@dataclass(frozen=True)
class Why:
    """Why a picture was not found: a catalog code's last part (``box/start-why-…``) and, for
    a network or file error, what the system said."""

    code: str
    detail: str = ""


@dataclass(frozen=True)
class Picture:
    """One picture the file shows: a board, a piece or a card, with the name the file gives it.

    ``group`` is where the file keeps it (a deck, a bag, a palette's tab, a map); ``count`` how
    many such objects the file holds; ``image`` the picture as PNG or JPEG bytes (None when the
    file names a picture that could not be found, said in the start's ``missing``).
    """

    kind: str
    name: str
    group: str = ""
    count: int = 1
    image: bytes | None = None
    mime: str = "image/png"
    width: int = 0
    height: int = 0


@dataclass(frozen=True)
class Start:
    """What a TTS save or a VASSAL module gives to start a box from."""

    source: str
    name: str
    pictures: tuple[Picture, ...]
    missing: tuple[tuple[str, Why], ...] = field(default=())
    """Each picture the file names that was not found (its name or URL), and why."""

    def of(self, kind: str) -> list[Picture]:
        return [p for p in self.pictures if p.kind == kind]

    def names(self) -> list[str]:
        """Every piece's and card's name, once each, in the file's order (what a tool offers
        when the user names a Village or a card)."""
        seen: dict[str, None] = {}
        for p in self.pictures:
            if p.kind != "board" and p.name.strip():
                seen.setdefault(p.name.strip(), None)
        return list(seen)

    def missing_text(self, lang: str = DEFAULT_LANG) -> list[str]:
        return [
            message(f"box/start-why-{why.code}", lang, picture=picture[:200], detail=why.detail)
            for picture, why in self.missing
        ]

    def to_json(self, lang: str = DEFAULT_LANG) -> dict[str, Any]:
        def one(p: Picture) -> dict[str, Any]:
            image = None
            if p.image is not None:
                image = f"data:{p.mime};base64,{base64.b64encode(p.image).decode('ascii')}"
            return {"name": p.name, "group": p.group, "count": p.count, "image": image,
                    "width": p.width, "height": p.height}  # fmt: skip

        return {
            "format": FORMAT,
            "version": VERSION,
            "source": self.source,
            "name": self.name,
            "boards": [one(p) for p in self.of("board")],
            "pieces": [one(p) for p in self.of("piece")],
            "cards": [one(p) for p in self.of("card")],
            "names": self.names(),
            "missing": self.missing_text(lang),
        }


def open_picture(raw: bytes, name: str) -> Image.Image | None:
    """The picture ``raw``, decoded; None when it is no picture Herald reads (said as missing by
    the caller). ``BoxError`` for one too large to decode, before it is decoded."""
    huge = False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            picture = Image.open(io.BytesIO(raw))
            width, height = picture.size
            if picture.format not in FORMATS:
                return None
            huge = not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE)
            huge = huge or width * height > MAX_PIXELS
            if not huge:
                picture.seek(0)
                picture.load()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        width, height = image_size(raw) or (0, 0)
        huge = True
    except (OSError, SyntaxError, ValueError, EOFError, IndexError):
        return None
    if huge:  # (a BoxError is a ValueError: raised here, out of the decoder's guard)
        raise BoxError("box/start-picture-too-large", name=name[:200], width=width,
                       height=height, limit=MAX_SIDE)  # fmt: skip
    return picture


class Decoder:
    """Opens the pictures of one file, counting their pixels: a file whose pictures hold more
    than ``MAX_TOTAL_PIXELS`` in all is refused, each under its own limit or not."""

    def __init__(self) -> None:
        self.pixels = 0

    def open(self, raw: bytes, name: str) -> Image.Image | None:
        picture = open_picture(raw, name)
        if picture is not None:
            self.pixels += picture.width * picture.height
            if self.pixels > MAX_TOTAL_PIXELS:
                raise BoxError("box/start-too-many-pixels", limit=MAX_TOTAL_PIXELS // 1_000_000)
        return picture


def kept(picture: Image.Image, kind: str, name: str, group: str = "", count: int = 1) -> Picture:
    """``picture`` as a start keeps it: scaled down to its use, a board or a card as JPEG (no
    transparency to keep; a face is enrolled from it), a piece as PNG (its cut-out shape)."""
    long_side = {"board": BOARD_LONG_SIDE, "card": FACE_LONG_SIDE}.get(kind, PIECE_LONG_SIDE)
    image = picture
    if max(image.size) > long_side:
        scale = long_side / max(image.size)
        size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        image = image.resize(size, Image.Resampling.LANCZOS)
    buffer = io.BytesIO()
    if kind == "piece":
        image = image.convert("RGBA")
        image.save(buffer, "PNG", optimize=True)
        mime = "image/png"
    else:
        image = image.convert("RGB")
        image.save(buffer, "JPEG", quality=90)
        mime = "image/jpeg"
    return Picture(kind, name, group, count, buffer.getvalue(), mime, image.width, image.height)


def too_many(count: int) -> None:
    if count > MAX_PICTURES:
        raise BoxError("box/start-too-many-pictures", count=count, limit=MAX_PICTURES)


DATA_URL = re.compile(r"data:image/(?:png|jpeg);base64,([A-Za-z0-9+/=]*)")


def from_json(doc: dict[str, Any]) -> Start:
    """A start written before (``herald box start -o``, on the machine that has the TTS mod
    cache), read again as untrusted as any file: every picture measured, decoded and kept anew,
    every name a string."""
    if doc.get("version") != VERSION:
        raise BoxError("box/start-bad-json", file="start", reason=f"version {doc.get('version')}")
    pictures: list[Picture] = []
    decoder = Decoder()
    for kind, key in (("board", "boards"), ("piece", "pieces"), ("card", "cards")):
        entries = doc.get(key)
        if not isinstance(entries, list):
            raise BoxError("box/start-bad-json", file="start", reason=f"{key} is not a list")
        too_many(len(pictures) + len(entries))
        for i, entry in enumerate(entries):
            if not isinstance(entry, dict) or not isinstance(entry.get("name", ""), str):
                raise BoxError("box/start-bad-json", file="start", reason=f"{key}[{i}]")
            name, group = str(entry.get("name", ""))[:200], entry.get("group", "")
            group = group[:200] if isinstance(group, str) else ""
            count = entry.get("count", 1)
            count = count if isinstance(count, int) and 0 < count < 10000 else 1
            found = DATA_URL.fullmatch(entry.get("image") or "")
            picture = None
            if found:
                try:
                    raw = base64.b64decode(found.group(1), validate=True)
                except ValueError:
                    raw = b""
                picture = decoder.open(raw, name)
            if picture is None:
                pictures.append(Picture(kind, name, group, count))
            else:
                pictures.append(kept(picture, kind, name, group, count))
    missing = doc.get("missing")
    said = [m[:400] for m in missing if isinstance(m, str)] if isinstance(missing, list) else []
    source, title = doc.get("source"), doc.get("name")
    return Start(
        source if source in ("tts", "vassal") else "tts",
        title[:200] if isinstance(title, str) else "",
        tuple(pictures),
        tuple(("", Why("as-said", m)) for m in said[:MAX_PICTURES]),
    )


def write_pictures(start: Start, folder: Path) -> list[Path]:
    """Each picture of ``start`` as a file in ``folder``, named by its kind, place and name
    (``card-03-woodcutter.jpg``): a card's is a photo ``herald box face`` enrols."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for kind in KINDS:
        for i, picture in enumerate(start.of(kind), 1):
            if picture.image is None:
                continue
            plain = unicodedata.normalize("NFKD", picture.name).encode("ascii", "ignore")
            slug = re.sub(r"[^a-z0-9]+", "-", plain.decode("ascii").lower()).strip("-")[:60]
            suffix = "png" if picture.mime == "image/png" else "jpg"
            path = folder / f"{kind}-{i:02d}-{slug or kind}.{suffix}"
            path.write_bytes(picture.image)
            written.append(path)
    return written
