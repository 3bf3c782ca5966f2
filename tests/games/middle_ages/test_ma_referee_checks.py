"""Referee checks RC-01..RC-40 of the Middle Ages digest, §10 (rules/fief_tiles.md, seed 003).

Each check has a legal and an illegal case: a move through ``rules.check`` where the check is
about a move, a corrupted state through ``check_position`` where it is an invariant of the table.
Where a check concerns an automatic effect that no move can break, the test says so and asserts
the engine's computed outcome against the rule instead.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from ma_builders import (
    SEATS3,
    SEATS4,
    SEATS5,
    G,
    board,
    codes,
    coins_of,
    count,
    counts,
    default_rows,
    laid,
    new_row,
    play,
    position_codes,
    random_game,
    refill_state,
    round2,
    set_player,
    set_tile,
    started,
    tile,
    turn_position,
)

from engine import data as gamedata
from engine.games.middle_ages.components import ESTATES, EVENTS
from engine.games.middle_ages.income import income_line
from engine.games.middle_ages.moves import (
    DrawOrder,
    LayEvents,
    MoveLord,
    PlaceCoin,
    PlaceLord,
    PlaceScout,
    PlaceStory,
    ReturnTile,
    Reveal,
)
from engine.games.middle_ages.state import Pos, StoryToken

ROW4 = new_row((2, 5, 9, 12), ("Field", "Mill", "Village", "Walls"))


# --- RC-01 orange stack only with 4-5 players [L89-91] ----------------------------------------


@pytest.mark.parametrize(("n", "orange"), [(2, 0), (3, 0), (4, 32), (5, 32)])
def test_rc01_orange_stack_in_play_only_with_four_or_five(n, orange):
    """RC-01 [L89-91]: the 32 orange tiles are beside the table with N = 4 or 5, boxed with 2-3."""
    state = gamedata.setup(G, SEATS5[:n], {})
    assert state.orange_left == orange
    assert state.blue_left == 52


def test_rc01_orange_tile_refused_with_three_players():
    """RC-01 [L89-91]: illegal case: an orange-backed tile in a 3-player row; a position that
    holds orange tiles with 3 players is faulted too."""
    state = gamedata.setup(G, SEATS3, {})
    row = (tile("Field", 1), tile("Mill", 2), tile("Village", 3, back="orange"), tile("Walls", 4))
    assert "reveal/wrong-stack" in codes(state, Reveal(1, row))
    legal = laid()
    assert position_codes(legal) == []
    assert "position/orange-in-play" in position_codes(replace(legal, orange_left=32))


# --- RC-02 rows of N+1 [L98-100, L160-162] ---------------------------------------------------


@pytest.mark.parametrize("seats", [SEATS3[:2], SEATS3, SEATS4, SEATS5])
def test_rc02_row_holds_n_plus_one(seats):
    """RC-02 [L98-100]: a row is N+1 tiles (4 with 3 players, L98-99); one fewer or more is
    refused."""
    state = gamedata.setup(G, seats, {})
    n1 = len(seats) + 1
    row = tuple(tile(ESTATES[i], i + 1) for i in range(n1 + 1))
    assert codes(state, Reveal(1, row[:n1])) == []
    assert codes(state, Reveal(1, row[: n1 - 1])) == ["reveal/row-size"]
    assert codes(state, Reveal(1, row)) == ["reveal/row-size"]


def test_rc02_position_row_size():
    """RC-02 [L98-100, L160-162]: a laid row of the wrong length is a position fault."""
    state = laid()
    assert position_codes(state) == []
    short = replace(state, rows=(state.rows[0][:3], *state.rows[1:]))
    assert "position/row-size" in position_codes(short)


# --- RC-03 rows sorted ascending by back number [L102-103, L161-162, L419-421] ---------------


def test_rc03_row_sorted_by_back_number():
    """RC-03 [L102-103]: lowest number on the left; equal numbers may lie either way."""
    state = gamedata.setup(G, SEATS3, {})
    assert codes(state, Reveal(1, new_row((3, 5, 5, 9), ESTATES[:4]))) == []
    assert codes(state, Reveal(1, new_row((3, 9, 5, 10), ESTATES[:4]))) == ["reveal/unsorted"]
    refill = refill_state()
    assert codes(refill, Reveal(1, new_row((8, 2, 9, 12), ESTATES[:4]))) == ["reveal/unsorted"]
    assert codes(refill, Reveal(1, ROW4)) == []


def test_rc03_position_unsorted_row():
    """RC-03 [L102-103]: a face-up row out of order is a position fault."""
    state = laid()
    r = state.rows[0]
    assert "position/row-unsorted" in position_codes(
        replace(state, rows=((r[1], r[0], *r[2:]), *state.rows[1:]))
    )


# --- RC-04 four rows at setup [L105-107] ------------------------------------------------------


def test_rc04_setup_lays_exactly_four_rows_top_down():
    """RC-04 [L105-107]: rows are laid one below the other, four in all; a fifth is refused."""
    state = gamedata.setup(G, SEATS3, {})
    rows = default_rows(3)
    assert codes(state, Reveal(2, rows[1])) == ["reveal/wrong-row"]
    for r in range(3):
        state = play(state, Reveal(r + 1, rows[r]))
        assert state.phase == "setup-rows"
    state = play(state, Reveal(4, rows[3]))
    assert state.phase == "setup-events" and state.rows_laid == 4
    assert codes(state, Reveal(1, rows[0])) == ["flow/not-now"]


# --- RC-05 four event cards [L109-111] --------------------------------------------------------


def test_rc05_exactly_four_distinct_event_cards():
    """RC-05 [L109-111]: four of the 15 cards, face up; three, a repeat or card 16 are refused."""
    state = laid()
    assert codes(state, LayEvents((5, 9, 12, 15))) == []
    assert codes(state, LayEvents((5, 9, 12))) == ["events/count"]
    assert codes(state, LayEvents((5, 9, 12, 15, 1))) == ["events/count"]
    assert codes(state, LayEvents((5, 5, 12, 15))) == ["events/duplicate"]
    assert codes(state, LayEvents((5, 9, 12, 16))) == ["events/unknown-card"]
    assert len(EVENTS) == 15


def test_rc05_position_events():
    """RC-05 [L109-111]: a position with three event cards laid is faulted."""
    state = started()
    assert position_codes(state) == []
    assert "position/events" in position_codes(replace(state, events=(1, 2, 3)))


# --- RC-06 Lords placed in the top row, drawn order, one per tile [L116-124] ------------------


def test_rc06_lords_placed_in_drawn_order_one_per_tile():
    """RC-06 [L116-124]: the Scout draw fixes who places first; one Lord per top-row tile."""
    state = play(laid(), LayEvents((1, 2, 3, 4)))
    assert codes(state, DrawOrder(("pink", "blue"))) == ["order/not-a-permutation"]
    assert codes(state, DrawOrder(("pink", "blue", "blue"))) == ["order/not-a-permutation"]
    state = play(state, DrawOrder(("pink", "blue", "green")))
    assert codes(state, PlaceLord("blue", 1)) == ["turn/not-your-turn"]
    assert codes(state, PlaceLord("pink", 5)) == ["lord/no-such-slot"]
    state = play(state, PlaceLord("pink", 2))
    assert state.player("pink").lord == Pos(1, 2)
    assert codes(state, PlaceLord("blue", 2)) == ["lord/occupied-tile"]
    assert codes(state, PlaceLord("blue", 1)) == []


# --- RC-07 the unclaimed tile is discarded at the start of a round [L127-128] -----------------


def test_rc07_unclaimed_tile_goes_to_discard_pile_not_graveyard():
    """RC-07 [L127-128, L369, L423-424]: automatic, no move can break it; the engine's outcome is
    checked instead: exactly one tile (the one without a Lord) leaves the Lords' row, onto the
    discard pile, in round 1 and again in round 2; no graveyard receives it."""
    state = started(slots={"blue": 1, "green": 2, "pink": 4})
    top = default_rows(3)[0]
    assert state.discard == (top[2],)
    assert state.rows[0] == (top[0], top[1], None, top[3])
    assert all(p.graveyard == () for p in state.players)
    state = round2()
    assert len(state.discard) == 2
    assert state.discard[1] == default_rows(3)[1][3]  # row 2, slot 4: no Lord
    assert sum(t is not None for t in state.rows[1]) == 3


def test_rc07_position_unclaimed_tile_left_in_the_lords_row():
    """RC-07 [L127-128]: illegal case as a position: in round 1 the unclaimed top-row tile is
    still lying there (not discarded) while the Lords play."""
    state = started()
    assert position_codes(state) == []
    undiscarded = set_tile(replace(state, discard=()), Pos(1, 4), state.discard[0])
    assert position_codes(undiscarded) == ["position/unclaimed-tile"]


# --- RC-08 the leftmost Lord that has not acted plays [L130-132] ------------------------------


def test_rc08_leftmost_lord_acts_first():
    """RC-08 [L130-132]: left to right by position in the row, regardless of placement order."""
    state = started(order=("green", "pink", "blue"), slots={"green": 4, "pink": 1, "blue": 3})
    assert G.to_act(state) == ("pink",)
    assert codes(state, MoveLord("blue", 1)) == ["turn/not-your-turn"]
    assert codes(state, MoveLord("green", 1)) == ["turn/not-your-turn"]
    state = play(state, MoveLord("pink", 1))
    assert G.to_act(state) == ("blue",)
    state = play(state, MoveLord("blue", 2))
    assert G.to_act(state) == ("green",)


# --- RC-09 / RC-10 Lord destination rows [L136-138] ------------------------------------------

ROW_CYCLE = {  # digest §4 row-cycle table: round -> (start row, destination row)
    **{r: (r, r + 1) for r in (1, 2, 3)},
    4: (4, 1),
    **{r: (r - 4, r - 3) for r in (5, 6, 7)},
    8: (4, 1),
    **{r: (r - 8, r - 7) for r in (9, 10, 11)},
    12: (4, 1),
    **{r: (r - 12, r - 11) for r in (13, 14, 15)},
    16: (4, None),
}


@pytest.mark.parametrize("seed", [3, 4])
def test_rc09_lords_go_down_a_row_or_to_the_top_in_rounds_4_8_12(seed):
    """RC-09 and RC-10 [L136-138]: next row down in rounds 1-3, 5-7, 9-11, 13-15; the top row in
    rounds 4, 8, 12; no move in round 16. Checked on every Lord move of a whole random game."""
    seen = set()
    for move, before, after in random_game(seed):
        if not isinstance(move, MoveLord):
            continue
        start, dest = ROW_CYCLE[before.round]
        lord_before = before.player(move.seat).lord
        lord_after = after.player(move.seat).lord
        assert lord_before is not None and lord_before.row == start
        if dest is None:
            assert lord_after == lord_before
        else:
            assert lord_after is not None and lord_after.row == dest
        seen.add(before.round)
    assert seen == set(range(1, 17))


def test_rc09_position_lord_in_wrong_row():
    """RC-09 [L136-137]: illegal case as a position: Blue has acted in round 1 but his Lord is in
    row 3 instead of row 2."""
    state = play(started(), MoveLord("blue", 1))
    assert position_codes(state) == []
    bad = set_player(state, "blue", lord=Pos(3, 1))
    assert "position/lord-row" in position_codes(bad)


def _round16():
    for _, before, _ in random_game(3):
        if before.round == 16 and before.phase == "turn" and not before.acted:
            return before
    raise AssertionError("no round 16")


def test_rc10_no_lord_moves_in_round_16():
    """RC-10 [L138]: in round 16 the Lord stays; a move to any slot is refused. The player still
    takes the tile beneath the Lord (digest §4 step 2, inferred)."""
    state = _round16()
    (seat,) = G.to_act(state)
    lord = state.player(seat).lord
    assert lord is not None and lord.row == 4
    for slot in range(1, 5):
        assert codes(state, MoveLord(seat, slot)) == ["lord/no-move-in-round-16"]
    assert G.legal_moves(state) == [MoveLord(seat, None)]
    taken = state.rows[3][lord.slot - 1]
    after = play(state, MoveLord(seat, None))
    me = after.player(seat)
    assert me.lord == lord
    held = sum(len(c) for c in me.board) + len(me.graveyard)
    assert held == 16 and taken in me.board[ESTATES.index(taken.estate)] + me.graveyard


def test_rc10_lord_must_move_before_round_16():
    """RC-10 / RC-09 [L136-138]: outside round 16 a turn without a Lord move is refused."""
    state = started()
    assert codes(state, MoveLord("blue", None)) == ["lord/must-move"]


# --- RC-11 one Lord per tile [L124, L136] ----------------------------------------------------


def test_rc11_destination_has_no_other_lord():
    """RC-11 [L124, L136]: Green may not join Blue's new tile; an empty slot has no tile."""
    state = play(started(), MoveLord("blue", 1))
    assert codes(state, MoveLord("green", 1)) == ["lord/occupied-tile"]
    assert codes(state, MoveLord("green", 2)) == []
    assert codes(state, MoveLord("green", 5)) == ["lord/no-such-slot"]


