"""Small VASSAL modules and Tabletop Simulator saves made in the tests (issue #24 point 5): a board
picture with a dot per Village, a few pieces, a deck sheet of cards, each picture drawn so that a
test can tell which one it got back (its colour)."""

from __future__ import annotations

import io
import json
import struct
import zipfile
import zlib
from typing import Any

from PIL import Image, ImageDraw

VILLAGES = {"Orléans": (200, 150), "Reims": (520, 90), "Paris": (400, 260), "Tours": (120, 330)}
"""Board millimetres of the Villages drawn on the test board (800 × 500)."""
BOARD_SIZE = (1600, 1000)
"""The board picture's pixels: two per millimetre."""
CARDS = ["Woodcutter", "Miller", "Scribe", "Knight", "Bishop"]
"""The deck's cards, row by row on a 3 × 2 sheet (the sixth place left empty)."""
CARD_COLOURS = [(200, 40, 40), (40, 160, 40), (40, 40, 200), (200, 200, 40), (160, 40, 160)]
PIECES = {"Red lord": (220, 30, 30), "Blue lord": (30, 30, 220)}
BOARD_URL = "http://cloud-3.steamusercontent.com/ugc/1234/ABCDEF/"
SHEET_URL = "http://cloud-3.steamusercontent.com/ugc/5678/FEDCBA/"
PIECE_URLS = {name: f"https://steamusercontent-a.akamaihd.net/ugc/99/{i}/" for i, name in
              enumerate(PIECES)}  # fmt: skip


def png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def board_picture() -> Image.Image:
    """France's test board: a light field, a dark red dot at each Village, its name beside it."""
    image = Image.new("RGB", BOARD_SIZE, (170, 200, 220))
    draw = ImageDraw.Draw(image)
    for name, (x, y) in VILLAGES.items():
        draw.ellipse((2 * x - 14, 2 * y - 14, 2 * x + 14, 2 * y + 14), fill=(160, 30, 30))
        draw.text((2 * x + 18, 2 * y - 6), name, fill=(0, 0, 0))
    return image


def deck_sheet() -> Image.Image:
    """A 3 × 2 sheet of 200 × 300 cards, each one colour (TTS's deck image)."""
    sheet = Image.new("RGB", (600, 600), (255, 255, 255))
    draw = ImageDraw.Draw(sheet)
    for i, colour in enumerate(CARD_COLOURS):
        col, row = i % 3, i // 3
        draw.rectangle((col * 200, row * 300, col * 200 + 199, row * 300 + 299), fill=colour)
    return sheet


def piece_picture(colour: tuple[int, int, int]) -> Image.Image:
    image = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
    ImageDraw.Draw(image).ellipse((4, 4, 60, 60), fill=(*colour, 255))
    return image


