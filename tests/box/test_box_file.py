"""Box files (issue #24 point 4 and 6): a box exported from a data set reads back the same, packs to
the same bytes, plays as the set it came from, and every bad file is refused with a sentence,
changing nothing already saved."""

from __future__ import annotations

import io
import json
import stat
import zipfile
from pathlib import Path
from typing import Any

import pytest

from bridge import gamedata
from bridge.box import archive
from bridge.box.errors import BoxError, refusal_text
from bridge.box.file import Box, box_data, read_box
from bridge.box.library import import_box, listed, read_box_file
from engine import data as engine_data
from engine import registry
from engine.violations import InputError

from .box_support import edited, exported

GAMES_WITH_DATA = ("france1429", "viscounts", "glory", "middle-ages")


@pytest.mark.parametrize("key", GAMES_WITH_DATA)
def test_a_box_reads_back_as_the_files_it_was_made_of(key: str, tmp_path: Path) -> None:
    """Each shipped set as a box: the same digest read back, the same bytes packed twice, and
    the same data as its files unpacked into a folder and read as a user's data file."""
    game = registry.get_game(key)
    spec = engine_data.data_spec(game)
    assert spec is not None
    for source in spec.shipped:
        made = exported(key, source)
        raw = made.to_bytes()
        back = read_box(raw)
        assert back.digest == made.digest and back.game == key
        assert exported(key, source).to_bytes() == raw, "the same box packs to the same bytes"
        folder = tmp_path / source
        folder.mkdir()
        for member, content in back.members.items():
            (folder / member.removeprefix("data/")).write_bytes(content)
        path = str(folder / back.data.removeprefix("data/"))
        as_file = gamedata.load(game, {spec.option: path})
        assert as_file is not None
        assert box_data(game, back, path).digest == as_file.digest


def test_a_box_of_a_users_data_file_carries_the_map_it_names(tmp_path: Path) -> None:
    """France 1429's data file names its map beside it; the box holds both and reads no file
    outside itself (the folder is deleted before the box is read)."""
    folder = tmp_path / "mine"
    folder.mkdir()
    shipped = registry.package_files("france1429").joinpath("data")
    doc = json.loads(shipped.joinpath("stand-in-invented.json").read_text(encoding="utf-8"))
    doc["map"] = "my-map.json"
    (folder / "mine.json").write_text(json.dumps(doc), encoding="utf-8")
    (folder / "my-map.json").write_text(
        shipped.joinpath("map-stand-in-invented.json").read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    made = exported("france1429", str(folder / "mine.json"))
    assert set(made.members) == {"data/mine.json", "data/my-map.json"}
    for f in folder.iterdir():
        f.unlink()
    data = box_data(registry.get_game("france1429"), read_box(made.to_bytes()), "x")
    assert (
        data.digest
        == engine_data.load(registry.get_game("france1429"), {"data": "stand-in"}).digest
    )  # type: ignore[union-attr]


def test_serving_on_a_box_records_its_data_digest_and_a_replay_with_another_box_is_refused(
    tmp_path: Path,
) -> None:
    game = registry.get_game("viscounts")
    first = tmp_path / "first.herald-box"
    first.write_bytes(exported("viscounts", "stand-in").to_bytes())
    other = tmp_path / "other.herald-box"
    changed = edited(
        exported("viscounts", "stand-in"),
        "data/stand-in-invented.json",
        lambda d: {**d, "townsfolk": [{**d["townsfolk"][0], "value": 3}, *d["townsfolk"][1:]]},
    )
    other.write_bytes(changed.to_bytes())
    loaded = gamedata.load(game, {"data": str(first)})
    assert loaded is not None and loaded.source == str(first)
    again = gamedata.load(game, {"data": str(other)})
    assert again is not None and again.digest != loaded.digest
    engine_data.check_same(loaded.ref(), gamedata.load(game, {"data": str(first)}))
    with pytest.raises(InputError, match=r"data-digest|differ"):
        engine_data.check_same(loaded.ref(), again)


def _zip(entries: dict[str, bytes], mode: int = stat.S_IFREG | 0o644) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, raw in entries.items():
            info = zipfile.ZipInfo(name)
            info.external_attr = mode << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, raw)
    return buffer.getvalue()


def _repacked(
    box: Box,
    manifest_change: dict[str, object] | None = None,
    extra: dict[str, bytes] | None = None,
) -> bytes:
    manifest = {**box.manifest(), **(manifest_change or {})}
    members = {**box.members, "box.json": json.dumps(manifest).encode(), **(extra or {})}
    return _zip(members)


def _france() -> Box:
    return exported("france1429", "stand-in")