def test_rc11_position_two_lords_on_one_tile():
    """RC-11 [L124]: two Lords on one tile is a position fault."""
    state = play(started(), MoveLord("blue", 1))
    bad = set_player(state, "green", lord=Pos(2, 1))
    assert "position/lords-share-tile" in position_codes(bad)


# --- RC-12 another player's Scout blocks the tile [L230-231, L425-428] ------------------------


def test_rc12_scout_reserves_tile_against_other_lords_only():
    """RC-12 [L230-231, L257, L425-428]: Green's Scout on row 2 slot 2 keeps Blue off it; Green
    may take it himself."""
    state = set_player(started(), "green", scout=Pos(2, 2))
    assert codes(state, MoveLord("blue", 2)) == ["lord/reserved-tile"]
    assert MoveLord("blue", 2) not in G.legal_moves(state)
    state = play(state, MoveLord("blue", 1))
    assert codes(state, MoveLord("green", 2)) == []
    state = play(state, MoveLord("green", 2))
    assert state.player("green").lord == Pos(2, 2)


# --- RC-13 the Lord moves before the tile is taken [L136, L140] -------------------------------


def test_rc13_lord_moves_before_the_tile_is_resolved():
    """RC-13 [L134-141]: one MoveLord move does the step "move the Lord" and then "take the tile",
    so no move can reverse them; the outcome is checked: when the Walls effect asks for the Scout,
    the Lord already stands in row 2 (so row 2 is its row and refused) and no income is paid yet."""
    state = turn_position(tile("Walls", 3))
    state = play(state, MoveLord("blue", 3))
    blue = state.player("blue")
    assert blue.lord == Pos(2, 3) and counts(blue) == {"Walls": 1}
    assert blue.coins == 0 and state.pending is not None and state.pending.kind == "walls"
    assert codes(state, PlaceScout("blue", 2, 1)) == ["scout/own-lord-row"]
    assert codes(state, PlaceScout("blue", 3, 1)) == []


