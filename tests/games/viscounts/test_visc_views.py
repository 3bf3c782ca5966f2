"""What the table display and the phones are given (issue 14, "At the table"): the circular board
part by part, the Building strips with the abilities they uncover, the end trigger's last round,
and each option's preview with what it yields (the component it names, Silver, resources,
Virtue, Corruption, VP), in English and Polish."""

from __future__ import annotations

from dataclasses import replace

import pytest
from visc_registered import registered
from visc_support import DATA, started

from engine.games.viscounts import turn, views
from engine.games.viscounts.describe import ability_text, effect_text
from engine.games.viscounts.game import GAME
from engine.games.viscounts.moves import Build, Travel
from engine.games.viscounts.preview import preview, previews
from engine.games.viscounts.state import Turn, VState


@pytest.fixture(autouse=True)
def _catalog() -> object:
    with registered() as game:
        yield game


def test_the_board_part_by_part_with_viscounts_sites_and_buildings() -> None:
    """Digest §2: five parts, each with its towns (the Viscounts standing there) and building
    sites (the Building on each, by owner and kind)."""
    state = started(2)
    state = state.with_player(0, town="inner-2", built=(("workshop", 0, "site-2-1"),))
    state = replace(state, sites={"site-2-1": 0})
    board = views.view(state, None)["board"]
    assert [p["part"] for p in board] == [0, 1, 2, 3, 4]
    here = {t["town"]: t["viscounts"] for p in board for t in p["towns"]}
    assert here["inner-2"] == ["ann"]
    assert [s for p in here.values() for s in p].count("bob") == 1
    site = next(s for p in board for s in p["sites"] if s["site"] == "site-2-1")
    assert (site["owner"], site["building"]) == ("ann", "workshop")
    assert all(s["owner"] is None for p in board for s in p["sites"] if s["site"] != "site-2-1")


def test_the_strip_says_what_each_building_uncovers() -> None:
    """§5.2: a Building taken off the strip uncovers the ability under its space."""
    state = started(2).with_player(0, built=(("guildhall", 1, "site-0-0"),))
    strip = views.view(state, None)["players"][0]["strip"]
    assert len(strip) == 9
    built = [b for b in strip if b["site"]]
    assert built == [{"building": "guildhall", "position": 1, "site": "site-0-0",
                      "ability": ability_text(DATA.buildings[2].abilities[1], "en")}]  # fmt: skip
    assert all(b["ability"] for b in strip)
    polish = views.view(state, None, "pl")["players"][0]["strip"]
    assert polish[7]["ability"] == ability_text(DATA.buildings[2].abilities[1], "pl")


def test_the_last_round_once_poverty_or_prosperity_is_uncovered() -> None:
    """§1: the round in which Poverty or Prosperity is uncovered is finished and one more is
    played; that one is the last (a simulated table's round cap is a last round too)."""
    state = replace(started(2), round=3)
    assert views.view(state, None)["last_round"] is False
    assert views.view(replace(state, end_round=4, poverty=True), None)["last_round"] is False
    assert views.view(replace(state, end_round=3, poverty=True), None)["last_round"] is True
    capped = replace(state, options={**state.options, "max_rounds": 3})
    assert views.view(capped, None)["last_round"] is True


def _at_action(town: str, **res: int) -> VState:
    state = started(2)
    state = state.with_player(0, town=town, board=("baker", "abbot", None), **res)
    return replace(state, phase="action", current=Turn(played="baker"))


def test_a_build_previews_its_site_bonus_the_ability_it_uncovers_and_what_it_yields() -> None:
    """A Build option names the Building, the site's bonus and the ability its strip space
    uncovers, and its lines are the seat's real changes (here Stone paid, the bonus's track
    move, the Building's VP)."""
    state = _at_action("outer-0-right", stone=3, silver=1)
    move = Build("ann", "workshop", 0, "site-0-2")
    shown = preview(state, move, "ann")
    assert shown is not None
    site = next(s for s in DATA.board.sites if s.id == "site-0-2") if DATA.board else None
    assert site is not None and site.bonus is not None
    assert f"site bonus: {effect_text(site.bonus, 'en')}" in shown["text"]
    assert f"uncovers: {ability_text(DATA.buildings[0].abilities[0], 'en')}" in shown["text"]
    after = GAME.apply_unchecked(state, move)
    a, b = state.players[0], after.players[0]
    expected = {w: b.amount(w.lower()) - a.amount(w.lower())
                for w in ("Silver", "Stone", "Virtue", "Corruption")}  # fmt: skip
    said = {line["text"]: line["amount"] for line in shown["lines"]}
    assert {k: v for k, v in said.items() if k != "VP"} == {k: v for k, v in expected.items() if v}
    assert said["VP"] > 0  # the first Workshop scores
    polish = preview(state, move, "ann", "pl")
    assert polish is not None and "premia pola" in polish["text"]


def test_a_move_previews_the_town_s_exchange_and_deck_and_a_prompt_previews_alike() -> None:
    """§5.1: the town reached says what its exchange trades and which Townsfolk lies there; the
    whole-prompt verb gives each option what the one-move verb gives."""
    state = started(2)
    state = state.with_player(0, town="outer-0-left", board=("abbot", None, None))
    state = replace(state, phase="move", current=Turn(played="abbot"))
    moves = turn.legal_moves(state)
    assert moves and all(isinstance(m, Travel) for m in moves)
    assert previews(state, moves, "ann") == [preview(state, m, "ann") for m in moves]
    to_right = next(m for m in moves if m.town == "outer-0-right")
    shown = preview(state, to_right, "ann")
    assert shown is not None
    top = views.view(state, "ann")["names"][state.decks[0][0]]
    assert shown["text"] == (
        f"trade 2 Merchants for 1 resource of your choice; Townsfolk deck here: {top}"
    )
