"""A VASSAL module (``.vmod``: a zip of ``buildFile.xml``, ``moduledata`` and ``images/``) as a
start: each map's boards with their pictures, each piece in the piece palettes and each card in
the decks, by name, with its picture.

Not pywargame: it needs ImageMagick's Wand and a Sphinx stack (myst-parser) to install, parses
with ``xml.dom.minidom`` (no guard against entity expansion) and opens the zip with no limits.
What a start needs is four element kinds of the build file and the first field of a piece's
definition, read here with defusedxml over the archive's defensive reader.

The build file's elements are Java class names (``VASSAL.build.module.map.boardPicker.Board``);
modules subclass them, so an element is known by the last part of its name. A piece's definition
is VASSAL's ``AddPiece`` command, ``+/id/TYPE/STATE``: TYPE lists its traits (tab-separated,
outermost first), each ``;``-separated with ``\\`` escaping a separator; the innermost, ``piece;
clone key;delete key;IMAGE;NAME``, names its picture, and layers and prototypes may name more.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass

import defusedxml.ElementTree as SafeET
from defusedxml import DefusedXmlException

from bridge.box.errors import BoxError

from .common import Decoder, Picture, Start, Why, kept, too_many

BUILD_FILES = ("buildFile.xml", "buildFile")
IMAGES = "images/"
UNESCAPED_SLASH = re.compile(r"(?<!\\)/")
UNESCAPED_TAB = re.compile(r"(?<!\\)\t")
UNESCAPED_FIELD = re.compile(r"(?<!\\);")
UNESCAPED_COMMA = re.compile(r"(?<!\\),")
PROTOTYPE_DEPTH = 4
"""Prototypes naming prototypes: deeper than any module's, and a cycle stops here."""


@dataclass(frozen=True)
class _Slot:
    kind: str
    entry: str
    text: str
    group: str


def is_module(members: Mapping[str, bytes]) -> bool:
    return any(name in members for name in BUILD_FILES)


def module_start(members: Mapping[str, bytes], file_name: str) -> Start:
    """The start a module's members give; ``BoxError`` for a build file that is not safe or
    not XML."""
    build = next(members[n] for n in BUILD_FILES if n in members)
    root = _parse(build, "buildFile")
    boards: list[tuple[str, str, str]] = []
    slots: list[_Slot] = []
    prototypes: dict[str, str] = {}
    _walk(root, "", False, boards, slots, prototypes)
    too_many(len(boards) + len(slots))
    name = root.get("name") or _module_name(members) or file_name
    missing: list[tuple[str, Why]] = []
    pictures: list[Picture] = []
    decoder = Decoder()
    for board_name, image, group in boards:
        pictures.extend(
            _picture(members, image, "board", board_name or group, group, missing, decoder)
        )
    seen: dict[tuple[str, str, str], int] = {}
    for slot in slots:
        piece_name, image = _piece(slot.text, members, prototypes)
        label = piece_name or slot.entry
        key = (slot.kind, label, image)
        if key in seen:
            index = seen[key]
            old = pictures[index]
            pictures[index] = Picture(old.kind, old.name, old.group, old.count + 1, old.image,
                                      old.mime, old.width, old.height)  # fmt: skip
            continue
        seen[key] = len(pictures)
        if image:
            pictures.extend(
                _picture(members, image, slot.kind, label, slot.group, missing, decoder)
            )
        else:
            pictures.append(Picture(slot.kind, label, slot.group))
    return Start("vassal", name, tuple(pictures), tuple(missing))


def _parse(raw: bytes, what: str) -> ET.Element:
    try:
        root: ET.Element = SafeET.fromstring(raw, forbid_dtd=True)
    except DefusedXmlException as exc:
        raise BoxError("box/start-hostile-xml", file=what) from exc
    except (ET.ParseError, ValueError) as exc:
        raise BoxError("box/start-bad-xml", file=what, reason=str(exc)[:200]) from exc
    return root