# --- RC-14 / RC-15 the tile left goes to its own column [L140-145] ----------------------------


def test_rc14_rc15_tile_taken_is_the_one_left_into_its_column():
    """RC-14 and RC-15 [L140-145]: automatic (the move names only the destination); the engine's
    outcome is checked: the tile under the Lord's old position, and only it, leaves the row and
    lands at the top of its estate's column."""
    left = tile("Market", 3, chests=1)
    state = turn_position(left, boards={"blue": board(Market=1)})
    row2 = state.rows[1]
    state = play(state, MoveLord("blue", 4))
    blue = state.player("blue")
    assert blue.board[ESTATES.index("Market")] == (tile("Market", 1), left)
    assert sum(len(c) for c in blue.board) == 2
    assert state.rows[0][0] is None
    assert state.rows[1] == row2  # the destination tile stays in the row


def test_rc15_position_tile_in_wrong_column():
    """RC-15 [L140-145]: a Walls tile sitting in the Field column is a position fault."""
    state = play(started(), MoveLord("blue", 1))
    assert position_codes(state) == []
    wrong = list(state.player("blue").board)
    wrong[0], wrong[3] = (), wrong[0]
    assert "position/wrong-column" in position_codes(set_player(state, "blue", board=tuple(wrong)))


# --- RC-16 effect before income [L209] --------------------------------------------------------


def test_rc16_palace_story_token_counts_in_the_same_turns_income():
    """RC-16 [L209, L303-310, L329-332]: automatic ordering (no move can pay income before the
    effect), so the outcome is checked: the Palace effect comes first: a Church token put under
    Palace this turn makes Palace pay 3 × (Palace 1 + Church 2) = 9 at once."""
    state = turn_position(tile("Palace", 3), boards={"blue": board(Church=2)})
    state = play(state, MoveLord("blue", 1), PlaceStory("blue", "Church", "Palace"))
    assert state.player("blue").coins == 9


def test_rc16_village_return_counts_in_the_same_turns_income():
    """RC-16 [L209, L221-224, L245-249]: automatic; checked: no income before the choice, and a
    Walls tile returned by the Village effect counts in that turn's Village income: 2 × (Village 1 +
    Walls 2) = 6."""
    walls = tile("Walls", 7)
    state = turn_position(
        tile("Village", 3), boards={"blue": board(Walls=1)}, graveyards={"blue": [walls]}
    )
    state = play(state, MoveLord("blue", 1))
    assert state.player("blue").coins == 0
    state = play(state, ReturnTile("blue", walls))
    assert state.player("blue").coins == 6


# --- RC-17 / RC-18 Field and Market symbol effects [L214-216, L261-263] -----------------------


def test_rc17_field_effect_pays_farmer_symbols_on_board():
    """RC-17 [L214-216]: automatic; checked: +1 per Farmer symbol on any board tile including the
    new one (1 + 2 + 1 = 4), graveyard symbols not counted; income 2 × Fields 2 = 4."""
    state = turn_position(
        tile("Field", 3, farmers=2),
        boards={
            "blue": board(Field=[tile("Field", 1, farmers=1)], Mill=[tile("Mill", 2, farmers=1)])
        },
        graveyards={"blue": [tile("Field", 9, farmers=3)]},
    )
    state = play(state, MoveLord("blue", 1))
    assert state.player("blue").coins == 4 + 4


def test_rc18_market_effect_pays_chest_symbols_on_board():
    """RC-18 [L261-263, L272-276]: automatic; checked: +1 per Chest symbol on the board (2 + 1 +
    1 = 4; the graveyard's 5 not counted); income 2 × (Mill 1 + Market 2) = 6."""
    state = turn_position(
        tile("Market", 3, chests=1),
        boards={
            "blue": board(
                Market=[tile("Market", 1, chests=2)], Mill=1, Palace=[tile("Palace", 4, chests=1)]
            )
        },
        graveyards={"blue": [tile("Church", 9, chests=5)]},
    )
    state = play(state, MoveLord("blue", 1))
    assert state.player("blue").coins == 4 + 6


