"""The audit trail (issue #17, part 4): a move the camera read keeps the frame that showed it, in
the event store beside the event (SQLite and PostgreSQL), bounded in size and count; the host's
log links it; ``herald sessions export --frames`` writes it out.

Tests taking ``store_target`` run on both backends (tests/server/conftest.py)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner
from srv_support import open_referee, play_table_moves

from bridge.cli import main
from bridge.evidence import changed_boxes, evidence_jpeg
from bridge.referee import Referee
from bridge.store import (
    FRAME_MAX_BYTES,
    FRAME_MAX_SIDE,
    SCHEMA_VERSION,
    EventStore,
    StoreError,
    open_store,
)
from bridge.web.app import WebConfig, WebTable
from engine import codec


def _table(seed: int = 1, size: tuple[int, int] = (1280, 720)) -> np.ndarray:
    rng = np.random.default_rng(seed)
    img = cv2.resize(rng.integers(60, 200, (9, 16, 3), dtype=np.uint8), size,
                     interpolation=cv2.INTER_NEAREST)  # fmt: skip
    return cv2.GaussianBlur(img, (0, 0), 6)


def _moved(before: np.ndarray) -> np.ndarray:
    after = before.copy()
    cv2.rectangle(after, (600, 300), (700, 380), (20, 200, 30), -1)  # a tile set down
    return after


def _observe_with_frame(referee: Referee, frame: tuple[bytes, dict]) -> int:
    """Observe the next chance move with ``frame``; returns its event's seq."""
    import random

    state_id = referee.state_id
    move = referee.game.sample_chance(referee.session.state, random.Random(5))
    assert move is not None
    outcome = referee.observe("camera", codec.encode(move), state_id=state_id, frame=frame)
    assert outcome.ok, outcome.to_json()
    return state_id + 1


