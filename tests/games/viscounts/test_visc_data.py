"""Viscounts' data sets: the box (what the seed gives) and the invented stand-in.

The stand-in validates and is complete (a game of 1 to 4 players can start with it); the box
set names every gap with its seed lines; the counts the seed gives hold (digest §2: 110
Townsfolk = 68 Common + 10 Famous + 32 Starting, 35 Manuscripts = 5 grey + 30 black...).
"""

from __future__ import annotations

import copy
import json
import re
from collections import deque
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from visc_registered import registered, shipped

from engine import data as gamedata
from engine.games.viscounts.data import (
    COUNTS,
    PLAYERS,
    data_gaps,
    parse_doc,
    read_players,
    refusals,
)
from engine.games.viscounts.effects import Conversion, Effect, EffectError
from engine.games.viscounts.schemas import DATA_SCHEMA
from engine.games.viscounts.sources import Missing
from engine.i18n import violation_text
from engine.violations import InputError

DATA = Path(str(resources.files("engine.games.viscounts").joinpath("data")))


@pytest.fixture(scope="module", autouse=True)
def game() -> Iterator[Any]:
    with registered() as g:
        yield g


def _raw(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return doc


def test_the_shipped_schema_file_is_the_packages_schema() -> None:
    shipped_schema = json.loads((DATA / "data.schema.json").read_text(encoding="utf-8"))
    assert shipped_schema == DATA_SCHEMA


@pytest.mark.parametrize("name", ["stand-in-invented.json", "box.json"])
def test_the_shipped_sets_fit_the_schema(name: str) -> None:
    jsonschema.validate(_raw(name), DATA_SCHEMA)
    parse_doc(_raw(name))  # every effect text reads


def test_the_stand_in_is_complete_for_every_player_count() -> None:
    """Issue 14: a complete stand-in set so a later engine can play now."""
    d = shipped("stand-in")
    assert d.invented and d.name == "stand-in"
    assert [g for g in data_gaps(d) if g.needed] == []
    for players in PLAYERS:
        assert refusals(d, players) == []


def test_the_stand_in_is_marked_invented_throughout() -> None:
    raw = _raw("stand-in-invented.json")
    assert raw["invented"] is True and "INVENTED" in raw["source"]
    for part in ("townsfolk", "manuscripts", "church_favour", "player_cards", "schemes", "ais"):
        assert all(item.get("invented") is True for item in raw[part]), part


def test_the_seed_counts_hold_in_the_stand_in() -> None:
    """Digest §2 [seed L20-99]: 68 Common, 10 Famous, 32 Starting Townsfolk (8 per colour,
    110 in all), 35 Manuscripts (5 grey-backed, 30 black), 4 Church Favour cards, 10 Player
    cards, 8 Starting + 8 Future Schemes, four AIs [L1012], five board parts."""
    d = shipped("stand-in")
    assert (d.deck_count("common"), d.deck_count("famous"), d.deck_count("starting")) == (
        68,
        10,
        32,
    )
    assert sum(c.count for c in d.townsfolk) == 110
    for colour in range(COUNTS["colours"]):
        assert d.deck_count("starting", colour) == COUNTS["starting_per_colour"]
    backs = [m.back for m in d.manuscripts]
    assert (backs.count("grey"), backs.count("black")) == (5, 30)
    assert len(d.church_favour) == 4 and len(d.player_cards) == 10
    assert sorted(p.number for p in d.player_cards) == list(range(1, 11))
    kinds = [s.kind for s in d.schemes]
    assert (kinds.count("starting"), kinds.count("future")) == (8, 8)
    assert len(d.ais) == 4 and {a.goal for a in d.ais} == {
        "trade",
        "build",
        "workers",
        "transcribe",
    }
    assert d.board is not None and {t.part for t in d.board.towns} == set(range(5))


def test_the_stand_in_board_is_a_clockwise_ring() -> None:
    """Digest §4 phase 2: movement follows the arrows, clockwise; from any town every town
    is reachable (a full loop is legal); Trade and Build need outer towns with an exchange
    and a River side [§5.1-5.2]; each Player card's red number names one town [§3 step 9]."""
    d = shipped("stand-in")
    assert d.board is not None
    towns = {t.id: t for t in d.board.towns}
    for start in towns:
        seen, todo = {start}, deque([start])
        while todo:
            for n in towns[todo.popleft()].next:
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        assert seen == set(towns), start
    numbers = sorted(t.number for t in d.board.towns if t.number is not None)
    assert numbers == list(range(1, 11))
    assert {t.path for t in d.board.towns} == {"outer", "inner"}
    sites = {s.id for s in d.board.sites}
    assert all(a in sites and b in sites for k in d.board.connections for a, b in [k.sites])
    for part in range(5):
        assert {s.side for s in d.board.sites if s.part == part} == {"left", "right"}


def test_the_stand_in_keeps_the_seeds_example_cards() -> None:
    """The seed's named example cards keep what the examples show: the Traveller's
    conversion [seed L284-293], the Woodcutter's value 2 and 1 Virtue when dismissed
    [L424-426], the Trader's Silver after Trade [L461-465], the Apprentice's push-off
    [L333-334]."""
    d = shipped("stand-in")
    traveller = d.card("traveller")
    assert traveller is not None and traveller.ability is not None
    assert traveller.ability.body == Conversion("merchant", 2, "cleric", 1)
    woodcutter = d.card("woodcutter")
    assert woodcutter is not None and woodcutter.value == 2 and woodcutter.hire is not None
    apprentice = d.card("apprentice")
    assert apprentice is not None and apprentice.ability is not None
    assert apprentice.ability.timing == "push-off"
    trader = d.card("trader")
    assert trader is not None and trader.ability is not None
    assert isinstance(trader.ability.body, Effect) and trader.ability.body.event == "after trade"


def test_the_box_holds_what_the_seed_gives() -> None:
    """Digest §5.2: Building costs 3/5/7 [seed L487-488], Trading Posts 4/9/15 VP [L492];
    §5.4: a set of 3 ribbons 9 VP [L650]; §8: the Cleric AI's start, priority and least
    Workers [L849-850, L866-870]; §3 step 9: Player cards 3/5/6 anywhere, 9 a Destroy
    [L185-187]; Church Favour 3 VP [L642-643]."""
    d = shipped("box")
    assert not d.invented
    costs = {b.kind: b.cost for b in d.buildings}
    assert costs == {"workshop": 3, "trading-post": 5, "guildhall": 7}
    post = next(b for b in d.buildings if b.kind == "trading-post")
    assert post.vp == (0, 4, 9, 15)
    assert d.set_vp[2] == 9
    cleric = next(a for a in d.ais if a.id == "cleric")
    assert cleric.goal == "transcribe" and cleric.min_workers == 2
    assert cleric.priority == (("ink", 6), ("stone", 4), ("gold", None))
    assert {p.number for p in d.player_cards if p.anywhere} == {3, 5, 6}
    nine = next(p for p in d.player_cards if p.number == 9)
    assert nine.extra is not None
    assert all(f.vp == 3 for f in d.church_favour) and len(d.church_favour) == 4
    assert [m.back for m in d.manuscripts].count("grey") == 5 and len(d.manuscripts) == 35


def test_every_gap_of_the_box_has_a_note_with_seed_lines() -> None:
    """Issue 14: a box set whose gaps are null, each with a note and the seed lines."""
    d = shipped("box")
    gaps = data_gaps(d, everything=True)
    assert len(gaps) > 100
    for gap in gaps:
        note = Missing.note_for(d.missing, gap.what)
        assert note != Missing.DEFAULT_WHERE, gap.what
        assert re.search(r"seed L\d+", note), gap.what
        assert gap.ref.startswith("rules/viscounts.md §")


def test_the_box_is_refused_naming_each_gap() -> None:
    d = shipped("box")
    refused = refusals(d, 3)
    what = {v.params["what"] for v in refused}
    assert {"townsfolk", "board", "track.spaces", "castle.level1"} <= what
    assert {"kingdom.poverty[3]", "townsfolk[woodcutter].deck", "manuscripts[ms-7].cost"} <= what
    assert "buildings[guildhall].vp[2]" in what and "buildings[trading-post].vp[2]" not in what
    codes = {v.code for v in refused}
    assert {"data/incomplete-common", "data/incomplete-famous", "data/incomplete-starting"} <= codes
    for lang in ("en", "pl"):
        assert all(violation_text(v, lang) for v in refused)
    common = next(v for v in refused if v.code == "data/incomplete-common")
    assert common.params["total"] == 68 and common.params["count"] == 0


def test_player_counts() -> None:
    """Digest §1, §8: 1 to 4 players (one against the AI)."""
    assert [read_players(n) for n in range(1, 5)] == [1, 2, 3, 4]
    for bad in (0, 5, True, "2"):
        with pytest.raises(InputError):
            read_players(bad)


def test_a_users_card_whose_effect_does_not_read_is_refused_naming_it() -> None:
    """Issue 14: the engine refuses a card whose effect it cannot read, naming it; the
    stand-in's other values come in through ``extends``."""
    mine = {
        "extends": "stand-in",
        "townsfolk": [
            *_raw("stand-in-invented.json")["townsfolk"][:-1],
            {
                "id": "bell-ringer",
                "name": "Bell Ringer",
                "deck": "starting",
                "colour": 3,
                "value": 1,
                "symbols": ["cleric"],
                "hire": None,
                "ability": "immediate: ring the bell -> 1 ink",
            },
        ],
    }
    with registered() as g, pytest.raises(EffectError) as caught:
        gamedata.load(g, {"data": mine})
    assert caught.value.params["card"] == "Bell Ringer"
    assert caught.value.params["part"] == "ability"
    assert "Bell Ringer" in caught.value.text("pl")


def test_data_that_break_a_rule_are_refused() -> None:
    """Digest §2 counts: no more cards than the box has; ids are unique; an arrow leads to a
    town; §3 step 9: each Player card's number is a town's red number; §5.3: every level-1
    Castle section feeds an existing level-2 one; §4 phase 5: one Collision bonus per track
    space; §8: an AI board returns existing Scheme cards."""
    raw = _raw("stand-in-invented.json")
    too_many = copy.deepcopy(raw)
    too_many["townsfolk"][0]["count"] = 3
    broken_arrow = copy.deepcopy(raw)
    broken_arrow["board"]["towns"][0]["next"] = ["nowhere"]
    twice = copy.deepcopy(raw)
    twice["manuscripts"][1]["id"] = twice["manuscripts"][0]["id"]
    no_town = copy.deepcopy(raw)
    for town in no_town["board"]["towns"]:
        if town.get("number") == 7:
            town["number"] = None
    castle = copy.deepcopy(raw)
    castle["castle"]["inward"][4] = 9
    track = copy.deepcopy(raw)
    track["track"]["below"].pop()
    removes = copy.deepcopy(raw)
    removes["ais"][0]["removes"] = ["start-99"]
    for doc, words in (
        (too_many, "more than 68 common"),
        (broken_arrow, "'nowhere', which is no town"),
        (twice, "listed twice"),
        (no_town, "player_cards[7]: no town has the red number 7"),
        (castle, "castle.inward[4]: level-2 section 9 does not exist"),
        (track, "track.below: 6 bonuses for 7 spaces"),
        (removes, "'start-99' is no Scheme card"),
    ):
        with pytest.raises(InputError) as caught:
            parse_doc(doc)
        assert caught.value.code == "input/data" and words in caught.value.detail


def test_a_document_off_the_schema_is_refused_naming_the_path() -> None:
    raw = _raw("stand-in-invented.json")
    raw["townsfolk"][5]["deck"] = "legendary"
    with pytest.raises(InputError) as caught:
        parse_doc(raw)
    assert caught.value.code == "input/schema" and caught.value.path == "$.townsfolk[5].deck"