# --- RC-19 Mill [L218-219] --------------------------------------------------------------------


def test_rc19_only_players_with_fewer_mills_pay():
    """RC-19 [L218-219]: automatic; checked: after placing, Blue has 2 Mills. Green (1) pays 2,
    Pink (2, equal) pays nothing. Blue: +2 + income 2 × 2 = 6."""
    state = turn_position(
        tile("Mill", 3),
        boards={"blue": board(Mill=1), "green": board(Mill=1), "pink": board(Mill=2)},
        coins={"green": 4, "pink": 4},
    )
    state = play(state, MoveLord("blue", 1))
    assert coins_of(state) == {"blue": 6, "green": 2, "pink": 4}


# --- RC-20 Village: own graveyard, no effect [L221-224] ---------------------------------------


def test_rc20_village_returns_only_from_own_graveyard():
    """RC-20 [L221-224, L284-291]: a tile from another player's graveyard is refused; one of
    one's own is legal; declining is refused unless option village_optional (§12.9)."""
    mine, theirs = tile("Mill", 7), tile("Palace", 8)
    state = turn_position(tile("Village", 3), graveyards={"blue": [mine], "green": [theirs]})
    state = play(state, MoveLord("blue", 1))
    assert codes(state, ReturnTile("blue", theirs)) == ["village/not-in-graveyard"]
    assert codes(state, ReturnTile("blue", None)) == ["village/must-return"]
    assert codes(state, ReturnTile("blue", mine)) == []
    optional = turn_position(tile("Village", 3), graveyards={"blue": [mine]}, village_optional=True)
    optional = play(optional, MoveLord("blue", 1))
    assert codes(optional, ReturnTile("blue", None)) == []
    declined = play(optional, ReturnTile("blue", None))
    assert declined.player("blue").graveyard == (mine,) and declined.player("blue").coins == 2


@pytest.mark.parametrize("estate", ["Mill", "Barracks", "Walls", "Field", "Church"])
def test_rc20_returned_tile_triggers_no_effect_and_no_own_income(estate):
    """RC-20 [L221-224]: the returned tile's effect is not triggered (a Mill makes nobody pay, a
    Barracks attacks nobody, a Walls places no Scout, a Church no token) and its estate pays no
    income of its own (inferred): Blue gets exactly the Village income, 2 × (Village 1 + Walls 0)
    = 2, or 4 when the returned tile is a Walls (Village pays for Walls); the others untouched."""
    back = tile(estate, 7, farmers=1)
    state = turn_position(
        tile("Village", 3), graveyards={"blue": [back]}, coins={"green": 5, "pink": 5}
    )
    state = play(state, MoveLord("blue", 1), ReturnTile("blue", back))
    assert state.phase == "turn" and state.pending is None
    village_income = 2 * (1 + (1 if estate == "Walls" else 0))
    assert coins_of(state) == {"blue": village_income, "green": 5, "pink": 5}
    assert counts(state.player("blue")) == {estate: 1, "Village": 1}
    assert state.player("blue").scout is None and state.player("blue").special_coins == ()
    assert G.to_act(state) == ("green",)


# --- RC-21 Walls: where the Scout may go [L226-229] -------------------------------------------


def test_rc21_scout_on_a_face_up_tile_outside_own_lords_row():
    """RC-21 [L226-231]: any face-up tile in another row, rows above the Lord included; not in the
    Lord's row, not on a missing tile; (engine decisions, §12.8) not on a Lord, not on another
    Scout."""
    state = round2()  # Lords in row 2; row 1 refilled above them
    state = set_player(state, "pink", scout=Pos(4, 4))
    state = set_tile(state, state.player("blue").lord, tile("Walls", 3))
    state = play(state, MoveLord("blue", 1))  # Blue now in row 3
    assert codes(state, PlaceScout("blue", 1, 2)) == []  # above his Lord (L229)
    assert codes(state, PlaceScout("blue", 4, 1)) == []
    assert codes(state, PlaceScout("blue", 3, 2)) == ["scout/own-lord-row"]
    assert codes(state, PlaceScout("blue", 2, 2)) == ["scout/lord-on-tile"]  # Green's Lord
    assert codes(state, PlaceScout("blue", 2, 1)) == ["scout/no-tile"]  # the tile Blue took
    assert codes(state, PlaceScout("blue", 2, 4)) == ["scout/no-tile"]  # discarded this round
    assert codes(state, PlaceScout("blue", 4, 4)) == ["scout/already-reserved"]
    state = play(state, PlaceScout("blue", 1, 2))
    assert state.player("blue").scout == Pos(1, 2)
    # Blue kept round 1's Field (coins 0 after paying Green's Mill): 2 × (Field 1 + Walls 1).
    assert state.player("blue").coins == 0 + 2 * (1 + 1)


def test_rc21_position_scout_off_tile():
    """RC-21 [L226-227]: a Scout on a slot with no face-up tile is a position fault."""
    state = play(started(), MoveLord("blue", 1))
    assert position_codes(set_player(state, "green", scout=Pos(3, 1))) == []
    bad = set_player(state, "green", scout=Pos(1, 1))  # Blue's old tile, now taken
    assert "position/scout-off-tile" in position_codes(bad)


# --- RC-22 the owner takes the Scout back on entering its row [L257-258] ----------------------


def test_rc22_scout_leaves_when_its_owner_enters_the_row():
    """RC-22 [L257-258]: other Lords entering the row leave it in place; the owner's Lord
    entering that row takes it back, even to a different tile."""
    state = set_player(started(), "pink", scout=Pos(2, 4))
    state = play(state, MoveLord("blue", 1), MoveLord("green", 2))
    assert state.player("pink").scout == Pos(2, 4)
    state = play(state, MoveLord("pink", 3))
    assert state.player("pink").scout is None


def test_rc22_position_scout_in_owners_lord_row():
    """RC-22 [L258]: a Scout still out in its owner's Lord row is a position fault."""
    state = play(started(), MoveLord("blue", 1))
    assert "position/scout-in-lord-row" in position_codes(
        set_player(state, "blue", scout=Pos(2, 3))
    )


# --- RC-23 / RC-24 Barracks [L265-270] --------------------------------------------------------


