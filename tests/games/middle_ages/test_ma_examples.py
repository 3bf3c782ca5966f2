"""The worked examples of the Middle Ages digest, §9 T1-T11 (rules/fief_tiles.md, seed 003).

Expected numbers are the rulebook's (or worked out by hand from its rules where the digest marks
an example as derived); they are never read back from the engine.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from ma_builders import (
    SEATS3,
    SEATS4,
    G,
    board,
    codes,
    coins_of,
    counts,
    play,
    set_player,
    started,
    tile,
    turn_position,
)

from engine import data as gamedata
from engine.games.middle_ages.components import ESTATES
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

# --- T4 table: the rulebook's 3-player first round, L338-428 ----------------------------------
# The pictures of the seed are lost, so the tiles are chosen to fit the text: Blue's top-row tile
# is a Field without a Farmer symbol (L347-350), Green's a Walls (L378-385), Pink's a Barracks
# (L397-408). Numbers are back numbers; each row is sorted before it is turned (L102-103).
R1 = (  # top row; slot 2 is the tile nobody picks (discarded, L369)
    tile("Field", 2),
    tile("Mill", 6),
    tile("Walls", 9),
    tile("Barracks", 15),
)
R2 = (tile("Field", 1), tile("Village", 4), tile("Church", 8), tile("Palace", 20))
R3 = (tile("Field", 3), tile("Mill", 5), tile("Market", 11), tile("Village", 12))
R4 = (tile("Church", 7), tile("Palace", 10), tile("Walls", 13), tile("Barracks", 14))
REFILL_R1 = (tile("Field", 16), tile("Mill", 17), tile("Market", 18), tile("Walls", 19))
GREEN_SCOUT = Pos(3, 2)  # "a tile in the third row" (L383-385)


def t4_setup():
    """Setup as in L360-369: Pink is First Player; placement Pink, Blue, Green in the top row."""
    state = gamedata.setup(G, SEATS3, {})
    for r, row in enumerate((R1, R2, R3, R4), start=1):
        state = play(state, Reveal(r, row))
    state = play(state, LayEvents((3, 6, 11, 13)), DrawOrder(("pink", "blue", "green")))
    assert G.to_act(state) == ("pink",)  # the First Player places first (L360-363)
    state = play(state, PlaceLord("pink", 4))
    assert G.to_act(state) == ("blue",)
    state = play(state, PlaceLord("blue", 1))
    assert G.to_act(state) == ("green",)
    return play(state, PlaceLord("green", 3))


def t4_after_round1():
    state = t4_setup()
    state = play(state, MoveLord("blue", 2))  # Blue to a free row-2 tile (L338-341)
    state = play(state, MoveLord("green", 3))  # "the third tile" of row 2 (L375-376)
    state = play(state, PlaceScout("green", GREEN_SCOUT.row, GREEN_SCOUT.slot))
    return play(state, MoveLord("pink", 1))  # "the first tile of the second row" (L393-395)


def test_t4_setup_turn_order_is_left_to_right_not_placement_order():
    """T4 setup, digest §9 / §4 turn order [L130-132, L338-341, L360-369].

    Pink placed first, but left to right the top row reads Blue, Green, Pink, so Blue plays first.
    The empty top-row tile is discarded at once, and everyone starts with 0 coins (§3 step 9).
    """
    state = t4_setup()
    lords = sorted((p.lord.slot, p.seat) for p in state.players if p.lord is not None)
    assert [seat for _, seat in lords] == ["blue", "green", "pink"]
    assert all(p.lord is not None and p.lord.row == 1 for p in state.players)
    assert state.round == 1
    assert G.to_act(state) == ("blue",)
    assert state.discard == (tile("Mill", 6),)
    assert state.rows[0] == (tile("Field", 2), None, tile("Walls", 9), tile("Barracks", 15))
    assert coins_of(state) == {"blue": 0, "green": 0, "pink": 0}


def test_t4_first_round_replays_to_the_rulebook_result():
    """T4, digest §9: the 3-player first round through the real move API [L338-428].

    Blue takes a Field without Farmer (effect 0, income 2, L343-353). Green goes to the 3rd tile
    of row 2, takes Walls, puts his Scout in row 3 and earns 2 (L375-388). Pink goes to the 1st
    tile of row 2, takes Barracks and attacks Blue only (Walls 0 < Barracks 1; Green's 1 Walls is
    not fewer): Blue's only tile goes to his graveyard and he pays Pink 2; Pink earns 2 income
    (L393-411). After round 1: Blue 0 coins, empty board, graveyard [Field]; Green 2, Walls 1,
    Scout in row 3; Pink 4, Barracks 1; row 1 empty.
    """
    state = t4_setup()
    state = play(state, MoveLord("blue", 2))
    blue = state.player("blue")
    assert blue.coins == 2 and counts(blue) == {"Field": 1}
    assert blue.lord == Pos(2, 2)
    assert G.to_act(state) == ("green",)

    state = play(state, MoveLord("green", 3))
    assert state.player("green").lord == Pos(2, 3)
    assert state.phase == "choice" and G.to_act(state) == ("green",)  # Walls effect: place Scout
    state = play(state, PlaceScout("green", 3, 2))
    assert state.player("green").coins == 2
    assert G.to_act(state) == ("pink",)

    state = play(state, MoveLord("pink", 1))
    blue, green, pink = (state.player(s) for s in SEATS3)
    assert coins_of(state) == {"blue": 0, "green": 2, "pink": 4}
    assert counts(blue) == {} and blue.graveyard == (tile("Field", 2),)
    assert counts(green) == {"Walls": 1} and green.graveyard == ()
    assert counts(pink) == {"Barracks": 1} and pink.graveyard == ()
    assert green.scout == GREEN_SCOUT and blue.scout is None and pink.scout is None
    assert state.rows[0] == (None, None, None, None)
    assert {p.lord for p in state.players} == {Pos(2, 1), Pos(2, 2), Pos(2, 3)}
    assert state.discard == (tile("Mill", 6),)  # the discard pile is not a graveyard
    assert state.phase == "refill" and G.to_act(state) == ("table",)
    assert G.check_position(state) == []


def test_t4_round_two_pink_starts_and_the_scout_tile_is_reserved():
    """T4 refill and round 2, digest §9 [L417-428].

    The refiller lays 4 new tiles in row 1, sorted by their backs (L417-421). Round 2: Pink is
    leftmost in row 2 and starts; the empty row-2 tile is discarded; Pink and Blue may not put
    their Lords on the row-3 tile Green's Scout reserves (L423-428).
    """
    state = t4_after_round1()
    unsorted = (REFILL_R1[1], REFILL_R1[0], REFILL_R1[2], REFILL_R1[3])
    assert codes(state, Reveal(1, unsorted)) == ["reveal/unsorted"]
    state = play(state, Reveal(1, REFILL_R1))
    assert state.rows[0] == REFILL_R1
    assert state.round == 2
    assert G.to_act(state) == ("pink",)
    assert state.discard == (tile("Mill", 6), tile("Palace", 20))  # row 2 slot 4: no Lord
    assert state.rows[1] == (tile("Field", 1), tile("Village", 4), tile("Church", 8), None)

    assert codes(state, MoveLord("pink", 2)) == ["lord/reserved-tile"]
    assert MoveLord("pink", 2) not in G.legal_moves(state)
    state = play(state, MoveLord("pink", 1))  # Field, no Farmer: +2
    assert state.player("pink").coins == 6
    assert G.to_act(state) == ("blue",)
    assert codes(state, MoveLord("blue", 2)) == ["lord/reserved-tile"]
    assert MoveLord("blue", 2) not in G.legal_moves(state)
    state = play(state, MoveLord("blue", 3))
    # Blue took the Village (T7 continues here); Green may use his own reservation.
    state = play(state, ReturnTile("blue", tile("Field", 2)))
    assert codes(state, MoveLord("green", 2)) == []
    state = play(state, MoveLord("green", 2))
    assert state.player("green").scout is None  # his Lord entered that row (L257-258)


def test_t7_village_returns_the_field_lost_to_the_barracks():
    """T7, digest §9 (derived) [L221-224, L245-249]: Blue's graveyard is [Field] after T4.

    In round 2 Blue places a Village and returns that Field: income 2 × (Village 1 + Walls 0) = 2.
    The Field is back on the board but triggers nothing and pays nothing this turn.
    """
    state = play(t4_after_round1(), Reveal(1, REFILL_R1), MoveLord("pink", 1))
    state = play(state, MoveLord("blue", 3))
    assert state.phase == "choice" and state.pending is not None
    assert state.pending.kind == "village"
    before = state.player("blue").coins
    state = play(state, ReturnTile("blue", tile("Field", 2)))
    blue = state.player("blue")
    assert blue.coins - before == 2
    assert counts(blue) == {"Field": 1, "Village": 1}
    assert blue.graveyard == ()
    assert blue.board[0] == (tile("Field", 2),)


def test_t1_income_walls_two_first_village():
    """T1, digest §9 [L189-196]: two Walls, the first Village placed → 2 × 3 = 6 coins.

    The graveyard is empty, so the Village effect is skipped (L210) and no choice is asked.
    """
    state = turn_position(tile("Village", 3), boards={"blue": board(Walls=2)})
    state = play(state, MoveLord("blue", 1))
    assert state.phase == "turn" and state.pending is None
    assert state.player("blue").coins == 6
    assert G.to_act(state) == ("green",)


def test_t2_special_coin_under_village():
    """T2, digest §9 [L312-316]: a special-coin token under Village pays one more per Village
    and per Walls tile: with T1's board, 3 × (1 + 2) = 9."""
    state = turn_position(tile("Village", 3), boards={"blue": board(Walls=2)})
    state = set_player(state, "blue", special_coins=("Village",))
    state = replace(state, special_coins_left=7)
    state = play(state, MoveLord("blue", 1))
    assert state.player("blue").coins == 9


