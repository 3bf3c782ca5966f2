"""What France 1429's view gives the pages (issue 13, "Table display"): the map's drawing fixed
at setup, the battle panel's numbers as the rules count them (digest §9.2 [EN p.12 §6.1; PL
§6.1], the Grady/David example), alliances by marriage (§1.1), and who may seal a vote while
what was sealed stays with its family until the reveal (§10.2)."""

from __future__ import annotations

import json
from dataclasses import replace

from frcore_builders import SEATS, data, lord, table
from test_game_battles import _stronghold_siege
from test_game_elections import _sigy

from engine import present, rules
from engine.games.france1429 import GAME, views
from engine.games.france1429.geography import parse_map
from engine.games.france1429.map_layout import arrange
from engine.games.france1429.map_view import map_view
from engine.games.france1429.moves import Candidate, Done, Vote
from engine.games.france1429.state import Battle, Election


def test_the_drawing_places_every_village_inside_it_and_keeps_the_typed_shape() -> None:
    m = data().map
    drawing = map_view(m)
    assert [s.id for s in drawing.villages] == list(dict.fromkeys(v.id for v in m.villages))
    for spot in drawing.villages:
        assert 0 < spot.x < drawing.width and 0 < spot.y < drawing.height
    assert {s.name for s in drawing.villages} == {v.name for v in m.villages}
    # the typed positions keep their order left to right (a uniform scale, as map_svg draws)
    unit = arrange(m)
    by_x = sorted(drawing.villages, key=lambda s: (s.x, s.id))
    assert [s.id for s in by_x] == sorted(unit, key=lambda i: (unit[i][0], i))
    assert {f.id for f in drawing.fiefs} == {f.id for f in m.fiefs}
    assert {a.id for a in drawing.bishoprics} == {str(b.number) for b in m.bishoprics}
    assert all(f.fill.startswith("M") and f.border for f in drawing.fiefs)


def test_a_map_without_positions_is_laid_out_once_at_setup() -> None:
    """The box map carries no position: the drawing is laid out at setup and kept in the
    state, so the view only copies it."""
    with open(_box_map(), encoding="utf-8") as f:
        m = parse_map(json.load(f), trusted=True)
    drawing = map_view(m)
    assert len(drawing.villages) == len(m.villages)
    state = table()
    assert state.rules.drawing == map_view(data().map)
    shown = views.view(state, None)["map"]
    assert [v["id"] for v in shown["villages"]] == [s.id for s in state.rules.drawing.villages]
    assert shown["roads"] == [list(r) for r in state.rules.roads]
    # a seat's view travels whole on every move: it leaves the unchanging drawing out
    assert views.view(state, "grady")["map"] is None


def _box_map() -> str:
    from engine.registry import package_files

    return str(package_files("france1429").joinpath("data", "map-box.json"))


def test_the_battle_panel_counts_strength_points_and_dice_as_the_example() -> None:
    """§9.2 example: Grady's 15 SP against David in his Stronghold: 3 dice - 1 = 2; David's
    2 MaA + 3 Knights + his Lord = 12 SP, 2 dice."""
    state = replace(_stronghold_siege(), battle=Battle("grady", "david", "l-epervier"))
    panel = views.view(state, None)["battle"]
    assert panel["village"] == "l-epervier" and panel["fort"] == "stronghold"
    assert (panel["attacker"]["sp"], panel["attacker"]["dice"]) == (15, 2)
    assert (panel["defender"]["sp"], panel["defender"]["dice"]) == (12, 2)
    assert panel["attacker"]["lords"] == ["beaudoin"]
    owing = replace(state, battle=Battle("grady", "david", "l-epervier", "losses",
                                         {"david": 4, "grady": 5}, ("grady",)))  # fmt: skip
    panel = views.view(owing, None)["battle"]
    assert panel["attacker"]["owing"] and not panel["defender"]["owing"]
    assert (panel["attacker"]["hits"], panel["defender"]["hits"]) == (5, 4)
    assert views.view(table(), None)["battle"] is None


def test_alliances_are_pairs_of_married_families_with_four_players_or_more() -> None:
    """§1.1: two families allied by marriage win together with 4 VP; no alliance with 3."""
    state = lord(lord(table(), "charles", "grady", "bourg"), "blanche", "david", "vaux")
    state = state.with_lord(replace(state.lord("charles"), spouse="blanche"))
    state = state.with_lord(replace(state.lord("blanche"), spouse="charles"))
    shown = views.view(state, None)
    assert shown["alliances"] == [sorted(["grady", "david"])]
    assert shown["thresholds"] == {"solo": 3, "alliance": 4}
    three = replace(state, seats=SEATS[:3])
    assert views.view(three, None)["thresholds"]["alliance"] is None


def test_who_may_vote_is_public_what_was_sealed_is_not() -> None:
    """§10.2 with the Sigy example (§10.3): every family sees who has sealed; only the sealing
    family sees its markers, until the reveal shows them all."""
    state = replace(_sigy(), election=Election("bishop", 5), offices=("pope", "king"))
    state = rules.apply(GAME, state, Candidate("grady", "francois"))
    state = rules.apply(GAME, state, Candidate("david", "thierry"))
    state = rules.apply(GAME, state, Done("kirsten"))
    state = rules.apply(GAME, state, Done("gunter"))
    assert views.view(state, None)["election"]["voters"] == ["grady", "david", "kirsten"]
    state = rules.apply(GAME, state, Vote("grady", 1, 2))
    public = present.view(GAME, state, None)
    assert public["sealed"]["committed"] == ["grady"]
    assert "yours" not in public["sealed"] and public["last_election"] is None
    for seat in SEATS:
        seen = present.view(GAME, state, seat).get("sealed", {})
        assert ("yours" in seen) == (seat == "grady")
    state = rules.apply(GAME, state, Vote("david", 2))
    state = rules.apply(GAME, state, Vote("kirsten", 1))
    revealed = views.view(state, None)["last_election"]
    assert ["grady", "francois", "thierry"] in revealed["markers"]


def test_every_phase_and_card_has_words_on_the_pages_in_every_language() -> None:
    """The pages name the phase in large type and each card of a hand with its effect and when
    it may be played: from the catalog, in English and Polish, never a slug."""
    from typing import get_args

    from engine.games.france1429.state import Phase
    from engine.i18n import LANGUAGES, catalog

    effects = {c.effect for c in data().box.cards}  # a hand holds cards by effect (Rules)
    assert effects
    for lang in LANGUAGES:
        words = catalog(lang)
        for phase in get_args(Phase):
            assert f"france1429:ui/phase-{phase}" in words, (lang, phase)
        for effect in effects:
            for part in ("", "-effect", "-when"):
                assert f"france1429:ui/card-{effect}{part}" in words, (lang, effect, part)
