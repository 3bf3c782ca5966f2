"""``herald bench vision --json``: the benchmark's contract keys, with tiny counts."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from bridge.cli import main
from vision.bench import CONTRACT

pytestmark = pytest.mark.slow  # a long group: started first (tests/conftest.py)


def test_bench_vision_json_prints_the_contract_keys_with_sane_values() -> None:
    """No --game: the default game's board (issue 25 point 8: the default run works)."""
    result = CliRunner().invoke(main, ["bench", "vision", "--json", "--scenes", "1",
                                       "--frames", "6", "--family-scenes", "1",
                                       "--moves", "0"])  # fmt: skip
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert list(figures)[: len(CONTRACT)] == list(CONTRACT)
    assert figures["frames"] == 6 and figures["scenes"] == 1
    assert figures["resolution"] == "1920x1080"
    assert figures["pipeline_ms_median"] > 0 and figures["raw_detect_ms_median"] > 0
    for key in ("marker_recall", "marker_id_precision", "tile_top1", "card_top1"):
        assert 0.0 <= figures[key] <= 1.0, key
    assert figures["markers_scored"] > 0 and figures["tiles_scored"] > 0
    # Issue 17: per-family figures of Herald and both OpenCV baselines, real photographs.
    families = figures["marker_families"]
    assert set(families["held_out_families"]) <= set(families["families"])
    for name, row in families["families"].items():
        for det in ("herald", "opencv_default", "opencv_adapted"):
            assert 0.0 <= row[det]["recall"] <= 1.0, (name, det)
    assert families["families"]["clutter_only"]["herald"]["markers"] == 0
    photos = figures["real_photos"]["total"]
    assert photos["herald"]["markers"] == photos["opencv_adapted"]["markers"] > 0
    assert figures["card_match_ms_median"] > 0 and figures["full_detect_ms_median"] > 0
    # issue 29: CPU figures per stage, and a card found in a real photograph
    assert figures["full_detect_cpu_ms_median"] > 0 and figures["card_match_cpu_ms_median"] > 0
    assert set(figures["marker_stages_cpu_ms_median"]) == {
        "first_pass", "rescan_mosaic", "cross_check", "adapted_pass"}  # fmt: skip
    assert figures["real_cards"]["photos"]["box_in_scene.png"]["herald"]["found"] == 1
    # --moves 0: the latency is not measured (its own test: tests/bridge/test_settle_latency.py)
    assert "settle_to_phone" not in figures


def test_bench_vision_refuses_zero_counts() -> None:
    result = CliRunner().invoke(main, ["bench", "vision", "--scenes", "0"])
    assert result.exit_code == 2