def test_rc23_barracks_targets_fewer_walls_never_the_attacker():
    """RC-23 [L265-267]: automatic; checked: Blue has 2 Barracks and 0 Walls after placing (he
    is never his own target). Green (1 Walls) is attacked, Pink (2 Walls, equal) is not."""
    state = turn_position(
        tile("Barracks", 3),
        boards={
            "blue": board(Barracks=1, Field=1),
            "green": board(Walls=1, Field=1),
            "pink": board(Walls=2, Field=1),
        },
        coins={"green": 5, "pink": 5},
    )
    state = play(state, MoveLord("blue", 1))
    assert counts(state.player("blue")) == {"Field": 1, "Barracks": 2}
    assert state.player("blue").graveyard == ()
    assert counts(state.player("green")) == {"Walls": 1}
    assert counts(state.player("pink")) == {"Field": 1, "Walls": 2}
    assert coins_of(state) == {"blue": 2 + 2 * 2, "green": 3, "pink": 5}


def test_rc24_barracks_loss_top_tile_of_leftmost_column():
    """RC-24 [L267-270]: automatic; checked: the target's leftmost non-empty column (Village,
    Field and Mill being empty) loses its top (newest) tile to the graveyard, and it pays 2."""
    old, new = tile("Village", 1), tile("Village", 2)
    state = turn_position(
        tile("Barracks", 3),
        boards={"green": board(Village=[old, new], Market=1), "pink": board(Walls=3)},
        coins={"green": 7},
    )
    state = play(state, MoveLord("blue", 1))
    green = state.player("green")
    assert green.board[ESTATES.index("Village")] == (old,)
    assert green.graveyard == (new,)
    assert coins_of(state) == {"blue": 2 + 2 * 1, "green": 5, "pink": 0}


def test_rc24_poor_or_empty_targets():
    """RC-24 with engine decisions (§12.4, §12.5): a target with an empty board still pays 2;
    a target with 1 coin pays 1 (coin_debt 'cap'); with coin_debt 'negative' it goes to −1."""
    boards = {"green": board(), "pink": board(Field=1)}
    state = turn_position(tile("Barracks", 3), boards=boards, coins={"green": 2, "pink": 1})
    state = play(state, MoveLord("blue", 1))
    assert coins_of(state) == {"blue": 2 + 1 + 2, "green": 0, "pink": 0}
    assert state.player("green").graveyard == ()
    neg = turn_position(
        tile("Barracks", 3), boards=boards, coins={"green": 2, "pink": 1}, coin_debt="negative"
    )
    neg = play(neg, MoveLord("blue", 1))
    assert coins_of(neg) == {"blue": 2 + 2 + 2, "green": 0, "pink": -1}
    spare = turn_position(
        tile("Barracks", 3), boards=boards, coins={"green": 2}, barracks_empty_target_pays=False
    )
    assert coins_of(play(spare, MoveLord("blue", 1))) == {"blue": 2, "green": 2, "pink": 0}


# --- RC-25 Church token slots [L295-298] ------------------------------------------------------


def test_rc25_special_coin_only_into_a_free_slot():
    """RC-25 [L295-298]: a second special-coin token under the same estate is refused."""
    state = turn_position(tile("Church", 3))
    state = set_player(state, "blue", special_coins=("Mill",))
    state = replace(state, special_coins_left=7)
    state = play(state, MoveLord("blue", 1))
    assert codes(state, PlaceCoin("blue", "Mill")) == ["church/slot-taken"]
    assert codes(state, PlaceCoin("blue", "Village")) == []
    assert PlaceCoin("blue", "Mill") not in G.legal_moves(state)
    state = play(state, PlaceCoin("blue", "Village"))
    assert state.player("blue").special_coins == ("Mill", "Village")
    assert state.special_coins_left == 6


def test_rc25_church_effect_skipped_when_supply_is_empty():
    """RC-25 with §7 supply (8 tokens, engine decision) and L210: with no token left the effect
    is skipped and the income (3 × 1) is paid at once."""
    state = replace(turn_position(tile("Church", 3)), special_coins_left=0)
    state = play(state, MoveLord("blue", 1))
    assert state.pending is None and state.player("blue").coins == 3


def test_rc25_position_token_accounting():
    """RC-25 [L70-71, L295-298]: two tokens under one estate, or tokens placed plus supply not
    adding up to 8, are position faults."""
    state = started()
    assert "position/coin-slot" in position_codes(
        replace(set_player(state, "blue", special_coins=("Mill", "Mill")), special_coins_left=6)
    )
    assert "position/coin-tokens" in position_codes(
        set_player(state, "blue", special_coins=("Mill",))
    )


# --- RC-26 Palace story tokens [L303-308, L318-322] -------------------------------------------


def test_rc26_story_token_free_slot_not_printed_symbol_still_in_supply():
    """RC-26 [L303-310, L318-322]: the token's symbol must not be printed on the estate; the slot
    must be free; (engine decision §7) the token must still be in the shared supply."""
    state = turn_position(tile("Palace", 3))
    state = set_player(state, "blue", story_tokens=(StoryToken("Church", "Mill"),))
    state = replace(state, story_tokens_left=tuple(e for e in ESTATES if e != "Church"))
    state = play(state, MoveLord("blue", 1))
    assert codes(state, PlaceStory("blue", "Village", "Barracks")) == ["palace/printed-symbol"]
    assert codes(state, PlaceStory("blue", "Mill", "Market")) == ["palace/printed-symbol"]
    assert codes(state, PlaceStory("blue", "Field", "Mill")) == ["palace/slot-taken"]
    assert codes(state, PlaceStory("blue", "Church", "Field")) == ["palace/token-gone"]
    assert codes(state, PlaceStory("blue", "Palace", "Field")) == []
    state = play(state, PlaceStory("blue", "Palace", "Field"))
    assert set(state.story_tokens_left) == set(ESTATES) - {"Church", "Palace"}


def test_rc26_position_story_tokens():
    """RC-26 [L303-310, L318-322]: a token under an estate printing its symbol, or two tokens
    in one slot, are position faults."""
    state = started()
    left = tuple(e for e in ESTATES if e != "Field")
    bad = replace(set_player(state, "blue", story_tokens=(StoryToken("Field", "Walls"),)),
                  story_tokens_left=left)  # fmt: skip
    assert "palace/printed-symbol" in position_codes(bad)
    two = (StoryToken("Field", "Mill"), StoryToken("Church", "Mill"))
    left2 = tuple(e for e in ESTATES if e not in ("Field", "Church"))
    bad2 = replace(set_player(state, "blue", story_tokens=two), story_tokens_left=left2)
    assert "position/story-slot" in position_codes(bad2)
    good = replace(set_player(state, "blue", story_tokens=(StoryToken("Field", "Mill"),)),
                   story_tokens_left=left)  # fmt: skip
    assert position_codes(good) == []


