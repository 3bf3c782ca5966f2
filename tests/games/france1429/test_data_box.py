"""France 1429's box data: what the seeds give, the invented stand-in, users' files, refusals.

rules/france1429.md §2 lists the components; the English seed lost every digit printed as a
picture, the Polish OCR keeps most. ``data/box.json`` holds what the seeds give, each gap null
with a note; ``data/stand-in-invented.json`` is complete and invented. ``FranceData`` joins the
box to its map; a game on data lacking a value it needs is refused, naming each value.
"""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from fr_registered import registered, shipped

from bridge.gamedata import read_text
from engine import codec
from engine import data as gamedata
from engine.games.france1429.data import (
    EFFECTS,
    RELIC_EFFECTS,
    WINDOW_OF,
    FranceData,
    missing_for,
    parse_data,
    read_players,
    refusals,
)
from engine.games.france1429.schemas import BOX_SCHEMA, MAP_SCHEMA
from engine.i18n import violation_text
from engine.violations import InputError

DATA = Path(str(resources.files("engine.games.france1429").joinpath("data")))


def _doc(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return doc


def _user(doc: Any, folder: Path | None = None) -> FranceData:
    """A user's document parsed as ``engine.data.load`` hands it over: read beside ``folder``."""

    def beside(name: str) -> str:
        if folder is None:
            raise InputError("input/data", "no folder")
        return read_text(str(folder / name))

    def shipped(name: str) -> str:
        return (DATA / name).read_text(encoding="utf-8")

    return parse_data(gamedata.DataDoc("mine.json", doc, beside, shipped))


@pytest.fixture(scope="module")
def game() -> Any:
    with registered() as g:
        yield g


# --- what the seeds give ----------------------------------------------------------------------


def test_box_decks_have_the_printed_counts() -> None:
    """Digest §2.3: Lords deck 22 = 18 Lords + 3 Cardinal + 1 d'ARC; Fortune 25; Disaster 10;
    Fortune and Disaster shuffled into one 35-card deck (PL L160-165)."""
    for name in ("box", "stand-in"):
        box = shipped(name).box
        lords = Counter(box.deck("lords"))
        assert sum(lords.values()) == 22
        assert lords["cardinal"] == 3 and lords["darc"] == 1
        shared = box.deck("fortune-disaster")
        assert len(shared) == 35
        by_category = Counter(c.category for c in box.cards for _ in range(c.count))
        assert by_category["regular"] + by_category["opportunity"] == 25
        assert by_category["disaster"] == 10
        counts = {c.id: c.count for c in box.cards}
        assert counts == {
            "cardinal": 3,
            "darc": 1,
            "bountiful-harvest": 5,
            "good-weather": 5,
            "taxes": 5,
            "uprising": 4,
            "secret-passage": 3,
            "assassination": 1,
            "justice": 1,
            "ambush": 1,
            "heavy-rain": 4,
            "famine": 4,
            "plague": 2,
        }


def test_every_card_has_an_effect_key_and_its_play_window() -> None:
    """Digest §5 (Phase 2) and §11: regular Fortune cards only in the Play Cards step,
    opportunity and Lord opportunity cards any time but the Draw step, Disasters on being
    drawn. Every effect key the rules implement is on exactly one kind of card."""
    box = shipped("box").box
    assert sorted(c.effect for c in box.cards) == sorted(EFFECTS)
    for c in box.cards:
        assert c.window == WINDOW_OF[c.category], c.id
    windows = {c.id: c.window for c in box.cards}
    assert windows["taxes"] == "play-step"
    assert windows["uprising"] == "any-but-draw"
    assert windows["darc"] == "any-but-draw"
    assert windows["plague"] == "on-draw"
    assert sorted(r.effect for r in box.relics) == sorted(RELIC_EFFECTS)


def test_box_lords_are_12_male_and_6_female_with_the_12_names_the_seeds_give() -> None:
    """Digest §2.2-2.3: 18 Lord tokens, 6 female and 12 male (PL L109-113); 12 names in the
    seeds, the other 5 male and 1 female names unknown (null, each a gap)."""
    box = shipped("box").box
    assert Counter(x.sex for x in box.lords) == {"male": 12, "female": 6}
    named = {x.name: x.sex for x in box.lords if x.name is not None}
    assert len(named) == 12
    assert named["Jeanne"] == named["Blanche"] == named["Mireille"] == "female"
    assert named["François"] == named["Gauvain"] == "male"
    unnamed = [x for x in box.lords if x.name is None]
    assert Counter(x.sex for x in unnamed) == {"male": 5, "female": 1}


def test_box_counts_prices_and_dice_are_the_polish_digits() -> None:
    """Digest §2.1 and §4 steps 5-6 (PL L45-54), §7.2 prices (PL L283-293), §9.3 faces
    (PL L1619-1621): what the English seed lost, the Polish OCR gives."""
    box = shipped("box").box
    assert box.start == {"deniers": 5, "knights": 1, "men_at_arms": 3, "strongholds": 1}
    assert box.stock["knights"] == 8 and box.stock["men_at_arms"] == 13
    assert box.stock["siege_engines"] == 2 and box.stock["tax"] == 3
    assert box.stock["vote_for"] == box.stock["vote_decoy"] == 1
    assert box.supply["mills"] == 15 and box.supply["strongholds"] == 12
    assert box.supply["cardinal_birettas"] == 3 and box.supply["purchasable_birettas"] == 1
    assert box.supply["deniers"] is None
    assert box.prices == {
        "men_at_arms": 1,
        "knight": 3,
        "mill": 3,
        "stronghold": 10,
        "cardinal": 5,
        "fief_title_per_village": 2,
    }
    assert box.dice.battle_faces == (1, 1, 2, 2, 3, 3)
    assert box.dice.battle_colours == {"black": 4, "white": 4}
    assert box.dice.colour_roles is None


def test_stand_in_keeps_every_value_the_box_gives_and_is_marked_invented() -> None:
    """The stand-in only fills gaps: where the box has a value, the stand-in has the same."""
    box, stand_in = shipped("box"), shipped("stand-in")
    assert stand_in.invented and stand_in.box.invented and stand_in.map.invented
    assert not box.box.invented
    for part in ("stock", "start", "supply", "prices"):
        given = {k: v for k, v in getattr(box.box, part).items() if v is not None}
        assert {k: getattr(stand_in.box, part)[k] for k in given} == given, part
    for mine, theirs in zip(box.box.lords, stand_in.box.lords, strict=True):
        assert mine.sex == theirs.sex
        assert mine.name is None or mine.name == theirs.name
    for mine, theirs in zip(box.box.colours, stand_in.box.colours, strict=False):
        assert mine.name is None or mine.name == theirs.name
    invented = [x for x in stand_in.box.lords if x.invented]
    assert {x.id for x in invented} == {x.id for x in box.box.lords if x.name is None}
    assert [c.id for c in box.box.cards] == [c.id for c in stand_in.box.cards]
    for c in stand_in.box.cards:
        assert c.text.en and c.text.pl and c.invented


# --- what a game needs --------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_stand_in_carries_a_whole_game(players: int) -> None:
    assert refusals(shipped("stand-in"), players) == []


def test_a_game_on_the_box_is_refused_naming_each_missing_value(game: Any) -> None:
    """Issue 12 "Data the rulebooks do not give": a game needing a missing value is refused,
    naming each one; colours only for the seats a game has (§1.3: 4 colours are named)."""
    data = shipped("box")
    whats = {v.params["what"] for v in refusals(data, 4)}
    assert {f"lords[lord-{n}].name" for n in range(13, 19)} <= whats
    assert {"villages", "roads", "villages[blaye].bishopric", "villages[sigy].fief"} <= whats
    assert not any(w.startswith("colours") for w in whats)
    assert "supply.deniers" not in whats  # money is a ledger
    six = {v.params["what"] for v in refusals(data, 6)}
    assert six - whats == {"colours[4]", "colours[5]"}
    for v in refusals(data, 6):
        text = violation_text(v, "en")
        assert v.params["what"].lower() in text.lower(), text
        assert v.params["where"] in text  # the file's note: where the value is printed
        assert v.ref.startswith("rules/france1429.md")
        assert violation_text(v, "pl") != text


def test_missing_for_needs_a_player_count_of_3_to_6() -> None:
    """Digest §1.3: 3-6 players."""
    for bad in (2, 7, True, "4"):
        with pytest.raises(InputError) as err:
            read_players(bad)
        assert err.value.code == "input/players"
    with pytest.raises(InputError):
        missing_for(shipped("stand-in"), 2)


# --- loading through engine.data --------------------------------------------------------------


def test_the_data_option_defaults_to_the_stand_in_and_names_the_box(game: Any) -> None:
    default = gamedata.load(game, {})
    assert default is not None and default.source == "stand-in"
    assert isinstance(default.value, FranceData) and default.value.invented
    box = gamedata.load(game, {"data": "box"})
    assert box is not None and box.value == shipped("box")
    assert box.digest != default.digest
    again = gamedata.load(game, {"data": "stand-in"})
    assert again is not None and again.digest == default.digest


def test_the_value_round_trips_through_the_codec() -> None:
    """The game keeps the data in its state: a state file must carry them whole."""
    for name in ("box", "stand-in"):
        data = shipped(name)
        assert codec.decode(FranceData, json.loads(json.dumps(codec.encode(data)))) == data


def test_a_user_file_extends_the_stand_in_with_their_own_map(tmp_path: Path, game: Any) -> None:
    """docs/france1429-data.md: ``{"extends": "stand-in", "map": "my-map.json"}``."""
    board = _doc("map-stand-in-invented.json")
    board["name"] = "my board"
    board["invented"] = False
    (tmp_path / "my-map.json").write_text(json.dumps(board), encoding="utf-8")
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps({"extends": "stand-in", "map": "my-map.json"}), encoding="utf-8")
    loaded = gamedata.load(game, {"data": str(mine)}, read=read_text)
    assert loaded is not None and loaded.source == str(mine)
    data = loaded.value
    assert data.map.name == "my board" and data.box == shipped("stand-in").box
    inline = _user({"extends": "box", "map": board})
    assert inline.map.name == "my board" and inline.box == shipped("box").box


