"""Positions a person can write (issue 27), the generic part: a state names its data set by
name and digest (``engine.data.expand_state`` / ``compact_state``), ``engine.selfplay.advance_to``
sets a position up at a named step, and a malformed move is judged against its kind's type.

Viscounts is the registered game whose ``DataSpec`` declares where its state keeps the data
(``in_state="doc"``); a game that declares nothing (Glory) is left as it is.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bridge.gamedata import read_text
from engine import codec, registry, rules, selfplay
from engine import data as gamedata
from engine.violations import InputError

VISCOUNTS = registry.get_game("viscounts")
GLORY = registry.get_game("glory")


def _dealt() -> tuple[gamedata.GameData, object]:
    data = gamedata.load(VISCOUNTS, {"data": "stand-in"})
    assert data is not None
    return data, gamedata.setup(VISCOUNTS, ("a", "b"), {}, data)


def test_a_state_written_by_reference_decodes_to_the_state_that_holds_its_data() -> None:
    data, state = _dealt()
    held = codec.encode(state)
    named = gamedata.compact_state(VISCOUNTS, held, data)
    assert named["doc"] == {"set": "stand-in", "digest": data.digest}
    assert len(json.dumps(named)) * 10 < len(json.dumps(held))
    assert gamedata.expand_state(VISCOUNTS, named) == held
    assert rules.decode_state(VISCOUNTS, named) == state
    without_digest = {**named, "doc": {"set": "stand-in"}}
    assert rules.decode_state(VISCOUNTS, without_digest) == state


def test_a_reference_whose_digest_differs_is_refused_naming_both() -> None:
    data, state = _dealt()
    named = gamedata.compact_state(VISCOUNTS, codec.encode(state), data)
    named["doc"]["digest"] = "sha256:" + "1" * 64
    with pytest.raises(InputError) as refused:
        rules.decode_state(VISCOUNTS, named)
    assert refused.value.code == "input/data-digest" and refused.value.path == "$.doc.digest"
    assert "1" * 64 in refused.value.detail and data.digest in refused.value.detail


def test_a_reference_to_a_users_file_needs_the_callers_reader(tmp_path: Path) -> None:
    data, state = _dealt()
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"extends": "stand-in"}), encoding="utf-8")
    mine = gamedata.load(VISCOUNTS, {"data": str(path)}, read=read_text)
    assert mine is not None and mine.digest == data.digest  # the same content, another name
    named = gamedata.compact_state(VISCOUNTS, codec.encode(state), mine)
    assert named["doc"]["set"] == str(path)
    assert rules.decode_state(VISCOUNTS, named, read=read_text) == state
    with pytest.raises(InputError) as refused:
        rules.decode_state(VISCOUNTS, named)  # the engine opens no file a user named
    assert refused.value.path == "$.doc.set"


def test_inline_data_and_a_game_without_in_state_stay_as_they_are() -> None:
    data, state = _dealt()
    inline = gamedata.GameData(gamedata.INLINE, data.digest, data.value)
    held = codec.encode(state)
    assert gamedata.compact_state(VISCOUNTS, held, inline) == held
    glory = gamedata.load(GLORY, {"data": "stand-in"})
    glory_state = codec.encode(gamedata.setup(GLORY, ("a", "b"), {"data": "stand-in"}, glory))
    assert gamedata.compact_state(GLORY, glory_state, glory) == glory_state
    assert gamedata.expand_state(GLORY, glory_state) == glory_state


def test_advance_to_reaches_a_named_step_or_names_the_steps() -> None:
    _, state = _dealt()
    at = selfplay.advance_to(VISCOUNTS, state, "play", random.Random(1))
    assert VISCOUNTS.position(at).active == "play"
    assert selfplay.advance_to(VISCOUNTS, state, "play", random.Random(1)) == at  # seeded
    with pytest.raises(InputError) as refused:
        selfplay.advance_to(VISCOUNTS, state, "lunch", random.Random(1))
    assert "lunch" in refused.value.detail and "choice/answer" in refused.value.detail


@pytest.mark.parametrize("key", registry.game_keys())
def test_a_move_missing_a_field_names_it_in_every_game(key: str) -> None:
    game = registry.get_game(key)
    kinds = rules.move_refs(game)
    assert kinds, f"{key}: every move type has a constant kind"
    for kind in kinds:
        try:
            rules.decode_move(game, {"kind": kind})
        except InputError as exc:
            assert "required property" in exc.detail, (key, kind, exc.detail)
            assert "not valid under any" not in exc.detail
    with pytest.raises(InputError) as refused:
        rules.decode_move(game, {})
    assert "has no 'kind'" in refused.value.detail and sorted(kinds)[0] in refused.value.detail
