"""A group's box that ``extends`` a shipped set is labelled by what it is (issue #24, "found when
a second box was typed in by hand": it stayed "invented" even with ``"verified": true``), and a
``map`` named by an absolute path is read where it says (it was joined to the box's folder).

Through the real command line: ``herald rules GAME data check --data FILE`` and ``herald box
export``, reading files written here.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from bridge import gamedata
from bridge.box.library import read_box_file
from bridge.cli import main
from engine import registry
from engine.games.france1429.cli import check_data
from engine.verbs import EXIT_OK

FRANCE = Path(str(resources.files("engine.games.france1429").joinpath("data")))
VISCOUNTS = Path(str(resources.files("engine.games.viscounts").joinpath("data")))
NOTES = {"$schema", "format", "name", "invented", "verified", "source", "missing", "notes"}


def _leaves(doc: Any) -> int:
    """The non-null scalars of a JSON value (a printed value each)."""
    if isinstance(doc, dict):
        return sum(_leaves(v) for v in doc.values())
    if isinstance(doc, list):
        return sum(_leaves(v) for v in doc)
    return 0 if doc is None else 1


def _check(game: str, data: Path, *more: str) -> Any:
    args = ["rules", game, "data", "check", "--data", str(data), *more]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == EXIT_OK, result.output
    return result


def _report(game: str, data: Path) -> dict[str, Any]:
    return dict(json.loads(_check(game, data, "--json").output))


def _write(folder: Path, name: str, doc: Any) -> Path:
    path = folder / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_a_verified_france_box_counts_what_it_still_takes_from_the_stand_in(
    tmp_path: Path,
) -> None:
    stand_in = json.loads((FRANCE / "stand-in-invented.json").read_text(encoding="utf-8"))
    map_doc = json.loads((FRANCE / stand_in["map"]).read_text(encoding="utf-8"))
    colours = [{"name": c} for c in ("black", "orange", "purple", "white", "red", "yellow")]
    own = {"extends": "stand-in", "name": "Ours", "verified": True, "colours": colours}
    path = _write(tmp_path, "ours.json", own)
    taken = [k for k in stand_in if k not in own and k not in NOTES and k != "map"]
    expected = sum(_leaves(stand_in[k]) for k in taken) + sum(
        _leaves(v) for k, v in map_doc.items() if k not in NOTES
    )
    report = _report("france1429", path)
    assert report["invented"] is True
    assert report["extends"] == "stand-in" and report["verified"] is True
    assert report["invented_values"] == expected
    text = _check("france1429", path).output
    assert f"“Ours” is your box, but {expected} values are still from the shipped “stand-in”" in (
        text
    )
    assert "is an invented stand-in" not in text
    game = registry.get_game("france1429")
    pl = check_data({"data": gamedata.load(game, {"data": str(path)})}, "pl").text
    args = ["rules", "--lang", "pl", "france1429", "data", "check", "--data", str(path)]
    assert pl in CliRunner().invoke(main, args).output  # the command line speaks --lang too
    assert f"„Ours” to wasze pudełko, ale {expected} wartości wciąż" in pl


def test_a_france_box_that_sets_every_value_itself_is_not_invented(tmp_path: Path) -> None:
    stand_in = json.loads((FRANCE / "stand-in-invented.json").read_text(encoding="utf-8"))
    map_doc = json.loads((FRANCE / stand_in["map"]).read_text(encoding="utf-8"))
    _write(tmp_path, "our-map.json", {**map_doc, "invented": False, "name": "our map"})
    own = {k: v for k, v in stand_in.items() if k not in ("invented", "source", "$schema")}
    own = {**own, "extends": "stand-in", "name": "Ours", "verified": True, "map": "our-map.json"}
    path = _write(tmp_path, "ours.json", own)
    report = _report("france1429", path)
    assert report["invented"] is False and report["invented_values"] == 0
    assert "invented" not in _check("france1429", path).output


def test_a_box_whose_own_map_is_invented_is_labelled_invented(tmp_path: Path) -> None:
    stand_in = json.loads((FRANCE / "stand-in-invented.json").read_text(encoding="utf-8"))
    own = {k: v for k, v in stand_in.items() if k not in ("$schema", "source")}
    map_doc = json.loads((FRANCE / stand_in["map"]).read_text(encoding="utf-8"))
    _write(tmp_path, "our-map.json", map_doc)  # the stand-in's map: invented
    path = _write(tmp_path, "ours.json", {**own, "extends": "stand-in", "name": "Ours",
                                          "invented": False, "map": "our-map.json"})  # fmt: skip
    report = _report("france1429", path)
    assert report["invented"] is True and report["invented_values"] == 0
    assert "“Ours” is an invented stand-in" in _check("france1429", path).output


def test_the_shipped_stand_in_is_still_labelled_invented() -> None:
    report = json.loads(
        CliRunner().invoke(main, ["rules", "viscounts", "data", "check", "--json"]).output
    )
    assert report["invented"] is True and report["extends"] is None
    assert report["invented_values"] == 0


def test_a_viscounts_box_counts_the_stand_in_values_it_keeps(tmp_path: Path) -> None:
    stand_in = json.loads((VISCOUNTS / "stand-in-invented.json").read_text(encoding="utf-8"))
    own = {"extends": "stand-in", "name": "Our Viscounts", "verified": True,
           "townsfolk": stand_in["townsfolk"], "manuscripts": stand_in["manuscripts"]}  # fmt: skip
    path = _write(tmp_path, "ours.json", own)
    taken = [k for k in stand_in if k not in own and k not in NOTES]
    expected = sum(_leaves(stand_in[k]) for k in taken)
    report = _report("viscounts", path)
    assert report["invented_values"] == expected > 0
    assert (
        f"{expected} values are still from the shipped “stand-in”"
        in _check("viscounts", path).output
    )
    whole = {k: v for k, v in stand_in.items() if k not in ("invented", "$schema", "source")}
    path = _write(tmp_path, "whole.json", {**whole, "extends": "stand-in", "verified": True,
                                           "name": "Our Viscounts"})  # fmt: skip
    report = _report("viscounts", path)
    assert report["invented"] is False and report["invented_values"] == 0


def test_an_absolute_map_path_is_read_where_it_says(tmp_path: Path) -> None:
    stand_in = json.loads((FRANCE / "stand-in-invented.json").read_text(encoding="utf-8"))
    maps = tmp_path / "maps"
    data = tmp_path / "data"
    maps.mkdir()
    data.mkdir()
    map_doc = json.loads((FRANCE / stand_in["map"]).read_text(encoding="utf-8"))
    map_path = _write(maps, "our-map.json", {**map_doc, "name": "our map"})
    doc = {"extends": "stand-in", "name": "Ours", "map": str(map_path.resolve())}
    path = _write(data, "ours.json", doc)
    report = _report("france1429", path)
    assert report["ok"] is True
    # exported, the box holds the map as a member and the document names it so
    out = tmp_path / "ours.herald-box"
    result = CliRunner().invoke(
        main, ["box", "export", "france1429", "--data", str(path), "-o", str(out)]
    )
    assert result.exit_code == EXIT_OK, result.output
    box = read_box_file(out)
    assert "data/our-map.json" in box.members
    assert not any(name.startswith("data//") or str(maps) in name for name in box.members)
    assert json.loads(box.members["data/ours.json"])["map"] == "our-map.json"
    result = CliRunner().invoke(main, ["box", "check", str(out)])
    assert result.exit_code == EXIT_OK, result.output
