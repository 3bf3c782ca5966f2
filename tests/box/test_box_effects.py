"""Viscounts cards entered by choosing effects (issue #24 point 3): the effect vocabulary as data
for the box page's picker, read back by the grammar; refusals that say what can be said; the
condition-gated symbol `3+ villain -> 1 noble` (VW-64); a card whose printed text cannot be said
is a named gap, never guessed."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from bridge.box.file import box_data, read_box
from bridge.box.report import checked
from bridge.box.workshop import Draft, parse_draft, report
from bridge.seats import seat_names
from bridge.web.app import WebConfig, WebTable
from engine import registry, selfplay
from engine.capabilities import EFFECT_VOCABULARY, capability
from engine.games.viscounts import effects as fx
from engine.games.viscounts import symbols as sym
from engine.games.viscounts.data import data_gaps, parse_doc, refusals
from engine.games.viscounts.effects import (
    Ability,
    Condition,
    EffectError,
    Symbols,
    parse_ability,
    parse_effect,
)
from engine.games.viscounts.schemas import DATA_SCHEMA
from engine.games.viscounts.vocabulary import (
    effect_paths,
    fields_of,
    parse_at,
    read,
    text_from_fields,
    text_of,
    vocabulary,
)
from engine.i18n import violation_text
from tests.server.srv_support import open_referee

DATA = Path(fx.__file__).parent / "data"
SLOTS = ("effect", "immediate", "persistent", "push-off", "scheme", "scoring")


def _stand_in() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((DATA / "stand-in-invented.json").read_text("utf-8"))
    return doc


def _at(doc: Any, path: str) -> Iterator[Any]:
    """The values at a vocabulary path (``townsfolk[].ability``) of a data document."""
    nodes = [doc]
    for token in path.replace("[]", ".[]").split("."):
        if not token:
            continue
        nxt: list[Any] = []
        for node in nodes:
            if token == "[]":
                nxt.extend(node if isinstance(node, list) else [])
            elif isinstance(node, dict) and token in node:
                nxt.append(node[token])
        nodes = nxt
    yield from (n for n in nodes if isinstance(n, str))


def _place(slot: str) -> str:
    return "ability" if slot in fx.TIMINGS else slot


def _fields(slot: str, reward: list[dict[str, Any]] | None = None, **more: Any) -> dict[str, Any]:
    timing = slot if slot in fx.TIMINGS else None
    return {"timing": timing, "conversion": None, "left": [], "reward": [reward or []], **more}


def _parse(slot: str, text: str) -> Any:
    return parse_at(_place(slot), text, "Test card", "test")


# --- the vocabulary is the grammar ------------------------------------------------------------


def test_every_effect_of_the_stand_in_set_round_trips_through_the_pickers_fields() -> None:
    """text -> parse -> picker fields -> text -> parse gives the same effect, for every effect
    field the schema marks (x-effect) in the complete stand-in set."""
    doc = _stand_in()
    seen = 0
    for field in effect_paths(DATA_SCHEMA):
        for text in _at(doc, field["path"]):
            parsed = parse_at(field["place"], text, "card", field["path"])
            again = text_from_fields(json.loads(json.dumps(fields_of(parsed))))
            assert parse_at(field["place"], again, "card", field["path"]) == parsed, text
            assert text_of(parsed) == again
            seen += 1
    assert seen > 150  # every Townsfolk, Manuscript, Building, Castle section, track space...


def _entries(kind: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = vocabulary("en")[kind]
    return found


def _every_item(entry: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The entry with each allowed value of each field in turn (numbers 2)."""
    base: dict[str, Any] = {"kind": entry["id"]}
    for f in entry["fields"]:
        base[f["name"]] = 2 if f["kind"] == "number" else f["values"][0]["id"]
    yield base
    for f in entry["fields"]:
        for value in f.get("values", []):
            yield {**base, f["name"]: value["id"]}


def test_every_atom_of_the_vocabulary_reads_where_it_says_and_is_refused_elsewhere() -> None:
    for entry in _entries("atoms"):
        for slot in SLOTS:
            for item in _every_item(entry):
                text = text_from_fields(_fields(slot, [item]))
                if slot in entry["where"]:
                    parsed = _parse(slot, text)
                    assert fields_of(parsed)["reward"] == [[item]] or entry["id"] in ("gain", "vp")
                else:
                    with pytest.raises(EffectError):
                        _parse(slot, text)


