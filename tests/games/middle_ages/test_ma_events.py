"""All 15 event cards of the Middle Ages digest, §6 (rules/fief_tiles.md, seed L458-551).

Each card is resolved the way the table meets it: the end of round 4, the refill of row 4 laid
and then the leftmost face-up card applied to every player. The expected numbers are worked out
by hand from the card texts for one fixed table (below); tokens do not change event payouts and
graveyard tiles do not count as "on the Fief board" (digest §6, inferred).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from ma_builders import (
    SEATS3,
    G,
    board,
    codes,
    coins_of,
    counts,
    new_row,
    play,
    refill_state,
    set_player,
    started,
    tile,
)

from engine.games.middle_ages.components import ESTATES
from engine.games.middle_ages.moves import MoveLord, ReturnTile, Reveal
from engine.games.middle_ages.state import Pos, StoryToken

ROW4 = new_row((2, 5, 9, 12), ("Field", "Mill", "Village", "Walls"))

# Blue: every estate; 3 Farmers (Field 1 + 2), 3 Chests (Market 1, Palace 2); graveyard [Mill];
# a special-coin token under Walls and a Field story token under Mill (ignored by events).
F1, F2 = tile("Field", 1, farmers=1), tile("Field", 3, farmers=2)
P1, P2 = tile("Palace", 20), tile("Palace", 21, chests=2)
BLUE_GRAVE = tile("Mill", 6)
BLUE = board(
    Field=[F1, F2],
    Mill=1,
    Village=1,
    Walls=2,
    Market=[tile("Market", 9, chests=1)],
    Barracks=1,
    Church=1,
    Palace=[P1, P2],
)
# Green: Walls 1, Church 2, Market with 3 Chests; empty graveyard.
GREEN = board(Walls=1, Church=2, Market=[tile("Market", 10, chests=3)])
# Pink: empty board; graveyard [Field with 4 Farmers, Palace with 1 Chest].
PINK_GRAVE = (tile("Field", 4, farmers=4), tile("Palace", 22, chests=1))
START_COINS = {"blue": 10, "green": 3, "pink": 0}


def at_event(card, **options):
    """End of round 4 with ``card`` the leftmost face-up event card, the fixture table above."""
    state = refill_state(
        SEATS3, round_=4, events=(card, *[c for c in (1, 2, 3, 4) if c != card][:3])
    )
    if options:
        state = replace(state, options=replace(state.options, **options))
    state = set_player(
        state,
        "blue",
        board=BLUE,
        graveyard=(BLUE_GRAVE,),
        coins=10,
        special_coins=("Walls",),
        story_tokens=(StoryToken("Field", "Mill"),),
    )
    state = set_player(state, "green", board=GREEN, coins=3)
    state = set_player(state, "pink", graveyard=PINK_GRAVE)
    return replace(
        state, special_coins_left=7, story_tokens_left=tuple(e for e in ESTATES if e != "Field")
    )


def resolve(card, **options):
    state = play(at_event(card, **options), Reveal(4, ROW4))
    assert state.events_done == 1
    return state


def gains(state):
    return {s: c - START_COINS[s] for s, c in coins_of(state).items()}


PAYING = [
    # card, blue, green, pink: worked out by hand from the card text and the fixture
    pytest.param(1, 3, 0, 0, id="E1 Craftsmanship +1/Farmer [L461-464]"),
    pytest.param(2, 3, 3, 0, id="E2 Precious Goods +1/Chest [L466-469]"),
    pytest.param(3, 9, 6, 0, id="E3 Alliance +3/Church and Palace [L471-475]"),
    pytest.param(6, 6, 3, 0, id="E6 New Towers +3/Walls [L494-499]"),
    pytest.param(7, 4, 2, 0, id="E7 Triumphant Return +2/Market and Barracks [L501-504]"),
    pytest.param(8, 4, 0, 0, id="E8 Population Growth +2/Mill and Village [L506-509]"),
    pytest.param(11, 4, 0, 0, id="E11 Good Harvest +2/Field [L525-528]"),
    pytest.param(12, 3, 0, 6, id="E12 Rebuilding Aid +3/graveyard tile [L530-533]"),
    pytest.param(13, 16, 6, 0, id="E13 Landed Estate +2/distinct type [L535-539]"),
]


@pytest.mark.parametrize(("card", "blue", "green", "pink"), PAYING)
def test_paying_event_cards(card, blue, green, pink):
    """§6 paying cards: every player is paid by his own board (graveyard for E12 only).

    Blue: Field 2 (Farmers 1+2), Mill 1, Village 1, Walls 2, Market 1 (1 Chest), Barracks 1,
    Church 1, Palace 2 (2 Chests), graveyard 1. Green: Walls 1, Market 1 (3 Chests), Church 2.
    Pink: nothing on the board, graveyard 2 (4 Farmers and 1 Chest there do not count).
    E1 3/0/0; E2 1+2=3 / 3 / 0; E3 3×(1+2)=9 / 3×2=6; E6 3×2=6 / 3×1=3 (Blue's coin under Walls
    changes nothing); E7 2×(1+1)=4 / 2×1=2; E8 2×(1+1)=4; E11 2×2=4; E12 3×1=3 / 0 / 3×2=6;
    E13 2×8=16 / 2×3=6 / 0.
    """
    state = resolve(card)
    assert gains(state) == {"blue": blue, "green": green, "pink": pink}
    assert counts(state.player("blue")) == {
        e: len(c) for e, c in zip(ESTATES, BLUE, strict=True) if c
    }
    assert state.round == 5


def test_e14_costly_ceremonies_costs_two_per_church_and_palace():
    """E14 [L541-545]: −2 per Church and per Palace: Blue −2×(1+2) = −6 (10 → 4); Green owes
    −2×2 = −4 but has 3, so pays 3 (coin_debt 'cap', §12.5); Pink owes nothing."""
    state = resolve(14)
    assert coins_of(state) == {"blue": 4, "green": 0, "pink": 0}


def test_e14_with_negative_coins_option():
    """E14 [L541-545] with coin_debt 'negative' (§12.5 option): Green goes to 3 − 4 = −1."""
    state = resolve(14, coin_debt="negative")
    assert coins_of(state) == {"blue": 4, "green": -1, "pink": 0}


DISCARDS = [
    # card, Blue's board after, Blue's new graveyard tiles, Green's board after, Green's new
    pytest.param(
        4,
        {"Field": 1, "Mill": 0},
        ["Field", "Mill"],
        {},
        [],
        id="E4 Barbarian Invasion: one Mill and one Field [L477-483]",
    ),
    pytest.param(
        5,
        {"Village": 0, "Barracks": 0},
        ["Barracks", "Village"],
        {},
        [],
        id="E5 Black Plague: one Village and one Barracks [L485-491]",
    ),
    pytest.param(
        9, {"Palace": 1}, ["Palace"], {}, [], id="E9 Peasant Revolt: one Palace [L511-515]"
    ),
    pytest.param(
        15,
        {"Walls": 1},
        ["Walls"],
        {"Walls": 0},
        ["Walls"],
        id="E15 Earthquake: one Walls [L547-551]",
    ),
]


@pytest.mark.parametrize(("card", "blue_after", "blue_lost", "green_after", "green_lost"), DISCARDS)
def test_discarding_event_cards(card, blue_after, blue_lost, green_after, green_lost):
    """§6 discarding cards (RC-34): each player puts at most one tile of each named type, only if
    he has one, into his own graveyard; no coins change. Pink (empty board) loses nothing."""
    state = resolve(card)
    assert coins_of(state) == START_COINS
    blue, green, pink = (state.player(s) for s in SEATS3)
    expected_blue = {e: len(c) for e, c in zip(ESTATES, BLUE, strict=True) if c}
    expected_blue.update(blue_after)
    assert counts(blue) == {e: n for e, n in expected_blue.items() if n}
    assert blue.graveyard[0] == BLUE_GRAVE
    assert sorted(t.estate for t in blue.graveyard[1:]) == blue_lost
    expected_green = {e: len(c) for e, c in zip(ESTATES, GREEN, strict=True) if c}
    expected_green.update(green_after)
    assert counts(green) == {e: n for e, n in expected_green.items() if n}
    assert [t.estate for t in green.graveyard] == green_lost
    assert pink.graveyard == PINK_GRAVE and counts(pink) == {}


def test_discard_takes_the_top_tile():
    """E4 [L477-483], digest §12.10 (engine reading: top = most recently placed): Blue's Fields
    were F1 then F2 (2 Farmers); F2 goes, so a later E1 would find 1 Farmer."""
    blue = resolve(4).player("blue")
    assert blue.board[0] == (F1,)
    assert F2 in blue.graveyard
    p2 = resolve(9).player("blue")
    assert p2.board[ESTATES.index("Palace")] == (P1,) and P2 in p2.graveyard


def test_e10_reconstruction_left_to_right_each_own_graveyard():
    """E10 Reconstruction [L517-522]: every player with a graveyard returns one tile of his own,
    in left-to-right Lord order (engine decision); no effect is triggered (Blue's Mill makes
    nobody pay); players with an empty graveyard (Green) are skipped; no coins change."""
    state = at_event(10)
    state = set_player(state, "pink", lord=Pos(1, 1))
    state = set_player(state, "blue", lord=Pos(1, 3))
    state = set_player(state, "green", lord=Pos(1, 2))
    state = play(state, Reveal(4, ROW4))
    assert state.phase == "choice" and G.to_act(state) == ("pink",)
    assert codes(state, ReturnTile("pink", BLUE_GRAVE)) == ["village/not-in-graveyard"]
    assert codes(state, ReturnTile("pink", None)) == ["village/must-return"]
    assert codes(state, ReturnTile("blue", BLUE_GRAVE)) == ["turn/not-your-turn"]
    state = play(state, ReturnTile("pink", PINK_GRAVE[1]))
    assert G.to_act(state) == ("blue",)
    state = play(state, ReturnTile("blue", BLUE_GRAVE))
    assert state.phase == "turn" and state.round == 5
    assert coins_of(state) == START_COINS
    assert counts(state.player("pink")) == {"Palace": 1}
    assert state.player("pink").graveyard == (PINK_GRAVE[0],)
    assert counts(state.player("blue"))["Mill"] == 2 and state.player("blue").graveyard == ()


def test_e10_may_be_declined_only_with_village_optional():
    """E10 [L517-522] with option village_optional (§12.9): a player may keep his graveyard."""
    state = play(at_event(10, village_optional=True), Reveal(4, ROW4))
    assert codes(state, ReturnTile("blue", None)) == []
    state = play(state, ReturnTile("blue", None), ReturnTile("pink", None))
    assert state.player("blue").graveyard == (BLUE_GRAVE,) and state.round == 5


def test_e10_as_the_last_card_ends_the_game_after_the_choices():
    """E10 as the 4th card at the end of round 16 [L434-437, L517-522]: Pink takes the last tile
    (a Field: income 2 × 1), then Blue returns his graveyard Mill; only then is the game over.
    The ledger of Blue's return move shows no coins, as no coin moved (RC-39)."""
    state = started(events=(1, 2, 3, 10))
    rows = ((None,) * 4, (None,) * 4, (None,) * 4, (None, None, tile("Field", 12), None))
    state = replace(state, round=16, rows=rows, acted=("blue", "green"), events_done=3)
    for slot, seat in enumerate(SEATS3, start=1):
        state = set_player(state, seat, lord=Pos(4, slot))
    state = set_player(state, "blue", graveyard=(BLUE_GRAVE,))
    state = play(state, MoveLord("pink", None))
    assert state.player("pink").coins == 2
    assert state.phase == "choice" and G.to_act(state) == ("blue",)
    assert not G.is_over(state)
    before = coins_of(state)
    state = play(state, ReturnTile("blue", BLUE_GRAVE))
    assert G.is_over(state) and state.events_done == 4
    assert coins_of(state) == before
    assert state.last_move == ()
