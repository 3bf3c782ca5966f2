"""The sanity checks of a France 1429 map (rules/france1429.md §3.3), one broken rule at a time.

Each case starts from the invented stand-in map, which passes every check, breaks one rule the
way a user typing in their board might, and expects the check to name that rule and the place.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from fr_registered import registered, shipped_map

from engine.games.france1429.geography import dump_map, parse_map
from engine.games.france1429.map_checks import check_map, map_gaps, map_problems
from engine.i18n import violation_text

DATA = Path(str(resources.files("engine.games.france1429").joinpath("data")))
Doc = dict[str, Any]


@pytest.fixture(scope="module", autouse=True)
def game() -> Any:
    with registered() as g:
        yield g


def _stand_in() -> Doc:
    doc: Doc = json.loads((DATA / "map-stand-in-invented.json").read_text(encoding="utf-8"))
    return doc


def _village(doc: Doc, vid: str) -> Doc:
    found: Doc = next(v for v in doc["villages"] if v["id"] == vid)
    return found


def _fief(doc: Doc, fid: str) -> Doc:
    found: Doc = next(f for f in doc["fiefs"] if f["id"] == fid)
    return found


def _ends(road: Any) -> set[str]:
    return set(road if isinstance(road, list) else road["between"])


def _drop_roads(doc: Doc, *pairs: tuple[str, str]) -> None:
    gone = [set(p) for p in pairs]
    doc["roads"] = [r for r in doc["roads"] if _ends(r) not in gone]


def _drop_village(doc: Doc, vid: str) -> None:
    doc["villages"] = [v for v in doc["villages"] if v["id"] != vid]
    doc["roads"] = [r for r in doc["roads"] if vid not in _ends(r)]


def _set(vid: str, **values: Any) -> Callable[[Doc], None]:
    def change(doc: Doc) -> None:
        _village(doc, vid).update(values)

    return change


def _ninth_fief(doc: Doc) -> None:
    doc["fiefs"].append({"id": "arlay", "name": "Arlay", "rank": "barony"})
    _village(doc, "arlay")["fief"] = "arlay"
    _village(doc, "mazilles")["fief"] = "arlay"
    _fief(doc, "blaye")["rank"] = "barony"


def _fief_of_one(doc: Doc) -> None:
    _village(doc, "st-ciers-dabzac")["fief"] = "medard"
    _fief(doc, "medard")["rank"] = None


def _unknown_fief(doc: Doc) -> None:
    _village(doc, "arlay")["fief"] = "jura"
    _fief(doc, "blaye")["rank"] = None


def _bishopric_six(doc: Doc) -> None:
    doc["bishoprics"] = [b for b in doc["bishoprics"] if b["number"] != 3]


def _two_principals(doc: Doc) -> None:
    _village(doc, "charolles")["principal"] = True


def _bourg_in_3(doc: Doc) -> None:
    _village(doc, "bourg")["bishopric"] = 3


def _no_mazilles(doc: Doc) -> None:
    _drop_village(doc, "mazilles")
    _fief(doc, "blaye")["rank"] = "county"


def _tournus_county_of_2(doc: Doc) -> None:
    _village(doc, "cuisery")["fief"] = "romenay"
    _fief(doc, "green")["rank"] = None
    _fief(doc, "romenay")["rank"] = None


def _bourg_duchy_of_3(doc: Doc) -> None:
    _village(doc, "treffort")["fief"] = "sigy"
    _fief(doc, "sigy")["rank"] = None
    _fief(doc, "bourg")["rank"] = None


def _no_bourg_duchy(doc: Doc) -> None:
    _fief(doc, "bourg")["name"] = "Bresse"


def _island(doc: Doc) -> None:
    _drop_roads(
        doc,
        ("romenay", "sigy"),
        ("st-ciers-dabzac", "romenay"),
        ("tournus", "romenay"),
        ("sennecey", "tournus"),
    )


def _both_ways(doc: Doc) -> None:
    doc["roads"].append(["charolles", "blaye"])


def _road_nowhere(doc: Doc) -> None:
    doc["roads"].append(["vaux", "cluny"])


def _road_loop(doc: Doc) -> None:
    doc["roads"].append(["vaux", "vaux"])


def _same_id(doc: Doc) -> None:
    twin = copy.deepcopy(_village(doc, "vaux"))
    twin["name"] = "Vaux-en-Bugey"
    doc["villages"].append(twin)


def _same_name(doc: Doc) -> None:
    _village(doc, "lormes")["name"] = "Saint Médard"


CASES: list[tuple[str, Callable[[Doc], None], str, str]] = [
    # §3.3 "8 fiefs"
    ("map/fief-count", _ninth_fief, "9 Fiefs", "§3.1"),
    # §3.3 "each 2-4 villages"
    ("map/fief-size", _fief_of_one, "Fief Abzac has 1 Village", "§3.1"),
    ("map/fief-rank", lambda d: _fief(d, "romenay").update(rank="county"), "Romenay", "§7.4"),
    # §3.3 "every village in exactly one fief and one bishopric"
    ("map/unknown-fief", _unknown_fief, "Arlay lies in Fief 'jura'", "§3.1"),
    ("map/unknown-bishopric", _bishopric_six, "Bishopric 3", "§3.1"),
    # §3.3 "5 bishoprics, each with exactly one principal"
    ("map/bishopric-numbers", _bishopric_six, "1, 2, 4, 5", "§3.1"),
    ("map/principal-count", _two_principals, "Bishopric 1 has 2 Principal", "§3.1"),
    ("map/principal-count", _set("blaye", principal=False), "Bishopric 1 has 0", "§3.1"),
    ("map/principal-named", _set("blaye", principal=False), "Blaye must be", "§12.2"),
    ("map/principal-unnamed", _two_principals, "Charolles is marked", "§12.2"),
    # §3.3 "Bishopric 5 = {Sigy, St Paul, St Ciers d'Abzac, Beaujeu}"
    ("map/bishopric-5-extra", _set("romenay", bishopric=5), "Romenay is in Bishopric 5", "§3.2"),
    ("map/bishopric-5-missing", _set("beaujeu", bishopric=4), "Beaujeu belongs", "§3.2"),
    # §3.3 "Bourg principal of 4"
    ("map/bourg-bishopric", _bourg_in_3, "not of Bishopric 3", "§3.2"),
    # §3.2 what the rulebooks say of this board
    ("map/named-village-absent", _no_mazilles, "Mazilles", "§3.2"),
    ("map/tournus-county", _tournus_county_of_2, "has 2 Villages", "§3.2"),
    ("map/bourg-duchy", _bourg_duchy_of_3, "Fief bourg has 3 Villages", "§3.2"),
    ("map/bourg-duchy-absent", _no_bourg_duchy, "Duchy of Bourg", "§3.2"),
    # §3.3 "edges Blaye-Charolles and Charolles-L'Épervier present"
    (
        "map/known-road-absent",
        lambda d: _drop_roads(d, ("blaye", "charolles")),
        "Blaye–Charolles",
        "§3.2",
    ),
    (
        "map/known-road-absent",
        lambda d: _drop_roads(d, ("charolles", "l-epervier")),
        "Charolles–L'Épervier",
        "§3.2",
    ),
    # §3.3 "road graph connected and symmetric"
    ("map/not-connected", _island, "Romenay, Sennecey", "§3.3"),
    ("map/road-duplicate", _both_ways, "Charolles–Blaye is listed twice", "§3.1"),
    ("map/road-unknown-village", _road_nowhere, "'cluny'", "§3.1"),
    ("map/road-loop", _road_loop, "from Vaux back to Vaux", "§3.1"),
    # the file itself
    ("map/duplicate-village", _same_id, "'vaux'", "§3.3"),
    ("map/duplicate-name", _same_name, "St Médard", "§3.3"),
    ("map/position-half", _set("vaux", y=None), "Vaux has only one", "§3.3"),
]


def test_the_shipped_stand_in_map_passes_every_check() -> None:
    assert check_map(shipped_map("stand-in")) == []
    assert check_map(parse_map(_stand_in())) == []


def test_the_shipped_box_map_breaks_no_rule_and_lists_only_its_gaps() -> None:
    """The box map holds just what the seeds give (§3.2): nothing it says breaks a rule, and
    every unknown value is listed with the file's note."""
    m = shipped_map("box")
    assert map_problems(m) == []
    gaps = map_gaps(m)
    assert {g.what for g in gaps} >= {"villages", "roads", "villages[blaye].bishopric"}
    assert all(g.where and "rules/france1429.md" in g.ref for g in gaps)
    assert {v.code for v in check_map(m)} <= {
        "map/incomplete-villages",
        "map/incomplete-roads",
        "map/missing-fief",
        "map/missing-bishopric",
    }
    assert parse_map(dump_map(m)) == m