def test_t3_field_story_token_slots():
    """T3, digest §9 [L318-322]: a Field story token cannot go under Field or Walls (both print
    the Field symbol); it may go under Mill, Village, Market, Barracks, Church or Palace."""
    state = turn_position(tile("Palace", 3))
    state = play(state, MoveLord("blue", 1))
    assert state.pending is not None and state.pending.kind == "palace"
    for estate in ("Field", "Walls"):
        assert codes(state, PlaceStory("blue", "Field", estate)) == ["palace/printed-symbol"]
    allowed = {m.estate for m in G.legal_moves(state) if m.symbol == "Field"}
    assert allowed == {"Mill", "Village", "Market", "Barracks", "Church", "Palace"}
    for estate in allowed:
        assert codes(state, PlaceStory("blue", "Field", estate)) == []


def test_t3_follow_on_field_token_under_mill_pays_for_fields():
    """T3 follow-on, digest §9 (derived) [L303-310]: a Field token under Mill, 2 Mills and 3
    Fields → Mill income 2 × (2 + 3) = 10 (the others hold 2 Mills each, so nobody pays)."""
    state = turn_position(
        tile("Mill", 3),
        boards={"blue": board(Mill=1, Field=3), "green": board(Mill=2), "pink": board(Mill=2)},
    )
    state = set_player(state, "blue", story_tokens=(StoryToken("Field", "Mill"),))
    state = replace(state, story_tokens_left=tuple(e for e in ESTATES if e != "Field"))
    state = play(state, MoveLord("blue", 1))
    assert coins_of(state) == {"blue": 10, "green": 0, "pink": 0}