def zipped(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, raw in members.items():
            zf.writestr(name, raw)
    return buffer.getvalue()


def _slot(tag: str, name: str, image: str, prototype: str = "") -> str:
    traits = f"prototype;{prototype}\t" if prototype else ""
    element = f"VASSAL.build.widget.{tag}"
    return (f'<{element} entryName="{name}" gpid="1" height="64" width="64">'
            f"+/null/{traits}piece;;;{image};{name}/\tnull;0;0;1</{element}>")  # fmt: skip


def build_file(extra: str = "") -> str:
    """A module's build file: one map with the board, a palette of the two lords (the blue one's
    picture from its prototype) and a deck of the five cards."""
    cards = "".join(_slot("CardSlot", n, f"card-{i}.png") for i, n in enumerate(CARDS))
    return f"""<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<VASSAL.launch.BasicModule name="Fief test module" version="1.0" VassalVersion="3.7.0">
  {extra}
  <VASSAL.build.module.PrototypesContainer>
    <VASSAL.build.module.PrototypeDefinition name="Blue"
      >piece;;;Blue lord.png;</VASSAL.build.module.PrototypeDefinition>
  </VASSAL.build.module.PrototypesContainer>
  <VASSAL.build.module.PieceWindow name="Counters">
    <VASSAL.build.widget.ListWidget entryName="Lords">
      {_slot("PieceSlot", "Red lord", "Red lord.png")}
      {_slot("PieceSlot", "Blue lord", "", "Blue")}
    </VASSAL.build.widget.ListWidget>
  </VASSAL.build.module.PieceWindow>
  <VASSAL.build.module.Map mapName="Main Map">
    <VASSAL.build.module.map.BoardPicker>
      <VASSAL.build.module.map.boardPicker.Board image="France board.png" name="France"
        reversible="false"/>
    </VASSAL.build.module.map.BoardPicker>
    <VASSAL.build.module.map.DrawPile name="Townsfolk">{cards}</VASSAL.build.module.map.DrawPile>
  </VASSAL.build.module.Map>
</VASSAL.launch.BasicModule>
"""


def vassal_module(build: str | None = None, extra: dict[str, bytes] | None = None) -> bytes:
    members = {
        "buildFile.xml": (build or build_file()).encode("utf-8"),
        "moduledata": b"<data><version>1.0</version><name>Fief test module</name></data>",
        "images/France board.png": png(board_picture()),
        "images/Red lord.png": png(piece_picture(PIECES["Red lord"])),
        "images/Blue lord.png": png(piece_picture(PIECES["Blue lord"])),
    }
    sheet = deck_sheet()
    for i in range(len(CARDS)):
        col, row = i % 3, i // 3
        members[f"images/card-{i}.png"] = png(
            sheet.crop((col * 200, row * 300, col * 200 + 200, row * 300 + 300))
        )
    return zipped({**members, **(extra or {})})


def _transform() -> dict[str, float]:
    return {"posX": 0.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 0.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}  # fmt: skip


def tts_save(board_url: str = BOARD_URL, sheet_url: str = SHEET_URL) -> dict[str, Any]:
    """A save of the box: the board, a bag of two tokens of each lord, and the deck of cards."""
    deck = {"1": {"FaceURL": sheet_url, "BackURL": sheet_url, "NumWidth": 3, "NumHeight": 2,
                  "BackIsHidden": True, "UniqueBack": False, "Type": 0}}  # fmt: skip
    tokens = [
        {"Name": "Custom_Token", "Nickname": name, "GUID": f"t{i}",
         "CustomImage": {"ImageURL": PIECE_URLS[name], "WidthScale": 0.0}}
        for i, name in enumerate([*PIECES, *PIECES])
    ]  # fmt: skip
    cards = [
        {"Name": "Card", "Nickname": name, "GUID": f"c{i}", "CardID": 100 + i, "CustomDeck": deck}
        for i, name in enumerate(CARDS)
    ]
    return {
        "SaveName": "Our France box",
        "ObjectStates": [
            {"Name": "Custom_Board", "Nickname": "France", "GUID": "b00001",
             "Transform": _transform(), "CustomImage": {"ImageURL": board_url}},
            {"Name": "Bag", "Nickname": "Lords", "GUID": "bag001", "Transform": _transform(),
             "ContainedObjects": tokens},
            {"Name": "Deck", "Nickname": "Townsfolk", "GUID": "deck01", "Transform": _transform(),
             "DeckIDs": [100 + i for i in range(len(CARDS))], "CustomDeck": deck,
             "ContainedObjects": cards},
        ],
    }  # fmt: skip


def tts_pictures() -> dict[str, bytes]:
    """The save's pictures as TTS caches them (Mods/Images/<URL's letters and digits>.png)."""
    from bridge.box.start.fetch import cache_name

    return {
        f"Mods/Images/{cache_name(BOARD_URL)}.png": png(board_picture()),
        f"Mods/Images/{cache_name(SHEET_URL)}.jpg": png(deck_sheet()),
        **{f"Mods/Images/{cache_name(url)}.png": png(piece_picture(PIECES[name]))
           for name, url in PIECE_URLS.items()},
    }  # fmt: skip


def ttsmod(save: dict[str, Any] | None = None) -> bytes:
    """The save packed with its cached pictures, as TTS Mod Backup's .ttsmod holds it."""
    members = {"Mods/Workshop/123456.json": json.dumps(save or tts_save()).encode("utf-8")}
    return zipped({**members, **tts_pictures()})


def png_header(width: int, height: int) -> bytes:
    """A PNG that says it is ``width`` × ``height`` (its pixels are never there)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64))