def test_a_user_box_without_extends_keeps_its_own_values(tmp_path: Path) -> None:
    doc = _doc("box.json")
    for i, lord in enumerate(doc["lords"]):
        if lord["name"] is None:
            lord["name"] = f"Named {i}"
    doc["colours"][4]["name"] = "red"
    doc["colours"][5]["name"] = "yellow"
    doc["name"] = "my box"
    (tmp_path / "map-box.json").write_text(
        (DATA / "map-box.json").read_text(encoding="utf-8"), encoding="utf-8"
    )
    data = _user(doc, tmp_path)
    whats = {v.params["what"] for v in refusals(data, 6)}
    assert not any(w.startswith(("lords", "colours")) for w in whats)
    assert "villages" in whats  # the map is still the box map


def test_bad_documents_are_refused_naming_the_place(tmp_path: Path) -> None:
    with pytest.raises(InputError) as err:
        _user({"extends": "deluxe"})
    assert err.value.path == "$.extends" and "deluxe" in err.value.detail
    with pytest.raises(InputError) as err:
        _user([1, 2])
    assert err.value.code == "input/schema"
    broken = _doc("stand-in-invented.json")
    broken["cards"][2]["window"] = "any-but-draw"  # Bountiful Harvest is a regular card
    with pytest.raises(InputError) as err:
        _user({**broken, "map": _doc("map-stand-in-invented.json")})
    assert "bountiful-harvest" in err.value.detail and "play-step" in err.value.detail
    twice = _doc("stand-in-invented.json")
    twice["cards"][3]["effect"] = "bountiful-harvest"
    with pytest.raises(InputError) as err:
        _user({**twice, "map": _doc("map-stand-in-invented.json")})
    assert "bountiful-harvest" in err.value.detail
    bad_map = _doc("map-stand-in-invented.json")
    bad_map["villages"][3]["bishopric"] = "two"
    with pytest.raises(InputError) as err:
        _user({"extends": "stand-in", "map": bad_map})
    assert err.value.path == "$.map.villages[3].bishopric"
    (tmp_path / "m.json").write_text(json.dumps(bad_map), encoding="utf-8")
    with pytest.raises(InputError) as err:
        _user({"extends": "stand-in", "map": "m.json"}, tmp_path)
    assert err.value.detail.startswith("m.json") and err.value.path == "$.villages[3].bishopric"
    with pytest.raises(InputError) as err:
        _user({"extends": "stand-in", "stock": {"knights": -1}})
    assert err.value.path == "$.stock.knights"