def test_t5_mill_fewer_mills_pay_two():
    """T5, digest §9 (derived) [L218-219, L239-243]: P has 2 Mills after placing, Q 1, R 2, S 0.
    Q and S pay P 2 each, R pays nothing: P +4 effect + 2 × 2 income = 8."""
    p, q, r, s = SEATS4
    state = turn_position(
        tile("Mill", 3),
        seats=SEATS4,
        boards={p: board(Mill=1), q: board(Mill=1), r: board(Mill=2)},
        coins={q: 5, r: 5, s: 5},
    )
    state = play(state, MoveLord(p, 1))
    assert coins_of(state) == {p: 8, q: 3, r: 5, s: 3}


def test_t6_barracks_attack_takes_leftmost_column():
    """T6, digest §9 (derived) [L265-270, L278-282]: P has 2 Barracks after placing. Q (1 Walls)
    is attacked, R (2 Walls) is safe. Q's leftmost non-empty column is Mill: Q ends with Mill 0,
    Walls 1, Market 2, graveyard [Mill], and pays 2. P holds 1 Village: P gains 2 + 2 × (1 + 2)."""
    p, q, r = SEATS3
    qmill = tile("Mill", 7)
    state = turn_position(
        tile("Barracks", 3),
        boards={
            p: board(Barracks=1, Village=1),
            q: board(Mill=[qmill], Walls=1, Market=2),
            r: board(Walls=2, Field=1),
        },
        coins={q: 5, r: 5},
    )
    state = play(state, MoveLord(p, 1))
    assert coins_of(state) == {p: 2 + 6, q: 3, r: 5}
    assert counts(state.player(q)) == {"Walls": 1, "Market": 2}
    assert state.player(q).graveyard == (qmill,)
    assert counts(state.player(r)) == {"Field": 1, "Walls": 2}
    assert state.player(r).graveyard == ()