def _townsfolk(change: dict[str, object]) -> bytes:
    """Viscounts' stand-in box with its first Townsfolk card changed."""

    def edit(d: dict[str, Any]) -> dict[str, Any]:
        return {**d, "townsfolk": [{**d["townsfolk"][0], **change}, *d["townsfolk"][1:]]}

    return edited(exported("viscounts", "stand-in"), "data/stand-in-invented.json", edit).to_bytes()


def _road_to_nowhere() -> bytes:
    def edit(m: dict[str, Any]) -> dict[str, Any]:
        return {**m, "roads": [*m["roads"], {"between": ["blaye", "nowhere"]}]}

    return edited(_france(), "data/map-stand-in-invented.json", edit).to_bytes()


def _bad_files() -> dict[str, tuple[bytes, str]]:
    """Each bad file and the refusal code it must get."""
    good = _france()
    raw = good.to_bytes()
    changed = {"data/map-stand-in-invented.json": b"{}"}
    many = {f"data/{n}.json": b"{}" for n in range(2500)}
    return {
        "json, not a box": (b'{"format": "herald-box"}', "box/not-a-box"),
        "truncated": (raw[: len(raw) // 2], "box/corrupt"),
        "a changed byte": (_repacked(good, extra=changed), "box/corrupt-member"),
        "a member not listed": (
            _repacked(good, extra={"data/more.json": b"{}"}),
            "box/unlisted-member",
        ),
        "a newer format": (_repacked(good, {"version": 99}), "box/newer-format"),
        "a forged digest": (_repacked(good, {"digest": "sha256:" + "0" * 64}), "box/bad-digest"),
        "no manifest": (_zip({"data/x.json": b"{}"}), "box/no-manifest"),
        "path traversal": (_zip({"../evil.json": b"{}", "box.json": b"{}"}), "box/bad-name"),
        "an absolute path": (_zip({"/etc/passwd": b"x"}), "box/bad-name"),
        "a symlink": (_zip({"data/link": b"/etc/passwd"}, stat.S_IFLNK | 0o777), "box/not-a-file"),
        "a zip bomb": (_zip({"data/bomb.json": b" " * (8 * 1024 * 1024)}), "box/zip-bomb"),
        "thousands of entries": (_zip(many), "box/too-many-entries"),
        "a road to a missing Village": (_road_to_nowhere(), "box/breaks-rules"),
        "a value out of range": (_townsfolk({"count": -2}), "box/bad-data"),
        "an unknown effect": (_townsfolk({"ability": "immediate: 1 dragon"}), "box/bad-data"),
    }


BAD = _bad_files()


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_box_is_refused_with_a_sentence_and_nothing_saved_changes(
    case: str, tmp_path: Path
) -> None:
    raw, code = BAD[case]
    library = tmp_path / "herald.db.boxes"
    kept = import_box(_france(), registry.get_game("france1429"), library)
    before = {p: p.read_bytes() for p in library.rglob("*") if p.is_file()}
    bad = tmp_path / "bad.herald-box"
    bad.write_bytes(raw)
    with pytest.raises(BoxError) as caught:
        found = read_box_file(bad)
        import_box(found, registry.get_game(found.game), library)
    assert caught.value.code == code, refusal_text(caught.value)
    for lang in ("en", "pl"):
        sentence = refusal_text(caught.value, lang)
        assert sentence and "\n" not in sentence and "{" not in sentence
    after = {p: p.read_bytes() for p in library.rglob("*") if p.is_file()}
    assert after == before and kept.path in after


def test_a_box_of_another_game_is_refused() -> None:
    box = read_box(exported("viscounts").to_bytes())
    with pytest.raises(BoxError) as caught:
        box_data(registry.get_game("france1429"), box, "x")
    assert caught.value.code == "box/other-game"


def test_importing_twice_keeps_one_file_and_a_fresh_library_gets_the_same_digest(
    tmp_path: Path,
) -> None:
    game = registry.get_game("france1429")
    first = import_box(_france(), game, tmp_path / "a")
    again = import_box(_france(), game, tmp_path / "a")
    assert not first.existed and again.existed and again.path == first.path
    assert listed(tmp_path / "a") == [first.path]
    elsewhere = import_box(read_box_file(first.path), game, tmp_path / "b")
    assert read_box_file(elsewhere.path).digest == _france().digest
    assert not list((tmp_path / "a" / "france1429").glob(".import-*"))


def test_archive_limits_are_checked_before_inflating() -> None:
    """A member whose directory entry claims more than one member may hold is refused by its
    header, so no byte of it is inflated."""
    raw = _zip({"data/big.json": b"0" * (archive.MAX_MEMBER_BYTES + 1)})
    with pytest.raises(BoxError) as caught:
        archive.read_archive(raw)
    assert caught.value.code in ("box/member-too-large", "box/zip-bomb")
