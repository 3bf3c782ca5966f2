"""``herald rules france1429 map check MAP.json`` and ``map render MAP.json -o map.svg``.

The verbs are pure functions (``engine.games.france1429.cli``); these tests call them through
the real command line (click, reading real files), the game's key registered as in
``fr_registered``. Issue 12: the map check refuses a map that breaks each sanity rule, naming
it (every rule one by one: test_map_checks.py); the shipped maps pass; the drawing is valid
SVG with every Village.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fr_registered import registered, shipped_map

from bridge.cli import main
from engine import data as gamedata
from engine.games.france1429 import cli
from engine.games.france1429.schemas import BOX_SCHEMA, MAP_SCHEMA
from engine.verbs import EXIT_FAULTY, EXIT_INPUT, EXIT_OK, BadInput

DATA = Path(str(resources.files("engine.games.france1429").joinpath("data")))
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module", autouse=True)
def game() -> Any:
    with registered() as g:
        yield g


def _herald(*args: str) -> Any:
    return CliRunner().invoke(main, ["rules", "france1429", *args])


def _broken(tmp_path: Path) -> Path:
    """The stand-in map with two faults: Beaujeu moved out of Bishopric 5, a road to nowhere."""
    doc = json.loads((DATA / "map-stand-in-invented.json").read_text(encoding="utf-8"))
    doc["invented"] = False
    next(v for v in doc["villages"] if v["id"] == "beaujeu")["bishopric"] = 4
    doc["roads"].append(["vaux", "cluny"])
    path = tmp_path / "my-map.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


def test_the_shipped_maps_pass_the_check() -> None:
    """Both shipped maps break no rule of the board; the box map lists what it leaves unknown."""
    result = _herald("map", "check", str(DATA / "map-stand-in-invented.json"))
    assert result.exit_code == EXIT_OK, result.output
    assert "passes every check" in result.output
    assert "invented stand-in" in result.output
    result = _herald("map", "check", str(DATA / "map-box.json"), "--json")
    assert result.exit_code == EXIT_OK, result.output
    report = json.loads(result.output)
    assert report["ok"] and not report["complete"] and report["problems"] == []
    whats = {u["params"]["what"] for u in report["unknown"]}
    assert {"villages", "roads", "villages[st-medard].fief"} <= whats


def test_without_a_file_the_check_reads_the_named_data_sets_map() -> None:
    result = _herald("map", "check", "--json")
    assert result.exit_code == EXIT_OK
    assert json.loads(result.output)["complete"] is True  # the stand-in, the default set
    result = _herald("map", "check", "--data", "box", "--json")
    assert json.loads(result.output)["map"] == "box"


def test_a_broken_map_is_refused_naming_each_broken_rule(tmp_path: Path) -> None:
    result = _herald("map", "check", str(_broken(tmp_path)))
    assert result.exit_code == EXIT_FAULTY
    out = result.output
    assert "has 2 problems" in out
    assert "map/bishopric-5-missing" in out and "Beaujeu belongs to Bishopric 5" in out
    assert "map/road-unknown-village" in out and "'cluny'" in out
    assert "rules/france1429.md §3.2" in out
    report = json.loads(_herald("map", "check", str(_broken(tmp_path)), "--json").output)
    assert sorted(p["code"] for p in report["problems"]) == [
        "map/bishopric-5-missing",
        "map/road-unknown-village",
    ]
    assert report["ok"] is False


def test_a_file_that_is_not_a_map_is_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "not-a-map.json"
    path.write_text(json.dumps({"format": "france1429-map/1", "name": "x"}), encoding="utf-8")
    result = _herald("map", "check", str(path))
    assert result.exit_code == EXIT_INPUT
    assert "not-a-map.json" in result.output and "villages" in result.output
    with pytest.raises(BadInput) as err:
        cli.check({"map": [1], "data": None}, "en")
    assert err.value.arg == "map"


def test_render_draws_valid_svg_with_every_village(tmp_path: Path) -> None:
    for path in (DATA / "map-stand-in-invented.json", DATA / "map-box.json", _broken(tmp_path)):
        result = _herald("map", "render", str(path))
        assert result.exit_code == EXIT_OK, result.output
        root = ET.fromstring(result.output.strip().encode("utf-8"))
        assert root.tag == f"{SVG}svg"
        texts = {"".join(t.itertext()) for t in root.iter(f"{SVG}text")}
        m = shipped_map("box") if path.name == "map-box.json" else None
        names = (
            [v.name for v in m.villages]
            if m
            else [v["name"] for v in json.loads(path.read_text(encoding="utf-8"))["villages"]]
        )
        for name in names:
            assert name in texts or name.upper() in texts, name


def test_render_writes_the_svg_to_a_file(tmp_path: Path) -> None:
    """Issue 12: ``map render MAP.json -o map.svg`` draws the map into a file to compare with
    the board on the table."""
    out = tmp_path / "map.svg"
    result = _herald("map", "render", str(DATA / "map-stand-in-invented.json"), "-o", str(out))
    assert result.exit_code == EXIT_OK, result.output
    assert result.output.strip() == ""
    root = ET.fromstring(out.read_bytes())
    assert root.tag == f"{SVG}svg"


def test_render_in_polish_and_as_json() -> None:
    data = cli.render({"map": None, "data": _stand_in_data()}, "pl")
    assert data.code == EXIT_OK
    assert "WYMYŚLONA MAPA ZASTĘPCZA" in data.text
    assert data.data["villages"] == 24 and data.data["svg"] == data.text
    result = _herald("map", "render", "--json")
    assert json.loads(result.output)["svg"].startswith("<?xml")


def _stand_in_data() -> Any:
    with registered() as g:
        return gamedata.load(g, {"data": "stand-in"})


def test_the_verbs_print_the_schemas_of_their_files() -> None:
    assert json.loads(_herald("map", "check", "--schema").output) == MAP_SCHEMA
    assert json.loads(_herald("map", "render", "--schema").output) == MAP_SCHEMA
    assert json.loads(_herald("data", "check", "--schema").output) == BOX_SCHEMA
    listed = _herald("--help").output
    assert "map" in listed and "data" in listed
    assert all(n in _herald("map", "--help").output for n in ("check", "render"))
