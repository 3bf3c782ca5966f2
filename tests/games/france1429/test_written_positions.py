"""Positions a person can write (issue 27): a France state file need not list what follows from
the rest, and France's ``battle`` and ``election`` files can state every input the rules read."""

from __future__ import annotations

import json

from frcore_builders import lord, table, troops

from engine import codec, rules
from engine.games.france1429 import GAME, control


def _written(doc: dict) -> object:
    return rules.decode_state(GAME, json.loads(json.dumps(doc)))


def test_a_state_without_places_or_present_derives_who_controls_each_village() -> None:
    """Nobody has to keep ``places[].present`` in step with the troops by hand: left out, it is
    derived from the troops and free Lords (seat order), and empty Villages are added."""
    state = troops(lord(table(), "thierry", "david", "vaux"), "david", "vaux", maa=2)
    state = troops(lord(state, "quentin", "grady", "sigy"), "grady", "sigy", knights=1)
    doc = codec.encode(state)
    doc["places"] = [p for p in doc["places"] if p["id"] == "sigy"]
    for p in doc["places"]:
        p.pop("present", None)
    doc.pop("families")
    written = _written(doc)
    assert written == state
    assert control.controller(written, "vaux") == "david"
    assert control.controller(written, "sigy") == "grady"


def test_a_state_naming_an_arrival_order_keeps_it() -> None:
    """Who arrived first is the writer's to say when it matters (§8.4): a listed order stays."""
    state = troops(lord(table(), "thierry", "david", "vaux"), "david", "vaux", maa=2)
    state = troops(lord(state, "quentin", "grady", "vaux"), "grady", "vaux", maa=1)
    doc = codec.encode(state)
    vaux = next(p for p in doc["places"] if p["id"] == "vaux")
    assert vaux["present"] == ["david", "grady"]
    vaux["present"] = ["grady", "david"]
    assert control.controller(_written(doc), "vaux") == "grady"
    vaux.pop("present")
    doc["places"] = [p for p in doc["places"] if p["id"] != "vaux"]
    for p in doc["places"]:
        p.pop("present", None)
    assert control.controller(_written(doc), "vaux") == "grady"  # seat order: grady first


def test_a_state_may_name_its_data_set_instead_of_repeating_the_map() -> None:
    """Issue 27: a written state holds ``"rules": {"set": "stand-in", "digest": ...}`` instead of
    the map and box; a digest of other data is refused. The generic part (engine.data's
    ``expand_state``) is another engineer's; until it is merged this test is skipped."""
    import pytest

    from engine import data as gamedata
    from engine.violations import InputError

    expand = getattr(gamedata, "expand_state", None)
    if expand is None:
        pytest.skip("engine.data.expand_state (the generic data reference) is not merged yet")
    loaded = gamedata.load(GAME, {"data": "stand-in"})
    state = troops(lord(table(), "thierry", "david", "vaux"), "david", "vaux", maa=2)
    doc = codec.encode(state)
    doc["rules"] = {"set": "stand-in", "digest": loaded.digest}
    assert _written(doc) == state
    doc["rules"] = {"set": "stand-in", "digest": "sha256:" + "0" * 64}
    with pytest.raises(InputError):
        _written(doc)