def test_the_shipped_schema_files_are_the_schemas_the_rules_use() -> None:
    """Users' editors read data/*.schema.json; the rules read ``schemas``: they must agree."""
    assert json.loads((DATA / "map.schema.json").read_text(encoding="utf-8")) == MAP_SCHEMA
    assert json.loads((DATA / "box.schema.json").read_text(encoding="utf-8")) == BOX_SCHEMA


def test_the_value_has_a_json_schema_its_encoding_obeys() -> None:
    """A game's state schema (``herald rules france1429 schema``) takes in the data's."""
    defs: dict[str, Any] = {}
    ref = codec.schema_for(FranceData, defs)
    schema = {"$defs": defs, **ref}
    for name in ("box", "stand-in"):
        jsonschema.validate(codec.encode(shipped(name)), schema)
    assert "by_id" not in defs["MapData"]["properties"]  # indexes are not part of the JSON


def test_fief_titles_cost_two_deniers_per_village() -> None:
    """Digest §7.2, §3.1: a Barony (2 Villages) 4, a County (3) 6, a Duchy (4) 8; the Duchy of
    Bourg and the green County of Tournus (§3.2)."""
    data = shipped("stand-in")
    assert data.fief_rank("bourg") == "duchy" and data.fief_title_cost("bourg") == 8
    assert data.fief_rank("green") == "county" and data.fief_title_cost("green") == 6
    assert data.fief_rank("abzac") == "barony" and data.fief_title_cost("abzac") == 4
    assert data.fief_rank("nowhere") is None and data.fief_size("nowhere") == 0


@pytest.mark.parametrize(
    ("file", "schema"),
    [
        ("box.json", BOX_SCHEMA),
        ("stand-in-invented.json", BOX_SCHEMA),
        ("map-box.json", MAP_SCHEMA),
        ("map-stand-in-invented.json", MAP_SCHEMA),
    ],
)
def test_the_shipped_files_fit_their_schema(file: str, schema: dict[str, Any]) -> None:
    """Shipped sets are not validated at each load (``trusted``): this test does it once."""
    jsonschema.validate(_doc(file), schema)
