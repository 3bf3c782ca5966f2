"""The eight estate effects and incomes of the Middle Ages digest, §5 (rules/fief_tiles.md).

Every test is one turn: Blue (leftmost Lord, round 1) takes the given tile; the effect is
resolved completely and then the estate's income is paid [L148-156, L209-210]. The expected coins
are worked out by hand from §5 in each docstring.
"""

from __future__ import annotations

from dataclasses import replace

from ma_builders import (
    SEATS3,
    G,
    board,
    codes,
    coins_of,
    counts,
    play,
    set_player,
    tile,
    turn_position,
)

from engine.games.middle_ages.components import ESTATES
from engine.games.middle_ages.income import income_line
from engine.games.middle_ages.moves import MoveLord, PlaceCoin, PlaceScout, PlaceStory, ReturnTile
from engine.games.middle_ages.state import Pos


def test_field_effect_and_income():
    """Field [L214-216, L233-237]: +1 per Farmer on any tile of the board (Field 1 + Village 1 +
    new Field 0 = 2), then 2 per Field (2 Fields = 4; the 2 Walls do not count here): +6."""
    state = turn_position(
        tile("Field", 3),
        boards={
            "blue": board(
                Field=[tile("Field", 1, farmers=1)],
                Walls=2,
                Village=[tile("Village", 2, farmers=1)],
            )
        },
    )
    state = play(state, MoveLord("blue", 1))
    assert state.player("blue").coins == 2 + 4
    assert [line.amount for line in G.income(state, "blue")] == [2, 4]


def test_mill_payers_pay_what_they_have():
    """Mill [L218-219, L239-243] with coin_debt 'cap' (§12.5 decision): Green (0 Mills, 1 coin)
    pays 1, Pink (0 Mills, 0 coins) pays 0; Blue +1 + 2 × 1 = 3."""
    state = turn_position(tile("Mill", 3), coins={"green": 1})
    state = play(state, MoveLord("blue", 1))
    assert coins_of(state) == {"blue": 3, "green": 0, "pink": 0}


def test_mill_with_negative_coins_option():
    """Mill [L218-219] with coin_debt 'negative': both pay 2 in full: Blue +4 + 2 = 6."""
    state = turn_position(tile("Mill", 3), coins={"green": 1}, coin_debt="negative")
    state = play(state, MoveLord("blue", 1))
    assert coins_of(state) == {"blue": 6, "green": -1, "pink": -2}


def test_mill_nobody_fewer_pays_nothing():
    """Mill [L218-219]: Blue's 1 Mill equals Green's and Pink's, so nobody pays: income 2."""
    state = turn_position(
        tile("Mill", 3),
        boards={"green": board(Mill=1), "pink": board(Mill=3)},
        coins={"green": 4, "pink": 4},
    )
    state = play(state, MoveLord("blue", 1))
    assert coins_of(state) == {"blue": 2, "green": 4, "pink": 4}


def test_village_choice_among_graveyard_tiles():
    """Village [L221-224, L245-249]: Blue picks which graveyard tile to return (each one is a legal
    choice); a Market back on the board does not count for Village: 2 × (Village 2 + Walls 1)."""
    market, mill = tile("Market", 5), tile("Mill", 6)
    state = turn_position(
        tile("Village", 3),
        boards={"blue": board(Village=1, Walls=1)},
        graveyards={"blue": [market, mill]},
    )
    state = play(state, MoveLord("blue", 1))
    assert set(G.legal_moves(state)) == {ReturnTile("blue", market), ReturnTile("blue", mill)}
    state = play(state, ReturnTile("blue", market))
    blue = state.player("blue")
    assert blue.coins == 6 and blue.graveyard == (mill,)
    assert counts(blue) == {"Village": 2, "Walls": 1, "Market": 1}


def test_walls_scout_targets_and_income():
    """Walls [L226-231, L251-255]: in round 1 Blue's Lord is now in row 2, rows 3 and 4 are face
    up (8 tiles), row 1 holds only Lords and empty slots: 8 possible Scout tiles. Income
    2 × (Field 2 + Walls 1) = 6, paid after the Scout is placed."""
    state = turn_position(tile("Walls", 3), boards={"blue": board(Field=2)})
    state = play(state, MoveLord("blue", 2))
    targets = {(m.row, m.slot) for m in G.legal_moves(state)}
    assert targets == {(r, s) for r in (3, 4) for s in (1, 2, 3, 4)}
    assert state.player("blue").coins == 0
    state = play(state, PlaceScout("blue", 4, 3))
    assert state.player("blue").scout == Pos(4, 3)
    assert state.player("blue").coins == 6


