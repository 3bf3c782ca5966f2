"""``herald bench vision --json``: the benchmark's contract keys, with tiny counts."""

from __future__ import annotations

import json

from click.testing import CliRunner

from bridge.cli import main
from vision.bench import CONTRACT


def test_bench_vision_json_prints_the_contract_keys_with_sane_values() -> None:
    result = CliRunner().invoke(main, ["bench", "vision", "--json", "--scenes", "1",
                                       "--frames", "12"])  # fmt: skip
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert list(figures)[: len(CONTRACT)] == list(CONTRACT)
    assert figures["frames"] == 12 and figures["scenes"] == 1
    assert figures["resolution"] == "1920x1080"
    assert figures["pipeline_ms_median"] > 0 and figures["raw_detect_ms_median"] > 0
    for key in ("marker_recall", "marker_id_precision", "tile_top1", "card_top1"):
        assert 0.0 <= figures[key] <= 1.0, key
    assert figures["markers_scored"] > 0 and figures["tiles_scored"] > 0


def test_bench_vision_refuses_zero_counts() -> None:
    result = CliRunner().invoke(main, ["bench", "vision", "--scenes", "0"])
    assert result.exit_code == 2
