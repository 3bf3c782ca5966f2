"""The map drawing (``map_svg.render_svg``): deterministic, every Village, a table on top.

The drawing is how a user compares a typed-in map with the board (issue 12), and how a table
position can be shown (who controls which Village, Strongholds, Fortified Cities, Mills,
relics: counters, not printed on the board, docs/france1429-data.md FD-2).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace
from typing import Any

import pytest
from fr_registered import registered, shipped_map

from engine.games.france1429.map_svg import MapMarks, render_svg

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module", autouse=True)
def game() -> Any:
    with registered() as g:
        yield g


def _village_group(root: ET.Element, vid: str) -> ET.Element:
    found = next(g for g in root.iter(f"{SVG}g") if g.get("id") == f"village-{vid}")
    return found


def test_the_same_map_draws_the_same_picture() -> None:
    """The layout is a fixed number of steps from a fixed start: no randomness, no clock."""
    for name in ("stand-in", "box"):
        m = shipped_map(name)
        assert render_svg(m) == render_svg(m)


def test_every_village_is_a_square_with_its_name() -> None:
    m = shipped_map("stand-in")
    root = ET.fromstring(render_svg(m).encode("utf-8"))
    for v in m.villages:
        group = _village_group(root, v.id)
        assert group.find(f"{SVG}rect") is not None
        text = "".join(group.find(f"{SVG}text").itertext())  # type: ignore[union-attr]
        assert text == (v.name.upper() if v.principal else v.name)


def test_a_table_position_is_drawn_on_the_villages() -> None:
    m = shipped_map("stand-in")
    marks = MapMarks(
        control={"blaye": "#2980b9"},
        buildings={"blaye": "fortified-city", "charolles": "stronghold"},
        mills={"charolles": 2, "vaux": 5},
        relics={"sigy": "Holy Grail"},
    )
    root = ET.fromstring(render_svg(m, marks).encode("utf-8"))
    blaye = _village_group(root, "blaye")
    assert blaye.find(f"{SVG}rect").get("fill") == "#2980b9"  # type: ignore[union-attr]
    assert blaye.find(f"{SVG}line") is not None  # the Fortified City's flag pole
    charolles = _village_group(root, "charolles")
    assert charolles.find(f"{SVG}line") is None  # a Stronghold has no flag
    assert len(charolles.findall(f"{SVG}g/{SVG}circle")) == 2
    assert len(_village_group(root, "vaux").findall(f"{SVG}g/{SVG}circle")) == 2  # at most 2
    titles = ["".join(t.itertext()) for t in _village_group(root, "sigy").iter(f"{SVG}title")]
    assert titles == ["Holy Grail"]
    plain = ET.fromstring(render_svg(m).encode("utf-8"))
    assert _village_group(plain, "blaye").find(f"{SVG}rect").get("fill") == "#ffffff"  # type: ignore[union-attr]


def test_names_are_escaped_and_the_legend_follows_the_language() -> None:
    m = shipped_map("stand-in")
    odd = replace(m, name="<mine> & ours", villages=tuple(
        replace(v, name="Vaux & <Co>") if v.id == "vaux" else v for v in m.villages
    ))  # fmt: skip
    root = ET.fromstring(render_svg(odd).encode("utf-8"))
    assert "".join(_village_group(root, "vaux").find(f"{SVG}text").itertext()) == "Vaux & <Co>"  # type: ignore[union-attr]
    english, polish = render_svg(m, lang="en"), render_svg(m, lang="pl")
    assert "Bishoprics" in english and "Biskupstwa" in polish
