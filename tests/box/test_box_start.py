"""Starting a box from what a group already has (issue #24 point 5): a VASSAL module and a
Tabletop Simulator save made here give the board's picture and the names and pictures of the
pieces and cards; a hostile or oversized file (point 6) is refused in one sentence and nothing
is kept; only the host may send one."""

from __future__ import annotations

import base64
import io
import json
import threading
import zipfile
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from PIL import Image

from bridge.box.errors import BoxError, refusal_text
from bridge.box.start import read_start
from bridge.box.start.common import MAX_SIDE, START_LIMITS, from_json
from bridge.box.start.fetch import Fetcher, Pictures, cache_name
from bridge.box.start.tts import save_start
from bridge.cli import main
from bridge.web.app import WebConfig, WebTable
from tests.server.srv_support import open_referee

from . import start_files as F


def _picture(entry: dict[str, Any]) -> Image.Image:
    head, b64 = entry["image"].split(",", 1)
    assert head.startswith("data:image/")
    return Image.open(io.BytesIO(base64.b64decode(b64))).convert("RGB")


def _near(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=False))


def _centre(image: Image.Image) -> tuple[int, ...]:
    return tuple(image.getpixel((image.width // 2, image.height // 2)))  # type: ignore[arg-type]


def _check_the_box(start: dict[str, Any], piece_counts: int) -> None:
    """What both files show: the board (its Villages' dots where they were drawn), the two lords,
    the five cards each in its own colour, and every name once."""
    assert [b["name"] for b in start["boards"]] == ["France"]
    board = _picture(start["boards"][0])
    assert board.size == F.BOARD_SIZE
    for x, y in F.VILLAGES.values():
        assert _near(board.getpixel((2 * x, 2 * y)), (160, 30, 30), 25)  # type: ignore[arg-type]
    assert _near(board.getpixel((10, 10)), (170, 200, 220), 25)  # type: ignore[arg-type]
    pieces = {p["name"]: p for p in start["pieces"]}
    assert set(pieces) == set(F.PIECES)
    for name, colour in F.PIECES.items():
        assert pieces[name]["count"] == piece_counts
        assert _near(_centre(_picture(pieces[name])), colour)
    assert [c["name"] for c in start["cards"]] == F.CARDS
    for entry, colour in zip(start["cards"], F.CARD_COLOURS, strict=True):
        assert entry["group"] == "Townsfolk"
        face = _picture(entry)
        assert (face.width, face.height) == (200, 300)
        assert _near(_centre(face), colour)
    assert start["names"] == [*F.PIECES, *F.CARDS]
    assert start["missing"] == []


def test_a_vassal_module_gives_its_board_pieces_and_deck() -> None:
    """The board of the map's board picker, the palette's pieces (the blue lord's picture from
    its prototype), the deck's cards."""
    start = read_start(F.vassal_module(), "fief.vmod").to_json()
    assert start["source"] == "vassal" and start["name"] == "Fief test module"
    _check_the_box(start, 1)
    assert {p["group"] for p in start["pieces"]} == {"Lords"}


def test_a_tts_save_packed_with_its_pictures_gives_the_same() -> None:
    """A .ttsmod (the save and its Mods/Images): the board, two tokens of each lord in a bag
    counted once each, every card cut from its place on the 3 × 2 sheet by its CardID."""
    start = read_start(F.ttsmod(), "ours.ttsmod").to_json()
    assert start["source"] == "tts" and start["name"] == "Our France box"
    _check_the_box(start, 2)
    assert {p["group"] for p in start["pieces"]} == {"Lords"}


def test_a_save_reads_its_pictures_from_the_tts_mod_cache(tmp_path: Path) -> None:
    """A bare save names its pictures by URL: found in the Mods folder under the URL's letters
    and digits, as TTS caches them; without the folder, every name is still there and each
    picture not found is said, with where it was looked for."""
    raw = json.dumps(F.tts_save()).encode()
    alone = read_start(raw, "ours.json").to_json("en")
    assert alone["names"] == [*F.PIECES, *F.CARDS]
    assert all(p["image"] is None for p in alone["boards"] + alone["cards"])
    assert len(alone["missing"]) == 4
    assert F.BOARD_URL in alone["missing"][0] and "mod cache" in alone["missing"][0]
    mods = tmp_path / "Mods"
    for member, picture in F.tts_pictures().items():
        path = tmp_path / member
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(picture)
    _check_the_box(read_start(raw, "ours.json", mods=mods).to_json(), 2)


def test_the_cache_name_is_the_urls_letters_and_digits() -> None:
    assert cache_name("http://cloud-3.steamusercontent.com/ugc/12_34/AB-CD/") == (
        "httpcloud3steamusercontentcomugc1234ABCD"
    )


def test_a_card_past_the_end_of_its_sheet_is_named_not_guessed() -> None:
    save = F.tts_save()
    save["ObjectStates"][2]["ContainedObjects"][4]["CardID"] = 106  # a 3 × 2 sheet has 0..5
    pictures = Pictures(packed=F.tts_pictures())
    start = save_start(save, "ours.json", pictures).to_json()
    assert start["cards"][4]["image"] is None
    assert any("past the end" in m for m in start["missing"])


def test_a_start_written_by_the_command_line_is_read_again_by_the_page() -> None:
    """The start JSON (made where the mod cache is) read as untrusted: the same names and
    pictures back, a picture that is not one dropped."""
    first = read_start(F.vassal_module(), "fief.vmod").to_json()
    again = read_start(json.dumps(first).encode(), "start.json").to_json()
    assert again["names"] == first["names"]
    assert [b["width"] for b in again["boards"]] == [F.BOARD_SIZE[0]]
    first["cards"][0]["image"] = "data:image/png;base64," + base64.b64encode(b"no").decode()
    third = from_json(json.loads(json.dumps(first))).to_json()
    assert third["cards"][0]["image"] is None and third["cards"][1]["image"]


# --- hostile and oversized files (point 6) -------------------------------------------------------


def _bomb() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("buildFile.xml", F.build_file())
        zf.writestr("images/France board.png", b"\0" * (30 * 1024 * 1024))
    return buffer.getvalue()


def _entries(n: int) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as zf:
        zf.writestr("buildFile.xml", F.build_file())
        for i in range(n):
            zf.writestr(f"images/{i}.png", b"")
    return buffer.getvalue()


ENTITY_BOMB = (
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
    '<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
    '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>'
    '<VASSAL.launch.BasicModule name="&lol3;"/>'
)


def _symlink() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr("buildFile.xml", F.build_file())
        info = zipfile.ZipInfo("images/France board.png")
        info.external_attr = (0o120777) << 16  # a link
        zf.writestr(info, "/etc/passwd")
    return buffer.getvalue()


HOSTILE = {
    "a path out of the archive": (
        lambda: F.vassal_module(extra={"../../evil.png": b"x"}), "box/start-bad-name"),
    "an absolute name": (lambda: F.vassal_module(extra={"/etc/cron.d/x": b"x"}),
                         "box/start-bad-name"),
    "a zip bomb": (_bomb, "box/start-zip-bomb"),
    "thousands of entries": (lambda: _entries(START_LIMITS.entries + 1),
                             "box/start-too-many-entries"),
    "an XML entity bomb": (lambda: F.zipped({"buildFile.xml": ENTITY_BOMB.encode()}),
                           "box/start-hostile-xml"),
    "a huge board picture": (
        lambda: F.vassal_module(extra={"images/France board.png": F.png_header(60000, 60000)}),
        "box/start-picture-too-large"),
    "a link": (_symlink, "box/start-not-a-file"),
    "XML that is not": (lambda: F.zipped({"buildFile.xml": b"<VASSAL.launch"}),
                        "box/start-bad-xml"),
    "a zip of neither": (lambda: F.zipped({"readme.txt": b"hello"}), "box/start-unknown"),
    "a save that breaks the format": (
        lambda: json.dumps({"ObjectStates": [{"Name": 3}]}).encode(), "box/start-bad-save"),
    "JSON of something else": (lambda: b'{"hello": 1}', "box/start-unknown"),
    "tens of thousands of objects": (
        lambda: json.dumps({"ObjectStates": [{"Name": "Bag", "Transform": {}, "ContainedObjects": [
            {"Name": "Custom_Token"} for _ in range(13000)]}]}).encode(),
        "box/start-too-many-pictures"),
    "not JSON": (lambda: b"{ObjectStates", "box/start-bad-json"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_or_oversized_file_is_refused_in_a_sentence(case: str) -> None:
    make, code = HOSTILE[case]
    with pytest.raises(BoxError) as caught:
        read_start(make(), "file")
    assert caught.value.code == code
    for lang in ("en", "pl"):
        said = refusal_text(caught.value, lang)
        assert said and "box/" not in said and "{" not in said


def test_a_huge_picture_is_refused_before_it_is_decoded() -> None:
    """The header says 60000 × 60000 and holds no pixels: refused for its size, not for being
    broken, so the decoder never ran."""
    with pytest.raises(BoxError) as caught:
        read_start(F.vassal_module(extra={"images/Red lord.png": F.png_header(MAX_SIDE + 1, 8)}),
                   "x.vmod")  # fmt: skip
    assert caught.value.params["width"] == MAX_SIDE + 1
    with pytest.raises(BoxError) as caught:  # past Pillow's own guard against bombs too
        read_start(F.vassal_module(extra={"images/Red lord.png": F.png_header(60000, 60000)}),
                   "x.vmod")  # fmt: skip
    assert "60000×60000" in refusal_text(caught.value)


# --- the network, only when asked -----------------------------------------------------------------


class _Pictures(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = {"/board.png": F.png(F.board_picture())}.get(self.path)
        self.send_response(200 if body else 404)
        self.end_headers()
        self.wfile.write(body or b"")

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def picture_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Pictures)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_pictures_are_fetched_only_when_asked_and_never_from_this_machine(
    picture_server: str,
) -> None:
    raw = json.dumps(F.tts_save(board_url=f"{picture_server}/board.png")).encode()
    assert read_start(raw, "s.json").to_json()["boards"][0]["image"] is None  # not asked
    refused = read_start(raw, "s.json", fetch=Fetcher()).to_json()
    assert refused["boards"][0]["image"] is None  # asked, but 127.0.0.1 is not public
    assert "not a public" in refused["missing"][0]
    fetched = read_start(raw, "s.json", fetch=Fetcher(allow_private=True)).to_json()
    assert _picture(fetched["boards"][0]).size == F.BOARD_SIZE
    small = read_start(raw, "s.json", fetch=Fetcher(allow_private=True, max_bytes=1000)).to_json()
    assert small["boards"][0]["image"] is None and "larger" in small["missing"][0]
    gone = json.dumps(F.tts_save(board_url=f"{picture_server}/gone.png")).encode()
    lost = read_start(gone, "s.json", fetch=Fetcher(allow_private=True)).to_json()
    assert "could not be fetched" in lost["missing"][0]


def test_a_file_url_is_read_only_from_the_command_line(tmp_path: Path) -> None:
    picture = tmp_path / "board.png"
    picture.write_bytes(F.png(F.board_picture()))
    raw = json.dumps(F.tts_save(board_url=picture.as_uri())).encode()
    assert read_start(raw, "s.json").to_json()["boards"][0]["image"] is None
    assert read_start(raw, "s.json", local=True).to_json()["boards"][0]["image"]


# --- the command line and the page's route --------------------------------------------------------


def test_herald_box_start_writes_the_start_and_refuses_a_bad_file(tmp_path: Path) -> None:
    module = tmp_path / "fief.vmod"
    module.write_bytes(F.vassal_module())
    out = tmp_path / "start.json"
    done = CliRunner().invoke(main, ["box", "start", str(module), "-o", str(out), "--lang", "pl"])
    assert done.exit_code == 0, done.output
    assert "1 obraz planszy, 7 pionków i kart" in done.output
    assert json.loads(out.read_text())["names"] == [*F.PIECES, *F.CARDS]
    folder = tmp_path / "pictures"
    done = CliRunner().invoke(
        main, ["box", "start", str(module), "-o", str(out), "--pictures", str(folder)]
    )
    assert done.exit_code == 0 and "Wrote 8 pictures" in done.output, done.output
    woodcutter = folder / "card-01-woodcutter.jpg"
    assert _near(_centre(Image.open(woodcutter).convert("RGB")), F.CARD_COLOURS[0])
    bad = tmp_path / "bad.vmod"
    bad.write_bytes(F.vassal_module(extra={"../x.png": b"x"}))
    out2 = tmp_path / "start2.json"
    refused = CliRunner().invoke(main, ["box", "start", str(bad), "-o", str(out2)])
    assert refused.exit_code == 2
    assert "../x.png" in refused.output and not out2.exists()


@pytest.fixture
def web(tmp_path: Path) -> Iterator[WebTable]:
    referee = open_referee(tmp_path / "t.db")
    yield WebTable(referee, WebConfig(), box_library=tmp_path / "t.db.boxes")
    referee.store.close()


def test_the_page_route_answers_the_start_for_the_host_only(web: WebTable) -> None:
    client = web.app.test_client()
    host = web.referee.row.tokens.host
    seat = next(iter(web.referee.row.tokens.seats.values()))
    for token in (seat, "forged"):
        reply = client.post(f"/api/box/{token}/from-file?file=x.vmod", data=F.vassal_module())
        assert reply.status_code == 403
    reply = client.post(f"/api/box/{host}/from-file?file=ours.ttsmod&lang=pl", data=F.ttsmod())
    assert reply.status_code == 200
    body = reply.get_json()
    assert body["ok"] and "ours.ttsmod" in body["message"] and "obraz planszy" in body["message"]
    _check_the_box(body, 2)
    bad = client.post(f"/api/box/{host}/from-file?file=x.vmod",
                      data=F.zipped({"buildFile.xml": ENTITY_BOMB.encode()}))  # fmt: skip
    assert bad.status_code == 400 and bad.get_json()["code"] == "box/start-hostile-xml"
    assert not web.box_library or not any(web.box_library.rglob("*"))  # nothing kept


def test_a_save_without_a_custom_board_takes_its_largest_tile_as_the_board() -> None:
    """Many boxes are made with a big tile as the board: the largest top-level tile is offered
    as the board too, at a board's resolution; a {verifycache} mark and Steam's other address
    still find the cached picture."""
    save = F.tts_save()
    board = save["ObjectStates"][0]
    board["Name"] = "Custom_Tile"
    board["Transform"]["scaleX"] = board["Transform"]["scaleZ"] = 12.0
    board["CustomImage"]["ImageURL"] = "{verifycache}" + F.BOARD_URL.replace(
        "http://cloud-3.steamusercontent.com/", "https://steamusercontent-a.akamaihd.net/"
    )
    start = save_start(save, "s.json", Pictures(packed=F.tts_pictures())).to_json()
    assert [b["name"] for b in start["boards"]] == ["France"]
    assert _picture(start["boards"][0]).size == F.BOARD_SIZE
    assert "France" in [p["name"] for p in start["pieces"]]


def test_a_file_whose_pictures_hold_too_many_pixels_in_all_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each picture under its own limit, all of them together over the file's (lowered here so
    the test decodes little): refused in a sentence."""
    from bridge.box.start import common

    monkeypatch.setattr(common, "MAX_TOTAL_PIXELS", 2_000_000)
    read_start(F.vassal_module(), "fief.vmod")  # 1.6 million for the board, a little more
    monkeypatch.setattr(common, "MAX_TOTAL_PIXELS", 1_000_000)
    for raw in (F.vassal_module(), F.ttsmod()):
        with pytest.raises(BoxError) as caught:
            read_start(raw, "file")
        assert caught.value.code == "box/start-too-many-pixels"


def test_an_older_module_and_a_piece_drawn_by_its_layers() -> None:
    """A VASSAL 3.2 module (``buildFile``, a ``GameModule`` root) and a piece whose basic piece
    has no picture of its own, drawn by a layer (``emb2``): its first layer picture is its."""
    layered = (
        '<VASSAL.build.widget.PieceSlot entryName="Lord" gpid="9" height="64" width="64">'
        "+/null/emb2;Flip;2;F;;0;;;0;;;;1;false;0;0;Red lord.png,Blue lord.png;,;true;Side;;;"
        "false;;1;1;true;;\tpiece;;;;Lord/\tnull;0;0;9</VASSAL.build.widget.PieceSlot>"
    )
    build = F.build_file(extra=f"<VASSAL.build.module.PieceWindow>{layered}"
                               "</VASSAL.build.module.PieceWindow>")  # fmt: skip
    build = build.replace("VASSAL.launch.BasicModule", "VASSAL.build.GameModule")
    module = F.zipped({**{k: v for k, v in _members(F.vassal_module()).items()
                          if k != "buildFile.xml"}, "buildFile": build.encode()})  # fmt: skip
    start = read_start(module, "old.vmod").to_json()
    lord = next(p for p in start["pieces"] if p["name"] == "Lord")
    assert _near(_centre(_picture(lord)), F.PIECES["Red lord"])
    assert [c["name"] for c in start["cards"]] == F.CARDS


def _members(raw: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(raw)) as zf:
        return {n: zf.read(n) for n in zf.namelist()}
