"""Glory's box data: what the seed gives, the invented stand-in, users' files, what a game needs.

The rulebook text lost most printed values (rules/glory.md §11). ``data/box.json`` ships what it
gives with every other value ``null`` and a note; ``data/stand-in.json`` is complete but
invented; a user's file completes or replaces them. ``missing_for`` names only the values a game
with given options needs.
"""

from __future__ import annotations

import json
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from bridge.gamedata import read_text
from engine import data as gamedata
from engine.games.glory import GAME
from engine.games.glory.data_check import check_data
from engine.games.glory.data_file import dump_data
from engine.games.glory.data_missing import (
    DEFAULT_WHERE,
    Missing,
    missing_for,
    require_complete,
    table_players,
)
from engine.games.glory.data_schema import data_schema, validate
from engine.games.glory.data_types import Box, BoxData
from engine.i18n import violation_text
from engine.violations import InputError, RuleViolation

DATA = Path(str(resources.files("engine.games.glory").joinpath("data")))


def load_data(path: Path | None = None, *, stand_in: bool = False) -> BoxData:
    """A data set as a caller of the engine loads it: ``engine.data.load`` with the edge's file
    reader (the rules read no file)."""
    loaded = _load(path, stand_in)
    assert isinstance(loaded.value, Box)
    return loaded.value.data


def _load(path: Path | None, stand_in: bool = False) -> gamedata.GameData:
    source = str(path) if path is not None else ("stand-in" if stand_in else "box")
    loaded = gamedata.load(GAME, {"data": source}, read=read_text)
    assert loaded is not None
    return loaded


def _whats(data: BoxData, players: int, **options: Any) -> set[str]:
    return {m.what for m in missing_for(data, players, options)}


def _stand_in_doc() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((DATA / "stand-in.json").read_text(encoding="utf-8"))
    return doc


