"""``herald rules viscounts data check`` through the real command line, and the catalogs.

The game's key is registered for the duration as in ``visc_registered`` (no entry point yet,
issue 14). Every sentence the package uses is in the English and the Polish catalog, with real
plural forms.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from visc_registered import registered

from bridge.cli import main
from engine.i18n import message
from engine.verbs import EXIT_FAULTY, EXIT_INPUT, EXIT_OK

PACKAGE = Path(str(resources.files("engine.games.viscounts")))


@pytest.fixture(scope="module", autouse=True)
def game() -> Iterator[Any]:
    with registered() as g:
        yield g


def _herald(*args: str) -> Any:
    return CliRunner().invoke(main, ["rules", "viscounts", *args])


def test_the_stand_in_carries_a_game() -> None:
    result = _herald("data", "check")
    assert result.exit_code == EXIT_OK, result.output
    assert "carry a whole game of 1 to 4 players" in result.output
    assert "invented stand-in" in result.output
    report = json.loads(_herald("data", "check", "--json").output)
    assert report["ok"] and report["refusals"] == [] and report["source"] == "stand-in"


def test_the_box_check_lists_what_the_box_lacks() -> None:
    result = _herald("data", "check", "--data", "box")
    assert result.exit_code == EXIT_FAULTY
    assert "Common Townsfolk cards of the box's 68" in result.output
    assert "townsfolk[woodcutter].deck" in result.output and "seed L" in result.output
    report = json.loads(_herald("data", "check", "--data", "box", "--json").output)
    refused = {r["params"]["what"] for r in report["refusals"]}
    shown = {r["params"]["what"] for r in report["unknown_shown"]}
    assert {"board", "track.spaces", "kingdom.prosperity[1]"} <= refused
    assert {"multiplier", "colours[2]"} <= shown and not refused & shown


def test_a_users_file_with_a_bad_card_is_bad_input(tmp_path: Path) -> None:
    stand_in = json.loads((PACKAGE / "data" / "stand-in-invented.json").read_text("utf-8"))
    cards = stand_in["townsfolk"]
    cards[0] = {**cards[0], "hire": "1 ink ->"}
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps({"extends": "stand-in", "townsfolk": cards}), encoding="utf-8")
    result = _herald("data", "check", "--data", str(mine))
    assert result.exit_code == EXIT_INPUT
    assert cards[0]["name"] in result.output and "hire" in result.output


def _catalog(lang: str) -> dict[str, Any]:
    doc: dict[str, Any] = {}
    for file in sorted((PACKAGE / "i18n" / lang).glob("*.json")):
        doc.update(json.loads(file.read_text(encoding="utf-8")))
    return doc


def test_every_code_the_package_uses_is_in_both_catalogs() -> None:
    en, pl = _catalog("en"), _catalog("pl")
    assert set(en) == set(pl) and all(k.startswith("viscounts:") for k in en)
    source = "\n".join(p.read_text("utf-8") for p in PACKAGE.glob("*.py"))
    used = set(re.findall(r'"((?:effect|data)/[a-z-]+)"', source))
    used |= {f"data/incomplete-{k}" for k in re.findall(r'\("\w+", "(\w+)", (?:d\.|len)', source)}
    assert used, "the scan found no codes"
    for code in used:
        assert f"viscounts:{code}" in en, code
    for key, value in pl.items():
        if isinstance(value, dict):
            assert {"one", "few", "many", "other"} <= set(value), key


def test_polish_plurals_are_real() -> None:
    """Polish counts take one / few / many forms (CLDR)."""
    code = "viscounts:data/check-shown"
    assert "wartość" in message(code, "pl", count=1)
    assert "są 3 wartości" in message(code, "pl", count=3)
    assert "Nieznanych jest 5" in message(code, "pl", count=5)
    assert message(code, "en", count=1).startswith("1 value ")
    common = "viscounts:data/incomplete-common"
    assert "2 karty" in message(common, "pl", count=2, total=68, where="-")
    assert "5 kart " in message(common, "pl", count=5, total=68, where="-")
