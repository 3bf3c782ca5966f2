"""Glory's ``data check`` and its refusals of a faulty file (issue #24, "found when a second box
was typed in"): every fault is listed with its JSON path, not only the first, and the shipped
sets are reported as the rulebook leaves them (§11: the box set lacks the printed values)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from bridge.cli import main
from engine import registry

SHIPPED = registry.package_files("glory").joinpath("data")


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["rules", "glory", *args])
    return result.exit_code, result.stdout, result.stderr


def test_the_stand_in_set_carries_every_game_and_the_box_set_names_what_it_lacks() -> None:
    code, out, _ = _run("data", "check", "--data", "stand-in")
    assert code == 0 and "every Glory game" in out and "invented" in out
    code, out, _ = _run("data", "check", "--data", "box", "--json")
    report = json.loads(out)
    assert code == 3 and report["ok"] is False
    whats = {r["params"]["what"] for r in report["refusals"]}
    assert "titles[silny].glory" in whats  # §7.1: only Wpływowy's value survives in the seed
    assert "titles[wplywowy].glory" not in whats


def test_a_faulty_file_lists_every_fault_with_its_path(tmp_path: Path) -> None:
    doc = json.loads(SHIPPED.joinpath("stand-in.json").read_text(encoding="utf-8"))
    doc["knights"][0]["attack"] = -3
    doc["quests"][4]["deck"] = "dragons"
    doc["titles"][2]["glory"] = "many"
    path = tmp_path / "ours.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, _, err = _run("data", "check", "--data", str(path))
    assert code == 2
    assert "$.quests[4].deck" in err and "dragons" in err
    assert "$.titles[2].glory" in err
    doc["quests"][4]["deck"] = "romance"
    doc["titles"][2]["glory"] = 3
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, _, err = _run("data", "check", "--data", str(path))
    assert code == 2 and "Attack is not negative" in err and "knights" in err
