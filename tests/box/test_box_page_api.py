"""The "Your box" page's routes (issue #24 points 1, 4, 6): host only, a starting set's files and
the schemas of their forms, the live check, save into the table's library, export and import; a
refused request answers one catalog sentence and keeps nothing."""

from __future__ import annotations

import copy
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from bridge.box.library import listed
from bridge.web.app import WebConfig, WebTable
from tests.server.srv_support import open_referee

from .box_support import exported


@pytest.fixture
def web(tmp_path: Path) -> Iterator[WebTable]:
    referee = open_referee(tmp_path / "t.db")
    yield WebTable(referee, WebConfig(), box_library=tmp_path / "t.db.boxes")
    referee.store.close()


def _api(web: WebTable, token: str | None = None) -> str:
    return f"/api/box/{token or web.referee.row.tokens.host}"


def _client(web: WebTable) -> FlaskClient:
    return web.app.test_client()


def _start(web: WebTable, game: str, start: str = "set=stand-in") -> dict[str, Any]:
    reply = _client(web).get(f"{_api(web)}/start/{game}?{start}")
    assert reply.status_code == 200, reply.get_data(as_text=True)
    data: dict[str, Any] = reply.get_json()
    return data


def _draft(start: dict[str, Any]) -> dict[str, Any]:
    return {k: start[k] for k in ("game", "name", "main", "files")}


def test_only_the_host_reaches_the_page_and_its_routes(web: WebTable) -> None:
    seat = next(iter(web.referee.row.tokens.seats.values()))
    assert _client(web).get(f"/box/{web.referee.row.tokens.host}").status_code == 200
    for token in (seat, "forged"):
        assert _client(web).get(f"/box/{token}").status_code == 403
        for method, path in (("get", "/games"), ("post", "/check"), ("post", "/save"),
                             ("post", "/import")):  # fmt: skip
            reply = getattr(_client(web), method)(f"{_api(web, token)}{path}", json={})
            assert reply.status_code == 403
            assert reply.get_json()["code"] in ("auth/bad-token", "box/host-only")
    assert listed(web.box_library) == []  # type: ignore[arg-type]


def test_every_game_starts_from_its_shipped_sets_with_a_form_schema(web: WebTable) -> None:
    games = _client(web).get(f"{_api(web)}/games").get_json()["games"]
    assert {g["key"] for g in games} == {"middle-ages", "glory", "france1429", "viscounts"}
    for game in games:
        for shipped in game["sets"]:
            got = _start(web, game["key"], f"set={shipped}")
            assert got["main"] in got["files"]
            schema = got["schemas"][got["main"]]
            if schema is not None:  # a file naming its schema gets its form's tabs
                assert schema.get("format") == "categories" or "$ref" in schema


def test_the_live_check_counts_values_and_names_what_is_missing_in_polish(web: WebTable) -> None:
    """France 1429's ``box`` set: the map the rulebooks give is incomplete, so the box is good but
    not yet playable, and each gap is listed with its path."""
    draft = _draft(_start(web, "france1429", "set=box"))
    report = _client(web).post(f"{_api(web)}/check?lang=pl", json=draft).get_json()
    assert report["ok"] and report["playable"] == [] and report["missing"] > 0
    assert "wartości" in report["summary"] and "jeszcze nie da się grać" in report["summary"]
    assert any(g["what"] == "roads" for g in report["gaps"])


def test_a_change_that_breaks_a_rule_is_refused_and_save_keeps_nothing(web: WebTable) -> None:
    draft = _draft(_start(web, "viscounts"))
    bad = copy.deepcopy(draft)
    bad["files"][bad["main"]]["townsfolk"][0]["count"] = -1
    report = _client(web).post(f"{_api(web)}/check", json=bad).get_json()
    assert report["ok"] is False and report["code"] == "box/bad-data"
    assert "townsfolk" in report["message"]
    reply = _client(web).post(f"{_api(web)}/save", json=bad)
    assert reply.status_code == 400 and listed(web.box_library) == []  # type: ignore[arg-type]


def test_save_export_and_import_round_trip(web: WebTable, tmp_path: Path) -> None:
    draft = _draft(_start(web, "viscounts"))
    draft["name"] = "Our Viscounts"
    saved = _client(web).post(f"{_api(web)}/save", json=draft).get_json()
    assert saved["ok"] and saved["file"].startswith("our-viscounts-")
    games = _client(web).get(f"{_api(web)}/games").get_json()["games"]
    assert saved["file"] in next(g for g in games if g["key"] == "viscounts")["boxes"]
    again = _start(web, "viscounts", f"box={saved['file']}")
    assert again["files"] == draft["files"] and again["name"] == "Our Viscounts"
    exported_ = _client(web).post(f"{_api(web)}/export", json=draft)
    assert exported_.status_code == 200 and exported_.data.startswith(b"PK")
    downloaded = _client(web).get(f"{_api(web)}/file/viscounts/{saved['file']}")
    assert downloaded.status_code == 200 and downloaded.data == exported_.data
    other = exported("france1429", "stand-in").to_bytes()
    reply = _client(web).post(f"{_api(web)}/import", data=io.BytesIO(other),
                              content_type="application/octet-stream")  # fmt: skip
    assert reply.status_code == 200 and reply.get_json()["game"] == "france1429"
    broken = _client(web).post(f"{_api(web)}/import", data=io.BytesIO(other[:-50]),
                               content_type="application/octet-stream")  # fmt: skip
    assert broken.status_code == 400 and broken.get_json()["code"] == "box/corrupt"
    assert len(listed(web.box_library)) == 2  # type: ignore[arg-type]
    missing = _client(web).get(f"{_api(web)}/file/viscounts/..%2Ft.db")
    assert missing.status_code == 404


def test_a_cards_face_is_enrolled_from_a_photograph_into_a_new_kept_box(web: WebTable) -> None:
    import cv2

    from vision.art import stand_in_art

    draft = _draft(_start(web, "viscounts"))
    saved = _client(web).post(f"{_api(web)}/save", json=draft).get_json()
    ok, jpeg = cv2.imencode(".jpg", stand_in_art("our-woodcutter", 500, 700))
    assert ok
    path = f"{_api(web)}/face/viscounts/{saved['file']}"
    seat = next(iter(web.referee.row.tokens.seats.values()))
    forged = _client(web).post(f"{_api(web, seat)}/face/viscounts/{saved['file']}/woodcutter",
                               data=jpeg.tobytes())  # fmt: skip
    assert forged.status_code == 403
    bad = _client(web).post(f"{path}/dragon", data=jpeg.tobytes())
    assert bad.status_code == 400 and bad.get_json()["code"] == "box/face-unknown-card"
    done = _client(web).post(f"{path}/woodcutter", data=jpeg.tobytes()).get_json()
    assert done["ok"] and done["file"] != saved["file"]
    cards = _client(web).get(f"{_api(web)}/cards/viscounts/{done['file']}").get_json()
    assert cards["faces"] == ["woodcutter"] and "mason" in cards["cards"]
    before = _client(web).get(f"{_api(web)}/cards/viscounts/{saved['file']}").get_json()
    assert before["faces"] == []  # the box it was made from is unchanged