def _write(tmp_path: Path, doc: dict[str, Any], name: str = "mine.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


def _refused(path: Path) -> InputError:
    with pytest.raises(InputError) as info:
        load_data(path)
    return info.value


# --- the box: what the seed gives ------------------------------------------------------------


def test_box_loads_as_the_seed_gives_it() -> None:
    box = load_data()
    assert (box.name, box.verified, box.stand_in) == ("box", False, False)
    assert load_data() == box  # loaded again: the same data (nothing is cached)
    titles = {t.id: t for t in box.titles}
    assert len(titles) == 14  # the Titles named in §7.1 [L1547-1627]
    assert [t.id for t in box.titles if t.glory is not None] == ["wplywowy"]
    assert titles["wplywowy"].glory == 4  # [L677-679]
    assert titles["dworny"].known is False  # its text is lost
    assert titles["szlachetny"].forbid_allies == ("drab",)
    assert titles["dzielny"].duel is not None and titles["dzielny"].duel.attack == 11
    assert len(box.events) == 12  # [L108]
    assert [e.id for e in box.events if e.round is not None] == ["urodzaj"]  # [L377-379]
    sojusz = [e for e in box.events if e.name == "Sojusz"]
    assert sorted(e.cost.coins for e in sojusz) == [0, 1, 1]  # [L1307-1354]
    assert box.tournaments == () and box.prizes == () and box.solo == ()
    assert box.prices.horse == {2: None, 3: None, 4: None}
    assert all(s.cost is None for s in box.ally_track)
    assert [s.special for s in box.ally_track] == [True, True] + [False] * 7
    assert [s.min_players for s in box.ally_track[2:]] == [1, 1, 1, 1, 1, 3, 4]
    assert all(a.stack is None and a.count is None for a in box.allies)
    assert {f.action for f in box.fields} == {f.id for f in box.fields}  # one field per action
    assert all(f.slot is None for f in box.fields)
    assert box.dice.armour.faces[5] is None
    assert box.standard_prize.coins == 1 and box.standard_prize.glory == 1  # [L117-118]


@pytest.mark.parametrize("stand_in", [False, True])
def test_seed_values_are_kept(stand_in: bool) -> None:
    data = load_data(stand_in=stand_in)
    quests = {q.id: q for q in data.quests}
    opponents = {
        qid: (q.opponent.attack, q.opponent.prestige)
        for qid, q in quests.items()
        if q.opponent is not None
    }
    assert opponents["ratunek"][0] == 7  # [L1445]
    assert opponents["lodewijk-van-gruuthuse"] == (8, 1)  # [L1486]
    assert opponents["ludwig-ii-von-brieg"] == (10, 1)  # [L1495]
    assert opponents["riccio-da-parma"] == (10, 1)  # [L1504]
    assert {t.id: t.glory for t in data.titles}["wplywowy"] == 4
    order = quests["order-zlotego-runa"]
    assert order.cost == 3 and order.rewards is not None
    assert (order.rewards[0].glory, order.rewards[0].prestige) == (3, ("urzad",))
    assert quests["rumak"].cost == 4
    assert quests["ratunek"].rewards is not None
    assert [r.allies or r.faith for r in quests["ratunek"].rewards] == [("mniszka",), 3]
    assert {e.id: e for e in data.events}["urodzaj"].round == 1
    assert data.dice.strength.faces == ("special", 1, 2, 3, 4, 5)
    assert data.dice.armour.faces[:5] == ("special", 0, 1, 2, 3)
    for name in ("Ludwig II von Brieg", "Riccio da Parma", "Dzielny"):
        assert data.knights[name].type == "card"


def test_missing_for_names_what_the_seed_lost() -> None:
    box = load_data()
    found = {m.what: m for m in missing_for(box, 3, {"tournament": "joust"})}
    # Title Glory values: all but Wpływowy's 4 (§7.1, §11.4).
    assert "titles[silny].glory" in found and "titles[wplywowy].glory" not in found
    assert "Wpływowy" in found["titles[silny].glory"].where
    assert "titles[dworny].needs" in found
    # Market prices for Level II-IV of both items (§4.2, §11.5).
    for item in ("horse", "armour"):
        for level in (2, 3, 4):
            assert f"prices.{item}.{level}" in found
    assert "Marketplace" in found["prices.horse.2"].where
    assert "quests[ratunek].opponent.prestige" in found  # "Atak 7" only [L1445]
    assert "quests[lodewijk-van-gruuthuse].opponent.prestige" not in found
    assert "fields[training].slot" in found
    assert "events[krucjata].round" in found and "events[urodzaj].round" not in found
    assert "events[krucjata].reward" in found  # the cut-off tokens
    assert "tournaments (joust, 3 players)" in found
    assert "knights[Zawisza Czarny].attack" in found
    assert "characters[level-2].income" in found
    assert "ally_track[8].cost" not in found  # the 7th stack-I space is for 4 players
    assert "ally_track[7].cost" in found
    assert "prizes" in found
    assert "solo (basic)" not in found and "rival.easy" not in found
    assert "dice.armour.faces[5]" not in found  # only to simulate rolls
    # Every missing value says where it is printed.
    assert all(m.where != DEFAULT_WHERE for m in found.values())


def test_missing_for_asks_only_what_the_options_use() -> None:
    box = load_data()
    first = _whats(box, 2, tournament="joust", first_game=True)
    assert "characters[level-1].coins" in first
    assert "characters[level-2].coins" not in first  # first games use Level I only [L179-182]
    assert "prizes" not in first  # no Prize tokens in a first game [L323-325]
    pas = _whats(box, 2, tournament="pas-d-armes")
    assert "prizes" not in pas and "tournaments (pas-d-armes, 2 players)" in pas
    assert "ally_track[1].cost" not in pas  # one Special space with 1-2 players [L235]
    assert "ally_track[1].cost" in _whats(box, 3, tournament="pas-d-armes")
    solo = _whats(box, 1, tournament="joust", solo="rywal", difficulty="hard")
    assert {"solo (basic)", "rival.hard", "tournaments (joust, 2 players)"} <= solo
    assert "rival.easy" not in solo
    sir = _whats(box, 1, tournament="joust", solo="rywal", sir_knight="Henry V")
    assert "knights[Henry V].attack" in sir and "rival.easy" not in sir
    assert "solo (maz-bozy)" in _whats(
        box, 1, tournament="joust", solo="samotnik", personality="maz-bozy"
    )
    simulated = {m.what for m in missing_for(box, 2, {"tournament": "joust"}, simulate=True)}
    assert "dice.armour.faces[5]" in simulated
    assert table_players(1) == 2  # solo is set up as for two players [L1189]


@pytest.mark.parametrize(
    ("players", "options", "where"),
    [
        (5, {"tournament": "joust"}, "players"),
        (2, {}, "tournament"),
        (2, {"tournament": "joust", "first_game": "yes"}, "first_game"),
        (1, {"tournament": "joust"}, "solo"),
        (2, {"tournament": "joust", "solo": "rywal"}, "solo"),
        (1, {"tournament": "pas-d-armes", "solo": "wojownik"}, "tournament"),
        (1, {"tournament": "joust", "solo": "rywal", "difficulty": "heroic"}, "difficulty"),
        (1, {"tournament": "joust", "solo": "rywal", "sir_knight": "Nobody"}, "sir_knight"),
    ],
)
def test_bad_options_are_refused(players: int, options: dict[str, Any], where: str) -> None:
    with pytest.raises(InputError) as info:
        missing_for(load_data(stand_in=True), players, options)
    assert info.value.path == where


def test_require_complete_refuses_the_box_naming_each_value() -> None:
    with pytest.raises(RuleViolation) as info:
        require_complete(load_data(), 2, {"tournament": "joust"})
    violations = info.value.violations
    assert {v.code for v in violations} == {"data/missing"}
    texts = [violation_text(v) for v in violations]
    assert any("titles[silny].glory" in t for t in texts)
    require_complete(load_data(stand_in=True), 2, {"tournament": "joust"}, simulate=True)


# --- the stand-in: complete, invented -------------------------------------------------------


def test_stand_in_is_marked_invented() -> None:
    data = load_data(stand_in=True)
    assert (data.name, data.stand_in, data.verified) == ("stand-in", True, False)
    assert "NOT THE PRINTED VALUES" in data.notes["stand-in"]
    assert data.incomplete == () and data.missing == {}


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("tournament", ["joust", "pas-d-armes"])
@pytest.mark.parametrize("first_game", [False, True])
def test_stand_in_lacks_nothing(players: int, tournament: str, first_game: bool) -> None:
    data = load_data(stand_in=True)
    options: dict[str, Any] = {"tournament": tournament, "first_game": first_game}
    scenarios = ["samotnik", "rywal"] + (["wojownik"] if tournament == "joust" else [])
    for solo in scenarios if players == 1 else [None]:
        for personality in (None, "wojownik", "maz-bozy") if solo else (None,):
            opts = {**options, "solo": solo, "personality": personality}
            assert missing_for(data, players, opts, simulate=True) == []


def test_stand_in_has_enough_to_play_whole_games() -> None:
    data = load_data(stand_in=True)
    for deck in ("romance", "market", "challenge"):
        assert sum(q.count for q in data.quests if q.deck == deck) >= 12
    assert {e.round for e in data.events} == {1, 2, 3}
    assert all(sum(e.round == r for e in data.events) == 4 for r in (1, 2, 3))
    for players in (1, 2, 3, 4):
        for kind in ("joust", "pas-d-armes"):
            cards = [c for c in data.tournaments if c.type == kind and players in c.players]
            assert len(cards) >= 3
    joust = next(c for c in data.tournaments if c.joust is not None)
    assert joust.joust is not None and joust.joust[0].slots == 8
    assert len(data.prizes) >= 3
    assert [
        sum(s.personality == p for s in data.solo) for p in ("basic", "wojownik", "maz-bozy")
    ] == [9, 2, 2]
    stacks: dict[str | None, int] = {}
    for a in data.allies:
        stacks[a.stack] = stacks.get(a.stack, 0) + (a.count or 0)
    assert stacks["I"] + stacks["II"] + stacks["III"] >= 3 * 7  # three refills at 4 players
    knights = [k for k in data.knights.values() if k.type not in ("card", "sir")]
    assert all(k.attack is not None and 6 <= k.attack <= 12 for k in knights)
    assert all(k.glory is not None and 3 <= k.glory <= 9 for k in knights)
    assert all(
        k.removes is not None and len(k.removes) == 1 for k in knights if k.type == "veteran"
    )


# --- users' files ----------------------------------------------------------------------------


def test_a_partial_file_merges_over_the_box(tmp_path: Path) -> None:
    patch = {
        "extends": "box",
        "name": "my-box",
        "titles": [{"id": "silny", "glory": 5}],
        "prices": {"horse": {"2": 3}},
        "knights": [
            {
                "name": "Zawisza Czarny",
                "type": "polish-nobility",
                "attack": 9,
                "prestige": 2,
                "glory": 7,
                "removes": [],
            }
        ],
        "events": [{"id": "krucjata", "round": 3}],
    }
    data = load_data(_write(tmp_path, patch))
    assert data.name.startswith("my-box@sha256:")
    titles = {t.id: t for t in data.titles}
    assert titles["silny"].glory == 5 and titles["silny"].needs == {"challenges-won": 5}
    assert titles["wplywowy"].glory == 4 and titles["bogaty"].glory is None
    assert data.prices.horse == {2: 3, 3: None, 4: None}
    assert data.knights["Zawisza Czarny"].attack == 9
    assert len(data.knights) == len(load_data().knights)
    found = _whats(data, 2, tournament="joust")
    assert not {"titles[silny].glory", "prices.horse.2", "events[krucjata].round"} & found
    assert "knights[Zawisza Czarny].attack" not in found
    assert {"titles[bogaty].glory", "prices.horse.3", "events[krucjata].reward"} <= found
    # The same content, the same identity; other content, another one.
    assert load_data(_write(tmp_path, patch, "copy.json")).name == data.name
    patch["titles"] = [{"id": "silny", "glory": 6}]
    assert load_data(_write(tmp_path, patch, "other.json")).name != data.name


def test_a_partial_file_can_replace_a_list(tmp_path: Path) -> None:
    card = {
        "id": "giermek",
        "level": 1,
        "coins": 2,
        "strength": 1,
        "faith": 1,
        "glory": 10,
        "horse": 2,
        "armour": 2,
        "titles_drawn": 2,
        "titles_kept": 1,
        "quests": {},
        "special_ally": False,
        "income": {"coins": 2, "strength": 1},
        "count": 4,
    }
    patch = {
        "extends": "box",
        "replace": ["characters"],
        "characters": [card],
        "incomplete": ["quests"],
    }
    data = load_data(_write(tmp_path, patch))
    assert [c.id for c in data.characters] == ["giermek"]
    found = _whats(data, 4, tournament="joust", first_game=True)
    assert not any(w.startswith("characters") for w in found)
    assert "quests" in found and "allies" not in found  # "incomplete" as the file says


def test_a_full_file_round_trips(tmp_path: Path) -> None:
    for stand_in in (False, True):
        data = load_data(stand_in=stand_in)
        again = load_data(_write(tmp_path, dump_data(data), f"full-{stand_in}.json"))
        assert again.name.startswith(f"{data.name}@sha256:")
        assert replace(again, name=data.name) == data


def test_a_file_may_name_dice_and_knights_files_beside_it(tmp_path: Path) -> None:
    (tmp_path / "my-dice.json").write_text((DATA / "dice.json").read_text(encoding="utf-8"))
    patch = {"extends": "stand-in", "dice": "my-dice.json"}
    data = load_data(_write(tmp_path, patch))
    assert data.dice.armour.faces[5] is None
    assert "dice.armour.faces[5]" in {
        m.what for m in missing_for(data, 2, {"tournament": "joust"}, simulate=True)
    }
    missing = _refused(_write(tmp_path, {"extends": "box", "knights": "nowhere.json"}))
    assert missing.code == "input/file"


def _broken(mutate: Any) -> dict[str, Any]:
    doc = _stand_in_doc()
    mutate(doc)
    return doc


def _ally(doc: dict[str, Any], kind: str) -> None:
    doc["quests"][0]["rewards"] = [{"allies": [kind]}]


@pytest.mark.parametrize(
    ("mutate", "code", "path"),
    [
        (lambda d: d["titles"][0].update(glory="four"), "input/schema", "$.titles[0].glory"),
        (lambda d: _ally(d, "smok"), "input/schema", "$.quests[0].rewards[0].allies[0]"),
        (lambda d: d["titles"][1].update(id=d["titles"][0]["id"]), "input/data", "$.titles[1].id"),
        (lambda d: d["quests"].append(dict(d["quests"][0])), "input/data", "$.quests[41].id"),
        (lambda d: d.pop("titles"), "input/schema", "$"),
        (lambda d: d["events"][0].update(round=4), "input/schema", "$.events[0].round"),
        (lambda d: d["prices"]["horse"].update({"5": 9}), "input/schema", "$.prices.horse"),
        (lambda d: d["knights"].append(d["knights"][0]), "input/duplicate", "$.knights[37]"),
        (
            lambda d: d["dice"]["dice"]["armour"]["faces"].__setitem__(5, 7),
            "input/dice",
            "$.dice.dice.armour.faces[5]",
        ),
        (lambda d: d.update(verified=True), "input/data", "$.verified"),
        (
            lambda d: d["ally_track"].append(dict(d["ally_track"][0])),
            "input/data",
            "$.ally_track[9].special",
        ),
        (
            lambda d: d["tournaments"][0].update(players=[5]),
            "input/data",
            "$.tournaments[0].players",
        ),
        (
            lambda d: d["tournaments"][0]["joust"][0]["starting"].update({"8": "king"}),
            "input/data",
            "$.tournaments[0].joust[0].starting.8",
        ),
        (
            lambda d: d["tournaments"][0]["joust"][2].update(after=["king"] * 8),
            "input/data",
            "$.tournaments[0].joust[2]",
        ),
        (lambda d: d["quests"][0].update(cost=2), "input/data", "$.quests[0].cost"),
        (lambda d: d["solo"][1].pop("deck"), "input/data", "$.solo[1].deck"),
        (lambda d: d.update(extra=1), "input/schema", "$"),
    ],
)
def test_a_broken_file_is_refused_with_the_json_path(
    tmp_path: Path, mutate: Any, code: str, path: str
) -> None:
    error = _refused(_write(tmp_path, _broken(mutate)))
    assert (error.code, error.path) == (code, path), error


def test_an_ally_without_a_stock_is_refused(tmp_path: Path) -> None:
    doc = _stand_in_doc()
    doc["allies"] = [a for a in doc["allies"] if a["kind"] != "mniszka"]
    error = _refused(_write(tmp_path, doc))
    assert error.code == "input/data" and "mniszka" in error.detail
    assert error.path.endswith(".allies[0]")


def test_unreadable_files_are_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert _refused(bad).code == "input/json"
    assert _refused(tmp_path / "absent.json").code == "input/file"
    entry = _refused(_write(tmp_path, {"extends": "box", "titles": [{"glory": 5}]}))
    assert (entry.code, entry.path) == ("input/schema", "$.titles[0]")
    new = _refused(_write(tmp_path, {"extends": "box", "titles": [{"id": "nowy"}]}))
    assert new.path == "$.titles[14]" and "merged over box" in new.detail


def test_check_data_accepts_the_shipped_sets() -> None:
    for stand_in in (False, True):
        check_data(load_data(stand_in=stand_in))


def test_the_shipped_sets_follow_the_schema() -> None:
    """A shipped set is not validated at each load (it is checked here once)."""
    for name in ("box.json", "stand-in.json"):
        validate(json.loads((DATA / name).read_text(encoding="utf-8")), "#/$defs/File", name)


def test_the_digest_names_the_content(tmp_path: Path) -> None:
    """A session's log header records the digest: the same content gives the same digest
    whatever the file is called; other content another one; shipped sets differ."""
    stand_in = load_data(stand_in=True)
    first = _load(_write(tmp_path, dump_data(stand_in), "a.json"))
    again = _load(_write(tmp_path, dump_data(stand_in), "b.json"))
    assert first.digest == again.digest and first.digest.startswith("sha256:")
    assert first.source == str(tmp_path / "a.json")
    assert _load(None).digest != _load(None, stand_in=True).digest
    changed = dump_data(stand_in)
    changed["titles"][0]["glory"] = 9
    assert _load(_write(tmp_path, changed, "c.json")).digest != first.digest


def test_a_file_is_read_by_the_caller_never_by_the_engine(tmp_path: Path) -> None:
    path = _write(tmp_path, dump_data(load_data(stand_in=True)))
    with pytest.raises(InputError) as info:
        gamedata.load(GAME, {"data": str(path)})  # no reader handed in
    assert info.value.code == "input/data" and "caller" in info.value.detail


def test_every_null_in_the_box_has_a_note() -> None:
    box = load_data()
    seen: list[Missing] = []
    for players in (1, 2, 3, 4):
        for tournament in ("joust", "pas-d-armes"):
            options: dict[str, Any] = {"tournament": tournament}
            if players == 1:
                options |= {"solo": "rywal", "personality": "wojownik"}
            seen += missing_for(box, players, options, simulate=True)
    assert [m.what for m in seen if m.where == DEFAULT_WHERE] == []


def test_shipped_schema_is_the_schema_the_engine_generates() -> None:
    """data/schema.json documents the file format; regenerate it with
    `python -c "import json; from engine.games.glory.data_schema import data_schema;
    print(json.dumps(data_schema(), indent=2, ensure_ascii=False))"
    > engine/games/glory/data/schema.json`."""
    shipped = json.loads((DATA / "schema.json").read_text(encoding="utf-8"))
    assert shipped == data_schema()


def test_the_shipped_files_name_the_schema() -> None:
    for name in ("box.json", "stand-in.json"):
        doc = json.loads((DATA / name).read_text(encoding="utf-8"))
        assert doc["$schema"] == "schema.json"


def test_the_documented_partial_file_loads(tmp_path: Path) -> None:
    docs = (Path(__file__).parents[3] / "docs" / "glory.md").read_text(encoding="utf-8")
    section = docs.split("### A file of your own", 1)[1]
    example = json.loads(section.split("```json", 1)[1].split("```", 1)[0])
    data = load_data(_write(tmp_path, example))
    found = _whats(data, 2, tournament="joust", first_game=True)
    assert "titles[silny].glory" not in found and "titles[slawny].glory" in found
    assert not any(w.startswith("characters") for w in found)
