"""A game's box data are loaded at the edge, kept in the state, and named in the log header.

The rules read no file (issue 11 §1): ``engine.data.load`` reads a shipped set through the
registry or a user's file through the reader its caller hands in, and ``setup`` keeps the typed
value in the state. The session's header records the data's digest, so a replay with other data
(a data file edited since) is refused, naming both digests.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bridge.gamedata import read_text
from engine import codec, log, registry, rules, selfplay
from engine import data as gamedata
from engine.games.glory.data_file import dump_data
from engine.games.glory.data_types import Box
from engine.games.middle_ages.components import TileBox
from engine.violations import InputError

GLORY = registry.get_game("glory")
MIDDLE_AGES = registry.get_game("middle-ages")


def _stand_in_file(tmp_path: Path, name: str = "mine.json") -> Path:
    stand_in = gamedata.load(GLORY, {"data": "stand-in"})
    assert stand_in is not None and isinstance(stand_in.value, Box)
    path = tmp_path / name
    path.write_text(json.dumps(dump_data(stand_in.value.data)), encoding="utf-8")
    return path


def test_the_header_records_the_datas_source_and_digest() -> None:
    options = {"data": "stand-in", "tournament": "joust"}
    data = gamedata.load(GLORY, options)
    assert data is not None and data.source == "stand-in"
    session = log.start(GLORY, ("a", "b"), options, data)
    assert session.header.data == {"source": "stand-in", "digest": data.digest}
    line = json.loads(json.dumps(session.header.to_json()))
    assert log.decode_header(line) == session.header
    assert session.state.box == data.value  # the state keeps the data: no file at rule time
    ma = log.start(MIDDLE_AGES, ("a", "b"), {})
    assert ma.header.data is not None and ma.header.data["source"] == "assumed"
    assert isinstance(ma.state.box, TileBox)


def test_a_replay_with_the_same_data_rebuilds_the_state(tmp_path: Path) -> None:
    path = _stand_in_file(tmp_path)
    options = {"data": str(path), "tournament": "joust"}
    data = gamedata.load(GLORY, options, read=read_text)
    result = selfplay.play(GLORY, ("a", "b"), random.Random(2), options, data=data)
    assert result.errors == []
    header = log.decode_header(json.loads(json.dumps(result.session.header.to_json())))
    again = log.replay(GLORY, header, result.events, gamedata.load(GLORY, options, read=read_text))
    assert again.state == result.session.state


def test_a_replay_with_other_data_is_refused_naming_both_digests(tmp_path: Path) -> None:
    path = _stand_in_file(tmp_path)
    options = {"data": str(path), "tournament": "joust"}
    data = gamedata.load(GLORY, options, read=read_text)
    assert data is not None
    session = log.start(GLORY, ("a", "b"), options, data)
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["titles"][0]["glory"] = (doc["titles"][0]["glory"] or 0) + 1  # the file edited since
    path.write_text(json.dumps(doc), encoding="utf-8")
    changed = gamedata.load(GLORY, options, read=read_text)
    assert changed is not None and changed.digest != data.digest
    with pytest.raises(InputError) as info:
        log.replay(GLORY, session.header, [], changed)
    assert info.value.code == "input/data-digest"
    assert data.digest in info.value.detail and changed.digest in info.value.detail
    with pytest.raises(InputError):  # a restarted table the same way
        log.restart(GLORY, session.header, changed)


def test_data_given_inline_are_named_inline() -> None:
    """Middle Ages takes its tile box as an object in the options (docs/middle-ages.md)."""
    tiles = json.loads(
        registry.package_files("middle-ages").joinpath("data", "tiles.json").read_text("utf-8")
    )
    tiles["verified"] = True
    data = gamedata.load(MIDDLE_AGES, {"box": tiles})
    assert data is not None and data.source == "inline"
    state = gamedata.setup(MIDDLE_AGES, ("a", "b", "c"), {"box": tiles}, data)
    assert state.box.verified
    shipped = gamedata.load(MIDDLE_AGES, {})
    assert shipped is not None and shipped.digest != data.digest


def test_setup_refuses_data_other_than_the_options_name() -> None:
    stand_in = gamedata.load(GLORY, {"data": "stand-in"})
    with pytest.raises(InputError) as info:
        GLORY.setup(("a", "b"), {"data": "box", "tournament": "joust"}, stand_in)
    assert info.value.code == "setup/data"
    with pytest.raises(InputError):
        GLORY.setup(("a", "b"), {"data": "stand-in", "tournament": "joust"})  # none handed in
    with pytest.raises(InputError) as bad:
        gamedata.load(GLORY, {"data": 7})
    assert bad.value.path == "$.options.data"


def test_a_state_file_carries_its_data() -> None:
    """A state decoded from JSON is played on with the data it was set up with: the rules
    never look the data up elsewhere (``herald rules apply STATE MOVE`` needs no data file)."""
    result = selfplay.play(
        GLORY, ("a", "b"), random.Random(5), {"data": "stand-in", "tournament": "pas-d-armes"}
    )
    state = rules.decode_state(GLORY, json.loads(json.dumps(codec.encode(result.session.state))))
    assert state == result.session.state
    assert state.box.data.name == "stand-in" and state.box.quests  # the indexes are rebuilt