def test_t8_church_token_on_church_counts_this_turn():
    """T8, digest §9 (derived) [L209, L295-301, L324-327]: 2 Churches after placing and the
    special-coin token put under Church this turn → income (3 + 1) × 2 = 8."""
    state = turn_position(tile("Church", 3), boards={"blue": board(Church=1)})
    state = play(state, MoveLord("blue", 1))
    assert state.pending is not None and state.pending.kind == "church"
    assert state.player("blue").coins == 0  # no income before the effect is done
    state = play(state, PlaceCoin("blue", "Church"))
    assert state.player("blue").coins == 8
    assert state.special_coins_left == 7


def _at_event_refill(seats, boards, events, coins=None, graveyards=None):
    """The end of round 4: every Lord has moved to the top row and row 4 awaits its refill;
    the next Reveal resolves the leftmost face-up event card (refill first, §4)."""
    state = started(seats, events=events)
    state = replace(
        state, round=4, phase="refill", acted=tuple(seats), rows=(*state.rows[:3], (None,) * 4)
    )
    for seat, b in boards.items():
        state = set_player(state, seat, board=b)
    for seat, c in (coins or {}).items():
        state = set_player(state, seat, coins=c)
    for seat, g in (graveyards or {}).items():
        state = set_player(state, seat, graveyard=tuple(g))
    return state


ROW4 = (tile("Field", 2), tile("Mill", 5), tile("Village", 9), tile("Walls", 12))


def test_t9_event_e13_counts_distinct_estates():
    """T9, digest §9 and §6 E13 [L535-539]: Field, Field, Mill, Church → 3 types → +6
    (the §6 reading of E13: 2 × number of distinct types held)."""
    state = _at_event_refill(
        SEATS3, {"blue": board(Field=2, Mill=1, Church=1)}, events=(13, 1, 2, 3)
    )
    state = play(state, Reveal(4, ROW4))
    assert coins_of(state) == {"blue": 6, "green": 0, "pink": 0}
    assert state.events_done == 1 and state.round == 5


def _end_state(a_board, b_board, a_coins, b_coins):
    state = started(("A", "B"), rows=None)
    state = set_player(state, "A", board=a_board, coins=a_coins)
    state = set_player(state, "B", board=b_board, coins=b_coins)
    return replace(state, phase="over", round=16, events_done=4)


ALL8 = {e: 1 for e in ESTATES}


def test_t10_end_penalty_and_palace_tiebreak():
    """T10, digest §9 and §1 [L439-452]: A has 120 coins and 7 estates (no Market) → 110;
    B has 110 coins and all 8 → 110. Tied: most Palaces wins (A 2, B 1)."""
    a = board(**{**ALL8, "Market": 0, "Palace": 2})
    b = board(**ALL8)
    state = _end_state(a, b, 120, 110)
    scores = {row.seat: row.total for row in G.score(state)}
    assert scores == {"A": 110, "B": 110}
    assert G.winners(state) == ("A",)
    swapped = _end_state(board(**{**ALL8, "Market": 0}), board(**{**ALL8, "Palace": 2}), 120, 110)
    assert G.winners(swapped) == ("B",)


