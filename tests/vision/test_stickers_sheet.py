"""``herald stickers``: a true-size PDF whose printed markers detect with the profile's IDs."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
from click.testing import CliRunner

from bridge.cli import main
from bridge.game_files import camera_profile
from vision.calibration import load_profile
from vision.config import MarkerConfig
from vision.markers import MarkerDetector, usable_ids
from vision.stickers import kit_profile, plan_sheet

MA_BOARD = camera_profile("middle-ages")
"""The board profile Middle Ages ships (its package's camera/profile.json)."""


DPI = 150
A4_PT = (595.28, 841.89)
WEAK_4X4 = {62, 85, 105, 106, 110, 118, 145, 190}


def _pages(pdf: Path) -> list[tuple[tuple[float, float], np.ndarray]]:
    doc = pdfium.PdfDocument(str(pdf))
    out = []
    for page in doc:
        gray = page.render(scale=DPI / 72, grayscale=True).to_numpy()
        out.append((page.get_size(), np.ascontiguousarray(gray, dtype=np.uint8)))
    return out


def test_sheet_is_true_size_and_detects_with_profile_ids(tmp_path: Path) -> None:
    pdf = tmp_path / "sheet.pdf"
    res = CliRunner().invoke(main, ["stickers", "--game", "middle-ages", "--out", str(pdf)])
    assert res.exit_code == 0, res.output
    profile = MA_BOARD
    saved = load_profile(tmp_path / "sheet.profile.json")
    assert saved.markers == profile.markers and saved.dictionary == "4x4_250"
    assert "lord:blue" in profile.markers.values() and "scout:blue" in profile.markers.values()
    pages = _pages(pdf)
    assert len(pages) == 1
    (w, h), image = pages[0]
    assert abs(w - A4_PT[0]) < 0.5 and abs(h - A4_PT[1]) < 0.5
    found = MarkerDetector().detect(image)
    ids = sorted(m.id for m in found)
    assert ids == sorted([*profile.corner_ids, *profile.markers])
    px_per_mm = DPI / 25.4
    for m in found:
        want = profile.corner_marker_mm if m.id in profile.corner_ids else profile.sticker_mm
        assert abs(m.side_px / px_per_mm - want) < 0.03 * want, (m.id, m.side_px / px_per_mm)


def test_other_dictionary_renumbers_only_when_needed(tmp_path: Path) -> None:
    pdf = tmp_path / "six.pdf"
    res = CliRunner().invoke(
        main, ["stickers", "--game", "middle-ages", "--out", str(pdf), "--dict", "6x6_250"]
    )
    assert res.exit_code == 0, res.output
    saved = json.loads((tmp_path / "six.profile.json").read_text())
    assert saved["dictionary"] == "6x6_250"
    _, image = _pages(pdf)[0]
    ids = sorted(m.id for m in MarkerDetector(dictionary="6x6_250").detect(image))
    assert ids == sorted([0, 1, 2, 3, *(int(k) for k in saved["markers"])])


def test_weak_ids_are_never_printed() -> None:
    assert set(range(250)) - set(usable_ids("4x4_250", MarkerConfig())) >= WEAK_4X4
    profile = MA_BOARD
    labels = sorted(profile.markers.values())
    weak = replace(profile, markers={62: "lord:red", 85: "scout:red", 30: "lord:blue"})
    kit = kit_profile(weak)
    assert not set(kit.markers) & WEAK_4X4
    assert sorted(kit.markers.values()) == ["lord:blue", "lord:red", "scout:red"]
    plan = plan_sheet(weak, copies=2)
    printed = [s.marker_id for s in plan.stickers]
    assert not set(printed) & WEAK_4X4 and len(printed) == 4 + 2 * 3
    assert kit_profile(profile) is profile and labels  # usable IDs are kept as they are


def test_bad_input_exits_2_with_catalog_sentence(tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["stickers", "--game", "chess", "--out", str(tmp_path / "x.pdf")])
    assert res.exit_code == 2 and "No board profile" in res.output
    res = runner.invoke(
        main,
        ["stickers", "--game", "middle-ages", "--out", str(tmp_path / "x.pdf"), "--dict", "9x9"],
    )
    assert res.exit_code == 2 and "Unknown marker dictionary" in res.output
    assert not (tmp_path / "x.pdf").exists()
