"""The calibration page's routes through Flask's test client (docs/protocol.md, "Calibration")."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from cal_support import FakeCamera, rendered_table
from flask.testing import FlaskClient
from srv_support import open_referee

from bridge.game_files import camera_profile, camera_profile_path
from bridge.web.app import WebConfig, WebTable
from bridge.web.calibration import KEEP_CAPTURES
from vision.calibration import BoardProfile, load_profile, save_profile

MA_BOARD = camera_profile("middle-ages")
"""The board profile Middle Ages ships (its package's camera/profile.json)."""


BOARD_MM = [(0.0, 0.0), (560.0, 0.0), (560.0, 380.0), (0.0, 380.0)]


@pytest.fixture
def camera(tmp_path: Path) -> FakeCamera:
    return FakeCamera(rendered_table().image, tmp_path / "venue" / "board.json")


@pytest.fixture
def web(tmp_path: Path, camera: FakeCamera) -> Iterator[WebTable]:
    referee = open_referee(tmp_path / "t.db")
    yield WebTable(referee, WebConfig(), camera=camera)
    referee.store.close()


def api(web: WebTable, token: str | None = None) -> str:
    return f"/api/calibrate/{token or web.referee.row.tokens.host}"


def client(web: WebTable) -> FlaskClient:
    return web.app.test_client()


def state(web: WebTable) -> dict[str, Any]:
    reply = client(web).get(f"{api(web)}/profile")
    assert reply.status_code == 200
    data: dict[str, Any] = reply.get_json()
    return data


def save(web: WebTable, doc: Any, revision: str) -> Any:
    return client(web).post(f"{api(web)}/profile", json={"profile": doc, "revision": revision})


def refused(reply: Any, status: int, code: str) -> None:
    assert reply.status_code == status, reply.get_data(as_text=True)
    data = reply.get_json()
    assert data["ok"] is False and data["code"] == code
    assert data["message"] and "{" not in data["message"]  # a whole catalog sentence


def test_capture_without_a_camera_says_so_and_nothing_can_be_saved(tmp_path: Path) -> None:
    referee = open_referee(tmp_path / "t.db")
    web = WebTable(referee, WebConfig())
    try:
        host = referee.row.tokens.host
        page = client(web).get(f"/calibrate/{host}")
        assert page.status_code == 200 and b"calibrate.js" in page.data
        got = state(web)
        assert got["camera"] is False and got["can_save"] is False
        assert "No camera" in got["no_camera"]
        assert got["profile"] == MA_BOARD.to_json()
        refused(client(web).post(f"{api(web)}/capture", json={}), 503, "calibrate/no-camera")
        refused(client(web).post(f"{api(web)}/check"), 503, "calibrate/no-camera")
        refused(save(web, got["profile"], got["revision"]), 503, "calibrate/no-camera")
    finally:
        referee.store.close()


def test_a_camera_without_a_frame_yet_is_a_clear_error(web: WebTable, camera: FakeCamera) -> None:
    camera.frame = None
    refused(client(web).post(f"{api(web)}/capture", json={}), 503, "calibrate/no-frame")


def test_forged_and_seat_tokens_are_refused_and_change_nothing(
    web: WebTable, camera: FakeCamera
) -> None:
    good = state(web)
    doc = good["profile"]
    seat = web.referee.row.tokens.seats["blue"]
    for token, code in (
        ("forged-token-1234567890", "auth/bad-token"),
        (seat, "calibrate/host-only"),
    ):
        c = client(web)
        page = c.get(f"/calibrate/{token}")
        assert page.status_code == 403
        assert c.get(f"{api(web, token)}/profile").status_code == 403
        refused(c.post(f"{api(web, token)}/capture", json={}), 403, code)
        refused(c.post(f"{api(web, token)}/check"), 403, code)
        reply = c.post(f"{api(web, token)}/profile", json={"profile": doc, "revision": "none"})
        refused(reply, 403, code)
    assert "not valid" in client(web).get("/calibrate/forged").get_data(as_text=True)
    assert camera.profile_path is not None and not camera.profile_path.exists()
    assert camera.used == []


def test_capture_finds_the_corner_markers_and_the_board(web: WebTable) -> None:
    truth = rendered_table()
    reply = client(web).post(f"{api(web)}/capture", json={})
    assert reply.status_code == 200
    cap = reply.get_json()
    assert (cap["width"], cap["height"]) == (1920, 1080)
    board = cap["board"]
    assert board["found"] and board["corners_seen"] == [0, 1, 2, 3]
    assert "0, 1, 2, 3" in board["message"]
    for got, want in zip(board["corners_px"], truth.to_image(BOARD_MM), strict=True):
        assert math.dist(got, want) < 3.0
    assert {m["id"] for m in cap["markers"] if m["corner"]} == {0, 1, 2, 3}
    jpeg = client(web).get(f"{api(web)}/capture/{cap['capture']}/frame.jpg")
    assert jpeg.status_code == 200 and jpeg.mimetype == "image/jpeg"
    image = cv2.imdecode(np.frombuffer(jpeg.data, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (1080, 1920, 3)


def test_clicked_corners_give_the_homography_and_a_rectified_board(web: WebTable) -> None:
    truth = rendered_table()
    c = client(web)
    cap = c.post(f"{api(web)}/capture", json={}).get_json()["capture"]
    refused(c.get(f"{api(web)}/capture/{cap}/board.jpg"), 409, "calibrate/not-rectified")
    corners = [list(p) for p in truth.to_image(BOARD_MM)]
    doc = state(web)["profile"]
    reply = c.post(
        f"{api(web)}/capture/{cap}/rectify", json={"corners_px": corners, "profile": doc}
    )
    assert reply.status_code == 200
    got = reply.get_json()
    hom = np.array(got["homography"])
    slot = (92.5, 72.5)  # row 1, slot 1's centre
    (px,) = truth.to_image([slot])
    mm = cv2.perspectiveTransform(np.array([[px]], dtype=np.float64), hom)[0, 0]
    assert math.dist(mm, slot) < 0.5
    # the corner markers sit where the profile says: this is the same board
    assert {m["id"] for m in got["measured"]} == {0, 1, 2, 3}
    assert all(m["offset_mm"] < 2.0 and abs(m["side_mm"] - 40) < 2.0 for m in got["measured"])
    view = got["view"]
    assert view["origin_mm"][0] < -115 and view["origin_mm"][0] + view["size_mm"][0] > 675
    picture = c.get(f"{api(web)}/capture/{cap}/board.jpg")
    assert picture.status_code == 200
    image = cv2.imdecode(np.frombuffer(picture.data, np.uint8), cv2.IMREAD_COLOR)
    assert (image.shape[1], image.shape[0]) == tuple(view["size_px"])


@pytest.mark.parametrize(
    ("corners", "code"),
    [
        ([[0, 0], [100, 0], [100, 100]], "calibrate/corners-count"),
        ([[0, 0], [100, 0], [100, "x"], [0, 100]], "calibrate/corners-count"),
        ([[0, 0], [100, 100], [100, 0], [0, 100]], "calibrate/corners-order"),  # crossed
        ([[0, 0], [0, 100], [100, 100], [100, 0]], "calibrate/corners-order"),  # anticlockwise
        ([[0, 0], [5, 0], [5, 5], [0, 5]], "calibrate/corners-small"),
    ],
)
def test_bad_corners_are_refused(web: WebTable, corners: list[Any], code: str) -> None:
    c = client(web)
    cap = c.post(f"{api(web)}/capture", json={}).get_json()["capture"]
    doc = state(web)["profile"]
    body = {"corners_px": corners, "profile": doc}
    refused(c.post(f"{api(web)}/capture/{cap}/rectify", json=body), 400, code)
    refused(c.get(f"{api(web)}/capture/{cap}/board.jpg"), 409, "calibrate/not-rectified")


def test_old_captures_are_let_go(web: WebTable) -> None:
    c = client(web)
    ids = [c.post(f"{api(web)}/capture", json={}).get_json()["capture"]]
    ids += [
        c.post(f"{api(web)}/capture", json={}).get_json()["capture"] for _ in range(KEEP_CAPTURES)
    ]
    refused(c.get(f"{api(web)}/capture/{ids[0]}/frame.jpg"), 404, "calibrate/no-capture")
    assert (
        str(KEEP_CAPTURES) in c.get(f"{api(web)}/capture/{ids[0]}/frame.jpg").get_json()["message"]
    )
    assert all(c.get(f"{api(web)}/capture/{i}/frame.jpg").status_code == 200 for i in ids[1:])


def test_a_valid_profile_is_saved_and_loads_back(web: WebTable, camera: FakeCamera) -> None:
    first = state(web)
    assert first["source"] == "builtin" and first["revision"] == "none"
    doc = json.loads(json.dumps(first["profile"]))
    slot = next(r for r in doc["regions"] if r["name"] == "row:1/slot:1")
    slot["rect"] = [72.5, 52, 44, 45.5]
    doc["regions"].append({"name": "score-track", "kind": "area", "rect": [0, 0, 560, 12]})
    doc["corner_centers_mm"][2] = [534.5, 356]
    reply = save(web, doc, first["revision"])
    assert reply.status_code == 200, reply.get_data(as_text=True)
    got = reply.get_json()
    assert got["ok"] and got["regions"] == len(doc["regions"]) and got["warning"] is None
    assert camera.profile_path is not None
    saved = load_profile(camera.profile_path)  # vision's own loader reads what was written
    assert saved.to_json() == BoardProfile.from_json(doc).to_json()
    assert dict((r.name, r.rect) for r in saved.regions)["row:1/slot:1"] == (72.5, 52, 44, 45.5)
    assert saved.corner_centers_mm[2] == (534.5, 356.0)
    assert camera.used == [saved]  # the live camera is handed the new profile
    again = state(web)
    assert again["source"] == "file" and again["revision"] == got["revision"] != "none"
    assert again["profile"] == saved.to_json()
    assert list(camera.profile_path.parent.glob(".*tmp*")) == []  # no temporary file left


def test_missing_regions_are_saved_with_a_warning(web: WebTable) -> None:
    first = state(web)
    doc = first["profile"]
    doc["regions"] = [r for r in doc["regions"] if r["kind"] != "graveyard"]
    got = save(web, doc, first["revision"]).get_json()
    assert got["ok"] and "4 regions of the game" in got["warning"]
    assert "seat:red/graveyard" in got["warning"]


def _many(count: int) -> list[dict[str, Any]]:
    return [{"name": f"r{i}", "kind": "area", "rect": [0, 0, 1, 1]} for i in range(count)]


def _bad(change: Any) -> dict[str, Any]:
    doc = MA_BOARD.to_json()
    change(doc)
    return doc


BAD_PROFILES = [
    (
        "duplicate",
        lambda d: d["regions"].append(dict(d["regions"][0])),
        "calibrate/region-duplicate",
    ),
    ("empty-name", lambda d: d["regions"][0].update(name=""), "calibrate/region-name"),
    ("spaced-name", lambda d: d["regions"][0].update(name=" tray"), "calibrate/region-name"),
    ("zero-width", lambda d: d["regions"][0].update(rect=[1, 1, 0, 5]), "calibrate/bad-profile"),
    ("rect-3", lambda d: d["regions"][0].update(rect=[1, 1, 5]), "calibrate/bad-profile"),
    ("far-away", lambda d: d["regions"][0].update(rect=[5000, 1, 5, 5]), "calibrate/region-rect"),
    ("unknown-key", lambda d: d.update(colour="red"), "calibrate/unknown-key"),
    ("no-width", lambda d: d.pop("width_mm"), "calibrate/bad-profile"),
    ("negative-size", lambda d: d.update(height_mm=-3), "calibrate/board-size"),
    ("three-corners", lambda d: d.update(corner_ids=[0, 1, 2]), "calibrate/bad-profile"),
    ("dictionary", lambda d: d.update(dictionary="9x9_7"), "calibrate/bad-profile"),
    ("corner-sticker", lambda d: d["markers"].update({"0": "lord:red"}), "calibrate/bad-profile"),
    ("too-many", lambda d: d.update(regions=_many(401)), "calibrate/too-many-regions"),
]


@pytest.mark.parametrize(("case", "change", "code"), BAD_PROFILES, ids=[b[0] for b in BAD_PROFILES])
def test_an_invalid_profile_is_refused_and_the_file_is_unchanged(
    web: WebTable, camera: FakeCamera, case: str, change: Any, code: str
) -> None:
    assert camera.profile_path is not None
    camera.profile_path.parent.mkdir(parents=True)
    save_profile(MA_BOARD, camera.profile_path)
    before = camera.profile_path.read_bytes()
    revision = state(web)["revision"]
    refused(save(web, _bad(change), revision), 400, code)
    assert camera.profile_path.read_bytes() == before
    assert camera.used == []


@pytest.mark.parametrize(
    "raw",
    [
        b"not json",
        b"[1, 2]",
        b'{"revision": "none"}',
        b'{"profile": {}, "revision": 3}',
        # json.loads reads NaN; a NaN rectangle must not reach the file
        b'{"profile": {"width_mm": 560, "height_mm": 380, "regions": '
        b'[{"name": "a", "rect": [NaN, 1, 2, 2]}]}, "revision": "none"}',
        b"[" * 20000 + b"]" * 20000,
    ],
)
def test_unreadable_saves_are_refused(web: WebTable, camera: FakeCamera, raw: bytes) -> None:
    reply = client(web).post(
        f"{api(web)}/profile", data=raw, headers={"Content-Type": "application/json"}
    )
    assert reply.status_code == 400
    assert reply.get_json()["code"] in ("calibrate/malformed", "calibrate/region-rect")
    assert camera.profile_path is not None and not camera.profile_path.exists()


def test_a_huge_request_is_refused(web: WebTable) -> None:
    body = json.dumps({"profile": {"name": "x" * 100_000}, "revision": "none"})
    reply = client(web).post(
        f"{api(web)}/profile", data=body, headers={"Content-Type": "application/json"}
    )
    refused(reply, 413, "calibrate/too-large")


def test_a_save_over_someone_elses_save_is_refused(web: WebTable, camera: FakeCamera) -> None:
    first = state(web)
    assert save(web, first["profile"], first["revision"]).status_code == 200
    assert camera.profile_path is not None
    before = camera.profile_path.read_bytes()
    doc = first["profile"]
    doc["width_mm"] = 600
    refused(save(web, doc, first["revision"]), 409, "calibrate/stale")  # loaded before the save
    assert camera.profile_path.read_bytes() == before


def test_without_a_profile_file_nothing_is_saved(web: WebTable, camera: FakeCamera) -> None:
    camera.profile_path = None
    got = state(web)
    assert got["can_save"] is False and got["path"] is None
    refused(save(web, got["profile"], got["revision"]), 409, "calibrate/no-profile-path")


def test_the_profile_shipped_with_herald_is_never_overwritten(
    web: WebTable, camera: FakeCamera
) -> None:
    shipped = camera_profile_path("middle-ages")
    assert shipped is not None
    before = shipped.read_bytes()
    camera.profile_path = shipped
    got = state(web)
    assert got["can_save"] is False and "shipped with Herald" in got["cannot_save"]
    assert got["source"] == "file"
    refused(save(web, got["profile"], got["revision"]), 409, "calibrate/builtin-profile")
    assert shipped.read_bytes() == before and camera.used == []


def test_a_broken_profile_file_is_shown_as_such_and_can_be_replaced(
    web: WebTable, camera: FakeCamera
) -> None:
    assert camera.profile_path is not None
    camera.profile_path.parent.mkdir(parents=True)
    camera.profile_path.write_text("{ not json")
    got = state(web)
    assert got["source"] == "builtin" and "cannot be read" in got["note"]
    assert save(web, got["profile"], got["revision"]).status_code == 200
    assert load_profile(camera.profile_path).to_json() == got["profile"]


def test_check_draws_the_saved_regions_where_the_camera_sees_them(web: WebTable) -> None:
    truth = rendered_table()
    first = state(web)
    assert save(web, first["profile"], first["revision"]).status_code == 200
    reply = client(web).post(f"{api(web)}/check")
    assert reply.status_code == 200
    got = reply.get_json()
    assert got["found"] and got["corners_seen"] == [0, 1, 2, 3]
    assert len(got["regions"]) == len(first["profile"]["regions"])
    tray = next(r for r in got["regions"] if r["name"] == "tray")
    want = truth.to_image([(575, 130), (675, 130), (675, 280), (575, 280)])
    assert all(math.dist(a, b) < 4.0 for a, b in zip(tray["points_px"], want, strict=True))


def test_the_host_display_links_to_the_page_only_with_a_camera(
    web: WebTable, tmp_path: Path
) -> None:
    host = web.referee.row.tokens.host
    got = [m for m in web.socketio.test_client(web.app, auth={"token": host}).get_received()]
    (payload,) = [m["args"][0] for m in got if m["name"] == "host"]
    assert payload["calibrate_url"] == f"http://127.0.0.1:8000/calibrate/{host}"
    seat = web.referee.row.tokens.seats["blue"]
    got = web.socketio.test_client(web.app, auth={"token": seat}).get_received()
    assert all(host not in json.dumps(m["args"]) for m in got)
    bare = WebTable(web.referee, WebConfig())
    got = bare.socketio.test_client(bare.app, auth={"token": host}).get_received()
    (payload,) = [m["args"][0] for m in got if m["name"] == "host"]
    assert "calibrate_url" not in payload