def _module_name(members: Mapping[str, bytes]) -> str:
    raw = members.get("moduledata")
    if raw is None:
        return ""
    try:
        found = _parse(raw, "moduledata").findtext("name")
    except BoxError:
        return ""
    return (found or "").strip()


def _short(tag: str) -> str:
    return tag.rsplit(".", 1)[-1]


def _walk(
    node: ET.Element,
    group: str,
    in_deck: bool,
    boards: list[tuple[str, str, str]],
    slots: list[_Slot],
    prototypes: dict[str, str],
) -> None:
    """Boards, piece and card slots and prototypes under ``node``, each with the map, deck or
    palette tab it is kept in."""
    tag = _short(node.tag)
    if tag in ("Map", "PrivateMap", "PlayerHand"):
        group = node.get("mapName") or group
    elif tag == "DrawPile":
        group, in_deck = node.get("name") or group, True
    elif tag.endswith("Widget") or tag == "PieceWindow":
        group = node.get("entryName") or node.get("name") or group
    if tag == "BoardPicker":
        for board in node:
            if board.get("image"):
                boards.append((board.get("name") or "", board.get("image") or "", group))
    elif tag in ("PieceSlot", "CardSlot"):
        kind = "card" if tag == "CardSlot" or in_deck else "piece"
        slots.append(_Slot(kind, node.get("entryName") or "", node.text or "", group))
        return
    elif tag == "PrototypeDefinition":
        prototypes.setdefault(node.get("name") or "", node.text or "")
        return
    for child in node:
        _walk(child, group, in_deck, boards, slots, prototypes)


def _traits(definition: str) -> list[list[str]]:
    """The fields of each trait in a piece's definition (``+/id/TYPE/STATE``, or a prototype's
    bare TYPE), separators unescaped."""
    text = definition.strip()
    if text.startswith("+/"):
        parts = UNESCAPED_SLASH.split(text, 3)
        text = parts[2] if len(parts) > 2 else ""
    return [UNESCAPED_FIELD.split(trait) for trait in UNESCAPED_TAB.split(text)]


def _plain(field: str) -> str:
    return field.replace("\\", "")


def _piece(
    definition: str, members: Mapping[str, bytes], prototypes: Mapping[str, str], depth: int = 0
) -> tuple[str, str]:
    """A piece's name and the first picture its definition names that the module holds: its
    basic piece's, else a layer's, else its prototypes'."""
    name = ""
    images: list[str] = []
    named: list[str] = []
    for fields in _traits(definition):
        if not fields:
            continue
        if fields[0] == "piece" and len(fields) >= 5:
            name = _plain(";".join(fields[4:])).strip()
            if _plain(fields[3]) and IMAGES + _plain(fields[3]) in members:
                images.insert(0, _plain(fields[3]))
            continue
        if fields[0] == "prototype" and len(fields) > 1:
            named.append(_plain(fields[1]))
            continue
        for f in fields[1:]:
            images.extend(
                _plain(v) for v in UNESCAPED_COMMA.split(f) if v and IMAGES + _plain(v) in members
            )
    if not images and depth < PROTOTYPE_DEPTH:
        for proto in named:
            _, image = _piece(prototypes.get(proto, ""), members, prototypes, depth + 1)
            if image:
                images.append(image)
                break
    return name, images[0] if images else ""


def _picture(
    members: Mapping[str, bytes], image: str, kind: str, name: str, group: str,
    missing: list[tuple[str, Why]], decoder: Decoder,
) -> list[Picture]:  # fmt: skip
    raw = members.get(IMAGES + image)
    if raw is None:
        missing.append((image, Why("not-in-module")))
        return [Picture(kind, name, group)]
    decoded = decoder.open(raw, image)
    if decoded is None:
        missing.append((image, Why("not-a-picture")))
        return [Picture(kind, name, group)]
    return [kept(decoded, kind, name, group)]