# --- RC-27 income formula [L152-156, L233-332] ------------------------------------------------

BEFORE = {"Field": 1, "Mill": 2, "Village": 3, "Walls": 4, "Market": 5, "Barracks": 6,
          "Church": 7, "Palace": 1}  # fmt: skip
EXPECTED_INCOME = {  # after placing one more of the estate; worked out by hand from §5
    "Field": 2 * 2,  # Field 2
    "Mill": 2 * 3,  # Mill 3
    "Village": 2 * (4 + 4),  # Village 4 + Walls 4
    "Walls": 2 * (1 + 5),  # Field 1 + Walls 5
    "Market": 2 * (2 + 6),  # Mill 2 + Market 6
    "Barracks": 2 * (3 + 7),  # Village 3 + Barracks 7
    "Church": 3 * 8,
    "Palace": 3 * 2,
}


@pytest.mark.parametrize("estate", ESTATES)
def test_rc27_income_of_each_estate(estate):
    """RC-27 [L152-156, L233-332]: automatic (income is computed, not a move); checked: income =
    rate × tiles of the types the estate names, the placed tile included; checked against
    hand-worked figures for a fixed board."""
    state = turn_position(tile(estate, 3), boards={"blue": board(**BEFORE)})
    state = play(state, MoveLord("blue", 1))
    while state.phase == "choice":
        state = play(state, G.legal_moves(state)[0])
    lines = [x for x in G.income(state, "blue") if x.source == f"income:{estate}"]
    assert [x.amount for x in lines] == [EXPECTED_INCOME[estate]]


def test_rc27_tokens_change_rate_and_types():
    """RC-27 [L295-316]: automatic; checked: a special-coin token and a story token under one
    estate: Market with a Church token and a coin pays (2 + 1) × (Mill 1 + Market 1 + Church 2) =
    12."""
    state = turn_position(tile("Market", 3), boards={"blue": board(Mill=1, Church=2)})
    state = set_player(
        state, "blue", special_coins=("Market",), story_tokens=(StoryToken("Church", "Market"),)
    )
    state = replace(
        state, special_coins_left=7, story_tokens_left=tuple(e for e in ESTATES if e != "Church")
    )
    assert income_line(state.player("blue"), "Market").amount == 3 * (1 + 0 + 2)
    state = play(state, MoveLord("blue", 1))
    assert state.player("blue").coins == 12


# --- RC-28 refill discipline [L160-165] -------------------------------------------------------


def test_rc28_refill_only_after_all_lords_and_only_the_vacated_row():
    """RC-28 [L160-162]: no refill while a Lord still has to act; then only the emptied row."""
    state = play(started(), MoveLord("blue", 1), MoveLord("green", 2))
    assert codes(state, Reveal(1, ROW4)) == ["turn/not-your-turn"]
    state = play(state, MoveLord("pink", 3))
    assert state.phase == "refill"
    assert codes(state, Reveal(2, ROW4)) == ["reveal/wrong-row"]
    assert codes(state, Reveal(1, ROW4)) == []


def test_rc28_position_vacated_row_must_be_empty_at_refill():
    """RC-28 [L160-162]: the refill goes into the row the Lords just left, which is then empty; a
    tile still lying there when the refill is due is a position fault."""
    state = play(started(), MoveLord("blue", 1), MoveLord("green", 2), MoveLord("pink", 3))
    assert state.phase == "refill" and position_codes(state) == []
    left = set_tile(replace(state, discard=()), Pos(1, 4), state.discard[0])
    assert position_codes(left) == ["position/unclaimed-tile"]


@pytest.mark.parametrize("seed", [3, 4])
def test_rc28_refills_in_rounds_1_to_12_only(seed):
    """RC-28 [L160-165]: over a whole game a refill happens once in each of rounds 1-12, into the
    row the Lords left, and never from round 13 on."""
    refills = []
    for move, before, _ in random_game(seed):
        if isinstance(move, Reveal) and before.phase == "refill":
            assert before.rows[move.row - 1] == (None,) * 4
            assert move.row == ROW_CYCLE[before.round][0]
            refills.append(before.round)
    assert refills == list(range(1, 13))


# --- RC-29 / RC-30 draw discipline [L93-96, L170-179, L288-289] -------------------------------


def test_rc29_four_players_empty_blue_before_orange():
    """RC-29 [L93-96, L172-174]: with 2 blue tiles left a 5-tile refill takes those 2 and then 3
    orange; all orange (blue not emptied first) or all blue (more than is left) is refused."""
    state = refill_state(SEATS4, round_=7, blue_left=2)
    two_three = (
        tile("Field", 1), tile("Mill", 2, back="orange"), tile("Village", 3),
        tile("Walls", 4, back="orange"), tile("Market", 5, back="orange"),
    )  # fmt: skip
    all_orange = tuple(replace(t, back="orange") for t in two_three)
    all_blue = tuple(replace(t, back="blue") for t in two_three)
    assert codes(state, Reveal(3, two_three)) == []
    assert "reveal/wrong-stack" in codes(state, Reveal(3, all_orange))
    assert "reveal/wrong-stack" in codes(state, Reveal(3, all_blue))
    after = play(state, Reveal(3, two_three))
    assert (after.blue_left, after.orange_left) == (0, 29)


def test_rc29_three_players_reshuffle_discards():
    """RC-29 [L170-171]: with 3 players and the blue stack empty the discards become the new
    stack; a tile that is not among them is refused; too few discards cannot fill a row."""
    discards = new_row((1, 4, 6, 8, 15), ("Field", "Mill", "Mill", "Church", "Palace"))
    state = refill_state(SEATS3, round_=10, blue_left=0, discard=discards)
    good = discards[:4]
    assert codes(state, Reveal(2, good)) == []
    stranger = (*discards[:3], tile("Walls", 16))
    assert "reveal/wrong-stack" in codes(state, Reveal(2, stranger))
    after = play(state, Reveal(2, good))
    assert after.restack == (discards[4],)
    # The old pile is gone; the new one holds only round 11's unclaimed row-3 tile.
    assert after.round == 11 and after.discard == (state.rows[2][3],)
    short = replace(state, discard=discards[:2])
    assert codes(short, Reveal(2, good)) == ["reveal/stack-exhausted"]


