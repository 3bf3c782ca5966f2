"""A Tabletop Simulator save of a group's box as a start: its boards (``Custom_Board``; when
there is none, the largest tile on the table), its tiles, tokens and figures with their pictures,
and its cards, each cut from its deck's sheet.

The save is first read by Herald's own save reader (``bridge.tts.savefile``), which refuses one
that breaks the save format where Herald reads it; the pictures it ignores are read here: a
custom object's ``CustomImage.ImageURL``, a deck's ``CustomDeck`` (``FaceURL``, a sheet of
``NumWidth`` × ``NumHeight`` cards) and a card's ``CardID`` (the deck's key times 100 plus the
card's place on the sheet, row by row).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image

from bridge.box.errors import BoxError
from bridge.tts.errors import SaveFileError
from bridge.tts.savefile import parse_save

from .common import Decoder, Picture, Start, Why, kept, too_many
from .fetch import Pictures

BOARDS = frozenset({"Custom_Board"})
PIECES = frozenset({"Custom_Tile", "Custom_Token", "Figurine_Custom", "Custom_Tile_Stack",
                    "Custom_Token_Stack"})  # fmt: skip
CARDS = frozenset({"Card", "CardCustom"})
MAX_DEPTH = 16
"""Bags in bags: deeper than any save, and a hostile one stops here."""
MAX_OBJECTS = 12000
"""Objects in a save, bags' contents too: a box's save has hundreds; tens of thousands are refused
before they are walked for minutes."""
KEEP_DECODED = 4
"""Deck sheets kept decoded at once: a sheet read again later is decoded again (and counted)."""
MAX_GRID = 100
"""A deck sheet is at most 10 × 10 cards (TTS allows 10 × 7)."""


class _Reader:
    def __init__(self, pictures: Pictures) -> None:
        self.pictures = pictures
        self.found: list[Picture] = []
        self.missing: list[tuple[str, Why]] = []
        self.seen: dict[tuple[str, str, str], int] = {}
        self.sheets: dict[str, Image.Image | None] = {}
        """The pictures read so far by URL; only the last few kept decoded (a deck's cards come
        one after another), the others only remembered as read."""
        self.decoder = Decoder()
        self.read: dict[str, bool] = {}
        self.decks: dict[str, Mapping[str, Any]] = {}
        self.objects = 0
        self.largest: tuple[float, str, str] | None = None
        """The largest tile on the table (by its scale): the board, when the save has no
        ``Custom_Board`` (many boxes are made with a big tile as the board)."""

    def image(self, url: str) -> Image.Image | None:
        if url in self.sheets:
            return self.sheets[url]
        raw = self.pictures.get(url)
        picture = None
        if isinstance(raw, Why):
            if url not in self.read:
                self.missing.append((url, raw))
        else:
            picture = self.decoder.open(raw, url)
            if picture is None and url not in self.read:
                self.missing.append((url, Why("not-a-picture")))
        self.read[url] = picture is not None
        self.sheets[url] = picture
        while len(self.sheets) > KEEP_DECODED:
            del self.sheets[next(iter(self.sheets))]
        return picture

    def add(self, kind: str, name: str, group: str, key: str, picture: Image.Image | None) -> None:
        """One object; the same picture under the same name again only counts once more."""
        index = self.seen.get((kind, name, key))
        if index is not None:
            old = self.found[index]
            self.found[index] = Picture(old.kind, old.name, old.group, old.count + 1, old.image,
                                        old.mime, old.width, old.height)  # fmt: skip
            return
        self.seen[(kind, name, key)] = len(self.found)
        too_many(len(self.found) + 1)
        if picture is None:
            self.found.append(Picture(kind, name, group))
        else:
            self.found.append(kept(picture, kind, name, group))

    def walk(self, state: Any, group: str, decks: Mapping[str, Any], depth: int) -> None:
        if not isinstance(state, Mapping) or depth > MAX_DEPTH:
            return
        self.objects += 1
        if self.objects > MAX_OBJECTS:
            raise BoxError("box/start-too-many-pictures", count=self.objects, limit=MAX_OBJECTS)
        kind = state.get("Name")
        nickname = _text(state.get("Nickname")).strip()
        own = state.get("CustomDeck")
        if isinstance(own, Mapping):
            decks = {**decks, **{str(k): v for k, v in own.items() if isinstance(v, Mapping)}}
        if kind in BOARDS or kind in PIECES:
            url = _text(_get(state, "CustomImage", "ImageURL"))
            what = "board" if kind in BOARDS else "piece"
            self.add(what, nickname or kind, group, url, self.image(url) if url else None)
            if what == "piece" and depth == 0 and url:
                scale = _get(state, "Transform", "scaleX"), _get(state, "Transform", "scaleZ")
                area = _number(scale[0]) * _number(scale[1])
                if self.largest is None or area > self.largest[0]:
                    self.largest = (area, nickname or kind, url)
        elif kind in CARDS:
            self.card(state, nickname, group, decks)
        inner = state.get("ContainedObjects")
        if isinstance(inner, list):
            where = nickname or group
            for child in inner:
                self.walk(child, where, decks, depth + 1)

    def card(self, state: Mapping[str, Any], name: str, group: str,
             decks: Mapping[str, Any]) -> None:  # fmt: skip
        card_id = state.get("CardID")
        if isinstance(card_id, bool) or not isinstance(card_id, int) or card_id < 0:
            self.add("card", name, group, "", None)
            return
        deck = decks.get(str(card_id // 100))
        index = card_id % 100
        url = _text(deck.get("FaceURL")) if deck else ""
        across, down = (_count(deck, "NumWidth"), _count(deck, "NumHeight")) if deck else (1, 1)
        key = f"{url}#{index}"
        if (("card", name, key)) in self.seen:
            self.add("card", name, group, key, None)
            return
        sheet = self.image(url) if url else None
        face = None
        if sheet is not None and index < across * down:
            width, height = sheet.width / across, sheet.height / down
            col, row = index % across, index // across
            box = (round(col * width), round(row * height), round((col + 1) * width),
                   round((row + 1) * height))  # fmt: skip
            face = sheet.crop(box)
        elif sheet is not None:
            self.missing.append((f"{url} #{index}", Why("off-the-sheet")))
        self.add("card", name, group, key, face)


def _get(state: Mapping[str, Any], *keys: str) -> Any:
    node: Any = state
    for key in keys:
        if not isinstance(node, Mapping):
            return None
        node = node.get(key)
    return node


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _number(value: Any) -> float:
    ok = isinstance(value, int | float) and not isinstance(value, bool) and 0 < value < 1e6
    return float(value) if ok else 1.0


def _count(deck: Mapping[str, Any], key: str) -> int:
    value = deck.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_GRID:
        return 1
    return value


def save_start(doc: Any, file_name: str, pictures: Pictures) -> Start:
    """The start a decoded save gives; ``BoxError`` for a save Herald's save reader refuses."""
    try:
        save = parse_save(doc, file_name)
    except SaveFileError as exc:
        raise BoxError("box/start-bad-save", where=exc.params.get("where", "$"),
                       detail=exc.params.get("detail", "")) from exc  # fmt: skip
    except RecursionError as exc:
        raise BoxError("box/start-bad-save", where="$.ObjectStates",
                       detail="nested too deep") from exc  # fmt: skip
    reader = _Reader(pictures)
    for state in doc["ObjectStates"]:
        reader.walk(state, "", {}, 0)
    if not any(p.kind == "board" for p in reader.found) and reader.largest is not None:
        _, name, url = reader.largest
        reader.add("board", name, "", url, reader.image(url))
    return Start("tts", save.save_name or file_name, tuple(reader.found), tuple(reader.missing))