def test_t10_tiebreak_goes_right_to_left_after_palace():
    """T10 continued [L448-452]: equal Palaces → most Churches; then the estates right to left
    (Barracks next). A tie through all eight comparisons is shared (§12.15, engine decision)."""
    a = board(**{**ALL8, "Market": 0, "Church": 2})
    b = board(**{**ALL8, "Field": 3})  # more Fields does not matter before Church
    assert G.winners(_end_state(a, b, 120, 110)) == ("A",)
    a = board(**{**ALL8, "Market": 0, "Field": 5})
    b = board(**{**ALL8, "Barracks": 2})
    assert G.winners(_end_state(a, b, 120, 110)) == ("B",)
    same = board(**ALL8)
    assert set(G.winners(_end_state(same, same, 50, 50))) == {"A", "B"}


def _random_until(state, rng, stop):
    """Random legal play (chance sampled as the table would) until ``stop(state)``."""
    while not stop(state):
        move = G.sample_chance(state, rng)
        if move is None:
            moves = G.legal_moves(state)
            move = moves[rng.randrange(len(moves))]
        state = play(state, move)
    return state


def test_t11_three_player_stack_runs_out_after_round_nine():
    """T11, digest §9 and §3 [L93-96, L170-171]: with 3 players the 52 blue tiles last exactly
    through the refill at the end of round 9 (16 + 9 × 4 = 52); the round-10 refill draws from
    the 10 discards of rounds 1-10, reshuffled when the draw is needed."""
    rng = random.Random(11)
    state = gamedata.setup(G, SEATS3, {})
    state = _random_until(state, rng, lambda s: s.phase == "turn")
    assert state.blue_left == 52 - 16
    state = _random_until(state, rng, lambda s: s.round == 9 and s.phase == "refill")
    assert state.blue_left == 4  # 16 + 8 × 4 = 48 drawn
    state = _random_until(state, rng, lambda s: s.round == 10 and s.phase == "turn")
    assert state.blue_left == 0
    assert len(state.discard) == 10  # rounds 1-10, one each
    state = _random_until(state, rng, lambda s: s.phase == "refill")
    discards = state.discard
    # A tile that is not among the discards cannot come from the reshuffled stack.
    stranger = tile("Palace", 23)
    assert stranger not in discards
    bad = tuple(sorted((*discards[:3], stranger), key=lambda t: t.number))
    assert "reveal/wrong-stack" in codes(state, Reveal(2, bad))
    row = G.sample_chance(state, rng)
    assert isinstance(row, Reveal) and all(t in discards for t in row.tiles)
    state = play(state, row)
    assert len(state.restack) == 6 and state.blue_left == 0
    # Rounds 11 and 12: the 6 left, then the 2 newer discards; the supply is exactly enough.
    state = _random_until(state, rng, lambda s: s.round == 13)
    # The round-13 start discarded its unclaimed top-row tile onto a fresh pile.
    assert state.restack == () and len(state.discard) == 1 and state.blue_left == 0
    assert G.check_position(state) == []


@pytest.mark.parametrize("seed", [1, 2])
def test_t11_four_players_switch_to_orange_in_round_seven(seed):
    """T11 companion, digest §3 stack arithmetic [L170-174]: with 4 players blue runs out part way
    through the round-7 refill (20 + 6 × 5 = 50, 2 left); the refill then takes 3 orange tiles,
    and 28 of the 32 orange tiles are used by the end of round 12."""
    rng = random.Random(seed)
    state = gamedata.setup(G, SEATS4, {})
    state = _random_until(state, rng, lambda s: s.round == 7 and s.phase == "refill")
    assert state.blue_left == 2 and state.orange_left == 32
    state = _random_until(state, rng, lambda s: s.round == 8)
    assert state.blue_left == 0 and state.orange_left == 29
    backs = [t.back for t in state.rows[2]]  # row 3, refilled at the end of round 7
    assert sorted(backs) == ["blue", "blue", "orange", "orange", "orange"]
    state = _random_until(state, rng, lambda s: s.round == 13)
    assert state.orange_left == 32 - 28