def test_rc29_reshuffled_stack_is_drawn_empty_before_the_next_reshuffle():
    """RC-29 [L93-96, L170-171]: one stack is drawn empty before the next is started: the 2 tiles
    left of the reshuffled stack must be in the row; the other 2 come from the newer discards."""
    restack = new_row((3, 9), ("Field", "Mill"))
    discards = new_row((5, 11, 14), ("Village", "Walls", "Market"))
    state = refill_state(SEATS3, round_=12, blue_left=0, restack=restack, discard=discards)
    ok = tuple(sorted((*restack, *discards[:2]), key=lambda t: t.number))
    assert codes(state, Reveal(4, ok)) == []
    without = tuple(sorted((restack[0], *discards), key=lambda t: t.number))
    assert codes(state, Reveal(4, without)) == ["reveal/not-from-discards"]
    after = play(state, Reveal(4, ok))
    assert after.restack == (discards[2],) and after.discard == ()


def test_rc29_five_players_orange_then_discards():
    """RC-29 [L175-179]: with 5 players, blue and orange empty, all discards (both backs) are
    reshuffled into a new stack."""
    discards = (
        *new_row((1, 2, 3), ("Field", "Mill", "Village")),
        *new_row((4, 5, 6, 7), ("Walls", "Market", "Barracks", "Church"), back="orange"),
    )
    state = refill_state(SEATS5, round_=11, blue_left=0, orange_left=0, discard=discards)
    row = tuple(sorted(discards[:6], key=lambda t: t.number))
    assert codes(state, Reveal(3, row)) == []
    fresh = (*row[:5], tile("Palace", 9, back="orange"))
    assert "reveal/wrong-stack" in codes(state, Reveal(3, fresh))
    orange_first = replace(state, orange_left=3)
    mixed = tuple(
        sorted((*discards[:3], *new_row((8, 9, 10), ("Palace",) * 3, back="orange")),
               key=lambda t: t.number)
    )  # fmt: skip
    assert codes(orange_first, Reveal(3, mixed)) == []
    six_orange = new_row((8, 9, 10, 11, 12, 13), ("Palace", "Field", "Mill", "Village", "Walls",
                                                  "Market"), back="orange")  # fmt: skip
    assert "reveal/wrong-stack" in codes(orange_first, Reveal(3, six_orange))


def test_rc30_graveyard_tiles_never_return_to_a_stack():
    """RC-30 [L288-289]: a tile in a graveyard is not part of the reshuffled discards; a row
    showing it is refused, and a reshuffle leaves the graveyards untouched."""
    discards = new_row((1, 4, 6, 8), ("Field", "Mill", "Mill", "Church"))
    lost = tile("Palace", 2)
    state = refill_state(SEATS3, round_=10, blue_left=0, discard=discards)
    state = set_player(state, "green", graveyard=(lost,))
    with_lost = tuple(sorted((*discards[:3], lost), key=lambda t: t.number))
    assert "reveal/wrong-stack" in codes(state, Reveal(2, with_lost))
    after = play(state, Reveal(2, discards))
    assert after.player("green").graveyard == (lost,)
    assert lost not in after.restack


# --- RC-31 tiles enter a graveyard only by Barracks or event [L284-287] -----------------------


def test_rc31_graveyard_grows_only_by_barracks_or_event():
    """RC-31 [L284-287]: automatic; checked over whole random games: a graveyard only ever grows
    on a turn that took a Barracks tile, or when a discarding event card (E4, E5, E9, E15) is
    resolved, and only shrinks by a ReturnTile (Village, E10)."""
    grew = 0
    for move, before, after in (t for seed in (3, 4, 5) for t in random_game(seed)):
        for b, a in zip(before.players, after.players, strict=True):
            if len(a.graveyard) > len(b.graveyard):
                grew += 1
                barracks = (
                    isinstance(move, MoveLord)
                    and before.rows[before.player(move.seat).lord.row - 1][
                        before.player(move.seat).lord.slot - 1
                    ].estate
                    == "Barracks"
                )
                card = (
                    EVENTS[before.events[before.events_done]]
                    if after.events_done > before.events_done
                    else None
                )
                assert barracks or (card is not None and card.effect == "discard")
            elif len(a.graveyard) < len(b.graveyard):
                assert isinstance(move, ReturnTile) and move.seat == a.seat
    assert grew > 0


# --- RC-32 events at the end of rounds 4, 8, 12, 16 [L181-184, L434-437] ----------------------


@pytest.mark.parametrize("seed", [3, 4])
def test_rc32_events_at_end_of_rounds_4_8_12_16_leftmost_first(seed):
    """RC-32 [L181-184, L434-437]: one card at the end of each of rounds 4, 8, 12 and 16, the
    leftmost still face up; after the 4th the game is over."""
    resolved = []
    for _, before, after in random_game(seed):
        if after.events_done != before.events_done:
            assert after.events_done == before.events_done + 1
            resolved.append((before.round, before.events[before.events_done]))
    game = random_game(seed)
    last = game[-1][2]
    assert [r for r, _ in resolved] == [4, 8, 12, 16]
    assert [c for _, c in resolved] == list(last.events)
    assert last.phase == "over" and last.round == 16


def test_rc32_position_events_done_must_match_round():
    """RC-32 [L181-184]: in round 2 no card can have been resolved yet."""
    state = round2()
    assert position_codes(state) == []
    assert "position/events-done" in position_codes(replace(state, events_done=1))


def test_rc32_second_event_is_the_next_card_left_to_right():
    """RC-32 [L181-184]: at the end of round 8 the card resolved is the second one laid (the first
    is already face down): E6 pays 3 per Walls, E11 (first) would pay per Field."""
    state = refill_state(SEATS3, round_=8, events_done=1)
    state = replace(state, events=(11, 6, 3, 2))
    state = set_player(state, "blue", board=board(Walls=2, Field=3))
    state = play(state, Reveal(4, ROW4))
    assert state.events_done == 2 and state.player("blue").coins == 6


# --- RC-33 / RC-34 events reach every player; discards at most one per type -------------------


def test_rc33_event_applies_to_every_player():
    """RC-33 [L494-499]: automatic (events need no move but E10's choice); checked: New Towers pays
    every player 3 per Walls, each on his own board."""
    state = refill_state(SEATS3, round_=4, events=(6, 1, 2, 3))
    for seat, walls in zip(SEATS3, (1, 2, 3), strict=True):
        state = set_player(state, seat, board=board(Walls=walls))
    state = play(state, Reveal(4, ROW4))
    assert coins_of(state) == {"blue": 3, "green": 6, "pink": 9}


