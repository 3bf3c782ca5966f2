"""New game on a box kept at the table (issue #24 point 4): the host's form offers each kept box
by its name, a game starts on it with the box's data digest in its log header, and a data value
that names no kept box is refused, changing nothing."""

from __future__ import annotations

from pathlib import Path

from bridge.box.library import import_box
from bridge.referee import Principal, Referee
from bridge.store import EventStore
from bridge.table_setup import choices
from engine import data as engine_data
from engine import registry

from .box_support import exported

SEATS = ("blue", "green", "pink")


def test_the_host_starts_a_game_on_a_kept_box(tmp_path: Path) -> None:
    library = tmp_path / "d.db.boxes"
    box = exported("viscounts", "stand-in")
    kept = import_box(box, registry.get_game("viscounts"), library)
    offered = next(g for g in choices(library)["games"] if g["key"] == "viscounts")
    assert offered["data_boxes"] == [{"value": f"box:{kept.path.name}", "name": box.name,
                                      "colours": ["red", "blue", "green", "yellow"]}]  # fmt: skip
    assert choices()["games"][0]["data_boxes"] == []  # a table that keeps no boxes offers none

    referee = Referee.open(EventStore(tmp_path / "d.db"), registry.get_game("middle-ages"),
                           "t1", SEATS, {})  # fmt: skip
    referee.box_library = library
    host = Principal("host")
    setup = {"game": "viscounts", "seats": [{"seat": s, "name": ""} for s in SEATS],
             "options": {"data": f"box:{kept.path.name}"}}  # fmt: skip
    before = referee.row.id
    for bad in ("box:../d.db", "box:other.herald-box", "/etc/passwd"):
        wrong = {**setup, "options": {"data": bad}}
        refused = referee.intent(host, {"state_id": referee.state_id, "kind": "start",
                                        "setup": wrong})  # fmt: skip
        assert refused.kind == "error" and referee.row.id == before
    outcome = referee.intent(host, {"state_id": referee.state_id, "kind": "start", "setup": setup})
    assert outcome.ok, outcome
    header = referee.row.header
    assert header.game == "viscounts" and header.options["data"] == str(kept.path.resolve())
    shipped = engine_data.load(registry.get_game("viscounts"), {"data": "stand-in"})
    assert shipped is not None and header.data is not None
    assert header.data["digest"] == shipped.digest  # the box holds the stand-in set, unchanged