def test_every_left_item_of_the_vocabulary_reads_where_it_says() -> None:
    reward = [{"kind": "gain", "amount": 1, "what": "silver", "per": None}]
    for entry in _entries("left"):
        for slot in ("effect", "immediate", "persistent", "scheme"):
            for item in _every_item(entry):
                text = text_from_fields(_fields(slot, reward, left=[item]))
                if slot in entry["where"]:
                    assert fields_of(_parse(slot, text))["left"] == [item]
                else:
                    with pytest.raises(EffectError):
                        _parse(slot, text)


def test_every_word_the_grammar_knows_is_offered_by_the_vocabulary() -> None:
    """And vice versa: nothing the parser accepts is missing from the picker."""
    atoms = {e["id"]: e for e in _entries("atoms")}
    lefts = {e["id"]: e for e in _entries("left")}

    def values(entry: dict[str, Any], name: str) -> set[str]:
        return {v["id"] for f in entry["fields"] if f["name"] == name for v in f["values"]}

    assert set(fx.ACTIONS) | set(fx.AI_ACTIONS) | set(fx.MODIFIERS) <= set(atoms)
    assert values(atoms["gain"], "what") == set(fx.GAINS)
    assert values(atoms["gain"], "per") == values(atoms["vp"], "per") == set(fx.COUNTERS)
    assert values(atoms["symbols"], "symbol") == set(fx.SYMBOLS)
    assert values(atoms["flip"], "what") == set(fx.FLIPS)
    assert values(atoms["free-build"], "building") == {*fx.BUILDINGS, "any"}
    assert values(lefts["event"], "event") == set(fx.EVENTS)
    assert values(lefts["cost"], "what") == set(fx.COSTS)
    assert values(lefts["give-up"], "action") == {"discard", "destroy"}
    assert [t["id"] for t in vocabulary("en")["timings"]] == list(fx.TIMINGS)
    conversion = vocabulary("en")["conversion"]
    assert conversion["where"] == ["persistent"]
    conversion = {"give_amount": 2, "give": "merchant", "get_amount": 1, "get": "cleric"}
    made = text_from_fields({"timing": "persistent", "conversion": conversion})
    assert made == "persistent: 2 merchant -> 1 cleric"
    assert fields_of(parse_ability(made, "Traveller"))["conversion"] == conversion


def test_the_vocabulary_is_labelled_in_english_and_polish() -> None:
    for lang in ("en", "pl"):
        v = vocabulary(lang)
        labels = [e["label"] for k in ("atoms", "left") for e in v[k]]
        labels += [f["label"] for k in ("atoms", "left") for e in v[k] for f in e["fields"]]
        labels += [x["label"] for k in ("atoms", "left") for e in v[k] for f in e["fields"]
                   for x in f.get("values", [])]  # fmt: skip
        labels += [t["label"] for t in v["timings"]] + [p["label"] for p in v["places"]]
        assert all(label and "vocab/" not in label and "fx/" not in label for label in labels)
    assert vocabulary("en")["timings"][0]["label"] != vocabulary("pl")["timings"][0]["label"]


def test_the_effect_fields_come_from_the_schema() -> None:
    paths = {p["path"]: p["place"] for p in effect_paths(DATA_SCHEMA)}
    assert paths["townsfolk[].ability"] == "ability"
    assert paths["townsfolk[].hire"] == "effect"
    assert paths["manuscripts[].scoring"] == "scoring"
    assert paths["schemes[].steps[]"] == "scheme"
    assert paths["buildings[].abilities[]"] == "ability"
    assert paths["church_favour[].ability"] == "ability"
    assert paths["castle.level2[]"] == paths["track.above[]"] == "effect"


# --- what cannot be said ----------------------------------------------------------------------


