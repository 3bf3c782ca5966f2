"""A work-in-progress box (issue #24: a group entering a box over an evening): **Save draft**
keeps a box that breaks a rule, marked not playable with every fault listed; it never starts a
game (New game lists it as a draft, and the setup refuses it), while Save to this table and the
import of a box file still refuse it, with the same sentence. Saved whole, its draft is dropped.
"""

from __future__ import annotations

import copy
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from bridge.box.drafts import drafts
from bridge.box.library import listed, read_box_file
from bridge.table_setup import SetupError, choices, read_setup
from bridge.web.app import WebConfig, WebTable
from tests.server.srv_support import open_referee

from .generated import france_files


@pytest.fixture
def web(tmp_path: Path) -> Iterator[WebTable]:
    referee = open_referee(tmp_path / "t.db")
    yield WebTable(referee, WebConfig(), box_library=tmp_path / "t.db.boxes")
    referee.store.close()


def _api(web: WebTable) -> str:
    return f"/api/box/{web.referee.row.tokens.host}"


def _client(web: WebTable) -> FlaskClient:
    return web.app.test_client()


def _broken() -> dict[str, Any]:
    """A France 1429 box half traced: two roads to Villages not placed yet, one Fief too few."""
    files = france_files(31, 10)
    roads = files["map.json"]["roads"]
    roads += [{"between": ["sigy", "not-yet-1"]}, {"between": ["sigy", "not-yet-2"]}]
    return {"game": "france1429", "name": "Our France", "main": "data.json", "files": files}


def test_a_draft_that_breaks_rules_is_kept_with_every_fault(web: WebTable) -> None:
    draft = _broken()
    check = _client(web).post(f"{_api(web)}/check", json=draft).get_json()
    assert check["ok"] is False  # the live check refuses it, in its sentence, as before
    refused = _client(web).post(f"{_api(web)}/save", json=draft)
    assert refused.status_code == 400
    assert refused.get_json()["message"] == check["message"]
    library = web.box_library
    assert library is not None and listed(library) == []

    reply = _client(web).post(f"{_api(web)}/draft", json=draft).get_json()
    assert reply["ok"] and reply["draft"] and reply["file"] == "our-france.herald-box"
    assert len(reply["faults"]) == 2
    assert all("not-yet" in f["text"] for f in reply["faults"])
    assert "breaks 2 rules" in reply["message"]
    pl = _client(web).post(f"{_api(web)}/draft?lang=pl", json=draft).get_json()
    assert "łamie 2 zasady" in pl["message"]
    assert listed(library) == [] and [p.name for p in drafts(library, "france1429")] == [
        "our-france.herald-box"
    ]
    games = _client(web).get(f"{_api(web)}/games").get_json()["games"]
    assert next(g for g in games if g["key"] == "france1429")["drafts"] == [reply["file"]]
    again = _client(web).get(f"{_api(web)}/start/france1429?draft={reply['file']}").get_json()
    assert again["files"] == draft["files"] and again["name"] == "Our France"


def test_a_draft_never_starts_a_game_and_its_file_is_refused_on_import(web: WebTable) -> None:
    library = web.box_library
    assert library is not None
    saved = _client(web).post(f"{_api(web)}/draft", json=_broken()).get_json()
    offered = next(g for g in choices(library)["games"] if g["key"] == "france1429")
    entry = next(b for b in offered["data_boxes"] if b.get("draft"))
    assert entry == {"value": f"draft:{saved['file']}", "name": "Our France", "colours": [],
                     "draft": True}  # fmt: skip
    seats = [{"seat": s, "name": ""} for s in ("blue", "green", "pink")]
    with pytest.raises(SetupError):
        read_setup({"game": "france1429", "seats": seats, "options": {"data": entry["value"]}},
                   library)  # fmt: skip
    raw = read_box_file(drafts(library, "france1429")[0]).to_bytes()
    reply = _client(web).post(f"{_api(web)}/import", data=io.BytesIO(raw),
                              content_type="application/octet-stream")  # fmt: skip
    assert reply.status_code == 400 and "not-yet" in reply.get_json()["message"]
    assert listed(library) == []


def test_saving_again_replaces_the_draft_and_saving_whole_drops_it(web: WebTable) -> None:
    library = web.box_library
    assert library is not None
    draft = _broken()
    _client(web).post(f"{_api(web)}/draft", json=draft)
    fixed = copy.deepcopy(draft)
    fixed["files"]["map.json"]["roads"] = fixed["files"]["map.json"]["roads"][:-2]
    reply = _client(web).post(f"{_api(web)}/draft", json=fixed).get_json()
    assert reply["faults"] == [] and "breaks no rule" in reply["message"]
    assert len(drafts(library, "france1429")) == 1
    kept = read_box_file(drafts(library, "france1429")[0])
    assert b"not-yet" not in kept.members["data/map.json"]
    saved = _client(web).post(f"{_api(web)}/save", json=fixed).get_json()
    assert saved["ok"] and drafts(library, "france1429") == []
    assert [p.name for p in listed(library, "france1429")] == [saved["file"]]