def test_rc34_invasion_removes_at_most_one_of_each_named_type():
    """RC-34 [L477-483]: automatic; checked: E4 takes one Mill and one Field from each player who
    has them: 3 Mills and 2 Fields → 2 and 1; only a Field → none; nothing → nothing."""
    state = refill_state(SEATS3, round_=4, events=(4, 1, 2, 3))
    state = set_player(state, "blue", board=board(Mill=3, Field=2, Walls=1))
    state = set_player(state, "green", board=board(Field=1))
    state = play(state, Reveal(4, ROW4))
    assert counts(state.player("blue")) == {"Field": 1, "Mill": 2, "Walls": 1}
    assert sorted(t.estate for t in state.player("blue").graveyard) == ["Field", "Mill"]
    assert counts(state.player("green")) == {}
    assert [t.estate for t in state.player("green").graveyard] == ["Field"]
    assert state.player("pink").graveyard == ()


# --- RC-35 end of game [L439-452] -------------------------------------------------------------


@pytest.mark.parametrize("seed", [3, 4])
def test_rc35_final_score_penalty_and_winner(seed):
    """RC-35 [L439-452]: automatic scoring, checked on finished random games: final score = coins −
    10 per empty estate column; the winner has the highest score, ties broken by Palace, Church, ...
    (right to left)."""
    last = random_game(seed)[-1][2]
    rows = {r.seat: r for r in G.score(last)}
    for p in last.players:
        empty = sum(1 for column in p.board if not column)
        assert rows[p.seat].total == p.coins - 10 * empty
        assert rows[p.seat].tiebreak == tuple(count(p, e) for e in reversed(ESTATES))
    best = max((r.total, r.tiebreak) for r in rows.values())
    assert set(G.winners(last)) == {s for s, r in rows.items() if (r.total, r.tiebreak) == best}
    assert codes(last, MoveLord("blue", None)) == ["game/over"]


# --- RC-36 / RC-37 / RC-38 invariants (derived) -----------------------------------------------


def test_rc36_one_tile_per_turn_on_board_plus_graveyard():
    """RC-36 (derived): after Blue's first turn he holds 1 tile, the others 0; a tile vanishing
    from the board without reaching the graveyard is a fault."""
    state = play(started(), MoveLord("blue", 1))
    assert position_codes(state) == []
    assert "position/tile-count" in position_codes(set_player(state, "blue", board=board()))
    extra = set_player(state, "green", graveyard=(tile("Mill", 22),))
    assert "position/tile-count" in position_codes(extra)


def test_rc37_every_tile_is_somewhere():
    """RC-37 (derived): stacks + discards + rows + boards + graveyards = 52 with 3 players."""
    state = round2()
    assert position_codes(state) == []
    assert "position/tile-conservation" in position_codes(replace(state, discard=()))
    assert "position/tile-conservation" in position_codes(
        replace(state, blue_left=state.blue_left + 1)
    )


def test_rc38_lords_share_one_row_and_one_scout_each():
    """RC-38 (derived): once all have acted the Lords stand in one row (a Lord left behind is a
    fault); a player's second Walls moves his one Scout rather than adding another."""
    state = play(started(), MoveLord("blue", 1), MoveLord("green", 2), MoveLord("pink", 3))
    assert position_codes(state) == []
    assert "position/lord-row" in position_codes(set_player(state, "pink", lord=Pos(1, 3)))
    walls = set_player(round2(), "blue", scout=Pos(4, 1))
    walls = set_tile(walls, walls.player("blue").lord, tile("Walls", 7))
    walls = play(walls, MoveLord("blue", 1), PlaceScout("blue", 4, 2))
    scouts = [p.scout for p in walls.players if p.scout is not None]
    assert scouts == [Pos(4, 2)]


# --- RC-39 coins conserved [derived] ----------------------------------------------------------


def test_rc39_transfers_move_coins_between_players_exactly():
    """RC-39 (derived): automatic; checked: a Mill payment moves exactly 2 from payer to payee; the
    bank adds only the income 2 × 1 (and no coin is made from a payer who has none)."""
    state = turn_position(tile("Mill", 3), coins={"green": 9, "pink": 0})
    total = sum(coins_of(state).values())
    state = play(state, MoveLord("blue", 1))
    assert coins_of(state) == {"blue": 2 + 2, "green": 7, "pink": 0}
    assert sum(coins_of(state).values()) == total + 2


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_rc39_itemised_ledger_matches_coin_changes(seed):
    """RC-39 (derived): automatic; checked on every move of a random game each seat's coin change
    equals the sum of the itemised lines the engine reports for that move, and transfers net to
    zero."""
    for move, before, after in random_game(seed):
        for b, a in zip(before.players, after.players, strict=True):
            lines = [e.line.amount for e in after.last_move if e.seat == a.seat]
            assert a.coins - b.coins == sum(lines), (move, before.round, a.seat)
        for kind in ("mill", "barracks"):
            moved = [e.line.amount for e in after.last_move if e.line.source == f"effect:{kind}"]
            assert sum(moved) == 0


# --- RC-40 no tile or income out of turn [derived] --------------------------------------------


def test_rc40_nobody_acts_out_of_turn():
    """RC-40 (derived): during Green's Walls choice neither Blue nor Pink may move; Green may
    not move his Lord again; after him Pink, not Blue, acts."""
    state = turn_position(tile("Mill", 3))
    state = under_lord_green_walls(play(state, MoveLord("blue", 1)))
    state = play(state, MoveLord("green", 2))
    assert G.to_act(state) == ("green",)
    assert codes(state, MoveLord("pink", 3)) == ["turn/not-your-turn"]
    assert codes(state, PlaceScout("pink", 3, 1)) == ["turn/not-your-turn"]
    assert codes(state, MoveLord("green", 3)) == ["flow/not-now"]
    assert codes(state, PlaceCoin("green", "Mill")) == ["flow/not-now"]
    state = play(state, PlaceScout("green", 3, 1))
    assert G.to_act(state) == ("pink",)
    assert codes(state, MoveLord("blue", 3)) == ["turn/not-your-turn"]


def under_lord_green_walls(state):
    lord = state.player("green").lord
    assert lord is not None
    return set_tile(state, lord, tile("Walls", 4))
