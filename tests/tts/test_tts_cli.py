"""``herald tts snapshot`` and ``herald tts load`` through click, against the stand-in."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from tts_standin import TTSStandIn, free_port, spec_from_object

from bridge.cli.tts import tts
from bridge.tts.savefile import load_save

SAVE = Path(__file__).parent / "fixtures" / "middle_ages_save.json"


def test_load_prints_the_objects_shape() -> None:
    result = CliRunner().invoke(tts, ["load", str(SAVE), "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert set(doc) == {"objects"}
    lord = next(o for o in doc["objects"] if o["guid"] == "10b000")
    assert lord["name"] == "PlayerPawn" and lord["nickname"] == "Blue Lord"
    assert lord["position"] == {"x": -3.75, "y": 1.3, "z": 8.75}
    deck = next(o for o in doc["objects"] if o["guid"] == "dec000")
    assert [c["nickname"] for c in deck["contained"]] == ["Event E1", "Event E2", "Event E3"]


def test_load_with_a_profile_prints_the_table_snapshot() -> None:
    result = CliRunner().invoke(tts, ["load", str(SAVE), "--profile", "middle-ages", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["source"] == "tts-save"
    assert {"component": "lord:blue", "region": "row:1/slot:2"}.items() <= next(
        o for o in doc["observations"] if o["source_id"] == "10b000"
    ).items()


def test_load_errors_are_one_clear_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[]", encoding="utf-8")
    result = CliRunner().invoke(tts, ["load", str(bad), "--json"])
    assert result.exit_code == 1
    assert "is not in the save format at $: a save is a JSON object" in result.output
    result = CliRunner().invoke(tts, ["load", str(SAVE), "--profile", "chess"])
    assert result.exit_code == 1 and "no Tabletop Simulator profile" in result.output


def test_snapshot_reads_the_live_table() -> None:
    standin = TTSStandIn()
    try:
        standin.objects = [spec_from_object(o) for o in load_save(SAVE).objects]
        port = free_port()
        standin.editor_port = port
        args = ["snapshot", "--tts-port", str(standin.port), "--listen-port", str(port), "--json"]
        result = CliRunner().invoke(tts, args)
        assert result.exit_code == 0, result.output
        doc = json.loads(result.output)
        saved = json.loads(CliRunner().invoke(tts, ["load", str(SAVE), "--json"]).output)
        assert [o["guid"] for o in doc["objects"]] == [o["guid"] for o in saved["objects"]]
        result = CliRunner().invoke(tts, [*args, "--profile", "middle-ages"])
        assert result.exit_code == 0, result.output
        observed = {o["source_id"]: o for o in json.loads(result.output)["observations"]}
        assert observed["10b000"]["component"] == "lord:blue"
        assert observed["10b000"]["region"] == "row:1/slot:2"
    finally:
        standin.close()


def test_snapshot_when_tts_is_not_running() -> None:
    args = ["snapshot", "--tts-port", str(free_port()), "--listen-port", "0", "--json"]
    result = CliRunner().invoke(tts, args)
    assert result.exit_code == 1
    assert "Tabletop Simulator is not answering" in result.output
    assert "connection refused" in result.output


def test_human_readable_tables() -> None:
    result = CliRunner().invoke(tts, ["load", str(SAVE)])
    assert result.exit_code == 0 and "Blue Lord" in result.output
    result = CliRunner().invoke(tts, ["load", str(SAVE), "--profile", "middle-ages"])
    assert result.exit_code == 0 and "lord:blue" in result.output