def test_a_refusal_says_what_the_vocabulary_can_express_there() -> None:
    """Issue #24 found: `3+ villain -> 1 noble` refused with a misleading `effect/bad-amount`."""
    for text in ("immediate: 3+ villain -> 1 noble",):
        with pytest.raises(EffectError) as caught:
            parse_ability(text, "Thug")
        err = caught.value
        assert err.message_code == "viscounts:effect/symbols-persistent"
        assert "N merchant|builder|noble|cleric|villain" not in err.forms  # not at this timing
        assert "N silver|ink|stone|gold|resource|virtue|corruption|debt|deed" in err.forms
        assert "forms" not in err.params
        for lang in ("en", "pl"):
            assert "free-hire" in err.text(lang) and "Thug" in err.text(lang)
    with pytest.raises(EffectError) as left:
        parse_ability("persistent: 3 villains -> 1 ink", "Thug")
    assert left.value.message_code == "viscounts:effect/left-side"
    assert "N+ SYMBOL" in left.value.forms and "no SYMBOL" in left.value.forms
    assert any("on collision" in f for f in left.value.forms)
    with pytest.raises(EffectError) as here:
        parse_effect("1 vp", "Ms", "effect")
    assert here.value.message_code == "viscounts:effect/not-here"
    assert "N vp" not in here.value.forms and "shuffle-in" in here.value.forms


def test_the_live_read_answers_a_sentence_or_the_refusal_in_both_languages() -> None:
    good = read("ability", "Persistent:  3+ villain -> 1 NOBLE", "Thug", "en")
    assert good["ok"] and good["text"] == "persistent: 3+ villain -> 1 noble"
    assert "3 Villain symbols" in good["sentence"] and "Noble" in good["sentence"]
    assert "Złoczyńcy" in read("ability", good["fields"], "Thug", "pl")["sentence"]
    bad = read("effect", "3+ villain -> 1 noble", "Thug", "pl")
    assert not bad["ok"] and "Thug" in bad["message"] and "Słownik efektów" in bad["message"]
    assert "flip [N] debt|deed|debt-or-deed" in bad["forms"]
    assert read("nowhere", "1 ink", "", "en")["ok"] is False


# --- VW-64: a condition-gated symbol -----------------------------------------------------------


def test_vw64_a_condition_gates_a_persistent_symbol() -> None:
    """Seed L280-283: left of the arrow "koszt, akcja, warunek lub zdarzenie", right "nagroda lub
    inny efekt"; a persistent ability gives symbols while the card lies there (L526, L517)."""
    gated = parse_ability("persistent: 3+ villain -> 1 noble", "Thug")
    assert gated == Ability(
        "persistent",
        fx.Effect(((Symbols("noble", 1),),), None, (Condition("villain", 3),)),
    )
    three = sym.supply([["villain", "villain"], ["villain"]], [gated])
    two = sym.supply([["villain", "villain"], ["merchant"]], [gated])
    assert three.plain("noble") == 1 and two.plain("noble") == 0


def test_vw64_gated_symbols_never_feed_another_condition() -> None:
    first = parse_ability("persistent: 1+ merchant -> 1 villain", "A")
    second = parse_ability("persistent: 1+ villain -> 1 noble", "B")
    s = sym.supply([["merchant"]], [first, second])
    assert s.plain("villain") == 1 and s.plain("noble") == 0  # not in either order
    s = sym.supply([["merchant"]], [second, first])
    assert s.plain("villain") == 1 and s.plain("noble") == 0


def test_vw64_symbols_after_an_event_or_a_cost_are_refused() -> None:
    for text in ("persistent: after trade -> 1 noble", "persistent: 1 silver -> 1 noble"):
        with pytest.raises(EffectError) as caught:
            parse_ability(text, "Broker")
        assert caught.value.message_code == "viscounts:effect/symbols-gated"
        assert "Broker" in caught.value.text("pl")


# --- a card the vocabulary cannot say --------------------------------------------------------


def _unsayable_doc() -> dict[str, Any]:
    doc = copy.deepcopy(_stand_in())
    card = doc["townsfolk"][0]
    card["ability"] = None
    card["unsayable"] = {"printed": "swap two cards between players",
                         "missing": "an action on another player's board"}  # fmt: skip
    return doc