@pytest.mark.parametrize(("code", "change", "named", "section"), CASES)
def test_a_map_breaking_a_rule_is_refused_naming_it(
    code: str, change: Callable[[Doc], None], named: str, section: str
) -> None:
    doc = _stand_in()
    change(doc)
    problems = check_map(parse_map(doc))
    found = [v for v in problems if v.code == code]
    assert found, [v.code for v in problems]
    texts = [violation_text(v, "en") for v in found]
    assert any(named in t for t in texts), texts
    assert all(v.ref.startswith("rules/france1429.md") for v in found)
    assert any(section in v.ref for v in found) or code.startswith("map/duplicate")
    assert all(
        violation_text(v, "pl") and violation_text(v, "pl") != violation_text(v, "en")
        for v in found
    )


def test_only_the_broken_rule_is_reported() -> None:
    """A single fault gives a single problem: the user sees what to fix, nothing else."""
    for change, code in (
        (_unknown_fief, "map/unknown-fief"),
        (_set("beaujeu", bishopric=4), None),
        (_both_ways, "map/road-duplicate"),
        (_island, "map/not-connected"),
        (_no_bourg_duchy, "map/bourg-duchy-absent"),
        (lambda d: _drop_roads(d, ("blaye", "charolles")), "map/known-road-absent"),
    ):
        doc = _stand_in()
        change(doc)
        codes = [v.code for v in check_map(parse_map(doc))]
        if code is None:  # moving Beaujeu also leaves Bishopric 4 with its Principal, fine
            assert codes == ["map/bishopric-5-missing"]
        else:
            assert codes == [code]


def test_the_map_answers_roads_fiefs_and_principals() -> None:
    """Digest §8.1: one Move goes along one road; §3.2: Blaye–Charolles–L'Épervier, Sigy the
    Principal Village of Bishopric 5, Bourg of 4; Bishopric 5 has 4 Villages."""
    for m in (shipped_map("stand-in"), shipped_map("box")):
        assert m.adjacent("blaye", "charolles") and m.adjacent("charolles", "blaye")
        assert m.adjacent("charolles", "l-epervier")
        assert not m.adjacent("blaye", "l-epervier")
        assert "charolles" in m.neighbours("blaye")
        assert m.principal(5) == "sigy" and m.principal(4) == "bourg"
        assert set(m.bishopric_villages[5]) == {"sigy", "st-paul", "st-ciers-dabzac", "beaujeu"}
    m = shipped_map("stand-in")
    assert m.neighbours("tournus") == ("louhans", "cuisery", "treffort", "romenay", "sennecey")
    assert len(m.fief_villages["bourg"]) == 4 and len(m.fief_villages["green"]) == 3
    assert m.village("nowhere") is None and m.neighbours("nowhere") == ()