def test_walls_effect_skipped_without_a_free_tile():
    """Walls [L210, L226-231]: with rows 3 and 4 empty there is no tile to reserve; the effect is
    skipped and the income 2 × (Field 0 + Walls 1) = 2 is paid at once."""
    state = turn_position(tile("Walls", 3))
    state = replace(state, rows=(*state.rows[:2], (None,) * 4, (None,) * 4))
    state = play(state, MoveLord("blue", 2))
    assert state.pending is None and state.player("blue").scout is None
    assert state.player("blue").coins == 2
    assert G.to_act(state) == ("green",)


def test_market_effect_and_income():
    """Market [L261-263, L272-276]: +1 per Chest on the board (Market 2 + new Market 1 = 3; the
    Field's 3 Farmers are not Chests), then 2 × (Mill 2 + Market 2) = 8: +11."""
    state = turn_position(
        tile("Market", 3, chests=1),
        boards={
            "blue": board(
                Mill=2, Market=[tile("Market", 1, chests=2)], Field=[tile("Field", 2, farmers=3)]
            )
        },
    )
    state = play(state, MoveLord("blue", 1))
    assert state.player("blue").coins == 3 + 8


def test_barracks_attacks_every_weaker_player():
    """Barracks [L265-270, L278-282]: Blue's 1 Barracks beats Green's and Pink's 0 Walls: each
    loses the top tile of his leftmost column (Green a Field, Pink a Mill) and pays 2. Income
    2 × (Village 2 + Barracks 1) = 6: Blue +4 + 6 = 10."""
    state = turn_position(
        tile("Barracks", 3),
        boards={
            "blue": board(Village=2),
            "green": board(Field=1, Market=1),
            "pink": board(Mill=1, Church=1),
        },
        coins={"green": 3, "pink": 3},
    )
    state = play(state, MoveLord("blue", 1))
    assert coins_of(state) == {"blue": 10, "green": 1, "pink": 1}
    assert counts(state.player("green")) == {"Market": 1}
    assert counts(state.player("pink")) == {"Church": 1}
    assert [t.estate for t in state.player("green").graveyard] == ["Field"]
    assert [t.estate for t in state.player("pink").graveyard] == ["Mill"]


def test_church_token_under_another_estate_raises_that_income():
    """Church [L295-301, L324-327]: the token goes under Field; Church pays 3 × 1 = 3 now, and
    from then on Field pays (2 + 1) per Field: with 2 Fields 6 instead of 4."""
    state = turn_position(tile("Church", 3), boards={"blue": board(Field=2)})
    assert income_line(state.player("blue"), "Field").amount == 4
    state = play(state, MoveLord("blue", 1))
    assert {m.estate for m in G.legal_moves(state)} == set(ESTATES)
    state = play(state, PlaceCoin("blue", "Field"))
    assert state.player("blue").coins == 3
    assert state.player("blue").special_coins == ("Field",)
    assert income_line(state.player("blue"), "Field").amount == 6


def test_palace_story_token_adds_a_type():
    """Palace [L303-310, L329-332]: a Mill token under Palace makes Palace pay for Mills too, on
    this very turn (L209): 3 × (Palace 2 + Mill 3) = 15."""
    state = turn_position(tile("Palace", 3), boards={"blue": board(Palace=1, Mill=3)})
    state = play(state, MoveLord("blue", 1))
    assert codes(state, PlaceStory("blue", "Palace", "Palace")) == ["palace/printed-symbol"]
    state = play(state, PlaceStory("blue", "Mill", "Palace"))
    assert state.player("blue").coins == 15
    assert "Mill" not in state.story_tokens_left and len(state.story_tokens_left) == 7


def test_palace_effect_skipped_when_no_token_fits():
    """Palace [L210, L303-310]: no story token left in the supply → effect skipped, income
    3 × 2 = 6 at once."""
    state = turn_position(tile("Palace", 3), boards={"blue": board(Palace=1)})
    state = replace(state, story_tokens_left=())
    state = play(state, MoveLord("blue", 1))
    assert state.pending is None and state.player("blue").coins == 6


def test_each_effect_pays_only_the_acting_player_income():
    """§4 step 4 [L152-156]: income is paid for the placed estate only, to the acting player."""
    for estate in ("Field", "Market"):
        state = turn_position(tile(estate, 3), boards={s: board(**{estate: 2}) for s in SEATS3})
        state = play(state, MoveLord("blue", 1))
        assert coins_of(state) == {"blue": 2 * 3, "green": 0, "pink": 0}
    state = set_player(turn_position(tile("Church", 3)), "green", board=board(Church=4))
    state = play(state, MoveLord("blue", 1), PlaceCoin("blue", "Church"))
    assert coins_of(state) == {"blue": 4, "green": 0, "pink": 0}