def test_the_changed_region_is_outlined_and_the_picture_is_bounded() -> None:
    before = _table()
    after = _moved(before)
    boxes = changed_boxes(before, after)
    assert len(boxes) == 1
    x, y, w, h = boxes[0]
    assert x <= 650 <= x + w and y <= 340 <= y + h  # around the new tile (600-700, 300-380)
    assert x >= 560 and x + w <= 740 and y >= 260 and y + h <= 420  # and not the whole table
    jpeg, meta = evidence_jpeg(after, before)
    assert jpeg[:2] == b"\xff\xd8" and len(jpeg) <= FRAME_MAX_BYTES
    assert max(meta["width"], meta["height"]) == FRAME_MAX_SIDE
    picture = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert picture.shape[:2] == (meta["height"], meta["width"])
    bx, by, bw = meta["boxes"][0][:3]
    edge = picture[by, bx + bw // 2].astype(int)  # the outline's top edge is red
    assert edge[2] > 180 and edge[1] < 90 and edge[0] < 90
    # a noisy 4K frame still fits the byte bound (the quality is lowered)
    noisy = np.random.default_rng(2).integers(0, 256, (2160, 3840, 3), dtype=np.uint8)
    big, meta = evidence_jpeg(noisy)
    assert len(big) <= FRAME_MAX_BYTES and meta["boxes"] == []


def test_frames_round_trip_beside_their_events(store_target: str) -> None:
    referee = open_referee(store_target)
    before = _table()
    frame = evidence_jpeg(_moved(before), before)
    seq = _observe_with_frame(referee, frame)
    kept = referee.store.frame(referee.row.id, seq)
    assert kept is not None and kept.jpeg == frame[0] and kept.meta == frame[1]
    assert kept.size == len(frame[0]) and kept.time > 0
    listed = referee.store.frames(referee.row.id)
    assert [(f.seq, f.size, f.jpeg) for f in listed] == [(seq, len(frame[0]), b"")]
    entry = referee.current().table["log"][-1]
    assert entry["seq"] == seq and entry["source"] == "camera" and entry["frame"] is True
    # a resumed referee still knows which entries have a picture
    referee.store.close()
    again = open_referee(store_target)
    assert [e.get("frame", False) for e in again.current().table["log"]][-1] is True
    # a frame for no event, or not a JPEG, or over the byte bound is refused
    with pytest.raises(StoreError):
        again.store.save_frame(again.row.id, seq + 50, frame[0], {})
    with pytest.raises(StoreError):
        again.store.save_frame(again.row.id, seq, b"GIF89a....", {})
    with pytest.raises(StoreError):
        again.store.save_frame(again.row.id, seq, b"\xff\xd8" + bytes(FRAME_MAX_BYTES), {})
    assert again.store.frame(again.row.id, seq).jpeg == frame[0]  # unchanged


def test_frames_per_session_are_bounded_oldest_first(store_target: str) -> None:
    referee = open_referee(store_target)
    referee.store.max_frames = 3
    made = play_table_moves(referee)
    assert made >= 4
    jpeg = evidence_jpeg(_table())
    for seq in range(1, made + 1):
        referee.store.save_frame(referee.row.id, seq, *jpeg)
    kept = [f.seq for f in referee.store.frames(referee.row.id)]
    assert kept == list(range(made - 2, made + 1))
    assert referee.store.frame(referee.row.id, 1) is None


def test_a_version_1_store_is_migrated(tmp_path: Path) -> None:
    """A store from before the audit trail (schema 1, no ``frames``) gains the table."""
    db = tmp_path / "old.db"
    referee = open_referee(db)
    play_table_moves(referee)
    events = len(referee.store.events(referee.row.id))
    referee.store.close()
    con = sqlite3.connect(db)
    con.execute("DROP TABLE frames")
    con.execute("PRAGMA user_version=1")
    con.commit()
    con.close()
    store = EventStore(db)
    assert store.pragma("user_version") == SCHEMA_VERSION == 2
    assert store.frames(1) == [] and len(store.events(1)) == events
    store.save_frame(1, 1, *evidence_jpeg(_table()))
    assert [f.seq for f in store.frames(1)] == [1]
    store.close()


def test_the_host_log_links_the_picture_and_only_the_host_opens_it(tmp_path: Path) -> None:
    referee = open_referee(tmp_path / "t.db")
    before = _table()
    seq = _observe_with_frame(referee, evidence_jpeg(_moved(before), before))
    web = WebTable(referee, WebConfig())
    client = web.app.test_client()
    host = referee.row.tokens.host
    seat = next(iter(referee.row.tokens.seats.values()))
    got = client.get(f"/api/frames/{host}/{seq}.jpg")
    assert got.status_code == 200 and got.mimetype == "image/jpeg"
    assert got.data == referee.store.frame(referee.row.id, seq).jpeg
    listing = client.get(f"/api/frames/{host}").get_json()
    assert [f["seq"] for f in listing["frames"]] == [seq] and listing["frames"][0]["boxes"]
    assert client.get(f"/api/frames/{seat}/{seq}.jpg").status_code == 403
    assert client.get(f"/api/frames/nope/{seq}.jpg").status_code == 403
    missing = client.get(f"/api/frames/{host}/{seq + 9}.jpg")
    assert missing.status_code == 404 and b"No camera picture is kept" in missing.data
    assert web.host_payload()["frames_url"] == f"/api/frames/{host}"


def test_export_writes_the_frames(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    referee = open_referee(db)
    before = _table()
    frame = evidence_jpeg(_moved(before), before)
    seq = _observe_with_frame(referee, frame)
    referee.store.close()
    out = tmp_path / "export"
    args = ["export", "1", "-o", str(tmp_path / "game.log"), "--frames", str(out)]
    result = CliRunner().invoke(main, ["sessions", "--db", str(db), *args])
    assert result.exit_code == 0, result.output
    assert "1 camera picture written" in result.output
    assert (out / f"{seq:06d}.jpg").read_bytes() == frame[0]
    index = json.loads((out / "frames.json").read_text())
    assert index["frames"][0]["seq"] == seq and index["frames"][0]["boxes"] == frame[1]["boxes"]
    lines = (tmp_path / "game.log").read_text().splitlines()
    assert len(lines) == 1 + seq  # the log itself is unchanged: header and every event


def test_open_store_reports_the_schema(tmp_path: Path) -> None:
    store = open_store(tmp_path / "n.db")
    assert store.max_frames > 0
    store.close()