def test_an_unsayable_card_is_a_named_gap_and_the_box_does_not_start() -> None:
    doc = _unsayable_doc()
    card = doc["townsfolk"][0]
    data = parse_doc(doc)
    gaps = [g for g in data_gaps(data) if g.code == "data/missing-vocabulary"]
    assert [g.what for g in gaps] == [f"townsfolk[{card['id']}]"]
    for lang in ("en", "pl"):
        sentence = violation_text(gaps[0].violation(), lang)
        assert card["id"] in sentence and "swap two cards" in sentence
        assert "another player's board" in sentence
    assert any(v.code == "data/missing-vocabulary" for v in refusals(data, 2))
    assert not refusals(parse_doc(_stand_in()), 2)
    draft = parse_draft({"game": "viscounts", "name": "ours", "main": "ours.json",
                         "files": {"ours.json": doc}})  # fmt: skip
    page = report(draft, "en")  # the box page's check: a gap to complete, not a broken rule
    assert page["ok"] and page["playable"] == [] and page["missing"] == 1
    assert page["gaps"][0]["what"] == f"townsfolk[{card['id']}]"


def test_unsayable_needs_the_printed_text_and_what_is_missing() -> None:
    doc = _unsayable_doc()
    del doc["townsfolk"][0]["unsayable"]["missing"]
    with pytest.raises(Exception, match="missing"):
        parse_doc(doc)


# --- the page's route ------------------------------------------------------------------------


@pytest.fixture
def client(tmp_path: Path) -> Iterator[tuple[FlaskClient, str]]:
    referee = open_referee(tmp_path / "t.db")
    web = WebTable(referee, WebConfig(), box_library=tmp_path / "t.db.boxes")
    yield web.app.test_client(), f"/api/box/{referee.row.tokens.host}"
    referee.store.close()


def test_the_route_offers_the_vocabulary_and_reads_an_effect(
    client: tuple[FlaskClient, str],
) -> None:
    http, api = client
    vocab = http.get(f"{api}/effects/viscounts?lang=pl").get_json()
    assert {"atoms", "left", "timings", "paths", "conversion"} <= set(vocab)
    assert vocab["timings"][0]["label"] == "po zagraniu (natychmiastowa)"
    fields = {"timing": "immediate", "left": [],
              "reward": [[{"kind": "gain", "amount": 2, "what": "silver"}]]}  # fmt: skip
    reply = http.post(f"{api}/effects/viscounts", json={"place": "ability", "fields": fields})
    assert reply.get_json()["text"] == "immediate: 2 silver"
    asked = {"place": "effect", "text": "3+ villain -> 1 noble"}
    refused = http.post(f"{api}/effects/viscounts?lang=en", json=asked).get_json()
    assert not refused["ok"] and "What the vocabulary can say here" in refused["message"]
    assert http.post(f"{api}/effects/viscounts", json={"place": 3}).status_code == 400
    assert http.get(f"{api}/effects/france1429").status_code == 404
    assert http.get("/api/box/forged/effects/viscounts").status_code == 403


def test_only_viscounts_offers_the_capability_today() -> None:
    games = registry.game_keys()
    offering = [k for k in games if capability(registry.get_game(k), EFFECT_VOCABULARY)]
    assert offering == ["viscounts"]


def test_vw64_whole_games_on_a_box_with_gated_symbols_play_without_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The referee on a box whose hired Townsfolk gate their symbols on conditions: random whole
    games with every position checked, 0 errors, the gated symbols judged on the way."""
    doc = _stand_in()
    gated = ("persistent: 1+ villain -> 1 noble", "persistent: no villain -> 1 merchant",
             "persistent: 2+ merchant -> 1 cleric, 1 builder")  # fmt: skip
    for i, card in enumerate(c for c in doc["townsfolk"] if c["deck"] != "starting"):
        card["ability"] = gated[i % len(gated)]
    judged: list[bool] = []
    holds = sym._holds

    def spied(s: sym.Supply, c: Condition) -> bool:
        judged.append(holds(s, c))
        return judged[-1]

    monkeypatch.setattr(sym, "_holds", spied)
    game = registry.get_game("viscounts")
    box = read_box(Draft("viscounts", "gated", "data.json", {"data.json": doc}).box().to_bytes())
    _, plays = checked(game, box, "gated")
    assert plays.playable == (1, 2, 3, 4)
    data = box_data(game, box, "gated")
    rng = random.Random(64)
    for players in (2, 4):
        options = selfplay.setups(game, players, {"data": "gated"})[0].options
        result = selfplay.play(game, seat_names(players), rng, options, check_positions=True,
                               data=data)  # fmt: skip
        assert result.errors == [], result.errors
        assert game.is_over(result.session.state)
    assert True in judged and False in judged  # gated symbols were given and withheld
