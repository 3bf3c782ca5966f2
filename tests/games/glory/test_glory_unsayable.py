"""A Glory card whose printed text the data vocabulary cannot say (issue #24, point 3: "A card
whose text the vocabulary cannot say is named as such, with what is missing, never guessed").

The card carries ``"unsayable": {"printed": …, "missing": …}``; ``data check`` names it as a gap
(in English and Polish), a game is refused while it is there, and the option
``unsayable=leave-out`` plays without it, as if it had stayed in the box."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bridge.cli import main
from engine import data as engine_data
from engine import registry, selfplay
from engine.games.glory.data_missing import missing_for, unsayable_cards, without_unsayable
from engine.games.glory.data_schema import data_schema
from engine.games.glory.data_types import Box
from engine.violations import InputError, RuleViolation

SHIPPED = registry.package_files("glory").joinpath("data")
GAME = registry.get_game("glory")
PRINTED = "Take an ally of your choice from the discard pile"
LACKS = "an ally taken from the discard pile"


def _stand_in() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(SHIPPED.joinpath("stand-in.json").read_text("utf-8"))
    doc["name"] = "ours"
    doc["stand_in"] = False
    return doc


def _mark(doc: dict[str, Any], quest: str) -> dict[str, Any]:
    card = next(q for q in doc["quests"] if q["id"] == quest)
    card["unsayable"] = {"printed": PRINTED, "missing": LACKS}
    card["rewards"] = None  # nothing guessed: the reward stays unknown
    return doc


def _setup(doc: dict[str, Any], players: int = 2, **options: Any) -> Any:
    opts = {"tournament": "joust", **options, "data": doc}
    return GAME.setup(tuple(f"p{i}" for i in range(players)), opts, engine_data.load(GAME, opts))


def test_data_check_names_the_unsayable_card_and_what_is_missing(tmp_path: Path) -> None:
    path = tmp_path / "ours.json"
    path.write_text(json.dumps(_mark(_stand_in(), "gra"), ensure_ascii=False), "utf-8")
    run = CliRunner().invoke(main, ["rules", "glory", "data", "check", "--data", str(path),
                                    "--json"])  # fmt: skip
    assert run.exit_code == 3
    refusals = json.loads(run.stdout)["refusals"]
    assert [r["code"] for r in refusals] == ["data/missing-unsayable"]
    assert refusals[0]["params"]["what"] == "quests[gra]"
    assert PRINTED in refusals[0]["message"] and LACKS in refusals[0]["message"]
    assert "quests[gra].rewards" not in run.stdout  # the mark, not a guess nor a null to fill
    pl = CliRunner().invoke(main, ["rules", "--lang", "pl", "glory", "data", "check", "--data",
                                   str(path)])  # fmt: skip
    said = pl.stdout + pl.stderr
    assert pl.exit_code == 3 and "nie do zapisania" in said and LACKS in said


def test_a_game_with_an_unsayable_card_is_refused_naming_it() -> None:
    with pytest.raises(RuleViolation) as refused:
        _setup(_mark(_stand_in(), "gra"))
    [violation] = refused.value.violations
    assert violation.code == "data/missing-unsayable"
    assert violation.params == {"what": "quests[gra]", "printed": PRINTED, "missing": LACKS}


def test_leave_out_plays_without_the_card() -> None:
    doc = _mark(_stand_in(), "gra")
    doc["knights"][0]["unsayable"] = {"printed": "Ignores the first Faith token", "missing": "x"}
    knight = doc["knights"][0]["name"]
    state = _setup(doc, unsayable="leave-out")
    assert "gra" not in state.quest_decks["romance"]
    assert "gra" not in state.box.quests and knight not in state.box.data.knights
    assert knight not in state.knight_pool
    opts = {"tournament": "pas-d-armes", "data": doc, "unsayable": "leave-out"}
    result = selfplay.play(GAME, ("ann", "bob", "cid"), random.Random(4), opts,
                           check_positions=True, data=engine_data.load(GAME, opts))  # fmt: skip
    assert result.errors == [] and GAME.is_over(result.session.state)


def test_leaving_cards_out_is_refused_when_what_is_left_is_too_little() -> None:
    """Leaving out needs the rest to carry the game: a Challenge deck too small is named."""
    doc = _stand_in()
    for q in doc["quests"]:
        if q["deck"] == "challenge":
            q["unsayable"] = {"printed": "…", "missing": "…"}
    with pytest.raises(RuleViolation) as refused:
        _setup(doc, players=3, unsayable="leave-out")
    assert [v.params["what"] for v in refused.value.violations] == ["quests (challenge)"]


def test_without_unsayable_keeps_every_other_card() -> None:
    doc = _mark(_stand_in(), "gra")
    doc["titles"][0]["unsayable"] = {"printed": "…", "missing": "…"}
    data: Box = engine_data.load(GAME, {"data": doc}).value
    marked = [what for what, _ in unsayable_cards(data.data)]
    assert marked == [f"titles[{doc['titles'][0]['id']}]", "quests[gra]"]
    rest = without_unsayable(data.data)
    assert len(rest.quests) == len(data.data.quests) - 1
    assert len(rest.titles) == len(data.data.titles) - 1
    assert rest.characters == data.data.characters and rest.knights == data.data.knights
    assert missing_for(rest, 2, {"tournament": "joust"}) == []


@pytest.mark.parametrize(
    "mark",
    [{"printed": "…"}, {"printed": "…", "missing": "…", "guess": {"coins": 2}}, "cannot say"],
)
def test_the_mark_says_the_printed_text_and_what_is_missing_nothing_else(mark: Any) -> None:
    doc = _stand_in()
    doc["quests"][0]["unsayable"] = mark
    with pytest.raises(InputError) as refused:
        engine_data.load(GAME, {"data": doc})
    assert refused.value.path.startswith("$.quests[0].unsayable")


def test_a_blank_mark_is_refused_naming_where() -> None:
    doc = _stand_in()
    doc["quests"][0]["unsayable"] = {"printed": "Take an ally", "missing": " "}
    doc["knights"][1]["unsayable"] = {"printed": "", "missing": "a rule for it"}
    with pytest.raises(InputError) as refused:
        engine_data.load(GAME, {"data": doc})
    paths = {path for path, _ in refused.value.faults}
    assert paths == {"$.quests[0].unsayable.missing",
                     f"$.knights[{doc['knights'][1]['name']}].unsayable.printed"}  # fmt: skip


def test_no_free_text_the_rules_read() -> None:
    """Every field of a Glory card the rules read is a number, a yes/no or a choice from the
    vocabulary (an enum); the only free strings are a component's id and printed name (which
    name it, never say what it does), where its value was read (``source``/``missing``) and
    the unsayable mark's own text."""
    schema = data_schema()["$defs"]
    free = {"id", "name", "source", "missing", "printed"}
    cards = ("CharacterCard", "TitleCard", "QuestCard", "KnightData", "EventCard", "PrizeToken",
             "TournamentCard", "JoustSection", "PasSection", "Reward", "Opponent", "Upgrade",
             "TitleDraw", "AllyStock", "TrackSpace", "ActionField", "SoloCard", "Prices",
             "Unsayable")  # fmt: skip

    def strings(node: Any) -> bool:
        text = json.dumps(node)
        return '"type": "string"' in text and '"enum"' not in text

    found = {
        (name, prop)
        for name in cards
        for prop, node in schema[name]["properties"].items()
        if strings(node) and prop not in free
    }
    assert found == set()
    copy_ = copy.deepcopy(schema["QuestCard"])
    copy_["properties"]["effect"] = {"type": "string"}
    assert strings(copy_["properties"]["effect"])  # the check sees a free-text field
